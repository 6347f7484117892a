#!/bin/sh
# The quick lab end to end (bench/lab --quick: three guests, stock,
# patched, optin; NFS too when nfs-lab/run exists), then its numbers
# against the counts the guest selftests assert one by one:
# guest/tests/fuse_rt_test.c (statx and the path walk) and
# guest/tests/fusecount_test.c (ls -l). Exact where the kernel is exact:
# every FUSE request counted here is synchronous, on a mount nothing
# else touches. The only async request, RELEASEDIR, is not in "calls".
# The 6.1 kernels only: lanes and report work alike on every version;
# 6.12's counts are kernel/t-guest/*-6.12.t's, the version section is
# bench/t/report.t's (make lab runs both versions).
set -eu
. "$(dirname "$0")/../../guest/lib.sh"

command -v jq >/dev/null || lab_skip "jq missing (make deps)"
lab_kernel stock
lab_kernel patched
[ -x "$lab_top/build/bench/fusebench" ] || lab_skip "fusebench not built (make -C bench)"

. "$lab_top/lib/tap.sh"

res=$lab_tmp/res
echo "1..61"
rc=0
"$lab_top/bench/lab" --quick --kernels stock,patched,optin --out "$res" >"$lab_tmp/summary" 2>"$lab_tmp/log" || rc=$?
is $rc 0 "bench/lab --quick"
r=$res/results.json
if [ $rc != 0 ]; then
	sed "s/^/# /" "$lab_tmp/log" | tail -n 20 >&2
	# the failed cases themselves, not only the count
	jq -r '.cases[] | select(.error) | "# FAILED \(.kernel) \(.fs) \(.workload) \(.call) \(.sync // "") \(.object // "") \(.cache) n=\(.n // 1): \(.error)"' \
		"$r" >&2 2>/dev/null || :
	exit 1
fi

