// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for lsx's pure part (lsx_form.c): the mask each form
 * asks for per d_type, the command line, the mode string, the summary.
 * TAP; t/lsx.t runs it under prove.
 */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsx_form.h"

#include "tap.h"

static void is_mask(unsigned int got, unsigned int want, const char *desc)
{
	ok(got == want, "%s", desc);
	if (got != want)
		printf("#   got 0x%x, want 0x%x\n", got, want);
}

#define LONG_MASK	(STATX_TYPE | STATX_MODE | STATX_NLINK | STATX_UID | \
			 STATX_GID | STATX_SIZE | STATX_MTIME)

static void test_masks(void)
{
	is_mask(lsx_entry_mask(LSX_PLAIN, DT_REG), LSX_NO_STATX,
		"plain, d_type known: no statx");
	is_mask(lsx_entry_mask(LSX_PLAIN, DT_DIR), LSX_NO_STATX,
		"plain, directory: no statx");
	is_mask(lsx_entry_mask(LSX_PLAIN, DT_UNKNOWN), STATX_TYPE,
		"plain, DT_UNKNOWN: the type only");
	is_mask(lsx_entry_mask(LSX_COLOR, DT_REG), STATX_TYPE | STATX_MODE,
		"color, file: type and mode (exec bit)");
	is_mask(lsx_entry_mask(LSX_COLOR, DT_DIR), STATX_TYPE | STATX_MODE,
		"color, directory: type and mode (sticky, o+w)");
	is_mask(lsx_entry_mask(LSX_COLOR, DT_LNK), LSX_NO_STATX,
		"color, symlink: d_type is enough");
	is_mask(lsx_entry_mask(LSX_COLOR, DT_FIFO), LSX_NO_STATX,
		"color, fifo: d_type is enough");
	is_mask(lsx_entry_mask(LSX_COLOR, DT_UNKNOWN), STATX_TYPE | STATX_MODE,
		"color, DT_UNKNOWN: type and mode");
	is_mask(lsx_entry_mask(LSX_LONG, DT_REG), LONG_MASK,
		"long: type,mode,nlink,uid,gid,size,mtime");
	is_mask(lsx_entry_mask(LSX_LONG, DT_LNK), LONG_MASK,
		"long, symlink: the same mask");
	is_mask(lsx_entry_mask(LSX_INODE, DT_DIR), LONG_MASK | STATX_INO,
		"inode: the long mask plus ino");
	ok(!(lsx_form_mask(LSX_LONG) & (STATX_ATIME | STATX_CTIME |
					STATX_BLOCKS | STATX_BTIME)),
	   "long never asks for atime, ctime, blocks or btime");
	ok(lsx_wants_link(LSX_LONG, DT_LNK), "long reads symlink targets");
	ok(lsx_wants_link(LSX_INODE, DT_LNK), "inode reads symlink targets");
	ok(!lsx_wants_link(LSX_COLOR, DT_LNK), "color does not readlink");
	ok(!lsx_wants_link(LSX_LONG, DT_REG), "no readlink of a file");
}

static int parse(struct lsx_args *a, const char *line, char *err)
{
	static char buf[256];	/* args->dir points into it */
	char *argv[16];
	int argc = 0;
	char *tok;

	snprintf(buf, sizeof(buf), "lsx %s", line);
	for (tok = strtok(buf, " "); tok && argc < 15; tok = strtok(NULL, " "))
		argv[argc++] = tok;
	argv[argc] = NULL;
	return lsx_parse_args(a, argc, argv, err, LSX_ERRLEN);
}

static void test_args(void)
{
	char err[LSX_ERRLEN] = "";
	struct lsx_args a;
	enum lsx_form f;

	ok(!parse(&a, "/d", err) && a.form == LSX_PLAIN && !a.dont_sync &&
	   !a.json && !strcmp(a.dir, "/d"), "defaults: plain, as-stat, text");
	ok(!parse(&a, "--form inode --dont-sync --json /d", err) &&
	   a.form == LSX_INODE && a.dont_sync && a.json,
	   "--form inode --dont-sync --json");
	ok(parse(&a, "--form wide /d", err) && strstr(err, "unknown form"),
	   "unknown form refused: %s", err);
	ok(parse(&a, "--form", err) && strstr(err, "needs a value"),
	   "--form without a value refused");
	ok(parse(&a, "", err) && strstr(err, "no directory"),
	   "a directory is required");
	ok(parse(&a, "/a /b", err) && strstr(err, "one directory"),
	   "two directories refused");
	ok(parse(&a, "-l /d", err) && strstr(err, "unknown option"),
	   "unknown option refused");
	ok(!parse(&a, "--help", err) && a.help, "--help");
	ok(!lsx_parse_form("color", &f) && f == LSX_COLOR &&
	   !strcmp(lsx_form_name(f), "color"), "form names round-trip");
}

static void is_mode(unsigned int mode, const char *want)
{
	char buf[11];

	lsx_mode_string(buf, mode);
	ok(!strcmp(buf, want), "mode 0%o is %s", mode, want);
	if (strcmp(buf, want))
		printf("#   got %s\n", buf);
}

static void test_modes(void)
{
	is_mode(S_IFREG | 0644, "-rw-r--r--");
	is_mode(S_IFDIR | 0755, "drwxr-xr-x");
	is_mode(S_IFLNK | 0777, "lrwxrwxrwx");
	is_mode(S_IFDIR | 01777, "drwxrwxrwt");
	is_mode(S_IFREG | 04755, "-rwsr-xr-x");
	is_mode(S_IFREG | 02644, "-rw-r-Sr--");
	is_mode(S_IFCHR | 0600, "crw-------");
}

static void test_summary(void)
{
	struct lsx_args a = { .form = LSX_LONG, .dont_sync = true,
			      .json = true, .dir = "/m/d\"q" };
	struct lsx_counts c = { 5, 4, 1, 0, 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	lsx_print_summary(f, &a, &c);
	fclose(f);
	ok(buf && !strcmp(buf, "{\"dir\":\"/m/d\\\"q\",\"form\":\"long\",\"sync\":"
		   "\"dont\",\"mask\":\"0x25f\",\"entries\":5,\"statx\":4,"
		   "\"readlink\":1,\"dtype_unknown\":0,\"errors\":0}\n"),
	   "JSON summary");
	if (buf && tap_failed)
		printf("#   %s", buf);
	free(buf);
}

int main(void)
{
	test_masks();
	test_args();
	test_modes();
	test_summary();
	return done();
}
