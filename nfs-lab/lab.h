/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared between labctl (server guest) and labcase (client guest): the
 * lab link's addresses, the control protocol's limits, a bounded string
 * builder and knfsd's counters (/proc/net/rpc/nfsd) by name. The deep
 * tree's shape is the case model's (bench/case.h).
 */
#ifndef NFS_LAB_H
#define NFS_LAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LAB_SERVER_ADDR "10.0.2.1"
#define LAB_CLIENT_ADDR "10.0.2.2"
#define LAB_CTL_PORT 7070
#define LAB_NFS_PORT 2049
#define LAB_EXPORT "/export"
#define LAB_LINE_MAX 512 /* one request line, with its '\n' */
#define LAB_REPLY_MAX 8192 /* one reply line, with its '\n' */

/* NFSv3 procedures 0..21 and NFSv4 operations 3..75 (REMOVEXATTR). */
#define NFSD_V3_PROCS 22
#define NFSD_V4_OPS 76

struct nfsd_counts {
	uint64_t v3[NFSD_V3_PROCS];
	uint64_t v4null;
	uint64_t compound;
	uint64_t op[NFSD_V4_OPS];
};

extern const char *const nfsd_v3_names[NFSD_V3_PROCS];
extern const char *const nfsd_v4_names[NFSD_V4_OPS];

/* A string that never overflows: a write that does not fit sets @full. */
struct lab_buf {
	char *s;
	size_t len;
	size_t size;
	bool full;
};

void buf_init(struct lab_buf *b, char *s, size_t size);
void buf_printf(struct lab_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

int nfsd_read(struct nfsd_counts *c);
void nfsd_json(struct lab_buf *b, const struct nfsd_counts *c);
int nfsd_parse_json(const char *s, struct nfsd_counts *c);

#endif /* NFS_LAB_H */