# get KERNEL FIELD WORKLOAD CALL SYNC MASK OBJECT CACHE OPTS [FORM N DELAY]:
# FIELD (a jq path: .calls, .server.LOOKUP) of the FUSE case, 0 if absent.
get() {
	jq -r --arg k "$1" --arg wl "$3" --arg call "$4" --arg sync "$5" \
	      --arg mask "$6" --arg obj "$7" --arg cache "$8" --arg opts "$9" \
	      --arg form "${10:--}" --arg n "${11:-0}" --arg d "${12:-0}" \
	      "[.cases[] | select(.fs == \"fuse\" and .kernel == \$k and
		.workload == \$wl and .call == \$call and .sync == \$sync and
		(.mask // \"-\") == \$mask and .object == \$obj and
		.cache == \$cache and .mount_opts == \$opts and
		(.form // \"-\") == \$form and .delay_ms == (\$d | tonumber) and
		(\$n == \"0\" or .n == (\$n | tonumber)))] |
		if length == 1 then .[0] | ($2 // 0) else \"no case\" end" "$r"
}

X=entry_timeout=0,attr_timeout=0,dont_sync_entries
P=$X,default_permissions
C=entry_timeout=60,attr_timeout=60
for k in stock patched optin; do
	attr=$([ $k = stock ] && echo GETATTR || echo STATX)
	# fuse_rt_test all_expired.dont_sync_deep_path: ON_KERNEL(3, 0, 0)
	is "$(get $k .calls syscall statx dont basic deep expired $X)" \
		"$([ $k = stock ] && echo 3 || echo 0)" \
		"$k: statx DONT_SYNC of d1/d2/f, all expired: ON_KERNEL(3, 0, 0) LOOKUPs"
	# all_expired.stat_deep_path: 3 LOOKUP, 1 attribute request
	is "$(get $k .server.LOOKUP syscall stat as-stat basic deep expired $X)/$(get $k .server.$attr syscall stat as-stat basic deep expired $X)" \
		3/1 "$k: stat of d1/d2/f, all expired: 3 LOOKUP + 1 $attr"
	# perm_expired.dont_sync_deep_path: total ON_KERNEL(6, 3, 0)
	is "$(get $k .calls syscall statx dont basic deep expired $P)" \
		"$(case $k in stock) echo 6 ;; patched) echo 3 ;; optin) echo 0 ;; esac)" \
		"$k: the same with default_permissions: ON_KERNEL(6, 3, 0)"
	# perm_expired.stat_deep_path: 7 requests on every kernel
	is "$(get $k .calls syscall stat as-stat basic deep expired $P)" 7 \
		"$k: stat of d1/d2/f with default_permissions: 7 requests"
	# cached.stat_fresh_name_costs_one_lookup, second_stat_costs_nothing
	is "$(get $k .calls syscall stat as-stat basic file cold $C)" 1 \
		"$k: stat of a fresh name: 1 LOOKUP"
	is "$(get $k .calls syscall stat as-stat basic file warm $C)" 0 \
		"$k: a second stat: nothing"
	# cached.force_sync: stock 1 attribute request, patched 1 LOOKUP
	# whose reply answers the call (2 before the series review)
	is "$(get $k .calls syscall statx force basic deep warm $C)" 1 \
		"$k: statx FORCE_SYNC, cached: 1 round trip"
	# fusecount_test daemon.ls_l_cold (readdirplus on): OPENDIR, one
	# LOOKUP for the directory, READDIRPLUS pages, nothing per file but
	# the READLINK of each symlink (ls -l prints the target; 15 of 100).
	# 100 entries + . and .. at 160 bytes each (fuse_entry_out + dirent
	# with a 6-byte name) fill 4 KiB pages 25 at a time: 5 pages, then
	# the empty reply that ends the stream: 6 where 20 files give 2.
	o="$C,readdirplus=on"
	s=$(get $k '.server | "\(.OPENDIR // 0) \(.LOOKUP // 0) \(.READDIRPLUS // 0) \(.READLINK // 0) \((.GETATTR // 0) + (.STATX // 0))"' \
		ls ls as-stat - dir cold "$o" long 100)
	is "$s" "1 1 6 15 0" "$k: busybox ls -l of 100 entries, cold: OPENDIR, LOOKUP, 6 READDIRPLUS, 15 READLINK"
	# daemon.ls_l_warm: no LOOKUP, exactly one attribute request (the
	# directory's atime went stale when it was read). The pages as a
	# sum: with readdirplus=auto the kernel picks plus or plain per page
	# (plus at offset 0, or when a revalidation advised it since:
	# fuse_use_readdirplus), and the series changes revalidation; the
	# split per opcode is fusecount_test's, on =on and =off mounts.
	o="$C,readdirplus=auto"
	s=$(get $k '.server | "\(.LOOKUP // 0) \((.GETATTR // 0) + (.STATX // 0)) \((.READDIRPLUS // 0) + (.READDIR // 0))"' \
		ls ls as-stat - dir warm "$o" long 100)
	is "$s" "0 1 6" "$k: busybox ls -l again, warm: 0 LOOKUP, 1 attribute request, 6 pages"
	# The deep tree: 64 files 5 components down, all expired: as-stat
	# 5 LOOKUP + 1 attribute request each; DONT_SYNC ON_KERNEL(5, 0, 0).
	is "$(get $k .calls deep statx as-stat basic deep expired $X)" 384 \
		"$k: statx of 64 files 4 directories down, expired: 6 requests each"
	is "$(get $k .calls deep statx dont basic deep expired $X)" \
		"$([ $k = stock ] && echo 320 || echo 0)" \
		"$k: the same with DONT_SYNC: ON_KERNEL(320, 0, 0)"
done

# injected_delay: each request costs at least delay_us; ls -l cold at
# 10 ms makes 23 requests in a row, so it takes 230 ms at least.
w=$(get stock .wall_us ls ls as-stat - dir cold "$C,readdirplus=auto" long 100 10)
c=$(get stock .calls ls ls as-stat - dir cold "$C,readdirplus=auto" long 100 10)
is "$([ "$w" -ge $((c * 10000)) ] && echo yes)" yes \
	"ls -l at 10 ms per request: $w us >= $c requests x 10 ms"

# The report shows those numbers.
is "$(grep -cxF '| entry_timeout=0,attr_timeout=0,dont_sync_entries | statx | dont | basic | deep | expired | 3 | 0 | 0 | -3 | -3 | 3 LOOKUP → patched: none → optin: none |' "$res/report.md")" 1 \
	"report.md: the DONT_SYNC row, stock 3 -> patched 0 -> optin 0"
is "$(grep -c '^fuse    statx DONT_SYNC d1/d2/f, expired *3 → 0 → 0 \[timeouts 0 s\]$' "$lab_tmp/summary")" 1 \
	"the summary says so too"
is "$(ls "$res/plots" | grep -- "-fuse-.*\.svg$" | tr "\n" " ")" \
	"calls-fuse-cold-timeouts-1-s.svg calls-fuse-cold-timeouts-60-s.svg calls-fuse-expired-timeouts-0-s.svg calls-fuse-expired-timeouts-1-s.svg calls-fuse-warm-timeouts-60-s.svg time-fuse-cold-timeouts-60-s.svg time-fuse-expired-timeouts-0-s.svg " \
	"FUSE plots per mount profile: calls cold, warm, expired; time cold, expired"
is "$(jq '[.cases[] | select(.error)] | length' "$r")" 0 "no case failed"
# Each guest's clock as its cases ran on it: after tsc-early (the TSC
# before its refined calibration) the kernel moves to tsc, or to hpet
# if its watchdog finds the TSC unstable; never jiffies.
is "$(jq -r '[.kernels[].clock[]] | "\(length) \(map(select(
	(.clocksource | IN("tsc", "hpet", "acpi_pm") | not) or .res_ns > 1000)) | length)"' "$r")" "9 0" \
	"results.json: 3 kernels x 3 lanes recorded tsc, hpet or acpi_pm at 1 us or finer"
is "$(jq '[.cases[] | select(.fs == "nfs3" or .fs == "nfs4.2")] | length > 0' "$r")" true \
	"NFS cases from nfs-lab/run"
# nfs-lab/t-guest/rt.sh case 16: statx DONT_SYNC of the 64 files of
# the deep tree, expired: a GETATTR per directory (32), none with the
# opt-in.
for fs in nfs3 nfs4.2; do
	for k in stock patched optin; do
		is "$(jq --arg fs $fs --arg k $k '[.cases[] | select(.fs == $fs and
			.kernel == $k and .workload == "deep" and .sync == "dont" and
			.cache == "expired") | .calls] | join(",")' -r "$r")" \
			"$([ $k = optin ] && echo 0 || echo 32)" \
			"$fs $k: deep tree DONT_SYNC, expired: $([ $k = optin ] && echo 0 || echo 32) calls"
	done
done
is "$(grep -c '^nfs4.2  deep tree DONT_SYNC, 64 files *32 → 32 → 0 \[actimeo=1\]$' "$lab_tmp/summary")" 1 \
	"the summary has the NFS deep tree"
is "$(jq '[.kernels[].clock[] | select(.host_ppm_lane == null or
	(.host_ppm_lane | fabs) > 10000)] | length' "$r")" 0 \
	"every lane's clock agreed with the host's within 1 % over the lane"
