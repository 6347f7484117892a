# The daemon under load and at its edges: worker threads with an emulated
# latency keep the counts exact, readdirplus=on/off changes what ls costs,
# a foreground daemon is reachable once mounted, SIGTERM unmounts.
echo 1..13
i=0
while [ $i -lt 20 ]; do
	echo $i >$B/f$i
	i=$((i + 1))
done

fc_mount threads=4,delay_us=2000,attr_timeout=0,entry_timeout=0
fc_reset
for p in 1 2 3 4; do
	(for f in $B/f*; do stat $M/${f##*/} >/dev/null || exit 1; done) &
done
ok 'wait' 'four parallel stat loops succeed against 4 workers'
is "$(fc_sum)" "$(fc_count total)" 'counts add up under threads'
ok '[ "$(fc_count LOOKUP)" -ge 20 ]' 'every file looked up'
umount $M
ok 'fc_gone' 'all workers stop at umount'

fc_mount readdirplus=off
fc_reset
ls -l $M >/dev/null
is "$(fc_count READDIRPLUS)" 0 'readdirplus=off: no READDIRPLUS'
ok '[ "$(fc_count LOOKUP)" -ge 20 ]' 'readdirplus=off: a LOOKUP per entry'
umount $M
fc_gone

fc_mount readdirplus=on
fc_reset
ls -l $M >/dev/null
ok '[ "$(fc_count READDIRPLUS)" -ge 1 ] && [ "$(fc_count READDIR)" = 0 ]' \
	'readdirplus=on: READDIRPLUS only'
umount $M
fc_gone

# fg_term THREADS: a foreground daemon, reachable once mounted, and SIGTERM
fg_term() {
	fusecount -f -o ctl=$C,threads=$1 $B $M 2>/tmp/fg.log &
	pid=$!
	i=0
	while [ $i -lt 50 ] && ! fusecount-ctl $C stats >/dev/null 2>&1; do
		sleep 0.1
		i=$((i + 1))
	done
	ok 'mounted' "foreground, $1 thread(s): mounted once the socket answers"
	kill -TERM $pid
	wait $pid
	is "$?" 0 "SIGTERM, $1 thread(s): exit 0"
	ok 'fc_gone && ! mounted' "SIGTERM, $1 thread(s): unmounted, socket removed"
}
fg_term 1
fg_term 4
fc_done
