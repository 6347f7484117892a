/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFS_LAB_MIRROR_H
#define NFS_LAB_MIRROR_H

int mirror_egress(const char *ifname, const char *name, const char **step);

#endif /* NFS_LAB_MIRROR_H */
