// SPDX-License-Identifier: GPL-2.0
/*
 * statx() semantics on local filesystems: tmpfs and ext4 (virtio-blk disk
 * /dev/vda, made on the host with mke2fs).
 *
 * These are the foundation's regression tests: they pin down what the
 * stock 6.1 kernel does, and every kernel in the lab must keep doing it.
 * Runs as root in the lab guest; the fixture mounts the filesystem itself.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"

#ifndef STATX_MNT_ID
#define STATX_MNT_ID 0x00001000U
#endif

#define FILE_DATA	"hello"
#define LINK_TARGET	"f"

/* The raw syscall: lets a test pass pointers glibc would not. */
static int sys_statx(int dfd, const char *path, int flags, unsigned int mask,
		     struct statx *stx)
{
	return syscall(__NR_statx, dfd, path, flags, mask, stx);
}

static long long ts_ns(struct statx_timestamp t)
{
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

FIXTURE(statx) {
	char dir[64];
	char file[80];
	char link[80];
	char subdir[80];
	struct timespec before_create;
};

FIXTURE_VARIANT(statx) {
	const char *fstype;
	const char *source;
	bool has_btime;
};

FIXTURE_VARIANT_ADD(statx, tmpfs) {
	.fstype = "tmpfs",
	.source = "tmpfs",
	/*
	 * Mainline tmpfs gained btime in 6.2; Debian's 6.1.192 carries the
	 * backport (shmem_getattr fills i_crtime), so both report it here.
	 */
	.has_btime = true,
};

FIXTURE_VARIANT_ADD(statx, ext4) {
	.fstype = "ext4",
	.source = "/dev/vda",
	.has_btime = true,
};

FIXTURE_SETUP(statx)
{
	int fd;

	snprintf(self->dir, sizeof(self->dir), "/mnt/%s", variant->fstype);
	snprintf(self->file, sizeof(self->file), "%s/f", self->dir);
	snprintf(self->link, sizeof(self->link), "%s/l", self->dir);
	snprintf(self->subdir, sizeof(self->subdir), "%s/d", self->dir);

	mkdir(self->dir, 0755);
	ASSERT_EQ(0, mount(variant->source, self->dir, variant->fstype, 0,
			   NULL)) TH_LOG("mount %s: %s", variant->source,
					 strerror(errno));
	/*
	 * Inode times come from the coarse clock (current_time()), which
	 * lags CLOCK_REALTIME by a tick, and by more when the host runs the
	 * guest's tick late: read that clock, and birth cannot precede it.
	 */
	clock_gettime(CLOCK_REALTIME_COARSE, &self->before_create);
	fd = open(self->file, O_CREAT | O_TRUNC | O_WRONLY, 0640);
	ASSERT_LE(0, fd);
	ASSERT_EQ((ssize_t)strlen(FILE_DATA),
		  write(fd, FILE_DATA, strlen(FILE_DATA)));
	ASSERT_EQ(0, close(fd));
	ASSERT_EQ(0, symlink(LINK_TARGET, self->link));
	ASSERT_EQ(0, mkdir(self->subdir, 0750));
}

FIXTURE_TEARDOWN(statx)
{
	/* Clear the flags a test may have set, or unlink would fail. */
	int fd = open(self->file, O_RDONLY);
	int flags = 0;

	if (fd >= 0) {
		(void)ioctl(fd, FS_IOC_SETFLAGS, &flags);
		close(fd);
	}
	unlink(self->file);
	unlink(self->link);
	rmdir(self->subdir);
	(void)umount2(self->dir, MNT_DETACH);
}

TEST_F(statx, basic_mask)
{
	struct statx stx;

	ASSERT_EQ(0, statx(AT_FDCWD, self->file, 0, STATX_BASIC_STATS, &stx));
	EXPECT_EQ(STATX_BASIC_STATS, stx.stx_mask & STATX_BASIC_STATS);
	/* Nothing outside basic was asked for: btime must not show up. */
	EXPECT_EQ(0, stx.stx_mask & STATX_BTIME);
	/* vfs_statx always adds the mount id (6.1 sets it unconditionally). */
	EXPECT_EQ(STATX_MNT_ID, stx.stx_mask & STATX_MNT_ID);
	EXPECT_EQ(S_IFREG, stx.stx_mode & S_IFMT);
	EXPECT_EQ(0640, stx.stx_mode & 07777);
	EXPECT_EQ(strlen(FILE_DATA), stx.stx_size);
	EXPECT_EQ(1, stx.stx_nlink);
}

TEST_F(statx, all_mask_and_btime)
{
	struct statx stx;
	long long lo = self->before_create.tv_sec * 1000000000LL +
		       self->before_create.tv_nsec;
	struct timespec now;

	ASSERT_EQ(0, statx(AT_FDCWD, self->file, 0, STATX_ALL, &stx));
	clock_gettime(CLOCK_REALTIME, &now);
	EXPECT_EQ(STATX_BASIC_STATS, stx.stx_mask & STATX_BASIC_STATS);
	EXPECT_EQ(variant->has_btime ? STATX_BTIME : 0,
		  stx.stx_mask & STATX_BTIME);
	if (!(stx.stx_mask & STATX_BTIME))
		return;
	/* Birth lies between the fixture's start and now (ns-granular). */
	EXPECT_LE(lo, ts_ns(stx.stx_btime));
	EXPECT_GE(now.tv_sec * 1000000000LL + now.tv_nsec,
		  ts_ns(stx.stx_btime));
	EXPECT_LE(ts_ns(stx.stx_btime), ts_ns(stx.stx_ctime));
}

TEST_F(statx, btime_absent_unless_asked)
{
	struct statx stx;

	memset(&stx, 0xff, sizeof(stx));
	ASSERT_EQ(0, statx(AT_FDCWD, self->file, 0, STATX_TYPE, &stx));
	EXPECT_EQ(0, stx.stx_mask & STATX_BTIME);
	/* The kernel clears what it did not fill. */
	EXPECT_EQ(0, stx.stx_btime.tv_sec);
}

/* chattr +a / +i show as attributes, as in the ext4 statx commit. */
static void set_and_check_flag(struct __test_metadata *_metadata,
			       const char *path, int fsflag, __u64 attr)
{
	struct statx stx;
	int fd = open(path, O_RDONLY);
	int flags;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, FS_IOC_GETFLAGS, &flags));
	flags |= fsflag;
	ASSERT_EQ(0, ioctl(fd, FS_IOC_SETFLAGS, &flags))
		TH_LOG("FS_IOC_SETFLAGS: %s", strerror(errno));
	ASSERT_EQ(0, statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &stx));
	EXPECT_EQ(attr, stx.stx_attributes & attr);
	EXPECT_EQ(STATX_ATTR_APPEND | STATX_ATTR_IMMUTABLE,
		  stx.stx_attributes_mask &
		  (STATX_ATTR_APPEND | STATX_ATTR_IMMUTABLE));
	close(fd);
}

