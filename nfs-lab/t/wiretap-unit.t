#!/bin/sh
# Unit tests of the server's tap (wiretap.c): pairing calls and replies
# from frames fed by hand, no socket, no guest. The TAP comes from the C
# binary wiretap-unit (nfs-lab/tests/wiretap_unit.c).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
unit=${BUILD:-$here/../../build}/nfs-lab/wiretap-unit

if [ ! -x "$unit" ]; then
	echo "1..0 # SKIP wiretap-unit not built (make -C nfs-lab)"
	exit 0
fi
exec "$unit"
