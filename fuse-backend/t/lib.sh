# Sourced by t/*.t: find the build, skip what is not built, and the few
# TAP helpers the shell tests share.  $VALGRIND, when set, prefixes every
# binary under test (make check-valgrind).
#
# The binaries are in $FC_BUILD (set by our Makefile), else in
# $BUILD/fuse-backend when $BUILD is the lab's build root (as the top
# Makefile exports it), else in $BUILD, else in ../build/fuse-backend.
T_DIR=$(cd "$(dirname "$0")" && pwd)
if [ -n "${FC_BUILD:-}" ]; then
	BUILD=$FC_BUILD
elif [ -n "${BUILD:-}" ] && [ -d "$BUILD/fuse-backend" ]; then
	BUILD=$BUILD/fuse-backend
else
	BUILD=${BUILD:-$T_DIR/../../build/fuse-backend}
fi
VALGRIND=${VALGRIND:-}
t_n=0
t_failed=0

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

# t_ok STATUS DESCRIPTION: STATUS 0 passes
t_ok() {
	t_n=$((t_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $t_n - $2"
	else
		echo "not ok $t_n - $2"
		t_failed=$((t_failed + 1))
	fi
}

# t_cond CONDITION DESCRIPTION: CONDITION is shell code; a false one is a
# "not ok", where "[ ... ]; t_ok $?" would end the script under set -e
t_cond() {
	if eval "$1"; then
		t_ok 0 "$2"
	else
		t_ok 1 "$2"
	fi
}

t_skip() {
	t_n=$((t_n + 1))
	echo "ok $t_n # SKIP $1"
}

t_diag() {
	sed 's/^/# /' "$@"
}

t_done() {
	[ "$t_failed" -eq 0 ]
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
