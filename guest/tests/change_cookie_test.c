// SPDX-License-Identifier: GPL-2.0
/*
 * statx()'s change cookie (STATX_CHANGE_COOKIE, stx_change_cookie at
 * 0xc0) on tmpfs, ext4, NFSv4.2 and FUSE, in one guest: knfsd exports the
 * ext4 disk on /export (guest/nfs-loopback.sh) and the client mounts it
 * over loopback; fusecount serves a tmpfs directory.
 *
 * On stock 6.12 the cookie is kernel-internal: the mask bit is never set
 * and the field stays zero, whatever the file system.  On the patched
 * kernel (the 6.12 series' change cookie patches):
 * - tmpfs and ext4: the cookie changes after a write or a chmod, not
 *   after a read; tmpfs says STATX_ATTR_CHANGE_MONOTONIC, ext4 does not;
 * - NFSv4.2 (server calls counted by knfsd): DONT_SYNC returns the cached
 *   cookie with no call, FORCE_SYNC sees a change made on the server in
 *   one call, a plain statx within actimeo does not see it, the cookie
 *   alone costs what the size costs, a cookie the client knows to be out
 *   of date is never claimed; NFSv3 never offers it;
 * - FUSE (requests counted by fusecount): the same sync modes against a
 *   daemon that agreed to FUSE_STATX_CHANGE_COOKIE (-o change_cookie),
 *   and a daemon that did not never gets the cookie claimed;
 * - the server's timestamp granule on mountstats' "caps:" line: on the
 *   patched kernel only.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <stdint.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>

#include "kselftest_harness.h"
#include "lab_fuse.h"
#include "lab_nfs.h"

#define COOKIE		0x40000000U	/* STATX_CHANGE_COOKIE */
#define MONOTONIC	0x8000000000000000ULL /* STATX_ATTR_CHANGE_MONOTONIC */
#define COOKIE_OFF	0xc0		/* stx_change_cookie in struct statx */
#define EXT4_MAGIC	0xEF53
#define EXPIRE_MS	1200		/* past actimeo=1 */
/* The sync mode tests ask for the size too: stock has something to fetch */
#define SX		(COOKIE | STATX_SIZE)

_Static_assert(sizeof(struct statx) == 0x100, "struct statx is 256 bytes");

static uint64_t cookie_of(const struct statx *stx)
{
	uint64_t c;

	memcpy(&c, (const char *)stx + COOKIE_OFF, sizeof(c));
	return c;
}

/* The series with the change cookie: "patched" or "optin"; not stock */
static bool has_cookie(void)
{
	return lab_kernel() != LAB_STOCK;
}

static int fstatx(int fd, int flags, unsigned int mask, struct statx *stx)
{
	memset(stx, 0, sizeof(*stx));
	return statx(fd, "", AT_EMPTY_PATH | flags, mask, stx);
}

static int pstatx(const char *path, int flags, unsigned int mask,
		  struct statx *stx)
{
	memset(stx, 0, sizeof(*stx));
	return statx(AT_FDCWD, path, flags, mask, stx);
}

/* Stock: never claimed, never filled.  Patched: claimed. */
#define EXPECT_COOKIE(stx)						\
	do {								\
		if (has_cookie()) {					\
			EXPECT_EQ(COOKIE, (stx)->stx_mask & COOKIE);	\
		} else {						\
			EXPECT_EQ(0, (stx)->stx_mask & COOKIE);		\
			EXPECT_EQ(0, cookie_of(stx));			\
		}							\
	} while (0)

static void write_at(struct __test_metadata *_metadata, const char *path,
		     const char *s, int flags)
{
	int fd = open(path, O_WRONLY | O_CREAT | flags, 0644);

	ASSERT_LE(0, fd) TH_LOG("open %s: %s", path, strerror(errno));
	ASSERT_EQ((ssize_t)strlen(s), write(fd, s, strlen(s)));
	close(fd);
}

/* Local file systems: a tmpfs of our own (strictatime) and the ext4 disk */
FIXTURE(local) {
	char dir[64];
	char file[96];
	bool own_mount;
};

