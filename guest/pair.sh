# SPDX-License-Identifier: GPL-2.0
# A guest pair, for every file system whose lab needs two guests (NFS:
# nfs-lab/lib.sh): a server guest and a client guest on a QEMU link of
# their own, a Unix stream socket the server's QEMU listens on, in a
# directory only this user can enter (0700), so no other local user can
# join or watch the lab network. Both QEMUs write a -pidfile, and their
# guest/run wrappers are the caller's children: pair_stop stops exactly
# them. POSIX sh, sourced after lib/proc.sh. The caller sets $pair_run
# (guest/run's path), $pair_dir (a folder of its own: the guests'
# output, logs and pidfiles go there as server.* and client.*) and
# $pair_timeout (seconds, per guest), and may define pair_die (default:
# a message and exit 1).
# The guests' output: $pair_dir/NAME.out; kernel log: NAME.console.

pair_dir="" pair_timeout=""
pair_srv=""
pair_cli=""
pair_link=""
pair_linkdir=""
pair_linkdir_own=""

command -v pair_die >/dev/null 2>&1 ||
	pair_die() { echo "pair: error: $*" >&2; exit 1; }

# QEMU option values double a comma.
pair_qemu_str() { printf '%s\n' "$1" | sed 's/,/,,/g'; }

# The link: $pair_link, a socket path in a fresh 0700 directory. A
# socket path holds at most 107 bytes: when $pair_dir is too long for
# it, the directory is made under /tmp instead.
pair_link_dir() {
	pair_linkdir=$pair_dir/link
	if [ ${#pair_linkdir} -gt 90 ]; then
		pair_linkdir=$(mktemp -d /tmp/lab-link.XXXXXX) ||
			pair_die "cannot make a directory for the pair's link"
		pair_linkdir_own=$pair_linkdir
	else
		mkdir -m 0700 "$pair_linkdir"
	fi
	chmod 0700 "$pair_linkdir"
	pair_link=$pair_linkdir/link
}

# pair_qemu_pid NAME: the pid of the pair's QEMU NAME (server, client),
# only if that process's command line names our pidfile.
pair_qemu_pid() {
	[ -n "$pair_dir" ] || return 1
	f=$pair_dir/$1.pid
	[ -s "$f" ] || return 1
	p=$(cat "$f" 2>/dev/null) || return 1
	tr "\\0" " " 2>/dev/null <"/proc/$p/cmdline" | grep -qF -- "$f" || return 1
	echo "$p"
}

# pair_guest NAME IMAGE ARGS NETDEV [guest/run options] -- CMD...:
# guest/run in the background. NETDEV: the -netdev stream options after
# the link's path. Every file goes in with an explicit guest path.
pair_guest() {
	name=$1 image=$2 args=$3 netdev=$4
	shift 4
	: >"$pair_dir/$name.out"
	# (guest/run's own temporary files go in $pair_dir too)
	TMPDIR=$pair_dir "$pair_run" --timeout "$pair_timeout" \
		--append "$args" --console "$pair_dir/$name.console" \
		--qemu-arg -pidfile --qemu-arg "$pair_dir/$name.pid" \
		--qemu-arg -netdev \
		--qemu-arg "stream,id=n0,addr.type=unix,addr.path=$(pair_qemu_str "$pair_link"),$netdev" \
		--qemu-arg -device --qemu-arg "virtio-net-pci,netdev=n0,mac=52:54:00:00:00:0$([ "$name" = server ] && echo 1 || echo 2)" \
		"$image" "$@" >>"$pair_dir/$name.out" 2>&1 &
}

# Wait until the server's QEMU listens on $pair_link: 0, or 1 if it
# ended. Only our QEMU can have made a socket in the 0700 directory.
pair_wait_listen() {
	i=0
	while kill -0 "$pair_srv" 2>/dev/null && [ $i -lt 600 ]; do
		[ ! -S "$pair_link" ] || return 0
		i=$((i + 1))
		sleep 0.1
	done
	return 1
}

# pair_server IMAGE ARGS [guest/run options] -- CMD...: the server guest
# on a fresh link; 0 once it listens, 1 if it ended first.
pair_server() {
	image=$1 args=$2
	shift 2
	pair_link_dir
	rm -f "$pair_dir/server.pid"
	pair_guest server "$image" "$args" "server=on" "$@"
	pair_srv=$!
	pair_wait_listen
}

# pair_client IMAGE ARGS [guest/run options] -- CMD...: the client guest.
pair_client() {
	image=$1 args=$2
	shift 2
	pair_guest client "$image" "$args" "server=off" "$@"
	pair_cli=$!
}

# Stop both guests: their guest/run wrappers on TERM kill their QEMU and
# clean up; the QEMUs, found by pidfile, are killed too. Returns once
# the wrappers are gone (at most 5 s, then SIGKILL), the link removed.
pair_stop() {
	for g in server client; do
		p=$(pair_qemu_pid $g) && kill -9 "$p" 2>/dev/null
	done
	# shellcheck disable=SC2086
	lab_stop 5000 $pair_srv $pair_cli
	pair_srv="" pair_cli=""
	if [ -n "$pair_linkdir_own" ]; then
		rm -rf -- "$pair_linkdir_own"
		pair_linkdir_own=""
	elif [ -n "$pair_linkdir" ]; then
		rm -rf -- "$pair_linkdir"
	fi
	pair_linkdir=""
}
