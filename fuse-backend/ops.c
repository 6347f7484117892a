// SPDX-License-Identifier: GPL-2.0
/*
 * fusecount: the passthrough handlers, in the manner of libfuse's
 * example/passthrough_ll.c.  Every handler replies exactly once; shared
 * work lives in fc_do_*() helpers that return a positive errno.  Open
 * files and directories keep their own fds; everything else goes through
 * the node's O_PATH fd, or /proc/self/fd/N where a path is needed (so the
 * guest must have /proc mounted for setattr, open, link, access and
 * xattrs).  Counting happens before any of this, in loop.c.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "ops.h"

/* An open directory; its address is the fh the kernel hands back */
struct fc_dirp {
	DIR *dp;
	struct dirent *entry;	/* read but not yet sent */
	off_t offset;
};

static struct fc_data *fc_data(fuse_req_t req)
{
	return fuse_req_userdata(req);
}

static struct fc_inode *fc_inode(fuse_req_t req, fuse_ino_t ino)
{
	return fc_inode_get(&fc_data(req)->itable, ino);
}

static int fc_fd(fuse_req_t req, fuse_ino_t ino)
{
	return fc_inode(req, ino)->fd;
}

static bool fc_debug(fuse_req_t req)
{
	return fc_data(req)->debug;
}

static struct fc_dirp *fc_dirp(struct fuse_file_info *fi)
{
	return (struct fc_dirp *)(uintptr_t)fi->fh;
}

static void fc_proc_path(char *buf, size_t size, int fd)
{
	snprintf(buf, size, "/proc/self/fd/%d", fd);
}

static void fc_reply_errno(fuse_req_t req, int res)
{
	fuse_reply_err(req, res == -1 ? errno : 0);
}

int fc_data_init(struct fc_data *d, int root_fd)
{
	int err;

	memset(d, 0, sizeof(*d));
	d->entry_timeout = 1.0;
	d->attr_timeout = 1.0;
	d->deny_uid = FC_NO_UID;
	fc_stats_reset(&d->stats);
	err = fc_trace_init(&d->trace);
	if (err) {
		close(root_fd);
		return err;
	}
	err = fc_itable_init(&d->itable, root_fd);
	if (err)
		fc_trace_destroy(&d->trace);
	return err;
}

void fc_data_destroy(struct fc_data *d)
{
	fc_itable_destroy(&d->itable);
	fc_trace_destroy(&d->trace);
}

static void fc_want(struct fuse_conn_info *conn, unsigned int cap, bool on)
{
	if (on && (conn->capable & cap))
		conn->want |= cap;
	else if (!on)
		conn->want &= ~cap;
}

static void fc_init(void *userdata, struct fuse_conn_info *conn)
{
	struct fc_data *d = userdata;

	/* The loop parses requests from memory: no splicing, either way */
	fc_want(conn, FUSE_CAP_SPLICE_READ | FUSE_CAP_SPLICE_WRITE |
		FUSE_CAP_SPLICE_MOVE, false);
	fc_want(conn, FUSE_CAP_READDIRPLUS, d->readdirplus != FC_RDP_OFF);
	fc_want(conn, FUSE_CAP_READDIRPLUS_AUTO, d->readdirplus == FC_RDP_AUTO);
	/* The kernel keeps the backing file system's, or 1 ns by default */
	if (d->time_gran)
		conn->time_gran = d->time_gran;
	if (d->debug)
		fuse_log(FUSE_LOG_DEBUG,
			 "fusecount: protocol 7.%u, want 0x%x\n",
			 conn->proto_minor, conn->want);
}

static int fc_do_lookup(fuse_req_t req, fuse_ino_t parent, const char *name,
			struct fuse_entry_param *e)
{
	struct fc_data *d = fc_data(req);
	struct fc_inode *inode;
	int fd, err;

	memset(e, 0, sizeof(*e));
	e->attr_timeout = d->attr_timeout;
	e->entry_timeout = d->entry_timeout;

