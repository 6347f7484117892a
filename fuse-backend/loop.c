// SPDX-License-Identifier: GPL-2.0
/*
 * fusecount: our own session loop.  fuse_session_loop() and
 * fuse_session_loop_mt() would hand every request to libfuse, which
 * answers FUSE_STATX with ENOSYS; so each worker receives a buffer itself,
 * counts it, applies the emulated latency, and then either answers
 * FUSE_STATX (statx.c) or calls fuse_session_process_buf().
 *
 * Replies are seen through a custom writev (fuse_session_custom_io() on
 * the mounted fd), the one path every reply takes, libfuse's and ours.
 * Each worker dispatches synchronously, so the reply to the request in
 * hand is recognised by its unique in a thread-local record.
 *
 * Requests must arrive in memory, never spliced into a pipe: the custom
 * io has no splice_receive, and the init handler clears the splice caps.
 */
#include <errno.h>
#include <semaphore.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "init.h"
#include "loop.h"
#include "req.h"
#include "stats.h"
#include "statx.h"
#include "trace.h"

#define FC_WAKE_SIG	SIGUSR1	/* interrupts a worker's read() */

struct fc_worker {
	struct fuse_session *se;
	struct fc_data *d;
	struct fuse_buf buf;	/* allocated by libfuse, freed by us */
	pthread_t thread;
	sem_t *done;		/* posted when this worker returns */
	int err;		/* -errno that stopped it, or 0 */
};

/*
 * The request being dispatched by this thread, and how it was answered.
 * It is traced just before its reply is written: once the kernel has the
 * reply, the caller may read the trace, which must already show it.
 */
static _Thread_local struct {
	bool active;
	bool traced;
	uint64_t grant;		/* INIT flags to add to this reply */
	uint64_t start;		/* usec, when the request was received */
	struct fc_req req;
	struct fc_trace *trace;
	struct fc_reply rep;
} fc_cur;

static ssize_t fc_io_read(int fd, void *buf, size_t len, void *userdata)
{
	ssize_t n;

	(void)userdata;
	n = read(fd, buf, len);
	/* /dev/fuse never returns 0; a socket (see tests) does at its end */
	if (n == 0) {
		errno = ENODEV;
		return -1;
	}
	return n;
}

static uint64_t fc_now_usec(void);

/* Trace the request in hand, once: at its reply, or after it if none */
static void fc_cur_trace(bool replied, int32_t error)
{
	if (fc_cur.traced)
		return;
	fc_cur.traced = true;
	fc_cur.rep.replied = replied;
	fc_cur.rep.error = error;
	fc_cur.rep.usec = fc_now_usec() - fc_cur.start;
	fc_trace_record(fc_cur.trace, &fc_cur.req, &fc_cur.rep);
}

/*
 * libfuse's INIT reply, with fc_cur.grant added: gathered into one buffer,
 * as the kernel reads a reply whole anyway.
 */
static ssize_t fc_io_writev_init(int fd, const struct iovec *iov, int count)
{
	unsigned char msg[sizeof(struct fuse_out_header) +
			  sizeof(struct fuse_init_out)];
	struct iovec one = { .iov_base = msg };
	size_t len = 0;
	int i;

	for (i = 0; i < count; i++) {
		if (iov[i].iov_len > sizeof(msg) - len)
			return writev(fd, iov, count);	/* not ours to change */
		memcpy(msg + len, iov[i].iov_base, iov[i].iov_len);
		len += iov[i].iov_len;
	}
	one.iov_len = len;
	fc_init_grant(msg, len, fc_cur.grant);
	return writev(fd, &one, 1);
}

/**
 * fc_io_writev() - send one message to the kernel, noting our reply
 * @fd: the session fd
 * @iov: the message, starting with a struct fuse_out_header
 * @count: number of iovecs
 * @userdata: unused
 *
 * Return: as writev(2).
 */
ssize_t fc_io_writev(int fd, struct iovec *iov, int count, void *userdata)
{
	struct fuse_out_header hdr;

	(void)userdata;
	if (fc_cur.active && count > 0 && iov[0].iov_len >= sizeof(hdr)) {
		memcpy(&hdr, iov[0].iov_base, sizeof(hdr));
		if (hdr.unique == fc_cur.req.unique) {
			fc_cur_trace(true, hdr.error);
			if (fc_cur.grant)
				return fc_io_writev_init(fd, iov, count);
		}
	}
	return writev(fd, iov, count);
}

