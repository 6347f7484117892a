/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFS_LAB_RTNL_H
#define NFS_LAB_RTNL_H

#include <linux/netlink.h>
#include <linux/rtnetlink.h>

/*
 * One rtnetlink request: its header, a fixed part (tcmsg or ifinfomsg)
 * and its attributes, nested ones included.
 */
struct rtnl_req {
	struct nlmsghdr n;
	char body[512];
};

void *rtnl_start(struct rtnl_req *r, unsigned short type,
		 unsigned short flags, size_t fixed);
void rtnl_attr(struct rtnl_req *r, unsigned short type, const void *data,
	       unsigned short len);
void rtnl_attr_str(struct rtnl_req *r, unsigned short type, const char *s);
struct rtattr *rtnl_nest(struct rtnl_req *r, unsigned short type);
void rtnl_nest_end(struct rtnl_req *r, struct rtattr *nest);
int rtnl_talk(struct rtnl_req *r);
const char *rtnl_why(void);

#endif /* NFS_LAB_RTNL_H */
