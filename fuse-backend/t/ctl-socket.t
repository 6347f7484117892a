#!/bin/sh
# The control socket is private and serves every client at once: with the
# daemon's umask 0 the socket is still 0600, in a directory made 0700;
# idle clients and a half-sent line delay nobody; a line with a NUL or
# over the limit gets an error and the connection goes on; fusecount-ctl
# refuses a newline in an argument, so that no argument can smuggle in a
# second command.  Served by ctl_test --serve (the ctl thread with
# made-up counters, total 5).
set -eu
. "$(dirname "$0")/lib.sh"
need_bin fusecount-ctl ctl_test

TMP=$(mktemp -d)
srv=
cleanup() {
	[ -z "$srv" ] || kill "$srv" 2>/dev/null || true
	rm -rf "$TMP"
}
trap cleanup EXIT
CTL="$BUILD/fusecount-ctl"

# serve SOCKET: start a server there (umask 0, as fusecount runs), and
# wait until it answers
serve() {
	(umask 0 && exec "$BUILD/ctl_test" --serve "$1") &
	srv=$!
	i=0
	while [ $i -lt 50 ] && ! "$CTL" "$1" stats >/dev/null 2>&1; do
		sleep 0.1
		i=$((i + 1))
	done
}

unserve() {
	kill "$srv" 2>/dev/null || true
	wait "$srv" || true
	srv=
}

mode() {
	stat -c %a "$1" 2>/dev/null || echo none
}

# talk NAME: send a canned payload on one connection, print the first
# two lines that come back (5 s at most)
talk() {
	timeout 10 perl -MIO::Socket::UNIX -e '
		my %say = (
			nul  => "st\0ats\nstats\n",
			long => ("x" x 300) . "\nstats\n",
		);
		my $c = IO::Socket::UNIX->new(Peer => $ARGV[0]) or die "$!\n";
		$c->syswrite($say{$ARGV[1]});
		local $SIG{ALRM} = sub { exit 1 };
		alarm 5;
		print scalar <$c> for 1 .. 2;
	' "$S" "$1"
}

# idle: hold 3 silent connections and one with half a line, and time
# "fusecount-ctl stats" meanwhile: prints "SECONDS STATUS REPLY"
idle() {
	timeout 30 perl -MIO::Socket::UNIX -MTime::HiRes=time -e '
		my ($s, $ctl) = @ARGV;
		my @c = map { IO::Socket::UNIX->new(Peer => $s) or die "$!\n" }
			1 .. 4;
		$c[3]->syswrite("sta");
		select(undef, undef, undef, 0.2);
		my $t = time;
		my $out = `$ctl $s stats 2>&1`;
		printf "%.3f %d %s", time - $t, $? >> 8, $out;
	' "$S" "$CTL"
}

echo 1..11
S=$TMP/sub/ctl
serve "$S"
ok '[ -S "$S" ] && [ "$(mode "$S")" = 600 ]' \
	"umask 0: the socket is mode 0600 ($(mode "$S"))"
ok '[ "$(mode "$TMP/sub")" = 700 ]' \
	"its directory, made by the server, is 0700 ($(mode "$TMP/sub"))"
unserve
ok '[ ! -e "$S" ] && [ ! -e "$TMP/sub" ]' \
	'SIGTERM: the socket file and the directory made for it go'

# The rest in the private directory mktemp made
S=$TMP/ctl
serve "$S"
ok '[ "$(mode "$S")" = 600 ]' \
	"umask 0, a directory that exists: the socket is 0600 too ($(mode "$S"))"
idle >"$TMP/idle" || true
read -r secs status reply <"$TMP/idle" || true
secs=${secs:-99} status=${status:-1} reply=${reply:-}
ok '[ "$status" -eq 0 ] && [ "${reply#\{}" != "$reply" ] &&
	awk -v s="$secs" "BEGIN { exit !(s < 1) }"' \
	"3 idle clients and a half line: stats answered in $secs s (< 1 s)"
[ "$status" -eq 0 ] || diag "$TMP/idle"

talk nul >"$TMP/out" || true
ok 'head -n 1 "$TMP/out" | grep -q "^error: invalid byte" &&
	sed -n 2p "$TMP/out" | grep -q "^{"' \
	'a line with a NUL: error, and the next line on the same connection is served'
talk long >"$TMP/out" || true
ok 'head -n 1 "$TMP/out" | grep -qx "error: line too long" &&
	sed -n 2p "$TMP/out" | grep -q "^{"' \
	'a line over 256 bytes: error, and the connection goes on'

nl='
'
run "$TMP/out" "$TMP/err" $VALGRIND "$CTL" "$S" "stats${nl}reset"
ok '[ "$rc" -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
	[ ! -s "$TMP/out" ]' \
	'fusecount-ctl: a newline in an argument, exit 2 and one line'
diag "$TMP/err"
run "$TMP/out" "$TMP/err" $VALGRIND "$CTL" "$S" trace "on${nl}reset"
ok '[ "$rc" -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ]' \
	'... in the second word too'
run "$TMP/out" "$TMP/err" "$CTL" "$S" stats
ok '[ "$rc" -eq 0 ] && grep -q "\"total\":5" "$TMP/out"' \
	'... and no reset was sent (total still 5)'
unserve
ok '[ ! -e "$S" ] && [ -d "$TMP" ]' \
	'SIGTERM: the socket goes, a directory it did not make stays'
exit $failed
