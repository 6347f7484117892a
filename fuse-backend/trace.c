// SPDX-License-Identifier: GPL-2.0
/*
 * fusecount: the request trace, a ring of the last FC_TRACE_LEN requests
 * (decoded by req.c), indexed by request number, written once per request
 * after its reply.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

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
