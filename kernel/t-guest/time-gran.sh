#!/bin/sh
# statx's timestamp granularity (guest/tests/time_gran_test.c): tmpfs,
# the ext4 disk knfsd exports (256-byte inodes), an ext4 disk with
# 128-byte inodes, NFSv4.2 and NFSv3 over loopback and fusecount, in one
# guest, on the stock and patched 6.12 kernels of lib/kernels.list:
# time-gran-6.12.t (a link to this file) on both, `time-gran.sh LABEL`
# on one.
set -eu
. "$(dirname "$0")/../../guest/lib.sh"
lab_table "stock patched" 6.12 "$@"
lab_ext4 "$lab_tmp/export.img"
mke2fs -q -F -t ext4 -I 128 -O ^has_journal "$lab_tmp/gran128.img" 16M \
	>/dev/null 2>&1 || { echo "Bail out! mke2fs -I 128 failed"; exit 1; }
LAB_SETUP="NFS_MNT=/mnt/all nfs-loopback.sh up"
lab_selftest "$1" time_gran_test --with nfs --disk "$lab_tmp/export.img" \
	--disk "$lab_tmp/gran128.img" --timeout 240
