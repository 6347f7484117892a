#!/bin/sh
# The plans (labplan, no guest): FUSE's as JSON keys, one object per
# case, unique keys, the quick plan a subset of the full one holding the
# cases t-guest/lab-quick.t checks, delays after their delay-0 twin; the
# case lines read back as the same cases, NFS's matrix sizes, and usage
# errors of labplan and fusebench (one line, status 2).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
BUILD=${BENCH_OUT:-${BUILD:-$here/../../build}/bench}
fb=$BUILD/fusebench
lp=$BUILD/labplan
[ -x "$fb" ] && [ -x "$lp" ] ||
	{ echo "1..0 # SKIP labplan, fusebench not built (make -C bench)"; exit 0; }
command -v jq >/dev/null || { echo "1..0 # SKIP jq missing"; exit 0; }

. "$here/lib.sh"

"$lp" --fs fuse --json >"$tmp/full"
"$lp" --fs fuse --quick --json >"$tmp/quick"
"$lp" --fs fuse >"$tmp/lines"
keys='[.fs, .mount_opts, .workload, .call, .form, .sync, .mask, .object, .cache, .n, .delay_ms] | tostring'
count() { jq -s "[.[] | select($2)] | length" "$1"; }

echo "1..32"
ok 'jq -s -e "length > 0 and all(type == \"object\")" "$tmp/full"' "every line is a JSON object"
ok '[ "$(jq -r "$keys" "$tmp/full" | sort | uniq -d | wc -l)" = 0 ]' \
	"no two cases share their keys"
ok '[ -z "$(jq -r "$keys" "$tmp/quick" | sort | comm -23 - "$(jq -r "$keys" "$tmp/full" | sort >"$tmp/fk"; echo "$tmp/fk")")" ]' \
	"the quick plan is a subset of the full one"
ok '[ "$(count "$tmp/full" ".workload == \"ls\" and .delay_ms == 0 and .n <= 1000 and (.mount_opts | test(\"readdirplus=auto\")) and (.mount_opts | test(\"entry_timeout=1,\") | not)")" = $((2 * 3 * 16)) ]' \
	"full: N=100 and 1000 x 3 cache states x 16 commands at delay 0"
ok '[ "$(jq -r "select(.workload == \"ls\" and .n == 10000) | [.call, .form, .sync] | join(\" \")" "$tmp/full" | sort -u | tr "\n" ,)" = "gnu-ls long as-stat,gnu-ls plain as-stat,lsx long as-stat,lsx long dont," ] &&
	[ "$(count "$tmp/full" ".n == 10000 and .delay_ms == 0")" = 8 ]' \
	"full, N=10000: GNU ls plain and -l, lsx -l (both syncs), cold and expired"
