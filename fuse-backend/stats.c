// SPDX-License-Identifier: GPL-2.0
/*
 * fusecount: per-opcode request counters.  fc_stats_count() is called once
 * for every buffer read from /dev/fuse, before dispatch, so the counts are
 * exactly what the kernel sent, including opcodes we have no handler for.
 * Counters are atomics because worker threads count concurrently; relaxed
 * ordering is enough since each counter stands alone.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "stats.h"

static const char *const fc_sync_names[FC_SYNC_NR] = {
	[FC_SYNC_AS_STAT] = "as-stat",
	[FC_SYNC_FORCE] = "force",
	[FC_SYNC_DONT] = "dont",
	[FC_SYNC_INVALID] = "invalid",
};

enum fc_sync fc_sync_mode(uint32_t sx_flags)
{
	switch (sx_flags & AT_STATX_SYNC_TYPE) {
	case AT_STATX_SYNC_AS_STAT:
		return FC_SYNC_AS_STAT;
	case AT_STATX_FORCE_SYNC:
		return FC_SYNC_FORCE;
	case AT_STATX_DONT_SYNC:
		return FC_SYNC_DONT;
	default:
		return FC_SYNC_INVALID;
	}
}

static void fc_inc(atomic_uint_fast64_t *c, uint64_t n)
{
	atomic_fetch_add_explicit(c, n, memory_order_relaxed);
}

static uint64_t fc_read(atomic_uint_fast64_t *c)
{
	return atomic_load_explicit(c, memory_order_relaxed);
}

/* Find or claim the slot of @mask; NULL when all slots hold other masks */
static struct fc_mask_slot *fc_mask_slot(struct fc_stats *s, uint32_t mask)
{
	uint_fast64_t key = (uint_fast64_t)mask + 1, cur;
	int i;

	for (i = 0; i < FC_MASK_SLOTS; i++) {
		cur = atomic_load(&s->mask[i].key);
		if (cur == 0 &&
		    atomic_compare_exchange_strong(&s->mask[i].key, &cur, key))
			return &s->mask[i];
		if (cur == key)
			return &s->mask[i];
	}
	return NULL;
}

static void fc_stats_count_statx(struct fc_stats *s, const struct fc_req *req)
{
	struct fc_mask_slot *slot;

	fc_inc(&s->sync[fc_sync_mode(req->sx_flags)], 1);
	slot = fc_mask_slot(s, req->sx_mask);
	fc_inc(slot ? &slot->count : &s->mask_other, 1);
}

/**
 * fc_stats_count() - count one request; the only place counters go up
 * @s: counters
 * @req: the decoded request; its seq is set to its number since reset
 */
void fc_stats_count(struct fc_stats *s, struct fc_req *req)
{
	uint32_t slot = req->opcode < FC_NR_OPCODES ? req->opcode :
						      FC_NR_OPCODES;

	fc_inc(&s->op[slot], 1);
	req->seq = atomic_fetch_add(&s->total, 1) + 1;
	if (req->has & FC_HAS_STATX)
		fc_stats_count_statx(s, req);
	if (req->has & FC_HAS_FORGET)
		fc_inc(&s->nlookup, req->nlookup);
}

void fc_stats_reset(struct fc_stats *s)
{
	int i;

	for (i = 0; i <= FC_NR_OPCODES; i++)
		atomic_store(&s->op[i], 0);
	for (i = 0; i < FC_SYNC_NR; i++)
		atomic_store(&s->sync[i], 0);
	for (i = 0; i < FC_MASK_SLOTS; i++) {
		atomic_store(&s->mask[i].count, 0);
		atomic_store(&s->mask[i].key, 0);
	}
	atomic_store(&s->mask_other, 0);
	atomic_store(&s->nlookup, 0);
	atomic_store(&s->total, 0);
}

uint64_t fc_stats_get(struct fc_stats *s, uint32_t opcode)
{
	return fc_read(&s->op[opcode < FC_NR_OPCODES ? opcode : FC_NR_OPCODES]);
}

static void fc_stats_json_ops(struct fc_stats *s, struct fc_sb *sb)
{
	const char *name;
	uint64_t n;
	int i;

	for (i = 0; i <= FC_NR_OPCODES; i++) {
		n = fc_read(&s->op[i]);
		if (!n)
			continue;
		name = fc_opcode_name(i);
		if (name)
			fc_sb_printf(sb, "\"%s\":%llu,", name,
				     (unsigned long long)n);
		else if (i < FC_NR_OPCODES)
			fc_sb_printf(sb, "\"OP_%d\":%llu,", i,
				     (unsigned long long)n);
		else
			fc_sb_printf(sb, "\"OTHER\":%llu,",
				     (unsigned long long)n);
	}
}

static void fc_stats_json_statx(struct fc_stats *s, struct fc_sb *sb)
{
	const char *sep = "";
	uint64_t key, n;
	int i;

	fc_sb_printf(sb, "\"statx_sync\":{");
	for (i = 0; i < FC_SYNC_NR; i++) {
		n = fc_read(&s->sync[i]);
		if (i == FC_SYNC_INVALID && !n)
			continue;
		fc_sb_printf(sb, "%s\"%s\":%llu", sep, fc_sync_names[i],
			     (unsigned long long)n);
		sep = ",";
	}
	fc_sb_printf(sb, "},\"statx_mask\":{");
	sep = "";
	for (i = 0; i < FC_MASK_SLOTS; i++) {
		key = fc_read(&s->mask[i].key);
		n = fc_read(&s->mask[i].count);
		if (!key || !n)
			continue;
		fc_sb_printf(sb, "%s\"0x%llx\":%llu", sep,
			     (unsigned long long)key - 1,
			     (unsigned long long)n);
		sep = ",";
	}
	n = fc_read(&s->mask_other);
	if (n)
		fc_sb_printf(sb, "%s\"other\":%llu", sep,
			     (unsigned long long)n);
	fc_sb_printf(sb, "}");
}

/*
 * One line of JSON.  Top-level numbers are opcode counts and "total" only,
 * so that a consumer can sum or diff them without knowing other keys.
 */
void fc_stats_json(struct fc_stats *s, struct fc_sb *sb)
{
	fc_sb_printf(sb, "{");
	fc_stats_json_ops(s, sb);
	fc_sb_printf(sb, "\"total\":%llu,",
		     (unsigned long long)fc_read(&s->total));
	fc_stats_json_statx(s, sb);
	fc_sb_printf(sb, ",\"forget\":{\"nlookup\":%llu}}\n",
		     (unsigned long long)fc_read(&s->nlookup));
}
