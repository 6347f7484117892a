// SPDX-License-Identifier: GPL-2.0
/*
 * wiretap - how long each NFS request spends in the server guest, timed
 * on its interface: from the call's arrival to its reply's departure.
 *
 * netem holds each reply on the server's eth0 (netem.c). Timed by the
 * client, a delay also carries both guests' own cost of waking after it
 * (under TCG a guest does the same work slower after a wait), so the
 * client cannot tell whether netem held a reply for its label. The
 * interface can: an AF_PACKET socket sees a call when the stack receives
 * it and a reply when netem lets it go to the driver (dev_queue_xmit_nit
 * runs after the qdisc), each stamped by the kernel (SO_TIMESTAMPNS).
 * With no delay the same span is the server's own time per request; the
 * difference is what the delay added on the wire.
 *
 * netem's hold itself is timed on a mirror (mirror.c): a copy of each
 * frame taken as the root qdisc is handed it, sent out of a dummy
 * device. From a reply's copy there to the reply's departure from eth0
 * is the time the qdisc kept it, with no base case to subtract: netem's
 * hold as the server applies it, the guest's own wake-up when netem's
 * timer fires included. (Not the time TCP may keep a reply back while
 * earlier ones are held: the lab's cases mostly make one call at a
 * time.)
 *
 * The socket is not read while a case runs: the kernel queues what the
 * filter keeps (TCP port 2049: segments with data, and SYNs, which start
 * a stream afresh), and wiretap_stop() reads it all at once, so the tap
 * wakes no one in the guest during the measurement. Calls and replies
 * are paired by XID within each TCP stream, along its RPC record marks
 * (RFC 5531 section 11). Frames are kept whole: a queued frame is
 * charged its full size whatever the snap length, and replies that
 * leave together (TCP corks a reply while the one before it sits in
 * netem) share a segment, their marks anywhere in it, a header maybe
 * split between two segments.
 *
 * The socket stays open from one measurement to the next, and the
 * streams are followed between them too (wiretap_start() reads what
 * came meanwhile): TCP sends a segment again when its ACK is late (a
 * tail loss probe after about 200 ms, the retransmission timer), and on
 * a loaded host the client guest is often that late. A reply sent
 * before the measurement and again during it is then known for a copy
 * by its sequence number; a tap that met the stream afresh would take
 * it for a reply to a call it never saw.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/filter.h>
#include <linux/if_packet.h>

#include "wiretap.h"

/* A whole frame: a GSO segment of 64 KiB of data and its headers. */
#define WT_SNAPLEN (128u << 10)
/*
 * Each call, reply and reply's copy is charged its frame's full size:
 * the lab's largest case, GNU ls -l of 10000 entries (about 2600
 * requests), fits with none dropped.
 */
#define WT_RCVBUF (16 << 20)
#define WT_RECORD_MAX (4u << 20) /* past NFS's 1 MiB rsize and wsize */
#define WT_PENDING 256 /* calls awaiting a reply: a ring */
#define WT_SAMPLES 65536
#define WT_CONNS 8
#define RPC_CALL 0
#define RPC_REPLY 1

#define WT_HDR 12 /* record mark, XID, message type */

/* One direction of one TCP connection: where its next record mark is. */
struct wt_dir {
	bool synced; /* next is known */
	bool more; /* the record in progress has more fragments */
	uint32_t next; /* sequence number of the next record mark */
	/* The start of a header the segment ended in, from next on. */
	unsigned char hdr[WT_HDR];
	uint32_t have;
	uint64_t hdr_ns; /* when its first byte was seen */
};

struct wt_conn {
	uint16_t peer; /* the client's port; 0: unused */
	uint64_t seen; /* when its last frame came: wt.frames then */
	struct wt_dir in, out, queued;
};

struct wt_call {
	uint32_t xid;
	uint16_t peer; /* its stream */
	bool waiting; /* for its reply */
	bool queued; /* its reply is in the qdisc, since queued_ns */
	uint64_t ns;
	uint64_t queued_ns;
};