FIXTURE_VARIANT(local) {
	bool tmpfs;
};

FIXTURE_VARIANT_ADD(local, tmpfs) { .tmpfs = true };
FIXTURE_VARIANT_ADD(local, ext4) { .tmpfs = false };

FIXTURE_SETUP(local)
{
	struct statfs sf;

	if (variant->tmpfs) {
		snprintf(self->dir, sizeof(self->dir), "/tmp/cc%d", getpid());
		ASSERT_EQ(0, mkdir(self->dir, 0755));
		/* strictatime: every read moves the atime */
		ASSERT_EQ(0, mount("tmpfs", self->dir, "tmpfs",
				   MS_STRICTATIME, NULL));
		self->own_mount = true;
	} else {
		if (statfs("/export", &sf) || sf.f_type != EXT4_MAGIC)
			SKIP(return, "no ext4 on /export (nfs-loopback.sh up)");
		snprintf(self->dir, sizeof(self->dir), "/export/cc%d",
			 getpid());
		ASSERT_EQ(0, mkdir(self->dir, 0755));
	}
	snprintf(self->file, sizeof(self->file), "%s/f", self->dir);
	write_at(_metadata, self->file, "data\n", O_TRUNC);
}

FIXTURE_TEARDOWN(local)
{
	if (self->own_mount)
		(void)umount2(self->dir, MNT_DETACH);
}

/* Only a caller that asks for the cookie gets it */
TEST_F(local, not_asked_not_claimed)
{
	struct statx stx;

	ASSERT_EQ(0, pstatx(self->file, 0, STATX_BASIC_STATS, &stx));
	EXPECT_EQ(0, stx.stx_mask & COOKIE);
	EXPECT_EQ(0, cookie_of(&stx));
	ASSERT_EQ(0, pstatx(self->file, 0, STATX_BASIC_STATS | COOKIE, &stx));
	EXPECT_COOKIE(&stx);
}

