#!/bin/sh
# stat() and statx() through fusecount on the stock kernel (t-guest/statx.sh).
set -eu
. "$(dirname "$0")/lib.sh"
fc_guest stock statx.sh
