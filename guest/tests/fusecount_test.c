// SPDX-License-Identifier: GPL-2.0
/*
 * The counting FUSE backend itself (fuse-backend/fusecount), in a guest:
 * exact counts for stat, ls -l (READDIRPLUS on and off), negative entries
 * and unhandled opcodes, exact counting with several worker threads and
 * an emulated latency, injected delay, FUSE_STATX answered by the daemon
 * (btime, sync mode, trace), its policies (a private control socket,
 * deny_uid, statx_drop), clean exit on unmount and on SIGTERM. Runs on
 * the stock and the patched kernel; where the kernel matters (FUSE_STATX
 * on patched) the expectation says so.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "kselftest_harness.h"
#include "lab_fuse.h"

#define NFILES	20

#define MEASURE(call)	FUSE_MEASURE(&self->fs, &self->stats, call)

#define COUNT(op)	lab_count(self->stats, op)
#define ATTR_OP		(lab_kernel() == LAB_STOCK ? "GETATTR" : "STATX")
#define NOBODY		65534

/* The opcode counters of a stats reply added up: all come before total */
static long sum_ops(const char *stats)
{
	const char *end = strstr(stats, "\"total\"");
	const char *p = stats;
	long sum = 0;

	while (end && (p = strstr(p, "\":")) && p < end) {
		p += 2;
		sum += strtol(p, NULL, 10);
	}
	return sum;
}

/* Whether one line of @text holds both @a and @b. */
static bool has_line(const char *text, const char *a, const char *b)
{
	const char *p = text, *nl;

	while ((p = strstr(p, a))) {
		const char *bol = p;

		while (bol > text && bol[-1] != '\n')
			bol--;
		nl = strchrnul(p, '\n');
		p = strstr(bol, b);
		if (p && p < nl)
			return true;
		p = nl;
	}
	return false;
}

static int stat_errno(const char *path)
{
	struct stat st;

	return stat(path, &st) ? errno : 0;
}

static int connect_errno(const char *sock)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd, err;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0)
		return errno;
	err = connect(fd, (struct sockaddr *)&sa, sizeof(sa)) ? errno : 0;
	close(fd);
	return err;
}

/* @fn(@arg) in a child running as @uid: the errno it ends with. */
static int errno_as(uid_t uid, int (*fn)(const char *), const char *arg)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if (setgid(uid) || setuid(uid))
			_exit(255);
		_exit(fn(arg));
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* Wait up to 3 s for the daemon to exit: its wait status, or -1. */
static int wait_daemon(struct lab_fuse *fs)
{
	int status, i;

	for (i = 0; i < 300; i++) {
		if (waitpid(fs->pid, &status, WNOHANG) == fs->pid) {
			fs->pid = 0;
			return status;
		}
		lab_sleep_ms(10);
	}
	return -1;
}

FIXTURE(daemon) {
	struct lab_fuse fs;
	char *stats;
	char dir[128];		/* mnt/dir, holding NFILES files */
};

FIXTURE_VARIANT(daemon) {
	const char *opts;
	int readdirplus;	/* 1 when READDIRPLUS is expected */
};

FIXTURE_VARIANT_ADD(daemon, rdplus_on) {
	.opts = "entry_timeout=60,attr_timeout=60,readdirplus=on",
	.readdirplus = 1,
};

FIXTURE_VARIANT_ADD(daemon, rdplus_off) {
	.opts = "entry_timeout=60,attr_timeout=60,readdirplus=off",
	.readdirplus = 0,
};

/* 4 workers, each request 2 ms late: requests overlap in the daemon */
FIXTURE_VARIANT_ADD(daemon, threads4) {
	.opts = "entry_timeout=60,attr_timeout=0,threads=4,delay_us=2000",
	.readdirplus = 1,
};

FIXTURE_SETUP(daemon)
{
	char name[32], p[160];
	int i, fd;

	snprintf(name, sizeof(name), "fc%d", getpid());
	ASSERT_EQ(0, lab_fuse_start(&self->fs, name, variant->opts))
		TH_LOG("fusecount did not mount (opts %s)", variant->opts);
	snprintf(p, sizeof(p), "%s/dir", self->fs.back);
	ASSERT_EQ(0, mkdir(p, 0755));
	for (i = 0; i < NFILES; i++) {
		snprintf(p, sizeof(p), "%s/dir/file%02d", self->fs.back, i);
		fd = open(p, O_CREAT | O_WRONLY, 0644);
		ASSERT_LE(0, fd);
		close(fd);
	}
	snprintf(self->dir, sizeof(self->dir), "%s/dir", self->fs.mnt);
}

