#!/bin/sh
# Bad input to bench's shell tools: bench/lab, bench/report,
# bench/compare and bench/fuse-overhead.sh each answer an unknown
# option, a missing value, a bad value and a path that does not exist
# with one line on stderr naming the tool, nothing on stdout, and exit
# status 2, before any work.
# (labplan and fusebench: t/plan.t; nfs-lab/run and labcase:
# nfs-lab/t/options.t.)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
bench=$here/..
fx=$here/fixtures
for c in jq awk; do
	command -v $c >/dev/null || { echo "1..0 # SKIP $c missing"; exit 0; }
done

. "$here/lib.sh"

# usage_error TOOL ARGS...: status 2, one line "TOOL: ..." on stderr only.
usage_error() {
	tool=$1
	shift
	rc=0
	LAB_CACHE=$tmp/cache "$bench/$tool" "$@" >"$tmp/out" 2>"$tmp/err" ||
		rc=$?
	[ $rc = 2 ] && [ ! -s "$tmp/out" ] &&
		[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "^$tool: " "$tmp/err"
}
: >"$tmp/file"

echo "1..16"
ok 'usage_error lab --bogus' "lab: an unknown option"
ok 'usage_error lab --kernels && usage_error lab --fs fuse --out' \
	"lab: a missing value"
ok 'usage_error lab --kernels stock,nosuch && usage_error lab --fs zfs &&
	usage_error lab --jobs 0 && usage_error lab --budget-s 1x' \
	"lab: a kernel not in kernels.list, an unknown fs, bad numbers"
ok 'usage_error fuse-overhead.sh --requests x && usage_error fuse-overhead.sh --requests 0 &&
	usage_error fuse-overhead.sh --kernel && usage_error fuse-overhead.sh --kernel optin &&
	usage_error fuse-overhead.sh --bogus && usage_error fuse-overhead.sh' \
	"fuse-overhead.sh: bad numbers, a missing value, an unknown kernel or option, no kernel built"
ok 'usage_error lab --kernels stock,patched,stock && usage_error lab --fs fuse,fuse' \
	"lab: a kernel or file system given twice (it would run, and count, twice)"
ok 'usage_error lab --out "$tmp/file/sub" && usage_error lab --out "$tmp/file"' \
	"lab: an --out that cannot be a directory"
ok 'usage_error report --bogus "$fx/small.json"' "report: an unknown option"
ok 'usage_error report --out' "report: a missing value"
ok 'usage_error report "$fx/small.json" "$fx/small.json"' \
	"report: two results files"
ok 'usage_error report --no-plots "$tmp/none.json" && grep -q "none.json: no such file" "$tmp/err"' \
	"report: a results file that does not exist"
ok 'usage_error report --no-plots "$tmp" && grep -q "results.json: no such file" "$tmp/err"' \
	"report: a folder without results.json"
mkdir "$tmp/run"
cp "$fx/small.json" "$tmp/run/results.json"
ok '"$bench/report" --no-plots "$tmp/run" >/dev/null 2>&1 && [ -s "$tmp/run/report.md" ]' \
	"report: a run's folder stands for its results.json"
ok 'usage_error compare --bogus a b' "compare: an unknown option"
ok 'usage_error compare --time' "compare: a missing value"
ok 'usage_error compare --time 5x a b && usage_error compare a' \
	"compare: a bad percentage, one run only"
ok 'usage_error compare "$fx/small.json" "$tmp/none" && grep -q "none: no such file" "$tmp/err"' \
	"compare: a run that does not exist"
exit $failed
