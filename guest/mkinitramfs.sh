#!/bin/sh
# Build the lab's base initramfs (an uncompressed newc cpio):
# busybox-static, the init, and each host binary named on the command line
# (or in $GUEST_BINS) with the shared libraries ldd lists. With --layer
# BASE, only the binaries, their libraries and $GUEST_FILES that BASE
# does not hold already: a cpio that guest/run appends to BASE for a
# guest role (NFS). Every byte costs each boot twice under TCG: the
# kernel unpacks it, then poisons the freed initrd a byte at a time.
#
# usage: guest/mkinitramfs.sh [--layer BASE] OUTPUT [BINARY[=GUEST_PATH]...]
set -eu

here=$(cd "$(dirname "$0")" && pwd)
BUSYBOX=${BUSYBOX:-/bin/busybox}

log() { printf 'initramfs: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

layer=0
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
if [ "${1:-}" = --layer ]; then
	[ $# -ge 2 ] && [ -f "$2" ] || die "--layer needs the base cpio (${2:-none given})"
	layer=1
	# What the base holds (as "./path") is not copied again.
	cpio -it --quiet <"$2" | sed 's|^\./||; s|^|./|' >"$stage.base"
	shift 2
fi
[ $# -ge 1 ] || die "usage: $0 [--layer BASE] OUTPUT [BINARY[=GUEST_PATH]...]"
out=$1
shift
trap 'rm -rf "$stage" "$stage.base"' EXIT

in_base() { [ $layer = 1 ] && grep -qxF ".$1" "$stage.base"; }

# Copy a file keeping its absolute path, following one level of symlink.
copy_path() {
	mkdir -p "$stage$(dirname "$1")"
	cp -L "$1" "$stage$1"
}

# Copy a binary and the libraries (and loader) it needs.
copy_binary() {
	src=${1%%=*}
	dst=${1#*=}
	[ "$dst" != "$1" ] || dst=$src
	# a shell library (*.sh, sourced) need not be executable
	case $src in *.sh) [ -f "$src" ] ;; *) [ -x "$src" ] ;; esac ||
		die "missing binary $src"
	# The guest path stays inside the image being staged.
	case /$dst/ in
	//*/../*|//*/./*) die "$1: '.' or '..' in the guest path" ;;
	//*) ;;
	*) die "$1: the guest path must be absolute" ;;
	esac
	mkdir -p "$stage$(dirname "$dst")"
	# A binary replaces a busybox applet link instead of writing through it.
	rm -f "$stage$dst"
	cp -L "$src" "$stage$dst"
	# Debug info only costs boot time (the kernel unpacks every byte);
	# scripts are not ELF and stay as they are.
	! file "$stage$dst" | grep -q 'ELF.*not stripped' ||
		strip --strip-debug "$stage$dst"
	ldd "$src" 2>/dev/null | grep -o '/[^ ]*' | while read -r lib; do
		[ -e "$stage$lib" ] || in_base "$lib" || copy_path "$lib"
	done
}

# The base: busybox and its applet links, the init, the accounts the
# NFS daemons drop privileges to.
base() {
	file "$BUSYBOX" 2>/dev/null | grep -q 'statically linked' ||
		die "$BUSYBOX is not a static busybox: apt-get install busybox-static"
	mkdir -p "$stage"/bin "$stage"/sbin "$stage"/usr/bin "$stage"/usr/sbin \
		"$stage"/etc "$stage"/proc "$stage"/sys "$stage"/dev "$stage"/tmp \
		"$stage"/mnt "$stage"/lab/bin "$stage"/root "$stage"/run \
		"$stage"/var/lib/nfs "$stage"/var/run
	cp "$BUSYBOX" "$stage/bin/busybox"
	# The applet links, made here once rather than by every boot's init.
	for applet in $("$BUSYBOX" --list); do
		[ -e "$stage/bin/$applet" ] || ln -s busybox "$stage/bin/$applet"
	done
	install -m 0755 "$here/init" "$stage/init"
	# What the init mounts with one "mount -a".
	cat >"$stage/etc/fstab" <<-FSTAB
		proc /proc proc defaults 0 0
		sys /sys sysfs defaults 0 0
		tmp /tmp tmpfs defaults 0 0
		run /run tmpfs defaults 0 0
		FSTAB
	# Accounts the NFS daemons drop privileges to.
	cat >"$stage/etc/passwd" <<-PASSWD
		root:x:0:0:root:/root:/bin/sh
		_rpc:x:100:65534::/run/rpcbind:/bin/false
		statd:x:101:65534::/var/lib/nfs:/bin/false
		nobody:x:65534:65534:nobody:/nonexistent:/bin/false
		PASSWD
	printf 'root:x:0:\nnogroup:x:65534:\n' >"$stage/etc/group"
}
[ $layer = 1 ] || base

for b in "$@" ${GUEST_BINS:-}; do
	copy_binary "$b"
done
for f in ${GUEST_FILES:-}; do
	in_base "$f" || copy_path "$f"
done

# A name of its own beside OUTPUT, renamed over it when whole: two builds
# at once (two make lab in one checkout) each write their own, and a
# reader (guest/run, a --layer build) sees the old file or the new one.
tmp=$(mktemp "$out.XXXXXX")
trap 'rm -rf "$stage" "$stage.base" "$tmp"' EXIT
(cd "$stage" && find . | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0) >"$tmp"
chmod 644 "$tmp"
mv -f "$tmp" "$out"
log "$out: $(du -h "$out" | cut -f1), $# binaries"