FIXTURE_TEARDOWN(daemon)
{
	free(self->stats);
	(void)umount2(self->fs.mnt, MNT_DETACH);
	lab_fuse_stop(&self->fs);
}

/* Run a command in a child, output to /dev/null; its exit status. */
static int run(const char *const argv[])
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * busybox ls -l of a directory of NFILES files, cold cache. readdirplus
 * on: one LOOKUP for the directory, OPENDIR, two READDIRPLUS (the page of
 * entries, then the empty one that ends the stream), RELEASEDIR; the
 * entries come with attributes, so the lstat of each costs nothing.
 * readdirplus off: two READDIR, then one LOOKUP per file. RELEASEDIR is
 * sent in the background when the last reference goes, so it may still
 * be on its way when the counters are read: at most one.
 */
TEST_F(daemon, ls_l_cold)
{
	const char *const argv[] = { "/bin/ls", "-l", self->dir, NULL };

	if (strstr(variant->opts, "attr_timeout=0"))
		SKIP(return, "needs cached attributes");
	MEASURE(ASSERT_EQ(0, run(argv)));
	EXPECT_EQ(1, COUNT("OPENDIR"));
	EXPECT_GE(1, COUNT("RELEASEDIR"));
	EXPECT_EQ(variant->readdirplus ? 2 : 0, COUNT("READDIRPLUS"));
	EXPECT_EQ(variant->readdirplus ? 0 : 2, COUNT("READDIR"));
	EXPECT_EQ(variant->readdirplus ? 1 : 1 + NFILES, COUNT("LOOKUP"));
	EXPECT_EQ(0, COUNT("GETATTR"));
	EXPECT_EQ(0, COUNT("STATX"));
}

/*
 * The same ls -l again: names and attributes cached, the directory read
 * again. Reading it marked the directory's atime stale
 * (fuse_invalidate_atime), so ls's stat of the directory refreshes it:
 * exactly one attribute request, none for the files.
 */
TEST_F(daemon, ls_l_warm)
{
	const char *const argv[] = { "/bin/ls", "-l", self->dir, NULL };

	if (strstr(variant->opts, "attr_timeout=0"))
		SKIP(return, "needs cached attributes");
	ASSERT_EQ(0, run(argv));
	MEASURE(ASSERT_EQ(0, run(argv)));
	EXPECT_EQ(0, COUNT("LOOKUP"));
	EXPECT_EQ(1, COUNT(ATTR_OP));
	EXPECT_EQ(1, COUNT("OPENDIR"));
	/* readdirplus=on and =off leave the kernel no choice (no _AUTO) */
	EXPECT_EQ(variant->readdirplus ? 2 : 0, COUNT("READDIRPLUS"));
	EXPECT_EQ(variant->readdirplus ? 0 : 2, COUNT("READDIR"));
}

/* Several processes hit the daemon at once: no request is lost. */
TEST_F(daemon, counts_exact_under_concurrency)
{
	enum { PROCS = 4, CALLS = 250 };
	struct stat st;
	char p[160];
	int i, status;

	if (!strstr(variant->opts, "attr_timeout=0"))
		SKIP(return, "needs attr_timeout=0: one request per stat");
	snprintf(p, sizeof(p), "%s/file00", self->dir);
	ASSERT_EQ(0, stat(p, &st));
	free(lab_ctl(self->fs.sock, "reset"));
	for (i = 0; i < PROCS; i++) {
		if (fork() == 0) {
			int n;

			for (n = 0; n < CALLS; n++)
				if (stat(p, &st))
					_exit(1);
			_exit(0);
		}
	}
	for (i = 0; i < PROCS; i++) {
		ASSERT_LT(0, wait(&status));
		EXPECT_EQ(0, WEXITSTATUS(status));
	}
	free(self->stats);
	self->stats = lab_ctl(self->fs.sock, "stats");
	EXPECT_EQ(PROCS * CALLS, COUNT(ATTR_OP));
	EXPECT_EQ(PROCS * CALLS, COUNT("total"));
	EXPECT_EQ(COUNT("total"), sum_ops(self->stats));
}

