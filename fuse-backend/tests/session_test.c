// SPDX-License-Identifier: GPL-2.0
/*
 * The whole daemon without a kernel.  A SOCK_SEQPACKET socket pair stands
 * in for /dev/fuse (fuse_session_custom_io(), as the daemon itself uses on
 * the mounted fd): this test plays the kernel, writing raw requests and
 * reading raw replies, while libfuse, our loop, the handlers and the
 * FUSE_STATX interception run as in the daemon.  Checked: the INIT
 * handshake and capabilities, passthrough replies (including changes made
 * to the backing directory behind the daemon's back), FUSE_STATX replies
 * of exactly 304 bytes, -EINVAL for a malformed one, ENOSYS for an opcode
 * without handler, exact counts and the trace; then the same under four
 * worker threads, the emulated delay, and the two policies kernel tests
 * ask for: -o statx_drop (STATX replies without some fields) and
 * -o deny_uid (EACCES to one caller's LOOKUPs).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "loop.h"
#include "statx.h"
#include "tap.h"

#define STATX_REPLY	(sizeof(struct fuse_out_header) + \
			 sizeof(struct fuse_statx_out))
#define MT_REQS		400

struct fk {			/* the fake kernel */
	int fd;			/* our end of the "device" */
	uint64_t unique;
	uid_t uid;		/* the caller of the requests we send */
	struct fuse_session *se;
	struct fc_data d;
	pthread_t loop;
	unsigned int threads;
	int loop_err;
};

static char dir[] = "/tmp/fc-session-XXXXXX";
static union {
	struct fuse_out_header h;
	unsigned char b[1 << 17];
} rep;

static void *fk_loop(void *arg)
{
	struct fk *k = arg;

	k->loop_err = fc_loop_run(k->se, &k->d, k->threads);
	return NULL;
}

/* The daemon's settings that tests vary, as its -o options set them */
struct fk_opts {
	unsigned int threads;
	enum fc_rdp rdp;
	unsigned int delay_us;
	uint32_t statx_drop;
	uid_t deny_uid;		/* 0 here means FC_NO_UID */
};

static int fk_start(struct fk *k, const struct fk_opts *o)
{
	char *argv[] = { "session_test", NULL };
	struct fuse_args args = FUSE_ARGS_INIT(1, argv);
	struct timeval tv = { .tv_sec = 10 };
	int sv[2];

	memset(k, 0, sizeof(*k));
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) ||
	    fc_data_init(&k->d, open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC)))
		return -1;
	/* Set before the loop's thread starts, as main() does */
	k->d.readdirplus = o->rdp;
	k->d.delay_us = o->delay_us;
	k->d.statx_drop = o->statx_drop;
	if (o->deny_uid)
		k->d.deny_uid = o->deny_uid;
	k->se = fuse_session_new(&args, &fc_oper, sizeof(fc_oper), &k->d);
	fuse_opt_free_args(&args);
	if (!k->se || fuse_session_custom_io(k->se, &fc_io, sv[1]))
		return -1;
	k->fd = sv[0];
	k->uid = getuid();
	setsockopt(k->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	k->threads = o->threads;
	return pthread_create(&k->loop, NULL, fk_loop, k) ? -1 : 0;
}

/* The "device" closing is the unmount: the loop must return cleanly */
static int fk_join(struct fk *k)
{
	if (k->fd >= 0) {
		close(k->fd);
		k->fd = -1;
		pthread_join(k->loop, NULL);
	}
	return k->loop_err;
}

static int fk_stop(struct fk *k)
{
	int err = fk_join(k);

	fuse_session_destroy(k->se);
	fc_data_destroy(&k->d);
	return err;
}

static uint64_t fk_send(struct fk *k, uint32_t opcode, uint64_t nodeid,
			const void *a, size_t alen, const void *b, size_t blen)
{
	unsigned char msg[1024];
	struct fuse_in_header in = {
		.len = sizeof(in) + alen + blen,
		.opcode = opcode,
		.unique = ++k->unique,
		.nodeid = nodeid,
		.uid = k->uid,
		.gid = getgid(),
		.pid = getpid(),
	};

	memcpy(msg, &in, sizeof(in));
	if (alen)
		memcpy(msg + sizeof(in), a, alen);
	if (blen)
		memcpy(msg + sizeof(in) + alen, b, blen);
	if (send(k->fd, msg, in.len, 0) != (ssize_t)in.len)
		diag("send opcode %u: %s", opcode, strerror(errno));
	return in.unique;
}