TEST_F(local, write_changes_it_read_does_not)
{
	struct statx a, b, c, d;
	char buf[8];
	int fd;

	if (!has_cookie())
		SKIP(return, "stock: no cookie (not_asked_not_claimed checks it is never claimed)");
	ASSERT_EQ(0, pstatx(self->file, 0, COOKIE | STATX_ATIME, &a));
	usleep(20000);
	fd = open(self->file, O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(5, read(fd, buf, sizeof(buf)));
	close(fd);
	ASSERT_EQ(0, pstatx(self->file, 0, COOKIE | STATX_ATIME, &b));
	EXPECT_EQ(cookie_of(&a), cookie_of(&b))
		TH_LOG("a read changed the cookie");
	if (variant->tmpfs)
		EXPECT_NE(a.stx_atime.tv_nsec, b.stx_atime.tv_nsec)
			TH_LOG("strictatime: the read should move the atime");
	write_at(_metadata, self->file, "x", O_APPEND);
	ASSERT_EQ(0, pstatx(self->file, 0, COOKIE, &c));
	EXPECT_NE(cookie_of(&b), cookie_of(&c))
		TH_LOG("a write left the cookie at %llu",
		       (unsigned long long)cookie_of(&c));
	ASSERT_EQ(0, chmod(self->file, 0600));
	ASSERT_EQ(0, pstatx(self->file, 0, COOKIE, &d));
	EXPECT_NE(cookie_of(&c), cookie_of(&d))
		TH_LOG("a chmod left the cookie unchanged");
}

/* A directory's cookie moves with its entries */
TEST_F(local, directory_entry_changes_it)
{
	struct statx a, b;
	char p[128];

	if (!has_cookie())
		SKIP(return, "stock: no cookie");
	ASSERT_EQ(0, pstatx(self->dir, 0, COOKIE, &a));
	EXPECT_EQ(COOKIE, a.stx_mask & COOKIE);
	snprintf(p, sizeof(p), "%s/new", self->dir);
	write_at(_metadata, p, "", 0);
	ASSERT_EQ(0, pstatx(self->dir, 0, COOKIE, &b));
	EXPECT_NE(cookie_of(&a), cookie_of(&b));
}

/* tmpfs outlives no crash: monotonic; ext4 may go back after one */
TEST_F(local, monotonic_attribute)
{
	struct statx stx;

	ASSERT_EQ(0, pstatx(self->file, 0, COOKIE, &stx));
	if (!has_cookie()) {
		EXPECT_EQ(0, stx.stx_attributes & MONOTONIC);
		EXPECT_EQ(0, stx.stx_attributes_mask & MONOTONIC);
		return;
	}
	EXPECT_EQ(MONOTONIC, stx.stx_attributes_mask & MONOTONIC);
	EXPECT_EQ(variant->tmpfs ? MONOTONIC : 0,
		  stx.stx_attributes & MONOTONIC);
}

/*
 * NFSv4.2 over loopback, counted by knfsd.  actimeo=3600 (the cache
 * stays valid for the whole test) but for the expired_* tests: 1 s.
 */
#define MEASURE(call)	NFSD_MEASURE(&self->d, call)

#define OPS(name)	(self->d.op[OP4_##name])
#define COMPOUNDS	(self->d.compound)

FIXTURE(nfs4) {
	char srv[64];		/* server side: /export/ccnPID */
	char mnt[64];		/* client side: /mnt/ccnPID */
	char file[96];
	char srv_file[96];
	struct nfsd_counts d;
};

FIXTURE_SETUP(nfs4)
{
	const char *opts = strncmp(_metadata->name, "expired_", 8) ?
			   "vers=4.2,actimeo=3600" : "vers=4.2,actimeo=1";

	if (access("/proc/net/rpc/nfsd", R_OK))
		SKIP(return, "no knfsd (nfs-loopback.sh up)");
	snprintf(self->srv, sizeof(self->srv), "/export/ccn%d", getpid());
	snprintf(self->mnt, sizeof(self->mnt), "/mnt/ccn%d", getpid());
	snprintf(self->file, sizeof(self->file), "%s/f", self->mnt);
	snprintf(self->srv_file, sizeof(self->srv_file), "%s/f", self->srv);
	ASSERT_EQ(0, mkdir(self->srv, 0755));
	write_at(_metadata, self->srv_file, "data\n", O_TRUNC);
	ASSERT_EQ(0, mkdir(self->mnt, 0755));
	ASSERT_EQ(0, lab_nfs_mount(self->srv, self->mnt, opts));
}

FIXTURE_TEARDOWN(nfs4)
{
	(void)umount2(self->mnt, MNT_DETACH);
}

/*
 * A change on the server behind the client's back: DONT_SYNC and a plain
 * statx within actimeo return the cached cookie with no call; FORCE_SYNC
 * sees the change in one call (the walk's LOOKUP, or a GETATTR on a file
 * descriptor).
 */
TEST_F(nfs4, sync_modes)
{
	struct statx warm, stx;
	int fd;

	ASSERT_EQ(0, pstatx(self->file, 0, SX, &warm));
	EXPECT_COOKIE(&warm);
	write_at(_metadata, self->srv_file, "more\n", O_APPEND);

	MEASURE(ASSERT_EQ(0, pstatx(self->file, AT_STATX_DONT_SYNC, SX,
				    &stx)));
	EXPECT_EQ(0, COMPOUNDS);
	EXPECT_COOKIE(&stx);
	EXPECT_EQ(cookie_of(&warm), cookie_of(&stx));

	MEASURE(ASSERT_EQ(0, pstatx(self->file, 0, SX, &stx)));
	EXPECT_EQ(0, COMPOUNDS);
	EXPECT_COOKIE(&stx);
	EXPECT_EQ(cookie_of(&warm), cookie_of(&stx))
		TH_LOG("within actimeo a plain statx saw the server's change");

	MEASURE(ASSERT_EQ(0, pstatx(self->file, AT_STATX_FORCE_SYNC, SX,
				    &stx)));
	EXPECT_EQ(1, COMPOUNDS);
	EXPECT_EQ(ON_KERNEL(0, 1, 1), OPS(LOOKUP));
	EXPECT_COOKIE(&stx);
	if (has_cookie())
		EXPECT_NE(cookie_of(&warm), cookie_of(&stx))
			TH_LOG("FORCE_SYNC missed the server's change");
	TH_LOG("FORCE_SYNC by name: %lu COMPOUND, %lu LOOKUP, %lu GETATTR",
	       COMPOUNDS, OPS(LOOKUP), OPS(GETATTR));

	write_at(_metadata, self->srv_file, "again\n", O_APPEND);
	fd = open(self->file, O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fstatx(fd, 0, SX, &warm));
	write_at(_metadata, self->srv_file, "and again\n", O_APPEND);
	MEASURE(ASSERT_EQ(0, fstatx(fd, AT_STATX_FORCE_SYNC, SX, &stx)));
	close(fd);
	EXPECT_EQ(1, COMPOUNDS);
	EXPECT_EQ(1, OPS(GETATTR));
	EXPECT_COOKIE(&stx);
	if (has_cookie())
		EXPECT_NE(cookie_of(&warm), cookie_of(&stx));
}

/* Expired: the cookie alone costs what the size alone costs */
TEST_F(nfs4, expired_cookie_costs_what_size_costs)
{
	unsigned long cookie_calls, size_calls;
	struct statx stx;
	int fd;

	if (!has_cookie())
		SKIP(return, "stock: a cookie alone is an empty mask");
	fd = open(self->file, O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fstatx(fd, 0, COOKIE, &stx));
	lab_sleep_ms(EXPIRE_MS);
	MEASURE(ASSERT_EQ(0, fstatx(fd, 0, COOKIE, &stx)));
	cookie_calls = COMPOUNDS;
	EXPECT_COOKIE(&stx);
	lab_sleep_ms(EXPIRE_MS);
	MEASURE(ASSERT_EQ(0, fstatx(fd, 0, STATX_SIZE, &stx)));
	size_calls = COMPOUNDS;
	close(fd);
	EXPECT_EQ(1, size_calls);
	EXPECT_EQ(size_calls, cookie_calls);
}

/*
 * A file created through the client invalidates the directory's cookie
 * (NFS_INO_INVALID_CHANGE): a DONT_SYNC statx may leave it unclaimed or
 * claim a new one, never the old one.
 */
TEST_F(nfs4, stale_cookie_never_claimed)
{
	struct statx a, b;
	char p[128];

	if (!has_cookie())
		SKIP(return, "stock: no cookie");
	ASSERT_EQ(0, pstatx(self->mnt, 0, COOKIE, &a));
	snprintf(p, sizeof(p), "%s/new", self->mnt);
	write_at(_metadata, p, "", 0);
	ASSERT_EQ(0, pstatx(self->mnt, AT_STATX_DONT_SYNC, COOKIE, &b));
	TH_LOG("DONT_SYNC after a create: cookie %s",
	       b.stx_mask & COOKIE ? "claimed" : "not claimed");
	if (b.stx_mask & COOKIE)
		EXPECT_NE(cookie_of(&a), cookie_of(&b));
	ASSERT_EQ(0, pstatx(self->mnt, 0, COOKIE, &b));
	EXPECT_EQ(COOKIE, b.stx_mask & COOKIE);
	EXPECT_NE(cookie_of(&a), cookie_of(&b));
}

/* NFSv3 has no change attribute: nothing to offer, in any sync mode */
TEST_F(nfs4, v3_never_offers_it)
{
	static const int modes[] = { 0, AT_STATX_DONT_SYNC,
				     AT_STATX_FORCE_SYNC };
	char mnt3[80], f[96];
	struct statx stx;
	size_t i;

	snprintf(mnt3, sizeof(mnt3), "%s.v3", self->mnt);
	snprintf(f, sizeof(f), "%s/f", mnt3);
	ASSERT_EQ(0, mkdir(mnt3, 0755));
	ASSERT_EQ(0, lab_nfs_mount(self->srv, mnt3, "vers=3,actimeo=3600"));
	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		ASSERT_EQ(0, pstatx(f, modes[i], STATX_BASIC_STATS | COOKIE,
				    &stx));
		EXPECT_EQ(0, stx.stx_mask & COOKIE);
		EXPECT_EQ(0, cookie_of(&stx));
		EXPECT_EQ(STATX_SIZE, stx.stx_mask & STATX_SIZE);
	}
	(void)umount2(mnt3, MNT_DETACH);
}

