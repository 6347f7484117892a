#!/bin/sh
# The node table: lookup and forget mirror each other.
set -eu
. "$(dirname "$0")/lib.sh"
run_c_test inode_test
