// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the server's tap (wiretap.c): how it pairs calls
 * and replies from frames, fed here by hand with no socket. TAP;
 * t/wiretap-unit.t runs it under prove.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wiretap.h"

#include "tap.h"

#define ETH 14
#define IP 20
#define TCP 20
#define HDRS (ETH + IP + TCP)
#define SNAP (128 << 10) /* the tap's snap length */
#define SEG_MAX 70000 /* past 64 KiB: a GSO segment's data */
#define CLIENT_PORT 700
#define MS 1000000ULL /* ns */
#define SYN 0x02
#define ACK 0x10
#define DATA 0x18 /* PSH | ACK: a segment with data */
#define IN WIRETAP_IN
#define OUT WIRETAP_OUT
#define QUEUED WIRETAP_QUEUED

/* Bytes of one TCP stream's data, built up by rec(). */
struct seg {
	unsigned char d[SEG_MAX];
	size_t len;
};

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

/* Append an RPC record: its mark (@last fragment), XID, type, @body bytes. */
static void rec(struct seg *s, uint32_t xid, uint32_t type, size_t body,
		int last)
{
	put32(s->d + s->len, (last ? 0x80000000u : 0) | (uint32_t)(8 + body));
	put32(s->d + s->len + 4, xid);
	put32(s->d + s->len + 8, type);
	memset(s->d + s->len + 12, 0xaa, body);
	s->len += 12 + body;
}

/* Append a call with @xid to @c and its reply to @r, of the usual sizes. */
static void exchange(struct seg *c, struct seg *r, uint32_t xid)
{
	rec(c, xid, 0, 40, 1);
	rec(r, xid, 1, 30, 1);
}

/* Append a fragment that continues a record: its mark and @body bytes. */
static void frag(struct seg *s, size_t body, int last)
{
	put32(s->d + s->len, (last ? 0x80000000u : 0) | (uint32_t)body);
	memset(s->d + s->len + 4, 0x55, body);
	s->len += 4 + body;
}

/*
 * Feed one frame of the client at @port, carrying @len bytes of @data at
 * sequence @seq, coming in (a call's direction), going out or mirrored
 * as the qdisc takes it (a reply's direction, both), at @ns,
 * with TCP @flags and @pad bytes after the IP packet (Ethernet padding);
 * captured as the tap would: the first SNAP bytes.
 */
static void feed_on(unsigned int port, enum wiretap_view view, uint32_t seq,
		    const unsigned char *data, size_t len, size_t pad,
		    unsigned char flags, uint64_t ns)
{
	static unsigned char f[HDRS + SEG_MAX];
	size_t n = HDRS + len + pad;
	size_t total = IP + TCP + len; /* at most 65535: the tests' frames */
	int in = view == IN;

	memset(f, 0, HDRS);
	f[12] = 0x08; /* IPv4 */
	f[ETH] = 0x45;
	f[ETH + 2] = total >> 8;
	f[ETH + 3] = total & 0xff;
	f[ETH + 9] = 6;
	f[ETH + IP + 0] = (in ? port : 2049) >> 8;
	f[ETH + IP + 1] = (in ? port : 2049) & 0xff;
	f[ETH + IP + 2] = (in ? 2049 : port) >> 8;
	f[ETH + IP + 3] = (in ? 2049 : port) & 0xff;
	put32(f + ETH + IP + 4, seq);
	f[ETH + IP + 12] = 5 << 4;
	f[ETH + IP + 13] = flags;
	memcpy(f + HDRS, data, len + pad);
	wiretap_frame(f, n < SNAP ? n : SNAP, view, ns);
}

static void feed(enum wiretap_view view, uint32_t seq,
		 const unsigned char *data, size_t len, uint64_t ns)
{
	feed_on(CLIENT_PORT, view, seq, data, len, 0, DATA, ns);
}

static void is_u(unsigned long long got, unsigned long long want,
		 const char *desc)
{
	if (!ok(got == want, "%s", desc))
		printf("#   got %llu, want %llu\n", got, want);
}

