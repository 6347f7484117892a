#!/bin/sh
# guest/run stops at once when interrupted: SIGINT (Ctrl-C), or SIGTERM
# twice in a row (what a CI timeout and make send), to its pid while the
# guest runs a long sleep (and its first output line has come back). Within 2 s it has exited 130 or 143, the QEMU
# it started (its child, found in /proc) is gone, nothing with the run's
# private TMPDIR on its command line runs, and that TMPDIR is empty.
set -eu
. "$(dirname "$0")/../lib.sh"
lab_kernel stock
run=$lab_top/guest/run
. "$lab_top/lib/tap.sh"

# interrupt NAME STATUS SIGNAL...: boot a guest that sleeps, send the
# signals to guest/run 1 s after the guest started running, check;
# STATUS: the statuses allowed, separated by spaces.
interrupt() {
	name=$1 want=$2
	shift 2
	d=$lab_tmp/$name
	mkdir -p "$d/tmp"
	: >"$d/out"
	# A background job of this shell starts with SIGINT ignored: perl
	# restores the default before it becomes guest/run.
	# The guest says LAB-STARTED on its console (the kernel log file): a
	# word no kernel message holds, not "started".
	TMPDIR=$d/tmp perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die' \
		"$run" --timeout 60 --console "$d/console" "$kernel" -- \
		sh -c 'echo streamed; echo LAB-STARTED >/dev/console; sleep 60' \
		>"$d/out" 2>"$d/err" &
	pid=$!
	i=0
	until grep -q LAB-STARTED "$d/console" 2>/dev/null || [ $i -ge 600 ]; do
		i=$((i + 1))
		sleep 0.1
	done
	sleep 1
	# The console and the output port are relayed separately: on a busy
	# host the output may trail LAB-STARTED by over a second. Within 10 s
	# of a 60 s sleep it still streamed.
	i=0
	until grep -q streamed "$d/out" || [ $i -ge 100 ]; do
		i=$((i + 1))
		sleep 0.1
	done
	is "$(cat "$d/out")" streamed "$name: the output streams while the guest runs"
	[ -s "$d/out" ] || {
		echo "# guest/run's stderr, then the console's last lines:"
		sed 's/^/#   /' "$d/err"
		tail -n 5 "$d/console" | sed 's/^/#   /'
	}
	qemu=""
	for c in $(lab_descendants "$pid"); do
		case $(cat "/proc/$c/comm" 2>/dev/null) in
		qemu-system*) qemu=$c ;;
		esac
	done
	is "$([ -n "$qemu" ] && echo found)" found "$name: guest/run's QEMU is running"
	t0=$(date +%s%N)
	for sig; do
		kill -s "$sig" "$pid" 2>/dev/null || true
	done
	i=0
	while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do
		i=$((i + 1))
		sleep 0.05
	done
	ms=$(lab_elapsed_ms "$t0")
	rc=0
	if kill -0 "$pid" 2>/dev/null; then
		# Still there after 5 s: end it and its QEMU.
		kill -KILL "$pid" ${qemu:+"$qemu"} 2>/dev/null || true
		rc=timeout
	fi
	st=0
	wait "$pid" || st=$?
	[ "$rc" = timeout ] || rc=$st
	sed "s/^/# $name: /" "$d/err"
	case " $want " in
	*" $rc "*) is "$rc" "$rc" "$name: exit status $want" ;;
	*) is "$rc" "$want" "$name: exit status $want" ;;
	esac
	is "$([ "$ms" -le 2000 ] && echo yes)" yes "$name: returned within 2 s (${ms} ms)"
	# If it is still there, its state says how (Z: dead, not reaped).
	left=$([ -n "$qemu" ] && kill -0 "$qemu" 2>/dev/null &&
		grep -E '^(State|PPid)' "/proc/$qemu/status" | tr '\n\t' '  ') || :
	is "$left" "" "$name: its QEMU is gone"
	is "$(lab_procs "$d/" | wc -l)" 0 "$name: nothing of the run left running"
	# On failure, what is left is ours: it carries our private TMPDIR.
	lab_kill_procs "$d/"
	is "$(ls -A "$d/tmp")" "" "$name: no temporary file left"
}

echo "1..21"
interrupt sigint 130 INT
interrupt sigterm-twice 143 TERM TERM
# Both come before the shell runs a handler: either one may win.
interrupt sigint-then-term '130 143' INT TERM
exit $failed
