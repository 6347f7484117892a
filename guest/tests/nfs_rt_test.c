// SPDX-License-Identifier: GPL-2.0
/*
 * Round trips of stat()/statx() on NFSv4.2, counted by knfsd in the same
 * guest (server and client over loopback; guest/nfs-loopback.sh starts the
 * server and exports an ext4 disk on /export), on the stock kernel, the
 * patched kernel and the patched kernel with the permission opt-in
 * (lab.optin=N: every mount gets statx_cached_access=N, see lab_optin.h).
 *
 * Each test makes its own tree /export/tPID/d1/d2/file on the server side
 * and mounts 127.0.0.1:/export/tPID with nosharecache, so the client's
 * caches start cold and are its own; actimeo=1 for the expired_* tests,
 * which wait 1.2 s past it, an hour for the others. The counts are the
 * server's: COMPOUNDs and the operations in them. They are exact: the
 * mount is idle but for the call, and the walk takes far less than the
 * one-second attribute timeout.
 *
 * Covers kernel patches 0001/0002 (lookup hints: FORCE_SYNC revalidates
 * the final name, positive or negative, in one round trip), 0008/0009
 * (bounded per-mount permission opt-in) and the NFS btime pair.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "kselftest_harness.h"
#include "lab_fuse.h"		/* lab_kernel(), ON_KERNEL(), lab_sleep_ms() */
#include "lab_nfs.h"
#include "lab_user.h"

#define EXPIRE_MS	1200	/* past actimeo=1 */

#define MEASURE(call)	NFSD_MEASURE(&self->d, call)

#define OPS(name)	(self->d.op[OP4_##name])
#define COMPOUNDS	(self->d.compound)

FIXTURE(nfs4) {
	char srv[64];		/* server side: /export/tPID */
	char mnt[64];		/* client side: /mnt/tPID */
	char file[128];		/* mnt/d1/d2/file */
	char srv_file[128];	/* srv/d1/d2/file */
	struct nfsd_counts d;
};

static void make_file(struct __test_metadata *_metadata, const char *path)
{
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);

	ASSERT_LE(0, fd) TH_LOG("create %s: %s", path, strerror(errno));
	ASSERT_EQ(5, write(fd, "data\n", 5));
	close(fd);
}

/*
 * The expired_* tests wait out a one-second attribute timeout. The others
 * count on the attributes a first call fetched still being valid at the
 * measured one: under host load a guest can stall past one second
 * between the two, so they get an hour.
 */
static const char *nfs4_mount_opts(const char *test)
{
	return strncmp(test, "expired_", strlen("expired_")) ?
		"vers=4.2,actimeo=3600" : "vers=4.2,actimeo=1";
}

FIXTURE_SETUP(nfs4)
{
	char p[128];

	snprintf(self->srv, sizeof(self->srv), "/export/t%d", getpid());
	snprintf(self->mnt, sizeof(self->mnt), "/mnt/t%d", getpid());
	snprintf(self->file, sizeof(self->file), "%s/d1/d2/file", self->mnt);
	snprintf(self->srv_file, sizeof(self->srv_file), "%s/d1/d2/file",
		 self->srv);
	ASSERT_EQ(0, mkdir(self->srv, 0755));
	snprintf(p, sizeof(p), "%s/d1", self->srv);
	ASSERT_EQ(0, mkdir(p, 0755));
	snprintf(p, sizeof(p), "%s/d1/d2", self->srv);
	ASSERT_EQ(0, mkdir(p, 0755));
	make_file(_metadata, self->srv_file);
	ASSERT_EQ(0, mkdir(self->mnt, 0755));
	ASSERT_EQ(0, lab_nfs_mount(self->srv, self->mnt,
				   nfs4_mount_opts(_metadata->name)));
}

FIXTURE_TEARDOWN(nfs4)
{
	(void)umount2(self->mnt, MNT_DETACH);
}

static int do_statx(const char *path, int flags, unsigned int mask,
		    struct statx *stx)
{
	return statx(AT_FDCWD, path, flags, mask, stx);
}

/* Just mounted: each component is looked up and each directory's ACCESS. */
TEST_F(nfs4, cold_stat)
{
	struct stat st;

	MEASURE(ASSERT_EQ(0, stat(self->file, &st)));
	EXPECT_EQ(3, OPS(LOOKUP));
	EXPECT_EQ(3, OPS(ACCESS));
	EXPECT_EQ(6, COMPOUNDS);
}

TEST_F(nfs4, warm_stat_costs_nothing)
{
	struct stat st;

	ASSERT_EQ(0, stat(self->file, &st));
	MEASURE(ASSERT_EQ(0, stat(self->file, &st)));
	EXPECT_EQ(0, COMPOUNDS);
}

