/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFS_LAB_NETEM_H
#define NFS_LAB_NETEM_H

int netem_set(const char *ifname, unsigned int delay_ms);

#endif /* NFS_LAB_NETEM_H */
