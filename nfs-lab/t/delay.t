#!/bin/sh
# netem's delay means what it says, per NFS request, while the host is
# busy: two busy loops compete with the server and client guests from
# before their boot. Each case stats the 64 files of the deep tree with
# expired attributes (one GETATTR or LOOKUP per file). What the delay
# adds to one request is the client kernel's own round trip per call
# (mountstats rtt: from sending the call to its reply's arrival) with
# the delay minus the same without it. It must be within 10 % of the
# label or 0.3 ms, whichever is larger (guest/tests/lab_clock.h). The
# wall time per call is printed beside it.
#
# Known failure, marked TODO (reported, not failing the run): per call
# netem adds more than its label. By wall time 1.3-1.7 ms at 1 ms and
# 11.2-12.3 ms at 10 ms (2026-12-04 and 05). By the client kernel's
# round trip (2026-12-05, two runs): +0.94 and +1.29 ms at 1 ms, +10.7
# and +11.2 ms at 10 ms, the same as the wall time within 0.2 ms: the
# excess is inside the round trip, not in the client between calls. The base round trip itself moves
# 1.1-2.6 ms from run to run with the busy loops, which the
# subtraction carries. Ruled out: the APIC timer that fires netem's
# watchdog (calibrated 0.15-0.4 % off 1 GHz under this load:
# "calibration result" 4005928 and 4016574 for 4000000 a tick with
# apic=verbose), the guest clock (the APIC timer runs at QEMU's 1 GHz
# bus, checked against the PM timer), knfsd's replies (one segment
# each, held once), the host's idle (spinners keeping its CPUs busy
# change nothing), where netem sits (on the client's link: the same),
# and QEMU's TCG threading (thread=single: +1.49 and +12.5 ms). Where
# the excess is (2026-12-05): each packet timed at both QEMUs' netdevs
# (QEMU's filter-dump; 96 calls of this test's case, medians). The
# link costs 0.07-0.2 ms there and back at any delay. At 10 ms the
# server answered in 11.05 ms (0.35 ms without netem) and the client
# sent its next call 1.15 ms after a reply (0.42 ms): each guest does
# the same work about 0.7 ms slower after a 10 ms wait than back to
# back. At 1 ms: 1.49 and 0.52 ms. It is not the network: in one
# guest, 20 stat() calls of a /proc file take 113-163 us back to back
# and 184-214 us right after a 10 ms sleep or busy wait, and 176 -> 357
# us with NO_HZ_IDLE, host idle or kept busy. Native code on this
# machine shows the same (2026-12-05, bench/coldcache): a walk of 1
# MiB takes 10-12 us back to back and 24-30 us right after a 10 ms
# sleep, on an idle host or with two busy loops (4 MiB: 42-53 -> 121-124
# us; 1.3x after 1 ms, 1.1x after 0.1 ms), and with a kernel
# build beside it 19-21 us back to back, 43 us after the sleep and
# 45-51 us after spinning 10 ms on its CPU without touching it, while
# arithmetic that touches no memory takes the same time either way. So
# on this machine (itself a VM) data left alone for milliseconds leaves
# the caches and TLB even while its CPU stays busy: not a slower clock,
# not the CPU's idle states. That is consistent with the guests' extra
# cost after each wait (a TCG guest's working set, its translated code,
# software TLB and memory, is large); it does not rule out a cost of
# QEMU's own. Measuring against a baseline with the same idle time (a
# 10 ms sleep before each call, no netem; tried the same day) does not
# fix it: the base then moves 1.5-3.1 ms between runs; nor does giving
# the guests the CPU (busy loops at nice 19: +11.4 to +11.8 ms at 10
# ms, three runs). This test prints the host's figures beside its own,
# and passes on some runs and reports TODO on others. -cpu max: +1.23
# and +10.7 ms in one run, within the default's spread (base 2.6 ms).
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

