#!/bin/sh
# Run a build at idle priority beside a test run, and tell the tests.
#
# usage: scripts/build-beside.sh STATUS "KVERS" BUILD-COMMAND -- TEST-COMMAND...
#
# make check runs the tests of the first kernel version while the later
# versions' kernels (KVERS, e.g. "6.12") build: SCHED_IDLE gives the
# build only the CPU the test guests leave, and they leave much (they
# wait on attribute timeouts, delays and each other). A test of a later
# kernel waits for the build (guest/lib.sh lab_wait_beside), which
# writes its exit status to STATUS. Exits with the tests' status, or the
# build's when the tests passed.
set -eu
[ $# -ge 5 ] && [ "$4" = -- ] || {
	echo "usage: $0 STATUS \"KVERS\" BUILD-COMMAND -- TEST-COMMAND..." >&2
	exit 2
}
status=$1
kvers=$2
build=$3
shift 4
rm -f "$status"
# Its own process group, to stop all of it: a background job of a
# script ignores the terminal's Ctrl-C.
setsid chrt -i 0 sh -c '(eval "$2"); echo $? >"$1.new" && mv "$1.new" "$1"' \
	sh "$status" "$build" &
pid=$!
trap 'kill -TERM "-$pid" 2>/dev/null || :' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
rc=0
LAB_BESIDE="$pid $status" LAB_BESIDE_KVERS=$kvers "$@" || rc=$?
wait $pid || :
trap - EXIT
[ "$rc" -ne 0 ] || rc=$(cat "$status" 2>/dev/null || echo 1)
exit "$rc"
