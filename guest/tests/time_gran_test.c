// SPDX-License-Identifier: GPL-2.0
/*
 * statx()'s timestamp granularity (STATX_TIME_GRAN, stx_time_gran at
 * 0xc8, the 6.12 series) in one guest: tmpfs, the ext4 disk knfsd
 * exports on /export (256-byte inodes), a second ext4 disk with 128-byte
 * inodes (no room for sub-second times) on /dev/vdb, NFSv4.2 and NFSv3
 * over loopback, and fusecount.
 *
 * Stock 6.12: the bit is never set and the field stays zero.  Patched:
 * - local file systems report how they store timestamps: tmpfs and ext4
 *   with 256-byte inodes 1 ns, ext4 with 128-byte inodes 1 s;
 * - NFS the server's time_delta from FSINFO: knfsd says a jiffy of its
 *   250 Hz kernel (4 ms) over NFSv4 and 1 s over NFSv3, whatever the
 *   exported file system; asking for it alone costs no call, whatever
 *   the sync mode (it came with the mount);
 * - FUSE the daemon's time_gran from FUSE_INIT, with no request:
 *   fusecount -o time_gran on the 128-byte-inode ext4 gives 1 s; without
 *   the option libfuse sends its default, 1 ns (a daemon on the raw
 *   protocol that sends 0 gets nothing claimed).
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

#define TIME_GRAN	0x20000000U	/* STATX_TIME_GRAN */
#define TIME_GRAN_OFF	0xc8		/* stx_time_gran in struct statx */
#define EXT4_MAGIC	0xEF53
#define SECOND_NS	1000000000U
#define DISK_128	"/dev/vdb"	/* ext4, 128-byte inodes */

_Static_assert(sizeof(struct statx) == 0x100, "struct statx is 256 bytes");

static uint32_t gran_of(const struct statx *stx)
{
	uint32_t g;

	memcpy(&g, (const char *)stx + TIME_GRAN_OFF, sizeof(g));
	return g;
}

/* The series with the field: "patched" or "optin"; not stock */
static bool has_gran(void)
{
	return lab_kernel() != LAB_STOCK;
}

static int pstatx(const char *path, int flags, unsigned int mask,
		  struct statx *stx)
{
	memset(stx, 0, sizeof(*stx));
	return statx(AT_FDCWD, path, flags, mask, stx);
}

/* Stock: never claimed, never filled.  Patched: @ns, claimed. */
#define EXPECT_GRAN(stx, ns)						\
	do {								\
		if (has_gran()) {					\
			EXPECT_EQ(TIME_GRAN, (stx)->stx_mask & TIME_GRAN); \
			EXPECT_EQ((ns), gran_of(stx));			\
		} else {						\
			EXPECT_EQ(0, (stx)->stx_mask & TIME_GRAN);	\
			EXPECT_EQ(0, gran_of(stx));			\
		}							\
	} while (0)

static void make_file(struct __test_metadata *_metadata, const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	ASSERT_LE(0, fd) TH_LOG("open %s: %s", path, strerror(errno));
	close(fd);
}

/* Mount the 128-byte-inode ext4 disk on @dir: 0, -ENODEV without it */
static int mount_disk_128(const char *dir)
{
	if (access(DISK_128, F_OK))
		return -ENODEV;
	mkdir(dir, 0755);
	return mount(DISK_128, dir, "ext4", 0, NULL) ? -errno : 0;
}

/* Local file systems report how they store their timestamps. */
TEST(tmpfs_nanoseconds)
{
	char dir[64], file[80];
	struct statx stx;

	snprintf(dir, sizeof(dir), "/tmp/tg%d", getpid());
	ASSERT_EQ(0, mkdir(dir, 0755));
	ASSERT_EQ(0, mount("tmpfs", dir, "tmpfs", 0, NULL));
	snprintf(file, sizeof(file), "%s/f", dir);
	make_file(_metadata, file);
	ASSERT_EQ(0, pstatx(file, 0, STATX_SIZE | TIME_GRAN, &stx));
	EXPECT_GRAN(&stx, 1);
	/* Not asked for: not claimed, not filled */
	ASSERT_EQ(0, pstatx(file, 0, STATX_SIZE, &stx));
	EXPECT_EQ(0, stx.stx_mask & TIME_GRAN);
	EXPECT_EQ(0, gran_of(&stx));
	(void)umount2(dir, MNT_DETACH);
}

