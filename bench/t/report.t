#!/bin/sh
# bench/report on recorded results (t/fixtures): table contents and
# differences, failed and skipped cases, plots, the summary, and that
# the same JSON always gives the same report.
#   small.json: written by hand, every number known;
#   quick.json: a real `bench/lab --quick --fs fuse` run;
#   scan.json: the scan's cases of fusebench and nfs-lab/run on stock-6.12
#   and patched-6.12 (workload=scan, bench/README.md).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
report=$here/../report
fx=$here/fixtures
for c in jq gnuplot awk; do
	command -v $c >/dev/null || { echo "1..0 # SKIP $c missing"; exit 0; }
done

. "$here/lib.sh"

# has FILE LINE DESCRIPTION: FILE holds LINE, exactly
has() {
	if grep -qxF -- "$2" "$1"; then
		tap_result 0 "$3"
	else
		tap_result 1 "$3" "no line: $2"
	fi
}

echo "1..57"
md=$tmp/s/report.md
ok '"$report" --out "$tmp/s" "$fx/small.json" >"$tmp/summary"' "report runs on small.json"
ok '[ -s "$md" ]' "report.md written to --out"
has "$md" '| entry_timeout=0,attr_timeout=0 | statx | dont | basic | deep | expired | 3 | 0 | 0 | -3 | -3 | 3 LOOKUP → patched: none → optin: none |' \
	"syscall row: calls per kernel, differences, requests"
has "$md" '| entry_timeout=0,attr_timeout=0 | statx | as-stat | type,ino | file | expired | 2 | 1 | 1 | -1 | -1 | 1 LOOKUP + 1 GETATTR → patched: 1 LOOKUP → optin: 1 LOOKUP |' \
	"syscall row: the opcodes behind the difference"
has "$md" '| entry_timeout=60,attr_timeout=60 | stat | as-stat | basic | file | cold | — | fail | — | — | — | none |' \
	"a failed case says fail, a missing one —"
has "$md" '| busybox ls -l | 0.23 | 0.23 | 0.23 | 0.21 | 0.21 | 0.21 |' \
	"ls calls per file, cold: (1 + 1 + 6 + 15) / 100 and 230 / 1000"
has "$md" '| lsx --form long --dont-sync | 1.36 | 0.39 | 0.39 | 1.36 | 0.39 | 0.39 |' \
	"ls calls per file, expired; RELEASEDIR not counted"
has "$md" '| busybox ls -l | 1000 | 350 | 350 | 350 | 3100 | 3100 | 3100 |' \
	"ms per ls at each delay"
# optin's lsx at 10 ms was skipped: 440 ms + 390 calls x 12.464 ms, the
# median of optin's measured pairs (310 - 35) / 23 and (3100 - 350) / 212
has "$md" '| lsx --form long --dont-sync | 1000 | 440 | 440 | 440 | 4000 | 600 | ≈5301 |' \
	"a case skipped by the budget is estimated, marked ≈"
has "$md" '| busybox ls -l | 1000 | 0.21 | 0.21 | 0.21 | +0.00 | +0.00 | 3100 | 3100 | 3100 |' \
	"at a glance: calls per file, differences, ms at 10 ms per kernel"
has "$md" '| lsx --form long --dont-sync | 100 | 1.36 | 0.39 | 0.39 | -0.97 | -0.97 | ≈1670 | ≈510 | ≈530 |' \
	"at a glance: a delay the matrix lacks is estimated from the delay-0 case"
ok 'grep -q "optin at 10 ms: 12.5 ms per call from 2 pairs, median error 4 %, worst 4 %" "$md"' \
	"estimates say their rule, its pairs and its error"
has "$md" '| entry_timeout=0,attr_timeout=0 | dont | expired | 64 | 320 | 5.00 | 58 | 0 | 0.00 | 0.7 | 0 | 0.00 | 0.7 |' \
	"deep path: calls, per file, ms for each kernel"
has "$md" '| vers=4.2,actimeo=0 | statx | dont | basic | deep | expired | 3 | 0 | 0 | -3 | -3 | 3 COMPOUND + 3 SEQUENCE + 3 PUTFH + 3 LOOKUP + 3 GETATTR → patched: none → optin: none |' \
	"NFS rows: calls are COMPOUNDs, opcodes listed"
ok 'grep -q "34 cases: 32 measured, 1 skipped (predicted time over the budget), 1 failed" "$md"' \
	"the header counts measured, skipped and failed cases"