TEST_F(nfs4, warm_force_sync)
{
	struct statx stx;

	ASSERT_EQ(0, do_statx(self->file, 0, STATX_BASIC_STATS, &stx));
	MEASURE(ASSERT_EQ(0, do_statx(self->file, AT_STATX_FORCE_SYNC,
				      STATX_BASIC_STATS, &stx)));
	/*
	 * Patch 0002: the final name is looked up on the server instead,
	 * and its reply's attributes answer the call (finding 7: it was a
	 * LOOKUP and a GETATTR before the review).
	 */
	EXPECT_EQ(ON_KERNEL(0, 1, 1), OPS(LOOKUP));
	EXPECT_EQ(1, COMPOUNDS);
}

/* Append @n bytes to @path on the server side, behind the client's back */
static void server_append(struct __test_metadata *_metadata, const char *path,
			  int n)
{
	char buf[64] = { 0 };
	int fd = open(path, O_WRONLY | O_APPEND);

	ASSERT_LE(0, fd);
	ASSERT_LE(n, (int)sizeof(buf));
	ASSERT_EQ(n, write(fd, buf, n));
	close(fd);
}

/*
 * v3 finding 1: a FORCE_SYNC walk that fails after its final LOOKUP (the
 * "file/" of a regular file: ENOTDIR) leaves nothing behind that lets a
 * later FORCE_SYNC skip the server: the same task's statx of an open file
 * sends a GETATTR and returns the size the server has now. The v2 series
 * left a mark on the inode and returned the old size with no call.
 */
TEST_F(nfs4, force_sync_after_failed_walk_asks_server)
{
	struct statx stx;
	char slash[160];
	int fd;

	snprintf(slash, sizeof(slash), "%s/", self->file);
	fd = open(self->file, O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, lab_force_sync_enotdir(slash));
	server_append(_metadata, self->srv_file, 25);
	MEASURE(ASSERT_EQ(0, statx(fd, "", AT_EMPTY_PATH | AT_STATX_FORCE_SYNC,
				   STATX_SIZE, &stx)));
	close(fd);
	EXPECT_EQ(STATX_SIZE, stx.stx_mask & STATX_SIZE);
	EXPECT_EQ(30, stx.stx_size);
	EXPECT_EQ(1, OPS(GETATTR));
	EXPECT_EQ(1, COMPOUNDS);
}

/*
 * v3 finding 1, across processes, eight rounds: one process's failed
 * FORCE_SYNC walk, an append on the server, then another process's
 * FORCE_SYNC statx of a descriptor (the v2 series' mark matched a reused
 * task_struct in 1 of 8 rounds on NFS, 7 of 8 on FUSE).
 */
TEST_F(nfs4, force_sync_after_other_process_failed_walk)
{
	char slash[160];
	int i;

	snprintf(slash, sizeof(slash), "%s/", self->file);
	for (i = 0; i < 8; i++) {
		ASSERT_EQ(0, lab_in_child(lab_force_sync_enotdir, slash));
		server_append(_metadata, self->srv_file, 1);
		/* Time for RCU to free the exited child's task_struct */
		lab_sleep_ms(50);
		EXPECT_EQ(6 + i, lab_in_child(lab_force_sync_fd_size,
					      self->file))
			TH_LOG("round %d", i);
	}
}

/*
 * Finding 7: under FORCE_SYNC a negative final dentry is looked up again
 * too, as on FUSE: a file another client created is found.
 */
TEST_F(nfs4, force_sync_sees_new_name)
{
	struct statx stx;
	char new[160], srv_new[160];

	snprintf(new, sizeof(new), "%s/d1/d2/new", self->mnt);
	snprintf(srv_new, sizeof(srv_new), "%s/d1/d2/new", self->srv);
	ASSERT_EQ(-1, do_statx(new, 0, STATX_BASIC_STATS, &stx));
	ASSERT_EQ(ENOENT, errno);
	make_file(_metadata, srv_new);
	/* The directory's attributes are valid: the negative entry holds. */
	ASSERT_EQ(-1, do_statx(new, 0, STATX_BASIC_STATS, &stx));
	MEASURE(EXPECT_EQ(ON_KERNEL(-1, 0, 0),
			  do_statx(new, AT_STATX_FORCE_SYNC,
				   STATX_BASIC_STATS, &stx)));
	EXPECT_EQ(ON_KERNEL(0, 1, 1), OPS(LOOKUP));
	EXPECT_EQ(ON_KERNEL(0, 1, 1), COMPOUNDS);
}

