#!/bin/sh
# Two runs of the same slice on fresh guest pairs give identical results:
# every count on both sides, every event, every returned attribute; only
# the times (wall_us, primed_us, rpc_rtt_us, wire_us, wire_median_us, wire_hold_us,
# wire_hold_median_us) may differ. Within a run, a cold ls of the tree
# the expired one primed and listed (cases of one shape share it) counts
# what the first cold ls counted: its own mount makes its caches cold.
# NFSv4.2, stock kernel.
set -eu
. "$(dirname "$0")/../../guest/lib.sh"
nl_here=$(cd "$(dirname "$0")/.." && pwd)
. "$nl_here/lib.sh"
lab_kernel stock

# A walk, a change behind the client's back, ls in two cache states and
# a command that opens and reads a file (NFSv4 OPEN, READ, CLOSE).
# Only the expired cases keep the 1 s attribute timeout they wait out:
# a stall of the host must not expire the others' caches in one run.
cat >"$lab_tmp/slice" <<'CASES'
call=stat object=deep cache=cold opts=actimeo=3600
call=statx sync=dont object=deep cache=expired
call=lstat object=symlink cache=changed opts=actimeo=3600
workload=ls call=gnu-ls form=long n=20 cache=cold opts=actimeo=3600
workload=ls call=gnu-ls form=long n=20 cache=expired
cache=warm opts=actimeo=3600 cmd=cat "$FILE"
workload=ls call=gnu-ls form=long n=20 cache=cold opts=actimeo=3600
CASES

echo "1..5"
for i in 1 2; do
	if ! TMPDIR=$lab_tmp "$nl_here/run" --kernel stock --vers 4.2 \
		--cases "$lab_tmp/slice" --out "$lab_tmp/run$i.json" \
		--timeout 300 >"$lab_tmp/run$i.log" 2>&1; then
		lab_bail "run $i failed" "$lab_tmp/run$i.log"
	fi
	jq -c '.cases[] | del(.wall_us, .wall_us_runs, .primed_us, .warmup_us, .outlasted_timeout, .rpc_rtt_us, .wire_us, .wire_median_us,
		.wire_hold_us, .wire_hold_median_us)' "$lab_tmp/run$i.json" >"$lab_tmp/cases$i"
done
sed 's/^/# /' "$lab_tmp/run1.log"
nl_t_n=0 nl_t_failed=0
nl_t_ok '[ "$(wc -l <"$lab_tmp/cases1")" = 7 ]' "run 1 has the 7 cases"
nl_t_ok '[ "$(wc -l <"$lab_tmp/cases2")" = 7 ]' "run 2 has the 7 cases"
nl_t_ok 'jq -e "select(.calls > 0)" "$lab_tmp/cases1" >/dev/null' \
	"the slice makes round trips"
nl_t_ok 'cmp -s "$lab_tmp/cases1" "$lab_tmp/cases2"' \
	"identical counts, events and attributes in both runs" \
	'diff "$lab_tmp/cases1" "$lab_tmp/cases2" | sed "s/^/# /"'
nl_t_ok '[ "$(sed -n 4p "$lab_tmp/cases1" | jq -c "[.calls, .server, .client, .listed]")" = "$(sed -n 7p "$lab_tmp/cases1" | jq -c "[.calls, .server, .client, .listed]")" ]' \
	"a cold ls after others listed its (shared) tree counts what the first one did" \
	'sed -n "4p;7p" "$lab_tmp/cases1" | sed "s/^/# /"'
exit $nl_t_failed
