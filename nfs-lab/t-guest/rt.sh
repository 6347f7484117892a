#!/bin/sh
# The reference round trips of stat()/statx() on d1/d2/file over the
# two-guest network, NFSv4.2 then NFSv3 in one pair of guests, on the
# stock, patched and optin 6.1 kernels of lib/kernels.list (the counts
# are 6.1's): rt-6.1.t (a link to this file) runs them all, `rt.sh
# LABEL` one. Each case runs on a fresh tree and a fresh mount
# (nosharecache); "calls" is what the server counted: COMPOUNDs on
# NFSv4, RPCs on NFSv3. An expected value "S P O" is for the kernel's
# role in the list: stock, patched, optin. The server's LOOKUP, ACCESS
# and GETATTR counters are NFSv4 operations or NFSv3 procedures: the
# same numbers here, NFSv4 only adds SEQUENCE and PUTFH to each COMPOUND.
# The expired cases of d1/d2/file mount with actimeo=1 (the lab's
# default) and wait 1.2 s; those of the deep tree, whose walk must end
# within the timeout it waited out, with actimeo=3 (3.2 s); every other
# case with actimeo=3600, so a host that stalls a guest for seconds
# (several test files at a time on 2 cores) cannot expire what a cold,
# warm or changed count relies on.
#
# Kernel patches covered: 0001/0002 (FORCE_SYNC looks the final name up
# again), 0006/0007 (btime from NFSv4 time_create), 0008/0009 (the
# statx_cached_access mount option, lab.optin=10).
set -eu
. "$(dirname "$0")/../../guest/lib.sh"
nl_here=$(cd "$(dirname "$0")/.." && pwd)
. "$nl_here/lib.sh"
lab_table "stock patched optin" 6.1 "$@"
nl_t_kernel=$1
lab_kernel "$nl_t_kernel"
nl_t_role=$lab_role
nl_t_run 68 --kernel "$nl_t_kernel" --vers 4.2 --vers 3 <<'CASES'
call=stat object=deep cache=cold opts=actimeo=3600
call=stat object=deep cache=warm opts=actimeo=3600
call=statx sync=force object=deep cache=warm opts=actimeo=3600
call=stat object=deep cache=expired
call=statx sync=dont object=deep cache=expired
call=statx sync=force object=deep cache=expired
call=statx sync=as-stat mask=type,ino object=deep cache=expired
call=statx sync=force mask=basic,btime object=deep cache=warm opts=actimeo=3600
call=statx sync=dont object=deep cache=changed opts=actimeo=3600
call=statx sync=force object=deep cache=changed opts=actimeo=3600
call=statx sync=as-stat object=deep cache=changed opts=actimeo=3600
workload=ls call=gnu-ls form=long n=20 cache=cold opts=actimeo=3600
workload=deep sync=as-stat cache=cold opts=actimeo=3600
workload=deep sync=as-stat cache=warm opts=actimeo=3600
workload=deep sync=as-stat cache=expired opts=actimeo=3
workload=deep sync=dont cache=expired opts=actimeo=3
CASES

for vers in 4.2 3; do
nl_t_fs=nfs$vers
# A birth time only over NFSv4, on patched kernels: see case 8.
btime=false
[ $vers = 3 ] || btime="false true true"

