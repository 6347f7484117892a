// SPDX-License-Identifier: GPL-2.0
/*
 * labclock: report the guest's clock and refuse one the lab cannot trust.
 *
 *   labclock [--json] [--check] [--host]
 *   labclock --facts CURRENT AVAILABLE RES_NS [--json] [--check]
 *
 * Prints the current clocksource, the available ones and the resolution
 * of CLOCK_MONOTONIC (one "key=value" line, or a JSON object with
 * --json). With --check, a clock on jiffies or without high-resolution
 * timers is an error (after waiting up to 5 s for the clock to settle
 * after boot): one line naming the missing kernel option, exit status 1.
 * --host also times one RTC second (host time, lab_clock.h) on the
 * guest's clock: "host_ppm", the guest's rate against the host's in
 * parts per million; with --check more than 1 % either way is an error
 * if it is so in LABCLOCK_HOST_TRIES seconds one after another.
 * --facts judges the given facts instead of this machine's (for tests of
 * the verdicts). Usage errors: one line, exit status 2.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab_clock.h"

/*
 * One RTC second timed on the guest's clock is off by as long as the
 * host kept the guest from seeing a tick: tens of milliseconds on a
 * loaded host, a few percent. A clock that runs at another rate is off
 * every time; a second that agrees is the guest's true rate.
 */
#define LABCLOCK_HOST_TRIES	5

static void usage_error(const char *what)
{
	fprintf(stderr, "labclock: %s (labclock --help)\n", what);
	exit(2);
}

static void set_fact(char *dst, size_t len, const char *src, const char *what)
{
	if (!*src || strlen(src) >= len)
		usage_error(what);
	strcpy(dst, src);
}

static void facts_from_args(struct lab_clock *c, char **arg)
{
	char *end;

	set_fact(c->current, sizeof(c->current), arg[0],
		 "--facts: bad CURRENT clocksource");
	set_fact(c->available, sizeof(c->available), arg[1],
		 "--facts: bad AVAILABLE list");
	c->res_ns = strtol(arg[2], &end, 10);
	if (*arg[2] == '\0' || *end || c->res_ns <= 0)
		usage_error("--facts: RES_NS must be a positive number of ns");
}

static void print_json(const struct lab_clock *c, const long *ppm)
{
	const char *p = c->available;
	int first = 1;

	printf("{\"clocksource\":\"%s\",\"available\":[", c->current);
	while (*p) {
		size_t n = strcspn(p, " ");

		if (n)
			printf("%s\"%.*s\"", first ? "" : ",", (int)n, p);
		first = first && !n;
		p += n + (p[n] == ' ');
	}
	printf("],\"res_ns\":%ld", c->res_ns);
	if (ppm)
		printf(",\"host_ppm\":%ld", *ppm);
	printf("}\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "check", no_argument, NULL, 'c' },
		{ "facts", no_argument, NULL, 'f' },
		{ "host", no_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int json = 0, check = 0, facts = 0, host = 0, o, err = 0, tries;
	struct lab_clock_tick tick = { 0, 0 };
	struct lab_clock c = { 0 };
	const char *why;
	long ppm = 0;

	opterr = 0;
	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 'j': json = 1; break;
		case 'c': check = 1; break;
		case 'f': facts = 1; break;
		case 'H': host = 1; break;
		case 'h':
			puts("usage: labclock [--json] [--check] [--host] [--facts CURRENT AVAILABLE RES_NS]");
			return 0;
		default:
			fprintf(stderr, "labclock: unknown option %s (labclock --help)\n",
				argv[optind - 1]);
			return 2;
		}
	}
	if (facts && host)
		usage_error("--host measures this machine: not with --facts");
	if (facts && argc - optind != 3)
		usage_error("--facts needs CURRENT AVAILABLE RES_NS");
	if (!facts && optind != argc)
		usage_error("unexpected argument");
	if (facts)
		facts_from_args(&c, argv + optind);
	else if (lab_clock_read(&c)) {
		perror("labclock: " LAB_CLOCK_SYSFS);
		return 1;
	} else if (check) {
		lab_clock_settle(&c, 5000);
	}
	for (tries = check ? LABCLOCK_HOST_TRIES : 1; host && tries; tries--) {
		err = lab_clock_vs_host(1, &ppm, &tick);
		if (err || lab_clock_ppm_ok(ppm))
			break;
	}
	if (json)
		print_json(&c, host && !err ? &ppm : NULL);
	else if (host && !err)
		printf("clocksource=%s available=%s res_ns=%ld host_ppm=%ld\n",
		       c.current, c.available, c.res_ns, ppm);
	else
		printf("clocksource=%s available=%s res_ns=%ld\n",
		       c.current, c.available, c.res_ns);
	why = lab_clock_problem(&c);
	if (!why && host)
		why = lab_clock_host_problem(err, ppm);
	if (check && why) {
		fprintf(stderr, "labclock: %s\n", why);
		return 1;
	}
	return 0;
}
