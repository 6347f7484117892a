# Host-side helpers of the NFS lab, sourced by nfs-lab/run and the tests
# (t/*.t, t-guest/*.t). POSIX sh. Set nl_here (this folder) before sourcing.
#
# NFS's pair is guest/pair.sh's: a server guest (knfsd, labctl) and a
# client guest (labcase) on a link of their own.

nl_top=$(dirname "$nl_here")
nl_build=${BUILD:-$nl_top/build}/nfs-lab
LAB_CACHE=${LAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/statx-lab}
LAB_INITRD=${LAB_INITRD:-$nl_top/build/guest/initramfs.cpio}
export LAB_INITRD
# The kernel list (lib/kernels.sh) and results checks, through bench's.
bench_here=$nl_top/bench
bench_prog=nfs-lab
. "$bench_here/lib.sh"
. "$nl_top/lib/proc.sh"
. "$nl_top/lib/ext4.sh"
pair_die() { nl_die "$@"; }
pair_run=$nl_top/guest/run
. "$nl_top/guest/pair.sh"

nl_log() { printf 'nfs-lab: %s\n' "$*" >&2; }
nl_die() { nl_log "error: $*"; exit 1; }
# A usage error: one line, status 2.
nl_usage() { nl_log "$* (nfs-lab/run --help)"; exit 2; }

# nl_uint NAME VALUE MIN MAX: VALUE is a decimal number in MIN..MAX.
nl_uint() {
	case $2 in
	0|[1-9]|[1-9][0-9]|[1-9][0-9][0-9]|[1-9][0-9][0-9][0-9]|\
	[1-9][0-9][0-9][0-9][0-9]|[1-9][0-9][0-9][0-9][0-9][0-9]) ;;
	*) nl_usage "$1 '$2': want a whole number from $3 to $4" ;;
	esac
	[ "$2" -ge "$3" ] && [ "$2" -le "$4" ] ||
		nl_usage "$1 '$2': want a whole number from $3 to $4"
}

# nl_kernel NAME: $nl_image and $nl_args of a kernel of the lab's list
# (lib/kernels.list, read by lib/kernels.sh's lab_kernel_entry).
nl_kernel() {
	lab_kernel_entry "$1" ||
		nl_die "unknown kernel '$1' (not in lib/kernels.list)"
	nl_image=$lab_image nl_args=$lab_append
	[ -f "$nl_image" ] || nl_die "no $1 kernel at $nl_image (make kernel)"
}

# nl_server IMAGE DISK [ENV...]: boot the server guest (knfsd, labctl)
# on a fresh link.
nl_server() {
	image=$1 disk=$2
	shift 2
	pair_server "$image" "" --with nfs --hostname nfs-server \
		--disk "$disk" --file "$nl_build/labctl:/lab/bin/labctl" \
		--file "$nl_here/server.sh:/lab/bin/server.sh" -- \
		env "$@" sh /lab/bin/server.sh && return 0
	nl_log "the server guest did not start"
	nl_show server
	return 1
}

# nl_client KERNEL_NAME "VERS...": boot the client guest (labcase); the
# cases of version V are in $nl_tmp/cases-V.
nl_client() {
	kname=$1 vers=$2
	set --
	for v in $vers; do
		set -- "$@" --file "$nl_tmp/cases-$v:/lab/cases-$v"
	done
	# shellcheck disable=SC2086
	pair_client "$nl_image" "$nl_args" --with nfs --hostname nfs-client \
		--file "$nl_build/labcase:/lab/bin/labcase" \
		--file "$nl_here/client.sh:/lab/bin/client.sh" \
		"$@" -- sh /lab/bin/client.sh "$kname" $vers
}

# nl_show NAME: the end of a guest's output and kernel log, or that
# there is none.
nl_show() {
	nl_log "--- $1 guest output (end) ---"
	grep -v '^@' "$nl_tmp/$1.out" 2>/dev/null | tail -n 25 |
		sed 's/^/  | /' >&2 || :
	[ -s "$nl_tmp/$1.out" ] || nl_log "  (no output)"
	nl_log "--- $1 kernel log (end) ---"
	tail -n 8 "$nl_tmp/$1.console" 2>/dev/null | sed 's/^/  | /' >&2 || :
	[ -s "$nl_tmp/$1.console" ] || nl_log "  (no kernel log)"
}

# nl_keep: the client's @case and @kernel lines so far, kept for the
# results whatever becomes of the pair.
nl_keep() {
	sed -n 's/^@case //p' "$nl_tmp/client.out" >>"$nl_tmp/cases.jsonl"
	sed -n 's/^@kernel //p' "$nl_tmp/client.out" >>"$nl_tmp/kernels.txt"
}

