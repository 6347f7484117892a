// SPDX-License-Identifier: GPL-2.0
/*
 * Request decoding for the trace, and the trace ring: names and arguments
 * are read only when they lie inside the request, the ring keeps the
 * newest FC_TRACE_LEN requests, and dump lines are well-formed JSON.
 */
#include <errno.h>
#include <string.h>

#include "trace.h"
#include "tap.h"

static unsigned char buf[4096];

/* Header plus @n argument bytes; the header's len says the same */
static size_t mkreq(uint32_t opcode, const void *arg, size_t n)
{
	struct fuse_in_header in = {
		.len = sizeof(in) + n,
		.opcode = opcode,
		.unique = 7,
		.nodeid = 1,
	};

	memcpy(buf, &in, sizeof(in));
	memcpy(buf + sizeof(in), arg, n);
	return sizeof(in) + n;
}

static bool name_is(const char *s, size_t n, const char *want)
{
	return s && n == strlen(want) && !memcmp(s, want, n);
}

static void test_names(void)
{
	struct fuse_rename_in rn = { .newdir = 1 };
	struct fuse_mkdir_in mk = { .mode = 0755 };
	unsigned char arg[64];
	struct fc_req req;
	size_t len;

	len = mkreq(FUSE_LOOKUP, "foo", 4);
	ok(!fc_req_decode(buf, len, &req) && (req.has & FC_HAS_NAME) &&
	   name_is(req.name, req.namelen, "foo") && req.unique == 7,
	   "LOOKUP name");

	len = mkreq(FUSE_LOOKUP, "foo", 3);
	ok(!fc_req_decode(buf, len, &req) && !(req.has & FC_HAS_NAME),
	   "a name without its NUL is not read");

	memcpy(arg, &rn, sizeof(rn));
	memcpy(arg + sizeof(rn), "a\0bc", 5);
	len = mkreq(FUSE_RENAME, arg, sizeof(rn) + 5);
	ok(!fc_req_decode(buf, len, &req) &&
	   name_is(req.name, req.namelen, "a") &&
	   name_is(req.name2, req.name2len, "bc"), "RENAME both names");

	/* A security-context extension follows the name */
	memcpy(arg, &mk, sizeof(mk));
	memcpy(arg + sizeof(mk), "dir\0\0\0\0\0", 8);
	memset(arg + sizeof(mk) + 8, 'x', 8);
	len = mkreq(FUSE_MKDIR, arg, sizeof(mk) + 16);
	((struct fuse_in_header *)buf)->total_extlen = 1;
	ok(!fc_req_decode(buf, len, &req) &&
	   name_is(req.name, req.namelen, "dir"),
	   "MKDIR name before extension");
	((struct fuse_in_header *)buf)->total_extlen = 100;
	ok(!fc_req_decode(buf, len, &req) && !req.has,
	   "extensions longer than the request are not trusted");
}

static void test_args(void)
{
	struct fuse_getattr_in ga = { .getattr_flags = FUSE_GETATTR_FH,
				      .fh = 42 };
	struct fuse_statx_in sx = { .sx_flags = AT_STATX_DONT_SYNC,
				    .sx_mask = 0x7ff };
	struct fuse_batch_forget_in bf = { .count = 1000 };
	struct fuse_forget_one one = { .nodeid = 5, .nlookup = 3 };
	unsigned char arg[64];
	struct fc_req req;
	size_t len;

	len = mkreq(FUSE_GETATTR, &ga, sizeof(ga));
	ok(!fc_req_decode(buf, len, &req) && (req.has & FC_HAS_GETATTR) &&
	   req.getattr_flags == FUSE_GETATTR_FH && req.fh == 42,
	   "GETATTR flags and fh");
	len = mkreq(FUSE_GETATTR, &ga, sizeof(ga) - 1);
	ok(!fc_req_decode(buf, len, &req) && !req.has, "short GETATTR args");

	memcpy(arg, &bf, sizeof(bf));
	memcpy(arg + sizeof(bf), &one, sizeof(one));
	memcpy(arg + sizeof(bf) + sizeof(one), &one, sizeof(one));
	len = mkreq(FUSE_BATCH_FORGET, arg, sizeof(bf) + 2 * sizeof(one));
	ok(!fc_req_decode(buf, len, &req) && (req.has & FC_HAS_FORGET) &&
	   req.nlookup == 6, "BATCH_FORGET count bounded by the buffer");

	len = mkreq(FUSE_STATX, &sx, sizeof(sx));
	ok(!fc_req_decode(buf, len, &req) && (req.has & FC_HAS_STATX) &&
	   req.sx_flags == AT_STATX_DONT_SYNC && req.sx_mask == 0x7ff,
	   "STATX flags and mask");

	ok(fc_req_decode(buf, len - 1, &req) == -EINVAL &&
	   req.opcode == FUSE_STATX && !req.has,
	   "length mismatch: -EINVAL, header still read");
	ok(fc_req_decode(buf, 10, &req) == -EINVAL && req.opcode == 0,
	   "shorter than a header: -EINVAL");
}

