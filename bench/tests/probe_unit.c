// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for the pure parts of statx-probe.
 *
 * A self-contained TAP producer; t/probe-args.t runs it under prove.
 * The plan is printed last so tests can be added without counting.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "lab_errname.h"
#include "probe_args.h"
#include "probe_fmt.h"

#include "tap.h"

/* Print a possibly multi-line string as TAP diagnostics. */
static void diag_block(const char *label, const char *s)
{
	printf("#   %s:\n# |", label);
	for (; *s; s++) {
		putchar(*s);
		if (*s == '\n' && s[1])
			printf("# |");
	}
	if (s[-1] != '\n')
		putchar('\n');
}

static void is_str(const char *got, const char *want, const char *desc)
{
	if (!ok(got && !strcmp(got, want), "%s", desc)) {
		diag_block("got", got ? got : "(null)");
		diag_block("expected", want);
	}
}

static void is_uint(unsigned long long got, unsigned long long want,
		    const char *desc)
{
	if (!ok(got == want, "%s", desc))
		printf("#   got 0x%llx, expected 0x%llx\n", got, want);
}

/* ---- mask parsing ---------------------------------------------------- */

static void mask_ok(const char *spec, unsigned int want)
{
	char err[PROBE_ERRLEN] = "";
	unsigned int mask = 0xdeadbeef;
	int ret = probe_parse_mask(spec, &mask, err, sizeof(err));

	if (!ok(ret == 0 && mask == want, "mask '%s' = 0x%x", spec, want))
		printf("#   ret %d mask 0x%x err '%s'\n", ret, mask, err);
}

static void mask_bad(const char *spec, const char *want_err)
{
	char err[PROBE_ERRLEN] = "";
	unsigned int mask = 0x1234;
	int ret = probe_parse_mask(spec, &mask, err, sizeof(err));

	if (!ok(ret == -1 && mask == 0x1234 && !strcmp(err, want_err),
		"mask '%s' rejected: %s", spec, want_err))
		printf("#   ret %d mask 0x%x err '%s'\n", ret, mask, err);
}

static void test_masks(void)
{
	mask_ok("type", 0x1);
	mask_ok("blocks", 0x400);
	mask_ok("btime", 0x800);
	mask_ok("mnt_id", 0x1000);
	mask_ok("dioalign", 0x2000);
	mask_ok("change_cookie", 0x40000000);
	mask_ok("basic,change_cookie", 0x400007ff);
	mask_ok("basic", 0x7ff);
	mask_ok("all", 0xfff);
	mask_ok("none", 0);
	mask_ok("type,mode,nlink,uid,gid,atime,mtime,ctime,ino,size,blocks",
		0x7ff);
	mask_ok("basic,btime", 0xfff);
	mask_ok("0x800", 0x800);
	mask_ok("0X1F", 0x1f);
	mask_ok("2048", 2048);
	mask_ok("0", 0);
	mask_ok("010", 10);		/* decimal, never octal */
	mask_ok("type,ino,0x800", 0x901);
	mask_ok("none,size", 0x200);
	mask_ok("0xffffffff", 0xffffffff);
	mask_ok("4294967295", 0xffffffff);

	mask_bad("sise", "unknown mask field 'sise'");
	mask_bad("cookie", "unknown mask field 'cookie'");
	mask_bad("type,sise,ino", "unknown mask field 'sise'");
	mask_bad("Type", "unknown mask field 'Type'");
	mask_bad("", "empty mask (use 'none' for 0)");
	mask_bad("type,,ino", "empty field in mask 'type,,ino'");
	mask_bad("type,", "empty field in mask 'type,'");
	mask_bad(",type", "empty field in mask ',type'");
	mask_bad("0x", "bad mask value '0x'");
	mask_bad("12abc", "bad mask value '12abc'");
	mask_bad("0x1g", "bad mask value '0x1g'");
	mask_bad("-1", "unknown mask field '-1'");
	mask_bad("0x100000000", "mask value '0x100000000' does not fit in 32 bits");
	mask_bad("4294967296", "mask value '4294967296' does not fit in 32 bits");
	mask_bad("type,99999999999999999999999",
		 "mask value '99999999999999999999999' does not fit in 32 bits");
}

/* ---- sync mode, call names and the flags argument ------------------- */

