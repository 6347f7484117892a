#!/bin/sh
# scripts/build-beside.sh, what make check runs the tests with while the
# later versions' kernels build: the build at idle priority, a test of a
# later kernel waiting for it (guest/lib.sh lab_wait_beside), a test of
# the first version not waiting, failures of either reported, and the
# whole build stopped with the run. Stand-in builds and tests: no kernel.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
beside=$top/scripts/build-beside.sh
status=$tmp/status

# test_of KERNEL: a test file of KERNEL's: waits as lab_kernel does, then
# says whether the build had finished.
test_of() {
	cat >"$tmp/$1.t" <<EOF
#!/bin/sh
. "$top/guest/lib.sh"
lab_wait_beside $1
[ -e "$tmp/built" ] && echo "$1: built" || echo "$1: not built"
EOF
	echo "sh $tmp/$1.t"
}

echo "1..8"
out=$("$beside" "$status" "6.12" "sleep 1; : >$tmp/built" -- sh -c \
	"$(test_of stock) && $(test_of patched-6.12)")
is "$out" "stock: not built
patched-6.12: built" "a first-version test goes on at once, a later kernel's waits for the build"
is "$(cat "$status")" 0 "the build's status is written"

rm -f "$tmp/built"
out=$("$beside" "$status" "6.12 6.13" "sleep 1; : >$tmp/built" -- $(test_of optin-6.13))
is "$out" "optin-6.13: built" "each of several later versions waits"

"$beside" "$status" "6.12" "chrt -p \$\$ >$tmp/policy" -- true
ok 'grep -q SCHED_IDLE "$tmp/policy"' "the build runs at idle priority"

rc=0
out=$("$beside" "$status" "6.12" "exit 3" -- $(test_of stock-6.12)) || rc=$?
is "$rc $out" "1 1..1
not ok 1 - the stock-6.12 kernel builds (make kernel says why)" \
	"a failed build fails a later kernel's test file, and so the run"

rc=0
"$beside" "$status" "6.12" "true" -- sh -c "exit 5" || rc=$?
is "$rc" 5 "failed tests: the run has their status"

rc=0
"$beside" "$status" "6.12" "exit 4" -- true || rc=$?
is "$rc" 4 "passing tests, failed build: the run fails"

# Ctrl-C at a terminal: SIGINT to the whole foreground process group,
# which the background build of a script ignores. Nothing of the build
# may stay behind. (The run gets a group of its own, and SIGINT back,
# which this script's background jobs ignore too.)
marker=31.$$
perl -e 'setpgrp(0, 0); $SIG{INT} = "DEFAULT"; exec @ARGV or die' \
	"$beside" "$status" "6.12" "sleep $marker" -- sleep 30 &
pid=$!
sleep 1
kill -INT "-$pid"
wait "$pid" 2>/dev/null || :
sleep 0.5
ok '! pgrep -f "sleep $marker"' "stopping the run stops the build"
pkill -f "sleep $marker" 2>/dev/null || :
exit $failed
