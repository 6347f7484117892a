// SPDX-License-Identifier: GPL-2.0
/*
 * The lab's matrices, as case lines of the one model (case.h), and the
 * time budget of a delayed case. FUSE: the syscall matrix (call x sync x
 * mask x object x cache), the ls workloads (tool x form x cache x N x
 * delay) and the deep walk. NFS: the union of slices, each varying the
 * dimensions that interact (nfs-lab/README.md, "The matrix"); a case two
 * slices share runs once. The quick plans keep a subset that still holds
 * every number bench/t-guest/lab-quick.t checks.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))
#define LINE_MAX_LEN	512

/*
 * What a delayed round trip may cost beyond its label, for the budget:
 * with high-resolution timers the lab measures 0.1-0.4 ms on FUSE and
 * up to 3.4 ms with netem at 10 ms (nfs-lab/t-guest/delay.t); 4 ms keeps the
 * prediction an upper bound.
 */
#define LAB_TICK_US	4000

static const char *const syncs[] = { "as-stat", "dont", "force" };
static const char *const forms[] = { "plain", "color", "long", "inode" };
static const char *const ls_tools[] = { "ls", "gnu-ls", "lsx" };

static int plan_add(struct lab_plan *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static const struct lab_fs *plan_fs;	/* the one being built or read */

/* Is @a, at delay @delay, the case @b (but for its place in the plan)? */
static bool plan_same(const struct lab_case *a, const struct lab_case *b,
		      unsigned int delay)
{
	return delay == b->delay_ms && a->workload == b->workload &&
	       a->cache == b->cache && a->n == b->n &&
	       a->nofollow == b->nofollow && a->expire_ms == b->expire_ms &&
	       a->repeat == b->repeat && !strcmp(a->call, b->call) &&
	       !strcmp(a->form, b->form) && !strcmp(a->sync, b->sync) &&
	       !strcmp(a->mask, b->mask) && !strcmp(a->object, b->object) &&
	       !strcmp(a->opts, b->opts) && !strcmp(a->cmd, b->cmd);
}

/* Append the case of one line (unless p->dedup and seen); -1 on error. */
static int plan_add(struct lab_plan *p, const char *fmt, ...)
{
	char line[LINE_MAX_LEN], err[128];
	struct lab_case k;
	va_list ap;
	int i;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (lab_case_parse(line, plan_fs->opts0, &k, err, sizeof(err))) {
		fprintf(stderr, "labplan: bad matrix line '%s': %s\n", line,
			err);
		return -1;
	}
	for (i = 0; p->dedup && i < p->count; i++)
		if (plan_same(&k, &p->cases[i], k.delay_ms))
			return 0;
	if (p->count == p->cap) {
		int cap = p->cap ? p->cap * 2 : 256;
		void *c = realloc(p->cases, cap * sizeof(*p->cases));

		if (!c)
			return -1;
		p->cases = c;
		p->cap = cap;
	}
	k.id = p->count + 1;
	p->cases[p->count++] = k;
	return 0;
}

/* --- FUSE -------------------------------------------------------------- */

/*
 * Mount options by cache state; "perm" adds default_permissions. On the
 * expired mounts the daemon lets statx(AT_STATX_DONT_SYNC) walks reuse
 * expired entries (FUSE_DONT_SYNC_ENTRIES, offered by patched kernels
 * only): without it every kernel looks them up.
 */
#define FUSE_CACHED	"entry_timeout=60,attr_timeout=60"
#define FUSE_EXPIRED	"entry_timeout=0,attr_timeout=0,dont_sync_entries"
#define FUSE_PERM	FUSE_EXPIRED ",default_permissions"

static const char *fuse_opts(const char *cache, bool perm)
{
	if (perm)
		return FUSE_PERM;
	return strcmp(cache, "expired") ? FUSE_CACHED : FUSE_EXPIRED;
}

/* The quick plan's syscall subset. */
static bool fuse_quick_syscall(const char *call, const char *mask,
			       const char *object, bool perm)
{
	if (strcmp(call, "stat") && strcmp(call, "statx"))
		return false;
	if (strcmp(mask, "basic") && strcmp(mask, "type,ino"))
		return false;
	if (perm)
		return !strcmp(object, "deep");
	return !strcmp(object, "file") || !strcmp(object, "deep");
}

/* statx never follows the last symlink on FUSE: it is the call ls makes. */
static int fuse_syscall(struct lab_plan *p, const struct lab_plan_opts *o,
			const char *call, const char *sync, const char *mask,
			const char *object, const char *cache, bool perm)
{
	bool statx = !strcmp(call, "statx");

	if (o->quick && !fuse_quick_syscall(call, mask, object, perm))
		return 0;
	if (!statx)
		return plan_add(p, "call=%s object=%s cache=%s opts=%s", call,
				object, cache, fuse_opts(cache, perm));
	return plan_add(p, "call=statx sync=%s mask=%s nofollow=1 object=%s "
			"cache=%s opts=%s", sync, mask, object, cache,
			fuse_opts(cache, perm));
}

/*
 * Cache states in mount order: cold and warm share a mount with 60 s
 * timeouts, expired has timeouts of 0, and expired again with
 * default_permissions (the permission walk the opt-in is about).
 */
static int fuse_plan_syscall(struct lab_plan *p, const struct lab_plan_opts *o)
{
	static const char *const objects[] = { "file", "dir", "symlink",
					       "deep" };
	static const char *const masks[] = { "basic", "all", "type,ino",
					     "type,mode", "none" };
	static const char *const plain[] = { "stat", "lstat", "fstatat" };
	static const struct { const char *cache; bool perm; } states[] = {
		{ "cold", false }, { "warm", false },
		{ "expired", false }, { "expired", true },
	};
	size_t s, i, j, ob;
	int err = 0;

	for (s = 0; s < ARRAY_LEN(states); s++) {
		for (ob = 0; ob < ARRAY_LEN(objects); ob++) {
			for (i = 0; i < ARRAY_LEN(plain); i++)
				err |= fuse_syscall(p, o, plain[i], "as-stat",
						    "basic", objects[ob],
						    states[s].cache,
						    states[s].perm);
			for (i = 0; i < ARRAY_LEN(syncs); i++)
				for (j = 0; j < ARRAY_LEN(masks); j++)
					err |= fuse_syscall(p, o, "statx",
							    syncs[i], masks[j],
							    objects[ob],
							    states[s].cache,
							    states[s].perm);
		}
	}
	return err;
}

/* One ls command of the matrix: the tool, its form, lsx's sync mode. */
struct fuse_cmd {
	const char *call;
	const char *form;
	const char *sync;
};

/*
 * Which ls cases the plan has. Warm runs cost what cold ones do plus one
 * request, so they are not timed with delays, nor run at the largest N,
 * where one expired listing costs 10 s of TCG: there GNU ls in every
 * form (the ls people run), busybox ls -l and lsx -l. A delay turns a
 * count into time: 10 ms everywhere (the budget skips what it cannot
 * afford), 1 ms where it is cheap (cold up to N=1000, expired at N=100).
 * The quick plan keeps the long forms and GNU ls plain at N=100, busybox
 * ls -l cold and expired at N=1000 (the 6.1 -> 6.12 comparison's pair),
 * and times busybox ls -l at 10 ms only.
 */
static bool fuse_ls_wanted(const struct lab_plan_opts *o,
			   const struct fuse_cmd *cmd, const char *cache,
			   unsigned int n, unsigned int delay)
{
	bool warm = !strcmp(cache, "warm");
	bool lng = !strcmp(cmd->form, "long");
	bool gnu = !strcmp(cmd->call, "gnu-ls");

	if (delay && warm)
		return false;
	if (!o->quick) {
		if (n > 1000 && (warm || !(gnu || lng)))
			return false;
		if (delay == 1)
			return !strcmp(cache, "cold") ? n <= 1000 : n <= 100;
		return true;
	}
	if (n > 100)
		return lng && !strcmp(cmd->call, "ls") && !delay && !warm;
	if (!lng && !(gnu && !strcmp(cmd->form, "plain")))
		return false;
	return !delay || (delay == 10 && !strcmp(cmd->call, "ls"));
}

/* READDIRPLUS always on, cold, no delay: every command up to N=1000. */
static bool fuse_rdplus_wanted(const struct lab_plan_opts *o,
			       const struct fuse_cmd *cmd, unsigned int n)
{
	if (o->quick)
		return n == 100 && !strcmp(cmd->form, "long") &&
		       strcmp(cmd->call, "lsx");
	return n <= 1000;
}

static int fuse_ls_case(struct lab_plan *p, const struct fuse_cmd *cmd,
			const char *cache, const char *rdplus, unsigned int n,
			unsigned int delay)
{
	return plan_add(p, "workload=ls call=%s form=%s sync=%s n=%u "
			"cache=%s delay=%u opts=%s,readdirplus=%s", cmd->call,
			cmd->form, cmd->sync, n, cache, delay,
			fuse_opts(cache, false), rdplus);
}

static int fuse_cmds(struct fuse_cmd *cmds)
{
	size_t t, f;
	int k = 0;

	for (t = 0; t < ARRAY_LEN(ls_tools); t++) {
		for (f = 0; f < ARRAY_LEN(forms); f++) {
			cmds[k++] = (struct fuse_cmd){ ls_tools[t], forms[f],
						       "as-stat" };
			if (!strcmp(ls_tools[t], "lsx"))
				cmds[k++] = (struct fuse_cmd){ ls_tools[t],
							       forms[f],
							       "dont" };
		}
	}
	return k;
}

/*
 * For each N and cache state, each command at each delay (the delay-0
 * run first: its count decides whether a slow delay fits the budget).
 * Then, cold and without delay, READDIRPLUS always on.
 */
static int fuse_plan_ls(struct lab_plan *p, const struct lab_plan_opts *o)
{
	static const unsigned int ns[] = { 100, 1000, 10000 };
	static const unsigned int delays[] = { 0, 1, 10 };
	static const char *const caches[] = { "cold", "warm", "expired" };
	struct fuse_cmd cmds[16];
	int ncmd = fuse_cmds(cmds), k, err = 0;
	size_t i, c, d;

	for (i = 0; i < ARRAY_LEN(ns); i++) {
		if (o->only_n ? ns[i] != o->only_n : o->quick && ns[i] > 1000)
			continue;
		for (c = 0; c < ARRAY_LEN(caches); c++)
			for (k = 0; k < ncmd; k++)
				for (d = 0; d < ARRAY_LEN(delays); d++)
					if (fuse_ls_wanted(o, &cmds[k],
							   caches[c], ns[i],
							   delays[d]))
						err |= fuse_ls_case(p, &cmds[k],
							caches[c], "auto",
							ns[i], delays[d]);
		for (k = 0; k < ncmd; k++)
			if (fuse_rdplus_wanted(o, &cmds[k], ns[i]))
				err |= fuse_ls_case(p, &cmds[k], "cold", "on",
						    ns[i], 0);
	}
	return err;
}

/*
 * libfuse's own timeouts, a second each: what a daemon gets when it sets
 * none, the reference for ls on FUSE beside the lab's 0 and 60. Expired
 * waits the second out. busybox and GNU ls -l of N=100, whose listing
 * ends well within the second.
 */
#define FUSE_LIBFUSE	"entry_timeout=1,attr_timeout=1,dont_sync_entries"

static int fuse_plan_profiles(struct lab_plan *p)
{
	static const char *const calls[] = { "ls", "gnu-ls" };
	static const char *const caches[] = { "cold", "expired" };
	size_t i, c;
	int err = 0;

	for (i = 0; i < ARRAY_LEN(calls); i++)
		for (c = 0; c < ARRAY_LEN(caches); c++)
			err |= plan_add(p, "workload=ls call=%s form=long "
					"sync=as-stat n=100 cache=%s delay=0 "
					"opts=%s,readdirplus=auto", calls[i],
					caches[c], FUSE_LIBFUSE);
	return err;
}

static int fuse_matrix(struct lab_plan *p, const struct lab_plan_opts *o)
{
	int err = fuse_plan_syscall(p, o);
	int perm, s;

	/* statx of every file of a tree, as-stat and DONT_SYNC, expired. */
	for (perm = 0; perm < 2; perm++)
		for (s = 0; s < 2; s++)
			err |= plan_add(p, "workload=deep sync=%s "
					"cache=expired opts=%s", syncs[s],
					fuse_opts("expired", perm));
	return err | fuse_plan_ls(p, o) | fuse_plan_profiles(p);
}

/* --- NFS --------------------------------------------------------------- */

/*
 * The slices as templates: "{a|b}" stands for a case line with a, then
 * one with b, leftmost first; alternatives may hold templates. A
 * listing must end well within its attribute timeout, or it sees its
 * own attributes expire and its count depends on timing: N=1000 (about
 * 1000 round trips) and 10 ms delays get actimeo=5, 60 beyond.
 */
#define NFS_CACHES	"cache={cold|warm|expired|changed}"
#define NFS_WALKS	"{call=stat|call=statx sync=dont|call=statx sync=force}"
#define NFS_FORMS	"form={plain|color|long|inode}"
#define NFS_TOOLS	"workload=ls call={ls|gnu-ls|lsx}"

static const char *const nfs_full[] = {
	/* statx's sync modes against every cache state; the stat family */
	"call=statx sync={as-stat|dont|force} mask=basic object=deep "
	NFS_CACHES,
	"call={stat|lstat|fstatat} object=deep " NFS_CACHES,
	/* a mask can only save a round trip where there is one to save */
	"call=statx mask={all|type,ino|mode|size|btime|mtime} "
	"sync={as-stat|dont|force} object=deep cache={warm|expired}",
	/* objects in the mount's root and one level deeper; options */
	"object={file|dir|symlink|deeper} " NFS_WALKS " " NFS_CACHES,
	NFS_CACHES " {call=lstat|call=statx sync=force nofollow=1} "
	"object=symlink",
	"opts={actimeo=1,nocto|actimeo=1,lookupcache=none|"
	"actimeo=1,lookupcache=positive|"
	/* files expire after 1 s, directories stay valid for 10 */
	"actimeo=1,acdirmin=10,acdirmax=10 expire=1200} " NFS_WALKS
	" object=deep cache={warm|expired}",
	/* bench/report's ls tables: calls per file by command, form, N */
	NFS_TOOLS " {form={plain|long} n=100 cache={cold|expired}|"
	"form=long n=1000 cache={cold|expired} opts=actimeo=5}",
	"workload=ls call=lsx form=long sync=dont cache=expired "
	"{n=100|n=1000 opts=actimeo=5}",
	"workload=ls call=gnu-ls " NFS_CACHES " form={color|inode|long} n=100",
	/*
	 * Mount profiles for ls -l as users mount NFS: the kernel's own
	 * timeouts ("hard" is a default: a mount without any ac* option;
	 * expired waits out acdirmin's 30 s), and actimeo=1, which shuts the
	 * readdirplus heuristic's gate (an attribute-cache maximum over
	 * 5 s) and lets a long listing's attributes expire while it runs.
	 */
	"workload=ls call={ls|gnu-ls} form=long n={100|1000} "
	"cache={cold|expired} opts={hard|actimeo=1}",
	"workload=ls call=gnu-ls form=long n=100 cache=cold opts=noac",
	/* nordirplus: one LOOKUP per entry, on v3 and v4 alike */
	"workload=ls call=gnu-ls form=long n=100 cache={cold|expired} "
	"opts=actimeo=1,nordirplus",
	/* large directories, cold (GNU ls -l of 10000: 15 s under TCG) */
	NFS_TOOLS " " NFS_FORMS " n=1000 cache=cold opts=actimeo=5",
	"workload=ls call=gnu-ls " NFS_FORMS " n=10000 cache=cold "
	"opts=actimeo=60",
	/* statx of the 64 files 4 levels down, by their full paths */
	"workload=deep sync={as-stat|dont} cache={cold|warm|expired}",
	/* report's time tables: 10 ms per round trip, GNU ls at 1 ms */
	"cache={cold|expired} delay=10 opts=actimeo=5 {call=stat object=deep|"
	"workload=ls call={ls|gnu-ls} form=long n=100}",
	NFS_TOOLS " " NFS_FORMS " n=100 cache=cold delay=10 opts=actimeo=5",
	"workload=ls call=gnu-ls " NFS_FORMS " n=1000 cache=cold "
	"delay={10|1} opts=actimeo=60",
	"workload=ls call={ls|lsx} form=long n=1000 cache=cold delay=10 "
	"opts=actimeo=60",
};

/*
 * The reference points: the deep path in every sync mode and cache
 * state, a type,ino mask, ls -l at N=100 and 1000 (bench/report's
 * 6.1 -> 6.12 section compares them).
 */
static const char *const nfs_quick[] = {
	"call=stat object=deep cache={cold|warm|expired}",
	"call=statx sync={as-stat|dont|force} mask=basic object=deep "
	"cache={cold|warm|expired}",
	"call=statx sync=as-stat mask=type,ino object=deep "
	"cache={cold|warm|expired}",
	"call=statx sync=force mask=all object=deep cache=warm",
	"workload=ls call=gnu-ls form=long n=100 cache=cold",
	"workload=ls call=ls form=long n=100 cache=expired",
	"workload=ls call=ls form=long n=1000 cache={cold|expired} "
	"opts=actimeo=5",
	/* the kernel's own timeouts (cold: expired waits 30 s) */
	"workload=ls call={ls|gnu-ls} form=long n=1000 cache=cold opts=hard",
	"workload=deep sync=dont cache=expired",
};

/* The end of the "{...}" at @open (braces nest), or NULL. */
static const char *nfs_brace_end(const char *open)
{
	int depth = 0;

	for (; *open; open++) {
		depth += (*open == '{') - (*open == '}');
		if (!depth)
			return open;
	}
	return NULL;
}

/* Add the case lines a template stands for, in order. */
static int nfs_expand(struct lab_plan *p, const char *t)
{
	const char *open = strchr(t, '{'), *end, *alt, *bar;
	char line[LINE_MAX_LEN];
	int depth, err = 0;

	if (!open)
		return plan_add(p, "%s", t);
	end = nfs_brace_end(open);
	if (!end)
		return -1;
	for (alt = open + 1; alt <= end && !err; alt = bar + 1) {
		for (bar = alt, depth = 0; bar < end; bar++) {
			depth += (*bar == '{') - (*bar == '}');
			if (!depth && *bar == '|')
				break;
		}
		snprintf(line, sizeof(line), "%.*s%.*s%s", (int)(open - t), t,
			 (int)(bar - alt), alt, end + 1);
		err = nfs_expand(p, line);
	}
	return err;
}

static int nfs_matrix(struct lab_plan *p, const struct lab_plan_opts *o)
{
	const char *const *t = o->quick ? nfs_quick : nfs_full;
	size_t i, n = o->quick ? ARRAY_LEN(nfs_quick) : ARRAY_LEN(nfs_full);
	int err = 0;

	p->dedup = true;
	for (i = 0; i < n; i++)
		err |= nfs_expand(p, t[i]);
	return err;
}

/* --- file systems ------------------------------------------------------ */

static void fuse_mount_opts(char *buf, size_t len, const struct lab_fs *fs,
			    const struct lab_case *k)
{
	(void)fs;
	snprintf(buf, len, "%s", k->opts);
}

/* vers=V first, as the NFS runner mounts it. */
static void nfs_mount_opts(char *buf, size_t len, const struct lab_fs *fs,
			   const struct lab_case *k)
{
	snprintf(buf, len, "vers=%s%s%s", fs->name + 3, *k->opts ? "," : "",
		 k->opts);
}

static const struct lab_fs lab_fss[] = {
	{ "fuse", "", fuse_matrix, fuse_mount_opts },
	{ "nfs3", "actimeo=1", nfs_matrix, nfs_mount_opts },
	{ "nfs4.1", "actimeo=1", nfs_matrix, nfs_mount_opts },
	{ "nfs4.2", "actimeo=1", nfs_matrix, nfs_mount_opts },
};

const struct lab_fs *lab_fs_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_LEN(lab_fss); i++)
		if (!strcmp(lab_fss[i].name, name))
			return &lab_fss[i];
	return NULL;
}

