// SPDX-License-Identifier: GPL-2.0
/*
 * fusecount: the control socket.  Reading the counters must not cost a
 * FUSE request, so they are served on a Unix stream socket by a thread of
 * their own: one command per line, one reply per command, until the
 * client closes.  Every byte from a client is checked before it is acted
 * upon, as the kernel checks a daemon's replies.
 *
 *   stats          one line of JSON
 *   reset          zero the counters and the trace; "ok"
 *   trace on|off   start or stop recording the trace; "ok"
 *   dump           the trace, one JSON object per line, then "end"
 *   delay US       sleep US microseconds before each request from now on
 *                  (0 to 10000000); "ok".  A benchmark primes the caches
 *                  at full speed and delays only the call it measures.
 *
 * Anything else gets one line starting with "error: ".
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "fusecount.h"

#define FC_CTL_IDLE_MS	5000	/* a silent client is dropped */

struct fc_ctl_word {
	const char *cmd;
	const char *arg;	/* NULL: none; "": a number; else that word */
	enum fc_ctl_op op;
};

static const struct fc_ctl_word fc_ctl_words[] = {
	{ "stats", NULL, FC_CTL_STATS },
	{ "reset", NULL, FC_CTL_RESET },
	{ "dump", NULL, FC_CTL_DUMP },
	{ "trace", "on", FC_CTL_TRACE_ON },
	{ "trace", "off", FC_CTL_TRACE_OFF },
	{ "delay", "", FC_CTL_DELAY },
};

/* Split @line into at most two words; false if there are more */
static bool fc_ctl_words2(const char *line, size_t len, const char *w[2],
			  size_t wl[2])
{
	size_t i = 0, n = 0;

	w[0] = w[1] = NULL;
	wl[0] = wl[1] = 0;
	while (i < len) {
		while (i < len && line[i] == ' ')
			i++;
		if (i == len)
			break;
		if (n == 2)
			return false;
		w[n] = line + i;
		while (i < len && line[i] != ' ')
			i++;
		wl[n] = line + i - w[n];
		n++;
	}
	return true;
}

static bool fc_word_is(const char *w, size_t wl, const char *s)
{
	return w && wl == strlen(s) && !memcmp(w, s, wl);
}

/* A decimal number of at most FC_CTL_DELAY_MAX, without sign or spaces */
static bool fc_word_uint(const char *w, size_t wl, unsigned int *v)
{
	unsigned long n = 0;
	size_t i;

	if (!w || !wl || wl > 8)
		return false;
	for (i = 0; i < wl; i++) {
		if (w[i] < '0' || w[i] > '9')
			return false;
		n = n * 10 + (unsigned long)(w[i] - '0');
	}
	if (n > FC_CTL_DELAY_MAX)
		return false;
	*v = (unsigned int)n;
	return true;
}

static bool fc_ctl_arg_ok(const struct fc_ctl_word *cw, const char *w,
			  size_t wl, unsigned int *arg)
{
	if (!cw->arg)
		return !w;
	if (!*cw->arg)
		return fc_word_uint(w, wl, arg);
	return fc_word_is(w, wl, cw->arg);
}

static const char *fc_ctl_usage(const struct fc_ctl_word *cw)
{
	if (!cw->arg)
		return "unexpected argument";
	if (!*cw->arg)
		return "usage: delay US (0 to 10000000)";
	return "usage: trace on|off";
}

/**
 * fc_ctl_parse() - parse one command line
 * @line: the bytes before the newline, not NUL-terminated
 * @len: their number
 * @op: the command
 * @arg: its number (delay); untouched for the others
 * @why: on error, what was wrong
 *
 * Words are separated by spaces; a trailing '\r' is tolerated.  Any other
 * byte outside printable ASCII, including NUL, is refused.
 *
 * Return: 0, or -EINVAL.
 */
