// SPDX-License-Identifier: GPL-2.0
/*
 * The case model (case.h): a case from its line, checked strictly
 * (unknown keys, values outside their set and keys the case's workload
 * would ignore are errors, never silently dropped; "cmd=" takes the rest
 * of the line), the line from a case, its keys in results.json, and the
 * measured calls every runner makes the same way.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "case.h"
#include "lab_json.h"

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

const char *const lab_cache_names[] = { "cold", "warm", "expired", "changed",
					NULL };
const char *const lab_workload_names[] = { "syscall", "ls", "cmd", "deep",
					   "scan", NULL };

enum lab_kind { K_WORD, K_WORKLOAD, K_CACHE, K_MASK, K_OPTS, K_UINT, K_BOOL,
		K_REST };

struct lab_key {
	const char *key;
	enum lab_kind kind;
	size_t off;
	size_t size;		/* strings: buffer size; numbers: maximum */
	const char *values;	/* K_WORD: the allowed values, '|' between */
	unsigned int workloads;	/* bit per enum lab_workload using it */
};

#define SYSCALL		(1u << LAB_SYSCALL)
#define LS		(1u << LAB_LS)
#define CMD		(1u << LAB_CMD)
#define DEEP		(1u << LAB_DEEP)
#define SCAN		(1u << LAB_SCAN)
#define ALL		(SYSCALL | LS | CMD | DEEP | SCAN)
#define STR(f)		offsetof(struct lab_case, f), \
			sizeof(((struct lab_case *)0)->f)
#define NUM(f, max)	offsetof(struct lab_case, f), (max)

static const struct lab_key lab_keys[] = {
	{ "workload", K_WORKLOAD, NUM(workload, 0), NULL, ALL },
	{ "call", K_WORD, STR(call), "stat|lstat|fstatat|statx|ls|gnu-ls|lsx",
	  SYSCALL | LS },
	{ "form", K_WORD, STR(form), "plain|color|long|inode", LS },
	{ "sync", K_WORD, STR(sync), "as-stat|dont|force",
	  SYSCALL | LS | DEEP | SCAN },
	{ "mask", K_MASK, STR(mask), NULL, SYSCALL },
	{ "object", K_WORD, STR(object), "file|dir|symlink|deep|deeper",
	  SYSCALL },
	{ "nofollow", K_BOOL, NUM(nofollow, 1), NULL, SYSCALL },
	{ "n", K_UINT, NUM(n, 10000), NULL, LS | CMD | SCAN },
	{ "cache", K_CACHE, NUM(cache, 0), NULL, ALL },
	{ "opts", K_OPTS, STR(opts), NULL, ALL },
	{ "delay", K_UINT, NUM(delay_ms, 10000), NULL, ALL },
	{ "expire", K_UINT, NUM(expire_ms, 600000), NULL, ALL },
	{ "repeat", K_UINT, NUM(repeat, 100), NULL, ALL },
	{ "cmd", K_REST, STR(cmd), NULL, CMD },
};

static const struct {
	const char *name;
	unsigned int bits;
} lab_masks[] = {
	{ "type", STATX_TYPE }, { "mode", STATX_MODE },
	{ "nlink", STATX_NLINK }, { "uid", STATX_UID }, { "gid", STATX_GID },
	{ "atime", STATX_ATIME }, { "mtime", STATX_MTIME },
	{ "ctime", STATX_CTIME }, { "ino", STATX_INO },
	{ "size", STATX_SIZE }, { "blocks", STATX_BLOCKS },
	{ "btime", STATX_BTIME }, { "basic", STATX_BASIC_STATS },
	{ "all", STATX_BASIC_STATS | STATX_BTIME }, { "none", 0 },
};

/**
 * lab_sync_flags - a sync-mode word as statx flags
 * @word: as-stat, dont or force
 *
 * Return: AT_STATX_SYNC_AS_STAT, _DONT_SYNC or _FORCE_SYNC; -1 otherwise.
 */
int lab_sync_flags(const char *word)
{
	if (!strcmp(word, "as-stat"))
		return AT_STATX_SYNC_AS_STAT;
	if (!strcmp(word, "dont"))
		return AT_STATX_DONT_SYNC;
	if (!strcmp(word, "force"))
		return AT_STATX_FORCE_SYNC;
	return -1;
}

