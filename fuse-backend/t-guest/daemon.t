#!/bin/sh
# fusecount's threads, readdirplus modes and shutdown (t-guest/daemon.sh).
set -eu
. "$(dirname "$0")/lib.sh"
fc_guest patched daemon.sh
