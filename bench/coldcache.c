// SPDX-License-Identifier: GPL-2.0
/*
 * coldcache: how much slower this host runs code right after a wait.
 *
 *   coldcache [--kib N] [--wait-us U] [--rounds R]
 *
 * Walks an N KiB buffer (one byte per cache line) back to back, right
 * after sleeping U us and right after spinning U us without touching it;
 * then runs arithmetic that touches no memory, back to back and right
 * after sleeping U us. R rounds of each; prints the medians, in us, on
 * one line (wrapped here; this machine with a kernel build beside it):
 *
 *   kib=1024 wait_us=10000 rounds=50 walk_us=20.3
 *   walk_after_sleep_us=42.9 walk_after_spin_us=47.6 compute_us=28.5
 *   compute_after_sleep_us=28.7
 *
 * Why: a lab guest's request right after a netem or daemon delay costs
 * more than back to back (nfs-lab/t-guest/delay.t). If native code here is
 * slower after a wait at memory and not at arithmetic, and also after a
 * spin that keeps its CPU busy, then data left alone for that long has
 * left the caches (and the TLB): the machine's clock is not slower, and
 * the CPU did not just sleep. Usage errors: one line, exit status 2.
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_KIB		1048576UL	/* 1 GiB */
#define MAX_WAIT_US	10000000UL
#define MAX_ROUNDS	10000UL
#define CACHE_LINE	64
#define SPIN_STEPS	20000	/* about 20 us on this machine, gcc -O2 */

enum cold_wait { COLD_SLEEP, COLD_SPIN };

struct cold_opts {
	unsigned long kib;
	unsigned long wait_us;
	unsigned long rounds;
};

/* A measurement: its buffer, and room for two samples per round. */
struct cold_run {
	const struct cold_opts *o;
	unsigned char *buf;
	size_t len;
	double *samples;
};

/* Where the loops leave their result, so that the compiler keeps them. */
static volatile uint64_t cold_sink;

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static double us_since(int64_t t0)
{
	return (now_ns() - t0) / 1e3;
}

/* One pass over the buffer, a byte of each cache line read and written. */
static double walk(const struct cold_run *r)
{
	int64_t t0 = now_ns();
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < r->len; i += CACHE_LINE)
		sum += r->buf[i]++;
	cold_sink = sum;
	return us_since(t0);
}

/*
 * Arithmetic in registers only: what a slower clock would show. An
 * xorshift-multiply step, which a compiler cannot merge into fewer, from
 * a start it cannot know.
 */
static double compute(const struct cold_run *r)
{
	int64_t t0 = now_ns();
	uint64_t x = cold_sink | 1;
	int i;

	(void)r;
	for (i = 0; i < SPIN_STEPS; i++) {
		x ^= x >> 29;
		x *= 0xbf58476d1ce4e5b9ULL;
	}
	cold_sink = x;
	return us_since(t0);
}

/* Leave the buffer alone for the wait: asleep, or busy elsewhere. */
static void wait_for(const struct cold_opts *o, enum cold_wait how)
{
	struct timespec ts = {
		.tv_sec = o->wait_us / 1000000,
		.tv_nsec = o->wait_us % 1000000 * 1000,
	};
	int64_t t0;

	if (how == COLD_SLEEP) {
		nanosleep(&ts, NULL);
		return;
	}
	t0 = now_ns();
	while (now_ns() - t0 < (int64_t)o->wait_us * 1000)
		cold_sink++;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * The medians of @work back to back (each sample right after a warming
 * run) and right after a wait, into @hot and @cold.
 */
static void measure(double (*work)(const struct cold_run *),
		    const struct cold_run *r, enum cold_wait how,
		    double *hot, double *cold)
{
	unsigned long i, n = r->o->rounds;
	double *after = r->samples + n;

	for (i = 0; i < n; i++) {
		work(r);
		r->samples[i] = work(r);
		wait_for(r->o, how);
		after[i] = work(r);
	}
	*hot = median(r->samples, n);
	*cold = median(after, n);
}

static void usage_error(const char *what, unsigned long max)
{
	fprintf(stderr, "coldcache: %s", what);
	if (max)
		fprintf(stderr, ": want 1 to %lu", max);
	fprintf(stderr, " (coldcache --help)\n");
	exit(2);
}

static unsigned long number(const char *arg, unsigned long max,
			    const char *what)
{
	char *end;
	unsigned long v;

	if (*arg < '0' || *arg > '9')
		usage_error(what, max);
	v = strtoul(arg, &end, 10);
	if (*end || v < 1 || v > max)
		usage_error(what, max);
	return v;
}

static void parse_args(int argc, char **argv, struct cold_opts *o)
{
	static const struct option longs[] = {
		{ "kib", required_argument, NULL, 'k' },
		{ "wait-us", required_argument, NULL, 'w' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;	/* our one line, not getopt's */
	while ((c = getopt_long(argc, argv, ":", longs, NULL)) != -1) {
		switch (c) {
		case 'k':
			o->kib = number(optarg, MAX_KIB, "--kib");
			break;
		case 'w':
			o->wait_us = number(optarg, MAX_WAIT_US, "--wait-us");
			break;
		case 'r':
			o->rounds = number(optarg, MAX_ROUNDS, "--rounds");
			break;
		case 'h':
			puts("usage: coldcache [--kib N] [--wait-us U] [--rounds R]");
			exit(0);
		case ':':
			usage_error("an option needs a value", 0);
			break;
		default:
			usage_error("unknown option", 0);
		}
	}
	if (optind < argc)
		usage_error("no arguments expected", 0);
}

static void report(const struct cold_opts *o, const double *m)
{
	printf("kib=%lu wait_us=%lu rounds=%lu", o->kib, o->wait_us,
	       o->rounds);
	printf(" walk_us=%.1f walk_after_sleep_us=%.1f", m[0], m[1]);
	printf(" walk_after_spin_us=%.1f", m[3]);
	printf(" compute_us=%.1f compute_after_sleep_us=%.1f\n", m[4], m[5]);
}

int main(int argc, char **argv)
{
	struct cold_opts o = { .kib = 1024, .wait_us = 10000, .rounds = 200 };
	struct cold_run r = { .o = &o };
	double m[6];	/* walk, slept, walk, spun, compute, slept */

	parse_args(argc, argv, &o);
	r.len = o.kib * 1024;
	r.buf = malloc(r.len);
	r.samples = calloc(2 * o.rounds, sizeof(*r.samples));
	if (!r.buf || !r.samples) {
		perror("coldcache");
		return 1;
	}
	memset(r.buf, 1, r.len);	/* every page there before timing */
	measure(walk, &r, COLD_SLEEP, &m[0], &m[1]);
	measure(walk, &r, COLD_SPIN, &m[2], &m[3]);
	measure(compute, &r, COLD_SLEEP, &m[4], &m[5]);
	report(&o, m);
	free(r.samples);
	free(r.buf);
	if (fflush(stdout) || ferror(stdout)) {
		perror("coldcache: stdout");
		return 1;
	}
	return 0;
}