	fd = openat(fc_fd(req, parent), name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd == -1)
		return errno;
	if (fstatat(fd, "", &e->attr, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW)) {
		err = errno;
		close(fd);
		return err;
	}
	err = -fc_inode_lookup(&d->itable, fd, &e->attr, &inode);
	if (err)
		return err;
	e->ino = (uintptr_t)inode;
	if (fc_debug(req))
		fuse_log(FUSE_LOG_DEBUG, "  %" PRIu64 "/%s -> %" PRIu64 "\n",
			 (uint64_t)parent, name, (uint64_t)e->ino);
	return 0;
}

/*
 * -o deny_uid: a daemon that checks each caller itself (no
 * default_permissions) and refuses this one, whatever the file's mode
 * says.  The request was counted like any other before it got here.
 */
static bool fc_denied(fuse_req_t req)
{
	uid_t deny = fc_data(req)->deny_uid;

	return deny != FC_NO_UID && fuse_req_ctx(req)->uid == deny;
}

static void fc_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct fuse_entry_param e;
	double neg = fc_data(req)->negative_timeout;
	int err;

	if (fc_denied(req)) {
		fuse_reply_err(req, EACCES);
		return;
	}
	err = fc_do_lookup(req, parent, name, &e);
	if (err == ENOENT && neg > 0) {
		/* Node id 0: the kernel caches the absence for neg seconds */
		memset(&e, 0, sizeof(e));
		e.entry_timeout = neg;
		fuse_reply_entry(req, &e);
	} else if (err) {
		fuse_reply_err(req, err);
	} else {
		fuse_reply_entry(req, &e);
	}
}

static void fc_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup)
{
	fc_inode_forget(&fc_data(req)->itable, fc_inode(req, ino), nlookup);
	fuse_reply_none(req);
}

static void fc_forget_multi(fuse_req_t req, size_t count,
			    struct fuse_forget_data *forgets)
{
	struct fc_itable *t = &fc_data(req)->itable;
	size_t i;

	for (i = 0; i < count; i++)
		fc_inode_forget(t, fc_inode_get(t, forgets[i].ino),
				forgets[i].nlookup);
	fuse_reply_none(req);
}

/* With FUSE_GETATTR_FH the kernel names the open file, a regular file */
static void fc_getattr(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	struct stat st;
	int res;

	if (fi)
		res = fstat(fi->fh, &st);
	else
		res = fstatat(fc_fd(req, ino), "", &st,
			      AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW);
	if (res == -1) {
		fuse_reply_err(req, errno);
		return;
	}
	fuse_reply_attr(req, &st, fc_data(req)->attr_timeout);
}

static int fc_do_chmod(int ifd, mode_t mode, struct fuse_file_info *fi)
{
	char path[64];
	int res;

	if (fi) {
		res = fchmod(fi->fh, mode);
	} else {
		fc_proc_path(path, sizeof(path), ifd);
		res = chmod(path, mode);
	}
	return res == -1 ? errno : 0;
}

static int fc_do_chown(int ifd, const struct stat *attr, int valid)
{
	uid_t uid = (valid & FUSE_SET_ATTR_UID) ? attr->st_uid : (uid_t)-1;
	gid_t gid = (valid & FUSE_SET_ATTR_GID) ? attr->st_gid : (gid_t)-1;

	if (fchownat(ifd, "", uid, gid, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW))
		return errno;
	return 0;
}

static int fc_do_truncate(int ifd, off_t size, struct fuse_file_info *fi)
{
	char path[64];
	int res;

	if (fi) {
		res = ftruncate(fi->fh, size);
	} else {
		fc_proc_path(path, sizeof(path), ifd);
		res = truncate(path, size);
	}
	return res == -1 ? errno : 0;
}

static int fc_do_utimens(int ifd, const struct stat *attr, int valid,
			 struct fuse_file_info *fi)
{
	struct timespec tv[2] = {
		{ .tv_nsec = UTIME_OMIT },
		{ .tv_nsec = UTIME_OMIT },
	};
	char path[64];
	int res;