/*
 * Each delayed case's base: its delay-0 twin (the same case but for the
 * delay) earlier in the plan, whose count predicts its time.
 */
static void plan_link_twins(struct lab_plan *p)
{
	int i, j;

	for (i = 0; i < p->count; i++) {
		p->cases[i].base = -1;
		for (j = i - 1; p->cases[i].delay_ms && j >= 0; j--)
			if (plan_same(&p->cases[i], &p->cases[j], 0)) {
				p->cases[i].base = j;
				break;
			}
	}
}

int lab_plan_build(struct lab_plan *p, const struct lab_fs *fs,
		   const struct lab_plan_opts *o)
{
	memset(p, 0, sizeof(*p));
	plan_fs = fs;
	if (fs->matrix(p, o)) {
		lab_plan_free(p);
		return -1;
	}
	plan_link_twins(p);
	return 0;
}

/**
 * lab_plan_read - a plan from its case lines
 * @p: the plan
 * @fs: the file system it is for
 * @f: the lines; '#' comments and blank lines are skipped
 * @err: "LINE: what is wrong" on failure (the file's name goes before)
 * @errlen: its size
 *
 * Return: 0, or -1 (@p then empty).
 */
int lab_plan_read(struct lab_plan *p, const struct lab_fs *fs, FILE *f,
		  char *err, size_t errlen)
{
	char line[LINE_MAX_LEN], why[128];
	struct lab_case k;
	int lineno = 0;

	memset(p, 0, sizeof(*p));
	plan_fs = fs;
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (!lab_is_case_line(line))
			continue;
		if (lab_case_parse(line, fs->opts0, &k, why, sizeof(why))) {
			snprintf(err, errlen, "%d: %s", lineno, why);
			lab_plan_free(p);
			return -1;
		}
		if (plan_add(p, "%s", line)) {
			snprintf(err, errlen, "out of memory");
			lab_plan_free(p);
			return -1;
		}
	}
	plan_link_twins(p);
	return 0;
}

void lab_plan_free(struct lab_plan *p)
{
	free(p->cases);
	memset(p, 0, sizeof(*p));
}

/**
 * lab_over_budget - is a delayed case predicted to take too long?
 * @p: its plan
 * @k: the case
 * @calls: the round trips each case of @p made (-1: failed, skipped)
 * @budget_us: what one case may take
 * @why: the reason, when it is
 * @len: its size
 *
 * The prediction: the delay-0 twin's round trips times the delay plus a
 * timer tick each.
 */
bool lab_over_budget(const struct lab_plan *p, const struct lab_case *k,
		     const long *calls, long budget_us, char *why, size_t len)
{
	long predicted;

	(void)p;
	if (k->base < 0)
		return false;
	if (calls[k->base] < 0) {
		snprintf(why, len, "its delay-0 run failed");
		return true;
	}
	predicted = calls[k->base] * (k->delay_ms * 1000L + LAB_TICK_US);
	if (predicted <= budget_us)
		return false;
	snprintf(why, len, "predicted %ld s > budget %ld s",
		 predicted / 1000000, budget_us / 1000000);
	return true;
}
