#!/bin/sh
# statx's change cookie (guest/tests/change_cookie_test.c) on the
# stock-6.12 kernel (Linux 6.12): tmpfs, the ext4 disk knfsd exports,
# NFSv4.2 over loopback and fusecount, in one guest.
set -eu
. "$(dirname "$0")/../../guest/lib.sh"
lab_ext4 "$lab_tmp/export.img"
LAB_SETUP="NFS_MNT=/mnt/all nfs-loopback.sh up"
lab_selftest stock-6.12 change_cookie_test --with nfs --disk "$lab_tmp/export.img" --timeout 240
