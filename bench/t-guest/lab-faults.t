#!/bin/sh
# bench/lab --quick on two kernels and two lanes (fuse, nfs3), with guests
# killed on purpose: the FUSE lane's QEMU
# (kill -9, the pid its -pidfile wrote) after 5 or more cases of a
# kernel, and the nfs3 lane's client QEMU (nfs-lab/run's pidfile) 2 s
# after it started. Each pid is checked to belong to a
# session the lab recorded before it is killed. Then: exit status 1; the
# cases of the killed kernels that were not reported are in results.json
# as failed, with why and the guest's last lines, and measured + failed
# is the whole plan; the other kernels ran; progress, the summary and
# report.md say which cases failed; nothing is left running or on disk.
# --out, TMPDIR and LAB_CACHE have spaces and metacharacters. The NFS
# plan is the quick plan less its ls cases (17 of 23; the whole plan is
# lab-quick.t's): the NFS lane that runs on then ends with the FUSE lane,
# not 20 s after it (33 s and 44 CPU-s, against 50-63 s and 56). FUSE
# keeps the whole quick plan: its first 48 cases take 4 s, too few
# progress lines to kill it mid-way.
set -eu
. "$(dirname "$0")/../../guest/lib.sh"

command -v jq >/dev/null || lab_skip "jq missing (make deps)"
lab_kernel stock
lab_kernel patched
fb=$lab_top/build/bench/fusebench
[ -x "$fb" ] || lab_skip "fusebench not built (make -C bench)"
[ -x "$lab_top/build/lanes/nfs" ] || lab_skip "no NFS lane launcher in build/lanes (make userspace)"
env --default-signal=INT true 2>/dev/null || lab_skip "env --default-signal missing"

. "$lab_top/lib/tap.sh"

# Odd paths: the kernels are reached through a cache directory with
# spaces and metacharacters (links to the real ones).
odd='a $b [c]*'
cache="$lab_tmp/cache $odd"
mkdir -p "$cache/kernels"
ln -s "$LAB_CACHE/kernels/stock" "$cache/kernels/stock"
ln -s "$LAB_CACHE/kernels/patched" "$cache/kernels/patched"
tdir="$lab_tmp/t $odd"
mkdir "$tdir"
res="$lab_tmp/out $odd"

# alive PID (not a zombie); sid PID
alive() {
	st=$(ps -o stat= -p "$1" 2>/dev/null) && [ "${st#Z}" = "$st" ]
}
sid() { ps -o sid= -p "$1" 2>/dev/null | tr -d ' '; }

# labplan's stand-in: an NFS plan without its ls cases; the rest (FUSE,
# a plan's keys) is labplan's own.
export LABPLAN="$lab_tmp/labplan" LABPLAN_REAL="$lab_top/build/bench/labplan"
cat >"$LABPLAN" <<'EOF'
#!/bin/sh
case " $* " in *" fuse "*|*" --cases "*) exec "$LABPLAN_REAL" "$@" ;; esac
"$LABPLAN_REAL" "$@" | grep -v 'workload=ls'
EOF
chmod +x "$LABPLAN"

# planned: the cases per kernel of each lane
pf=$("$LABPLAN" --fs fuse --quick | grep -cEv '^[[:space:]]*(#|$)')
pn=$("$LABPLAN" --fs nfs3 --quick | grep -cEv '^[[:space:]]*(#|$)')

echo "1..16"
t0=$(date +%s)
LAB_CACHE=$cache TMPDIR=$tdir setsid env --default-signal=INT \
	"$lab_top/bench/lab" --quick --kernels stock,patched --fs fuse,nfs3 --out "$res" \
	>"$lab_tmp/summary" 2>"$lab_tmp/log" &
lab=$!
# Stop it whatever happens to this test.
trap 'kill -s KILL -- -$lab 2>/dev/null || :
	for s in $(cat "$res"/measured.partial.*/*/session 2>/dev/null); do
		pkill -KILL -s "$s" || :
	done
	rm -rf "$lab_tmp"' EXIT

# victim LANE PIDFILE-GLOB: the pid in the first matching file (in the
# lane's TMPDIR) whose process runs in a session LANE recorded (in the
# run folder's records), or nothing
victim() {
	for f in "$tdir"/lab.*/lane-$1/$2; do
		[ -s "$f" ] || continue
		p=$(cat "$f")
		s=$(cat "$res"/measured.partial.*/$1/session 2>/dev/null) || continue
		alive "$p" && [ "$(sid "$p")" = "$s" ] && { echo "$p"; return 0; }
	done
	return 0
}

