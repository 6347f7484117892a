/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFS_LAB_MIRROR_H
#define NFS_LAB_MIRROR_H

#include <stddef.h>

int mirror_egress(const char *ifname, const char *name, char *why,
		  size_t size);

#endif /* NFS_LAB_MIRROR_H */
