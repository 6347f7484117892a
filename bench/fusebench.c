// SPDX-License-Identifier: GPL-2.0
/*
 * fusebench - the lab's FUSE matrix, run inside a guest.
 *
 * For each case of the plan (fb_plan.c) it mounts fusecount, brings the
 * kernel's caches to the case's state, resets the daemon's counters over
 * its control socket, makes the measured call (a syscall in this
 * process, or an ls run as a child), reads the counters and prints one
 * JSON object per line: the case keys, "server" (FUSE requests by
 * opcode), "client", "calls" and "wall_us" (see bench/README.md).
 *
 *   fusebench --kernel NAME [--quick] [--n N] [--match KEYS] [--budget-s S]
 *   fusebench --plan [--quick] [--n N] [--match KEYS]   list, run nothing
 *
 * --match runs only the cases whose keys (as printed) contain KEYS.
 *
 * A delay is set over the control socket for the measured call only:
 * mounting and priming run at full speed. A delayed ls case whose
 * predicted time (its delay-0 twin's requests times the delay plus a
 * timer tick) exceeds the budget is reported with "skipped" instead of
 * being run. Exit status: 0, 1 when a case
 * failed (it is still reported, with "error"), 2 usage.
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

#include "fb_plan.h"
#include "lab_fuse.h"
#include "lab_optin.h"
#include "probe_args.h"
#include "probe_fmt.h"

#define FB_OUT		"/tmp/fusebench.out"
#define FB_ERR		"/tmp/fusebench.err"
#define FB_PATH		256
/*
 * The lab kernel has no high-resolution timers (HZ=250): a sleep ends on
 * a tick, up to 4 ms late. The budget counts it; the report shows only
 * measured times.
 */
#define FB_TICK_US	4000
#define FB_BUDGET_MAX_S	(LONG_MAX / 1000000 < 86400 ? LONG_MAX / 1000000 : 86400)

struct fb_opts {
	const char *kernel;
	const char *match;	/* run only cases whose keys contain it */
	struct fb_plan_opts plan;
	bool list;
	long budget_us;
};

/* What one measurement gave. */
struct fb_result {
	long calls;
	long wall_us;
	int err;		/* errno of the syscall, or exit status */
	char client[512];	/* the "client" object, without braces */
};

static long fb_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000L + ts.tv_nsec / 1000;
}

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

static unsigned int fb_sync_flag(const char *sync)
{
	if (!strcmp(sync, "dont"))
		return AT_STATX_DONT_SYNC;
	if (!strcmp(sync, "force"))
		return AT_STATX_FORCE_SYNC;
	return AT_STATX_SYNC_AS_STAT;
}

/*
 * The measured syscall. statx never follows the last symlink (it is the
 * call ls makes); stat and fstatat follow, lstat does not. fstatat goes
 * from an O_PATH fd of the parent, opened before counting.
 */
