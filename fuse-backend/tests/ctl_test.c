// SPDX-License-Identifier: GPL-2.0
/*
 * The control protocol: the parser takes the six commands and refuses
 * everything else (unknown words, overlong lines, NUL and other bytes),
 * and a real socket served by the ctl thread in this process answers
 * stats (valid JSON, checked with jq when installed), reset and dump.
 * The socket is private (0600, in a directory made 0700; one that others
 * can write to is refused; as root, a second uid cannot connect), and
 * idle, half-line and non-reading clients do not delay another.
 *
 * "ctl_test --serve PATH" serves made-up counters on PATH until SIGTERM,
 * for the fusecount-ctl test (t/ctl-cli.t).
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ctl.h"
#include "tap.h"

static struct fc_stats stats;
static struct fc_trace trace;
static unsigned int delay_us;
static char dir[] = "/tmp/fc-ctl-XXXXXX";

static bool parses(const char *line, size_t len, enum fc_ctl_op want)
{
	enum fc_ctl_op op;
	unsigned int arg = 0;
	const char *why;

	return fc_ctl_parse(line, len, &op, &arg, &why) == 0 && op == want &&
	       !why;
}

static bool delay_parses(const char *line, unsigned int want)
{
	enum fc_ctl_op op;
	unsigned int arg = 12345;
	const char *why;

	return fc_ctl_parse(line, strlen(line), &op, &arg, &why) == 0 &&
	       op == FC_CTL_DELAY && arg == want;
}

static bool refused(const char *line, size_t len, const char *want_why)
{
	enum fc_ctl_op op;
	unsigned int arg;
	const char *why = NULL;

	if (fc_ctl_parse(line, len, &op, &arg, &why) != -EINVAL || !why)
		return false;
	return !want_why || !strncmp(why, want_why, strlen(want_why));
}

#define P(s, op)	parses(s, sizeof(s) - 1, op)
#define R(s, why)	refused(s, sizeof(s) - 1, why)

static void test_parse(void)
{
	char line[300];

	ok(P("stats", FC_CTL_STATS) && P("reset", FC_CTL_RESET) &&
	   P("dump", FC_CTL_DUMP) && P("trace on", FC_CTL_TRACE_ON) &&
	   P("trace off", FC_CTL_TRACE_OFF), "each command");
	ok(P("  stats ", FC_CTL_STATS) && P("trace   off", FC_CTL_TRACE_OFF) &&
	   P("dump\r", FC_CTL_DUMP), "extra spaces and a CR are fine");
	ok(R("", "unknown") && R("hello", "unknown") && R("STATS", "unknown") &&
	   R("statsx", "unknown"), "unknown commands");
	ok(R("trace", "usage") && R("trace maybe", "usage") &&
	   R("stats now", "unexpected") && R("trace on off", "too many"),
	   "wrong arguments");
	ok(R("sta\0ts", "invalid byte") && R("stats\0", "invalid byte") &&
	   R("stats\t", "invalid byte") && R("st\xffts", "invalid byte") &&
	   R("st\nats", "invalid byte"), "NUL and other bytes are refused");
	ok(delay_parses("delay 0", 0) && delay_parses("delay 10000", 10000) &&
	   delay_parses("delay 10000000", 10000000) &&
	   delay_parses("delay 007", 7), "delay takes 0 to 10000000 us");
	ok(R("delay", "usage: delay") && R("delay -1", "usage: delay") &&
	   R("delay 10000001", "usage: delay") &&
	   R("delay 99999999999", "usage: delay") &&
	   R("delay 1ms", "usage: delay") && R("delay 1 2", "too many"),
	   "delay refuses a missing, signed, too large or unit number");

	memset(line, ' ', sizeof(line));
	memcpy(line, "stats", 5);
	ok(parses(line, FC_CTL_LINE_MAX, FC_CTL_STATS),
	   "a line of %d bytes is fine", FC_CTL_LINE_MAX);
	ok(refused(line, FC_CTL_LINE_MAX + 1, "line too long") &&
	   refused(line, sizeof(line), "line too long"), "longer is refused");
}

static void test_line(struct fc_ctl *c)
{
	struct fc_sb sb;

	fc_sb_init(&sb);
	fc_ctl_line(c, "reset", 5, &sb);
	ok(sb.buf && !strcmp(sb.buf, "ok\n"), "reset: ok");
	sb.len = 0;
	fc_ctl_line(c, "bogus", 5, &sb);
	ok(sb.buf && !strncmp(sb.buf, "error: unknown command", 22) &&
	   sb.buf[sb.len - 1] == '\n' && !strchr(sb.buf, '\n')[1],
	   "garbage: one error line");
	sb.len = 0;
	c->delay_us = NULL;
	fc_ctl_line(c, "delay 5", 7, &sb);
	ok(sb.buf && !strcmp(sb.buf, "error: no delay to set here\n"),
	   "delay without a daemon's setting: an error");
	sb.len = 0;
	c->delay_us = &delay_us;
	fc_ctl_line(c, "delay 2500", 10, &sb);
	ok(sb.buf && !strcmp(sb.buf, "ok\n") && delay_us == 2500,
	   "delay 2500: ok, the setting is 2500 us");
	fc_sb_free(&sb);
}

static void count(uint32_t opcode, uint32_t sx_flags, int times)
{
	struct fc_req req = { .opcode = opcode, .sx_flags = sx_flags,
			      .sx_mask = 0x7ff, .unique = 100 };
	struct fc_reply rep = { .replied = true, .usec = 3 };

	if (opcode == FUSE_STATX)
		req.has = FC_HAS_STATX | FC_HAS_GETATTR;
	while (times--) {
		fc_stats_count(&stats, &req);
		fc_trace_record(&trace, &req, &rep);
	}
}

static int connect_to(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timeval tv = { .tv_sec = 5 };
	int fd;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd == -1)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	return fd;
}

static size_t count_nl(const char *s)
{
	size_t n = 0;

	while ((s = strchr(s, '\n'))) {
		n++;
		s++;
	}
	return n;
}

/*
 * Send @cmd, then read until the reply ends with @end, or holds @lines
 * newlines when @end is NULL.  Return: the reply, NUL-terminated.
 */
