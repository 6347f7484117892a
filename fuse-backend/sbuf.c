// SPDX-License-Identifier: GPL-2.0
/*
 * fusecount: a growing string buffer for control-socket replies, and the
 * JSON string escaping they need.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/*
 * File names are bytes, JSON strings are UTF-8: bytes outside printable
 * ASCII are written as \u00XX so that any name yields valid JSON.
 */
void fc_sb_json_str(struct fc_sb *sb, const char *s, size_t n)
{
	size_t i;

	fc_sb_printf(sb, "\"");
	for (i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (c == '"' || c == '\\')
			fc_sb_printf(sb, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fc_sb_printf(sb, "\\u%04x", c);
		else
			fc_sb_printf(sb, "%c", c);
	}
	fc_sb_printf(sb, "\"");
}
