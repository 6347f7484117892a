// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for fusecount_statx_decode(): any bytes may arrive
 * where a FUSE_STATX request is expected.  Only an exact, consistent
 * request may decode, and its reply is always the 304 bytes the kernel
 * accepts, whatever the timeout.
 */
#include <errno.h>
#include <string.h>

#include "statx.h"

#define EXACT	(sizeof(struct fuse_in_header) + \
		 sizeof(struct fuse_statx_in))

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fc_statx_reply rep;
	struct fuse_in_header in;
	struct fc_statx_req rq;
	struct statx stx;
	double timeout;
	int err;

	err = fusecount_statx_decode(data, size, &rq);
	if (err && err != -EINVAL)
		__builtin_trap();
	if (err)
		return 0;

	memcpy(&in, data, sizeof(in));
	if (size != EXACT || in.len != size || in.opcode != FUSE_STATX ||
	    in.total_extlen || rq.unique != in.unique)
		__builtin_trap();

	memset(&stx, 0, sizeof(stx));
	stx.stx_mask = rq.sx_mask;
	stx.stx_mode = S_IFREG | (rq.getattr_flags & 07777);
	stx.stx_size = rq.fh;
	memcpy(&timeout, &rq.fh, sizeof(timeout));	/* any double */
	fc_statx_build(&rep, rq.unique, &stx, timeout);
	if (rep.hdr.len != 304 || rep.hdr.unique != rq.unique ||
	    rep.hdr.error || rep.out.attr_valid_nsec >= 1000000000 ||
	    (rep.out.stat.mask & ~(STATX_BASIC_STATS | STATX_BTIME)))
		__builtin_trap();
	return 0;
}
