/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest's clock, as the lab needs it: which clocksource the kernel
 * keeps time with, which others it could fall back on, and the resolution
 * of CLOCK_MONOTONIC. A lab time is only a result on a clock that passes
 * lab_clock_problem(); guest/labclock.c and guest/tests/clock_test.c use
 * this header.
 */
#ifndef LAB_CLOCK_H
#define LAB_CLOCK_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LAB_CLOCK_SYSFS "/sys/devices/system/clocksource/clocksource0"

/* Resolutions above this are a tick: no high-resolution timers. */
#define LAB_CLOCK_MAX_RES_NS	1000

struct lab_clock {
	char current[64];	/* e.g. "tsc" */
	char available[256];	/* e.g. "tsc hpet acpi_pm" */
	long res_ns;		/* clock_getres(CLOCK_MONOTONIC) */
};

/* Read one line of @path into @buf without its newline. */
static inline int lab_clock_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -1;
	ok = fgets(buf, len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	/* sysfs ends the list with a space */
	while (*buf && buf[strlen(buf) - 1] == ' ')
		buf[strlen(buf) - 1] = '\0';
	return 0;
}

static inline int lab_clock_read(struct lab_clock *c)
{
	struct timespec res;

	if (lab_clock_line(LAB_CLOCK_SYSFS "/current_clocksource",
			   c->current, sizeof(c->current)) ||
	    lab_clock_line(LAB_CLOCK_SYSFS "/available_clocksource",
			   c->available, sizeof(c->available)) ||
	    clock_getres(CLOCK_MONOTONIC, &res))
		return -1;
	c->res_ns = res.tv_sec ? 1000000000L : res.tv_nsec;
	return 0;
}

/* Is clocksource @name in the available list? */
static inline int lab_clock_has(const struct lab_clock *c, const char *name)
{
	size_t n = strlen(name);
	const char *p = c->available;

	while ((p = strstr(p, name))) {
		if ((p == c->available || p[-1] == ' ') &&
		    (p[n] == ' ' || p[n] == '\0'))
			return 1;
		p += n;
	}
	return 0;
}

static inline int lab_clock_is_jiffies(const char *name)
{
	return !strcmp(name, "jiffies") || !strcmp(name, "refined-jiffies");
}

/*
 * NULL if the lab may publish times read from this clock, else why not,
 * naming the kernel option that is missing where that is the cause.
 */
static inline const char *lab_clock_problem(const struct lab_clock *c)
{
	static char why[384];

	if (lab_clock_is_jiffies(c->current) &&
	    !lab_clock_has(c, "hpet") && !lab_clock_has(c, "acpi_pm"))
		snprintf(why, sizeof(why),
			 "clocksource %s (4 ms steps) and no HPET or ACPI PM timer to fall back on: the kernel needs CONFIG_HPET_TIMER and CONFIG_ACPI with CONFIG_X86_PM_TIMER",
			 c->current);
	else if (lab_clock_is_jiffies(c->current))
		snprintf(why, sizeof(why),
			 "clocksource %s (4 ms steps) although the kernel has %s",
			 c->current, c->available);
	else if (c->res_ns > LAB_CLOCK_MAX_RES_NS)
		snprintf(why, sizeof(why),
			 "CLOCK_MONOTONIC resolution %ld ns: the kernel needs CONFIG_HIGH_RES_TIMERS",
			 c->res_ns);
	else
		return NULL;
	return why;
}

/*
 * Read the clock, waiting up to @ms for it to settle: right after boot
 * the kernel runs on tsc-early (the TSC before its refined calibration)
 * with a periodic tick (4 ms resolution), switches to high-resolution
 * mode a moment later and to tsc (or, should the watchdog find the TSC
 * unstable, to hpet) about 1.4 s after boot. So that what is recorded
 * is the clock the measurements run on, tsc-early is waited out too,
 * though it is no problem of its own.
 * Return: lab_clock_problem() of the last reading, or "unreadable".
 */
static inline const char *lab_clock_settle(struct lab_clock *c, long ms)
{
	struct timespec step = { 0, 50000000L };
	const char *why = "cannot read the clocksource from sysfs";
	bool early = false;

	for (;;) {
		if (!lab_clock_read(c)) {
			why = lab_clock_problem(c);
			early = !strcmp(c->current, "tsc-early");
		}
		if ((!why && !early) || ms <= 0)
			return why;
		nanosleep(&step, NULL);
		ms -= 50;
	}
}

/*
 * An injected delay is what its label says if the measured cost is
 * within 10 % of it or 0.3 ms, whichever is larger.
 */
static inline long long lab_delay_tolerance_ns(long long label_ns)
{
	return label_ns / 10 > 300000 ? label_ns / 10 : 300000;
}

static inline int lab_delay_within(long long got_ns, long long label_ns)
{
	return llabs(got_ns - label_ns) <= lab_delay_tolerance_ns(label_ns);
}

static inline const char *lab_delay_bound_text(long long got_ns,
					       long long label_ns)
{
	static char text[128];

	snprintf(text, sizeof(text), "measured %lld us for a %lld us label: allowed %lld +- %lld us",
		 got_ns / 1000, label_ns / 1000, label_ns / 1000,
		 lab_delay_tolerance_ns(label_ns) / 1000);
	return text;
}

#endif /* LAB_CLOCK_H */
