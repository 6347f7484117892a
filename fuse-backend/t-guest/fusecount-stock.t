#!/bin/sh
# The counting FUSE backend in a guest (guest/tests/fusecount_test.c),
# on the stock kernel: ls -l counts, concurrency, unhandled opcodes, exit.
set -eu
. "$(dirname "$0")/../../guest/lib.sh"
lab_selftest stock fusecount_test
