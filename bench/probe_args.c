// SPDX-License-Identifier: GPL-2.0
/*
 * Parse the statx-probe command line: getopt_long() for the options,
 * strtoull() for the numbers, tables for the names.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe_args.h"

static const char usage_text[] =
"Usage: " PROBE_PROG " [OPTIONS] PATH\n"
"Call stat(2)/statx(2) on PATH and print what came back.\n"
"\n"
"  --call stat|lstat|fstat|fstatat|statx   syscall to make (default statx)\n"
"  --mask SPEC        statx request mask (default basic): comma-separated\n"
"                     type,mode,nlink,uid,gid,atime,mtime,ctime,ino,size,\n"
"                     blocks,btime,mnt_id,dioalign,change_cookie,time_gran,\n"
"                     groups basic,all,none, or numbers (0x800 or 2048)\n"
"  --sync as-stat|force|dont   AT_STATX_* sync mode (default as-stat)\n"
"  --nofollow         AT_SYMLINK_NOFOLLOW\n"
"  --no-automount     AT_NO_AUTOMOUNT\n"
"  --empty-path       open PATH with O_PATH, call on the fd with AT_EMPTY_PATH\n"
"  --flags HEX        raw bits OR-ed into the flags argument\n"
"  --json             print one JSON object on one line\n"
"  --repeat N         make the call N times, print the last result\n"
"  --quiet            print nothing on success\n"
"  -h, --help         show this help\n"
"\n"
"Exit status: 0 success, 1 the call failed, 2 usage error or no such PATH.\n";

const char *probe_usage(void)
{
	return usage_text;
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/*
 * A 32-bit number, all of s: "0x" prefix means hex, otherwise @base.
 * No sign, no space, no octal: a mask of "010" means ten.
 * Returns 0, -EINVAL (not a number) or -ERANGE (does not fit).
 */
static int parse_u32(const char *s, int base, unsigned int *out)
{
	unsigned long long val;
	char *end;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		base = 16;
	if (!isxdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	val = strtoull(s, &end, base);
	if (end == s || *end)
		return -EINVAL;
	if (errno == ERANGE || val > UINT32_MAX)
		return -ERANGE;
	*out = (unsigned int)val;
	return 0;
}

struct mask_name {
	const char *name;
	unsigned int bits;
};

static const struct mask_name mask_names[] = {
	{ "type",	STATX_TYPE },
	{ "mode",	STATX_MODE },
	{ "nlink",	STATX_NLINK },
	{ "uid",	STATX_UID },
	{ "gid",	STATX_GID },
	{ "atime",	STATX_ATIME },
	{ "mtime",	STATX_MTIME },
	{ "ctime",	STATX_CTIME },
	{ "ino",	STATX_INO },
	{ "size",	STATX_SIZE },
	{ "blocks",	STATX_BLOCKS },
	{ "btime",	STATX_BTIME },
	{ "mnt_id",	STATX_MNT_ID },
	{ "dioalign",	STATX_DIOALIGN },
	{ "change_cookie", STATX_CHANGE_COOKIE },
	{ "time_gran",	STATX_TIME_GRAN },
	{ "basic",	STATX_BASIC_STATS },
	{ "all",	STATX_ALL },
	{ "none",	0 },
};

static int lookup_mask_name(const char *s, unsigned int *bits)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(mask_names); i++) {
		if (!strcmp(mask_names[i].name, s)) {
			*bits = mask_names[i].bits;
			return 0;
		}
	}
	return -1;
}

static int parse_mask_field(const char *s, unsigned int *bits,
			    char *err, size_t errlen)
{
	int ret;

	if (s[0] < '0' || s[0] > '9') {
		if (lookup_mask_name(s, bits))
			return fail(err, errlen, "unknown mask field '%s'", s);
		return 0;
	}
	ret = parse_u32(s, 10, bits);
	if (ret == -ERANGE)
		return fail(err, errlen,
			    "mask value '%s' does not fit in 32 bits", s);
	if (ret)
		return fail(err, errlen, "bad mask value '%s'", s);
	return 0;
}

int probe_parse_mask(const char *spec, unsigned int *mask,
		     char *err, size_t errlen)
{
	unsigned int result = 0, bits = 0;
	char *copy, *rest, *field;
	int ret = 0;

	if (!*spec)
		return fail(err, errlen, "empty mask (use 'none' for 0)");
	copy = strdup(spec);
	if (!copy)
		return fail(err, errlen, "out of memory");
	rest = copy;
	while (!ret && (field = strsep(&rest, ","))) {
		if (!*field)
			ret = fail(err, errlen, "empty field in mask '%s'",
				   spec);
		else
			ret = parse_mask_field(field, &bits, err, errlen);
		result |= bits;
	}
	free(copy);
	if (!ret)
		*mask = result;
	return ret;
}