# current LANE WHAT: the first kernel whose "WHAT on KERNEL" has not
# ended (done or FAILED) in the progress
current() {
	for k in stock patched; do
		grep -q "$2 on $k \(done\|FAILED\)" "$lab_tmp/log" || { echo $k; return; }
	done
}

# 1. The FUSE guest, once it has reported at least 5 cases of the
# kernel it is on (and 10 or more are left): its QEMU goes.
fk="" fq=""
while [ -z "$fq" ] && [ $(($(date +%s) - t0)) -lt 180 ] && alive $lab; do
	sleep 0.5
	k=$(current fuse fuse)
	[ -n "$k" ] || break
	j=$(case $k in stock) echo 0 ;; *) echo 1 ;; esac)
	c=$(grep -o "^lab: fuse \[[0-9]*/" "$lab_tmp/log" | tail -n 1 | tr -dc 0-9)
	c=$((${c:-0} - j * pf))
	[ $c -ge 5 ] && [ $c -le $((pf - 10)) ] || continue
	fq=$(victim fuse "qemu-$k.pid")
	[ -z "$fq" ] || fk=$k
done
[ -z "$fq" ] || kill -9 "$fq"
echo "# killed the FUSE QEMU of $fk (pid $fq) at $(($(date +%s) - t0))s, $c cases in"

# 2. The nfs3 client guest, 2 s after its QEMU started
nk="" nq=""
while [ -z "$nq" ] && [ $(($(date +%s) - t0)) -lt 200 ] && alive $lab; do
	sleep 0.5
	k=$(current nfs3 "NFS 3")
	[ -n "$k" ] || break
	p=$(victim nfs3 "nfs-lab.*/client.pid")
	[ -n "$p" ] || continue
	sleep 2
	nq=$(victim nfs3 "nfs-lab.*/client.pid")
	[ "$nq" = "$p" ] && [ "$(current nfs3 "NFS 3")" = "$k" ] && nk=$k || nq=""
