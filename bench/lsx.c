// SPDX-License-Identifier: GPL-2.0
/*
 * lsx - list a directory the way each `ls` form would, with the fewest
 * statx calls and the narrowest masks that form allows.
 *
 * It is the floor against which the lab measures busybox and GNU ls:
 * readdir, then one statx per entry relative to the directory fd (no
 * path walk), only where d_type does not already answer, asking only
 * for the fields the form prints. --dont-sync adds AT_STATX_DONT_SYNC.
 * Entries come in readdir order: sorting costs no round trip.
 *
 * Exit status: 0 listed, 1 the directory or an entry failed, 2 usage or
 * no such DIR (one line on stderr, no summary).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "lsx_form.h"

/* glibc's statx() would fall back to fstatat(): ask the kernel itself. */
static int lsx_statx(int dirfd, const char *name, unsigned int flags,
		     unsigned int mask, struct statx *stx)
{
	return (int)syscall(SYS_statx, dirfd, name, flags, mask, stx);
}

static void lsx_print_long(const struct lsx_args *args, const char *name,
			   const struct statx *stx, const char *target)
{
	char mode[11], when[32];
	time_t t = (time_t)stx->stx_mtime.tv_sec;
	struct tm tm;

	lsx_mode_string(mode, stx->stx_mode);
	if (!gmtime_r(&t, &tm) ||
	    !strftime(when, sizeof(when), "%Y-%m-%d %H:%M", &tm))
		snprintf(when, sizeof(when), "?");
	if (args->form == LSX_INODE)
		printf("%llu ", (unsigned long long)stx->stx_ino);
	printf("%s %u %u %u %llu %s %s", mode, stx->stx_nlink, stx->stx_uid,
	       stx->stx_gid, (unsigned long long)stx->stx_size, when, name);
	if (target)
		printf(" -> %s", target);
	putchar('\n');
}

static void lsx_print_short(const struct lsx_args *args, const char *name,
			    unsigned int mode)
{
	const char *color = NULL;

	if (args->form == LSX_COLOR) {
		if (S_ISDIR(mode))
			color = "01;34";
		else if (S_ISLNK(mode))
			color = "01;36";
		else if (S_ISREG(mode) && (mode & 0111))
			color = "01;32";
	}
	if (color)
		printf("\033[%sm%s\033[0m%s\n", color, name,
		       S_ISDIR(mode) ? "/" : "");
	else
		printf("%s%s\n", name, S_ISDIR(mode) ? "/" : "");
}

/* d_type as the file-type bits of a mode; 0 when readdir did not say. */
static unsigned int lsx_dtype_mode(unsigned char d_type)
{
	return d_type == DT_UNKNOWN ? 0 : (unsigned int)DTTOIF(d_type);
}

/* One entry: statx and readlink as the form needs, then print it. */
static int lsx_entry(const struct lsx_args *args, int dirfd,
		     const struct dirent *de, struct lsx_counts *c)
{
	unsigned int mask = lsx_entry_mask(args->form, de->d_type);
	unsigned int flags = AT_SYMLINK_NOFOLLOW;
	struct statx stx = { .stx_mode = lsx_dtype_mode(de->d_type) };
	char target[PATH_MAX];
	bool link;
	ssize_t len;

	if (de->d_type == DT_UNKNOWN)
		c->dtype_unknown++;
	if (args->dont_sync)
		flags |= AT_STATX_DONT_SYNC;
	if (mask != LSX_NO_STATX) {
		c->statx++;
		if (lsx_statx(dirfd, de->d_name, flags, mask, &stx)) {
			fprintf(stderr, LSX_PROG ": statx %s: %s\n",
				de->d_name, strerror(errno));
			return -1;
		}
	}
	link = lsx_wants_link(args->form, IFTODT(stx.stx_mode));
	if (link) {
		c->readlink++;
		len = readlinkat(dirfd, de->d_name, target,
				 sizeof(target) - 1);
		if (len < 0) {
			fprintf(stderr, LSX_PROG ": readlink %s: %s\n",
				de->d_name, strerror(errno));
			return -1;
		}
		target[len] = '\0';
	}
	if (args->json)
		return 0;
	if (args->form == LSX_LONG || args->form == LSX_INODE)
		lsx_print_long(args, de->d_name, &stx, link ? target : NULL);
	else
		lsx_print_short(args, de->d_name, stx.stx_mode);
	return 0;
}

static int lsx_list(const struct lsx_args *args, DIR *d,
		    struct lsx_counts *c)
{
	struct dirent *de;
	int ret = 0;

	while ((errno = 0, de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		c->entries++;
		if (lsx_entry(args, dirfd(d), de, c)) {
			c->errors++;
			ret = -1;
		}
	}
	if (errno) {
		fprintf(stderr, LSX_PROG ": readdir %s: %s\n", args->dir,
			strerror(errno));
		ret = -1;
	}
	return ret;
}

int main(int argc, char *argv[])
{
	struct lsx_counts counts = { 0 };
	struct lsx_args args;
	char err[LSX_ERRLEN];
	int ret;

	DIR *d;

	if (lsx_parse_args(&args, argc, argv, err, sizeof(err))) {
		fprintf(stderr, LSX_PROG ": %s\n", err);
		return 2;
	}
	if (args.help) {
		fputs(lsx_usage(), stdout);
		return 0;
	}
	d = opendir(args.dir);
	if (!d) {
		ret = errno;
		fprintf(stderr, LSX_PROG ": %s: %s\n", args.dir, strerror(ret));
		return ret == ENOENT ? 2 : 1;
	}
	ret = lsx_list(&args, d, &counts);
	closedir(d);
	fflush(stdout);
	lsx_print_summary(args.json ? stdout : stderr, &args, &counts);
	return ret ? 1 : 0;
}
