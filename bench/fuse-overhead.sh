#!/bin/sh
# bench/fuse-overhead.sh: what fusecount's bookkeeping costs. A getattr
# storm (attr_timeout=0, so every statx is one request) against one
# daemon, in rounds with the request trace on and off, reporting
# requests per second both ways, and the daemon's RSS after each round:
# it must stay flat over a million requests.
#
# fusecount always counts (the counters are the point of it); what can
# be switched at run time is the trace ring ("trace on|off"), so that is
# what is compared. Not a timed test: run it and read the numbers.
#
# usage: bench/fuse-overhead.sh [--kernel stock|patched] [--requests N]
#        (inside a guest: fuse-overhead.sh --guest N)
set -eu

log() { echo "fuse-overhead: $*"; }

# Guest side (busybox sh): rounds of ROUND statx calls from one process.
guest() {
	total=$1
	B=/tmp/oh.back M=/tmp/oh.mnt C=/tmp/oh.ctl/sock
	mkdir -p $B $M
	echo data >$B/f
	fusecount -o "ctl=$C,attr_timeout=0,entry_timeout=60" $B $M
	pid=$(pidof fusecount)
	rss() { awk '/^VmRSS/ { print $2 }' "/proc/$pid/status"; }
	# centiseconds since boot, from /proc/uptime
	now() { awk '{ sub(/\./, "", $1); print $1 + 0 }' /proc/uptime; }
	round=50000
	statx-probe --quiet --repeat 5000 $M/f
	rss0=$(rss)
	sent=0
	i=0
	while [ $sent -lt "$total" ]; do
		i=$((i + 1))
		mode=$([ $((i % 2)) = 1 ] && echo on || echo off)
		fusecount-ctl $C "trace $mode" >/dev/null
		fusecount-ctl $C reset >/dev/null
		t0=$(now)
		statx-probe --quiet --repeat $round $M/f
		t1=$(now)
		got=$(fusecount-ctl $C stats | sed 's/.*"total":\([0-9]*\).*/\1/')
		sent=$((sent + got))
		echo "round $i trace $mode $got $((t1 - t0)) $(rss)"
	done | tee /tmp/oh.rounds | awk -v rss0="$rss0" '
		{ n[$4] += $5; cs[$4] += $6; last = $7; total += $5
		  if ($2 == 2) base = $7
		  if ($2 > 2 && $7 > max) max = $7 }
		END {
			on = n["on"] / (cs["on"] / 100)
			off = n["off"] / (cs["off"] / 100)
			printf "trace on:  %d requests in %.2f s: %.0f requests/s\n", n["on"], cs["on"] / 100, on
			printf "trace off: %d requests in %.2f s: %.0f requests/s\n", n["off"], cs["off"] / 100, off
			printf "trace costs %.1f%% of the request rate\n", 100 * (off - on) / off
			printf "RSS: %d kB after warm-up, %d kB once the trace ring has been used (2 rounds), %d kB at most after that, %d kB after %d requests\n", rss0, base, max, last, total
			if (max - base > 64) { print "RSS GREW"; exit 1 }
			print "RSS flat (within 64 kB after the first two rounds)"
		}'
}

if [ "${1:-}" = --guest ]; then
	guest "$2"
	exit
fi

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
LAB_CACHE=${LAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/statx-lab}
BUILD=${BUILD:-$top/build}
kernel=patched
requests=1000000
usage() { sed -n '12,13s/^# \{0,1\}//p' "$0"; }
# One line and status 2, before any guest boots.
bad() { echo "fuse-overhead.sh: $* (bench/fuse-overhead.sh --help)" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--kernel|--requests) [ $# -ge 2 ] || bad "$1 needs a value" ;;
	esac
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--requests) requests=$2; shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) bad "unknown argument $1" ;;
	esac
done
case $kernel in stock|patched) ;; *) bad "--kernel $kernel: want stock or patched" ;; esac
case $requests in
''|0*|*[!0-9]*|?????????*) bad "--requests '$requests': want 1 to 99999999" ;;
esac
img=$LAB_CACHE/kernels/$kernel/bzImage
[ -f "$img" ] || bad "no $kernel kernel at $img (make kernel)"
exec "$top/guest/run" --timeout 3600 \
	--file "$BUILD/bench/statx-probe:/usr/bin/statx-probe" \
	--file "$here/fuse-overhead.sh:/lab/bin/fuse-overhead.sh" \
	"$img" -- sh /lab/bin/fuse-overhead.sh --guest "$requests"
