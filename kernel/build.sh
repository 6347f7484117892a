#!/bin/sh
# Build a lab kernel out of the repository.
#
# usage: [KVER=6.1|6.12] kernel/build.sh [--prepare] NAME [PATCHDIR]
#
# Unpacks Debian's linux-source-$KVER once into $LAB_CACHE/src as a git tree
# (base commit = the Debian import, the base of our format-patch series),
# applies PATCHDIR's series with git am in a worktree, configures
# tinyconfig + kernel/lab.config (+ kernel/lab-$KVER.config) and builds
# bzImage out of tree (kernel/kver.sh says what KVER selects).
# The build is cached under a key made of the source version, the series
# and the config, so a second run rebuilds nothing. On success
# $LAB_CACHE/kernels/NAME/{bzImage,src,build} point at the result.
# --prepare stops before the compiler: tree unpacked, patched and
# configured, so a later build starts compiling at once (make kernel
# prepares the later builds while the first one compiles).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
LAB_CACHE=${LAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/statx-lab}
KERNEL_SRC=${KERNEL_SRC:-}
JOBS=${JOBS:-$(nproc)}
# Each compile leaves the preprocessed text it read (X.i), summed after
# the build (kernel/pp-sum.sh): a later build that starts from this one
# then preprocesses only its own side to find the objects it can keep.
# It costs the compile a file write, not a second preprocessing.
KCFLAGS_LAB=-save-temps=obj
# gc.auto=0: the import is 90k loose objects, and a "git gc --auto" the
# commit would start packs them for minutes beside the kernel build.
GIT="git -c gc.auto=0 -c user.name=statx-lab -c user.email=statx-lab@localhost"
# Our makes set their own -j: not a job server of a make that runs us.
unset MAKEFLAGS MFLAGS

usage="usage: [KVER=6.1|6.12] $0 [--prepare] NAME [PATCHDIR]"
case ${1-} in -h|--help) echo "$usage"; exit 0 ;; esac
prepare_only=
[ "${1-}" != --prepare ] || { prepare_only=1; shift; }
log() { printf 'kernel%s: %s\n' "${prepare_only:+ (ahead)}" "$*" >&2; }
die() { log "error: $*"; exit 1; }
# A usage error: one line, status 2, before anything is unpacked.
usage_error() { log "$*"; exit 2; }
# shellcheck source=kernel/kver.sh
. "$here/kver.sh"

[ $# -ge 1 ] && [ $# -le 2 ] || usage_error "$usage"
name=$1
patchdir=${2:-}
case $name in
-*) usage_error "unknown option '$name' ($usage)" ;;
*[!a-z0-9_.-]*|.*|'') usage_error "bad kernel name '$name'" ;;
esac
# A name that says a version KVER selects (stock-6.12), or one of the
# lab's 6.1 kernels, is built from that version: else a 6.1 kernel would
# be published, and reported, as 6.12, or the other way round. Other
# names (a user's mainline-6.13) are the user's.
case $name in
*-6.1|*-6.12) want=${name##*-} ;;
stock|patched) want=6.1 ;; # the lab's 6.1 kernels (lib/kernels.list)
*) want=$KVER ;;
esac
[ "$want" = "$KVER" ] ||
	usage_error "$name is a $want kernel: run it with KVER=$want, not $KVER"
[ -z "$patchdir" ] || [ -d "$patchdir" ] ||
	usage_error "patch directory $patchdir does not exist"

