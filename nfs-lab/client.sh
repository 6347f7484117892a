#!/bin/sh
# The NFS lab's client guest (runs INSIDE it, busybox sh; nfs-lab/run
# boots it): brings up the lab link, runs the cases in /lab/cases-VERS
# with labcase for each NFS version in turn and, whatever happens, tells
# labctl to quit so the server guest ends too.
#
# usage: client.sh KERNEL_NAME NFS_VERSION...
set -eu

status=1
trap 'labcase --ctl quit >/dev/null 2>&1 || true; exit $status' EXIT

[ -e /sys/class/net/eth0 ] || {
	echo "client: no eth0 (QEMU started without the lab network device)"
	exit 1
}
ip addr add 10.0.2.2/24 dev eth0
ip link set eth0 up
kernel=$1
shift
for v; do
	labcase --cases "/lab/cases-$v" --kernel "$kernel" --fs "nfs$v"
done
status=0
