// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for fc_req_decode(), which reads every request the
 * loop receives before libfuse does: names, getattr and statx arguments,
 * forget counts.  Decoded names must lie inside the buffer (ASan checks
 * the reads, and the trace copies them), and the request is counted and
 * traced as in the loop.
 */
#include <errno.h>
#include <string.h>

#include "stats.h"
#include "trace.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct fc_stats stats;
static struct fc_trace trace;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fc_stats_reset(&stats);
	return fc_trace_init(&trace) ? -1 : 0;
}

static bool inside(const uint8_t *data, size_t size, const char *p,
		   size_t len)
{
	const uint8_t *q = (const uint8_t *)p;

	return q >= data && len < size && q + len < data + size && !q[len];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fc_reply rep = { .replied = true };
	struct fc_req req;
	struct fc_sb sb;
	int err;

	err = fc_req_decode(data, size, &req);
	if (err && (err != -EINVAL || req.has))
		__builtin_trap();
	if (!err && req.len != size)
		__builtin_trap();
	if ((req.has & FC_HAS_NAME) &&
	    !inside(data, size, req.name, req.namelen))
		__builtin_trap();
	if ((req.has & FC_HAS_NAME2) &&
	    !inside(data, size, req.name2, req.name2len))
		__builtin_trap();

	fc_stats_count(&stats, &req);
	fc_trace_record(&trace, &req, &rep);
	if (req.seq % 8192 == 0) {
		fc_sb_init(&sb);
		fc_trace_dump(&trace, &sb);
		fc_sb_free(&sb);
	}
	return 0;
}
