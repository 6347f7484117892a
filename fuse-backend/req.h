/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fusecount, req.c: what a raw request carries, decoded without trusting
 * any length in it (so it can be fuzzed): the header, names, getattr,
 * statx and forget arguments; the opcodes' names.  Calls nothing of the
 * daemon.
 */
#ifndef FC_REQ_H
#define FC_REQ_H

#include "fuse_abi.h"

#define FC_NR_OPCODES	64	/* each its own; the rest share one */
#define FC_NAME_MAX	255	/* longest name kept in the trace */

enum {
	FC_HAS_NAME	= 1 << 0,
	FC_HAS_NAME2	= 1 << 1,
	FC_HAS_GETATTR	= 1 << 2,	/* getattr_flags and fh */
	FC_HAS_STATX	= 1 << 3,	/* sx_flags and sx_mask too */
	FC_HAS_FORGET	= 1 << 4,	/* nlookup */
};

struct fc_req {
	uint64_t seq;		/* request number since the last reset */
	uint64_t unique;
	uint64_t nodeid;
	uint32_t opcode;
	uint32_t len;
	unsigned int has;	/* FC_HAS_* */
	const char *name;	/* points into the request buffer */
	size_t namelen;
	const char *name2;	/* RENAME: the new name */
	size_t name2len;
	uint32_t getattr_flags;
	uint64_t fh;
	uint32_t sx_flags;
	uint32_t sx_mask;
	uint64_t nlookup;	/* FORGET, BATCH_FORGET: sum over entries */
};

struct fc_statx_req {
	uint64_t unique;
	uint64_t nodeid;
	uint64_t fh;
	uint32_t getattr_flags;
	uint32_t sx_flags;
	uint32_t sx_mask;
};

int fc_req_decode(const void *buf, size_t len, struct fc_req *req);
int fusecount_statx_decode(const void *buf, size_t len,
			   struct fc_statx_req *out);
const char *fc_opcode_name(uint32_t opcode);

#endif /* FC_REQ_H */