const struct fuse_custom_io fc_io = {
	.read = fc_io_read,
	.writev = fc_io_writev,
};

static uint64_t fc_now_nsec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static uint64_t fc_now_usec(void)
{
	return fc_now_nsec() / 1000;
}

/*
 * How long before the end of a delay fc_delay() stops sleeping and polls
 * the clock: a guest under TCG wakes 0.1-0.2 ms after its timer (0.3 ms
 * and more while the host is busy), which a sleep to the end would add
 * to every delayed request.
 */
#define FC_DELAY_POLL_NS	300000ULL

/*
 * Take @us from now before answering: sleep to FC_DELAY_POLL_NS before
 * the end, then poll. Cut short only when the session is shut down.
 */
static void fc_delay(struct fuse_session *se, unsigned int us)
{
	uint64_t end = fc_now_nsec() + us * 1000ULL;
	uint64_t sleep_ns = us * 1000ULL;
	struct timespec ts;

	if (sleep_ns > FC_DELAY_POLL_NS) {
		sleep_ns -= FC_DELAY_POLL_NS;
		ts.tv_sec = sleep_ns / 1000000000;
		ts.tv_nsec = sleep_ns % 1000000000;
		while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
			if (fuse_session_exited(se))
				return;
	}
	while (fc_now_nsec() < end)
		if (fuse_session_exited(se))
			return;
}

/* Answer FUSE_STATX through fc_io_writev(), as libfuse's replies go */
static void fc_loop_statx(struct fc_data *d, int fd, const void *buf,
			  size_t len)
{
	struct fc_statx_reply rep;
	struct iovec iov = { .iov_base = &rep };

	iov.iov_len = fc_statx_answer(d, buf, len, &rep);
	/* ENOENT: the request was interrupted, and nobody waits any more */
	if (fc_io_writev(fd, &iov, 1, NULL) == -1 && errno != ENOENT)
		fuse_log(FUSE_LOG_ERR, "fusecount: STATX reply: %s\n",
			 strerror(errno));
}

/* Count, delay, dispatch and trace one request of @len bytes */
/* The INIT flags we add to the reply to this request: those it offers */
static uint64_t fc_loop_grant(const struct fc_data *d, const void *buf,
			      size_t len)
{
	uint64_t grant = 0;

	if (d->dont_sync_entries &&
	    fc_init_offers(buf, len, FUSE_DONT_SYNC_ENTRIES))
		grant |= FUSE_DONT_SYNC_ENTRIES;
	if (d->change_cookie &&
	    fc_init_offers(buf, len, FUSE_STATX_CHANGE_COOKIE))
		grant |= FUSE_STATX_CHANGE_COOKIE;
	return grant;
}

static void fc_loop_dispatch(struct fc_worker *w, size_t len)
{
	struct fc_data *d = w->d;
	unsigned int delay_us;

	/* Splicing is off (see above); a pipe buffer could not be counted */
	if (w->buf.flags & FUSE_BUF_IS_FD) {
		fuse_log(FUSE_LOG_ERR, "fusecount: spliced request\n");
		fuse_session_exit(w->se);
		return;
	}
	memset(&fc_cur, 0, sizeof(fc_cur));
	fc_cur.start = fc_now_usec();
	fc_req_decode(w->buf.mem, len, &fc_cur.req);
	fc_stats_count(&d->stats, &fc_cur.req);

	fc_cur.trace = &d->trace;
	fc_cur.grant = fc_loop_grant(d, w->buf.mem, len);
	fc_cur.active = true;
	delay_us = __atomic_load_n(&d->delay_us, __ATOMIC_RELAXED);
	if (delay_us)
		fc_delay(w->se, delay_us);
	/* With nostatx, libfuse answers ENOSYS as a daemon without statx */
	if (fc_cur.req.opcode == FUSE_STATX && !d->nostatx)
		fc_loop_statx(d, fuse_session_fd(w->se), w->buf.mem, len);
	else
		fuse_session_process_buf(w->se, &w->buf);
	/* FORGET and the like have no reply */
	fc_cur_trace(false, 0);
	fc_cur.active = false;
}

