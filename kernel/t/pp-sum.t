#!/bin/sh
# kernel/pp-sum.sh on small build folders shaped like kbuild's. "record"
# sums the text each compile left (-save-temps=obj) and deletes it;
# "same" names the objects whose source preprocesses, in another build,
# to the recorded text, under both .cmd formats (6.1's cmd_ with objtool
# after the compile, 6.12's savedcmd_ without), and never one that
# differs or whose command is not a plain compile. No kernel needed: gcc
# on a few lines of C.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/lib/tap.sh"
command -v gcc >/dev/null || tap_skip_all "gcc missing (make deps)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pp_sum=$top/kernel/pp-sum.sh

# A source tree per side: SIDE's a.h is HEADER; b.h's inline function
# returns its own line, moved down by FIRST (a line or nothing).
tree() {
	mkdir -p "$tmp/$1/src" "$tmp/$1/build/d"
	printf '%s\n' "$2" >"$tmp/$1/src/a.h"
	printf '%sstatic inline int l(void) { return __LINE__; }\n' "$3" >"$tmp/$1/src/b.h"
	printf '#include "b.h"\nint z(void) { return l(); }\n' >"$tmp/$1/src/z.c"
	printf '#include "a.h"\nint x(void) { return A + __LINE__; }\n' >"$tmp/$1/src/x.c"
	printf '#include "a.h"\nint y(void) { return B; }\n' >"$tmp/$1/src/y.c"
}
# The compile of OBJ in SIDE, as kernel/build.sh has kbuild run it.
compile() {
	echo "gcc -Wp,-MMD,d/.$2.d -I$tmp/$1/src -DKBUILD_MODNAME='\"x\"' -save-temps=obj -c -o d/$2 $tmp/$1/src/${2%.o}.c"
}
# cmdfile SIDE OBJ FORMAT: OBJ's .cmd file, FORMAT old (6.1) or new (6.12)
cmdfile() {
	c=$(compile "$1" "$2")
	case $3 in
	old) echo "cmd_d/$2 := $c   ; ./tools/objtool/objtool --hacks=jump_label d/$2" ;;
	new) echo "savedcmd_d/$2 := $c  " ;;
	ld) echo "cmd_d/$2 := ld -r -o d/$2 d/x.o" ;;
	other) echo "cmd_d/$2 := $c ; ./tools/objtool/objtool d/other.o" ;;
	esac >"$tmp/$1/build/d/.$2.cmd"
}
same() { # FORMAT: what "same" prints for x.o, y.o and z.o
	for o in x.o y.o z.o; do
		cmdfile new $o "$1"
	done
	"$pp_sum" same "$tmp/seed/build/.lab-ppsums" "$tmp/new/build" d/x.o d/y.o d/z.o |
		tr '\n' ' '
}

# The new side: a comment atop a.h moves every line below it, and a
# changed B; x.c uses A and __LINE__ of its own, y.c uses B. A comment
# atop b.h changes the number z.c gets from l().
tree seed "#define A 1
#define B 2" ""
tree new "/* a new first line */
#define A 1
#define B 3" "/* a new first line */
"

echo "1..10"
for o in x.o y.o z.o; do
	(cd "$tmp/seed/build" && sh -c "$(compile seed $o)")
done
echo 'int asm_offsets;' >"$tmp/seed/build/d/q.i" # kbuild's -S targets: no q.o
"$pp_sum" record "$tmp/seed/build"
is "$(cut -d' ' -f2 "$tmp/seed/build/.lab-ppsums" | sort | tr '\n' ' ')" "d/x.o d/y.o d/z.o " \
	"record: a sum for each compiled object"
is "$(cd "$tmp/seed/build/d" && ls -- *.i *.s 2>/dev/null | tr '\n' ' ')" "q.i " \
	"record: the compiles' .i and .s deleted, a .i without its object left"

is "$(same old)" "d/x.o " "6.1's cmd_ lines: x.o kept; not y.o (uses the changed B), z.o (__LINE__ moved)"
is "$(same new)" "d/x.o " "6.12's savedcmd_ lines: the same"
is "$(same ld)" "" "a command that does not compile: nothing"
is "$(same other)" "" "objtool run on another object: nothing"
grep -v ' d/x.o$' "$tmp/seed/build/.lab-ppsums" >"$tmp/sums"
cmdfile new x.o new
is "$("$pp_sum" same "$tmp/sums" "$tmp/new/build" d/x.o)" "" \
	"no sum recorded for the object: nothing"

# A build started from the seed's copy: x.o kept, y.o compiled anew, z.o
# compiled without leaving its text (its old sum must not stay).
new=$tmp/new/build
cp "$tmp/seed/build/.lab-ppsums" "$tmp/seed/build/d/x.o" "$tmp/seed/build/d/z.o" "$new/"
mv "$new/x.o" "$new/z.o" "$new/d/"
touch "$new/.lab-seeded"
sleep 0.05
(cd "$new" && sh -c "$(compile new y.o)")
touch "$new/d/z.o"
"$pp_sum" record "$new"
seed_sum() { awk -v o="$1" '$2 == o { print $1 }' "$tmp/seed/build/.lab-ppsums"; }
new_sum() { awk -v o="$1" '$2 == o { print $1 }' "$new/.lab-ppsums"; }
is "$(new_sum d/x.o)" "$(seed_sum d/x.o)" "record after a seed: the kept object's sum is the seed's"
ok '[ -n "$(new_sum d/y.o)" ] && [ "$(new_sum d/y.o)" != "$(seed_sum d/y.o)" ]' \
	"record after a seed: the compiled object's sum is its new text's"
is "$(new_sum d/z.o)" "" "record after a seed: an object compiled without its text has no sum"
exit $failed
