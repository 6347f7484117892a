#!/bin/sh
# statx semantics on tmpfs and ext4 (guest/tests/statx_test.c), stock kernel.
set -eu
. "$(dirname "$0")/../lib.sh"
lab_ext4 "$lab_tmp/ext4.img"
lab_selftest stock statx_test --disk "$lab_tmp/ext4.img"
