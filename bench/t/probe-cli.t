#!/bin/sh
# End-to-end tests of the statx-probe binary against files on the host.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
BUILD=${BENCH_OUT:-${BUILD:-$here/../../build}/bench}
probe=$BUILD/statx-probe

if [ ! -x "$probe" ]; then
	echo "1..0 # SKIP statx-probe not built (make -C bench)"
	exit 0
fi

. "$here/lib.sh"

# check DESCRIPTION COMMAND...: one test, passing when COMMAND succeeds;
# a failure shows the probe's output, stderr and exit status.
check()
{
	desc=$1
	shift
	if "$@"; then
		tap_result 0 "$desc"
	else
		tap_result 1 "$desc" "$(sed 's/^/stdout: /' "$tmp/out"
			echo "exit status: $rc")"
	fi
}

# run ARGS...: run the probe, keep stdout, stderr and exit status.
rc=0
run()
{
	rc=0
	"$probe" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
}

status_is() { [ "$rc" -eq "$1" ]; }
out_is() { [ "$(cat "$tmp/out")" = "$1" ]; }
err_is() { [ "$(cat "$tmp/err")" = "$1" ]; }
err_first_is() { [ "$(head -n 1 "$tmp/err")" = "$1" ]; }
out_has() { grep -qF -- "$1" "$tmp/out"; }
out_empty() { [ ! -s "$tmp/out" ]; }
err_empty() { [ ! -s "$tmp/err" ]; }
json() { jq -r "$1" "$tmp/out"; }
json_is() { [ "$(json "$1")" = "$2" ]; }
json_true() { jq -e "$1" "$tmp/out" >/dev/null; }
one_json_line() { [ "$(wc -l <"$tmp/out")" -eq 1 ] && json_true 'type == "object"'; }

file=$tmp/file
head -c 1234 /dev/zero >"$file"
mkdir "$tmp/dir"
ln -s file "$tmp/link"
ln -s nowhere "$tmp/dangling"
mkfifo "$tmp/fifo"
touch -d '1999-02-11 17:08:29.031795451 UTC' "$tmp/dated"
odd=$(printf '%s/q"b\\s\tt' "$tmp")
: >"$odd"
long=$(head -c 5000 /dev/zero | tr '\0' a)
missing=$tmp/missing
export odd missing	# for jq's $ENV

# --- text output ------------------------------------------------------
run "$file"
check "regular file: exit 0" status_is 0
check "text: first line is statx(PATH) = 0" \
	[ "$(head -n 1 "$tmp/out")" = "statx($file) = 0" ]
check "text: results line reports at least the basic stats" \
	[ $(( 0x$(sed -n 's/^results=//p' "$tmp/out") & 0x7ff )) -eq $((0x7ff)) ]
check "text: size and type" out_has "Size: 1234 "
check "text: type named like test-statx" out_has "    regular file"
check "text: nothing on stderr" err_empty

run "$tmp/dated"
check "text: mtime in UTC with nanoseconds" \
	out_has "Modify: 1999-02-11 17:08:29.031795451+0000"

# --- JSON output ------------------------------------------------------
run --json "$file"
check "json: exit 0, exactly one line holding one object" one_json_line
check "json: call, path, request_mask, sync, flags echoed" \
	json_is '[.call, .path, .request_mask, .sync, .flags] | join(" ")' \
	"statx $file 0x7ff as-stat 0x0"
check "json: type regular, size 1234, mode 0644-ish string" \
	json_true '.type == "regular" and .size == 1234 and
		   (.mode | test("^0[0-7]{3}$"))'
check "json: unconditional keys present" \
	json_true 'has("blksize") and has("dev") and has("rdev") and
		   has("attributes") and has("attributes_mask")'
check "json: ino and mtime agree with stat(1)" \
	json_is '"\(.ino) \(.mtime[0:19])"' \
	"$(stat -c %i "$file") $(date -u -r "$file" +%Y-%m-%dT%H:%M:%S)"

run --json "$tmp/dated"
check "json: mtime rendered as ISO 8601 UTC" \
	json_is .mtime "1999-02-11T17:08:29.031795451Z"

