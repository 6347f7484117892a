// SPDX-License-Identifier: GPL-2.0
/*
 * Text and JSON output for statx-probe.
 *
 * The text layout follows samples/vfs/test-statx.c so results can be
 * compared with it by eye, except that times are always UTC: the guest
 * and the host rarely agree on a time zone.
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <time.h>

#include "lab_errname.h"
#include "lab_json.h"
#include "probe_args.h"
#include "probe_fmt.h"

/*
 * uapi offsets of the fields glibc's fallback struct statx hides in its
 * padding.  Both layouts are 0x100 bytes with stx_dev_minor at 0x8c.
 */
#define STX_MNT_ID_OFF		0x90
#define STX_DIO_MEM_OFF		0x98
#define STX_DIO_OFFSET_OFF	0x9c
#define STX_CHANGE_COOKIE_OFF	0xc0	/* the 6.12 series' patch 15 */
#define STX_TIME_GRAN_OFF	0xc8	/* and its stx_time_gran */

_Static_assert(sizeof(struct statx) == 0x100, "struct statx is not 256 bytes");
_Static_assert(offsetof(struct statx, stx_dev_minor) == 0x8c,
	       "struct statx layout differs from the uapi");

/* A field glibc's struct statx may not name, at @off of the uapi layout */
static void stx_get(const struct statx *stx, size_t off, void *v, size_t len)
{
	memcpy(v, (const char *)stx + off, len);
}

static void stx_set(struct statx *stx, size_t off, const void *v, size_t len)
{
	memcpy((char *)stx + off, v, len);
}

uint64_t probe_stx_mnt_id(const struct statx *stx)
{
	uint64_t v;

	stx_get(stx, STX_MNT_ID_OFF, &v, sizeof(v));
	return v;
}

void probe_stx_set_mnt_id(struct statx *stx, uint64_t mnt_id)
{
	stx_set(stx, STX_MNT_ID_OFF, &mnt_id, sizeof(mnt_id));
}

uint32_t probe_stx_dio_mem_align(const struct statx *stx)
{
	uint32_t v;

	stx_get(stx, STX_DIO_MEM_OFF, &v, sizeof(v));
	return v;
}

uint32_t probe_stx_dio_offset_align(const struct statx *stx)
{
	uint32_t v;

	stx_get(stx, STX_DIO_OFFSET_OFF, &v, sizeof(v));
	return v;
}

void probe_stx_set_dioalign(struct statx *stx, uint32_t mem, uint32_t offset)
{
	stx_set(stx, STX_DIO_MEM_OFF, &mem, sizeof(mem));
	stx_set(stx, STX_DIO_OFFSET_OFF, &offset, sizeof(offset));
}

uint64_t probe_stx_change_cookie(const struct statx *stx)
{
	uint64_t v;

	stx_get(stx, STX_CHANGE_COOKIE_OFF, &v, sizeof(v));
	return v;
}

void probe_stx_set_change_cookie(struct statx *stx, uint64_t cookie)
{
	stx_set(stx, STX_CHANGE_COOKIE_OFF, &cookie, sizeof(cookie));
}

uint32_t probe_stx_time_gran(const struct statx *stx)
{
	uint32_t v;

	stx_get(stx, STX_TIME_GRAN_OFF, &v, sizeof(v));
	return v;
}

void probe_stx_set_time_gran(struct statx *stx, uint32_t ns)
{
	stx_set(stx, STX_TIME_GRAN_OFF, &ns, sizeof(ns));
}

/*
 * The change cookie as a word: its value when the kernel set the mask
 * bit, "not reported" when it was asked for and not set, NULL when it
 * was not asked for.
 */
static const char *cookie_word(const struct probe_report *rep,
			       const struct statx *stx, char *buf, size_t len)
{
	if (stx->stx_mask & STATX_CHANGE_COOKIE) {
		snprintf(buf, len, "0x%llx",
			 (unsigned long long)probe_stx_change_cookie(stx));
		return buf;
	}
	return rep->request_mask & STATX_CHANGE_COOKIE ? "not reported" : NULL;
}