/* A mask spec ("basic", "type,ino", "none") as STATX_* bits; 0 or -1. */
int lab_mask_parse(const char *spec, unsigned int *bits)
{
	char buf[64], *name, *save;
	size_t i;

	if (!*spec || strlen(spec) >= sizeof(buf))
		return -1;
	strcpy(buf, spec);
	*bits = 0;
	for (name = strtok_r(buf, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < ARRAY_LEN(lab_masks); i++)
			if (!strcmp(name, lab_masks[i].name))
				break;
		if (i == ARRAY_LEN(lab_masks))
			return -1;
		*bits |= lab_masks[i].bits;
	}
	return 0;
}

/* The index of @v in a NULL-ended list, or -1. */
static int lab_index(const char *const *names, const char *v)
{
	int i;

	for (i = 0; names[i]; i++)
		if (!strcmp(names[i], v))
			return i;
	return -1;
}

/* Is @v one of the '|'-separated @values? */
static bool lab_word_ok(const char *v, const char *values)
{
	size_t n = strlen(v);
	const char *p;

	for (p = values; p; p = strchr(p, '|'), p = p ? p + 1 : NULL)
		if (!strncmp(p, v, n) && (p[n] == '|' || p[n] == '\0'))
			return n > 0;
	return false;
}

/* Mount options: no shell or separator characters, no address. */
static bool lab_opts_ok(const char *v)
{
	const char *p;

	for (p = v; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr("=,._-", *p)))
			return false;
	return !strstr(v, "vers=") && !strstr(v, "addr=");
}

static int lab_uint(const char *v, size_t max, unsigned int *out)
{
	unsigned long n;
	char *end;

	if (*v < '0' || *v > '9' || strlen(v) > 7)
		return -1;
	n = strtoul(v, &end, 10);
	if (*end || n > max)
		return -1;
	*out = n;
	return 0;
}

static int lab_set(struct lab_case *k, const struct lab_key *lk, const char *v)
{
	char *field = (char *)k + lk->off;
	unsigned int n;
	int i;

	switch (lk->kind) {
	case K_WORKLOAD:
	case K_CACHE:
		i = lab_index(lk->kind == K_CACHE ? lab_cache_names :
						    lab_workload_names, v);
		if (i < 0)
			return -1;
		*(int *)field = i;
		return 0;
	case K_UINT:
	case K_BOOL:
		if (lab_uint(v, lk->size, &n))
			return -1;
		if (lk->kind == K_BOOL)
			k->nofollow = n;
		else
			*(unsigned int *)field = n;
		return 0;
	case K_WORD:
		if (!lab_word_ok(v, lk->values))
			return -1;
		break;
	case K_MASK:
		if (lab_mask_parse(v, &k->mask_bits))
			return -1;
		break;
	case K_OPTS:
		if (!lab_opts_ok(v))
			return -1;
		break;
	case K_REST:
		if (!*v)
			return -1;
		break;
	}
	if (strlen(v) >= lk->size)
		return -1;
	strcpy(field, v);
	return 0;
}

static unsigned int lab_key_bit(const char *key)
{
	size_t i;

	for (i = 0; i < ARRAY_LEN(lab_keys); i++)
		if (!strcmp(lab_keys[i].key, key))
			return 1u << i;
	return 0;
}

static void lab_defaults(struct lab_case *k, const char *opts0)
{
	memset(k, 0, sizeof(*k));
	strcpy(k->call, "statx");
	strcpy(k->sync, "as-stat");
	strcpy(k->mask, "basic");
	k->mask_bits = STATX_BASIC_STATS;
	strcpy(k->object, "deep");
	snprintf(k->opts, sizeof(k->opts), "%s", opts0);
	k->n = 1;
	k->repeat = 1;
	k->base = -1;
}