	if (valid & FUSE_SET_ATTR_ATIME_NOW)
		tv[0].tv_nsec = UTIME_NOW;
	else if (valid & FUSE_SET_ATTR_ATIME)
		tv[0] = attr->st_atim;
	if (valid & FUSE_SET_ATTR_MTIME_NOW)
		tv[1].tv_nsec = UTIME_NOW;
	else if (valid & FUSE_SET_ATTR_MTIME)
		tv[1] = attr->st_mtim;

	if (fi) {
		res = futimens(fi->fh, tv);
	} else {
		fc_proc_path(path, sizeof(path), ifd);
		res = utimensat(AT_FDCWD, path, tv, 0);
	}
	return res == -1 ? errno : 0;
}

static int fc_do_setattr(int ifd, const struct stat *attr, int valid,
			 struct fuse_file_info *fi)
{
	int err = 0;

	if (valid & FUSE_SET_ATTR_MODE)
		err = fc_do_chmod(ifd, attr->st_mode, fi);
	if (!err && (valid & (FUSE_SET_ATTR_UID | FUSE_SET_ATTR_GID)))
		err = fc_do_chown(ifd, attr, valid);
	if (!err && (valid & FUSE_SET_ATTR_SIZE))
		err = fc_do_truncate(ifd, attr->st_size, fi);
	if (!err && (valid & (FUSE_SET_ATTR_ATIME | FUSE_SET_ATTR_MTIME)))
		err = fc_do_utimens(ifd, attr, valid, fi);
	return err;
}

static void fc_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr,
		       int valid, struct fuse_file_info *fi)
{
	int err = fc_do_setattr(fc_fd(req, ino), attr, valid, fi);

	if (err)
		fuse_reply_err(req, err);
	else
		fc_getattr(req, ino, fi);
}

static void fc_readlink(fuse_req_t req, fuse_ino_t ino)
{
	char buf[PATH_MAX + 1];
	ssize_t res;

	res = readlinkat(fc_fd(req, ino), "", buf, sizeof(buf));
	if (res == -1) {
		fuse_reply_err(req, errno);
		return;
	}
	if (res == sizeof(buf)) {
		fuse_reply_err(req, ENAMETOOLONG);
		return;
	}
	buf[res] = '\0';
	fuse_reply_readlink(req, buf);
}

static int fc_do_mknod(int dfd, const char *name, mode_t mode, dev_t rdev,
		       const char *link)
{
	int res;

	if (S_ISDIR(mode))
		res = mkdirat(dfd, name, mode);
	else if (S_ISLNK(mode))
		res = symlinkat(link, dfd, name);
	else
		res = mknodat(dfd, name, mode, rdev);
	return res == -1 ? errno : 0;
}

/* MKNOD, MKDIR and SYMLINK: create, then look up like LOOKUP does */
static void fc_mknod_symlink(fuse_req_t req, fuse_ino_t parent,
			     const char *name, mode_t mode, dev_t rdev,
			     const char *link)
{
	struct fuse_entry_param e;
	int err;

	err = fc_do_mknod(fc_fd(req, parent), name, mode, rdev, link);
	if (!err)
		err = fc_do_lookup(req, parent, name, &e);
	if (err)
		fuse_reply_err(req, err);
	else
		fuse_reply_entry(req, &e);
}

static void fc_mknod(fuse_req_t req, fuse_ino_t parent, const char *name,
		     mode_t mode, dev_t rdev)
{
	fc_mknod_symlink(req, parent, name, mode, rdev, NULL);
}

static void fc_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name,
		     mode_t mode)
{
	fc_mknod_symlink(req, parent, name, S_IFDIR | mode, 0, NULL);
}

static void fc_symlink(fuse_req_t req, const char *link, fuse_ino_t parent,
		       const char *name)
{
	fc_mknod_symlink(req, parent, name, S_IFLNK, 0, link);
}

