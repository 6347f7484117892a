// SPDX-License-Identifier: GPL-2.0
/*
 * coldcache: how much slower this host runs code right after a wait.
 *
 *   coldcache [--kib N] [--wait-us U] [--rounds R]
 *
 * Walks an N KiB buffer (one byte per cache line) back to back and right
 * after sleeping U us, R times each, and does the same with a loop that
 * touches no memory. Prints the medians on one line:
 *
 *   kib=1024 wait_us=10000 rounds=200 walk_us=11.0 walk_after_wait_us=24.2
 *   compute_us=23.1 compute_after_wait_us=23.2
 *
 * Why: a lab guest's per-request time after a netem or daemon delay is
 * longer than back to back (nfs-lab/t/delay.t). If native code shows the
 * same for memory and not for compute, the host's caches are cold after
 * a wait (its CPU ran something else meanwhile), not its clock slower:
 * an effect of the machine, not of QEMU or the lab. Usage errors: one
 * line, exit status 2.
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_ROUNDS	10000
#define LINE		64	/* bytes per cache line */
#define SPIN_ITERS	20000	/* about 20 us of arithmetic */

struct cold_opts {
	unsigned long kib;
	unsigned long wait_us;
	unsigned long rounds;
};

/* Where the loops leave their result, so that the compiler keeps them. */
static volatile uint64_t cold_sink;

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* One pass over @buf, a byte of each cache line read and written. */
static double walk(unsigned char *buf, size_t len)
{
	double t0 = now_us();
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < len; i += LINE)
		sum += buf[i]++;
	cold_sink = sum;
	return now_us() - t0;
}

/* Arithmetic in registers only: what a slower clock would show. */
static double spin(unsigned char *buf, size_t len)
{
	double t0 = now_us();
	uint64_t x = 1;
	long i;

	(void)buf;
	(void)len;
	for (i = 0; i < SPIN_ITERS; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	cold_sink = x;
	return now_us() - t0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

/*
 * The medians of @work back to back (after one warming pass) and right
 * after a sleep of @o->wait_us, into @hot and @cold.
 */
static void measure(double (*work)(unsigned char *, size_t),
		    unsigned char *buf, size_t len, const struct cold_opts *o,
		    double *samples, double *hot, double *cold)
{
	struct timespec wait = { o->wait_us / 1000000,
				 o->wait_us % 1000000 * 1000 };
	double *after = samples + o->rounds;
	unsigned long i;

	for (i = 0; i < o->rounds; i++) {
		work(buf, len);
		samples[i] = work(buf, len);
		nanosleep(&wait, NULL);
		after[i] = work(buf, len);
	}
	*hot = median(samples, o->rounds);
	*cold = median(after, o->rounds);
}

static void usage_error(const char *what)
{
	fprintf(stderr, "coldcache: %s (coldcache --help)\n", what);
	exit(2);
}

static unsigned long number(const char *arg, unsigned long max,
			    const char *what)
{
	char *end;
	unsigned long v;

	if (*arg < '0' || *arg > '9')
		usage_error(what);
	v = strtoul(arg, &end, 10);
	if (*end || v < 1 || v > max)
		usage_error(what);
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

	while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
		switch (c) {
		case 'k':
			o->kib = number(optarg, 1 << 20,
					"--kib: want 1 to 1048576");
			break;
		case 'w':
			o->wait_us = number(optarg, 10000000,
					    "--wait-us: want 1 to 10000000");
			break;
		case 'r':
			o->rounds = number(optarg, MAX_ROUNDS,
					   "--rounds: want 1 to 10000");
			break;
		case 'h':
			puts("usage: coldcache [--kib N] [--wait-us U] [--rounds R]");
			exit(0);
		default:
			usage_error("unknown option");
		}
	}
	if (optind < argc)
		usage_error("no arguments expected");
}

int main(int argc, char **argv)
{
	struct cold_opts o = { .kib = 1024, .wait_us = 10000, .rounds = 200 };
	double walk_hot, walk_cold, spin_hot, spin_cold;
	unsigned char *buf;
	double *samples;
	size_t len;

	parse_args(argc, argv, &o);
	len = o.kib * 1024;
	buf = malloc(len);
	samples = calloc(2 * o.rounds, sizeof(*samples));
	if (!buf || !samples) {
		perror("coldcache");
		return 1;
	}
	memset(buf, 1, len);
	measure(walk, buf, len, &o, samples, &walk_hot, &walk_cold);
	measure(spin, buf, len, &o, samples, &spin_hot, &spin_cold);
	printf("kib=%lu wait_us=%lu rounds=%lu", o.kib, o.wait_us, o.rounds);
	printf(" walk_us=%.1f walk_after_wait_us=%.1f", walk_hot, walk_cold);
	printf(" compute_us=%.1f compute_after_wait_us=%.1f\n", spin_hot,
	       spin_cold);
	free(samples);
	free(buf);
	return 0;
}