static void test_sync_and_calls(void)
{
	static const char *const calls[] = {
		"stat", "lstat", "fstat", "fstatat", "statx",
	};
	enum probe_sync sync = PROBE_SYNC_DONT;
	enum probe_call call;
	size_t i;

	ok(!probe_parse_sync("as-stat", &sync) && sync == PROBE_SYNC_AS_STAT,
	   "sync 'as-stat'");
	ok(!probe_parse_sync("force", &sync) && sync == PROBE_SYNC_FORCE,
	   "sync 'force'");
	ok(!probe_parse_sync("dont", &sync) && sync == PROBE_SYNC_DONT,
	   "sync 'dont'");
	ok(probe_parse_sync("FORCE", &sync) == -1 && sync == PROBE_SYNC_DONT,
	   "sync 'FORCE' rejected, value untouched");
	ok(probe_parse_sync("", &sync) == -1, "sync '' rejected");

	for (i = 0; i < ARRAY_SIZE(calls); i++)
		ok(!probe_parse_call(calls[i], &call) &&
		   !strcmp(probe_call_name(call), calls[i]),
		   "call '%s' round-trips", calls[i]);
	ok(probe_parse_call("statx2", &call) == -1, "call 'statx2' rejected");
}

/* ---- command line ---------------------------------------------------- */

#define MAX_ARGV	16

/* Split a space-separated command line (no quoting) and parse it. */
static int parse_line(const char *line, struct probe_args *args,
		      char *err, size_t errlen)
{
	static char buf[512];
	char *argv[MAX_ARGV + 1];
	int argc = 0;
	char *word;

	snprintf(buf, sizeof(buf), "statx-probe %s", line);
	for (word = strtok(buf, " "); word && argc < MAX_ARGV;
	     word = strtok(NULL, " "))
		argv[argc++] = word;
	argv[argc] = NULL;
	err[0] = '\0';
	return probe_parse_args(args, argc, argv, err, errlen);
}

static void args_bad(const char *line, const char *want_err)
{
	struct probe_args args;
	char err[PROBE_ERRLEN];
	int ret = parse_line(line, &args, err, sizeof(err));

	if (!ok(ret == -1 && !strcmp(err, want_err), "args '%s' -> %s",
		line, want_err))
		printf("#   ret %d err '%s'\n", ret, err);
}

static void test_args_defaults(void)
{
	struct probe_args a;
	char err[PROBE_ERRLEN];

	ok(parse_line("foo", &a, err, sizeof(err)) == 0 &&
	   a.call == PROBE_CALL_STATX && a.mask == 0x7ff &&
	   a.sync == PROBE_SYNC_AS_STAT && a.repeat == 1 && !a.json &&
	   !a.quiet && !a.help && !strcmp(a.path, "foo") &&
	   probe_at_flags(&a) == 0,
	   "defaults: statx, basic mask, as-stat, repeat 1, flags 0");

	ok(parse_line("--call=stat --json --quiet --repeat 5 bar", &a, err,
		      sizeof(err)) == 0 &&
	   a.call == PROBE_CALL_STAT && a.json && a.quiet && a.repeat == 5 &&
	   !strcmp(a.path, "bar"),
	   "--call=stat --json --quiet --repeat 5");

	ok(parse_line("--mask type,ino --sync=force --nofollow x", &a, err,
		      sizeof(err)) == 0 &&
	   a.mask == 0x101 && probe_at_flags(&a) == 0x2100,
	   "statx --sync force --nofollow gives flags 0x2100");

	ok(parse_line("--sync dont --no-automount --empty-path x", &a, err,
		      sizeof(err)) == 0 && probe_at_flags(&a) == 0x5800,
	   "--sync dont --no-automount --empty-path gives flags 0x5800");

	ok(parse_line("--flags 6000 x", &a, err, sizeof(err)) == 0 &&
	   a.extra_flags == 0x6000 && probe_at_flags(&a) == 0x6000,
	   "--flags is hex without prefix");

	ok(parse_line("--flags=0x80000000 --sync force x", &a, err,
		      sizeof(err)) == 0 && probe_at_flags(&a) == 0x80002000,
	   "--flags bits are OR-ed over the sync mode");

	ok(parse_line("--call fstatat --nofollow x", &a, err,
		      sizeof(err)) == 0 && probe_at_flags(&a) == 0x100,
	   "fstatat --nofollow gives flags 0x100");

	ok(parse_line("--call fstat x", &a, err, sizeof(err)) == 0 &&
	   probe_at_flags(&a) == 0, "fstat passes no flags");

	ok(parse_line("-h", &a, err, sizeof(err)) == 0 && a.help,
	   "-h needs no PATH");
	ok(parse_line("--help --bogus-later-is-not-reached x", &a, err,
		      sizeof(err)) == -1,
	   "--help does not hide a later unknown option");
	ok(parse_line("-- -weird", &a, err, sizeof(err)) == 0 &&
	   !strcmp(a.path, "-weird"), "'--' ends options");
	ok(parse_line("-", &a, err, sizeof(err)) == 0 &&
	   !strcmp(a.path, "-"), "'-' is a path");
	ok(parse_line("x --js --mas ino", &a, err, sizeof(err)) == 0 &&
	   a.json && a.mask == STATX_INO && !strcmp(a.path, "x"),
	   "getopt_long: unique abbreviations, options after PATH");
}

