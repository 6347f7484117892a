#!/bin/sh
# Failure paths of nfs-lab/run: each one names what went wrong, exits
# non-zero, leaves no QEMU behind and no result file (not even FILE.tmp)
# unless a case was measured: a server guest killed in the middle of a
# run keeps the cases measured before it.
# Ctrl-C, and SIGTERM twice (the second one during the cleanup, as make
# and bench/lab send it): both QEMUs gone within 4 s (nfs-lab/run aims
# at 2; beside four other test files on 2 cores every fork of a stop
# waits for a core: bench/t/lab.t's stubs once took 2.9 s), no
# temporary file.
# The guests' link is a Unix socket in a 0700 directory: no TCP port.
# Guests are ours when $lab_tmp (our TMPDIR) is on their command line;
# other guests may be running on this machine meanwhile, so a global
# "pgrep -f qemu-system" before/after count is only shown, not asserted.
set -eu
. "$(dirname "$0")/../../guest/lib.sh"
nl_here=$(cd "$(dirname "$0")/.." && pwd)
. "$nl_here/lib.sh"
lab_kernel stock
nl_t_n=0 nl_t_failed=0
qemus_before=$(pgrep -fc qemu-system || true)

# try NAME [run options]: run, keeping status and output.
try() {
	name=$1
	shift
	rc=0
	TMPDIR=$lab_tmp "$nl_here/run" --out "$lab_tmp/$name.json" \
		--timeout 120 "$@" >"$lab_tmp/$name.log" 2>&1 || rc=$?
	sed "s/^/# $name: /" "$lab_tmp/$name.log"
}

# failed NAME PATTERN WHAT: the run failed, said PATTERN, left nothing.
failed() {
	pat=$2
	nl_t_ok '[ $rc != 0 ] && grep -qF -- "$pat" "$lab_tmp/$name.log"' "$3: says so"
	nl_t_ok 'nl_t_no_guests' "$3: no QEMU left"
	nl_t_ok '! ls "$lab_tmp/$name".json* >/dev/null 2>&1' "$3: no result file"
}

echo "1..26"

# A case line the parser rejects: caught on the host, before any boot.
try badcase --case "call=stat sync=force"
failed badcase "sync= and mask= are for call=statx" "bad case line"

# An unknown kernel name.
try badkernel --kernel nosuch --case "call=stat"
failed badkernel "unknown kernel 'nosuch'" "unknown kernel"

# A mount option the NFS client rejects: the client guest fails at its
# first mount and the client's kernel log shows the kernel's reason.
try badopt --case "call=stat opts=actimeo=1,bogus=1"
failed badopt "nfs: Unknown parameter 'bogus'" "bad mount option"

# A missing NFS daemon: the server guest names it and ends; the client
# guest, still waiting for labctl, is killed.
try nobin --server-env PATH=/lab/bin:/bin:/sbin --case "call=stat"
failed nobin "missing binary rpcbind" "missing rpcbind"

# SIGTERM to the run in the middle of a case, and again as soon as the
# cleanup has begun (the server's QEMU is gone). Its TMPDIR is private.
# Meanwhile, the link: the server QEMU's -netdev is a Unix socket in a
# 0700 directory of ours, and neither QEMU listens on TCP.
d=$lab_tmp/term
mkdir "$d"
TMPDIR=$d "$nl_here/run" --out "$lab_tmp/term.json" \
	--timeout 120 --case "call=stat cache=expired expire=20000" \
	>"$lab_tmp/term.log" 2>&1 &
pid=$!
i=0
until ls "$d"/nfs-lab.*/client.pid >/dev/null 2>&1 || [ $i -ge 600 ]; do
	i=$((i + 1))
	sleep 0.1
done
sleep 2
srv=$(cat "$d"/nfs-lab.*/server.pid 2>/dev/null || true)
cli=$(cat "$d"/nfs-lab.*/client.pid 2>/dev/null || true)
link=$(tr '\0' '\n' <"/proc/${srv:-0}/cmdline" 2>/dev/null |
	sed -n 's/^stream,.*addr\.type=unix,addr\.path=\(.*\),server=on$/\1/p' |
	sed 's/,,/,/g')
echo "# server QEMU $srv, client QEMU $cli, link '$link'"
nl_t_ok '[ -n "$link" ] && [ -S "$link" ] &&
	[ "$(stat -c %a:%u "$(dirname "$link")")" = "700:$(id -u)" ]' \
	"the link is a Unix socket in a 0700 directory of ours"
nl_t_ok '[ -n "$srv$cli" ] && socks=$(ss -Hltnup) &&
	! printf "%s\n" "$socks" | grep -q "pid=\(${srv:-x}\|${cli:-x}\),"' \
	"no QEMU of the pair listens on a TCP or UDP port"
t0=$(date +%s%N)
kill -TERM "$pid" 2>/dev/null || true
i=0
while [ -n "$srv" ] && kill -0 "$srv" 2>/dev/null && [ $i -lt 100 ]; do
	i=$((i + 1))
	sleep 0.02