TEST_F(nfs4, expired_stat)
{
	struct stat st;

	ASSERT_EQ(0, stat(self->file, &st));
	lab_sleep_ms(EXPIRE_MS);
	/* The root, d1 and d2 (permission checks of the walk), then file. */
	MEASURE(ASSERT_EQ(0, stat(self->file, &st)));
	EXPECT_EQ(4, OPS(GETATTR));
	EXPECT_EQ(0, OPS(LOOKUP));
	EXPECT_EQ(4, COMPOUNDS);
}

TEST_F(nfs4, expired_dont_sync)
{
	struct statx stx;

	ASSERT_EQ(0, do_statx(self->file, 0, STATX_BASIC_STATS, &stx));
	lab_sleep_ms(EXPIRE_MS);
	MEASURE(ASSERT_EQ(0, do_statx(self->file, AT_STATX_DONT_SYNC,
				      STATX_BASIC_STATS, &stx)));
	/*
	 * Stock and patched: the walk's permission checks revalidate the
	 * expired root, d1 and d2 before trusting their access cache. The
	 * opt-in (patches 0008/0009) uses the cached ACCESS answers as they are,
	 * and patch 0002 keeps d_revalidate from refreshing the parents.
	 */
	EXPECT_EQ(ON_KERNEL(3, 3, 0), OPS(GETATTR));
	EXPECT_EQ(ON_KERNEL(3, 3, 0), COMPOUNDS);
}

TEST_F(nfs4, expired_force_sync)
{
	struct statx stx;

	ASSERT_EQ(0, do_statx(self->file, 0, STATX_BASIC_STATS, &stx));
	lab_sleep_ms(EXPIRE_MS);
	MEASURE(ASSERT_EQ(0, do_statx(self->file, AT_STATX_FORCE_SYNC,
				      STATX_BASIC_STATS, &stx)));
	/* The root, d1 and d2 as in expired_stat, then one LOOKUP. */
	EXPECT_EQ(ON_KERNEL(0, 1, 1), OPS(LOOKUP));
	EXPECT_EQ(4, COMPOUNDS);
}

TEST_F(nfs4, expired_type_ino)
{
	struct statx stx;

	ASSERT_EQ(0, do_statx(self->file, 0, STATX_BASIC_STATS, &stx));
	lab_sleep_ms(EXPIRE_MS);
	/* nfs_getattr() already needs no server for type and inode. */
	MEASURE(ASSERT_EQ(0, do_statx(self->file, 0, STATX_TYPE | STATX_INO,
				      &stx)));
	EXPECT_EQ(3, COMPOUNDS);
}

TEST_F(nfs4, btime_from_time_create)
{
	struct statx stx, local;

	ASSERT_EQ(0, do_statx(self->srv_file, 0, STATX_BTIME, &local));
	ASSERT_EQ(STATX_BTIME, local.stx_mask & STATX_BTIME);
	ASSERT_EQ(0, do_statx(self->file, AT_STATX_FORCE_SYNC,
			      STATX_BASIC_STATS | STATX_BTIME, &stx));
	if (lab_kernel() == LAB_STOCK) {
		EXPECT_EQ(0, stx.stx_mask & STATX_BTIME);
		return;
	}
	ASSERT_EQ(STATX_BTIME, stx.stx_mask & STATX_BTIME);
	EXPECT_EQ(local.stx_btime.tv_sec, stx.stx_btime.tv_sec);
	EXPECT_EQ(local.stx_btime.tv_nsec, stx.stx_btime.tv_nsec);
}

TEST_F(nfs4, change_behind_client_seen_by_force_sync_only)
{
	struct statx stx;

	ASSERT_EQ(0, do_statx(self->file, 0, STATX_BASIC_STATS, &stx));
	ASSERT_EQ(0644, stx.stx_mode & 07777);
	ASSERT_EQ(0, chmod(self->srv_file, 0600));
	ASSERT_EQ(0, do_statx(self->file, AT_STATX_DONT_SYNC,
			      STATX_BASIC_STATS, &stx));
	EXPECT_EQ(0644, stx.stx_mode & 07777);
	ASSERT_EQ(0, do_statx(self->file, AT_STATX_FORCE_SYNC,
			      STATX_BASIC_STATS, &stx));
	EXPECT_EQ(0600, stx.stx_mode & 07777);
}