ok '! grep -q "### nfs4.2: deep" "$md"' "no empty tables"
ok '[ "$(grep -c "^| ---" "$md")" = "$(grep -c "^### " "$md")" ]' \
	"every table heading has a table"
for p in calls-fuse-cold-timeouts-60-s calls-fuse-expired-timeouts-0-s \
	time-fuse-cold-timeouts-60-s time-fuse-expired-timeouts-0-s; do
	ok 'head -c 200 "$tmp/s/plots/$p.svg" | grep -q "<svg" && [ "$(head -c 4 "$tmp/s/plots/$p.png" | tail -c 3)" = PNG ]' \
		"plot $p: SVG and PNG"
done
ok 'grep -q "stock busybox ls -l" "$tmp/s/plots/calls-fuse-cold-timeouts-60-s.svg" &&
	grep -q "mount: timeouts 60 s" "$tmp/s/plots/calls-fuse-cold-timeouts-60-s.svg"' \
	"a plot per mount profile, named in its title; series by kernel and command"
ok 'grep -qF "![time-fuse-expired-timeouts-0-s](plots/time-fuse-expired-timeouts-0-s.svg)" "$md"' \
	"the report links its plots"
ok 'grep -qxF "fuse    statx DONT_SYNC d1/d2/f, expired   3 → 0 → 0 [timeouts 0 s]" "$tmp/summary"' \
	"summary: the deep DONT_SYNC statx per kernel"
ok '[ "$(wc -l <"$tmp/summary")" -le 25 ]' "the summary fits a screen"
ok '"$report" --out "$tmp/s2" "$fx/small.json" >/dev/null && cmp -s "$md" "$tmp/s2/report.md"' \
	"the same JSON gives the same report"

q=$tmp/q/report.md
ok '"$report" --out "$tmp/q" "$fx/quick.json" >"$tmp/qsum"' "report runs on a recorded quick run"
has "$q" '| entry_timeout=0,attr_timeout=0 | statx | dont | basic | deep | expired | 3 | 0 | 0 | -3 | -3 | 3 LOOKUP → patched: none → optin: none |' \
	"recorded: statx DONT_SYNC of d1/d2/f, all expired: 3 LOOKUP on stock, none patched"
ok 'grep -qx "fuse    GNU ls -l expired, calls/file      N=100 \[timeouts 0 s\]: [0-9.]* → [0-9.]* → [0-9.]*" "$tmp/qsum"' \
	"recorded: the summary has GNU ls -l per file"