/* One request, one reply into rep; return its length, or -1 */
static ssize_t fk_call(struct fk *k, uint32_t opcode, uint64_t nodeid,
		       const void *a, size_t alen, const void *b, size_t blen)
{
	uint64_t unique = fk_send(k, opcode, nodeid, a, alen, b, blen);
	ssize_t n = recv(k->fd, &rep, sizeof(rep), 0);

	if (n < (ssize_t)sizeof(rep.h) || rep.h.len != n ||
	    rep.h.unique != unique) {
		diag("opcode %u: bad reply (%zd bytes)", opcode, n);
		return -1;
	}
	return n;
}

static void *body(void)
{
	return rep.b + sizeof(rep.h);
}

static ssize_t fk_name(struct fk *k, uint32_t opcode, uint64_t nodeid,
		       const void *a, size_t alen, const char *name)
{
	return fk_call(k, opcode, nodeid, a, alen, name, strlen(name) + 1);
}

static bool fk_init(struct fk *k, uint64_t *flags)
{
	struct fuse_init_in in = {
		.major = FUSE_KERNEL_VERSION,
		.minor = FUSE_KERNEL_MINOR_VERSION,
		.max_readahead = 65536,
		.flags = FUSE_ASYNC_READ | FUSE_DO_READDIRPLUS |
			 FUSE_READDIRPLUS_AUTO | FUSE_SPLICE_READ |
			 FUSE_SPLICE_WRITE | FUSE_SPLICE_MOVE |
			 FUSE_BIG_WRITES | FUSE_INIT_EXT,
	};
	struct fuse_init_out *out = body();

	if (fk_call(k, FUSE_INIT, 0, &in, sizeof(in), NULL, 0) < 0 ||
	    rep.h.error || out->major != FUSE_KERNEL_VERSION)
		return false;
	*flags = out->flags;
	return true;
}

static uint64_t fk_lookup(struct fk *k, uint64_t parent, const char *name)
{
	struct fuse_entry_out *e = body();

	if (fk_name(k, FUSE_LOOKUP, parent, NULL, 0, name) < 0 || rep.h.error)
		return 0;
	return e->nodeid;
}

static int64_t fk_getattr_size(struct fk *k, uint64_t nodeid)
{
	struct fuse_getattr_in in = { 0 };
	struct fuse_attr_out *a = body();

	if (fk_call(k, FUSE_GETATTR, nodeid, &in, sizeof(in), NULL, 0) < 0 ||
	    rep.h.error)
		return -1;
	return a->attr.size;
}

static ssize_t fk_statx(struct fk *k, uint64_t nodeid, uint32_t gflags,
			uint64_t fh, uint32_t sx_flags)
{
	struct fuse_statx_in in = {
		.getattr_flags = gflags, .fh = fh, .sx_flags = sx_flags,
		.sx_mask = STATX_BASIC_STATS | STATX_BTIME,
	};

	return fk_call(k, FUSE_STATX, nodeid, &in, sizeof(in), NULL, 0);
}

static uint64_t fk_open(struct fk *k, uint32_t opcode, uint64_t nodeid)
{
	struct fuse_open_in in = { .flags = O_RDONLY };
	struct fuse_open_out *o = body();

	if (fk_call(k, opcode, nodeid, &in, sizeof(in), NULL, 0) < 0 ||
	    rep.h.error)
		return ~0ULL;
	return o->fh;
}

static void fk_release(struct fk *k, uint32_t opcode, uint64_t nodeid,
		       uint64_t fh)
{
	struct fuse_release_in in = { .fh = fh };

	fk_call(k, opcode, nodeid, &in, sizeof(in), NULL, 0);
}

static void write_backing(const char *name, const char *data, int flags)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, flags | O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd == -1 || write(fd, data, strlen(data)) < 0)
		diag("cannot write %s", path);
	close(fd);
}

static bool backing_size(const char *name, off_t size)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !lstat(path, &st) && st.st_size == size;
}

static bool backing_is_dir(const char *name)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !lstat(path, &st) && S_ISDIR(st.st_mode);
}

