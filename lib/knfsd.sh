# SPDX-License-Identifier: GPL-2.0
# Starting knfsd in a lab guest, the same way in every guest that serves
# NFS (busybox sh, in the guest; the nfs layer has it at
# /usr/lib/lab/knfsd.sh). Sourced: defines functions only. The caller
# sets $logdir (the daemons' logs and pids) and defines
# fail STEP [LOG]: name the failed step, show LOG, exit 1.

# knfsd_alive NAME: is the daemon started as NAME running?
knfsd_alive() {
	[ -s "$logdir/$1.pid" ] && kill -0 "$(cat "$logdir/$1.pid")" 2>/dev/null
}

# knfsd_daemon NAME CMD...: a foreground daemon in the background, its
# output in $logdir/NAME.log; fail if it is gone half a second later.
# One that already runs is left as it is.
knfsd_daemon() {
	knfsd_name=$1
	shift
	! knfsd_alive "$knfsd_name" || return 0
	"$@" >"$logdir/$knfsd_name.log" 2>&1 &
	echo $! >"$logdir/$knfsd_name.pid"
	sleep 0.5
	knfsd_alive "$knfsd_name" ||
		fail "$knfsd_name exited at start ($*)" "$logdir/$knfsd_name.log"
}

# knfsd_prepare: what nfs-utils and rpcbind expect to find
knfsd_prepare() {
	mkdir -p "$logdir" /var/lib/nfs/v4recovery /run/rpcbind
	[ -e /etc/mtab ] || ln -s /proc/mounts /etc/mtab
	# rpcbind runs as _rpc and saves its state here at exit.
	chown _rpc /run/rpcbind 2>/dev/null || true
	touch /var/lib/nfs/rmtab
}

# knfsd_rpc EXPORT_LINE MOUNTD_ARGS...: the nfsd file system, rpcbind,
# the export (one /etc/exports line) and rpc.mountd. rpc.nfsd comes
# after: the caller sets the grace or lease time first.
knfsd_rpc() {
	knfsd_export=$1
	shift
	grep -q " /proc/fs/nfsd " /proc/mounts ||
		mount -t nfsd nfsd /proc/fs/nfsd 2>"$logdir/mount-nfsd.log" ||
		fail "mount the nfsd filesystem on /proc/fs/nfsd" "$logdir/mount-nfsd.log"
	# rpcbind -f stays in the foreground; -w would want a warm-start file.
	knfsd_daemon rpcbind rpcbind -f
	knfsd_i=0
	until [ -S /run/rpcbind.sock ]; do
		knfsd_i=$((knfsd_i + 1))
		[ $knfsd_i -le 20 ] ||
			fail "rpcbind: no /run/rpcbind.sock" "$logdir/rpcbind.log"
		sleep 0.2
	done
	echo "$knfsd_export" >/etc/exports
	exportfs -ra >"$logdir/exportfs.log" 2>&1 ||
		fail "exportfs -ra" "$logdir/exportfs.log"
	grep -q "^${knfsd_export%% *}" /var/lib/nfs/etab ||
		fail "exportfs: ${knfsd_export%% *} not in /var/lib/nfs/etab" "$logdir/exportfs.log"
	knfsd_daemon rpc.mountd rpc.mountd -F "$@"
}

# knfsd_threads N RPC_NFSD_ARGS...: rpc.nfsd with N threads, unless it
# runs already; then N threads or fail
knfsd_threads() {
	knfsd_n=$1
	shift
	if [ "$(cat /proc/fs/nfsd/threads)" = 0 ]; then
		rpc.nfsd "$@" "$knfsd_n" >"$logdir/rpc.nfsd.log" 2>&1 ||
			fail "rpc.nfsd" "$logdir/rpc.nfsd.log"
	fi
	[ "$(cat /proc/fs/nfsd/threads)" = "$knfsd_n" ] ||
		fail "rpc.nfsd: $(cat /proc/fs/nfsd/threads) threads, want $knfsd_n" "$logdir/rpc.nfsd.log"
}
