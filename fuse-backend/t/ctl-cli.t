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

counts_ok() {
	jq -e '.LOOKUP == 3 and .GETATTR == 1 and .STATX == 1 and
	       .total == 5 and .statx_sync.force == 1' "$TMP/out"
}

dump_ok() {
	sed '$d' "$TMP/out" | jq -e -s 'length == 5 and
		(map(.op) == ["LOOKUP","LOOKUP","LOOKUP","GETATTR","STATX"]) and
		.[4].sx_flags == "0x2000"'
}

run "$TMP/out" "$TMP/err" $CTL "$S" stats
is "$rc" 0 'stats: exit 0'
if have_jq; then
	ok counts_ok 'stats: the counts, as JSON'
else
	skip 'jq not installed'
fi

run "$TMP/out" "$TMP/err" $CTL "$S" dump
is "$rc/$(tail -n 1 "$TMP/out")/$(grep -c '^{"seq":' "$TMP/out")" 0/end/5 \
	'dump: five requests, then end'
if have_jq; then
	ok dump_ok 'dump: JSON lines in request order'
else
	skip 'jq not installed'
fi

run "$TMP/out" "$TMP/err" $CTL "$S" trace off
is "$rc/$(cat "$TMP/out")" 0/ok 'trace off: ok'

run "$TMP/out" "$TMP/err" $CTL "$S" reset
is "$rc/$(cat "$TMP/out")" 0/ok 'reset: ok'
run "$TMP/out" "$TMP/err" $CTL "$S" stats
ok '[ "$rc" -eq 0 ] && grep -q "^{\"total\":0," "$TMP/out"' \
	'stats after reset: total 0'

run "$TMP/out" "$TMP/err" $CTL "$S" bogus
ok '[ "$rc" -eq 2 ] && grep -qx "fusecount-ctl: .bogus.: error: unknown command.*" "$TMP/err"' \
	'unknown command: the daemon says why, exit 2'
run "$TMP/out" "$TMP/err" $CTL "$S" trace
ok '[ "$rc" -eq 2 ] && grep -qx "fusecount-ctl: .trace.: error: usage: trace on|off" "$TMP/err"' \
	'trace without on|off: error, exit 2'

run "$TMP/out" "$TMP/err" $CTL "$S"
ok '[ "$rc" -eq 2 ] && grep -q "^usage:" "$TMP/err"' 'no command: usage, exit 2'
run "$TMP/out" "$TMP/err" $CTL "$S" "$(printf '%300s' x)"
is "$rc" 2 'overlong command: usage, exit 2'

run "$TMP/out" "$TMP/err" $CTL "$TMP/none" stats
ok '[ "$rc" -eq 2 ] &&
	grep -q "No such file or directory (is fusecount running" "$TMP/err"' \
	'no socket: a clear message, exit 2'

kill "$srv"
wait "$srv" || true
srv=
ok '[ ! -e "$S" ]' 'the server removes its socket file on SIGTERM'
exit $failed
