#!/bin/sh
# kernel/build.sh starts a new build from the closest finished build of
# the same config and repository: kbuild then compiles only what the
# commits between them reach, less the objects whose preprocessed source
# is the same text (kernel/pp-sum.sh). Here: a user's git tree
# (KERNEL_SRC, another cache key) one commit past the cached patched
# tree, in a private cache that sees only the patched build. The commit
# puts a comment atop fs/fuse/fuse_i.h, which shifts every line of the
# header every FUSE object includes but changes no object, and a
# declaration into fs/fuse/control.c, which changes that object. So
# exactly one object may be compiled: more if the copy's paths were not
# rewritten (objtool and every object rebuild) or its objects were not
# made newer than the sources, all of fs/fuse if the preprocessed
# sources were not compared. The patched kernel's counts show that the
# objects that do change are compiled, when make check builds from an
# empty cache (the patched build then starts from the stock one).
set -eu
. "$(dirname "$0")/../../guest/lib.sh"
. "$lab_top/lib/tap.sh"
build=$lab_top/kernel/build.sh

seed=$(readlink -f "$LAB_CACHE/kernels/patched/build" 2>/dev/null) ||
	lab_skip "no patched kernel (make kernel)"
[ -e "$seed/.lab-built" ] || lab_skip "no patched kernel (make kernel)"
[ -e "$seed/.lab-source" ] ||
	lab_skip "the patched build predates build seeding (make distclean kernel)"
tree=$(readlink -f "$LAB_CACHE/kernels/patched/src")
echo "1..7"

# The user's tree: the patched tree's files, hard-linked (seconds, not a
# checkout of 80k files), with a copy of its index. Linking changes the
# files' ctime, which git would take for a change: not trusted here. An
# edited file is written anew, never through a link into the cache.
export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.trustctime GIT_CONFIG_VALUE_0=false
src=$lab_tmp/src
git -C "$tree" worktree add -q --no-checkout --detach "$src" HEAD
trap 'git -C "$tree" worktree remove --force "$src" 2>/dev/null || true; lab_cleanup' EXIT
(cd "$tree" && for e in * .[!.]*; do [ "$e" = .git ] || cp -al "$e" "$src/"; done)
cp "$(git -C "$tree" rev-parse --path-format=absolute --git-path index)" \
   "$(git -C "$src" rev-parse --path-format=absolute --git-path index)"
rewrite() { # FILE AWK-PROGRAM
	awk "$2" "$src/$1" >"$src/$1.new" && mv "$src/$1.new" "$src/$1"
}
rewrite fs/fuse/fuse_i.h 'NR == 1 { print "/* seed.t: every line below moves down */" } 1'
rewrite fs/fuse/control.c '1; END { print "static int seed_t_marker __used;" }'
git -C "$src" -c user.name=seed.t -c user.email=seed.t@localhost \
	commit -q -a -m "seed.t: one object changes, one header only moves"

cache=$lab_tmp/cache
mkdir -p "$cache/build"
ln -s "$seed" "$cache/build/$(basename "$seed")"
t0=$(date +%s)
# One job: kbuild walks the tree mostly in series anyway, and the tests
# beside this one keep the other core.
rc=0
JOBS=1 LAB_CACHE=$cache KERNEL_SRC=$src "$build" seeded >"$lab_tmp/out" 2>&1 || rc=$?
ok '[ $rc = 0 ]' "the build succeeds ($(( $(date +%s) - t0 )) s)"
sed 's/^/# /' "$lab_tmp/out"
has() { grep -qF -- "$1" "$lab_tmp/out"; }

ok 'has "seeded: starting from $(basename "$seed") (2 files differ)"' \
	"it starts from the patched build"
# No Kconfig file differs: the patched build's config, not configured anew
# (20-30 s of one core).
ok 'has "seeded: the config of $(basename "$seed") (no Kconfig input differs)"' \
	"it takes the patched build's config"

new=$(readlink -f "$cache/kernels/seeded/build" 2>/dev/null) || new=$lab_tmp/none
fuse=$(cd "$seed" && find fs/fuse -name '*.o' | wc -l)
ok 'has "seeded: $((fuse - 1)) of the $fuse objects that include a changed file preprocess to the same text: kept"' \
	"of the $fuse FUSE objects all but control.o are kept"

# What make compiled from the tree's sources: the link's own objects
# (init/version-timestamp.o, vmlinux.o, the boot code) are not that.
compiled=$(cd "$new" 2>/dev/null && find . -name '*.o' -newer .lab-seeded |
	grep -v -e '^\./init/version-timestamp\.o$' -e '^\./vmlinux\.o$' \
		-e '^\./arch/x86/boot/' | sort | tr '\n' ' ')
is "$compiled" "./fs/fuse/control.o " "only fs/fuse/control.o is compiled"

ok 'cmp -s "$new/fs/fuse/inode.o" "$seed/fs/fuse/inode.o" &&
	! cmp -s "$new/fs/fuse/control.o" "$seed/fs/fuse/control.o"' \
	"inode.o is the patched build's, control.o a new one"

# The new build can seed the next one: it records its own paths.
read -r _ commit t b <"$new/.lab-source" || true
ok '[ "$commit" = "$(git -C "$src" rev-parse HEAD)" ] && [ "$t" = "$src" ] &&
	[ "$b" = "$new" ]' "it records its commit and paths for the next build"
exit $failed