done
kill -TERM "$pid" 2>/dev/null || true
i=0
while { kill -0 "$pid" || kill -0 "${srv:-x}" || kill -0 "${cli:-x}"; } \
	2>/dev/null && [ $i -lt 200 ]; do
	i=$((i + 1))
	sleep 0.05
done
ms=$(lab_elapsed_ms "$t0")
rc=0
wait $pid || rc=$?
sed "s/^/# term: /" "$lab_tmp/term.log"
nl_t_ok '[ $rc = 143 ]' "SIGTERM twice: exit status 143 (got $rc)"
nl_t_ok '[ $ms -le 4000 ]' "SIGTERM twice: run and both QEMUs gone within 4 s (${ms} ms)"
nl_t_ok '[ -z "$(lab_procs "$d/")" ]' "SIGTERM twice: nothing of the run left running"
nl_t_ok '[ -z "$(ls -A "$d")" ]' "SIGTERM twice: no temporary file left"
[ -z "$(ls -A "$d")" ] || find "$d" | sed 's/^/#   left: /'
nl_t_ok '! ls "$lab_tmp"/term.json* >/dev/null 2>&1' "SIGTERM twice: no result file"
# (on failure, what is left is ours: its command line names $d or the
# --out file)
lab_kill_procs "$lab_tmp/term"

# Ctrl-C in the middle of a case. A background job of this (non-
# interactive) shell starts with SIGINT ignored, so perl restores the
# default first; setsid gives the run its own process group, and the
# SIGINT goes to that whole group, as a terminal's Ctrl-C would.
setsid -w perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die' \
	env TMPDIR="$lab_tmp" "$nl_here/run" --out "$lab_tmp/intr.json" \
	--timeout 120 --case "call=stat cache=expired expire=20000" \
	>"$lab_tmp/intr.log" 2>&1 &
pid=$!
i=0
until ls "$lab_tmp"/nfs-lab.*/client.pid >/dev/null 2>&1 || [ $i -ge 600 ]; do
	i=$((i + 1))
	sleep 0.1
done
sleep 2
env kill -s INT -- "-$pid"	# procps kill: a process group
rc=0
wait $pid || rc=$?
sed "s/^/# intr: /" "$lab_tmp/intr.log"
# On failure the run's log and what is left go to stderr too: prove
# shows them without -v.
intr_diag='sed "s/^/# intr: /" "$lab_tmp/intr.log" >&2
	lab_show_procs "$lab_tmp/"'
nl_t_ok '[ $rc = 130 ]' "Ctrl-C: exit status 130 (got $rc)" "$intr_diag"
nl_t_ok 'nl_t_no_guests' "Ctrl-C: no QEMU left" "$intr_diag"
lab_kill_procs "$lab_tmp/"
nl_t_ok '! ls "$lab_tmp"/intr.json* >/dev/null 2>&1' "Ctrl-C: no result file"

# The server guest killed (SIGKILL to its QEMU) while the second of
# three cases waits out its expiry: exit status 1, why, and the first
# case, measured before, kept in the result file; the third is not
# reported as measured.
d=$lab_tmp/dead
mkdir "$d"
TMPDIR=$d "$nl_here/run" --out "$lab_tmp/dead.json" --timeout 120 \
	--case "call=stat cache=cold opts=actimeo=3600" \
	--case "call=stat cache=expired expire=8000" \
	--case "call=stat cache=cold opts=actimeo=3600" \
	>"$lab_tmp/dead.log" 2>&1 &
pid=$!
i=0
until grep -q "^stock nfs4.2 " "$lab_tmp/dead.log" 2>/dev/null || [ $i -ge 900 ]; do
	i=$((i + 1))
	sleep 0.1
done
srv=$(cat "$d"/nfs-lab.*/server.pid 2>/dev/null || true)
[ -z "$srv" ] || kill -9 "$srv" 2>/dev/null || true
rc=0
wait $pid || rc=$?
sed "s/^/# dead: /" "$lab_tmp/dead.log"
dead_diag='sed "s/^/# dead: /" "$lab_tmp/dead.log" >&2'
nl_t_ok '[ $rc = 1 ] && grep -q "the server guest ended before the client\|the client guest failed" "$lab_tmp/dead.log" &&
	grep -q "failed; the cases measured before are in" "$lab_tmp/dead.log"' \
	"server killed mid-run: status 1 ($rc), why, and where the measured cases are" "$dead_diag"
nl_t_ok '[ "$(jq "[.cases[] | select(.calls == 6 and .cache == \"cold\")] | length" "$lab_tmp/dead.json")" = 1 ] &&
	[ "$(jq ".cases | length" "$lab_tmp/dead.json")" = 1 ]' \
	"server killed mid-run: the cold case measured before is kept, nothing else" "$dead_diag"
nl_t_ok 'nl_t_no_guests' "server killed mid-run: no QEMU left" "$dead_diag"
nl_t_ok '[ -z "$(ls -A "$d")" ]' "server killed mid-run: no temporary file left"
lab_kill_procs "$d"

echo "# qemu-system processes on the machine: $qemus_before before, $(pgrep -fc qemu-system || true) after"
exit $nl_t_failed
