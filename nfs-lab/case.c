// SPDX-License-Identifier: GPL-2.0
/*
 * One case from one line of "key=value" words, checked strictly: unknown
 * keys, values outside their set and keys the case's workload would
 * ignore are errors, never silently dropped. "cmd=" takes the rest of the
 * line.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "labcase.h"

enum case_kind { K_WORD, K_MASK, K_OPTS, K_UINT, K_REST };

struct case_key {
	const char *key;
	enum case_kind kind;
	size_t off;
	size_t size; /* strings: buffer size; numbers: maximum */
	const char *values; /* K_WORD: the allowed values, '|' between */
	unsigned int workloads; /* bit per enum case_workload using it */
};

#define SYSCALL (1u << W_SYSCALL)
#define LS (1u << W_LS)
#define DEEP (1u << W_DEEP)
#define ALL_WORKLOADS (SYSCALL | LS | (1u << W_CMD) | DEEP)
#define STR(f) offsetof(struct lab_case, f), sizeof(((struct lab_case *)0)->f)
#define NUM(f, max) offsetof(struct lab_case, f), (max)

static const struct case_key case_keys[] = {
	{ "workload", K_WORD, 0, 0, "syscall|ls|cmd|deep", ALL_WORKLOADS },
	{ "call", K_WORD, STR(call), "stat|lstat|fstatat|statx|ls|gnu-ls|lsx",
	  SYSCALL | LS },
	{ "sync", K_WORD, STR(sync), "as-stat|dont|force",
	  SYSCALL | LS | DEEP },
	{ "mask", K_MASK, STR(mask), NULL, SYSCALL },
	{ "object", K_WORD, STR(object), "file|dir|symlink|deep|deeper",
	  SYSCALL },
	{ "nofollow", K_UINT, NUM(nofollow, 1), NULL, SYSCALL },
	{ "cache", K_WORD, STR(cache), "cold|warm|expired|changed",
	  ALL_WORKLOADS },
	{ "opts", K_OPTS, STR(opts), NULL, ALL_WORKLOADS },
	{ "delay", K_UINT, NUM(delay_ms, 10000), NULL, ALL_WORKLOADS },
	{ "expire", K_UINT, NUM(expire_ms, 600000), NULL, ALL_WORKLOADS },
	{ "n", K_UINT, NUM(n, 10000), NULL, LS | (1u << W_CMD) },
	{ "form", K_WORD, STR(form), "plain|color|long|inode", LS },
	{ "cmd", K_REST, STR(cmd), NULL, 1u << W_CMD },
};

static const struct {
	const char *name;
	unsigned int bits;
} case_masks[] = {
	{ "type", STATX_TYPE },
	{ "mode", STATX_MODE },
	{ "nlink", STATX_NLINK },
	{ "uid", STATX_UID },
	{ "gid", STATX_GID },
	{ "atime", STATX_ATIME },
	{ "mtime", STATX_MTIME },
	{ "ctime", STATX_CTIME },
	{ "ino", STATX_INO },
	{ "size", STATX_SIZE },
	{ "blocks", STATX_BLOCKS },
	{ "btime", STATX_BTIME },
	{ "basic", STATX_BASIC_STATS },
	{ "all", STATX_BASIC_STATS | STATX_BTIME },
};

/* Is @v one of the '|'-separated @values? */
static bool case_word_ok(const char *v, const char *values)
{
	size_t n = strlen(v);
	const char *p;

	for (p = values; p; p = strchr(p, '|'), p = p ? p + 1 : NULL)
		if (!strncmp(p, v, n) && (p[n] == '|' || p[n] == '\0'))
			return n > 0;
	return false;
}

static int case_mask(const char *v, unsigned int *bits)
{
	char buf[64], *name, *save;
	unsigned int i;

	snprintf(buf, sizeof(buf), "%s", v);
	*bits = 0;
	for (name = strtok_r(buf, ",", &save); name;
	     name = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < sizeof(case_masks) / sizeof(case_masks[0]); i++)
			if (!strcmp(name, case_masks[i].name))
				break;
		if (i == sizeof(case_masks) / sizeof(case_masks[0]))
			return -EINVAL;
		*bits |= case_masks[i].bits;
	}
	return *bits ? 0 : -EINVAL;
}

/* Mount options and ls arguments: no shell or separator characters. */
static bool case_chars_ok(const char *v, const char *extra)
{
	for (; *v; v++)
		if (!((*v >= 'a' && *v <= 'z') || (*v >= 'A' && *v <= 'Z') ||
		      (*v >= '0' && *v <= '9') || strchr(extra, *v)))
			return false;
	return true;
}

static int case_uint(const char *v, size_t max, unsigned int *out)
{
	char *end;
	unsigned long n;

	if (*v < '0' || *v > '9' || strlen(v) > 7)
		return -EINVAL;
	n = strtoul(v, &end, 10);
	if (*end || n > max)
		return -EINVAL;
	*out = n;
	return 0;
}

static int case_set(struct lab_case *k, const struct case_key *ck,
		    const char *v)
{
	char *field = (char *)k + ck->off;
	unsigned int n;

	switch (ck->kind) {
	case K_WORD:
		if (!case_word_ok(v, ck->values))
			return -EINVAL;
		if (!strcmp(ck->key, "workload")) {
			k->workload = !strcmp(v, "ls")	 ? W_LS :
				      !strcmp(v, "cmd")	 ? W_CMD :
				      !strcmp(v, "deep") ? W_DEEP :
							   W_SYSCALL;
			return 0;
		}
		break;
	case K_MASK:
		if (case_mask(v, &k->mask_bits))
			return -EINVAL;
		break;
	case K_OPTS:
		if (!case_chars_ok(v, "=,._-") || strstr(v, "vers=") ||
		    strstr(v, "addr="))
			return -EINVAL;
		break;
	case K_UINT:
		if (case_uint(v, ck->size, &n))
			return -EINVAL;
		if (!strcmp(ck->key, "nofollow"))
			k->nofollow = n;
		else
			*(unsigned int *)field = n;
		return 0;
	case K_REST:
		if (!*v)
			return -EINVAL;
		break;
	}
	if (strlen(v) >= ck->size)
		return -E2BIG;
	strcpy(field, v);
	return 0;
}

static unsigned int case_key_bit(const char *key)
{
	unsigned int i;

	for (i = 0; i < sizeof(case_keys) / sizeof(case_keys[0]); i++)
		if (!strcmp(case_keys[i].key, key))
			return 1u << i;
	return 0;
}

static void case_defaults(struct lab_case *k)
{
	memset(k, 0, sizeof(*k));
	strcpy(k->call, "statx");
	strcpy(k->sync, "as-stat");
	strcpy(k->mask, "basic");
	k->mask_bits = STATX_BASIC_STATS;
	strcpy(k->object, "deep");
	strcpy(k->cache, "cold");
	strcpy(k->opts, "actimeo=1");
}

/* The combinations a case may not ask for. */
static const char *case_check(const struct lab_case *k, unsigned int seen)
{
	unsigned int i;

	for (i = 0; i < sizeof(case_keys) / sizeof(case_keys[0]); i++)
		if ((seen & (1u << i)) &&
		    !(case_keys[i].workloads & (1u << k->workload)))
			return "a key this workload does not use";
	switch (k->workload) {
	case W_CMD:
		return k->cmd[0] ? NULL : "workload=cmd without cmd=";
	case W_DEEP:
		return strcmp(k->cache, "changed") ?
			       NULL :
			       "workload=deep takes cache=cold, warm or expired";
	case W_LS:
		if (!case_word_ok(k->call, "ls|gnu-ls|lsx"))
			return "workload=ls takes call=ls, gnu-ls or lsx";
		if (!strcmp(k->sync, "force") ||
		    (!strcmp(k->sync, "dont") && strcmp(k->call, "lsx")))
			return "sync=dont is for call=lsx (--dont-sync)";
		return NULL;
	default:
		break;
	}
	if (!case_word_ok(k->call, "stat|lstat|fstatat|statx"))
		return "workload=syscall takes call=stat, lstat, fstatat, statx";
	if (!strcmp(k->call, "statx"))
		return NULL;
	if (strcmp(k->sync, "as-stat") || strcmp(k->mask, "basic"))
		return "sync= and mask= are for call=statx";
	if (k->nofollow && strcmp(k->call, "fstatat"))
		return "nofollow= is for call=statx and call=fstatat";
	return NULL;
}

