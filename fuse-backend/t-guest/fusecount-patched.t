#!/bin/sh
# fusecount in a guest on the patched kernel (guest/tests/fusecount_test.c):
# stat/statx and ls -l counts, READDIRPLUS on and off, threads with
# latency, FUSE_STATX, the private socket, deny_uid, statx_drop, exit.
set -eu
. "$(dirname "$0")/../../guest/lib.sh"
lab_selftest patched fusecount_test
