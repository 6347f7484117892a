#!/bin/sh
# lsx against a directory on the host: how many statx calls each form
# makes (d_type is known on the host's file systems, so plain makes
# none), what it prints, and its exit status.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
BUILD=${BENCH_OUT:-${BUILD:-$here/../../build}/bench}
lsx=$BUILD/lsx

if [ ! -x "$lsx" ]; then
	echo "1..0 # SKIP lsx not built (make -C bench)"
	exit 0
fi
command -v jq >/dev/null || { echo "1..0 # SKIP jq missing"; exit 0; }

. "$here/lib.sh"

# json FORM [--dont-sync]: lsx's summary of $d; the field asked for
json() {
	field=$1
	shift
	"$lsx" --json "$@" "$d" | jq -r ".$field"
}

d=$tmp/d
mkdir "$d" "$d/sub" "$d/sub2"
: >"$d/a"
: >"$d/b"
printf 'x' >"$d/run"
chmod 755 "$d/run"
ln -s a "$d/link"
mkfifo "$d/fifo"

echo "1..16"
is "$(json entries --form plain)" 7 "seven entries, . and .. left out"
is "$(json statx --form plain)" 0 "plain: no statx when d_type is known"
is "$(json statx --form color)" 5 "color: statx for files and directories only"
is "$(json mask --form color)" 0x3 "color: mask type,mode"
is "$(json statx --form long)" 7 "long: one statx per entry"
is "$(json readlink --form long)" 1 "long: one readlink per symlink"
is "$(json mask --form long)" 0x25f "long: type,mode,nlink,uid,gid,size,mtime"
is "$(json mask --form inode)" 0x35f "inode: and ino"
is "$(json sync --form long --dont-sync)" dont "--dont-sync is reported"
is "$(json statx --form long --dont-sync)" 7 "--dont-sync makes the same calls"
is "$("$lsx" --form long "$d" 2>/dev/null | grep ' link -> a$' | cut -c1-10)" \
	lrwxrwxrwx "long lists the symlink and its target"
is "$("$lsx" --form plain "$d" 2>/dev/null | grep -c '/$')" 2 \
	"plain marks the two directories"
is "$("$lsx" --form color "$d" 2>/dev/null | grep -c "$(printf '\033')\[01;32mrun")" 1 \
	"color shows the executable"
is "$("$lsx" --form plain "$d" 2>&1 >/dev/null)" \
	"lsx: 7 entries, 0 statx, 0 readlink (form plain, mask 0x1, as-stat)" \
	"the text summary goes to stderr"
rc=0
"$lsx" "$tmp/nope" >/dev/null 2>&1 || rc=$?
is $rc 2 "a missing directory: exit 2"
rc=0
"$lsx" --form wide "$d" >/dev/null 2>&1 || rc=$?
is $rc 2 "a usage error: exit 2"
exit $failed
