#!/bin/sh
# Write the patch series out for sending, as SENDER: the author of every
# patch and cover letter and its Signed-off-by become SENDER instead of
# the lab's placeholder, nothing else changes.
#
# usage: kernel/export.sh 'Name <addr@example.org>' OUTDIR [SERIESDIR...]
#        (default: kernel/patches and kernel/patches-6.12)
# OUTDIR/<series folder>/ gets the series file, the cover letter and the
# patches. OUTDIR must not exist yet, or be empty.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
placeholder='statx lab <statx-lab@localhost>'

usage() {
	echo "usage: kernel/export.sh 'Name <addr@example.org>' OUTDIR [SERIESDIR...]" >&2
	exit 2
}

[ $# -ge 2 ] || usage
sender=$1 out=$2
shift 2
# One line, a name, one address in angle brackets, nothing after it:
# the form git am and the mailing lists read from a From: line.
case $sender in
*'
'*) echo "export: SENDER must be one line" >&2; exit 2 ;;
esac
printf '%s\n' "$sender" | grep -Eq '^[^<>@]*[^<>@ ] <[^<>@ ]+@[^<>@ ]+>$' || {
	echo "export: SENDER='$sender': want 'Name <addr@example.org>'" >&2
	exit 2
}
if [ -e "$out" ] && [ -n "$(ls -A -- "$out" 2>/dev/null)" ]; then
	echo "export: $out exists and is not empty" >&2
	exit 2
fi
[ $# -gt 0 ] || set -- "$here/patches" "$here/patches-6.12"
for dir in "$@"; do
	[ -f "$dir/series" ] || { echo "export: $dir: no series file" >&2; exit 2; }
done

# sed's replacement text: & and \ and the delimiter | are taken literally
esc=$(printf '%s\n' "$sender" | sed 's/[&\\|]/\\&/g')
mkdir -p -- "$out"
for dir in "$@"; do
	dest=$out/$(basename -- "$dir")
	mkdir -- "$dest"
	cp -- "$dir/series" "$dest/"
	for p in "$dir"/*.patch; do
		sed -e "s|^From: $placeholder\$|From: $esc|" \
		    -e "s|^Signed-off-by: $placeholder\$|Signed-off-by: $esc|" \
			-- "$p" >"$dest/$(basename -- "$p")"
	done
	n=$(ls "$dest"/*.patch | wc -l)
	echo "export: $dest: $n files as $sender"
done
