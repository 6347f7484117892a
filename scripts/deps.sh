#!/bin/sh
# Install the Debian packages the lab needs, and only those missing.
# Idempotent: a second run installs nothing and says so.
set -eu

# kernel build: linux-source-6.1 linux-source-6.12 xz-utils git build-essential flex bison
#   bc libelf-dev libssl-dev; guests: qemu-system-x86 busybox-static cpio
#   e2fsprogs file procps; FUSE: libfuse3-dev fuse3 pkg-config clang
#   (libFuzzer); NFS userspace copied into the guests: nfs-kernel-server
#   rpcbind iproute2; tests and report: perl (prove) jq gnuplot-nox.
PKGS="linux-source-6.1 linux-source-6.12 xz-utils git build-essential flex bison bc libelf-dev libssl-dev
qemu-system-x86 busybox-static cpio e2fsprogs file procps
libfuse3-dev fuse3 pkg-config clang
nfs-kernel-server rpcbind iproute2
perl jq gnuplot-nox"

missing=""
for p in $PKGS; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	*" installed") ;;
	*) missing="$missing $p" ;;
	esac
done

if [ -z "$missing" ]; then
	echo "deps: all packages present"
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "deps: missing packages:$missing" >&2
	echo "deps: run 'make deps' as root (or: sudo apt-get install$missing)" >&2
	exit 1
fi
echo "deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# nfs-kernel-server's postinst tries to start services; a container without
# systemd says no, which must not fail the install.
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing
