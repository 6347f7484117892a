#!/bin/sh
# bench/coldcache: its line of medians and its usage errors. What the
# numbers are is the host's business (make bench-host prints them);
# here only that they are there, nonzero, and what was asked for.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
cold=${BENCH_OUT:-${BUILD:-$here/../../build}/bench}/coldcache
if [ ! -x "$cold" ]; then
	echo "1..0 # SKIP coldcache not built (make -C bench)"
	exit 0
fi
. "$here/lib.sh"

echo "1..11"
rc=0
"$cold" --kib 256 --wait-us 200 --rounds 5 >"$tmp/out" 2>"$tmp/err" || rc=$?
is "$rc" 0 "a short run exits 0"
is "$(cat "$tmp/err")" "" "nothing on stderr"
is "$(wc -l <"$tmp/out")" 1 "one line"
is "$(grep -o '^kib=256 wait_us=200 rounds=5 ' "$tmp/out")" \
	"kib=256 wait_us=200 rounds=5 " "it says what it was asked"
for k in walk_us walk_after_sleep_us walk_after_spin_us compute_us \
	compute_after_sleep_us; do
	echo " $k="
done >"$tmp/keys"
is "$(grep -o ' [a-z_]*=[0-9]*\.[0-9]' "$tmp/out" | sed 's/[0-9.]*$//')" \
	"$(cat "$tmp/keys")" "five medians in microseconds, in order"
ok "! grep -Eq '=0\.0( |$)' '$tmp/out'" "no median is zero"

# usage ARGS...: "STATUS STDERR-LINES STDOUT-BYTES" of a run
usage() {
	rc=0
	"$cold" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	echo "$rc $(wc -l <"$tmp/err") $(wc -c <"$tmp/out")"
}
is "$(usage --kib 0)" "2 1 0" "--kib 0: one line, exit status 2"
is "$(usage --rounds 10001)" "2 1 0" "--rounds over the maximum: one line, exit status 2"
is "$(usage --bogus)" "2 1 0" "an unknown option: one line, exit status 2"
is "$(usage --kib)" "2 1 0" "an option without its value: one line, exit status 2"
is "$(usage extra)" "2 1 0" "an argument: one line, exit status 2"
exit $failed
