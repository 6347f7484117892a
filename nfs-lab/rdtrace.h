/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the NFS client decided while it listed a directory, from its own
 * readdir tracepoints (fs/nfs/nfstrace.h, in 6.1 and 6.12 alike), read
 * through tracefs in the client guest (rdtrace.c).
 */
#ifndef NFS_LAB_RDTRACE_H
#define NFS_LAB_RDTRACE_H

#include <stdbool.h>
#include <stdio.h>

struct rdtrace_counts {
	unsigned long fills;	/* readdir replies into the page cache */
	unsigned long uncached;	/* readdir replies read past the cache */
	unsigned long forced;	/* the "ls -l" heuristic restarted with plus */
	unsigned long primed;	/* entries whose attributes came with them */
	bool lost;		/* the buffer overran: the counts are short */
};

int rdtrace_start(void);
void rdtrace_clear(void);
int rdtrace_read(struct rdtrace_counts *c);
void rdtrace_json(FILE *f, const struct rdtrace_counts *c);

#endif /* NFS_LAB_RDTRACE_H */
