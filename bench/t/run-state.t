#!/bin/sh
# The runner checks the cache state a case claims (run.c,
# run_state_wrong()): a warm case whose call ends past its attributes'
# timeout since the warm-up, or an expired one that starts within it, is
# run again, at most three times, and then fails with the reason; each
# case records primed_us. A stand-in backend (tests/run_state.c) sets
# the timeout and how long the "age" between warm-up and call lasts.
# Expiry batches (run_batch()): a backend that holds several worlds has
# the runs of expired cases with the same wait primed together, aged by
# one wait, measured each in a world of its own, and every world torn
# down.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../lib/tap.sh"
BUILD=${BENCH_OUT:-${BUILD:-$here/../../build}/bench}
rs=$BUILD/run-state
[ -x "$rs" ] || tap_skip_all "run-state not built (make -C bench)"
command -v jq >/dev/null || tap_skip_all "jq missing (make deps)"
tmp=$(mktemp -d)
trap 'rm -rf -- "$tmp"' EXIT
o=entry_timeout=1,attr_timeout=1
printf 'call=stat object=file cache=%s opts=%s\n' warm "$o" expired "$o" \
	cold "$o" >"$tmp/cases"

# run VALID_MS AGE_MS [SLOW_RUNS]: the runner's status in $rc, its case
# lines as JSON in $tmp/out, its messages in $tmp/err
run() {
	rc=0
	env RUN_STATE_DIR="$tmp" RUN_STATE_VALID_MS="$1" RUN_STATE_AGE_MS="$2" \
		${3:+RUN_STATE_SLOW_RUNS="$3"} "$rs" --kernel t \
		--cases "$tmp/cases" >"$tmp/raw" 2>"$tmp/err" || rc=$?
	sed -n 's/^@case //p' "$tmp/raw" >"$tmp/out"
}
# field CACHE KEY: KEY of the case in CACHE state
field() { jq -r --arg c "$1" "select(.cache == \$c) | $2" "$tmp/out"; }
again() { grep -c "case $1: .*: run again\$" "$tmp/err" || :; }

echo 1..24
run 10000 0
is "$(field warm .error)" null "within the timeout: the warm case stands"
is "$(field expired .error)" "an expired case started within its attribute timeout" \
	"an expired case measured within the timeout fails, with why"
is "$(again 2)" 2 "... after two more runs"
is "$rc" 1 "a failed case makes the run's status 1"
ok '[ "$(field warm .primed_us)" -lt 10000000 ]' "the warm case records primed_us"
is "$(field cold .primed_us)" null "a cold case has no warm-up to record"

run 50 100
is "$(field warm .error)" "a warm case ended past its attribute timeout" \
	"a warm case measured past the timeout fails, with why"
is "$(again 1)" 2 "... after two more runs"
ok '[ "$(field warm .primed_us)" -ge 100000 ]' "its primed_us shows the 100 ms"
is "$(field expired .error)" null "past the timeout: the expired case stands"

run 50 100 1
is "$(field warm .error)" null "a stall that passes: the case run again stands"
is "$(again 1)" 1 "... run again once"

# Cases 1 3 5 expire in 1 s, 4 in 2 s, 2 is warm, 6 has a wait of its
# own (expire=: it may rely on another timeout not passing)
e1=entry_timeout=1,attr_timeout=1 e2=entry_timeout=1,attr_timeout=2
printf 'call=stat object=file cache=%s opts=%s\n' expired "$e1" warm "$e1" \
	expired "$e1" expired "$e2" expired "$e1" >"$tmp/cases"
printf 'call=stat object=file cache=expired opts=%s expire=1500\n' "$e1" \
	>>"$tmp/cases"
: >"$tmp/log"
RUN_STATE_BATCH=1 run 50 100
is "$(jq -r .id "$tmp/out" | tr '\n' ' ')" "1 3 5 2 4 6 " \
	"a batch: the expired cases of one wait first, the others in plan order"
is "$(jq -s 'map(select(.cache == "expired" and .error == null)) | length' "$tmp/out")" 5 \
	"... each expired one measured"
is "$(grep -c '^age [0-9]* [1-9]' "$tmp/log")" 2 \
	"one wait for the batch of three, one for the case of another wait"
is "$(grep -c '^age 6 0' "$tmp/log")" 1 "a case with expire= waits alone"
is "$(sed -n '1,4p' "$tmp/log" | tr '\n' ' ')" \
	"setup 1 1 setup 3 2 setup 5 3 age 5 3 " \
	"the three worlds primed, then the wait"
is "$(grep '^count' "$tmp/log" | head -n 3 | tr '\n' ' ')" \
	"count 1 1 count 3 2 count 5 3 " "each measured in its own world"
is "$(grep -c ^setup "$tmp/log")" "$(grep -c ^teardown "$tmp/log")" \
	"every world set up is torn down"

# 30 expired cases of one wait: two batches (24 worlds at most)
for i in $(seq 30); do
	printf 'call=stat object=file cache=expired opts=%s\n' "$e1"
done >"$tmp/cases"
: >"$tmp/log"
RUN_STATE_BATCH=1 run 50 100
is "$(grep -c ^age "$tmp/log")" 2 "30 expired cases: two batches, two waits"
is "$(jq -s 'map(select(.error == null)) | length' "$tmp/out")" 30 "... all measured"

# The backend bounds a batch's priming (setups of 20 ms, 50 ms at most)
: >"$tmp/log"
RUN_STATE_BATCH=1 RUN_STATE_SPAN_MS=50 RUN_STATE_SETUP_MS=20 run 50 100
ok '[ "$(grep -c ^age "$tmp/log")" -ge 8 ]' \
	"a span of 50 ms: batches of 4 worlds at most, 8 waits or more"
is "$(jq -s 'map(select(.error == null)) | length' "$tmp/out")" 30 "... all measured, each once"
is "$(grep -c ^setup "$tmp/log")" "$(grep -c ^teardown "$tmp/log")" \
	"... every world torn down"
exit $failed
