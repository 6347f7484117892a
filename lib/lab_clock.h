/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest's clock, as the lab needs it: which clocksource the kernel
 * keeps time with, which others it could fall back on, and the resolution
 * of CLOCK_MONOTONIC. A lab time is only a result on a clock that passes
 * lab_clock_problem(); guest/tools/labclock.c, guest/tests/clock_test.c
 * and the runner (bench/run.c) use this header.
 */
#ifndef LAB_CLOCK_H
#define LAB_CLOCK_H

#include <errno.h>
#include <fcntl.h>
#include <linux/rtc.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

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
 * The guest's clock against the host's. A guest can keep time on a
 * clocksource that looks fine and runs at the wrong rate: under load a
 * TSC calibrated against a late PIT ran 5.45 times fast until the
 * watchdog moved it to hpet 36 s later. QEMU drives the CMOS RTC from
 * host time (-rtc clock=host, its default), so the guest can time whole
 * RTC seconds on CLOCK_MONOTONIC: the two must agree within 1 %.
 */
#define LAB_CLOCK_RTC		"/dev/rtc0"
#define LAB_CLOCK_HOST_MAX_PPM	10000	/* 1 % */
#define LAB_CLOCK_POLL_NS	500000	/* finds an RTC tick within ~0.5 ms */
/*
 * Polls before giving up on a tick: 100 s on a clock that runs right; a
 * clock that runs fast sleeps less per poll and still sees a tick.
 */
#define LAB_CLOCK_POLLS_MAX	200000

/* An RTC tick, as the guest saw it. */
struct lab_clock_tick {
	long long rtc_s;	/* the second that began, host time */
	long long mono_ns;	/* CLOCK_MONOTONIC at the read that saw it */
};

static inline long long lab_clock_mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* Days from 1970-01-01 to a civil date (proleptic Gregorian). */
static inline long long lab_clock_days(long long y, int mon, int mday)
{
	long long era, yoe, doy;

	y -= mon <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (mon + (mon > 2 ? -3 : 9)) + 2) / 5 + mday - 1;
	return era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
}

/* The RTC's time in seconds, or -errno. */
static inline long long lab_clock_rtc_s(int fd)
{
	struct rtc_time tm;

	if (ioctl(fd, RTC_RD_TIME, &tm))
		return -errno;
	return lab_clock_days(tm.tm_year + 1900LL, tm.tm_mon + 1,
			      tm.tm_mday) * 86400 +
	       tm.tm_hour * 3600LL + tm.tm_min * 60 + tm.tm_sec;
}

/*
 * Wait for an RTC second after @after to begin; the guest time is taken
 * before the read that first shows it, so the tick is at most one poll
 * earlier, the same for every tick. 0, or -errno (-ETIME: no tick).
 */
static inline int lab_clock_tick(int fd, long long after,
				 struct lab_clock_tick *t)
{
	struct timespec poll = { 0, LAB_CLOCK_POLL_NS };
	long long s;
	int n;

	for (n = 0; n < LAB_CLOCK_POLLS_MAX; n++) {
		t->mono_ns = lab_clock_mono_ns();
		s = lab_clock_rtc_s(fd);
		if (s < 0)
			return (int)s;
		if (s > after) {
			t->rtc_s = s;
			return 0;
		}
		nanosleep(&poll, NULL);
	}
	return -ETIME;
}

/* The first tick from now, the current second's end. */
static inline int lab_clock_first_tick(int fd, struct lab_clock_tick *t)
{
	long long now = lab_clock_rtc_s(fd);

	return now < 0 ? (int)now : lab_clock_tick(fd, now, t);
}

/* How far the guest's clock ran from the host's between two ticks, ppm. */
static inline long lab_clock_ppm(const struct lab_clock_tick *a,
				 const struct lab_clock_tick *b)
{
	long long host_ns = (b->rtc_s - a->rtc_s) * 1000000000LL;
	long long guest_ns = b->mono_ns - a->mono_ns;

	if (host_ns <= 0)
		return 0;
	return (long)((guest_ns - host_ns) * 1000000.0 / host_ns);
}

static inline bool lab_clock_ppm_ok(long ppm)
{
	return labs(ppm) <= LAB_CLOCK_HOST_MAX_PPM;
}

/*
 * The guest's clock against the host's over @secs RTC seconds from now:
 * 0 with the rate in *@ppm and the last tick in *@end (a later check
 * measures the whole stretch from there), or -errno.
 */
static inline int lab_clock_vs_host(int secs, long *ppm,
				    struct lab_clock_tick *end)
{
	struct lab_clock_tick a = { 0, 0 };
	int fd = open(LAB_CLOCK_RTC, O_RDONLY | O_CLOEXEC);
	struct timespec nap = { secs - 1, 950000000L };
	long long now;
	int err;

	if (fd < 0)
		return -errno;
	err = lab_clock_first_tick(fd, &a);
	if (!err) {
		/*
		 * Most of the wait asleep, polled near the tick; a clock
		 * that runs slow sleeps past it, and waits for the next.
		 */
		nanosleep(&nap, NULL);
		now = lab_clock_rtc_s(fd);
		err = now < 0 ? (int)now :
			lab_clock_tick(fd, now > a.rtc_s + secs - 1 ? now :
				       a.rtc_s + secs - 1, end);
	}
	close(fd);
	if (!err)
		*ppm = lab_clock_ppm(&a, end);
	return err;
}

/* The same from @start's tick to the next one. */
static inline int lab_clock_since(const struct lab_clock_tick *start,
				  long *ppm)
{
	struct lab_clock_tick b = { 0, 0 };
	int fd = open(LAB_CLOCK_RTC, O_RDONLY | O_CLOEXEC);
	int err;

	if (fd < 0)
		return -errno;
	err = lab_clock_first_tick(fd, &b);
	close(fd);
	if (!err)
		*ppm = lab_clock_ppm(start, &b);
	return err;
}

/* Why a rate check failed or disagreed, or NULL. */
static inline const char *lab_clock_host_problem(int err, long ppm)
{
	static char why[256];

	if (err == -ENOENT || err == -ENODEV || err == -ENXIO)
		snprintf(why, sizeof(why),
			 "no RTC to check the clock against the host's (" LAB_CLOCK_RTC ": %s): the kernel needs CONFIG_RTC_CLASS and CONFIG_RTC_DRV_CMOS",
			 strerror(-err));
	else if (err == -ETIME)
		snprintf(why, sizeof(why),
			 "the RTC did not tick: cannot check the clock against the host's");
	else if (err)
		snprintf(why, sizeof(why), "reading " LAB_CLOCK_RTC ": %s",
			 strerror(-err));
	else if (!lab_clock_ppm_ok(ppm))
		snprintf(why, sizeof(why),
			 "the guest's clock ran %+.2f %% against the host's (allowed +-%.0f %%)",
			 ppm / 10000.0, LAB_CLOCK_HOST_MAX_PPM / 10000.0);
	else
		return NULL;
	return why;
}

/*
 * Check the clock against the host's until they agree, at most @tries
 * times (a second or two each): the watchdog can take half a minute to
 * drop a TSC calibrated at the wrong rate. Return why the clock is not
 * to be timed on, or NULL; *@ppm is the last rate measured.
 */
static inline const char *lab_clock_host_settle(long *ppm,
						struct lab_clock_tick *end,
						int tries)
{
	int err;

	do
		err = lab_clock_vs_host(1, ppm, end);
	while (!err && !lab_clock_ppm_ok(*ppm) && --tries > 0);
	return lab_clock_host_problem(err, *ppm);
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