static struct {
	int keeper; /* holds the kernel's timestamping switch on */
	int fd;
	int ifindex, mirror; /* the interface; its mirror, or 0 */
	unsigned int port;
	bool on; /* between wiretap_start() and wiretap_stop() */
	uint64_t frames; /* every frame ever fed: the streams' clock */
	struct wt_conn conns[WT_CONNS];
	struct wt_call pending[WT_PENDING];
	unsigned int npending; /* calls ever put in the ring */
	uint64_t samples[WT_SAMPLES]; /* ns, call in to reply out */
	uint64_t holds[WT_SAMPLES]; /* ns, reply queued to reply out */
	uint64_t sum_ns, hold_sum_ns;
	struct wiretap_result res;
	unsigned char frame[WT_SNAPLEN];
} wt = { .keeper = -1, .fd = -1 };

static int wt_timestamps(int fd)
{
	int one = 1;

	return setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one)) ?
		       -errno : 0;
}

/**
 * wiretap_init - switch the kernel's packet timestamps on, for good
 *
 * The first socket to ask for timestamps turns them on from a work item
 * (net_enable_timestamp()), and a packet that passes before then has
 * none: the socket would then stamp it when it is read. A socket that
 * asks and is never bound turns them on once, long before a case runs.
 *
 * Return: 0 or -errno.
 */
int wiretap_init(void)
{
	int err;

	if (wt.keeper >= 0)
		return 0;
	wt.keeper = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (wt.keeper < 0)
		return -errno;
	err = wt_timestamps(wt.keeper);
	if (err) {
		close(wt.keeper);
		wt.keeper = -1;
	}
	return err;
}

/* IPv4 TCP to or from @port, with data or SYN: whole; else nothing. */
static int wt_filter(int fd, unsigned int port)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 12), /* ethertype */
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ETHERTYPE_IP, 0, 20),
		BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 23), /* protocol */
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, IPPROTO_TCP, 0, 18),
		BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 20), /* fragment offset */
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, 0x1fff, 16, 0),
		BPF_STMT(BPF_LDX | BPF_B | BPF_MSH, 14), /* X: IP header */
		BPF_STMT(BPF_LD | BPF_H | BPF_IND, 14), /* source port */
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, port, 2, 0),
		BPF_STMT(BPF_LD | BPF_H | BPF_IND, 16), /* destination */
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, port, 0, 11),
		BPF_STMT(BPF_LD | BPF_B | BPF_IND, 27), /* TCP flags */
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, 0x02, 8, 0), /* SYN */
		BPF_STMT(BPF_LD | BPF_B | BPF_IND, 26), /* TCP data offset */
		BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0xf0),
		BPF_STMT(BPF_ALU | BPF_RSH | BPF_K, 2),
		BPF_STMT(BPF_ALU | BPF_ADD | BPF_X, 0), /* both headers */
		BPF_STMT(BPF_MISC | BPF_TAX, 0),
		BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 16), /* IP total length */
		BPF_STMT(BPF_ALU | BPF_SUB | BPF_X, 0), /* TCP data */
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, WT_SNAPLEN),
		BPF_STMT(BPF_RET | BPF_K, 0),
	};
	struct sock_fprog prog = {
		.len = sizeof(code) / sizeof(code[0]),
		.filter = code,
	};

	return setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog,
			  sizeof(prog)) ? -errno : 0;
}

/*
 * A socket on @ifindex alone, or with a @mirror on every interface: the
 * two then share one queue, in the order the kernel saw their frames (a
 * reply's copy before the reply itself).
 */
static int wt_open(int ifindex, int mirror, unsigned int port)
{
	struct sockaddr_ll sa = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETH_P_ALL),
		.sll_ifindex = mirror ? 0 : ifindex,
	};
	int size = WT_RCVBUF;
	int fd, err;

	/* Protocol 0: nothing arrives before the filter is in place. */
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	/*
	 * Past rmem_max as root (labctl is, in its guest). Short of it the
	 * tap still runs: what does not fit is counted (tp_drops), and the
	 * case then has no wire times.
	 */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	err = wt_timestamps(fd);
	if (!err)
		err = wt_filter(fd, port);
	if (!err && bind(fd, (struct sockaddr *)&sa, sizeof(sa)))
		err = -errno;
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