/**
 * case_parse - one case from its line
 * @line: "key=value ..." (a trailing newline is allowed)
 * @k: the case, defaults filled in
 * @err: a message naming the offending word, on failure
 * @errlen: its size
 *
 * Return: 0 or -EINVAL.
 */
int case_parse(const char *line, struct lab_case *k, char *err, size_t errlen)
{
	char buf[512], *word, *eq, *nl;
	unsigned int i, seen = 0;
	const char *why;
	size_t len;

	case_defaults(k);
	snprintf(buf, sizeof(buf), "%s", line);
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	for (word = buf; *word; word += len) {
		word += strspn(word, " \t");
		len = strcspn(word, " \t");
		if (!len)
			break;
		eq = memchr(word, '=', len);
		for (i = 0; eq && i < sizeof(case_keys) / sizeof(case_keys[0]);
		     i++)
			if ((size_t)(eq - word) == strlen(case_keys[i].key) &&
			    !strncmp(word, case_keys[i].key, eq - word))
				break;
		if (!eq || i == sizeof(case_keys) / sizeof(case_keys[0])) {
			snprintf(err, errlen, "unknown word '%.*s'", (int)len,
				 word);
			return -EINVAL;
		}
		if (case_keys[i].kind == K_REST)
			len = strlen(word);
		else if (word[len])
			word[len++] = '\0';
		if (case_set(k, &case_keys[i], eq + 1)) {
			snprintf(err, errlen, "bad value in '%s'", word);
			return -EINVAL;
		}
		seen |= 1u << i;
	}
	/* cmd= or form= without workload= says which workload it is. */
	if (!(seen & case_key_bit("workload")))
		k->workload = seen & case_key_bit("cmd")  ? W_CMD :
			      seen & case_key_bit("form") ? W_LS :
							    W_SYSCALL;
	if (k->workload == W_LS) {
		if (!(seen & case_key_bit("call")))
			strcpy(k->call, "gnu-ls");
		if (!(seen & case_key_bit("form")))
			strcpy(k->form, "long");
		strcpy(k->object, "dir");
	}
	/* statx, basic mask, of every file of the deep tree */
	if (k->workload == W_DEEP) {
		strcpy(k->call, "statx");
		strcpy(k->mask, "basic");
		k->mask_bits = STATX_BASIC_STATS;
		strcpy(k->object, "deep");
		k->n = LAB_DEEP_N;
	}
	why = case_check(k, seen);
	if (why) {
		snprintf(err, errlen, "%s", why);
		return -EINVAL;
	}
	return 0;
}

/*
 * The object's path below the case's mount: file, dir and symlink sit in
 * its root; deep is the reference path d1/d2/file, deeper one level down;
 * ls lists ls/; the deep workload walks tree/.
 */
const char *case_object_path(const struct lab_case *k)
{
	if (k->workload == W_LS)
		return "ls";
	if (k->workload == W_DEEP)
		return "tree";
	if (!strcmp(k->object, "file"))
		return "file";
	if (!strcmp(k->object, "dir"))
		return "dir";
	if (!strcmp(k->object, "symlink"))
		return "link";
	if (!strcmp(k->object, "deeper"))
		return "d1/d2/d3/file";
	return "d1/d2/file";
}

/*
 * How long "expired" waits: past the larger of the first attribute
 * timeouts of files and directories (acregmin, acdirmin; the kernel's
 * defaults 3 and 30 s), options taken in order like the kernel does.
 */
unsigned int case_expire_ms(const struct lab_case *k)
{
	unsigned int reg = 3, dir = 30, v;
	char buf[sizeof(k->opts)], *o, *save;

	if (k->expire_ms)
		return k->expire_ms;
	snprintf(buf, sizeof(buf), "%s", k->opts);
	for (o = strtok_r(buf, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
		if (!strncmp(o, "actimeo=", 8) && !case_uint(o + 8, 3600, &v))
			reg = dir = v;
		else if (!strncmp(o, "acregmin=", 9) &&
			 !case_uint(o + 9, 3600, &v))
			reg = v;
		else if (!strncmp(o, "acdirmin=", 9) &&
			 !case_uint(o + 9, 3600, &v))
			dir = v;
		else if (!strcmp(o, "noac"))
			reg = dir = 0;
	}
	return (reg > dir ? reg : dir) * 1000 + 200;
}