TEST_F(statx, attr_append)
{
	struct statx stx;

	ASSERT_EQ(0, statx(AT_FDCWD, self->file, 0, STATX_BASIC_STATS, &stx));
	EXPECT_EQ(0, stx.stx_attributes & STATX_ATTR_APPEND);
	set_and_check_flag(_metadata, self->file, FS_APPEND_FL,
			   STATX_ATTR_APPEND);
	/* An append-only file refuses O_TRUNC writes: the flag is real. */
	EXPECT_EQ(-1, open(self->file, O_WRONLY | O_TRUNC));
	EXPECT_EQ(EPERM, errno);
}

TEST_F(statx, attr_immutable)
{
	set_and_check_flag(_metadata, self->file, FS_IMMUTABLE_FL,
			   STATX_ATTR_IMMUTABLE);
	EXPECT_EQ(-1, unlink(self->file));
	EXPECT_EQ(EPERM, errno);
}

TEST_F(statx, symlink_follow_and_nofollow)
{
	struct statx target, follow, nofollow;

	ASSERT_EQ(0, statx(AT_FDCWD, self->file, 0, STATX_BASIC_STATS,
			   &target));
	ASSERT_EQ(0, statx(AT_FDCWD, self->link, 0, STATX_BASIC_STATS,
			   &follow));
	ASSERT_EQ(0, statx(AT_FDCWD, self->link, AT_SYMLINK_NOFOLLOW,
			   STATX_BASIC_STATS, &nofollow));
	EXPECT_EQ(S_IFREG, follow.stx_mode & S_IFMT);
	EXPECT_EQ(target.stx_ino, follow.stx_ino);
	EXPECT_EQ(S_IFLNK, nofollow.stx_mode & S_IFMT);
	EXPECT_NE(target.stx_ino, nofollow.stx_ino);
	EXPECT_EQ(strlen(LINK_TARGET), nofollow.stx_size);
}

