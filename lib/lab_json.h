/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lab's one JSON string writer: results lines, statx-probe's reports
 * and fusecount's replies escape strings alike. File names are bytes,
 * JSON strings Unicode: well-formed UTF-8 goes through as it is, '"' and
 * '\' are escaped, and a control character or a byte that is not part of
 * well-formed UTF-8 becomes \u00XX (the byte's value can still be read
 * off), so that any name yields valid JSON.
 */
#ifndef LAB_JSON_H
#define LAB_JSON_H

#include <stdio.h>
#include <string.h>

/* Where the writer puts its bytes: a FILE, a string buffer. */
typedef void lab_json_put_fn(void *ctx, const char *p, size_t n);

/*
 * Length of the well-formed UTF-8 sequence at @s (of @left bytes), or 0
 * if there is none: overlong forms, surrogates, values past U+10FFFF
 * and a sequence cut short are none.
 */
static inline size_t lab_utf8_len(const unsigned char *s, size_t left)
{
	unsigned int cp, min;
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		n = 2;
		cp = s[0] & 0x1f;
		min = 0x80;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3;
		cp = s[0] & 0x0f;
		min = 0x800;
	} else if ((s[0] & 0xf8) == 0xf0) {
		n = 4;
		cp = s[0] & 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
	if (n > left)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* @n bytes of @s as one JSON string, quotes included, through @put. */
static inline void lab_json_escape(const char *s, size_t n,
				   lab_json_put_fn *put, void *ctx)
{
	const unsigned char *p = (const unsigned char *)s;
	char esc[8];
	size_t len;

	put(ctx, "\"", 1);
	while (n) {
		len = lab_utf8_len(p, n);
		if (*p == '"' || *p == '\\') {
			esc[0] = '\\';
			esc[1] = (char)*p;
			put(ctx, esc, 2);
			len = 1;
		} else if (*p < 0x20 || !len) {
			snprintf(esc, sizeof(esc), "\\u%04x", *p);
			put(ctx, esc, 6);
			len = 1;
		} else {
			put(ctx, (const char *)p, len);
		}
		p += len;
		n -= len;
	}
	put(ctx, "\"", 1);
}

static inline void lab_json_put_file(void *ctx, const char *p, size_t n)
{
	fwrite(p, 1, n, (FILE *)ctx);
}

/* The C string @s as a JSON string on @f. */
static inline void lab_json_fputs(FILE *f, const char *s)
{
	lab_json_escape(s, strlen(s), lab_json_put_file, f);
}

#endif /* LAB_JSON_H */
