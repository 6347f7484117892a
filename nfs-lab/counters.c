// SPDX-License-Identifier: GPL-2.0
/*
 * knfsd's per-procedure and per-operation counters, by name: read from
 * /proc/net/rpc/nfsd (server guest), written as JSON for the control
 * protocol, and parsed back from that JSON (client guest).
 *
 * /proc/net/rpc/nfsd has "proc3 22 N0 .. N21" (RFC 1813 procedure order),
 * "proc4 2 NULL COMPOUND" and "proc4ops 76 N0 .. N75", indexed by NFSv4
 * operation number (include/linux/nfs4.h; 0..2 are unused).
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"

/* clang-format off */
const char *const nfsd_v3_names[NFSD_V3_PROCS] = {
	"NULL", "GETATTR", "SETATTR", "LOOKUP", "ACCESS", "READLINK", "READ",
	"WRITE", "CREATE", "MKDIR", "SYMLINK", "MKNOD", "REMOVE", "RMDIR",
	"RENAME", "LINK", "READDIR", "READDIRPLUS", "FSSTAT", "FSINFO",
	"PATHCONF", "COMMIT",
};

const char *const nfsd_v4_names[NFSD_V4_OPS] = {
	[3] = "ACCESS", "CLOSE", "COMMIT", "CREATE", "DELEGPURGE",
	"DELEGRETURN", "GETATTR", "GETFH", "LINK", "LOCK", "LOCKT", "LOCKU",
	"LOOKUP", "LOOKUPP", "NVERIFY", "OPEN", "OPENATTR", "OPEN_CONFIRM",
	"OPEN_DOWNGRADE", "PUTFH", "PUTPUBFH", "PUTROOTFH", "READ", "READDIR",
	"READLINK", "REMOVE", "RENAME", "RENEW", "RESTOREFH", "SAVEFH",
	"SECINFO", "SETATTR", "SETCLIENTID", "SETCLIENTID_CONFIRM", "VERIFY",
	"WRITE", "RELEASE_LOCKOWNER",
	[40] = "BACKCHANNEL_CTL", "BIND_CONN_TO_SESSION", "EXCHANGE_ID",
	"CREATE_SESSION", "DESTROY_SESSION", "FREE_STATEID",
	"GET_DIR_DELEGATION", "GETDEVICEINFO", "GETDEVICELIST",
	"LAYOUTCOMMIT", "LAYOUTGET", "LAYOUTRETURN", "SECINFO_NO_NAME",
	"SEQUENCE", "SET_SSV", "TEST_STATEID", "WANT_DELEGATION",
	"DESTROY_CLIENTID", "RECLAIM_COMPLETE",
	[59] = "ALLOCATE", "COPY", "COPY_NOTIFY", "DEALLOCATE", "IO_ADVISE",
	"LAYOUTERROR", "LAYOUTSTATS", "OFFLOAD_CANCEL", "OFFLOAD_STATUS",
	"READ_PLUS", "SEEK", "WRITE_SAME", "CLONE", "GETXATTR", "SETXATTR",
	"LISTXATTRS", "REMOVEXATTR",
};
/* clang-format on */

void buf_init(struct lab_buf *b, char *s, size_t size)
{
	b->s = s;
	b->len = 0;
	b->size = size;
	b->full = false;
	s[0] = '\0';
}

void buf_printf(struct lab_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->full)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->s + b->len, b->size - b->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= b->size - b->len) {
		b->full = true;
		b->s[b->len] = '\0';
		return;
	}
	b->len += n;
}

/* "NAME COUNT V0 V1 ...": exactly @n values, or -EINVAL. */
static int nfsd_fields(const char *line, uint64_t *v, unsigned int n)
{
	const char *p = strchr(line, ' ');
	unsigned int i;
	char *end;

	if (!p || strtoul(p, &end, 10) != n)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (*end != ' ' || !isdigit((unsigned char)end[1]))
			return -EINVAL;
		v[i] = strtoull(end, &end, 10);
	}
	return *end == '\n' || *end == '\0' ? 0 : -EINVAL;
}

/**
 * nfsd_read - read knfsd's counters
 * @c: filled in; counters of a version the server does not run stay 0
 *
 * Return: 0, or -errno when the file is missing or a line is malformed.
 */
int nfsd_read(struct nfsd_counts *c)
{
	uint64_t v4[2];
	char line[2048];
	int err = 0;
	FILE *f;

	memset(c, 0, sizeof(*c));
	f = fopen("/proc/net/rpc/nfsd", "re");
	if (!f)
		return -errno;
	while (!err && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "proc3 ", 6))
			err = nfsd_fields(line, c->v3, NFSD_V3_PROCS);
		else if (!strncmp(line, "proc4ops ", 9))
			err = nfsd_fields(line, c->op, NFSD_V4_OPS);
		else if (!strncmp(line, "proc4 ", 6))
			err = nfsd_fields(line, v4, 2);
		else
			continue;
		if (!err && !strncmp(line, "proc4 ", 6)) {
			c->v4null = v4[0];
			c->compound = v4[1];
		}
	}
	fclose(f);
	return err;
}