/* An opcode the daemon has no handler for is counted, then refused. */
TEST_F(daemon, unhandled_opcode_counted)
{
	char p[160];
	int fd, flags;

	snprintf(p, sizeof(p), "%s/file00", self->dir);
	fd = open(p, O_RDONLY);
	ASSERT_LE(0, fd);
	MEASURE(EXPECT_EQ(-1, ioctl(fd, FS_IOC_GETFLAGS, &flags)));
	/* FUSE_IOCTL answered ENOSYS: the kernel says ENOTTY. */
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(1, COUNT("IOCTL"));
	close(fd);
}

TEST_F(daemon, negative_lookups)
{
	struct stat st;
	char p[160];

	snprintf(p, sizeof(p), "%s/missing", self->dir);
	MEASURE(EXPECT_EQ(-1, stat(p, &st)));
	/* LOOKUP of dir, then of missing; negative_timeout=0: not cached. */
	EXPECT_EQ(2, COUNT("LOOKUP"));
	MEASURE(EXPECT_EQ(-1, stat(p, &st)));
	EXPECT_EQ(1, COUNT("LOOKUP"));
	EXPECT_EQ(ENOENT, errno);
}

/* Unmounting ends the daemon, cleanly, and removes its socket. */
TEST_F(daemon, exits_on_unmount)
{
	int status;

	ASSERT_EQ(0, umount2(self->fs.mnt, 0));
	status = wait_daemon(&self->fs);
	ASSERT_NE(-1, status) TH_LOG("daemon still running 3 s after umount");
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_NE(0, access(self->fs.sock, F_OK));
}

/*
 * SIGTERM to a foreground daemon, 1 or 4 workers: it unmounts, removes
 * its socket and exits 0 (the setup saw it mounted with the socket up).
 */
TEST_F(daemon, exits_on_sigterm)
{
	int status;

	ASSERT_EQ(0, kill(self->fs.pid, SIGTERM));
	status = wait_daemon(&self->fs);
	ASSERT_NE(-1, status) TH_LOG("daemon still running 3 s after SIGTERM");
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_FALSE(lab_fuse_mounted(self->fs.mnt));
	EXPECT_NE(0, access(self->fs.sock, F_OK));
}

/* The wall time of one stat() of @path, in microseconds. */
static long stat_us(const char *path)
{
	struct timespec t0, t1;
	struct stat st;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = stat(path, &st);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (ret)
		return -1;
	return (t1.tv_sec - t0.tv_sec) * 1000000L +
	       (t1.tv_nsec - t0.tv_nsec) / 1000;
}

/* delay_us makes every request cost at least that much. */
TEST(injected_delay)
{
	struct lab_fuse fs;
	char name[32], p[160];

	snprintf(name, sizeof(name), "dl%d", getpid());
	ASSERT_EQ(0, lab_fuse_start(&fs, name, "attr_timeout=0,delay_us=20000"));
	snprintf(p, sizeof(p), "%s/x", fs.back);
	ASSERT_EQ(0, mkdir(p, 0755));
	snprintf(p, sizeof(p), "%s/x", fs.mnt);
	ASSERT_LE(0, stat_us(p));
	/* One request (the attribute refresh): at least one delay. */
	EXPECT_LE(20000, stat_us(p));
	(void)umount2(fs.mnt, MNT_DETACH);
	lab_fuse_stop(&fs);
}

/*
 * "delay US" on the control socket sets the delay from the next request
 * on: fusebench primes at full speed and delays only what it measures.
 * 200 ms against 0: far apart even with TCG's 4 ms ticks.
 */
TEST(ctl_delay)
{
	struct lab_fuse fs;
	char name[32], p[160], *reply;

	snprintf(name, sizeof(name), "cd%d", getpid());
	ASSERT_EQ(0, lab_fuse_start(&fs, name, "attr_timeout=0"));
	snprintf(p, sizeof(p), "%s/x", fs.back);
	ASSERT_EQ(0, mkdir(p, 0755));
	snprintf(p, sizeof(p), "%s/x", fs.mnt);
	ASSERT_LE(0, stat_us(p));
	EXPECT_GT(100000, stat_us(p));
	reply = lab_ctl(fs.sock, "delay 200000");
	ASSERT_NE(NULL, reply);
	EXPECT_STREQ("ok\n", reply);
	free(reply);
	EXPECT_LE(200000, stat_us(p));
	reply = lab_ctl(fs.sock, "delay 0");
	ASSERT_NE(NULL, reply);
	free(reply);
	EXPECT_GT(100000, stat_us(p));
	(void)umount2(fs.mnt, MNT_DETACH);
	lab_fuse_stop(&fs);
}

