#!/bin/sh
# The folders depend on each other one way only: a folder's code, build
# rules and tests may name a folder below it, never one above (a circle
# would make each part impossible to build, test or read alone). The
# order, lowest first:
#   lib  guest  fuse-backend  kernel  bench  nfs-lab
# What counts as naming a folder: a path to it from the folder's files
# (../X/, $top/X/, $lab_top/X/, $nl_top/X/, $BUILD/X, build/X, -I../X),
# outside comments and READMEs. scripts/ and the top Makefile sit above
# them all. Each reference found against the order is listed.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/lib/tap.sh"
order="lib guest fuse-backend kernel bench nfs-lab"

# rank FOLDER: its place in $order (0 for none)
rank() {
	i=1
	for f in $order; do
		[ "$f" != "$1" ] || { echo $i; return; }
		i=$((i + 1))
	done
	echo 0
}

# refs FOLDER: "FILE:LINE: OTHER" for each path to another folder
refs() {
	git -C "$top" ls-files -- "$1" | grep -v -e '\.md$' -e '\.patch$' \
		-e '/fixtures/' |
	while IFS= read -r f; do
		awk -v file="$f" -v self="$1" '
			# comments: shell and make "#", C "/*", " *", "//"
			/^[ \t]*#[^i]/ || /^[ \t]*#$/ || /^[ \t]*(\/\*|\*|\/\/)/ { next }
			{
				line = $0
				while (match(line, /(\.\.\/|top[}"]*\/|BUILD[)}"]*\/|BUILD_REL\)\/|build\/)(lib|guest|fuse-backend|kernel|bench|nfs-lab)\//)) {
					s = substr(line, RSTART, RLENGTH)
					sub(/\/$/, "", s)
					sub(/.*\//, "", s)
					if (s != self)
						print file ":" FNR ": " s
					line = substr(line, RSTART + RLENGTH)
				}
			}' "$top/$f"
	done
}

nf=$(echo $order | wc -w)
echo "1..$nf"
for f in $order; do
	r=$(rank "$f")
	refs "$f" | while IFS= read -r line; do
		o=${line##*: }
		[ "$(rank "$o")" -lt "$r" ] || echo "$line"
	done >"${TMPDIR:-/tmp}/deps.$$"
	if [ -s "${TMPDIR:-/tmp}/deps.$$" ]; then
		tap_result 1 "$f names only the folders below it" \
			"$(head -n 20 "${TMPDIR:-/tmp}/deps.$$")"
	else
		tap_result 0 "$f names only the folders below it"
	fi
	rm -f "${TMPDIR:-/tmp}/deps.$$"
done
exit $failed
