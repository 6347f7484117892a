#!/bin/sh
# kernel/build.sh starts a new build from the closest finished build of
# the same config and repository (kbuild then compiles only what the
# commits between them reach). Here: the cached patched tree built as a
# user's own git tree (KERNEL_SRC, another cache key) in a private cache
# that sees only the patched build. Nothing differs, so nothing may be
# compiled: that holds only if the copy's paths were rewritten (else
# objtool and every object rebuild) and its objects were made newer than
# the sources. That the files that differ are compiled is what the
# patched kernel's counts show when make check builds from an empty
# cache (the patched build then starts from the stock one).
set -eu
. "$(dirname "$0")/../../guest/lib.sh"
build=$lab_top/kernel/build.sh

seed=$(readlink -f "$LAB_CACHE/kernels/patched/build" 2>/dev/null) ||
	lab_skip "no patched kernel (make kernel)"
[ -e "$seed/.lab-built" ] || lab_skip "no patched kernel (make kernel)"
[ -e "$seed/.lab-source" ] ||
	lab_skip "the patched build predates build seeding (make distclean kernel)"
tree=$(readlink -f "$LAB_CACHE/kernels/patched/src")
echo "1..5"

cache=$lab_tmp/cache
mkdir -p "$cache/build"
ln -s "$seed" "$cache/build/$(basename "$seed")"
t0=$(date +%s)
# One job: kbuild walks the tree mostly in series anyway, and the tests
# beside this one keep the other core.
if out=$(JOBS=1 LAB_CACHE=$cache KERNEL_SRC=$tree "$build" seeded 2>&1); then
	echo "ok 1 - the build succeeds ($(( $(date +%s) - t0 )) s)"
else
	echo "not ok 1 - the build succeeds"
fi
echo "$out" | sed 's/^/# /'

case $out in
*"seeded: starting from $(basename "$seed") (0 files differ)"*)
	echo "ok 2 - it starts from the patched build" ;;
*)	echo "not ok 2 - it starts from the patched build" ;;
esac

compiled=$(echo "$out" | sed -n 's/.*, \([0-9]*\) of [0-9]* objects compiled$/\1/p')
[ "$compiled" = 0 ] &&
	echo "ok 3 - no object is compiled again" ||
	echo "not ok 3 - no object is compiled again (${compiled:-no count})"

new=$(readlink -f "$cache/kernels/seeded/build")
cmp -s "$new/vmlinux" "$seed/vmlinux" &&
	echo "ok 4 - vmlinux is the patched one" ||
	echo "not ok 4 - vmlinux is the patched one"

# The new build can seed the next one: it records its own paths.
read -r _ commit t b <"$new/.lab-source" || true
[ "$commit" = "$(git -C "$tree" rev-parse HEAD)" ] && [ "$t" = "$tree" ] &&
	[ "$b" = "$new" ] &&
	echo "ok 5 - it records its commit and paths for the next build" ||
	echo "not ok 5 - it records its commit and paths for the next build"