/**
 * wiretap_window - forget every call and time seen so far, keep the streams
 *
 * What follows is counted on its own; a call that came before it is
 * not waited for (its reply, if it comes now, is unpaired), a segment
 * sent before it and again now is still known for a copy.
 */
void wiretap_window(void)
{
	wt.npending = 0;
	memset(wt.pending, 0, sizeof(wt.pending));
	wt.sum_ns = 0;
	wt.hold_sum_ns = 0;
	memset(&wt.res, 0, sizeof(wt.res));
}

/**
 * wiretap_begin - forget every stream, call and time seen so far
 *
 * The pairing below (wiretap_frame(), wiretap_window(), wiretap_end())
 * needs no socket: the host's unit test feeds it frames of its own.
 */
void wiretap_begin(void)
{
	memset(wt.conns, 0, sizeof(wt.conns));
	wiretap_window();
}

static uint32_t wt_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/*
 * The client's stream from @peer. A new one takes a free place or the
 * stream silent for longest: the tap follows streams from one
 * measurement to the next, and the client's ports change as mounts and
 * connections come and go.
 */
static struct wt_conn *wt_conn(uint16_t peer)
{
	struct wt_conn *c, *oldest = &wt.conns[0];
	unsigned int i;

	for (i = 0; i < WT_CONNS; i++) {
		c = &wt.conns[i];
		if (c->peer == peer)
			goto seen;
		if (c->seen < oldest->seen)
			oldest = c;
	}
	c = oldest;
	*c = (struct wt_conn){ .peer = peer };
seen:
	c->seen = ++wt.frames;
	return c;
}

static void wt_call_in(uint16_t peer, uint32_t xid, uint64_t ns)
{
	struct wt_call *c = &wt.pending[wt.npending++ % WT_PENDING];

	/* A call still unanswered when the ring comes round is lost. */
	if (c->waiting)
		wt.res.unmatched++;
	*c = (struct wt_call){
		.xid = xid, .peer = peer, .waiting = true, .ns = ns
	};
}

/* The call on stream @peer with @xid still waiting for its reply. */
static struct wt_call *wt_waiting(uint16_t peer, uint32_t xid)
{
	unsigned int i, n = wt.npending < WT_PENDING ? wt.npending : WT_PENDING;
	struct wt_call *c;

	/* Newest first: few calls wait at a time, this one near the end. */
	for (i = 0; i < n; i++) {
		c = &wt.pending[(wt.npending - 1 - i) % WT_PENDING];
		if (c->waiting && c->xid == xid && c->peer == peer)
			return c;
	}
	return NULL;
}

/*
 * A reply handed to the qdisc. A reply without a call seen is counted
 * as it leaves. A second copy before the departure (the same reply on
 * a new connection) keeps the first: were a reply lost in the qdisc
 * and sent again, its hold would include TCP's retransmission timeout,
 * which the client waited for too (netem's limit, 1000 packets, is
 * never reached in the lab).
 */
static void wt_reply_queued(uint16_t peer, uint32_t xid, uint64_t ns)
{
	struct wt_call *c = wt_waiting(peer, xid);

	if (c && !c->queued) {
		c->queued = true;
		c->queued_ns = ns;
	}
}

static void wt_reply_out(uint16_t peer, uint32_t xid, uint64_t ns)
{
	struct wt_call *c = wt_waiting(peer, xid);

	if (!c) {
		wt.res.unmatched++;
		return;
	}
	c->waiting = false;
	if (ns < c->ns || (c->queued && ns < c->queued_ns)) {
		wt.res.lost++; /* the clock stepped back: no time to give */
		return;
	}
	if (wt.res.requests < WT_SAMPLES)
		wt.samples[wt.res.requests] = ns - c->ns;
	wt.res.requests++;
	wt.sum_ns += ns - c->ns;
	if (!c->queued)
		return;
	if (wt.res.held < WT_SAMPLES)
		wt.holds[wt.res.held] = ns - c->queued_ns;
	wt.res.held++;
	wt.hold_sum_ns += ns - c->queued_ns;
}

