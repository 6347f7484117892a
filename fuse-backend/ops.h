/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fusecount, ops.c: the daemon's state, reached from requests through
 * fuse_req_userdata(), and the fuse_lowlevel_ops handlers.  Calls inode,
 * stats and trace.
 */
#ifndef FC_OPS_H
#define FC_OPS_H

#include "inode.h"
#include "stats.h"
#include "trace.h"
#include <sys/types.h>

enum fc_rdp {
	FC_RDP_AUTO,
	FC_RDP_ON,
	FC_RDP_OFF,
};

struct fc_data {
	double entry_timeout;		/* immutable after startup */
	double attr_timeout;		/* immutable after startup */
	double negative_timeout;	/* immutable after startup */
	enum fc_rdp readdirplus;	/* immutable after startup */
	unsigned int delay_us;		/* atomic: the ctl thread sets it */
	bool nostatx;			/* immutable after startup */
	uint32_t statx_drop;		/* immutable after startup */
	uid_t deny_uid;			/* immutable; FC_NO_UID: nobody */
	bool dont_sync_entries;		/* immutable: FUSE_DONT_SYNC_ENTRIES */
	bool change_cookie;		/* immutable: FUSE_STATX_CHANGE_COOKIE */
	uint32_t time_gran;		/* immutable: INIT's time_gran, 0 none */
	bool debug;			/* immutable after startup */
	struct fc_itable itable;
	struct fc_stats stats;
	struct fc_trace trace;
};

#define FC_NO_UID	((uid_t)-1)	/* no uid: setuid(2)'s "unchanged" */

int fc_data_init(struct fc_data *d, int root_fd);
void fc_data_destroy(struct fc_data *d);

extern const struct fuse_lowlevel_ops fc_oper;

#endif /* FC_OPS_H */
