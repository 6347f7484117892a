// SPDX-License-Identifier: GPL-2.0
/*
 * A netem root qdisc on one interface, set through rtnetlink (rtnl.c).
 * Equivalent to
 *   tc qdisc replace dev IFACE root netem delay MS ms   (MS > 0)
 *   tc qdisc del dev IFACE root                          (MS == 0)
 */
#include <errno.h>
#include <net/if.h>

#include <linux/pkt_sched.h>

#include "netem.h"
#include "rtnl.h"

/**
 * netem_set - delay every packet leaving @ifname by @delay_ms
 * @ifname: the interface
 * @delay_ms: 0 removes the qdisc (back to the default)
 *
 * Return: 0 or -errno.
 */
int netem_set(const char *ifname, unsigned int delay_ms)
{
	struct tc_netem_qopt q = { .limit = 1000 };
	unsigned int ifindex = if_nametoindex(ifname);
	struct rtnl_req r;
	struct tcmsg *t;
	int err;

	if (!ifindex)
		return -errno;
	if (!delay_ms) {
		t = rtnl_start(&r, RTM_DELQDISC, 0, sizeof(*t));
		t->tcm_ifindex = ifindex;
		t->tcm_parent = TC_H_ROOT;
		err = rtnl_talk(&r);
		/* No qdisc of ours to delete: the default is in place. */
		return err == -ENOENT ? 0 : err;
	}
	t = rtnl_start(&r, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_REPLACE,
		       sizeof(*t));
	t->tcm_ifindex = ifindex;
	t->tcm_parent = TC_H_ROOT;
	rtnl_attr_str(&r, TCA_KIND, "netem");
	/* The kernel reads latency in psched ticks of 64 ns (PSCHED_SHIFT). */
	q.latency = (unsigned long long)delay_ms * 1000000 >> 6;
	rtnl_attr(&r, TCA_OPTIONS, &q, sizeof(q));
	return rtnl_talk(&r);
}
