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
 *
 * What it costs inside the span it times: the copy's own delivery to
 * the tap and, as the tap holds the copy until it is read, a private
 * copy of the reply's headers where eth0's checksum is filled in after
 * the qdisc; 37-49 us in all under TCG, measured without netem
 * (nfs-lab/t-guest/delay.t).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>

#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/pkt_cls.h>
#include <linux/pkt_sched.h>
#include <linux/tc_act/tc_mirred.h>

#include "mirror.h"
#include "rtnl.h"

/*
 * What an earlier labctl in this guest left: removed, so the set-up
 * starts from a known state (a device or qdisc that is not there is
 * no error).
 */
static void mirror_remove(unsigned int ifindex, const char *name)
{
	struct rtnl_req r;
	struct ifinfomsg *i;
	struct tcmsg *t;

	i = rtnl_start(&r, RTM_DELLINK, 0, sizeof(*i));
	rtnl_attr_str(&r, IFLA_IFNAME, name);
	rtnl_talk(&r);
	t = rtnl_start(&r, RTM_DELQDISC, 0, sizeof(*t));
	t->tcm_ifindex = ifindex;
	t->tcm_parent = TC_H_CLSACT;
	t->tcm_handle = TC_H_MAKE(TC_H_CLSACT, 0);
	rtnl_talk(&r);
}

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

/* Each step, with the kernel options it needs. */
static const char *const mirror_steps[] = {
	"a dummy device (CONFIG_DUMMY)",
	"a clsact qdisc (CONFIG_NET_SCH_INGRESS)",
	"a matchall filter with a mirred action (CONFIG_NET_CLS_MATCHALL, CONFIG_NET_ACT_MIRRED)",
};

/* The steps in order: 0, or -errno with *@step the one that failed. */
static int mirror_setup(unsigned int ifindex, const char *name,
			unsigned int *step)
{
	unsigned int to;
	int err;

	*step = 0;
	err = mirror_dummy(name);
	if (err)
		return err;
	to = if_nametoindex(name);
	if (!to)
		return -errno;
	*step = 1;
	err = mirror_clsact(ifindex);
	if (err)
		return err;
	*step = 2;
	err = mirror_filter(ifindex, to);
	return err ? err : (int)to;
}

/**
 * mirror_egress - mirror what @ifname sends to a new dummy device @name
 * @ifname: the interface netem delays
 * @name: the dummy device to create
 * @why: on failure, the step that failed, the kernel options it needs
 *       and the kernel's own message if it gave one
 * @size: @why's size
 *
 * A mirror left by an earlier call is replaced; a failed one removed.
 *
 * Return: @name's ifindex, or -errno.
 */
int mirror_egress(const char *ifname, const char *name, char *why,
		  size_t size)
{
	unsigned int ifindex = if_nametoindex(ifname), step;
	int ret;

	if (!ifindex) {
		ret = -errno;
		snprintf(why, size, "%s", ifname);
		return ret;
	}
	mirror_remove(ifindex, name);
	ret = mirror_setup(ifindex, name, &step);
	if (ret >= 0)
		return ret;
	snprintf(why, size, "%s%s%s", mirror_steps[step],
		 *rtnl_why() ? ": " : "", rtnl_why());
	/* No half mirror: the datapath stays as it was. */
	mirror_remove(ifindex, name);
	return ret;
}
