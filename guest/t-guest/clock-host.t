#!/bin/sh
# The guest's clock against the host's (labclock --host, lab_clock.h):
# QEMU drives the CMOS RTC from host time, and the guest times an RTC
# second on CLOCK_MONOTONIC. On a plain boot the two agree within 1 %
# (a second the loaded host kept the guest from seeing a tick in is
# timed again, 5 at most); a guest whose clock runs at another rate is
# refused with one line saying by how much. The wrong rate is QEMU's own: -icount with
# sleep=off counts instructions for time and skips idle time, so the
# guest's clock runs several times fast (as a TSC calibrated at the
# wrong frequency did, 5.45 times, until the watchdog dropped it).
set -eu
. "$(dirname "$0")/../lib.sh"
. "$lab_top/lib/tap.sh"
lab_kernel stock

echo "1..5"
rc=0
lab_guest --timeout 60 "$kernel" -- labclock --host --json --check \
	>"$lab_tmp/plain.out" 2>"$lab_tmp/plain.err" || rc=$?
is "$rc" 0 "a plain boot: the guest's clock agrees with the host's"
ppm=$(jq -r '.host_ppm // "none"' "$lab_tmp/plain.out" 2>/dev/null || echo none)
ok '[ "$ppm" != none ] && [ "${ppm#-}" -le 10000 ]' \
	"  its rate recorded, within 10000 ppm (1 %): $ppm"

rc=0
lab_guest --timeout 90 --qemu-arg -icount --qemu-arg shift=0,sleep=off \
	"$kernel" -- labclock --host --check \
	>"$lab_tmp/fast.out" 2>"$lab_tmp/fast.err" || rc=$?
is "$rc" 1 "a guest clock that runs fast (icount, idle time skipped): refused"
# (the guest's stderr comes back on the same serial port as its stdout)
ok '[ "$(grep -c "^labclock: " "$lab_tmp/fast.out")" = 1 ] &&
	grep -qE "^labclock: the guest.s clock ran \+[0-9]+\.[0-9]{2} % against the host.s \(allowed \+-1 %\)$" "$lab_tmp/fast.out"' \
	"  in one line saying by how much"
ok 'ppm=$(sed -n "s/^clocksource=.* host_ppm=//p" "$lab_tmp/fast.out"); [ "${ppm:-0}" -gt 10000 ]' \
	"  and the rate measured is over 1 % fast"
exit "$failed"
