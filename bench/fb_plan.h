/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The FUSE matrix of the lab as data: every case fusebench runs, in
 * order, and the keys each one writes to results.json. Pure: the host
 * runs `fusebench --plan` to learn how many cases a guest will report.
 */
#ifndef FB_PLAN_H
#define FB_PLAN_H

#include <stdbool.h>
#include <stdio.h>

enum fb_workload { FB_SYSCALL, FB_LS, FB_DEEP };
enum fb_cache { FB_COLD, FB_WARM, FB_EXPIRED };

/* The deep-path tree: DEPTH levels of FANOUT directories, FILES per leaf. */
#define FB_DEEP_DEPTH	4
#define FB_DEEP_FANOUT	2
#define FB_DEEP_FILES	4
#define FB_DEEP_N	(16 * FB_DEEP_FILES)	/* FANOUT^DEPTH leaves */

/* Mount options by cache state; "perm" adds default_permissions. */
#define FB_OPTS_CACHED	"entry_timeout=60,attr_timeout=60"
#define FB_OPTS_EXPIRED	"entry_timeout=0,attr_timeout=0"
#define FB_OPTS_PERM	FB_OPTS_EXPIRED ",default_permissions"

struct fb_case {
	enum fb_workload workload;
	enum fb_cache cache;
	const char *call;	/* stat lstat fstatat statx ls gnu-ls lsx */
	const char *form;	/* ls forms; NULL for the other workloads */
	const char *sync;	/* as-stat dont force */
	const char *mask;	/* statx mask spec; NULL when the tool decides */
	const char *object;	/* file dir symlink deep */
	char opts[96];		/* fusecount -o, without ctl= and delay_us= */
	unsigned int n;		/* entries listed, files walked, or 1 */
	unsigned int delay_us;
	int base;		/* the delay-0 twin (ls), or -1 */
};

struct fb_plan {
	struct fb_case *cases;
	int count;
	int cap;
};

struct fb_plan_opts {
	bool quick;
	unsigned int only_n;	/* ls: this N only (0: the plan's) */
};

int fb_plan_build(struct fb_plan *plan, const struct fb_plan_opts *o);
void fb_plan_free(struct fb_plan *plan);
const char *fb_cache_name(enum fb_cache cache);
const char *fb_workload_name(enum fb_workload w);
void fb_case_keys(FILE *f, const char *kernel, const struct fb_case *c);
bool fb_case_primed(const struct fb_case *c);

#endif /* FB_PLAN_H */
