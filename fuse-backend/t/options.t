#!/bin/sh
# fusecount's argument checks: bad usage exits 2 with a clear message and
# the control socket is claimed safely, in a directory only we can write
# to.  statx_drop, deny_uid and ctl_mode are parsed with range checks.  Every run passes --dry-run, so
# even one that wrongly passes the checks exits before touching /dev/fuse:
# nothing is ever mounted on the host.
set -eu
. "$(dirname "$0")/lib.sh"
need_bin fusecount

TMP=$(mktemp -d)
srv=
cleanup() {
	[ -z "$srv" ] || kill "$srv" 2>/dev/null || true
	rm -rf "$TMP"
}
trap cleanup EXIT
mkdir "$TMP/back" "$TMP/mnt"
: >"$TMP/file"
B=$TMP/back M=$TMP/mnt
TAP_DIAG=$TMP/err

# expect STATUS PATTERN DESCRIPTION ARGS...
expect() {
	want=$1 pat=$2 desc=$3
	shift 3
	run "$TMP/out" "$TMP/err" $VALGRIND "$BUILD/fusecount" --dry-run "$@"
	if [ "$rc" -eq "$want" ] && cat "$TMP/out" "$TMP/err" | grep -q -e "$pat"
	then
		tap_result 0 "$desc"
	else
		tap_result 1 "$desc" "exit $rc, want $want"
	fi
}

