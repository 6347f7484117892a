#!/bin/sh
# guest/run's usage errors, without booting: each is one line on stderr
# and exit status 2 (no shell error such as "parameter not set"); the
# timeout is mandatory and positive; --file cannot write outside the
# guest payload; odd characters in paths reach QEMU intact (--dry-run);
# no temporary file is left.
set -eu
. "$(dirname "$0")/../lib.sh"
run=$lab_top/guest/run
. "$lab_top/lib/tap.sh"
TAP_DIAG=$lab_tmp/err

# A kernel and an initramfs that are never booted, under a path with a
# space, a comma and shell and regex characters.
d="$lab_tmp/a dir, [x]+*&"
mkdir -p "$d/tmp" "$d/outside"
: >"$d/bzImage"
: >"$d/initrd"
: >"$d/disk.img"
echo data >"$d/f"
ln -s "$d/outside" "$d/link"
export LAB_INITRD="$d/initrd"

# usage_error DESCRIPTION ARGS...: status 2 and exactly one line.
usage_error() {
	what=$1
	shift
	rc=0
	TMPDIR=$d/tmp timeout 20 "$run" "$@" >/dev/null 2>"$lab_tmp/err" || rc=$?
	ok '[ $rc = 2 ] && [ "$(wc -l <"$lab_tmp/err")" = 1 ] &&
	    ! grep -q "not set\|unbound\|line [0-9]" "$lab_tmp/err"' \
		"$what: one line, status 2"
}

echo "1..38"
usage_error "--timeout 0" --timeout 0 "$d/bzImage" -- true
usage_error "--timeout x" --timeout x "$d/bzImage" -- true
usage_error "--timeout -5" --timeout -5 "$d/bzImage" -- true
usage_error "--timeout 1e3" --timeout 1e3 "$d/bzImage" -- true
usage_error "--timeout 10^20" --timeout 100000000000000000000 "$d/bzImage" -- true
LAB_TIMEOUT=0 usage_error "LAB_TIMEOUT=0" "$d/bzImage" -- true
for o in --initrd --disk --file --script --timeout --mem --append \
	 --hostname --qemu-arg --console; do
	usage_error "$o without a value" "$d/bzImage" "$o"
done
usage_error "--mem 0" --mem 0 "$d/bzImage" -- true
usage_error "--script of a missing file" --script "$d/nope" "$d/bzImage"
usage_error "--script of a folder" --script "$d" "$d/bzImage"
usage_error "--console in a missing folder" --console "$d/no/log" "$d/bzImage" -- true
ok '"$run" --help | grep -q "^usage: guest/run \[options\] KERNEL -- COMMAND"' \
	"--help shows the usage line"
usage_error "no KERNEL" --timeout 5
usage_error "no command" "$d/bzImage"
usage_error "--file to a relative guest path" --dry-run \
	--file "$d/f:lab/f" "$d/bzImage" -- true
usage_error "--file to /../../x" --dry-run \
	--file "$d/f:/../../escaped" "$d/bzImage" -- true
usage_error "--file through a symlink an earlier --file made" --dry-run \
	--file "$d/link:/lab/l" --file "$d/f:/lab/l/escaped" "$d/bzImage" -- true
ok '[ ! -e "$d/tmp/escaped" ] && [ ! -e "$d/escaped" ] && [ ! -e "$d/outside/escaped" ]' \
	"no --file landed outside the payload"
usage_error "--file to the same guest path twice" --dry-run \
	--file "$d/f:/lab/f" --file "$d/bzImage:/lab/f" "$d/bzImage" -- true

# A SRC whose name holds a ":" is copied, to its own name by default.
echo data >"$d/a:b"
dry_ok() {
	what=$1
	shift
	rc=0
	TMPDIR=$d/tmp timeout 20 "$run" --dry-run "$@" "$d/bzImage" -- true \
		>/dev/null 2>"$lab_tmp/err" || rc=$?
	ok '[ $rc = 0 ]' "$what"
}
dry_ok "--file of a name with a colon" --file "$d/a:b"
dry_ok "--file of a name with a colon, to a guest path" --file "$d/a:b:/lab/x"
usage_error "--file of a colon name lands at /lab/bin/a:b" --dry-run \
	--file "$d/a:b" --file "$d/f:/lab/bin/a:b" "$d/bzImage" -- true
ok 'grep -q "/lab/bin/a:b is already in the guest payload" "$lab_tmp/err"' \
	"--file of a colon name: the second file is the one refused"

# The dry run's words (bash %q quoting) read back: the paths are intact,
# the disk's comma doubled for QEMU's option syntax.
rc=0
TMPDIR=$d/tmp "$run" --dry-run --disk "$d/disk.img" --file "$d/f:/lab/f" \
	"$d/bzImage" -- true >"$lab_tmp/dry" 2>"$lab_tmp/err" || rc=$?
eval "set -- $(cat "$lab_tmp/dry")"
kernel_arg="" initrd_arg="" drive_arg=""
while [ $# -gt 1 ]; do
	case $1 in
	-kernel) kernel_arg=$2 ;;
	-initrd) initrd_arg=$2 ;;
	-drive) drive_arg=$2 ;;
	esac
	shift
done
dq=$(printf '%s\n' "$d" | sed 's/,/,,/g')
ok '[ $rc = 0 ] && [ "$kernel_arg" = "$d/bzImage" ]' "--dry-run: the kernel path intact"
ok '[ "$drive_arg" = "file=$dq/disk.img,format=raw,if=virtio,cache=unsafe" ]' \
	"--dry-run: the disk path intact, its comma doubled"
case $initrd_arg in
"$d/tmp/guest-run."*/initrd) r=ok ;;
*) r=$initrd_arg ;;
esac
ok '[ "$r" = ok ]' "--dry-run: the payload is made under TMPDIR"
ok '[ -z "$(ls -A "$d/tmp")" ]' "no temporary file left"

# lab_bail (guest/lib.sh): the log of what failed reaches prove on
# stderr, where it is shown without -v; the Bail out line is the last
# thing on stdout and the status is 1.
printf 'line %s\n' $(seq 1 100) >"$lab_tmp/failed.log"
rc=0
(lab_bail "the run failed" "$lab_tmp/failed.log") >"$lab_tmp/bail.out" \
	2>"$lab_tmp/bail.err" || rc=$?
ok '[ $rc = 1 ] && [ "$(cat "$lab_tmp/bail.out")" = "Bail out! the run failed" ]' \
	"lab_bail: Bail out on stdout, status 1"
ok 'head -1 "$lab_tmp/bail.err" | grep -q "^# the run failed: the last lines" &&
	[ "$(sed -n 2p "$lab_tmp/bail.err")" = "#   line 21" ] &&
	[ "$(tail -1 "$lab_tmp/bail.err")" = "#   line 100" ]' \
	"lab_bail: the log's last 80 lines on stderr, as comments"
exit $failed