done
[ -z "$nq" ] || kill -9 "$nq"
echo "# killed the nfs3 client QEMU of $nk (pid $nq) at $(($(date +%s) - t0))s"
sessions=$(cat "$res"/measured.partial.*/*/session 2>/dev/null | tr '\n' ' ')

i=0
while alive $lab && [ $i -lt 300 ]; do sleep 1; i=$((i + 1)); done
if alive $lab; then
	# bench/lab still runs 300 s after the kills. On stderr, so
	# that prove shows it: where it was, and what of it ran.
	echo "# bench/lab has not ended $i s after the kills; its progress:" >&2
	tail -n 12 "$lab_tmp/log" | sed 's/^/#   | /' >&2
	lab_show_procs "$lab_tmp/"
	for s in $sessions; do
		ps -o pid=,ppid=,stat=,etime=,args= -s "$s" 2>/dev/null |
			sed "s/^/#   session $s: /" >&2
	done
fi
kill -s TERM -- -$lab 2>/dev/null || true
rc=0
wait $lab || rc=$?
echo "# bench/lab: status $rc after $(($(date +%s) - t0))s"
sed -n 's/^/# /p' "$lab_tmp/summary" | head -n 8
r=$res/results.json
# what the failures kept of the guests (on a failed test, all of it)
jq -r '.failures[]? | "\(.kernel) \(.fs): \(.error)", (.guest_tail[-3:][] | "  | \(.)")' \
	"$r" 2>/dev/null | sed 's/^/# /'

ok '[ -n "$fq" ] && [ -n "$nq" ]' "found both QEMUs in the lab's own sessions (fuse on $fk, nfs3 on $nk)"
ok '[ $rc = 1 ]' "exit status 1 (got $rc)"
ok '[ -s "$r" ] && [ -s "$res/report.md" ]' "results.json and report.md written all the same"

# (none: no results; the tests below then fail instead of ending this one)
count() { jq --arg k "$1" --arg fs "$2" "[.cases[] | select(.kernel == \$k and .fs == \$fs and ($3))] | length" "$r" 2>/dev/null || echo none; }
ok '[ "$(jq ".cases | length" "$r")" = $((2 * pf + 2 * pn)) ]' \
	"every planned case is there: 2 x $pf FUSE + 2 x $pn NFS"
fm=$(count "$fk" fuse '.error == null')
ff=$(count "$fk" fuse '.error != null')
echo "# fuse on $fk: $fm reported, $ff failed"
ok '[ $((fm + ff)) = $pf ] && [ "$ff" -ge 1 ]' \
	"fuse on $fk: $fm reported + $ff failed = the $pf planned"
ok '[ "$(jq --arg k "$fk" "[.cases[] | select(.kernel == \$k and .fs == \"fuse\" and .error) | .error | test(\"guest/run 255\")] | all" "$r")" = true ]' \
	"its failed cases say the guest ended without an exit status"
# nfs-lab/run hands over the cases it measured before its client went
# (none, or a few when the client was quick), so some may be reported.
nm=$(count "$nk" nfs3 '.error == null')
nf=$(count "$nk" nfs3 '.error != null')
echo "# nfs3 on $nk: $nm reported, $nf failed"
ok '[ $((nm + nf)) = $pn ] && [ "$nf" -ge 1 ] &&
	[ "$(count "$nk" nfs3 ".error != null and (.error | test(\"the nfs3 pair on $nk failed\"))")" = $nf ]' \
	"nfs3 on $nk: $nm reported + $nf failed with nfs-lab/run's status = the $pn planned"
# Under a loaded make check the runner may refuse a case for its cache
# state or clock (bench/run.c), a killed kernel's before the kill too:
# that is no fault. Any other failure is named in the test's line.
refused='select(.error | test("its attribute timeout$|^guest clock: "))'
nref=$(jq "[.cases[] | select(.error) | $refused] | length" "$r")
other=$(jq -r --arg a "$fk" --arg b "$nk" '[.cases[] | select(.error) |
	select(.error | test("its attribute timeout$|^guest clock: ") | not) |
	select((.kernel == $a and .fs == "fuse") or
	       (.kernel == $b and .fs == "nfs3") | not) |
	"\(.kernel) \(.fs) \(.workload) \(.cache) \(.call): \(.error)"] |
	first // ""' "$r")
ok '[ -z "$other" ] &&
	[ "$(jq "[.cases[] | select(.error)] | length" "$r")" = $((ff + nf + nref)) ]' \
	"the other kernel of each lane ran: no other case failed ($nref refused for their cache state or clock; $(jq "[.cases[] | select(.error)] | length" "$r") failed in all, $((ff + nf)) by the kills${other:+; first other: $other})"
ok '[ "$(jq "[.failures[] | select(.guest_tail | length > 0)] | length" "$r")" = 2 ]' \
	"results.json keeps the last lines of both guests"
ok 'grep -q "fuse on $fk FAILED: $ff of $pf cases failed" "$lab_tmp/log" &&
	! grep -q "fuse on $fk done" "$lab_tmp/log"' "progress: fuse on $fk FAILED, never done"
ok 'grep -q "nfs3 on $nk FAILED: $nf of $pn cases failed" "$lab_tmp/log" &&
	! grep -q "nfs3 on $nk done" "$lab_tmp/log"' "progress: nfs3 on $nk FAILED, never done"
ok 'grep -q "^$((2 * pf + 2 * pn)) cases: .* $((ff + nf + nref)) failed;" "$lab_tmp/summary" &&
	grep -q "^FAILED  $fk fuse, $ff cases: guest ended without an exit status" "$lab_tmp/summary" &&
	grep -q "^FAILED  $nk nfs3, $nf cases: the nfs3 pair on $nk failed" "$lab_tmp/summary"' \
	"the summary counts the failed cases and says which and why"
ok 'grep -q "^\*\*$fk, fuse: $ff failed.\*\*" "$res/report.md" &&
	grep -q "^\*\*$nk, nfs3: $nf failed.\*\*" "$res/report.md"' \
	"report.md lists them"
ok '[ -z "$(ls -A "$tdir")" ]' "no temporary file left"
ok '[ -z "$sessions" ] || ! ps -o stat= -s "$(echo $sessions | tr " " ,)" | grep -qv "^Z"' \
	"no process left in the lab's sessions"
ok '! alive "$fq" && ! alive "$nq"' "the killed QEMUs are gone"
exit $failed
