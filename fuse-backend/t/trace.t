#!/bin/sh
# Request decoding for the trace, and the trace ring.
set -eu
. "$(dirname "$0")/lib.sh"
run_c_test trace_test
