// SPDX-License-Identifier: GPL-2.0
/*
 * FUSE_STATX without a kernel: the decoder takes exactly one well-formed
 * request and nothing else, the reply has the one length the kernel
 * accepts and carries a real file's statx (btime included, when the host
 * file system has it), and the handler answers bad requests with -EINVAL.
 * -o statx_drop takes out exactly the bits and fields it names.  The
 * change cookie reaches a reply only when the backing file system gave it,
 * and never without -o change_cookie.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "statx.h"
#include "tap.h"

#define EXACT	(sizeof(struct fuse_in_header) + \
		 sizeof(struct fuse_statx_in))

static unsigned char buf[EXACT + 64];

static size_t mkstatx(uint32_t len, uint64_t nodeid, uint32_t gflags,
		      uint64_t fh, uint32_t sx_flags, uint32_t sx_mask)
{
	struct fuse_in_header in = {
		.len = len, .opcode = FUSE_STATX, .unique = 0x1234,
		.nodeid = nodeid,
	};
	struct fuse_statx_in arg = {
		.getattr_flags = gflags, .fh = fh,
		.sx_flags = sx_flags, .sx_mask = sx_mask,
	};

	memset(buf, 0, sizeof(buf));
	memcpy(buf, &in, sizeof(in));
	memcpy(buf + sizeof(in), &arg, sizeof(arg));
	return len;
}

static void test_decode(void)
{
	struct fc_statx_req rq;
	size_t len;

	len = mkstatx(EXACT, 5, FUSE_GETATTR_FH, 9, AT_STATX_FORCE_SYNC, 0xfff);
	ok(fusecount_statx_decode(buf, len, &rq) == 0 && rq.unique == 0x1234 &&
	   rq.nodeid == 5 && rq.getattr_flags == FUSE_GETATTR_FH &&
	   rq.fh == 9 && rq.sx_flags == AT_STATX_FORCE_SYNC &&
	   rq.sx_mask == 0xfff, "exact size: decoded");

	len = mkstatx(EXACT - 1, 5, 0, 0, 0, 0);
	ok(fusecount_statx_decode(buf, len, &rq) == -EINVAL &&
	   rq.unique == 0x1234, "short by one byte: -EINVAL, unique kept");

	len = mkstatx(sizeof(struct fuse_in_header), 5, 0, 0, 0, 0);
	ok(fusecount_statx_decode(buf, len, &rq) == -EINVAL,
	   "header only: -EINVAL");

	mkstatx(EXACT, 5, 0, 0, 0, 0);
	ok(fusecount_statx_decode(buf, EXACT - 1, &rq) == -EINVAL &&
	   fusecount_statx_decode(buf, EXACT + 8, &rq) == -EINVAL,
	   "len field not the buffer size: -EINVAL");

	len = mkstatx(EXACT + 8, 5, 0, 0, 0, 0);
	ok(fusecount_statx_decode(buf, len, &rq) == -EINVAL,
	   "oversized: -EINVAL");

	mkstatx(EXACT, 5, 0, 0, 0, 0);
	((struct fuse_in_header *)buf)->total_extlen = 1;
	ok(fusecount_statx_decode(buf, EXACT, &rq) == -EINVAL,
	   "extensions: -EINVAL");
	((struct fuse_in_header *)buf)->total_extlen = 0;
	((struct fuse_in_header *)buf)->opcode = FUSE_GETATTR;
	ok(fusecount_statx_decode(buf, EXACT, &rq) == -EINVAL,
	   "another opcode: -EINVAL");
	ok(fusecount_statx_decode(NULL, 0, &rq) == -EINVAL &&
	   fusecount_statx_decode(buf, 3, &rq) == -EINVAL &&
	   rq.unique == 0, "no header: -EINVAL");
}

/* Only a buffer that is exactly a STATX request may decode */
static void test_garbage(void)
{
	struct fuse_in_header in;
	struct fc_statx_req rq;
	int i, bad = 0, good = 0;
	size_t len, j;

	srand(42);
	for (i = 0; i < 200000; i++) {
		len = rand() % sizeof(buf);
		for (j = 0; j < len; j++)
			buf[j] = rand();
		if (i % 4 == 0 && len >= sizeof(in)) {
			/* make some of them nearly valid */
			memcpy(&in, buf, sizeof(in));
			in.len = i % 8 ? len : EXACT;
			in.opcode = FUSE_STATX;
			in.total_extlen = 0;
			memcpy(buf, &in, sizeof(in));
		}
		if (fusecount_statx_decode(buf, len, &rq))
			continue;
		memcpy(&in, buf, sizeof(in));
		if (len == EXACT && in.len == EXACT && in.opcode == FUSE_STATX)
			good++;
		else
			bad++;
	}
	ok(!bad && good > 0, "random garbage: -EINVAL unless exact (%d ok)",
	   good);
}

