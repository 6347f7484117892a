/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fusecount, trace.c: the ring of the last FC_TRACE_LEN requests, written
 * once per request after its reply, and its "dump".  Calls req and sbuf.
 */
#ifndef FC_TRACE_H
#define FC_TRACE_H

#include "req.h"
#include "sbuf.h"
#include <pthread.h>
#include <stdatomic.h>

#define FC_TRACE_LEN	4096	/* requests kept for "dump" */

/* How a request was answered, seen on the way to the kernel */
struct fc_reply {
	bool replied;
	int32_t error;		/* fuse_out_header.error: 0 or -errno */
	uint64_t usec;		/* from receive to end of dispatch */
};

struct fc_trace_ent {
	uint64_t seq;		/* 0: slot unused */
	uint64_t unique;
	uint64_t nodeid;
	uint64_t fh;
	uint64_t nlookup;
	uint64_t usec;
	uint32_t opcode;
	uint32_t getattr_flags;
	uint32_t sx_flags;
	uint32_t sx_mask;
	int32_t error;
	unsigned int has;
	bool replied;
	char name[FC_NAME_MAX + 1];
	char name2[FC_NAME_MAX + 1];
};

struct fc_trace {
	pthread_mutex_t lock;
	atomic_bool on;
	struct fc_trace_ent *ring;	/* FC_TRACE_LEN, protected by lock */
};

int fc_trace_init(struct fc_trace *t);
void fc_trace_destroy(struct fc_trace *t);
void fc_trace_set(struct fc_trace *t, bool on);
void fc_trace_reset(struct fc_trace *t);
void fc_trace_record(struct fc_trace *t, const struct fc_req *req,
		     const struct fc_reply *rep);
void fc_trace_dump(struct fc_trace *t, struct fc_sb *sb);

#endif /* FC_TRACE_H */
