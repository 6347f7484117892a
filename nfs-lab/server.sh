#!/bin/sh
# The NFS lab's server guest (runs INSIDE it, busybox sh; nfs-lab/run
# boots it): exports the ext4 disk /dev/vda as /export to the client
# guest over the lab link, NFSv3 and v4.1/v4.2, then serves labctl until
# the client says "quit", and shuts the server down.
#
# Export: /export 10.0.2.2(rw,no_root_squash,no_subtree_check,fsid=1).
# knfsd: 2 threads; the NFSv4 grace period is ended at once (a fresh
# server has no client to reclaim state; an OPEN in grace would be
# retried after NFS4ERR_GRACE, and counts would depend on timing), and
# the lease is 3600 s (the client then never sends a lease renewal
# during a run). Daemon logs: /run/nfs-lab/. On
# failure it names the step and the daemon, shows its log and exits 1.
#
# Environment: NFS_LAB_CLIENT (10.0.2.2), NFS_LAB_THREADS (2).
set -eu

client=${NFS_LAB_CLIENT:-10.0.2.2}
threads=${NFS_LAB_THREADS:-2}
logdir=/run/nfs-lab

log() { echo "server: $*"; }

# fail STEP [LOG]: name the failed step, show its log, exit 1.
fail() {
	log "FAILED: $1"
	if [ -n "${2:-}" ] && [ -s "$2" ]; then
		log "--- $2 ---"
		tail -n 30 "$2"
	fi
	if [ -s "$logdir/syslog" ]; then
		log "--- syslog ---"
		tail -n 15 "$logdir/syslog"
	fi
	exit 1
}

# start NAME CMD...: a foreground daemon in the background, logging to
# $logdir/NAME.log; fail if it is gone a moment later.
start() {
	name=$1
	shift
	"$@" >"$logdir/$name.log" 2>&1 &
	echo $! >"$logdir/$name.pid"
	sleep 0.5
	kill -0 "$(cat "$logdir/$name.pid")" 2>/dev/null ||
		fail "$name exited at start ($*)" "$logdir/$name.log"
}

case $threads in
[1-9]|[1-5][0-9]|6[0-4]) ;;
*) fail "NFS_LAB_THREADS=$threads: want 1 to 64 knfsd threads" ;;
esac
for b in rpcbind exportfs rpc.mountd rpc.nfsd labctl; do
	command -v "$b" >/dev/null ||
		fail "missing binary $b (nfs-utils/rpcbind in the initramfs? PATH=$PATH)"
done
mkdir -p "$logdir" /export /var/lib/nfs/v4recovery /run/rpcbind
[ -e /etc/mtab ] || ln -s /proc/mounts /etc/mtab
chown _rpc /run/rpcbind 2>/dev/null || true
touch /var/lib/nfs/rmtab

[ -e /sys/class/net/eth0 ] || fail "no eth0 (QEMU started without the lab network device)"
ip addr add 10.0.2.1/24 dev eth0
ip link set eth0 up

start syslogd syslogd -n -O "$logdir/syslog"
mount -t ext4 /dev/vda /export 2>"$logdir/mount.log" ||
	fail "mount /dev/vda (ext4) on /export" "$logdir/mount.log"
mount -t nfsd nfsd /proc/fs/nfsd 2>"$logdir/mount.log" ||
	fail "mount the nfsd filesystem on /proc/fs/nfsd" "$logdir/mount.log"

start rpcbind rpcbind -f
i=0
until [ -S /run/rpcbind.sock ]; do
	i=$((i + 1))
	[ $i -le 20 ] || fail "rpcbind: no /run/rpcbind.sock" "$logdir/rpcbind.log"
	sleep 0.2
done

echo "/export $client(rw,no_root_squash,no_subtree_check,fsid=1)" >/etc/exports
exportfs -ra >"$logdir/exportfs.log" 2>&1 || fail "exportfs -ra" "$logdir/exportfs.log"
grep -q "^/export" /var/lib/nfs/etab ||
	fail "exportfs: /export not in /var/lib/nfs/etab" "$logdir/exportfs.log"

start rpc.mountd rpc.mountd -F -N 2 -V 3 -V 4

# The lease must be set before the threads start.
echo 3600 >/proc/fs/nfsd/nfsv4leasetime
rpc.nfsd -N 4.0 -V 3 -V 4.1 -V 4.2 "$threads" >"$logdir/rpc.nfsd.log" 2>&1 ||
	fail "rpc.nfsd" "$logdir/rpc.nfsd.log"
[ "$(cat /proc/fs/nfsd/threads)" = "$threads" ] ||
	fail "rpc.nfsd: $(cat /proc/fs/nfsd/threads) threads, want $threads" "$logdir/rpc.nfsd.log"
echo Y >/proc/fs/nfsd/v4_end_grace 2>"$logdir/grace.log" ||
	fail "end the NFSv4 grace period (/proc/fs/nfsd/v4_end_grace)" "$logdir/grace.log"
log "knfsd up, versions $(cat /proc/fs/nfsd/versions)"

labctl /export 2>"$logdir/labctl.log" &
ctl=$!
rc=0
wait $ctl || rc=$?
[ $rc = 0 ] || fail "labctl exited with status $rc" "$logdir/labctl.log"
log "labctl: $(grep -c -- '->' "$logdir/labctl.log") requests, quit"

rpc.nfsd 0 >/dev/null 2>&1 || true
exportfs -ua 2>/dev/null || true
umount /export 2>/dev/null || true
