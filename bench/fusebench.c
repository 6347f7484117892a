// SPDX-License-Identifier: GPL-2.0
/*
 * fusebench - the lab's FUSE runner, inside a guest.
 *
 * For each case of its plan (case lines from labplan, case.h) it mounts
 * fusecount, brings the kernel's caches to the case's state, resets the
 * daemon's counters over its control socket, makes the measured call (a
 * syscall in this process, or an ls run as a child), reads the counters
 * and prints one JSON object per line: the case keys, "server" (FUSE
 * requests by opcode), "client", "calls" and "wall_us" (bench/README.md).
 *
 *   fusebench --kernel NAME --cases FILE [--budget-s S]
 *
 * A delay is set over the control socket for the measured call only:
 * mounting and priming run at full speed. A delayed ls case over the
 * budget (lab_over_budget(), default 15 s) is reported with "skipped"
 * instead of being run. Exit status: 0, 1 when a case failed (it is
 * still reported, with "error"), 2 usage.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <getopt.h>

#include "lab_fuse.h"
#include "lab_optin.h"
#include "plan.h"

#define FB_OUT		"/tmp/fusebench.out"
#define FB_ERR		"/tmp/fusebench.err"
#define FB_PATH		256
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define FB_BUDGET_MAX_S	(LONG_MAX / 1000000 < 86400 ? LONG_MAX / 1000000 : 86400)

struct fb_opts {
	const char *kernel;
	const char *cases;	/* the plan's case lines */
	long budget_us;
};

/* What one measurement gave. */
struct fb_result {
	long calls;
	long wall_us;
	int err;		/* errno of the syscall, or exit status */
	char client[512];	/* the "client" object, without braces */
};