static void test_basic(struct fk *k, uint64_t *file)
{
	struct stat st;
	int64_t size;

	write_backing("file", "hello", O_TRUNC);
	*file = fk_lookup(k, FUSE_ROOT_ID, "file");
	ok(*file && ((struct fuse_entry_out *)body())->attr.size == 5 &&
	   ((struct fuse_entry_out *)body())->entry_valid == 1,
	   "LOOKUP: a node with the backing file's size");
	ok(fk_lookup(k, FUSE_ROOT_ID, "missing") == 0 &&
	   rep.h.error == -ENOENT, "LOOKUP of a missing name: -ENOENT");

	size = fk_getattr_size(k, *file);
	write_backing("file", " world", O_APPEND);
	ok(size == 5 && fk_getattr_size(k, *file) == 11,
	   "GETATTR sees a change made behind the daemon's back");

	fk_statx(k, FUSE_ROOT_ID, 0, 0, AT_STATX_FORCE_SYNC);
	stat(dir, &st);
	ok(rep.h.len == STATX_REPLY && rep.h.error == 0 &&
	   S_ISDIR(((struct fuse_statx_out *)body())->stat.mode) &&
	   ((struct fuse_statx_out *)body())->stat.ino == st.st_ino,
	   "STATX on the root: one %zu-byte reply", STATX_REPLY);
}

static void test_statx_fh(struct fk *k, uint64_t file)
{
	struct fuse_read_in rd = { .size = 100 };
	struct fuse_statx_out *sx = body();
	uint64_t fh;
	ssize_t n;

	fh = fk_open(k, FUSE_OPEN, file);
	n = fk_statx(k, file, FUSE_GETATTR_FH, fh, 0);
	ok(fh != ~0ULL && n == (ssize_t)STATX_REPLY && !rep.h.error &&
	   S_ISREG(sx->stat.mode) && sx->stat.size == 11 &&
	   (sx->stat.mask & STATX_BASIC_STATS) == STATX_BASIC_STATS,
	   "STATX through an open file handle");

	rd.fh = fh;
	n = fk_call(k, FUSE_READ, file, &rd, sizeof(rd), NULL, 0);
	ok(n == (ssize_t)sizeof(rep.h) + 11 &&
	   !memcmp(body(), "hello world", 11),
	   "READ returns the backing data");
	fk_release(k, FUSE_RELEASE, file, fh);
}

static void test_errors(struct fk *k)
{
	struct fuse_statx_in in = { 0 };
	uint64_t unique;
	ssize_t n;

	/* One byte short, and its header says so: still not a STATX */
	n = fk_call(k, FUSE_STATX, FUSE_ROOT_ID, &in, sizeof(in) - 1, NULL, 0);
	ok(n == sizeof(rep.h) && rep.h.error == -EINVAL,
	   "malformed STATX: a bare header with -EINVAL");

	unique = fk_send(k, 63, FUSE_ROOT_ID, NULL, 0, NULL, 0);
	n = recv(k->fd, &rep, sizeof(rep), 0);
	ok(n == sizeof(rep.h) && rep.h.unique == unique &&
	   rep.h.error == -ENOSYS, "an opcode without handler: -ENOSYS");
}

static void test_dir(struct fk *k, uint64_t *sub)
{
	struct fuse_mkdir_in mk = { .mode = 0755 };
	struct fuse_read_in rd = { .size = 4096 };
	struct fuse_entry_out *e = body();
	ssize_t n;

	n = fk_name(k, FUSE_MKDIR, FUSE_ROOT_ID, &mk, sizeof(mk), "sub");
	*sub = e->nodeid;
	ok(n > 0 && !rep.h.error && S_ISDIR(e->attr.mode) &&
	   backing_is_dir("sub"), "MKDIR creates the backing directory");

	rd.fh = fk_open(k, FUSE_OPENDIR, FUSE_ROOT_ID);
	n = fk_call(k, FUSE_READDIRPLUS, FUSE_ROOT_ID, &rd, sizeof(rd),
		    NULL, 0);
	ok(n > (ssize_t)sizeof(rep.h) && memmem(rep.b, n, "file", 4) &&
	   memmem(rep.b, n, "sub", 3), "READDIRPLUS lists the entries");
	fk_release(k, FUSE_RELEASEDIR, FUSE_ROOT_ID, rd.fh);
}