head -c 777 /dev/zero >>"$file"
run --json "$file"
check "json: size follows a write of 777 more bytes" json_is .size 2011

run --json "$tmp/dir"
check "json: directory type" json_is .type directory

run --json "$tmp/fifo"
check "json: fifo type" json_is .type fifo

if [ -c /dev/null ]; then
	run --json /dev/null
	check "json: /dev/null is chardev 1:3" \
		json_is '"\(.type) \(.rdev)"' "chardev 1:3"
else
	skip "no /dev/null character device"
fi

run --json "$tmp/link"
check "json: symlink followed by default" json_is .type regular
run --json --nofollow "$tmp/link"
check "json: --nofollow sees the link, size = target length" \
	json_is '"\(.type) \(.size) \(.flags)"' "symlink 4 0x100"
run --json --nofollow "$tmp/dangling"
check "json: --nofollow on a dangling link succeeds" json_is .type symlink

run --json --mask type,ino "$file"
check "json: --mask type,ino requested as 0x101" json_is .request_mask 0x101
check "json: result_mask has at least type and ino" \
	[ $(( $(json .result_mask) & 0x101 )) -eq $((0x101)) ]

run --json --mask basic,btime "$file"
check "json: btime key present exactly when STATX_BTIME returned" \
	[ "$(json 'has("btime")')" = \
	  "$([ $(( $(json .result_mask) & 0x800 )) -ne 0 ] && echo true || echo false)" ]

run --json "$odd"
check "json: odd file name escaped and round-trips through jq" \
	json_true '.path == $ENV.odd'

# --- the change cookie (STATX_CHANGE_COOKIE, patched 6.12 kernels) ----
# The host's kernel may or may not report it: either its value, or "not
# reported", never both, never silence when it was asked for.
run --mask size,change_cookie "$file"
check "text: --mask change_cookie prints a Change cookie line" \
	eval '[ "$(grep -c "^Change cookie: \(0x[0-9a-f]*\( (monotonic)\)\{0,1\}\|not reported\)$" "$tmp/out")" = 1 ]'
run --json --mask size,change_cookie "$file"
check "json: request_mask has 0x40000000; change_cookie a hex string or \"not reported\"" \
	json_true '.request_mask == "0x40000200" and
		   ((.change_cookie == "not reported" and
		     (.result_mask | ltrimstr("0x") | explode | length < 8)) or
		    ((.change_cookie | test("^0x[0-9a-f]+$")) and
		     (.change_monotonic | type) == "boolean"))'
run --json "$file"
check "json: no change_cookie key unless asked for or reported" \
	json_true 'has("change_cookie") | not'
run --mask cookie "$file"
check "--mask cookie: unknown field, exit 2" \
	eval 'status_is 2 && err_is "statx-probe: unknown mask field '"'cookie'"'"'

# --- the other calls --------------------------------------------------
fields='"\(.ino) \(.size) \(.mode) \(.type)"'
run --json "$file"
via_statx=$(json "$fields")
for call in stat lstat fstat fstatat; do
	run --json --call "$call" "$file"
	check "--call $call agrees with statx on ino/size/mode/type" \
		json_is "$fields" "$via_statx"
done
run --json --call stat "$file"
check "--call stat reports call, basic mask and no btime" \
	json_true '.call == "stat" and .request_mask == "0x7ff" and
		   .result_mask == "0x7ff" and (has("btime") | not)'

run --json --call lstat "$tmp/link"
check "--call lstat sees the symlink" json_is .type symlink
run --json --call stat "$tmp/link"
check "--call stat follows the symlink" json_is .type regular
run --json --call fstatat --nofollow "$tmp/link"
check "--call fstatat --nofollow sees the symlink" json_is .type symlink

run --json --empty-path "$file"
check "--empty-path: same inode, AT_EMPTY_PATH in flags" \
	json_is '"\(.ino) \(.flags)"' "$(stat -c %i "$file") 0x1000"
run --json --empty-path --nofollow "$tmp/link"
check "--empty-path --nofollow opens the link itself" \
	json_is .type symlink

