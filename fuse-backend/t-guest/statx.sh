# What stat() and statx() cost through fusecount on $LAB_KERNEL: the
# patched kernel sends FUSE_STATX, which fusecount answers itself (libfuse
# 3.14 cannot); the stock one sends FUSE_GETATTR.  Counts are exact and
# the backing directory's changes show through.
echo 1..12
echo hello >$B/x
fc_mount attr_timeout=0,entry_timeout=0
ok '[ -S $C ] && mounted' 'mounted; the control socket answers'

fc_reset
stat $M/x >/dev/null
is "$(fc_count LOOKUP)" 1 'stat: one LOOKUP'
if [ "$LAB_KERNEL" = stock ]; then
	is "$(fc_count GETATTR)/$(fc_count STATX)" 1/0 'stat: GETATTR, no STATX'
else
	is "$(fc_count STATX)/$(fc_count GETATTR)" 1/0 'stat: STATX, no GETATTR'
fi
is "$(fc_sum)" "$(fc_count total)" 'opcode counts add up to the total'

# On an O_PATH fd: by name, the walk's LOOKUP would answer FORCE_SYNC.
fc_reset
statx-probe --empty-path --sync force --mask basic,btime $M/x >/tmp/probe
if [ "$LAB_KERNEL" = stock ]; then
	is "$(fc_count STATX)" 0 'forced statx: no STATX on stock'
	ok '! grep -q Birth /tmp/probe' 'no btime through FUSE on stock'
	ok 'true' '# SKIP no FUSE_STATX on stock'
else
	is "$(fc_count STATX)" 1 'forced statx: one STATX'
	ok 'grep -q Birth /tmp/probe' 'btime comes back through FUSE_STATX'
	ok 'fc_stats | grep -q "\"force\":1"' 'the sync mode is counted'
fi
fusecount-ctl $C dump >/tmp/dump
ok 'tail -n 1 /tmp/dump | grep -qx end' 'dump ends with end'
if [ "$LAB_KERNEL" = stock ]; then
	ok 'true' '# SKIP no FUSE_STATX on stock'
else
	ok 'grep "\"op\":\"STATX\"" /tmp/dump | grep -q "\"sx_flags\":\"0x2000\""' \
		'the trace has the STATX with its flags'
fi

echo more >>$B/x
is "$(stat -c %s $M/x)" 11 'a change to the backing file shows through'

umount $M
ok 'fc_gone' 'after umount the daemon exits and removes its socket'
ok '! mounted' 'nothing left mounted'
fc_done
