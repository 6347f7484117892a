#!/bin/sh
# guest/run itself: output and exit status come back, a guest that runs
# past its timeout is killed (no QEMU left behind), bad use is refused.
set -eu
. "$(dirname "$0")/../lib.sh"
lab_kernel stock
run=$lab_top/guest/run
n=0
fail=0

check() {
	n=$((n + 1))
	if [ "$1" = "$2" ]; then
		echo "ok $n - $3"
	else
		echo "not ok $n - $3"
		echo "#   got '$1', want '$2'"
		fail=$((fail + 1))
	fi
}

# The processes of this test carry its temporary directory's name.
qemus() { lab_procs "$lab_tmp" | wc -l; }

echo "1..9"
out=$("$run" "$kernel" -- sh -c 'echo "it'"'"'s a guest"; cat /proc/sys/kernel/hostname')
check "$out" "it's a guest
lab" "output and quoting come back"

rc=0
"$run" "$kernel" -- sh -c 'exit 7' || rc=$?
check $rc 7 "the command's exit status comes back"

rc=0
"$run" "$kernel" -- sh -c 'printf partial; kill -9 $$' >"$lab_tmp/out" || rc=$?
# (the guest's shell adds its own "Killed" after the partial output)
check "$rc/$(cut -c1-7 "$lab_tmp/out")" "137/partial" "a killed command: 128+9, partial output kept"

t0=$(date +%s)
rc=0
TMPDIR=$lab_tmp "$run" --timeout 5 "$kernel" -- sleep 60 \
	>/dev/null 2>"$lab_tmp/err" || rc=$?
check "$rc" 124 "a guest past its timeout: status 124"
check "$(( $(date +%s) - t0 < 20 ))" 1 "killed within seconds of the timeout"
check "$(grep -c 'timeout after 5s' "$lab_tmp/err")" 1 "says it timed out"
check "$(qemus)" 0 "no QEMU left behind"

rc=0
"$run" --no-such-option "$kernel" -- true 2>/dev/null || rc=$?
check $rc 2 "an unknown option is refused with status 2"

: >"$lab_tmp/disk.img"
out=$("$run" --dry-run --disk "$lab_tmp/disk.img" "$kernel" -- true)
case $out in
*"-accel tcg"*"-drive file=$lab_tmp/disk.img"*) r=ok ;;
*) r="$out" ;;
esac
check "$r" ok "--dry-run shows the QEMU command line"
exit $fail
