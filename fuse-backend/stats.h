/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fusecount, stats.c: per-opcode counters, bumped once per request, and
 * their JSON.  Calls req and sbuf.
 */
#ifndef FC_STATS_H
#define FC_STATS_H

#include "req.h"
#include "sbuf.h"
#include <stdatomic.h>

#define FC_MASK_SLOTS	16	/* distinct FUSE_STATX masks counted */

enum fc_sync {
	FC_SYNC_AS_STAT,
	FC_SYNC_FORCE,
	FC_SYNC_DONT,
	FC_SYNC_INVALID,	/* both FORCE and DONT: statx(2) refuses it */
	FC_SYNC_NR,
};

struct fc_mask_slot {
	atomic_uint_fast64_t key;	/* sx_mask + 1; 0 while free */
	atomic_uint_fast64_t count;
};

struct fc_stats {
	atomic_uint_fast64_t op[FC_NR_OPCODES + 1];	/* last: the rest */
	atomic_uint_fast64_t total;
	atomic_uint_fast64_t sync[FC_SYNC_NR];
	struct fc_mask_slot mask[FC_MASK_SLOTS];
	atomic_uint_fast64_t mask_other;	/* masks beyond the slots */
	atomic_uint_fast64_t nlookup;		/* forgotten lookups */
};
enum fc_sync fc_sync_mode(uint32_t sx_flags);
void fc_stats_count(struct fc_stats *s, struct fc_req *req);
void fc_stats_reset(struct fc_stats *s);
uint64_t fc_stats_get(struct fc_stats *s, uint32_t opcode);
void fc_stats_json(struct fc_stats *s, struct fc_sb *sb);

#endif /* FC_STATS_H */