TEST_F(statx, empty_path_on_fd)
{
	struct statx by_path, by_fd, by_opath;
	int fd, pfd;

	ASSERT_EQ(0, statx(AT_FDCWD, self->subdir, 0, STATX_BASIC_STATS,
			   &by_path));
	fd = open(self->subdir, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, fd);
	pfd = open(self->link, O_PATH | O_NOFOLLOW);
	ASSERT_LE(0, pfd);
	EXPECT_EQ(0, statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &by_fd));
	EXPECT_EQ(by_path.stx_ino, by_fd.stx_ino);
	EXPECT_EQ(S_IFDIR, by_fd.stx_mode & S_IFMT);
	/* An O_PATH fd of a symlink stats the link itself. */
	EXPECT_EQ(0, statx(pfd, "", AT_EMPTY_PATH, STATX_BASIC_STATS,
			   &by_opath));
	EXPECT_EQ(S_IFLNK, by_opath.stx_mode & S_IFMT);
	/* Without AT_EMPTY_PATH an empty name is an error. */
	EXPECT_EQ(-1, statx(fd, "", 0, STATX_BASIC_STATS, &by_fd));
	EXPECT_EQ(ENOENT, errno);
	close(pfd);
	close(fd);
}

TEST_F(statx, sync_modes_agree_locally)
{
	struct statx as_stat, force, dont;

	ASSERT_EQ(0, statx(AT_FDCWD, self->file, AT_STATX_SYNC_AS_STAT,
			   STATX_BASIC_STATS, &as_stat));
	ASSERT_EQ(0, statx(AT_FDCWD, self->file, AT_STATX_FORCE_SYNC,
			   STATX_BASIC_STATS, &force));
	ASSERT_EQ(0, statx(AT_FDCWD, self->file, AT_STATX_DONT_SYNC,
			   STATX_BASIC_STATS, &dont));
	EXPECT_EQ(as_stat.stx_ino, force.stx_ino);
	EXPECT_EQ(as_stat.stx_ino, dont.stx_ino);
	EXPECT_EQ(ts_ns(as_stat.stx_mtime), ts_ns(force.stx_mtime));
	EXPECT_EQ(ts_ns(as_stat.stx_mtime), ts_ns(dont.stx_mtime));
}

TEST_F(statx, einval_force_and_dont_together)
{
	struct statx stx;

	EXPECT_EQ(-1, sys_statx(AT_FDCWD, self->file,
				AT_STATX_FORCE_SYNC | AT_STATX_DONT_SYNC,
				STATX_BASIC_STATS, &stx));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(statx, einval_unknown_flag_and_reserved_mask)
{
	struct statx stx;

	EXPECT_EQ(-1, sys_statx(AT_FDCWD, self->file, 0x80000000,
				STATX_BASIC_STATS, &stx));
	EXPECT_EQ(EINVAL, errno);
	/* AT_REMOVEDIR is a valid AT_ flag, but not for statx. */
	EXPECT_EQ(-1, sys_statx(AT_FDCWD, self->file, AT_REMOVEDIR,
				STATX_BASIC_STATS, &stx));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, sys_statx(AT_FDCWD, self->file, 0, STATX__RESERVED,
				&stx));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(statx, path_errors)
{
	char name[NAME_MAX + 8];
	char path[128];
	struct statx stx;

	snprintf(path, sizeof(path), "%s/missing", self->dir);
	EXPECT_EQ(-1, statx(AT_FDCWD, path, 0, STATX_BASIC_STATS, &stx));
	EXPECT_EQ(ENOENT, errno);
	snprintf(path, sizeof(path), "%s/f/x", self->dir);
	EXPECT_EQ(-1, statx(AT_FDCWD, path, 0, STATX_BASIC_STATS, &stx));
	EXPECT_EQ(ENOTDIR, errno);
	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	EXPECT_EQ(-1, statx(AT_FDCWD, name, 0, STATX_BASIC_STATS, &stx));
	EXPECT_EQ(ENAMETOOLONG, errno);
}

TEST_F(statx, efault)
{
	struct statx stx;

	EXPECT_EQ(-1, sys_statx(AT_FDCWD, (const char *)-1L, 0,
				STATX_BASIC_STATS, &stx));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, sys_statx(AT_FDCWD, self->file, 0, STATX_BASIC_STATS,
				(struct statx *)-1L));
	EXPECT_EQ(EFAULT, errno);
}