# What is new of the client's cases since the last call: a table row
# per "@case" JSON line, or with nl_stream=1 (bench/lab's lane) the
# "@case" and "@kernel" lines themselves, whole lines only.
nl_rows() {
	if [ "${nl_stream:-}" = 1 ]; then
		whole=$(wc -l <"$nl_tmp/client.out")
		n=$(head -n "$whole" "$nl_tmp/client.out" |
			grep -c '^@\(case\|kernel\) ' || true)
		[ "$n" -gt "$rows" ] || return 0
		head -n "$whole" "$nl_tmp/client.out" |
			grep '^@\(case\|kernel\) ' | sed -n "$((rows + 1)),${n}p"
		rows=$n
		return 0
	fi
	n=$(grep -c '^@case ' "$nl_tmp/client.out" || true)
	[ "$n" -gt "$rows" ] || return 0
	grep '^@case ' "$nl_tmp/client.out" | sed -n "$((rows + 1)),${n}s/^@case //p" |
		jq -r '[.kernel, .fs, .mount_opts, ([.call, .form // .sync,
			.mask // empty] | join("/")), .object // "-", .cache,
			.delay_ms, .calls, .client_calls, .retrans, .wall_us,
			(.server | to_entries | map("\(.key)=\(.value)") |
			 join(" "))] | map(tostring) | join(" ")' 2>/dev/null || true
	rows=$n
}

# nl_client_ends TENTHS: 0 when the client guest ends within TENTHS
# tenths of a second
nl_client_ends() {
	i=0
	while kill -0 "$pair_cli" 2>/dev/null; do
		[ $i -lt "$1" ] || return 1
		i=$((i + 1))
		sleep 0.1
	done
}

# nl_pair KERNEL_NAME "VERS...": run $nl_tmp/cases-VERS for each version
# on one fresh pair; the table rows go to stdout as they come, the @case
# lines to $nl_tmp/cases.jsonl, the "@kernel" ones to $nl_tmp/kernels.txt.
nl_pair() {
	pair_dir=$nl_tmp pair_timeout=$nl_timeout
	nl_kernel "$1"
	srv_image=$nl_image
	if [ -n "$nl_server_kernel" ]; then
		lab_kernel_entry "$nl_server_kernel"
		srv_image=$lab_image
	fi
	[ -f "$srv_image" ] || nl_die "no server kernel at $srv_image (make kernel)"
	lab_mkext4 "$nl_tmp/export.img" 64M >"$nl_tmp/mke2fs.log" 2>&1 ||
		{ cat "$nl_tmp/mke2fs.log" >&2; nl_die "mke2fs failed"; }
	# shellcheck disable=SC2086
	nl_server "$srv_image" "$nl_tmp/export.img" $nl_server_env || return 1
	nl_client "$1" "$2"
	rows=0
	while kill -0 "$pair_cli" 2>/dev/null; do
		nl_rows
		# The server shuts down as soon as the client's last act, its
		# "quit", reaches labctl: under host load it can be gone while
		# the client is still rebooting. Ten seconds tell the two apart.
		if ! kill -0 "$pair_srv" 2>/dev/null && ! nl_client_ends 100; then
			nl_log "the server guest ended before the client"
			nl_show server
			pair_stop
			nl_keep
			return 1
		fi
		# (short: the shell runs a signal's trap only after it)
		sleep 0.2
	done
	rc=0
	wait "$pair_cli" || rc=$?
	nl_rows
	if [ $rc != 0 ]; then
		nl_log "the client guest failed (status $rc)"
		nl_show client
		pair_stop
		nl_keep
		return 1
	fi
	# The client told labctl to quit: the server shuts down by itself.
	i=0
	while kill -0 "$pair_srv" 2>/dev/null && [ $i -lt 300 ]; do
		i=$((i + 1))
		sleep 0.1
	done
	pair_stop
	nl_keep
}

# --- for the tests (after guest/lib.sh: $lab_tmp, lab_skip, lab_kernel) ---

