#!/bin/sh
# kernel/build.sh with KERNEL_SRC=DIR: a patch that does not apply names
# itself (on a tiny git tree, no kernel build), and the unpacked 6.12
# package tree built through KERNEL_SRC is keyed as the package, so it is
# the stock-6.12 build, found in the cache (skipped before make kernel).
set -eu
. "$(dirname "$0")/../../guest/lib.sh"
. "$lab_top/lib/tap.sh"
build=$lab_top/kernel/build.sh
echo "1..4"

# A tiny "kernel tree": build.sh only needs a Makefile and git.
src=$lab_tmp/src
mkdir -p "$src" "$lab_tmp/p"
printf 'all:\n' >"$src/Makefile"
printf 'one\ntwo\n' >"$src/f"
git -C "$src" init -q
git -C "$src" add Makefile f
git -C "$src" -c user.name=t -c user.email=t@t commit -q -m base
cat >"$lab_tmp/p/0001-bad.patch" <<'PATCH'
From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
From: t <t@t>
Subject: [PATCH] bad

---
 f | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/f b/f
--- a/f
+++ b/f
@@ -1,2 +1,2 @@
 one
-three
+four
-- 
2.39.5
PATCH
rc=0
TAP_DIAG=$lab_tmp/err
LAB_CACHE=$lab_tmp/cache KERNEL_SRC=$src "$build" t "$lab_tmp/p" \
	>"$lab_tmp/err" 2>&1 || rc=$?
ok '[ $rc != 0 ]' "a patch that does not apply fails the build"
ok 'grep -qF "patch does not apply: $lab_tmp/p/0001-bad.patch" "$lab_tmp/err"' \
	"the error names the patch"

stock=$LAB_CACHE/kernels/stock-6.12/bzImage
if [ ! -e "$stock" ]; then
	skip "no stock-6.12 kernel (make kernel)"
	skip "no stock-6.12 kernel (make kernel)"
	exit $failed
fi
want=$(readlink -f "$stock")
tree=$(readlink -f "$LAB_CACHE/kernels/stock-6.12/src")
KVER=6.12 KERNEL_SRC=$tree "$build" stock-6.12 >"$lab_tmp/err" 2>&1 || true
ok 'grep -q "stock-6.12: cached" "$lab_tmp/err"' \
	"KERNEL_SRC=<6.12 package tree> is a cache hit"
is "$(readlink -f "$stock")" "$want" "and publishes the same bzImage"
exit $failed
