// SPDX-License-Identifier: GPL-2.0
/*
 * fusecount: the control socket.  Reading the counters must not cost a
 * FUSE request, so they are served on a Unix stream socket by a thread of
 * their own: one command per line, one reply per command, until the
 * client closes.  Every byte from a client is checked before it is acted
 * upon, as the kernel checks a daemon's replies.
 *
 * The socket can reset counters, slow every request down and show file
 * names: it is its owner's alone (mode 0600 in a directory that no one
 * else may write to) unless asked otherwise.  Up to FC_CTL_CLIENTS
 * clients are served at once, and none of them can make another wait.
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
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "ctl.h"

/* A client with no command and no reply progress for that long goes */
#define FC_CTL_IDLE_MS	5000

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

/*
 * The server: one thread polls the listening socket and every client, so
 * that a client that sends half a line, or stops reading its reply, holds
 * only its own slot.  Sockets are non-blocking; each client has one line
 * buffer and at most one reply in flight, and no more of its input is read
 * until that reply is sent, so its memory stays bounded.
 */
struct fc_ctl_client {
	int fd;			/* -1: a free slot */
	bool eof;		/* the client shut down its writing side */
	bool skip;		/* dropping the rest of an overlong line */
	size_t inlen;
	char in[FC_CTL_LINE_MAX + 2];	/* longest line, '\n', one more */
	struct fc_sb out;	/* the reply being sent */
	size_t sent;		/* bytes of out already sent */
	uint64_t deadline;	/* ms: dropped unless it makes progress */
};

struct fc_ctl_srv {
	struct fc_ctl *c;
	struct fc_ctl_client cl[FC_CTL_CLIENTS];
	struct pollfd pfd[FC_CTL_CLIENTS + 2];	/* stop, listen, clients */
	struct fc_ctl_client *pcl[FC_CTL_CLIENTS + 2];
	uint64_t accept_at;	/* ms: out of fds, accept again then */
};

static uint64_t fc_ctl_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void fc_ctl_drop(struct fc_ctl_client *cl)
{
	close(cl->fd);
	fc_sb_free(&cl->out);
	memset(cl, 0, sizeof(*cl));
	cl->fd = -1;
}

/* Progress (a command, or reply bytes sent) earns another idle period */
static void fc_ctl_alive(struct fc_ctl_client *cl)
{
	cl->deadline = fc_ctl_now() + FC_CTL_IDLE_MS;
}