/*
 * A message starts at @p: a call coming in, a reply queued or going out
 * counts; the rest is NFSv4.1's backchannel, the server calling the
 * client.
 */
static void wt_message(const unsigned char *p, uint16_t peer,
		       enum wiretap_view view, uint64_t ns)
{
	uint32_t xid = wt_be32(p), type = wt_be32(p + 4);

	if (view == WIRETAP_IN && type == RPC_CALL)
		wt_call_in(peer, xid, ns);
	else if (view == WIRETAP_QUEUED && type == RPC_REPLY)
		wt_reply_queued(peer, xid, ns);
	else if (view == WIRETAP_OUT && type == RPC_REPLY)
		wt_reply_out(peer, xid, ns);
}

/*
 * Does a message start at @p (@cap bytes)? Asked where the tap picks a
 * stream up (when it starts, or after losing its place), which should
 * be between records: a mark of a sane length, then a call or a reply.
 */
static bool wt_plausible(const unsigned char *p, uint32_t cap)
{
	uint32_t mark, type;

	if (cap < 12)
		return false;
	mark = wt_be32(p);
	type = wt_be32(p + 8);
	return (mark & 0x7fffffff) >= 8 && (mark & 0x7fffffff) <= WT_RECORD_MAX &&
	       (type == RPC_CALL || type == RPC_REPLY);
}

/* The header at d->next is whole: its message, and where the next mark is. */
static void wt_header(struct wt_dir *d, uint16_t peer, enum wiretap_view view)
{
	uint32_t mark = wt_be32(d->hdr);

	if (!d->more)
		wt_message(d->hdr + 4, peer, view, d->hdr_ns);
	d->more = !(mark >> 31);
	d->next += 4 + (mark & 0x7fffffff);
	d->have = 0;
}

/*
 * The record marks in a segment of @len bytes at @seq, @cap of them
 * captured: each message's XID and type right after its first mark,
 * collected over two segments when the first ends inside them.
 */
static void wt_segment(struct wt_dir *d, uint16_t peer, uint32_t seq,
		       const unsigned char *p, uint32_t cap, uint32_t len,
		       enum wiretap_view view, uint64_t ns)
{
	uint32_t off, need, take;

	if (!d->synced) {
		/* The stream was idle when the tap began: a record starts. */
		if (!wt_plausible(p, cap)) {
			wt.res.lost++;
			return;
		}
		*d = (struct wt_dir){ .synced = true, .next = seq };
	}
	off = d->next + d->have - seq;
	if ((int32_t)off < 0) {
		/* Past the next mark: a segment the tap never saw. */
		d->synced = false;
		wt.res.lost++;
		return;
	}
	/* off >= len: inside a record, or a retransmission: nothing new. */
	while (off < len) {
		need = d->more ? 4 : WT_HDR;
		take = need - d->have < len - off ? need - d->have : len - off;
		if (off + take > cap) {
			d->synced = false; /* a frame cut short */
			wt.res.lost++;
			return;
		}
		if (!d->have)
			d->hdr_ns = ns;
		memcpy(d->hdr + d->have, p + off, take);
		d->have += take;
		if (d->have < need)
			return; /* the rest is in the next segment */
		wt_header(d, peer, view);
		off = d->next - seq;
	}
}

/**
 * wiretap_frame - one Ethernet frame the tap captured
 * @f: the frame, from its Ethernet header: IPv4, TCP, to or from the
 *     RPC port (the socket's filter checked that)
 * @n: the bytes captured, at most the snap length
 * @view: where it was seen
 * @ns: the kernel's timestamp
 */
