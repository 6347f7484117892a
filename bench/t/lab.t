#!/bin/sh
# bench/lab without QEMU: NFS through a stand-in for nfs-lab/run (the
# schema it must write), the merged results.json, argument checks, and
# that an interrupted run leaves no results and no process behind.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
lab=$here/../lab
BUILD=${BUILD:-$here/../../build}
export BUILD
[ -x "$BUILD/bench/fusebench" ] && [ -x "$BUILD/bench/lsx" ] ||
	{ echo "1..0 # SKIP fusebench/lsx not built (make -C bench)"; exit 0; }
for c in jq setsid; do
	command -v $c >/dev/null || { echo "1..0 # SKIP $c missing"; exit 0; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
n=0
failed=0

ok() {
	n=$((n + 1))
	if eval "$1" >/dev/null 2>&1; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		sed 's/^/#   /' "$tmp/err" 2>/dev/null | tail -n 5
		failed=$((failed + 1))
	fi
}

# Kernels that exist as files: the NFS stand-in never boots them.
export LAB_CACHE=$tmp/cache
mkdir -p "$LAB_CACHE/kernels/stock" "$LAB_CACHE/kernels/patched"
: >"$LAB_CACHE/kernels/stock/bzImage"
: >"$LAB_CACHE/kernels/patched/bzImage"

# The stand-in: one case per version, in the schema; SLOW=1: it hangs.
cat >"$tmp/nfs-run" <<'STUB'
#!/bin/sh
set -eu
vs=""
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) k=$2; shift 2 ;;
	--vers) vs="$vs $2"; shift 2 ;;
	--out) out=$2; shift 2 ;;
	*) shift ;;
	esac
done
echo "nfs-lab: $k NFS$vs"
echo "nfs-lab: NFS$vs: 1 cases"
echo "$k nfs${vs# } vers=${vs# } statx/dont/basic deep expired 0 3 3 0 10"
[ -z "${CHATTY:-}" ] || seq -f "chatter $k$vs line %g" 400
[ -z "${SLOW:-}" ] || { echo $$ >"$SLOW"; sleep 300; }
[ -z "${LANES:-}" ] || { echo "start $k$vs" >>"$LANES"; sleep 1; echo "end $k$vs" >>"$LANES"; }
sep=""
{
	printf '{"schema":1,"kernels":{"%s":{"release":"6.1-%s"}},"cases":[' $k $k
	for v in $vs; do
		printf '%s{"kernel":"%s","fs":"nfs%s","mount_opts":"vers=%s",' "$sep" $k $v $v
		printf '"workload":"syscall","call":"statx","sync":"dont","mask":"basic",'
		printf '"object":"deep","cache":"expired","n":1,"delay_ms":0,'
		printf '"server":{"LOOKUP":3},"client":{},"calls":3,"wall_us":10}'
		sep=,
	done
	echo ']}'
} >"$out"
STUB
chmod +x "$tmp/nfs-run"
export NFS_LAB_RUN=$tmp/nfs-run

echo "1..15"
ok '"$lab" --kernels stock,patched --fs nfs3,nfs4.2 --out "$tmp/r" --no-report 2>"$tmp/err"' \
	"two kernels x two NFS versions through the stand-in"
ok '[ "$(jq ".cases | length" "$tmp/r/results.json")" = 4 ]' "four cases merged"
ok '[ "$(jq -r ".cases | map(.kernel + \" \" + .fs) | join(\",\")" "$tmp/r/results.json")" = "stock nfs3,stock nfs4.2,patched nfs3,patched nfs4.2" ]' \
	"in kernel, then file system order"
ok '[ "$(jq -r ".kernels.patched.release" "$tmp/r/results.json")" = 6.1-patched ]' \
	"kernel releases from the NFS documents"
ok 'jq -e ".schema == 1 and (.started | test(\"^[0-9-]+T[0-9:]+Z$\"))" "$tmp/r/results.json"' \
	"schema 1 and an ISO 8601 start"
ok 'grep -q "nfs4.2 \[2/2\].*NFS 4.2 on patched done" "$tmp/err" && grep -q "  | nfs-lab: patched NFS 3" "$tmp/err"' \
	"progress per lane and the NFS run's own output on stderr"
ok 'grep -q "lab: nfs3 \[row 2/2\] .*NFS 3 on patched" "$tmp/err" &&
	grep -q "  | patched nfs3 vers=3 statx" "$tmp/err"' \
	"an NFS run's table rows count as its cases, over every kernel"
ok '[ ! -e "$tmp/r/results.json.tmp" ]' "no temporary file left"
# Two lanes' output on one stderr: every line whole, none lost
CHATTY=1 "$lab" --kernels stock --fs nfs3,nfs4.2 --out "$tmp/c" --no-report \
	2>"$tmp/err"
ok '[ "$(grep -Ec "^  \| chatter stock (3|4\.2) line [0-9]+$" "$tmp/err")" = 800 ] &&
	! grep -Ev "^(lab: |  \| )" "$tmp/err"' \
	"two lanes on one stderr: 800 chattering lines whole, each line a lab: or a guest line"
rc=0
"$lab" --kernels newest --out "$tmp/x" 2>"$tmp/err" || rc=$?
ok '[ $rc = 2 ] && grep -q "unknown kernel newest" "$tmp/err"' "an unknown kernel: exit 2"
rc=0
"$lab" --jobs 0 --out "$tmp/x" 2>"$tmp/err" || rc=$?
ok '[ $rc = 2 ] && grep -q "jobs takes 1 to 9" "$tmp/err"' "--jobs 0: exit 2"

# Lanes: --jobs 2 runs nfs3 and nfs4.2 side by side, --jobs 1 in turn.
LANES=$tmp/par "$lab" --kernels stock --fs nfs3,nfs4.2 --jobs 2 \
	--out "$tmp/p" --no-report 2>"$tmp/err"
LANES=$tmp/ser "$lab" --kernels stock --fs nfs3,nfs4.2 --jobs 1 \
	--out "$tmp/s" --no-report 2>"$tmp/err"
ok '[ "$(cut -d" " -f1 "$tmp/par" | tr "\n" " ")" = "start start end end " ]' \
	"--jobs 2: both NFS versions run at once"
ok '[ "$(cut -d" " -f1 "$tmp/ser" | tr "\n" " ")" = "start end start end " ] &&
	[ "$(jq -c .cases "$tmp/p/results.json")" = "$(jq -c .cases "$tmp/s/results.json")" ]' \
	"--jobs 1: one after the other, the same cases in the same order"

# Interrupted while the stand-in hangs: nothing left behind.
SLOW=$tmp/slow.pid "$lab" --kernels stock --fs nfs4.2 --out "$tmp/i" --no-report 2>"$tmp/err" &
pid=$!
i=0
while [ ! -s "$tmp/slow.pid" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
kill -TERM $pid
rc=0
wait $pid || rc=$?
ok '[ $rc = 130 ] && [ ! -e "$tmp/i" ]' "SIGTERM: exit 130, no results directory"
ok '! kill -0 "$(cat "$tmp/slow.pid")"' "SIGTERM: the running NFS job is gone"
exit $failed
