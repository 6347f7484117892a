/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The planner: each file system's matrix (quick and full) as cases of
 * the one model (case.h), and the per-case time budget. A file system is
 * one row of lab_fss[] (plan.c): its matrix file (bench/matrix/), the
 * mount options of a case line without opts=, its lane, and how
 * results.json shows its options.
 */
#ifndef LAB_PLAN_H
#define LAB_PLAN_H

#include "case.h"

struct lab_fs;

struct lab_plan {
	const struct lab_fs *fs;	/* the file system it is for */
	struct lab_case *cases;
	int count;
	int cap;
	bool dedup;		/* drop a case line seen before */
};

struct lab_plan_opts {
	bool quick;
	unsigned int only_n;	/* ls: this N only (0: the plan's) */
};

struct lab_fs {
	const char *name;	/* fuse, nfs3, nfs4.1, nfs4.2 */
	const char *opts0;	/* a case line's options without opts= */
	const char *matrix;	/* bench/matrix/FS.matrix's text */
	const char *lane;	/* "guest" or "pair" (bench/lab) */
	void (*mount_opts)(char *buf, size_t len, const struct lab_fs *fs,
			   const struct lab_case *k);
};

/* The matrices, built from bench/matrix/ (matrix.c, generated) */
extern const char lab_matrix_fuse[];
extern const char lab_matrix_nfs[];

const struct lab_fs *lab_fs_find(const char *name);
const struct lab_fs *lab_fs_at(unsigned int i);
int lab_plan_build(struct lab_plan *p, const struct lab_fs *fs,
		   const struct lab_plan_opts *o);
int lab_plan_read(struct lab_plan *p, const struct lab_fs *fs, FILE *f,
		  char *err, size_t errlen);
void lab_plan_free(struct lab_plan *p);
bool lab_over_budget(const struct lab_plan *p, const struct lab_case *k,
		     const long *calls, long budget_us, char *why,
		     size_t len);

#endif /* LAB_PLAN_H */
