#!/bin/sh
# Check a patch series as a maintainer would, before it goes out:
#  - scripts/checkpatch.pl --strict on every patch;
#  - bisectability: apply the patches one at a time in a scratch worktree
#    and build the filesystems they touch with W=1 after each one;
#  - no new W=1 warnings in the files a patch touches.
#
# usage: [KVER=6.1|6.12] kernel/check-series.sh [PATCHDIR]
#        (default: the version's series, kernel/patches or patches-6.12)
# Slow (a few minutes per patch on 2 cores); not part of make check.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
die() { echo "check-series: $*" >&2; exit 1; }
# shellcheck source=kernel/kver.sh
. "$here/kver.sh"
patchdir=$(cd "${1:-$kver_patches}" && pwd)
LAB_CACHE=${LAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/statx-lab}
# The version's package tree, as kernel/build.sh unpacks it.
base=$LAB_CACHE/src/linux-$(kver_pkg_version)
[ -e "$base.ready" ] && [ -d "$base/.git" ] ||
	die "no $KERNEL_PKG tree at $base (KVER=$KVER make kernel)"
work=$LAB_CACHE/check-series-$KVER
build=$work/build
targets="fs/namei.o fs/stat.o fs/fuse/ fs/nfs/ fs/nfsd/ mm/shmem.o"
status=0

log() { printf 'check-series: %s\n' "$*"; }

# Warnings of a W=1 build, counted per file, for the files in $1.
warnings_in() {
	for f in $1; do
		printf '%s %s\n' "$f" "$(grep -c "^[^ ]*$f:[0-9]*:[0-9]*: warning" "$2" || true)"
	done
}

build_w1() {
	make -s -C "$work/tree" O="$build" W=1 -j"$(nproc)" $targets >"$1" 2>&1
}

rm -rf "$work"
mkdir -p "$build"
(cd "$base" && git worktree prune &&
 git worktree add -q --detach "$work/tree" lab-base)
trap '(cd "$base" && git worktree remove --force "$work/tree")' EXIT

for p in $(cd "$patchdir" && { cat series 2>/dev/null || ls *.patch; }); do
	out=$(cd "$work/tree" && perl scripts/checkpatch.pl --strict -q "$patchdir/$p" |
	      grep -E '^(ERROR|WARNING|CHECK)' || true)
	[ -z "$out" ] || { log "$p: checkpatch:"; echo "$out" | sed 's/^/    /'; }
done

log "configuring and building the base with W=1"
make -s -C "$work/tree" O="$build" tinyconfig >/dev/null
(cd "$work/tree" && scripts/kconfig/merge_config.sh -m -O "$build" \
	"$build/.config" "$CONFIG_FRAGMENT" ${KVER_FRAGMENT:+"$KVER_FRAGMENT"} >/dev/null)
make -s -C "$work/tree" O="$build" olddefconfig >/dev/null
build_w1 "$work/base.log" || { log "the base does not build"; exit 1; }

for p in $(cd "$patchdir" && { cat series 2>/dev/null || ls *.patch; }); do
	(cd "$work/tree" && git -c gc.auto=0 -c user.name=lab -c user.email=lab@localhost \
		am -q "$patchdir/$p") || { log "$p: does not apply"; exit 1; }
	files=$(cd "$work/tree" && git diff --name-only HEAD~1 -- '*.c')
	if ! build_w1 "$work/$p.log"; then
		log "$p: BUILD FAILED"; tail -20 "$work/$p.log"; status=1; continue
	fi
	warnings_in "$files" "$work/base.log" >"$work/before"
	warnings_in "$files" "$work/$p.log" >"$work/after"
	if cmp -s "$work/before" "$work/after"; then
		log "$p: builds, no new W=1 warnings"
	else
		log "$p: new W=1 warnings:"; status=1
		grep -h ': warning' "$work/$p.log" | sed 's/^/    /'
	fi
done
exit $status
