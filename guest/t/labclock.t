#!/bin/sh
# labclock's verdicts (no boot): a clock the lab must not publish times
# from is refused with one line naming the missing kernel option, exit 1;
# a good one passes; bad input is one line and exit status 2.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/lib/tap.sh"
lc=${BUILD:-$top/build}/guest/tools/labclock
[ -x "$lc" ] || tap_skip_all "no $lc (make guest)"
t=$(mktemp -d)
trap 'rm -rf -- "$t"' EXIT

# verdict NAME CURRENT AVAILABLE RES: run labclock --check on those facts.
verdict() {
	rc=0
	"$lc" --check --json --facts "$2" "$3" "$4" >"$t/$1.out" 2>"$t/$1.err" || rc=$?
}

echo "1..14"
verdict tinyconfig refined-jiffies "refined-jiffies jiffies" 4000000
is "$rc" 1 "jiffies without HPET or PM timer: refused"
ok 'grep -q "CONFIG_HPET_TIMER and CONFIG_ACPI with CONFIG_X86_PM_TIMER" "$t/tinyconfig.err"' \
	"  and the message names the missing options"
is "$(wc -l <"$t/tinyconfig.err")" 1 "  in one line"

verdict unstable refined-jiffies "refined-jiffies hpet acpi_pm jiffies" 1
is "$rc" 1 "jiffies although an HPET is there: refused"
ok 'grep -q "although the kernel has" "$t/unstable.err"' "  and says what was available"

verdict nohrt tsc "tsc hpet" 4000000
is "$rc" 1 "a 4 ms CLOCK_MONOTONIC resolution: refused"
ok 'grep -q CONFIG_HIGH_RES_TIMERS "$t/nohrt.err"' "  naming CONFIG_HIGH_RES_TIMERS"

verdict good tsc "tsc hpet acpi_pm" 1
is "$rc" 0 "tsc with an HPET watchdog and 1 ns: accepted"
is "$(cat "$t/good.out")" \
	'{"clocksource":"tsc","available":["tsc","hpet","acpi_pm"],"res_ns":1}' \
	"  and the JSON the lab records"
verdict hpet hpet "hpet acpi_pm" 1
is "$rc" 0 "the HPET itself (TSC found unstable): accepted"

# usage errors: one line, status 2
for args in "--bogus" "--facts tsc" "--facts tsc tsc -5" "stray"; do
	rc=0
	# shellcheck disable=SC2086
	"$lc" $args >/dev/null 2>"$t/usage.err" || rc=$?
	ok '[ $rc = 2 ] && [ "$(wc -l <"$t/usage.err")" = 1 ]' "usage error '$args': one line, status 2"
done
exit "$failed"