static void test_args_errors(void)
{
	args_bad("", "missing PATH");
	args_bad("--json", "missing PATH");
	args_bad("a b", "unexpected extra argument 'b'");
	args_bad("--bogus x", "unknown option '--bogus'");
	args_bad("--mask=sise x", "unknown mask field 'sise'");
	args_bad("-x foo", "unknown option '-x'");
	args_bad("x --mask", "option '--mask' needs a value");
	args_bad("--json=1 x", "option '--json' takes no value");
	args_bad("--help=1 x", "option '--help' takes no value");
	args_bad("--no x", "unknown option '--no'");	/* ambiguous */
	args_bad("--mask=", "empty mask (use 'none' for 0)");
	args_bad("--call bogus x", "unknown call 'bogus'");
	args_bad("--sync bogus x", "unknown sync mode 'bogus'");
	args_bad("--repeat 0 x", "bad repeat count '0' (want 1..4294967295)");
	args_bad("--repeat 3x x", "bad repeat count '3x' (want 1..4294967295)");
	args_bad("--flags zz x", "bad hex flags 'zz'");
	args_bad("--flags 0x100000000 x",
		 "flags '0x100000000' do not fit in 32 bits");
	args_bad("--call stat --mask type x",
		 "--mask only applies to --call statx");
	args_bad("--call fstatat --sync force x",
		 "--sync only applies to --call statx");
	args_bad("--call lstat --nofollow x",
		 "--nofollow, --no-automount, --empty-path and --flags do not apply to --call lstat");
	args_bad("--call fstat --flags 1 x",
		 "--nofollow, --no-automount, --empty-path and --flags do not apply to --call fstat");
}

/* ---- errno names ----------------------------------------------------- */

static void test_errno_names(void)
{
	char buf[32];
	int e, dups = 0;

	is_str(lab_errname(ENOENT), "ENOENT", "ENOENT named");
	is_str(lab_errname(ENOTDIR), "ENOTDIR", "ENOTDIR named");
	is_str(lab_errname(ENAMETOOLONG), "ENAMETOOLONG",
	       "ENAMETOOLONG named");
	is_str(lab_errname(EINVAL), "EINVAL", "EINVAL named");
	is_str(lab_errname(ESTALE), "ESTALE", "ESTALE named");
	is_str(lab_errname(EOPNOTSUPP), "EOPNOTSUPP",
	       "EOPNOTSUPP (== ENOTSUP) named once");
	is_str(lab_errname(EAGAIN), "EAGAIN", "EAGAIN named");
	is_str(lab_errname(524), "ENOTSUPP", "kernel-internal 524");
	ok(lab_errname(9999) == NULL, "unknown errno has no name");
	lab_errlabel(9999, buf, sizeof(buf));
	is_str(buf, "E9999", "unknown errno labelled E9999");
	lab_errlabel(EACCES, buf, sizeof(buf));
	is_str(buf, "EACCES", "label of EACCES");

	/* Two values sharing one name: a typo in the kernel's table. */
	for (e = 1; e < 600; e++) {
		const char *a = lab_errname(e);
		int f;

		for (f = e + 1; a && f < 600; f++)
			if (lab_errname(f) && !strcmp(a, lab_errname(f)))
				dups++;
	}
	ok(dups == 0, "no errno name is used for two values");
}

/* ---- attribute picture ----------------------------------------------- */