is "$(jq '[.cases[] | select(.fs == "nfs3" and .workload == "ls" and
	.readdir == null)] | length' "$r")" 0 \
	"every NFS ls case says what the client decided (readdir trace)"

# The scan (which of 16 files changed since the last scan; 2 did, one of
# them keeping its size and times): mtime, ctime and size as-stat find
# the one that grew and miss the other, on every kernel; 6.1 has no
# change cookie, so the scans by the cookie say it was not reported.
# As-stat costs a GETATTR per file past the directory's calls.
scan() {
	jq -r --arg k "$1" --arg fs "$2" --arg sync "$3" '[.cases[] |
		select(.kernel == $k and .fs == $fs and .workload == "scan" and
		.sync == $sync)] | if length == 1 then .[0] |
		"\(.calls) \(.changed) \(.detected // "-") \(.missed // "-") \(.cookie // "-")"
		else "no case" end' "$r"
}
for k in stock patched optin; do
	is "$(scan $k fuse as-stat)" "16 2 1 1 -" \
		"$k fuse: scan as-stat: 16 calls, the same-size same-times change missed"
	is "$(scan $k nfs4.2 as-stat | cut -d' ' -f2-)" "2 1 1 -" \
		"$k nfs4.2: scan as-stat: the same-size same-times change missed"
	is "$(scan $k fuse dont | cut -d' ' -f2-)/$(scan $k nfs4.2 force | cut -d' ' -f2-)" \
		"2 - - not reported/2 - - not reported" \
		"$k: no change cookie on 6.1: the scans by the cookie say so"
