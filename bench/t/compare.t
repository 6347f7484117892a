#!/bin/sh
# bench/compare on recorded results: calls that changed, cases only one
# run has, time moves, and what it accepts.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
compare=$here/../compare
fx=$here/fixtures
command -v jq >/dev/null || { echo "1..0 # SKIP jq missing"; exit 0; }

. "$here/lib.sh"
TAP_DIAG=$tmp/out

# B: patched's deep DONT_SYNC now costs 2, stock's ls cold N=100 is gone,
# a new case appears, and optin's deep walk got ten times slower.
mkdir "$tmp/b"
jq '.cases |= (map(
	if .kernel == "patched" and .workload == "syscall" and .sync == "dont"
	then .calls = 2 else . end |
	if .kernel == "optin" and .workload == "deep"
	then .wall_us = 7000 else . end) |
	map(select(.kernel != "stock" or .workload != "ls" or .n != 100 or
		.cache != "cold" or .delay_ms != 0)) +
	[{kernel: "stock", fs: "fuse", workload: "syscall", call: "lstat",
	  sync: "as-stat", mask: "basic", object: "file", cache: "cold",
	  n: 1, delay_ms: 0, calls: 1, wall_us: 5}])' \
	"$fx/small.json" >"$tmp/b/results.json"

echo "1..11"
ok '"$compare" "$fx/small.json" "$fx/small.json" >"$tmp/out" &&
	grep -qx "34 cases in both; 0 with other server calls" "$tmp/out"' \
	"a run against itself: nothing changed"
ok '"$compare" "$fx/small.json" "$tmp/b" >"$tmp/out"' "a file and a directory"
ok 'grep -qx "33 cases in both; 2 with other server calls" "$tmp/out"' \
	"counts of matched and changed cases"
ok 'grep -qxF "  patched fuse entry_timeout=0,attr_timeout=0 syscall statx - dont basic deep - expired 1 0: 0 -> 2 (+2)" "$tmp/out"' \
	"a changed count with its difference"
ok 'grep -qx "only in A: 1 cases" "$tmp/out" && grep -qF "  stock fuse entry_timeout=60,attr_timeout=60,readdirplus=auto ls ls long as-stat - dir - cold 100 0" "$tmp/out"' \
	"a case only A has"
ok 'grep -qx "only in B: 1 cases" "$tmp/out"' "a case only B has"
ok '! grep -q "time moved" "$tmp/out"' "times only with --time"
ok '"$compare" --time 50 "$fx/small.json" "$tmp/b" >"$tmp/out" &&
	grep -qF "  optin fuse entry_timeout=0,attr_timeout=0 deep statx - dont basic deep - expired 64 0: 0.7 -> 7.0 ms (+900%)" "$tmp/out"' \
	"--time lists a case ten times slower"
# C: a symlink case twice, following it and not (nofollow), each
# changed; and stock's ls cold N=1000 outlasted its attribute timeout
mkdir "$tmp/c" "$tmp/d"
jq '.cases |= [(.[] | select(.kernel == "patched" and .workload == "syscall"
		and .sync == "dont") | .object = "symlink"
		| (., (.nofollow = true | .calls = 7))),
	(.[] | select(.kernel == "stock" and .workload == "ls"
		and .n == 100 and .cache == "cold" and .delay_ms == 0))]' \
	"$fx/small.json" >"$tmp/c/results.json"
jq '.cases |= map(.calls += 1 |
	if .workload == "ls" then .outlasted_timeout = true else . end)' \
	"$tmp/c/results.json" >"$tmp/d/results.json"
"$compare" "$tmp/c" "$tmp/d" >"$tmp/out"
ok 'grep -qF "basic symlink - expired 1 0: 0 -> 1 (+1)" "$tmp/out" &&
	grep -qF "basic symlink nofollow expired 1 0: 7 -> 8 (+1)" "$tmp/out"' \
	"a case and its nofollow twin are two cases"
ok 'grep -qx "5 cases in both; 4 with other server calls, 1 more that outlasted their attribute timeout" "$tmp/out" &&
	sed -n "/^outlasted/,\$p" "$tmp/out" | grep -qF "ls ls long as-stat - dir - cold 100 0:"' \
	"a count that outlasted its attribute timeout is listed apart"
rc=0
"$compare" "$fx/small.json" >/dev/null 2>&1 || rc=$?
ok '[ $rc = 2 ]' "one argument: usage, exit 2"
exit $failed
