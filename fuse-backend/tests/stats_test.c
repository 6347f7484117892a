// SPDX-License-Identifier: GPL-2.0
/*
 * Counters: the opcode table matches the protocol, counts stay exact when
 * many threads count at once, and reset zeroes everything.
 */
#include <fcntl.h>
#include <pthread.h>
#include <string.h>

#include "stats.h"
#include "tap.h"

#define NTHREADS	8
#define PER_THREAD	100000

static struct fc_stats stats;

/* The numbers the lab's scripts rely on (and linux/fuse.h defines) */
static const struct {
	uint32_t op;
	const char *name;
} expected[] = {
	{ 1, "LOOKUP" }, { 2, "FORGET" }, { 3, "GETATTR" }, { 4, "SETATTR" },
	{ 5, "READLINK" }, { 6, "SYMLINK" }, { 8, "MKNOD" }, { 9, "MKDIR" },
	{ 10, "UNLINK" }, { 11, "RMDIR" }, { 12, "RENAME" }, { 13, "LINK" },
	{ 14, "OPEN" }, { 15, "READ" }, { 16, "WRITE" }, { 17, "STATFS" },
	{ 18, "RELEASE" }, { 20, "FSYNC" }, { 21, "SETXATTR" },
	{ 22, "GETXATTR" }, { 23, "LISTXATTR" }, { 24, "REMOVEXATTR" },
	{ 25, "FLUSH" }, { 26, "INIT" }, { 27, "OPENDIR" }, { 28, "READDIR" },
	{ 29, "RELEASEDIR" }, { 30, "FSYNCDIR" }, { 31, "GETLK" },
	{ 32, "SETLK" }, { 33, "SETLKW" }, { 34, "ACCESS" }, { 35, "CREATE" },
	{ 36, "INTERRUPT" }, { 37, "BMAP" }, { 38, "DESTROY" }, { 39, "IOCTL" },
	{ 40, "POLL" }, { 41, "NOTIFY_REPLY" }, { 42, "BATCH_FORGET" },
	{ 43, "FALLOCATE" }, { 44, "READDIRPLUS" }, { 45, "RENAME2" },
	{ 46, "LSEEK" }, { 47, "COPY_FILE_RANGE" }, { 48, "SETUPMAPPING" },
	{ 49, "REMOVEMAPPING" }, { 50, "SYNCFS" }, { 51, "TMPFILE" },
	{ 52, "STATX" },
};

#define NEXPECTED	(sizeof(expected) / sizeof(expected[0]))

static void *counter(void *arg)
{
	unsigned int id = (uintptr_t)arg, i;
	struct fc_req req;

	for (i = 0; i < PER_THREAD; i++) {
		memset(&req, 0, sizeof(req));
		switch (i % 5) {
		case 0:
			req.opcode = FUSE_LOOKUP;
			break;
		case 1:
			req.opcode = FUSE_GETATTR;
			break;
		case 2:
			req.opcode = FUSE_STATX;
			req.has = FC_HAS_STATX;
			req.sx_flags = (i % 3 == 0) ? AT_STATX_FORCE_SYNC : 0;
			req.sx_mask = (id & 1) ? 0x7ff : 0xfff;
			break;
		case 3:
			req.opcode = FUSE_FORGET;
			req.has = FC_HAS_FORGET;
			req.nlookup = 2;
			break;
		case 4:
			req.opcode = 100 + id;	/* beyond the table */
			break;
		}
		fc_stats_count(&stats, &req);
	}
	return NULL;
}

static bool names_match(void)
{
	size_t i;

	for (i = 0; i < NEXPECTED; i++) {
		const char *n = fc_opcode_name(expected[i].op);

		if (!n || strcmp(n, expected[i].name)) {
			diag("opcode %u: %s, want %s", expected[i].op,
			     n ? n : "(none)", expected[i].name);
			return false;
		}
	}
	return true;
}

