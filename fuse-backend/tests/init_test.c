// SPDX-License-Identifier: GPL-2.0
/*
 * fc_init_offers() and fc_init_grant() on INIT messages built here: a
 * flag of the high half needs FUSE_INIT_EXT both ways, an error or short
 * reply is left alone, and nothing else in the reply changes.
 */
#include <string.h>

#include "../init.h"
#include "tap.h"

struct init_req {
	struct fuse_in_header hdr;
	struct fuse_init_in in;
};

struct init_reply {
	struct fuse_out_header hdr;
	struct fuse_init_out out;
};

static struct init_req make_req(uint32_t flags, uint32_t flags2)
{
	struct init_req r;

	memset(&r, 0, sizeof(r));
	r.hdr.len = sizeof(r);
	r.hdr.opcode = FUSE_INIT;
	r.hdr.unique = 2;
	r.in.major = FUSE_KERNEL_VERSION;
	r.in.minor = FUSE_KERNEL_MINOR_VERSION;
	r.in.flags = flags;
	r.in.flags2 = flags2;
	return r;
}

static struct init_reply make_reply(int32_t error)
{
	struct init_reply r;

	memset(&r, 0, sizeof(r));
	r.hdr.len = sizeof(r);
	r.hdr.error = error;
	r.hdr.unique = 2;
	r.out.major = FUSE_KERNEL_VERSION;
	r.out.minor = 39;
	r.out.flags = FUSE_ASYNC_READ | FUSE_DO_READDIRPLUS;
	r.out.max_write = 131072;
	return r;
}

static void test_offers(void)
{
	uint32_t hi = (uint32_t)(FUSE_DONT_SYNC_ENTRIES >> 32);
	struct init_req r = make_req(FUSE_INIT_EXT, hi);

	ok(fc_init_offers(&r, sizeof(r), FUSE_DONT_SYNC_ENTRIES),
	   "offered in flags2 with FUSE_INIT_EXT");
	r = make_req(0, hi);
	ok(!fc_init_offers(&r, sizeof(r), FUSE_DONT_SYNC_ENTRIES),
	   "flags2 without FUSE_INIT_EXT is not read (a stock kernel's)");
	r = make_req(FUSE_INIT_EXT, 0);
	ok(!fc_init_offers(&r, sizeof(r), FUSE_DONT_SYNC_ENTRIES),
	   "not offered");
	ok(fc_init_offers(&r, sizeof(r), FUSE_INIT_EXT),
	   "a low-half flag is read from flags");
	r = make_req(FUSE_INIT_EXT, hi);
	ok(!fc_init_offers(&r, sizeof(r) - 1, FUSE_DONT_SYNC_ENTRIES),
	   "a short request is not read");
	r.hdr.opcode = FUSE_LOOKUP;
	ok(!fc_init_offers(&r, sizeof(r), FUSE_DONT_SYNC_ENTRIES),
	   "only FUSE_INIT");
}

static void test_grant(void)
{
	struct init_reply r = make_reply(0), before = r;

	ok(fc_init_grant(&r, sizeof(r), FUSE_DONT_SYNC_ENTRIES),
	   "a successful reply is changed");
	ok(r.out.flags == (before.out.flags | FUSE_INIT_EXT),
	   "flags keep theirs and gain FUSE_INIT_EXT");
	ok(r.out.flags2 == (uint32_t)(FUSE_DONT_SYNC_ENTRIES >> 32),
	   "flags2 has the flag's high half");
	r.out.flags = before.out.flags;
	r.out.flags2 = 0;
	ok(!memcmp(&r, &before, sizeof(r)), "nothing else changed");
	r = make_reply(-38);
	ok(!fc_init_grant(&r, sizeof(r), FUSE_DONT_SYNC_ENTRIES) &&
	   r.out.flags2 == 0, "an error reply is left alone");
	r = make_reply(0);
	ok(!fc_init_grant(&r, sizeof(r) - 8, FUSE_DONT_SYNC_ENTRIES) &&
	   r.out.flags2 == 0, "a reply shorter than its header says is left alone");
	r = make_reply(0);
	ok(fc_init_grant(&r, sizeof(r),
			 FUSE_DONT_SYNC_ENTRIES | FUSE_STATX_CHANGE_COOKIE) &&
	   r.out.flags2 == (uint32_t)((FUSE_DONT_SYNC_ENTRIES |
				       FUSE_STATX_CHANGE_COOKIE) >> 32),
	   "two flags are granted at once");
}

int main(void)
{
	plan(13);
	test_offers();
	test_grant();
	return done();
}
