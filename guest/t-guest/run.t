#!/bin/sh
# guest/run itself: output and exit status come back, a guest that runs
# past its timeout is killed (no QEMU left behind), bad use is refused.
set -eu
. "$(dirname "$0")/../lib.sh"
lab_kernel stock
run=$lab_top/guest/run
. "$lab_top/lib/tap.sh"

# The processes of this test carry its temporary directory's name.
qemus() { lab_procs "$lab_tmp" | wc -l; }

echo "1..12"
out=$("$run" "$kernel" -- sh -c 'echo "it'"'"'s a guest"; cat /proc/sys/kernel/hostname')
is "$out" "it's a guest
lab" "output and quoting come back"

# The init reads lab.hostname= from the kernel command line (the NFS
# guests' names); /run and /var/lib/nfs are there for the NFS daemons.
out=$("$run" --hostname nfs-server.2 "$kernel" -- sh -c \
	'cat /proc/sys/kernel/hostname; grep -c " /run tmpfs" /proc/mounts; ls -d /var/lib/nfs')
is "$out" "nfs-server.2
1
/var/lib/nfs" "--hostname names the guest; /run is a tmpfs"

rc=0
"$run" "$kernel" -- sh -c 'exit 7' || rc=$?
is $rc 7 "the command's exit status comes back"

rc=0
"$run" "$kernel" -- sh -c 'printf partial; kill -9 $$' >"$lab_tmp/out" || rc=$?
# (the guest's shell adds its own "Killed" after the partial output)
is "$rc/$(cut -c1-7 "$lab_tmp/out")" "137/partial" "a killed command: 128+9, partial output kept"

t0=$(date +%s)
rc=0
TMPDIR=$lab_tmp "$run" --timeout 5 "$kernel" -- sleep 60 \
	>/dev/null 2>"$lab_tmp/err" || rc=$?
is "$rc" 124 "a guest past its timeout: status 124"
is "$(( $(date +%s) - t0 < 20 ))" 1 "killed within seconds of the timeout"
is "$(grep -c 'timeout after 5s' "$lab_tmp/err")" 1 "says it timed out"
is "$(grep -c 'terminating on signal' "$lab_tmp/err")" 0 \
	"and not QEMU's own line about the signal it sent"

# QEMU's other complaints still reach stderr.
rc=0
"$run" --timeout 30 --qemu-arg -no-such-qemu-option "$kernel" -- true \
	>/dev/null 2>"$lab_tmp/err" || rc=$?
is "$rc/$(grep -c 'no-such-qemu-option' "$lab_tmp/err")/$(grep -c 'QEMU ended before' "$lab_tmp/err")" \
	255/1/1 "a QEMU error: shown, status 255, and said so"
is "$(qemus)" 0 "no QEMU left behind"

rc=0
"$run" --no-such-option "$kernel" -- true 2>/dev/null || rc=$?
is $rc 2 "an unknown option is refused with status 2"

: >"$lab_tmp/disk.img"
out=$("$run" --dry-run --disk "$lab_tmp/disk.img" "$kernel" -- true)
case $out in
*"-accel tcg"*"-drive file=$lab_tmp/disk.img"*) r=ok ;;
*) r="$out" ;;
esac
is "$r" ok "--dry-run shows the QEMU command line"
exit $failed
