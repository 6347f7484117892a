#!/bin/sh
# Failure paths of nfs-lab/run: each one names what went wrong, exits
# non-zero, leaves no QEMU behind and no result file (not even FILE.tmp);
# and a port clash, which is retried on another port.
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

echo "1..18"

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

# Somebody else listens on the port tried first: the server's QEMU
# cannot bind it, and the run picks another port and succeeds.
port=$(nl_free_port)
perl -MIO::Socket::INET -e 'my $s = IO::Socket::INET->new(LocalAddr => "127.0.0.1",
	LocalPort => $ARGV[0], Listen => 1, ReuseAddr => 1) or die; sleep 120' \
	"$port" &
squatter=$!
sleep 0.5
export NFS_LAB_PORT=$port
try clash --case "call=stat"
unset NFS_LAB_PORT
kill $squatter
nl_t_ok '[ $rc = 0 ] && grep -qF "port $port taken" "$lab_tmp/clash.log"' \
	"port clash: retried on another port"
nl_t_ok '[ "$(jq ".cases | length" "$lab_tmp/clash.json")" = 1 ]' \
	"port clash: the case ran"
nl_t_ok 'nl_t_no_guests' "port clash: no QEMU left"

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
nl_t_ok '[ $rc = 130 ]' "Ctrl-C: exit status 130"
nl_t_ok 'nl_t_no_guests' "Ctrl-C: no QEMU left"
nl_t_ok '! ls "$lab_tmp"/intr.json* >/dev/null 2>&1' "Ctrl-C: no result file"

echo "# qemu-system processes on the machine: $qemus_before before, $(pgrep -fc qemu-system || true) after"
exit $nl_t_failed
