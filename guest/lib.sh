# Host-side helpers for guest tests (sourced by */t-guest/*.t, and by
# the host tests that share its temporary folder and skips). POSIX sh.
# Each test boots its own guest through guest/run; nothing is shared
# between tests, and every temporary file goes when the test ends.

lab_top=$(cd "$(dirname "$0")/../.." 2>/dev/null && pwd)
LAB_CACHE=${LAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/statx-lab}
LAB_INITRD=${LAB_INITRD:-$lab_top/build/guest/initramfs.cpio}
export LAB_INITRD
# The kernel axis, lib/kernels.list (lab_kernel_entry, lab_kernels_of).
lab_lib=$lab_top/lib
. "$lab_lib/kernels.sh"
. "$lab_lib/ext4.sh"

lab_tmp=$(mktemp -d "${TMPDIR:-/tmp}/lab-test.XXXXXX")
# A second signal must not cut the cleanup short: the handlers ignore
# further ones before they exit into the EXIT trap.
lab_busy_pids=""
lab_cleanup() {
	trap "" INT TERM HUP
	# shellcheck disable=SC2086
	# TERM: timeout passes it on to its loop (KILL would orphan the loop)
	[ -z "$lab_busy_pids" ] || kill -TERM $lab_busy_pids 2>/dev/null || true
	rm -rf -- "$lab_tmp"
}
trap lab_cleanup EXIT
trap 'trap "" INT TERM HUP; exit 130' INT
trap 'trap "" INT TERM HUP; exit 143' TERM
trap 'trap "" INT TERM HUP; exit 129' HUP

# lab_bail REASON [LOG]: stop the whole run with REASON. LOG's last 80
# lines go to stderr first: prove prints a test's stderr, but not the
# comments of a test that bailed out (without -v), and a bail-out in CI
# must say what went wrong.
lab_bail() {
	if [ -n "${2:-}" ] && [ -s "$2" ]; then
		echo "# $1: the last lines of its log:" >&2
		tail -n 80 -- "$2" | sed 's/^/#   /' >&2
	elif [ -n "${2:-}" ]; then
		echo "# $1: its log $2 is empty" >&2
	fi
	echo "Bail out! $1"
	exit 1
}

# lab_skip REASON: a TAP plan that says the whole file was skipped.
lab_skip() {
	echo "1..0 # SKIP $*"
	exit 0
}

# lab_kernel LABEL: set $kernel, $kernel_args (its extra command line,
# with a leading blank), $lab_role and $lab_kver for kernel LABEL of
# lib/kernels.list, or skip when it is not built. A label the list
# does not have is the test's error (or the list's): Bail out.
lab_kernel() {
	lab_kernel_entry "$1" ||
		lab_bail "unknown kernel '$1': not a kernel of lib/kernels.list (LABEL ROLE KVER IMAGE [ARGS...])"
	kernel=$lab_image
	kernel_args=${lab_append:+ $lab_append}
	[ -f "$kernel" ] || lab_skip "no $1 kernel at $kernel (make kernel)"
	[ -f "$LAB_INITRD" ] || lab_skip "no initramfs at $LAB_INITRD (make guest)"
}

# lab_selftest LABEL TEST [guest/run options]: run a guest selftest
# binary on kernel LABEL. LAB_KERNEL tells the test which counts to
# expect: the kernel's ROLE-KVER (stock-6.1, optin-6.12), never its
# label. $LAB_SETUP, if set, is a guest shell command run first (its
# output goes to /tmp/setup.log, shown if it fails).
lab_selftest() {
	lab_kernel "$1"
	t=$2
	shift 2
	lab_guest "$kernel" --append "$kernel_args" "$@" -- sh -c '
		if [ -n "$1" ] && ! sh -c "$1" >/tmp/setup.log 2>&1; then
			echo "Bail out! guest setup failed: $1"
			sed "s/^/# /" /tmp/setup.log
			exit 1
		fi
		exec env LAB_KERNEL="$2" "/usr/lib/lab/tests/$3"' \
		sh "${LAB_SETUP:-}" "$lab_role-$lab_kver" "$t"
}

# lab_table ROLES KVERS [LABEL]: a test over the kernel axis, whose
# expectations hold for kernels of these roles and versions. With a
# LABEL it returns, and the test goes on to run on that kernel alone.
# Without one it runs the test file once per kernel of lib/kernels.list
# of one of ROLES and one of KVERS that is also one of $LAB_KVERS when
# set (make passes its KVERS), the version in the file's name if it has
# one (NAME-KVER.t, a link to NAME.sh: fuse-6.12.t runs the 6.12
# kernels, fuse.sh those of every version) and one of the labels in
# $LAB_KERNELS when set. Their TAP becomes one stream, the plan last;
# then it exits. Why a file a version: make check runs several files at
# once, and one file of all kernels would run longer than the rest.
lab_table() {
	if [ $# -ge 3 ]; then
		lab_table_check "$@"
		return 0
	fi
	for lab_k in ${LAB_KERNELS:-}; do
		lab_kernel_entry "$lab_k" ||
			lab_bail "LAB_KERNELS: unknown kernel '$lab_k' (not in lib/kernels.list)"
	done
	lab_table_versions "$2"
	lab_ks=$(for lab_k in $(lab_kernels_of "$1" "$lab_tvs"); do
		case " ${LAB_KERNELS:-$lab_k} " in *" $lab_k "*) echo "$lab_k" ;; esac
	done)
	[ -n "$lab_ks" ] || lab_skip "no kernel of lib/kernels.list is $1" \
		"on Linux $lab_tv${LAB_KVERS+ and in LAB_KVERS=$LAB_KVERS}${LAB_KERNELS:+ and LAB_KERNELS=$LAB_KERNELS}"
	lab_tn=0
	lab_tfailed=0
	for lab_k in $lab_ks; do
		lab_table_run "$lab_k"
	done
	echo "1..$lab_tn"
	exit $((lab_tfailed > 254 ? 254 : lab_tfailed))
}

