/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Calls made as another user (uid and gid 65534), for tests of what a
 * cached permission answer lets through. The statx system call is made
 * directly: glibc's statx() emulates it on ENOSYS, which would hide a
 * kernel's ENOSYS from the test.
 */
#ifndef LAB_USER_H
#define LAB_USER_H

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define LAB_NOBODY	65534

static inline int sys_statx(int dfd, const char *path, int flags,
			    unsigned int mask, struct statx *stx)
{
	return syscall(__NR_statx, dfd, path, flags, mask, stx);
}

/* 0: statx(AT_STATX_DONT_SYNC) of @path worked; 1: EACCES; 3: other */
static inline int lab_dont_sync_walk(const char *path)
{
	struct statx stx;

	if (!sys_statx(AT_FDCWD, path, AT_STATX_DONT_SYNC, STATX_BASIC_STATS,
		       &stx))
		return 0;
	return errno == EACCES ? 1 : 3;
}

/* 0: a plain stat() of @path worked; 3: it failed */
static inline int lab_plain_stat(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 3 : 0;
}

/* Run @fn(@path) as uid/gid 65534 in a child; its exit status, or -1. */
static inline int lab_as_nobody(int (*fn)(const char *), const char *path)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if (setgid(LAB_NOBODY) || setuid(LAB_NOBODY))
			_exit(2);
		_exit(fn(path));
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Run @fn(@path) in a child process of the same user; as above. */
static inline int lab_in_child(int (*fn)(const char *), const char *path)
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(fn(path));
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * 0: statx(@path, AT_STATX_FORCE_SYNC) failed with ENOTDIR, as "f/" of a
 * regular file does after the walk looked f up; 3: anything else.
 */
static inline int lab_force_sync_enotdir(const char *path)
{
	struct statx stx;

	if (sys_statx(AT_FDCWD, path, AT_STATX_FORCE_SYNC, STATX_SIZE, &stx))
		return errno == ENOTDIR ? 0 : 3;
	return 3;
}

/*
 * The size statx(AT_STATX_FORCE_SYNC) of a descriptor of @path gives,
 * for an exit status: 0-249 the size, 250 if larger, 254 if STATX_SIZE
 * is not claimed, 255 if a call failed.
 */
static inline int lab_force_sync_fd_size(const char *path)
{
	struct statx stx;
	int fd = open(path, O_RDONLY);
	int rc;

	if (fd < 0)
		return 255;
	rc = sys_statx(fd, "", AT_EMPTY_PATH | AT_STATX_FORCE_SYNC,
		       STATX_SIZE, &stx);
	close(fd);
	if (rc)
		return 255;
	if (!(stx.stx_mask & STATX_SIZE))
		return 254;
	return stx.stx_size < 250 ? (int)stx.stx_size : 250;
}

#endif /* LAB_USER_H */
