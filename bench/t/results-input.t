#!/bin/sh
# What bench/report and bench/compare accept: a file that is not one
# schema 1 results document with the fields' types (empty, not JSON, two
# documents, another schema, a string where a number goes...) is refused
# with one line and status 1, and nothing is written; a missing option
# value is one line and status 2. Every field the report reads is
# checked (a wrongly typed clock, run list or guest line made its jq die
# with status 5), numbers are finite, and a file too large to be a run's,
# or one that would cost jq gigabytes, is refused within seconds.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
report=$here/../report
compare=$here/../compare
fx=$here/fixtures
for c in jq awk timeout; do
	command -v $c >/dev/null || { echo "1..0 # SKIP $c missing"; exit 0; }
done

. "$here/lib.sh"

# bad NAME JQ-FILTER: a copy of small.json changed by the filter
bad() {
	jq "$2" "$fx/small.json" >"$tmp/$1.json"
}
: >"$tmp/empty.json"
printf '  \n\n' >"$tmp/blank.json"
printf '{"schema": 1, "cases": [' >"$tmp/cut.json"
printf 'not json\n' >"$tmp/text.json"
cat "$fx/small.json" "$fx/small.json" >"$tmp/two.json"
bad schema2 '.schema = 2'
bad array '[.]'
bad cases-object '.cases = {}'
bad calls-string '.cases[3].calls = "3"'
bad server-string '.cases[0].server.LOOKUP = "3"'
bad kernel-number '.cases[1].kernel = 1'
bad n-zero '.cases[2].n = 0'
bad no-calls '.cases[0] |= del(.calls)'
bad release-number '.kernels.stock.release = 6.1'
bad failures-object '.failures = {}'
bad clock-string '.kernels.stock.clock = "tsc"'
bad available-number '.kernels.stock.clock = {fuse: {clocksource: "tsc",
	res_ns: 1, available: 5}}'
bad runs-strings '.cases[0].wall_us_runs = ["a", "b"]'
bad runs-object '.cases[0].wall_us_runs = {}'
bad tail-object '.failures = [{kernel: "stock", fs: "fuse", error: "x",
	guest_tail: [{}]}]'
bad tail-string '.failures = [{kernel: "stock", fs: "fuse", error: "x",
	guest_tail: "x"}]'
bad error-object '.cases[0].error = {}'
# A scan (fixtures/scan.json): counts that add up, a cookie said plainly
jq '.cases[0].missed = 2' "$fx/scan.json" >"$tmp/scan-sum.json"
jq '.cases[1].cookie = "maybe"' "$fx/scan.json" >"$tmp/scan-cookie.json"
jq '.cases[0].missed = "1"' "$fx/scan.json" >"$tmp/scan-string.json"
jq '.cases[0] |= del(.changed)' "$fx/scan.json" >"$tmp/scan-bare.json"
jq -c . "$fx/small.json" | sed 's/"calls":3,/"calls":1e999,/' >"$tmp/calls-inf.json"
jq -c . "$fx/small.json" | sed 's/"wall_us":[0-9]*/"wall_us":NaN/' >"$tmp/wall-nan.json"
# Larger than a run writes (16 MiB of blanks after the document), and
# 15 MiB of empty arrays: several GiB for jq, unbounded.
{ cat "$fx/small.json"; head -c 17000000 /dev/zero | tr '\0' ' '; } >"$tmp/huge.json"
{ printf '{"schema":1,"x":['; head -c 5000000 /dev/zero | sed 's/\x0/[],/g';
  echo '[]]}'; } >"$tmp/arrays.json"
set -- empty blank cut text two schema2 array cases-object calls-string \
	server-string kernel-number n-zero no-calls release-number \
	failures-object clock-string available-number runs-strings runs-object \
	tail-object tail-string error-object scan-sum scan-cookie scan-string \
	scan-bare calls-inf wall-nan huge arrays

# refused PROG ARGS...: status 1, one line on stderr that starts with
# "PROG: ", nothing on stdout, $o (the --out given) not made.
refused() {
	p=$1
	shift
	rc=0
	timeout 20 "$@" >"$tmp/stdout" 2>"$tmp/err" || rc=$?
	[ $rc = 1 ] && [ ! -s "$tmp/stdout" ] && ! grep -q "^jq: " "$tmp/err" &&
		[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "^$p: " "$tmp/err" &&
		[ ! -e "$o" ]
}

echo "1..$(($# * 2 + 11))"
for f in "$@"; do
	o=$tmp/out-$f
	ok 'refused report "$report" --no-plots --out "$o" "$tmp/$f.json"' \
		"report refuses $f.json: status 1, one line, no report"
	ok 'refused compare "$compare" "$fx/small.json" "$tmp/$f.json"' \
		"compare refuses $f.json: status 1, one line"
done
o=$tmp/out-again
ok 'refused report "$report" --no-plots --out "$o" "$tmp/calls-string.json" &&
	grep -qx "report: .*/calls-string.json: case 4 .calls is string, want a number" "$tmp/err"' \
	"the line names the case and the field"
ok 'refused report "$report" --no-plots --out "$o" "$tmp/scan-sum.json" &&
	grep -q "case 1 .detected + .missed is not .changed" "$tmp/err" &&
	refused report "$report" --no-plots --out "$o" "$tmp/scan-cookie.json" &&
	grep -q "case 2 .cookie is \"maybe\", want \"not reported\"" "$tmp/err"' \
	"a scan whose counts do not add up, or whose cookie says another thing: named"
ok 'refused report "$report" --no-plots --out "$o" "$tmp/calls-inf.json" &&
	grep -q "case 1 .calls is not a finite number" "$tmp/err"' \
	"a number too large for a double is not finite: refused"
ok 'refused report "$report" --no-plots --out "$o" "$tmp/arrays.json" &&
	grep -q "too large or too deeply nested to read in 1 GiB" "$tmp/err"' \
	"15 MiB of empty arrays: refused, jq bounded to 1 GiB"
# A report that was there is left alone by a refused file.
mkdir "$tmp/keep"
echo old >"$tmp/keep/report.md"
"$report" --no-plots --out "$tmp/keep" "$tmp/empty.json" >/dev/null 2>&1 || true
ok '[ "$(cat "$tmp/keep/report.md")" = old ] && [ "$(ls -A "$tmp/keep")" = report.md ]' \
	"a refused file leaves the directory as it was"

# usage_error PROG ARGS...: status 2, one line on stderr, nothing else
usage_error() {
	p=$1
	shift
	rc=0
	timeout 20 "$@" >"$tmp/stdout" 2>"$tmp/err" </dev/null || rc=$?
	[ $rc = 2 ] && [ ! -s "$tmp/stdout" ] &&
		[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "^$p: " "$tmp/err"
}
ok 'usage_error report "$report" --out' "report --out without a value: status 2, one line"
ok 'usage_error report "$report" --out --no-plots "$fx/small.json"' \
	"report --out followed by an option: status 2, one line"
ok 'usage_error report "$report"' "report without a file: status 2, one line"
ok 'usage_error compare "$compare" --time' "compare --time without a value: status 2, one line"
ok 'usage_error compare "$compare" --time x "$fx/small.json" "$fx/small.json"' \
	"compare --time x: status 2, one line"
ok 'usage_error compare "$compare" "$fx/small.json"' "compare with one run: status 2, one line"
exit $failed