static int fc_do_link(fuse_req_t req, struct fc_inode *inode, fuse_ino_t parent,
		      const char *name, struct fuse_entry_param *e)
{
	struct fc_data *d = fc_data(req);
	char path[64];

	memset(e, 0, sizeof(*e));
	e->attr_timeout = d->attr_timeout;
	e->entry_timeout = d->entry_timeout;

	fc_proc_path(path, sizeof(path), inode->fd);
	if (linkat(AT_FDCWD, path, fc_fd(req, parent), name, AT_SYMLINK_FOLLOW))
		return errno;
	if (fstatat(inode->fd, "", &e->attr,
		    AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW))
		return errno;
	fc_inode_ref(&d->itable, inode);
	e->ino = (uintptr_t)inode;
	return 0;
}

static void fc_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t parent,
		    const char *name)
{
	struct fuse_entry_param e;
	int err;

	err = fc_do_link(req, fc_inode(req, ino), parent, name, &e);
	if (err)
		fuse_reply_err(req, err);
	else
		fuse_reply_entry(req, &e);
}

static void fc_unlink(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	fc_reply_errno(req, unlinkat(fc_fd(req, parent), name, 0));
}

static void fc_rmdir(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	fc_reply_errno(req, unlinkat(fc_fd(req, parent), name, AT_REMOVEDIR));
}

static void fc_rename(fuse_req_t req, fuse_ino_t parent, const char *name,
		      fuse_ino_t newparent, const char *newname,
		      unsigned int flags)
{
	fc_reply_errno(req, renameat2(fc_fd(req, parent), name,
				      fc_fd(req, newparent), newname, flags));
}

static void fc_opendir(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	struct fc_dirp *d;
	int fd, err = ENOMEM;

	d = calloc(1, sizeof(*d));
	if (!d)
		goto out_err;
	fd = openat(fc_fd(req, ino), ".", O_RDONLY | O_CLOEXEC);
	if (fd == -1)
		goto out_errno;
	d->dp = fdopendir(fd);
	if (!d->dp) {
		err = errno;
		close(fd);
		goto out_free;
	}
	fi->fh = (uintptr_t)d;
	fuse_reply_open(req, fi);
	return;

out_errno:
	err = errno;
out_free:
	free(d);
out_err:
	fuse_reply_err(req, err);
}

