// SPDX-License-Identifier: GPL-2.0
/*
 * The lab's one runner (run.h): every file system's cases go through
 * run_case(), which asks the backend for the case's world and counters
 * and does the rest the same way for all: the cache state, the measured
 * call (a syscall in this process, an ls or a command as a child, the
 * deep walk), the time budget and the results line.
 *
 *   RUNNER --kernel LABEL --cases FILE [--fs FS] [--budget-s S] [...]
 *
 * Exit status: 0; 1 when a case failed (it is still reported, with
 * "error"); 2 usage, an unreadable plan or a bad case line in it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lab_clock.h"
#include "run.h"

#define RUN_OUT		"/tmp/lab-run.out"
#define RUN_ERR		"/tmp/lab-run.err"
#define RUN_BUDGET_MAX_S 86400	/* a day: far beyond any case */

/* What the measured call gave. */
struct run_result {
	int err;		/* the syscall's errno, or the walk's first */
	int status;		/* ls, cmd: exit status; -1 for syscalls */
	long long wall_us;
	struct statx stx;	/* the syscall's answer */
	bool attrs;		/* stx holds it */
	long listed;		/* ls: entries listed */
	char lsx[320];		/* lsx's one-line summary */
	int seen;		/* changed: -1 unknown, 0 old ctime, 1 new */
	long long primed_us;	/* from the warm-up's end to the call's start */
	long long warmup_us;	/* the warm-up's own time */
	struct run_scan {
		int flagged;	/* files the scan says changed */
		int detected;	/* of the LAB_SCAN_CHANGES that did */
		int unreported;	/* files whose cookie was asked for, not set */
	} scan;
	const char *state;	/* why the cache was not in the claimed state */
	const char *error;	/* why the case failed, or NULL */
};

/* Runs of a case whose cache was not in the state it claims, at most */
#define RUN_STATE_TRIES	3

static void run_say(const struct lab_run *r, const char *what,
		    const char *arg)
{
	fprintf(stderr, "%s: case %d: %s%s\n", r->be->prog, r->index + 1,
		what, arg);
}

