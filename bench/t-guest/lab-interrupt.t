#!/bin/sh
# bench/lab --quick interrupted once its three lanes' guests run: SIGINT
# to its process group (Ctrl-C), then in a second run SIGTERM twice to
# the group (what a CI timeout sends through make, which forwards a
# second one). Within 4 s: bench/lab has exited with 130, no process of
# the sessions it recorded runs (their QEMUs included), and neither its
# temporary directory (export.img and all) nor --out is left. ~1 min.
# (bench/lab aims at 2 s; the tests allow 4 on a host whose 2 cores
# other test files keep busy: bench/t/lab.t's stubs once took 2.9 s.)
set -eu
. "$(dirname "$0")/../../guest/lib.sh"

command -v jq >/dev/null || lab_skip "jq missing (make deps)"
lab_kernel stock
lab_kernel patched
[ -x "$lab_top/build/bench/fusebench" ] || lab_skip "fusebench not built (make -C bench)"
env --default-signal=INT true 2>/dev/null || lab_skip "env --default-signal missing"

. "$lab_top/lib/tap.sh"
TAP_DIAG=$lab_tmp/log

alive() {
	st=$(ps -o stat= -p "$1" 2>/dev/null) && [ "${st#Z}" = "$st" ]
}
# tree PID: PID and every process below it, "PID COMMAND" a line
tree() {
	ps -eo pid=,ppid=,comm= | awk -v root="$1" '
		{ kids[$2] = kids[$2] " " $1; comm[$1] = $3 }
		END {
			q = root
			while (q != "") {
				n = split(q, a, " ")
				q = ""
				for (i = 1; i <= n; i++) {
					print a[i], comm[a[i]]
					q = q kids[a[i]]
				}
			}
		}'
}
# any_alive PID...: one of them runs (zombies do not count). From
# /proc, without a fork: the stop is timed by polling this, and on a
# busy host each fork of the poll would add to what it measures.
any_alive() {
	for p in "$@"; do
		{ read -r st <"/proc/$p/stat"; } 2>/dev/null || continue
		st=${st##*) }
		[ "${st%% *}" = Z ] || return 0
	done
	return 1
}
# has_files DIR: DIR holds a file (the same, for the same reason)
has_files() {
	for f in "$1"/* "$1"/.[!.]* "$1"/..?*; do
		{ [ -e "$f" ] || [ -L "$f" ]; } && return 0
	done
	return 1
}
# now: milliseconds
now() { echo $(($(date +%s%N) / 1000000)); }

tdir=$lab_tmp/tmp
mkdir "$tdir"
procs=""
lab=""
trap 'if [ -n "$lab" ]; then kill -s KILL -- -$lab 2>/dev/null || :; fi; rm -rf "$lab_tmp"' EXIT

# interrupt HOW: start bench/lab --quick, wait until three QEMUs run
# below it (the FUSE guest, the two NFS servers), note its whole tree,
# send HOW (int: SIGINT to the group; term2: SIGTERM to the group twice,
# 0.1 s apart); sets $rc, $ms and $t (milliseconds and tenths of a
# second until nothing of the tree ran and no file was left; t 100:
# never), $q (the QEMUs), $procs
TMPDIR=$tdir
export TMPDIR
interrupt() {
	setsid env --default-signal=INT "$lab_top/bench/lab" --quick \
		--kernels stock,patched,optin \
		--out "$lab_tmp/res" >/dev/null 2>"$lab_tmp/log" &
	lab=$!
	q=""
	i=0
	while [ $i -lt 120 ] && alive $lab; do
		sleep 1
		i=$((i + 1))
		q=$(tree $lab | awk '$2 == "qemu-system-x86" { print $1 }' |
			tr '\n' ' ')
		# booting, and the NFS server's export.img made
		[ "$(echo $q | wc -w)" -ge 3 ] && [ $i -ge 8 ] || continue
		set -- "$1" "$tdir"/lab.*/lane-nfs4.2/nfs-lab.*/export.img
		[ ! -e "$2" ] || break
	done
	procs=$(tree $lab | awk '{ print $1 }' | tr '\n' ' ')
	echo "# after $i s: QEMUs $q; $(echo $procs | wc -w) processes; now $1"
	case $1 in
	int) kill -s INT -- -$lab ;;
	# (the group may be gone before the second: not the test's failure)
	term2) kill -s TERM -- -$lab; sleep 0.1; kill -s TERM -- -$lab 2>/dev/null || : ;;
	esac
	t0=$(now)
	t=0
	# shellcheck disable=SC2086
	while { any_alive $procs || has_files "$tdir"; } && [ $t -lt 100 ]; do
		sleep 0.05
		t=$((($(now) - t0) / 100))
	done
	ms=$(($(now) - t0))
	# shellcheck disable=SC2086
	echo "# left after $ms ms: QEMUs $(for p in $q; do ! alive $p || echo $p; done | tr '\n' ' ')" \
		"files: $(ls -A "$tdir" | tr '\n' ' ')"
	# what a failed check leaves behind goes now, before the next run
	# shellcheck disable=SC2086
	[ $t -lt 100 ] || kill -s KILL -- -$lab $procs 2>/dev/null || true
	rc=0
	wait $lab || rc=$?
	res_left=$([ -e "$lab_tmp/res" ] && echo yes || echo no)
	rm -rf "${tdir:?}"/* "$lab_tmp/res"
}

echo "1..6"
interrupt int
ok '[ "$(echo $q | wc -w)" -ge 3 ]' "SIGINT run: three QEMUs up (FUSE, two NFS servers)"
ok '[ $t -le 40 ]' "SIGINT to the group: no process of the run, no temporary file within 4 s (${ms} ms)"
ok '[ $rc = 130 ] && [ $res_left = no ]' "SIGINT: status 130 (got $rc), no results directory"
interrupt term2
ok '[ "$(echo $q | wc -w)" -ge 3 ]' "double SIGTERM run: three QEMUs up"
ok '[ $t -le 40 ]' "SIGTERM twice to the group: no process, no export.img or other temporary file within 4 s (${ms} ms)"
ok '{ [ $rc = 130 ] || [ $rc = 143 ]; } && [ $res_left = no ]' \
	"double SIGTERM: status 130 or 143 (got $rc), no results directory"
exit $failed
