#!/bin/sh
# guest/lib.sh's lab_table, the tests over the kernel axis, without a
# guest: stand-in tests in a stand-in tree (links to the real lib.sh,
# tapmerge.awk, lib/kernels.sh and lib/ext4.sh) over a stand-in
# kernels.list. A file NAME-KVER.t runs the test once per kernel of that
# version and role, one TAP stream: the tests numbered on, each kernel's
# label before them, the plan last, prove's verdict the kernels'; a
# kernel not built is one skipped test, one that reports fewer tests
# than it planned one failed test; LAB_KVERS and LAB_KERNELS narrow the
# kernels, an unknown label there bails out; a kernel's Bail out ends
# the stream; a test run on one kernel of a role it has no expectations
# for bails out.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/lib/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf -- "$tmp"' EXIT
TAP_DIAG=$tmp/out
unset LAB_KVERS LAB_KERNELS

st=$tmp/top
mkdir -p "$st/guest" "$st/lib" "$st/demo/t-guest"
ln -s "$top/guest/lib.sh" "$top/guest/tapmerge.awk" "$st/guest/"
ln -s "$top/lib/kernels.sh" "$top/lib/ext4.sh" "$st/lib/"
cat >"$st/demo/t-guest/demo.sh" <<'T'
#!/bin/sh
set -eu
. "$(dirname "$0")/../../guest/lib.sh"
lab_table "stock patched optin" "6.1 6.12" "$@"
lab_kernel "$1"
echo "TAP version 13"
echo "1..2"
echo "ok 1 first on $lab_role-$lab_kver"
case $1 in
short) exit 0 ;;
fail) echo "not ok 2 second"; exit 1 ;;
bail) echo "Bail out! broken"; exit 1 ;;
esac
echo "some output"
echo "ok 2 - second # SKIP not here"
T
sed 's/"stock patched optin" "6.1 6.12"/patched 6.1/' \
	"$st/demo/t-guest/demo.sh" >"$st/demo/t-guest/patched.sh"
ln -s demo.sh "$st/demo/t-guest/demo-6.1.t"
ln -s demo.sh "$st/demo/t-guest/demo-6.12.t"
ln -s demo.sh "$st/demo/t-guest/demo-5.10.t"
export LAB_CACHE=$tmp/cache LAB_INITRD=$tmp/initrd LAB_KERNEL_LIST=$tmp/list
: >"$LAB_INITRD"
cat >"$LAB_KERNEL_LIST" <<'L'
# LABEL ROLE KVER IMAGE [ARGS]
a	stock	6.1	a/bzImage
b	patched	6.1	a/bzImage	x=1
c	optin	6.1	c/bzImage
d	stock	6.12	d/bzImage
short	patched	6.12	d/bzImage
fail	optin	6.12	d/bzImage
L
mkdir -p "$LAB_CACHE/kernels/a" "$LAB_CACHE/kernels/d"
: >"$LAB_CACHE/kernels/a/bzImage"
: >"$LAB_CACHE/kernels/d/bzImage"

# run NAME [VAR=VALUE...]: the stand-in test NAME, output in $tmp/out
run() {
	name=$1
	shift
	rc=0
	env "$@" sh "$st/demo/t-guest/$name" >"$tmp/out" 2>"$tmp/err" || rc=$?
}

echo "1..10"
run demo-6.1.t
is "$(cat "$tmp/out")" "ok 1 - a: first on stock-6.1
# some output
ok 2 - a: second # SKIP not here
ok 3 - b: first on patched-6.1
# some output
ok 4 - b: second # SKIP not here
ok 5 - c # SKIP no c kernel at $LAB_CACHE/kernels/c/bzImage (make kernel)
1..5" "demo-6.1.t: the 6.1 kernels' tests in one stream, a kernel not built skipped"
is "$rc" 0 "  and it passes"

run demo-6.12.t
ok '[ $rc != 0 ] && grep -qx "ok 2 - d: second # SKIP not here" "$tmp/out" &&
	grep -qx "not ok 4 - short: 1 of 2 tests reported, exit status 0" "$tmp/out" &&
	grep -qx "not ok 6 - fail: second" "$tmp/out" && [ "$(tail -n 1 "$tmp/out")" = 1..6 ]' \
	"demo-6.12.t: a kernel that stops short is a failed test, the next ones still run"
(cd "$st" && prove demo/t-guest/demo-6.1.t demo/t-guest/demo-6.12.t) >"$tmp/prove" 2>&1 || :
ok 'grep -q "demo-6.1.t \.* ok" "$tmp/prove" &&
	grep -q "^Failed 2/6 subtests" "$tmp/prove"' "prove reads both streams so"

run demo-6.1.t LAB_KVERS=6.12
ok '[ $rc = 0 ] && grep -q "^1\.\.0 # SKIP no kernel .* is stock patched optin on Linux 6.1 and in LAB_KVERS=6.12" "$tmp/out"' \
	"LAB_KVERS=6.12: demo-6.1.t skips, saying why"
run demo.sh LAB_KVERS="6.1 6.12" LAB_KERNELS="d b"
is "$(grep -c "^ok" "$tmp/out") $(tail -n 1 "$tmp/out")" "4 1..4" \
	"NAME.sh: every version; LAB_KERNELS=\"d b\": those two"
run demo-5.10.t
ok 'grep -q "^1\.\.0 # SKIP .* on Linux 5.10" "$tmp/out"' \
	"a version the test has no expectations for: skipped"
run demo-6.1.t LAB_KERNELS="a nosuch"
ok '[ $rc != 0 ] && grep -q "^Bail out! LAB_KERNELS: unknown kernel .nosuch." "$tmp/out"' \
	"an unknown label in LAB_KERNELS: Bail out"

cat >>"$LAB_KERNEL_LIST" <<'L'
bail	stock	6.1	a/bzImage
L
run demo-6.1.t
ok '[ $rc != 0 ] && [ "$(tail -n 1 "$tmp/out")" = "Bail out! broken" ] &&
	grep -qx "ok 5 - c # SKIP .*" "$tmp/out"' \
	"a kernel's Bail out ends the stream, after the kernels before it"
rc=0
sh "$st/demo/t-guest/patched.sh" a >"$tmp/out" 2>&1 || rc=$?
ok '[ $rc != 0 ] && grep -q "^Bail out! a is a stock kernel: this test expects patched ones" "$tmp/out"' \
	"NAME.sh LABEL of a role the test has no expectations for: Bail out"
exit $failed