TEST_F(nfs4, force_sync_after_rename_over)
{
	struct statx stx, fresh;
	char tmp[160];

	ASSERT_EQ(0, do_statx(self->file, 0, STATX_BASIC_STATS, &stx));
	/* A second link keeps the replaced inode alive on the server. */
	snprintf(tmp, sizeof(tmp), "%s/d1/d2/keep", self->srv);
	ASSERT_EQ(0, link(self->srv_file, tmp));
	snprintf(tmp, sizeof(tmp), "%s/d1/d2/new", self->srv);
	make_file(_metadata, tmp);
	ASSERT_EQ(0, do_statx(tmp, 0, STATX_BASIC_STATS, &fresh));
	ASSERT_EQ(0, rename(tmp, self->srv_file));
	MEASURE(ASSERT_EQ(0, do_statx(self->file, AT_STATX_FORCE_SYNC,
				      STATX_BASIC_STATS, &stx)));
	/*
	 * Stock: GETATTR of the old file handle, still valid on the server:
	 * the replaced file's attributes. Patched: the LOOKUP finds another
	 * handle, the dentry is dropped and looked up again: the new file.
	 */
	EXPECT_EQ(ON_KERNEL(0, 1, 1), fresh.stx_ino == stx.stx_ino);
	EXPECT_EQ(ON_KERNEL(0, 2, 2), OPS(LOOKUP));
	EXPECT_EQ(ON_KERNEL(1, 2, 2), COMPOUNDS);
}

#define BIG_DIR_N	1000

/* @n empty files f0000... in @dir, made on the server side. */
static void make_files(struct __test_metadata *_metadata, const char *dir,
		       int n)
{
	char p[200];
	int i, fd;

	for (i = 0; i < n; i++) {
		snprintf(p, sizeof(p), "%s/f%04d", dir, i);
		fd = open(p, O_CREAT | O_WRONLY, 0644);
		ASSERT_LE(0, fd) TH_LOG("create %s: %s", p, strerror(errno));
		close(fd);
	}
}

/* Every name in @dir but . and .., in getdents order; the count. */
static int read_names(const char *dir, char names[][8], int max)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)) && n < max)
		if (e->d_name[0] != '.')
			snprintf(names[n++], 8, "%.7s", e->d_name);
	closedir(d);
	return n;
}

/* lstat() of each: 0 when each is the empty 0644 file make_files() made */
static int lstat_all(const char *dir, char names[][8], int n)
{
	char p[200];
	struct stat st;
	int i;

	for (i = 0; i < n; i++) {
		snprintf(p, sizeof(p), "%s/%.7s", dir, names[i]);
		if (lstat(p, &st) || !S_ISREG(st.st_mode) ||
		    (st.st_mode & 07777) != 0644 || st.st_size)
			return -1;
	}
	return 0;
}

/*
 * ls -l as users mount NFS: 1000 entries, NFSv3 and NFSv4.2, busybox and
 * GNU ls -l, and GNU ls of the names only (which no change to ls -l may
 * make dearer), cold (just mounted) and expired (listed once, then past
 * the attribute timeouts), on two mount profiles:
 *   defaults   no ac* option: acregmin 3 s, acdirmin 30 s, both maxima
 *              60 s; the readdirplus heuristic runs (its gate is an
 *              attribute-cache maximum over 5 s)
 *   actimeo=1  every timeout 1 s: the heuristic's gate is shut
 * Every "expired" mount is primed first and all wait once, 30.2 s past
 * the defaults' acdirmin (1.2 s suffices for actimeo=1). The count is
 * every call the server took while one listing ran. A listing whose own
 * attributes can expire while it runs (actimeo=1 and a listing longer
 * than a second) depends on the guest's speed: it is listed again on a
 * fresh mount (ls_again), and not judged if it never ends in time.
 */
enum { LS_COLD, LS_EXPIRED };
enum { LS_BUSYBOX, LS_GNU, LS_NAMES, LS_CMDS };

struct ls_case {
	const char *vers;	/* 3 or 4.2 */
	const char *profile;	/* mount options: "hard" is the defaults */
	int cmd;		/* LS_BUSYBOX, LS_GNU: ls -l; LS_NAMES: GNU ls */
	int state;		/* LS_COLD or LS_EXPIRED */
	char mnt[96];
	unsigned long calls, readdirs, plus, lookups, getattrs;
	long long ms;		/* how long the listing ran */
	bool outlasted;		/* longer than actimeo=1 every time */
};

#define LS_PROFILES	2
#define LS_CASES	(2 * LS_PROFILES * LS_CMDS * 2)

/* Every call the server took, NFSv3 or NFSv4; and its kinds. */
static void ls_count(struct ls_case *c, const struct nfsd_counts *d)
{
	int i;

	if (!strcmp(c->vers, "3")) {
		for (c->calls = 0, i = 1; i <= P3_MAX; i++)
			c->calls += d->v3[i];
		c->readdirs = d->v3[P3_READDIR] + d->v3[P3_READDIRPLUS];
		c->plus = d->v3[P3_READDIRPLUS];
		c->lookups = d->v3[P3_LOOKUP];
		c->getattrs = d->v3[P3_GETATTR];
		return;
	}
	c->calls = d->compound;
	c->readdirs = d->op[OP4_READDIR];
	c->plus = 0;		/* in NFSv4 it is the request's bitmap */
	c->lookups = d->op[OP4_LOOKUP];
	/* COMPOUNDs neither READDIR nor LOOKUP: GETATTR, or ACCESS */
	c->getattrs = c->calls - c->readdirs - c->lookups;
}

