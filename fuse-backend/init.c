// SPDX-License-Identifier: GPL-2.0
/*
 * fusecount: read an INIT request's flags and add one to the reply.  Both
 * take a whole message in memory and trust no length in it, so that a
 * short or odd message is left alone rather than misread.
 */
#include <string.h>

#include "init.h"

/* The flags of an INIT message, flags2 shifted up as the kernel does */
static uint64_t fc_init_flags(uint32_t flags, uint32_t flags2)
{
	if (!(flags & FUSE_INIT_EXT))
		return flags;
	return flags | (uint64_t)flags2 << 32;
}

/**
 * fc_init_offers() - does an INIT request offer @flag?
 * @req: the request as read from /dev/fuse
 * @len: its length
 * @flag: a FUSE_* INIT flag
 *
 * Return: true if @req is a whole FUSE_INIT request with @flag set.
 */
bool fc_init_offers(const void *req, size_t len, uint64_t flag)
{
	struct fuse_in_header hdr;
	struct fuse_init_in in;

	if (len < sizeof(hdr) + sizeof(in))
		return false;
	memcpy(&hdr, req, sizeof(hdr));
	if (hdr.opcode != FUSE_INIT || hdr.len != len)
		return false;
	memcpy(&in, (const char *)req + sizeof(hdr), sizeof(in));
	return fc_init_flags(in.flags, in.flags2) & flag;
}

/**
 * fc_init_grant() - add @flag to a successful INIT reply
 * @reply: the reply, header and fuse_init_out, in one buffer
 * @len: its length
 * @flag: a FUSE_* INIT flag; one of bits 32-63 makes the reply extended
 *
 * Return: true if the reply was changed; false if it is an error reply or
 * too short to hold the flags (a daemon of an older protocol).
 */
bool fc_init_grant(void *reply, size_t len, uint64_t flag)
{
	struct fuse_out_header hdr;
	struct fuse_init_out out;

	if (len < sizeof(hdr) + sizeof(out))
		return false;
	memcpy(&hdr, reply, sizeof(hdr));
	if (hdr.error || hdr.len != len)
		return false;
	memcpy(&out, (char *)reply + sizeof(hdr), sizeof(out));
	out.flags |= (uint32_t)flag;
	if (flag >> 32) {
		out.flags |= FUSE_INIT_EXT;
		out.flags2 |= (uint32_t)(flag >> 32);
	}
	memcpy((char *)reply + sizeof(hdr), &out, sizeof(out));
	return true;
}