static void test_attr_picture(void)
{
	char pic[PROBE_ATTR_PICTURE_LEN];

	probe_attr_picture(pic, 0x30, 0xff);
	is_str(pic, "........ ........ ........ ........ ........ ........ "
		    "........ --ai----",
	       "append+immutable, only low byte supported");

	probe_attr_picture(pic, 0x30, ~0ULL);
	is_str(pic, "-------- -------- -------- -------- -------- -------- "
		    "-------- --ai----",
	       "append+immutable, everything supported");

	probe_attr_picture(pic, 0x303874, ~0ULL);
	is_str(pic, "-------- -------- -------- -------- -------- --Dv---- "
		    "--Mme--- -dai-c--",
	       "every known letter in its place");

	probe_attr_picture(pic, 1ULL << 63 | 0x4, 0x4);
	is_str(pic, "........ ........ ........ ........ ........ ........ "
		    "........ .....c..",
	       "set but unsupported bit shows as '.'");

	probe_attr_picture(pic, 1ULL << 63, 1ULL << 63);
	is_str(pic, "?....... ........ ........ ........ ........ ........ "
		    "........ ........",
	       "set bit without a letter shows as '?'");
}

/* ---- JSON strings ---------------------------------------------------- */

static char *capture_json_string(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	probe_json_string(f, s);
	fclose(f);
	return buf;
}

static void json_str_is(const char *in, const char *want, const char *desc)
{
	char *got = capture_json_string(in);

	is_str(got, want, desc);
	free(got);
}

static void test_json_escape(void)
{
	json_str_is("plain/path", "\"plain/path\"", "plain string quoted");
	json_str_is("", "\"\"", "empty string");
	json_str_is("a\"b\\c", "\"a\\\"b\\\\c\"", "quote and backslash");
	json_str_is("\n\t\x01\x1f", "\"\\u000a\\u0009\\u0001\\u001f\"",
		    "control characters as \\u00XX");
	json_str_is("x\x7fy", "\"x\x7fy\"", "DEL passes through");
	json_str_is("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
		    "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"",
		    "valid UTF-8 passes through");
	json_str_is("a\xff" "b", "\"a\\u00ffb\"", "stray byte escaped");
	json_str_is("\xc0\xaf", "\"\\u00c0\\u00af\"", "overlong form escaped");
	json_str_is("\xe2\x82", "\"\\u00e2\\u0082\"",
		    "truncated sequence at end escaped");
	json_str_is("\xed\xa0\x80", "\"\\u00ed\\u00a0\\u0080\"",
		    "surrogate escaped");
	json_str_is("\xf4\x90\x80\x80", "\"\\u00f4\\u0090\\u0080\\u0080\"",
		    "code point past U+10FFFF escaped");
}

/* ---- times, types, stat conversion ----------------------------------- */

static void test_times_and_types(void)
{
	struct statx_timestamp ts = { .tv_sec = 918752909,
				      .tv_nsec = 31795451 };
	char buf[PROBE_TIME_LEN];

	probe_format_time(buf, sizeof(buf), &ts, 0);
	is_str(buf, "1999-02-11 17:08:29.031795451+0000", "text time, UTC");
	probe_format_time(buf, sizeof(buf), &ts, 1);
	is_str(buf, "1999-02-11T17:08:29.031795451Z", "ISO time, UTC");
	ts.tv_sec = -1;
	ts.tv_nsec = 999999999;
	probe_format_time(buf, sizeof(buf), &ts, 1);
	is_str(buf, "1969-12-31T23:59:59.999999999Z", "time before epoch");
	ts.tv_sec = INT64_MAX;
	ts.tv_nsec = 0;
	probe_format_time(buf, sizeof(buf), &ts, 0);
	is_str(buf, "@9223372036854775807.000000000",
	       "time past struct tm shown raw");

	is_str(probe_type_name(S_IFREG | 0644), "regular", "type regular");
	is_str(probe_type_name(S_IFDIR), "directory", "type directory");
	is_str(probe_type_name(S_IFLNK), "symlink", "type symlink");
	is_str(probe_type_name(S_IFIFO), "fifo", "type fifo");
	is_str(probe_type_name(S_IFCHR), "chardev", "type chardev");
	is_str(probe_type_name(S_IFBLK), "blockdev", "type blockdev");
	is_str(probe_type_name(S_IFSOCK), "socket", "type socket");
	is_str(probe_type_name(0), "unknown", "type unknown");
}

