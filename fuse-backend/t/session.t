#!/bin/sh
# The whole daemon against a fake kernel on a socket pair.
set -eu
. "$(dirname "$0")/lib.sh"
run_c_test session_test