int fc_ctl_parse(const char *line, size_t len, enum fc_ctl_op *op,
		 unsigned int *arg, const char **why)
{
	const char *w[2];
	size_t wl[2], i;

	*why = "line too long";
	if (len > FC_CTL_LINE_MAX)
		return -EINVAL;
	if (len && line[len - 1] == '\r')
		len--;
	*why = "invalid byte in command";
	for (i = 0; i < len; i++) {
		unsigned char b = line[i];

		if (b < 0x20 || b > 0x7e)
			return -EINVAL;
	}
	*why = "too many words";
	if (!fc_ctl_words2(line, len, w, wl))
		return -EINVAL;
	*why = "unknown command (stats, reset, trace on|off, dump, delay US)";
	for (i = 0; i < ARRAY_SIZE(fc_ctl_words); i++) {
		const struct fc_ctl_word *cw = &fc_ctl_words[i];

		if (!fc_word_is(w[0], wl[0], cw->cmd))
			continue;
		if (fc_ctl_arg_ok(cw, w[1], wl[1], arg)) {
			*op = cw->op;
			*why = NULL;
			return 0;
		}
		*why = fc_ctl_usage(cw);
	}
	return -EINVAL;
}

static void fc_ctl_do(struct fc_ctl *c, enum fc_ctl_op op, unsigned int arg,
		      struct fc_sb *out)
{
	switch (op) {
	case FC_CTL_STATS:
		fc_stats_json(c->stats, out);
		return;
	case FC_CTL_RESET:
		fc_stats_reset(c->stats);
		fc_trace_reset(c->trace);
		break;
	case FC_CTL_TRACE_ON:
	case FC_CTL_TRACE_OFF:
		fc_trace_set(c->trace, op == FC_CTL_TRACE_ON);
		break;
	case FC_CTL_DUMP:
		fc_trace_dump(c->trace, out);
		return;
	case FC_CTL_DELAY:
		if (!c->delay_us) {
			fc_sb_printf(out, "error: no delay to set here\n");
			return;
		}
		/* The workers read it once per request */
		__atomic_store_n(c->delay_us, arg, __ATOMIC_RELAXED);
		break;
	}
	fc_sb_printf(out, "ok\n");
}

/* Parse and run one line, appending its whole reply to @out */
void fc_ctl_line(struct fc_ctl *c, const char *line, size_t len,
		 struct fc_sb *out)
{
	enum fc_ctl_op op;
	unsigned int arg = 0;
	const char *why;

	if (fc_ctl_parse(line, len, &op, &arg, &why))
		fc_sb_printf(out, "error: %s\n", why);
	else
		fc_ctl_do(c, op, arg, out);
	if (out->oom) {
		out->len = 0;
		out->oom = false;
		fc_sb_printf(out, "error: out of memory\n");
	}
}

static int fc_send_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = send(fd, buf, len, MSG_NOSIGNAL);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= n;
	}
	return 0;
}

/* Wait for @fd to be readable; false on stop, timeout or error */
static bool fc_ctl_wait(struct fc_ctl *c, int fd, int timeout_ms)
{
	struct pollfd p[2] = {
		{ .fd = fd, .events = POLLIN },
		{ .fd = c->stop[0], .events = POLLIN },
	};
	int n;

	do {
		n = poll(p, 2, timeout_ms);
	} while (n == -1 && errno == EINTR);
	return n > 0 && !p[1].revents && p[0].revents;
}

/* Run each complete line in buf[0..*len); keep the partial rest */
static int fc_ctl_lines(struct fc_ctl *c, int fd, char *buf, size_t *len)
{
	struct fc_sb out;
	char *nl;
	size_t n;
	int err = 0;

	fc_sb_init(&out);
	while (!err && (nl = memchr(buf, '\n', *len))) {
		n = nl - buf;
		out.len = 0;
		fc_ctl_line(c, buf, n, &out);
		err = fc_send_all(fd, out.buf, out.len);
		memmove(buf, nl + 1, *len - n - 1);
		*len -= n + 1;
	}
	fc_sb_free(&out);
	return err;
}

static void fc_ctl_serve(struct fc_ctl *c, int fd)
{
	static const char too_long[] = "error: line too long\n";
	char buf[FC_CTL_LINE_MAX + 2];	/* longest line, '\n', one more */
	size_t len = 0;
	ssize_t n;

	while (fc_ctl_wait(c, fd, FC_CTL_IDLE_MS)) {
		n = recv(fd, buf + len, sizeof(buf) - len, 0);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == 0 && len) {
			/* A last line without its newline still counts */
			buf[len++] = '\n';
		} else if (n <= 0) {
			return;
		}
		len += n;
		if (fc_ctl_lines(c, fd, buf, &len) || n == 0)
			return;
		if (len == sizeof(buf)) {
			/* No newline in sight: the line cannot be valid */
			fc_send_all(fd, too_long, sizeof(too_long) - 1);
			return;
		}
	}
}

