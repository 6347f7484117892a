/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lab's TAP producer for host unit tests in C: ok() per check (it
 * returns the condition), diag() for a comment, and "return done();"
 * at the end. plan(n) first states the count; without it done() prints
 * the plan of the tests that ran. A failed check prints where it was.
 */
#ifndef LAB_TAP_H
#define LAB_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

static int tap_planned, tap_run, tap_failed;

static inline void plan(int n)
{
	tap_planned = n;
	printf("1..%d\n", n);
	fflush(stdout);
}

static inline void skip_all(const char *why)
{
	printf("1..0 # SKIP %s\n", why);
	exit(0);
}

__attribute__((format(printf, 4, 5)))
static inline bool tap_ok(bool pass, const char *file, int line,
			  const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", pass ? "" : "not ", ++tap_run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!pass) {
		printf("#   failed at %s:%d\n", file, line);
		tap_failed++;
	}
	fflush(stdout);
	return pass;
}

#define ok(cond, ...)	tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

static inline void diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static inline int done(void)
{
	if (!tap_planned) {
		printf("1..%d\n", tap_run);
		tap_planned = tap_run;
	}
	if (tap_failed)
		diag("%d of %d tests failed", tap_failed, tap_run);
	if (tap_run != tap_planned)
		diag("planned %d tests, ran %d", tap_planned, tap_run);
	return tap_failed || tap_run != tap_planned;
}

#endif /* LAB_TAP_H */