static void test_build(const char *dir)
{
	struct fc_statx_reply rep;
	struct fuse_statx *sx = &rep.out.stat;
	char path[128], data[1234] = { 0 };
	struct statx stx;
	int fd;

	snprintf(path, sizeof(path), "%s/file", dir);
	fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0640);
	if (fd == -1 || write(fd, data, sizeof(data)) != sizeof(data) ||
	    statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS | STATX_BTIME,
		  &stx)) {
		ok(0, "cannot create %s", path);
		return;
	}
	close(fd);

	fc_statx_build(&rep, 0xdeadbeef, &stx, 1.5);
	ok(sizeof(rep) == 304 && rep.hdr.len == sizeof(rep) &&
	   rep.hdr.error == 0 && rep.hdr.unique == 0xdeadbeef,
	   "reply: exactly out_header + fuse_statx_out (304 bytes)");
	ok(rep.out.attr_valid == 1 && rep.out.attr_valid_nsec == 500000000,
	   "attr_valid from the timeout");
	ok(S_ISREG(sx->mode) && (sx->mode & 07777) == 0640 &&
	   sx->size == sizeof(data) && sx->ino == stx.stx_ino &&
	   sx->nlink == 1 && sx->uid == getuid() && sx->blocks ==
	   stx.stx_blocks && sx->mtime.tv_sec == stx.stx_mtime.tv_sec &&
	   sx->mtime.tv_nsec == stx.stx_mtime.tv_nsec &&
	   (sx->mask & STATX_BASIC_STATS) == STATX_BASIC_STATS,
	   "fields from the real file");
	if (stx.stx_mask & STATX_BTIME)
		ok((sx->mask & STATX_BTIME) &&
		   sx->btime.tv_sec == stx.stx_btime.tv_sec &&
		   sx->btime.tv_nsec == stx.stx_btime.tv_nsec,
		   "btime from the real file");
	else
		ok(!(sx->mask & STATX_BTIME), "# SKIP host fs has no btime");

	stx.stx_mask |= STATX_MNT_ID;
	fc_statx_build(&rep, 1, &stx, 0);
	ok(!(sx->mask & STATX_MNT_ID) && rep.out.attr_valid == 0 &&
	   rep.out.attr_valid_nsec == 0,
	   "only fields fuse_statx carries are claimed; timeout 0");
}

#define SX_FIELD(bit, f)	{ bit, offsetof(struct fuse_statx, f), \
				  sizeof(((struct fuse_statx *)0)->f) }

static const struct {
	uint32_t bit;
	size_t off;
	size_t len;
} sx_fields[] = {
	SX_FIELD(STATX_NLINK, nlink), SX_FIELD(STATX_UID, uid),
	SX_FIELD(STATX_GID, gid), SX_FIELD(STATX_ATIME, atime),
	SX_FIELD(STATX_MTIME, mtime), SX_FIELD(STATX_CTIME, ctime),
	SX_FIELD(STATX_INO, ino), SX_FIELD(STATX_SIZE, size),
	SX_FIELD(STATX_BLOCKS, blocks), SX_FIELD(STATX_BTIME, btime),
	SX_FIELD(STATX_TYPE, mode), SX_FIELD(STATX_MODE, mode),
};

/* Dropping @bit zeroes the bytes [off, off + len) and nothing else */
static bool drops_only(uint32_t bit, size_t off, size_t len)
{
	const size_t moff = offsetof(struct fuse_statx, mask);
	struct fuse_statx a, b;
	unsigned char *pa = (unsigned char *)&a, *pb = (unsigned char *)&b;
	bool is_mode = bit == STATX_TYPE || bit == STATX_MODE;
	size_t i;

	memset(&a, 0x5a, sizeof(a));
	a.mask = STATX_BASIC_STATS | STATX_BTIME;
	a.mode = S_IFREG | 0644;
	b = a;
	fc_statx_drop(&b, bit);
	if (b.mask != (a.mask & ~bit))
		return false;
	for (i = 0; i < sizeof(a); i++) {
		if (i >= moff && i < moff + sizeof(a.mask))
			continue;
		if (i < off || i >= off + len) {
			if (pb[i] != pa[i])
				return false;
		} else if (!is_mode && pb[i]) {
			return false;
		}
	}
	/* TYPE and MODE share one field: each clears its own half */
	if (is_mode)
		return b.mode == (bit == STATX_TYPE ? 0644 : S_IFREG);
	return true;
}