# lab_table_check ROLES KVERS LABEL: bail out unless kernel LABEL is one
# of ROLES on one of KVERS (a run by hand of a test on another kernel).
lab_table_check() {
	lab_kernel_entry "$3" ||
		lab_bail "unknown kernel '$3' (not in lib/kernels.list)"
	case " $1 " in *" $lab_role "*) ;; *)
		lab_bail "$3 is a $lab_role kernel: this test expects $1 ones" ;;
	esac
	case " $2 " in *" $lab_kver "*) ;; *)
		lab_bail "$3 runs Linux $lab_kver: this test expects $2" ;;
	esac
}

# lab_table_versions KVERS: $lab_tv, the version in this file's name
# (NAME-KVER.t) or else KVERS; $lab_tvs, those of them that are in KVERS
# and, when it is set, in $LAB_KVERS.
lab_table_versions() {
	lab_tv=$1
	case ${0##*/} in
	*-[0-9]*.[0-9]*.t) lab_tv=${0##*-}; lab_tv=${lab_tv%.t} ;;
	esac
	lab_tvs=""
	for lab_v in $lab_tv; do
		case " $1 " in *" $lab_v "*) ;; *) continue ;; esac
		case " ${LAB_KVERS-$lab_v} " in
		*" $lab_v "*) lab_tvs="$lab_tvs $lab_v" ;;
		esac
	done
}

# lab_table_run LABEL: this test file on kernel LABEL, its TAP merged
# into the table's (tapmerge.awk: each test numbered on after $lab_tn,
# the label before it); $lab_tn and $lab_tfailed count on. A Bail out
# from it ends the table too.
lab_table_run() {
	rm -f "$lab_tmp/table.count"
	{
		lab_st=0
		sh "$0" "$1" || lab_st=$?
		echo $lab_st >"$lab_tmp/table.status"
	} | LAB_K=$1 LAB_N=$lab_tn LAB_STATUS=$lab_tmp/table.status \
		LAB_COUNT=$lab_tmp/table.count awk -f "$lab_top/guest/tapmerge.awk"
	read -r lab_tn lab_f <"$lab_tmp/table.count" || lab_tn=bail
	[ "$lab_tn" != bail ] || exit 1
	lab_tfailed=$((lab_tfailed + lab_f))
}

# lab_busy N SECS: load the host with N busy loops (what a second lab
# lane does to a guest's boot), each ended after SECS at the latest and
# killed when the test ends.
lab_busy() {
	lab_i=0
	while [ "$lab_i" -lt "$1" ]; do
		# not on the test's stdout: prove waits for every writer to end
		timeout "$2" sh -c 'while :; do :; done' >/dev/null 2>&1 </dev/null &
		lab_busy_pids="$lab_busy_pids $!"
		lab_i=$((lab_i + 1))
	done
}
# lab_ext4 FILE [SIZE]: a fresh ext4 image without a journal (lib/ext4.sh)
lab_ext4() {
	lab_mkext4 "$1" "${2:-64M}" -O ^has_journal >&2 ||
		{ echo "Bail out! mke2fs failed"; exit 1; }
}

# lab_guest KERNEL [guest/run options] -- COMMAND...
lab_guest() {
	"$lab_top/guest/run" "$@"
}

# lab_procs STRING: the pids of processes (other than this shell) whose
# command line contains STRING, a fixed string (no pattern: paths may
# hold regex metacharacters). The tests' oracle for "nothing of ours is
# left running": everything a test starts carries its $lab_tmp.
lab_procs() {
	for lab_f in /proc/[0-9]*/cmdline; do
		lab_p=${lab_f#/proc/}
		lab_p=${lab_p%/cmdline}
		[ "$lab_p" != $$ ] || continue
		lab_c=$(tr '\0' ' ' 2>/dev/null <"$lab_f") || continue
		case $lab_c in *"$1"*) echo "$lab_p" ;; esac
	done
}

# lab_show_procs STRING: each process lab_procs STRING finds, with its
# state, age and command line, on stderr (prove shows stderr without
# -v): what a test that found something left says about it.
lab_show_procs() {
	for lab_p in $(lab_procs "$1"); do
		echo "#   left: $(ps -o pid=,stat=,etime= -p "$lab_p" 2>/dev/null)" \
			"$(tr '\0' ' ' 2>/dev/null <"/proc/$lab_p/cmdline")" >&2
	done
}

# lab_descendants PID: the pids of PID's children, their children...
lab_descendants() {
	for lab_d in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
		echo "$lab_d"
		lab_descendants "$lab_d"
	done
}

# lab_kill_procs STRING: SIGKILL whatever lab_procs STRING finds (a
# test's safety net after a failure: nothing of it may stay running).
lab_kill_procs() {
	# shellcheck disable=SC2046
	kill -KILL $(lab_procs "$1") 2>/dev/null || true
}

# lab_elapsed_ms T0: milliseconds since T0 (a `date +%s%N` reading).
lab_elapsed_ms() {
	echo $(( ($(date +%s%N) - $1) / 1000000 ))
}
