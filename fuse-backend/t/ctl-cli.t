#!/bin/sh
# fusecount-ctl against a control socket served by ctl_test --serve (the
# ctl thread with made-up counters: LOOKUP 3, GETATTR 1, STATX 1 forced).
set -eu
. "$(dirname "$0")/lib.sh"
need_bin fusecount-ctl ctl_test

TMP=$(mktemp -d)
srv=
cleanup() {
	[ -z "$srv" ] || kill "$srv" 2>/dev/null || true
	rm -rf "$TMP"
}
trap cleanup EXIT
S=$TMP/ctl
CTL="$VALGRIND $BUILD/fusecount-ctl"

echo 1..13
"$BUILD/ctl_test" --serve "$S" &
srv=$!
i=0
while [ $i -lt 50 ] && ! "$BUILD/fusecount-ctl" "$S" stats >/dev/null 2>&1
do
	sleep 0.1
	i=$((i + 1))
done

run "$TMP/out" "$TMP/err" $CTL "$S" stats
t_ok $rc 'stats: exit 0'
if have_jq; then
	jq -e '.LOOKUP == 3 and .GETATTR == 1 and .STATX == 1 and
	       .total == 5 and .statx_sync.force == 1' "$TMP/out" >/dev/null
	t_ok $? 'stats: the counts, as JSON'
else
	t_skip 'jq not installed'
fi

run "$TMP/out" "$TMP/err" $CTL "$S" dump
[ "$rc" -eq 0 ] && [ "$(tail -n 1 "$TMP/out")" = end ] &&
	[ "$(grep -c '^{"seq":' "$TMP/out")" -eq 5 ]
t_ok $? 'dump: five requests, then end'
if have_jq; then
	sed '$d' "$TMP/out" | jq -e -s 'length == 5 and
		(map(.op) == ["LOOKUP","LOOKUP","LOOKUP","GETATTR","STATX"]) and
		.[4].sx_flags == "0x2000"' >/dev/null
	t_ok $? 'dump: JSON lines in request order'
else
	t_skip 'jq not installed'
fi

run "$TMP/out" "$TMP/err" $CTL "$S" trace off
[ "$rc" -eq 0 ] && [ "$(cat "$TMP/out")" = ok ]
t_ok $? 'trace off: ok'

run "$TMP/out" "$TMP/err" $CTL "$S" reset
[ "$rc" -eq 0 ] && [ "$(cat "$TMP/out")" = ok ]
t_ok $? 'reset: ok'
run "$TMP/out" "$TMP/err" $CTL "$S" stats
[ "$rc" -eq 0 ] && grep -q '^{"total":0,' "$TMP/out"
t_ok $? 'stats after reset: total 0'

run "$TMP/out" "$TMP/err" $CTL "$S" bogus
[ "$rc" -eq 1 ] && grep -q '^error: unknown command' "$TMP/err"
t_ok $? 'unknown command: error, exit 1'
run "$TMP/out" "$TMP/err" $CTL "$S" trace
[ "$rc" -eq 1 ] && grep -q '^error: usage: trace on|off' "$TMP/err"
t_ok $? 'trace without on|off: error, exit 1'

run "$TMP/out" "$TMP/err" $CTL "$S"
[ "$rc" -eq 2 ] && grep -q '^usage:' "$TMP/err"
t_ok $? 'no command: usage, exit 2'
run "$TMP/out" "$TMP/err" $CTL "$S" "$(printf '%300s' x)"
[ "$rc" -eq 2 ]
t_ok $? 'overlong command: usage, exit 2'

run "$TMP/out" "$TMP/err" $CTL "$TMP/none" stats
[ "$rc" -eq 1 ] && grep -q 'No such file or directory (is fusecount running' \
	"$TMP/err"
t_ok $? 'no socket: a clear message, exit 1'

kill "$srv"
wait "$srv" || true
srv=
[ ! -e "$S" ]
t_ok $? 'the server removes its socket file on SIGTERM'
t_done