# GNU ls -l cold at N=100 and 1000, expired at N=100 only (lsx expired at
# 1000 too): the expired tables must not borrow the cold N=1000 case.
c='"kernel":"stock","fs":"nfs4.2","mount_opts":"vers=4.2","workload":"ls","call":"gnu-ls","form":"long","sync":"as-stat","object":"dir"'
cat >"$tmp/leak.json" <<EOF
{"schema":1,"started":"t0","kernels":{"stock":{"release":"6.1"}},"cases":[
{$c,"cache":"cold","n":100,"delay_ms":0,"server":{},"calls":30,"wall_us":1000},
{$c,"cache":"cold","n":1000,"delay_ms":0,"server":{},"calls":260,"wall_us":9000},
{$c,"cache":"expired","n":100,"delay_ms":0,"server":{},"calls":103,"wall_us":2000},
{${c%%,\"call*},"call":"lsx","form":"long","sync":"as-stat","object":"dir","cache":"expired","n":1000,"delay_ms":0,"server":{},"calls":1002,"wall_us":9000}]}
EOF
ok '"$report" --no-plots --out "$tmp/l" "$tmp/leak.json" >/dev/null &&
	grep -qxF "| GNU ls -l [defaults] | 0.30 | 0.26 |" "$tmp/l/report.md" &&
	grep -qxF "| GNU ls -l [defaults] | 1.03 | — |" "$tmp/l/report.md"' \
	"a cache state's tables show only its own cases"
# A listing that outlasted its mount's attribute timeout: its count is
# marked wherever it is shown, and the table says what the mark means.
sed 's/"calls":103,/"calls":103,"outlasted_timeout":true,/' "$tmp/leak.json" \
	>"$tmp/outl.json"
ok '"$report" --no-plots --out "$tmp/o" "$tmp/outl.json" >"$tmp/osum" &&
	grep -qxF "| GNU ls -l [defaults] | 1.03‡ | — |" "$tmp/o/report.md" &&
	grep -qxF "| GNU ls -l [defaults] | 0.30 | 0.26 |" "$tmp/o/report.md"' \
	"a count that outlasted its timeout is marked, the others not"
ok 'grep -q "^‡: the call ran longer than its mount.s shortest attribute timeout" "$tmp/o/report.md" &&
	grep -q "^(‡: a count that outlasted" "$tmp/osum" &&
	! grep -q "‡" "$tmp/l/report.md"' \
	"the mark is explained in the report and the summary, and absent without one"
# Repeated runs, guest clocks and a delay pair: the median ± half the
# range, the clock line, and the label beside the measured extra time
# per round trip ((26000 - 2000) / 24 calls = 1.00 ms at 1 ms). On NFS
# also the client kernel's round trip: (36000 - 12000) us / 24 calls =
# 1.00 ms added, and the server's interface 1400 - 350 us = 1.05 ms,
# of which netem held each reply 1.10 ms (1100 us, not a difference),
# where the wall time says (40000 - 4000) / 24 = 1.50.
d='"kernel":"stock","fs":"fuse","mount_opts":"entry_timeout=60,attr_timeout=60","workload":"ls","call":"gnu-ls","form":"long","sync":"as-stat","object":"dir","cache":"cold","n":100'
nd='"kernel":"stock","fs":"nfs4.2","mount_opts":"vers=4.2","workload":"ls","call":"gnu-ls","form":"long","sync":"as-stat","object":"dir","cache":"cold","n":100'
cat >"$tmp/runs.json" <<EOF
{"schema":1,"started":"t0","kernels":{"stock":{"release":"6.1",
 "clock":{"fuse":{"clocksource":"tsc","res_ns":1,"available":["tsc","hpet","acpi_pm"],"host_ppm":90,"host_ppm_lane":-120},
  "nfs4.2":{"clocksource":"tsc","res_ns":1,"host_ppm":40}}}},"cases":[
{$d,"delay_ms":0,"server":{},"calls":24,"wall_us":2000,"wall_us_runs":[2100,1900,2000]},
{$d,"delay_ms":1,"server":{},"calls":24,"wall_us":26000,"wall_us_runs":[26000,25500,26500]},
{$nd,"delay_ms":0,"server":{"READDIR":4,"GETATTR":20},"readdir":{"fills":4,"uncached":0,"forced_plus":1,"primed":100},"wire_bytes_in":4096,"wire_bytes_out":61440,"calls":24,"client_calls":24,"rpc_rtt_us":12000,"wire_requests":24,"wire_us":8400,"wire_median_us":350,"wall_us":4000},
{$nd,"delay_ms":1,"server":{},"calls":24,"client_calls":24,"rpc_rtt_us":36000,"wire_requests":24,"wire_us":33600,"wire_median_us":1400,"wire_held":24,"wire_hold_us":26400,"wire_hold_median_us":1100,"wall_us":40000}]}
EOF
ok '"$report" --no-plots --out "$tmp/r" "$tmp/runs.json" >/dev/null' "report runs on repeated runs"
ok 'grep -qF "| GNU ls -l | 100 | 2.00±0.10 | 26.00±0.50 |" "$tmp/r/report.md"' \
	"a repeated time: median ± half the range, in ms"
ok 'grep -qF "Guest clocks (clocksource, the others it had, CLOCK_MONOTONIC resolution, rate against the host'"'"'s over the lane): stock/fuse: tsc (of tsc hpet acpi_pm), 1 ns, -120 ppm against the host; stock/nfs4.2: tsc, 1 ns, +40 ppm against the host." "$tmp/r/report.md"' \
	"the guests' clocks are stated"
has "$tmp/r/report.md" '| GNU ls -l [defaults] | 4 READDIR + 20 GETATTR; forced 1, primed 100; 64.0 KiB |' \
	"what the NFS client decided beside what it sent"
ok '! grep -q "fuse, cold: what the client decided" "$tmp/r/report.md"' \
	"no such table for a file system without the readdir trace"
has "$tmp/r/report.md" "| fuse | stock | 1 | — | — | — | 1.00 | 1 |" \
	"the delay label beside the measured time per round trip"
has "$tmp/r/report.md" "| nfs4.2 | stock | 1 | 1.10 | 1.05 | 1.00 | 1.50 | 1 |" \
	"on NFS what the server's interface and the client's round trip gained"
# Two kernel versions (fixtures/versions.json, written by hand: stock
# and patched on 6.1 and on 6.12, an nfs3 case on a nocto mount and a
# FUSE one with default_permissions that the comparison must not take).
v=$tmp/v/report.md
ok '"$report" --no-plots --out "$tmp/v" "$fx/versions.json" >/dev/null' \
	"report runs on two kernel versions"
has "$v" "## 6.1 → 6.12" "a section per version step"
has "$v" "| case | cache | stock 6.1 | stock 6.12 | patched 6.1 | patched 6.12 |" \
	"its columns: each series on each version, by release, not by label"
has "$v" "| statx dont basic [actimeo=1] | expired | 3 | 3 | 0 | 0 |" \
	"a deep-path count on each kernel"
has "$v" "| busybox ls -l N=1000 [actimeo=5] | cold | 0.26 | 1.03 | 0.26 | 1.03 |" \
	"an ls -l in calls per file"
has "$v" "- Mainline alone (stock 6.1 → stock 6.12): 2 of 3 counts changed: statx force basic [actimeo=1] | cold: 7 → 6; busybox ls -l N=1000 [actimeo=5] | cold: 263 → 1030 calls." \
	"what mainline changed by itself, ls in whole calls (per file they round alike)"
has "$v" "- patched on 6.12 (against stock 6.12): 1 of 3 counts differ: statx dont basic [actimeo=1] | expired: 3 → 0." \
	"what the series adds on 6.12"
ok '! awk "/^## 6.1 → /,/^## nfs3\$/" "$v" | grep -q "| 99 |\|| 5 |"' \
	"the reference mount only: no nocto, no default_permissions row"
ok '! grep -q "^## [0-9.]* → " "$md"' "one version (small.json): no such section"
# Roles and versions as bench/lab records them (lib/kernels.list): the
# labels need no -VERSION suffix to pair
jq '.kernels |= with_entries(.key |= sub("stock-6.12"; "old")
	| .key |= sub("patched-6.12"; "mine")
	| .value.role = (if .key == "old" or .key == "stock" then "stock"
	  else "patched" end)) | .cases[].kernel |= sub("stock-6.12"; "old")
	| .cases[].kernel |= sub("patched-6.12"; "mine")' \
	"$fx/versions.json" >"$tmp/roles.json"
"$report" --no-plots --out "$tmp/ro" "$tmp/roles.json" >/dev/null 2>&1 || :
has "$tmp/ro/report.md" "| case | cache | stock 6.1 | stock 6.12 | patched 6.1 | patched 6.12 |" \
	"kernels paired by their recorded role, not by their labels"
ok 'grep -q "| patched − stock | patched-6.12 − stock-6.12 | requests" "$v" &&
	! grep -q "stock-6.12 − stock " "$v" &&
	grep -q "A difference is a kernel minus the first kernel of its version (stock, stock-6.12)." "$v"' \
	"differences against the first kernel of each version, never across versions"
# The scan: per file system and mount profile, calls per file and what
# each mode missed of the 2 changes; "cookie not reported" where the
# kernel (stock) or the path (FUSE's listing carries none) gave none.
sc=$tmp/sc/report.md
ok '"$report" --no-plots --out "$tmp/sc" "$fx/scan.json" >"$tmp/scsum"' "report runs on scan.json"
has "$sc" "| mount | mode | files | stock-6.12 per file | missed | patched-6.12 per file | missed |" \
	"scan table: calls per file and missed changes for each kernel"
has "$sc" "| actimeo=1 | (a) statx mtime,ctime,size | 16 | 1.12 | 1 of 2 | 1.12 | 1 of 2 |" \
	"scan, NFS (a): 18 calls for 16 files, the unseen change missed on both kernels"
has "$sc" "| actimeo=1 | (b) list, cookie DONT_SYNC | 16 | 0.19 | cookie not reported | 0.19 | 0 of 2 |" \
	"scan, NFS (b): one listing, no cookie on stock, nothing missed patched"
has "$sc" "| timeouts 1 s | (c) cookie FORCE_SYNC | 16 | 1.00 | cookie not reported | 2.00 | 0 of 2 |" \
	"scan, FUSE (c): LOOKUP + STATX per file patched, nothing missed"
ok 'grep -qxF "nfs4.2  scan missed (as-stat/dont/force)   1/nr/nr → 1/0/0" "$tmp/scsum"' \
	"summary: the scan's misses per mode and kernel"
rc=0
echo '{"schema":2}' >"$tmp/bad.json"
"$report" "$tmp/bad.json" >/dev/null 2>&1 || rc=$?
ok '[ $rc = 1 ]' "another schema is refused"
exit $failed
