#!/bin/sh
# Unit tests of lsx's masks, parser and formatting: the TAP comes from
# the C binary lsx-unit (bench/tests/lsx_unit.c).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
BUILD=${BENCH_OUT:-${BUILD:-$here/../../build}/bench}
unit=$BUILD/lsx-unit

if [ ! -x "$unit" ]; then
	echo "1..0 # SKIP lsx-unit not built (make -C bench)"
	exit 0
fi
exec "$unit"
