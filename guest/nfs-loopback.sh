#!/bin/sh
# knfsd and the NFS client in one guest, over loopback. Runs INSIDE the
# guest (busybox ash), e.g.
#
#   guest/run --disk ext4.img --file guest/nfs-loopback.sh KERNEL -- \
#       sh -c 'nfs-loopback.sh up && nfs-loopback.sh delta stat /mnt/f'
#
# usage: nfs-loopback.sh [up]          export /dev/vda, mount it on /mnt
#        nfs-loopback.sh counters      server counters, one "key value" a line
#        nfs-loopback.sh delta CMD...  run CMD, print the counters it moved
#        nfs-loopback.sh down          unmount, stop the server
#
# up: mounts /dev/vda (ext4) on /export, starts rpcbind, exports
# /export to 127.0.0.1 (rw,no_root_squash,no_subtree_check,fsid=1),
# mounts the nfsd filesystem, starts rpc.mountd and rpc.nfsd (2 threads,
# NFSv3 and v4.0/4.1/4.2; this 6.1 config has no NFSv2), then mounts
# 127.0.0.1:/export on /mnt with $NFS_OPTS (default vers=4.2,actimeo=1;
# proto=tcp and retry=0 are added, and nolock for v3: no rpc.statd). On
# failure it names the step that failed, shows that daemon's log and
# exits 1. Daemon logs: /run/nfs-lab/. Running up again after
# "umount /mnt" keeps the server and only remounts (e.g. with other
# NFS_OPTS).
#
# Counter keys come from /proc/net/rpc/nfsd: v3.<PROC> from the proc3
# line (fs/nfsd/nfs3proc.c order: NULL, GETATTR, SETATTR, ...),
# v4.NULL/v4.COMPOUND from proc4, v4op.<OP> from proc4ops, whose fields
# are indexed by NFSv4 operation number (include/linux/nfs4.h:
# ACCESS=3, GETATTR=9, LOOKUP=15, PUTFH=22, SEQUENCE=53, ...).
#
# Environment: NFS_OPTS (mount options), NFS_DISK (/dev/vda),
# NFS_EXPORT (/export), NFS_MNT (/mnt), NFS_GRACE (10: seconds of
# NFSv4 grace, the minimum; OPEN waits this long after start).
set -eu

NFS_OPTS=${NFS_OPTS:-vers=4.2,actimeo=1}
NFS_DISK=${NFS_DISK:-/dev/vda}
NFS_EXPORT=${NFS_EXPORT:-/export}
NFS_MNT=${NFS_MNT:-/mnt}
NFS_GRACE=${NFS_GRACE:-10}
logdir=/run/nfs-lab

say() { echo "nfs-loopback: $*" >&2; }

# fail STEP [LOG]: name the failed step, show its log, exit 1.
fail() {
	say "FAILED: $1"
	if [ -n "${2:-}" ] && [ -s "$2" ]; then
		say "--- $2 ---"
		tail -n 40 "$2" >&2
	fi
	if [ -s "$logdir/syslog" ]; then
		say "--- syslog ---"
		tail -n 20 "$logdir/syslog" >&2
	fi
	say "--- kernel log ---"
	dmesg | tail -n 15 >&2
	exit 1
}

. /usr/lib/lab/knfsd.sh

up() {
	knfsd_prepare
	mkdir -p "$NFS_EXPORT" "$NFS_MNT"
	# Without syslogd the daemons' complaints would be lost.
	knfsd_daemon syslogd syslogd -n -O "$logdir/syslog"

	grep -q " $NFS_EXPORT " /proc/mounts ||
		mount -t ext4 "$NFS_DISK" "$NFS_EXPORT" 2>"$logdir/mount-export.log" ||
		fail "mount $NFS_DISK on $NFS_EXPORT" "$logdir/mount-export.log"

	knfsd_rpc "$NFS_EXPORT 127.0.0.1(rw,no_root_squash,no_subtree_check,fsid=1)" \
		-V 3 -V 4
	exportfs -v >>"$logdir/exportfs.log" 2>&1 || true

	# Grace must be set before the threads start; 10 s is the minimum.
	[ "$(cat /proc/fs/nfsd/threads)" != 0 ] ||
		echo "$NFS_GRACE" >/proc/fs/nfsd/nfsv4gracetime 2>/dev/null || true
	knfsd_threads 2 -V 3 -V 4 -V 4.1 -V 4.2
	echo "versions: $(cat /proc/fs/nfsd/versions)" >>"$logdir/rpc.nfsd.log"

	opts=$NFS_OPTS
	case ,$opts, in *,proto=*) ;; *) opts=$opts,proto=tcp ;; esac
	# Fail at once rather than retry for mount.nfs's default 2 minutes.
	case ,$opts, in *,retry=*) ;; *) opts=$opts,retry=0 ;; esac
	case ,$opts, in
	*,vers=3,*|*,nfsvers=3,*)
		case ,$opts, in *,lock,*|*,nolock,*) ;; *) opts=$opts,nolock ;; esac ;;
	esac
	grep -q " $NFS_MNT nfs" /proc/mounts ||
		mount.nfs "127.0.0.1:$NFS_EXPORT" "$NFS_MNT" -o "$opts" \
			>"$logdir/mount.nfs.log" 2>&1 ||
		fail "mount.nfs 127.0.0.1:$NFS_EXPORT $NFS_MNT -o $opts" "$logdir/mount.nfs.log"
	say "up: 127.0.0.1:$NFS_EXPORT on $NFS_MNT ($opts)"
}

