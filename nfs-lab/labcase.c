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
 * The cases are case lines of the lab's one model (bench/case.h; the
 * plan comes from bench's labplan). Each case prints "@case {JSON}":
 * its keys as every runner writes them, then what the server (knfsd)
 * and the client (mountstats) counted; anything else on the output is
 * log.
 *
 * usage: labcase --run FILE --kernel NAME --vers 3|4.1|4.2
 *        labcase --ctl REQUEST...               one labctl request
 *        labcase --tsc-khz                      (host) TSC frequency
 *        labcase --clock                        clocksource, resolution
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

#include "case.h"
#include "lab.h"
#include "lab_optin.h"
#include "mstats.h"
#include "plan.h"

#define LC_ANCHOR "/mnt/anchor"
#define LC_WAIT_S 120 /* for labctl to answer after boot */

struct lc_run {
	const char *kernel; /* its label, for the results */
	const char *vers; /* 3, 4.1, 4.2 */
	const struct lab_fs *fs; /* nfs3, nfs4.1, nfs4.2 */
	bool v4;
};

/* One side's counters at one moment. */
struct lc_snap {
	struct nfsd_counts srv;
	struct mstats cli;
};

struct lc_result {
	int err; /* errno of the measured call */
	int status; /* exit status of ls or cmd */
	long long wall_us;
	struct statx stx; /* stat()'s answer converted, for stat calls */
	bool statx;
	int seen; /* changed: -1 unknown, 0 old ctime, 1 new */
};

/* Everything a case needs while it runs. */
struct lc_ctx {
	const struct lc_run *run;
	const struct lab_case *k;
	char dir[24]; /* nfsV-cN, on the server below the export */
	char mnt[32]; /* /mnt/nfsV-cN */
	char path[96]; /* the object, absolute */
	int dirfd; /* fstatat: the mount root */
	struct timespec ctime; /* the warm-up's answer */
	bool ctime_valid;
};

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

/*
 * The object's path below the case's mount: file, dir and symlink sit in
 * its root; deep is the reference path d1/d2/file, deeper one level down;
 * ls lists ls/; the deep workload walks tree/.
 */
static const char *lc_object_path(const struct lab_case *k)
{
	static const char *const paths[][2] = {
		{ "file", "file" }, { "dir", "dir" }, { "symlink", "link" },
		{ "deeper", "d1/d2/d3/file" },
	};
	unsigned int i;

	if (k->workload == LAB_LS)
		return "ls";
	if (k->workload == LAB_DEEP)
		return "tree";
	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (!strcmp(k->object, paths[i][0]))
			return paths[i][1];
	return "d1/d2/file";
}

/* An option's whole seconds (at most an hour), or -1. */
static int lc_secs(const char *opt, const char *name)
{
	size_t len = strlen(name);
	char *end;
	long v;

	if (strncmp(opt, name, len) || opt[len] < '0' || opt[len] > '9')
		return -1;
	v = strtol(opt + len, &end, 10);
	return *end || v > 3600 ? -1 : (int)v;
}

/*
 * How long "expired" waits: past the larger of the first attribute
 * timeouts of files and directories (acregmin, acdirmin; the kernel's
 * defaults 3 and 30 s), options taken in order like the kernel does.
 */
