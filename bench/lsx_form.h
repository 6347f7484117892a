/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pure part of lsx: which statx mask each `ls` form needs for one
 * directory entry, the command line, and the summary line.
 *
 * Nothing here makes a system call, so tests/lsx_unit.c drives it all.
 */
#ifndef LSX_FORM_H
#define LSX_FORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "probe_compat.h"

#define LSX_PROG	"lsx"
#define LSX_ERRLEN	256
/* lsx_entry_mask()'s answer when the entry needs no statx at all */
#define LSX_NO_STATX	(~0U)

enum lsx_form {
	LSX_PLAIN,	/* ls: names (and the type d_type gives) */
	LSX_COLOR,	/* ls --color: type, and mode for the exec/sticky bits */
	LSX_LONG,	/* ls -l */
	LSX_INODE,	/* ls -li */
};

struct lsx_args {
	enum lsx_form form;
	bool dont_sync;
	bool json;
	bool help;
	const char *dir;
};

/* What one run cost, as printed at the end. */
struct lsx_counts {
	unsigned long entries;
	unsigned long statx;
	unsigned long readlink;
	unsigned long dtype_unknown;
	unsigned long errors;
};

int lsx_parse_form(const char *name, enum lsx_form *form);
const char *lsx_form_name(enum lsx_form form);
unsigned int lsx_form_mask(enum lsx_form form);
unsigned int lsx_entry_mask(enum lsx_form form, unsigned char d_type);
bool lsx_wants_link(enum lsx_form form, unsigned char d_type);
int lsx_parse_args(struct lsx_args *args, int argc, char *const argv[],
		   char *err, size_t errlen);
const char *lsx_usage(void);
void lsx_mode_string(char *buf, unsigned int mode);
void lsx_print_summary(FILE *f, const struct lsx_args *args,
		       const struct lsx_counts *c);

#endif /* LSX_FORM_H */
