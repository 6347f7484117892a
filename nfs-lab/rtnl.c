// SPDX-License-Identifier: GPL-2.0
/*
 * rtnetlink requests for the lab interface's traffic control (netem.c,
 * mirror.c): busybox's tc and ip know neither netem nor tc actions, and
 * iproute2 would bring five libraries into the initramfs for a handful
 * of messages. Each request is acknowledged or refused by the kernel.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "rtnl.h"

/* The kernel's own words on the last refusal (extended ack), or "". */
static char rtnl_msg[256];

/* Where the next attribute goes. */
static struct rtattr *rtnl_tail(struct rtnl_req *r)
{
	return (void *)((char *)r + NLMSG_ALIGN(r->n.nlmsg_len));
}

/**
 * rtnl_start - begin a request
 * @r: the request, overwritten
 * @type: RTM_NEWQDISC, RTM_NEWLINK, ...
 * @flags: NLM_F_* beside NLM_F_REQUEST and NLM_F_ACK
 * @fixed: the size of the fixed part after the header
 *
 * Return: the fixed part, zeroed, for the caller to fill in.
 */
void *rtnl_start(struct rtnl_req *r, unsigned short type,
		 unsigned short flags, size_t fixed)
{
	memset(r, 0, sizeof(*r));
	r->n.nlmsg_len = NLMSG_LENGTH(fixed);
	r->n.nlmsg_type = type;
	r->n.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	return NLMSG_DATA(&r->n);
}

/*
 * Append an attribute. The requests are built from constants of this
 * program that fit the buffer many times over: overflowing it is a bug.
 */
void rtnl_attr(struct rtnl_req *r, unsigned short type, const void *data,
	       unsigned short len)
{
	struct rtattr *rta = rtnl_tail(r);

	if (NLMSG_ALIGN(r->n.nlmsg_len) + RTA_SPACE(len) > sizeof(*r))
		__builtin_trap();
	rta->rta_type = type;
	rta->rta_len = RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(rta), data, len);
	r->n.nlmsg_len = NLMSG_ALIGN(r->n.nlmsg_len) + RTA_ALIGN(rta->rta_len);
}

void rtnl_attr_str(struct rtnl_req *r, unsigned short type, const char *s)
{
	rtnl_attr(r, type, s, strlen(s) + 1);
}

/* Open a nested attribute: what follows goes inside until its end. */
struct rtattr *rtnl_nest(struct rtnl_req *r, unsigned short type)
{
	struct rtattr *nest = rtnl_tail(r);

	rtnl_attr(r, type | NLA_F_NESTED, NULL, 0);
	return nest;
}

void rtnl_nest_end(struct rtnl_req *r, struct rtattr *nest)
{
	nest->rta_len = (char *)rtnl_tail(r) - (char *)nest;
}

/*
 * Keep the message of an extended ack (NLMSGERR_ATTR_MSG): with the
 * request capped (NETLINK_CAP_ACK), its attributes follow the header.
 */
static void rtnl_keep_why(const struct nlmsghdr *h)
{
	const struct nlmsgerr *e = NLMSG_DATA(h);
	const char *p = (const char *)(e + 1);
	const char *end = (const char *)h + h->nlmsg_len;
	const struct nlattr *a;

	if (!(h->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	while (p + NLA_HDRLEN <= end) {
		a = (const void *)p;
		if (a->nla_len < NLA_HDRLEN || p + a->nla_len > end)
			return;
		if ((a->nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_MSG) {
			snprintf(rtnl_msg, sizeof(rtnl_msg), "%.*s",
				 (int)(a->nla_len - NLA_HDRLEN),
				 p + NLA_HDRLEN);
			return;
		}
		p += NLA_ALIGN(a->nla_len);
	}
}

/* A socket that gets the kernel's reasons with its refusals. */
static int rtnl_socket(void)
{
	int one = 1;
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);

	if (fd < 0)
		return -errno;
	/* Both optional: without them a refusal is only its errno. */
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	return fd;
}

/**
 * rtnl_talk - send @r and wait for the kernel's acknowledgement
 * @r: a request from rtnl_start()
 *
 * Return: 0 or the kernel's -errno; rtnl_why() then says what it said.
 */
int rtnl_talk(struct rtnl_req *r)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	char reply[1024];
	struct nlmsghdr *h = (void *)reply;
	struct nlmsgerr *e;
	ssize_t n;
	int fd, err;

	rtnl_msg[0] = '\0';
	fd = rtnl_socket();
	if (fd < 0)
		return fd;
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
	if (err)
		rtnl_keep_why(h);
out_close:
	close(fd);
	return err;
}

/* The kernel's message on the last refusal, "" if it gave none. */
const char *rtnl_why(void)
{
	return rtnl_msg;
}