/* A call at 1 ms, its reply at 11 ms: one request of 10 ms. */
static void test_one(void)
{
	struct seg c = { 0 }, r = { 0 };
	struct wiretap_result res;

	wiretap_begin();
	rec(&c, 7, 0, 100, 1);
	rec(&r, 7, 1, 60, 1);
	feed(IN, 1000, c.d, c.len, 1 * MS);
	feed(OUT, 5000, r.d, r.len, 11 * MS);
	wiretap_end(&res);
	is_u(res.requests, 1, "a call and its reply: one request");
	is_u(res.sum_us, 10000, "timed from the call's arrival to the reply's departure");
	is_u(res.median_us, 10000, "its median is itself");
	is_u(res.unmatched, 0, "nothing left unpaired");
	is_u(res.bytes_in, 112, "the call's bytes: its record mark, header and body");
	is_u(res.bytes_out, 72, "the reply's bytes");
}

/*
 * Two calls in one segment; their replies in three segments, the first
 * cut in the middle of the second reply; then a third call, whose mark
 * the stream must still find.
 */
static void test_streams(void)
{
	struct seg c = { 0 }, r = { 0 }, c3 = { 0 }, r3 = { 0 };
	struct wiretap_result res;

	wiretap_begin();
	rec(&c, 1, 0, 40, 1);
	rec(&c, 2, 0, 40, 1);
	rec(&r, 1, 1, 30, 1);
	rec(&r, 2, 1, 2000, 1);
	feed(IN, 100, c.d, c.len, 0);
	feed(OUT, 900, r.d, 100, 2 * MS);
	feed(OUT, 1000, r.d + 100, 1000, 3 * MS);
	feed(OUT, 2000, r.d + 1100, r.len - 1100, 4 * MS);
	exchange(&c3, &r3, 3);
	feed(IN, 100 + c.len, c3.d, c3.len, 5 * MS);
	feed(OUT, 900 + r.len, r3.d, r3.len, 6 * MS);
	wiretap_end(&res);
	is_u(res.requests, 3, "two calls in a segment, a reply over three: every pair found");
	is_u(res.sum_us, 2000 + 2000 + 1000,
	     "each reply timed by its first segment");
	is_u(res.median_us, 2000, "the median of 2, 2 and 1 ms");
	is_u(res.unmatched, 0, "the stream's marks followed across segments");
}

/* A retransmitted call, a callback on the backchannel, a lost reply. */
static void test_noise(void)
{
	struct seg c = { 0 }, r = { 0 }, cb = { 0 }, cbr = { 0 }, c2 = { 0 };
	struct wiretap_result res;

	wiretap_begin();
	rec(&c, 9, 0, 40, 1);
	feed(IN, 0, c.d, c.len, 1 * MS);
	feed(IN, 0, c.d, c.len, 3 * MS); /* the same bytes again */
	rec(&cb, 77, 0, 40, 1); /* the server calls the client */
	rec(&r, 9, 1, 30, 1);
	feed(OUT, 0, cb.d, cb.len, 4 * MS);
	feed(OUT, cb.len, r.d, r.len, 5 * MS);
	rec(&cbr, 77, 1, 20, 1); /* the client answers */
	rec(&c2, 10, 0, 40, 1); /* a call never answered */
	feed(IN, c.len, cbr.d, cbr.len, 6 * MS);
	feed(IN, c.len + cbr.len, c2.d, c2.len, 7 * MS);
	wiretap_end(&res);
	is_u(res.requests, 1, "a retransmission and the backchannel add no request");
	is_u(res.sum_us, 4000, "a retransmitted call counts from its first copy");
	is_u(res.unmatched, 1, "a call without a reply is counted as unpaired");
}

/* A call of two fragments: the second fragment's data is not a message. */
static void test_fragments(void)
{
	struct seg c = { 0 }, r = { 0 };
	struct wiretap_result res;

	wiretap_begin();
	rec(&c, 5, 0, 20, 0);
	frag(&c, 20, 1);
	rec(&r, 5, 1, 20, 1);
	feed(IN, 0, c.d, c.len, 0);
	feed(OUT, 0, r.d, r.len, 1 * MS);
	wiretap_end(&res);
	is_u(res.requests, 1, "a call in two fragments is one request");
	is_u(res.unmatched, 0, "its second fragment is not taken for a call");
}

