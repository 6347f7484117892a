// SPDX-License-Identifier: GPL-2.0
/*
 * fusecount: request decoding.  fc_req_decode() reads what the counters
 * and the trace want from a raw request (header, names, getattr and statx
 * arguments, forget counts); fusecount_statx_decode() checks a FUSE_STATX
 * request whole.  Neither trusts a length in the buffer, so both can be
 * fuzzed.  The opcodes' names are here too.
 */
#include <errno.h>
#include <string.h>

#include "req.h"

#define FC_OP(name)	[FUSE_##name] = #name

/* Indexed by the kernel header's own enum, so the numbers cannot drift */
static const char *const fc_opcode_names[FC_NR_OPCODES] = {
	FC_OP(LOOKUP), FC_OP(FORGET), FC_OP(GETATTR), FC_OP(SETATTR),
	FC_OP(READLINK), FC_OP(SYMLINK), FC_OP(MKNOD), FC_OP(MKDIR),
	FC_OP(UNLINK), FC_OP(RMDIR), FC_OP(RENAME), FC_OP(LINK),
	FC_OP(OPEN), FC_OP(READ), FC_OP(WRITE), FC_OP(STATFS),
	FC_OP(RELEASE), FC_OP(FSYNC), FC_OP(SETXATTR), FC_OP(GETXATTR),
	FC_OP(LISTXATTR), FC_OP(REMOVEXATTR), FC_OP(FLUSH), FC_OP(INIT),
	FC_OP(OPENDIR), FC_OP(READDIR), FC_OP(RELEASEDIR), FC_OP(FSYNCDIR),
	FC_OP(GETLK), FC_OP(SETLK), FC_OP(SETLKW), FC_OP(ACCESS),
	FC_OP(CREATE), FC_OP(INTERRUPT), FC_OP(BMAP), FC_OP(DESTROY),
	FC_OP(IOCTL), FC_OP(POLL), FC_OP(NOTIFY_REPLY), FC_OP(BATCH_FORGET),
	FC_OP(FALLOCATE), FC_OP(READDIRPLUS), FC_OP(RENAME2), FC_OP(LSEEK),
	FC_OP(COPY_FILE_RANGE), FC_OP(SETUPMAPPING), FC_OP(REMOVEMAPPING),
	FC_OP(SYNCFS), FC_OP(TMPFILE), FC_OP(STATX),
};

/* Return: the opcode's name, or NULL if it has none below 64 */
const char *fc_opcode_name(uint32_t opcode)
{
	if (opcode >= FC_NR_OPCODES)
		return NULL;
	return fc_opcode_names[opcode];
}

/**
 * fusecount_statx_decode() - check and read a raw FUSE_STATX request
 * @buf: the request as read from /dev/fuse
 * @len: bytes read
 * @out: the request; unique and nodeid are filled in whenever a whole
 *	 header is present, so that even a bad request can be answered
 *
 * Return: 0, or -EINVAL unless the header's length equals @len and both
 * are exactly a header plus struct fuse_statx_in, with no extensions.
 */
int fusecount_statx_decode(const void *buf, size_t len,
			   struct fc_statx_req *out)
{
	struct fuse_in_header in;
	struct fuse_statx_in arg;

	memset(out, 0, sizeof(*out));
	if (!buf || len < sizeof(in))
		return -EINVAL;
	memcpy(&in, buf, sizeof(in));
	out->unique = in.unique;
	out->nodeid = in.nodeid;
	if (in.opcode != FUSE_STATX || in.len != len ||
	    len != sizeof(in) + sizeof(arg) || in.total_extlen)
		return -EINVAL;

	memcpy(&arg, (const char *)buf + sizeof(in), sizeof(arg));
	out->getattr_flags = arg.getattr_flags;
	out->fh = arg.fh;
	out->sx_flags = arg.sx_flags;
	out->sx_mask = arg.sx_mask;
	return 0;
}

/* The argument area after the header, cursor style */
struct fc_args {
	const char *p;
	size_t rem;
};

static bool fc_args_skip(struct fc_args *a, size_t n)
{
	if (a->rem < n)
		return false;
	a->p += n;
	a->rem -= n;
	return true;
}

/* A NUL-terminated name must end inside the arguments */
static bool fc_args_name(struct fc_args *a, const char **name, size_t *len)
{
	const char *nul = memchr(a->p, '\0', a->rem);

	if (!nul)
		return false;
	*name = a->p;
	*len = nul - a->p;
	return fc_args_skip(a, *len + 1);
}

static void fc_decode_name(struct fc_req *req, struct fc_args *a, size_t skip,
			   bool second)
{
	if (!fc_args_skip(a, skip) ||
	    !fc_args_name(a, &req->name, &req->namelen))
		return;
	req->has |= FC_HAS_NAME;
	if (second && fc_args_name(a, &req->name2, &req->name2len))
		req->has |= FC_HAS_NAME2;
}