/*
 * Return: 0 once the session has exited (unmount, signal, or another
 * worker's error), or the -errno that stopped this worker.
 */
static int fc_worker_loop(struct fc_worker *w)
{
	int res;

	while (!fuse_session_exited(w->se)) {
		res = fuse_session_receive_buf(w->se, &w->buf);
		if (res == -EINTR || res == -EAGAIN)
			continue;
		if (res < 0)
			return res;
		if (res == 0)	/* libfuse saw ENODEV or an exit */
			break;
		fc_loop_dispatch(w, res);
	}
	return 0;
}

static void *fc_worker_main(void *arg)
{
	struct fc_worker *w = arg;

	w->err = fc_worker_loop(w);
	fuse_session_exit(w->se);
	sem_post(w->done);
	return NULL;
}

/*
 * Sleep until the session exits.  The wait is timed because a signal that
 * arrives between the check and sem_wait() would otherwise be lost.
 */
static void fc_loop_wait(struct fuse_session *se, sem_t *done)
{
	struct timespec ts;

	while (!fuse_session_exited(se)) {
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += 1;
		if (sem_timedwait(done, &ts) == 0)
			break;
	}
}

static void fc_wake(int sig)
{
	(void)sig;
}

static int fc_loop_start(struct fc_worker *w, unsigned int n,
			 unsigned int *started)
{
	sigset_t block, old;
	unsigned int i;
	int err = 0;

	/* Signals go to the waiting thread, whose sem_wait they interrupt */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	for (i = 0; i < n; i++) {
		err = -pthread_create(&w[i].thread, NULL, fc_worker_main,
				      &w[i]);
		if (err)
			break;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	*started = i;
	return err;
}

/*
 * A worker blocked in read() waits for a request that may never come: a
 * signal without SA_RESTART makes read() fail with EINTR, and libfuse then
 * sees the exit.  It is sent again until the worker is gone, in case it
 * arrived just before the read.  (Cancellation would do, as in libfuse's
 * own loop, but unwinding through libfuse upsets ASan.)
 */
static int fc_worker_stop(struct fc_worker *w)
{
	struct timespec ts;

	do {
		pthread_kill(w->thread, FC_WAKE_SIG);
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 20 * 1000 * 1000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
	} while (pthread_timedjoin_np(w->thread, NULL, &ts) == ETIMEDOUT);
	free(w->buf.mem);
	return w->err;
}

static int fc_loop_mt(struct fuse_session *se, struct fc_data *d,
		      unsigned int n)
{
	struct sigaction sa = { .sa_handler = fc_wake }, old_sa;
	struct fc_worker *w;
	unsigned int i, started;
	sem_t done;
	int err, werr;

	w = calloc(n, sizeof(*w));
	if (!w)
		return -ENOMEM;
	sem_init(&done, 0, 0);
	for (i = 0; i < n; i++) {
		w[i].se = se;
		w[i].d = d;
		w[i].done = &done;
	}
	sigemptyset(&sa.sa_mask);
	sigaction(FC_WAKE_SIG, &sa, &old_sa);

	err = fc_loop_start(w, n, &started);
	if (!err)
		fc_loop_wait(se, &done);
	fuse_session_exit(se);
	for (i = 0; i < started; i++) {
		werr = fc_worker_stop(&w[i]);
		if (!err)
			err = werr;
	}

	sigaction(FC_WAKE_SIG, &old_sa, NULL);
	sem_destroy(&done);
	free(w);
	return err;
}

/**
 * fc_loop_run() - serve requests until unmount, a signal or an error
 * @se: a mounted session (or one with a custom io, in tests)
 * @d: daemon state
 * @nthreads: 1 to serve in the calling thread, or that many workers
 *
 * Return: 0 on a clean exit, or -errno.
 */
int fc_loop_run(struct fuse_session *se, struct fc_data *d,
		unsigned int nthreads)
{
	struct fc_worker w = { .se = se, .d = d };
	int err;

	if (nthreads > 1)
		return fc_loop_mt(se, d, nthreads);
	err = fc_worker_loop(&w);
	free(w.buf.mem);
	return err;
}
