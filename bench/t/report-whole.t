#!/bin/sh
# bench/report writes a report whole or not at all: a gnuplot that fails
# (or draws nothing) fails the report and leaves no report.md; SIGTERM or
# SIGINT in the middle leaves no report.md, no temporary file and no
# running gnuplot; an --out path with spaces and shell/regex
# metacharacters works. A fake gnuplot first in PATH plays each part.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
report=$here/../report
fx=$here/fixtures
for c in jq gnuplot awk setsid timeout ps; do
	command -v $c >/dev/null || { echo "1..0 # SKIP $c missing"; exit 0; }
done
env --default-signal=INT true 2>/dev/null ||
	{ echo "1..0 # SKIP env --default-signal missing (coreutils < 9)"; exit 0; }

. "$here/lib.sh"

# fake NAME BODY: a gnuplot in $tmp/NAME that runs BODY (sh)
fake() {
	mkdir -p "$tmp/$1"
	printf '#!/bin/sh\n%s\n' "$2" >"$tmp/$1/gnuplot"
	chmod +x "$tmp/$1/gnuplot"
}
fake fail 'echo "gnuplot: line 1: all wrong" >&2; exit 1'
fake lazy 'exit 0'
fake slow "echo \$\$ >\"$tmp/gnuplot.pid\"; exec sleep 60"

# empty_dir DIR: DIR exists and holds nothing (no report.md, no
# report.md.tmp, no .report.* stage)
empty_dir() {
	[ -d "$1" ] && [ -z "$(ls -A "$1")" ]
}

echo "1..12"
mkdir "$tmp/f"
rc=0
PATH=$tmp/fail:$PATH timeout 20 "$report" --out "$tmp/f" "$fx/small.json" \
	>"$tmp/out" 2>"$tmp/err" || rc=$?
ok '[ $rc = 1 ] && grep -q "gnuplot: line 1: all wrong" "$tmp/err"' \
	"gnuplot fails: status 1, its error shown"
ok 'empty_dir "$tmp/f"' "gnuplot fails: no report.md, no plots, no temporary file"
ok '[ ! -s "$tmp/out" ]' "gnuplot fails: no summary"
rc=0
PATH=$tmp/fail:$PATH timeout 20 "$report" --out "$tmp/new" "$fx/small.json" \
	>/dev/null 2>"$tmp/err" || rc=$?
ok '[ $rc = 1 ] && [ ! -e "$tmp/new" ]' "gnuplot fails: an --out it made is gone again"
rc=0
PATH=$tmp/lazy:$PATH timeout 20 "$report" --out "$tmp/f" "$fx/small.json" \
	>/dev/null 2>"$tmp/err" || rc=$?
ok '[ $rc = 1 ] && grep -q "was not drawn" "$tmp/err" && empty_dir "$tmp/f"' \
	"gnuplot draws nothing: status 1, no report.md"

# alive PID: PID runs (a zombie, dead but not yet waited for, does not)
alive() {
	st=$(ps -o stat= -p "$1" 2>/dev/null) && [ "${st#Z}" = "$st" ]
}

# interrupted PID SIGNAL TARGET: wait for the fake gnuplot, send SIGNAL
# to TARGET; the time until PID ended, in tenths of a second (99: never)
interrupted() {
	i=0
	while [ ! -s "$tmp/gnuplot.pid" ] && [ $i -lt 200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -s "$2" -- "$3"
	i=0
	while alive "$1" && [ $i -lt 99 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	echo $i
}

# SIGTERM to the report alone (a foreground gnuplot would hold it up)
rm -f "$tmp/gnuplot.pid"
PATH=$tmp/slow:$PATH "$report" --out "$tmp/f" "$fx/small.json" >/dev/null 2>&1 &
pid=$!
t=$(interrupted $pid TERM $pid)
gp_left=$(alive "$(cat "$tmp/gnuplot.pid")" && echo yes || echo no)
kill -s KILL "$(cat "$tmp/gnuplot.pid")" $pid 2>/dev/null || true
rc=0
wait $pid || rc=$?
ok '[ "$t" -le 20 ] && [ $rc = 130 ]' "SIGTERM to report: it ends within 2 s (${t}00 ms), status 130"
ok 'empty_dir "$tmp/f"' "SIGTERM: no report.md, no report.md.tmp, no stage"
ok '[ $gp_left = no ]' "SIGTERM: its gnuplot is gone"

# SIGINT to the process group, as Ctrl-C sends it (a background job
# starts with SIGINT ignored: env gives it back its default)
rm -f "$tmp/gnuplot.pid"
PATH=$tmp/slow:$PATH setsid env --default-signal=INT "$report" --out "$tmp/f" \
	"$fx/small.json" >/dev/null 2>&1 &
pid=$!
t=$(interrupted $pid INT "-$pid")
gp_left=$(alive "$(cat "$tmp/gnuplot.pid")" && echo yes || echo no)
kill -s KILL -- "-$pid" 2>/dev/null || true
wait $pid || true
ok '[ "$t" -le 20 ] && empty_dir "$tmp/f" && [ $gp_left = no ]' \
	"SIGINT to the group: ends within 2 s (${t}00 ms), nothing left, nothing running"

# An --out with a space, quotes, a backslash and regex/shell specials
o="$tmp/out dir \$HOME [a-z]* & 'q' \"d\" \\ x"
ok 'timeout 60 "$report" --out "$o" "$fx/small.json" >"$tmp/out" 2>"$tmp/err"' \
	"an --out with spaces and metacharacters"
ok '[ -s "$o/report.md" ] && head -c 200 "$o/plots/calls-fuse-cold-timeouts-60-s.svg" | grep -q "<svg" &&
	[ "$(ls -A "$o" | tr "\n" " ")" = "plots report.md " ]' \
	"there: report.md and the plots, and nothing else"
ok 'grep -qxF "report: $o/report.md" "$tmp/out"' "it says where the report is"
exit $failed
