// SPDX-License-Identifier: GPL-2.0
/*
 * fusecount: a growing string buffer for control-socket replies, and the
 * JSON string escaping they need.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab_json.h"
#include "sbuf.h"

void fc_sb_init(struct fc_sb *sb)
{
	memset(sb, 0, sizeof(*sb));
}

void fc_sb_free(struct fc_sb *sb)
{
	free(sb->buf);
	fc_sb_init(sb);
}

static bool fc_sb_grow(struct fc_sb *sb, size_t need)
{
	size_t cap = sb->cap ? sb->cap : 256;
	char *p;

	if (sb->oom)
		return false;
	if (sb->len + need + 1 <= sb->cap)
		return true;
	while (cap < sb->len + need + 1)
		cap *= 2;
	p = realloc(sb->buf, cap);
	if (!p) {
		sb->oom = true;
		return false;
	}
	sb->buf = p;
	sb->cap = cap;
	return true;
}

void fc_sb_printf(struct fc_sb *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !fc_sb_grow(sb, n))
		return;
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, n + 1, fmt, ap);
	va_end(ap);
	sb->len += n;
}

static void fc_sb_put(void *ctx, const char *p, size_t n)
{
	fc_sb_printf(ctx, "%.*s", (int)n, p);
}

/* @n bytes of @s as a JSON string, escaped as everywhere in the lab. */
void fc_sb_json_str(struct fc_sb *sb, const char *s, size_t n)
{
	lab_json_escape(s, n, fc_sb_put, sb);
}