static int fb_syscall(const struct fb_case *c, const char *path, int dirfd,
		      const char *name)
{
	unsigned int mask = 0;
	struct statx stx;
	struct stat st;
	char err[64];
	int ret;

	if (!strcmp(c->call, "stat"))
		ret = stat(path, &st);
	else if (!strcmp(c->call, "lstat"))
		ret = lstat(path, &st);
	else if (!strcmp(c->call, "fstatat"))
		ret = fstatat(dirfd, name, &st, 0);
	else if (strcmp(c->mask, "none") &&
		 probe_parse_mask(c->mask, &mask, err, sizeof(err)))
		return EINVAL;
	else
		ret = (int)syscall(SYS_statx, AT_FDCWD, path,
				   AT_SYMLINK_NOFOLLOW | fb_sync_flag(c->sync),
				   mask, &stx);
	return ret ? errno : 0;
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

static void fb_report(const struct fb_opts *o, const struct fb_case *c,
		      const char *stats, struct fb_result *r)
{
	fb_case_keys(stdout, o->kernel, c);
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

static void fb_report_skip(const struct fb_opts *o, const struct fb_case *c,
			   const char *why)
{
	fb_case_keys(stdout, o->kernel, c);
	printf(",\"skipped\":");
	probe_json_string(stdout, why);
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
			   const struct fb_case *c, int k)
{
	struct fb_result r = { 0 };
	char path[FB_PATH], parent[FB_PATH], *stats, *slash;
	int dirfd;
	long t0;

	fb_object_path(path, sizeof(path), fs->mnt, k, c->object);
	snprintf(parent, sizeof(parent), "%s", path);
	slash = strrchr(parent, '/');
	*slash = '\0';
	/* Only fstatat gets its parent walked (and cached) beforehand. */
	dirfd = strcmp(c->call, "fstatat") ? -1 :
		open(parent, O_PATH | O_DIRECTORY);
	if (fb_case_primed(c))
		fb_syscall(c, path, dirfd, slash + 1);
	fb_reset(fs);
	t0 = fb_now_us();
	r.err = fb_syscall(c, path, dirfd, slash + 1);
	r.wall_us = fb_now_us() - t0;
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
static int fb_run_syscalls(const struct fb_opts *o, const struct fb_plan *p,
			   int first, int *next)
{
	const struct fb_case *c0 = &p->cases[first];
	struct lab_fuse fs = { 0 };
	char name[32], back[64];
	int k, end, ret = 0;

	for (end = first; end < p->count &&
	     p->cases[end].workload == FB_SYSCALL &&
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

/* Run @argv with stdout to FB_OUT, stderr to FB_ERR; its exit status. */
static int fb_exec(const char *const argv[], long *wall_us)
{
	static char *const env[] = { "PATH=/usr/bin:/bin", "LC_ALL=C",
				     "HOME=/root", NULL };
	int status = -1;
	long t0 = fb_now_us();
	pid_t pid = fork();

	if (pid == 0) {
		int out = open(FB_OUT, O_CREAT | O_WRONLY | O_TRUNC, 0644);
		int err = open(FB_ERR, O_CREAT | O_WRONLY | O_TRUNC, 0644);

		if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
			_exit(126);
		execve(argv[0], (char *const *)argv, env);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	*wall_us = fb_now_us() - t0;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* The argv of an ls case: tool, form flags, the directory. */
static void fb_ls_argv(const struct fb_case *c, const char *dir,
		       const char *argv[8])
{
	int i = 0;

	if (!strcmp(c->call, "lsx")) {
		argv[i++] = "/usr/bin/lsx";
		argv[i++] = "--json";
		argv[i++] = "--form";
		argv[i++] = c->form;
		if (!strcmp(c->sync, "dont"))
			argv[i++] = "--dont-sync";
	} else {
		argv[i++] = strcmp(c->call, "ls") ? "/usr/bin/gnu-ls" :
						    "/bin/ls";
		if (!strcmp(c->form, "color"))
			argv[i++] = "--color=always";
		else if (!strcmp(c->form, "long"))
			argv[i++] = "-l";
		else if (!strcmp(c->form, "inode"))
			argv[i++] = "-li";
	}
	argv[i++] = dir;
	argv[i] = NULL;
}

/*
 * What the run listed, from FB_OUT: lsx's JSON summary into @lsx and its
 * "entries"; for ls, the lines of output (one per entry, and "total"
 * for the long forms). busybox ls says nothing when readdir fails, so
 * this is how a short listing is caught.
 */
static long fb_listed(const struct fb_case *c, char *lsx, size_t len)
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

static bool fb_over_budget(const struct fb_opts *o, const struct fb_case *c,
			   const long *calls, char *why, size_t len)
{
	long base, predicted;

	if (c->base < 0)
		return false;
	base = calls[c->base];
	if (base < 0) {
		snprintf(why, len, "its delay-0 run failed");
		return true;
	}
	predicted = base * (long)(c->delay_us + FB_TICK_US);
	if (predicted <= o->budget_us)
		return false;
	snprintf(why, len, "predicted %ld s > budget %ld s",
		 predicted / 1000000, o->budget_us / 1000000);
	return true;
}

/* One ls case on a fresh daemon: prime, reset, run, count. */
static int fb_ls_case(const struct fb_opts *o, const struct fb_case *c,
		      long *calls)
{
	struct fb_result r = { 0 };
	struct lab_fuse fs = { 0 };
	char name[32], dir[96], lsx[320], *stats;
	const char *argv[8];
	long prime_us, listed;

	if (fb_ls_tree(c->n))
		return -1;
	snprintf(name, sizeof(name), "ls%u", c->n);
	if (fb_mount(&fs, name, c->opts))
		return -1;
	snprintf(dir, sizeof(dir), "%s/dir", fs.mnt);
	fb_ls_argv(c, dir, argv);
	if (fb_case_primed(c))
		fb_exec(argv, &prime_us);
	if (c->delay_us && !fb_set_delay(&fs, c->delay_us)) {
		fb_umount(&fs);
		return -1;
	}
	fb_reset(&fs);
	r.err = fb_exec(argv, &r.wall_us);
	stats = lab_ctl(fs.sock, "stats");
	/* Unmounting costs requests too (FORGET...): not at the delay */
	if (c->delay_us)
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

/* Every file of the deep tree, depth-first, into @paths (under @root). */
static int fb_deep_paths(char paths[][FB_PATH], const char *root)
{
	int leaf, lvl, f, k = 0;
	char p[FB_PATH - 8];
	size_t len;

	for (leaf = 0; leaf < 16; leaf++) {
		len = (size_t)snprintf(p, sizeof(p), "%s", root);
		for (lvl = 0; lvl < FB_DEEP_DEPTH; lvl++)
			len += (size_t)snprintf(p + len, sizeof(p) - len,
						"/%c%d", 'a' + lvl,
						(leaf >> (FB_DEEP_DEPTH - 1 - lvl)) & 1);
		for (f = 0; f < FB_DEEP_FILES; f++)
			snprintf(paths[k++], FB_PATH, "%s/f%d", p, f);
	}
	return k;
}

static int fb_deep_tree(void)
{
	static char paths[FB_DEEP_N][FB_PATH];
	char dir[FB_PATH], *s;
	int i, n;

	if (!access("/tmp/deep.back/a0", F_OK))
		return 0;
	n = fb_deep_paths(paths, "/tmp/deep.back");
	for (i = 0; i < n; i++) {
		memcpy(dir, paths[i], sizeof(dir));
		for (s = strchr(dir + strlen("/tmp/deep.back/"), '/'); s;
		     s = strchr(s + 1, '/')) {
			*s = '\0';
			if (fb_dir(dir))
				return -1;
			*s = '/';
		}
		if (fb_file(paths[i], 0644))
			return -1;
	}
	return 0;
}

/* statx of every file of the tree, with the case's sync mode. */
static int fb_deep_walk(char paths[][FB_PATH], int n, unsigned int flags)
{
	struct statx stx;
	int i, err = 0;

	for (i = 0; i < n; i++)
		if (syscall(SYS_statx, AT_FDCWD, paths[i], flags,
			    STATX_BASIC_STATS, &stx))
			err = errno;
	return err;
}

static int fb_deep_case(const struct fb_opts *o, const struct fb_case *c)
{
	static char paths[FB_DEEP_N][FB_PATH];
	struct fb_result r = { 0 };
	struct lab_fuse fs = { 0 };
	char *stats;
	long t0;
	int n;

	if (fb_dir("/tmp/deep.back") || fb_deep_tree() ||
	    fb_mount(&fs, "deep", c->opts))
		return -1;
	n = fb_deep_paths(paths, fs.mnt);
	fb_deep_walk(paths, n, 0);
	fb_reset(&fs);
	t0 = fb_now_us();
	r.err = fb_deep_walk(paths, n, fb_sync_flag(c->sync));
	r.wall_us = fb_now_us() - t0;
	stats = lab_ctl(fs.sock, "stats");
	snprintf(r.client, sizeof(r.client), "\"syscalls\":%d,\"errno\":%d",
		 n, r.err);
	fb_report(o, c, stats, &r);
	free(stats);
	fb_umount(&fs);
	return r.err || r.calls < 0 ? -1 : 0;
}

/* --match: the case's keys, as printed, contain the string. */
static bool fb_matches(const struct fb_opts *o, const struct fb_case *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	bool match;

	if (!f)
		return false;
	fb_case_keys(f, o->kernel ? o->kernel : "-", c);
	fclose(f);
	match = buf && strstr(buf, o->match);
	free(buf);
	return match;
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

static int fb_run(const struct fb_opts *o, const struct fb_plan *p)
{
	long *calls = calloc(p->count, sizeof(*calls));
	struct utsname u;
	char why[96];
	int k = 0, next, ret = 0;

	if (!calls)
		return -1;
	fb_raise_nofile();
	uname(&u);
	printf("{\"kernel\":\"%s\",\"release\":\"%s\"}\n", o->kernel,
	       u.release);
	while (k < p->count) {
		const struct fb_case *c = &p->cases[k];

		next = k + 1;
		if (o->match && !fb_matches(o, c)) {
			k = next;
			continue;
		}
		if (c->workload == FB_SYSCALL) {
			if (fb_run_syscalls(o, p, k, &next))
				ret = -1;
		} else if (c->workload == FB_DEEP) {
			if (fb_deep_case(o, c))
				ret = -1;
		} else if (fb_over_budget(o, c, calls, why, sizeof(why))) {
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

static void fb_list(const struct fb_opts *o, const struct fb_plan *p)
{
	int k;

	for (k = 0; k < p->count; k++) {
		if (o->match && !fb_matches(o, &p->cases[k]))
			continue;
		fb_case_keys(stdout, "-", &p->cases[k]);
		puts("}");
	}
}

#define FB_USAGE \
	"usage: fusebench --kernel NAME [--quick] [--n N] [--match KEYS] " \
	"[--budget-s S]\n" \
	"       fusebench --plan [--quick] [--n N] [--match KEYS]\n"

/* A usage error: one line on stderr ("fusebench: WHAT ARG..."); -1. */
static int fb_usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "fusebench: %s%s (fusebench --help)\n", what, arg);
	return -1;
}

/*
 * @v as a decimal number in [@min, @max] into @out: digits only (no
 * sign, no space, no suffix) and no overflow, or a usage error.
 */
static int fb_num(const char *opt, const char *v, long min, long max,
		  long *out)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (*v < '0' || *v > '9' || *end || errno == ERANGE || n < min ||
	    n > max) {
		fprintf(stderr, "fusebench: %s '%s': want a whole number from "
			"%ld to %ld (fusebench --help)\n", opt, v, min, max);
		return -1;
	}
	*out = n;
	return 0;
}

/* 0, 1 for --help, -1 for a usage error (already said). */
static int fb_parse(struct fb_opts *o, int argc, char *argv[])
{
	long n;
	int i;

	memset(o, 0, sizeof(*o));
	o->budget_us = -1;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		bool takes = !strcmp(a, "--kernel") || !strcmp(a, "--match") ||
			     !strcmp(a, "--n") || !strcmp(a, "--budget-s");

		if (takes && (!v || !strncmp(v, "--", 2)))
			return fb_usage_error("a value is needed after ", a);
		if (takes)
			i++;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			return 1;
		} else if (!strcmp(a, "--quick")) {
			o->plan.quick = true;
		} else if (!strcmp(a, "--plan")) {
			o->list = true;
		} else if (!strcmp(a, "--kernel")) {
			o->kernel = v;
		} else if (!strcmp(a, "--match")) {
			o->match = v;
		} else if (!strcmp(a, "--n")) {
			if (fb_num(a, v, 1, 1000000, &n))
				return -1;
			o->plan.only_n = (unsigned int)n;
		} else if (!strcmp(a, "--budget-s")) {
			/* a day is far beyond any case; us must fit a long */
			if (fb_num(a, v, 0, FB_BUDGET_MAX_S, &n))
				return -1;
			o->budget_us = n * 1000000L;
		} else {
			return fb_usage_error("unknown argument ", a);
		}
	}
	if (o->budget_us < 0)
		o->budget_us = o->plan.quick ? 8000000L : 15000000L;
	if (!o->list && !o->kernel)
		return fb_usage_error("--kernel NAME or --plan is needed", "");
	return 0;
}

int main(int argc, char *argv[])
{
	struct fb_plan plan;
	struct fb_opts o;
	int ret;

	ret = fb_parse(&o, argc, argv);
	if (ret < 0)
		return 2;
	if (ret > 0) {
		fputs(FB_USAGE, stdout);
		return 0;
	}
	if (fb_plan_build(&plan, &o.plan)) {
		fputs("fusebench: out of memory\n", stderr);
		return 1;
	}
	if (o.list)
		fb_list(&o, &plan);
	ret = o.list ? 0 : fb_run(&o, &plan);
	fb_plan_free(&plan);
	return ret ? 1 : 0;
}