/* Run @argv (@path) with stdout to RUN_OUT, stderr to RUN_ERR; timed. */
static int run_exec(const struct lab_run *r, const char *path,
		    const char *const argv[], long long *wall_us)
{
	char mnt[180], dir[180], file[180];
	char *const env[] = { "PATH=/usr/bin:/bin", "LC_ALL=C", "HOME=/root",
			      mnt, dir, file, NULL };
	long long t0;
	int status = -1;
	pid_t pid;

	snprintf(mnt, sizeof(mnt), "MNT=%s", r->mnt);
	snprintf(dir, sizeof(dir), "DIR=%s", r->dir);
	snprintf(file, sizeof(file), "FILE=%s", r->path);
	t0 = lab_now_us();
	pid = fork();
	if (pid == 0) {
		int out = open(RUN_OUT, O_CREAT | O_WRONLY | O_TRUNC, 0644);
		int err = open(RUN_ERR, O_CREAT | O_WRONLY | O_TRUNC, 0644);

		if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
			_exit(126);
		execve(path, (char *const *)argv, env);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	*wall_us = lab_now_us() - t0;
	if (pid < 0 || !WIFEXITED(status))
		return 128 + (pid > 0 ? WTERMSIG(status) : 0);
	return WEXITSTATUS(status);
}

/* The command of an ls or cmd case. */
static int run_command(const struct lab_run *r, const struct lab_case *k,
		       long long *wall_us)
{
	const char *argv[8] = { "sh", "-c", k->cmd, NULL };
	const char *path = "/bin/sh";

	if (k->workload == LAB_LS)
		path = lab_ls_argv(k, r->dir, true, argv);
	return run_exec(r, path, argv, wall_us);
}

/*
 * What an ls listed, from RUN_OUT: lsx's summary and its "entries"; for
 * ls, the lines of output (one per entry, and "total" for the long
 * forms). busybox ls says nothing when readdir fails: this catches it.
 */
static long run_listed(const struct lab_case *k, char *lsx, size_t len)
{
	FILE *f = fopen(RUN_OUT, "re");
	const char *e;
	long lines = 0;
	int ch;

	lsx[0] = '\0';
	if (!f)
		return -1;
	if (!strcmp(k->call, "lsx")) {
		if (fgets(lsx, (int)len, f))
			lsx[strcspn(lsx, "\n")] = '\0';
		fclose(f);
		e = strstr(lsx, "\"entries\":");
		return e ? strtol(e + 10, NULL, 10) : -1;
	}
	while ((ch = getc(f)) != EOF)
		lines += ch == '\n';
	fclose(f);
	return lines;
}

/* The @i-th file of a scan case's directory, into @p */
static void run_scan_path(const struct lab_run *r, unsigned int i, char *p,
			  size_t len)
{
	char name[16];

	lab_scan_name(name, sizeof(name), i);
	snprintf(p, len, "%s/%s", r->dir, name);
}

/*
 * The last scan, whose answers the measured one compares with: every
 * file's times, size and cookie, fresh from the server (FORCE_SYNC).
 */
static int run_scan_ref(const struct lab_run *r, const struct lab_case *k,
			struct statx *ref)
{
	unsigned int i, mask = STATX_MTIME | STATX_CTIME | STATX_SIZE |
			       STATX_COOKIE;
	char p[200];

	for (i = 0; i < k->n; i++) {
		run_scan_path(r, i, p, sizeof(p));
		if (syscall(SYS_statx, AT_FDCWD, p, AT_STATX_FORCE_SYNC, mask,
			    &ref[i]))
			return -1;
	}
	return 0;
}

/* Read the whole directory once: what the dont scan starts with */
static int run_scan_list(const struct lab_run *r)
{
	DIR *d = opendir(r->dir);
	int err;

	if (!d)
		return errno;
	errno = 0;
	while (readdir(d))
		;
	err = errno;
	closedir(d);
	return err;
}

static bool run_stx_ts_eq(const struct statx_timestamp *a,
			  const struct statx_timestamp *b)
{
	return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

/*
 * Did file @now change since @ref, as the scan's mode can tell? A
 * cookie asked for and not reported cannot vouch for the file: it
 * counts as changed (what a careful scanner does), and as unreported.
 */
static bool run_scan_flags(const struct lab_case *k, const struct statx *ref,
			   const struct statx *now, struct run_scan *sc)
{
	if (!strcmp(k->sync, "as-stat"))
		return !run_stx_ts_eq(&ref->stx_mtime, &now->stx_mtime) ||
		       !run_stx_ts_eq(&ref->stx_ctime, &now->stx_ctime) ||
		       ref->stx_size != now->stx_size;
	if (!(now->stx_mask & STATX_COOKIE) || !(ref->stx_mask & STATX_COOKIE)) {
		sc->unreported++;
		return true;
	}
	return lab_stx_cookie(ref) != lab_stx_cookie(now);
}

/* The measured scan: which files changed since @ref; first errno */
static int run_scan(const struct lab_run *r, const struct lab_case *k,
		    const struct statx *ref, struct run_scan *sc)
{
	int flags = lab_sync_flags(k->sync), err = 0;
	struct statx now;
	unsigned int i;
	char p[200];

	if (!strcmp(k->sync, "dont"))
		err = run_scan_list(r);
	for (i = 0; i < k->n && !err; i++) {
		run_scan_path(r, i, p, sizeof(p));
		memset(&now, 0, sizeof(now));
		if (syscall(SYS_statx, AT_FDCWD, p, flags, k->mask_bits, &now))
			err = errno;
		else if (run_scan_flags(k, &ref[i], &now, sc)) {
			sc->flagged++;
			sc->detected += i < LAB_SCAN_CHANGES;
		}
	}
	return err;
}

static void run_measure(const struct lab_run *r, const struct lab_case *k,
			int dirfd, const struct statx *ref,
			struct run_result *res)
{
	long long t0 = lab_now_us();

	if (k->workload == LAB_SYSCALL) {
		res->err = lab_call(k, r->path, dirfd, r->at_name, &res->stx);
		res->wall_us = lab_now_us() - t0;
		res->attrs = !res->err;
	} else if (k->workload == LAB_DEEP) {
		res->err = lab_deep_walk(r->dir, lab_sync_flags(k->sync));
		res->wall_us = lab_now_us() - t0;
	} else if (k->workload == LAB_SCAN) {
		res->err = run_scan(r, k, ref, &res->scan);
		res->wall_us = lab_now_us() - t0;
	} else {
		res->status = run_command(r, k, &res->wall_us);
	}
	if (res->err || res->status > 0)
		res->error = "call failed";
	if (k->workload != LAB_LS || res->error)
		return;
	res->listed = run_listed(k, res->lsx, sizeof(res->lsx));
	if (res->listed < (long)k->n)
		res->error = "listed fewer entries than the directory has";
}

/*
 * The warm-up: the measured call itself (prime_with_call), or stat() of
 * the object (lstat() where the call does not follow it) whose ctime a
 * "changed" case compares with; ls and cmd run their command, the deep
 * case walks its tree as stat() would, a scan makes its last scan.
 */
static int run_warm_up(const struct lab_run *r, const struct lab_case *k,
		       int dirfd, struct statx *stx, struct statx *ref)
{
	bool nofollow = k->nofollow || !strcmp(k->call, "lstat");
	struct lab_case st = *k;
	long long us;

	if (k->workload == LAB_SCAN)
		return run_scan_ref(r, k, ref);
	if (k->workload == LAB_DEEP)
		return lab_deep_walk(r->dir, 0), 0;
	if (k->workload != LAB_SYSCALL)
		return run_command(r, k, &us), 0;
	if (r->be->prime_with_call)
		return lab_call(k, r->path, dirfd, r->at_name, stx), 0;
	strcpy(st.call, nofollow ? "lstat" : "stat");
	return lab_call(&st, r->path, dirfd, r->at_name, stx) ? -1 : 0;
}

/* A "changed" case: did the call see the new ctime? */
static int run_seen(const struct statx *warm, const struct run_result *res)
{
	if (res->err || !(res->stx.stx_mask & STATX_CTIME) ||
	    !(warm->stx_mask & STATX_CTIME))
		return -1;
	return res->stx.stx_ctime.tv_sec != warm->stx_ctime.tv_sec ||
	       res->stx.stx_ctime.tv_nsec != warm->stx_ctime.tv_nsec;
}

/*
 * A scan's answer: the files changed behind the client's back, those it
 * found, missed and flagged wrongly; a scan by the cookie that got none
 * says so instead of counting.
 */
static void run_scan_answer(FILE *f, const struct lab_case *k,
			    const struct run_scan *sc)
{
	fprintf(f, ",\"changed\":%d", LAB_SCAN_CHANGES);
	if (sc->unreported == (int)k->n) {
		fputs(",\"cookie\":\"not reported\"", f);
		return;
	}
	if (sc->unreported)
		fprintf(f, ",\"unreported\":%d", sc->unreported);
	fprintf(f, ",\"detected\":%d,\"missed\":%d,\"false_alarms\":%d",
		sc->detected, LAB_SCAN_CHANGES - sc->detected,
		sc->flagged - sc->detected);
}

/* What the call returned: an error, its exit status, the attributes. */
static void run_answer(FILE *f, const struct lab_case *k,
		       const struct run_result *res)
{
	if (res->status >= 0)
		fprintf(f, ",\"status\":%d", res->status);
	if (k->workload == LAB_LS && res->status == 0)
		fprintf(f, ",\"listed\":%ld", res->listed);
	if (res->lsx[0] == '{')
		fprintf(f, ",\"lsx\":%s", res->lsx);
	if (res->err)
		fprintf(f, ",\"errno\":\"%s\"",
			strerrorname_np(res->err) ?: "?");
	if (k->workload == LAB_SCAN && !res->err)
		run_scan_answer(f, k, &res->scan);
	if (!res->attrs)
		return;
	if (!strcmp(k->call, "statx"))
		fprintf(f, ",\"result_mask\":\"0x%x\",\"btime\":%s",
			res->stx.stx_mask,
			res->stx.stx_mask & STATX_BTIME ? "true" : "false");
	fprintf(f, ",\"mode\":\"%04o\",\"ino\":%llu",
		res->stx.stx_mode & 07777,
		(unsigned long long)res->stx.stx_ino);
	if (k->cache == LAB_CHANGED)
		fprintf(f, ",\"seen\":%s", res->seen < 0 ? "null" :
			res->seen ? "true" : "false");
}

/* The case's keys, as every runner and the plan write them. */
static void run_keys(struct lab_run *r, const struct lab_case *k)
{
	char opts[256];

	r->fs->mount_opts(opts, sizeof(opts), r->fs, k);
	fputs("@case ", stdout);
	lab_case_keys(stdout, r->kernel, r->fs->name, opts, k);
	if (r->be->keys)
		r->be->keys(r, k, stdout);
}

/*
 * Did the call outlast its mount's shortest attribute timeout? Then
 * attributes it fetched early may expire before it ends, and its count
 * depends on how fast it ran (a listing of 1000 entries on actimeo=1
 * under load): not an error, but not a count that must repeat.
 */
static bool run_outlasted(const struct lab_run *r, const struct lab_case *k,
			  const struct run_result *res)
{
	long long valid_us;

	if (!r->be->valid_ms)
		return false;
	valid_us = r->be->valid_ms(k) * 1000LL;
	return valid_us && res->wall_us >= valid_us;
}

/*
 * wall_us is the median of @runs runs, each in @us (NULL: one run);
 * @left_out more counted other calls.
 */
static void run_line(struct lab_run *r, const struct lab_case *k,
		     const struct run_result *res, const char *counts,
		     long calls, const long long *us, unsigned int runs,
		     unsigned int left_out)
{
	unsigned int i;

	run_keys(r, k);
	run_answer(stdout, k, res);
	printf("%s,\"calls\":%ld,\"wall_us\":%lld", counts, calls,
	       res->wall_us);
	if (run_outlasted(r, k, res))
		fputs(",\"outlasted_timeout\":true", stdout);
	if (k->cache != LAB_COLD)
		printf(",\"primed_us\":%lld,\"warmup_us\":%lld", res->primed_us,
		       res->warmup_us);
	for (i = 0; us && runs > 1 && i < runs; i++)
		printf("%s%lld", i ? "," : ",\"wall_us_runs\":[", us[i]);
	if (us && runs > 1)
		putchar(']');
	if (left_out)
		printf(",\"runs_left_out\":%u", left_out);
	if (res->error) {
		printf(",\"error\":");
		lab_json_str(stdout, res->error);
	}
	puts("}");
	fflush(stdout);
}

static void run_skip(struct lab_run *r, const struct lab_case *k,
		     const char *why)
{
	run_keys(r, k);
	printf(",\"skipped\":");
	lab_json_str(stdout, why);
	puts("}");
	fflush(stdout);
}

/*
 * Did the call see the cache state its case claims? A warm or changed
 * case relies on the warm-up's attributes: the call must end within
 * their timeout since the warm-up began (a listing's first attributes
 * are as old as the warm-up). An expired one must start after it since
 * the warm-up ended.
 * NULL, or why not. A host that stalls the guest for a second, or a
 * listing longer than its mount's timeout, makes a "warm" count that is
 * not one: such a run is done again, and failed if it stays so.
 */
static const char *run_state_wrong(const struct lab_run *r,
				   const struct lab_case *k,
				   const struct run_result *res)
{
	long long valid_us, end_us = res->warmup_us + res->primed_us +
				     res->wall_us;

	if (!r->be->valid_ms || k->cache == LAB_COLD)
		return NULL;
	valid_us = r->be->valid_ms(k) * 1000LL;
	if (k->cache == LAB_EXPIRED)
		return res->primed_us < valid_us ?
		       "an expired case started within its attribute timeout" :
		       NULL;
	if (valid_us && end_us >= valid_us)
		return "a warm case ended past its attribute timeout";
	return NULL;
}

/*
 * A run of a case, set up in its world and warmed up (primed), waiting
 * for its measured call: alone (world 0) or in an expiry batch.
 */
struct run_slot {
	const struct lab_case *k;
	int world;
	int dirfd;		/* fstatat's directory, or -1 */
	bool set_up;		/* setup() worked: teardown() is owed */
	bool aged;		/* the batch's wait is done */
	bool used;		/* measured, or dropped */
	struct statx warm;	/* a syscall's warm-up answer */
	struct statx *ref;	/* a scan's last scan */
	long long warm_at;	/* when the warm-up began */
	long long primed_at;	/* when the warm-up ended */
	const char *error;	/* why it cannot be measured */
};

/* Make @s the world the backend works on (a batch's; world 0 is current). */
static void run_select(struct lab_run *r, const struct run_slot *s)
{
	r->world = s->world;
	if (s->world)
		r->be->select(r, s->k);
}

/* Set @s's world up and warm it up: all of the cache state but age(). */
static void run_prime(struct lab_run *r, struct run_slot *s)
{
	const struct lab_case *k = s->k;

	s->dirfd = -1;
	r->world = s->world;
	if (k->workload == LAB_SCAN) {
		s->ref = calloc(k->n, sizeof(*s->ref));
		if (!s->ref) {
			s->error = "out of memory";
			return;
		}
	}
	if (r->be->setup(r, k)) {
		s->error = "cannot set the case up";
		return;
	}
	s->set_up = true;
	/* Only fstatat gets its directory walked (and cached) beforehand. */
	if (k->workload == LAB_SYSCALL && !strcmp(k->call, "fstatat"))
		s->dirfd = open(r->at_dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	s->warm_at = lab_now_us();
	if (k->cache != LAB_COLD &&
	    run_warm_up(r, k, s->dirfd, &s->warm, s->ref))
		s->error = "warm-up failed";
	s->primed_at = lab_now_us();
}

/* Tear @s's world down, measured or not. */
static void run_release(struct lab_run *r, struct run_slot *s)
{
	s->used = true;
	if (s->dirfd >= 0)
		close(s->dirfd);
	s->dirfd = -1;
	free(s->ref);
	s->ref = NULL;
	if (!s->set_up)
		return;
	run_select(r, s);
	r->be->teardown(r, s->k);
	s->set_up = false;
}

/*
 * The rest of the cache state, the delay, the counters around the call
 * of a primed run; calls, -1 if failed.
 */
static long run_counted(struct lab_run *r, struct run_slot *s,
			struct run_result *res, char **counts)
{
	const struct lab_backend *be = r->be;
	const struct lab_case *k = s->k;
	size_t len = 0;
	long calls;
	FILE *f;

	if (k->cache != LAB_COLD && !s->aged && be->age(r, k))
		return res->error = "cannot bring the caches to this state", -1;
	if (k->delay_ms && be->delay(r, k->delay_ms))
		return res->error = "cannot set the delay", -1;
	if (be->count(r))
		return res->error = "no counters", -1;
	res->primed_us = lab_now_us() - s->primed_at;
	res->warmup_us = s->primed_at - s->warm_at;
	run_measure(r, k, s->dirfd, s->ref, res);
	res->state = run_state_wrong(r, k, res);
	f = open_memstream(counts, &len);
	calls = f ? be->counted(r, k, f) : -1;
	if (f)
		fclose(f);
	if (k->delay_ms)
		be->delay(r, 0);
	if (calls < 0)
		res->error = "no counters";
	return calls;
}

/* Measure a primed run and tear it down; its calls, or -1. */
static long run_finish(struct lab_run *r, struct run_slot *s,
		       struct run_result *res, char **counts)
{
	long calls = -1;

	run_select(r, s);
	if (s->error)
		res->error = s->error;
	else
		calls = run_counted(r, s, res, counts);
	res->seen = run_seen(&s->warm, res);
	run_release(r, s);
	return res->error ? -1 : calls;
}

/*
 * An expiry batch: runs of several expired cases, primed one after
 * another, aged by one wait, then measured in plan order. Each world is
 * a tree and a mount of its own, so measuring one leaves the others'
 * caches alone; a run measured later has only waited longer.
 * RUN_BATCH_ENTRIES bounds the directory entries a batch holds at once
 * (the NFS lab's export has 16384 inodes).
 */
#define RUN_WORLDS_MAX		24
#define RUN_BATCH_ENTRIES	7000

struct run_batch {
	struct run_slot slot[RUN_WORLDS_MAX];
	int count;
};

/*
 * Does @k go in an expiry batch? Not a case with a wait of its own
 * (expire=): it may rely on a longer timeout not passing (files expired,
 * directories not), and a batch waits longer for the worlds primed first.
 */
static bool run_batchable(const struct lab_run *r, const struct lab_case *k)
{
	return r->be->expire_ms && r->be->select &&
	       k->cache == LAB_EXPIRED && k->workload != LAB_SCAN &&
	       !k->delay_ms && !k->expire_ms;
}

/*
 * One run of @k: a primed one of batch @b if it has one left, else one
 * set up, aged and measured now.
 */
static long run_next(struct lab_run *r, const struct lab_case *k,
		     struct run_batch *b, struct run_result *res,
		     char **counts)
{
	struct run_slot alone = { .k = k };
	int i;

	for (i = 0; b && i < b->count; i++)
		if (b->slot[i].k == k && !b->slot[i].used)
			return run_finish(r, &b->slot[i], res, counts);
	run_prime(r, &alone);
	return run_finish(r, &alone, res, counts);
}

/*
 * How many runs an ls case gets: repeat=N if the case line says so,
 * else RUN_LS_RUNS when its first run took less than RUN_REPEAT_US (the
 * full lab's 30-minute budget allows that for about 1000 of its 1200
 * listings; a 10000-entry or slow delayed one is timed once).
 */
#define RUN_LS_RUNS	3
#define RUN_REPEAT_US	1000000LL

static unsigned int run_runs(const struct lab_case *k, long long first_us)
{
	if (k->repeat > 1)
		return k->repeat;
	if (k->workload != LAB_LS || first_us >= RUN_REPEAT_US)
		return 1;
	return RUN_LS_RUNS;
}

static int run_cmp_us(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/*
 * Time the case again from the same cache state; each run starts from
 * setup. The counts are the first run's. Where the kernel is exact, a
 * run whose call count differs is an error, not a sample; where it is
 * not (be->counts_vary), or a run outlasted its attribute timeout (its
 * count depends on its speed), that run did other work and is left out.
 * Return: the runs kept in @us, the first one included.
 */
static unsigned int run_again(struct lab_run *r, const struct lab_case *k,
			      struct run_batch *b, long calls,
			      struct run_result *res, long long *us,
			      unsigned int runs, unsigned int *left_out)
{
	unsigned int i, kept = 1;

	for (i = 1; i < runs && !res->error; i++) {
		struct run_result again = { .status = -1, .seen = -1 };
		char *counts = NULL;
		long got = run_next(r, k, b, &again, &counts);

		free(counts);
		if (again.state && !again.error)
			(*left_out)++;	/* not the state it claims: not a sample */
		else if (got == calls)
			us[kept++] = again.wall_us;
		else if ((r->be->counts_vary || run_outlasted(r, k, &again) ||
			  run_outlasted(r, k, res)) && !again.error)
			(*left_out)++;
		else
			res->error = again.error ?: "calls differ between runs";
	}
	return kept;
}

/*
 * One case: its runs (primed ones of batch @b first, if any), then one
 * line with the median and every run.
 */
static long run_case(struct lab_run *r, const struct lab_case *k,
		     struct run_batch *b)
{
	struct run_result res = { .status = -1, .seen = -1 };
	long long us[100], sorted[100];
	char *counts = NULL;
	unsigned int runs, left_out = 0, tries;
	long calls;

	calls = run_next(r, k, b, &res, &counts);
	for (tries = 1; res.state && !res.error && tries < RUN_STATE_TRIES;
	     tries++) {
		run_say(r, res.state, ": run again");
		memset(&res, 0, sizeof(res));
		res.status = res.seen = -1;
		free(counts);
		counts = NULL;
		calls = run_next(r, k, b, &res, &counts);
	}
	if (res.state && !res.error)
		res.error = res.state;
	us[0] = res.wall_us;
	runs = res.error ? 1 : run_runs(k, us[0]);
	runs = run_again(r, k, b, calls, &res, us, runs, &left_out);
	if (res.error)
		run_say(r, res.error, res.err ? strerror(res.err) : "");
	if (runs > 1 && !res.error) {
		memcpy(sorted, us, runs * sizeof(*us));
		qsort(sorted, runs, sizeof(*sorted), run_cmp_us);
		res.wall_us = runs % 2 ? sorted[runs / 2] :
			(sorted[runs / 2 - 1] + sorted[runs / 2]) / 2;
	}
	run_line(r, k, &res, counts ? counts : "", calls < 0 ? 0 : calls,
		 res.error ? NULL : us, runs, left_out);
	free(counts);
	return res.error ? -1 : calls;
}

/* The runs @k is planned for: its repeat, or RUN_LS_RUNS for an ls. */
static unsigned int run_planned(const struct lab_case *k)
{
	if (k->repeat > 1)
		return k->repeat;
	return k->workload == LAB_LS ? RUN_LS_RUNS : 1;
}

/* Directory entries a world of @k holds */
static unsigned int run_entries(const struct lab_case *k)
{
	return k->workload == LAB_SYSCALL ? 1 : k->n;
}

/*
 * Gather the batch of the case at r->index: its planned runs, then those
 * of later cases not run yet (@done) with the same wait, while they fit.
 * Return: the cases taken, in plan order, in @which.
 */
static int run_gather(struct lab_run *r, const bool *done,
		      struct run_batch *b, int *which)
{
	const struct lab_case *first = &r->plan.cases[r->index];
	unsigned int wait = r->be->expire_ms(first), entries = 0, runs, i;
	int j, n = 0;

	for (j = r->index; j < r->plan.count; j++) {
		const struct lab_case *k = &r->plan.cases[j];

		if (done[j] || !run_batchable(r, k) ||
		    r->be->expire_ms(k) != wait)
			continue;
		runs = run_planned(k);
		if (n && (b->count + runs > RUN_WORLDS_MAX ||
			  entries + runs * run_entries(k) > RUN_BATCH_ENTRIES))
			break;
		for (i = 0; i < runs && b->count < RUN_WORLDS_MAX; i++) {
			b->slot[b->count].k = k;
			b->slot[b->count].world = b->count + 1;
			b->count++;
		}
		entries += runs * run_entries(k);
		which[n++] = j;
	}
	return n;
}

/*
 * Prime the worlds of @b in turn, at most for the backend's batch span;
 * @b keeps those primed, @which (@n cases) the cases that have one.
 */
static int run_prime_batch(struct lab_run *r, struct run_batch *b,
			   const int *which, int n)
{
	long long span_us = r->be->batch_span_ms ?
			    r->be->batch_span_ms() * 1000LL : 0;
	long long t0 = lab_now_us();
	int i;

	for (i = 0; i < b->count; i++) {
		if (i && span_us && lab_now_us() - t0 > span_us)
			break;
		r->index = b->slot[i].k - r->plan.cases;
		run_prime(r, &b->slot[i]);
	}
	b->count = i;
	/* slots are in case order: the cases left out are the last ones */
	while (n > 1 && b->slot[b->count - 1].k != &r->plan.cases[which[n - 1]])
		n--;
	return n;
}

/*
 * Run a batch from the case at r->index: prime every world, wait once
 * (age() of the last one primed: the others have waited longer), then
 * each case in plan order. Its cases' calls go in @calls, @done marks
 * them; 0, or -1 if one failed. A case left out of the priming (the
 * backend's span) stays for a batch of its own.
 */
static int run_batch(struct lab_run *r, long *calls, bool *done)
{
	struct run_batch b = { .count = 0 };
	int which[RUN_WORLDS_MAX], n, i, start = r->index, ret = 0;
	struct run_slot *last;

	n = run_gather(r, done, &b, which);
	n = run_prime_batch(r, &b, which, n);
	last = &b.slot[b.count - 1];
	run_select(r, last);
	if (r->be->age(r, last->k))
		for (i = 0; i < b.count; i++)
			b.slot[i].error = b.slot[i].error ?:
				"cannot bring the caches to this state";
	for (i = 0; i < b.count; i++)
		b.slot[i].aged = true;
	for (i = 0; i < n; i++) {
		r->index = which[i];
		calls[which[i]] = run_case(r, &r->plan.cases[which[i]], &b);
		done[which[i]] = true;
		if (calls[which[i]] < 0)
			ret = -1;
	}
	for (i = 0; i < b.count; i++)
		if (!b.slot[i].used)
			run_release(r, &b.slot[i]);	/* runs not needed */
	r->index = start;
	return ret;
}

/* The RTC tick the lane's clock check ended on: the lane is timed from it. */
static struct lab_clock_tick run_clock_start;
static char run_clock_src[64];	/* and its clocksource then */
/* Tries of the first clock check, each about a second */
#define RUN_CLOCK_TRIES	40

static void run_kernel_json(const struct lab_run *r, const struct lab_clock *c,
			    const char *ppm_key, long ppm, const char *refused)
{
	struct utsname u;

	uname(&u);
	printf("@kernel {\"kernel\":");
	lab_json_str(stdout, r->kernel);
	printf(",\"release\":");
	lab_json_str(stdout, u.release);
	printf(",\"role\":\"%s\",\"clocksource\":", r->fs->name);
	lab_json_str(stdout, c->current);
	printf(",\"clocks\":");
	lab_json_str(stdout, c->available);
	printf(",\"clock_res_ns\":%ld", c->res_ns);
	if (*run_clock_src && strcmp(c->current, run_clock_src)) {
		printf(",\"clocksource_from\":");
		lab_json_str(stdout, run_clock_src);
	}
	if (ppm_key)
		printf(",\"%s\":%ld", ppm_key, ppm);
	if (refused) {
		printf(",\"clock_refused\":");
		lab_json_str(stdout, refused);
	}
	printf("}\n");
	fflush(stdout);
}

/*
 * Where the run is: its kernel, and the clock its times come from
 * (lib/lab_clock.h), once it has settled after boot and agrees
 * with the host's. Return: why those times would not be results (a
 * jiffies clock, no high-resolution timers, a rate off the host's by
 * more than 1 %), or NULL.
 */
const char *lab_run_kernel_line(const struct lab_run *r)
{
	struct lab_clock c = { "?", "?", 0 };
	const char *why;
	long ppm = 0;

	why = lab_clock_settle(&c, 10000);
	if (!why && r->be->in_guest) {
		why = lab_clock_host_settle(&ppm, &run_clock_start,
					    RUN_CLOCK_TRIES);
		/* the watchdog may have moved it meanwhile */
		lab_clock_read(&c);
	}
	snprintf(run_clock_src, sizeof(run_clock_src), "%s", c.current);
	run_kernel_json(r, &c, why || !r->be->in_guest ? NULL : "host_ppm",
			ppm, NULL);
	return why;
}

/*
 * The lane's end: the clock over the whole lane against the host's, and
 * the clocksource it ends on. A lane whose clock was off is refused
 * (bench/lab marks its cases failed). One whose clocksource changed is
 * not, if the whole lane agrees with the host: the start's check timed
 * the first one right, a TSC's rate does not change after calibration,
 * and under a loaded host the watchdog moves a good TSC to the HPET when
 * the guest is descheduled between its two reads. The end line says
 * which clocksource the lane started on (clocksource_from).
 */
static const char *run_clock_end(const struct lab_run *r)
{
	static char text[320];
	struct lab_clock c = { "?", "?", 0 };
	const char *why = NULL, *bad;
	long ppm = 0;
	int err;

	err = lab_clock_since(&run_clock_start, &ppm);
	lab_clock_read(&c);
	bad = lab_clock_host_problem(err, ppm);
	if (bad) {
		snprintf(text, sizeof(text), "%s, over the lane", bad);
		why = text;
	}
	run_kernel_json(r, &c, err ? NULL : "host_ppm_lane", ppm, why);
	return why;
}

/* Every case of the plan not run yet: alone, or in an expiry batch. */
static int run_cases(struct lab_run *r, long *calls, bool *done)
{
	const struct lab_case *k;
	char why[96];
	int ret = 0;

	for (r->index = 0; r->index < r->plan.count; r->index++) {
		k = &r->plan.cases[r->index];
		if (done[r->index])
			continue;
		if (r->budget_us &&
		    lab_over_budget(&r->plan, k, calls, r->budget_us, why,
				    sizeof(why))) {
			run_skip(r, k, why);
			calls[r->index] = -1;
			continue;
		}
		if (run_batchable(r, k)) {
			if (run_batch(r, calls, done))
				ret = -1;
			continue;
		}
		calls[r->index] = run_case(r, k, NULL);
		if (calls[r->index] < 0)
			ret = -1;
	}
	return ret;
}

static int run_all(struct lab_run *r)
{
	size_t n = r->plan.count ? r->plan.count : 1;
	long *calls = calloc(n, sizeof(*calls));
	bool *done = calloc(n, sizeof(*done));
	const char *why_clock;
	int ret = -1;

	if (!calls || !done || r->be->start(r))
		goto out;
	why_clock = lab_run_kernel_line(r);
	if (why_clock) {
		/* The lane fails: every case is missing, and this says why. */
		fprintf(stderr, "%s: guest clock: %s; refusing to time cases on it\n",
			r->be->prog, why_clock);
		r->be->stop(r);
		goto out;
	}
	ret = run_cases(r, calls, done);
	why_clock = r->be->in_guest ? run_clock_end(r) : NULL;
	if (why_clock) {
		fprintf(stderr, "%s: guest clock: %s; its times are not results\n",
			r->be->prog, why_clock);
		ret = -1;
	}
	r->be->stop(r);
out:
	free(done);
	free(calls);
	return ret;
}

static void __attribute__((noreturn)) run_usage(const struct lab_run *r,
						const char *what,
						const char *arg)
{
	fprintf(stderr, "%s: %s%s (%s --help)\n", r->be->prog, what, arg,
		r->be->prog);
	exit(2);
}

/* --budget-s: digits only (no sign, no suffix), at most a day. */
static long run_budget_us(const struct lab_run *r, const char *v)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (*v < '0' || *v > '9' || *end || errno == ERANGE ||
	    n > RUN_BUDGET_MAX_S)
		run_usage(r, "--budget-s: want whole seconds from 0 to 86400, "
			  "not ", v);
	return n * 1000000L;
}

/*
 * The common options, then the backend's. Static: a usage error exits
 * from inside the parse, and nothing must be left allocated then.
 */
static const struct option *run_options(const struct lab_backend *be)
{
	static const struct option common[] = {
		{ "kernel", required_argument, NULL, 'k' },
		{ "cases", required_argument, NULL, 'c' },
		{ "fs", required_argument, NULL, 'f' },
		{ "budget-s", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
	};
	static struct option all[32];
	size_t n = 0, i = sizeof(common) / sizeof(common[0]);

	while (be->opts && be->opts[n].name)
		n++;
	if (i + n + 1 > sizeof(all) / sizeof(all[0]))
		exit(1);	/* a backend with too many options: a bug */
	memcpy(all, common, sizeof(common));
	if (n)
		memcpy(all + i, be->opts, n * sizeof(*all));
	return all;
}

static const char *run_parse(struct lab_run *r, int argc, char *argv[])
{
	const struct option *opts = run_options(r->be);
	const char *cases = NULL, *fs = r->be->fs0;
	int opt;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		if (opt == 'k')
			r->kernel = optarg;
		else if (opt == 'c')
			cases = optarg;
		else if (opt == 'f')
			fs = optarg;
		else if (opt == 'b')
			r->budget_us = run_budget_us(r, optarg);
		else if (opt == 'h')
			exit(printf("usage: %s --kernel LABEL --cases FILE "
				    "[--fs FS] [--budget-s S]\n",
				    r->be->prog) < 0);
		else if (opt == ':')
			run_usage(r, "a value is needed after ",
				  argv[optind - 1]);
		else if (opt == '?' || !r->be->opt || r->be->opt(r, opt, optarg))
			run_usage(r, "unknown option ", argv[optind - 1]);
	}
	if (optind < argc)
		run_usage(r, "unexpected argument ", argv[optind]);
	if (!r->kernel || !cases)
		run_usage(r, "--kernel LABEL and --cases FILE are needed", "");
	r->fs = fs ? lab_fs_find(fs) : NULL;
	if (!r->fs)
		run_usage(r, "--fs: want a file system of the planner, not ",
			  fs ? fs : "none");
	return cases;
}

/**
 * lab_run_main - a runner's main(): parse, read the plan, run it
 * @argc: main's
 * @argv: main's
 * @be: the file system's backend
 *
 * Return: the exit status.
 */
int lab_run_main(int argc, char *argv[], const struct lab_backend *be)
{
	struct lab_run r = { .be = be };
	const char *cases = run_parse(&r, argc, argv);
	char err[160];
	FILE *f = fopen(cases, "re");
	int ret;

	if (!f)
		run_usage(&r, cases, ": cannot read it");
	ret = lab_plan_read(&r.plan, r.fs, f, err, sizeof(err));
	fclose(f);
	if (ret) {
		fprintf(stderr, "%s: %s:%s\n", be->prog, cases, err);
		return 2;
	}
	ret = run_all(&r);
	lab_plan_free(&r.plan);
	return ret ? 1 : 0;
}
