// SPDX-License-Identifier: GPL-2.0
/*
 * labcase - the lab's runner (bench/run.c) with its NFS backend, in the
 * client guest: knfsd is the server, counted through labctl (nfs-lab's
 * control link), the client's side is /proc/self/mountstats.
 *
 *   labcase --kernel LABEL --cases FILE --fs nfs3|nfs4.1|nfs4.2
 *   labcase --ctl REQUEST                  one labctl request
 *
 * A case gets a tree on the server (labctl mktree nfsV-cN), a fresh
 * mount of it (nosharecache: caches of its own), its cache state, then
 * the measured call between two snapshots of both sides' counters:
 *   cold     just mounted
 *   warm     after a warm-up (stat() of the object, or the same command)
 *   expired  after a warm-up and a wait past the attribute timeouts
 *   changed  after a warm-up and a change on the server (labctl)
 * A delay is netem on the server's link, for the measured call only.
 *
 * A tree the case only reads (an ls or deep tree, not changed) is made
 * once per shape (nfsV-ls1000, nfsV-deep) and kept for every case and
 * world of that shape: the mount, not the tree, makes the cache cold.
 *
 * While it runs, one more mount of the export root stays up (the
 * anchor): the NFS client state (NFSv4.1 session, TCP connection) then
 * outlives each case's mount, so no case pays for setting it up again.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "case.h"
#include "lab.h"
#include "lab_nfs.h"
#include "mstats.h"
#include "rdtrace.h"
#include "run.h"

#define LC_ANCHOR "/mnt/anchor"
#define LC_WAIT_S 120 /* for labctl to answer after boot */

/* One side's counters at one moment. */
struct lc_snap {
	struct nfsd_counts srv;
	struct mstats cli;
};

/* The run's NFS version, and the case's tree and counters. */
static struct lc_state {
	const char *vers; /* 3, 4.1, 4.2 */
	bool v4;
	char tree[32]; /* on the server below the export: lc_select() */
	bool pooled; /* the tree is kept for other cases (lc_pool) */
	const struct lab_case *k;
	struct lc_snap before;
} lc;