/*
 * The server's timestamp granule: knfsd sends FATTR4_TIME_DELTA, the
 * larger of a jiffy and the export's s_time_gran (4 ms at 250 Hz on
 * ext4), and the client keeps it in server->time_delta. The series shows
 * it on mountstats' "caps:" line; stock 6.12 does not.
 */
TEST_F(nfs4, time_delta_in_mountstats)
{
	char line[512], want[96];
	const char *td = NULL;
	bool ours = false;
	FILE *f;

	f = fopen("/proc/self/mountstats", "re");
	ASSERT_NE(NULL, f);
	snprintf(want, sizeof(want), " mounted on %s with ", self->mnt);
	while (!td && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "device ", 7))
			ours = strstr(line, want);
		else if (ours && strstr(line, "\tcaps:\t"))
			td = strstr(line, ",time_delta=");
	}
	fclose(f);
	if (lab_kernel() == LAB_STOCK) {
		EXPECT_EQ(NULL, td) TH_LOG("stock 6.12 shows time_delta");
		return;
	}
	ASSERT_NE(NULL, td) TH_LOG("no time_delta on the caps: line");
	EXPECT_EQ(0, strncmp(td, ",time_delta=0.004000000", 23))
		TH_LOG("caps: %s", td);
}

#undef MEASURE

