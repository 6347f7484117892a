/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared between labctl (server guest) and labcase (client guest): the
 * lab link's addresses, the control protocol's limits, a bounded string
 * builder and knfsd's counters as the protocol's JSON (counters.c; the
 * counters themselves are lib/lab_nfs.h's). The deep tree's shape is the
 * case model's (bench/case.h).
 */
#ifndef NFS_LAB_H
#define NFS_LAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lab_nfs.h"

#define LAB_SERVER_ADDR "10.0.2.1"
#define LAB_CLIENT_ADDR "10.0.2.2"
#define LAB_CTL_PORT 7070
#define LAB_NFS_PORT 2049
#define LAB_EXPORT "/export"
#define LAB_LINE_MAX 512 /* one request line, with its '\n' */
#define LAB_REPLY_MAX 8192 /* one reply line, with its '\n' */

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

void nfsd_json(struct lab_buf *b, const struct nfsd_counts *c);
int nfsd_parse_json(const char *s, struct nfsd_counts *c);

#endif /* NFS_LAB_H */