TEST(ext4_256_byte_inodes_nanoseconds)
{
	struct statfs sf;
	struct statx stx;

	if (statfs("/export", &sf) || sf.f_type != EXT4_MAGIC)
		SKIP(return, "no ext4 on /export (nfs-loopback.sh up)");
	ASSERT_EQ(0, pstatx("/export", 0, TIME_GRAN, &stx));
	EXPECT_GRAN(&stx, 1);
}

TEST(ext4_128_byte_inodes_seconds)
{
	struct statx stx;
	char dir[64];
	int err;

	snprintf(dir, sizeof(dir), "/mnt/tg128-%d", getpid());
	err = mount_disk_128(dir);
	if (err == -ENODEV)
		SKIP(return, "no second disk (" DISK_128 ")");
	ASSERT_EQ(0, err) TH_LOG("mount %s: %s", DISK_128, strerror(-err));
	ASSERT_EQ(0, pstatx(dir, 0, TIME_GRAN, &stx));
	EXPECT_GRAN(&stx, SECOND_NS);
	(void)umount2(dir, MNT_DETACH);
}

FIXTURE(nfs) {
	char srv[64];
	char mnt[64];
	char file[96];
	struct nfsd_counts d;
};

FIXTURE_VARIANT(nfs) {
	const char *opts;
	uint32_t gran;		/* what knfsd's FSINFO says */
};

FIXTURE_VARIANT_ADD(nfs, v4_2) {
	.opts = "vers=4.2,actimeo=1",
	.gran = 4000000,	/* a jiffy of knfsd's 250 Hz kernel */
};

FIXTURE_VARIANT_ADD(nfs, v3) {
	.opts = "vers=3,actimeo=1",
	.gran = SECOND_NS,	/* knfsd's NFSv3 time_delta, a constant */
};

FIXTURE_SETUP(nfs)
{
	char p[96];

	if (access("/proc/net/rpc/nfsd", R_OK))
		SKIP(return, "no knfsd (nfs-loopback.sh up)");
	snprintf(self->srv, sizeof(self->srv), "/export/tg%d", getpid());
	snprintf(self->mnt, sizeof(self->mnt), "/mnt/tg%d", getpid());
	snprintf(self->file, sizeof(self->file), "%s/f", self->mnt);
	ASSERT_EQ(0, mkdir(self->srv, 0755));
	snprintf(p, sizeof(p), "%s/f", self->srv);
	make_file(_metadata, p);
	ASSERT_EQ(0, mkdir(self->mnt, 0755));
	ASSERT_EQ(0, lab_nfs_mount(self->srv, self->mnt, variant->opts));
}

FIXTURE_TEARDOWN(nfs)
{
	(void)umount2(self->mnt, MNT_DETACH);
}

#define MEASURE(call)	NFSD_MEASURE(&self->d, call)

/* Every call the server answered, NFSv3 RPCs and NFSv4 COMPOUNDs */
static uint64_t server_calls(const struct nfsd_counts *d)
{
	uint64_t n = d->compound;
	int i;

	for (i = 0; i < NFSD_V3_PROCS; i++)
		n += d->v3[i];
	return n;
}

/*
 * The server's granularity, with the file's attributes long expired: no
 * call for it alone, in any sync mode, on a descriptor (no walk).
 */