static bool cookie_monotonic(const struct statx *stx)
{
	return stx->stx_attributes & STATX_ATTR_CHANGE_MONOTONIC;
}

static void timespec_to_stx(struct statx_timestamp *ts,
			    const struct timespec *t)
{
	ts->tv_sec = t->tv_sec;
	ts->tv_nsec = (uint32_t)t->tv_nsec;
}

/* stat() fills everything in STATX_BASIC_STATS and nothing else. */
void probe_stat_to_statx(const struct stat *st, struct statx *stx)
{
	memset(stx, 0, sizeof(*stx));
	stx->stx_mask = STATX_BASIC_STATS;
	stx->stx_blksize = (uint32_t)st->st_blksize;
	stx->stx_nlink = (uint32_t)st->st_nlink;
	stx->stx_uid = st->st_uid;
	stx->stx_gid = st->st_gid;
	stx->stx_mode = (uint16_t)st->st_mode;
	stx->stx_ino = st->st_ino;
	stx->stx_size = (uint64_t)st->st_size;
	stx->stx_blocks = (uint64_t)st->st_blocks;
	timespec_to_stx(&stx->stx_atime, &st->st_atim);
	timespec_to_stx(&stx->stx_mtime, &st->st_mtim);
	timespec_to_stx(&stx->stx_ctime, &st->st_ctim);
	stx->stx_rdev_major = major(st->st_rdev);
	stx->stx_rdev_minor = minor(st->st_rdev);
	stx->stx_dev_major = major(st->st_dev);
	stx->stx_dev_minor = minor(st->st_dev);
}

struct file_type {
	unsigned int fmt;
	char letter;
	const char *text;	/* test-statx wording */
	const char *json;
};

static const struct file_type file_types[] = {
	{ S_IFREG,	'-', "regular file",		"regular" },
	{ S_IFDIR,	'd', "directory",		"directory" },
	{ S_IFLNK,	'l', "symbolic link",		"symlink" },
	{ S_IFIFO,	'p', "FIFO",			"fifo" },
	{ S_IFCHR,	'c', "character special file",	"chardev" },
	{ S_IFBLK,	'b', "block special file",	"blockdev" },
	{ S_IFSOCK,	's', "socket",			"socket" },
};

static const struct file_type *find_type(unsigned int mode)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(file_types); i++)
		if (file_types[i].fmt == (mode & S_IFMT))
			return &file_types[i];
	return NULL;
}

const char *probe_type_name(unsigned int mode)
{
	const struct file_type *t = find_type(mode);

	return t ? t->json : "unknown";
}

/*
 * One character per STATX_ATTR_* bit, most significant first, as in
 * test-statx.c with the 6.1 additions: 'M' mount root (bit 13),
 * 'v' verity (bit 20) and 'D' dax (bit 21).
 */
static const char attr_letters[64 + 1] =
	"????????"	/* 63-56 */
	"????????"	/* 55-48 */
	"????????"	/* 47-40 */
	"????????"	/* 39-32 */
	"????????"	/* 31-24 */
	"??Dv????"	/* 23-16 */
	"??Mme???"	/* 15- 8 */
	"?dai?c??";	/*  7- 0 */

/*
 * '.' the filesystem does not support the bit, '-' supported but clear,
 * the bit's letter when set.  Bytes are separated by a space.
 */
void probe_attr_picture(char *out, uint64_t attributes, uint64_t attr_mask)
{
	int bit;

	for (bit = 63; bit >= 0; bit--) {
		uint64_t b = 1ULL << bit;

		if (!(attr_mask & b))
			*out++ = '.';
		else if (attributes & b)
			*out++ = attr_letters[63 - bit];
		else
			*out++ = '-';
		if (bit && bit % 8 == 0)
			*out++ = ' ';
	}
	*out = '\0';
}

