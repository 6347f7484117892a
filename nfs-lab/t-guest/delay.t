#!/bin/sh
# netem's delay means what it says, per NFS request, while the host is
# busy: two busy loops compete with the server and client guests from
# before their boot. Each case stats the 64 files of the deep tree with
# expired attributes (one GETATTR or LOOKUP per file), at 0, 1 and 10 ms.
#
# Asserted: (1) the three cases ran and the server's tap paired every
# call with its reply and saw every reply as netem took it; (2) without
# netem a reply spends at most 0.3 ms in the server's qdisc; (3, 4) at
# 1 and 10 ms netem holds each reply (median, measured in the server
# guest from the mirror of eth0's egress to the reply's departure,
# nfs-lab/wiretap.c and mirror.c) within 10 % or 0.3 ms of the label,
# whichever is larger (lib/lab_clock.h); the hold includes the
# server guest's own wake-up when netem's timer fires; (5) at 10 ms the
# client's round trip (mountstats rtt) lasts at least the delay and
# gains 5 to 15 ms.
#
# The client's figures are bounded loosely and at 1 ms only printed: its
# base round trip moves with the busy loops, and both guests work slower
# right after a wait than back to back, which native code on the host
# shows too (bench/coldcache: make bench-host).
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
	lab_bail "nfs-lab/run failed" "$lab_tmp/run.log"
}

# at DELAY EXPR: EXPR (jq) of the case at DELAY ms, whole us.
at() {
	jq -r --argjson d "$1" ".cases[] | select(.delay_ms == \$d) |
		$2 | floor" "$out"
}
# The client kernel's mean round trip of one call (mountstats: from its
# transmission to its reply's arrival); the wall time per call; the
# server's median time per request on its interface, from a call's
# arrival to its reply's departure; the median time a reply spent in
# the server's qdisc (netem's hold), from the mirror to the departure.
rtt_us() { at "$1" '.rpc_rtt_us / .client_calls'; }
wall_us() { at "$1" '.wall_us / .calls'; }
wire_us() { at "$1" '.wire_median_us'; }
hold_us() { at "$1" '.wire_hold_median_us'; }
echo "1..5"
# Each of the three cases made calls, has the client's round trips, and
# the server's tap paired every call with its reply and saw every reply
# as netem took it: else the figures below would time nothing.
if ! jq -e '([.cases[].delay_ms] | sort) == [0, 1, 10] and all(.cases[];
	.client_calls > 0 and .wire_requests == .calls and
	.wire_held == .calls and
	(.rpc_rtt_us | type) == "number" and .rpc_rtt_us > 0)' "$out" >/dev/null; then
	echo "not ok 1 - the three cases ran, with calls, round trips and the tap's pairs and holds"
	jq -c '.cases[] | {delay_ms, calls, client_calls, rpc_rtt_us,
		wire_requests, wire_held, wire_unmatched, wire_dropped,
		wire_lost}' "$out" | sed 's/^/#   /'
	grep -h "labcase:" "$lab_tmp/run.log" | sed 's/^/#   /' || :
	exit 1
fi
base=$(rtt_us 0)
wbase=$(wall_us 0)
sbase=$(wire_us 0)
echo "ok 1 - the three cases ran: the server's own time ${sbase} us per request, base round trip ${base} us (${wbase} us of wall time per call)"
n=1
failed=0
# Without netem a reply leaves as the qdisc takes it: from the mirror
# to the departure there is only the copy's delivery to the tap, the
# qdisc's enqueue and dequeue, and the reply's checksum, filled in on
# a private copy of its headers as the tap holds the mirror's copy:
# tens of us under TCG. A bound, not an exact figure: the host may
# preempt the guest between the two.
n=$((n + 1))
held=$(hold_us 0)
if [ "$held" -le 300 ]; then
	echo "ok $n - without netem a reply spends ${held} us in the server's qdisc (at most 300)"
else
	echo "not ok $n - without netem a reply spends ${held} us in the server's qdisc: want at most 300"
	failed=$((failed + 1))
fi
# What netem holds each reply, in the server guest where it applies the
# delay: exact to the bound (the guest's hrtimer fires the qdisc's
# watchdog, then the guest wakes: about 0.1 ms under TCG).
for d in 1 10; do
	n=$((n + 1))
	want=$((d * 1000))
	tol=$((want / 10 > 300 ? want / 10 : 300))
	held=$(hold_us "$d")
	what="${d} ms netem delay: each reply held ${held} us on the server (allowed ${want} +- ${tol})"
	if [ "$held" -ge $((want - tol)) ] && [ "$held" -le $((want + tol)) ]; then
		echo "ok $n - $what"
	else
		echo "not ok $n - $what"
		failed=$((failed + 1))
	fi
	echo "# on the server's interface, call in to reply out: +$(( $(wire_us "$d") - sbase )) us; the client's round trip: +$(( $(rtt_us "$d") - base )) us; wall time per call: +$(( $(wall_us "$d") - wbase )) us (both guests' own slowdown after a wait included)"
done
# The client sees the delay too: at 10 ms each of its round trips lasts
# the delay at least (2 % for the guest's TSC calibration), and what it
# adds is within half and one and a half times the label: a delay
# missing or applied twice on the way. Not tighter: the base moves by
# milliseconds between runs with the busy loops, and each guest works
# slower after a wait (above). At 1 ms that noise is larger than the
# delay: printed, not asserted.
n=$((n + 1))
per=$(rtt_us 10)
added=$((per - base))
what="10 ms netem delay at the client: ${per} us per round trip, +${added} us"
if [ "$per" -ge 9800 ] && [ "$added" -ge 5000 ] && [ "$added" -le 15000 ]; then
	echo "ok $n - $what (at least the delay, 5000 to 15000 us added)"
else
	echo "not ok $n - $what: want at least 9800 us, 5000 to 15000 us added"
	failed=$((failed + 1))
fi
exit $failed