# bad ARG DESCRIPTION PATTERN: exit 2 and one line, matching, on stderr
bad() {
	run "$TMP/out" "$TMP/err" $VALGRIND "$BUILD/fusecount" --dry-run \
		-o "$1" "$B" "$M"
	if [ "$rc" -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
	   grep -q -e "$3" "$TMP/err"; then
		tap_result 0 "$2"
	else
		tap_result 1 "$2" "exit $rc, want 2 and one line"
	fi
}

# good ARG LINE DESCRIPTION: accepted, and the settings show LINE
good() {
	run "$TMP/out" "$TMP/err" $VALGRIND "$BUILD/fusecount" --dry-run \
		-o "$1" "$B" "$M"
	if [ "$rc" -eq 0 ] && grep -qx -e "$2" "$TMP/out"; then
		tap_result 0 "$3"
	else
		tap_result 1 "$3"
	fi
}

echo 1..55
expect 2 'missing BACKING_DIR' 'no arguments'
expect 2 'missing MOUNTPOINT' 'no mountpoint' "$B"
expect 2 "$TMP/nope: No such file or directory" 'missing backing dir' \
	"$TMP/nope" "$M"
expect 2 'BACKING_DIR is not a directory' 'backing dir is a file' \
	"$TMP/file" "$M"
expect 2 'bad mount point' 'missing mountpoint' "$B" "$TMP/nope"
expect 2 'MOUNTPOINT is not a directory' 'mountpoint is a file' \
	"$B" "$TMP/file"
expect 2 'invalid argument' 'a third path' "$B" "$M" "$TMP"
expect 2 'attr_timeout=-1: expected seconds' 'attr_timeout=-1 rejected' \
	-o attr_timeout=-1 "$B" "$M"
expect 2 'entry_timeout=1x: expected' 'entry_timeout=1x rejected' \
	-o entry_timeout=1x "$B" "$M"
expect 2 'negative_timeout=nan: expected' 'negative_timeout=nan rejected' \
	-o negative_timeout=nan "$B" "$M"
expect 2 'readdirplus=maybe: expected on, off or auto' \
	'readdirplus=maybe rejected' -o readdirplus=maybe "$B" "$M"
expect 2 'threads=0: expected an integer from 1' 'threads=0 rejected' \
	-o threads=0 "$B" "$M"
expect 2 'threads=-1: expected' 'threads=-1 rejected' -o threads=-1 "$B" "$M"
expect 2 'delay_us=5ms: expected' 'delay_us=5ms rejected' \
	-o delay_us=5ms "$B" "$M"
expect 2 'unknown option' 'unknown -o option' -o bogus "$B" "$M"
expect 0 'usage: fusecount' '-h prints usage' -h

expect 0 'attr_timeout=0$' 'valid options accepted' \
	-o attr_timeout=0,entry_timeout=0.5,negative_timeout=2 \
	-o readdirplus=on,delay_us=1000,threads=4,default_permissions "$B" "$M"
ok 'grep -q "^entry_timeout=0.5$" "$TMP/out" &&
	grep -q "^readdirplus=on$" "$TMP/out" &&
	grep -q "^threads=4$" "$TMP/out" &&
	grep -q "^default_permissions=on$" "$TMP/out"' \
	'each option reaches the settings'

want='expected a mask of STATX_\* bits within 0xfff'
bad statx_drop=0x1000 'statx_drop=0x1000 (beyond fuse_statx) refused' "$want"
bad statx_drop=-1 'statx_drop=-1 refused' "$want"
bad statx_drop=0x 'statx_drop=0x refused' "$want"
bad statx_drop=12abc 'statx_drop=12abc refused' "$want"
bad statx_drop= 'an empty statx_drop refused' "$want"
bad statx_drop=18446744073709551617 'statx_drop overflowing refused' "$want"
bad nostatx,statx_drop=0x800 'statx_drop with nostatx refused' \
	'no FUSE_STATX reply to change with nostatx'
want='expected an integer from 0 to 4294967294'
bad deny_uid=-1 'deny_uid=-1 refused' "$want"
bad deny_uid=4294967295 'deny_uid=4294967295 (no uid) refused' "$want"
bad deny_uid=nobody 'deny_uid=nobody refused' "$want"
bad deny_uid=1e3 'deny_uid=1e3 refused' "$want"
want='expected an octal socket mode from 0600 to 0666'
bad ctl="$TMP/c/s",ctl_mode=0700 'ctl_mode=0700 (x bits) refused' "$want"
bad ctl="$TMP/c/s",ctl_mode=0400 'ctl_mode=0400 (owner cannot write) refused' \
	"$want"
bad ctl="$TMP/c/s",ctl_mode=0668 'ctl_mode=0668 refused' "$want"
bad ctl_mode=0660 'ctl_mode without ctl refused' 'needs ctl=SOCKET'

good statx_drop=0x800 'statx_drop=0x800' 'statx_drop=0x800 (no btime)'
good statx_drop=0X200 'statx_drop=0x200' 'statx_drop=0X200 (no size)'
good statx_drop=2048 'statx_drop=0x800' 'statx_drop=2048, decimal'
good statx_drop=0xfff 'statx_drop=0xfff' 'statx_drop=0xfff, every bit'
good statx_drop=0 'statx_drop=0x0' 'statx_drop=0'
good deny_uid=65534 'deny_uid=65534' 'deny_uid=65534'
good deny_uid=0 'deny_uid=0' 'deny_uid=0'
good dont_sync_entries 'dont_sync_entries=on' 'dont_sync_entries'
good change_cookie 'change_cookie=on' 'change_cookie'
good time_gran 'time_gran=on' 'time_gran'
good ctl="$TMP/c/s",ctl_mode=0660 'ctl_mode=0660' 'ctl_mode=0660'
run "$TMP/out" "$TMP/err" "$BUILD/fusecount" --dry-run "$B" "$M"
ok 'grep -qx "statx_drop=0x0" "$TMP/out" &&
	grep -qx "deny_uid=none" "$TMP/out" &&
	grep -qx "ctl_mode=0600" "$TMP/out" &&
	grep -qx "dont_sync_entries=off" "$TMP/out" &&
	grep -qx "change_cookie=off" "$TMP/out" &&
	grep -qx "time_gran=off" "$TMP/out"' \
	'defaults: nothing dropped, nobody denied, socket 0600, entries synced, no cookie, no granularity'

(cd "$TMP" && $VALGRIND "$BUILD/fusecount" --dry-run -o ctl=rel.sock \
	"$B" "$M") >"$TMP/out" 2>&1
ok 'grep -q "^ctl=$TMP/rel.sock\$" "$TMP/out" && [ ! -e "$TMP/rel.sock" ]' \
	'a relative ctl path is made absolute, and removed at exit'

expect 1 'exists and is not a socket' 'ctl path that is a regular file' \
	-o ctl="$TMP/file" "$B" "$M"
ok '[ -f "$TMP/file" ]' '... and the file is left alone'

# A socket file nobody listens on: left over by a dead daemon
perl -MIO::Socket::UNIX -e 'IO::Socket::UNIX->new(Local => $ARGV[0])' \
	"$TMP/stale"
expect 0 "ctl=$TMP/stale" 'a stale socket file is reused' \
	-o ctl="$TMP/stale" "$B" "$M"

expect 0 "ctl=$TMP/new/ctl\$" 'a missing socket directory is made' \
	-o ctl="$TMP/new/ctl" "$B" "$M"
ok '[ ! -e "$TMP/new" ]' '... and removed at exit'
mkdir -m 0777 "$TMP/wide"
expect 1 'its directory must be ours and not writable by group or others' \
	'a socket directory others can write to is refused' \
	-o ctl="$TMP/wide/ctl" "$B" "$M"
ok '[ "$(wc -l <"$TMP/err")" -eq 1 ] && [ ! -e "$TMP/wide/ctl" ]' \
	'... in one line, creating nothing'
mkdir -m 1777 "$TMP/sticky"
expect 1 'its directory must be ours' 'so is a sticky one, like /tmp' \
	-o ctl="$TMP/sticky/ctl" "$B" "$M"

if [ -x "$BUILD/ctl_test" ]; then
	"$BUILD/ctl_test" --serve "$TMP/live" &
	srv=$!
	i=0
	while [ $i -lt 50 ] && ! [ -S "$TMP/live" ]; do
		sleep 0.1
		i=$((i + 1))
	done
	expect 1 'in use by a running fusecount' 'a live socket is refused' \
		-o ctl="$TMP/live" "$B" "$M"
	kill "$srv"
	wait "$srv" || true
	srv=
else
	skip 'ctl_test not built'
fi
exit $failed
