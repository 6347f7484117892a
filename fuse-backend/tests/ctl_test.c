// SPDX-License-Identifier: GPL-2.0
/*
 * The control protocol: the parser takes the six commands and refuses
 * everything else (unknown words, overlong lines, NUL and other bytes),
 * and a real socket served by the ctl thread in this process answers
 * stats (valid JSON, checked with jq when installed), reset and dump.
 *
 * "ctl_test --serve PATH" serves made-up counters on PATH until SIGTERM,
 * for the fusecount-ctl test (t/ctl-cli.t).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "fusecount.h"
#include "tests/tap.h"

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

	r = ask(fd, "st\0ats\nfoo\n", 11, NULL, 2, buf, sizeof(buf));
	ok(r && !strncmp(r, "error: invalid byte", 19) &&
	   strstr(r, "\nerror: unknown command"),
	   "NUL and garbage: errors, connection kept");
	close(fd);

	fd = connect_to(path);
	memset(buf, 'x', 300);
	r = ask(fd, buf, 300, NULL, 1, buf, sizeof(buf));
	/* Unread input makes the close a reset rather than an EOF */
	ok(r && !strcmp(r, "error: line too long\n") &&
	   recv(fd, buf, 1, 0) <= 0, "overlong line: error, then closed");
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

	ok(fc_ctl_open(&c, path, &stats, &trace) == -EADDRINUSE,
	   "a live socket is refused");

	snprintf(other, sizeof(other), "%s/stale", dir);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", other);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)))
		diag("bind %s failed", other);
	close(fd);
	ok(fc_ctl_open(&c, other, &stats, &trace) == 0,
	   "a stale socket file is reused");
	fc_ctl_close(&c);
	ok(access(other, F_OK) == -1, "closing removes the socket file");

	snprintf(file, sizeof(file), "%s/file", dir);
	fd = open(file, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	close(fd);
	ok(fc_ctl_open(&c, file, &stats, &trace) == -EEXIST &&
	   access(file, F_OK) == 0, "a non-socket is refused and kept");
	memset(longp, 'a', sizeof(longp));
	longp[0] = '/';
	longp[sizeof(longp) - 1] = '\0';
	ok(fc_ctl_open(&c, longp, &stats, &trace) == -ENAMETOOLONG,
	   "a path too long for sun_path");
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
	if (fc_ctl_open(&c, path, &stats, &trace) || fc_ctl_start(&c))
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

	plan(29);
	test_parse();
	if (!mkdtemp(dir) || fc_trace_init(&trace))
		skip_all("no temporary directory");
	fc_stats_reset(&stats);
	snprintf(path, sizeof(path), "%s/ctl", dir);
	ok(fc_ctl_open(&c, path, &stats, &trace) == 0 && fc_ctl_start(&c) == 0,
	   "open and start the ctl thread");
	test_line(&c);
	count(FUSE_LOOKUP, 0, 3);
	count(FUSE_STATX, AT_STATX_FORCE_SYNC, 1);
	test_socket(path);
	test_claim(path);
	fc_ctl_close(&c);
	ok(access(path, F_OK) == -1, "stopping removes the socket file");

	fc_trace_destroy(&trace);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		diag("could not remove %s", dir);
	return done();
}