static unsigned int lc_expire_ms(const struct lab_case *k)
{
	char buf[sizeof(k->opts)], *o, *save;
	int reg = 3, dir = 30, v;

	if (k->expire_ms)
		return k->expire_ms;
	snprintf(buf, sizeof(buf), "%s", k->opts);
	for (o = strtok_r(buf, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
		if ((v = lc_secs(o, "actimeo=")) >= 0)
			reg = dir = v;
		else if ((v = lc_secs(o, "acregmin=")) >= 0)
			reg = v;
		else if ((v = lc_secs(o, "acdirmin=")) >= 0)
			dir = v;
		else if (!strcmp(o, "noac"))
			reg = dir = 0;
	}
	return (reg > dir ? reg : dir) * 1000 + 200;
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
	long long end = lab_now_us() + LC_WAIT_S * 1000000LL;
	int err;

	while ((err = lc_ctl_call("ping", out, sizeof(out))) &&
	       lab_now_us() < end)
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

static int lc_statx_flags(const struct lab_case *k)
{
	return (k->nofollow ? AT_SYMLINK_NOFOLLOW : 0) | lab_sync_flags(k->sync);
}

/* The stat-family call itself, timed. */
static void lc_call(struct lc_ctx *c, struct lc_result *res)
{
	long long t0 = lab_now_us();

	res->statx = !strcmp(c->k->call, "statx");
	res->err = lab_call(c->k, c->path, c->dirfd, lc_object_path(c->k),
			    &res->stx);
	res->wall_us = lab_now_us() - t0;
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
	if (k->workload == LAB_LS) {
		path = lab_ls_argv(k, dir, false, argv);
	} else {
		argv[0] = "sh";
		argv[1] = "-c";
		argv[2] = k->cmd;
		argv[3] = NULL;
	}
	if (access(path, X_OK))
		lc_die(k, "no %s in the guest (make guest)", path);
	t0 = lab_now_us();
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
	res->wall_us = lab_now_us() - t0;
	res->status = WIFEXITED(status) ? WEXITSTATUS(status) :
					  128 + WTERMSIG(status);
}

/* statx of every file of the deep tree, each by its full path, timed. */
static void lc_deep_walk(struct lc_ctx *c, struct lc_result *res, int flags)
{
	char root[96];
	long long t0;

	snprintf(root, sizeof(root), "%s/%s", c->mnt, lc_object_path(c->k));
	t0 = lab_now_us();
	res->err = lab_deep_walk(root, flags);
	res->wall_us = lab_now_us() - t0;
}

static void lc_measure(struct lc_ctx *c, struct lc_result *res)
{
	memset(res, 0, sizeof(*res));
	res->seen = -1;
	if (c->k->workload == LAB_SYSCALL)
		lc_call(c, res);
	else if (c->k->workload == LAB_DEEP)
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

	if (k->workload == LAB_DEEP) {
		memset(&res, 0, sizeof(res));
		lc_deep_walk(c, &res, 0);
		if (res.err)
			lc_die(k, "warm-up walk of %s/tree: %s", c->mnt,
			       strerror(res.err));
		return;
	}
	if (k->workload != LAB_SYSCALL) {
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

	if (k->workload == LAB_LS)
		lc_ctl_must(k, "write %s/ls/new", c->dir);
	else if (k->workload == LAB_CMD)
		lc_ctl_must(k, "write %s/%s", c->dir, lc_object_path(k));
	else if (!strcmp(k->object, "symlink"))
		lc_ctl_must(k, "touch %s/%s", c->dir, lc_object_path(k));
	else
		lc_ctl_must(k, "chmod %s %s/%s",
			    strcmp(k->object, "dir") ? "0600" : "0700", c->dir,
			    lc_object_path(k));
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
	snprintf(c->dir, sizeof(c->dir), "%s-c%u", c->run->fs->name, k->id);
	snprintf(c->mnt, sizeof(c->mnt), "/mnt/%s", c->dir);
	snprintf(c->path, sizeof(c->path), "%s/%s", c->mnt,
		 lc_object_path(k));
	lc_ctl_must(k, "mktree %s", c->dir);
	if (k->workload == LAB_DEEP)
		lc_ctl_must(k, "mkdeep %s/tree", c->dir);
	else if (k->workload != LAB_SYSCALL)
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
	if (!strcmp(k->call, "fstatat") && k->workload == LAB_SYSCALL) {
		c->dirfd = open(c->mnt, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (c->dirfd < 0)
			lc_die(k, "open %s: %s", c->mnt, strerror(errno));
	}
}

static void lc_cache_state(struct lc_ctx *c)
{
	const struct lab_case *k = c->k;

	if (k->cache == LAB_COLD)
		return;
	lc_warm_up(c);
	if (k->cache == LAB_EXPIRED)
		lc_wait_jiffies(lc_expire_ms(k));
	else if (k->cache == LAB_CHANGED)
		lc_change(c);
}

/* --- the case's results ------------------------------------------- */

/* What the server counted, by op, into @f; the round trips it saw. */
static uint64_t lc_server(FILE *f, const struct lc_run *r,
			  const struct nfsd_counts *a,
			  const struct nfsd_counts *b)
{
	unsigned int i, nops = r->v4 ? NFSD_V4_OPS : NFSD_V3_PROCS;
	const char *sep = "";
	uint64_t d, calls = 0;

	fputs(",\"server\":{", f);
	if (r->v4) {
		calls = b->compound - a->compound + b->v4null - a->v4null;
		fprintf(f, "\"COMPOUND\":%llu",
			(unsigned long long)(b->compound - a->compound));
		if (b->v4null != a->v4null)
			fprintf(f, ",\"NULL\":%llu",
				(unsigned long long)(b->v4null - a->v4null));
		sep = ",";
	}
	for (i = 0; i < nops; i++) {
		d = r->v4 ? b->op[i] - a->op[i] : b->v3[i] - a->v3[i];
		if (!d)
			continue;
		if (!r->v4)
			calls += d;
		fprintf(f, "%s\"%s\":%llu", sep,
			r->v4 ? nfsd_v4_names[i] : nfsd_v3_names[i],
			(unsigned long long)d);
		sep = ",";
	}
	fputc('}', f);
	return calls;
}

/* What the client counted: per-op RPCs (calls), retransmissions, events. */
static void lc_client(FILE *f, const struct mstats *a, const struct mstats *b,
		      uint64_t *calls, uint64_t *retrans)
{
	const char *sep = "";
	unsigned int i;
	uint64_t d;

	*calls = *retrans = 0;
	fputs(",\"client\":{", f);
	for (i = 0; i < a->nops && i < b->nops; i++) {
		d = b->op[i].ops - a->op[i].ops;
		*calls += d;
		*retrans += b->op[i].trans - a->op[i].trans - d;
		if (!d || strcmp(a->op[i].name, b->op[i].name))
			continue;
		fprintf(f, "%s\"%s\":%llu", sep, b->op[i].name,
			(unsigned long long)d);
		sep = ",";
	}
	fputs("},\"events\":{", f);
	for (i = 0, sep = ""; i < MSTATS_EVENTS; i++) {
		d = b->events[i] - a->events[i];
		if (!d)
			continue;
		fprintf(f, "%s\"%s\":%llu", sep, mstats_event_names[i],
			(unsigned long long)d);
		sep = ",";
	}
	fputc('}', f);
}

/* What the call returned: an error, or the attributes tests check. */
static void lc_answer(FILE *f, const struct lab_case *k,
		      const struct lc_result *res)
{
	if (k->workload == LAB_LS || k->workload == LAB_CMD) {
		fprintf(f, ",\"status\":%d", res->status);
		return;
	}
	if (res->err) {
		fprintf(f, ",\"errno\":\"%s\"",
			strerrorname_np(res->err) ?: "?");
		return;
	}
	if (k->workload == LAB_DEEP)
		return;
	if (res->statx)
		fprintf(f, ",\"result_mask\":\"0x%x\",\"btime\":%s",
			res->stx.stx_mask,
			res->stx.stx_mask & STATX_BTIME ? "true" : "false");
	fprintf(f, ",\"mode\":\"%04o\",\"ino\":%llu",
		res->stx.stx_mode & 07777,
		(unsigned long long)res->stx.stx_ino);
	if (k->cache == LAB_CHANGED)
		fprintf(f, ",\"seen\":%s",
			res->seen < 0 ? "null" : res->seen ? "true" : "false");
}

/* The case's "@case" line: its keys, then both sides' counter deltas. */
static void lc_report(const struct lc_ctx *c, const struct lc_snap *before,
		      const struct lc_snap *after, const struct lc_result *res)
{
	const struct lab_case *k = c->k;
	const struct lc_run *r = c->run;
	uint64_t calls, ccalls, retrans;
	char opts[256];

	r->fs->mount_opts(opts, sizeof(opts), r->fs, k);
	fputs("@case ", stdout);
	lab_case_keys(stdout, r->kernel, r->fs->name, opts, k);
	printf(",\"path\":\"%s\"", lc_object_path(k));
	if (k->cache == LAB_EXPIRED)
		printf(",\"expire_ms\":%u", lc_expire_ms(k));
	lc_answer(stdout, k, res);
	calls = lc_server(stdout, r, &before->srv, &after->srv);
	lc_client(stdout, &before->cli, &after->cli, &ccalls, &retrans);
	printf(",\"calls\":%llu,\"client_calls\":%llu,\"retrans\":%llu,"
	       "\"wall_us\":%lld}\n", (unsigned long long)calls,
	       (unsigned long long)ccalls, (unsigned long long)retrans,
	       res->wall_us);
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
	if (k->cache == LAB_CHANGED && c.ctime_valid && !res.err &&
	    (res.stx.stx_mask & STATX_CTIME))
		res.seen = res.stx.stx_ctime.tv_sec != c.ctime.tv_sec ||
			   res.stx.stx_ctime.tv_nsec != c.ctime.tv_nsec;
	lc_report(&c, &before, &after, &res);
	if (c.dirfd >= 0)
		close(c.dirfd);
	lc_umount(c.mnt);
	/* Keep the 64 MB export from filling up over a run. */
	lc_ctl_must(k, "rmtree %s", c.dir);
}

static int lc_run_file(const struct lc_run *r, const char *file)
{
	struct lab_plan p;
	char err[160];
	FILE *f = fopen(file, "re");
	int rc, i;

	if (!f)
		lc_die(NULL, "%s: %s", file, strerror(errno));
	rc = lab_plan_read(&p, r->fs, f, err, sizeof(err));
	fclose(f);
	if (rc)
		lc_die(NULL, "%s:%s", file, err);
	lc_ctl_wait();
	rc = lc_mount(r, LAB_EXPORT, LC_ANCHOR, "");
	if (rc)
		lc_die(NULL, "mount %s:%s on %s (vers=%s): %s", LAB_SERVER_ADDR,
		       LAB_EXPORT, LC_ANCHOR, r->vers, strerror(-rc));
	for (i = 0; i < p.count; i++) {
		lc_case(r, &p.cases[i]);
		fflush(stdout);
	}
	lab_plan_free(&p);
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

/* The guest's clock: its source and CLOCK_MONOTONIC's resolution (ns). */
static int lc_clock(void)
{
	char src[32] = "?";
	struct timespec res = { 0 };
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/"
			"current_clocksource", "re");

	if (f && fgets(src, sizeof(src), f))
		src[strcspn(src, "\n ")] = '\0';
	if (f)
		fclose(f);
	clock_getres(CLOCK_MONOTONIC, &res);
	printf("%s %lld\n", src, res.tv_sec * 1000000000LL + res.tv_nsec);
	return 0;
}

static const char lc_usage_text[] =
	"usage: labcase --run FILE --kernel NAME --vers 3|4.1|4.2\n"
	"       labcase --ctl REQUEST...\n"
	"       labcase --tsc-khz\n"
	"       labcase --clock\n";

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
		{ "kernel", required_argument, NULL, 'k' },
		{ "vers", required_argument, NULL, 'v' },
		{ "ctl", no_argument, NULL, 'c' },
		{ "tsc-khz", no_argument, NULL, 'T' },
		{ "clock", no_argument, NULL, 'K' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *file = NULL;
	struct lc_run r = { .kernel = "stock" };
	char req[LAB_LINE_MAX] = "", out[LAB_REPLY_MAX], fs[8];
	bool ctl = false;
	int opt, i, err;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+:", opts, NULL)) != -1) {
		switch (opt) {
		case 'r':
			file = optarg;
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
		case 'T':
			return lc_tsc_khz();
		case 'K':
			return lc_clock();
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
	if (!file)
		lc_usage("--run FILE, --ctl or --tsc-khz needed", NULL);
	if (!r.vers)
		lc_usage("--run needs --vers 3|4.1|4.2", NULL);
	if (strcmp(r.vers, "3") && strcmp(r.vers, "4.1") &&
	    strcmp(r.vers, "4.2"))
		lc_usage("--vers: want 3, 4.1 or 4.2, not", r.vers);
	r.v4 = r.vers[0] == '4';
	snprintf(fs, sizeof(fs), "nfs%s", r.vers);
	r.fs = lab_fs_find(fs);
	return lc_run_file(&r, file);
}
