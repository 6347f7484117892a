// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the control protocol: fc_ctl_parse() on any line,
 * then fc_ctl_line(), which runs the command against live counters and a
 * trace as the socket thread would.  Every input gets exactly one reply
 * that ends in a newline, and it is an error exactly when parsing failed.
 */
#include <errno.h>
#include <string.h>

#include "ctl.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct fc_stats stats;
static struct fc_trace trace;
static unsigned int delay_us;
static struct fc_ctl ctl = { .stats = &stats, .trace = &trace,
			     .delay_us = &delay_us };

static void fill(void)
{
	struct fc_req req = { .opcode = FUSE_LOOKUP, .has = FC_HAS_NAME,
			      .name = "x\"\\\xff", .namelen = 4 };
	struct fc_reply rep = { .replied = true, .error = -2 };
	int i;

	for (i = 0; i < 3; i++) {
		fc_stats_count(&stats, &req);
		fc_trace_record(&trace, &req, &rep);
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fc_stats_reset(&stats);
	if (fc_trace_init(&trace))
		__builtin_trap();
	fill();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *line = (const char *)data, *why = NULL;
	enum fc_ctl_op op;
	unsigned int arg = 0;
	struct fc_sb out;
	int err;

	err = fc_ctl_parse(line, size, &op, &arg, &why);
	if (err ? err != -EINVAL || !why : why || size > FC_CTL_LINE_MAX ||
		  memchr(line, '\0', size) || arg > FC_CTL_DELAY_MAX)
		__builtin_trap();

	fc_sb_init(&out);
	fc_ctl_line(&ctl, line, size, &out);
	if (!out.len || out.buf[out.len - 1] != '\n' ||
	    !err != !!strncmp(out.buf, "error: ", 7) ||
	    (err && memchr(out.buf, '\n', out.len) != out.buf + out.len - 1))
		__builtin_trap();
	fc_sb_free(&out);
	if (!err && op == FC_CTL_RESET)
		fill();
	return 0;
}