static void test_stat_conversion(void)
{
	struct statx stx;
	struct stat st;

	memset(&st, 0, sizeof(st));
	st.st_dev = makedev(8, 18);
	st.st_rdev = makedev(259, 70000);
	st.st_ino = 1ULL << 40;
	st.st_mode = S_IFCHR | 0620;
	st.st_nlink = 3;
	st.st_uid = 1000;
	st.st_gid = 4294967294U;
	st.st_size = 5000000000LL;
	st.st_blocks = 9;
	st.st_blksize = 65536;
	st.st_mtim.tv_sec = 918752909;
	st.st_mtim.tv_nsec = 31795451;
	st.st_ctim.tv_sec = -5;
	st.st_atim.tv_nsec = 1;
	memset(&stx, 0xbf, sizeof(stx));
	probe_stat_to_statx(&st, &stx);

	is_uint(stx.stx_mask, STATX_BASIC_STATS, "converted mask is BASIC");
	ok(stx.stx_dev_major == 8 && stx.stx_dev_minor == 18,
	   "st_dev split into 8:18");
	ok(stx.stx_rdev_major == 259 && stx.stx_rdev_minor == 70000,
	   "st_rdev split, minor above 255 kept");
	ok(stx.stx_ino == 1ULL << 40 && stx.stx_mode == (S_IFCHR | 0620) &&
	   stx.stx_nlink == 3 && stx.stx_uid == 1000 &&
	   stx.stx_gid == 4294967294U, "ino/mode/nlink/uid/gid copied");
	ok(stx.stx_size == 5000000000ULL && stx.stx_blocks == 9 &&
	   stx.stx_blksize == 65536, "size/blocks/blksize copied");
	ok(stx.stx_mtime.tv_sec == 918752909 &&
	   stx.stx_mtime.tv_nsec == 31795451 && stx.stx_ctime.tv_sec == -5 &&
	   stx.stx_atime.tv_nsec == 1, "times copied with nanoseconds");
	ok(stx.stx_attributes == 0 && stx.stx_attributes_mask == 0 &&
	   stx.stx_btime.tv_sec == 0 && probe_stx_mnt_id(&stx) == 0,
	   "fields stat() lacks are zeroed");
}

/* ---- whole-record formatting ----------------------------------------- */

/* The record of test-statx.c's header comment, in UTC. */
static void example_statx(struct statx *stx)
{
	memset(stx, 0, sizeof(*stx));
	stx->stx_mask = STATX_ALL;
	stx->stx_blksize = 4096;
	stx->stx_mode = S_IFREG | 0644;
	stx->stx_nlink = 1;
	stx->stx_ino = 2101950;
	stx->stx_dev_major = 8;
	stx->stx_dev_minor = 18;
	stx->stx_atime.tv_sec = 918752909;
	stx->stx_atime.tv_nsec = 31795451;
	stx->stx_mtime = stx->stx_atime;
	stx->stx_btime = stx->stx_atime;
	stx->stx_ctime.tv_sec = 918753071;
	stx->stx_ctime.tv_nsec = 987790114;
	stx->stx_attributes = 0x30;
	stx->stx_attributes_mask = ~0ULL;
}

static const struct probe_report example_report = {
	.call = "statx",
	.path = "foo",
	.sync = "as-stat",
	.request_mask = 0xfff,
	.flags = 0,
};

typedef void (*printer_fn)(FILE *, const struct probe_report *,
			   const struct statx *);

static char *capture(printer_fn print, const struct probe_report *rep,
		     const struct statx *stx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	print(f, rep, stx);
	fclose(f);
	return buf;
}

static void output_is(printer_fn print, const struct probe_report *rep,
		      const struct statx *stx, const char *want,
		      const char *desc)
{
	char *got = capture(print, rep, stx);

	is_str(got, want, desc);
	free(got);
}