static void *fc_ctl_main(void *arg)
{
	struct fc_ctl *c = arg;
	struct pollfd stop = { .fd = c->stop[0], .events = POLLIN };
	struct timeval tv = { .tv_sec = FC_CTL_IDLE_MS / 1000 };
	int fd;

	while (fc_ctl_wait(c, c->lfd, -1)) {
		fd = accept4(c->lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd == -1) {
			/* Out of fds, say: do not spin on a ready socket */
			poll(&stop, 1, 100);
			continue;
		}
		/* A client that stops reading must not hold the thread */
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
		fc_ctl_serve(c, fd);
		close(fd);
	}
	return NULL;
}

/*
 * A socket file at @path is either another fusecount's (someone accepts a
 * connection: refuse) or left over from one that died (reuse it).  Never
 * remove anything that is not a socket.
 */
static int fc_ctl_claim(const struct sockaddr_un *sa)
{
	struct stat st;
	int fd, res;

	if (lstat(sa->sun_path, &st) == -1)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISSOCK(st.st_mode))
		return -EEXIST;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd == -1)
		return -errno;
	res = connect(fd, (const struct sockaddr *)sa, sizeof(*sa));
	close(fd);
	if (res == 0)
		return -EADDRINUSE;
	if (errno != ECONNREFUSED)
		return -errno;
	return unlink(sa->sun_path) == -1 && errno != ENOENT ? -errno : 0;
}

static int fc_ctl_bind(const struct sockaddr_un *sa)
{
	int fd, err;

	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd == -1)
		return -errno;
	if (bind(fd, (const struct sockaddr *)sa, sizeof(*sa)) == -1) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

/**
 * fc_ctl_open() - bind the control socket; fc_ctl_start() serves it
 * @c: control state
 * @path: where; relative paths are kept as given
 * @stats: counters to serve
 * @trace: trace to serve
 *
 * Return: 0; -ENAMETOOLONG, -EADDRINUSE (a live fusecount owns @path),
 * -EEXIST (@path is not a socket), or another -errno.
 */
int fc_ctl_open(struct fc_ctl *c, const char *path, struct fc_stats *stats,
		struct fc_trace *trace)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int err;

	memset(c, 0, sizeof(*c));
	c->lfd = c->stop[0] = c->stop[1] = -1;
	c->stats = stats;
	c->trace = trace;
	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	err = fc_ctl_claim(&sa);
	if (err)
		return err;
	c->lfd = fc_ctl_bind(&sa);
	if (c->lfd < 0)
		return c->lfd;
	strcpy(c->path, path);
	return 0;
}

/*
 * Start serving; call once mounted, and after fuse_daemonize(), whose fork
 * keeps no threads.  Until listen() here, connect() is refused: a script
 * may poll the socket to learn that the mount is up.
 */
int fc_ctl_start(struct fc_ctl *c)
{
	sigset_t all, old;
	int err;

	if (listen(c->lfd, 8) == -1 || pipe2(c->stop, O_CLOEXEC) == -1)
		return -errno;
	/* Signals are for the loop's thread, never this one */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	err = -pthread_create(&c->thread, NULL, fc_ctl_main, c);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	c->running = !err;
	return err;
}

/* Stop the thread if it runs, close the socket and remove its file */
void fc_ctl_close(struct fc_ctl *c)
{
	/* The thread polls the pipe's read end: closing the other wakes it */
	if (c->stop[1] >= 0) {
		close(c->stop[1]);
		c->stop[1] = -1;
	}
	if (c->running) {
		pthread_join(c->thread, NULL);
		c->running = false;
	}
	if (c->stop[0] >= 0) {
		close(c->stop[0]);
		c->stop[0] = -1;
	}
	if (c->lfd >= 0) {
		close(c->lfd);
		c->lfd = -1;
		unlink(c->path);
	}
}
