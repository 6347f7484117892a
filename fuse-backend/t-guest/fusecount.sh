#!/bin/sh
# fusecount in a guest (guest/tests/fusecount_test.c): stat/statx and
# ls -l counts, READDIRPLUS on and off, threads with latency, FUSE_STATX,
# the private socket, deny_uid, statx_drop, exit; on the stock and
# patched 6.1 kernels of lib/kernels.list: fusecount-6.1.t (a link to
# this file) on both, `fusecount.sh LABEL` on one.
set -eu
. "$(dirname "$0")/../../guest/lib.sh"
lab_table "stock patched" 6.1 "$@"
lab_selftest "$1" fusecount_test
