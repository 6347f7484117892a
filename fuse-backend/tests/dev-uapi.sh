#!/bin/sh
# Write a FUSE 7.39 uapi header for host development before the patched
# kernel tree exists: the system's linux/fuse.h (7.38) plus the FUSE_STATX
# additions of mainline Linux 6.6 (include/uapi/linux/fuse.h, 7.39).
# Usage: tests/dev-uapi.sh OUT [IN]   then   make FUSE_UAPI=OUT
set -eu

out=${1:?usage: dev-uapi.sh OUT [IN]}
in=${2:-/usr/include/linux/fuse.h}

if grep -q FUSE_STATX "$in"; then
	cp "$in" "$out"
	exit 0
fi
grep -q 'FUSE_KERNEL_MINOR_VERSION 38' "$in" || {
	echo "dev-uapi.sh: $in is not FUSE 7.38; refusing to guess" >&2
	exit 1
}

awk '
/^#define FUSE_KERNEL_MINOR_VERSION 38/ {
	print "#define FUSE_KERNEL_MINOR_VERSION 39"; next
}
/^\tFUSE_TMPFILE\t/ { print; print "\tFUSE_STATX\t\t= 52,"; next }
/^struct fuse_kstatfs \{/ {
	print "/*"
	print " * The following structures are bit-for-bit compatible with the statx(2) ABI in"
	print " * Linux."
	print " */"
	print "struct fuse_sx_time {"
	print "\tint64_t\t\ttv_sec;"
	print "\tuint32_t\ttv_nsec;"
	print "\tint32_t\t\t__reserved;"
	print "};"
	print ""
	print "struct fuse_statx {"
	print "\tuint32_t\tmask;"
	print "\tuint32_t\tblksize;"
	print "\tuint64_t\tattributes;"
	print "\tuint32_t\tnlink;"
	print "\tuint32_t\tuid;"
	print "\tuint32_t\tgid;"
	print "\tuint16_t\tmode;"
	print "\tuint16_t\t__spare0[1];"
	print "\tuint64_t\tino;"
	print "\tuint64_t\tsize;"
	print "\tuint64_t\tblocks;"
	print "\tuint64_t\tattributes_mask;"
	print "\tstruct fuse_sx_time\tatime;"
	print "\tstruct fuse_sx_time\tbtime;"
	print "\tstruct fuse_sx_time\tctime;"
	print "\tstruct fuse_sx_time\tmtime;"
	print "\tuint32_t\trdev_major;"
	print "\tuint32_t\trdev_minor;"
	print "\tuint32_t\tdev_major;"
	print "\tuint32_t\tdev_minor;"
	print "\tuint64_t\t__spare2[14];"
	print "};"
	print ""
}
/^#define FUSE_COMPAT_MKNOD_IN_SIZE/ {
	print "struct fuse_statx_in {"
	print "\tuint32_t\tgetattr_flags;"
	print "\tuint32_t\treserved;"
	print "\tuint64_t\tfh;"
	print "\tuint32_t\tsx_flags;"
	print "\tuint32_t\tsx_mask;"
	print "};"
	print ""
	print "struct fuse_statx_out {"
	print "\tuint64_t\tattr_valid;\t/* Cache timeout for the attributes */"
	print "\tuint32_t\tattr_valid_nsec;"
	print "\tuint32_t\tflags;"
	print "\tuint64_t\tspare[2];"
	print "\tstruct fuse_statx stat;"
	print "};"
	print ""
}
{ print }
' "$in" >"$out.tmp"
mv "$out.tmp" "$out"