static const char *const call_names[] = {
	[PROBE_CALL_STAT]	= "stat",
	[PROBE_CALL_LSTAT]	= "lstat",
	[PROBE_CALL_FSTAT]	= "fstat",
	[PROBE_CALL_FSTATAT]	= "fstatat",
	[PROBE_CALL_STATX]	= "statx",
};

static const char *const sync_names[] = {
	[PROBE_SYNC_AS_STAT]	= "as-stat",
	[PROBE_SYNC_FORCE]	= "force",
	[PROBE_SYNC_DONT]	= "dont",
};

static int lookup_name(const char *const *names, size_t count,
		       const char *name)
{
	size_t i;

	for (i = 0; i < count; i++)
		if (!strcmp(names[i], name))
			return (int)i;
	return -1;
}

int probe_parse_call(const char *name, enum probe_call *call)
{
	int i = lookup_name(call_names, ARRAY_SIZE(call_names), name);

	if (i < 0)
		return -1;
	*call = (enum probe_call)i;
	return 0;
}

int probe_parse_sync(const char *name, enum probe_sync *sync)
{
	int i = lookup_name(sync_names, ARRAY_SIZE(sync_names), name);

	if (i < 0)
		return -1;
	*sync = (enum probe_sync)i;
	return 0;
}

const char *probe_call_name(enum probe_call call)
{
	if ((size_t)call >= ARRAY_SIZE(call_names))
		return "?";
	return call_names[call];
}

const char *probe_sync_name(enum probe_sync sync)
{
	if ((size_t)sync >= ARRAY_SIZE(sync_names))
		return "?";
	return sync_names[sync];
}

/* The flags argument the chosen syscall will really be given. */
unsigned int probe_at_flags(const struct probe_args *args)
{
	static const unsigned int sync_bits[] = {
		[PROBE_SYNC_AS_STAT]	= AT_STATX_SYNC_AS_STAT,
		[PROBE_SYNC_FORCE]	= AT_STATX_FORCE_SYNC,
		[PROBE_SYNC_DONT]	= AT_STATX_DONT_SYNC,
	};
	unsigned int flags = 0;

	if (args->call != PROBE_CALL_STATX && args->call != PROBE_CALL_FSTATAT)
		return 0;
	if (args->call == PROBE_CALL_STATX)
		flags |= sync_bits[args->sync];
	if (args->nofollow)
		flags |= AT_SYMLINK_NOFOLLOW;
	if (args->no_automount)
		flags |= AT_NO_AUTOMOUNT;
	if (args->empty_path)
		flags |= AT_EMPTY_PATH;
	return flags | args->extra_flags;
}

enum probe_opt {
	OPT_CALL = 256, OPT_MASK, OPT_SYNC, OPT_FLAGS, OPT_REPEAT,
	OPT_NOFOLLOW, OPT_NO_AUTOMOUNT, OPT_EMPTY_PATH, OPT_JSON, OPT_QUIET,
};

