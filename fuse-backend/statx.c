// SPDX-License-Identifier: GPL-2.0
/*
 * fusecount: FUSE_STATX (opcode 52, FUSE 7.39), answered from the raw
 * request.  libfuse 3.14 has no statx operation and would answer ENOSYS,
 * after which the kernel sets fc->no_statx and never sends FUSE_STATX on
 * that mount again; so the loop hands these requests here before libfuse
 * sees them.  The kernel accepts only a reply of exactly
 * sizeof(fuse_out_header) + sizeof(fuse_statx_out) bytes, or a bare header
 * carrying an error.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "statx.h"

#ifndef STATX__RESERVED
#define STATX__RESERVED 0x80000000U
#endif

_Static_assert(sizeof(struct fuse_statx) == sizeof(struct statx),
	       "fuse_statx must mirror struct statx");
_Static_assert(offsetof(struct fuse_statx, btime) ==
	       offsetof(struct statx, stx_btime),
	       "fuse_statx must mirror struct statx");
_Static_assert(offsetof(struct fuse_statx, FC_SX_COOKIE_FIELD) ==
	       FC_STX_CHANGE_COOKIE_OFF,
	       "fuse_statx's change cookie must be where statx has it");
_Static_assert(sizeof(struct fc_statx_reply) ==
	       sizeof(struct fuse_out_header) + sizeof(struct fuse_statx_out),
	       "the reply must have no padding");

/**
 * fc_statx_time_gran() - the timestamp granularity of a backing directory
 * @fd: the directory
 *
 * Return: stx_time_gran in ns, 0 when the kernel does not report it (a
 * kernel without the series' STATX_TIME_GRAN): then fusecount tells the
 * kernel nothing, and its timestamps are of no known granularity.
 */
uint32_t fc_statx_time_gran(int fd)
{
	struct statx stx;
	uint32_t ns;

	memset(&stx, 0, sizeof(stx));
	if (statx(fd, "", AT_EMPTY_PATH, STATX_TIME_GRAN, &stx) ||
	    !(stx.stx_mask & STATX_TIME_GRAN))
		return 0;
	memcpy(&ns, (const char *)&stx + FC_STX_TIME_GRAN_OFF, sizeof(ns));
	return ns <= 1000000000 ? ns : 0;
}

/* As libfuse does for attr_valid: whole seconds, then nanoseconds */
static void fc_timeout_split(double t, uint64_t *sec, uint32_t *nsec)
{
	double ns;

	if (!(t > 0)) {
		*sec = 0;
		*nsec = 0;
		return;
	}
	*sec = t >= (double)UINT64_MAX ? UINT64_MAX : (uint64_t)t;
	ns = (t - (double)*sec) * 1e9;
	*nsec = ns <= 0 ? 0 : ns >= 999999999 ? 999999999 : (uint32_t)ns;
}

static void fc_sx_time(struct fuse_sx_time *dst,
		       const struct statx_timestamp *src)
{
	dst->tv_sec = src->tv_sec;
	dst->tv_nsec = src->tv_nsec;
}

static void fc_statx_fill(struct fuse_statx *sx, const struct statx *stx)
{
	/* The basic stats and btime; fc_statx_cookie() adds the cookie */
	sx->mask = stx->stx_mask & (STATX_BASIC_STATS | STATX_BTIME);
	sx->blksize = stx->stx_blksize;
	sx->attributes = stx->stx_attributes;
	sx->nlink = stx->stx_nlink;
	sx->uid = stx->stx_uid;
	sx->gid = stx->stx_gid;
	sx->mode = stx->stx_mode;
	sx->ino = stx->stx_ino;
	sx->size = stx->stx_size;
	sx->blocks = stx->stx_blocks;
	sx->attributes_mask = stx->stx_attributes_mask;
	fc_sx_time(&sx->atime, &stx->stx_atime);
	fc_sx_time(&sx->btime, &stx->stx_btime);
	fc_sx_time(&sx->ctime, &stx->stx_ctime);
	fc_sx_time(&sx->mtime, &stx->stx_mtime);
	sx->rdev_major = stx->stx_rdev_major;
	sx->rdev_minor = stx->stx_rdev_minor;
	sx->dev_major = stx->stx_dev_major;
	sx->dev_minor = stx->stx_dev_minor;
}

/**
 * fc_statx_build() - the one successful reply to FUSE_STATX
 * @rep: header and struct fuse_statx_out, contiguous, sizeof(*rep) bytes
 * @unique: the request's unique
 * @stx: the backing file's attributes
 * @timeout: attribute cache timeout in seconds
 */
void fc_statx_build(struct fc_statx_reply *rep, uint64_t unique,
		    const struct statx *stx, double timeout)
{
	memset(rep, 0, sizeof(*rep));
	rep->hdr.len = sizeof(*rep);
	rep->hdr.error = 0;
	rep->hdr.unique = unique;
	fc_timeout_split(timeout, &rep->out.attr_valid,
			 &rep->out.attr_valid_nsec);
	fc_statx_fill(&rep->out.stat, stx);
}

