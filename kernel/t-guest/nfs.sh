#!/bin/sh
# NFSv4.2 round trips per statx sync mode (guest/tests/nfs_rt_test.c):
# knfsd and the client in one guest, over loopback, on the stock,
# patched and optin kernels of lib/kernels.list: nfs-6.1.t and
# nfs-6.12.t (links to this file) on those of one version; `nfs.sh
# LABEL` on one kernel.
set -eu
. "$(dirname "$0")/../../guest/lib.sh"
lab_table "stock patched optin" "6.1 6.12" "$@"
lab_ext4 "$lab_tmp/export.img"
LAB_SETUP="NFS_MNT=/mnt/all nfs-loopback.sh up"
lab_selftest "$1" nfs_rt_test --with nfs --disk "$lab_tmp/export.img" --timeout 240