/*
 * fusecount keeps an O_PATH fd per inode the kernel knows: with a soft
 * limit of 64 descriptors, looking up 200 names needs it to raise its
 * own limit (to the hard one), or the lookups fail with EMFILE.
 */
TEST(raises_nofile)
{
	struct rlimit low = { 64, 0 }, saved;
	struct lab_fuse fs;
	struct stat st;
	char name[32], p[160];
	int i, failed = 0;

	snprintf(name, sizeof(name), "nf%d", getpid());
	ASSERT_EQ(0, getrlimit(RLIMIT_NOFILE, &saved));
	ASSERT_LT(1024, saved.rlim_max);
	low.rlim_max = saved.rlim_max;
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &low));
	/* the daemon inherits the low soft limit */
	i = lab_fuse_start(&fs, name, "entry_timeout=60,attr_timeout=60");
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &saved));
	ASSERT_EQ(0, i);
	for (i = 0; i < 200; i++) {
		snprintf(p, sizeof(p), "%s/f%03d", fs.back, i);
		ASSERT_EQ(0, mknod(p, S_IFREG | 0644, 0));
	}
	for (i = 0; i < 200; i++) {
		snprintf(p, sizeof(p), "%s/f%03d", fs.mnt, i);
		failed += stat(p, &st) != 0;
	}
	EXPECT_EQ(0, failed);
	(void)umount2(fs.mnt, MNT_DETACH);
	lab_fuse_stop(&fs);
}

/*
 * stat() and statx() with every cache timeout 0: stat is one LOOKUP and
 * one attribute request (FUSE_STATX on patched, GETATTR on stock); a
 * FORCE_SYNC statx of an O_PATH fd (by name, the walk's LOOKUP would
 * answer it) is one FUSE_STATX on patched, answered by fusecount with the
 * birth time, and nothing on stock; the trace and the sync-mode counter
 * show it; a change to the backing file shows through.
 */
TEST(stat_and_statx)
{
	unsigned int mask = STATX_BASIC_STATS | STATX_BTIME;
	bool patched = lab_kernel() != LAB_STOCK;
	struct lab_fuse fs;
	struct statx stx;
	char name[32], p[160], *stats, *dump;
	int fd, pfd;

	snprintf(name, sizeof(name), "sx%d", getpid());
	ASSERT_EQ(0, lab_fuse_start(&fs, name,
				    "attr_timeout=0,entry_timeout=0"));
	snprintf(p, sizeof(p), "%s/x", fs.back);
	fd = open(p, O_CREAT | O_WRONLY, 0644);
	ASSERT_EQ(6, write(fd, "hello\n", 6));
	snprintf(p, sizeof(p), "%s/x", fs.mnt);

	free(lab_ctl(fs.sock, "reset"));
	EXPECT_EQ(0, stat_errno(p));
	stats = lab_ctl(fs.sock, "stats");
	ASSERT_NE(NULL, stats);
	EXPECT_EQ(1, lab_count(stats, "LOOKUP"));
	EXPECT_EQ(1, lab_count(stats, ATTR_OP));
	EXPECT_EQ(0, lab_count(stats, patched ? "GETATTR" : "STATX"));
	EXPECT_EQ(lab_count(stats, "total"), sum_ops(stats));
	free(stats);

	pfd = open(p, O_PATH);
	ASSERT_LE(0, pfd);
	free(lab_ctl(fs.sock, "reset"));
	EXPECT_EQ(0, statx(pfd, "", AT_EMPTY_PATH | AT_STATX_FORCE_SYNC, mask,
			   &stx));
	close(pfd);
	stats = lab_ctl(fs.sock, "stats");
	ASSERT_NE(NULL, stats);
	EXPECT_EQ(patched, lab_count(stats, "STATX"));
	EXPECT_EQ(patched, !!(stx.stx_mask & STATX_BTIME))
		TH_LOG("the birth time comes only through FUSE_STATX");
	if (patched)
		EXPECT_NE(NULL, strstr(stats, "\"force\":1"));
	free(stats);
	dump = lab_ctl(fs.sock, "dump");
	ASSERT_NE(NULL, dump);
	EXPECT_TRUE(strlen(dump) >= 4 &&
		    !strcmp(dump + strlen(dump) - 4, "end\n"));
	EXPECT_EQ(patched, has_line(dump, "\"op\":\"STATX\"",
				    "\"sx_flags\":\"0x2000\""));
	free(dump);

	ASSERT_EQ(5, write(fd, "more\n", 5));
	close(fd);
	EXPECT_EQ(0, statx(AT_FDCWD, p, 0, STATX_SIZE, &stx));
	EXPECT_EQ(11, stx.stx_size);
	ASSERT_EQ(0, umount2(fs.mnt, 0));
	EXPECT_NE(-1, wait_daemon(&fs));
	EXPECT_FALSE(lab_fuse_mounted(fs.mnt));
	lab_fuse_stop(&fs);
}

