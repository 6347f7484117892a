#!/bin/sh
# make -C kernel export: both series written out with the sender as
# author and Signed-off-by, every other byte as in the repository; bad
# senders and a used output folder refused with status 2.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/lib/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ph='statx lab <statx-lab@localhost>'

# export ARGS...: make -C kernel export ARGS..., status in $rc
export_() {
	rc=0
	(cd "$tmp" && make -s -C "$top/kernel" export "$@") \
		>"$tmp/out" 2>"$tmp/err" || rc=$?
}

echo 1..11
export_ SENDER='Ada Lovelace <ada@example.org>' OUT=sent
ok '[ $rc = 0 ]' "export of both series: status 0 ($rc)"
ok '[ -d "$tmp/sent/patches" ] && [ -d "$tmp/sent/patches-6.12" ]' \
	"OUT is relative to where make was started"
same=0 all=0
for dir in patches patches-6.12; do
	for p in "$top/kernel/$dir"/*.patch; do
		all=$((all + 1))
		e=$tmp/sent/$dir/$(basename "$p")
		sed -e "s|^From: Ada Lovelace <ada@example.org>\$|From: $ph|" \
		    -e "s|^Signed-off-by: Ada Lovelace <ada@example.org>\$|Signed-off-by: $ph|" \
			"$e" | cmp -s - "$p" && same=$((same + 1))
	done
done
is "$same" "$all" "every patch and cover letter differs only in author and sign-off"
ok '! grep -rq "statx-lab@localhost" "$tmp/sent"' "no placeholder is left"
ok 'grep -q "^From: Ada Lovelace <ada@example.org>\$" "$tmp/sent/patches-6.12/0000-cover-letter.patch"' \
	"the cover letter is the sender's"
ok 'cmp -s "$top/kernel/patches/series" "$tmp/sent/patches/series"' \
	"the series file is copied"
export_ SENDER='Ada Lovelace <ada@example.org>' OUT=sent
ok '[ $rc = 2 ] && grep -q "not empty" "$tmp/err"' "a used OUT is refused ($rc)"
export_ SENDER='ada@example.org' OUT=o2
ok '[ $rc = 2 ] && grep -q "want" "$tmp/err" && [ ! -e "$tmp/o2" ]' \
	"a sender without a name is refused, nothing written ($rc)"
export_ SENDER='Ada <a@b> <c@d>' OUT=o3
ok '[ $rc = 2 ] && [ ! -e "$tmp/o3" ]' "two addresses are refused ($rc)"
export_ OUT=o4
ok '[ $rc = 2 ] && grep -q "give SENDER" "$tmp/err"' "no SENDER: usage, status 2"
export_ SENDER='R&D | Q\x <rd@example.org>' OUT=o5
ok '[ $rc = 0 ] && grep -qxF "Signed-off-by: R&D | Q\\x <rd@example.org>" "$tmp/o5/patches/0001-"*' \
	"sed's special characters in a name are kept as they are"
exit $failed
