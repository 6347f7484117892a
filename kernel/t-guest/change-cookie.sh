#!/bin/sh
# statx's change cookie (guest/tests/change_cookie_test.c): tmpfs, the
# ext4 disk knfsd exports, NFSv4.2 over loopback and fusecount, in one
# guest, on the stock and patched 6.12 kernels of lib/kernels.list:
# change-cookie-6.12.t (a link to this file) on both,
# `change-cookie.sh LABEL` on one.
set -eu
. "$(dirname "$0")/../../guest/lib.sh"
lab_table "stock patched" 6.12 "$@"
lab_ext4 "$lab_tmp/export.img"
LAB_SETUP="NFS_MNT=/mnt/all nfs-loopback.sh up"
lab_selftest "$1" change_cookie_test --with nfs --disk "$lab_tmp/export.img" --timeout 240
