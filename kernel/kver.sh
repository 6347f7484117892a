# shellcheck shell=sh disable=SC2154
# Which kernel the lab builds, sourced by build.sh and check-series.sh.
# KVER=6.1 (the default) or 6.12: Debian's linux-source-$KVER package,
# the series kernel/patches (6.1) or kernel/patches-$KVER, and the config
# kernel/lab.config followed by kernel/lab-$KVER.config where it exists.
# Needs $here (the kernel/ folder) and die().

KVER=${KVER:-6.1}
case $KVER in
6.1)	kver_patches=$here/patches ;;
6.12)	kver_patches=$here/patches-6.12 ;;
*)	die "KVER=$KVER: want 6.1 or 6.12" ;;
esac
KERNEL_PKG=linux-source-$KVER
KERNEL_TARBALL=${KERNEL_TARBALL:-/usr/src/$KERNEL_PKG.tar.xz}
CONFIG_FRAGMENT=${CONFIG_FRAGMENT:-$here/lab.config}
# Merged after CONFIG_FRAGMENT: only what differs on this version.
KVER_FRAGMENT=${KVER_FRAGMENT-$here/lab-$KVER.config}
[ -f "$KVER_FRAGMENT" ] || KVER_FRAGMENT=

# The package's version, which names its unpacked tree.
kver_pkg_version() {
	dpkg-query -W -f='${Version}' "$KERNEL_PKG" 2>/dev/null ||
		echo "tar-$(stat -c %s-%Y "$KERNEL_TARBALL")"
}
