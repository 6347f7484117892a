#!/bin/sh
# bench/progress.awk's guess of a FUSE lane's seconds (weight()), which
# its ETA scales by the lane's pace so far: it counts every case of the
# quick plan and weighs the lane more than its guest's boot; an ls case
# weighs more at a longer injected delay and with expired attributes (a
# round trip per entry) than cold; a delayed case that fusebench's
# budget rule skips weighs nothing. Relations only: the weights'
# seconds were fitted on one host (progress.awk says how), and another
# host runs the lane at another pace, which the ETA's scaling absorbs.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
BUILD=${BUILD:-$here/../../build}
plan=$BUILD/bench/labplan
[ -x "$plan" ] || { echo "1..0 # SKIP labplan not built (make -C bench)"; exit 0; }

"$plan" --fs fuse --quick | grep -Ev '^[[:space:]]*(#|$)' >"$tmp/cases"
"$plan" --fs fuse --cases "$tmp/cases" --json >"$tmp/plan"
ncases=$(wc -l <"$tmp/plan")

# progress PLAN: progress.awk over PLAN as one kernel's plan and cases
# of the quick lane (budget 8 s); its last line is "CASES WEIGHT-DONE".
progress() {
	sed 's/^/@case /' "$1" |
		LAB_PLAN=$1 LAB_LANE_KIND=guest LAB_NK=1 LAB_QUICK=1 \
		LAB_TOTAL=$(wc -l <"$1") LAB_T0=$(date +%s) \
		LAB_CASES=$tmp/cases.out LAB_KERNELS=$tmp/kernels.out \
		LAB_TAIL=$tmp/tail.out awk -f "$here/../progress.awk" \
		2>"$tmp/err" | tail -n 1
}

# weight CASE: the weight of one case line, less the boot its lane's
# first case carries
weight() {
	echo "$1" >"$tmp/one.case"
	"$plan" --fs fuse --cases "$tmp/one.case" --json >"$tmp/one"
	set -- $(progress "$tmp/one")
	awk -v w="$2" 'BEGIN { printf "%.2f", w - 2.5 }'
}
# less A B: A < B, two decimal numbers
less() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }

echo "1..5"
set -- $(progress "$tmp/plan")
is "$1" "$ncases" "all $ncases cases of the quick plan counted"
ok 'less 2.5 "$2"' "the quick lane weighs more than its guest's boot: $2"

ls='workload=ls call=ls form=long n=100'
w0=$(weight "$ls cache=expired delay=0")
w1=$(weight "$ls cache=expired delay=1")
w10=$(weight "$ls cache=expired delay=10")
ok 'less "$w0" "$w1" && less "$w1" "$w10"' \
	"ls -l of 100 expired entries: 0, 1, 10 ms a request weigh $w0 < $w1 < $w10"
cold=$(weight "$ls cache=cold delay=10")
ok 'less "$cold" "$w10"' "at 10 ms, cold ($cold) weighs less than expired ($w10)"
over=$(weight 'workload=ls call=ls form=long n=1000 cache=expired delay=10')
is "$over" "0.00" "1000 expired entries at 10 ms, over the 8 s budget: skipped, no weight"
exit $failed
