/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fusecount, statx.c: the answer to FUSE_STATX, which libfuse 3.14 does not
 * know.  Builds the reply; loop.c sends it.  Calls req, inode and ops'
 * state.
 */
#ifndef FC_STATX_H
#define FC_STATX_H

#include "ops.h"
#include "req.h"
#include <sys/stat.h>

struct fc_statx_reply {
	struct fuse_out_header hdr;
	struct fuse_statx_out out;
};

void fc_statx_build(struct fc_statx_reply *rep, uint64_t unique,
		    const struct statx *stx, double timeout);
void fc_statx_drop(struct fuse_statx *sx, uint32_t drop);
void fc_statx_cookie(struct fuse_statx *sx, const struct statx *stx);
uint32_t fc_statx_time_gran(int fd);
size_t fc_statx_answer(struct fc_data *d, const void *buf, size_t len,
		       struct fc_statx_reply *rep);

#endif /* FC_STATX_H */
