#!/bin/sh
# NFSv4.2 and NFSv3 round trips of stat()/statx() on the patched kernel,
# server and client in two guests (t-guest/roundtrips.sh says what each count
# means).
set -eu
. "$(dirname "$0")/../../guest/lib.sh"
nl_here=$(cd "$(dirname "$0")/.." && pwd)
. "$nl_here/lib.sh"
nl_t_kernel=patched
. "$nl_here/t-guest/roundtrips.sh"
