// SPDX-License-Identifier: GPL-2.0
/*
 * Does the guest keep real time? Every time the lab publishes is read
 * from this guest's clocks, so they must be fine-grained and must not
 * drift onto jiffies when the host is busy (guest/t-guest/clock-load.t runs
 * this test while two busy loops compete with QEMU for the host's CPUs).
 *
 *  - the clocksource is not jiffies, and a hardware watchdog (HPET or the
 *    ACPI PM timer) is there to fall back on if the TSC is found unstable;
 *  - CLOCK_MONOTONIC has high-resolution timers behind it (resolution
 *    1 ns, not a 4 ms tick) and CLOCK_REALTIME moves in fine steps;
 *  - sleeps and the FUSE daemon's injected delay (fusecount delay_us)
 *    cost what they say: within 10 % or 0.3 ms, whichever is larger.
 *
 * A failure names the kernel option that is missing where it can
 * (lab_clock.h); the NFS lab's netem delay is checked on two guests by
 * nfs-lab/t-guest/delay.t.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <limits.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "kselftest_harness.h"

#include "lab_clock.h"
#include "lab_fuse.h"
#include "lab_user.h"

#define SAMPLES	31

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

static long long median_ns(long long *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_ll);
	return v[n / 2];
}

TEST(clocksource_is_not_jiffies)
{
	struct lab_clock c;

	/* The first test: give the clock its moment to settle after boot. */
	lab_clock_settle(&c, 5000);
	TH_LOG("clocksource %s (available: %s), CLOCK_MONOTONIC resolution %ld ns",
	       c.current, c.available, c.res_ns);
	EXPECT_EQ(NULL, lab_clock_problem(&c)) {
		TH_LOG("%s", lab_clock_problem(&c));
	}
}

TEST(hardware_watchdog_present)
{
	struct lab_clock c;

	ASSERT_EQ(0, lab_clock_read(&c));
	/* Without one, the TSC is checked against jiffies and loses. */
	EXPECT_TRUE(lab_clock_has(&c, "hpet") || lab_clock_has(&c, "acpi_pm")) {
		TH_LOG("no HPET or ACPI PM timer: the kernel needs CONFIG_HPET_TIMER and CONFIG_ACPI/CONFIG_X86_PM_TIMER");
	}
}

TEST(monotonic_resolution_1us)
{
	struct timespec res;

	ASSERT_EQ(0, clock_getres(CLOCK_MONOTONIC, &res));
	EXPECT_EQ(0, res.tv_sec);
	EXPECT_LE(res.tv_nsec, 1000) {
		TH_LOG("resolution %ld ns: the kernel needs CONFIG_HIGH_RES_TIMERS",
		       res.tv_nsec);
	}
}

/*
 * On jiffies CLOCK_REALTIME stands still for 4 ms and then jumps; here
 * its smallest step must be well under a millisecond.
 */
TEST(realtime_moves_in_fine_steps)
{
	struct timespec a, b;
	long long step, smallest = LLONG_MAX;
	int i;

	clock_gettime(CLOCK_REALTIME, &a);
	for (i = 0; i < 100000 && smallest > 1000; i++) {
		clock_gettime(CLOCK_REALTIME, &b);
		step = (b.tv_sec - a.tv_sec) * 1000000000LL +
		       (b.tv_nsec - a.tv_nsec);
		if (step > 0 && step < smallest)
			smallest = step;
		a = b;
	}
	TH_LOG("smallest CLOCK_REALTIME step %lld ns", smallest);
	EXPECT_LE(smallest, 100000);
}

/* A file made now has a btime that is not in the future of "now". */
TEST(btime_of_new_file_is_before_later_now)
{
	struct statx stx;
	struct timespec after;
	long long b, n;
	int fd;

	fd = open("/tmp/clock-btime", O_CREAT | O_WRONLY | O_TRUNC, 0644);
	ASSERT_LE(0, fd);
	close(fd);
	lab_sleep_ms(1);
	clock_gettime(CLOCK_REALTIME, &after);
	ASSERT_EQ(0, sys_statx(AT_FDCWD, "/tmp/clock-btime", 0,
			       STATX_BTIME, &stx));
	unlink("/tmp/clock-btime");
	if (!(stx.stx_mask & STATX_BTIME))
		SKIP(return, "tmpfs has no btime on this kernel");
	b = stx.stx_btime.tv_sec * 1000000000LL + stx.stx_btime.tv_nsec;
	n = after.tv_sec * 1000000000LL + after.tv_nsec;
	/* 1 ms after the create, "now" has moved on from the btime. */
	EXPECT_LT(b, n);
}

