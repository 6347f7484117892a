// SPDX-License-Identifier: GPL-2.0
/*
 * labcase - run NFS lab cases in the client guest and report what each
 * one cost, as counted by the server (knfsd, through labctl) and by the
 * client (/proc/self/mountstats).
 *
 * A case gets a fresh tree on the server (labctl mktree nfsV-cN), a fresh
 * mount of it (nosharecache: caches of its own), a cache state, then ONE
 * measured call between two snapshots of both sides' counters:
 *   cold     just mounted
 *   warm     after a warm-up (the same walk, or the same command)
 *   expired  after a warm-up and a wait past the attribute timeouts
 *   changed  after a warm-up and a change on the server (labctl)
 * Each case prints "@case {JSON}" and "@row TEXT"; anything else on the
 * output is log.
 *
 * usage: labcase --run FILE --kernel NAME --vers 3|4.1|4.2
 *        labcase --matrix full|quick            print a matrix's cases
 *        labcase --ctl REQUEST...               one labctl request
 *        labcase --check FILE                   parse FILE's cases only
 *        labcase --header                       the table's header
 *        labcase --tsc-khz                      (host) TSC frequency
 *
 * While it runs, one more mount of the export root stays up (the
 * anchor): the NFS client state (NFSv4.1 session, TCP connection) then
 * outlives each case's mount, so no case pays for setting it up again.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../guest/tests/lab_optin.h"
#include "lab.h"
#include "labcase.h"

#define LC_ANCHOR "/mnt/anchor"
#define LC_GNU_LS "/usr/bin/gnu-ls"
#define LC_LSX "/usr/bin/lsx"
#define LC_BUSYBOX "/bin/busybox"
#define LC_WAIT_S 120 /* for labctl to answer after boot */

