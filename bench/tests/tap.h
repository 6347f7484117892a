/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A TAP producer for bench's unit tests: ok() prints one "ok N - ..." or
 * "not ok N - ..." line and returns the condition; the caller prints the
 * plan and exits with tap_exit().
 */
#ifndef BENCH_TAP_H
#define BENCH_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static int test_count;
static int fail_count;

static bool ok(bool cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static bool ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	test_count++;
	if (!cond)
		fail_count++;
	printf("%sok %d - ", cond ? "" : "not ", test_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	return cond;
}

#endif /* BENCH_TAP_H */
