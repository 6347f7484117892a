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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))
#define LINE_MAX_LEN	512	/* one case line */

/*
 * What a delayed round trip may cost beyond its label, for the budget:
 * with high-resolution timers the lab measures 0.1-0.4 ms on FUSE and
 * up to 3.4 ms with netem at 10 ms (nfs-lab/t-guest/delay.t); 4 ms keeps the
 * prediction an upper bound.
 */
#define LAB_TICK_US	4000

static int plan_add(struct lab_plan *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));


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
	if (lab_case_parse(line, p->fs->opts0, &k, err, sizeof(err))) {
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

/* --- the matrix files -------------------------------------------------- */

/*
 * Each file system's matrix is a text of its own (bench/matrix/FS.matrix,
 * built into the binary as lab_matrix_FS[]; bench/matrix/README.md is its
 * grammar): "NAME = TEXT" defines ${NAME}, "full:", "quick:" or "both:"
 * starts a template of that plan, a line that starts with white space
 * continues the one before, "#" starts a comment line. A template's
 * "{a|b}" stands for a case line with a, then one with b, leftmost
 * first; alternatives may hold templates.
 */
#define MX_LEN		4096	/* one logical line, definitions expanded */
#define MX_DEFS		32
#define MX_DEPTH	8	/* ${NAME} within a definition, at most */

struct mx_def {
	char name[32];
	char text[MX_LEN];
};

struct mx {
	const struct lab_fs *fs;
	struct mx_def defs[MX_DEFS];
	int ndefs;
	int lineno;		/* where the logical line began */
};

static int mx_fail(const struct mx *m, const char *what, const char *arg)
{
	fprintf(stderr, "labplan: %s matrix, line %d: %s%s\n", m->fs->name,
		m->lineno, what, arg);
	return -1;
}

static const struct mx_def *mx_def(const struct mx *m, const char *name,
				   size_t len)
{
	int i;

	for (i = 0; i < m->ndefs; i++)
		if (strlen(m->defs[i].name) == len &&
		    !strncmp(m->defs[i].name, name, len))
			return &m->defs[i];
	return NULL;
}

/* @in with every ${NAME} replaced, into @out (MX_LEN); -1 on error. */
static int mx_subst(const struct mx *m, const char *in, char *out, int depth)
{
	char text[MX_LEN];
	const struct mx_def *d;
	const char *p, *end;
	size_t n = 0;

	for (p = in; *p; p++) {
		if (p[0] != '$' || p[1] != '{') {
			if (n + 1 >= MX_LEN)
				return mx_fail(m, "line too long", "");
			out[n++] = *p;
			continue;
		}
		end = strchr(p, '}');
		d = end ? mx_def(m, p + 2, end - p - 2) : NULL;
		if (!d)
			return mx_fail(m, "undefined: ", p);
		if (depth >= MX_DEPTH)
			return mx_fail(m, "definitions nest too deep: ", d->name);
		if (mx_subst(m, d->text, text, depth + 1) ||
		    n + strlen(text) >= MX_LEN)
			return -1;
		memcpy(out + n, text, strlen(text));
		n += strlen(text);
		p = end;
	}
	out[n] = '\0';
	return 0;
}

/*
 * Drop the blanks a continuation left next to "{", "|" and "}" inside
 * braces: "opts={a|\n\tb}" is "opts={a|b}". A blank before "{" stays: it
 * separates two keys.
 */
static void mx_tighten(char *s)
{
	char *w = s, *r;

	for (r = s; *r; r++) {
		if ((*r == ' ' || *r == '\t') && w > s &&
		    (w[-1] == '{' || w[-1] == '|' || w[-1] == ' '))
			continue;
		if ((*r == '|' || *r == '}') && w > s && w[-1] == ' ')
			w--;
		*w++ = *r;
	}
	*w = '\0';
}

/* The end of the "{...}" at @open (braces nest), or NULL. */
static const char *mx_brace_end(const char *open)
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
static int mx_expand(struct lab_plan *p, const struct lab_plan_opts *o,
		     const char *t)
{
	const char *open = strchr(t, '{'), *end, *alt, *bar;
	char *line;
	int depth, err = 0;
	struct lab_case k;
	char why[128];

	if (!open) {
		/* --n: the ls cases of that N only */
		if (o->only_n && !lab_case_parse(t, p->fs->opts0, &k, why,
						 sizeof(why)) &&
		    k.workload == LAB_LS && k.n != o->only_n)
			return 0;
		return plan_add(p, "%s", t);
	}
	end = mx_brace_end(open);
	if (!end)
		return -1;
	line = malloc(MX_LEN);
	if (!line)
		return -1;
	for (alt = open + 1; alt <= end && !err; alt = bar + 1) {
		for (bar = alt, depth = 0; bar < end; bar++) {
			depth += (*bar == '{') - (*bar == '}');
			if (!depth && *bar == '|')
				break;
		}
		snprintf(line, MX_LEN, "%.*s%.*s%s", (int)(open - t), t,
			 (int)(bar - alt), alt, end + 1);
		err = mx_expand(p, o, line);
	}
	free(line);
	return err;
}

/* One logical line: a definition, or a template of the plan asked for. */
static int mx_line(struct lab_plan *p, const struct lab_plan_opts *o,
		   struct mx *m, char *l)
{
	static const char *const tags[] = { "full:", "quick:", "both:" };
	size_t n = strspn(l, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789");
	char *text;
	size_t i;

	if (n && !strncmp(l + n, " = ", 3)) {
		if (m->ndefs == MX_DEFS || n >= sizeof(m->defs[0].name))
			return mx_fail(m, "too many or too long names", "");
		memcpy(m->defs[m->ndefs].name, l, n);
		m->defs[m->ndefs].name[n] = '\0';
		snprintf(m->defs[m->ndefs++].text, MX_LEN, "%s", l + n + 3);
		return 0;
	}
	for (i = 0; i < ARRAY_LEN(tags); i++)
		if (!strncmp(l, tags[i], strlen(tags[i])))
			break;
	if (i == ARRAY_LEN(tags))
		return mx_fail(m, "want NAME = TEXT, full:, quick: or both: ", l);
	if ((i == 0 && o->quick) || (i == 1 && !o->quick))
		return 0;
	text = malloc(MX_LEN);
	if (!text)
		return -1;
	n = mx_subst(m, l + strlen(tags[i]) + strspn(l + strlen(tags[i]), " \t"),
		     text, 0);
	if (!n) {
		mx_tighten(text);
		n = mx_expand(p, o, text) ? mx_fail(m, "bad template: ", text) : 0;
	}
	free(text);
	return (int)n;
}

/* The plan of @fs's matrix text: its full or quick templates. */
static int mx_matrix(struct lab_plan *p, const struct lab_plan_opts *o)
{
	const char *s = p->fs->matrix, *nl;
	struct mx *m = calloc(1, sizeof(*m));
	char *l = malloc(MX_LEN);
	int lineno = 0, err = 0;
	size_t n = 0, len;

	if (!m || !l) {
		free(m);
		free(l);
		return -1;
	}
	m->fs = p->fs;
	p->dedup = true;
	for (; *s && !err; s = nl + (*nl == '\n')) {
		nl = strchrnul(s, '\n');
		len = nl - s;
		lineno++;
		if (len && (*s == ' ' || *s == '\t') && n) {
			/* a continuation: one blank, then the line */
			s += strspn(s, " \t");
			len = nl - s;
			if (n + 1 + len >= MX_LEN)
				err = mx_fail(m, "line too long", "");
			l[n++] = ' ';
			memcpy(l + n, s, len);
			n += len;
			continue;
		}
		if (n) {
			l[n] = '\0';
			err = mx_line(p, o, m, l);
			n = 0;
		}
		if (!len || *s == '#')
			continue;
		if (len >= MX_LEN)
			err = mx_fail(m, "line too long", "");
		m->lineno = lineno;
		memcpy(l, s, len);
		n = len;
	}
	if (n && !err) {
		l[n] = '\0';
		err = mx_line(p, o, m, l);
	}
	free(m);
	free(l);
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

/*
 * Every file system the lab knows: its matrix, the options of a case
 * line without opts=, its lane (a guest running the lab's runner, or a
 * pair: a server guest and a client guest), how results show a mount.
 */
static const struct lab_fs lab_fss[] = {
	{ "fuse", "", lab_matrix_fuse, "guest", fuse_mount_opts },
	{ "nfs3", "actimeo=1", lab_matrix_nfs, "pair", nfs_mount_opts },
	{ "nfs4.1", "actimeo=1", lab_matrix_nfs, "pair", nfs_mount_opts },
	{ "nfs4.2", "actimeo=1", lab_matrix_nfs, "pair", nfs_mount_opts },
};

/* The @i-th file system, or NULL past the last. */
const struct lab_fs *lab_fs_at(unsigned int i)
{
	return i < ARRAY_LEN(lab_fss) ? &lab_fss[i] : NULL;
}

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
	p->fs = fs;
	if (mx_matrix(p, o)) {
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
	p->fs = fs;
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