run --json --sync force "$file"
check "--sync force passes AT_STATX_FORCE_SYNC" \
	json_is '"\(.sync) \(.flags)"' "force 0x2000"
run --json --sync dont --no-automount "$file"
check "--sync dont --no-automount passes 0x4800" \
	json_is '"\(.sync) \(.flags)"' "dont 0x4800"

# --- failing calls: exit 1, errno by name; no such PATH: exit 2 --------
run "$missing"
check "missing file: exit 2 (bad input)" status_is 2
check "missing file: errno named on stderr" \
	err_is "statx-probe: statx($missing): ENOENT (No such file or directory)"
check "missing file: nothing on stdout" out_empty

run --json "$missing"
check "missing file --json: exit 2 and error object" status_is 2
check "missing file --json: exact error object" \
	json_true '. == {"call":"statx","path":$ENV.missing,
			 "error":"ENOENT","errno":2}'

run "$file/sub"
check "path through a file: ENOTDIR, exit 1" \
	eval 'status_is 1 && err_first_is "statx-probe: statx($file/sub): ENOTDIR (Not a directory)"'

run "$tmp/$long"
check "5000-character path: ENAMETOOLONG, exit 1" \
	eval 'status_is 1 && grep -q ": ENAMETOOLONG (" "$tmp/err"'

run --call fstat "$missing"
check "--call fstat on a missing file: open() fails with ENOENT, exit 2" \
	eval 'status_is 2 && err_is "statx-probe: open($missing): ENOENT (No such file or directory)"'

run --call stat "$tmp/dangling"
check "--call stat on a dangling link: ENOENT, exit 2" \
	eval 'status_is 2 && grep -qF "stat($tmp/dangling): ENOENT" "$tmp/err"'

run --flags 0x6000 "$file"
check "--flags 0x6000 (FORCE|DONT): EINVAL, exit 1" \
	eval 'status_is 1 && err_is "statx-probe: statx($file): EINVAL (Invalid argument)"'

run --json --flags 1 "$file"
check "--flags with an unknown bit: EINVAL in JSON" \
	eval 'status_is 1 && json_is .error EINVAL && json_is .errno 22'

run --mask 0x80000000 "$file"
check "--mask STATX__RESERVED: EINVAL, exit 1" \
	eval 'status_is 1 && grep -q ": EINVAL (" "$tmp/err"'

# --- usage errors: exit 2 ---------------------------------------------
run --bogus "$file"
check "unknown option: exit 2" status_is 2
check "unknown option: named on stderr, in one line" \
	err_is "statx-probe: unknown option '--bogus'"
check "unknown option: nothing on stdout" out_empty

run --mask sise "$file"
check "unknown mask field: exit 2 and named" \
	eval 'status_is 2 && err_first_is "statx-probe: unknown mask field '"'sise'"'"'

run
check "missing PATH: exit 2" \
	eval 'status_is 2 && err_first_is "statx-probe: missing PATH"'

run "$file" "$tmp/dir"
check "extra PATH: exit 2" \
	eval 'status_is 2 && err_first_is "statx-probe: unexpected extra argument '"'$tmp/dir'"'"'

run --repeat 0 "$file"
check "--repeat 0: exit 2" status_is 2

run --call stat --mask type "$file"
check "--mask with --call stat: exit 2" status_is 2

run --sync sometimes "$file"
check "bad --sync value: exit 2" status_is 2

# --- help, quiet, repeat ----------------------------------------------
run --help
check "--help: exit 0, usage on stdout, nothing on stderr" \
	eval 'status_is 0 && err_empty && out_has "Usage: statx-probe [OPTIONS] PATH"'

run --quiet "$file"
check "--quiet: exit 0 and silent" \
	eval 'status_is 0 && out_empty && err_empty'
run --quiet "$missing"
check "--quiet failure: exit 2, message still on stderr" \
	eval 'status_is 2 && out_empty && grep -q ENOENT "$tmp/err"'

run --repeat 200 "$file"
check "--repeat 200: one result printed" \
	eval 'status_is 0 && [ "$(grep -c "^statx(" "$tmp/out")" -eq 1 ]'

echo "1..$n"
[ "$failed" -eq 0 ]
