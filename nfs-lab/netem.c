// SPDX-License-Identifier: GPL-2.0
/*
 * A netem root qdisc on one interface, set through rtnetlink: busybox tc
 * knows no netem, and iproute2's tc would bring five libraries into the
 * initramfs for one message. Equivalent to
 *   tc qdisc replace dev IFACE root netem delay MS ms   (MS > 0)
 *   tc qdisc del dev IFACE root                          (MS == 0)
 */
#include <errno.h>
#include <net/if.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

#include "netem.h"

struct netem_req {
	struct nlmsghdr n;
	struct tcmsg t;
	char attrs[128];
};

static void netem_attr(struct netem_req *r, unsigned short type,
		       const void *data, unsigned short len)
{
	struct rtattr *rta = (void *)((char *)r + NLMSG_ALIGN(r->n.nlmsg_len));

	rta->rta_type = type;
	rta->rta_len = RTA_LENGTH(len);
	memcpy(RTA_DATA(rta), data, len);
	r->n.nlmsg_len = NLMSG_ALIGN(r->n.nlmsg_len) + RTA_ALIGN(rta->rta_len);
}

/* Send @r and wait for the kernel's acknowledgement: 0 or -errno. */
static int netem_talk(struct netem_req *r)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	char reply[1024];
	struct nlmsghdr *h = (void *)reply;
	struct nlmsgerr *e;
	ssize_t n;
	int fd, err;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	err = -EIO;
	if (sendto(fd, r, r->n.nlmsg_len, 0, (struct sockaddr *)&sa,
		   sizeof(sa)) != (ssize_t)r->n.nlmsg_len)
		goto out_close;
	n = recv(fd, reply, sizeof(reply), 0);
	if (n < (ssize_t)NLMSG_LENGTH(sizeof(*e)) || !NLMSG_OK(h, (size_t)n) ||
	    h->nlmsg_type != NLMSG_ERROR)
		goto out_close;
	e = NLMSG_DATA(h);
	err = e->error;
out_close:
	close(fd);
	return err;
}

/**
 * netem_set - delay every packet leaving @ifname by @delay_ms
 * @ifname: the interface
 * @delay_ms: 0 removes the qdisc (back to the default)
 *
 * Return: 0 or -errno.
 */
int netem_set(const char *ifname, unsigned int delay_ms)
{
	struct netem_req r = { 0 };
	struct tc_netem_qopt q = { .limit = 1000 };
	unsigned int ifindex = if_nametoindex(ifname);
	int err;

	if (!ifindex)
		return -errno;
	r.n.nlmsg_len = NLMSG_LENGTH(sizeof(r.t));
	r.n.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	r.t.tcm_family = AF_UNSPEC;
	r.t.tcm_ifindex = ifindex;
	r.t.tcm_parent = TC_H_ROOT;
	if (!delay_ms) {
		r.n.nlmsg_type = RTM_DELQDISC;
		err = netem_talk(&r);
		/* No qdisc of ours to delete: the default is in place. */
		return err == -ENOENT ? 0 : err;
	}
	r.n.nlmsg_type = RTM_NEWQDISC;
	r.n.nlmsg_flags |= NLM_F_CREATE | NLM_F_REPLACE;
	netem_attr(&r, TCA_KIND, "netem", sizeof("netem"));
	/* The kernel reads latency in psched ticks of 64 ns (PSCHED_SHIFT). */
	q.latency = (unsigned long long)delay_ms * 1000000 >> 6;
	netem_attr(&r, TCA_OPTIONS, &q, sizeof(q));
	return netem_talk(&r);
}
