/* SPDX-License-Identifier: GPL-2.0 */
/*
 * labcase: the client guest's case runner. A case is one line of
 * "key=value" words (see README.md, "Cases"); case.c parses it,
 * matrix.c writes the lab's matrices as such lines, mstats.c reads the
 * client's per-mount counters and labcase.c runs the cases.
 */
#ifndef NFS_LAB_CASE_H
#define NFS_LAB_CASE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>

#include "lab.h"

enum case_workload { W_SYSCALL, W_LS, W_CMD, W_DEEP };

struct lab_case {
	unsigned int id;
	enum case_workload workload;
	char call[8]; /* stat, lstat, fstatat, statx */
	char sync[8]; /* as-stat, dont, force (statx) */
	char mask[64]; /* as given: basic, type,ino, ... */
	unsigned int mask_bits;
	char object[8]; /* file, dir, symlink, deep */
	char cache[8]; /* cold, warm, expired, changed */
	char opts[192]; /* mount options, without vers= */
	bool nofollow; /* AT_SYMLINK_NOFOLLOW (fstatat, statx) */
	unsigned int delay_ms; /* netem on the server's link */
	unsigned int expire_ms; /* wait for "expired"; 0: from opts */
	unsigned int n; /* ls: entries in the directory; deep: files */
	char form[64]; /* ls: its arguments, ',' between them */
	char cmd[256]; /* cmd: a sh -c command */
};

int case_parse(const char *line, struct lab_case *k, char *err, size_t errlen);
const char *case_object_path(const struct lab_case *k);
unsigned int case_expire_ms(const struct lab_case *k);

int matrix_print(FILE *f, const char *name);

/* A mount's counters from /proc/self/mountstats. */
#define MSTATS_OPS 128
#define MSTATS_EVENTS 27

struct mstats_op {
	char name[24];
	uint64_t ops;
	uint64_t trans;
};

struct mstats {
	uint64_t events[MSTATS_EVENTS];
	struct mstats_op op[MSTATS_OPS];
	unsigned int nops;
};

extern const char *const mstats_event_names[MSTATS_EVENTS];

int mstats_read(const char *mnt, struct mstats *m);

struct lc_run {
	const char *kernel; /* stock, patched, optin: for the results */
	const char *vers; /* 3, 4.1, 4.2 */
	char fs[8]; /* nfs3, nfs4.1, nfs4.2 */
	bool v4;
};

/* One side's counters at one moment. */
struct lc_snap {
	struct nfsd_counts srv;
	struct mstats cli;
};

struct lc_result {
	int err; /* errno of the measured call */
	int status; /* exit status of ls or cmd */
	long long wall_us;
	struct statx stx; /* stat()'s answer converted, for stat calls */
	bool statx;
	int seen; /* changed: -1 unknown, 0 old ctime, 1 new */
};

/* Everything a case needs while it runs. */
struct lc_ctx {
	const struct lc_run *run;
	const struct lab_case *k;
	char dir[24]; /* nfsV-cN, on the server below the export */
	char mnt[32]; /* /mnt/nfsV-cN */
	char path[96]; /* the object, absolute */
	int dirfd; /* fstatat: the mount root */
	struct timespec ctime; /* the warm-up's answer */
	bool ctime_valid;
};

void report_header(void);
void report_case(const struct lc_ctx *c, const struct lc_snap *before,
		 const struct lc_snap *after, const struct lc_result *res);

#endif /* NFS_LAB_CASE_H */