/* Median cost of a @ms millisecond nanosleep, in ns. */
static long long sleep_cost_ns(long ms)
{
	long long t[SAMPLES];
	int i;

	for (i = 0; i < SAMPLES; i++) {
		long long t0 = now_ns();

		lab_sleep_ms(ms);
		t[i] = now_ns() - t0;
	}
	return median_ns(t, SAMPLES);
}

TEST(sleep_1ms_costs_1ms)
{
	long long got = sleep_cost_ns(1);

	TH_LOG("1 ms sleep: median %lld us", got / 1000);
	EXPECT_TRUE(lab_delay_within(got, 1000000)) {
		TH_LOG("%s", lab_delay_bound_text(got, 1000000));
	}
}

TEST(sleep_10ms_costs_10ms)
{
	long long got = sleep_cost_ns(10);

	TH_LOG("10 ms sleep: median %lld us", got / 1000);
	EXPECT_TRUE(lab_delay_within(got, 10000000)) {
		TH_LOG("%s", lab_delay_bound_text(got, 10000000));
	}
}

/*
 * fusecount's delay: the added cost of one request, measured as the
 * median of SAMPLES forced attribute refreshes of an open file (one
 * GETATTR or STATX each, nothing else: the fd needs no lookup) with the
 * delay minus the median without.
 */
FIXTURE(fuse_delay) {
	struct lab_fuse fs;
	int fd;
};

FIXTURE_SETUP(fuse_delay)
{
	char path[128];

	ASSERT_EQ(0, lab_fuse_start(&self->fs, "clock", ""));
	snprintf(path, sizeof(path), "%s/f", self->fs.mnt);
	self->fd = open(path, O_CREAT | O_RDWR, 0644);
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(fuse_delay)
{
	if (self->fd >= 0)
		close(self->fd);
	umount2(self->fs.mnt, MNT_DETACH);
	lab_fuse_stop(&self->fs);
}

/* Median cost of one forced refresh of @fd with the daemon's delay @us. */
static long long refresh_cost_ns(struct __test_metadata *_metadata,
				 struct lab_fuse *fs, int fd, long us)
{
	long long t[SAMPLES];
	struct statx stx;
	char cmd[32];
	char *stats;
	long reqs;
	int i;

	snprintf(cmd, sizeof(cmd), "delay %ld", us);
	free(lab_ctl(fs->sock, cmd));
	free(lab_ctl(fs->sock, "reset"));
	for (i = 0; i < SAMPLES; i++) {
		long long t0 = now_ns();

		sys_statx(fd, "", AT_EMPTY_PATH | AT_STATX_FORCE_SYNC,
			  STATX_BASIC_STATS, &stx);
		t[i] = now_ns() - t0;
	}
	stats = lab_ctl(fs->sock, "stats");
	reqs = lab_count(stats, "GETATTR") + lab_count(stats, "STATX");
	free(stats);
	/* Exact: a forced refresh of an open file is one request. */
	EXPECT_EQ(SAMPLES, reqs);
	return median_ns(t, SAMPLES);
}

static void check_fuse_delay(struct __test_metadata *_metadata,
			     struct lab_fuse *fs, int fd, long us)
{
	long long base = refresh_cost_ns(_metadata, fs, fd, 0);
	long long with = refresh_cost_ns(_metadata, fs, fd, us);
	long long added = with - base;

	TH_LOG("delay %ld us: request %lld us, without delay %lld us, added %lld us",
	       us, with / 1000, base / 1000, added / 1000);
	EXPECT_TRUE(lab_delay_within(added, us * 1000LL)) {
		TH_LOG("%s", lab_delay_bound_text(added, us * 1000LL));
	}
}

TEST_F(fuse_delay, delay_1ms)
{
	check_fuse_delay(_metadata, &self->fs, self->fd, 1000);
}

TEST_F(fuse_delay, delay_10ms)
{
	check_fuse_delay(_metadata, &self->fs, self->fd, 10000);
}

TEST_HARNESS_MAIN
