// SPDX-License-Identifier: GPL-2.0
/*
 * statx-probe - make one stat-family call on a path and print the result.
 *
 * Built for poking at network filesystems from inside the lab guests:
 * every knob of statx(2) is reachable from the command line, including
 * invalid flag combinations, and the output is either test-statx style
 * text or a single JSON line for the matrix runner.
 *
 * Exit status: 0 the call succeeded, 1 it failed, 2 usage error or no
 * such PATH (ENOENT: bad input, though its JSON is printed all the same).
 * Every error is one line on stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lab_errname.h"
#include "probe_args.h"
#include "probe_fmt.h"

#define EXIT_CALL_FAILED	1
#define EXIT_USAGE		2

/* No such PATH is bad input, as a bad option is; other errors are results */
static int failure_status(int err)
{
	return err == ENOENT ? EXIT_USAGE : EXIT_CALL_FAILED;
}

/*
 * Straight to the kernel: glibc's statx() quietly emulates the call
 * with fstatat() when the kernel says ENOSYS, which would hide the very
 * thing a probe is for.
 */
static int raw_statx(int dirfd, const char *path, unsigned int flags,
		     unsigned int mask, struct statx *stx)
{
	return (int)syscall(SYS_statx, dirfd, path, flags, mask, stx);
}

/* The call's dirfd and pathname: an O_PATH fd and "" for --empty-path. */
struct probe_target {
	int dirfd;
	const char *name;
	int fd;
};

static int call_once(const struct probe_args *args,
		     const struct probe_target *tgt, unsigned int flags,
		     struct statx *stx)
{
	struct stat st;
	int ret;

	switch (args->call) {
	case PROBE_CALL_STATX:
		ret = raw_statx(tgt->dirfd, tgt->name, flags, args->mask, stx);
		return ret ? errno : 0;
	case PROBE_CALL_STAT:
		ret = stat(args->path, &st);
		break;
	case PROBE_CALL_LSTAT:
		ret = lstat(args->path, &st);
		break;
	case PROBE_CALL_FSTAT:
		ret = fstat(tgt->fd, &st);
		break;
	case PROBE_CALL_FSTATAT:
		ret = fstatat(tgt->dirfd, tgt->name, &st, (int)flags);
		break;
	default:
		return EINVAL;
	}
	if (ret)
		return errno;
	probe_stat_to_statx(&st, stx);
	return 0;
}

static void fill_report(struct probe_report *rep,
			const struct probe_args *args)
{
	bool is_statx = args->call == PROBE_CALL_STATX;

	rep->call = probe_call_name(args->call);
	rep->path = args->path;
	/* stat() and friends behave as statx(BASIC_STATS, SYNC_AS_STAT). */
	rep->request_mask = is_statx ? args->mask : STATX_BASIC_STATS;
	rep->sync = probe_sync_name(is_statx ? args->sync : PROBE_SYNC_AS_STAT);
	rep->flags = probe_at_flags(args);
}

static void report_failure(const struct probe_args *args, const char *op,
			   int err)
{
	struct probe_report rep;
	char name[32];

	lab_errlabel(err, name, sizeof(name));
	fprintf(stderr, "%s: %s(%s): %s (%s)\n", PROBE_PROG, op, args->path,
		name, strerror(err));
	if (args->json && !args->quiet) {
		fill_report(&rep, args);
		probe_print_json_error(stdout, &rep, err);
	}
}

static void report_success(const struct probe_args *args,
			   const struct statx *stx)
{
	struct probe_report rep;

	if (args->quiet)
		return;
	fill_report(&rep, args);
	if (args->json)
		probe_print_json(stdout, &rep, stx);
	else
		probe_print_text(stdout, &rep, stx);
}

/* fstat and --empty-path work on an O_PATH descriptor for PATH. */
static int open_target(const struct probe_args *args,
		       struct probe_target *tgt)
{
	int oflags = O_PATH | O_CLOEXEC;

	tgt->dirfd = AT_FDCWD;
	tgt->name = args->path;
	tgt->fd = -1;
	if (args->call != PROBE_CALL_FSTAT && !args->empty_path)
		return 0;
	if (args->nofollow)
		oflags |= O_NOFOLLOW;
	tgt->fd = open(args->path, oflags);
	if (tgt->fd < 0)
		return errno;
	if (args->empty_path) {
		tgt->dirfd = tgt->fd;
		tgt->name = "";
	}
	return 0;
}

static int run_probe(const struct probe_args *args)
{
	unsigned int flags = probe_at_flags(args);
	struct probe_target tgt;
	struct statx stx;
	unsigned int i;
	int err;

	err = open_target(args, &tgt);
	if (err) {
		report_failure(args, "open", err);
		return failure_status(err);
	}
	for (i = 0; i < args->repeat; i++) {
		memset(&stx, 0, sizeof(stx));
		err = call_once(args, &tgt, flags, &stx);
		if (err)
			break;
	}
	if (tgt.fd >= 0)
		close(tgt.fd);
	if (err) {
		report_failure(args, probe_call_name(args->call), err);
		return failure_status(err);
	}
	report_success(args, &stx);
	return 0;
}

int main(int argc, char *argv[])
{
	struct probe_args args;
	char err[PROBE_ERRLEN];
	int status;

	if (probe_parse_args(&args, argc, argv, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", PROBE_PROG, err);
		return EXIT_USAGE;
	}
	if (args.help) {
		fputs(probe_usage(), stdout);
		return 0;
	}
	status = run_probe(&args);
	/* A result that never reached the reader is not a success. */
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "%s: write error: %s\n", PROBE_PROG,
			strerror(errno));
		return EXIT_CALL_FAILED;
	}
	return status;
}
