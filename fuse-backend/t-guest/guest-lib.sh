# Guest side of t-guest (busybox sh, sourced before each guest script):
# TAP helpers, and fusecount on $B (backing) at $M with its socket at $C
# (fusecount makes its directory 0700: it refuses /tmp itself, which
# everyone may write to).
B=/tmp/backing
M=/mnt/fuse
C=/tmp/fc/ctl
n=0
failed=0
mkdir -p $B $M

# ok SH-CONDITION DESCRIPTION
ok() {
	n=$((n + 1))
	if eval "$1" >/dev/null 2>&1; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=$((failed + 1))
	fi
}

# is GOT WANT DESCRIPTION
is() {
	n=$((n + 1))
	if [ "$1" = "$2" ]; then
		echo "ok $n - $3"
	else
		echo "not ok $n - $3"
		echo "#   got '$1', want '$2'"
		failed=$((failed + 1))
	fi
}

# fc_mount OPTS: mount; fusecount returns once the mount is up
fc_mount() {
	fusecount -o "ctl=$C,$1" $B $M
}

fc_stats() {
	fusecount-ctl $C stats
}

# fc_count OP: one counter from "stats", 0 when absent
fc_count() {
	v=$(fc_stats | sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p")
	echo "${v:-0}"
}

# fc_sum: the opcode counters added up (they are all before "total")
fc_sum() {
	fc_stats | sed 's/"total".*//' | grep -o ':[0-9]*' |
		awk -F: '{ s += $2 } END { print s + 0 }'
}

fc_reset() {
	fusecount-ctl $C reset >/dev/null
}

mounted() {
	grep -q " $M fuse" /proc/mounts
}

# fc_gone: the daemon has exited and removed its socket (5 s at most)
fc_gone() {
	i=0
	while [ $i -lt 50 ] && { [ -e $C ] || pidof fusecount; }; do
		sleep 0.1
		i=$((i + 1))
	done >/dev/null
	! [ -e $C ] && ! pidof fusecount >/dev/null
}

fc_done() {
	exit $failed
}
