/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fusecount, sbuf.c: a growing string for replies on the control socket.
 * Calls nothing of the daemon.
 */
#ifndef FC_SBUF_H
#define FC_SBUF_H

#include <stdbool.h>
#include <stddef.h>

struct fc_sb {
	char *buf;
	size_t len;
	size_t cap;
	bool oom;	/* an append failed; the text is truncated */
};

void fc_sb_init(struct fc_sb *sb);
void fc_sb_free(struct fc_sb *sb);
void fc_sb_printf(struct fc_sb *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void fc_sb_json_str(struct fc_sb *sb, const char *s, size_t n);

#endif /* FC_SBUF_H */