/* FUSE: fusecount over a tmpfs directory, with and without the INIT flag */
#define MEASURE(call)	FUSE_MEASURE(&self->fs, &self->stats, call)

#define COUNT(op)	lab_count(self->stats, op)

FIXTURE(fuse) {
	struct lab_fuse fs;
	char *stats;
	char file[128];		/* mnt/f */
	char back_file[128];	/* back/f */
};

FIXTURE_VARIANT(fuse) {
	const char *opts;
	bool agreed;		/* the daemon sets FUSE_STATX_CHANGE_COOKIE */
};

FIXTURE_VARIANT_ADD(fuse, agreed) {
	.opts = "attr_timeout=3600,entry_timeout=3600,change_cookie",
	.agreed = true,
};

FIXTURE_VARIANT_ADD(fuse, not_agreed) {
	.opts = "attr_timeout=3600,entry_timeout=3600",
	.agreed = false,
};

FIXTURE_SETUP(fuse)
{
	char name[32];

	snprintf(name, sizeof(name), "cc%d", getpid());
	ASSERT_EQ(0, lab_fuse_start(&self->fs, name, variant->opts))
		TH_LOG("fusecount did not mount (opts %s)", variant->opts);
	snprintf(self->file, sizeof(self->file), "%s/f", self->fs.mnt);
	snprintf(self->back_file, sizeof(self->back_file), "%s/f",
		 self->fs.back);
	write_at(_metadata, self->back_file, "data\n", O_TRUNC);
}

FIXTURE_TEARDOWN(fuse)
{
	free(self->stats);
	(void)umount2(self->fs.mnt, MNT_DETACH);
	lab_fuse_stop(&self->fs);
}

/* Claimed only where the kernel has it and the daemon agreed */
static bool fuse_claims(const FIXTURE_VARIANT(fuse) *variant)
{
	return has_cookie() && variant->agreed;
}

#define EXPECT_FUSE_COOKIE(stx)						\
	do {								\
		EXPECT_EQ(fuse_claims(variant) ? COOKIE : 0,		\
			  (stx)->stx_mask & COOKIE);			\
		if (!fuse_claims(variant))				\
			EXPECT_EQ(0, cookie_of(stx));			\
	} while (0)

