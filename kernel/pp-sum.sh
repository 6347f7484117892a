#!/bin/sh
# The preprocessed text an object was compiled from, as a checksum: a
# build that starts from another keeps the objects whose text is the same.
#
# usage: kernel/pp-sum.sh record BUILD
#        kernel/pp-sum.sh same SUMS BUILD OBJ...
#
# kernel/build.sh compiles with -save-temps=obj, so each compiled X.o
# leaves the X.i the compiler read. "record" sums every such X.i into
# BUILD/.lab-ppsums ("SUM OBJ" lines), deletes X.i and X.s, and keeps the
# sums already there for the objects this build did not compile (newer
# than BUILD/.lab-seeded: a build that started from a copy of another).
# "same" preprocesses each OBJ (a path relative to BUILD) by its command
# in BUILD and prints it when its sum is the one SUMS records.
#
# The sum is over the text without line markers and blank lines: those
# change when a header gains lines, the tokens do not. The compiler then
# makes the same object: lines reach an object only through debug
# information, which lab kernels do not have (__LINE__ is expanded in the
# text, and the trees use no __builtin_LINE). An OBJ whose command is not
# a plain compile (gcc ... -c -o OBJ SRC, on 6.1 then objtool) is never
# printed. BUILD's generated headers must be those of the build SUMS
# came from: run before make.
set -eu
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

text_sum() {
	LC_ALL=C grep -v -E '^(# [0-9]| *$)' | md5sum | cut -c1-32
}

# OBJ's compile command in BUILD's .cmd file (kbuild names it
# savedcmd_OBJ since 6.3, cmd_OBJ before), turned into a preprocessing
# to stdout, or nothing when the command has another shape.
pp_command() {
	awk -v o="$2" '
	{
		if (index($0, "cmd_" o " := ") == 1)
			c = substr($0, length("cmd_" o " := ") + 1)
		else if (index($0, "savedcmd_" o " := ") == 1)
			c = substr($0, length("savedcmd_" o " := ") + 1)
		else
			next
		n = split(c, part, ";")
		if (n > 2)
			exit
		if (n == 2) {
			t = part[2]
			sub(/^ +/, "", t)
			sub(/ +$/, "", t)
			if (index(t, "./tools/objtool/objtool ") != 1 ||
			    substr(t, length(t) - length(o)) != " " o)
				exit
		}
		c = part[1]
		k = index(c, " -c -o " o " ")
		if (k == 0)
			exit
		c = substr(c, 1, k - 1) " -E -o - " \
		    substr(c, k + length(" -c -o " o " "))
		gsub(/-Wp,-MMD,[^ ]*/, "", c)
		print c
		exit
	}' "$1/$(dirname "$2")/.$(basename "$2").cmd" 2>/dev/null
}

# Print OBJ... whose text in BUILD sums to what SUMS records.
same() {
	sums=$1
	build=$2
	shift 2
	for obj; do
		want=$(awk -v o="$obj" '$2 == o { print $1; exit }' "$sums")
		[ -n "$want" ] || continue
		cmd=$(pp_command "$build" "$obj")
		[ -n "$cmd" ] || continue
		(cd "$build" && sh -c "$cmd") >"$tmp" 2>/dev/null || continue
		[ "$(text_sum <"$tmp")" = "$want" ] && echo "$obj"
	done
	return 0
}

# "SUM OBJ" for each X.i given (relative to the current folder) whose
# X.o exists; X.i and X.s are deleted.
sum_files() {
	for i; do
		o=${i%.i}.o
		[ -e "$o" ] || continue
		printf '%s %s\n' "$(text_sum <"$i")" "${o#./}"
		rm -f "$i" "${i%.i}.s"
	done
}

record() {
	cd "$1"
	find . -name '*.i' -type f -print0 | xargs -0 -r -P "${JOBS:-1}" -n 64 "$self" sum-files \
		>.lab-ppsums.new
	: >.lab-ppsums.kept
	if [ -e .lab-seeded ] && [ -e .lab-ppsums ]; then
		# the seed's sums, less those of the objects compiled since
		find . -name '*.o' -newer .lab-seeded | sed 's|^\./||' >.lab-compiled
		awk 'FILENAME != ".lab-ppsums" { skip[$NF] = 1; next } !($2 in skip)' \
			.lab-ppsums.new .lab-compiled .lab-ppsums >.lab-ppsums.kept
		rm -f .lab-compiled
	fi
	cat .lab-ppsums.new .lab-ppsums.kept >.lab-ppsums.all
	rm -f .lab-ppsums.new .lab-ppsums.kept
	mv .lab-ppsums.all .lab-ppsums
}

case ${1-} in
record) [ $# -eq 2 ] && record "$2" ;;
same) [ $# -ge 3 ] && shift && same "$@" ;;
sum-files) shift && sum_files "$@" ;;
*) false ;;
esac || {
	echo "usage: $0 record BUILD | same SUMS BUILD OBJ..." >&2
	exit 2
}
