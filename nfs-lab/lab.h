/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared between labctl (server guest) and labcase (client guest): the
 * lab link's addresses, the control protocol's limits, a bounded string
 * builder and knfsd's counters (/proc/net/rpc/nfsd) by name.
 */
#ifndef NFS_LAB_H
#define NFS_LAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LAB_SERVER_ADDR "10.0.2.1"
#define LAB_CLIENT_ADDR "10.0.2.2"
#define LAB_CTL_PORT 7070
#define LAB_EXPORT "/export"
#define LAB_LINE_MAX 512 /* one request line, with its '\n' */
#define LAB_REPLY_MAX 8192 /* one reply line, with its '\n' */

/*
 * The deep tree (workload=deep), the shape of bench's FUSE one:
 * tree/a?/b?/c?/d?/f0..f3, 4 levels of 2 directories, 64 files.
 */
#define LAB_DEEP_DEPTH 4
#define LAB_DEEP_LEAVES 16 /* 2^LAB_DEEP_DEPTH */
#define LAB_DEEP_FILES 4 /* per leaf directory */
#define LAB_DEEP_N (LAB_DEEP_LEAVES * LAB_DEEP_FILES)

/* Leaf @leaf's directory below @root, "ROOT/a0/b1/c0/d1", into @p. */
static inline void lab_deep_leaf(char *p, size_t len, const char *root,
				 unsigned int leaf)
{
	size_t n = (size_t)snprintf(p, len, "%s", root);
	unsigned int lvl;

	for (lvl = 0; lvl < LAB_DEEP_DEPTH && n < len; lvl++)
		n += (size_t)snprintf(p + n, len - n, "/%c%u", 'a' + lvl,
				      (leaf >> (LAB_DEEP_DEPTH - 1 - lvl)) & 1);
}

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
void buf_json_str(struct lab_buf *b, const char *s);

int nfsd_read(struct nfsd_counts *c);
void nfsd_json(struct lab_buf *b, const struct nfsd_counts *c);
int nfsd_parse_json(const char *s, struct nfsd_counts *c);

#endif /* NFS_LAB_H */
