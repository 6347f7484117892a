/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fusecount, loop.c: our own session loop and workers, so that FUSE_STATX
 * can be intercepted, and the custom io that sees every reply.  Calls
 * req, stats, trace, statx and ops' state.
 */
#ifndef FC_LOOP_H
#define FC_LOOP_H

#include "ops.h"
#include <sys/uio.h>

extern const struct fuse_custom_io fc_io;
ssize_t fc_io_writev(int fd, struct iovec *iov, int count, void *userdata);
int fc_loop_run(struct fuse_session *se, struct fc_data *d,
		unsigned int nthreads);

#endif /* FC_LOOP_H */