static void fc_decode_getattr(struct fc_req *req, struct fc_args *a)
{
	struct fuse_getattr_in in;

	if (a->rem < sizeof(in))
		return;
	memcpy(&in, a->p, sizeof(in));
	req->getattr_flags = in.getattr_flags;
	req->fh = in.fh;
	req->has |= FC_HAS_GETATTR;
}

static void fc_decode_forget(struct fc_req *req, struct fc_args *a)
{
	struct fuse_forget_in in;

	if (a->rem < sizeof(in))
		return;
	memcpy(&in, a->p, sizeof(in));
	req->nlookup = in.nlookup;
	req->has |= FC_HAS_FORGET;
}

static void fc_decode_batch_forget(struct fc_req *req, struct fc_args *a)
{
	struct fuse_batch_forget_in in;
	struct fuse_forget_one one;
	uint32_t i;

	if (a->rem < sizeof(in))
		return;
	memcpy(&in, a->p, sizeof(in));
	fc_args_skip(a, sizeof(in));
	for (i = 0; i < in.count && a->rem >= sizeof(one); i++) {
		memcpy(&one, a->p, sizeof(one));
		fc_args_skip(a, sizeof(one));
		req->nlookup += one.nlookup;
	}
	req->has |= FC_HAS_FORGET;
}

static void fc_decode_statx(struct fc_req *req, const void *buf, size_t len)
{
	struct fc_statx_req sx;

	if (fusecount_statx_decode(buf, len, &sx))
		return;
	req->getattr_flags = sx.getattr_flags;
	req->fh = sx.fh;
	req->sx_flags = sx.sx_flags;
	req->sx_mask = sx.sx_mask;
	req->has |= FC_HAS_GETATTR | FC_HAS_STATX;
}

/* Name-carrying requests: the fixed argument to skip, and a second name? */
static bool fc_name_layout(uint32_t opcode, size_t *skip, bool *second)
{
	*second = opcode == FUSE_SYMLINK || opcode == FUSE_RENAME ||
		  opcode == FUSE_RENAME2;
	switch (opcode) {
	case FUSE_LOOKUP:
	case FUSE_UNLINK:
	case FUSE_RMDIR:
	case FUSE_REMOVEXATTR:
	case FUSE_SYMLINK:
		*skip = 0;
		return true;
	case FUSE_MKDIR:
		*skip = sizeof(struct fuse_mkdir_in);
		return true;
	case FUSE_MKNOD:
		*skip = sizeof(struct fuse_mknod_in);
		return true;
	case FUSE_CREATE:
		*skip = sizeof(struct fuse_create_in);
		return true;
	case FUSE_LINK:
		*skip = sizeof(struct fuse_link_in);
		return true;
	case FUSE_GETXATTR:
		*skip = sizeof(struct fuse_getxattr_in);
		return true;
	case FUSE_RENAME:
		*skip = sizeof(struct fuse_rename_in);
		return true;
	case FUSE_RENAME2:
		*skip = sizeof(struct fuse_rename2_in);
		return true;
	}
	return false;
}

static void fc_decode_args(struct fc_req *req, struct fc_args *a,
			   const void *buf, size_t len)
{
	size_t skip;
	bool second;

	if (fc_name_layout(req->opcode, &skip, &second)) {
		fc_decode_name(req, a, skip, second);
		return;
	}
	switch (req->opcode) {
	case FUSE_GETATTR:
		fc_decode_getattr(req, a);
		break;
	case FUSE_FORGET:
		fc_decode_forget(req, a);
		break;
	case FUSE_BATCH_FORGET:
		fc_decode_batch_forget(req, a);
		break;
	case FUSE_STATX:
		fc_decode_statx(req, buf, len);
		break;
	}
}

/**
 * fc_req_decode() - read a raw request for counting and tracing
 * @buf: the request as read from /dev/fuse
 * @len: bytes read
 * @req: filled with what could be read; argument fields only when their
 *	 FC_HAS_* bit is set
 *
 * Return: 0, or -EINVAL if there is no whole header or its length field
 * does not match @len (the header fields that fit are still filled in).
 */
int fc_req_decode(const void *buf, size_t len, struct fc_req *req)
{
	struct fuse_in_header in;
	struct fc_args a;
	size_t ext;

	memset(req, 0, sizeof(*req));
	if (len < sizeof(in))
		return -EINVAL;
	memcpy(&in, buf, sizeof(in));
	req->unique = in.unique;
	req->nodeid = in.nodeid;
	req->opcode = in.opcode;
	req->len = in.len;
	if (in.len != len)
		return -EINVAL;

	/* Extensions (FUSE 7.38) follow the arguments: keep them out */
	ext = (size_t)in.total_extlen * 8;
	a.p = (const char *)buf + sizeof(in);
	a.rem = len - sizeof(in);
	if (ext > a.rem)
		return 0;
	a.rem -= ext;
	fc_decode_args(req, &a, buf, len);
	return 0;
}
