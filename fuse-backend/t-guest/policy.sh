# fusecount's own policies in a guest on $LAB_KERNEL, with the real
# device and kernel: the control socket is root's alone; -o deny_uid
# answers one caller's LOOKUPs with EACCES (allow_other lets that caller
# in at all); -o statx_drop takes fields out of FUSE_STATX replies, which
# only the patched kernel sends.
echo 1..10
echo hello >$B/x
fc_mount attr_timeout=0,entry_timeout=0,allow_other,deny_uid=65534
ok '[ "$(stat -c %a $C)" = 600 ] && [ "$(stat -c %a ${C%/*})" = 700 ]' \
	'the control socket is 0600, in a directory made 0700'
su -s /bin/sh nobody -c "fusecount-ctl $C stats" >/tmp/nobody 2>&1
is "$?/$(grep -c 'Permission denied' /tmp/nobody)" 1/1 \
	'uid 65534 cannot use the control socket'

fc_reset
su -s /bin/sh nobody -c "stat $M/x" >/tmp/nobody 2>&1
is "$?/$(grep -c 'Permission denied' /tmp/nobody)" 1/1 \
	'deny_uid=65534: stat as uid 65534 fails with EACCES'
ok "stat $M/x" '... as root it succeeds'
fusecount-ctl $C dump >/tmp/dump
ok 'grep "\"op\":\"LOOKUP\"" /tmp/dump | grep -q "\"error\":-13"' \
	'the trace has the LOOKUP answered -EACCES'
ok '[ "$(fc_count LOOKUP)" -ge 2 ]' 'denied LOOKUPs are counted too'
umount $M
ok 'fc_gone && ! [ -e ${C%/*} ]' 'at exit the socket and its directory go'

fc_mount attr_timeout=0,statx_drop=0x800
fc_reset
statx-probe --sync force --mask basic,btime $M/x >/tmp/probe
if [ "$LAB_KERNEL" = stock ]; then
	ok 'true' '# SKIP no FUSE_STATX on stock'
	ok 'true' '# SKIP no FUSE_STATX on stock'
else
	is "$(fc_count STATX)" 1 'statx_drop=0x800: one STATX'
	ok '! grep -q Birth /tmp/probe && grep -q Size /tmp/probe' \
		'... and no btime comes back, the size does'
fi
ok 'stat $M/x >/dev/null' 'stat still works'
umount $M
fc_gone
fc_done
