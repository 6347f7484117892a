#!/bin/sh
# netem's delay means what it says, per NFS request, while the host is
# busy: two busy loops compete with the server and client guests from
# before their boot. Each case stats the 64 files of the deep tree with
# expired attributes (one GETATTR or LOOKUP per file); the added cost of
# one round trip is (wall / calls) with the delay minus the same without
# it, measured by the client guest's clock. It must be within 10 % of
# the label or 0.3 ms, whichever is larger (guest/tests/lab_clock.h).
#
# Known failure, marked TODO (reported, not failing the run): on
# 2026-12-04 netem's delay added 1.2-1.45 times its label per NFS call
# (per call, 96 calls: 0 ms 1.07, 1 ms 2.33, 2 ms 4.00, 5 ms 7.85, 10 ms
# 13.38 ms), while fusecount's delay and sleeps are within the bound
# (guest/t/clock-load.t). With the host idle (same kernel, evening of
# 2026-12-04) it is no better: base 0.93 ms, 1 ms +1.66 ms, 10 ms +12.25
# ms per call, so it is not the load, nor the guest clock (the guest's
# APIC timer calibrates to QEMU's 1 GHz bus, checked against the PM
# timer). Not the segmentation either: knfsd corks each reply into one
# segment on a TCP_NODELAY socket (svc_tcp_sendto), which netem holds
# once. Later the same night, host idle, the client's own RPC round-trip
# times (mountstats RTT, per GETATTR) showed the excess is in the round
# trip itself, not in the client's work: base 0.73-0.90 ms, 1 ms netem
# 2.04-2.69 ms, 10 ms 11.99-12.39 ms. Neither netem on the client's link
# instead (10 ms: 12.6-12.7 ms), nor idle=poll in both guests, nor
# SCHED_IDLE spinners keeping the host's CPUs out of their (hypervisor)
# idle made it go away; ping between the guests, both idle between
# pings, adds 1.3 (1 ms) and 10.5-10.8 ms (10 ms) to 1.3-1.7 ms. The
# base round trip itself varies 0.7-1.9 ms from boot to boot. Inside
# one guest, netem (nfs-lab/netem.c) on lo keeps its label: busybox
# ping 127.0.0.1 passes it twice and took 21.0-21.6 ms at 10 ms,
# 2.7-3.3 ms at 1 ms, at least 0.54 ms without (2026-12-05, high
# resolution timers on): at most 0.4 ms per pass above the label, so
# most of the excess is in the path between the two guests. Why is not
# found yet: the lab's times at a netem delay are that much above the
# label.
set -eu
. "$(dirname "$0")/../../guest/lib.sh"
here=$(cd "$(dirname "$0")/.." && pwd)
lab_kernel stock
lab_busy 2 400

out=$lab_tmp/delay.json
for d in 0 1 10; do
	echo "workload=deep sync=as-stat cache=expired delay=$d"
done >"$lab_tmp/cases"
TMPDIR=$lab_tmp "$here/run" --kernel stock --vers 4.2 --cases "$lab_tmp/cases" \
	--out "$out" --timeout 300 >"$lab_tmp/run.log" 2>&1 || {
	echo "Bail out! nfs-lab/run failed"
	sed 's/^/# /' "$lab_tmp/run.log"
	exit 1
}

# per_request_us DELAY: mean wall time of one round trip at DELAY ms.
per_request_us() {
	jq -r --argjson d "$1" '.cases[] | select(.delay_ms == $d) |
		(.wall_us / .calls) | floor' "$out"
}
base=$(per_request_us 0)
echo "1..3"
echo "ok 1 - the cases ran: $(jq '.cases | length' "$out") cases, base round trip ${base} us"
n=1
for d in 1 10; do
	n=$((n + 1))
	added=$(( $(per_request_us "$d") - base ))
	want=$((d * 1000))
	tol=$((want / 10 > 300 ? want / 10 : 300))
	diff=$((added > want ? added - want : want - added))
	if [ "$diff" -le "$tol" ]; then
		echo "ok $n - ${d} ms netem delay: +${added} us per round trip (allowed ${want} +- ${tol})"
	else
		echo "not ok $n - ${d} ms netem delay: +${added} us per round trip (allowed ${want} +- ${tol}) # TODO netem adds more than its label"
	fi
done
