#!/bin/sh
# Usage errors of nfs-lab/run, labcase and labctl, without booting: one
# line on stderr and exit status 2 each (no shell error such as
# "parameter not set"); numbers are range-checked; nothing is left in
# the run's TMPDIR.
set -eu
. "$(dirname "$0")/../../guest/lib.sh"
nl_here=$(cd "$(dirname "$0")/.." && pwd)
. "$nl_here/lib.sh"
make -s -C "$nl_here" >/dev/null 2>&1 ||
	lab_skip "labctl and labcase do not build (make -C nfs-lab)"
nl_t_n=0 nl_t_failed=0
d=$lab_tmp/tmp
mkdir "$d"

# usage_error DESCRIPTION COMMAND...: status 2 and exactly one line.
usage_error() {
	what=$1
	shift
	rc=0
	TMPDIR=$d timeout 20 "$@" >/dev/null 2>"$lab_tmp/err" || rc=$?
	nl_t_ok '[ $rc = 2 ] && [ "$(wc -l <"$lab_tmp/err")" = 1 ] &&
	    ! grep -q "not set\|unbound\|line [0-9]" "$lab_tmp/err"' \
		"$what: one line, status 2" \
		'sed "s/^/#   stderr: /" "$lab_tmp/err"'
}

run=$nl_here/run
echo "1..36"
for o in --kernel --vers --case --cases --case-cmd --out --timeout \
	 --server-kernel --server-env; do
	usage_error "run $o without a value" "$run" "$o"
done
usage_error "run --timeout 0" "$run" --timeout 0
usage_error "run --timeout x" "$run" --timeout x
usage_error "run --timeout -1" "$run" --timeout -1
usage_error "run --timeout 10^20" "$run" --timeout 100000000000000000000
usage_error "run --timeout 700000" "$run" --timeout 700000
usage_error "run --vers 5" "$run" --vers 5
usage_error "run --kernel nosuch" "$run" --kernel nosuch
usage_error "run --server-kernel optin" "$run" --server-kernel optin
usage_error "run --cases of a missing file" "$run" --cases "$lab_tmp/none"
usage_error "run --case with a bad mask" "$run" --case "call=statx mask=bogus"
usage_error "run --out in a missing folder" "$run" --out "$lab_tmp/no/x.json"
usage_error "run --out a folder" "$run" --out "$lab_tmp"
usage_error "run --stream with --out" "$run" --stream --out "$lab_tmp/x.json"
usage_error "run --bogus" "$run" --bogus
nl_t_ok '[ -z "$(ls -A "$d")" ]' "run: no temporary file left"

case=$nl_build/labcase
usage_error "labcase --cases without a value" "$case" --cases
usage_error "labcase --fs nfs5" "$case" --kernel k --cases x --fs nfs5
usage_error "labcase --cases without --kernel" "$case" --cases x
usage_error "labcase --cases of a missing file" "$case" --kernel k --cases "$lab_tmp/none" --fs nfs3
usage_error "labcase --bogus" "$case" --bogus
usage_error "labcase with a stray argument" "$case" --kernel k --cases x --fs nfs3 x

ctl=$nl_build/labctl
usage_error "labctl -p without a value" "$ctl" -p
usage_error "labctl -p 0" "$ctl" -p 0 /
usage_error "labctl -p 65536" "$ctl" -p 65536 /
usage_error "labctl -p 8x" "$ctl" -p 8x /
usage_error "labctl -i too long" "$ctl" -i abcdefghijklmnopq /
usage_error "labctl without EXPORT_ROOT" "$ctl"
exit $nl_t_failed