/*
 * Behind the kernel's back (the backing file), with every timeout an
 * hour: DONT_SYNC and a plain statx return the cached cookie with no
 * request; FORCE_SYNC on a descriptor sees the change in one FUSE_STATX.
 */
TEST_F(fuse, sync_modes)
{
	struct statx warm, stx;
	int fd;

	fd = open(self->file, O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fstatx(fd, 0, SX, &warm));
	EXPECT_FUSE_COOKIE(&warm);
	write_at(_metadata, self->back_file, "more\n", O_APPEND);

	MEASURE(ASSERT_EQ(0, fstatx(fd, AT_STATX_DONT_SYNC, SX, &stx)));
	EXPECT_EQ(0, COUNT("total"));
	EXPECT_FUSE_COOKIE(&stx);
	EXPECT_EQ(cookie_of(&warm), cookie_of(&stx));

	MEASURE(ASSERT_EQ(0, fstatx(fd, 0, SX, &stx)));
	EXPECT_EQ(0, COUNT("total"));
	EXPECT_FUSE_COOKIE(&stx);
	EXPECT_EQ(cookie_of(&warm), cookie_of(&stx));

	MEASURE(ASSERT_EQ(0, fstatx(fd, AT_STATX_FORCE_SYNC, SX, &stx)));
	EXPECT_EQ(1, COUNT("total"));
	EXPECT_EQ(1, COUNT(lab_kernel() == LAB_STOCK ? "GETATTR" : "STATX"));
	EXPECT_FUSE_COOKIE(&stx);
	if (fuse_claims(variant))
		EXPECT_NE(cookie_of(&warm), cookie_of(&stx))
			TH_LOG("FORCE_SYNC missed the backing file's change");
	/* A daemon that did not agree is never asked for the cookie */
	if (!variant->agreed)
		EXPECT_EQ(NULL, strstr(self->stats, "\"0x4"))
			TH_LOG("asked for the cookie: %s", self->stats);
	close(fd);
}

/*
 * Through the mount: a read leaves the cookie valid and unchanged (no
 * request), a write outdates it: the next statx asks the daemon once and
 * gets a new one.
 */
TEST_F(fuse, write_changes_it_read_does_not)
{
	struct statx a, stx;
	char buf[8];
	int fd;

	if (!fuse_claims(variant))
		SKIP(return, "no cookie on this kernel or from this daemon");
	fd = open(self->file, O_RDWR);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fstatx(fd, 0, COOKIE, &a));
	ASSERT_EQ(5, pread(fd, buf, sizeof(buf), 0));
	MEASURE(ASSERT_EQ(0, fstatx(fd, 0, COOKIE, &stx)));
	EXPECT_EQ(0, COUNT("total"));
	EXPECT_EQ(COOKIE, stx.stx_mask & COOKIE);
	EXPECT_EQ(cookie_of(&a), cookie_of(&stx));

	ASSERT_EQ(1, pwrite(fd, "x", 1, 5));
	MEASURE(ASSERT_EQ(0, fstatx(fd, 0, COOKIE, &stx)));
	EXPECT_EQ(1, COUNT("STATX"));
	EXPECT_EQ(1, COUNT("total"));
	EXPECT_EQ(COOKIE, stx.stx_mask & COOKIE);
	EXPECT_NE(cookie_of(&a), cookie_of(&stx));
	close(fd);

	/* By name with FORCE_SYNC: the walk's LOOKUP carries no cookie */
	MEASURE(ASSERT_EQ(0, pstatx(self->file, AT_STATX_FORCE_SYNC, COOKIE,
				    &stx)));
	EXPECT_EQ(1, COUNT("LOOKUP"));
	EXPECT_EQ(1, COUNT("STATX"));
	EXPECT_EQ(COOKIE, stx.stx_mask & COOKIE);
}

TEST_HARNESS_MAIN
