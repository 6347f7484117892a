# Helpers shared by bench/lab, bench/report, bench/compare and
# nfs-lab/run; POSIX sh, sourced after setting bench_here (this folder).

# The kernel axis: lib/kernels.sh, on lib/kernels.list.
lab_lib=${lab_lib:-$(dirname "$bench_here")/lib}
. "$lab_lib/kernels.sh"

# A results file is read whole: these bound what a hostile or broken
# one can cost. A full lab run writes about 1.5 MB.
results_max_bytes=16777216
results_max_kb=1048576

# results_check FILE: 0 when FILE is a results document bench/report and
# bench/compare can read (schema 1, every field they read, checked by
# results.jq); otherwise one line on stdout saying why, and 1. FILE is
# read only when it is at most 16 MiB, by a jq that may use 1 GiB: a
# file of a million empty arrays would cost it gigabytes.
results_check() {
	if [ ! -f "$1" ]; then
		echo "no such file"
		return 1
	fi
	if [ ! -s "$1" ]; then
		echo "empty file"
		return 1
	fi
	rc_size=$(wc -c <"$1")
	if [ "$rc_size" -gt $results_max_bytes ]; then
		echo "$rc_size bytes, more than a results file holds (16 MiB at most)"
		return 1
	fi
	rc_st=0
	# not exec: the subshell reports a jq killed by the bound ("Aborted")
	# into rc_why, not onto the caller's stderr
	rc_why=$( (ulimit -v $results_max_kb 2>/dev/null || :
		jq -r -s -f "$bench_here/results.jq" <"$1"
		exit $?) 2>&1) || rc_st=$?
	if [ $rc_st -gt 128 ] || { [ $rc_st != 0 ] &&
		printf '%s\n' "$rc_why" | grep -q 'allocat\|memory'; }; then
		echo "too large or too deeply nested to read in 1 GiB"
		return 1
	fi
	if [ $rc_st != 0 ]; then
		# jq's own parse error, first line only
		printf 'not valid JSON (%s)\n' "$(printf '%s\n' "$rc_why" |
			sed -n '1{s/^jq: error (at [^)]*): //;p;}' | tr -d '\000-\037')"
		return 1
	fi
	[ -z "$rc_why" ] && return 0
	printf '%s\n' "$rc_why" | head -n 1
	return 1
}

# need OPT ARGC [VALUE]: die "OPT needs a value" (exit 2) unless a value
# follows OPT (one that is not itself an option). ARGC: "$#" at OPT.
need() {
	if [ "$2" -lt 2 ]; then
		printf '%s: %s needs a value\n' "$bench_prog" "$1" >&2
		exit 2
	fi
	case $3 in
	--*) printf '%s: %s needs a value, not the option %s\n' \
		"$bench_prog" "$1" "$3" >&2
		exit 2 ;;
	esac
}
