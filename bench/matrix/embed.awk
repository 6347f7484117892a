# bench/matrix/embed.awk FILE.matrix...: the matrix files as C strings,
# lab_matrix_FILE[], for the planner (plan.c); the Makefiles generate
# matrix.c with it.
BEGIN {
	print "/* Generated from the files of bench/matrix by embed.awk: edit those. */"
}
FNR == 1 {
	if (name != "")
		print ";"
	name = FILENAME
	sub(/.*\//, "", name)
	sub(/\.matrix$/, "", name)
	printf "const char lab_matrix_%s[] =\n", name
}
{
	gsub(/\\/, "\\\\")
	gsub(/"/, "\\\"")
	gsub(/\t/, "\\t")
	printf "\t\"%s\\n\"\n", $0
}
END {
	print ";"
}
