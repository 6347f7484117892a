#!/bin/sh
# Every Makefile's recipes in a checkout whose path holds a space, a
# quote and a $, with such a TMPDIR: each folder builds into that
# checkout's build/, given it as make userspace does (BUILD in the
# environment: make would expand its "$"), guest's initramfs and
# fuse-backend's fuzz run there, make clean removes its build/; nothing
# is written outside the checkout and nothing is left in TMPDIR. Five
# initramfs builds at once in it all succeed and leave one whole cpio
# and no temporary file. The checkout is a clone of this repository's
# HEAD (make userspace itself would rebuild its kernel: not here).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# What make check exports (and a parent make's command line, through
# MAKEFLAGS) must not point the clone's make at the real build/.
unset BUILD LAB_INITRD STOCK_KERNEL PATCHED_KERNEL \
	MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
. "$top/lib/tap.sh"
for t in git make realpath cc cpio flock timeout; do
	command -v "$t" >/dev/null || tap_skip_all "$t missing"
done
LAB_CACHE=${LAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/statx-lab}
export LAB_CACHE
[ -f "$LAB_CACHE/kernels/patched/src/include/uapi/linux/fuse.h" ] ||
	tap_skip_all "the patched kernel tree is not built (make kernel)"

# Our own root is a plain path: a regression can only write inside it.
root=$(mktemp -d /tmp/recipes.XXXXXX)
cleanup() {
	trap '' INT TERM HUP
	[ -z "${pids:-}" ] || kill $pids 2>/dev/null || :
	rm -rf -- "$root"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
odd="it's a \$lab"
co="$root/co $odd"
export TMPDIR="$root/tmp $odd"
mkdir "$TMPDIR"
timeout 60 git clone -q "$top" "$co"

# make_in DIR ARGS...: make in DIR of the checkout, output to $root/log
make_in() {
	d=$1
	shift
	rc=0
	(cd "$co/$d" && timeout 600 make -s "$@") >"$root/log" 2>&1 || rc=$?
	sed 's/^/# /' "$root/log" | tail -n 15
	return $rc
}
# outside: what was made in $root besides the checkout and TMPDIR
outside() { ls -A "$root" | grep -vx "co $odd\|tmp $odd\|log\|par[1-5]" || :; }

TAP_DIAG=$root/log
echo "1..6"
ok 'BUILD="$co/build" make_in bench && BUILD="$co/build" make_in fuse-backend &&
	BUILD="$co/build" make_in nfs-lab && BUILD="$co/build" make_in guest tests &&
	[ -x "$co/build/bench/labplan" ] && [ -x "$co/build/fuse-backend/fusecount" ] &&
	[ -x "$co/build/nfs-lab/labctl" ] && [ -n "$(ls "$co/build/guest/tests")" ]' \
	"each folder builds into the checkout's build/, BUILD from the environment"
ok 'make_in guest initramfs && cpio -it <"$co/build/guest/initramfs.cpio" |
	grep -q "^init$"' "guest's initramfs in that checkout"
ok 'make_in fuse-backend fuzz FUZZERS=ctl_fuzz FUZZ_SECONDS=1 &&
	grep -q "executed_units" "$root/log"' \
	"fuse-backend's fuzz recipe with that TMPDIR"
ok '[ -z "$(ls -A "$TMPDIR")" ] && [ -z "$(outside)" ]' \
	"nothing left in TMPDIR, nothing written beside the checkout ($(outside | tr '\n' ' '))"

# Five initramfs builds at once: each renames its own file into place
pids=""
for i in 1 2 3 4 5; do
	(cd "$co/guest" && timeout 300 make -s initramfs) >"$root/par$i" 2>&1 &
	pids="$pids $!"
done
bad=0
for p in $pids; do wait "$p" || bad=$((bad + 1)); done
pids=""
cat "$root"/par? | grep -v '^initramfs: ' | sed 's/^/# /' || :
ok '[ $bad = 0 ] && cpio -it <"$co/build/guest/initramfs.cpio" | grep -q "^init$" &&
	[ -z "$(ls "$co/build/guest" | grep -v "^\(initramfs\|nfs\)\.cpio$\|^tests$\|^tools$")" ]' \
	"five initramfs builds at once: all succeed, one whole cpio, no temporary file"

ok 'make_in . clean && [ ! -e "$co/build" ] && [ -f "$co/Makefile" ] &&
	[ -z "$(outside)" ]' "make clean removes the checkout's build/, nothing else"
exit $failed
