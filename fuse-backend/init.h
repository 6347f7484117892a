/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fusecount: INIT flags libfuse does not know.  libfuse writes the INIT
 * reply itself; a flag it has no name for (FUSE_DONT_SYNC_ENTRIES and
 * FUSE_STATX_CHANGE_COOKIE, from the patched kernel) is added to that
 * reply on its way out, and only when the kernel offered it in the
 * request.
 */
#ifndef FC_INIT_H
#define FC_INIT_H

#include "fuse_abi.h"

/* The patched kernel's flag; a stock header has no name for it */
#ifndef FUSE_DONT_SYNC_ENTRIES
#define FUSE_DONT_SYNC_ENTRIES	(1ULL << 63)
#endif

bool fc_init_offers(const void *req, size_t len, uint64_t flag);
bool fc_init_grant(void *reply, size_t len, uint64_t flag);

#endif /* FC_INIT_H */