static char *ask(int fd, const char *cmd, size_t cmdlen, const char *end,
		 size_t lines, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;

	if (cmdlen && send(fd, cmd, cmdlen, MSG_NOSIGNAL) != (ssize_t)cmdlen)
		return NULL;
	buf[0] = '\0';
	while (len + 1 < size) {
		n = recv(fd, buf + len, size - len - 1, 0);
		if (n <= 0)
			break;
		len += n;
		buf[len] = '\0';
		if (end ? len >= strlen(end) && !strcmp(buf + len - strlen(end),
							 end)
			: count_nl(buf) >= lines)
			return buf;
	}
	return len ? buf : NULL;
}

/* Return: 1 if jq accepts @json with @filter, 0 if not, -1 without jq */
static int jq(const char *json, const char *filter)
{
	char path[64], cmd[512];
	int fd, res;

	if (system("command -v jq >/dev/null 2>&1"))
		return -1;
	snprintf(path, sizeof(path), "%s/json", dir);
	fd = open(path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0600);
	if (fd == -1 || write(fd, json, strlen(json)) < 0)
		return 0;
	close(fd);
	snprintf(cmd, sizeof(cmd), "jq -e '%s' %s >/dev/null", filter, path);
	res = system(cmd);
	return res == 0;
}

static void ok_jq(const char *json, const char *filter, const char *what)
{
	int res = json ? jq(json, filter) : 0;

	if (res < 0)
		ok(1, "# SKIP jq not installed (%s)", what);
	else
		ok(res == 1, "%s", what);
}

