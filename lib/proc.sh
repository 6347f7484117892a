# SPDX-License-Identifier: GPL-2.0
# Stopping what a script started, the same way everywhere (POSIX sh;
# bash sources it too). Sourced: defines functions only.

# lab_now_ms: milliseconds since the epoch (GNU date)
lab_now_ms() { date +%s%3N; }

# lab_alive PID...: 0 while one of them runs; a zombie, not yet waited
# for, does not (kill -0 would say it does)
lab_alive() {
	[ $# -gt 0 ] &&
		ps -o stat= -p "$(echo "$@" | tr ' ' ,)" 2>/dev/null | grep -qv '^Z'
}

# lab_stop MS PID...: stop these children of the calling shell: SIGTERM,
# up to MS milliseconds (by the clock: on a loaded host a poll takes a
# while) for them to end, SIGKILL what is left, then reap each. Pids
# already gone are no error.
lab_stop() {
	lab_stop_ms=$1
	shift
	[ $# -gt 0 ] || return 0
	kill -TERM "$@" 2>/dev/null || :
	lab_stop_t0=$(lab_now_ms)
	while [ $(($(lab_now_ms) - lab_stop_t0)) -lt "$lab_stop_ms" ] &&
		lab_alive "$@"; do
		sleep 0.05
	done
	kill -KILL "$@" 2>/dev/null || :
	for lab_stop_p; do
		wait "$lab_stop_p" 2>/dev/null || :
	done
}
