#!/bin/sh
# FUSE round trips per statx sync mode and mask (guest/tests/fuse_rt_test.c)
# on the optin kernel, counted by the fuse-backend daemon.
set -eu
. "$(dirname "$0")/../../guest/lib.sh"
lab_selftest optin fuse_rt_test
