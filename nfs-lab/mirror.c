// SPDX-License-Identifier: GPL-2.0
/*
 * mirror - a copy of every frame an interface sends, taken as its root
 * qdisc (netem) is handed the frame, sent out of a dummy device where
 * the tap (wiretap.c) stamps it. Through rtnetlink (rtnl.c), this is
 *   ip link add NAME up type dummy
 *   tc qdisc add dev IFACE clsact
 *   tc filter add dev IFACE egress matchall \
 *           action mirred egress mirror dev NAME pipe
 * clsact's egress hook runs in __dev_queue_xmit() just before the root
 * qdisc's enqueue, and mirred hands its copy to the dummy device there
 * and then; the dummy has no queue, so the tap sees the copy at once.
 * The frame itself goes on to netem unchanged.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>

#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/pkt_cls.h>
#include <linux/pkt_sched.h>
#include <linux/tc_act/tc_mirred.h>

#include "mirror.h"
#include "rtnl.h"

/* A dummy device @name, up: 0 or -errno. */
static int mirror_dummy(const char *name)
{
	struct rtnl_req r;
	struct ifinfomsg *i;
	struct rtattr *info;

	i = rtnl_start(&r, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL,
		       sizeof(*i));
	i->ifi_flags = IFF_UP;
	i->ifi_change = IFF_UP;
	rtnl_attr_str(&r, IFLA_IFNAME, name);
	info = rtnl_nest(&r, IFLA_LINKINFO);
	rtnl_attr_str(&r, IFLA_INFO_KIND, "dummy");
	rtnl_nest_end(&r, info);
	return rtnl_talk(&r);
}

/* clsact on @ifindex: the hook the filter hangs on. */
static int mirror_clsact(unsigned int ifindex)
{
	struct rtnl_req r;
	struct tcmsg *t;

	t = rtnl_start(&r, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_EXCL,
		       sizeof(*t));
	t->tcm_ifindex = ifindex;
	t->tcm_parent = TC_H_CLSACT;
	t->tcm_handle = TC_H_MAKE(TC_H_CLSACT, 0);
	rtnl_attr_str(&r, TCA_KIND, "clsact");
	return rtnl_talk(&r);
}

/* Every frame @ifindex sends, mirrored to @to; the frame goes on. */
static int mirror_filter(unsigned int ifindex, unsigned int to)
{
	struct tc_mirred m = {
		.action = TC_ACT_PIPE,
		.eaction = TCA_EGRESS_MIRROR,
		.ifindex = to,
	};
	struct rtattr *opts, *acts, *act, *aopts;
	struct rtnl_req r;
	struct tcmsg *t;

	t = rtnl_start(&r, RTM_NEWTFILTER, NLM_F_CREATE | NLM_F_EXCL,
		       sizeof(*t));
	t->tcm_ifindex = ifindex;
	t->tcm_parent = TC_H_MAKE(TC_H_CLSACT, TC_H_MIN_EGRESS);
	/* priority 1, every protocol */
	t->tcm_info = TC_H_MAKE(1 << 16, htons(ETH_P_ALL));
	rtnl_attr_str(&r, TCA_KIND, "matchall");
	opts = rtnl_nest(&r, TCA_OPTIONS);
	acts = rtnl_nest(&r, TCA_MATCHALL_ACT);
	act = rtnl_nest(&r, 1); /* the first action */
	rtnl_attr_str(&r, TCA_ACT_KIND, "mirred");
	aopts = rtnl_nest(&r, TCA_ACT_OPTIONS);
	rtnl_attr(&r, TCA_MIRRED_PARMS, &m, sizeof(m));
	rtnl_nest_end(&r, aopts);
	rtnl_nest_end(&r, act);
	rtnl_nest_end(&r, acts);
	rtnl_nest_end(&r, opts);
	return rtnl_talk(&r);
}

/**
 * mirror_egress - mirror what @ifname sends to a new dummy device @name
 * @ifname: the interface netem delays
 * @name: the dummy device to create
 * @step: set, on failure, to the step that failed and the kernel
 *        options it needs
 *
 * Return: @name's ifindex, or -errno.
 */
int mirror_egress(const char *ifname, const char *name, const char **step)
{
	unsigned int ifindex = if_nametoindex(ifname), to;
	int err;

	*step = "the lab interface";
	if (!ifindex)
		return -errno;
	*step = "a dummy device (CONFIG_DUMMY)";
	err = mirror_dummy(name);
	if (err)
		return err;
	to = if_nametoindex(name);
	if (!to)
		return -errno;
	*step = "a clsact qdisc (CONFIG_NET_SCH_INGRESS)";
	err = mirror_clsact(ifindex);
	if (err)
		return err;
	*step = "a matchall filter, a mirred action (CONFIG_NET_CLS_MATCHALL, CONFIG_NET_ACT_MIRRED)";
	err = mirror_filter(ifindex, to);
	return err ? err : (int)to;
}
