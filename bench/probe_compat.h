/* SPDX-License-Identifier: GPL-2.0 */
/*
 * statx definitions that older headers may lack.
 *
 * glibc 2.36 only pulls the kernel's struct statx in when <linux/stat.h>
 * is installed; otherwise it uses its own copy, which stops at
 * stx_dev_minor and pads the rest.  The ABI is fixed either way, so the
 * newer fields are read at their uapi offsets (see probe_fmt.c).
 */
#ifndef PROBE_COMPAT_H
#define PROBE_COMPAT_H

#include <fcntl.h>
#include <sys/stat.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#endif

#ifndef STATX_BTIME
#define STATX_BTIME		0x00000800U
#endif
#ifndef STATX_ALL
#define STATX_ALL		0x00000fffU
#endif
#ifndef STATX_MNT_ID
#define STATX_MNT_ID		0x00001000U
#endif
#ifndef STATX_DIOALIGN
#define STATX_DIOALIGN		0x00002000U
#endif

/* The 6.12 series' change cookie and timestamp granularity */
#ifndef STATX_CHANGE_COOKIE
#define STATX_CHANGE_COOKIE	0x40000000U
#endif
#ifndef STATX_TIME_GRAN
#define STATX_TIME_GRAN		0x20000000U
#endif

#ifndef STATX_ATTR_MOUNT_ROOT
#define STATX_ATTR_MOUNT_ROOT	0x00002000
#endif
#ifndef STATX_ATTR_VERITY
#define STATX_ATTR_VERITY	0x00100000
#endif
#ifndef STATX_ATTR_DAX
#define STATX_ATTR_DAX		0x00200000
#endif

#ifndef STATX_ATTR_CHANGE_MONOTONIC
#define STATX_ATTR_CHANGE_MONOTONIC	0x8000000000000000ULL
#endif

#ifndef AT_STATX_SYNC_AS_STAT
#define AT_STATX_SYNC_TYPE	0x6000
#define AT_STATX_SYNC_AS_STAT	0x0000
#define AT_STATX_FORCE_SYNC	0x2000
#define AT_STATX_DONT_SYNC	0x4000
#endif

#endif /* PROBE_COMPAT_H */
