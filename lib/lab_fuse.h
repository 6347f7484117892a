/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Guest-side helpers for tests that mount the counting FUSE backend
 * (fuse-backend/, binaries /usr/bin/fusecount and its control socket).
 *
 * The counters are read over the daemon's Unix socket, never through the
 * mount, so reading them costs no FUSE request.
 */
#ifndef LAB_FUSE_H
#define LAB_FUSE_H

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define LAB_FUSE_BIN	"/usr/bin/fusecount"
#define LAB_FUSE_MAGIC	0x65735546
#define LAB_REPLY_MAX	(1 << 20)

/*
 * Which kernel the guest runs: the .t wrapper says so in LAB_KERNEL,
 * ROLE-KVER from the kernel's line of lib/kernels.list ("stock-6.1",
 * "optin-6.12"), never its label. Any other value has no expectations
 * here: a test would check another kernel's counts, so it stops instead.
 */
enum lab_kernel { LAB_STOCK, LAB_PATCHED, LAB_OPTIN };

/* LAB_KERNEL's index in ids[]: its role, plus 3 on Linux 6.12 */
static inline unsigned int lab_kernel_id(void)
{
	static const char *const ids[] = {
		"stock-6.1", "patched-6.1", "optin-6.1",
		"stock-6.12", "patched-6.12", "optin-6.12",
	};
	const char *k = getenv("LAB_KERNEL");
	unsigned int i;

	for (i = 0; k && i < sizeof(ids) / sizeof(ids[0]); i++)
		if (!strcmp(k, ids[i]))
			return i;
	fprintf(stderr, "LAB_KERNEL=%s: not stock, patched or optin on 6.1 or 6.12 (ROLE-KVER): no expectations for it\n",
		k ? k : "(unset)");
	exit(2);
}

static inline enum lab_kernel lab_kernel(void)
{
	return lab_kernel_id() % 3;
}

/* Is it Linux 6.12 rather than 6.1? */
static inline bool lab_kver_6_12(void)
{
	return lab_kernel_id() >= 3;
}

/* The expected value on 6.1 and on 6.12 (where mainline changed it). */
#define ON_KVER(v6_1, v6_12)	(lab_kver_6_12() ? (v6_12) : (v6_1))

/* The expected value on each kernel: stock, patched, patched + opt-in. */
#define ON_KERNEL(stock, patched, optin)				\
	(lab_kernel() == LAB_STOCK ? (stock) :				\
	 lab_kernel() == LAB_PATCHED ? (patched) : (optin))

static inline void lab_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* CLOCK_MONOTONIC in milliseconds: where a test checks a time window. */
static inline long long lab_mono_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000LL + t.tv_nsec / 1000000;
}

/* Sleep until lab_mono_ms() reaches @when (at once if it has). */
static inline void lab_sleep_until_ms(long long when)
{
	long long now = lab_mono_ms();

	if (when > now)
		lab_sleep_ms(when - now);
}

/*
 * Send one command to the control socket; the reply (NUL-terminated,
 * malloc'd) is everything the daemon writes before closing or "end".
 */
static inline char *lab_ctl(const char *sock, const char *cmd)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	size_t len = 0;
	char *buf;
	ssize_t n;
	int fd;

	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0)
		return NULL;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock);
	buf = calloc(1, LAB_REPLY_MAX);
	if (!buf || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    write(fd, cmd, strlen(cmd)) != (ssize_t)strlen(cmd) ||
	    write(fd, "\n", 1) != 1)
		goto fail;
	shutdown(fd, SHUT_WR);
	while (len < LAB_REPLY_MAX - 1 &&
	       (n = read(fd, buf + len, LAB_REPLY_MAX - 1 - len)) > 0)
		len += n;
	close(fd);
	return buf;
fail:
	free(buf);
	close(fd);
	return NULL;
}

/* The count of one opcode ("LOOKUP") in a stats reply; absent means 0. */
static inline long lab_count(const char *stats, const char *op)
{
	char key[64];
	const char *p;

	snprintf(key, sizeof(key), "\"%s\":", op);
	p = stats ? strstr(stats, key) : NULL;
	return p ? strtol(p + strlen(key), NULL, 10) : (stats ? 0 : -1);
}

/* A FUSE mount of the counting daemon, and what it needs to go away. */
struct lab_fuse {
	pid_t pid;
	char back[64];
	char mnt[64];
	char sock[64];
};

static inline int lab_fuse_mounted(const char *mnt)
{
	struct statfs sf;

	return !statfs(mnt, &sf) && sf.f_type == LAB_FUSE_MAGIC;
}

/*
 * Start the daemon on @back over @mnt with the -o options @opts (the
 * control socket is added) and wait up to 5 s for the mount.
 */
static inline int lab_fuse_start(struct lab_fuse *f, const char *name,
				 const char *opts)
{
	char o[256];
	int i;

	snprintf(f->back, sizeof(f->back), "/tmp/%s.back", name);
	snprintf(f->mnt, sizeof(f->mnt), "/tmp/%s.mnt", name);
	/*
	 * fusecount makes the socket's directory (0700) and removes it at
	 * exit; it refuses one that others may write to, such as /tmp.
	 */
	snprintf(f->sock, sizeof(f->sock), "/tmp/%s.ctl/sock", name);
	snprintf(o, sizeof(o), "ctl=%s%s%s", f->sock, *opts ? "," : "", opts);
	mkdir(f->back, 0755);
	mkdir(f->mnt, 0755);
	f->pid = fork();
	if (f->pid < 0)
		return -1;
	if (f->pid == 0) {
		execl(LAB_FUSE_BIN, "fusecount", "-f", "-o", o, f->back,
		      f->mnt, (char *)NULL);
		_exit(127);
	}
	for (i = 0; i < 500; i++) {
		if (lab_fuse_mounted(f->mnt) && !access(f->sock, F_OK))
			return 0;
		if (waitpid(f->pid, NULL, WNOHANG) == f->pid)
			return -1;
		lab_sleep_ms(10);
	}
	return -1;
}

static inline void lab_fuse_stop(struct lab_fuse *f)
{
	if (f->pid <= 0)
		return;
	kill(f->pid, SIGTERM);
	waitpid(f->pid, NULL, 0);
	f->pid = 0;
}

#ifdef ASSERT_NE
/*
 * For the guest tests (kselftest_harness.h first): fusecount's counters
 * reset before @call, its stats after it into *@stats (freed first).
 */
#define FUSE_MEASURE(fs, stats, call)					\
	do {								\
		free(lab_ctl((fs)->sock, "reset"));			\
		call;							\
		free(*(stats));						\
		*(stats) = lab_ctl((fs)->sock, "stats");		\
		ASSERT_NE(NULL, *(stats));				\
	} while (0)
#endif

#endif /* LAB_FUSE_H */
