#!/bin/sh
# bench/progress.awk's guess of a FUSE lane's seconds (weight()), which
# its ETA scales by the lane's pace so far: over the quick plan and one
# guest's boot it must stay within 20 % of the seconds the lane took when
# the weights were fitted (each case's arrival timed on the host, the
# boot included). A sum can be near by chance, so the delayed ls cases'
# weights are also compared with their measured seconds one by one.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
BUILD=${BUILD:-$here/../../build}
plan=$BUILD/bench/labplan
[ -x "$plan" ] || { echo "1..0 # SKIP labplan not built (make -C bench)"; exit 0; }

"$plan" --fs fuse --quick | grep -Ev '^[[:space:]]*(#|$)' >"$tmp/cases"
"$plan" --fs fuse --cases "$tmp/cases" --json >"$tmp/plan"
ncases=$(wc -l <"$tmp/plan")

# progress PLAN: progress.awk over PLAN as one kernel's plan and cases;
# its last line is "CASES WEIGHT-DONE".
progress() {
	sed 's/^/@case /' "$1" |
		LAB_PLAN=$1 LAB_FS=fuse LAB_NK=1 LAB_QUICK=1 \
		LAB_CAPTURE=1 LAB_TOTAL=$(wc -l <"$1") LAB_T0=$(date +%s) \
		LAB_CASES=$tmp/cases.out LAB_KERNELS=$tmp/kernels.out \
		LAB_TAIL=$tmp/tail.out awk -f "$here/../progress.awk" \
		2>"$tmp/err" | tail -n 1
}

echo "1..4"
set -- $(progress "$tmp/plan")
w=$2
is "$1" "$ncases" "all $ncases cases of the quick plan counted"
ok 'awk -v w="$w" "BEGIN { exit !(w >= 21.2 * 0.8 && w <= 21.2 * 1.2) }"' \
	"the quick lane's weight, $w, within 20 % of the 20.8-21.7 s it takes"

# weight_of KEYS: the weight of the first plan case whose line has KEYS
weight_of() {
	grep -F "$1" "$tmp/plan" | head -n 1 >"$tmp/one"
	set -- $(progress "$tmp/one")
	# less the boot that the first case carries
	awk -v w="$2" 'BEGIN { printf "%.2f", w - 2.5 }'
}
# ls -l of 100 entries expired, 10 ms a request: 3.83 and 3.90 s
w=$(weight_of '"call":"ls","form":"long","sync":"as-stat","object":"dir","cache":"expired","n":100,"delay_ms":10')
ok 'awk -v w="$w" "BEGIN { exit !(w >= 3.0 && w <= 4.8) }"' \
	"ls -l, 100 expired, 10 ms: weight $w, measured 3.83-3.90 s"
# the same cold: 1.01 and 1.05 s (three runs of 0.27 s)
w=$(weight_of '"call":"ls","form":"long","sync":"as-stat","object":"dir","cache":"cold","n":100,"delay_ms":10')
ok 'awk -v w="$w" "BEGIN { exit !(w >= 0.8 && w <= 1.3) }"' \
	"ls -l, 100 cold, 10 ms: weight $w, measured 1.01-1.05 s"
exit $failed
