#!/bin/sh
# What bench/report and bench/compare accept: a file that is not one
# schema 1 results document with the fields' types (empty, not JSON, two
# documents, another schema, a string where a number goes...) is refused
# with one line and status 1, and nothing is written; a missing option
# value is one line and status 2.
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
set -- empty blank cut text two schema2 array cases-object calls-string \
	server-string kernel-number n-zero no-calls release-number \
	failures-object

# refused PROG ARGS...: status 1, one line on stderr that starts with
# "PROG: ", nothing on stdout, $o (the --out given) not made.
refused() {
	p=$1
	shift
	rc=0
	timeout 20 "$@" >"$tmp/stdout" 2>"$tmp/err" || rc=$?
	[ $rc = 1 ] && [ ! -s "$tmp/stdout" ] &&
		[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "^$p: " "$tmp/err" &&
		[ ! -e "$o" ]
}

echo "1..$(($# * 2 + 8))"
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
