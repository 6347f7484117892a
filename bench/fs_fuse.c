// SPDX-License-Identifier: GPL-2.0
/*
 * fusebench - the lab's runner (run.c) with its FUSE backend: fusecount
 * is the server, its control socket the counters (FUSE requests by
 * opcode) and the delay per request. Run inside a guest:
 *
 *   fusebench --kernel LABEL --cases FILE [--budget-s S]
 *
 * Syscall cases in a row with the same mount options share one daemon,
 * each on objects of its own (s<case>.*, made before mounting, so cold
 * stays cold); an ls case, the deep walk and a scan get a fresh one (a
 * scan's changes are made in its backing directory). The delay
 * is set for the measured call only: mounting and priming run at full
 * speed. Expired caches are mounts with timeouts of 0: nothing to wait
 * for. A case is primed by the measured call itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lab_fuse.h"
#include "lab_optin.h"
#include "run.h"

#define FB_PATH		256
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* The daemon of the case that runs, and how far its mount serves. */
static struct fb_state {
	struct lab_fuse fs;
	bool mounted;
	int group_end;		/* syscall cases: the first not on this mount */
} fb;

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

static int fb_mount(struct lab_fuse *fs, const char *name, const char *opts)
{
	memset(fs, 0, sizeof(*fs));
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

static void fb_umount(void)
{
	if (!fb.mounted)
		return;
	(void)umount2(fb.fs.mnt, MNT_DETACH);
	lab_fuse_stop(&fb.fs);
	memset(&fb, 0, sizeof(fb));
}

/*
 * The syscall cases from @first on with its mount options: one daemon,
 * with every case's objects made before it mounts.
 */
static int fb_syscall_mount(const struct lab_run *r, int first)
{
	const struct lab_case *c = r->plan.cases;
	char name[32], back[64];
	int k, end;

	for (end = first; end < r->plan.count &&
	     c[end].workload == LAB_SYSCALL &&
	     !strcmp(c[end].opts, c[first].opts); end++)
		;
	snprintf(name, sizeof(name), "sx%d", first);
	snprintf(back, sizeof(back), "/tmp/%s.back", name);
	if (fb_dir(back))
		return -1;
	for (k = first; k < end; k++)
		if (fb_syscall_objects(back, k))
			return -1;
	if (fb_mount(&fb.fs, name, c[first].opts))
		return -1;
	fb.mounted = true;
	fb.group_end = end;
	return 0;
}

/* The object's path; for fstatat, its parent and last name. */
static int fb_setup_syscall(struct lab_run *r, const struct lab_case *c)
{
	char *slash;

	if (!fb.mounted && fb_syscall_mount(r, r->index))
		return -1;
	snprintf(r->mnt, sizeof(r->mnt), "%s", fb.fs.mnt);
	if (!strcmp(c->object, "deep"))
		snprintf(r->path, sizeof(r->path), "%s/s%04d/d2/f", r->mnt,
			 r->index);
	else
		snprintf(r->path, sizeof(r->path), "%s/s%04d.%c", r->mnt,
			 r->index, !strcmp(c->object, "symlink") ? 'l' :
							       c->object[0]);
	snprintf(r->at_dir, sizeof(r->at_dir), "%s", r->path);
	slash = strrchr(r->at_dir, '/');
	*slash = '\0';
	snprintf(r->at_name, sizeof(r->at_name), "%s", slash + 1);
	return 0;
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

/* A scan's @n files in @back, "data\n" each, made anew */
static int fb_scan_tree(const char *back, unsigned int n)
{
	char p[FB_PATH], name[16];
	unsigned int i;
	int fd, ret = 0;

	for (i = 0; i < n && !ret; i++) {
		lab_scan_name(name, sizeof(name), i);
		snprintf(p, sizeof(p), "%s/%s", back, name);
		fd = open(p, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0 || write(fd, "data\n", 5) != 5)
			ret = -1;
		if (fd >= 0)
			close(fd);
	}
	if (ret)
		fprintf(stderr, "fusebench: scan files in %s: %s\n", back,
			strerror(errno));
	return ret;
}

static int fb_setup_scan(struct lab_run *r, const struct lab_case *c)
{
	char name[32], back[64];

	snprintf(name, sizeof(name), "scan%d", r->index);
	snprintf(back, sizeof(back), "/tmp/%s.back", name);
	if (fb_dir(back) || fb_scan_tree(back, c->n) ||
	    fb_mount(&fb.fs, name, c->opts))
		return -1;
	fb.mounted = true;
	snprintf(r->dir, sizeof(r->dir), "%s", fb.fs.mnt);
	return 0;
}

static int fb_setup(struct lab_run *r, const struct lab_case *c)
{
	char name[32];

	if (c->workload == LAB_SYSCALL)
		return fb_setup_syscall(r, c);
	if (c->workload == LAB_LS) {
		snprintf(name, sizeof(name), "ls%u", c->n);
		if (fb_ls_tree(c->n) || fb_mount(&fb.fs, name, c->opts))
			return -1;
		fb.mounted = true;
		snprintf(r->dir, sizeof(r->dir), "%s/dir", fb.fs.mnt);
		return 0;
	}
	if (c->workload == LAB_SCAN)
		return fb_setup_scan(r, c);
	if (c->workload != LAB_DEEP) {
		fprintf(stderr, "fusebench: no %s workload on FUSE\n",
			lab_workload_names[c->workload]);
		return -1;
	}
	if (fb_dir("/tmp/deep.back") || fb_deep_tree() ||
	    fb_mount(&fb.fs, "deep", c->opts))
		return -1;
	fb.mounted = true;
	snprintf(r->dir, sizeof(r->dir), "%s", fb.fs.mnt);
	return 0;
}

/* A syscall mount stays up for the rest of its cases. */
static void fb_teardown(struct lab_run *r, const struct lab_case *c)
{
	if (c->workload != LAB_SYSCALL || r->index + 1 >= fb.group_end)
		fb_umount();
}

/*
 * How long a warm-up's attributes stay valid: the shorter of the mount's
 * entry and attribute timeouts (fusecount's default 1 s each).
 */
static unsigned int fb_valid_ms(const struct lab_case *c)
{
	static const char *const names[] = { "entry_timeout=",
					     "attr_timeout=" };
	double secs, least = 1e9;
	const char *o;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		o = strstr(c->opts, names[i]);
		secs = o ? strtod(o + strlen(names[i]), NULL) : 1.0;
		if (secs < least)
			least = secs;
	}
	return least > 0 ? (unsigned int)(least * 1000) : 0;
}

/* A scan's changes, in the backing directory: behind the kernel's back */
static int fb_scan_changes(unsigned int n)
{
	unsigned int i;
	int dfd, err = 0;

	dfd = open(fb.fs.back, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	for (i = 0; i < n && !err; i++)
		err = lab_scan_change(dfd, i);
	close(dfd);
	return err;
}

/*
 * Expired is a mount with timeouts of 0, or one whose timeouts are waited
 * out (libfuse's second), after a scan's changes; changed is not there.
 */
static int fb_age(struct lab_run *r, const struct lab_case *c)
{
	unsigned int ms = fb_valid_ms(c);
	int err;

	(void)r;
	if (c->workload == LAB_SCAN) {
		err = fb_scan_changes(c->n);
		if (err) {
			fprintf(stderr, "fusebench: the scan's changes: %s\n",
				err == -EAGAIN ? "the ctime moved every time" :
						 strerror(-err));
			return -1;
		}
	}
	if (c->cache == LAB_EXPIRED && ms)
		lab_sleep_ms(ms + 200);
	if (c->cache != LAB_CHANGED)
		return 0;
	fprintf(stderr, "fusebench: no cache=changed on FUSE\n");
	return -1;
}

static int fb_delay(struct lab_run *r, unsigned int ms)
{
	(void)r;
	return fb_set_delay(&fb.fs, ms * 1000) ? 0 : -1;
}

static int fb_count(struct lab_run *r)
{
	(void)r;
	free(lab_ctl(fb.fs.sock, "reset"));
	return 0;
}

static long fb_counted(struct lab_run *r, const struct lab_case *c, FILE *f)
{
	char *stats = lab_ctl(fb.fs.sock, "stats");
	long calls = fb_server(f, stats);

	(void)r;
	(void)c;
	free(stats);
	return calls;
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

static int fb_start(struct lab_run *r)
{
	(void)r;
	fb_raise_nofile();
	return 0;
}

static void fb_stop(struct lab_run *r)
{
	(void)r;
	fb_umount();
}

static const struct lab_backend fb_backend = {
	.prog = "fusebench",
	.fs0 = "fuse",
	.prime_with_call = true,
	.in_guest = true,
	.start = fb_start,
	.stop = fb_stop,
	.setup = fb_setup,
	.teardown = fb_teardown,
	.age = fb_age,
	.valid_ms = fb_valid_ms,
	.delay = fb_delay,
	.count = fb_count,
	.counted = fb_counted,
};

int main(int argc, char *argv[])
{
	return lab_run_main(argc, argv, &fb_backend);
}
