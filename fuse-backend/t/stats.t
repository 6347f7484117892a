#!/bin/sh
# Counters: exact totals from many threads, reset, JSON.
set -eu
. "$(dirname "$0")/lib.sh"
run_c_test stats_test
