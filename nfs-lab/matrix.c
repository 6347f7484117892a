// SPDX-License-Identifier: GPL-2.0
/*
 * The lab's matrices, as case lines. The full cross-product (4 calls x 3
 * sync modes x 8 masks x 5 objects x 4 cache states, per NFS version and
 * kernel) has almost 2000 cases, a third of them waiting out an attribute
 * timeout; "full" is instead the union of the slices below, each varying
 * the dimensions that interact (README.md, "The matrix"). A case that
 * two slices share is run once. The ls slice uses bench/report's names:
 * call ls (busybox), gnu-ls or lsx; form plain, color, long or inode.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "labcase.h"

#define MATRIX_MAX 512

static const char *const syncs[] = { "as-stat", "dont", "force" };
static const char *const caches[] = { "cold", "warm", "expired", "changed" };
static const char *const masks[] = {
	"all", "type,ino", "mode", "size", "btime", "mtime",
};
static const char *const objects[] = { "file", "dir", "symlink", "deeper" };
/* A call with its flags, as case words. */
static const char *const walks[] = {
	"call=stat",
	"call=statx sync=dont",
	"call=statx sync=force",
};
static const char *const options[] = {
	"actimeo=1,nocto",
	"actimeo=1,lookupcache=none",
	"actimeo=1,lookupcache=positive",
	/* files expire after 1 s, directories stay valid for 10 */
	"actimeo=1,acdirmin=10,acdirmax=10 expire=1200",
};
static const char *const ls_calls[] = { "ls", "gnu-ls", "lsx" };
static const char *const ls_forms[] = { "plain", "long" };
static const char *const all_forms[] = { "plain", "color", "long", "inode" };

#define N(a) (sizeof(a) / sizeof((a)[0]))

struct matrix {
	FILE *f;
	unsigned int n;
	char lines[MATRIX_MAX][160];
};