/* A reply nobody asked for is unpaired, not a request. */
static void test_stray(void)
{
	struct seg r = { 0 };
	struct wiretap_result res;

	wiretap_begin();
	rec(&r, 42, 1, 20, 1);
	feed(OUT, 0, r.d, r.len, 0);
	wiretap_end(&res);
	is_u(res.requests, 0, "a reply without its call is no request");
	is_u(res.unmatched, 1, "and is counted as unpaired");
}

/*
 * The client reconnects from the same port with a lower initial
 * sequence number: the SYNs start both directions afresh.
 */
static void test_reconnect(void)
{
	struct seg c = { 0 }, r = { 0 };
	struct wiretap_result res;

	wiretap_begin();
	exchange(&c, &r, 1);
	feed(IN, 3000000000u, c.d, c.len, 1 * MS);
	feed(OUT, 4000000000u, r.d, r.len, 2 * MS);
	feed_on(CLIENT_PORT, IN, 99, c.d, 0, 0, SYN, 3 * MS);
	feed_on(CLIENT_PORT, OUT, 500, c.d, 0, 0, SYN | ACK, 3 * MS);
	c.len = r.len = 0;
	exchange(&c, &r, 2);
	feed(IN, 100, c.d, c.len, 4 * MS);
	feed(OUT, 501, r.d, r.len, 7 * MS);
	wiretap_end(&res);
	is_u(res.requests, 2, "a reconnection from the same port: both streams paired");
	is_u(res.sum_us, 1000 + 3000, "each on its own stream");
	is_u(res.lost, 0, "nothing lost");
}

/* The same XID from two clients: each reply goes with its own call. */
static void test_two_clients(void)
{
	struct seg c = { 0 }, r = { 0 };
	struct wiretap_result res;

	wiretap_begin();
	exchange(&c, &r, 3);
	feed_on(700, IN, 0, c.d, c.len, 0, DATA, 1 * MS);
	feed_on(701, IN, 0, c.d, c.len, 0, DATA, 5 * MS);
	feed_on(700, OUT, 0, r.d, r.len, 0, DATA, 7 * MS);
	feed_on(701, OUT, 0, r.d, r.len, 0, DATA, 8 * MS);
	wiretap_end(&res);
	is_u(res.requests, 2, "one XID from two clients: two requests");
	is_u(res.sum_us, 6000 + 3000, "each timed from its own call");
}

/*
 * What the tap cannot follow is counted as lost: a segment it never
 * saw (a gap in the sequence), a stream first seen mid-record.
 */
static void test_lost(void)
{
	struct seg c = { 0 }, junk = { 0 };
	struct wiretap_result res;

	wiretap_begin();
	rec(&c, 1, 0, 40, 1);
	feed(IN, 0, c.d, c.len, 1 * MS);
	feed(IN, c.len + 100, c.d, c.len, 2 * MS);
	wiretap_end(&res);
	is_u(res.lost, 1, "a gap in the stream is counted as lost");
	memset(junk.d, 0x41, 64);
	wiretap_begin();
	feed(OUT, 0, junk.d, 64, 1 * MS);
	wiretap_end(&res);
	is_u(res.lost, 1, "a stream picked up mid-record is counted as lost");
	is_u(res.unmatched, 0, "and its bytes are not taken for a reply");
}

/* Ethernet padding after the IP packet is not stream data. */
static void test_padding(void)
{
	struct seg c = { 0 }, r = { 0 };
	struct wiretap_result res;

	wiretap_begin();
	exchange(&c, &r, 4);
	rec(&r, 99, 1, 0, 1); /* past the IP packet: padding */
	feed(IN, 0, c.d, c.len, 1 * MS);
	feed_on(CLIENT_PORT, OUT, 0, r.d, 42, 12, DATA, 2 * MS);
	wiretap_end(&res);
	is_u(res.requests, 1, "a reply followed by padding: one request");
	is_u(res.unmatched, 0, "the padding is not read as a message");
	is_u(res.bytes_out, 42, "nor counted as bytes on the wire");
}

/*
 * netem's hold, from a reply's mirrored copy (as the qdisc takes it) to
 * its departure: two replies queued in one segment and leaving in two;
 * a retransmitted copy (the same bytes) and the same reply copied
 * again on a new connection before it left, both ignored; a reply with
 * no copy.
 */
