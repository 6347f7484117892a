# TAP helpers for bench/t/*.t (sourced, after "here" is set): a private
# $tmp that goes at exit, and "ok EXPR NAME", which evaluates EXPR
# quietly and prints one TAP line; on a failure, the first lines of
# $tmp/err follow as diagnostics. The test ends with "exit $failed".
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
n=0
failed=0

ok() {
	n=$((n + 1))
	if eval "$1" >/dev/null 2>&1; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		sed 's/^/#   /' "$tmp/err" 2>/dev/null | head -n 5
		failed=$((failed + 1))
	fi
}
