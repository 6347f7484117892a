/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command line model of statx-probe.
 *
 * Everything here is pure: parsing fills a struct and, on error, a
 * message buffer.  Nothing is printed, so the unit tests can drive it.
 */
#ifndef PROBE_ARGS_H
#define PROBE_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "probe_compat.h"

#define PROBE_PROG	"statx-probe"
#define PROBE_ERRLEN	256

enum probe_call {
	PROBE_CALL_STAT,
	PROBE_CALL_LSTAT,
	PROBE_CALL_FSTAT,
	PROBE_CALL_FSTATAT,
	PROBE_CALL_STATX,
};

enum probe_sync {
	PROBE_SYNC_AS_STAT,
	PROBE_SYNC_FORCE,
	PROBE_SYNC_DONT,
};

struct probe_args {
	enum probe_call call;
	enum probe_sync sync;
	unsigned int mask;		/* statx request mask */
	unsigned int extra_flags;	/* raw bits from --flags */
	bool mask_given;
	bool sync_given;
	bool flags_given;
	bool nofollow;
	bool no_automount;
	bool empty_path;
	bool json;
	bool quiet;
	bool help;
	unsigned int repeat;
	const char *path;
};

int probe_parse_args(struct probe_args *args, int argc, char *const argv[],
		     char *err, size_t errlen);
int probe_parse_mask(const char *spec, unsigned int *mask,
		     char *err, size_t errlen);
int probe_parse_sync(const char *name, enum probe_sync *sync);
int probe_parse_call(const char *name, enum probe_call *call);

int probe_opt_error(int ret, char *const argv[], char *err, size_t errlen);

const char *probe_call_name(enum probe_call call);
const char *probe_sync_name(enum probe_sync sync);
unsigned int probe_at_flags(const struct probe_args *args);

const char *probe_usage(void);

#endif /* PROBE_ARGS_H */