static void test_hold(void)
{
	struct seg c = { 0 }, r = { 0 }, c3 = { 0 }, r3 = { 0 };
	struct wiretap_result res;

	wiretap_begin();
	exchange(&c, &r, 1);
	exchange(&c, &r, 2);
	feed(IN, 0, c.d, c.len, 1 * MS);
	feed(QUEUED, 0, r.d, r.len, 2 * MS);
	feed(QUEUED, 0, r.d, r.len, 2 * MS + 100000); /* retransmitted */
	feed_on(CLIENT_PORT, QUEUED, 9999, r.d, 0, 0, SYN | ACK,
		2 * MS + 200000);
	feed(QUEUED, 10000, r.d, r.len, 2 * MS + 300000); /* sent again */
	feed(OUT, 0, r.d, 42, 3 * MS);
	feed(OUT, 42, r.d + 42, r.len - 42, 4 * MS);
	exchange(&c3, &r3, 3);
	feed(IN, c.len, c3.d, c3.len, 10 * MS);
	feed(OUT, r.len, r3.d, r3.len, 12 * MS);
	wiretap_end(&res);
	is_u(res.requests, 3, "three requests");
	is_u(res.held, 2, "two with a copy from the qdisc");
	is_u(res.hold_sum_us, 3000,
	     "held from the first copy to the departure: 1 and 2 ms");
	is_u(res.hold_median_us, 1500, "the median of 1 and 2 ms");
	is_u(res.sum_us, 2000 + 3000 + 2000,
	     "the request times are the same with or without a copy");
	is_u(res.unmatched, 0, "a copy is not a reply of its own");
	is_u(res.bytes_out, 3 * 42, "the replies' bytes once: the copies are no wire bytes");
}

/*
 * A copy stamped after its reply's departure: the clock stepped back,
 * and the request has no time to give. A copy that comes after the
 * departure (none does: the socket's queue is in stamp order) holds
 * nothing and pairs nothing.
 */
static void test_hold_order(void)
{
	struct seg c = { 0 }, r = { 0 }, c2 = { 0 }, r2 = { 0 };
	struct wiretap_result res;

	wiretap_begin();
	exchange(&c, &r, 1);
	feed(IN, 0, c.d, c.len, 1 * MS);
	feed(QUEUED, 0, r.d, r.len, 5 * MS);
	feed(OUT, 0, r.d, r.len, 4 * MS);
	exchange(&c2, &r2, 2);
	feed(IN, c.len, c2.d, c2.len, 6 * MS);
	feed(OUT, r.len, r2.d, r2.len, 7 * MS);
	feed(QUEUED, r.len, r2.d, r2.len, 8 * MS);
	wiretap_end(&res);
	is_u(res.lost, 1, "a copy stamped after the departure: lost");
	is_u(res.requests, 1, "the other request counts");
	is_u(res.held, 0, "with no hold: its copy came after it left");
	is_u(res.unmatched, 0, "a late copy pairs nothing");
}

/* A copy of a reply to a call the tap never saw: nothing is held. */
static void test_hold_stray(void)
{
	struct seg r = { 0 };
	struct wiretap_result res;

	wiretap_begin();
	rec(&r, 42, 1, 20, 1);
	feed(QUEUED, 0, r.d, r.len, 0);
	feed(OUT, 0, r.d, r.len, 1 * MS);
	wiretap_end(&res);
	is_u(res.held, 0, "a copy without its call holds nothing");
	is_u(res.unmatched, 1, "its reply is counted once, as unpaired");
}

/*
 * TCP sends a reply again when the client's ACK is late (a tail loss
 * probe, the retransmission timer): a copy of a reply sent before the
 * measurement, arriving during it, is no reply of its own when the tap
 * followed the stream meanwhile (wiretap_window()); a tap that began
 * afresh (wiretap_begin()) cannot tell. A call sent again the same way.
 */
