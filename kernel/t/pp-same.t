#!/bin/sh
# kernel/pp-same.sh on two small build folders shaped like kbuild's: it
# names the objects whose source preprocesses to the same text in both,
# under both .cmd formats (6.1's cmd_ with objtool after the compile,
# 6.12's savedcmd_ without), and never one that differs or whose command
# is not a plain compile. No kernel needed: gcc on a few lines of C.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/tap.sh"
command -v gcc >/dev/null || tap_skip_all "gcc missing (make deps)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

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
# cmdfile SIDE OBJ FORMAT: OBJ's .cmd file, FORMAT old (6.1) or new (6.12)
cmdfile() {
	s=$tmp/$1/src
	c="gcc -Wp,-MMD,d/.$2.d -I$s -DKBUILD_MODNAME='\"x\"' -c -o d/$2 $s/${2%.o}.c"
	case $3 in
	old) echo "cmd_d/$2 := $c   ; ./tools/objtool/objtool --hacks=jump_label d/$2" ;;
	new) echo "savedcmd_d/$2 := $c  " ;;
	ld) echo "cmd_d/$2 := ld -r -o d/$2 d/x.o" ;;
	other) echo "cmd_d/$2 := $c ; ./tools/objtool/objtool d/other.o" ;;
	esac >"$tmp/$1/build/d/.$2.cmd"
}
same() { # FORMAT: what pp-same.sh prints for x.o, y.o and z.o
	for side in seed new; do
		for o in x.o y.o z.o; do
			cmdfile $side $o "$1"
		done
	done
	"$top/kernel/pp-same.sh" "$tmp/seed/build" "$tmp/new/build" d/x.o d/y.o d/z.o |
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

echo "1..5"
is "$(same old)" "d/x.o " "6.1's cmd_ lines: x.o kept; not y.o (uses the changed B), z.o (__LINE__ moved)"
is "$(same new)" "d/x.o " "6.12's savedcmd_ lines: the same"
is "$(same ld)" "" "a command that does not compile: nothing"
is "$(same other)" "" "objtool run on another object: nothing"
rm "$tmp/seed/build/d/.x.o.cmd"
is "$("$top/kernel/pp-same.sh" "$tmp/seed/build" "$tmp/new/build" d/x.o)" "" \
	"no command on the seed's side: nothing"
exit $failed