static size_t count_lines(const char *s, const char *prefix)
{
	size_t n = 0;

	for (; s && *s; s = strchr(s, '\n') + 1) {
		n += !strncmp(s, prefix, strlen(prefix));
		if (!strchr(s, '\n'))
			break;
	}
	return n;
}

static void record(struct fc_trace *t, uint64_t seq, uint32_t opcode)
{
	struct fc_req req = { .seq = seq, .opcode = opcode, .unique = seq };
	struct fc_reply rep = { .replied = true };

	fc_trace_record(t, &req, &rep);
}

static void test_ring(struct fc_trace *t)
{
	struct fc_sb sb;
	uint64_t i;

	for (i = 1; i <= 5000; i++)
		record(t, i, FUSE_GETATTR);
	fc_sb_init(&sb);
	fc_trace_dump(t, &sb);
	ok(count_lines(sb.buf, "{\"seq\":") == FC_TRACE_LEN &&
	   !strncmp(sb.buf, "{\"seq\":905,", 11) &&
	   strstr(sb.buf, "{\"seq\":5000,\"op\":\"GETATTR\"") &&
	   !strcmp(sb.buf + sb.len - 4, "end\n"),
	   "ring keeps the newest %d, oldest first, then end", FC_TRACE_LEN);

	record(t, 5000 + FC_TRACE_LEN, FUSE_LOOKUP);
	record(t, 5000, FUSE_GETATTR);
	ok(t->ring[5000 % FC_TRACE_LEN].seq == 5000 + FC_TRACE_LEN,
	   "a late request does not overwrite a newer one");

	fc_trace_set(t, false);
	record(t, 9999, FUSE_LOOKUP);
	ok(t->ring[9999 % FC_TRACE_LEN].seq != 9999,
	   "trace off records nothing");
	fc_trace_set(t, true);

	fc_trace_reset(t);
	sb.len = 0;
	fc_trace_dump(t, &sb);
	ok(sb.len == 4 && !strcmp(sb.buf, "end\n"), "reset empties the trace");
	fc_sb_free(&sb);
}

static void test_line(struct fc_trace *t)
{
	struct fc_req req = {
		.seq = 1, .opcode = FUSE_LOOKUP, .unique = 2, .nodeid = 1,
		.has = FC_HAS_NAME, .name = "a\"b\\c\xff\n", .namelen = 7,
	};
	struct fc_reply rep = { .replied = true, .error = -ENOENT, .usec = 5 };
	struct fc_sb sb;

	fc_trace_record(t, &req, &rep);
	req = (struct fc_req){ .seq = 2, .opcode = FUSE_FORGET, .unique = 3,
			       .nodeid = 9, .has = FC_HAS_FORGET,
			       .nlookup = 4 };
	rep = (struct fc_reply){ .usec = 1 };
	fc_trace_record(t, &req, &rep);
	req = (struct fc_req){ .seq = 3, .opcode = FUSE_STATX, .unique = 4,
			       .nodeid = 1,
			       .has = FC_HAS_GETATTR | FC_HAS_STATX,
			       .sx_flags = 0x2000, .sx_mask = 0x7ff };
	rep = (struct fc_reply){ .replied = true, .usec = 12 };
	fc_trace_record(t, &req, &rep);

	fc_sb_init(&sb);
	fc_trace_dump(t, &sb);
	ok(sb.buf && !strcmp(sb.buf,
	   "{\"seq\":1,\"op\":\"LOOKUP\",\"unique\":2,\"nodeid\":1,"
	   "\"name\":\"a\\\"b\\\\c\\u00ff\\u000a\",\"error\":-2,\"usec\":5}\n"
	   "{\"seq\":2,\"op\":\"FORGET\",\"unique\":3,\"nodeid\":9,"
	   "\"nlookup\":4,\"error\":0,\"usec\":1,\"noreply\":true}\n"
	   "{\"seq\":3,\"op\":\"STATX\",\"unique\":4,\"nodeid\":1,"
	   "\"getattr_flags\":\"0x0\",\"fh\":0,\"sx_flags\":\"0x2000\","
	   "\"sx_mask\":\"0x7ff\",\"error\":0,\"usec\":12}\n"
	   "end\n"), "dump lines escape names and carry the arguments");
	fc_sb_free(&sb);
}

int main(void)
{
	struct fc_trace t;

	plan(16);
	test_names();
	test_args();
	if (fc_trace_init(&t)) {
		diag("fc_trace_init failed");
		return 1;
	}
	test_ring(&t);
	fc_trace_reset(&t);
	test_line(&t);
	fc_trace_destroy(&t);
	return done();
}
