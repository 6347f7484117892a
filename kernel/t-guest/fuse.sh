#!/bin/sh
# FUSE round trips per statx sync mode and mask (guest/tests/fuse_rt_test.c),
# counted by the fuse-backend daemon, on the stock, patched and optin
# kernels of lib/kernels.list: fuse-6.1.t and fuse-6.12.t (links to
# this file) on those of one version; `fuse.sh LABEL` on one kernel.
set -eu
. "$(dirname "$0")/../../guest/lib.sh"
lab_table "stock patched optin" "6.1 6.12" "$@"
lab_selftest "$1" fuse_rt_test
