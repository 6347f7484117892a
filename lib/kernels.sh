# The lab's kernel axis, kernels.list, read for bench/lab, nfs-lab/run
# and the guest tests; POSIX sh, sourced after setting lab_lib (this
# folder). $LAB_KERNEL_LIST names another list (the tests' stand-ins).

# lab_kernel_entry LABEL: kernel LABEL of kernels.list ($LAB_KERNEL_LIST):
# $lab_role (stock, patched, optin), $lab_kver (6.1...), $lab_image (the
# bzImage) and $lab_append (its extra command line). 1 if the list has
# no such label; also if its line is not "LABEL ROLE KVER IMAGE
# [ARGS...]", which a line on stderr says.
lab_kernel_entry() {
	lab_line=$(awk -v k="$1" '$1 == k && $1 !~ /^#/ {
		if (NF < 4 || $2 !~ /^(stock|patched|optin)$/ ||
		    $3 !~ /^[0-9]+\.[0-9]+$/) {
			print "kernels.list: the line of " k " is not LABEL ROLE KVER IMAGE [ARGS...] (ROLE stock, patched or optin)" >"/dev/stderr"
			exit
		}
		a = $5
		for (i = 6; i <= NF; i++)
			a = a " " $i
		print $2 "\t" $3 "\t" $4 "\t" a
		f = 1
		exit
	} END { exit !f }' "${LAB_KERNEL_LIST:-$lab_lib/kernels.list}") ||
		return 1
	IFS='	' read -r lab_role lab_kver lab_image lab_append <<EOF
$lab_line
EOF
	lab_image=${LAB_CACHE:?}/kernels/$lab_image
}

# lab_kernels [--quick]: every label of kernels.list, in its order;
# --quick: those without kernel arguments
lab_kernels() {
	awk -v q="${1:-}" '$1 !~ /^#/ && NF >= 4 && (q == "" || NF == 4) {
		print $1 }' "${LAB_KERNEL_LIST:-$lab_lib/kernels.list}" |
		tr '\n' ' '
}

# lab_kernels_of ROLES KVERS: the labels of kernels.list whose role is
# one of the words ROLES and whose version one of the words KVERS
lab_kernels_of() {
	awk -v r=" $1 " -v v=" $2 " '$1 !~ /^#/ && NF >= 4 &&
		index(r, " " $2 " ") && index(v, " " $3 " ") { print $1 }' \
		"${LAB_KERNEL_LIST:-$lab_lib/kernels.list}" | tr '\n' ' '
}