static void test_changes(struct fk *k)
{
	struct fuse_create_in cr = { .flags = O_RDWR, .mode = S_IFREG | 0644 };
	struct fuse_write_in wr = { .size = 3 };
	struct fuse_setattr_in sa = { .valid = FATTR_SIZE, .size = 2 };
	struct fuse_rename_in rn = { .newdir = FUSE_ROOT_ID };
	uint64_t node;
	ssize_t n;

	n = fk_name(k, FUSE_CREATE, FUSE_ROOT_ID, &cr, sizeof(cr), "new");
	node = ((struct fuse_entry_out *)body())->nodeid;
	wr.fh = ((struct fuse_open_out *)((char *)body() +
		  sizeof(struct fuse_entry_out)))->fh;
	ok(n > 0 && !rep.h.error && node, "CREATE");

	n = fk_call(k, FUSE_WRITE, node, &wr, sizeof(wr), "abc", 3);
	ok(n > 0 && !rep.h.error &&
	   ((struct fuse_write_out *)body())->size == 3 &&
	   backing_size("new", 3), "WRITE reaches the backing file");
	fk_release(k, FUSE_RELEASE, node, wr.fh);

	n = fk_call(k, FUSE_SETATTR, node, &sa, sizeof(sa), NULL, 0);
	ok(n > 0 && !rep.h.error &&
	   ((struct fuse_attr_out *)body())->attr.size == 2 &&
	   backing_size("new", 2), "SETATTR truncates");

	n = fk_call(k, FUSE_RENAME, FUSE_ROOT_ID, &rn, sizeof(rn), "new\0old",
		    8);
	ok(n > 0 && !rep.h.error && backing_size("old", 2),
	   "RENAME moves the backing file");
	n = fk_name(k, FUSE_UNLINK, FUSE_ROOT_ID, NULL, 0, "old");
	ok(n > 0 && !rep.h.error && !backing_size("old", 2), "UNLINK");
	fk_send(k, FUSE_FORGET, node, &(struct fuse_forget_in){ 1 },
		sizeof(struct fuse_forget_in), NULL, 0);
}

static void test_forget(struct fk *k, uint64_t file, uint64_t sub)
{
	struct {
		struct fuse_batch_forget_in in;
		struct fuse_forget_one one;
	} bf = { { .count = 1 }, { .nodeid = sub, .nlookup = 2 } };
	struct fuse_forget_in fo = { .nlookup = 2 };

	/* file: LOOKUP + READDIRPLUS; sub: MKDIR + READDIRPLUS */
	fk_send(k, FUSE_FORGET, file, &fo, sizeof(fo), NULL, 0);
	fk_send(k, FUSE_BATCH_FORGET, 0, &bf, sizeof(bf), NULL, 0);
	fk_getattr_size(k, FUSE_ROOT_ID);	/* wait for the forgets */
	ok(fc_itable_count(&k->d.itable) == 0,
	   "FORGET and BATCH_FORGET release every lookup");
}

static bool has_line(const char *dump, const char *a, const char *b)
{
	const char *p;

	for (p = dump; (p = strstr(p, a)); p++) {
		const char *nl = strchr(p, '\n');

		if (nl && (!b || (memmem(p, nl - p, b, strlen(b)))))
			return true;
	}
	return false;
}

static void test_counts(struct fk *k)
{
	struct fc_stats *s = &k->d.stats;
	struct fc_sb sb;

	ok(fc_stats_get(s, FUSE_INIT) == 1 &&
	   fc_stats_get(s, FUSE_LOOKUP) == 2 &&
	   fc_stats_get(s, FUSE_GETATTR) == 3 &&
	   fc_stats_get(s, FUSE_STATX) == 3 && fc_stats_get(s, 63) == 1 &&
	   fc_stats_get(s, FUSE_FORGET) == 2 &&
	   fc_stats_get(s, FUSE_BATCH_FORGET) == 1 &&
	   fc_stats_get(s, FUSE_READDIRPLUS) == 1 &&
	   atomic_load(&s->total) == 26,
	   "every request counted once, by opcode (total %llu)",
	   (unsigned long long)atomic_load(&s->total));
	ok(atomic_load(&s->sync[FC_SYNC_FORCE]) == 1 &&
	   atomic_load(&s->sync[FC_SYNC_AS_STAT]) == 1 &&
	   atomic_load(&s->nlookup) == 5, "statx sync modes and nlookup");

	fc_sb_init(&sb);
	fc_trace_dump(&k->d.trace, &sb);
	ok(sb.buf &&
	   has_line(sb.buf, "\"op\":\"LOOKUP\"",
		    "\"name\":\"file\",\"error\":0") &&
	   has_line(sb.buf, "\"name\":\"missing\"", "\"error\":-2") &&
	   has_line(sb.buf, "\"op\":\"STATX\"",
		    "\"sx_flags\":\"0x2000\",\"sx_mask\":\"0xfff\","
		    "\"error\":0") &&
	   has_line(sb.buf, "\"op\":\"STATX\"", "\"error\":-22") &&
	   has_line(sb.buf, "\"op\":\"OP_63\"", "\"error\":-38") &&
	   has_line(sb.buf, "\"op\":\"FORGET\"", "\"noreply\":true") &&
	   has_line(sb.buf, "\"op\":\"INIT\"", "\"error\":0"),
	   "the trace records names, statx arguments and reply errors");
	fc_sb_free(&sb);
}

