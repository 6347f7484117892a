#!/bin/sh
# NFSv4.2 round trips per statx sync mode (guest/tests/nfs_rt_test.c) on
# the optin kernel: knfsd and the client in one guest, over loopback.
set -eu
. "$(dirname "$0")/../../guest/lib.sh"
lab_ext4 "$lab_tmp/export.img"
LAB_SETUP="NFS_MNT=/mnt/all nfs-loopback.sh up"
lab_selftest optin nfs_rt_test --with nfs --disk "$lab_tmp/export.img" --timeout 240
