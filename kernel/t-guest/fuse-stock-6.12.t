#!/bin/sh
# FUSE round trips per statx sync mode and mask (guest/tests/fuse_rt_test.c)
# on the stock-6.12 kernel (Linux 6.12), counted by the fuse-backend daemon.
set -eu
. "$(dirname "$0")/../../guest/lib.sh"
lab_selftest stock-6.12 fuse_rt_test