static void test_drop(void)
{
	struct fuse_statx a, b;
	size_t i;
	int bad = 0;

	for (i = 0; i < ARRAY_SIZE(sx_fields); i++)
		bad += !drops_only(sx_fields[i].bit, sx_fields[i].off,
				   sx_fields[i].len);
	ok(!bad, "statx_drop: each bit clears its mask bit and field only (%d bad)",
	   bad);
	ok(ARRAY_SIZE(sx_fields) == 12 &&
	   (STATX_BASIC_STATS | STATX_BTIME) == 0xfff,
	   "... all twelve bits fuse_statx carries");
	memset(&a, 0x5a, sizeof(a));
	b = a;
	fc_statx_drop(&b, 0);
	ok(!memcmp(&a, &b, sizeof(a)), "statx_drop 0 changes nothing");
}

/* The change cookie: copied from stx_change_cookie (0xc0) with its bit */
static void test_cookie(void)
{
	uint64_t cookie = 0x1122334455667788ULL, got;
	struct fuse_statx sx, before;
	struct statx stx;

	memset(&stx, 0, sizeof(stx));
	memcpy((char *)&stx + FC_STX_CHANGE_COOKIE_OFF, &cookie, sizeof(cookie));
	memset(&sx, 0, sizeof(sx));
	sx.mask = STATX_BASIC_STATS;
	before = sx;
	fc_statx_cookie(&sx, &stx);
	ok(!memcmp(&sx, &before, sizeof(sx)),
	   "cookie: nothing added when the backing file gave none");
	stx.stx_mask = STATX_BASIC_STATS | STATX_CHANGE_COOKIE;
	fc_statx_cookie(&sx, &stx);
	memcpy(&got, (char *)&sx + FC_STX_CHANGE_COOKIE_OFF, sizeof(got));
	ok(sx.mask == (STATX_BASIC_STATS | STATX_CHANGE_COOKIE) &&
	   got == cookie && *fc_sx_cookie(&sx) == cookie,
	   "cookie: copied at offset 0xc0, with STATX_CHANGE_COOKIE");
}

/* The answer the loop sends: a whole reply, or a bare error header */
static void test_answer(const char *dir)
{
	struct fc_statx_reply r;
	struct fc_data d;
	size_t len, n;

	if (fc_data_init(&d, open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC))) {
		ok(0, "answer setup");
		ok(0, "answer setup");
		return;
	}
	d.attr_timeout = 2;

	len = mkstatx(EXACT, FUSE_ROOT_ID, 0, 0, 0, STATX_BASIC_STATS);
	n = fc_statx_answer(&d, buf, len, &r);
	ok(n == sizeof(r) && r.hdr.len == n && r.hdr.unique == 0x1234 &&
	   S_ISDIR(r.out.stat.mode) && r.out.attr_valid == 2,
	   "root: one %zu-byte reply", n);

	len = mkstatx(EXACT, FUSE_ROOT_ID, 0, 0, 0, 0);
	n = fc_statx_answer(&d, buf, len - 1, &r);
	ok(n == sizeof(r.hdr) && r.hdr.len == n && r.hdr.error == -EINVAL &&
	   r.hdr.unique == 0x1234, "malformed: a bare header with -EINVAL");

	/* Asked for the cookie, without -o change_cookie */
	len = mkstatx(EXACT, FUSE_ROOT_ID, 0, 0, 0,
		      STATX_BASIC_STATS | STATX_CHANGE_COOKIE);
	n = fc_statx_answer(&d, buf, len, &r);
	ok(n == sizeof(r) && !(r.out.stat.mask & STATX_CHANGE_COOKIE) &&
	   !*fc_sx_cookie(&r.out.stat),
	   "no change_cookie: the cookie is never in a reply");
	fc_data_destroy(&d);
}

int main(void)
{
	char dir[] = "/tmp/fc-statx-XXXXXX", cmd[64];

	plan(22);
	test_decode();
	test_drop();
	test_cookie();
	test_garbage();
	if (!mkdtemp(dir)) {
		diag("no temporary directory");
		return done();
	}
	test_build(dir);
	test_answer(dir);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		diag("could not remove %s", dir);
	return done();
}
