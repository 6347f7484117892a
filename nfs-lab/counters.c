// SPDX-License-Identifier: GPL-2.0
/*
 * knfsd's per-procedure and per-operation counters (lib/lab_nfs.h reads
 * them in the server guest) written as JSON for the control protocol, and
 * parsed back from that JSON (client guest); and the bounded string the
 * protocol's replies are built in.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"


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