static void expect_stat_matches(struct __test_metadata *_metadata,
				const struct stat *st, const struct statx *stx)
{
	EXPECT_EQ(st->st_ino, stx->stx_ino);
	EXPECT_EQ(st->st_mode, stx->stx_mode);
	EXPECT_EQ(st->st_nlink, stx->stx_nlink);
	EXPECT_EQ(st->st_uid, stx->stx_uid);
	EXPECT_EQ(st->st_gid, stx->stx_gid);
	EXPECT_EQ(st->st_size, stx->stx_size);
	EXPECT_EQ(st->st_blocks, stx->stx_blocks);
	EXPECT_EQ(st->st_blksize, stx->stx_blksize);
	EXPECT_EQ(major(st->st_dev), stx->stx_dev_major);
	EXPECT_EQ(minor(st->st_dev), stx->stx_dev_minor);
	EXPECT_EQ(st->st_atim.tv_sec, stx->stx_atime.tv_sec);
	EXPECT_EQ(st->st_atim.tv_nsec, stx->stx_atime.tv_nsec);
	EXPECT_EQ(st->st_mtim.tv_sec, stx->stx_mtime.tv_sec);
	EXPECT_EQ(st->st_mtim.tv_nsec, stx->stx_mtime.tv_nsec);
	EXPECT_EQ(st->st_ctim.tv_sec, stx->stx_ctime.tv_sec);
	EXPECT_EQ(st->st_ctim.tv_nsec, stx->stx_ctime.tv_nsec);
}

TEST_F(statx, stat_and_statx_agree)
{
	const char *paths[] = { self->file, self->subdir, self->dir };
	struct statx stx;
	struct stat st;
	size_t i;

	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		ASSERT_EQ(0, stat(paths[i], &st));
		ASSERT_EQ(0, statx(AT_FDCWD, paths[i], 0, STATX_BASIC_STATS,
				   &stx));
		expect_stat_matches(_metadata, &st, &stx);
	}
	ASSERT_EQ(0, lstat(self->link, &st));
	ASSERT_EQ(0, statx(AT_FDCWD, self->link, AT_SYMLINK_NOFOLLOW,
			   STATX_BASIC_STATS, &stx));
	expect_stat_matches(_metadata, &st, &stx);
}

TEST_F(statx, mount_root_attribute)
{
	struct statx stx;

	ASSERT_EQ(0, statx(AT_FDCWD, self->dir, 0, STATX_BASIC_STATS, &stx));
	EXPECT_EQ(STATX_ATTR_MOUNT_ROOT,
		  stx.stx_attributes & STATX_ATTR_MOUNT_ROOT);
	ASSERT_EQ(0, statx(AT_FDCWD, self->subdir, 0, STATX_BASIC_STATS,
			   &stx));
	EXPECT_EQ(0, stx.stx_attributes & STATX_ATTR_MOUNT_ROOT);
	EXPECT_EQ(STATX_ATTR_MOUNT_ROOT,
		  stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT);
}

TEST_HARNESS_MAIN