/* ls @cmd of @dir, its output thrown away; its status */
static int ls_long(const char *dir, int cmd)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd < 0 || dup2(fd, 1) < 0)
			_exit(126);
		if (cmd == LS_NAMES)
			execl("/usr/bin/gnu-ls", "ls", dir, (char *)NULL);
		else if (cmd == LS_GNU)
			execl("/usr/bin/gnu-ls", "ls", "-l", dir, (char *)NULL);
		else
			execl("/bin/busybox", "ls", "-l", dir, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void ls_measure(struct __test_metadata *_metadata, struct ls_case *c)
{
	struct nfsd_counts b, a, d;

	ASSERT_EQ(0, lab_nfsd_read(&b));
	c->ms = lab_mono_ms();
	ASSERT_EQ(0, ls_long(c->mnt, c->cmd)) TH_LOG("ls %s", c->mnt);
	c->ms = lab_mono_ms() - c->ms;
	ASSERT_EQ(0, lab_nfsd_read(&a));
	lab_nfsd_delta(&d, &b, &a);
	ls_count(c, &d);
	static const char *const cmds[] = { "busybox ls -l", "GNU ls -l",
					    "GNU ls" };

	TH_LOG("NFSv%s %s %s %s: %lu calls: %lu READDIR (%lu PLUS), %lu LOOKUP, %lu other; %lld ms",
	       c->vers, c->profile, cmds[c->cmd],
	       c->state == LS_COLD ? "cold" : "expired", c->calls, c->readdirs,
	       c->plus, c->lookups, c->getattrs, c->ms);
}

/*
 * A listing that ran longer than actimeo=1 saw attributes it fetched
 * expire while it ran, and counted what the guest's speed made it
 * count: on a loaded host it is listed again on a mount of its own
 * (primed and aged again if expired), LS_TRIES times at most. One that
 * outlasts every try is not judged (ls_expect), and says so.
 */
#define LS_TRIES	3
#define LS_SHORT_MS	1000

/* @c's mount on c->mnt, of its version and profile; primed if expired */
static void ls_mount(struct __test_metadata *_metadata, const char *srv,
		     struct ls_case *c)
{
	char o[64];

	ASSERT_EQ(0, mkdir(c->mnt, 0755));
	snprintf(o, sizeof(o), "vers=%s,%s", c->vers, c->profile);
	ASSERT_EQ(0, lab_nfs_mount(srv, c->mnt, o));
	if (c->state == LS_EXPIRED)
		ASSERT_EQ(0, ls_long(c->mnt, c->cmd));
}

static void ls_again(struct __test_metadata *_metadata, const char *srv,
		     struct ls_case *c)
{
	char mnt[sizeof(c->mnt)];
	int try;

	for (try = 1; c->ms >= LS_SHORT_MS && try < LS_TRIES; try++) {
		TH_LOG("  ran %lld ms, past its 1 s timeout: again", c->ms);
		(void)umount2(c->mnt, MNT_DETACH);
		snprintf(mnt, sizeof(mnt), "%.80s-t%d", c->mnt, try);
		snprintf(c->mnt, sizeof(c->mnt), "%s", mnt);
		ls_mount(_metadata, srv, c);
		if (c->state == LS_EXPIRED)
			lab_sleep_ms(1200);
		ls_measure(_metadata, c);
	}
	c->outlasted = c->ms >= LS_SHORT_MS;
}

/* The cases in a fixed order; their mounts made and, if expired, primed. */
static void ls_setup(struct __test_metadata *_metadata, const char *srv,
		     const char *mnt, struct ls_case *cs)
{
	static const char *const vers[] = { "3", "4.2" };
	static const char *const profiles[LS_PROFILES] = { "hard",
							   "actimeo=1" };
	int i = 0, v, p, g, s;

	for (v = 0; v < 2; v++)
		for (p = 0; p < LS_PROFILES; p++)
			for (g = 0; g < LS_CMDS; g++)
				for (s = LS_COLD; s <= LS_EXPIRED; s++, i++) {
					cs[i].vers = vers[v];
					cs[i].profile = profiles[p];
					cs[i].cmd = g;
					cs[i].state = s;
					snprintf(cs[i].mnt, sizeof(cs[i].mnt),
						 "%s-ls%d", mnt, i);
					ls_mount(_metadata, srv, &cs[i]);
				}
}

static const struct ls_case *ls_find(const struct ls_case *cs,
				     const char *vers, const char *profile,
				     int cmd, int state)
{
	int i;

	for (i = 0; i < LS_CASES; i++)
		if (!strcmp(cs[i].vers, vers) &&
		    !strcmp(cs[i].profile, profile) && cs[i].cmd == cmd &&
		    cs[i].state == state)
			return &cs[i];
	return NULL;
}

/* Is @c's count the kernel's, not its speed's? (ls_again) */
static bool ls_judged(struct __test_metadata *_metadata,
		      const struct ls_case *c)
{
	if (c->outlasted)
		TH_LOG("NFSv%s %s %s: ran past its 1 s timeout %d times (last %lld ms): its count is not judged",
		       c->vers, c->profile,
		       c->state == LS_COLD ? "cold" : "expired", LS_TRIES,
		       c->ms);
	return !c->outlasted;
}

/*
 * An expired listing: re-read with READDIRPLUS (@floor), or a GETATTR
 * each; one that outlasted its timeout still took a GETATTR each at
 * least (its speed only adds calls)
 */
static void ls_expect_floor_or_each(struct __test_metadata *_metadata,
				    const struct ls_case *c, bool floor)
{
	if (floor && ls_judged(_metadata, c)) {
		EXPECT_GE(30, c->calls);
		EXPECT_LE(1, c->readdirs);
	} else if (!floor) {
		EXPECT_LE(BIG_DIR_N, c->calls);
		if (!c->outlasted)
			EXPECT_GE(BIG_DIR_N + 5, c->calls);
	}
}

/*
 * What each kernel costs, for 1000 empty regular files (the counts of
 * each listing are logged above). The replies' sizes set how many
 * READDIRs a listing takes (a btime in each entry makes one more), so
 * those are bounds; a GETATTR per entry is 1000 plus the directory's.
 *   defaults, cold      READDIRPLUS replies only, on every kernel
 *   defaults, expired   6.1 stock: a GETATTR per entry (its whole
 *                       listing comes from the cache before one stat()
 *                       could count); 6.12 and the patched 6.1: the
 *                       heuristic re-reads with READDIRPLUS after 17
 *                       misses (230bc98f7a2a): at most 30 calls
 *   actimeo=1, cold     6.12 stock: past the first reply a LOOKUP per
 *                       entry, the heuristic's gate (a timeout over 5 s)
 *                       shut (85aa8ddc3818); the others READDIRPLUS only
 *   actimeo=1, expired  stock: a GETATTR per entry; patched: the gate
 *                       open, at most 30 calls
 * The floor for N entries, on any mount but noac: the READDIRPLUS
 * replies, plus the directory's calls cold, or plus 20 GETATTRs expired.
 */
static void ls_expect(struct __test_metadata *_metadata,
		      const struct ls_case *cs)
{
	static const char *const vers[] = { "3", "4.2" };
	bool patched = lab_kernel() != LAB_STOCK;
	const struct ls_case *c;
	int v, g, i;

	for (v = 0; v < 2; v++)
		for (g = LS_BUSYBOX; g <= LS_GNU; g++) {
			c = ls_find(cs, vers[v], "hard", g, LS_COLD);
			EXPECT_EQ(0, c->lookups);
			EXPECT_GE(10, c->readdirs);
			EXPECT_GE(c->readdirs + 3, c->calls);
			c = ls_find(cs, vers[v], "hard", g, LS_EXPIRED);
			ls_expect_floor_or_each(_metadata, c,
						lab_kver_6_12() || patched);
			c = ls_find(cs, vers[v], "actimeo=1", g, LS_COLD);
			if (lab_kver_6_12() && !patched) {
				/* its speed only adds calls */
				EXPECT_LT(BIG_DIR_N / 2, c->lookups);
			} else if (ls_judged(_metadata, c)) {
				EXPECT_EQ(0, c->lookups);
				EXPECT_GE(c->readdirs + 3, c->calls);
			}
			c = ls_find(cs, vers[v], "actimeo=1", g, LS_EXPIRED);
			ls_expect_floor_or_each(_metadata, c, patched);
		}
	/* The names alone: the readdir replies and the directory's calls */
	for (i = 0; i < LS_CASES; i++) {
		c = &cs[i];
		if (c->cmd != LS_NAMES || !ls_judged(_metadata, c))
			continue;
		EXPECT_EQ(0, c->lookups) TH_LOG("NFSv%s %s", c->vers, c->profile);
		EXPECT_GE(3, c->getattrs) TH_LOG("NFSv%s %s", c->vers, c->profile);
		EXPECT_GE(10, c->readdirs) TH_LOG("NFSv%s %s", c->vers, c->profile);
	}
}

TEST_F_TIMEOUT(nfs4, ls_long_profiles, 300)
{
	struct ls_case cs[LS_CASES];
	char srv[128];
	int i;

	if (lab_kernel() == LAB_OPTIN)
		SKIP(return, "the opt-ins do not touch readdir: patched shows it");
	memset(cs, 0, sizeof(cs));
	snprintf(srv, sizeof(srv), "%s/big", self->srv);
	ASSERT_EQ(0, mkdir(srv, 0755));
	make_files(_metadata, srv, BIG_DIR_N);
	ls_setup(_metadata, srv, self->mnt, cs);
	for (i = 0; i < LS_CASES; i++)
		if (cs[i].state == LS_COLD)
			ls_measure(_metadata, &cs[i]);
	/* Past the defaults' acdirmin (30 s) since the last priming */
	lab_sleep_ms(30200);
	for (i = 0; i < LS_CASES; i++)
		if (cs[i].state == LS_EXPIRED)
			ls_measure(_metadata, &cs[i]);
	for (i = 0; i < LS_CASES; i++)
		if (!strcmp(cs[i].profile, "actimeo=1"))
			ls_again(_metadata, srv, &cs[i]);
	for (i = 0; i < LS_CASES; i++)
		(void)umount2(cs[i].mnt, MNT_DETACH);
	ls_expect(_metadata, cs);
}

/*
 * ls -l of a directory larger than one READDIR reply, cold, as busybox
 * does it: getdents to the end, then lstat() of every entry. 6.1 asks
 * for the attributes on every READDIR page (readdirplus), so the
 * lstat()s find them cached. 6.12 asks on the first page only, and each
 * entry of a later page costs a LOOKUP: since v6.2's 85aa8ddc3818 ("NFS:
 * Trigger the "ls -l" readdir heuristic sooner") the first getdents
 * returns a few entries only, the later ones go out as plain READDIR
 * before any lstat() could count as a readdirplus hit. How many entries
 * the first reply holds depends on its size, hence a bound: more than
 * half. actimeo=60: nothing expires while it runs.
 */
TEST_F(nfs4, ls_long_large_dir_cold)
{
	static char names[BIG_DIR_N][8];
	char srv[128], mnt[128];
	unsigned long readdirs;

	if (lab_kernel() != LAB_STOCK)
		SKIP(return, "the series does not touch readdir: stock shows it");
	snprintf(srv, sizeof(srv), "%s/big", self->srv);
	snprintf(mnt, sizeof(mnt), "%s-big", self->mnt);
	ASSERT_EQ(0, mkdir(srv, 0755));
	make_files(_metadata, srv, BIG_DIR_N);
	ASSERT_EQ(0, mkdir(mnt, 0755));
	ASSERT_EQ(0, lab_nfs_mount(srv, mnt, "vers=4.2,actimeo=60"));
	MEASURE(ASSERT_EQ(BIG_DIR_N, read_names(mnt, names, BIG_DIR_N)));
	readdirs = OPS(READDIR);
	EXPECT_LE(2, readdirs) TH_LOG("one READDIR reply held them all");
	MEASURE(ASSERT_EQ(0, lstat_all(mnt, names, BIG_DIR_N)));
	if (lab_kver_6_12()) {
		EXPECT_LT(BIG_DIR_N / 2, OPS(LOOKUP));
		EXPECT_EQ(OPS(LOOKUP), COMPOUNDS);
	} else {
		EXPECT_EQ(0, COMPOUNDS);
	}
	TH_LOG("%lu READDIR, then %lu LOOKUP in %lu COMPOUNDs", readdirs,
	       OPS(LOOKUP), COMPOUNDS);
	(void)umount2(mnt, MNT_DETACH);
}

/*
 * revoked_access_stops_within_bound, with actimeo=1 and
 * statx_cached_access=1: a directory's cached ACCESS answer serves
 * DONT_SYNC walks from the attributes' expiry (1 s after they were
 * fetched) to 1 s past it. The walk that must still work is aimed inside
 * that window on CLOCK_MONOTONIC; a loaded host can deschedule the guest
 * past it, and such a round proves nothing either way, so it is tried
 * again. JIFFY_MARGIN_MS covers the attributes' timestamp being jiffies.
 */
#define REVOKED_TIMEOUT_MS	1000
#define REVOKED_SLACK_MS	1000
#define JIFFY_MARGIN_MS		20
#define REVOKED_ROUNDS		5
#define REVOKED_STEP_FAILED	15
#define REVOKED_LATE		14

/*
 * uid 65534's side of one round, in one process: a plain walk caches its
 * ACCESS answers (and d1's attributes, within [before, after]), @go_fd
 * says the right is gone, then a DONT_SYNC walk inside the window and
 * one after it. One process because 6.12 trusts an access cache entry
 * only within the login that made it (commit 0eb43812c027, "NFS: Clear
 * the file access cache upon login"), and a process forked and setuid()
 * for each call is a new login each time.
 * Exit status: the two walks' results (lab_dont_sync_walk()), 4 * second
 * + first; REVOKED_LATE if the first walk missed the window.
 */
static int revoked_walks_as_nobody(const char *file, int ready_fd,
				   int go_fd)
{
	long long before, after, start, end, expired, bound;
	char c = 0;
	int first;

	if (setgid(LAB_NOBODY) || setuid(LAB_NOBODY))
		return REVOKED_STEP_FAILED;
	before = lab_mono_ms();
	if (lab_plain_stat(file))
		return REVOKED_STEP_FAILED;
	after = lab_mono_ms();
	if (write(ready_fd, &c, 1) != 1 || read(go_fd, &c, 1) != 1)
		return REVOKED_STEP_FAILED;
	expired = after + REVOKED_TIMEOUT_MS + JIFFY_MARGIN_MS;
	bound = before + REVOKED_TIMEOUT_MS + REVOKED_SLACK_MS -
		JIFFY_MARGIN_MS;
	lab_sleep_until_ms((expired + bound) / 2);
	start = lab_mono_ms();
	first = lab_dont_sync_walk(file);
	end = lab_mono_ms();
	if (start < expired || end > bound)
		return REVOKED_LATE;
	lab_sleep_until_ms(bound + REVOKED_SLACK_MS);
	return 4 * lab_dont_sync_walk(file) + first;
}

/*
 * One round on its own tree, @srv/rN/d1/d2/file: uid 65534 walks, the
 * server takes search permission on d1 away, uid 65534 walks again.
 * Returns the child's exit status, -1 if it did not exit.
 */
static int revoked_round(struct __test_metadata *_metadata, const char *srv,
			 const char *mnt, int round)
{
	char top[128], d1[160], d2[170], file[192], c = 0;
	int ready[2], go[2], status = -1;
	pid_t pid;

	snprintf(top, sizeof(top), "%s/r%d", srv, round);
	snprintf(d1, sizeof(d1), "%s/d1", top);
	snprintf(d2, sizeof(d2), "%s/d2", d1);
	snprintf(file, sizeof(file), "%s/file", d2);
	if (mkdir(top, 0755) || mkdir(d1, 0755) || mkdir(d2, 0755))
		return -1;
	make_file(_metadata, file);
	snprintf(file, sizeof(file), "%s/r%d/d1/d2/file", mnt, round);
	if (pipe(ready))
		return -1;
	if (pipe(go)) {
		close(ready[0]);
		close(ready[1]);
		return -1;
	}
	pid = fork();
	if (pid == 0)
		_exit(revoked_walks_as_nobody(file, ready[1], go[0]));
	/* A child that fails early closes its ends: read() then sees EOF. */
	close(ready[1]);
	close(go[0]);
	if (pid > 0 && read(ready[0], &c, 1) == 1 && !chmod(d1, 0700) &&
	    write(go[1], &c, 1) == 1)
		c = 1;
	else
		c = 0;
	close(ready[0]);
	close(go[1]);
	if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status))
		return c ? WEXITSTATUS(status) : -1;
	return -1;
}