static const char *lab_check_ls(const struct lab_case *k)
{
	if (!lab_word_ok(k->call, "ls|gnu-ls|lsx"))
		return "workload=ls takes call=ls, gnu-ls or lsx";
	if (!strcmp(k->sync, "force") ||
	    (!strcmp(k->sync, "dont") && strcmp(k->call, "lsx")))
		return "sync=dont is for call=lsx (--dont-sync)";
	return NULL;
}

/* The combinations a case may not ask for. */
static const char *lab_check(const struct lab_case *k, unsigned int seen)
{
	static char why[64];
	size_t i;

	for (i = 0; i < ARRAY_LEN(lab_keys); i++)
		if ((seen & (1u << i)) &&
		    !(lab_keys[i].workloads & (1u << k->workload))) {
			snprintf(why, sizeof(why), "workload=%s takes no %s=",
				 lab_workload_names[k->workload],
				 lab_keys[i].key);
			return why;
		}
	switch (k->workload) {
	case LAB_CMD:
		return k->cmd[0] ? NULL : "workload=cmd without cmd=";
	case LAB_DEEP:
		return k->cache != LAB_CHANGED ? NULL :
			"workload=deep takes cache=cold, warm or expired";
	case LAB_LS:
		return lab_check_ls(k);
	case LAB_SCAN:
		if (k->cache != LAB_EXPIRED)
			return "workload=scan takes cache=expired";
		return k->n >= LAB_SCAN_CHANGES ? NULL :
			"workload=scan takes n=2 or more";
	default:
		break;
	}
	if (!lab_word_ok(k->call, "stat|lstat|fstatat|statx"))
		return "workload=syscall takes call=stat, lstat, fstatat, statx";
	if (!strcmp(k->call, "statx"))
		return NULL;
	if (strcmp(k->sync, "as-stat") || strcmp(k->mask, "basic"))
		return "sync= and mask= are for call=statx";
	if (k->nofollow && strcmp(k->call, "fstatat"))
		return "nofollow= is for call=statx and call=fstatat";
	return NULL;
}

/* What a workload implies: ls lists ls/, deep walks the tree by statx. */
static void lab_imply(struct lab_case *k, unsigned int seen)
{
	if (!(seen & lab_key_bit("workload")))
		k->workload = seen & lab_key_bit("cmd")	 ? LAB_CMD :
			      seen & lab_key_bit("form") ? LAB_LS :
							   LAB_SYSCALL;
	if (k->workload == LAB_LS) {
		if (!(seen & lab_key_bit("call")))
			strcpy(k->call, "gnu-ls");
		if (!(seen & lab_key_bit("form")))
			strcpy(k->form, "long");
		strcpy(k->object, "dir");
	}
	if (k->workload == LAB_DEEP) {
		strcpy(k->call, "statx");
		strcpy(k->mask, "basic");
		k->mask_bits = STATX_BASIC_STATS;
		strcpy(k->object, "deep");
		k->n = LAB_DEEP_N;
	}
	if (k->workload == LAB_CMD)
		strcpy(k->call, "cmd");
	if (k->workload == LAB_SCAN) {
		strcpy(k->call, "statx");
		/* what the scan compares: the mask its statx asks for */
		if (!strcmp(k->sync, "as-stat")) {
			strcpy(k->mask, "mtime,ctime,size");
			k->mask_bits = STATX_MTIME | STATX_CTIME | STATX_SIZE;
		} else {
			strcpy(k->mask, "change_cookie");
			k->mask_bits = STATX_COOKIE;
		}
		strcpy(k->object, "dir");
		if (!(seen & lab_key_bit("n")))
			k->n = LAB_SCAN_N;
	}
}

/* The key of the word at @word (@len long, up to '='), or -1. */
static int lab_find_key(const char *word, size_t len)
{
	const char *eq = memchr(word, '=', len);
	size_t i;

	for (i = 0; eq && i < ARRAY_LEN(lab_keys); i++)
		if ((size_t)(eq - word) == strlen(lab_keys[i].key) &&
		    !strncmp(word, lab_keys[i].key, eq - word))
			return (int)i;
	return -1;
}

/**
 * lab_case_parse - one case from its line
 * @line: "key=value ..." (a trailing newline is allowed)
 * @opts0: the mount options of a case without opts=
 * @k: the case, defaults filled in
 * @err: a message naming the offending word, on failure
 * @errlen: its size
 *
 * Return: 0 or -EINVAL.
 */
