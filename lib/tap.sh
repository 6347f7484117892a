# The TAP helpers of the lab's shell tests (*/t, */t-guest; nfs-lab's
# own helpers print TAP themselves). POSIX sh: busybox
# runs it in a guest as well. Source it, print the plan, then:
#
#   ok EXPR DESC      one test: EXPR (shell code, evaluated with its
#                     output discarded) passes when true
#   is GOT WANT DESC  one test: the two strings are equal
#   skip DESC         one test, skipped
#   diag FILE...      the files' lines as TAP comments
#   tap_skip_all WHY  the whole file: "1..0 # SKIP WHY", exit 0
#   exit $failed      the last line: the number of failed tests
#
# A failing test says what was false; when $TAP_DIAG names a file, its
# last 5 lines follow. The helpers always return 0, so set -e scripts
# go on after a failure.
n=0
failed=0

# tap_result STATUS DESC [DIAG]: the line of one test, STATUS 0 passing
tap_result() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
		return 0
	fi
	echo "not ok $n - $2"
	failed=$((failed + 1))
	[ -z "${3:-}" ] || printf '%s\n' "$3" | sed 's/^/#   /'
	if [ -n "${TAP_DIAG:-}" ] && [ -s "$TAP_DIAG" ]; then
		tail -n 5 "$TAP_DIAG" | sed 's/^/#   | /'
	fi
	return 0
}

ok() {
	if eval "$1" >/dev/null 2>&1; then
		tap_result 0 "$2"
	else
		tap_result 1 "$2" "false: $1"
	fi
}

is() {
	if [ "$1" = "$2" ]; then
		tap_result 0 "$3"
	else
		tap_result 1 "$3" "got '$1', want '$2'"
	fi
}

skip() {
	n=$((n + 1))
	echo "ok $n # SKIP $1"
}

diag() {
	sed 's/^/# /' "$@"
}

tap_skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}
