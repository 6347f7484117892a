#!/bin/sh
# Bad input to every C command-line tool of the lab: an unknown option,
# a missing value, a bad mask (or the tool's nearest thing to one) and a
# path that does not exist each give exit status 2 and exactly one line
# on stderr, naming what was wrong; nothing on stdout. fusecount runs
# with --dry-run (nothing is mounted); fusecount-ctl talks to the
# control socket of fuse-backend's ctl_test --serve.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/lib/tap.sh"
build=${BUILD:-$top/build}
for b in bench/statx-probe bench/lsx fuse-backend/fusecount \
	fuse-backend/fusecount-ctl fuse-backend/ctl_test; do
	[ -x "$build/$b" ] || tap_skip_all "$b not built (make userspace)"
done

tmp=$(mktemp -d)
srv=
cleanup() {
	[ -z "$srv" ] || kill "$srv" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir "$tmp/dir" "$tmp/mnt"
: >"$tmp/file"
nope=$tmp/nope
TAP_DIAG=$tmp/err

# bad WORD DESCRIPTION CMD...: status 2, one line holding WORD, no stdout
bad() {
	word=$1 desc=$2
	shift 2
	rc=0
	"$@" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?
	ok '[ $rc = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
	    grep -qF -- "$word" "$tmp/err" && [ ! -s "$tmp/out" ]' \
		"$desc: status 2 ($rc), one line naming $word"
}

sock=$tmp/ctl/sock
"$build/fuse-backend/ctl_test" --serve "$sock" &
srv=$!
i=0
while [ $i -lt 50 ] && ! [ -S "$sock" ]; do
	sleep 0.1
	i=$((i + 1))
done

echo 1..18
p=$build/bench/statx-probe
bad --bogus 'statx-probe: unknown option' "$p" --bogus "$tmp/file"
bad --mask 'statx-probe: missing value' "$p" "$tmp/file" --mask
bad sise 'statx-probe: bad mask' "$p" --mask type,sise "$tmp/file"
bad "$nope" 'statx-probe: no such path' "$p" "$nope"

l=$build/bench/lsx
bad --bogus 'lsx: unknown option' "$l" --bogus "$tmp/dir"
bad --form 'lsx: missing value' "$l" "$tmp/dir" --form
bad wide 'lsx: bad form (its mask)' "$l" --form wide "$tmp/dir"
bad "$nope" 'lsx: no such directory' "$l" "$nope"

f=$build/fuse-backend/fusecount
bad --bogus 'fusecount: unknown option' "$f" --dry-run --bogus "$tmp/dir" "$tmp/mnt"
bad "-o'" 'fusecount: missing value' "$f" --dry-run "$tmp/dir" "$tmp/mnt" -o
bad statx_drop=0xzz 'fusecount: bad mask' \
	"$f" --dry-run -o statx_drop=0xzz "$tmp/dir" "$tmp/mnt"
bad "$nope" 'fusecount: no such backing directory' "$f" --dry-run "$nope" "$tmp/mnt"
bad "$nope" 'fusecount: no such mount point' "$f" --dry-run "$tmp/dir" "$nope"

c=$build/fuse-backend/fusecount-ctl
bad --bogus 'fusecount-ctl: unknown option' "$c" --bogus "$sock" stats
bad "'delay'" 'fusecount-ctl: missing value' "$c" "$sock" delay
bad "'delay x'" 'fusecount-ctl: bad value' "$c" "$sock" delay x
bad "$nope" 'fusecount-ctl: no such socket' "$c" "$nope" stats
bad "not a socket" 'fusecount-ctl: a file that is not a socket' "$c" "$tmp/file" stats
exit $failed
