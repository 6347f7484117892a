#!/bin/sh
# The control protocol: parser, and a socket round trip in-process.
set -eu
. "$(dirname "$0")/lib.sh"
run_c_test ctl_test
