#!/bin/sh
# The daemon's files call each other along a DAG (README.md, "Files"):
# each .c and .h includes only its own header and those of the modules
# it may call, so no include circle can come back unnoticed.
set -eu
. "$(dirname "$0")/lib.sh"
cd "$T_DIR/.."

# may_include MODULE: the headers MODULE's files may include (the lab's
# shared lib/ is below every module)
may_include() {
	case $1 in
	fuse_abi|fusecount-ctl) echo "" ;;
	sbuf)		echo "lab_json.h" ;;
	inode|req|init)	echo "fuse_abi.h" ;;
	stats|trace)	echo "req.h sbuf.h" ;;
	ctl)		echo "stats.h trace.h sbuf.h" ;;
	ops)		echo "inode.h stats.h trace.h" ;;
	statx)		echo "ops.h req.h" ;;
	loop)		echo "ops.h req.h stats.h trace.h statx.h init.h" ;;
	main)		echo "ctl.h loop.h ops.h statx.h" ;;
	*)		echo "?" ;;
	esac
}

# stray FILE: the headers FILE includes that its module may not
stray() {
	m=${1%.*}
	allowed=" $m.h $(may_include "$m") "
	for h in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$1"); do
		case $allowed in
		*" $h "*) ;;
		*) echo "$h" ;;
		esac
	done
}

files=$(ls ./*.c ./*.h | sed 's|^\./||')
echo "1..$(echo "$files" | wc -l)"
for f in $files; do
	if [ "$(may_include "${f%.*}")" = "?" ]; then
		tap_result 1 "$f: a module README.md's table does not list"
	else
		is "$(stray "$f" | tr '\n' ' ')" "" "$f includes only what it may call"
	fi
done
exit $failed