/**
 * fc_statx_cookie() - add the backing file's change cookie to a reply
 * @sx: a filled reply
 * @stx: the backing file's attributes, asked with STATX_CHANGE_COOKIE
 *
 * Only when the backing file system gave one; whether it is monotonic is
 * in the attributes fc_statx_build() copied.  The kernel asks for it only
 * if our INIT reply agreed to FUSE_STATX_CHANGE_COOKIE.
 */
void fc_statx_cookie(struct fuse_statx *sx, const struct statx *stx)
{
	if (!(stx->stx_mask & STATX_CHANGE_COOKIE))
		return;
	memcpy(fc_sx_cookie(sx), (const char *)stx + FC_STX_CHANGE_COOKIE_OFF,
	       sizeof(uint64_t));
	sx->mask |= STATX_CHANGE_COOKIE;
}

#define FC_SX_FIELD(bit, f)					\
	{ bit, offsetof(struct fuse_statx, f),			\
	  sizeof(((struct fuse_statx *)0)->f) }

/* The field behind each STATX_* bit, but for mode (type and permissions) */
static const struct {
	uint32_t bit;
	size_t off;
	size_t len;
} fc_sx_fields[] = {
	FC_SX_FIELD(STATX_NLINK, nlink),
	FC_SX_FIELD(STATX_UID, uid),
	FC_SX_FIELD(STATX_GID, gid),
	FC_SX_FIELD(STATX_ATIME, atime),
	FC_SX_FIELD(STATX_MTIME, mtime),
	FC_SX_FIELD(STATX_CTIME, ctime),
	FC_SX_FIELD(STATX_INO, ino),
	FC_SX_FIELD(STATX_SIZE, size),
	FC_SX_FIELD(STATX_BLOCKS, blocks),
	FC_SX_FIELD(STATX_BTIME, btime),
};

/**
 * fc_statx_drop() - answer as a backend without some statx fields would
 * @sx: a filled reply
 * @drop: STATX_* bits (-o statx_drop) to take out of sx->mask
 *
 * The fields go to zero too, so that a kernel that used them regardless
 * of the mask would show it.
 */
void fc_statx_drop(struct fuse_statx *sx, uint32_t drop)
{
	size_t i;

	sx->mask &= ~drop;
	if (drop & STATX_TYPE)
		sx->mode &= ~S_IFMT;
	if (drop & STATX_MODE)
		sx->mode &= S_IFMT;
	for (i = 0; i < ARRAY_SIZE(fc_sx_fields); i++)
		if (drop & fc_sx_fields[i].bit)
			memset((char *)sx + fc_sx_fields[i].off, 0,
			       fc_sx_fields[i].len);
}

/*
 * Ask the backing file system as plain stat(2) would: the kernel's sync
 * hint is recorded by the counters, but our backing store is local.
 */
static int fc_statx_do(struct fc_data *d, const struct fc_statx_req *rq,
		       struct statx *stx)
{
	unsigned int mask = (rq->sx_mask | STATX_BASIC_STATS | STATX_BTIME) &
			    ~STATX__RESERVED;
	int fd;

	if (!rq->nodeid)
		return -EINVAL;
	if (rq->getattr_flags & FUSE_GETATTR_FH) {
		/* fh is the fd that our open/create handed out */
		if (rq->fh > INT_MAX)
			return -EBADF;
		fd = (int)rq->fh;
	} else {
		fd = fc_inode_get(&d->itable, rq->nodeid)->fd;
	}
	if (statx(fd, "",
		  AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW | AT_STATX_SYNC_AS_STAT,
		  mask, stx) == -1)
		return -errno;
	return 0;
}

/**
 * fc_statx_answer() - the one reply to a raw FUSE_STATX request
 * @d: daemon state
 * @buf: the request
 * @len: its length as read
 * @rep: the reply, filled in
 *
 * Return: the reply's length: all of @rep, or its bare header carrying
 * an error.  The caller sends it.
 */
size_t fc_statx_answer(struct fc_data *d, const void *buf, size_t len,
		       struct fc_statx_reply *rep)
{
	struct fc_statx_req rq;
	struct statx stx;
	int err;

	err = fusecount_statx_decode(buf, len, &rq);
	if (!err)
		err = fc_statx_do(d, &rq, &stx);
	if (d->debug)
		fuse_log(FUSE_LOG_DEBUG,
			 "fusecount: STATX unique %llu nodeid %llu flags 0x%x mask 0x%x: %d\n",
			 (unsigned long long)rq.unique,
			 (unsigned long long)rq.nodeid, rq.sx_flags,
			 rq.sx_mask, err);
	if (err) {
		memset(&rep->hdr, 0, sizeof(rep->hdr));
		rep->hdr.len = sizeof(rep->hdr);
		rep->hdr.error = err;
		rep->hdr.unique = rq.unique;
		return sizeof(rep->hdr);
	}
	fc_statx_build(rep, rq.unique, &stx, d->attr_timeout);
	if (d->change_cookie && (rq.sx_mask & STATX_CHANGE_COOKIE))
		fc_statx_cookie(&rep->out.stat, &stx);
	fc_statx_drop(&rep->out.stat, d->statx_drop);
	return sizeof(*rep);
}