done

# The same counts under load: stock's lanes again beside two busy loops
# (a second lab on the machine). The cache state each case claims is
# checked (a warm case run again when its attributes expired meanwhile,
# at most three times), and so is the guest's clock: a case the load
# kept out of its state, or a lane whose clock disagreed with the
# host's, fails with that reason and is no count. Every case measured
# counted what it counted idle; but for the FUSE requests the kernel
# sends without waiting (not in "calls"): a warm-up's RELEASEDIR may
# reach the daemon after the counters' first read, or before it.
lab_busy 2 900
rc=0
"$lab_top/bench/lab" --quick --kernels stock --out "$res-busy" \
	--no-report 2>"$lab_tmp/log-busy" || rc=$?
# shellcheck disable=SC2086
kill -TERM $lab_busy_pids 2>/dev/null || :
lab_busy_pids=""
rb=$res-busy/results.json
jq -r '.cases[] | select(.error) | "\(.fs) \(.workload) \(.call) \(.sync // "") \(.cache) n=\(.n // 1): \(.error)"' \
	"$rb" >"$lab_tmp/busy.failed" 2>/dev/null || :
ok '[ $rc = 0 ] || { [ $rc = 1 ] && [ -s "$lab_tmp/busy.failed" ] &&
	! grep -vqE ": (a warm case ended past|an expired case started within) its attribute timeout$|: guest clock: " "$lab_tmp/busy.failed"; }' \
	"beside two busy loops: every case measured, or refused for its cache state or clock ($(wc -l <"$lab_tmp/busy.failed") refused)"
sed 's/^/# refused under load: /' "$lab_tmp/busy.failed"
# A call that outlasted its mount's attribute timeout (outlasted_timeout:
# a listing slowed down by the load) counts what its speed allows: such a
# case is compared only when it ran within its timeout in both runs.
counts='[.cases[] | select(.kernel == "stock" and .error == null) | {key:
	([.fs, .mount_opts, .workload, .call, .form, .sync, .mask, .object,
	.nofollow, .cache, .n, .delay_ms] | tostring), value: [.calls, (.server |
	del(.RELEASEDIR, .RELEASE, .FORGET, .BATCH_FORGET, .INTERRUPT)),
	.readdir, (.outlasted_timeout // false)]}] | from_entries'
jq "$counts" "$r" >"$lab_tmp/idle.counts"
jq "$counts" "$rb" >"$lab_tmp/busy.counts" 2>/dev/null || :
jq -n --slurpfile i "$lab_tmp/idle.counts" --slurpfile b "$lab_tmp/busy.counts" \
	'$b[0] | to_entries[] | select($i[0][.key] != null and
	 (.value[3] or $i[0][.key][3] | not) and $i[0][.key] != .value) |
	 {case: .key, idle: $i[0][.key], busy: .value}' >"$lab_tmp/load.diff" 2>&1 || :
nb=$(jq length "$lab_tmp/busy.counts" 2>/dev/null || echo 0)
ni=$(jq length "$lab_tmp/idle.counts")
nslow=$(jq '[.[] | select(.[3])] | length' "$lab_tmp/busy.counts" 2>/dev/null || echo 0)
ok '[ "$ni" -gt 0 ] && [ ! -s "$lab_tmp/load.diff" ] && [ $((nb * 10)) -ge $((ni * 9)) ]' \
	"under load every case of stock measured counted what it counted idle ($nb of $ni cases, at least 90 %; $nslow outlasted their timeout under load)"
head -n 20 "$lab_tmp/load.diff" | sed 's/^/# /'
exit $failed
