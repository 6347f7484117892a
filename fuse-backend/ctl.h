/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fusecount, ctl.c: the control socket, one command per line, served by a
 * thread of its own.  Calls stats, trace and sbuf.
 */
#ifndef FC_CTL_H
#define FC_CTL_H

#include "sbuf.h"
#include "stats.h"
#include "trace.h"
#include <pthread.h>
#include <sys/types.h>

#define FC_CTL_LINE_MAX	256	/* longest command, without '\n' */
enum fc_ctl_op {
	FC_CTL_STATS,
	FC_CTL_RESET,
	FC_CTL_TRACE_ON,
	FC_CTL_TRACE_OFF,
	FC_CTL_DUMP,
	FC_CTL_DELAY,
};

#define FC_CTL_DELAY_MAX	10000000	/* us: 10 s, as -o delay_us */
#define FC_CTL_MODE		0600	/* the socket: its owner only */
#define FC_CTL_CLIENTS		16	/* clients served at once */

struct fc_ctl_srv;

struct fc_ctl {
	int lfd;		/* listening socket, -1 when closed */
	int stop[2];		/* pipe: closing stop[1] stops the thread */
	pthread_t thread;
	struct fc_ctl_srv *srv;	/* the thread's clients */
	bool running;
	bool made_dir;		/* we created dir: rmdir it at close */
	char path[108];		/* sizeof(sun_path) */
	char dir[108];		/* path's directory */
	struct fc_stats *stats;
	struct fc_trace *trace;
	unsigned int *delay_us;	/* set by "delay"; NULL: refused */
};

int fc_ctl_parse(const char *line, size_t len, enum fc_ctl_op *op,
		 unsigned int *arg, const char **why);
void fc_ctl_line(struct fc_ctl *c, const char *line, size_t len,
		 struct fc_sb *out);
int fc_ctl_open(struct fc_ctl *c, const char *path, mode_t mode,
		struct fc_stats *stats, struct fc_trace *trace);
int fc_ctl_start(struct fc_ctl *c);
void fc_ctl_close(struct fc_ctl *c);

#endif /* FC_CTL_H */