static bool fc_is_dot(const char *name)
{
	return name[0] == '.' &&
	       (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'));
}

/* Return: 0 with d->entry set, 0 with d->entry NULL at the end, or errno */
static int fc_dir_next(struct fc_dirp *d)
{
	if (d->entry)
		return 0;
	errno = 0;
	d->entry = readdir(d->dp);
	return d->entry ? 0 : errno;
}

/*
 * Add d->entry to @buf.  Return its size (more than @rem if it did not
 * fit, and then nothing was added), 0 to skip an entry that vanished from
 * the backing directory since readdir(3) saw it, or -errno.
 */
static ssize_t fc_dir_add(fuse_req_t req, fuse_ino_t ino, struct fc_dirp *d,
			  char *buf, size_t rem, bool plus)
{
	struct dirent *de = d->entry;
	struct fuse_entry_param e = {
		.attr.st_ino = de->d_ino,
		.attr.st_mode = DTTOIF(de->d_type),
	};
	size_t size;
	int err;

	if (!plus)
		return fuse_add_direntry(req, buf, rem, de->d_name, &e.attr,
					 de->d_off);
	if (!fc_is_dot(de->d_name)) {
		err = fc_do_lookup(req, ino, de->d_name, &e);
		if (err)
			return err == ENOENT ? 0 : -err;
	}
	size = fuse_add_direntry_plus(req, buf, rem, de->d_name, &e, de->d_off);
	/* The kernel never sees an entry that did not fit: undo its lookup */
	if (size > rem && e.ino)
		fc_inode_forget(&fc_data(req)->itable, fc_inode(req, e.ino), 1);
	return size;
}

static int fc_do_readdir(fuse_req_t req, fuse_ino_t ino, struct fc_dirp *d,
			 char *buf, size_t size, off_t offset, bool plus,
			 size_t *used)
{
	ssize_t n;
	int err;

	if (offset != d->offset) {
		seekdir(d->dp, offset);
		d->entry = NULL;
		d->offset = offset;
	}
	for (*used = 0;; d->entry = NULL) {
		err = fc_dir_next(d);
		if (err || !d->entry)
			return err;
		n = fc_dir_add(req, ino, d, buf + *used, size - *used, plus);
		if (n < 0)
			return -n;
		if ((size_t)n > size - *used)
			return 0;
		*used += n;
		d->offset = d->entry->d_off;
	}
}

static void fc_readdir_common(fuse_req_t req, fuse_ino_t ino, size_t size,
			      off_t offset, struct fuse_file_info *fi,
			      bool plus)
{
	size_t used = 0;
	char *buf;
	int err;

	buf = calloc(1, size ? size : 1);
	if (!buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	err = fc_do_readdir(req, ino, fc_dirp(fi), buf, size, offset, plus,
			    &used);
	/* Entries already added hold lookups: send them, drop the error */
	if (err && !used)
		fuse_reply_err(req, err);
	else
		fuse_reply_buf(req, buf, used);
	free(buf);
}

static void fc_readdir(fuse_req_t req, fuse_ino_t ino, size_t size,
		       off_t offset, struct fuse_file_info *fi)
{
	fc_readdir_common(req, ino, size, offset, fi, false);
}

static void fc_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size,
			   off_t offset, struct fuse_file_info *fi)
{
	fc_readdir_common(req, ino, size, offset, fi, true);
}

static void fc_releasedir(fuse_req_t req, fuse_ino_t ino,
			  struct fuse_file_info *fi)
{
	struct fc_dirp *d = fc_dirp(fi);

	(void)ino;
	closedir(d->dp);
	free(d);
	fuse_reply_err(req, 0);
}

static void fc_fsyncdir(fuse_req_t req, fuse_ino_t ino, int datasync,
			struct fuse_file_info *fi)
{
	int fd = dirfd(fc_dirp(fi)->dp);

	(void)ino;
	fc_reply_errno(req, datasync ? fdatasync(fd) : fsync(fd));
}

static void fc_create(fuse_req_t req, fuse_ino_t parent, const char *name,
		      mode_t mode, struct fuse_file_info *fi)
{
	struct fuse_entry_param e;
	int fd, err;

	fd = openat(fc_fd(req, parent), name,
		    (fi->flags | O_CREAT | O_CLOEXEC) & ~O_NOFOLLOW, mode);
	if (fd == -1) {
		fuse_reply_err(req, errno);
		return;
	}
	err = fc_do_lookup(req, parent, name, &e);
	if (err) {
		close(fd);
		fuse_reply_err(req, err);
		return;
	}
	fi->fh = fd;
	fuse_reply_create(req, &e, fi);
}

static void fc_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	char path[64];
	int fd;

	fc_proc_path(path, sizeof(path), fc_fd(req, ino));
	fd = open(path, (fi->flags | O_CLOEXEC) & ~O_NOFOLLOW);
	if (fd == -1) {
		fuse_reply_err(req, errno);
		return;
	}
	fi->fh = fd;
	fuse_reply_open(req, fi);
}

static void fc_release(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	(void)ino;
	close(fi->fh);
	fuse_reply_err(req, 0);
}

static void fc_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)ino;
	/* Closing a duplicate reports delayed write errors, as close(2) */
	fc_reply_errno(req, close(dup(fi->fh)));
}

static void fc_fsync(fuse_req_t req, fuse_ino_t ino, int datasync,
		     struct fuse_file_info *fi)
{
	(void)ino;
	fc_reply_errno(req, datasync ? fdatasync(fi->fh) : fsync(fi->fh));
}

static void fc_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	ssize_t n;
	char *buf;
	int err;

	(void)ino;
	buf = malloc(size ? size : 1);
	if (!buf) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	n = pread(fi->fh, buf, size, off);
	err = n == -1 ? errno : 0;
	if (err)
		fuse_reply_err(req, err);
	else
		fuse_reply_buf(req, buf, n);
	free(buf);
}

static void fc_write(fuse_req_t req, fuse_ino_t ino, const char *buf,
		     size_t size, off_t off, struct fuse_file_info *fi)
{
	ssize_t n;

	(void)ino;
	n = pwrite(fi->fh, buf, size, off);
	if (n == -1)
		fuse_reply_err(req, errno);
	else
		fuse_reply_write(req, n);
}

