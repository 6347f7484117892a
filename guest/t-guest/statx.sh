#!/bin/sh
# statx semantics on tmpfs and ext4 (guest/tests/statx_test.c), on the
# stock and patched 6.1 kernels of lib/kernels.list: statx-6.1.t (a
# link to this file) on both, `statx.sh LABEL` on one.
set -eu
. "$(dirname "$0")/../lib.sh"
lab_table "stock patched" 6.1 "$@"
lab_ext4 "$lab_tmp/ext4.img"
lab_selftest "$1" statx_test --disk "$lab_tmp/ext4.img"
