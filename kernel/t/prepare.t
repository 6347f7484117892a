#!/bin/sh
# kernel/build.sh --prepare and the build locks, on a tiny stand-in
# kernel tree (its make targets write files, in seconds): --prepare
# configures and stops; the build then starts from that folder without
# configuring again; two builds of one key at once build it once. And a
# build seeded from another takes its config unless an input of Kconfig
# differs. Publishing a cached build leaves links that are right alone.
set -eu
. "$(dirname "$0")/../../guest/lib.sh"
build=$lab_top/kernel/build.sh
echo "1..13"

src=$lab_tmp/src
mkdir -p "$src/scripts/kconfig"
cat >"$src/Makefile" <<'EOF'
tinyconfig:
	@echo '# tiny' >$(O)/.config
olddefconfig:
	@:
bzImage:
	@sleep 2; mkdir -p $(O)/arch/x86/boot; echo image >$(O)/arch/x86/boot/bzImage
EOF
# merge_config.sh -m -O DIR BASE FRAGMENT...
cat >"$src/scripts/kconfig/merge_config.sh" <<'EOF'
#!/bin/sh
o=$3
shift 4
cat "$@" >>"$o/.config"
EOF
chmod +x "$src/scripts/kconfig/merge_config.sh"
git -C "$src" init -q
git -C "$src" add -A
git -C "$src" -c user.name=t -c user.email=t@t commit -q -m base
echo CONFIG_ONE=y >"$lab_tmp/one.config"
echo CONFIG_TWO=y >"$lab_tmp/two.config"

# kbuild FRAGMENT [ARG]...: build.sh on the stand-in tree, its stdout
# to $lab_tmp/out, its log to $lab_tmp/log ($L: another name).
kbuild() {
	f=$1
	shift
	LAB_CACHE=$lab_tmp/cache KERNEL_SRC=$src CONFIG_FRAGMENT=$f \
		KVER_FRAGMENT='' "$build" "$@" >"$lab_tmp/${L:-out}" \
		2>"$lab_tmp/${L:-log}.log"
	[ -n "${L:-}" ] || mv "$lab_tmp/log.log" "$lab_tmp/log"
}
# has PATTERN: the last log has a line matching PATTERN.
has() { grep -q -- "$1" "$lab_tmp/log"; }
images() { find "$lab_tmp/cache/build" -name bzImage | wc -l; }
failed=0
say() {
	echo "$1" "$2"
	[ "$1" = ok ] || { failed=$((failed + 1)); sed 's/^/# /' "$lab_tmp/log"; }
}

kbuild "$lab_tmp/one.config" --prepare t
has 'configuring' && [ "$(images)" = 0 ] && [ ! -s "$lab_tmp/out" ] &&
	say ok "1 - --prepare configures, builds nothing, publishes nothing" ||
	say "not ok" "1 - --prepare configures, builds nothing, publishes nothing"
kbuild "$lab_tmp/one.config" --prepare t
! has 'configuring' &&
	say ok "2 - a second --prepare finds the folder configured" ||
	say "not ok" "2 - a second --prepare finds the folder configured"
kbuild "$lab_tmp/one.config" t
! has 'configuring' && has 'building' &&
	say ok "3 - the build starts from the prepared folder" ||
	say "not ok" "3 - the build starts from the prepared folder"
[ "$(images)" = 1 ] && [ -s "$(cat "$lab_tmp/out")" ] &&
	say ok "4 - and publishes its bzImage" ||
	say "not ok" "4 - and publishes its bzImage"
! ls "$lab_tmp"/cache/build/t-*/.lab-configured >/dev/null 2>&1 &&
	say ok "5 - a built folder is not marked configured any more" ||
	say "not ok" "5 - a built folder is not marked configured any more"

