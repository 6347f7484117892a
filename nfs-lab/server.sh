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

. /usr/lib/lab/knfsd.sh

case $threads in
[1-9]|[1-5][0-9]|6[0-4]) ;;
*) fail "NFS_LAB_THREADS=$threads: want 1 to 64 knfsd threads" ;;
esac
for b in rpcbind exportfs rpc.mountd rpc.nfsd labctl; do
	command -v "$b" >/dev/null ||
		fail "missing binary $b (nfs-utils/rpcbind in the initramfs? PATH=$PATH)"
done
knfsd_prepare
mkdir -p /export

[ -e /sys/class/net/eth0 ] || fail "no eth0 (QEMU started without the lab network device)"
ip addr add 10.0.2.1/24 dev eth0
ip link set eth0 up

knfsd_daemon syslogd syslogd -n -O "$logdir/syslog"
mount -t ext4 /dev/vda /export 2>"$logdir/mount.log" ||
	fail "mount /dev/vda (ext4) on /export" "$logdir/mount.log"
knfsd_rpc "/export $client(rw,no_root_squash,no_subtree_check,fsid=1)" \
	-N 2 -V 3 -V 4
# The lease must be set before the threads start.
echo 3600 >/proc/fs/nfsd/nfsv4leasetime
knfsd_threads "$threads" -N 4.0 -V 3 -V 4.1 -V 4.2
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