int lab_case_parse(const char *line, const char *opts0, struct lab_case *k,
		   char *err, size_t errlen)
{
	char buf[512], *word;
	unsigned int seen = 0;
	const char *why;
	size_t len;
	int i;

	lab_defaults(k, opts0);
	snprintf(buf, sizeof(buf), "%s", line);
	buf[strcspn(buf, "\n")] = '\0';
	if (strlen(buf) >= sizeof(k->line)) {
		snprintf(err, errlen, "a line of more than %zu characters",
			 sizeof(k->line) - 1);
		return -EINVAL;
	}
	strcpy(k->line, buf);
	for (word = buf; *word; word += len) {
		word += strspn(word, " \t");
		len = strcspn(word, " \t");
		if (!len)
			break;
		i = lab_find_key(word, len);
		if (i < 0) {
			snprintf(err, errlen, "unknown word '%.*s'", (int)len,
				 word);
			return -EINVAL;
		}
		if (lab_keys[i].kind == K_REST)
			len = strlen(word);
		else if (word[len])
			word[len++] = '\0';
		if (lab_set(k, &lab_keys[i], strchr(word, '=') + 1)) {
			snprintf(err, errlen, "bad value in '%s'", word);
			return -EINVAL;
		}
		seen |= 1u << i;
	}
	lab_imply(k, seen);
	why = lab_check(k, seen);
	if (why) {
		snprintf(err, errlen, "%s", why);
		return -EINVAL;
	}
	return 0;
}

/* A comment or a blank line is not a case. */
bool lab_is_case_line(const char *line)
{
	line += strspn(line, " \t\n");
	return *line && *line != '#';
}

/* A JSON string, escaped as everywhere in the lab (lib/lab_json.h). */
void lab_json_str(FILE *f, const char *s)
{
	lab_json_fputs(f, s);
}

static void lab_json_key(FILE *f, const char *key, const char *val)
{
	fprintf(f, ",\"%s\":", key);
	lab_json_str(f, val);
}

/**
 * lab_case_keys - a case's keys in results.json, as an unclosed object
 * @f: where
 * @kernel: the kernel's label ("-" in a plan)
 * @fs: the file system (fuse, nfs3, nfs4.2)
 * @mount_opts: the mount's options as results.json shows them
 * @k: the case
 *
 * bench/compare matches two runs' cases on these keys.
 */
void lab_case_keys(FILE *f, const char *kernel, const char *fs,
		   const char *mount_opts, const struct lab_case *k)
{
	fputc('{', f);
	if (k->id)
		fprintf(f, "\"id\":%u,", k->id);
	fputs("\"kernel\":", f);
	lab_json_str(f, kernel);
	lab_json_key(f, "fs", fs);
	lab_json_key(f, "mount_opts", mount_opts);
	lab_json_key(f, "workload", lab_workload_names[k->workload]);
	lab_json_key(f, "call", k->call);
	if (k->workload == LAB_LS)
		lab_json_key(f, "form", k->form);
	if (k->workload != LAB_CMD)
		lab_json_key(f, "sync", k->sync);
	if (k->workload == LAB_SYSCALL || k->workload == LAB_DEEP ||
	    k->workload == LAB_SCAN)
		lab_json_key(f, "mask", k->mask);
	if (k->workload != LAB_CMD)
		lab_json_key(f, "object", k->object);
	if (k->nofollow)
		fputs(",\"nofollow\":true", f);
	if (k->workload == LAB_CMD)
		lab_json_key(f, "cmd", k->cmd);
	lab_json_key(f, "cache", lab_cache_names[k->cache]);
	fprintf(f, ",\"n\":%u,\"delay_ms\":%u", k->n, k->delay_ms);
	if (k->repeat > 1)
		fprintf(f, ",\"repeat\":%u", k->repeat);
}

