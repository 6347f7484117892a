// SPDX-License-Identifier: GPL-2.0
/*
 * lsx: the narrowest statx mask per `ls` form, argument parsing and the
 * summary line. See lsx.c for the program and why.
 */
#include <dirent.h>
#include <getopt.h>
#include <string.h>

#include "lsx_form.h"
#include "probe_args.h"
#include "probe_fmt.h"

static const char *const lsx_form_names[] = {
	[LSX_PLAIN] = "plain",
	[LSX_COLOR] = "color",
	[LSX_LONG] = "long",
	[LSX_INODE] = "inode",
};

int lsx_parse_form(const char *name, enum lsx_form *form)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lsx_form_names); i++) {
		if (!strcmp(name, lsx_form_names[i])) {
			*form = (enum lsx_form)i;
			return 0;
		}
	}
	return -1;
}

const char *lsx_form_name(enum lsx_form form)
{
	return (unsigned int)form < ARRAY_SIZE(lsx_form_names) ?
	       lsx_form_names[form] : "?";
}

/* Everything the form prints, for an entry d_type says nothing about. */
unsigned int lsx_form_mask(enum lsx_form form)
{
	const unsigned int lng = STATX_TYPE | STATX_MODE | STATX_NLINK |
				 STATX_UID | STATX_GID | STATX_SIZE |
				 STATX_MTIME;

	switch (form) {
	case LSX_PLAIN:
		return STATX_TYPE;
	case LSX_COLOR:
		return STATX_TYPE | STATX_MODE;
	case LSX_LONG:
		return lng;
	case LSX_INODE:
		return lng | STATX_INO;
	}
	return STATX_BASIC_STATS;
}

/*
 * The mask one entry needs, given what readdir said: the type comes free
 * with d_type, so plain needs no statx then, and color needs the mode
 * only where a colour depends on it (executable and setuid files; sticky
 * and other-writable directories). The long forms need a statx always.
 */
unsigned int lsx_entry_mask(enum lsx_form form, unsigned char d_type)
{
	if (d_type == DT_UNKNOWN)
		return lsx_form_mask(form);
	switch (form) {
	case LSX_PLAIN:
		return LSX_NO_STATX;
	case LSX_COLOR:
		return d_type == DT_REG || d_type == DT_DIR ?
		       lsx_form_mask(form) : LSX_NO_STATX;
	default:
		return lsx_form_mask(form);
	}
}

/* The long forms print a symlink's target, as ls -l does. */
bool lsx_wants_link(enum lsx_form form, unsigned char d_type)
{
	return d_type == DT_LNK && (form == LSX_LONG || form == LSX_INODE);
}

const char *lsx_usage(void)
{
	return "usage: lsx [--form plain|color|long|inode] [--dont-sync] "
	       "[--json] DIR\n"
	       "  readdir DIR, then statx each entry with the narrowest mask "
	       "the form needs\n"
	       "  --dont-sync  AT_STATX_DONT_SYNC on every statx\n"
	       "  --json       no listing: one JSON summary line\n";
}

enum lsx_opt { OPT_FORM = 256, OPT_DONT_SYNC, OPT_JSON };

static const struct option lsx_options[] = {
	{ "form",	required_argument,	NULL, OPT_FORM },
	{ "dont-sync",	no_argument,		NULL, OPT_DONT_SYNC },
	{ "json",	no_argument,		NULL, OPT_JSON },
	{ "help",	no_argument,		NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static int lsx_apply_opt(struct lsx_args *args, int opt, char *err,
			 size_t errlen)
{
	switch (opt) {
	case OPT_FORM:
		if (!lsx_parse_form(optarg, &args->form))
			return 0;
		snprintf(err, errlen, "unknown form '%s'", optarg);
		return -1;
	case OPT_DONT_SYNC:
		args->dont_sync = true;
		return 0;
	case OPT_JSON:
		args->json = true;
		return 0;
	}
	args->help = true;
	return 0;
}

/* getopt_long(), messages as statx-probe's (probe_opt_error()) */
int lsx_parse_args(struct lsx_args *args, int argc, char *const argv[],
		   char *err, size_t errlen)
{
	int opt;

	memset(args, 0, sizeof(*args));
	args->form = LSX_PLAIN;
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":h", lsx_options,
				  NULL)) != -1) {
		if (opt == '?' || opt == ':')
			return probe_opt_error(opt, argv, err, errlen);
		if (lsx_apply_opt(args, opt, err, errlen))
			return -1;
	}
	if (args->help)
		return 0;
	if (optind == argc) {
		snprintf(err, errlen, "no directory given");
		return -1;
	}
	if (optind + 1 < argc) {
		snprintf(err, errlen, "one directory only");
		return -1;
	}
	args->dir = argv[optind];
	return 0;
}

/* "drwxr-xr-x" from a mode, as ls -l prints it (setuid and sticky too). */
void lsx_mode_string(char *buf, unsigned int mode)
{
	static const char types[] = "?pc?d?b?-?l?s???";
	static const char rwx[] = "rwxrwxrwx";
	int i;

	buf[0] = types[(mode >> 12) & 0xf];
	for (i = 0; i < 9; i++)
		buf[i + 1] = mode & (0400 >> i) ? rwx[i] : '-';
	if (mode & S_ISUID)
		buf[3] = mode & S_IXUSR ? 's' : 'S';
	if (mode & S_ISGID)
		buf[6] = mode & S_IXGRP ? 's' : 'S';
	if (mode & S_ISVTX)
		buf[9] = mode & S_IXOTH ? 't' : 'T';
	buf[10] = '\0';
}

void lsx_print_summary(FILE *f, const struct lsx_args *args,
		       const struct lsx_counts *c)
{
	if (!args->json) {
		fprintf(f, "lsx: %lu entries, %lu statx, %lu readlink "
			"(form %s, mask 0x%x, %s)\n", c->entries, c->statx,
			c->readlink, lsx_form_name(args->form),
			lsx_form_mask(args->form),
			args->dont_sync ? "dont-sync" : "as-stat");
		return;
	}
	fputs("{\"dir\":", f);
	probe_json_string(f, args->dir);
	fprintf(f, ",\"form\":\"%s\",\"sync\":\"%s\",\"mask\":\"0x%x\","
		"\"entries\":%lu,\"statx\":%lu,\"readlink\":%lu,"
		"\"dtype_unknown\":%lu,\"errors\":%lu}\n",
		lsx_form_name(args->form),
		args->dont_sync ? "dont" : "as-stat",
		lsx_form_mask(args->form), c->entries, c->statx, c->readlink,
		c->dtype_unknown, c->errors);
}