/* Return: 0 when the reply is all sent, 1 when the socket is full, -1 */
static int fc_ctl_flush(struct fc_ctl_client *cl)
{
	ssize_t n;

	while (cl->sent < cl->out.len) {
		n = send(cl->fd, cl->out.buf + cl->sent,
			 cl->out.len - cl->sent, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 1;
		if (n <= 0)
			return -1;
		cl->sent += n;
		fc_ctl_alive(cl);
	}
	cl->out.len = cl->sent = 0;
	/* A dump can be megabytes: do not keep that much per idle client */
	if (cl->out.cap > 65536)
		fc_sb_free(&cl->out);
	return 0;
}

static void fc_ctl_consume(struct fc_ctl_client *cl, size_t n)
{
	memmove(cl->in, cl->in + n, cl->inlen - n);
	cl->inlen -= n;
}

/*
 * Put the reply to the next command in cl->out.  A line that fills the
 * buffer without a newline is answered at once, so the client does not
 * wait for the rest of it, which is then dropped up to its newline: one
 * reply per line still holds.  Return: false when there is no command.
 */
static bool fc_ctl_next(struct fc_ctl *c, struct fc_ctl_client *cl)
{
	char *nl = memchr(cl->in, '\n', cl->inlen);

	if (nl) {
		fc_ctl_line(c, cl->in, nl - cl->in, &cl->out);
		fc_ctl_consume(cl, nl - cl->in + 1);
	} else if (cl->inlen == sizeof(cl->in)) {
		fc_sb_printf(&cl->out, "error: line too long\n");
		cl->inlen = 0;
		cl->skip = true;
	} else if (cl->eof && cl->inlen) {
		/* A last line without its newline still counts */
		fc_ctl_line(c, cl->in, cl->inlen, &cl->out);
		cl->inlen = 0;
	} else {
		return false;
	}
	fc_ctl_alive(cl);
	return true;
}

/* Send what is pending, then answer commands until blocked or done */
static int fc_ctl_work(struct fc_ctl *c, struct fc_ctl_client *cl)
{
	int res;

	for (;;) {
		res = fc_ctl_flush(cl);
		if (res)
			return res < 0 ? -1 : 0;
		if (!fc_ctl_next(c, cl))
			return cl->eof ? -1 : 0;
	}
}

/* In the rest of an overlong line: drop bytes up to its newline */
static void fc_ctl_skip(struct fc_ctl_client *cl)
{
	char *nl = memchr(cl->in, '\n', cl->inlen);

	if (!nl) {
		cl->inlen = 0;
		return;
	}
	fc_ctl_consume(cl, nl - cl->in + 1);
	cl->skip = false;
}

/* Return: -1 when the client is to be dropped */
static int fc_ctl_recv(struct fc_ctl *c, struct fc_ctl_client *cl)
{
	ssize_t n;

	n = recv(cl->fd, cl->in + cl->inlen, sizeof(cl->in) - cl->inlen,
		 MSG_DONTWAIT);
	if (n == -1)
		return errno == EAGAIN || errno == EINTR ? 0 : -1;
	if (n == 0) {
		cl->eof = true;
	} else {
		cl->inlen += n;
		if (cl->skip)
			fc_ctl_skip(cl);
	}
	return fc_ctl_work(c, cl);
}

static struct fc_ctl_client *fc_ctl_free_slot(struct fc_ctl_srv *s)
{
	unsigned int i;

	for (i = 0; i < FC_CTL_CLIENTS; i++)
		if (s->cl[i].fd < 0)
			return &s->cl[i];
	return NULL;
}

static void fc_ctl_accept(struct fc_ctl_srv *s)
{
	static const char busy[] = "error: too many clients\n";
	struct fc_ctl_client *cl;
	int fd;

	fd = accept4(s->c->lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (fd == -1) {
		/* Out of fds, say: do not spin on a ready socket */
		if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
		    errno == ENOMEM)
			s->accept_at = fc_ctl_now() + 100;
		return;
	}
	cl = fc_ctl_free_slot(s);
	if (!cl) {
		/* Say why at once rather than leave it waiting */
		send(fd, busy, sizeof(busy) - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
		close(fd);
		return;
	}
	cl->fd = fd;
	fc_ctl_alive(cl);
}

static short fc_ctl_events(const struct fc_ctl_client *cl)
{
	return cl->sent < cl->out.len ? POLLOUT : POLLIN;
}

/* The poll timeout: until the next deadline, or -1 for none */
static int fc_ctl_timeout(const struct fc_ctl_srv *s, uint64_t now)
{
	uint64_t next = UINT64_MAX;
	unsigned int i;

	if (s->accept_at)
		next = s->accept_at;
	for (i = 0; i < FC_CTL_CLIENTS; i++)
		if (s->cl[i].fd >= 0 && s->cl[i].deadline < next)
			next = s->cl[i].deadline;
	if (next == UINT64_MAX)
		return -1;
	return next <= now ? 0 : (int)(next - now);
}

/* Return: the number of pollfds to watch */
static nfds_t fc_ctl_fill(struct fc_ctl_srv *s, uint64_t now)
{
	nfds_t n = 2;
	unsigned int i;

	if (s->accept_at && now >= s->accept_at)
		s->accept_at = 0;
	s->pfd[0] = (struct pollfd){ .fd = s->c->stop[0], .events = POLLIN };
	s->pfd[1] = (struct pollfd){ .fd = s->accept_at ? -1 : s->c->lfd,
				     .events = POLLIN };
	for (i = 0; i < FC_CTL_CLIENTS; i++) {
		if (s->cl[i].fd < 0)
			continue;
		s->pcl[n] = &s->cl[i];
		s->pfd[n++] = (struct pollfd){ .fd = s->cl[i].fd,
					       .events = fc_ctl_events(&s->cl[i]) };
	}
	return n;
}

/* Serve the clients poll() found ready, then drop the idle ones */
static void fc_ctl_serve(struct fc_ctl_srv *s, nfds_t n)
{
	struct fc_ctl_client *cl;
	uint64_t now;
	unsigned int i;
	int res;

	for (i = 2; i < n; i++) {
		cl = s->pcl[i];
		if (!s->pfd[i].revents)
			continue;
		if (s->pfd[i].events == POLLIN)
			res = fc_ctl_recv(s->c, cl);
		else
			res = fc_ctl_work(s->c, cl);
		if (res < 0)
			fc_ctl_drop(cl);
	}
	if (s->pfd[1].revents)
		fc_ctl_accept(s);
	now = fc_ctl_now();
	for (i = 0; i < FC_CTL_CLIENTS; i++)
		if (s->cl[i].fd >= 0 && now >= s->cl[i].deadline)
			fc_ctl_drop(&s->cl[i]);
}

static void *fc_ctl_main(void *arg)
{
	struct fc_ctl_srv *s = ((struct fc_ctl *)arg)->srv;
	unsigned int i;
	uint64_t now;
	nfds_t n;
	int res;

	for (;;) {
		now = fc_ctl_now();
		n = fc_ctl_fill(s, now);
		res = poll(s->pfd, n, fc_ctl_timeout(s, now));
		if (res == -1) {
			/* EINTR, or ENOMEM: the socket must stay served */
			if (errno != EINTR)
				poll(NULL, 0, 100);
			continue;
		}
		/* The pipe's write end closed: fc_ctl_close() stops us */
		if (s->pfd[0].revents)
			break;
		fc_ctl_serve(s, n);
	}
	for (i = 0; i < FC_CTL_CLIENTS; i++)
		if (s->cl[i].fd >= 0)
			fc_ctl_drop(&s->cl[i]);
	return NULL;
}

static struct fc_ctl_srv *fc_ctl_srv_new(struct fc_ctl *c)
{
	struct fc_ctl_srv *s = calloc(1, sizeof(*s));
	unsigned int i;

	if (!s)
		return NULL;
	s->c = c;
	for (i = 0; i < FC_CTL_CLIENTS; i++)
		s->cl[i].fd = -1;
	return s;
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

/*
 * The socket file gets exactly @mode: the umask is narrowed around bind()
 * so that it never exists with more, and chmod() follows because a
 * default ACL on the directory would override the umask.  Nobody can
 * connect before listen() in fc_ctl_start() anyway.  The umask is the
 * process's: call this before other threads create files.
 */
static int fc_ctl_bind(const struct sockaddr_un *sa, mode_t mode)
{
	mode_t old;
	int fd, err;

	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd == -1)
		return -errno;
	old = umask(~mode & 0777);
	err = bind(fd, (const struct sockaddr *)sa, sizeof(*sa)) ? -errno : 0;
	umask(old);
	if (!err && chmod(sa->sun_path, mode) == -1) {
		err = -errno;
		unlink(sa->sun_path);
	}
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

/* Split off @path's directory: "." when it has no slash */
static int fc_ctl_dirname(const char *path, char *dir, size_t size)
{
	const char *slash = strrchr(path, '/');
	size_t n;

	if (!slash)
		return snprintf(dir, size, ".") < (int)size ? 0 : -ENAMETOOLONG;
	n = slash == path ? 1 : (size_t)(slash - path);
	if (n >= size)
		return -ENAMETOOLONG;
	memcpy(dir, path, n);
	dir[n] = '\0';
	return 0;
}

/* Whoever may connect to the socket may also search its directory */
static mode_t fc_ctl_dir_mode(mode_t mode)
{
	return 0700 | (mode & 0060 ? 0010 : 0) | (mode & 0006 ? 0001 : 0);
}

/*
 * Make the socket's directory if it is missing (its last component only),
 * and refuse one that is not ours or that group or others may write to:
 * they could remove our socket and put their own in its place. The
 * directory itself is checked (lstat): a symlink, which another user may
 * have planted where fs.protected_symlinks=0, is refused whatever it
 * points to, so nothing behind it is ever bound or removed.
 */
static int fc_ctl_mkdir(struct fc_ctl *c, mode_t mode)
{
	mode_t dmode = fc_ctl_dir_mode(mode);
	struct stat st;

	if (mkdir(c->dir, dmode) == 0) {
		c->made_dir = true;
		/* As for the socket: a default ACL overrides the umask */
		if (chmod(c->dir, dmode) == -1)
			return -errno;
	} else if (errno != EEXIST) {
		return -errno;
	}
	if (lstat(c->dir, &st) == -1)
		return -errno;
	if (S_ISLNK(st.st_mode))
		return -EPERM;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (st.st_uid != geteuid() || (st.st_mode & 0022))
		return -EPERM;
	return 0;
}

/**
 * fc_ctl_open() - bind the control socket; fc_ctl_start() serves it
 * @c: control state
 * @path: where; relative paths are kept as given
 * @mode: the socket file's mode (FC_CTL_MODE: owner only)
 * @stats: counters to serve
 * @trace: trace to serve
 *
 * The directory of @path is created (mode 0700, plus search permission
 * for the group or others if @mode lets them connect) when missing, and
 * removed again by fc_ctl_close().
 *
 * Return: 0; -ENAMETOOLONG, -EPERM (the directory is not ours, or group
 * or others may write to it), -EADDRINUSE (a live fusecount owns @path),
 * -EEXIST (@path is not a socket), or another -errno.  On error nothing
 * is left to close.
 */
int fc_ctl_open(struct fc_ctl *c, const char *path, mode_t mode,
		struct fc_stats *stats, struct fc_trace *trace)
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
	err = fc_ctl_dirname(path, c->dir, sizeof(c->dir));
	if (!err)
		err = fc_ctl_mkdir(c, mode);
	if (!err)
		err = fc_ctl_claim(&sa);
	if (!err) {
		c->lfd = fc_ctl_bind(&sa, mode);
		err = c->lfd < 0 ? c->lfd : 0;
	}
	if (err) {
		c->lfd = -1;
		fc_ctl_close(c);
		return err;
	}
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

	if (listen(c->lfd, FC_CTL_CLIENTS) == -1 ||
	    pipe2(c->stop, O_CLOEXEC) == -1)
		return -errno;
	c->srv = fc_ctl_srv_new(c);
	if (!c->srv)
		return -ENOMEM;
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
	free(c->srv);
	c->srv = NULL;
	if (c->stop[0] >= 0) {
		close(c->stop[0]);
		c->stop[0] = -1;
	}
	if (c->lfd >= 0) {
		close(c->lfd);
		c->lfd = -1;
		unlink(c->path);
	}
	/* Only a directory we made, and only if nothing else is in it */
	if (c->made_dir) {
		rmdir(c->dir);
		c->made_dir = false;
	}
}
