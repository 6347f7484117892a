#!/bin/sh
# A results file is data: hostile strings in every string field of
# results.json (names, releases, the start, errors, a guest's lines, the
# keys of kernels, clocks and counters) never run a command and never
# reach an output as markup. Each string in each field is either refused
# by the validator (a name outside the lab's grammar: status 1, one
# line, nothing written) or rendered inert: report.md with it escaped,
# the plots, the summary and bench/compare's listing without control
# characters. Under the validator, report.awk's gnuplot script quotes
# what it is given: a kernel named to break out of gnuplot's quotes
# draws as its name.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
report=$here/../report
compare=$here/../compare
fx=$here/fixtures
for c in jq gnuplot awk timeout; do
	command -v $c >/dev/null || { echo "1..0 # SKIP $c missing"; exit 0; }
done

. "$here/lib.sh"

canary=$tmp/canary
esc=$(printf '\033')
# The hostile strings: gnuplot, shell, awk and printf breakouts, HTML,
# Markdown links and images, terminal escapes, line breaks.
cat >"$tmp/strings" <<EOF
fuse"; system "touch $canary" #
fuse'; system('touch $canary'); print '
\$(touch $canary)\`touch $canary\`
'; touch $canary; '
"); system("touch $canary"); print("
%s%s%s%n%d
<img src=x onerror=alert(1)><script>alert(1)</script>
[click](javascript:alert(1)) ![t](http://example.invalid/t.png) **b** \`c\` | d |
${esc}]0;owned${esc}\\\\${esc}[2J${esc}[31mred
EOF
# a line break and a tab inside one string (JSON escapes, read by jq)
jq -n -r '"a\n## injected heading\n\tb\u0000c\u202ed"' >"$tmp/multi"
nstr=$(($(wc -l <"$tmp/strings") + 1))

# The fixture with every kind of string field: a guest's clock, a
# failure with its guest's lines (of the kernel whose case failed: the
# report shows them), a client counter.
jq '.matrix = "quick"
	| .kernels.stock.clock = {fuse: {clocksource: "tsc", res_ns: 1,
		available: ["tsc", "hpet"]}}
	| .cases[0].client = {syscalls: 1}
	| .failures = [{kernel: "patched", fs: "fuse", error: "guest died",
		status: 255, planned: 2, failed: 1, guest_tail: ["a line"]}]' \
	"$fx/small.json" >"$tmp/base.json"

# Each field: NAME, jq filter setting it to $h, and whether it is free
# text (rendered, escaped) or a name (refused).
cat >"$tmp/fields" <<'EOF'
started	.started = $h	name
matrix	.matrix = $h	name
kernels-key	.kernels |= with_entries(if .key == "stock" then .key = $h else . end)	name
release	.kernels.stock.release = $h	name
clock-key	.kernels.stock.clock = {($h): .kernels.stock.clock.fuse}	name
clocksource	.kernels.stock.clock.fuse.clocksource = $h	name
available	.kernels.stock.clock.fuse.available[0] = $h	name
kernel	.cases[0].kernel = $h	name
fs	.cases |= map(if .fs == "fuse" then .fs = $h else . end)	name
mount_opts	.cases[0].mount_opts = $h	name
workload	.cases[0].workload = $h	name
call	.cases[0].call = $h	name
form	(first(.cases | to_entries[] | select(.value.form) | .key)) as $i | .cases[$i].form = $h	name
sync	.cases[0].sync = $h	name
mask	.cases[0].mask = $h	name
object	.cases[0].object = $h	name
cache	.cases[0].cache = $h	name
server-key	.cases[0].server[$h] = 1	name
client-key	.cases[0].client[$h] = 1	name
failure-kernel	.failures[0].kernel = $h	name
failure-fs	.failures[0].fs = $h	name
error	.cases[2].error = $h	text
skipped	.cases[3].skipped = $h	text
failure-error	.failures[0].error = $h	text
guest-tail	.failures[0].guest_tail[0] = $h	text
EOF
nfield=$(wc -l <"$tmp/fields")

echo "1..$((nfield + 4))"
ok '"$report" --out "$tmp/b" "$tmp/base.json" >/dev/null 2>"$tmp/err" &&
	[ -s "$tmp/b/report.md" ] && [ -s "$tmp/b/plots/calls-fuse-cold-timeouts-60-s.svg" ]' \
	"the fixture with every string field renders, plots too"

# inert DIR OUT: no canary; report.md, the plots and the summary OUT
# hold no control character (but for line ends and tabs) and no raw
# markup outside code blocks (a guest's lines are one, indented).
inert() {
	[ ! -e "$canary" ] &&
		! cat "$1/report.md" "$1"/plots/*.svg "$2" |
			tr -d '\n\t' | grep -q '[[:cntrl:]]' &&
		! grep -v '^    ' "$1/report.md" |
			grep -q '[^\\]<img\|[^\\]<script\|^## injected\|[^\\]\](javascript' &&
		! grep -q '<img\|<script' "$1"/plots/*.svg
}

# try FIELD FILTER KIND: every hostile string in FIELD, through report
# and compare; one test per field.
try() {
	field=$1 filter=$2 kind=$3
	bad=""
	i=0
	while [ $i -lt $nstr ]; do
		i=$((i + 1))
		if [ $i = $nstr ]; then
			h=$(cat "$tmp/multi")
		else
			h=$(sed -n "${i}p" "$tmp/strings")
		fi
		f=$tmp/$field-$i.json
		jq --arg h "$h" "$filter" "$tmp/base.json" >"$f"
		o=$tmp/o-$field-$i
		rc=0
		timeout 60 "$report" --out "$o" "$f" >"$tmp/sum" 2>"$tmp/err" || rc=$?
		crc=0
		timeout 20 "$compare" "$tmp/base.json" "$f" >"$tmp/cmp" \
			2>"$tmp/cerr" || crc=$?
		if [ -e "$canary" ]; then
			bad="$bad $i:ran-a-command"
			rm -f "$canary"
		elif [ "$kind" = name ]; then
			[ $rc = 1 ] && [ ! -e "$o" ] && [ ! -s "$tmp/sum" ] &&
				[ "$(wc -l <"$tmp/err")" = 1 ] &&
				! tr -d '\n' <"$tmp/err" | grep -q '[[:cntrl:]]' &&
				! grep -q "$(printf '\342\200\256')" "$tmp/err" &&
				[ $crc = 1 ] && [ "$(wc -l <"$tmp/cerr")" = 1 ] ||
				bad="$bad $i:not-refused($rc,$crc)"
		else
			[ $rc = 0 ] && [ $crc = 0 ] && inert "$o" "$tmp/sum" &&
				! tr -d '\n\t' <"$tmp/cmp" | grep -q '[[:cntrl:]]' ||
				bad="$bad $i:not-inert($rc,$crc)"
		fi
	done
	if [ $kind = name ]; then
		what="refused with one line, nothing written"
	else
		what="rendered escaped: no command, markup or control character"
	fi
	ok '[ -z "$bad" ]' "$field: $nstr hostile strings $what${bad:+ (failed:$bad)}"
}

while IFS='	' read -r field filter kind; do
	try "$field" "$filter" "$kind"
done <"$tmp/fields"

# What the Markdown shows of a hostile error: the text, escaped.
h=$(sed -n 7p "$tmp/strings")
jq --arg h "$h" '.cases[2].error = $h' "$tmp/base.json" >"$tmp/e.json"
"$report" --no-plots --out "$tmp/e" "$tmp/e.json" >/dev/null 2>&1 || :
ok 'grep -qF "Error: \\<img src=x onerror=alert(1)\\>\\<script\\>alert(1)\\</script\\>" "$tmp/e/report.md"' \
	"an error with HTML is shown as its text"

# Below the validator: a kernel and a file system that would break out
# of gnuplot's quotes, handed to report.awk as bench/report hands it
# the cases; the script it writes draws them as they are.
mkdir "$tmp/awk" "$tmp/awk/plots"
k="x'; system('touch $canary'); '\"; system \"touch $canary\" #"
jq -r --arg k "$k" '.cases[] | select(.fs == "fuse") | .kernel = $k |
	[.kernel, .fs, (.mount_opts // ""), .workload, .call, (.form // "-"),
	 (.sync // "as-stat"), (.mask // "-"), (.object // "-"), .cache,
	 (.n // 1), (.delay_ms // 0), (.calls // ""), (.wall_us // ""), "",
	 (.error // ""), (.skipped // ""), "", "", "", "", "", ""] | @tsv' \
	"$tmp/base.json" >"$tmp/awk/cases.tsv"
: >"$tmp/awk/meta.tsv"
: >"$tmp/awk/failures.tsv"
(cd "$tmp/awk" && awk -v summary=summary -v plotdir=plots -v gp=plots.gp \
	-v failures=failures.tsv -v plotlist=plots.list -v meta=meta.tsv \
	-f "$here/../report.awk" cases.tsv >report.md &&
	timeout 60 gnuplot plots.gp) >"$tmp/gp.log" 2>&1 || :
ok '[ -s "$tmp/awk/plots.gp" ] && [ ! -e "$canary" ] &&
	grep -qF "touch $canary" "$tmp"/awk/plots/calls-fuse-cold-*.svg' \
	"report.awk's gnuplot script: a quote-breaking kernel name runs nothing and is drawn as its name"

# Nothing of a results file goes in the environment of the programs
# the report runs: an awk on PATH that notes its environment.
mkdir "$tmp/bin"
cat >"$tmp/bin/awk" <<EOF
#!/bin/sh
env >>"$tmp/awk.env"
PATH=\${PATH#*:} exec awk "\$@"
EOF
chmod +x "$tmp/bin/awk"
jq '.kernels.stock.release = "6.1.0-hostile-release"' "$tmp/base.json" >"$tmp/r.json"
PATH="$tmp/bin:$PATH" "$report" --no-plots --out "$tmp/r" "$tmp/r.json" \
	>/dev/null 2>&1 || :
ok '[ -s "$tmp/awk.env" ] && grep -q "hostile-release" "$tmp/r/report.md" &&
	! grep -q "hostile-release" "$tmp/awk.env"' \
	"nothing of the results file is in the environment of the report's awk"
exit $failed
