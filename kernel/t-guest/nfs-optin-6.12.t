#!/bin/sh
# NFSv4.2 round trips per statx sync mode (guest/tests/nfs_rt_test.c) on
# the optin-6.12 kernel (Linux 6.12): knfsd and the client in one guest,
# over loopback.
set -eu
. "$(dirname "$0")/../../guest/lib.sh"
lab_ext4 "$lab_tmp/export.img"
LAB_SETUP="NFS_MNT=/mnt/all nfs-loopback.sh up"
lab_selftest optin-6.12 nfs_rt_test --with nfs --disk "$lab_tmp/export.img" --timeout 240