static void lc_die(const struct lab_case *k, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

static void lc_die(const struct lab_case *k, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	if (k)
		fprintf(stderr, "labcase: case %u: ", k->id);
	else
		fprintf(stderr, "labcase: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void lc_sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * Wait until the kernel's jiffies have advanced by @ms: attribute caches
 * time out in jiffies. The guests' clock is the TSC, and a periodic tick
 * that the host delays is not made up for, so jiffies can fall behind
 * nanosleep()'s clock; times() counts in jiffies (as USER_HZ ticks).
 */
static void lc_wait_jiffies(unsigned int ms)
{
	long hz = sysconf(_SC_CLK_TCK);
	clock_t start = times(NULL);
	clock_t need = ((long long)ms * hz + 999) / 1000;

	while (times(NULL) - start < need)
		lc_sleep_ms(20);
}

/*
 * The object's path below the case's mount: file, dir and symlink sit in
 * its root; deep is the reference path d1/d2/file, deeper one level down;
 * ls lists ls/; the deep workload walks tree/, the scan scan/.
 */
static const char *lc_object_path(const struct lab_case *k)
{
	static const char *const paths[][2] = {
		{ "file", "file" }, { "dir", "dir" }, { "symlink", "link" },
		{ "deeper", "d1/d2/d3/file" },
	};
	unsigned int i;

	if (k->workload == LAB_LS)
		return "ls";
	if (k->workload == LAB_DEEP)
		return "tree";
	if (k->workload == LAB_SCAN)
		return "scan";
	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (!strcmp(k->object, paths[i][0]))
			return paths[i][1];
	return "d1/d2/file";
}

/* @opt's whole seconds (at most an hour) into @v if it is NAME=SECS. */
static bool lc_secs(const char *opt, const char *name, int *v)
{
	size_t len = strlen(name);
	char *end;
	long n;

	if (strncmp(opt, name, len) || opt[len] < '0' || opt[len] > '9')
		return false;
	n = strtol(opt + len, &end, 10);
	if (*end || n > 3600)
		return false;
	*v = (int)n;
	return true;
}

/*
 * The first attribute timeouts of files and directories in seconds
 * (acregmin, acdirmin; the kernel's defaults 3 and 30 s), options taken
 * in order as the kernel does; noac makes both 0.
 */
static void lc_timeouts(const struct lab_case *k, int *reg, int *dir)
{
	char buf[sizeof(k->opts)], *o, *save;

	*reg = 3;
	*dir = 30;
	snprintf(buf, sizeof(buf), "%s", k->opts);
	for (o = strtok_r(buf, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
		if (lc_secs(o, "actimeo=", reg))
			*dir = *reg;
		else if (!lc_secs(o, "acregmin=", reg) &&
			 !lc_secs(o, "acdirmin=", dir) && !strcmp(o, "noac"))
			*reg = *dir = 0;
	}
}

/* How long "expired" waits: past the larger of the two timeouts. */
static unsigned int lc_expire_ms(const struct lab_case *k)
{
	int reg, dir;

	if (k->expire_ms)
		return k->expire_ms;
	lc_timeouts(k, &reg, &dir);
	return (reg > dir ? reg : dir) * 1000 + 200;
}

/*
 * How long a warm-up's attributes stay valid: the shorter of the two
 * timeouts, as a call relies on both (a walk, then its file).
 */
static unsigned int lc_valid_ms(const struct lab_case *k)
{
	int reg, dir;

	lc_timeouts(k, &reg, &dir);
	return (reg < dir ? reg : dir) * 1000;
}

/* --- labctl client ------------------------------------------------ */

static int lc_connect(void)
{
	struct sockaddr_in sa = {
		.sin_family = AF_INET,
		.sin_port = htons(LAB_CTL_PORT),
	};
	struct timeval snd = { .tv_sec = 10 }, rcv = { .tv_sec = 120 };
	int fd, err;

	inet_pton(AF_INET, LAB_SERVER_ADDR, &sa.sin_addr);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/* SO_SNDTIMEO bounds connect() too. */
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &snd, sizeof(snd));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &rcv, sizeof(rcv));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

/*
 * One request; its reply is checked like any untrusted input: one line,
 * "ok[ PAYLOAD]" or "err REASON", nothing after the newline. On "ok" the
 * payload goes to @out and 0 is returned; on "err" the reason, and
 * -EREMOTEIO; -errno when the exchange itself failed.
 */
static int lc_ctl_call(const char *req, char *out, size_t size)
{
	char reply[LAB_REPLY_MAX + 1], line[LAB_LINE_MAX + 1];
	size_t len = 0;
	ssize_t n;
	int fd, err, linelen;
	char *nl;

	/* the request and its newline in one write: one segment */
	linelen = snprintf(line, sizeof(line), "%s\n", req);
	if (linelen < 0 || (size_t)linelen >= sizeof(line))
		return -E2BIG;
	fd = lc_connect();
	if (fd < 0)
		return fd;
	err = -EIO;
	if (write(fd, line, linelen) != linelen)
		goto out_close;
	while (len < LAB_REPLY_MAX &&
	       (n = read(fd, reply + len, LAB_REPLY_MAX - len)) > 0)
		len += n;
	reply[len] = '\0';
	err = -EPROTO;
	nl = memchr(reply, '\n', len);
	if (!nl || (size_t)(nl - reply) != len - 1)
		goto out_close;
	*nl = '\0';
	if (!strcmp(reply, "ok") || !strncmp(reply, "ok ", 3)) {
		snprintf(out, size, "%s", reply[2] ? reply + 3 : "");
		err = 0;
	} else if (!strncmp(reply, "err ", 4)) {
		snprintf(out, size, "%s", reply + 4);
		err = -EREMOTEIO;
	}
out_close:
	close(fd);
	return err;
}

/*
 * Why an exchange with labctl failed, in words: a connect that timed out
 * (EINPROGRESS: SO_SNDTIMEO ran out) or was refused means the server
 * guest stopped or died, not a fault of the case.
 */
static const char *lc_ctl_strerror(int err)
{
	switch (err) {
	case -EPROTO:
		return "malformed reply";
	case -EINPROGRESS:
	case -ETIMEDOUT:
		return "labctl did not answer within 10 s: the server guest is stopped or gone";
	case -ECONNREFUSED:
	case -EHOSTUNREACH:
		return "no labctl listens any more: the server guest is gone";
	}
	return strerror(-err);
}

/* lc_ctl_call() that must succeed for the case to go on. */
static void lc_ctl_must(const struct lab_case *k, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void lc_ctl_must(const struct lab_case *k, const char *fmt, ...)
{
	char req[LAB_LINE_MAX], out[LAB_REPLY_MAX];
	va_list ap;
	int err;

	va_start(ap, fmt);
	vsnprintf(req, sizeof(req), fmt, ap);
	va_end(ap);
	err = lc_ctl_call(req, out, sizeof(out));
	if (err == -EREMOTEIO)
		lc_die(k, "labctl '%s': %s", req, out);
	if (err)
		lc_die(k, "labctl '%s': %s", req, lc_ctl_strerror(err));
}

static void lc_ctl_counters(const struct lab_case *k, struct nfsd_counts *c)
{
	char out[LAB_REPLY_MAX];
	int err;

	err = lc_ctl_call("counters", out, sizeof(out));
	if (!err && nfsd_parse_json(out, c))
		err = -EPROTO;
	if (err)
		lc_die(k, "labctl counters: %s",
		       err == -EREMOTEIO ? out : lc_ctl_strerror(err));
}

static void lc_ctl_wait(void)
{
	char out[LAB_REPLY_MAX];
	long long end = lab_now_us() + LC_WAIT_S * 1000000LL;
	int err;

	while ((err = lc_ctl_call("ping", out, sizeof(out))) &&
	       lab_now_us() < end)
		lc_sleep_ms(500);
	if (err)
		lc_die(NULL,
		       "no labctl at %s:%d after %d s: %s (is the "
		       "server guest up?)",
		       LAB_SERVER_ADDR, LAB_CTL_PORT, LC_WAIT_S,
		       strerror(-err));
}

/* --- mounts ------------------------------------------------------- */

/*
 * Mount @export on @mnt with @opts; the kernel does what mount.nfs would.
 * On the optin kernel (lab.optin=N) every mount has statx_cached_access=N.
 */
static int lc_mount(const char *export, const char *mnt, const char *opts)
{
	char src[128], vo[320], data[480];

	snprintf(src, sizeof(src), "%s:%s", LAB_SERVER_ADDR, export);
	snprintf(vo, sizeof(vo), "vers=%s%s%s", lc.vers, *opts ? "," : "", opts);
	lab_nfs_opts(data, sizeof(data), vo, !lc.v4, LAB_SERVER_ADDR);
	if (mkdir(mnt, 0755) && errno != EEXIST)
		return -errno;
	return mount(src, mnt, "nfs", 0, data) ? -errno : 0;
}

static void lc_umount(const char *mnt)
{
	if (umount2(mnt, 0))
		umount2(mnt, MNT_DETACH);
	rmdir(mnt);
}

/*
 * A change on the server behind the client's back: the object's mode
 * (a symlink's times: it has no mode of its own), a new entry in the ls
 * directory, or new data in the object (d1/d2/file) for a command.
 */
static void lc_change(const struct lab_run *r, const struct lab_case *k)
{
	(void)r;
	if (k->workload == LAB_LS)
		lc_ctl_must(k, "write %s/ls/new", lc.tree);
	else if (k->workload == LAB_CMD)
		lc_ctl_must(k, "write %s/%s", lc.tree, lc_object_path(k));
	else if (!strcmp(k->object, "symlink"))
		lc_ctl_must(k, "touch %s/%s", lc.tree, lc_object_path(k));
	else
		lc_ctl_must(k, "chmod %s %s/%s",
			    strcmp(k->object, "dir") ? "0600" : "0700", lc.tree,
			    lc_object_path(k));
}

/* --- the backend --------------------------------------------------- */

static int lc_start(struct lab_run *r)
{
	int rc;

	lc.vers = r->fs->name + 3;
	lc.v4 = lc.vers[0] == '4';
	lc_ctl_wait();
	rc = lc_mount(LAB_EXPORT, LC_ANCHOR, "");
	if (rc)
		lc_die(NULL, "mount %s:%s on %s (vers=%s): %s", LAB_SERVER_ADDR,
		       LAB_EXPORT, LC_ANCHOR, lc.vers, strerror(-rc));
	rc = rdtrace_start();
	if (rc)
		fprintf(stderr, "labcase: no readdir trace (tracefs: %s; the kernel needs CONFIG_FTRACE and CONFIG_ENABLE_DEFAULT_TRACERS): cases carry no \"readdir\"\n",
			strerror(-rc));
	return 0;
}

/*
 * Shared trees (lc.pooled): one per shape, made on first use, kept until
 * the run stops or the space is wanted. Making and removing 1000 entries
 * on the server costs more guest time than the listings measured on
 * them, and a case that only reads a tree finds it as it was made; a
 * mount of its own (nosharecache) is what gives each world cold caches.
 * LC_POOL_ENTRIES keeps the trees within the export (16384 inodes,
 * 64 MB: an entry takes at most a 4 KiB block): a tree no world has
 * mounted is removed when a new one would not fit.
 */
#define LC_POOL_MAX	8
#define LC_POOL_ENTRIES	12000

static struct lc_pool {
	char tree[32];
	unsigned int entries, mounts;
} lc_pool[LC_POOL_MAX];

/* Does @k only read its tree, so that other cases may share it? */
static bool lc_shares_tree(const struct lab_case *k)
{
	return (k->workload == LAB_LS || k->workload == LAB_DEEP) &&
	       k->cache != LAB_CHANGED;
}

static unsigned int lc_tree_entries(const struct lab_case *k)
{
	return k->workload == LAB_LS ? k->n : LAB_DEEP_N;
}

static struct lc_pool *lc_pool_find(const char *tree)
{
	unsigned int i;

	for (i = 0; i < LC_POOL_MAX; i++)
		if (lc_pool[i].entries && !strcmp(lc_pool[i].tree, tree))
			return &lc_pool[i];
	return NULL;
}

static void lc_pool_drop(struct lc_pool *p)
{
	lc_ctl_must(lc.k, "rmtree %s", p->tree);
	memset(p, 0, sizeof(*p));
}

/*
 * A free slot for @entries more: unmounted trees are removed, in slot
 * order, only while there is no slot or the trees would not fit.
 */
static struct lc_pool *lc_pool_room(unsigned int entries)
{
	struct lc_pool *free_slot = NULL, *p;
	unsigned int i, held = 0;

	for (i = 0; i < LC_POOL_MAX; i++) {
		held += lc_pool[i].entries;
		if (!lc_pool[i].entries && !free_slot)
			free_slot = &lc_pool[i];
	}
	for (i = 0; i < LC_POOL_MAX &&
	     (!free_slot || held + entries > LC_POOL_ENTRIES); i++) {
		p = &lc_pool[i];
		if (!p->entries || p->mounts)
			continue;
		held -= p->entries;
		lc_pool_drop(p);
		if (!free_slot)
			free_slot = p;
	}
	return free_slot;
}

/* The run's shared trees, all of them (another NFS version may follow) */
static void lc_pool_clear(void)
{
	unsigned int i;

	for (i = 0; i < LC_POOL_MAX; i++)
		if (lc_pool[i].entries)
			lc_pool_drop(&lc_pool[i]);
}

static void lc_stop(struct lab_run *r)
{
	(void)r;
	lc_pool_clear();
	lc_umount(LC_ANCHOR);
}

/*
 * The names of the case's world: its tree on the server, nfsV-cN (one
 * boot may run several NFS versions), or the shape's shared one,
 * nfsV-lsN or nfsV-deep; its mount /mnt/nfsV-cN, -wW for a world of an
 * expiry batch; and the paths below it.
 */
static void lc_select(struct lab_run *r, const struct lab_case *k)
{
	char mnt[32];

	lc.k = k;
	lc.pooled = lc_shares_tree(k);
	if (r->world)
		snprintf(mnt, sizeof(mnt), "%s-c%u-w%d", r->fs->name, k->id,
			 r->world);
	else
		snprintf(mnt, sizeof(mnt), "%s-c%u", r->fs->name, k->id);
	if (lc.pooled && k->workload == LAB_LS)
		snprintf(lc.tree, sizeof(lc.tree), "%s-ls%u", r->fs->name,
			 k->n);
	else if (lc.pooled)
		snprintf(lc.tree, sizeof(lc.tree), "%s-deep", r->fs->name);
	else
		snprintf(lc.tree, sizeof(lc.tree), "%s", mnt);
	snprintf(r->mnt, sizeof(r->mnt), "/mnt/%s", mnt);
	snprintf(r->path, sizeof(r->path), "%s/%s", r->mnt,
		 lc_object_path(k));
	snprintf(r->at_dir, sizeof(r->at_dir), "%s", r->mnt);
	snprintf(r->at_name, sizeof(r->at_name), "%s", lc_object_path(k));
	snprintf(r->dir, sizeof(r->dir), "%s/%s", r->mnt,
		 k->workload == LAB_DEEP || k->workload == LAB_SCAN ?
		 lc_object_path(k) : "ls");
}

/*
 * With statx_cached_access=N (the optin kernel's lab.optin=N), an expired
 * case's DONT_SYNC walk uses cached ACCESS answers for N s past the
 * attributes' expiry: a batch must measure its first world well within
 * that. Half of it; no limit otherwise.
 */
static unsigned int lc_batch_span_ms(void)
{
	return lab_optin_seconds() * 500;
}

/* The case's tree on the server: made, or the shared one found */
static struct lc_pool *lc_make_tree(const struct lab_case *k)
{
	struct lc_pool *p = NULL;

	if (lc.pooled) {
		p = lc_pool_find(lc.tree);
		if (p)
			return p;
		p = lc_pool_room(lc_tree_entries(k));
		if (!p)
			lc_die(k, "more than %d shared trees mounted at once",
			       LC_POOL_MAX);
	}
	lc_ctl_must(k, "mktree %s", lc.tree);
	if (k->workload == LAB_DEEP)
		lc_ctl_must(k, "mkdeep %s/tree", lc.tree);
	else if (k->workload == LAB_SCAN)
		lc_ctl_must(k, "mkscan %s/scan %u", lc.tree, k->n);
	else if (k->workload != LAB_SYSCALL)
		lc_ctl_must(k, "mkfiles %s/ls %u", lc.tree, k->n);
	if (p) {
		snprintf(p->tree, sizeof(p->tree), "%s", lc.tree);
		p->entries = lc_tree_entries(k);
	}
	return p;
}

/* The case's world: its tree on the server and its mount. */
static int lc_setup(struct lab_run *r, const struct lab_case *k)
{
	struct lc_pool *p;
	char src[64];
	int err;

	lc_select(r, k);
	p = lc_make_tree(k);
	snprintf(src, sizeof(src), "%s/%s", LAB_EXPORT, lc.tree);
	err = lc_mount(src, r->mnt, k->opts);
	if (err)
		lc_die(k,
		       "mount %s:%s on %s -o vers=%s,%s: %s (the client's "
		       "kernel log says why)",
		       LAB_SERVER_ADDR, src, r->mnt, lc.vers, k->opts,
		       strerror(-err));
	if (p)
		p->mounts++;
	return 0;
}

static void lc_teardown(struct lab_run *r, const struct lab_case *k)
{
	struct lc_pool *p = lc.pooled ? lc_pool_find(lc.tree) : NULL;

	lc_umount(r->mnt);
	if (p && p->mounts)
		p->mounts--;
	else if (!p)	/* keep the 64 MB export from filling up */
		lc_ctl_must(k, "rmtree %s", lc.tree);
}

/* A scan's changes on the server, then (expired) the wait */
static int lc_age(struct lab_run *r, const struct lab_case *k)
{
	if (k->workload == LAB_SCAN)
		lc_ctl_must(k, "scanchange %s/scan", lc.tree);
	if (k->cache == LAB_EXPIRED)
		lc_wait_jiffies(lc_expire_ms(k));
	else if (k->cache == LAB_CHANGED)
		lc_change(r, k);
	return 0;
}

static int lc_delay(struct lab_run *r, unsigned int ms)
{
	(void)r;
	lc_ctl_must(lc.k, "netem %u", ms);
	return 0;
}

static void lc_snapshot(const struct lab_run *r, struct lc_snap *s,
			bool srv_first)
{
	int err;

	if (srv_first)
		lc_ctl_counters(lc.k, &s->srv);
	err = mstats_read(r->mnt, &s->cli);
	if (err)
		lc_die(lc.k, "mountstats of %s: %s", r->mnt, strerror(-err));
	if (!srv_first)
		lc_ctl_counters(lc.k, &s->srv);
}

static int lc_count(struct lab_run *r)
{
	char out[LAB_REPLY_MAX];
	int err;

	rdtrace_clear();
	lc_snapshot(r, &lc.before, true);
	/* A diagnostic: without it the case has no wire_* fields. */
	err = lc_ctl_call("tap on", out, sizeof(out));
	if (err)
		fprintf(stderr, "labcase: case %u: labctl tap on: %s\n",
			lc.k->id, err == -EREMOTEIO ? out : strerror(-err));
	return 0;
}

/* What labctl's "tap off" says (wiretap.c). */
struct lc_tap {
	unsigned int requests, unmatched, dropped, lost, held;
	unsigned long long sum, median, hold_sum, hold_median;
	unsigned long long bytes_in, bytes_out;
};

static int lc_tap_off(struct lc_tap *t, char *out, size_t size)
{
	int err = lc_ctl_call("tap off", out, size);

	if (!err && sscanf(out, "%u %llu %llu %u %u %u %u %llu %llu %llu %llu",
			   &t->requests, &t->sum, &t->median, &t->unmatched,
			   &t->dropped, &t->lost, &t->held, &t->hold_sum,
			   &t->hold_median, &t->bytes_in, &t->bytes_out) != 11)
		err = -EPROTO;
	return err;
}

/*
 * The server's tap (labctl, wiretap.c): its requests, each timed from
 * the call's arrival on its interface to the reply's departure, after
 * netem; the bytes of the calls and the replies (TCP data); and the time
 * netem held each reply, from its mirror. Left out
 * when it lost a packet, a stream or a pairing: a partial sum would
 * read as a faster server.
 */
static void lc_wire(const struct lab_case *k, FILE *f)
{
	char out[LAB_REPLY_MAX];
	struct lc_tap t;
	int err;

	err = lc_tap_off(&t, out, sizeof(out));
	if (err) {
		fprintf(stderr, "labcase: case %u: labctl tap off: %s\n", k->id,
			err == -EREMOTEIO ? out :
			err == -EPROTO	  ? "malformed reply" :
					    strerror(-err));
		return;
	}
	if (t.unmatched || t.dropped || t.lost) {
		fprintf(f, ",\"wire_unmatched\":%u,\"wire_dropped\":%u,"
			   "\"wire_lost\":%u", t.unmatched, t.dropped, t.lost);
		return;
	}
	fprintf(f, ",\"wire_requests\":%u,\"wire_us\":%llu,"
		   "\"wire_median_us\":%llu,\"wire_held\":%u,"
		   "\"wire_bytes_in\":%llu,\"wire_bytes_out\":%llu",
		t.requests, t.sum, t.median, t.held, t.bytes_in, t.bytes_out);
	/* The hold of every request or none, as for the times above. */
	if (t.held == t.requests && t.held)
		fprintf(f, ",\"wire_hold_us\":%llu,\"wire_hold_median_us\":%llu",
			t.hold_sum, t.hold_median);
	else if (t.held != t.requests)
		fprintf(stderr, "labcase: case %u: netem's hold timed for %u of %u requests, left out (no mirror? the server's labctl.log says)\n",
			k->id, t.held, t.requests);
}

/* What the server counted, by op, into @f; the round trips it saw. */
static uint64_t lc_server(FILE *f, const struct nfsd_counts *a,
			  const struct nfsd_counts *b)
{
	unsigned int i, nops = lc.v4 ? NFSD_V4_OPS : NFSD_V3_PROCS;
	const char *sep = "";
	uint64_t d, calls = 0;

	fputs(",\"server\":{", f);
	if (lc.v4) {
		calls = b->compound - a->compound + b->v4null - a->v4null;
		fprintf(f, "\"COMPOUND\":%llu",
			(unsigned long long)(b->compound - a->compound));
		if (b->v4null != a->v4null)
			fprintf(f, ",\"NULL\":%llu",
				(unsigned long long)(b->v4null - a->v4null));
		sep = ",";
	}
	for (i = 0; i < nops; i++) {
		d = lc.v4 ? b->op[i] - a->op[i] : b->v3[i] - a->v3[i];
		if (!d)
			continue;
		if (!lc.v4)
			calls += d;
		fprintf(f, "%s\"%s\":%llu", sep,
			lc.v4 ? nfsd_v4_names[i] : nfsd_v3_names[i],
			(unsigned long long)d);
		sep = ",";
	}
	fputc('}', f);
	return calls;
}

/*
 * What the client counted: per-op RPCs (calls), retransmissions, the
 * round trips' summed time (ms), events.
 */
static void lc_client(FILE *f, const struct mstats *a, const struct mstats *b,
		      uint64_t *calls, uint64_t *retrans, uint64_t *rtt_ms)
{
	const char *sep = "";
	unsigned int i;
	uint64_t d;

	*calls = *retrans = *rtt_ms = 0;
	fputs(",\"client\":{", f);
	for (i = 0; i < a->nops && i < b->nops; i++) {
		d = b->op[i].ops - a->op[i].ops;
		*calls += d;
		*retrans += b->op[i].trans - a->op[i].trans - d;
		*rtt_ms += b->op[i].rtt_ms - a->op[i].rtt_ms;
		if (!d || strcmp(a->op[i].name, b->op[i].name))
			continue;
		fprintf(f, "%s\"%s\":%llu", sep, b->op[i].name,
			(unsigned long long)d);
		sep = ",";
	}
	fputs("},\"events\":{", f);
	for (i = 0, sep = ""; i < MSTATS_EVENTS; i++) {
		d = b->events[i] - a->events[i];
		if (!d)
			continue;
		fprintf(f, "%s\"%s\":%llu", sep, mstats_event_names[i],
			(unsigned long long)d);
		sep = ",";
	}
	fputc('}', f);
}

/* What the client decided while it listed (rdtrace.c), if it could say. */
static void lc_readdir(const struct lab_case *k, FILE *f)
{
	struct rdtrace_counts rd;
	int got = rdtrace_read(&rd);

	if (got < 0)
		fprintf(stderr, "labcase: case %u: readdir trace: %s\n", k->id,
			strerror(-got));
	else if (got && rd.lost)
		fprintf(stderr, "labcase: case %u: the readdir trace overran its buffer, left out\n",
			k->id);
	else if (got)
		rdtrace_json(f, &rd);
}

/*
 * Both sides' deltas: server, client (mountstats ops), events, and the
 * time the client kernel measured from sending each call to its reply
 * (rpc_rtt_us, summed: per call, what a delay adds to a round trip,
 * without the client's own time between calls), and the server's own
 * per request on its interface (lc_wire).
 */
static long lc_counted(struct lab_run *r, const struct lab_case *k, FILE *f)
{
	uint64_t calls, ccalls, retrans, rtt_ms;
	struct lc_snap after;

	lc_wire(k, f);
	lc_snapshot(r, &after, false);
	calls = lc_server(f, &lc.before.srv, &after.srv);
	lc_client(f, &lc.before.cli, &after.cli, &ccalls, &retrans, &rtt_ms);
	fprintf(f, ",\"client_calls\":%llu,\"retrans\":%llu",
		(unsigned long long)ccalls, (unsigned long long)retrans);
	fprintf(f, ",\"rpc_rtt_us\":%llu", (unsigned long long)rtt_ms * 1000);
	lc_readdir(k, f);
	return (long)calls;
}

static void lc_keys(struct lab_run *r, const struct lab_case *k, FILE *f)
{
	(void)r;
	fprintf(f, ",\"path\":\"%s\"", lc_object_path(k));
	if (k->cache == LAB_EXPIRED)
		fprintf(f, ",\"expire_ms\":%u", lc_expire_ms(k));
}

/* --ctl REQUEST: a tool, not a run. */
static int lc_opt(struct lab_run *r, int opt, const char *arg)
{
	char out[LAB_REPLY_MAX];
	int err;

	(void)r;
	if (opt != 'C')
		return -1;
	err = lc_ctl_call(arg, out, sizeof(out));
	if (err && err != -EREMOTEIO)
		snprintf(out, sizeof(out), "%s", strerror(-err));
	printf("%s%s\n", err ? "error: " : "", out);
	exit(err ? 1 : 0);
}

static const struct option lc_opts[] = {
	{ "ctl", required_argument, NULL, 'C' },
	{ NULL, 0, NULL, 0 },
};

static const struct lab_backend lc_backend = {
	.prog = "labcase",
	.counts_vary = true,
	.in_guest = true,
	.start = lc_start,
	.stop = lc_stop,
	.setup = lc_setup,
	.teardown = lc_teardown,
	.age = lc_age,
	.valid_ms = lc_valid_ms,
	.expire_ms = lc_expire_ms,
	.select = lc_select,
	.batch_span_ms = lc_batch_span_ms,
	.delay = lc_delay,
	.count = lc_count,
	.counted = lc_counted,
	.keys = lc_keys,
	.opts = lc_opts,
	.opt = lc_opt,
};

int main(int argc, char *argv[])
{
	return lab_run_main(argc, argv, &lc_backend);
}