static void test_socket(const char *path)
{
	char buf[1 << 16], *r;
	int fd;

	fd = connect_to(path);
	ok(fd >= 0, "connect to the ctl thread");

	r = ask(fd, "stats\n", 6, NULL, 1, buf, sizeof(buf));
	ok(r && r[0] == '{' && !strchr(r, '\n')[1], "stats: one line");
	ok_jq(r, ".LOOKUP == 3 and .STATX == 1 and .total == 4 and "
	      ".statx_sync == {\"as-stat\":0,\"force\":1,\"dont\":0}",
	      "stats: JSON with the counts");

	r = ask(fd, "dump\n", 5, "\nend\n", 0, buf, sizeof(buf));
	ok(r && !strncmp(r, "{\"seq\":1,\"op\":\"LOOKUP\"", 22) &&
	   strstr(r, "\"sx_flags\":\"0x2000\",\"sx_mask\":\"0x7ff\""),
	   "dump: requests in order, then end");
	if (r)
		*strrchr(r, 'e') = '\0';	/* drop "end" for jq */
	ok_jq(r, "select(.seq and .op and .error == 0)",
	      "dump: each line is a JSON object");

	r = ask(fd, "reset\nstats\n", 12, NULL, 2, buf, sizeof(buf));
	ok(r && !strncmp(r, "ok\n{\"total\":0,", 14),
	   "reset then stats, in one write");

	r = ask(fd, "st\0ats\nfoo\nstats\n", 17, NULL, 3, buf, sizeof(buf));
	ok(r && !strncmp(r, "error: invalid byte", 19) &&
	   strstr(r, "\nerror: unknown command") && strstr(r, "\n{\""),
	   "NUL and garbage: errors, connection kept");
	close(fd);

	fd = connect_to(path);
	memset(buf, 'x', 300);
	r = ask(fd, buf, 300, NULL, 1, buf, sizeof(buf));
	ok(r && !strcmp(r, "error: line too long\n"),
	   "overlong line: an error at once, before its newline");
	r = ask(fd, "xx\nstats\n", 9, NULL, 1, buf, sizeof(buf));
	ok(r && r[0] == '{', "... its rest is dropped, the connection kept");
	close(fd);

	fd = connect_to(path);
	if (send(fd, "stats", 5, 0) != 5 || shutdown(fd, SHUT_WR))
		diag("send failed");
	r = ask(fd, "", 0, NULL, 1, buf, sizeof(buf));
	ok(r && r[0] == '{', "a last line without newline is answered");
	close(fd);
}