# delayed listings of N=10000, or of N=1000 expired (none)
big=$(count "$tmp/full" '.workload == "ls" and .delay_ms > 0 and
	(.n > 1000 or (.n == 1000 and .cache == "expired"))')
ok '[ "$(count "$tmp/full" ".workload == \"ls\" and .delay_ms == 10")" = "$(count "$tmp/full" ".workload == \"ls\" and .delay_ms == 0 and .cache != \"warm\" and (.n == 100 or .cache == \"cold\") and .n <= 1000 and (.mount_opts | test(\"readdirplus=auto\")) and (.mount_opts | test(\"entry_timeout=1,\") | not)")" ] &&
	[ "$big" = 0 ]' \
	"full: the cold and expired listings of N=100 and the cold ones of N=1000 again at 10 ms, no larger one"
ok '[ "$(jq -r "select(.workload == \"ls\") | .n" "$tmp/full" | sort -un | tr "\n" " ")" = "100 1000 10000 " ]' \
	"full: N = 100, 1000, 10000"
ok '[ "$(count "$tmp/full" ".workload == \"syscall\"")" = $(( (3 + 3 * 5) * 4 * 4 )) ]' \
	"full syscall matrix: (3 calls + statx x 3 syncs x 5 masks) x 4 objects x 4 cache states"
ok '[ "$(count "$tmp/quick" ".workload == \"syscall\" and .call == \"statx\" and .sync == \"dont\" and .mask == \"basic\" and .object == \"deep\" and .cache == \"expired\"")" = 2 ]' \
	"quick: statx DONT_SYNC of a deep path, expired, with and without default_permissions"
ok '[ "$(jq -sc "map(select(.workload == \"ls\" and (.mount_opts | test(\"^entry_timeout=1,attr_timeout=1,\"))) | [.call, .form, .n, .cache]) | sort" "$tmp/quick")" = '"'"'[["gnu-ls","long",100,"cold"],["gnu-ls","long",100,"expired"],["ls","long",100,"cold"],["ls","long",100,"expired"]]'"'"' ] &&
	[ "$(count "$tmp/full" ".workload == \"ls\" and (.mount_opts | test(\"^entry_timeout=1,attr_timeout=1,\"))")" = 4 ]' \
	"libfuse's 1 s timeouts: busybox and GNU ls -l of 100, cold and expired, quick and full"
ok '[ "$(count "$tmp/quick" ".workload == \"ls\" and .call == \"ls\" and .form == \"long\" and .cache == \"cold\" and .n == 100 and .delay_ms == 0 and (.mount_opts | test(\"entry_timeout=1,\") | not)")" = 2 ] &&
	[ "$(count "$tmp/quick" ".workload == \"ls\" and .n == 1000")" = 2 ] &&
	[ "$(jq -sc "map(select(.n == 1000) | [.call, .form, .delay_ms, .cache])" "$tmp/quick")" = '"'"'[["ls","long",0,"cold"],["ls","long",0,"expired"]]'"'"' ]' \
	"quick: busybox ls -l cold, READDIRPLUS auto and on; at N=1000 cold and expired only"
ok '[ "$(count "$tmp/quick" ".workload == \"deep\"")" = 4 ]' \
	"quick: the deep tree as-stat and DONT_SYNC, two mounts"
ok 'jq -rs "map(select(.workload == \"ls\")) | .[] | [.call, .form, .sync, .cache, .n, .delay_ms] | @tsv" "$tmp/full" |
	awk -F "\t" "{ k = \$1 \$2 \$3 \$4 \$5 } \$6 == 0 { z[k] = 1 } \$6 > 0 && !(k in z) { bad = 1 } END { exit bad }"' \
	"every delayed ls case comes after its delay-0 twin"
ok '"$lp" --fs fuse --cases "$tmp/lines" --json | cmp -s - "$tmp/full"' \
	"the case lines read back as the same cases, ids and all"
ok '[ "$("$lp" --fs nfs3 | wc -l)" = 241 ] && [ "$("$lp" --fs nfs4.2 --quick | wc -l)" = 26 ]' \
	"NFS: 241 cases in the full matrix (slices, each case once), 26 quick"
scan='select(.workload == "scan") | [.call, .sync, .mask, .object, .cache, .n, .mount_opts] | join(" ")'
ok '[ "$(jq -r "$scan" "$tmp/quick" | tr "\n" ,)" = "statx as-stat mtime,ctime,size dir expired 16 entry_timeout=1,attr_timeout=1,change_cookie,statx dont change_cookie dir expired 16 entry_timeout=1,attr_timeout=1,change_cookie,statx force change_cookie dir expired 16 entry_timeout=1,attr_timeout=1,change_cookie," ] &&
	[ "$("$lp" --fs nfs4.2 --quick --json | jq -r "$scan" | tr "\n" ,)" = "statx as-stat mtime,ctime,size dir expired 16 vers=4.2,actimeo=1,statx dont change_cookie dir expired 16 vers=4.2,actimeo=1,statx force change_cookie dir expired 16 vers=4.2,actimeo=1," ]' \
	"the scan of 16 files, expired, in its three modes: quick FUSE and NFS plans, what each mode asks for"
printf "workload=scan cache=warm\n" >"$tmp/scan-warm"
printf "workload=scan cache=expired n=1\n" >"$tmp/scan-n1"
printf "workload=scan cache=expired mask=basic\n" >"$tmp/scan-mask"
printf "workload=scan cache=expired sync=dont n=40\n" >"$tmp/scan-ok"
ok '"$lp" --fs fuse --cases "$tmp/scan-warm" 2>&1 | grep -q "workload=scan takes cache=expired" &&
	"$lp" --fs fuse --cases "$tmp/scan-n1" 2>&1 | grep -q "workload=scan takes n=2 or more" &&
	"$lp" --fs fuse --cases "$tmp/scan-mask" 2>&1 | grep -q "workload=scan takes no mask=" &&
	[ "$("$lp" --fs nfs4.2 --cases "$tmp/scan-ok" --json | jq -r "[.n, .mask, .object] | join(\" \")")" = "40 change_cookie dir" ]' \
	"scan lines: cache=expired only, n of 2 or more, no mask= (the mode sets it)"
ok '"$lp" --fs nfs4.2 --json | jq -s -e "length > 0 and all(.mount_opts | startswith(\"vers=4.2,\"))" >/dev/null &&
	[ "$("$lp" --fs nfs3 --json | jq -s "map(select(.mount_opts == \"vers=3,actimeo=1\")) | length")" -gt 100 ]' \
	"NFS: options as mounted, vers= first, actimeo=1 by default"
ok '[ "$("$lp" --fs nfs3 --json | jq -r "[.workload, .call, .form, .sync, .mask, .object, .nofollow, .cache, .n, .delay_ms, .mount_opts] | tostring" | sort | uniq -d | wc -l)" = 0 ]' \
	"NFS: no two cases share their keys (nofollow included)"
ok '[ "$("$lp" --fs fuse --match "\"n\":10000" --json | wc -l)" = "$(count "$tmp/full" ".n == 10000")" ]' \
	"--match: the cases whose keys hold the string"
# usage_error PROG ARGS...: exit status 2 and exactly one line on stderr
# that names PROG; nothing on stdout.
usage_error() {
	prog=$1
	shift
	rc=0
	"$prog" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ $rc = 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
		grep -q "^$(basename "$prog"): " "$tmp/err"
}
printf 'call=statx mask=bogus\n' >"$tmp/badmask"
ok 'usage_error "$fb" && usage_error "$fb" --kernel x' \
	"fusebench without --kernel and --cases: exit 2, one line"
ok 'usage_error "$fb" --kernel x --cases "$tmp/lines" --budget-s x &&
	usage_error "$fb" --kernel x --cases "$tmp/lines" --budget-s -5 &&
	usage_error "$fb" --kernel x --cases "$tmp/lines" --budget-s 5s' \
	"--budget-s x, -5 and 5s: exit 2 (not a budget of 0)"
ok 'usage_error "$fb" --kernel x --cases "$tmp/lines" --budget-s 99999999999' \
	"--budget-s 99999999999: exit 2, one line (no signed overflow)"
ok 'usage_error "$fb" --kernel x --cases "$tmp/lines" --budget-s &&
	usage_error "$fb" --kernel && usage_error "$fb" --bogus' \
	"fusebench: a missing value, an unknown option: exit 2, one line"
ok 'usage_error "$fb" --kernel x --cases "$tmp/none" &&
	usage_error "$fb" --kernel x --cases "$tmp/badmask"' \
	"fusebench: a missing plan, a bad mask in it: exit 2, one line"
ok 'usage_error "$lp" && usage_error "$lp" --fs && usage_error "$lp" --fs zfs &&
	usage_error "$lp" --bogus && usage_error "$lp" --fs fuse extra' \
	"labplan: no --fs, a missing value, an unknown fs or option: exit 2"
ok 'usage_error "$lp" --fs fuse --n 4294967396 && usage_error "$lp" --fs fuse --n x' \
	"--n 4294967396 (2^32 + 100) and --n x: exit 2"
ok 'usage_error "$lp" --fs fuse --cases "$tmp/none" &&
	usage_error "$lp" --fs nfs3 --cases "$tmp/badmask" &&
	grep -q "badmask:1: bad value in .mask=bogus." "$tmp/err"' \
	"labplan: a missing file, a bad mask: exit 2, one line naming it"
ok 'usage_error "$lp" --fs fuse --match bogus=1 && grep -q "no case of the fuse plan" "$tmp/err" &&
	usage_error "$lp" --fs nfs3 --cases "$tmp/lines" --match bogus=1' \
	"labplan: a --match that matches no case: exit 2, one line (not an empty plan)"
ok 'usage_error "$lp" --fs fuse --cases "$tmp" && grep -q "a folder" "$tmp/err"' \
	"labplan --cases FOLDER: exit 2, one line (not an empty plan)"
# The usage path frees what it took: the ASan/UBSan build's LeakSanitizer
# finds nothing (make -C bench SAN=1)
san=$(dirname "$BUILD")/bench-san/fusebench
if [ -x "$san" ]; then
	ok 'usage_error "$san" --bogus && usage_error "$san" &&
		usage_error "$san" --kernel x --cases "$tmp/none"' \
		"fusebench (ASan/LSan build): usage errors exit 2 with one line, no leak"
else
	skip "fusebench's ASan build missing (make -C bench SAN=1)"
fi
ok '[ "$("$lp" --fs fuse --quick --n 100 --json | jq -c "del(.id)")" = "$(jq -c "select(.n != 1000) | del(.id)" "$tmp/quick")" ]' \
	"in-range values are taken: --n 100 is the quick plan without N=1000"
exit $failed