TEST_F(nfs, server_granularity_costs_no_call)
{
	static const int modes[] = { AT_STATX_DONT_SYNC, 0,
				     AT_STATX_FORCE_SYNC };
	struct statx stx;
	unsigned int i;
	int fd;

	fd = open(self->file, O_RDONLY);
	ASSERT_LE(0, fd);
	lab_sleep_ms(1200);	/* past actimeo=1 */
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		memset(&stx, 0, sizeof(stx));
		MEASURE(ASSERT_EQ(0, statx(fd, "", AT_EMPTY_PATH | modes[i],
					   TIME_GRAN, &stx)));
		EXPECT_EQ(0, server_calls(&self->d))
			TH_LOG("sync flags 0x%x: %llu calls", modes[i],
			       (unsigned long long)server_calls(&self->d));
		EXPECT_GRAN(&stx, variant->gran);
	}
	close(fd);
}

/* With other fields, the sync mode applies to those, not to this. */
TEST_F(nfs, with_the_size_force_sync_fetches_once)
{
	struct statx stx;
	int fd;

	fd = open(self->file, O_RDONLY);
	ASSERT_LE(0, fd);
	MEASURE(ASSERT_EQ(0, statx(fd, "", AT_EMPTY_PATH | AT_STATX_FORCE_SYNC,
				   TIME_GRAN | STATX_SIZE, &stx)));
	close(fd);
	EXPECT_EQ(1, server_calls(&self->d));
	EXPECT_GRAN(&stx, variant->gran);
	EXPECT_EQ(STATX_SIZE, stx.stx_mask & STATX_SIZE);
}

#undef MEASURE

FIXTURE(fuse) {
	struct lab_fuse fs;
	char *stats;
	char file[128];
	char name[32];
	bool disk;
};

FIXTURE_VARIANT(fuse) {
	const char *opts;
	uint32_t gran;		/* the time_gran of fusecount's INIT reply */
};

/* fusecount gives its backing's granularity */
FIXTURE_VARIANT_ADD(fuse, given) {
	.opts = "attr_timeout=0,entry_timeout=0,time_gran",
	.gran = SECOND_NS,
};

/* libfuse's default time_gran, which its daemons send unless they set one */
FIXTURE_VARIANT_ADD(fuse, libfuse_default) {
	.opts = "attr_timeout=0,entry_timeout=0",
	.gran = 1,
};

/* fusecount serves the 128-byte-inode ext4: timestamps in seconds */
FIXTURE_SETUP(fuse)
{
	char back[64];
	int err;

	snprintf(self->name, sizeof(self->name), "tgf%d", getpid());
	snprintf(back, sizeof(back), "/tmp/%s.back", self->name);
	err = mount_disk_128(back);
	if (err == -ENODEV)
		SKIP(return, "no second disk (" DISK_128 ")");
	ASSERT_EQ(0, err) TH_LOG("mount %s: %s", DISK_128, strerror(-err));
	self->disk = true;
	snprintf(self->file, sizeof(self->file), "%s/f", back);
	make_file(_metadata, self->file);
	ASSERT_EQ(0, lab_fuse_start(&self->fs, self->name, variant->opts))
		TH_LOG("fusecount did not mount (opts %s)", variant->opts);
	snprintf(self->file, sizeof(self->file), "%s/f", self->fs.mnt);
}

FIXTURE_TEARDOWN(fuse)
{
	free(self->stats);
	(void)umount2(self->fs.mnt, MNT_DETACH);
	lab_fuse_stop(&self->fs);
	if (self->disk)
		(void)umount2(self->fs.back, MNT_DETACH);
}

#define MEASURE(call)	FUSE_MEASURE(&self->fs, &self->stats, call)
#define COUNT(op)	lab_count(self->stats, op)

/*
 * The daemon's granularity, with no GETATTR or STATX (timeouts of 0
 * make every other field a request; the walk's LOOKUP is the dentry's).
 */
TEST_F(fuse, daemon_granularity)
{
	struct statx stx;

	MEASURE(ASSERT_EQ(0, pstatx(self->file, AT_STATX_DONT_SYNC,
				    TIME_GRAN, &stx)));
	EXPECT_GRAN(&stx, variant->gran);
	TH_LOG("DONT_SYNC, the granularity alone: %ld requests (%ld LOOKUP)",
	       COUNT("total"), COUNT("LOOKUP"));
	EXPECT_EQ(0, COUNT("GETATTR") + COUNT("STATX"));
}

TEST_HARNESS_MAIN