static void fc_statfs(fuse_req_t req, fuse_ino_t ino)
{
	struct statvfs st;

	if (fstatvfs(fc_fd(req, ino), &st) == -1)
		fuse_reply_err(req, errno);
	else
		fuse_reply_statfs(req, &st);
}

static void fc_access(fuse_req_t req, fuse_ino_t ino, int mask)
{
	char path[64];

	fc_proc_path(path, sizeof(path), fc_fd(req, ino));
	fc_reply_errno(req, access(path, mask));
}

/*
 * Through /proc/self/fd/N the xattr calls reach the node itself; for a
 * symlink there is no race-free way to do that, so say "not supported".
 */
static int fc_xattr_path(fuse_req_t req, fuse_ino_t ino, char *path,
			 size_t size)
{
	struct fc_inode *inode = fc_inode(req, ino);

	if (inode->is_symlink)
		return ENOTSUP;
	fc_proc_path(path, size, inode->fd);
	return 0;
}

/* GETXATTR (@name set) and LISTXATTR: a size query, or the value */
static void fc_xattr_get(fuse_req_t req, fuse_ino_t ino, const char *name,
			 size_t size)
{
	char path[64], *value = NULL;
	ssize_t n;
	int err;

	err = fc_xattr_path(req, ino, path, sizeof(path));
	if (err)
		goto out_err;
	err = ENOMEM;
	value = size ? malloc(size) : NULL;
	if (size && !value)
		goto out_err;
	n = name ? getxattr(path, name, value, size) :
		   listxattr(path, value, size);
	err = errno;
	if (n == -1)
		goto out_err;
	if (size)
		fuse_reply_buf(req, value, n);
	else
		fuse_reply_xattr(req, n);
	free(value);
	return;

out_err:
	free(value);
	fuse_reply_err(req, err);
}

static void fc_getxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
			size_t size)
{
	fc_xattr_get(req, ino, name, size);
}

static void fc_listxattr(fuse_req_t req, fuse_ino_t ino, size_t size)
{
	fc_xattr_get(req, ino, NULL, size);
}

static void fc_setxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
			const char *value, size_t size, int flags)
{
	char path[64];
	int err;

	err = fc_xattr_path(req, ino, path, sizeof(path));
	if (!err && setxattr(path, name, value, size, flags) == -1)
		err = errno;
	fuse_reply_err(req, err);
}

static void fc_removexattr(fuse_req_t req, fuse_ino_t ino, const char *name)
{
	char path[64];
	int err;

	err = fc_xattr_path(req, ino, path, sizeof(path));
	if (!err && removexattr(path, name) == -1)
		err = errno;
	fuse_reply_err(req, err);
}

const struct fuse_lowlevel_ops fc_oper = {
	.init		= fc_init,
	.lookup		= fc_lookup,
	.forget		= fc_forget,
	.forget_multi	= fc_forget_multi,
	.getattr	= fc_getattr,
	.setattr	= fc_setattr,
	.readlink	= fc_readlink,
	.mknod		= fc_mknod,
	.mkdir		= fc_mkdir,
	.symlink	= fc_symlink,
	.link		= fc_link,
	.unlink		= fc_unlink,
	.rmdir		= fc_rmdir,
	.rename		= fc_rename,
	.opendir	= fc_opendir,
	.readdir	= fc_readdir,
	.readdirplus	= fc_readdirplus,
	.releasedir	= fc_releasedir,
	.fsyncdir	= fc_fsyncdir,
	.create		= fc_create,
	.open		= fc_open,
	.release	= fc_release,
	.flush		= fc_flush,
	.fsync		= fc_fsync,
	.read		= fc_read,
	.write		= fc_write,
	.statfs		= fc_statfs,
	.access		= fc_access,
	.getxattr	= fc_getxattr,
	.listxattr	= fc_listxattr,
	.setxattr	= fc_setxattr,
	.removexattr	= fc_removexattr,
};