static void test_single(void)
{
	const struct fk_opts o = { .threads = 1 };
	uint64_t flags = 0, file = 0, sub = 0;
	struct fk k;

	if (fk_start(&k, &o)) {
		diag("cannot start a session");
		return;
	}
	ok(fk_init(&k, &flags) && !(flags & (FUSE_SPLICE_READ |
	   FUSE_SPLICE_WRITE | FUSE_SPLICE_MOVE)) &&
	   (flags & FUSE_DO_READDIRPLUS) && (flags & FUSE_READDIRPLUS_AUTO),
	   "INIT: no splicing, readdirplus auto");
	test_basic(&k, &file);
	test_statx_fh(&k, file);
	test_errors(&k);
	test_dir(&k, &sub);
	test_changes(&k);
	test_forget(&k, file, sub);
	test_counts(&k);
	ok(fk_stop(&k) == 0, "the loop ends cleanly at \"unmount\"");
}

/* Many requests in flight, four workers: one reply each, exact counts */
static void test_threads(void)
{
	static bool seen[MT_REQS + 2];
	struct fuse_getattr_in ga = { 0 };
	struct fuse_statx_in sx = { .sx_mask = STATX_BASIC_STATS };
	const struct fk_opts o = { .threads = 4, .rdp = FC_RDP_OFF };
	uint64_t flags, u;
	int i, bad = 0;
	struct fk k;
	ssize_t n;

	if (fk_start(&k, &o) || !fk_init(&k, &flags)) {
		diag("cannot start a session");
		return;
	}
	ok(!(flags & FUSE_DO_READDIRPLUS), "INIT: readdirplus off");
	for (i = 0; i < MT_REQS; i++) {
		if (i % 2)
			fk_send(&k, FUSE_STATX, FUSE_ROOT_ID, &sx, sizeof(sx),
				NULL, 0);
		else
			fk_send(&k, FUSE_GETATTR, FUSE_ROOT_ID, &ga, sizeof(ga),
				NULL, 0);
	}
	for (i = 0; i < MT_REQS; i++) {
		n = recv(k.fd, &rep, sizeof(rep), 0);
		u = rep.h.unique;
		if (n <= 0 || u < 2 || u > MT_REQS + 1 || seen[u] ||
		    rep.h.error || (u % 2 == 1 && n != (ssize_t)STATX_REPLY))
			bad++;
		else
			seen[u] = true;
	}
	ok(!bad, "%d requests, each answered once (%d bad)", MT_REQS, bad);
	ok(fc_stats_get(&k.d.stats, FUSE_GETATTR) == MT_REQS / 2 &&
	   fc_stats_get(&k.d.stats, FUSE_STATX) == MT_REQS / 2 &&
	   atomic_load(&k.d.stats.total) == MT_REQS + 1,
	   "counts exact under threads");
	ok(fk_stop(&k) == 0, "all workers stop at \"unmount\"");
}

static bool all_delayed(struct fc_trace *t, uint64_t min_usec, int want)
{
	int i, n = 0;

	pthread_mutex_lock(&t->lock);
	for (i = 0; i < FC_TRACE_LEN; i++)
		n += t->ring[i].seq && t->ring[i].usec >= min_usec;
	pthread_mutex_unlock(&t->lock);
	return n == want;
}