# List the series in order: PATCHDIR/series if present, else *.patch.
series_list() {
	if [ -f "$1/series" ]; then
		grep -v -e '^#' -e '^[[:space:]]*$' "$1/series" |
		while read -r p; do
			[ -f "$1/$p" ] || die "$1/series names missing patch $p"
			echo "$1/$p"
		done
	else
		for p in "$1"/*.patch; do [ -f "$p" ] && echo "$p"; done
	fi
}

hash_stdin() { sha256sum | cut -c1-12; }

# The code of the series on stdin (a patch's path per line: a checkout
# path may hold spaces), without commit messages: rewording a patch must
# not rebuild the kernel. Keeps each diff up to format-patch's "-- ".
series_code() {
	while IFS= read -r p; do
		awk '/^diff --git / { on = 1 } /^-- $/ { on = 0 } on' "$p"
	done
}

# The pristine source: a git repository whose only commit is the import.
prepare_base() {
	if [ -n "$KERNEL_SRC" ]; then
		[ -f "$KERNEL_SRC/Makefile" ] || die "KERNEL_SRC=$KERNEL_SRC is not a kernel tree"
		base=$(cd "$KERNEL_SRC" && pwd)
		srcver=$(user_srcver "$base")
		return
	fi
	[ -f "$KERNEL_TARBALL" ] || die "$KERNEL_TARBALL missing: run 'make deps' (package $KERNEL_PKG)"
	srcver=$(kver_pkg_version)
	base=$LAB_CACHE/src/linux-$srcver
	lock_src
	[ -e "$base.ready" ] || unpack_base
	unlock_src
}

unpack_base() {
	log "unpacking $KERNEL_TARBALL ($srcver) into $base"
	rm -rf "$base" "$base.tmp"
	mkdir -p "$base.tmp"
	tar xf "$KERNEL_TARBALL" -C "$base.tmp" --strip-components=1
	# Debian's .gitignore ignores the whole top level, hence -f.
	(cd "$base.tmp" && git init -q && git add -f -A &&
	 $GIT commit -q -m "Import Debian $KERNEL_PKG $srcver" &&
	 git tag lab-base)
	mv "$base.tmp" "$base"
	touch "$base.ready"
}

# The version's source repository, while it is unpacked or gets a worktree.
lock_src() {
	exec 9>"$LAB_CACHE/locks/src-$KVER"
	flock 9
}

unlock_src() { flock -u 9; }

# The cache key of a user's tree: its path, unless it is a git tree,
# then its HEAD's content (a new commit rebuilds; uncommitted changes
# are in the key too). A tree whose HEAD holds exactly the import of a
# package tree in the cache is keyed as that package: the same build.
user_srcver() {
	if ! git -C "$1" rev-parse -q --verify HEAD >/dev/null 2>&1; then
		echo "src-$(printf '%s' "$1" | hash_stdin)"
		return
	fi
	head=$(git -C "$1" rev-parse 'HEAD^{tree}')
	[ -z "$(git -C "$1" status --porcelain -uno)" ] || {
		echo "git-$(echo "$head" | cut -c1-12)-$(git -C "$1" diff HEAD | hash_stdin)"
		return
	}
	for r in "$LAB_CACHE"/src/linux-*.ready; do
		[ -e "$r" ] || continue
		[ "$(git -C "${r%.ready}" rev-parse 'lab-base^{tree}' 2>/dev/null)" = "$head" ] &&
			{ basename "${r%.ready}" | sed 's/^linux-//'; return; }
	done
	echo "git-$(echo "$head" | cut -c1-12)"
}

# A worktree of the base with the series applied by git am.
prepare_tree() {
	if [ -z "$series" ]; then
		tree=$base
		return
	fi
	[ -z "$KERNEL_SRC" ] || [ -d "$KERNEL_SRC/.git" ] ||
		die "KERNEL_SRC must be a git tree to apply a series"
	tree=$LAB_CACHE/trees/$name-$srcver-$shash
	exec 7>"$LAB_CACHE/locks/tree-$name-$srcver-$shash"
	flock 7
	[ -e "$tree.ready" ] || apply_series
	flock -u 7
}

# $series in a new worktree of $base at $tree.
apply_series() {
	log "$name: applying $(echo "$series" | wc -l) patches in $tree"
	rm -rf "$tree"
	lock_src
	(cd "$base" && git worktree prune && mkdir -p "$(dirname "$tree")" &&
	 git worktree add -q --detach "$tree" HEAD)
	unlock_src
	echo "$series" | while IFS= read -r p; do
		if ! (cd "$tree" && $GIT am -q "$p" >/dev/null 2>&1); then
			(cd "$tree" && git am --show-current-patch=diff >/dev/null 2>&1;
			 git am --abort) >/dev/null 2>&1 || true
			die "patch does not apply: $p (try: cd $tree && git am $p)"
		fi
		log "$name:   applied $(basename "$p")"
	done || exit 1	# die() above left the subshell of the pipe
	touch "$tree.ready"
}

configure_and_build() {
	cfghash=$(cat "$CONFIG_FRAGMENT" ${KVER_FRAGMENT:+"$KVER_FRAGMENT"} | hash_stdin)
	key=$(printf '%s %s %s %s' "$srcver" "$shash" "$cfghash" "$KCFLAGS_LAB" | hash_stdin)
	build=$LAB_CACHE/build/$name-$key
	exec 8>"$LAB_CACHE/locks/$name-$key"
	flock 8
	if [ -e "$build/.lab-built" ]; then
		[ -n "$prepare_only" ] || log "$name: cached ($build)"
		return
	fi
	# One "git status" of the tree's 80k files serves the seed and the record.
	commit=
	seed=
	if [ -z "$prepare_only" ]; then
		commit=$(tree_commit) || commit=
		[ -z "$commit" ] || seed=$(find_seed) || seed=
	fi
	# The files that differ from the seed, for its config and its copy.
	# shellcheck disable=SC2086
	changed=$([ -z "$seed" ] || git -C "$tree" diff --name-only "$(echo $seed | cut -d' ' -f2)" "$commit")
	# A folder --prepare configured and nothing has compiled in since, or
	# the seed's config when it must be this one's.
	seed_config=
	if [ ! -e "$build/.lab-configured" ]; then
		if seed_config_holds; then
			seed_config=1
		else
			configure
		fi
	fi
	[ -z "$prepare_only" ] || return 0
	rm -f "$build/.lab-configured"
	seed_build
	log "$name: building bzImage with $JOBS jobs (5-14 minutes on 2 cores from nothing, by host)"
	t0=$(date +%s)
	make -s -C "$tree" O="$build" -j"$JOBS" KCFLAGS="$KCFLAGS_LAB" bzImage \
		>"$build/build.log" 2>&1 || {
		tail -30 "$build/build.log" >&2
		die "build failed, full log in $build/build.log"
	}
	JOBS=$JOBS "$here/pp-sum.sh" record "$build"
	log "$name: built in $(( $(date +%s) - t0 ))s$(rebuilt_note)"
	[ -z "$commit" ] ||
		printf '%s %s %s %s\n' "$cfghash" "$commit" "$tree" "$build" >"$build/.lab-source"
	touch "$build/.lab-built"
}

configure() {
	log "$name: configuring (tinyconfig + $(basename "$CONFIG_FRAGMENT")${KVER_FRAGMENT:+ + $(basename "$KVER_FRAGMENT")})"
	rm -rf "$build"
	mkdir -p "$build"
	make -s -C "$tree" O="$build" tinyconfig >/dev/null
	(cd "$tree" && scripts/kconfig/merge_config.sh -m -O "$build" \
		"$build/.config" "$CONFIG_FRAGMENT" ${KVER_FRAGMENT:+"$KVER_FRAGMENT"} \
		>"$build/merge.log" 2>&1) ||
		die "merge_config failed, see $build/merge.log"
	# (its notes on options the fragment overrides go to merge.log too)
	make -s -C "$tree" O="$build" olddefconfig >>"$build/merge.log" 2>&1 ||
		die "olddefconfig failed, see $build/merge.log"
	check_config
	touch "$build/.lab-configured"
}

# The commit a build's tree was at, when the tree is a clean git tree:
# a later build of the same repository may start from this one.
tree_commit() {
	git -C "$tree" rev-parse -q --verify HEAD 2>/dev/null &&
		[ -z "$(git -C "$tree" status --porcelain -uno)" ]
}

# The finished build of the same config whose commit is in this tree's
# repository and differs least from HEAD: "DIR COMMIT TREE BUILD NFILES",
# TREE and BUILD the paths it was built at, NFILES how many files differ.
find_seed() {
	best=
	bestn=
	for s in "$LAB_CACHE"/build/*/.lab-source; do
		# Built with other flags (no .lab-ppsums): every object's
		# command differs, and make would compile them all again.
		[ -e "$s" ] && [ -e "${s%/.lab-source}/.lab-built" ] &&
			[ -e "${s%/.lab-source}/.lab-ppsums" ] || continue
		read -r h c t b <"$s"
		[ "$h" = "$cfghash" ] && git -C "$tree" cat-file -e "$c^{commit}" 2>/dev/null ||
			continue
		n=$(git -C "$tree" diff --name-only "$c" "$commit" | wc -l)
		[ -n "$bestn" ] && [ "$n" -ge "$bestn" ] && continue
		best="${s%/.lab-source} $c $t $b $n"
		bestn=$n
	done
	[ -n "$best" ] && echo "$best"
}