# rtt_us DELAY: the client kernel's mean round trip of one call at DELAY
# ms (mountstats: from its transmission to its reply's arrival).
rtt_us() {
	jq -r --argjson d "$1" '.cases[] | select(.delay_ms == $d) |
		(.rpc_rtt_us / .client_calls) | floor' "$out"
}
# wall_us DELAY: the case's wall time per call at DELAY ms.
wall_us() {
	jq -r --argjson d "$1" '.cases[] | select(.delay_ms == $d) |
		(.wall_us / .calls) | floor' "$out"
}
echo "1..3"
# Each of the three cases made calls and has the client's round trips:
# else the subtraction below would compare nothing.
if ! jq -e '([.cases[].delay_ms] | sort) == [0, 1, 10] and all(.cases[];
	.client_calls > 0 and
	(.rpc_rtt_us | type) == "number" and .rpc_rtt_us > 0)' "$out" >/dev/null; then
	echo "not ok 1 - the three cases ran, with calls and round trips"
	jq -c '.cases[] | {delay_ms, client_calls, rpc_rtt_us}' "$out" | sed 's/^/#   /'
	exit 1
fi
base=$(rtt_us 0)
wbase=$(wall_us 0)
echo "ok 1 - the three cases ran: base round trip ${base} us (${wbase} us of wall time per call)"
n=1
failed=0
for d in 1 10; do
	n=$((n + 1))
	added=$(( $(rtt_us "$d") - base ))
	want=$((d * 1000))
	tol=$((want / 10 > 300 ? want / 10 : 300))
	# Outside the bound is TODO within the known noise: the guests'
	# own slowdown after a wait (above) and the base the delay is
	# measured against both move by milliseconds. 2026-12-06, 1 ms:
	# +3938 us alone, +2791 us beside two NFS tests, -334 us (faster
	# than the base) in a make check; 10 ms: +11.4 to +12.9 ms. So at
	# 1 ms a missing or doubled delay hides in the noise, and only the
	# 10 ms case fails: under half its label (no delay) or over one and
	# a half (a delay applied twice).
	if [ "$d" -ge 10 ]; then
		lo=$((want / 2)) hi=$((want * 3 / 2))
	else
		lo=-1000000 hi=1000000
	fi
	# Whatever the load, netem holds each reply for its label at least:
	# at 10 ms a mean round trip below it (2 % for the guest's TSC
	# calibration) is a delay that was not applied to every call. This
	# bound needs no base (at 1 ms the base alone is above it). The band
	# above does, so this test runs alone in make check (testrules.yml):
	# beside four other test files a base case once came out about 10 ms
	# per call slower than usual, and the 10 ms case measured seconds
	# later only 561 us above it (2026-12-06).
	per=$(rtt_us "$d")
	what="${d} ms netem delay: +${added} us per round trip (allowed ${want} +- ${tol})"
	if [ "$d" -ge 10 ] && [ "$per" -lt $((want * 98 / 100)) ]; then
		echo "not ok $n - $what: ${per} us per round trip, less than the delay itself"
		failed=$((failed + 1))
	elif [ "$added" -ge $((want - tol)) ] && [ "$added" -le $((want + tol)) ]; then
		echo "ok $n - $what"
	elif [ "$added" -ge "$lo" ] && [ "$added" -le "$hi" ]; then
		echo "not ok $n - $what # TODO netem adds more, or less, than its label"
	else
		echo "not ok $n - $what, outside the known noise ($lo to $hi us)"
		failed=$((failed + 1))
	fi
	echo "# wall time per call: +$(( $(wall_us "$d") - wbase )) us (the guests' own slowdown after a wait included)"
done
# The host now (the guests gone; the busy loops and other tests may
# still run): native code after a wait, see above.
cold=${BUILD:-$lab_top/build}/bench/coldcache
if [ -x "$cold" ]; then
	line=$("$cold" --rounds 50 2>&1) || line="failed: $line"
	echo "# this host now (bench/coldcache): $line"
fi
exit $failed