static bool json_is(const char *want)
{
	struct fc_sb sb;
	bool same;

	fc_sb_init(&sb);
	fc_stats_json(&stats, &sb);
	same = sb.buf && !strcmp(sb.buf, want);
	if (!same)
		diag("json: %s", sb.buf ? sb.buf : "(null)");
	fc_sb_free(&sb);
	return same;
}

static void test_threads(void)
{
	pthread_t t[NTHREADS];
	uint64_t total = (uint64_t)NTHREADS * PER_THREAD, per = total / 5;
	uint64_t force = 0, i;

	for (i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, counter, (void *)(uintptr_t)i);
	for (i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	for (i = 2; i < PER_THREAD; i += 5)
		force += i % 3 == 0;
	force *= NTHREADS;

	ok(atomic_load(&stats.total) == total, "total is exact: %llu",
	   (unsigned long long)atomic_load(&stats.total));
	ok(fc_stats_get(&stats, FUSE_LOOKUP) == per &&
	   fc_stats_get(&stats, FUSE_GETATTR) == per &&
	   fc_stats_get(&stats, FUSE_STATX) == per &&
	   fc_stats_get(&stats, FUSE_FORGET) == per,
	   "per-opcode counts are exact");
	ok(fc_stats_get(&stats, 100) == per &&
	   fc_stats_get(&stats, 4096) == per,
	   "opcodes past the table share one slot");
	ok(atomic_load(&stats.sync[FC_SYNC_FORCE]) == force &&
	   atomic_load(&stats.sync[FC_SYNC_AS_STAT]) == per - force,
	   "statx sync modes are exact");
	ok(atomic_load(&stats.mask[0].count) +
	   atomic_load(&stats.mask[1].count) == per &&
	   atomic_load(&stats.mask[2].key) == 0,
	   "statx masks take two slots");
	ok(atomic_load(&stats.nlookup) == 2 * per, "forget nlookup summed");
}

int main(void)
{
	struct fc_req req = { .opcode = FUSE_STATX, .has = FC_HAS_STATX };
	char want[256];

	plan(14);
	fc_stats_reset(&stats);

	ok(names_match(), "opcode names match the protocol numbers");
	ok(fc_opcode_name(7) == NULL && fc_opcode_name(64) == NULL,
	   "unnamed opcodes have no name");
	ok(fc_sync_mode(0) == FC_SYNC_AS_STAT &&
	   fc_sync_mode(AT_STATX_FORCE_SYNC) == FC_SYNC_FORCE &&
	   fc_sync_mode(AT_STATX_DONT_SYNC | AT_SYMLINK_NOFOLLOW) ==
	   FC_SYNC_DONT &&
	   fc_sync_mode(AT_STATX_SYNC_TYPE) == FC_SYNC_INVALID,
	   "sync mode from sx_flags");

	test_threads();

	fc_stats_reset(&stats);
	ok(atomic_load(&stats.total) == 0 &&
	   fc_stats_get(&stats, FUSE_LOOKUP) == 0 &&
	   fc_stats_get(&stats, 100) == 0, "reset zeroes the counters");
	ok(json_is("{\"total\":0,\"statx_sync\":{\"as-stat\":0,"
		   "\"force\":0,\"dont\":0},\"statx_mask\":{},"
		   "\"forget\":{\"nlookup\":0}}\n"),
	   "JSON after reset");

	fc_stats_count(&stats, &req);
	ok(req.seq == 1, "first request after reset is number 1");
	req.opcode = 53;
	req.has = 0;
	fc_stats_count(&stats, &req);
	req.opcode = FUSE_LOOKUP;
	fc_stats_count(&stats, &req);
	ok(req.seq == 3, "request numbers count up");
	snprintf(want, sizeof(want),
		 "{\"LOOKUP\":1,\"STATX\":1,\"OP_53\":1,\"total\":3,"
		 "\"statx_sync\":{\"as-stat\":1,\"force\":0,\"dont\":0},"
		 "\"statx_mask\":{\"0x0\":1},\"forget\":{\"nlookup\":0}}\n");
	ok(json_is(want), "JSON lists non-zero opcodes in opcode order");

	return done();
}