static void emit(struct matrix *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void emit(struct matrix *m, const char *fmt, ...)
{
	char line[160];
	unsigned int i;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	for (i = 0; i < m->n; i++)
		if (!strcmp(m->lines[i], line))
			return;
	if (m->n == MATRIX_MAX)
		return;
	strcpy(m->lines[m->n++], line);
	fprintf(m->f, "%s\n", line);
}

/* statx's sync modes against every cache state: the core of the lab. */
static void slice_sync(struct matrix *m)
{
	unsigned int s, c;

	fprintf(m->f, "# sync x cache: statx, basic mask, d1/d2/file\n");
	for (s = 0; s < N(syncs); s++)
		for (c = 0; c < N(caches); c++)
			emit(m,
			     "call=statx sync=%s mask=basic object=deep "
			     "cache=%s",
			     syncs[s], caches[c]);
}

static void slice_calls(struct matrix *m)
{
	static const char *const calls[] = { "stat", "lstat", "fstatat" };
	unsigned int i, c;

	fprintf(m->f, "# call x cache: the stat family on d1/d2/file\n");
	for (i = 0; i < N(calls); i++)
		for (c = 0; c < N(caches); c++)
			emit(m, "call=%s object=deep cache=%s", calls[i],
			     caches[c]);
}

/* A mask can only save a round trip where there is one to save. */
static void slice_masks(struct matrix *m)
{
	unsigned int i, s, c;

	fprintf(m->f, "# mask x sync, warm and expired, d1/d2/file\n");
	for (i = 0; i < N(masks); i++)
		for (s = 0; s < N(syncs); s++)
			for (c = 1; c <= 2; c++)
				emit(m,
				     "call=statx sync=%s mask=%s "
				     "object=deep cache=%s",
				     syncs[s], masks[i], caches[c]);
}

static void slice_objects(struct matrix *m)
{
	unsigned int o, w, c;

	fprintf(m->f, "# object x call x cache: file, dir, link in the "
		      "mount's root, d1/d2/d3/file\n");
	for (o = 0; o < N(objects); o++)
		for (w = 0; w < N(walks); w++)
			for (c = 0; c < N(caches); c++)
				emit(m, "%s object=%s cache=%s", walks[w],
				     objects[o], caches[c]);
	for (c = 0; c < N(caches); c++) {
		emit(m, "call=lstat object=symlink cache=%s", caches[c]);
		emit(m,
		     "call=statx sync=force nofollow=1 object=symlink "
		     "cache=%s",
		     caches[c]);
	}
}

static void slice_options(struct matrix *m)
{
	unsigned int o, w, c;

	fprintf(m->f, "# mount options x call, warm and expired\n");
	for (o = 0; o < N(options); o++)
		for (w = 0; w < N(walks); w++)
			for (c = 1; c <= 2; c++)
				emit(m, "%s object=deep cache=%s opts=%s",
				     walks[w], caches[c], options[o]);
}

/*
 * bench/report's ls tables: calls per file by command, form and N. A case
 * must end well within its attribute timeout, or it sees its own
 * attributes expire and its count depends on timing: N=1000 (about 1000
 * round trips) gets actimeo=5.
 */
static void slice_ls(struct matrix *m)
{
	unsigned int i, f, c;

	fprintf(m->f, "# ls: busybox ls, GNU ls, lsx x plain, long x N\n");
	for (i = 0; i < N(ls_calls); i++) {
		for (f = 0; f < N(ls_forms); f++)
			for (c = 0; c <= 2; c += 2)
				emit(m,
				     "workload=ls call=%s form=%s n=100 "
				     "cache=%s",
				     ls_calls[i], ls_forms[f], caches[c]);
		for (c = 0; c <= 2; c += 2)
			emit(m,
			     "workload=ls call=%s form=long n=1000 "
			     "cache=%s opts=actimeo=5",
			     ls_calls[i], caches[c]);
	}
	emit(m, "workload=ls call=lsx form=long sync=dont n=100 "
		"cache=expired");
	emit(m, "workload=ls call=lsx form=long sync=dont n=1000 "
		"cache=expired opts=actimeo=5");
	for (c = 0; c < N(caches); c++) {
		emit(m, "workload=ls call=gnu-ls form=color n=100 cache=%s",
		     caches[c]);
		emit(m, "workload=ls call=gnu-ls form=inode n=100 cache=%s",
		     caches[c]);
		emit(m, "workload=ls call=gnu-ls form=long n=100 cache=%s",
		     caches[c]);
	}
	/* nordirplus: one LOOKUP per entry, on v3 and v4 alike */
	for (c = 0; c <= 2; c += 2)
		emit(m,
		     "workload=ls call=gnu-ls form=long n=100 cache=%s "
		     "opts=actimeo=1,nordirplus",
		     caches[c]);
}

/*
 * bench/report's time tables: every form of every command, cold, at
 * 10 ms per round trip on 100 entries; GNU ls (the ls people run), lsx
 * and busybox ls -l on 1000; GNU ls at 1 ms. A listing at 10 ms must
 * not outlive its attribute timeout: actimeo=5 for N=100 (about 100
 * round trips), 60 beyond.
 */
static void slice_delay(struct matrix *m)
{
	const char *const ls[] = { "ls", "gnu-ls" };
	unsigned int i, f, c;

	fprintf(m->f, "# netem: 10 ms more per round trip\n");
	for (c = 0; c <= 2; c += 2) {
		emit(m,
		     "call=stat object=deep cache=%s delay=10 "
		     "opts=actimeo=5",
		     caches[c]);
		for (i = 0; i < N(ls); i++)
			emit(m,
			     "workload=ls call=%s form=long n=100 cache=%s "
			     "delay=10 opts=actimeo=5",
			     ls[i], caches[c]);
	}
	for (i = 0; i < N(ls_calls); i++)
		for (f = 0; f < N(all_forms); f++)
			emit(m,
			     "workload=ls call=%s form=%s n=100 cache=cold "
			     "delay=10 opts=actimeo=5",
			     ls_calls[i], all_forms[f]);
	for (f = 0; f < N(all_forms); f++) {
		emit(m,
		     "workload=ls call=gnu-ls form=%s n=1000 cache=cold "
		     "delay=10 opts=actimeo=60",
		     all_forms[f]);
		emit(m,
		     "workload=ls call=gnu-ls form=%s n=1000 cache=cold "
		     "delay=1 opts=actimeo=60",
		     all_forms[f]);
	}
	emit(m, "workload=ls call=ls form=long n=1000 cache=cold delay=10 "
		"opts=actimeo=60");
	emit(m, "workload=ls call=lsx form=long n=1000 cache=cold delay=10 "
		"opts=actimeo=60");
}

/*
 * Large directories, cold: every form at N=1000, and GNU ls's four at
 * N=10000 (a cold ls -l of 10000 entries is some 2600 round trips and
 * 15 s under TCG; actimeo=60 keeps its attributes valid throughout).
 */
static void slice_large(struct matrix *m)
{
	unsigned int i, f;

	fprintf(m->f, "# large directories, cold\n");
	for (i = 0; i < N(ls_calls); i++)
		for (f = 0; f < N(all_forms); f++)
			emit(m,
			     "workload=ls call=%s form=%s n=1000 cache=cold "
			     "opts=actimeo=5",
			     ls_calls[i], all_forms[f]);
	for (f = 0; f < N(all_forms); f++)
		emit(m,
		     "workload=ls call=gnu-ls form=%s n=10000 cache=cold "
		     "opts=actimeo=60",
		     all_forms[f]);
}

/*
 * A build tool's or git status's walk: statx of all 64 files of a tree
 * four directories deep, each by its full path; as-stat and DONT_SYNC.
 */
static void slice_deep(struct matrix *m)
{
	unsigned int s, c;

	fprintf(m->f, "# deep tree: statx of 64 files 4 levels down\n");
	for (s = 0; s < 2; s++)
		for (c = 0; c <= 2; c++)
			emit(m, "workload=deep sync=%s cache=%s", syncs[s],
			     caches[c]);
}

static void matrix_quick(struct matrix *m)
{
	unsigned int s;

	fprintf(m->f, "# quick: the reference points and two ls\n");
	emit(m, "call=stat object=deep cache=cold");
	emit(m, "call=stat object=deep cache=warm");
	emit(m, "call=stat object=deep cache=expired");
	for (s = 0; s < N(syncs); s++) {
		emit(m,
		     "call=statx sync=%s mask=basic object=deep "
		     "cache=warm",
		     syncs[s]);
		emit(m,
		     "call=statx sync=%s mask=basic object=deep "
		     "cache=expired",
		     syncs[s]);
	}
	emit(m, "call=statx sync=as-stat mask=type,ino object=deep "
		"cache=expired");
	emit(m, "call=statx sync=force mask=all object=deep cache=warm");
	emit(m, "workload=ls call=gnu-ls form=long n=100 cache=cold");
	emit(m, "workload=ls call=ls form=long n=100 cache=expired");
	emit(m, "workload=deep sync=dont cache=expired");
}

/**
 * matrix_print - write a matrix's case lines
 * @f: where
 * @name: "full" or "quick"
 *
 * Return: 0, or -1 for an unknown name.
 */
int matrix_print(FILE *f, const char *name)
{
	static struct matrix m;

	m.f = f;
	m.n = 0;
	if (!strcmp(name, "quick")) {
		matrix_quick(&m);
		return 0;
	}
	if (strcmp(name, "full"))
		return -1;
	slice_sync(&m);
	slice_calls(&m);
	slice_masks(&m);
	slice_objects(&m);
	slice_options(&m);
	slice_ls(&m);
	slice_large(&m);
	slice_deep(&m);
	slice_delay(&m);
	return 0;
}