/*
 * The control socket is root's alone (0600, in a directory made 0700);
 * -o deny_uid answers a LOOKUP from that uid EACCES (allow_other lets
 * the uid in at all), counts it and traces it; at exit the socket and
 * its directory go.
 */
TEST(private_socket_and_deny_uid)
{
	struct lab_fuse fs;
	struct stat st;
	char name[32], p[160], dir[80], *stats, *dump;

	snprintf(name, sizeof(name), "du%d", getpid());
	ASSERT_EQ(0, lab_fuse_start(&fs, name,
		"attr_timeout=0,entry_timeout=0,allow_other,deny_uid=65534"));
	ASSERT_EQ(0, stat(fs.sock, &st));
	EXPECT_EQ(S_IFSOCK | 0600, st.st_mode);
	snprintf(dir, sizeof(dir), "%s", fs.sock);
	*strrchr(dir, '/') = '\0';
	ASSERT_EQ(0, stat(dir, &st));
	EXPECT_EQ(S_IFDIR | 0700, st.st_mode);
	EXPECT_EQ(EACCES, errno_as(NOBODY, connect_errno, fs.sock));

	snprintf(p, sizeof(p), "%s/x", fs.back);
	ASSERT_EQ(0, mknod(p, S_IFREG | 0644, 0));
	snprintf(p, sizeof(p), "%s/x", fs.mnt);
	free(lab_ctl(fs.sock, "reset"));
	EXPECT_EQ(EACCES, errno_as(NOBODY, stat_errno, p));
	EXPECT_EQ(0, stat_errno(p));
	stats = lab_ctl(fs.sock, "stats");
	ASSERT_NE(NULL, stats);
	/* nobody's LOOKUP, refused, then root's */
	EXPECT_EQ(2, lab_count(stats, "LOOKUP"));
	free(stats);
	dump = lab_ctl(fs.sock, "dump");
	ASSERT_NE(NULL, dump);
	EXPECT_TRUE(has_line(dump, "\"op\":\"LOOKUP\"", "\"error\":-13"));
	free(dump);

	ASSERT_EQ(0, umount2(fs.mnt, 0));
	EXPECT_NE(-1, wait_daemon(&fs));
	EXPECT_NE(0, access(fs.sock, F_OK));
	EXPECT_NE(0, access(dir, F_OK));
	lab_fuse_stop(&fs);
}

/*
 * -o statx_drop=0x800: FUSE_STATX replies lose the birth time, as from a
 * daemon whose backend has none; the size still comes, and stat works.
 */
TEST(statx_drop)
{
	struct lab_fuse fs;
	struct statx stx;
	char name[32], p[160], *stats;

	if (lab_kernel() == LAB_STOCK)
		SKIP(return, "no FUSE_STATX on stock");
	snprintf(name, sizeof(name), "sd%d", getpid());
	ASSERT_EQ(0, lab_fuse_start(&fs, name,
				    "attr_timeout=0,statx_drop=0x800"));
	snprintf(p, sizeof(p), "%s/x", fs.back);
	ASSERT_EQ(0, mknod(p, S_IFREG | 0644, 0));
	snprintf(p, sizeof(p), "%s/x", fs.mnt);
	free(lab_ctl(fs.sock, "reset"));
	EXPECT_EQ(0, statx(AT_FDCWD, p, AT_STATX_FORCE_SYNC,
			   STATX_BASIC_STATS | STATX_BTIME, &stx));
	stats = lab_ctl(fs.sock, "stats");
	ASSERT_NE(NULL, stats);
	EXPECT_EQ(1, lab_count(stats, "STATX"));
	free(stats);
	EXPECT_EQ(0, stx.stx_mask & STATX_BTIME);
	EXPECT_EQ(STATX_SIZE, stx.stx_mask & STATX_SIZE);
	EXPECT_EQ(0, stat_errno(p));
	(void)umount2(fs.mnt, MNT_DETACH);
	lab_fuse_stop(&fs);
}

TEST_HARNESS_MAIN
