# Host-side helpers for guest tests (sourced by */t/*.t). POSIX sh.
# Each test boots its own guest through guest/run; nothing is shared
# between tests, and every temporary file goes when the test ends.

lab_top=$(cd "$(dirname "$0")/../.." 2>/dev/null && pwd)
[ -x "$lab_top/guest/run" ] || lab_top=$(cd "$(dirname "$0")/.." && pwd)
LAB_CACHE=${LAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/statx-lab}
LAB_INITRD=${LAB_INITRD:-$lab_top/build/guest/initramfs.cpio}
export LAB_INITRD

lab_tmp=$(mktemp -d "${TMPDIR:-/tmp}/lab-test.XXXXXX")
trap 'rm -rf "$lab_tmp"' EXIT
trap 'exit 130' INT TERM

# lab_skip REASON: a TAP plan that says the whole file was skipped.
lab_skip() {
	echo "1..0 # SKIP $*"
	exit 0
}

# lab_kernel NAME: set $kernel to a built kernel (stock, patched), or skip.
lab_kernel() {
	kernel=$LAB_CACHE/kernels/$1/bzImage
	[ -f "$kernel" ] || lab_skip "no $1 kernel at $kernel (make kernel)"
	[ -f "$LAB_INITRD" ] || lab_skip "no initramfs at $LAB_INITRD (make guest)"
}

# lab_ext4 FILE [SIZE]: a fresh ext4 image, made without mounting it.
lab_ext4() {
	rm -f "$1"
	mke2fs -q -F -t ext4 -I 256 -O ^has_journal "$1" "${2:-64M}" >&2 ||
		{ echo "Bail out! mke2fs failed"; exit 1; }
}

# lab_guest KERNEL [guest/run options] -- COMMAND...
lab_guest() {
	"$lab_top/guest/run" "$@"
}