/* "YYYY-MM-DD HH:MM:SS.NNNNNNNNN+0000" (UTC), or ISO 8601 "...T...Z". */
void probe_format_time(char *buf, size_t len,
		       const struct statx_timestamp *ts, int iso)
{
	time_t secs = (time_t)ts->tv_sec;
	char date[PROBE_TIME_LEN];
	struct tm tm;

	if (!gmtime_r(&secs, &tm) ||
	    !strftime(date, sizeof(date), iso ? "%FT%T" : "%F %T", &tm)) {
		/* Out of range for struct tm: still show the raw value. */
		snprintf(buf, len, "@%lld.%09u", (long long)ts->tv_sec,
			 ts->tv_nsec);
		return;
	}
	snprintf(buf, len, "%s.%09u%s", date, ts->tv_nsec,
		 iso ? "Z" : "+0000");
}

static void print_size_line(FILE *f, const struct statx *stx)
{
	const struct file_type *t = find_type(stx->stx_mode);

	fputc(' ', f);
	if (stx->stx_mask & STATX_SIZE)
		fprintf(f, " Size: %-15llu", (unsigned long long)stx->stx_size);
	if (stx->stx_mask & STATX_BLOCKS)
		fprintf(f, " Blocks: %-10llu",
			(unsigned long long)stx->stx_blocks);
	fprintf(f, " IO Block: %-6u", stx->stx_blksize);
	if (!(stx->stx_mask & STATX_TYPE))
		fprintf(f, " no type\n");
	else if (t)
		fprintf(f, "  %s\n", t->text);
	else
		fprintf(f, " unknown type (%o)\n", stx->stx_mode & S_IFMT);
}

static void print_device_line(FILE *f, const struct statx *stx)
{
	char dev[32];
	unsigned int fmt = stx->stx_mode & S_IFMT;

	snprintf(dev, sizeof(dev), "%02x:%02x",
		 stx->stx_dev_major, stx->stx_dev_minor);
	fprintf(f, "Device: %-15s", dev);
	if (stx->stx_mask & STATX_INO)
		fprintf(f, " Inode: %-11llu", (unsigned long long)stx->stx_ino);
	if (stx->stx_mask & STATX_NLINK)
		fprintf(f, " Links: %-5u", stx->stx_nlink);
	if ((stx->stx_mask & STATX_TYPE) && (fmt == S_IFBLK || fmt == S_IFCHR))
		fprintf(f, " Device type: %u,%u",
			stx->stx_rdev_major, stx->stx_rdev_minor);
	fputc('\n', f);
}

static void print_mode(FILE *f, const struct statx *stx)
{
	static const char rwx[] = "rwxrwxrwx";
	const struct file_type *t = find_type(stx->stx_mode);
	char perms[10];
	int i;

	for (i = 0; i < 9; i++)
		perms[i] = stx->stx_mode & (0400 >> i) ? rwx[i] : '-';
	perms[9] = '\0';
	fprintf(f, "Access: (%04o/%c%s)  ", stx->stx_mode & 07777,
		(stx->stx_mask & STATX_TYPE) && t ? t->letter : '?', perms);
}

/*
 * test-statx ends this line in the Gid branch only; end it whenever
 * anything was printed so a mask without gid does not glue lines.
 */
static void print_access_line(FILE *f, const struct statx *stx)
{
	unsigned int want = STATX_MODE | STATX_UID | STATX_GID;

	if (stx->stx_mask & STATX_MODE)
		print_mode(f, stx);
	if (stx->stx_mask & STATX_UID)
		fprintf(f, "Uid: %5u   ", stx->stx_uid);
	if (stx->stx_mask & STATX_GID)
		fprintf(f, "Gid: %5u", stx->stx_gid);
	if (stx->stx_mask & want)
		fputc('\n', f);
}

