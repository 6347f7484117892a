#!/bin/sh
# FUSE_STATX: the decoder, the 304-byte reply, the handler.
set -eu
. "$(dirname "$0")/lib.sh"
run_c_test statx_test