down() {
	umount "$NFS_MNT" 2>/dev/null || true
	rpc.nfsd 0 2>/dev/null || true
	exportfs -ua 2>/dev/null || true
	for d in rpc.mountd rpcbind syslogd; do
		if knfsd_alive "$d"; then
			kill "$(cat "$logdir/$d.pid")" 2>/dev/null || true
		fi
	done
	umount "$NFS_EXPORT" 2>/dev/null || true
}

# Server counters, "key value" per line, keys as described at the top.
counters() {
	awk '
	BEGIN {
		n = split("NULL GETATTR SETATTR LOOKUP ACCESS READLINK READ " \
			"WRITE CREATE MKDIR SYMLINK MKNOD REMOVE RMDIR RENAME " \
			"LINK READDIR READDIRPLUS FSSTAT FSINFO PATHCONF COMMIT", v3)
		n = split("ACCESS CLOSE COMMIT CREATE DELEGPURGE DELEGRETURN " \
			"GETATTR GETFH LINK LOCK LOCKT LOCKU LOOKUP LOOKUPP " \
			"NVERIFY OPEN OPENATTR OPEN_CONFIRM OPEN_DOWNGRADE PUTFH " \
			"PUTPUBFH PUTROOTFH READ READDIR READLINK REMOVE RENAME " \
			"RENEW RESTOREFH SAVEFH SECINFO SETATTR SETCLIENTID " \
			"SETCLIENTID_CONFIRM VERIFY WRITE RELEASE_LOCKOWNER " \
			"BACKCHANNEL_CTL BIND_CONN_TO_SESSION EXCHANGE_ID " \
			"CREATE_SESSION DESTROY_SESSION FREE_STATEID " \
			"GET_DIR_DELEGATION GETDEVICEINFO GETDEVICELIST " \
			"LAYOUTCOMMIT LAYOUTGET LAYOUTRETURN SECINFO_NO_NAME " \
			"SEQUENCE SET_SSV TEST_STATEID WANT_DELEGATION " \
			"DESTROY_CLIENTID RECLAIM_COMPLETE ALLOCATE COPY " \
			"COPY_NOTIFY DEALLOCATE IO_ADVISE LAYOUTERROR LAYOUTSTATS " \
			"OFFLOAD_CANCEL OFFLOAD_STATUS READ_PLUS SEEK WRITE_SAME " \
			"CLONE GETXATTR SETXATTR LISTXATTRS REMOVEXATTR", names)
		for (i = 1; i <= n; i++)
			v4[i + 2] = names[i]	# ACCESS is operation 3
	}
	$1 == "proc3" {
		for (i = 3; i <= NF; i++)
			print "v3." ((i - 2) in v3 ? v3[i - 2] : "proc" (i - 3)), $i
	}
	$1 == "proc4" { print "v4.NULL", $3; print "v4.COMPOUND", $4 }
	$1 == "proc4ops" {
		for (i = 3; i <= NF; i++)
			print "v4op." ((i - 3) in v4 ? v4[i - 3] : "op" (i - 3)), $i
	}' /proc/net/rpc/nfsd
}

# delta CMD...: the counters CMD moved, on one line ("delta: -" for
# none), after CMD's own output; returns CMD's exit status.
delta() {
	before=$(counters)
	rc=0
	"$@" || rc=$?
	after=$(counters)
	printf '%s\n' "$before" >/tmp/.nfs-lab-before
	printf '%s\n' "$after" | awk '
		NR == FNR { b[$1] = $2; next }
		$2 != b[$1] { out = out " " $1 "=" ($2 - b[$1]) }
		END { print "delta:" (out == "" ? " -" : out) }
	' /tmp/.nfs-lab-before -
	rm -f /tmp/.nfs-lab-before
	return $rc
}

cmd=${1:-up}
[ $# -eq 0 ] || shift
case $cmd in
up) up ;;
down) down ;;
counters) counters ;;
delta)
	[ $# -gt 0 ] || { say "delta: no command"; exit 2; }
	delta "$@" ;;
*) say "unknown command '$cmd' (up, down, counters, delta CMD...)"; exit 2 ;;
esac
