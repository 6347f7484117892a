#!/bin/sh
# The control socket's privacy, deny_uid and statx_drop with the real
# device, on the patched kernel (t-guest/policy.sh).
set -eu
. "$(dirname "$0")/lib.sh"
fc_guest patched policy.sh