static void print_time_line(FILE *f, const char *label,
			    const struct statx_timestamp *ts)
{
	char buf[PROBE_TIME_LEN];

	probe_format_time(buf, sizeof(buf), ts, 0);
	fprintf(f, "%s%s\n", label, buf);
}

static void print_times(FILE *f, const struct statx *stx)
{
	if (stx->stx_mask & STATX_ATIME)
		print_time_line(f, "Access: ", &stx->stx_atime);
	if (stx->stx_mask & STATX_MTIME)
		print_time_line(f, "Modify: ", &stx->stx_mtime);
	if (stx->stx_mask & STATX_CTIME)
		print_time_line(f, "Change: ", &stx->stx_ctime);
	if (stx->stx_mask & STATX_BTIME)
		print_time_line(f, " Birth: ", &stx->stx_btime);
}

/*
 * Not in 6.1's test-statx; printed only when asked for and returned, but
 * the change cookie, which says "not reported" when asked for in vain.
 */
static void print_extras(FILE *f, const struct probe_report *rep,
			 const struct statx *stx)
{
	char buf[24];
	const char *cookie = cookie_word(rep, stx, buf, sizeof(buf));

	if (stx->stx_mask & STATX_MNT_ID)
		fprintf(f, "Mnt ID: %llu\n",
			(unsigned long long)probe_stx_mnt_id(stx));
	if (stx->stx_mask & STATX_DIOALIGN)
		fprintf(f, "DIO align: mem %u, offset %u\n",
			probe_stx_dio_mem_align(stx),
			probe_stx_dio_offset_align(stx));
	if (cookie)
		fprintf(f, "Change cookie: %s%s\n", cookie,
			!(stx->stx_mask & STATX_CHANGE_COOKIE) ? "" :
			cookie_monotonic(stx) ? " (monotonic)" : "");
	if (stx->stx_mask & STATX_TIME_GRAN)
		fprintf(f, "Time granularity: %u ns\n",
			probe_stx_time_gran(stx));
	else if (rep->request_mask & STATX_TIME_GRAN)
		fputs("Time granularity: not reported\n", f);
}

void probe_print_text(FILE *f, const struct probe_report *rep,
		      const struct statx *stx)
{
	char picture[PROBE_ATTR_PICTURE_LEN];

	fprintf(f, "%s(%s) = 0\n", rep->call, rep->path);
	fprintf(f, "results=%x\n", stx->stx_mask);
	print_size_line(f, stx);
	print_device_line(f, stx);
	print_access_line(f, stx);
	print_times(f, stx);
	print_extras(f, rep, stx);
	if (stx->stx_attributes_mask) {
		probe_attr_picture(picture, stx->stx_attributes,
				   stx->stx_attributes_mask);
		fprintf(f, "Attributes: %016llx (%s)\n",
			(unsigned long long)stx->stx_attributes, picture);
	}
}

/* Linux file names are bytes, JSON strings Unicode: lib/lab_json.h. */
void probe_json_string(FILE *f, const char *s)
{
	lab_json_fputs(f, s);
}

static void json_head(FILE *f, const struct probe_report *rep)
{
	fputs("{\"call\":", f);
	probe_json_string(f, rep->call);
	fputs(",\"path\":", f);
	probe_json_string(f, rep->path);
}

static void json_time(FILE *f, const char *key,
		      const struct statx_timestamp *ts)
{
	char buf[PROBE_TIME_LEN];

	probe_format_time(buf, sizeof(buf), ts, 1);
	fprintf(f, ",\"%s\":\"%s\"", key, buf);
}