static void lc_die(const struct lab_case *k, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

static void lc_die(const struct lab_case *k, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	if (k)
		fprintf(stderr, "labcase: case %u: ", k->id);
	else
		fprintf(stderr, "labcase: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void lc_sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * Wait until the kernel's jiffies have advanced by @ms: attribute caches
 * time out in jiffies. The guests' clock is the TSC, and a periodic tick
 * that the host delays is not made up for, so jiffies can fall behind
 * nanosleep()'s clock; times() counts in jiffies (as USER_HZ ticks).
 */
static void lc_wait_jiffies(unsigned int ms)
{
	long hz = sysconf(_SC_CLK_TCK);
	clock_t start = times(NULL);
	clock_t need = ((long long)ms * hz + 999) / 1000;

	while (times(NULL) - start < need)
		lc_sleep_ms(20);
}

static long long lc_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/* --- labctl client ------------------------------------------------ */

static int lc_connect(void)
{
	struct sockaddr_in sa = {
		.sin_family = AF_INET,
		.sin_port = htons(LAB_CTL_PORT),
	};
	struct timeval snd = { .tv_sec = 10 }, rcv = { .tv_sec = 120 };
	int fd, err;

	inet_pton(AF_INET, LAB_SERVER_ADDR, &sa.sin_addr);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/* SO_SNDTIMEO bounds connect() too. */
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &snd, sizeof(snd));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &rcv, sizeof(rcv));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

/*
 * One request; its reply is checked like any untrusted input: one line,
 * "ok[ PAYLOAD]" or "err REASON", nothing after the newline. On "ok" the
 * payload goes to @out and 0 is returned; on "err" the reason, and
 * -EREMOTEIO; -errno when the exchange itself failed.
 */
static int lc_ctl_call(const char *req, char *out, size_t size)
{
	char reply[LAB_REPLY_MAX + 1];
	size_t len = 0, reqlen = strlen(req);
	ssize_t n;
	char *nl;
	int fd, err;

	fd = lc_connect();
	if (fd < 0)
		return fd;
	err = -EIO;
	if (write(fd, req, reqlen) != (ssize_t)reqlen ||
	    write(fd, "\n", 1) != 1)
		goto out_close;
	while (len < LAB_REPLY_MAX &&
	       (n = read(fd, reply + len, LAB_REPLY_MAX - len)) > 0)
		len += n;
	reply[len] = '\0';
	err = -EPROTO;
	nl = memchr(reply, '\n', len);
	if (!nl || (size_t)(nl - reply) != len - 1)
		goto out_close;
	*nl = '\0';
	if (!strcmp(reply, "ok") || !strncmp(reply, "ok ", 3)) {
		snprintf(out, size, "%s", reply[2] ? reply + 3 : "");
		err = 0;
	} else if (!strncmp(reply, "err ", 4)) {
		snprintf(out, size, "%s", reply + 4);
		err = -EREMOTEIO;
	}
out_close:
	close(fd);
	return err;
}

/* lc_ctl_call() that must succeed for the case to go on. */
static void lc_ctl_must(const struct lab_case *k, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void lc_ctl_must(const struct lab_case *k, const char *fmt, ...)
{
	char req[LAB_LINE_MAX], out[LAB_REPLY_MAX];
	va_list ap;
	int err;

	va_start(ap, fmt);
	vsnprintf(req, sizeof(req), fmt, ap);
	va_end(ap);
	err = lc_ctl_call(req, out, sizeof(out));
	if (err == -EREMOTEIO)
		lc_die(k, "labctl '%s': %s", req, out);
	if (err)
		lc_die(k, "labctl '%s': %s", req,
		       err == -EPROTO ? "malformed reply" : strerror(-err));
}

static void lc_ctl_counters(const struct lab_case *k, struct nfsd_counts *c)
{
	char out[LAB_REPLY_MAX];
	int err;

	err = lc_ctl_call("counters", out, sizeof(out));
	if (!err && nfsd_parse_json(out, c))
		err = -EPROTO;
	if (err)
		lc_die(k, "labctl counters: %s",
		       err == -EREMOTEIO ? out :
		       err == -EPROTO	 ? "malformed reply" :
					   strerror(-err));
}

static void lc_ctl_wait(void)
{
	char out[LAB_REPLY_MAX];
	long long end = lc_now_us() + LC_WAIT_S * 1000000LL;
	int err;

	while ((err = lc_ctl_call("ping", out, sizeof(out))) &&
	       lc_now_us() < end)
		lc_sleep_ms(500);
	if (err)
		lc_die(NULL,
		       "no labctl at %s:%d after %d s: %s (is the "
		       "server guest up?)",
		       LAB_SERVER_ADDR, LAB_CTL_PORT, LC_WAIT_S,
		       strerror(-err));
}

/* --- mounts ------------------------------------------------------- */

/*
 * Mount @export on @mnt with @opts; the kernel does what mount.nfs would.
 * On the optin kernel (lab.optin=N) every mount has statx_cached_access=N.
 */
static int lc_mount(const struct lc_run *r, const char *export, const char *mnt,
		    const char *opts)
{
	char src[128], data[384], optin[48] = "";
	unsigned int secs = lab_optin_seconds();

	if (secs)
		snprintf(optin, sizeof(optin), ",statx_cached_access=%u", secs);
	snprintf(src, sizeof(src), "%s:%s", LAB_SERVER_ADDR, export);
	snprintf(data, sizeof(data),
		 "vers=%s%s%s,addr=%s,proto=tcp,nosharecache%s%s", r->vers,
		 *opts ? "," : "", opts, LAB_SERVER_ADDR,
		 r->v4 ? "" : ",nolock,mountproto=tcp", optin);
	if (mkdir(mnt, 0755) && errno != EEXIST)
		return -errno;
	return mount(src, mnt, "nfs", 0, data) ? -errno : 0;
}

static void lc_umount(const char *mnt)
{
	if (umount2(mnt, 0))
		umount2(mnt, MNT_DETACH);
	rmdir(mnt);
}

/* --- the measured call and the warm-up ---------------------------- */

static void lc_from_stat(struct statx *stx, const struct stat *st)
{
	memset(stx, 0, sizeof(*stx));
	stx->stx_mask = STATX_BASIC_STATS;
	stx->stx_mode = st->st_mode;
	stx->stx_ino = st->st_ino;
	stx->stx_size = st->st_size;
	stx->stx_ctime.tv_sec = st->st_ctim.tv_sec;
	stx->stx_ctime.tv_nsec = st->st_ctim.tv_nsec;
}

static int lc_statx_flags(const struct lab_case *k)
{
	int flags = k->nofollow ? AT_SYMLINK_NOFOLLOW : 0;

	if (!strcmp(k->sync, "dont"))
		flags |= AT_STATX_DONT_SYNC;
	else if (!strcmp(k->sync, "force"))
		flags |= AT_STATX_FORCE_SYNC;
	return flags;
}

/* The stat-family call itself, timed. */
static void lc_call(struct lc_ctx *c, struct lc_result *res)
{
	const struct lab_case *k = c->k;
	struct stat st;
	long long t0;
	int rc;

	res->statx = !strcmp(k->call, "statx");
	t0 = lc_now_us();
	if (res->statx)
		rc = syscall(SYS_statx, AT_FDCWD, c->path, lc_statx_flags(k),
			     k->mask_bits, &res->stx);
	else if (!strcmp(k->call, "stat"))
		rc = stat(c->path, &st);
	else if (!strcmp(k->call, "lstat"))
		rc = lstat(c->path, &st);
	else
		rc = fstatat(c->dirfd, case_object_path(k), &st,
			     k->nofollow ? AT_SYMLINK_NOFOLLOW : 0);
	res->wall_us = lc_now_us() - t0;
	res->err = rc ? errno : 0;
	if (!rc && !res->statx)
		lc_from_stat(&res->stx, &st);
}

/*
 * The command of an ls case: busybox ls, GNU ls or bench's lsx, with the
 * flags of its form (plain, color, long, inode); lsx takes the form by
 * name, and --dont-sync for sync=dont.
 */
static const char *lc_ls_argv(const struct lab_case *k, const char *dir,
			      const char **argv)
{
	static const char *const flags[][2] = {
		{ "plain", NULL },
		{ "color", "--color=always" },
		{ "long", "-l" },
		{ "inode", "-li" },
	};
	const char *path = LC_GNU_LS;
	unsigned int i, n = 0;

	if (!strcmp(k->call, "lsx")) {
		path = LC_LSX;
		argv[n++] = "lsx";
		argv[n++] = "--form";
		argv[n++] = k->form;
		if (!strcmp(k->sync, "dont"))
			argv[n++] = "--dont-sync";
	} else {
		if (!strcmp(k->call, "ls"))
			path = LC_BUSYBOX;
		argv[n++] = "ls";
		for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
			if (!strcmp(k->form, flags[i][0]) && flags[i][1])
				argv[n++] = flags[i][1];
	}
	argv[n++] = dir;
	argv[n] = NULL;
	return path;
}

/* Run ls or the case's command, timed; its stdout goes to /dev/null. */
static void lc_exec(struct lc_ctx *c, struct lc_result *res)
{
	const struct lab_case *k = c->k;
	const char *argv[8], *path = "/bin/sh";
	char dir[64];
	int status;
	long long t0;
	pid_t pid;

	snprintf(dir, sizeof(dir), "%s/ls", c->mnt);
	if (k->workload == W_LS) {
		path = lc_ls_argv(k, dir, argv);
	} else {
		argv[0] = "sh";
		argv[1] = "-c";
		argv[2] = k->cmd;
		argv[3] = NULL;
	}
	if (access(path, X_OK))
		lc_die(k, "no %s in the guest (make guest)", path);
	t0 = lc_now_us();
	pid = fork();
	if (pid == 0) {
		setenv("MNT", c->mnt, 1);
		setenv("DIR", dir, 1);
		setenv("FILE", c->path, 1);
		if (!freopen("/dev/null", "w", stdout))
			_exit(126);
		execv(path, (char *const *)argv);
		fprintf(stderr, "labcase: exec %s: %s\n", path,
			strerror(errno));
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		lc_die(k, "fork/wait: %s", strerror(errno));
	res->wall_us = lc_now_us() - t0;
	res->status = WIFEXITED(status) ? WEXITSTATUS(status) :
					  128 + WTERMSIG(status);
}

/*
 * statx of every file of the deep tree, leaf by leaf, each by its full
 * path (a build tool's or git status's walk), timed; the first error.
 */
static void lc_deep_walk(struct lc_ctx *c, struct lc_result *res, int flags)
{
	char root[96], leaf[160], path[176];
	struct statx stx;
	unsigned int l, f;
	long long t0;

	snprintf(root, sizeof(root), "%s/%s", c->mnt, case_object_path(c->k));
	t0 = lc_now_us();
	for (l = 0; l < LAB_DEEP_LEAVES; l++) {
		lab_deep_leaf(leaf, sizeof(leaf), root, l);
		for (f = 0; f < LAB_DEEP_FILES; f++) {
			snprintf(path, sizeof(path), "%s/f%u", leaf, f);
			if (syscall(SYS_statx, AT_FDCWD, path, flags,
				    STATX_BASIC_STATS, &stx) && !res->err)
				res->err = errno;
		}
	}
	res->wall_us = lc_now_us() - t0;
}

static void lc_measure(struct lc_ctx *c, struct lc_result *res)
{
	memset(res, 0, sizeof(*res));
	res->seen = -1;
	if (c->k->workload == W_SYSCALL)
		lc_call(c, res);
	else if (c->k->workload == W_DEEP)
		lc_deep_walk(c, res, lc_statx_flags(c->k));
	else
		lc_exec(c, res);
}

/* Bring the caches to the case's state: the same walk, or command. */
static void lc_warm_up(struct lc_ctx *c)
{
	const struct lab_case *k = c->k;
	struct lc_result res;
	struct stat st;
	bool nofollow = k->nofollow || !strcmp(k->call, "lstat");

	if (k->workload == W_DEEP) {
		memset(&res, 0, sizeof(res));
		lc_deep_walk(c, &res, 0);
		if (res.err)
			lc_die(k, "warm-up walk of %s/tree: %s", c->mnt,
			       strerror(res.err));
		return;
	}
	if (k->workload != W_SYSCALL) {
		lc_measure(c, &res);
		return;
	}
	if ((nofollow ? lstat(c->path, &st) : stat(c->path, &st)))
		lc_die(k, "warm-up stat %s: %s", c->path, strerror(errno));
	c->ctime = st.st_ctim;
	c->ctime_valid = true;
}

/*
 * A change on the server behind the client's back: the object's mode
 * (a symlink's times: it has no mode of its own), a new entry in the ls
 * directory, or new data in the object (d1/d2/file) for a command.
 */
static void lc_change(struct lc_ctx *c)
{
	const struct lab_case *k = c->k;

	if (k->workload == W_LS)
		lc_ctl_must(k, "write %s/ls/new", c->dir);
	else if (k->workload == W_CMD)
		lc_ctl_must(k, "write %s/%s", c->dir, case_object_path(k));
	else if (!strcmp(k->object, "symlink"))
		lc_ctl_must(k, "touch %s/%s", c->dir, case_object_path(k));
	else
		lc_ctl_must(k, "chmod %s %s/%s",
			    strcmp(k->object, "dir") ? "0600" : "0700", c->dir,
			    case_object_path(k));
}

/* --- one case ----------------------------------------------------- */

static void lc_snapshot(struct lc_ctx *c, struct lc_snap *s, bool srv_first)
{
	int err;

	if (srv_first)
		lc_ctl_counters(c->k, &s->srv);
	err = mstats_read(c->mnt, &s->cli);
	if (err)
		lc_die(c->k, "mountstats of %s: %s", c->mnt, strerror(-err));
	if (!srv_first)
		lc_ctl_counters(c->k, &s->srv);
}

static void lc_setup(struct lc_ctx *c)
{
	const struct lab_case *k = c->k;
	char src[64];
	int err;

	/* One boot may run several NFS versions: names per version. */
	snprintf(c->dir, sizeof(c->dir), "%s-c%u", c->run->fs, k->id);
	snprintf(c->mnt, sizeof(c->mnt), "/mnt/%s", c->dir);
	snprintf(c->path, sizeof(c->path), "%s/%s", c->mnt,
		 case_object_path(k));
	lc_ctl_must(k, "mktree %s", c->dir);
	if (k->workload == W_DEEP)
		lc_ctl_must(k, "mkdeep %s/tree", c->dir);
	else if (k->workload != W_SYSCALL)
		lc_ctl_must(k, "mkfiles %s/ls %u", c->dir, k->n);
	snprintf(src, sizeof(src), "%s/%s", LAB_EXPORT, c->dir);
	err = lc_mount(c->run, src, c->mnt, k->opts);
	if (err)
		lc_die(k,
		       "mount %s:%s on %s -o vers=%s,%s: %s (the client's "
		       "kernel log says why)",
		       LAB_SERVER_ADDR, src, c->mnt, c->run->vers, k->opts,
		       strerror(-err));
	c->dirfd = -1;
	if (!strcmp(k->call, "fstatat") && k->workload == W_SYSCALL) {
		c->dirfd = open(c->mnt, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (c->dirfd < 0)
			lc_die(k, "open %s: %s", c->mnt, strerror(errno));
	}
}

static void lc_cache_state(struct lc_ctx *c)
{
	const struct lab_case *k = c->k;

	if (!strcmp(k->cache, "cold"))
		return;
	lc_warm_up(c);
	if (!strcmp(k->cache, "expired"))
		lc_wait_jiffies(case_expire_ms(k));
	else if (!strcmp(k->cache, "changed"))
		lc_change(c);
}

static void lc_case(const struct lc_run *r, const struct lab_case *k)
{
	struct lc_ctx c = { .run = r, .k = k };
	struct lc_snap before, after;
	struct lc_result res;

	lc_setup(&c);
	lc_cache_state(&c);
	if (k->delay_ms)
		lc_ctl_must(k, "netem %u", k->delay_ms);
	lc_snapshot(&c, &before, true);
	lc_measure(&c, &res);
	lc_snapshot(&c, &after, false);
	if (k->delay_ms)
		lc_ctl_must(k, "netem 0");
	if (!strcmp(k->cache, "changed") && c.ctime_valid && !res.err &&
	    (res.stx.stx_mask & STATX_CTIME))
		res.seen = res.stx.stx_ctime.tv_sec != c.ctime.tv_sec ||
			   res.stx.stx_ctime.tv_nsec != c.ctime.tv_nsec;
	report_case(&c, &before, &after, &res);
	if (c.dirfd >= 0)
		close(c.dirfd);
	lc_umount(c.mnt);
	/* Keep the 64 MB export from filling up over a run. */
	lc_ctl_must(k, "rmtree %s", c.dir);
}

/* Parse every case of @file; 0, or 1 after naming each bad line. */
static int lc_check_file(const char *file)
{
	char line[512], err[128];
	struct lab_case k;
	unsigned int lineno = 0;
	FILE *f = fopen(file, "re");
	int bad = 0;

	if (!f)
		lc_die(NULL, "%s: %s", file, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (line[strspn(line, " \t")] == '#' ||
		    line[strspn(line, " \t\n")] == '\0')
			continue;
		if (case_parse(line, &k, err, sizeof(err))) {
			fprintf(stderr, "labcase: %s:%u: %s\n", file, lineno,
				err);
			bad = 1;
		}
	}
	fclose(f);
	return bad;
}

static int lc_run_file(const struct lc_run *r, const char *file)
{
	char line[512], err[128];
	struct lab_case k;
	unsigned int id = 0, lineno = 0;
	FILE *f = fopen(file, "re");
	int rc;

	if (!f)
		lc_die(NULL, "%s: %s", file, strerror(errno));
	lc_ctl_wait();
	rc = lc_mount(r, LAB_EXPORT, LC_ANCHOR, "");
	if (rc)
		lc_die(NULL, "mount %s:%s on %s (vers=%s): %s", LAB_SERVER_ADDR,
		       LAB_EXPORT, LC_ANCHOR, r->vers, strerror(-rc));
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (line[strspn(line, " \t")] == '#' ||
		    line[strspn(line, " \t\n")] == '\0')
			continue;
		if (case_parse(line, &k, err, sizeof(err)))
			lc_die(NULL, "%s:%u: %s", file, lineno, err);
		k.id = ++id;
		lc_case(r, &k);
		fflush(stdout);
	}
	fclose(f);
	lc_umount(LC_ANCHOR);
	return 0;
}

/*
 * The host's TSC frequency, for the guests' tsc_early_khz=: under TCG the
 * guest's TSC is the host's, and a loaded host makes the guest's own
 * calibration fail, leaving it on jiffies (4 ms clock steps).
 */
static int lc_tsc_khz(void)
{
	struct timespec a, b, d = { 0, 200000000 };
	unsigned long long t0, t1;
	double ns;

	clock_gettime(CLOCK_MONOTONIC_RAW, &a);
	t0 = __builtin_ia32_rdtsc();
	nanosleep(&d, NULL);
	t1 = __builtin_ia32_rdtsc();
	clock_gettime(CLOCK_MONOTONIC_RAW, &b);
	ns = (b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec);
	printf("%.0f\n", (t1 - t0) / ns * 1e6);
	return 0;
}

static const char lc_usage_text[] =
	"usage: labcase --run FILE --kernel NAME --vers 3|4.1|4.2\n"
	"       labcase --matrix full|quick\n"
	"       labcase --ctl REQUEST...\n"
	"       labcase --check FILE\n"
	"       labcase --header\n"
	"       labcase --tsc-khz\n";

/* A usage error: one line, exit status 2. */
static void __attribute__((noreturn)) lc_usage(const char *what,
						const char *arg)
{
	fprintf(stderr, "labcase: %s%s%s (labcase --help)\n", what,
		arg ? " " : "", arg ? arg : "");
	exit(2);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "run", required_argument, NULL, 'r' },
		{ "matrix", required_argument, NULL, 'm' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "vers", required_argument, NULL, 'v' },
		{ "ctl", no_argument, NULL, 'c' },
		{ "header", no_argument, NULL, 'H' },
		{ "tsc-khz", no_argument, NULL, 'T' },
		{ "check", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *file = NULL, *matrix = NULL;
	struct lc_run r = { .kernel = "stock" };
	char req[LAB_LINE_MAX] = "", out[LAB_REPLY_MAX];
	bool ctl = false;
	int opt, i, err;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+:", opts, NULL)) != -1) {
		switch (opt) {
		case 'r':
			file = optarg;
			break;
		case 'm':
			matrix = optarg;
			break;
		case 'k':
			r.kernel = optarg;
			break;
		case 'v':
			r.vers = optarg;
			break;
		case 'c':
			ctl = true;
			break;
		case 'H':
			report_header();
			return 0;
		case 'T':
			return lc_tsc_khz();
		case 'C':
			return lc_check_file(optarg);
		case 'h':
			fputs(lc_usage_text, stdout);
			return 0;
		case ':':
			lc_usage("option needs a value:", argv[optind - 1]);
		default:
			lc_usage("unknown option:", argv[optind - 1]);
		}
	}
	if (ctl) {
		for (i = optind; i < argc; i++)
			snprintf(req + strlen(req), sizeof(req) - strlen(req),
				 "%s%s", i > optind ? " " : "", argv[i]);
		err = lc_ctl_call(req, out, sizeof(out));
		if (err && err != -EREMOTEIO)
			snprintf(out, sizeof(out), "%s", strerror(-err));
		printf("%s%s\n", err ? "error: " : "", out);
		return err ? 1 : 0;
	}
	if (optind != argc)
		lc_usage("unexpected argument:", argv[optind]);
	if (matrix && matrix_print(stdout, matrix))
		lc_usage("--matrix: want full or quick, not", matrix);
	if (matrix)
		return 0;
	if (!file)
		lc_usage("--run FILE, --matrix, --ctl, --check, --header or --tsc-khz needed",
			 NULL);
	if (!r.vers)
		lc_usage("--run needs --vers 3|4.1|4.2", NULL);
	if (strcmp(r.vers, "3") && strcmp(r.vers, "4.1") &&
	    strcmp(r.vers, "4.2"))
		lc_usage("--vers: want 3, 4.1 or 4.2, not", r.vers);
	r.v4 = r.vers[0] == '4';
	snprintf(r.fs, sizeof(r.fs), "nfs%s", r.vers);
	return lc_run_file(&r, file);
}
