#!/bin/sh
# The counting FUSE backend in a guest (guest/tests/fusecount_test.c),
# on the patched kernel: ls -l counts, concurrency, unhandled opcodes, exit.
set -eu
. "$(dirname "$0")/../../guest/lib.sh"
lab_selftest patched fusecount_test
