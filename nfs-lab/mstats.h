/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A mount's counters from /proc/self/mountstats (mstats.c): the NFS
 * client's side of a case, beside knfsd's (lab.h, struct nfsd_counts).
 */
#ifndef NFS_LAB_MSTATS_H
#define NFS_LAB_MSTATS_H

#include <stdint.h>

#define MSTATS_OPS 128
#define MSTATS_EVENTS 27

struct mstats_op {
	char name[24];
	uint64_t ops;
	uint64_t trans;
	uint64_t rtt_ms;	/* summed over the ops, each ms rounded down */
};

struct mstats {
	uint64_t events[MSTATS_EVENTS];
	struct mstats_op op[MSTATS_OPS];
	unsigned int nops;
};

extern const char *const mstats_event_names[MSTATS_EVENTS];

int mstats_read(const char *mnt, struct mstats *m);

#endif /* NFS_LAB_MSTATS_H */