/*
 * Finding 6: the opt-in is a mount option and bounded. With
 * statx_cached_access=1 and actimeo=1, a right the server revoked still
 * works for DONT_SYNC walks for at most 1 s past the attribute timeout.
 * Before the review it worked for ever (3 s and 23 s later), and the
 * opt-in was a global module parameter.
 */
TEST_F(nfs4, revoked_access_stops_within_bound)
{
	char mnt[80];
	int round, status = REVOKED_LATE;

	if (lab_kernel() == LAB_STOCK)
		SKIP(return, "statx_cached_access is in the patched kernel only");
	snprintf(mnt, sizeof(mnt), "%s-bound", self->mnt);
	ASSERT_EQ(0, mkdir(mnt, 0755));
	ASSERT_EQ(0, lab_nfs_mount(self->srv, mnt,
				   "vers=4.2,actimeo=1,statx_cached_access=1"));
	for (round = 0; round < REVOKED_ROUNDS; round++) {
		status = revoked_round(_metadata, self->srv, mnt, round);
		if (status != REVOKED_LATE)
			break;
		TH_LOG("round %d: the walk missed its window, again", round);
	}
	(void)umount2(mnt, MNT_DETACH);
	ASSERT_NE(REVOKED_LATE, status)
		TH_LOG("no walk inside the window in %d rounds", round);
	ASSERT_LE(0, status) TH_LOG("a step of the round failed");
	ASSERT_NE(REVOKED_STEP_FAILED, status);
	/* Still works inside the window, EACCES past it. */
	EXPECT_EQ(0, status & 3);
	EXPECT_EQ(1, status >> 2);
}

TEST_HARNESS_MAIN
