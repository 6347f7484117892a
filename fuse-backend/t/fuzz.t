#!/bin/sh
# libFuzzer on the daemon's parsers of untrusted input: the FUSE_STATX
# decoder, the request decoder and the control protocol. Each runs for
# FUZZ_SECONDS (default 20; make check sets it) and must not crash.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
secs=${FUZZ_SECONDS:-20}
fuzzers="statx_fuzz ctl_fuzz req_fuzz"

. "$top/lib/tap.sh"

command -v clang >/dev/null || tap_skip_all "clang not installed"
echo "1..3"
for f in $fuzzers; do
	if out=$(make -s -C "$top/fuse-backend" fuzz FUZZERS="$f" \
		 FUZZ_SECONDS="$secs" 2>&1); then
		tap_result 0 "$f: ${secs}s without a crash"
		echo "$out" | grep -E 'stat::number_of_executed_units|Done' |
			sed 's/^ */# /' || true
	else
		tap_result 1 "$f crashed" "$(echo "$out" | tail -30)"
	fi
done
exit $failed