# Two builds of a new key at once: one builds, the other waits for it.
L=a kbuild "$lab_tmp/two.config" t &
sleep 1
L=b kbuild "$lab_tmp/two.config" t || :
wait $! || :
cat "$lab_tmp/a.log" "$lab_tmp/b.log" >"$lab_tmp/log"
n=$(grep -c 'building bzImage' "$lab_tmp/log" || :)
c=$(grep -c ': cached' "$lab_tmp/log" || :)
[ "$n" = 1 ] && [ "$c" = 1 ] &&
	say ok "6 - two builds of one key at once: built once, then cached" ||
	say "not ok" "6 - two builds of one key at once: built once, then cached"
[ "$(images)" = 2 ] &&
	say ok "7 - one image per key" ||
	say "not ok" "7 - one image per key"

# --prepare of a built key: nothing to do, and nothing said.
kbuild "$lab_tmp/two.config" --prepare t
[ ! -s "$lab_tmp/log" ] &&
	! ls "$lab_tmp"/cache/build/t-*/.lab-configured >/dev/null 2>&1 &&
	say ok "8 - --prepare of a built key leaves it, silently" ||
	say "not ok" "8 - --prepare of a built key leaves it, silently"

# The tree one commit on (another key): seeded from the last build of
# one.config, whose config holds unless a Kconfig file differs.
commit() { # FILE: a line more in FILE, committed
	echo "$1 $(date +%s%N)" >>"$src/$1"
	git -C "$src" add -A
	git -C "$src" -c user.name=t -c user.email=t@t commit -q -m "$1"
}
commit fs.c
kbuild "$lab_tmp/one.config" t
has 'starting from t-' && has 'the config of t-' && ! has 'configuring' &&
	say ok "9 - a .c file differs from the seed: its config, not configured" ||
	say "not ok" "9 - a .c file differs from the seed: its config, not configured"
commit Kconfig
kbuild "$lab_tmp/one.config" t
has 'configuring' && has 'starting from t-' && ! has 'the config of' &&
	say ok "10 - a Kconfig file differs: configured, then seeded" ||
	say "not ok" "10 - a Kconfig file differs: configured, then seeded"

# links: each published link's inode, change time and target.
links() {
	for l in bzImage src build; do
		stat -c '%i %z' "$lab_tmp/cache/kernels/t/$l"
		readlink "$lab_tmp/cache/kernels/t/$l"
	done
}
before=$(links)
kbuild "$lab_tmp/one.config" t
[ "$(links)" = "$before" ] && has ': cached' &&
	say ok "11 - a cached build's links, already right, are not rewritten" ||
	say "not ok" "11 - a cached build's links, already right, are not rewritten"
kbuild "$lab_tmp/two.config" t
[ "$(readlink "$lab_tmp/cache/kernels/t/build")" != "$(echo "$before" | sed -n 6p)" ] &&
	[ "$(cat "$lab_tmp/out")" = "$lab_tmp/cache/kernels/t/bzImage" ] &&
	[ -s "$lab_tmp/cache/kernels/t/bzImage" ] &&
	[ "$(ls -A "$lab_tmp/cache/kernels/t" | wc -l)" = 3 ] &&
	say ok "12 - another key's cached build: its links replace them, nothing else left" ||
	say "not ok" "12 - another key's cached build: its links replace them, nothing else left"
# A series in a folder whose path has a space and a quote: the key is
# made of its code, and git am is given each patch's whole path.
ser="$lab_tmp/my 'series"
mkdir -p "$ser"
git clone -q "$src" "$lab_tmp/work"
echo "/* patched */" >"$lab_tmp/work/fs.c"
git -C "$lab_tmp/work" -c user.name=t -c user.email=t@t commit -qam "fs: a patch"
git -C "$lab_tmp/work" format-patch -q -o "$ser" HEAD~1
(cd "$ser" && ls *.patch >series)
kbuild "$lab_tmp/one.config" --prepare t-ser "$ser"
has 'applied 0001-fs-a-patch.patch' && ! has 'error' &&
	say ok "13 - a series in a path with a space and a quote applies" ||
	say "not ok" "13 - a series in a path with a space and a quote applies"
exit $failed
