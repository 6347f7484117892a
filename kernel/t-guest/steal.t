#!/bin/sh
# FORCE_SYNC of a warm NFS file under steal time, patched 6.1 (steal.sh).
st_kernel=patched
. "$(dirname "$0")/steal.sh"