static void json_identity(FILE *f, const struct statx *stx)
{
	unsigned int m = stx->stx_mask;

	if (m & STATX_TYPE)
		fprintf(f, ",\"type\":\"%s\"", probe_type_name(stx->stx_mode));
	if (m & STATX_MODE)
		fprintf(f, ",\"mode\":\"%04o\"", stx->stx_mode & 07777);
	if (m & STATX_NLINK)
		fprintf(f, ",\"nlink\":%u", stx->stx_nlink);
	if (m & STATX_UID)
		fprintf(f, ",\"uid\":%u", stx->stx_uid);
	if (m & STATX_GID)
		fprintf(f, ",\"gid\":%u", stx->stx_gid);
	if (m & STATX_INO)
		fprintf(f, ",\"ino\":%llu", (unsigned long long)stx->stx_ino);
	if (m & STATX_SIZE)
		fprintf(f, ",\"size\":%llu", (unsigned long long)stx->stx_size);
	if (m & STATX_BLOCKS)
		fprintf(f, ",\"blocks\":%llu",
			(unsigned long long)stx->stx_blocks);
}

/* Fields the kernel fills whatever the mask says. */
static void json_unconditional(FILE *f, const struct statx *stx)
{
	fprintf(f, ",\"blksize\":%u", stx->stx_blksize);
	fprintf(f, ",\"dev\":\"%u:%u\"", stx->stx_dev_major,
		stx->stx_dev_minor);
	fprintf(f, ",\"rdev\":\"%u:%u\"", stx->stx_rdev_major,
		stx->stx_rdev_minor);
	fprintf(f, ",\"attributes\":\"0x%llx\"",
		(unsigned long long)stx->stx_attributes);
	fprintf(f, ",\"attributes_mask\":\"0x%llx\"",
		(unsigned long long)stx->stx_attributes_mask);
}

static void json_times_and_extras(FILE *f, const struct probe_report *rep,
				  const struct statx *stx)
{
	unsigned int m = stx->stx_mask;
	char buf[24];
	const char *cookie = cookie_word(rep, stx, buf, sizeof(buf));

	if (m & STATX_ATIME)
		json_time(f, "atime", &stx->stx_atime);
	if (m & STATX_MTIME)
		json_time(f, "mtime", &stx->stx_mtime);
	if (m & STATX_CTIME)
		json_time(f, "ctime", &stx->stx_ctime);
	if (m & STATX_BTIME)
		json_time(f, "btime", &stx->stx_btime);
	if (m & STATX_MNT_ID)
		fprintf(f, ",\"mnt_id\":%llu",
			(unsigned long long)probe_stx_mnt_id(stx));
	if (m & STATX_DIOALIGN)
		fprintf(f, ",\"dio_mem_align\":%u,\"dio_offset_align\":%u",
			probe_stx_dio_mem_align(stx),
			probe_stx_dio_offset_align(stx));
	if (cookie)
		fprintf(f, ",\"change_cookie\":\"%s\"", cookie);
	if (m & STATX_CHANGE_COOKIE)
		fprintf(f, ",\"change_monotonic\":%s",
			cookie_monotonic(stx) ? "true" : "false");
	if (m & STATX_TIME_GRAN)
		fprintf(f, ",\"time_gran_ns\":%u", probe_stx_time_gran(stx));
	else if (rep->request_mask & STATX_TIME_GRAN)
		fputs(",\"time_gran_ns\":\"not reported\"", f);
}

void probe_print_json(FILE *f, const struct probe_report *rep,
		      const struct statx *stx)
{
	json_head(f, rep);
	fprintf(f, ",\"request_mask\":\"0x%x\",\"sync\":\"%s\"",
		rep->request_mask, rep->sync);
	fprintf(f, ",\"flags\":\"0x%x\",\"result_mask\":\"0x%x\"",
		rep->flags, stx->stx_mask);
	json_identity(f, stx);
	json_unconditional(f, stx);
	json_times_and_extras(f, rep, stx);
	fputs("}\n", f);
}

void probe_print_json_error(FILE *f, const struct probe_report *rep, int err)
{
	char name[32];

	lab_errlabel(err, name, sizeof(name));
	json_head(f, rep);
	fprintf(f, ",\"error\":\"%s\",\"errno\":%d}\n", name, err);
}
