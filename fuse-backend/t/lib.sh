# Sourced by t/*.t: the lab's TAP helpers (lib/tap.sh), find the
# build, skip what is not built.  $VALGRIND, when set, prefixes every
# binary under test (make check-valgrind).
#
# The binaries are in $FC_BUILD (set by our Makefile), else in
# $BUILD/fuse-backend when $BUILD is the lab's build root (as the top
# Makefile exports it), else in $BUILD, else in ../build/fuse-backend.
T_DIR=$(cd "$(dirname "$0")" && pwd)
. "$T_DIR/../../lib/tap.sh"
if [ -n "${FC_BUILD:-}" ]; then
	BUILD=$FC_BUILD
elif [ -n "${BUILD:-}" ] && [ -d "$BUILD/fuse-backend" ]; then
	BUILD=$BUILD/fuse-backend
else
	BUILD=${BUILD:-$T_DIR/../../build/fuse-backend}
fi
VALGRIND=${VALGRIND:-}
need_bin() {
	for b in "$@"; do
		if [ ! -x "$BUILD/$b" ]; then
			echo "1..0 # SKIP $b not built (make -C fuse-backend)"
			exit 0
		fi
	done
}

# A C test prints its own TAP
run_c_test() {
	need_bin "$1"
	exec $VALGRIND "$BUILD/$1"
}

# run OUT ERR CMD...: run CMD, keep its status in $rc
run() {
	out=$1 err=$2
	shift 2
	set +e
	"$@" >"$out" 2>"$err"
	rc=$?
	set -e
}

have_jq() {
	command -v jq >/dev/null 2>&1
}
