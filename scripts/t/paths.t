#!/bin/sh
# Paths with spaces and shell or regex characters reach the Makefiles'
# recipes as one word: in a checkout at "DIR/my lab+1", `make clean`
# removes its build/ and not a sibling "DIR/my"; `make distclean` with
# such a LAB_CACHE removes it and nothing else; a folder builds its
# binaries into that checkout's build/. The checkout is a clone of this
# repository with the working tree's Makefiles on top.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
# What make check exports (and a parent make's command line, through
# MAKEFLAGS) must not point the clone's make clean at the real build/.
unset BUILD LAB_CACHE KDIR LAB_INITRD STOCK_KERNEL PATCHED_KERNEL \
	MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
for t in git make realpath cc; do
	command -v "$t" >/dev/null || { echo "1..0 # SKIP $t missing"; exit 0; }
done
# Our own root is a plain path: a regression can only delete inside it.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/paths.XXXXXX")
case $tmp in
*[!A-Za-z0-9/._-]*) rmdir "$tmp"; tmp=$(mktemp -d /tmp/paths.XXXXXX) ;;
esac
trap 'trap "" INT TERM HUP; rm -rf -- "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
. "$top/lib/tap.sh"

# $1: the words of a printed command, read back by the shell: "$#:$4".
fourth() {
	eval "set -- $1"
	echo "$#:${4:-}"
}

co="$tmp/my lab+1"
timeout 60 git clone -q "$top" "$co"
git -C "$top" ls-files -z -- Makefile '*/Makefile' '*.mk' |
	(cd "$top" && xargs -0 tar cf -) | (cd "$co" && tar xf -)
mkdir "$tmp/my" "$tmp/lab+1"
echo keep >"$tmp/my/marker"
echo keep >"$tmp/lab+1/marker"
mkdir -p "$co/build/x"
: >"$co/build/x/f"

echo "1..10"
timeout 60 make -s -C "$co" clean >"$tmp/clean.log" 2>&1 || true
sed 's/^/# clean: /' "$tmp/clean.log"
ok '[ ! -e "$co/build" ]' "make clean removes the checkout's build/"
ok '[ -f "$tmp/my/marker" ] && [ -f "$tmp/lab+1/marker" ]' \
	"make clean leaves the sibling folders 'my' and 'lab+1' alone"
ok '[ -f "$co/Makefile" ]' "make clean leaves the checkout alone"

cache="$tmp/my cache+[x]*&"
line=$(cd "$co" && make -n distclean LAB_CACHE="$cache" | tail -n 1)
echo "# make -n distclean: $line"
ok '[ "$(fourth "$line")" = "4:$cache" ]' \
	"make -n distclean: LAB_CACHE with a space, [x]+*& is one quoted word"
mkdir -p "$cache/kernels"
: >"$cache/kernels/f"
timeout 60 make -s -C "$co" distclean LAB_CACHE="$cache" >"$tmp/dist.log" 2>&1 || true
sed 's/^/# distclean: /' "$tmp/dist.log"
ok '[ ! -e "$cache" ] && [ -f "$tmp/my/marker" ] && [ -f "$co/Makefile" ]' \
	"make distclean removes that LAB_CACHE and nothing else"

line=$(cd "$co" && make -n lab-compare A="$tmp/a b" B="$tmp/c&d" | tail -n 1)
ok '[ "$line" = "bench/compare '"'"'$tmp/a b'"'"' '"'"'$tmp/c&d'"'"'" ]' \
	"make lab-compare: A and B quoted"

# A folder builds into the checkout's build/ (targets relative to it).
rc=0
timeout 120 make -s -C "$co/nfs-lab" BUILD="$co/build" >"$tmp/build.log" 2>&1 ||
	rc=$?
sed 's/^/# build: /' "$tmp/build.log"
ok '[ $rc = 0 ] && [ -x "$co/build/nfs-lab/labctl" ] &&
	[ -x "$co/build/nfs-lab/labcase" ]' \
	"make -C nfs-lab in the checkout: binaries in its build/nfs-lab"
line=$(cd "$co/nfs-lab" && make -n clean BUILD="$co/build")
ok '[ "$line" = "rm -rf -- '"'"'../build/nfs-lab'"'"'" ]' \
	"nfs-lab's make clean: its folder of build/ only"
timeout 60 make -s -C "$co/nfs-lab" clean BUILD="$co/build" >/dev/null 2>&1 || true
ok '[ ! -e "$co/build/nfs-lab" ] && [ -f "$tmp/my/marker" ]' \
	"nfs-lab's make clean removed it, nothing else"
rc=0
(cd "$co/nfs-lab" && make -n BUILD="$tmp/other dir/build") >"$tmp/err" 2>&1 || rc=$?
ok '[ $rc != 0 ] && grep -q "cannot have spaces" "$tmp/err"' \
	"a spaced BUILD outside the checkout is refused, not mangled"
exit $failed
