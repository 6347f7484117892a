#!/bin/sh
# lib/kernels.list and its reader (lib/kernels.sh): every kernel of the
# committed list is a well-formed LABEL ROLE KVER IMAGE [ARGS...] line,
# each label once; lab_kernel_entry gives its role, version, image and
# arguments, lab_kernels and lab_kernels_of pick labels by arguments,
# role and version; a label the list lacks, or whose line lacks a
# column or has another role, is refused (that one with a line saying why).
set -eu
lab_lib=$(cd "$(dirname "$0")/.." && pwd)
. "$lab_lib/tap.sh"
. "$lab_lib/kernels.sh"
tmp=$(mktemp -d)
trap 'rm -rf -- "$tmp"' EXIT
TAP_DIAG=$tmp/err
LAB_CACHE=/cache
list=$lab_lib/kernels.list

echo "1..9"
bad=""
for k in $(lab_kernels); do
	lab_kernel_entry "$k" 2>>"$tmp/err" || bad="$bad $k"
done
is "$bad" "" "every label of kernels.list has a role, a version and an image"
is "$(awk '$1 !~ /^#/ && NF { print $1 }' "$list" | sort | uniq -d)" "" \
	"no label twice"
lab_kernel_entry optin-6.12
is "$lab_role $lab_kver $lab_image [$lab_append]" \
	"optin 6.12 /cache/kernels/patched-6.12/bzImage [lab.optin=10]" \
	"optin-6.12: the patched 6.12 image with lab.optin=10"
lab_kernel_entry stock
is "$lab_role $lab_kver $lab_image [$lab_append]" \
	"stock 6.1 /cache/kernels/stock/bzImage []" "stock: no arguments"
is "$(lab_kernels --quick)" "stock patched stock-6.12 patched-6.12 " \
	"--quick: the kernels without arguments"
is "$(lab_kernels_of "stock optin" 6.12)" "stock-6.12 optin-6.12 " \
	"by role and version"

# A list of the user's own: an old two-column line, an unknown role.
cat >"$tmp/list" <<'LIST'
# a comment
mine	mine/bzImage
odd	tested	6.12	odd/bzImage
good	patched	6.18	good/bzImage	a=1  b=2
LIST
export LAB_KERNEL_LIST=$tmp/list
rc=0
lab_kernel_entry nosuch 2>"$tmp/err" || rc=$?
ok '[ $rc = 1 ] && [ ! -s "$tmp/err" ]' "a label the list lacks: 1, silently"
rc=0
lab_kernel_entry mine 2>"$tmp/err" || rc=$?
ok '[ $rc = 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
	grep -q "line of mine is not LABEL ROLE KVER IMAGE" "$tmp/err"' \
	"a line without role and version: 1, and one line says why"
rc=0
lab_kernel_entry odd 2>"$tmp/err" || rc=$?
lab_kernel_entry good
ok '[ $rc = 1 ] && [ "$lab_role $lab_kver $lab_append" = "patched 6.18 a=1 b=2" ]' \
	"a role other than stock, patched, optin is refused; a new version is not"
exit $failed