static void lab_from_stat(struct statx *stx, const struct stat *st)
{
	memset(stx, 0, sizeof(*stx));
	stx->stx_mask = STATX_BASIC_STATS;
	stx->stx_mode = st->st_mode;
	stx->stx_ino = st->st_ino;
	stx->stx_size = st->st_size;
	stx->stx_ctime.tv_sec = st->st_ctim.tv_sec;
	stx->stx_ctime.tv_nsec = st->st_ctim.tv_nsec;
}

/**
 * lab_call - the measured stat-family call of a syscall case
 * @k: the case
 * @path: the object
 * @dirfd: fstatat's directory
 * @name: fstatat's path, below @dirfd
 * @stx: the answer (stat's converted)
 *
 * Return: 0 or the call's errno.
 */
int lab_call(const struct lab_case *k, const char *path, int dirfd,
	     const char *name, struct statx *stx)
{
	int nofollow = k->nofollow ? AT_SYMLINK_NOFOLLOW : 0;
	struct stat st;
	int rc;

	if (!strcmp(k->call, "statx"))
		return syscall(SYS_statx, AT_FDCWD, path,
			       nofollow | lab_sync_flags(k->sync),
			       k->mask_bits, stx) ? errno : 0;
	if (!strcmp(k->call, "stat"))
		rc = stat(path, &st);
	else if (!strcmp(k->call, "lstat"))
		rc = lstat(path, &st);
	else
		rc = fstatat(dirfd, name, &st, nofollow);
	if (rc)
		return errno;
	lab_from_stat(stx, &st);
	return 0;
}

/*
 * The command of an ls case (its program's path; @argv ends in @dir):
 * busybox ls, GNU ls or bench's lsx, with the flags of its form; lsx
 * takes the form by name (@json: its one-line summary on stdout), and
 * --dont-sync for sync=dont.
 */
const char *lab_ls_argv(const struct lab_case *k, const char *dir, bool json,
			const char *argv[8])
{
	static const char *const flags[][2] = {
		{ "color", "--color=always" }, { "long", "-l" },
		{ "inode", "-li" },
	};
	const char *path = "/usr/bin/lsx";
	size_t i, n = 0;

	if (!strcmp(k->call, "lsx")) {
		argv[n++] = "lsx";
		if (json)
			argv[n++] = "--json";
		argv[n++] = "--form";
		argv[n++] = k->form;
		if (!strcmp(k->sync, "dont"))
			argv[n++] = "--dont-sync";
	} else {
		path = strcmp(k->call, "ls") ? "/usr/bin/gnu-ls" :
					       "/bin/busybox";
		argv[n++] = "ls";
		for (i = 0; i < ARRAY_LEN(flags); i++)
			if (!strcmp(k->form, flags[i][0]))
				argv[n++] = flags[i][1];
	}
	argv[n++] = dir;
	argv[n] = NULL;
	return path;
}

/* Leaf @leaf's directory below @root, "ROOT/a0/b1/c0/d1", into @p. */
void lab_deep_leaf(char *p, size_t len, const char *root, unsigned int leaf)
{
	size_t n = (size_t)snprintf(p, len, "%s", root);
	unsigned int lvl;

	for (lvl = 0; lvl < LAB_DEEP_DEPTH && n < len; lvl++)
		n += (size_t)snprintf(p + n, len - n, "/%c%u", 'a' + lvl,
				      (leaf >> (LAB_DEEP_DEPTH - 1 - lvl)) & 1);
}

/* statx (@flags) of every file of the deep tree at @root; first errno. */
int lab_deep_walk(const char *root, int flags)
{
	char leaf[192], path[208];
	struct statx stx;
	unsigned int l, f;
	int err = 0;

	for (l = 0; l < LAB_DEEP_LEAVES; l++) {
		lab_deep_leaf(leaf, sizeof(leaf), root, l);
		for (f = 0; f < LAB_DEEP_FILES; f++) {
			snprintf(path, sizeof(path), "%s/f%u", leaf, f);
			if (syscall(SYS_statx, AT_FDCWD, path, flags,
				    STATX_BASIC_STATS, &stx) && !err)
				err = errno;
		}
	}
	return err;
}

long long lab_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/* The @i-th file of a scan directory: "f0000" */
void lab_scan_name(char *p, size_t len, unsigned int i)
{
	snprintf(p, len, "f%04u", i);
}