/*
 * {"v3":{"NULL":N,...},"v4":{"NULL":N,"COMPOUND":N},"v4ops":{"ACCESS":N,...}}
 * with every named procedure and operation, in protocol order.
 */
void nfsd_json(struct lab_buf *b, const struct nfsd_counts *c)
{
	const char *sep = "";
	unsigned int i;

	buf_printf(b, "{\"v3\":{");
	for (i = 0; i < NFSD_V3_PROCS; i++)
		buf_printf(b, "%s\"%s\":%llu", i ? "," : "", nfsd_v3_names[i],
			   (unsigned long long)c->v3[i]);
	buf_printf(b, "},\"v4\":{\"NULL\":%llu,\"COMPOUND\":%llu},\"v4ops\":{",
		   (unsigned long long)c->v4null,
		   (unsigned long long)c->compound);
	for (i = 0; i < NFSD_V4_OPS; i++) {
		if (!nfsd_v4_names[i])
			continue;
		buf_printf(b, "%s\"%s\":%llu", sep, nfsd_v4_names[i],
			   (unsigned long long)c->op[i]);
		sep = ",";
	}
	buf_printf(b, "}}");
}

/* The slot for @name in section @sec, or NULL. */
static uint64_t *nfsd_slot(struct nfsd_counts *c, const char *sec,
			   const char *name)
{
	unsigned int i;

	if (!strcmp(sec, "v4"))
		return !strcmp(name, "NULL")	 ? &c->v4null :
		       !strcmp(name, "COMPOUND") ? &c->compound :
						   NULL;
	for (i = 0; !strcmp(sec, "v3") && i < NFSD_V3_PROCS; i++)
		if (!strcmp(name, nfsd_v3_names[i]))
			return &c->v3[i];
	for (i = 0; !strcmp(sec, "v4ops") && i < NFSD_V4_OPS; i++)
		if (nfsd_v4_names[i] && !strcmp(name, nfsd_v4_names[i]))
			return &c->op[i];
	return NULL;
}

/* "NAME" at *p (capitals, digits, '_', at most 31): advance past it. */
static int json_name(const char **p, char *name, size_t size)
{
	const char *s = *p;
	size_t n = 0;

	if (*s++ != '"')
		return -EINVAL;
	while (n + 1 < size &&
	       (isupper((unsigned char)*s) || isdigit((unsigned char)*s) ||
		*s == '_' || islower((unsigned char)*s)))
		name[n++] = *s++;
	name[n] = '\0';
	if (!n || *s != '"' || s[1] != ':')
		return -EINVAL;
	*p = s + 2;
	return 0;
}

/* One section's {"NAME":N,...}; every name must be known. */
static int json_section(const char **p, struct nfsd_counts *c, const char *sec)
{
	const char *s = *p;
	uint64_t *slot;
	char name[32];
	int digits;

	if (*s++ != '{')
		return -EINVAL;
	while (*s != '}') {
		if (json_name(&s, name, sizeof(name)))
			return -EINVAL;
		slot = nfsd_slot(c, sec, name);
		if (!slot)
			return -EINVAL;
		for (*slot = 0, digits = 0; isdigit((unsigned char)*s); s++) {
			if (++digits > 19)
				return -EINVAL;
			*slot = *slot * 10 + (*s - '0');
		}
		if (!digits || (*s != ',' && *s != '}'))
			return -EINVAL;
		if (*s == ',')
			s++;
	}
	*p = s + 1;
	return 0;
}

/**
 * nfsd_parse_json - the counters nfsd_json() wrote, checked strictly
 * @s: the JSON object, nothing after it but a newline
 * @c: filled in
 *
 * Return: 0, or -EINVAL for anything nfsd_json() would not write.
 */
int nfsd_parse_json(const char *s, struct nfsd_counts *c)
{
	char sec[8];

	memset(c, 0, sizeof(*c));
	if (*s++ != '{')
		return -EINVAL;
	while (*s != '}') {
		if (json_name(&s, sec, sizeof(sec)) ||
		    (strcmp(sec, "v3") && strcmp(sec, "v4") &&
		     strcmp(sec, "v4ops")) ||
		    json_section(&s, c, sec))
			return -EINVAL;
		if (*s == ',')
			s++;
		else if (*s != '}')
			return -EINVAL;
	}
	s++;
	return *s == '\0' || (*s == '\n' && !s[1]) ? 0 : -EINVAL;
}
