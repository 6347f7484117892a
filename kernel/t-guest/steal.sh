#!/bin/sh
# statx(AT_STATX_FORCE_SYNC) of a warm file costs one round trip on the
# patched kernels also when the guest loses its CPU between the path
# walk and ->getattr(), as a guest whose vCPU the host deschedules does
# (steal time). The host stops and continues the guest's QEMU (SIGSTOP,
# 10 ms at a time, 5 ms apart) while it makes 6000 such calls on
# NFSv4.2 (knfsd and the client in one guest, actimeo=3600), then 6000
# on FUSE (fusecount, timeouts of an hour): nothing expires. Exact: each
# call is one LOOKUP whose reply answers it: the walk tells ->getattr()
# of the same call that it fetched the attributes (AT_GETATTR_FETCHED),
# however long the guest was stopped in between. Timed marks on the
# inode, which earlier versions of the series used, let a stop between
# the two cost a second round trip here. On the patched kernels of
# lib/kernels.list: steal-6.1.t and steal-6.12.t (links to this file)
# on those of one version; `steal.sh LABEL` on one kernel.
set -eu
. "$(dirname "$0")/../../guest/lib.sh"
lab_table patched "6.1 6.12" "$@"
st_kernel=$1
lab_kernel "$st_kernel"
. "$lab_top/lib/tap.sh"
calls=6000
echo "1..4"

lab_ext4 "$lab_tmp/export.img"
out=$lab_tmp/out
pidf=$lab_tmp/qemu.pid
: >"$out" # polled below before the guest's shell may have opened it
"$lab_top/guest/run" --timeout 300 --with nfs --disk "$lab_tmp/export.img" \
	--append "$kernel_args" \
	--qemu-arg -pidfile --qemu-arg "$pidf" "$kernel" -- sh -c '
	command -v statx-probe >/dev/null ||
		{ echo "no statx-probe in the initramfs (make guest)"; exit 1; }
	NFS_OPTS=vers=4.2,actimeo=3600 nfs-loopback.sh up >/tmp/setup.log 2>&1 ||
		{ echo "setup failed"; cat /tmp/setup.log; exit 1; }
	echo x >/mnt/f && statx-probe --quiet /mnt/f && echo ready && sleep 1 &&
	nfs-loopback.sh delta statx-probe --sync force --repeat '$calls' --quiet /mnt/f &&
	mkdir -p /tmp/b /mnt/fu && echo x >/tmp/b/x &&
	fusecount -o ctl=/tmp/fc/ctl,entry_timeout=3600,attr_timeout=3600 /tmp/b /mnt/fu &&
	statx-probe --quiet /mnt/fu/x && fusecount-ctl /tmp/fc/ctl reset >/dev/null &&
	statx-probe --sync force --repeat '$calls' --quiet /mnt/fu/x &&
	echo "fuse: $(fusecount-ctl /tmp/fc/ctl stats)"
	' >"$out" 2>&1 &
guest=$!
i=0
until grep -q '^ready' "$out" || ! kill -0 $guest 2>/dev/null || [ $i -ge 1200 ]; do
	sleep 0.1
	i=$((i + 1))
done
qemu=$(cat "$pidf" 2>/dev/null || :)
# A test stopped mid-stop must not leave its QEMU stopped.
trap '[ -z "$qemu" ] || kill -CONT "$qemu" 2>/dev/null || :; lab_cleanup' EXIT
# The steal: while the guest runs, its QEMU is stopped for 10 ms (2.5
# ticks at HZ=250: a mark from before them was stale to the one-tick
# window), then runs 5 ms.
stops=0
if [ -n "$qemu" ] && grep -q '^ready' "$out"; then
	# perl (prove's) times the stops to the microsecond, a sleep(1) per
	# stop would take several milliseconds more
	stops=$(perl -MTime::HiRes=usleep -e '
		my ($guest, $qemu, $n) = (@ARGV, 0);
		while (kill(0, $guest) && kill("STOP", $qemu)) {
			usleep(10000);
			kill("CONT", $qemu);
			$n++;
			usleep(5000);
		}
		kill("CONT", $qemu);
		print "$n\n";' $guest "$qemu")
fi
[ -z "$qemu" ] || kill -CONT "$qemu" 2>/dev/null || :
rc=0
wait $guest || rc=$?
delta=$(grep '^delta:' "$out" || :)
fuse=$(grep '^fuse:' "$out" || :)
echo "# $st_kernel: $stops stops; $delta"
echo "# $fuse"
TAP_DIAG=$out
ok '[ $rc = 0 ] && [ -n "$delta" ] && [ -n "$fuse" ]' \
	"the guest made $calls statx FORCE_SYNC calls on NFS and on FUSE (status $rc)"
ok '[ $stops -ge 300 ]' "its QEMU was stopped while it did: $stops times"
case " $delta " in
*" v4.COMPOUND=$calls "*" v4op.LOOKUP=$calls "*) r=0 ;;
*) r=1 ;;
esac
ok '[ $r = 0 ]' "NFS: $calls calls, $calls COMPOUNDs, each a LOOKUP (no second GETATTR)"
case $fuse in
*'"LOOKUP":'$calls,*'"total":'$calls,*) r=0 ;;
*) r=1 ;;
esac
ok '[ $r = 0 ]' "FUSE: $calls calls, $calls requests, each a LOOKUP (no GETATTR or STATX)"
# prove shows a failing file's stderr, not its comments: the counts.
[ $failed = 0 ] || printf '%s: %s stops\n%s\n%s\n' "$st_kernel" "$stops" \
	"${delta:-no NFS delta}" "${fuse:-no FUSE stats}" >&2
exit $failed