static const struct option probe_options[] = {
	{ "call",		required_argument,	NULL, OPT_CALL },
	{ "mask",		required_argument,	NULL, OPT_MASK },
	{ "sync",		required_argument,	NULL, OPT_SYNC },
	{ "flags",		required_argument,	NULL, OPT_FLAGS },
	{ "repeat",		required_argument,	NULL, OPT_REPEAT },
	{ "nofollow",		no_argument,		NULL, OPT_NOFOLLOW },
	{ "no-automount",	no_argument,		NULL, OPT_NO_AUTOMOUNT },
	{ "empty-path",		no_argument,		NULL, OPT_EMPTY_PATH },
	{ "json",		no_argument,		NULL, OPT_JSON },
	{ "quiet",		no_argument,		NULL, OPT_QUIET },
	{ "help",		no_argument,		NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/*
 * getopt_long()'s complaint about argv[optind - 1], in our words: it
 * runs with opterr = 0 and a ':' first in optstring, so it only says
 * what went wrong (@ret '?' or ':') and leaves the message to us.
 */
int probe_opt_error(int ret, char *const argv[], char *err, size_t errlen)
{
	const char *word = argv[optind - 1];
	int n = (int)strcspn(word, "=");

	if (ret == ':')
		return fail(err, errlen, "option '%.*s' needs a value", n,
			    word);
	if (!optopt)
		return fail(err, errlen, "unknown option '%.*s'", n, word);
	if (!strncmp(word, "--", 2) && word[n])
		return fail(err, errlen, "option '%.*s' takes no value", n,
			    word);
	return fail(err, errlen, "unknown option '-%c'", optopt);
}

static int apply_value_opt(struct probe_args *args, int opt,
			   const char *val, char *err, size_t errlen)
{
	int ret;

	switch (opt) {
	case OPT_CALL:
		if (probe_parse_call(val, &args->call))
			return fail(err, errlen, "unknown call '%s'", val);
		return 0;
	case OPT_MASK:
		args->mask_given = true;
		return probe_parse_mask(val, &args->mask, err, errlen);
	case OPT_SYNC:
		args->sync_given = true;
		if (probe_parse_sync(val, &args->sync))
			return fail(err, errlen, "unknown sync mode '%s'", val);
		return 0;
	case OPT_FLAGS:
		args->flags_given = true;
		ret = parse_u32(val, 16, &args->extra_flags);
		if (ret == -ERANGE)
			return fail(err, errlen,
				    "flags '%s' do not fit in 32 bits", val);
		if (ret)
			return fail(err, errlen, "bad hex flags '%s'", val);
		return 0;
	case OPT_REPEAT:
		if (parse_u32(val, 10, &args->repeat) || args->repeat == 0)
			return fail(err, errlen,
				    "bad repeat count '%s' (want 1..%u)",
				    val, UINT32_MAX);
		return 0;
	}
	return fail(err, errlen, "internal error: option %d", opt);
}

static int apply_opt(struct probe_args *args, int opt, const char *val,
		     char *err, size_t errlen)
{
	switch (opt) {
	case OPT_NOFOLLOW:
		args->nofollow = true;
		return 0;
	case OPT_NO_AUTOMOUNT:
		args->no_automount = true;
		return 0;
	case OPT_EMPTY_PATH:
		args->empty_path = true;
		return 0;
	case OPT_JSON:
		args->json = true;
		return 0;
	case OPT_QUIET:
		args->quiet = true;
		return 0;
	case 'h':
		args->help = true;
		return 0;
	}
	return apply_value_opt(args, opt, val, err, errlen);
}

/* Refuse options the chosen call would silently ignore. */
static int check_call_options(const struct probe_args *args,
			      char *err, size_t errlen)
{
	const char *call = probe_call_name(args->call);
	bool at_call = args->call == PROBE_CALL_STATX ||
		       args->call == PROBE_CALL_FSTATAT;

	if (args->call != PROBE_CALL_STATX) {
		if (args->mask_given)
			return fail(err, errlen,
				    "--mask only applies to --call statx");
		if (args->sync_given)
			return fail(err, errlen,
				    "--sync only applies to --call statx");
	}
	if (!at_call && (args->nofollow || args->no_automount ||
			 args->empty_path || args->flags_given))
		return fail(err, errlen,
			    "--nofollow, --no-automount, --empty-path and --flags do not apply to --call %s",
			    call);
	return 0;
}

static void set_defaults(struct probe_args *args)
{
	memset(args, 0, sizeof(*args));
	args->call = PROBE_CALL_STATX;
	args->sync = PROBE_SYNC_AS_STAT;
	args->mask = STATX_BASIC_STATS;
	args->repeat = 1;
}

/*
 * Returns 0 on success (args->help may be set, in which case nothing
 * else was checked) or -1 with a one-line message in err.  optind = 0
 * restarts getopt_long() from scratch on every call (the unit tests
 * parse many command lines in one process).
 */
int probe_parse_args(struct probe_args *args, int argc, char *const argv[],
		     char *err, size_t errlen)
{
	int opt;

	set_defaults(args);
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":h", probe_options,
				  NULL)) != -1) {
		if (opt == '?' || opt == ':')
			return probe_opt_error(opt, argv, err, errlen);
		if (apply_opt(args, opt, optarg, err, errlen))
			return -1;
	}
	if (args->help)
		return 0;
	if (optind == argc)
		return fail(err, errlen, "missing PATH");
	if (optind + 1 < argc)
		return fail(err, errlen, "unexpected extra argument '%s'",
			    argv[optind + 1]);
	args->path = argv[optind];
	return check_call_options(args, err, errlen);
}