static void test_claim(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char other[80], file[80], longp[200];
	struct fc_ctl c;
	int fd;

	ok(fc_ctl_open(&c, path, FC_CTL_MODE, &stats, &trace) == -EADDRINUSE,
	   "a live socket is refused");

	snprintf(other, sizeof(other), "%s/stale", dir);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", other);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)))
		diag("bind %s failed", other);
	close(fd);
	ok(fc_ctl_open(&c, other, FC_CTL_MODE, &stats, &trace) == 0,
	   "a stale socket file is reused");
	fc_ctl_close(&c);
	ok(access(other, F_OK) == -1, "closing removes the socket file");

	snprintf(file, sizeof(file), "%s/file", dir);
	fd = open(file, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	close(fd);
	ok(fc_ctl_open(&c, file, FC_CTL_MODE, &stats, &trace) == -EEXIST &&
	   access(file, F_OK) == 0, "a non-socket is refused and kept");
	memset(longp, 'a', sizeof(longp));
	longp[0] = '/';
	longp[sizeof(longp) - 1] = '\0';
	ok(fc_ctl_open(&c, longp, FC_CTL_MODE, &stats, &trace) == -ENAMETOOLONG,
	   "a path too long for sun_path");
}

static bool has_mode(const char *path, mode_t type, mode_t mode)
{
	struct stat st;

	return !lstat(path, &st) && (st.st_mode & S_IFMT) == type &&
	       (st.st_mode & 07777) == mode;
}

static int open_in(struct fc_ctl *c, const char *sub, mode_t mode,
		   char *path, size_t size)
{
	snprintf(path, size, "%s/%s/ctl", dir, sub);
	return fc_ctl_open(c, path, mode, &stats, &trace);
}

/* The daemon runs with umask 0: the socket must not depend on it */
static void test_modes(void)
{
	char path[96], sub[96];
	struct fc_ctl c;
	mode_t old = umask(0);

	snprintf(sub, sizeof(sub), "%s/priv", dir);
	ok(open_in(&c, "priv", FC_CTL_MODE, path, sizeof(path)) == 0 &&
	   has_mode(path, S_IFSOCK, 0600) && has_mode(sub, S_IFDIR, 0700),
	   "umask 0: the socket is 0600, in a directory made 0700");
	fc_ctl_close(&c);
	ok(access(path, F_OK) && access(sub, F_OK),
	   "closing removes the socket and the directory it made");

	snprintf(sub, sizeof(sub), "%s/grp", dir);
	ok(open_in(&c, "grp", 0660, path, sizeof(path)) == 0 &&
	   has_mode(path, S_IFSOCK, 0660) && has_mode(sub, S_IFDIR, 0710),
	   "ctl_mode 0660: socket 0660, directory 0710");
	fc_ctl_close(&c);

	snprintf(sub, sizeof(sub), "%s/pub", dir);
	mkdir(sub, 0755);
	ok(open_in(&c, "pub", FC_CTL_MODE, path, sizeof(path)) == 0 &&
	   has_mode(path, S_IFSOCK, 0600), "an existing 0755 directory of ours");
	fc_ctl_close(&c);
	ok(!access(sub, F_OK), "... is kept at close");

	snprintf(sub, sizeof(sub), "%s/open", dir);
	mkdir(sub, 0777);
	ok(open_in(&c, "open", FC_CTL_MODE, path, sizeof(path)) == -EPERM &&
	   access(path, F_OK), "a directory others can write to is refused");
	snprintf(sub, sizeof(sub), "%s/tmp", dir);
	mkdir(sub, 01777);
	ok(open_in(&c, "tmp", FC_CTL_MODE, path, sizeof(path)) == -EPERM,
	   "so is a sticky one, like /tmp");
	umask(old);
}

/* As @uid, connect to @path. Return: 0 or the errno of connect() */
static int connect_as(const char *path, uid_t uid)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	pid_t pid;
	int fd, status;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	pid = fork();
	if (pid == 0) {
		if (setgroups(0, NULL) || setgid(uid) || setuid(uid))
			_exit(255);
		fd = socket(AF_UNIX, SOCK_STREAM, 0);
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
			_exit(errno);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int serve_in(struct fc_ctl *c, const char *sub, mode_t dmode,
		    mode_t mode, char *path, size_t size)
{
	char d[96];

	snprintf(d, sizeof(d), "%s/%s", dir, sub);
	if (dmode)
		mkdir(d, dmode);
	if (open_in(c, sub, mode, path, size))
		return -1;
	return fc_ctl_start(c);
}

/*
 * As root, a second uid (65534, nobody) against the socket's modes, with
 * the daemon's umask 0
 */
static void test_other_uid(void)
{
	struct fc_ctl a, b, o;
	char pa[96], pb[96], po[96], d[96];
	mode_t old;
	int i;

	if (geteuid() != 0) {
		for (i = 0; i < 4; i++)
			ok(1, "# SKIP not root: cannot switch to a second uid");
		return;
	}
	/* Let nobody reach the subdirectories: their modes decide */
	chmod(dir, 0711);
	old = umask(0);
	ok(!serve_in(&a, "a", 0, FC_CTL_MODE, pa, sizeof(pa)) &&
	   connect_as(pa, 65534) == EACCES,
	   "uid 65534 cannot connect: EACCES (default: 0700 directory)");
	ok(!serve_in(&b, "b", 0755, FC_CTL_MODE, pb, sizeof(pb)) &&
	   connect_as(pb, 65534) == EACCES,
	   "uid 65534 cannot connect: EACCES (0600 socket, 0755 directory)");
	ok(!serve_in(&o, "o", 0755, 0666, po, sizeof(po)) &&
	   connect_as(po, 65534) == 0,
	   "ctl_mode 0666 asked for: uid 65534 connects (the check above is real)");
	fc_ctl_close(&a);
	fc_ctl_close(&b);
	fc_ctl_close(&o);

	snprintf(d, sizeof(d), "%s/theirs", dir);
	mkdir(d, 0700);
	ok(!chown(d, 65534, 65534) &&
	   open_in(&a, "theirs", FC_CTL_MODE, pa, sizeof(pa)) == -EPERM,
	   "a directory owned by another uid is refused");
	umask(old);
	chmod(dir, 0700);
}

/*
 * A symlink as the socket's directory is refused, even to a private
 * directory of ours (where fs.protected_symlinks=0, another user could
 * have planted it), and nothing behind it is touched.
 */
static void test_symlink_dir(void)
{
	char real[96], link[96], file[112], path[96];
	struct fc_ctl c;
	struct stat st;

	snprintf(real, sizeof(real), "%s/real", dir);
	snprintf(link, sizeof(link), "%s/link", dir);
	snprintf(file, sizeof(file), "%s/keep", real);
	mkdir(real, 0700);
	close(open(file, O_CREAT | O_WRONLY, 0600));
	ok(!symlink(real, link) &&
	   open_in(&c, "link", FC_CTL_MODE, path, sizeof(path)) == -EPERM,
	   "a symlink to a private directory is refused: -EPERM");
	ok(!lstat(link, &st) && S_ISLNK(st.st_mode) && !access(file, F_OK) &&
	   access(link, F_OK) == 0 && stat(real, &st) == 0,
	   "the symlink, its directory and the file in it are left alone");
}

/* A dump of over 1 MB, far more than a socket buffer holds */
static void fill_trace(void)
{
	static char name[FC_NAME_MAX];
	struct fc_req req = { .opcode = FUSE_LOOKUP, .has = FC_HAS_NAME,
			      .name = name, .namelen = sizeof(name) };
	struct fc_reply rep = { .replied = true };
	int i;

	memset(name, 'n', sizeof(name));
	for (i = 0; i < FC_TRACE_LEN; i++) {
		req.seq = i + 1;	/* 0 marks an unused slot */
		fc_trace_record(&trace, &req, &rep);
	}
}

static double secs_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) + (t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Return: bytes read until "\nend\n", or 0 */
static size_t read_dump(int fd)
{
	char buf[4096 + 5] = "", *p = buf + 5;
	size_t len = 0;
	ssize_t n;

	/* buf keeps the last 5 bytes of the previous read in front */
	for (;;) {
		n = recv(fd, p, 4096, 0);
		if (n <= 0)
			return 0;
		len += n;
		if (!memcmp(p + n - 5, "\nend\n", 5))
			return len;
		memmove(buf, p + n - 5, 5);
	}
}

/*
 * Clients that never send a line, one halfway through one, and one that
 * asked for a dump bigger than the socket buffer and does not read it:
 * none of them may delay another client's stats.
 */
static void test_clients(const char *path)
{
	int idle[3], part, stall, fd, more[FC_CTL_CLIENTS];
	struct pollfd pfd = { .events = POLLIN };
	struct timespec t0;
	char buf[4096], *r;
	double t;
	int i, n;

	stall = connect_to(path);
	fill_trace();
	if (send(stall, "dump\n", 5, 0) != 5)
		diag("send failed");
	/*
	 * Once the dump starts to arrive the server has filled the socket
	 * buffer and would be stuck on it, if ever.  The others come after
	 * it is built, which takes seconds under valgrind: long enough to
	 * drop idle clients.
	 */
	pfd.fd = stall;
	if (poll(&pfd, 1, 20000) != 1)
		diag("no dump in sight");
	for (i = 0; i < 3; i++)
		idle[i] = connect_to(path);
	part = connect_to(path);
	if (send(part, "sta", 3, 0) != 3)
		diag("send failed");
	usleep(100 * 1000);	/* accepted, and "sta" read, by now */

	clock_gettime(CLOCK_MONOTONIC, &t0);
	fd = connect_to(path);
	r = ask(fd, "stats\n", 6, NULL, 1, buf, sizeof(buf));
	t = secs_since(&t0);
	ok(r && r[0] == '{' && t < 1.0,
	   "3 idle clients, a half line, an unread dump: a 4th answered in %.3f s",
	   t);
	r = ask(part, "ts\n", 3, NULL, 1, buf, sizeof(buf));
	ok(r && r[0] == '{', "the half line, once complete, is answered");
	n = read_dump(stall);
	ok(n > 1000000,
	   "the stalled client gets its whole dump (%d bytes) once it reads",
	   n);

	/* Six are connected: fill the rest, then one too many */
	n = FC_CTL_CLIENTS - 6;
	for (i = 0; i < n; i++)
		more[i] = connect_to(path);
	more[n] = connect_to(path);
	r = ask(more[n], "", 0, NULL, 1, buf, sizeof(buf));
	ok(r && !strcmp(r, "error: too many clients\n"),
	   "client %d of %d: error: too many clients", FC_CTL_CLIENTS + 1,
	   FC_CTL_CLIENTS);
	close(more[n]);
	close(idle[0]);
	idle[0] = connect_to(path);
	r = ask(idle[0], "stats\n", 6, NULL, 1, buf, sizeof(buf));
	ok(r && r[0] == '{', "a slot given back serves the next client");

	for (i = 0; i < n; i++)
		close(more[i]);
	for (i = 0; i < 3; i++)
		close(idle[i]);
	close(part);
	close(stall);
	close(fd);
}

static int serve(const char *path)
{
	struct fc_ctl c;
	sigset_t set;
	int sig;

	if (fc_trace_init(&trace))
		return 1;
	fc_stats_reset(&stats);
	count(FUSE_LOOKUP, 0, 3);
	count(FUSE_GETATTR, 0, 1);
	count(FUSE_STATX, AT_STATX_FORCE_SYNC, 1);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	if (fc_ctl_open(&c, path, FC_CTL_MODE, &stats, &trace) || fc_ctl_start(&c))
		return 1;
	sigwait(&set, &sig);
	fc_ctl_close(&c);
	fc_trace_destroy(&trace);
	return 0;
}

int main(int argc, char **argv)
{
	char path[64], cmd[64];
	struct fc_ctl c;

	if (argc == 3 && !strcmp(argv[1], "--serve"))
		return serve(argv[2]);

	plan(48);
	test_parse();
	if (!mkdtemp(dir) || fc_trace_init(&trace))
		skip_all("no temporary directory");
	fc_stats_reset(&stats);
	snprintf(path, sizeof(path), "%s/ctl", dir);
	ok(fc_ctl_open(&c, path, FC_CTL_MODE, &stats, &trace) == 0 &&
	   fc_ctl_start(&c) == 0, "open and start the ctl thread");
	test_line(&c);
	count(FUSE_LOOKUP, 0, 3);
	count(FUSE_STATX, AT_STATX_FORCE_SYNC, 1);
	test_socket(path);
	test_clients(path);
	test_claim(path);
	fc_ctl_close(&c);
	ok(access(path, F_OK) == -1, "stopping removes the socket file");
	test_modes();
	test_symlink_dir();
	test_other_uid();

	fc_trace_destroy(&trace);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		diag("could not remove %s", dir);
	return done();
}
