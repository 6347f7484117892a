/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lab's one runner (run.c), inside the client guest: for each case
 * of its plan it lets the file system's backend set the case up, brings
 * the caches to the case's state, makes the measured call between two
 * readings of the backend's counters and prints the case's results line
 * ("@case {JSON}", bench/README.md). A file system is a backend: the
 * operations below, in one file (fs_fuse.c; nfs-lab/labcase.c for NFS),
 * whose main() calls lab_run_main().
 */
#ifndef LAB_RUN_H
#define LAB_RUN_H

#include <getopt.h>

#include "plan.h"

/* What a runner knows while a case runs; the backend fills in paths. */
struct lab_run {
	const struct lab_backend *be;
	const struct lab_fs *fs;
	const char *kernel;	/* its label, for the results */
	struct lab_plan plan;
	int index;		/* the case's index in the plan */
	/*
	 * Which of the case's worlds the backend works on: 0 for a run set
	 * up and measured alone, 1 and up for the runs an expiry batch
	 * primes together (see lab_backend.select).
	 */
	int world;
	long budget_us;		/* a delayed case's limit; 0: none */
	char path[160];		/* syscall: the object */
	char at_dir[160];	/* fstatat: its directory ... */
	char at_name[96];	/* ... and its path below that */
	char mnt[96];		/* the mount (cmd: $MNT) */
	char dir[160];		/* ls: the directory; deep: the tree */
	void *priv;		/* the backend's */
};

/* Each operation returns 0 or -1 (after saying why on stderr). */
struct lab_backend {
	const char *prog;	/* its messages' prefix */
	const char *fs0;	/* --fs when not given, or NULL */
	bool prime_with_call;	/* warm up by the measured call (not stat) */
	/*
	 * A repeat may count other calls (NFS: an attribute times out while
	 * a listing runs): such a run is left out of the times, not an error.
	 */
	bool counts_vary;
	/*
	 * It runs in a lab guest: its clock is checked against the host's
	 * (QEMU's RTC) before the first case and over the whole lane.
	 */
	bool in_guest;
	int (*start)(struct lab_run *r);
	void (*stop)(struct lab_run *r);
	/* the case's objects and mount; the paths of struct lab_run */
	int (*setup)(struct lab_run *r, const struct lab_case *k);
	void (*teardown)(struct lab_run *r, const struct lab_case *k);
	/* after the warm-up: expired (wait), changed (behind our back) */
	int (*age)(struct lab_run *r, const struct lab_case *k);
	/*
	 * How long the warm-up's attributes stay valid on the case's mount,
	 * in ms: the shortest timeout that the call relies on, 0 for none
	 * (noac, timeouts of 0). NULL: the runner cannot check the state.
	 */
	unsigned int (*valid_ms)(const struct lab_case *k);
	/*
	 * Expiry batches (optional, both or neither): a backend that can
	 * hold several worlds at once (r->world names them) lets the runner
	 * set up and warm several expired cases, wait once and measure each.
	 * expire_ms: how long age() of an expired case waits; a case is
	 * batched with others of the same wait, and its age() must do
	 * nothing but that wait (not a scan: it changes files first).
	 * select: make r->world of @k the one the next operations act on
	 * (its paths in struct lab_run, the backend's own state).
	 */
	unsigned int (*expire_ms)(const struct lab_case *k);
	void (*select)(struct lab_run *r, const struct lab_case *k);
	/*
	 * How long a batch may prime (optional; 0 or NULL: no limit): its
	 * first world waits that much longer, and an expired state may end
	 * (NFS's statx_cached_access=N trusts ACCESS answers N s past the
	 * expiry).
	 */
	unsigned int (*batch_span_ms)(void);
	int (*delay)(struct lab_run *r, unsigned int ms);
	/* counters before the call; after it, as ",KEY:..." JSON on @f */
	int (*count)(struct lab_run *r);
	long (*counted)(struct lab_run *r, const struct lab_case *k, FILE *f);
	/* more keys of a case: ",KEY:VALUE" (may be NULL) */
	void (*keys)(struct lab_run *r, const struct lab_case *k, FILE *f);
	/* the backend's own options (getopt_long), or NULL */
	const struct option *opts;
	int (*opt)(struct lab_run *r, int opt, const char *arg);
};

int lab_run_main(int argc, char *argv[], const struct lab_backend *be);
const char *lab_run_kernel_line(const struct lab_run *r);

#endif /* LAB_RUN_H */
