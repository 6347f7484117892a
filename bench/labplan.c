// SPDX-License-Identifier: GPL-2.0
/*
 * labplan - the lab's plan for one file system, on the host: its case
 * lines (what a guest runner reads) or, with --json, each case's keys as
 * results.json will show them (kernel "-"; "id" is the case's line).
 *
 *   labplan --fs FS [--quick] [--n N] [--match KEYS] [--json]
 *   labplan --fs FS --cases FILE [--match KEYS] [--json]
 *   labplan --list
 *
 * FS: one of --list's (fuse, nfs3, nfs4.1, nfs4.2; each with its lane:
 * "guest", the runner in one guest, or "pair", a server guest and a
 * client guest). --cases: FILE's case lines instead of
 * the matrix (a plan written before). --n: the ls cases of that N only.
 * --match: the cases whose keys (as --json prints them) contain KEYS.
 * Exit status 0; 2 usage, a missing file or a bad case line in it (one
 * line: FILE:LINE: what is wrong).
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "plan.h"

struct lp_opts {
	const struct lab_fs *fs;
	struct lab_plan_opts plan;
	const char *match;
	const char *cases;
	bool json;
};

static void __attribute__((noreturn)) lp_usage(const char *what,
						const char *arg)
{
	fprintf(stderr, "labplan: %s%s (labplan --help)\n", what, arg);
	exit(2);
}

/* The keys of @k in results.json, as an object closed by '}'. */
static void lp_keys(FILE *f, const struct lab_fs *fs, const struct lab_case *k)
{
	char opts[256];

	fs->mount_opts(opts, sizeof(opts), fs, k);
	lab_case_keys(f, "-", fs->name, opts, k);
	fputc('}', f);
}

static bool lp_matches(const struct lp_opts *o, const struct lab_case *k)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	bool match;

	if (!o->match)
		return true;
	f = open_memstream(&buf, &len);
	if (!f)
		return false;
	lp_keys(f, o->fs, k);
	fclose(f);
	match = buf && strstr(buf, o->match);
	free(buf);
	return match;
}

/* The plan's cases that match; a --match that matches none is a usage error */
static int lp_print(const struct lp_opts *o, const struct lab_plan *p)
{
	unsigned int id = 0;
	int i;

	for (i = 0; o->match && !id && i < p->count; i++)
		id = lp_matches(o, &p->cases[i]);
	if (o->match && !id) {
		fprintf(stderr, "labplan: --match %s: no case of the %s plan has it\n",
			o->match, o->fs->name);
		return 2;
	}
	id = 0;

	for (i = 0; i < p->count; i++) {
		struct lab_case k = p->cases[i];

		if (!lp_matches(o, &k))
			continue;
		k.id = ++id;
		if (o->json)
			lp_keys(stdout, o->fs, &k);
		else
			fputs(k.line, stdout);
		putchar('\n');
	}
	return 0;
}

/* A plan written before: its cases as they are reported. */
static int lp_cases(const struct lp_opts *o)
{
	struct lab_plan p;
	char err[160];
	FILE *f = fopen(o->cases, "re");
	struct stat st;
	int ret;

	if (!f)
		lp_usage(o->cases, errno == ENOENT ? ": no such file" :
						    ": cannot read it");
	/* fopen() opens a folder for reading; reading it fails */
	if (fstat(fileno(f), &st) || S_ISDIR(st.st_mode)) {
		fclose(f);
		lp_usage(o->cases, ": a folder, not a file of case lines");
	}
	ret = lab_plan_read(&p, o->fs, f, err, sizeof(err));
	fclose(f);
	if (ret) {
		fprintf(stderr, "labplan: %s:%s\n", o->cases, err);
		return 2;
	}
	ret = lp_print(o, &p);
	lab_plan_free(&p);
	return ret;
}

/* --list: every file system the planner knows, and its lane. */
static void lp_list(void)
{
	const struct lab_fs *fs;
	unsigned int i;

	for (i = 0; (fs = lab_fs_at(i)); i++)
		printf("%s %s\n", fs->name, fs->lane);
}

static unsigned int lp_n(const char *v)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(v, &end, 10);
	if (*v < '0' || *v > '9' || *end || errno || !n || n > 1000000)
		lp_usage("--n: want a whole number from 1 to 1000000, not ", v);
	return n;
}

static void lp_parse(struct lp_opts *o, int argc, char *argv[])
{
	static const struct option opts[] = {
		{ "fs", required_argument, NULL, 'f' },
		{ "quick", no_argument, NULL, 'q' },
		{ "n", required_argument, NULL, 'n' },
		{ "match", required_argument, NULL, 'm' },
		{ "json", no_argument, NULL, 'j' },
		{ "cases", required_argument, NULL, 'C' },
		{ "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *fs = NULL;
	int opt;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			fs = optarg;
			break;
		case 'q':
			o->plan.quick = true;
			break;
		case 'n':
			o->plan.only_n = lp_n(optarg);
			break;
		case 'm':
			o->match = optarg;
			break;
		case 'j':
			o->json = true;
			break;
		case 'C':
			o->cases = optarg;
			break;
		case 'l':
			lp_list();
			exit(0);
		case 'h':
			fputs("usage: labplan --fs FS [--quick] [--n N] "
			      "[--match KEYS] [--json]\n"
			      "       labplan --fs FS --cases FILE [--match KEYS] "
			      "[--json]\n"
			      "       labplan --list\n", stdout);
			exit(0);
		case ':':
			lp_usage("a value is needed after ", argv[optind - 1]);
		default:
			lp_usage("unknown option ", argv[optind - 1]);
		}
	}
	if (optind < argc)
		lp_usage("unexpected argument ", argv[optind]);
	if (!fs)
		lp_usage("--fs FS is needed", "");
	o->fs = lab_fs_find(fs);
	if (!o->fs)
		lp_usage("--fs: not a file system of labplan --list: ", fs);
}

int main(int argc, char *argv[])
{
	struct lp_opts o = { 0 };
	struct lab_plan p;
	int ret;

	lp_parse(&o, argc, argv);
	if (o.cases)
		return lp_cases(&o);
	if (lab_plan_build(&p, o.fs, &o.plan))
		return 1;
	ret = lp_print(&o, &p);
	lab_plan_free(&p);
	return ret;
}
