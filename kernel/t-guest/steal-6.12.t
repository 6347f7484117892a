#!/bin/sh
# FORCE_SYNC of a warm NFS file under steal time, patched-6.12 (steal.sh).
st_kernel=patched-6.12
. "$(dirname "$0")/steal.sh"