# The seed's config is this build's when no input of Kconfig differs: no
# Kconfig file, nothing under scripts/ (Kconfig runs its tests), no
# defconfig fragment, not the top Makefile (the version in .config).
# find_seed matched the fragments. Saves configuring (20-30 s).
seed_config_holds() {
	[ -n "$seed" ] || return 1
	set -- $seed
	printf '%s\n' "$changed" | grep -qE \
		'(^|/)Kconfig[^/]*$|^scripts/|^arch/[^/]*/configs/|^kernel/configs/|^Makefile$' &&
		return 1
	log "$name: the config of $(basename "$1") (no Kconfig input differs)"
}

# Start from a copy of the closest finished build, as kbuild does after
# a git checkout: objects newer than the unchanged sources, the files
# that differ from the seed's commit newer than the objects. kbuild then
# compiles only what depends on them, less the objects keep_unchanged
# finds the same: the 6.1 series' fs.h and namei.h changes reach 821 of
# 1309 objects, 749 of which do not use what changed.
seed_build() {
	[ -n "$seed" ] || return 0
	set -- $seed
	[ -n "$seed_config" ] || cmp -s "$1/.config" "$build/.config" || return 0
	log "$name: starting from $(basename "$1") ($5 files differ)"
	rm -rf "$build"
	mkdir "$build"
	cp -a "$1/." "$build/"
	rm -f "$build/.lab-built" "$build/.lab-source" "$build/.version"
	# Command lines and dependency lists name the seed's source tree, and
	# objtool's its build folder (else objtool and all objects rebuild).
	rewrite_path "$3" "$tree"
	rewrite_path "$4" "$build"
	ln -sfn "$tree" "$build/source"
	sleep 1 # every checked-out source is now older than the objects
	find "$build" -exec touch -h -d "@$(date +%s.%N)" {} +
	sleep 0.1
	printf '%s\n' "$changed" |
		T=$tree/ awk 'NF { print ENVIRON["T"] $0 }' >"$build/.lab-changed"
	xargs -r -d '\n' sh -c 'for f; do [ -e "$f" ] && touch "$f"; done; :' sh \
		<"$build/.lab-changed"
	keep_unchanged "$@"
	sleep 0.1
	touch "$build/.lab-seeded" # what make writes from now on is compiled
}

