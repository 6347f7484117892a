#!/bin/sh
# kernel/build.sh's usage errors: one line, status 2, and before
# anything is unpacked or built (a name like "--help" once started a
# kernel build named so). --help prints the usage, status 0.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/lib/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LAB_CACHE=$tmp/cache

# bad WORD DESCRIPTION KVER ARG...: build.sh ARG... with KVER (6.1 or
# 6.12): status 2, one line holding WORD, nothing written to LAB_CACHE
bad() {
	word=$1 desc=$2 kver=$3
	shift 3
	rc=0
	KVER=$kver "$b" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?
	ok '[ $rc = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
	    grep -qF -- "$word" "$tmp/err" && [ ! -e "$LAB_CACHE" ]' \
		"$desc: status 2 ($rc), one line naming $word, nothing unpacked"
}

b=$top/kernel/build.sh
echo 1..9
rc=0
"$b" --help >"$tmp/out" 2>&1 || rc=$?
ok '[ $rc = 0 ] && grep -q "^usage: .*NAME \[PATCHDIR\]" "$tmp/out"' "--help: the usage, status 0"
bad usage 'no NAME' 6.1
bad usage 'three arguments' 6.1 stock a b
bad -x 'an option for a NAME' 6.1 -x
bad "bad kernel name" 'a NAME with a space' 6.1 "a b c"
bad "KVER=6.12" 'stock-6.12 without KVER=6.12' 6.1 stock-6.12
bad "KVER=6.1," 'patched-6.1 with KVER=6.12' 6.12 patched-6.1
bad "KVER=6.1," 'stock (the 6.1 kernel) with KVER=6.12' 6.12 stock
bad "$tmp/nope" 'a missing PATCHDIR' 6.1 patched "$tmp/nope"
exit $failed
