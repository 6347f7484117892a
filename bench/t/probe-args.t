#!/bin/sh
# Unit tests of statx-probe's parser and formatters: the TAP comes from
# the C binary probe-unit (bench/tests/probe_unit.c).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
BUILD=${BENCH_OUT:-${BUILD:-$here/../../build}/bench}
unit=$BUILD/probe-unit

if [ ! -x "$unit" ]; then
	echo "1..0 # SKIP probe-unit not built (make -C bench)"
	exit 0
fi
exec "$unit"