static void test_text_output(void)
{
	struct probe_report rep = example_report;
	struct statx stx;

	example_statx(&stx);
	output_is(probe_print_text, &rep, &stx,
		"statx(foo) = 0\n"
		"results=fff\n"
		"  Size: 0               Blocks: 0          IO Block: 4096    regular file\n"
		"Device: 08:12           Inode: 2101950     Links: 1    \n"
		"Access: (0644/-rw-r--r--)  Uid:     0   Gid:     0\n"
		"Access: 1999-02-11 17:08:29.031795451+0000\n"
		"Modify: 1999-02-11 17:08:29.031795451+0000\n"
		"Change: 1999-02-11 17:11:11.987790114+0000\n"
		" Birth: 1999-02-11 17:08:29.031795451+0000\n"
		"Attributes: 0000000000000030 (-------- -------- -------- "
		"-------- -------- -------- -------- --ai----)\n",
		"full text record matches test-statx layout");

	stx.stx_mask = STATX_TYPE | STATX_MODE | STATX_UID | STATX_INO;
	stx.stx_attributes_mask = 0;
	rep.call = "lstat";
	output_is(probe_print_text, &rep, &stx,
		"lstat(foo) = 0\n"
		"results=10b\n"
		"  IO Block: 4096    regular file\n"
		"Device: 08:12           Inode: 2101950    \n"
		"Access: (0644/-rw-r--r--)  Uid:     0   \n",
		"partial mask: absent fields and Attributes line omitted");

	stx.stx_mask = STATX_MODE | STATX_GID;
	output_is(probe_print_text, &rep, &stx,
		"lstat(foo) = 0\n"
		"results=12\n"
		"  IO Block: 4096   no type\n"
		"Device: 08:12          \n"
		"Access: (0644/?rw-r--r--)  Gid:     0\n",
		"no type bit: 'no type' and '?' file letter");

	stx.stx_mask = STATX_BASIC_STATS | STATX_MNT_ID | STATX_DIOALIGN;
	stx.stx_mode = S_IFCHR | 0666;
	stx.stx_rdev_major = 1;
	stx.stx_rdev_minor = 3;
	stx.stx_uid = 4294967295U;
	probe_stx_set_mnt_id(&stx, 42);
	probe_stx_set_dioalign(&stx, 512, 4096);
	output_is(probe_print_text, &rep, &stx,
		"lstat(foo) = 0\n"
		"results=37ff\n"
		"  Size: 0               Blocks: 0          IO Block: 4096    character special file\n"
		"Device: 08:12           Inode: 2101950     Links: 1     Device type: 1,3\n"
		"Access: (0666/crw-rw-rw-)  Uid: 4294967295   Gid:     0\n"
		"Access: 1999-02-11 17:08:29.031795451+0000\n"
		"Modify: 1999-02-11 17:08:29.031795451+0000\n"
		"Change: 1999-02-11 17:11:11.987790114+0000\n"
		"Mnt ID: 42\n"
		"DIO align: mem 512, offset 4096\n",
		"chardev with rdev, mnt_id and dioalign, no birth");
}

static char *capture_json_errors(const struct probe_report *rep, int err1,
				 int err2)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		abort();
	probe_print_json_error(f, rep, err1);
	probe_print_json_error(f, rep, err2);
	fclose(f);
	return buf;
}

static void test_json_output(void)
{
	struct probe_report rep = example_report;
	struct statx stx;
	char *got;

	example_statx(&stx);
	output_is(probe_print_json, &rep, &stx,
		"{\"call\":\"statx\",\"path\":\"foo\",\"request_mask\":\"0xfff\","
		"\"sync\":\"as-stat\",\"flags\":\"0x0\",\"result_mask\":\"0xfff\","
		"\"type\":\"regular\",\"mode\":\"0644\",\"nlink\":1,\"uid\":0,"
		"\"gid\":0,\"ino\":2101950,\"size\":0,\"blocks\":0,"
		"\"blksize\":4096,\"dev\":\"8:18\",\"rdev\":\"0:0\","
		"\"attributes\":\"0x30\",\"attributes_mask\":\"0xffffffffffffffff\","
		"\"atime\":\"1999-02-11T17:08:29.031795451Z\","
		"\"mtime\":\"1999-02-11T17:08:29.031795451Z\","
		"\"ctime\":\"1999-02-11T17:11:11.987790114Z\","
		"\"btime\":\"1999-02-11T17:08:29.031795451Z\"}\n",
		"full JSON record, stable key order");

	stx.stx_mask = STATX_TYPE | STATX_INO | STATX_MNT_ID | STATX_DIOALIGN;
	stx.stx_mode = S_IFLNK | 0777;
	stx.stx_attributes = 0;
	stx.stx_attributes_mask = 0;
	probe_stx_set_mnt_id(&stx, 18446744073709551615ULL);
	probe_stx_set_dioalign(&stx, 4, 512);
	rep.path = "dir/\"odd\"\n";
	rep.flags = 0x6100;
	rep.request_mask = 0x3101;
	rep.sync = "force";
	output_is(probe_print_json, &rep, &stx,
		"{\"call\":\"statx\",\"path\":\"dir/\\\"odd\\\"\\u000a\","
		"\"request_mask\":\"0x3101\",\"sync\":\"force\","
		"\"flags\":\"0x6100\",\"result_mask\":\"0x3101\","
		"\"type\":\"symlink\",\"ino\":2101950,\"blksize\":4096,"
		"\"dev\":\"8:18\",\"rdev\":\"0:0\",\"attributes\":\"0x0\","
		"\"attributes_mask\":\"0x0\","
		"\"mnt_id\":18446744073709551615,"
		"\"dio_mem_align\":4,\"dio_offset_align\":512}\n",
		"partial JSON: absent fields omitted, path escaped");

	rep.path = "no\\such";
	got = capture_json_errors(&rep, ENOENT, 9999);
	is_str(got,
	       "{\"call\":\"statx\",\"path\":\"no\\\\such\",\"error\":\"ENOENT\",\"errno\":2}\n"
	       "{\"call\":\"statx\",\"path\":\"no\\\\such\",\"error\":\"E9999\",\"errno\":9999}\n",
	       "JSON error objects");
	free(got);
}