# Of the objects that include a file that differs, keep those whose
# preprocessed source is the same text as the seed's (kernel/pp-sum.sh
# says why that is the same object): newer than what they include, make
# leaves them. The seed's side is the sum its compile recorded.
keep_unchanged() {
	[ "$5" -gt 0 ] || return 0
	[ -s "$1/.lab-ppsums" ] || {
		log "$name: the seed recorded no preprocessed sources: compiling all that includes a change"
		return 0
	}
	# fs/.namei.o.cmd names fs/namei.o
	(cd "$build" && find . -name '.*.o.cmd' -exec grep -lF -f .lab-changed {} + |
		sed -n 's|^\./\(.*\)/\.\(.*\.o\)\.cmd$|\1/\2|p') >"$build/.lab-candidates" || true
	xargs -r -P "$JOBS" -n 8 "$here/pp-sum.sh" same "$1/.lab-ppsums" "$build" \
		<"$build/.lab-candidates" >"$build/.lab-kept"
	(cd "$build" && xargs -r touch <.lab-kept)
	log "$name: $(wc -l <"$build/.lab-kept") of the $(wc -l <"$build/.lab-candidates") objects that include a changed file preprocess to the same text: kept"
}

rewrite_path() {
	[ "$1" = "$2" ] || grep -rlIF -- "$1/" "$build" |
		OLD=$1/ NEW=$2/ xargs -r perl -pi -e 's/\Q$ENV{OLD}\E/$ENV{NEW}/g'
}

rebuilt_note() {
	[ -e "$build/.lab-seeded" ] || return 0
	printf ', %s of %s objects compiled' \
		"$(find "$build" -name '*.o' -newer "$build/.lab-seeded" | wc -l)" \
		"$(find "$build" -name '*.o' | wc -l)"
}

# Every option the fragments set must survive olddefconfig.
check_config() {
	# The version's fragment wins where both set an option.
	grep -hE '^CONFIG_[A-Z0-9_]+=' "$CONFIG_FRAGMENT" ${KVER_FRAGMENT:+"$KVER_FRAGMENT"} |
	awk -F= '{ v[$1] = $0; if (!($1 in o)) o[$1] = n++ } END { for (k in o) print o[k], v[k] }' |
	sort -n | cut -d' ' -f2- | while read -r line; do
		grep -qx "$line" "$build/.config" ||
			die "config: $line did not survive olddefconfig (dependency missing?)"
	done
}

# link_at TARGET LINK: LINK points at TARGET. One that does already is
# left as it is (make guest publishes every cached kernel again); ln -sf
# replaces the others with a rename, so a reader never finds one missing.
link_at() {
	[ "$(readlink -- "$2" 2>/dev/null)" = "$1" ] || ln -sfn -- "$1" "$2"
}

publish() {
	out=$LAB_CACHE/kernels/$name
	mkdir -p "$out"
	link_at "$build/arch/x86/boot/bzImage" "$out/bzImage"
	link_at "$tree" "$out/src"
	link_at "$build" "$out/build"
	echo "$out/bzImage"
}

# Locks: the version's source repository while it is unpacked or gets a
# worktree, a patched tree while its series is applied, a build while it
# is configured and built. Builds of other keys, and the trees of later
# ones (--prepare), go on beside.
mkdir -p "$LAB_CACHE/locks"
prepare_base
series=
if [ -n "$patchdir" ]; then
	patchdir=$(cd "$patchdir" && pwd)
	series=$(series_list "$patchdir")
fi
# shellcheck disable=SC2086
shash=$( (echo "$srcver"; [ -z "$series" ] || echo "$series" | series_code) |
	hash_stdin)
prepare_tree
configure_and_build
[ -n "$prepare_only" ] || publish
