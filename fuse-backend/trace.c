// SPDX-License-Identifier: GPL-2.0
/*
 * fusecount: the request trace.  fc_req_decode() reads what the counters
 * and the trace want from a raw request (header, names, getattr and statx
 * arguments, forget counts); it trusts no length in the buffer, so it can
 * be fuzzed.  The trace is a ring of the last FC_TRACE_LEN requests,
 * indexed by request number, written once per request after its reply.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fusecount.h"

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

int fc_trace_init(struct fc_trace *t)
{
	t->ring = calloc(FC_TRACE_LEN, sizeof(*t->ring));
	if (!t->ring)
		return -ENOMEM;
	pthread_mutex_init(&t->lock, NULL);
	atomic_init(&t->on, true);
	return 0;
}

void fc_trace_destroy(struct fc_trace *t)
{
	free(t->ring);
	t->ring = NULL;
	pthread_mutex_destroy(&t->lock);
}

void fc_trace_set(struct fc_trace *t, bool on)
{
	atomic_store(&t->on, on);
}

void fc_trace_reset(struct fc_trace *t)
{
	pthread_mutex_lock(&t->lock);
	memset(t->ring, 0, FC_TRACE_LEN * sizeof(*t->ring));
	pthread_mutex_unlock(&t->lock);
}

static void fc_copy_name(char *dst, const char *src, size_t len)
{
	if (len > FC_NAME_MAX)
		len = FC_NAME_MAX;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

static void fc_trace_fill(struct fc_trace_ent *e, const struct fc_req *req,
			  const struct fc_reply *rep)
{
	memset(e, 0, sizeof(*e));
	e->seq = req->seq;
	e->unique = req->unique;
	e->nodeid = req->nodeid;
	e->opcode = req->opcode;
	e->has = req->has;
	e->getattr_flags = req->getattr_flags;
	e->fh = req->fh;
	e->sx_flags = req->sx_flags;
	e->sx_mask = req->sx_mask;
	e->nlookup = req->nlookup;
	e->replied = rep->replied;
	e->error = rep->error;
	e->usec = rep->usec;
	if (req->has & FC_HAS_NAME)
		fc_copy_name(e->name, req->name, req->namelen);
	if (req->has & FC_HAS_NAME2)
		fc_copy_name(e->name2, req->name2, req->name2len);
}

void fc_trace_record(struct fc_trace *t, const struct fc_req *req,
		     const struct fc_reply *rep)
{
	struct fc_trace_ent *e;

	if (!atomic_load(&t->on) || !req->seq)
		return;
	pthread_mutex_lock(&t->lock);
	e = &t->ring[req->seq % FC_TRACE_LEN];
	/* A slow request must not overwrite a newer one in its slot */
	if (e->seq < req->seq)
		fc_trace_fill(e, req, rep);
	pthread_mutex_unlock(&t->lock);
}

static void fc_trace_line(const struct fc_trace_ent *e, struct fc_sb *sb)
{
	const char *name = fc_opcode_name(e->opcode);

	fc_sb_printf(sb, "{\"seq\":%llu,", (unsigned long long)e->seq);
	if (name)
		fc_sb_printf(sb, "\"op\":\"%s\",", name);
	else
		fc_sb_printf(sb, "\"op\":\"OP_%u\",", e->opcode);
	fc_sb_printf(sb, "\"unique\":%llu,\"nodeid\":%llu",
		     (unsigned long long)e->unique,
		     (unsigned long long)e->nodeid);
	if (e->has & FC_HAS_NAME) {
		fc_sb_printf(sb, ",\"name\":");
		fc_sb_json_str(sb, e->name, strlen(e->name));
	}
	if (e->has & FC_HAS_NAME2) {
		fc_sb_printf(sb, e->opcode == FUSE_SYMLINK ? ",\"target\":" :
							     ",\"newname\":");
		fc_sb_json_str(sb, e->name2, strlen(e->name2));
	}
	if (e->has & FC_HAS_GETATTR)
		fc_sb_printf(sb, ",\"getattr_flags\":\"0x%x\",\"fh\":%llu",
			     e->getattr_flags, (unsigned long long)e->fh);
	if (e->has & FC_HAS_STATX)
		fc_sb_printf(sb, ",\"sx_flags\":\"0x%x\",\"sx_mask\":\"0x%x\"",
			     e->sx_flags, e->sx_mask);
	if (e->has & FC_HAS_FORGET)
		fc_sb_printf(sb, ",\"nlookup\":%llu",
			     (unsigned long long)e->nlookup);
	fc_sb_printf(sb, ",\"error\":%d,\"usec\":%llu%s}\n", e->error,
		     (unsigned long long)e->usec,
		     e->replied ? "" : ",\"noreply\":true");
}

static int fc_trace_cmp(const void *a, const void *b)
{
	const struct fc_trace_ent *x = a, *y = b;

	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Oldest first, then "end"; copied out so the lock is held briefly */
void fc_trace_dump(struct fc_trace *t, struct fc_sb *sb)
{
	struct fc_trace_ent *copy;
	size_t i, n = 0;

	copy = malloc(FC_TRACE_LEN * sizeof(*copy));
	if (!copy) {
		fc_sb_printf(sb, "error: out of memory\n");
		return;
	}
	pthread_mutex_lock(&t->lock);
	for (i = 0; i < FC_TRACE_LEN; i++) {
		if (t->ring[i].seq)
			copy[n++] = t->ring[i];
	}
	pthread_mutex_unlock(&t->lock);

	qsort(copy, n, sizeof(*copy), fc_trace_cmp);
	for (i = 0; i < n; i++)
		fc_trace_line(&copy[i], sb);
	fc_sb_printf(sb, "end\n");
	free(copy);
}