/*
 * The change cookie (STATX_CHANGE_COOKIE, stx_change_cookie at 0xc0):
 * its value and whether it is monotonic when the kernel set the bit,
 * "not reported" when it was asked for and not set, nothing otherwise.
 */
static void test_change_cookie(void)
{
	struct probe_report rep = example_report;
	struct statx stx;

	memset(&stx, 0, sizeof(stx));
	probe_stx_set_change_cookie(&stx, 0xfedcba9876543210ULL);
	is_uint(((const unsigned char *)&stx)[0xc0], 0x10,
		"the cookie sits at offset 0xc0");
	is_uint(probe_stx_change_cookie(&stx), 0xfedcba9876543210ULL,
		"the cookie reads back");

	rep.request_mask = STATX_SIZE | STATX_CHANGE_COOKIE;
	stx.stx_mask = STATX_SIZE | STATX_CHANGE_COOKIE;
	stx.stx_blksize = 4096;
	stx.stx_size = 5;
	stx.stx_attributes = STATX_ATTR_CHANGE_MONOTONIC;
	stx.stx_attributes_mask = STATX_ATTR_CHANGE_MONOTONIC;
	output_is(probe_print_text, &rep, &stx,
		"statx(foo) = 0\n"
		"results=40000200\n"
		"  Size: 5               IO Block: 4096   no type\n"
		"Device: 00:00          \n"
		"Change cookie: 0xfedcba9876543210 (monotonic)\n"
		"Attributes: 8000000000000000 (?....... ........ ........ "
		"........ ........ ........ ........ ........)\n",
		"text: the cookie, monotonic");
	output_is(probe_print_json, &rep, &stx,
		"{\"call\":\"statx\",\"path\":\"foo\","
		"\"request_mask\":\"0x40000200\",\"sync\":\"as-stat\","
		"\"flags\":\"0x0\",\"result_mask\":\"0x40000200\","
		"\"size\":5,\"blksize\":4096,\"dev\":\"0:0\","
		"\"rdev\":\"0:0\",\"attributes\":\"0x8000000000000000\","
		"\"attributes_mask\":\"0x8000000000000000\","
		"\"change_cookie\":\"0xfedcba9876543210\","
		"\"change_monotonic\":true}\n",
		"JSON: the cookie as a hex string, monotonic");

	stx.stx_mask = STATX_SIZE;
	stx.stx_attributes = 0;
	stx.stx_attributes_mask = 0;
	output_is(probe_print_text, &rep, &stx,
		"statx(foo) = 0\n"
		"results=200\n"
		"  Size: 5               IO Block: 4096   no type\n"
		"Device: 00:00          \n"
		"Change cookie: not reported\n",
		"text: asked for, bit not set: not reported");
	output_is(probe_print_json, &rep, &stx,
		"{\"call\":\"statx\",\"path\":\"foo\","
		"\"request_mask\":\"0x40000200\",\"sync\":\"as-stat\","
		"\"flags\":\"0x0\",\"result_mask\":\"0x200\","
		"\"size\":5,\"blksize\":4096,\"dev\":\"0:0\","
		"\"rdev\":\"0:0\",\"attributes\":\"0x0\","
		"\"attributes_mask\":\"0x0\","
		"\"change_cookie\":\"not reported\"}\n",
		"JSON: asked for, bit not set: \"not reported\"");

	rep.request_mask = STATX_SIZE;
	probe_stx_set_change_cookie(&stx, 0);
	stx.stx_mask = STATX_SIZE | STATX_CHANGE_COOKIE;
	output_is(probe_print_json, &rep, &stx,
		"{\"call\":\"statx\",\"path\":\"foo\","
		"\"request_mask\":\"0x200\",\"sync\":\"as-stat\","
		"\"flags\":\"0x0\",\"result_mask\":\"0x40000200\","
		"\"size\":5,\"blksize\":4096,\"dev\":\"0:0\","
		"\"rdev\":\"0:0\",\"attributes\":\"0x0\","
		"\"attributes_mask\":\"0x0\","
		"\"change_cookie\":\"0x0\",\"change_monotonic\":false}\n",
		"JSON: a cookie set without being asked for is still shown");
}