# nl_t_run PLAN [nfs-lab/run options]: run the cases on stdin on a fresh
# pair, then print the TAP plan and the table as diagnostics; Bail out
# if the run fails. Results: $lab_tmp/out.json.
nl_t_run() {
	plan=$1
	shift
	# the versions asked for (nfs-lab/run's default: 4.2)
	nvers=0
	for a; do [ "$a" != --vers ] || nvers=$((nvers + 1)); done
	[ $nvers -gt 0 ] || nvers=1
	cat >"$lab_tmp/cases"
	nl_st=0
	TMPDIR=$lab_tmp "$nl_here/run" --cases "$lab_tmp/cases" \
		--out "$lab_tmp/out.json" --timeout 300 "$@" \
		>"$lab_tmp/run.log" 2>&1 || nl_st=$?
	# the reason in the Bail out line itself: prove -j shows only that
	[ $nl_st = 0 ] || lab_bail "nfs-lab/run $* failed (status $nl_st: $(grep -v '^ *|' "$lab_tmp/run.log" | tail -n 1))" "$lab_tmp/run.log"
	echo "1..$plan"
	sed 's/^/# /' "$lab_tmp/run.log"
	# Every scalar of every case, one "FS ID PATH VALUE" line each: one
	# jq for the whole file instead of one per assertion (30 ms each).
	jq -r '.cases[] | . as $c |
		paths(type != "object" and type != "array") as $p |
		[$c.fs, $c.id, "." + ($p | map(tostring) | join(".")),
		 ($c | getpath($p) | if . == null then 0 else . end |
		  tostring | gsub("[\t\n]"; " "))] |
		@tsv' \
		"$lab_tmp/out.json" >"$lab_tmp/fields"
	# Every version asked for reported every case line: a case the
	# guest never reported must not read as a run of zeros.
	want=$(grep -cEv '^[[:space:]]*(#|$)' "$lab_tmp/cases") || want=0
	if [ "$(jq --argjson n "$want" --argjson v "$nvers" '[.cases[].fs] |
		group_by(.) | length == $v and all(length == $n)' \
		"$lab_tmp/out.json")" != true ]; then
		got=$(jq -r '[.cases[].fs] | group_by(.) |
			map("\(.[0]) \(length)") | join(", ")' "$lab_tmp/out.json")
		echo "Bail out! nfs-lab/run reported ${got:-no} cases, not $want for each of $nvers versions"
		exit 1
	fi
	nl_t_n=0
	nl_t_failed=0
}

# nl_t_field ID FIELD: the FIELD (a path: .calls, .server.LOOKUP) of case
# ID of file system $nl_t_fs (nfs3, nfs4.2) in $lab_tmp/out.json; a
# missing counter of a reported case reads 0, a case not reported "no
# case" (so that an expected 0 does not pass for a case that never ran).
nl_t_field() {
	awk -F '\t' -v fs="$nl_t_fs" -v id="$1" -v f="$2" \
		'$1 == fs && $2 == id { seen = 1 }
		 $1 == fs && $2 == id && $3 == f { print $4; found = 1 }
		 END { if (!found) print seen ? 0 : "no case" }' "$lab_tmp/fields"
}

# nl_t_is ID FIELD "STOCK [PATCHED [OPTIN]]" DESCRIPTION: one TAP test,
# expecting the value given for the role of the kernel run ($nl_t_role,
# its ROLE in lib/kernels.list: stock, patched or optin).
nl_t_is() {
	# shellcheck disable=SC2086
	set -- "$1" "$2" "$(nl_t_pick "$nl_t_role" $3)" "$4"
	got=$(nl_t_field "$1" "$2")
	nl_t_n=$((nl_t_n + 1))
	if [ "$got" = "$3" ]; then
		echo "ok $nl_t_n - $nl_t_fs: $4"
	else
		echo "not ok $nl_t_n - $nl_t_fs: $4"
		echo "#   $nl_t_fs case $1, $2: got '$got', want '$3'"
		nl_t_failed=1
	fi
}

# nl_t_pick ROLE STOCK [PATCHED [OPTIN]]: the value for ROLE; one value
# holds for the roles after it too.
nl_t_pick() {
	case $1 in
	stock) echo "$2" ;;
	patched) echo "${3:-$2}" ;;
	optin) echo "${4:-${3:-$2}}" ;;
	*) echo "no expectation for the role '$1'" ;;
	esac
}

# nl_t_ok COND DESCRIPTION [DIAGNOSTIC]: a TAP test from a shell
# condition's status; on failure DIAGNOSTIC (a command) shows why. It
# returns 0 either way: the tests run under set -e and go on.
nl_t_ok() {
	nl_t_n=$((nl_t_n + 1))
	if eval "$1"; then
		echo "ok $nl_t_n - $2"
	else
		echo "not ok $nl_t_n - $2"
		echo "#   false: $1"
		[ -z "${3-}" ] || eval "$3" || :
		nl_t_failed=1
	fi
}

# No QEMU (nor guest/run) of this test left: all of ours have $lab_tmp
# on their command line. Others' guests may run on the machine meanwhile,
# so a global "pgrep -f qemu-system" count is only a diagnostic.
nl_t_no_guests() {
	[ -z "$(lab_procs "$lab_tmp/")" ]
}