void wiretap_frame(const unsigned char *f, size_t n, enum wiretap_view view,
		   uint64_t ns)
{
	bool in = view == WIRETAP_IN;
	size_t ip = ETHER_HDR_LEN, tcp, data;
	uint32_t total, len, cap;
	struct wt_conn *c;
	struct wt_dir *d;
	uint16_t peer;

	if (n < ip + 20)
		return;
	tcp = ip + (f[ip] & 0xf) * 4;
	total = (uint32_t)f[ip + 2] << 8 | f[ip + 3];
	if (n < tcp + 20)
		return;
	data = tcp + (f[tcp + 12] >> 4) * 4;
	if (data > n || total < data - ip)
		return;
	len = total - (data - ip);
	peer = in ? (f[tcp] << 8 | f[tcp + 1]) : (f[tcp + 2] << 8 | f[tcp + 3]);
	c = wt_conn(peer);
	if (!c)
		return;
	d = in ? &c->in : view == WIRETAP_OUT ? &c->out : &c->queued;
	if (f[tcp + 13] & 0x02) {
		/* SYN: a new connection from the same port; data from seq + 1. */
		*d = (struct wt_dir){ .synced = true,
				      .next = wt_be32(f + tcp + 4) + 1 };
		return;
	}
	if (view == WIRETAP_IN)
		wt.res.bytes_in += len;
	else if (view == WIRETAP_OUT)
		wt.res.bytes_out += len;
	/* Not beyond the IP packet: a short frame's padding is no data. */
	cap = n - data < len ? n - data : len;
	if (len)
		wt_segment(d, peer, wt_be32(f + tcp + 4), f + data, cap, len,
			   view, ns);
}

/* Where the socket saw the frame @from: a view, or -1 if none to time. */
static int wt_view(const struct sockaddr_ll *from)
{
	if (from->sll_ifindex == wt.ifindex &&
	    from->sll_pkttype == PACKET_HOST)
		return WIRETAP_IN;
	if (from->sll_ifindex == wt.ifindex &&
	    from->sll_pkttype == PACKET_OUTGOING)
		return WIRETAP_OUT;
	if (wt.mirror && from->sll_ifindex == wt.mirror &&
	    from->sll_pkttype == PACKET_OUTGOING)
		return WIRETAP_QUEUED;
	return -1;
}

/*
 * Read every queued frame: 0, or -errno. A frame stamped now or later
 * was stamped as it was read (timestamps were off when it passed): it
 * has no time to give.
 */