# 1. Just mounted: d1, d2 and file are looked up, and the walk asks the
# server for ACCESS on each directory it goes through (root, d1, d2).
nl_t_is 1 .calls 6 "cold stat: 6 round trips"
nl_t_is 1 .server.LOOKUP 3 "cold stat: 3 LOOKUP"
nl_t_is 1 .server.ACCESS 3 "cold stat: 3 ACCESS"
nl_t_is 1 .client_calls 6 "cold stat: the client counts the same 6"
# 2. Within actimeo everything is cached, on every kernel.
nl_t_is 2 .calls 0 "warm stat: no round trip"
# 3. FORCE_SYNC refreshes the file (1 GETATTR); patched kernels look the
# final name up instead (patch 0002), so a rename over it is seen, and
# the LOOKUP reply's attributes answer the call (2 calls before the
# series review: LOOKUP, then GETATTR).
nl_t_is 3 .calls "1 1 1" "warm statx FORCE_SYNC"
nl_t_is 3 .server.LOOKUP "0 1 1" "warm statx FORCE_SYNC: LOOKUP of the final name"
# 4. Expired: the walk revalidates root, d1 and d2 before trusting their
# cached ACCESS answers, then stat() refreshes the file.
nl_t_is 4 .calls 4 "expired stat: 4 round trips"
nl_t_is 4 .server.GETATTR 4 "expired stat: all 4 are GETATTR"
# 5. DONT_SYNC skips the file's GETATTR but not the walk's three; the
# opt-in (patch 0009) lets the walk use the cached ACCESS answers.
nl_t_is 5 .calls "3 3 0" "expired statx DONT_SYNC"
nl_t_is 5 .server.GETATTR "3 3 0" "expired statx DONT_SYNC: GETATTRs of the walk only"
# 6. FORCE_SYNC: the walk's 3, then the file's GETATTR (stock) or its
# LOOKUP (patched; 5 before the series review).
nl_t_is 6 .calls "4 4 4" "expired statx FORCE_SYNC"
nl_t_is 6 .server.LOOKUP "0 1 1" "expired statx FORCE_SYNC: LOOKUP of the final name"
# 7. TYPE|INO never needs the server: nfs_getattr() skips the file.
nl_t_is 7 .calls 3 "expired statx TYPE|INO: the walk only"
# 8. A birth time comes only from an NFSv4 server sending time_create to
# a client that asks for it: patches 0006 (knfsd) and 0007 (client).
nl_t_is 8 .btime "$btime" "statx STATX_BTIME: btime returned only by patched NFSv4.2"
nl_t_is 8 .calls "1 1 1" "statx BASIC|BTIME FORCE_SYNC: no extra round trip"
# 9-11. chmod 0600 on the server behind the client's back, after a
# warm-up: only FORCE_SYNC asks the server and sees the new ctime.
nl_t_is 9 .calls 0 "changed, DONT_SYNC: no round trip"
nl_t_is 9 .seen false "changed, DONT_SYNC: the change is not seen"
nl_t_is 9 .mode 0644 "changed, DONT_SYNC: the cached mode"
nl_t_is 10 .calls "1 1 1" "changed, FORCE_SYNC: asks the server"
nl_t_is 10 .seen true "changed, FORCE_SYNC: the change is seen"
nl_t_is 10 .mode 0600 "changed, FORCE_SYNC: the new mode"
nl_t_is 11 .calls 0 "changed, as-stat within actimeo: no round trip"
nl_t_is 11 .seen false "changed, as-stat within actimeo: not seen"
# 12. ls -l of 20 entries, cold: LOOKUP of ls, ACCESS of the root and of
# ls, one GETATTR of ls, one READDIR(PLUS) bringing every entry's
# attributes, and a READLINK per symlink (5). No per-entry GETATTR.
nl_t_is 12 .calls 10 "cold ls -l of 20 entries: 10 round trips"
nl_t_is 12 .server.READLINK 5 "cold ls -l: one READLINK per symlink"
# 13-16. statx of the 64 files of tree/a?/b?/c?/d?/f?, 31 directories
# below the mount's root. Cold: a LOOKUP per directory and file (95) and
# an ACCESS per directory walked through (32, root included). Expired:
# one GETATTR per directory (revalidated once: the walk ends well
# within actimeo=3, also on a busy host) and per file. DONT_SYNC: the files'
# GETATTRs go, the directories' stay, but for the opt-in (0009).
nl_t_is 13 .calls 127 "deep tree cold: 127 round trips"
nl_t_is 13 .server.LOOKUP 95 "deep tree cold: a LOOKUP per directory and file"
nl_t_is 13 .server.ACCESS 32 "deep tree cold: an ACCESS per directory walked"
nl_t_is 14 .calls 0 "deep tree warm: none"
nl_t_is 15 .calls 96 "deep tree expired: 32 directories + 64 files"
nl_t_is 15 .server.GETATTR 96 "deep tree expired: all GETATTR"
nl_t_is 16 .calls "32 32 0" "deep tree expired, DONT_SYNC: the directories only"
# Every case: the server's tap on its interface (nfs-lab/wiretap.c)
# paired each round trip the server counted with its reply, by XID,
# lost nothing, and saw each reply also on the egress mirror as the
# qdisc took it (its hold timed). Exact: a call is one RPC record, the
# filter keeps every segment of port 2049 that carries data, and the tap
# follows each stream from case to case, so a reply TCP sends again when
# a loaded host makes the client's ACK late is known for a copy.
nl_t_ok "jq -e --arg fs $nl_t_fs '[.cases[] | select(.fs == \$fs)] |
	all(.wire_requests == .calls and .wire_held == .calls and
	    .wire_lost == null)' \
	\"\$lab_tmp/out.json\" >/dev/null" \
	"$nl_t_fs: the server's tap paired and held every round trip of every case" \
	"jq -c --arg fs $nl_t_fs '.cases[] | select(.fs == \$fs) |
	select(.wire_requests != .calls or .wire_held != .calls or
	       .wire_lost != null) |
	{id, calls, wire_requests, wire_held, wire_unmatched, wire_dropped,
	 wire_lost, server, client_calls, retrans}' \
	\"\$lab_tmp/out.json\" | sed 's/^/#   /'"
done
exit $nl_t_failed