static int fb_file(const char *path, mode_t mode)
{
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, mode);

	if (fd < 0 || fchmod(fd, mode)) {
		fprintf(stderr, "fusebench: create %s: %s\n", path,
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return close(fd);
}

static int fb_dir(const char *path)
{
	if (mkdir(path, 0755) && errno != EEXIST) {
		fprintf(stderr, "fusebench: mkdir %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	return 0;
}

/* Syscall objects of case @k, made in the backing dir before mounting. */
static int fb_syscall_objects(const char *back, int k)
{
	char p[FB_PATH], t[32];

	snprintf(p, sizeof(p), "%s/s%04d.f", back, k);
	if (fb_file(p, 0644))
		return -1;
	snprintf(p, sizeof(p), "%s/s%04d.d", back, k);
	if (fb_dir(p))
		return -1;
	snprintf(p, sizeof(p), "%s/s%04d.l", back, k);
	snprintf(t, sizeof(t), "s%04d.f", k);
	if (symlink(t, p) && errno != EEXIST)
		return -1;
	snprintf(p, sizeof(p), "%s/s%04d", back, k);
	if (fb_dir(p))
		return -1;
	snprintf(p, sizeof(p), "%s/s%04d/d2", back, k);
	if (fb_dir(p))
		return -1;
	snprintf(p, sizeof(p), "%s/s%04d/d2/f", back, k);
	return fb_file(p, 0644);
}

/* The object's path under @mnt; for fstatat, its parent and last name. */
static void fb_object_path(char *p, size_t len, const char *mnt, int k,
			   const char *object)
{
	if (!strcmp(object, "deep"))
		snprintf(p, len, "%s/s%04d/d2/f", mnt, k);
	else
		snprintf(p, len, "%s/s%04d.%c", mnt, k,
			 !strcmp(object, "symlink") ? 'l' : object[0]);
}

/*
 * The opcode counters of a "stats" reply (they come first, up to
 * "total") as a JSON object on @f; the sum of those that are round trips
 * a caller waits for (not FORGET, BATCH_FORGET, RELEASE*, INTERRUPT).
 */
static long fb_server(FILE *f, const char *stats)
{
	static const char *const async[] = { "FORGET", "BATCH_FORGET",
		"RELEASE", "RELEASEDIR", "INTERRUPT" };
	const char *p = stats ? strchr(stats, '{') : NULL;
	const char *sep = "";
	long calls = 0, v;
	char key[32];
	size_t i;
	int len;

	fputs(",\"server\":{", f);
	while (p && sscanf(p, "%*[{,]\"%31[A-Z_0-9]\":%ld%n", key, &v,
			   &len) == 2 && strcmp(key, "total")) {
		fprintf(f, "%s\"%s\":%ld", sep, key, v);
		sep = ",";
		for (i = 0; i < ARRAY_SIZE(async); i++)
			if (!strcmp(key, async[i]))
				break;
		if (i == ARRAY_SIZE(async))
			calls += v;
		p += len;
	}
	fputc('}', f);
	return stats ? calls : -1;
}

static void fb_report(const struct fb_opts *o, const struct lab_case *c,
		      const char *stats, struct fb_result *r)
{
	lab_case_keys(stdout, o->kernel, "fuse", c->opts, c);
	r->calls = fb_server(stdout, stats);
	printf(",\"client\":{%s},\"calls\":%ld,\"wall_us\":%ld", r->client,
	       r->calls, r->wall_us);
	if (!stats)
		printf(",\"error\":\"no counters\"");
	else if (r->err)
		printf(",\"error\":\"call failed\"");
	puts("}");
	fflush(stdout);
}

static void fb_report_skip(const struct fb_opts *o, const struct lab_case *c,
			   const char *why)
{
	lab_case_keys(stdout, o->kernel, "fuse", c->opts, c);
	printf(",\"skipped\":");
	lab_json_str(stdout, why);
	puts("}");
	fflush(stdout);
}

static void fb_reset(const struct lab_fuse *fs)
{
	free(lab_ctl(fs->sock, "reset"));
}

/* The daemon's delay per request from now on; false if it refused. */
static bool fb_set_delay(const struct lab_fuse *fs, unsigned int delay_us)
{
	char cmd[32], *reply;
	bool ok;

	snprintf(cmd, sizeof(cmd), "delay %u", delay_us);
	reply = lab_ctl(fs->sock, cmd);
	ok = reply && !strncmp(reply, "ok", 2);
	if (!ok)
		fprintf(stderr, "fusebench: %s: %s\n", cmd,
			reply ? reply : "no reply");
	free(reply);
	return ok;
}

/* One syscall case on a mounted daemon: prime, reset, call, count. */
static int fb_syscall_case(const struct fb_opts *o, const struct lab_fuse *fs,
			   const struct lab_case *c, int k)
{
	struct fb_result r = { 0 };
	char path[FB_PATH], parent[FB_PATH], *stats, *slash;
	struct statx stx;
	int dirfd;
	long t0;

	fb_object_path(path, sizeof(path), fs->mnt, k, c->object);
	snprintf(parent, sizeof(parent), "%s", path);
	slash = strrchr(parent, '/');
	*slash = '\0';
	/* Only fstatat gets its parent walked (and cached) beforehand. */
	dirfd = strcmp(c->call, "fstatat") ? -1 :
		open(parent, O_PATH | O_DIRECTORY);
	if (c->cache != LAB_COLD)
		lab_call(c, path, dirfd, slash + 1, &stx);
	fb_reset(fs);
	t0 = lab_now_us();
	r.err = lab_call(c, path, dirfd, slash + 1, &stx);
	r.wall_us = lab_now_us() - t0;
	stats = lab_ctl(fs->sock, "stats");
	snprintf(r.client, sizeof(r.client), "\"syscalls\":1,\"errno\":%d",
		 r.err);
	fb_report(o, c, stats, &r);
	free(stats);
	if (dirfd >= 0)
		close(dirfd);
	return r.err || r.calls < 0 ? -1 : 0;
}

static int fb_mount(struct lab_fuse *fs, const char *name, const char *opts)
{
	if (lab_fuse_start(fs, name, opts)) {
		fprintf(stderr, "fusebench: fusecount did not mount (%s)\n",
			opts);
		lab_fuse_stop(fs);
		return -1;
	}
	/* The optin kernel (lab.optin=N): statx_cached_perm=N */
	if (lab_fuse_optin(fs->mnt)) {
		fprintf(stderr, "fusebench: cannot set statx_cached_perm\n");
		(void)umount2(fs->mnt, MNT_DETACH);
		lab_fuse_stop(fs);
		return -1;
	}
	return 0;
}

static void fb_umount(struct lab_fuse *fs)
{
	(void)umount2(fs->mnt, MNT_DETACH);
	lab_fuse_stop(fs);
}

/*
 * A run of syscall cases with the same mount options: one daemon, every
 * case on objects of its own (s<case>.*), so cold stays cold.
 */
static int fb_run_syscalls(const struct fb_opts *o, const struct lab_plan *p,
			   int first, int *next)
{
	const struct lab_case *c0 = &p->cases[first];
	struct lab_fuse fs = { 0 };
	char name[32], back[64];
	int k, end, ret = 0;

	for (end = first; end < p->count &&
	     p->cases[end].workload == LAB_SYSCALL &&
	     !strcmp(p->cases[end].opts, c0->opts); end++)
		;
	*next = end;
	snprintf(name, sizeof(name), "sx%d", first);
	snprintf(back, sizeof(back), "/tmp/%s.back", name);
	if (fb_dir(back))
		return -1;
	for (k = first; k < end; k++)
		if (fb_syscall_objects(back, k))
			return -1;
	if (fb_mount(&fs, name, c0->opts))
		return -1;
	for (k = first; k < end; k++)
		if (fb_syscall_case(o, &fs, &p->cases[k], k))
			ret = -1;
	fb_umount(&fs);
	return ret;
}

/* Run @path with stdout to FB_OUT, stderr to FB_ERR; its exit status. */
static int fb_exec(const char *path, const char *const argv[], long *wall_us)
{
	static char *const env[] = { "PATH=/usr/bin:/bin", "LC_ALL=C",
				     "HOME=/root", NULL };
	int status = -1;
	long t0 = lab_now_us();
	pid_t pid = fork();

	if (pid == 0) {
		int out = open(FB_OUT, O_CREAT | O_WRONLY | O_TRUNC, 0644);
		int err = open(FB_ERR, O_CREAT | O_WRONLY | O_TRUNC, 0644);

		if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
			_exit(126);
		execve(path, (char *const *)argv, env);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	*wall_us = lab_now_us() - t0;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/*
 * What the run listed, from FB_OUT: lsx's JSON summary into @lsx and its
 * "entries"; for ls, the lines of output (one per entry, and "total"
 * for the long forms). busybox ls says nothing when readdir fails, so
 * this is how a short listing is caught.
 */
static long fb_listed(const struct lab_case *c, char *lsx, size_t len)
{
	FILE *f = fopen(FB_OUT, "r");
	const char *e;
	long lines = 0;
	int ch;

	lsx[0] = '\0';
	if (!f)
		return -1;
	if (!strcmp(c->call, "lsx")) {
		if (fgets(lsx, (int)len, f))
			lsx[strcspn(lsx, "\n")] = '\0';
		fclose(f);
		e = strstr(lsx, "\"entries\":");
		return e ? strtol(e + 10, NULL, 10) : -1;
	}
	while ((ch = getc(f)) != EOF)
		lines += ch == '\n';
	fclose(f);
	return lines;
}

/*
 * The ls directory: N entries, in blocks of 20: 13 files, 1 executable,
 * 3 directories and 3 symlinks to the block's first file.
 */
static int fb_ls_tree(unsigned int n)
{
	char p[FB_PATH], t[16], dir[64];
	unsigned int i;
	int ret = 0;

	snprintf(dir, sizeof(dir), "/tmp/ls%u.back/dir", n);
	if (!access(dir, F_OK))
		return 0;
	snprintf(p, sizeof(p), "/tmp/ls%u.back", n);
	if (fb_dir(p) || fb_dir(dir))
		return -1;
	for (i = 0; i < n && !ret; i++) {
		unsigned int kind = i % 20;

		if (kind < 13) {
			snprintf(p, sizeof(p), "%s/f%05u", dir, i);
			ret = fb_file(p, 0644);
		} else if (kind == 13) {
			snprintf(p, sizeof(p), "%s/x%05u", dir, i);
			ret = fb_file(p, 0755);
		} else if (kind < 17) {
			snprintf(p, sizeof(p), "%s/d%05u", dir, i);
			ret = fb_dir(p);
		} else {
			snprintf(p, sizeof(p), "%s/l%05u", dir, i);
			snprintf(t, sizeof(t), "f%05u", i - kind);
			ret = symlink(t, p);
		}
	}
	return ret;
}

/* One ls case on a fresh daemon: prime, reset, run, count. */
static int fb_ls_case(const struct fb_opts *o, const struct lab_case *c,
		      long *calls)
{
	struct fb_result r = { 0 };
	struct lab_fuse fs = { 0 };
	char name[32], dir[96], lsx[320], *stats;
	const char *argv[8], *path;
	long prime_us, listed;

	if (fb_ls_tree(c->n))
		return -1;
	snprintf(name, sizeof(name), "ls%u", c->n);
	if (fb_mount(&fs, name, c->opts))
		return -1;
	snprintf(dir, sizeof(dir), "%s/dir", fs.mnt);
	path = lab_ls_argv(c, dir, true, argv);
	if (c->cache != LAB_COLD)
		fb_exec(path, argv, &prime_us);
	if (c->delay_ms && !fb_set_delay(&fs, c->delay_ms * 1000)) {
		fb_umount(&fs);
		return -1;
	}
	fb_reset(&fs);
	r.err = fb_exec(path, argv, &r.wall_us);
	stats = lab_ctl(fs.sock, "stats");
	/* Unmounting costs requests too (FORGET...): not at the delay */
	if (c->delay_ms)
		fb_set_delay(&fs, 0);
	listed = fb_listed(c, lsx, sizeof(lsx));
	if (!r.err && listed < (long)c->n) {
		fprintf(stderr, "fusebench: %s --form %s listed %ld of %u "
			"entries\n", c->call, c->form, listed, c->n);
		r.err = 1;
	}
	snprintf(r.client, sizeof(r.client), "\"exit\":%d,\"listed\":%ld%s%s",
		 r.err, listed, lsx[0] == '{' ? ",\"lsx\":" : "",
		 lsx[0] == '{' ? lsx : "");
	fb_report(o, c, stats, &r);
	*calls = r.err ? -1 : r.calls;
	free(stats);
	fb_umount(&fs);
	return r.err || r.calls < 0 ? -1 : 0;
}

/* The deep tree in the backing directory: its leaves, then their files. */
static int fb_deep_tree(void)
{
	char leaf[FB_PATH], p[FB_PATH + 8], *s;
	unsigned int l, f;

	if (!access("/tmp/deep.back/a0", F_OK))
		return 0;
	for (l = 0; l < LAB_DEEP_LEAVES; l++) {
		lab_deep_leaf(leaf, sizeof(leaf), "/tmp/deep.back", l);
		for (s = strchr(leaf + strlen("/tmp/deep.back/"), '/'); s;
		     s = strchr(s + 1, '/')) {
			*s = '\0';
			if (fb_dir(leaf))
				return -1;
			*s = '/';
		}
		if (fb_dir(leaf))
			return -1;
		for (f = 0; f < LAB_DEEP_FILES; f++) {
			snprintf(p, sizeof(p), "%s/f%u", leaf, f);
			if (fb_file(p, 0644))
				return -1;
		}
	}
	return 0;
}

static int fb_deep_case(const struct fb_opts *o, const struct lab_case *c)
{
	struct fb_result r = { 0 };
	struct lab_fuse fs = { 0 };
	char *stats;
	long t0;

	if (fb_dir("/tmp/deep.back") || fb_deep_tree() ||
	    fb_mount(&fs, "deep", c->opts))
		return -1;
	lab_deep_walk(fs.mnt, 0);
	fb_reset(&fs);
	t0 = lab_now_us();
	r.err = lab_deep_walk(fs.mnt, lab_sync_flags(c->sync));
	r.wall_us = lab_now_us() - t0;
	stats = lab_ctl(fs.sock, "stats");
	snprintf(r.client, sizeof(r.client), "\"syscalls\":%d,\"errno\":%d",
		 LAB_DEEP_N, r.err);
	fb_report(o, c, stats, &r);
	free(stats);
	fb_umount(&fs);
	return r.err || r.calls < 0 ? -1 : 0;
}

/*
 * fusecount keeps an O_PATH fd per inode the kernel knows, as libfuse's
 * passthrough_ll does: 10000 entries need more than the default 1024
 * descriptors, or READDIRPLUS fails half way. The daemon raises its soft
 * limit only as far as the hard one it inherits: raise the hard one here.
 */
static void fb_raise_nofile(void)
{
	struct rlimit rl = { 1 << 17, 1 << 17 };

	if (setrlimit(RLIMIT_NOFILE, &rl))
		fprintf(stderr, "fusebench: RLIMIT_NOFILE: %s\n",
			strerror(errno));
}

/* Where the clock comes from: the report's times depend on it. */
static void fb_kernel_line(const struct fb_opts *o)
{
	char src[32] = "?";
	struct timespec res = { 0 };
	struct utsname u;
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/"
			"current_clocksource", "r");

	if (f && fgets(src, sizeof(src), f))
		src[strcspn(src, "\n")] = '\0';
	if (f)
		fclose(f);
	clock_getres(CLOCK_MONOTONIC, &res);
	uname(&u);
	printf("{\"kernel\":");
	lab_json_str(stdout, o->kernel);
	printf(",\"release\":");
	lab_json_str(stdout, u.release);
	printf(",\"role\":\"fuse\",\"clocksource\":");
	lab_json_str(stdout, src);
	printf(",\"clock_res_ns\":%ld}\n", res.tv_sec * 1000000000L +
	       res.tv_nsec);
}

static int fb_run(const struct fb_opts *o, const struct lab_plan *p)
{
	long *calls = calloc(p->count, sizeof(*calls));
	char why[96];
	int k = 0, next, ret = 0;

	if (!calls)
		return -1;
	fb_raise_nofile();
	fb_kernel_line(o);
	while (k < p->count) {
		const struct lab_case *c = &p->cases[k];

		next = k + 1;
		if (c->workload == LAB_SYSCALL) {
			if (fb_run_syscalls(o, p, k, &next))
				ret = -1;
		} else if (c->workload == LAB_DEEP) {
			if (fb_deep_case(o, c))
				ret = -1;
		} else if (c->workload != LAB_LS) {
			fb_report_skip(o, c, "not a FUSE workload");
			calls[k] = -1;
		} else if (lab_over_budget(p, c, calls, o->budget_us, why,
					   sizeof(why))) {
			fb_report_skip(o, c, why);
			calls[k] = -1;
		} else if (fb_ls_case(o, c, &calls[k])) {
			ret = -1;
		}
		k = next;
	}
	free(calls);
	return ret;
}

#define FB_USAGE \
	"usage: fusebench --kernel NAME --cases FILE [--budget-s S]\n"

/* A usage error: one line on stderr ("fusebench: WHAT ARG..."), exit 2. */
static void __attribute__((noreturn)) fb_usage(const char *what,
						const char *arg)
{
	fprintf(stderr, "fusebench: %s%s (fusebench --help)\n", what, arg);
	exit(2);
}

/* --budget-s: digits only (no sign, no suffix), at most a day. */
static long fb_budget_us(const char *v)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (*v < '0' || *v > '9' || *end || errno == ERANGE ||
	    n > FB_BUDGET_MAX_S)
		fb_usage("--budget-s: want whole seconds from 0 to 86400, "
			 "not ", v);
	return n * 1000000L;
}

static void fb_parse(struct fb_opts *o, int argc, char *argv[])
{
	static const struct option opts[] = {
		{ "kernel", required_argument, NULL, 'k' },
		{ "cases", required_argument, NULL, 'c' },
		{ "budget-s", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	o->budget_us = 15000000L;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		if (opt == 'k')
			o->kernel = optarg;
		else if (opt == 'c')
			o->cases = optarg;
		else if (opt == 'b')
			o->budget_us = fb_budget_us(optarg);
		else if (opt == 'h')
			exit(fputs(FB_USAGE, stdout) < 0);
		else if (opt == ':')
			fb_usage("a value is needed after ", argv[optind - 1]);
		else
			fb_usage("unknown option ", argv[optind - 1]);
	}
	if (optind < argc)
		fb_usage("unexpected argument ", argv[optind]);
	if (!o->kernel || !o->cases)
		fb_usage("--kernel NAME and --cases FILE are needed", "");
}

int main(int argc, char *argv[])
{
	struct fb_opts o = { 0 };
	struct lab_plan plan;
	char err[160];
	FILE *f;
	int ret;

	fb_parse(&o, argc, argv);
	f = fopen(o.cases, "re");
	if (!f)
		fb_usage(o.cases, ": cannot read it");
	ret = lab_plan_read(&plan, lab_fs_find("fuse"), f, err, sizeof(err));
	fclose(f);
	if (ret) {
		fprintf(stderr, "fusebench: %s:%s\n", o.cases, err);
		return 2;
	}
	ret = fb_run(&o, &plan);
	lab_plan_free(&plan);
	return ret ? 1 : 0;
}
