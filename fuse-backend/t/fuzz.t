#!/bin/sh
# libFuzzer on the daemon's parsers of untrusted input: the FUSE_STATX
# decoder, the request decoder and the control protocol. Each runs for
# FUZZ_SECONDS (default 20; make check sets it) and must not crash.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
secs=${FUZZ_SECONDS:-20}
fuzzers="statx_fuzz ctl_fuzz req_fuzz"

command -v clang >/dev/null || { echo "1..0 # SKIP clang not installed"; exit 0; }
echo "1..3"
n=0
for f in $fuzzers; do
	n=$((n + 1))
	if out=$(make -s -C "$top/fuse-backend" fuzz FUZZERS="$f" \
		 FUZZ_SECONDS="$secs" 2>&1); then
		echo "ok $n - $f: ${secs}s without a crash"
		echo "$out" | grep -E 'stat::number_of_executed_units|Done' |
			sed 's/^ */# /' || true
	else
		echo "not ok $n - $f crashed"
		echo "$out" | tail -30 | sed 's/^/# /'
	fi
done