/* stx_change_cookie, at 0xc0 of struct statx (the 6.12 series' uapi) */
unsigned long long lab_stx_cookie(const struct statx *stx)
{
	unsigned long long c;

	memcpy(&c, (const char *)stx + 0xc0, sizeof(c));
	return c;
}

static struct timespec lab_ts_add(struct timespec t, long long ns)
{
	ns += t.tv_nsec;
	t.tv_sec += ns / 1000000000;
	t.tv_nsec = ns % 1000000000;
	return t;
}

static bool lab_ts_eq(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

/* Rewrite @fd's first byte, the clock set to its ctime (@was) meanwhile */
static int lab_rewrite_at(int fd, const struct stat *was)
{
	struct timespec real, mono0, mono1, times[2] = { was->st_atim,
							  was->st_mtim };
	char c;
	int err = 0;

	if (pread(fd, &c, 1, 0) != 1)
		return -EIO;
	c ^= 0x20;	/* "data" <-> "Data": another content, the same size */
	clock_gettime(CLOCK_REALTIME, &real);
	clock_gettime(CLOCK_MONOTONIC, &mono0);
	if (clock_settime(CLOCK_REALTIME, &was->st_ctim))
		return -errno;
	if (pwrite(fd, &c, 1, 0) != 1 || futimens(fd, times))
		err = -EIO;
	clock_gettime(CLOCK_MONOTONIC, &mono1);
	real = lab_ts_add(real, (mono1.tv_sec - mono0.tv_sec) * 1000000000LL +
				mono1.tv_nsec - mono0.tv_nsec);
	if (clock_settime(CLOCK_REALTIME, &real) && !err)
		err = -errno;
	return err;
}

/*
 * Tries of a rewrite unseen: under TCG on a loaded host the guest often
 * loses its CPU between setting the clock and the write, past the next
 * tick (4 ms); each try is cheap, and a failed one leaves nothing that
 * the next does not put back.
 */
#define LAB_REWRITE_TRIES	200

/**
 * lab_rewrite_unseen - change a file so that no timestamp shows it
 * @dfd: its directory
 * @name: the file, below @dfd
 *
 * Two writes of the same size within one tick of the clock the file
 * system stamps with leave mtime, ctime and size as they were; a scan
 * that compares them sees nothing. Made deterministic: the clock is set
 * to the file's ctime for the write (the kernel stamps with its coarse
 * clock, which shows the value set until its next tick), the atime and
 * mtime are put back, then the clock is set forward again by what
 * passed. A tick between the two settings moves the ctime: tried again.
 *
 * Return: 0, -EAGAIN when the ctime moved every time, or -errno.
 */
int lab_rewrite_unseen(int dfd, const char *name)
{
	struct stat was, now;
	int fd, err, tries;

	fd = openat(dfd, name, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = fstat(fd, &was) ? -errno : -EAGAIN;
	for (tries = 0; err == -EAGAIN && tries < LAB_REWRITE_TRIES; tries++) {
		err = lab_rewrite_at(fd, &was);
		if (!err && fstat(fd, &now))
			err = -errno;
		else if (!err && (!lab_ts_eq(&now.st_ctim, &was.st_ctim) ||
				  !lab_ts_eq(&now.st_mtim, &was.st_mtim) ||
				  now.st_size != was.st_size))
			err = -EAGAIN;
	}
	close(fd);
	return err;
}

/*
 * The scan's change to its @i-th file, below @dfd, behind the client's
 * back: LAB_SCAN_GROWN appends, LAB_SCAN_UNSEEN is rewritten unseen,
 * the others stay as they are. 0 or -errno.
 */
int lab_scan_change(int dfd, unsigned int i)
{
	char name[16];
	int fd, err = 0;

	lab_scan_name(name, sizeof(name), i);
	if (i == LAB_SCAN_UNSEEN)
		return lab_rewrite_unseen(dfd, name);
	if (i != LAB_SCAN_GROWN)
		return 0;
	fd = openat(dfd, name, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, "more\n", 5) != 5)
		err = -EIO;
	close(fd);
	return err;
}