static void test_delay(void)
{
	const struct fk_opts o = { .threads = 2, .delay_us = 20000 };
	struct fuse_getattr_in ga = { 0 };
	uint64_t flags;
	struct fk k;
	int i;

	if (fk_start(&k, &o) || !fk_init(&k, &flags)) {
		diag("cannot start a session");
		return;
	}
	for (i = 0; i < 4; i++)
		fk_call(&k, FUSE_GETATTR, FUSE_ROOT_ID, &ga, sizeof(ga),
			NULL, 0);
	/* A worker records its trace entry after the reply: join first */
	ok(fk_join(&k) == 0, "stops with a delay set");
	ok(all_delayed(&k.d.trace, 20000, 5),
	   "delay_us: every request takes at least the delay");
	fk_stop(&k);
}

/* A field of the last STATX reply */
static struct fuse_statx *sx_reply(void)
{
	return &((struct fuse_statx_out *)body())->stat;
}

/* -o statx_drop=0xa00: STATX replies without size and btime */
static void test_statx_drop(struct fk *k, uint64_t file)
{
	struct fuse_statx *sx = sx_reply();
	ssize_t n;

	n = fk_statx(k, file, 0, 0, 0);
	ok(n == (ssize_t)STATX_REPLY && !rep.h.error &&
	   !(sx->mask & (STATX_SIZE | STATX_BTIME)) &&
	   (sx->mask & (STATX_BASIC_STATS & ~STATX_SIZE)) ==
	   (STATX_BASIC_STATS & ~STATX_SIZE),
	   "statx_drop=0xa00: the mask lacks SIZE and BTIME, has the rest (0x%x)",
	   sx->mask);
	ok(sx->size == 0 && !sx->btime.tv_sec && !sx->btime.tv_nsec &&
	   sx->ino && S_ISREG(sx->mode) && sx->mtime.tv_sec,
	   "... size and btime are zero, the other fields real");
}

/* -o deny_uid: that caller's LOOKUPs get EACCES, counted and traced */
static void test_deny_uid(struct fk *k, uid_t deny)
{
	uint64_t before = fc_stats_get(&k->d.stats, FUSE_LOOKUP);
	uint64_t node;
	struct fc_sb sb;

	k->uid = deny;
	node = fk_lookup(k, FUSE_ROOT_ID, "file");
	ok(!node && rep.h.error == -EACCES,
	   "deny_uid=%u: a LOOKUP from uid %u gets -EACCES", (unsigned int)deny,
	   (unsigned int)deny);
	k->uid = deny + 1;
	node = fk_lookup(k, FUSE_ROOT_ID, "file");
	ok(node && !rep.h.error, "... one from uid %u succeeds",
	   (unsigned int)k->uid);
	fk_send(k, FUSE_FORGET, node, &(struct fuse_forget_in){ 1 },
		sizeof(struct fuse_forget_in), NULL, 0);
	fc_sb_init(&sb);
	fk_getattr_size(k, FUSE_ROOT_ID);	/* wait for the forget */
	fc_trace_dump(&k->d.trace, &sb);
	ok(fc_stats_get(&k->d.stats, FUSE_LOOKUP) == before + 2 && sb.buf &&
	   has_line(sb.buf, "\"op\":\"LOOKUP\"", "\"error\":-13"),
	   "... both counted; the trace shows the -EACCES");
	fc_sb_free(&sb);
}

static void test_policies(void)
{
	const struct fk_opts o = {
		.threads = 1,
		.statx_drop = STATX_SIZE | STATX_BTIME,
		.deny_uid = 4242,
	};
	uint64_t flags, file = 0;
	struct fk k;

	if (fk_start(&k, &o)) {
		diag("cannot start a session");
		return;
	}
	write_backing("file", "hello", O_TRUNC);
	if (fk_init(&k, &flags))
		file = fk_lookup(&k, FUSE_ROOT_ID, "file");
	if (!file)
		diag("cannot look up file");
	test_statx_drop(&k, file);
	test_deny_uid(&k, 4242);
	ok(fk_stop(&k) == 0, "the loop ends cleanly");
}

int main(void)
{
	char cmd[64];

	plan(33);
	signal(SIGPIPE, SIG_IGN);
	umask(0);
	if (!mkdtemp(dir))
		skip_all("no temporary directory");
	test_single();
	test_threads();
	test_delay();
	test_policies();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		diag("could not remove %s", dir);
	return done();
}