static int wt_drain(void)
{
	char ctl[CMSG_SPACE(sizeof(struct timespec))];
	struct sockaddr_ll from;
	struct iovec iov = { wt.frame, sizeof(wt.frame) };
	struct msghdr m = { 0 };
	struct cmsghdr *cm;
	struct timespec ts, now;
	ssize_t n;
	int view;

	clock_gettime(CLOCK_REALTIME, &now);

	for (;;) {
		m = (struct msghdr){ .msg_name = &from,
				     .msg_namelen = sizeof(from),
				     .msg_iov = &iov, .msg_iovlen = 1,
				     .msg_control = ctl,
				     .msg_controllen = sizeof(ctl) };
		n = recvmsg(wt.fd, &m, 0);
		if (n < 0)
			return errno == EAGAIN ? 0 : -errno;
		cm = CMSG_FIRSTHDR(&m);
		if (!cm || cm->cmsg_level != SOL_SOCKET ||
		    cm->cmsg_type != SCM_TIMESTAMPNS)
			return -EPROTO;
		memcpy(&ts, CMSG_DATA(cm), sizeof(ts));
		view = wt_view(&from);
		if (view < 0)
			continue;
		if (ts.tv_sec > now.tv_sec ||
		    (ts.tv_sec == now.tv_sec && ts.tv_nsec >= now.tv_nsec)) {
			wt.res.lost++;
			continue;
		}
		wiretap_frame(wt.frame, n, view,
			      (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec);
	}
}

static int wt_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The median of the first @count of @v (ns; at most WT_SAMPLES), in us. */
static uint64_t wt_median_us(uint64_t *v, unsigned int count)
{
	unsigned int n = count < WT_SAMPLES ? count : WT_SAMPLES;

	if (!n)
		return 0;
	qsort(v, n, sizeof(v[0]), wt_cmp);
	return (v[(n - 1) / 2] + v[n / 2]) / 2 / 1000;
}

/*
 * Read what came since the socket was last read, and how many frames the
 * kernel dropped meanwhile (@drops): after a drop the streams are
 * picked up afresh.
 */
static int wt_read(unsigned int *drops)
{
	struct tpacket_stats st = { 0 };
	socklen_t sl = sizeof(st);
	int err = wt_drain();

	/* PACKET_STATISTICS counts from its last read */
	if (!err && getsockopt(wt.fd, SOL_PACKET, PACKET_STATISTICS, &st, &sl))
		err = -errno;
	if (err)
		return err;
	*drops = st.tp_drops;
	if (st.tp_drops)
		memset(wt.conns, 0, sizeof(wt.conns));
	return 0;
}

/**
 * wiretap_start - tap @ifname's RPCs on TCP @port from now on
 * @ifname: the server's interface
 * @mirror: the ifindex of @ifname's egress mirror (mirror.c), or 0: the
 *          replies' time in the qdisc is then not timed
 * @port: the RPC service's port (2049)
 *
 * The socket of the last measurement on the same interface goes on:
 * what it queued since is read for the streams' sake, then forgotten.
 * A measurement still running is ended, its counts dropped.
 *
 * Return: 0 or -errno.
 */
int wiretap_start(const char *ifname, int mirror, unsigned int port)
{
	int ifindex = if_nametoindex(ifname);
	unsigned int drops;
	int fd, err;

	if (!ifindex)
		return -errno;
	/* what came meanwhile moves the streams on; its counts go */
	if (wt.fd >= 0 && wt.ifindex == ifindex && wt.mirror == mirror &&
	    wt.port == port && !wt_read(&drops)) {
		wiretap_window();
		wt.on = true;
		return 0;
	}
	wiretap_close();
	err = wiretap_init();
	if (err)
		return err;
	fd = wt_open(ifindex, mirror, port);
	if (fd < 0)
		return fd;
	wt.fd = fd;
	wt.ifindex = ifindex;
	wt.mirror = mirror;
	wt.port = port;
	wt.on = true;
	wiretap_begin();
	return 0;
}

/**
 * wiretap_close - close the tap's socket: the next start begins afresh
 */
void wiretap_close(void)
{
	if (wt.fd >= 0)
		close(wt.fd);
	wt.fd = -1;
	wt.on = false;
}

/**
 * wiretap_stop - end the measurement and say what the tap saw
 * @res: requests paired, their summed and median time, the same of the
 *       replies' time in the qdisc, what was left
 *
 * The socket stays open, following the streams for the next start.
 *
 * Return: 0, -ENOENT if no measurement runs, or -errno.
 */
int wiretap_stop(struct wiretap_result *res)
{
	int err;

	if (!wt.on)
		return -ENOENT;
	wt.on = false;
	err = wt_read(&wt.res.dropped);
	if (err) {
		wiretap_close();
		return err;
	}
	wiretap_end(res);
	return 0;
}

/**
 * wiretap_end - what the frames since wiretap_begin() add up to
 * @res: requests paired, their summed and median time, the same of the
 *       replies' time in the qdisc, what was left
 *       unpaired (calls still waiting count now); @res->dropped is the
 *       socket's business
 */
void wiretap_end(struct wiretap_result *res)
{
	unsigned int i;

	for (i = 0; i < WT_PENDING; i++) {
		wt.res.unmatched += wt.pending[i].waiting;
		wt.pending[i].waiting = false;
	}
	wt.res.sum_us = wt.sum_ns / 1000;
	wt.res.median_us = wt_median_us(wt.samples, wt.res.requests);
	wt.res.hold_sum_us = wt.hold_sum_ns / 1000;
	wt.res.hold_median_us = wt_median_us(wt.holds, wt.res.held);
	*res = wt.res;
}