static void test_window(void)
{
	struct seg c = { 0 }, r = { 0 }, c2 = { 0 }, r2 = { 0 };
	struct wiretap_result res;

	exchange(&c, &r, 1);
	exchange(&c2, &r2, 2);
	wiretap_begin();
	feed(IN, 0, c.d, c.len, 1 * MS);
	feed(OUT, 0, r.d, r.len, 2 * MS);
	wiretap_window();
	feed(OUT, 0, r.d, r.len, 200 * MS); /* the first reply again */
	feed(IN, 0, c.d, c.len, 201 * MS); /* the first call again */
	feed(IN, c.len, c2.d, c2.len, 210 * MS);
	feed(OUT, r.len, r2.d, r2.len, 213 * MS);
	wiretap_end(&res);
	is_u(res.requests, 1, "a new window counts its own request only");
	is_u(res.sum_us, 3000, "timed as before");
	is_u(res.unmatched, 0, "copies of a reply and a call sent before it are known for copies");
	is_u(res.lost, 0, "nothing lost");

	wiretap_begin();
	feed(OUT, 0, r.d, r.len, 200 * MS);
	feed(IN, c.len, c2.d, c2.len, 210 * MS);
	feed(OUT, r.len, r2.d, r2.len, 213 * MS);
	wiretap_end(&res);
	is_u(res.unmatched, 1, "a tap begun afresh takes the copy for a reply without a call");
}

/*
 * Replies that left together, cut by TCP anywhere: a header split
 * after its mark, then after the XID, each whole at the next segment's
 * start; timed from the segment the header began in.
 */
static void test_split_header(void)
{
	struct seg c = { 0 }, r = { 0 };
	struct wiretap_result res;
	size_t cut1, cut2;

	wiretap_begin();
	exchange(&c, &r, 1);
	exchange(&c, &r, 2);
	exchange(&c, &r, 3);
	cut1 = 42 + 2; /* reply 2: its mark split */
	cut2 = 2 * 42 + 6; /* reply 3: after its mark and 2 bytes of XID */
	feed(IN, 0, c.d, c.len, 1 * MS);
	feed(OUT, 0, r.d, cut1, 3 * MS);
	feed(OUT, cut1, r.d + cut1, cut2 - cut1, 4 * MS);
	feed(OUT, cut2, r.d + cut2, r.len - cut2, 5 * MS);
	wiretap_end(&res);
	is_u(res.requests, 3, "headers split between segments: every reply paired");
	is_u(res.sum_us, 2000 + 2000 + 3000,
	     "each timed from the segment its header began in: 2, 2, 3 ms");
	is_u(res.unmatched, 0, "nothing unpaired");
	is_u(res.lost, 0, "nothing lost");
}

/*
 * A GSO segment leaves as one frame: an IP packet of 65535 bytes, 14 of
 * Ethernet on top. The tap keeps it whole, a header in its last bytes
 * included (a snap length of 65535 would cut that header short).
 */
static void test_gso(void)
{
	struct seg c = { 0 }, r = { 0 };
	struct wiretap_result res;
	size_t data = 65535 - IP - TCP;

	wiretap_begin();
	rec(&c, 1, 0, 40, 1);
	rec(&c, 2, 0, 40, 1);
	rec(&r, 1, 1, data - 2 * 12, 1);
	rec(&r, 2, 1, 0, 1); /* the frame's last 12 bytes */
	feed(IN, 0, c.d, c.len, 1 * MS);
	feed(OUT, 0, r.d, r.len, 2 * MS);
	wiretap_end(&res);
	is_u(r.len, data, "the replies fill the IP packet");
	is_u(res.requests, 2, "two replies in a 64 KiB frame: both paired");
	is_u(res.lost, 0, "the frame was captured whole");
}

/*
 * More clients' ports than the table holds: the stream silent longest
 * gives its place, and every new stream is followed.
 */
static void test_many_ports(void)
{
	struct seg c = { 0 }, r = { 0 };
	struct wiretap_result res;
	unsigned int port;

	wiretap_begin();
	exchange(&c, &r, 1);
	for (port = 700; port < 720; port++) {
		feed_on(port, IN, 0, c.d, c.len, 0, DATA, 1 * MS);
		feed_on(port, OUT, 0, r.d, r.len, 0, DATA, 2 * MS);
	}
	wiretap_end(&res);
	is_u(res.requests, 20, "twenty ports one after another: twenty requests");
	is_u(res.lost, 0, "nothing lost to a full table");
}

int main(void)
{
	test_one();
	test_streams();
	test_noise();
	test_fragments();
	test_stray();
	test_reconnect();
	test_two_clients();
	test_lost();
	test_padding();
	test_hold();
	test_hold_order();
	test_hold_stray();
	test_window();
	test_split_header();
	test_gso();
	test_many_ports();
	return done();
}