/*
 * The timestamp granularity (STATX_TIME_GRAN, stx_time_gran at 0xc8):
 * in ns when the kernel set the bit, "not reported" when asked for and
 * not set, nothing otherwise.
 */
static void test_time_gran(void)
{
	struct probe_report rep = example_report;
	struct statx stx;

	memset(&stx, 0, sizeof(stx));
	probe_stx_set_time_gran(&stx, 4000000);
	is_uint(((const unsigned char *)&stx)[0xc9], 0x09,
		"the granularity sits at offset 0xc8");
	is_uint(probe_stx_time_gran(&stx), 4000000, "it reads back");
	mask_ok("time_gran", 0x20000000);

	rep.request_mask = STATX_SIZE | STATX_TIME_GRAN;
	stx.stx_mask = STATX_SIZE | STATX_TIME_GRAN;
	stx.stx_blksize = 4096;
	stx.stx_size = 5;
	output_is(probe_print_text, &rep, &stx,
		"statx(foo) = 0\n"
		"results=20000200\n"
		"  Size: 5               IO Block: 4096   no type\n"
		"Device: 00:00          \n"
		"Time granularity: 4000000 ns\n",
		"text: the granularity in ns");
	output_is(probe_print_json, &rep, &stx,
		"{\"call\":\"statx\",\"path\":\"foo\","
		"\"request_mask\":\"0x20000200\",\"sync\":\"as-stat\","
		"\"flags\":\"0x0\",\"result_mask\":\"0x20000200\","
		"\"size\":5,\"blksize\":4096,\"dev\":\"0:0\","
		"\"rdev\":\"0:0\",\"attributes\":\"0x0\","
		"\"attributes_mask\":\"0x0\",\"time_gran_ns\":4000000}\n",
		"JSON: time_gran_ns");
	stx.stx_mask = STATX_SIZE;
	output_is(probe_print_text, &rep, &stx,
		"statx(foo) = 0\n"
		"results=200\n"
		"  Size: 5               IO Block: 4096   no type\n"
		"Device: 00:00          \n"
		"Time granularity: not reported\n",
		"text: asked for, bit not set: not reported");
	output_is(probe_print_json, &rep, &stx,
		"{\"call\":\"statx\",\"path\":\"foo\","
		"\"request_mask\":\"0x20000200\",\"sync\":\"as-stat\","
		"\"flags\":\"0x0\",\"result_mask\":\"0x200\","
		"\"size\":5,\"blksize\":4096,\"dev\":\"0:0\","
		"\"rdev\":\"0:0\",\"attributes\":\"0x0\","
		"\"attributes_mask\":\"0x0\","
		"\"time_gran_ns\":\"not reported\"}\n",
		"JSON: asked for, bit not set: \"not reported\"");
}

int main(void)
{
	test_masks();
	test_sync_and_calls();
	test_args_defaults();
	test_args_errors();
	test_errno_names();
	test_attr_picture();
	test_json_escape();
	test_times_and_types();
	test_stat_conversion();
	test_text_output();
	test_json_output();
	test_change_cookie();
	test_time_gran();

	return done();
}
