#!/bin/sh
# The guest keeps real time while the host is busy (guest/tests/clock_test.c):
# two busy loops compete with QEMU from before the boot to the end, as a
# second lab lane would. Clocksource not jiffies, CLOCK_MONOTONIC at 1 ns,
# sleeps and fusecount's 1 ms and 10 ms delays within 10 % or 0.3 ms.
set -eu
. "$(dirname "$0")/../lib.sh"
lab_busy 2 300
lab_selftest stock clock_test --timeout 240
