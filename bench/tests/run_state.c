// SPDX-License-Identifier: GPL-2.0
/*
 * run-state: the lab's runner (run.c) with a stand-in backend, for
 * bench/t/run-state.t. Its case's object is a file in $RUN_STATE_DIR; its
 * "age" sleeps $RUN_STATE_AGE_MS; its mounts' attributes stay valid for
 * $RUN_STATE_VALID_MS. So the test sets how long a warm-up lies behind a
 * call and how long it would be valid, and sees what the runner does
 * with a case whose cache is not in the state it claims. With
 * $RUN_STATE_SLOW_RUNS=N only the first N ages sleep: a host's stall
 * that passes. With $RUN_STATE_BATCH set it holds several worlds (a
 * file each) and says how long an expired case waits (1 s, 2 s with
 * attr_timeout=2 in its options), so the runner batches expired cases;
 * each setup, age, count and teardown is logged to $RUN_STATE_DIR/log
 * as "OP CASE-ID WORLD". $RUN_STATE_SPAN_MS: how long a batch may prime;
 * $RUN_STATE_SETUP_MS: how long a setup takes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "run.h"

static unsigned int rs_env(const char *name)
{
	const char *v = getenv(name);

	return v ? (unsigned int)strtoul(v, NULL, 10) : 0;
}

static int rs_start(struct lab_run *r)
{
	(void)r;
	return 0;
}

static void rs_stop(struct lab_run *r)
{
	(void)r;
}

/* The case and world the next operations act on */
static const struct lab_case *rs_case;
static int rs_world;

static void rs_log(const char *op)
{
	char p[200];
	FILE *f;

	snprintf(p, sizeof(p), "%s/log", getenv("RUN_STATE_DIR"));
	f = fopen(p, "a");
	if (!f)
		exit(1);
	fprintf(f, "%s %u %d\n", op, rs_case ? rs_case->id : 0, rs_world);
	fclose(f);
}

static void rs_select(struct lab_run *r, const struct lab_case *k)
{
	rs_case = k;
	rs_world = r->world;
	snprintf(r->path, sizeof(r->path), "%s/f%u-%d",
		 getenv("RUN_STATE_DIR"), k->id, r->world);
}

static unsigned int rs_span_ms(void)
{
	return rs_env("RUN_STATE_SPAN_MS");
}

static int rs_setup(struct lab_run *r, const struct lab_case *k)
{
	unsigned int ms = rs_env("RUN_STATE_SETUP_MS");
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	FILE *f;

	rs_select(r, k);
	rs_log("setup");
	nanosleep(&ts, NULL);
	f = fopen(r->path, "w");
	return f && !fclose(f) ? 0 : -1;
}

static void rs_teardown(struct lab_run *r, const struct lab_case *k)
{
	(void)k;
	rs_log("teardown");
	unlink(r->path);
}

static unsigned int rs_expire_ms(const struct lab_case *k)
{
	return strstr(k->opts, "attr_timeout=2") ? 2000 : 1000;
}

static int rs_age(struct lab_run *r, const struct lab_case *k)
{
	static unsigned int ages;
	unsigned int ms = rs_env("RUN_STATE_AGE_MS");
	unsigned int slow = rs_env("RUN_STATE_SLOW_RUNS");
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	(void)r;
	(void)k;
	rs_log("age");
	if (!getenv("RUN_STATE_SLOW_RUNS") || ages++ < slow)
		nanosleep(&ts, NULL);
	return 0;
}

static unsigned int rs_valid_ms(const struct lab_case *k)
{
	(void)k;
	return rs_env("RUN_STATE_VALID_MS");
}

static int rs_delay(struct lab_run *r, unsigned int ms)
{
	(void)r;
	(void)ms;
	return 0;
}

static int rs_count(struct lab_run *r)
{
	(void)r;
	rs_log("count");
	return 0;
}

static long rs_counted(struct lab_run *r, const struct lab_case *k, FILE *f)
{
	(void)r;
	(void)k;
	(void)f;
	return 0;
}

static struct lab_backend rs_backend = {
	.prog = "run-state",
	.fs0 = "fuse",
	.start = rs_start,
	.stop = rs_stop,
	.setup = rs_setup,
	.teardown = rs_teardown,
	.age = rs_age,
	.valid_ms = rs_valid_ms,
	.delay = rs_delay,
	.count = rs_count,
	.counted = rs_counted,
};

int main(int argc, char *argv[])
{
	if (getenv("RUN_STATE_BATCH")) {
		rs_backend.expire_ms = rs_expire_ms;
		rs_backend.select = rs_select;
		rs_backend.batch_span_ms = rs_span_ms;
	}
	return lab_run_main(argc, argv, &rs_backend);
}
