/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fusecount: the libfuse API version every file compiles against and the
 * kernel's FUSE uapi.  linux/fuse.h is the patched kernel's header, copied
 * into the build directory by the Makefile: it must describe FUSE 7.39
 * (FUSE_STATX).  Every other header of the daemon starts from this one.
 */
#ifndef FC_FUSE_ABI_H
#define FC_FUSE_ABI_H

#define FUSE_USE_VERSION 312

#include <fuse_lowlevel.h>
#include <linux/fuse.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if FUSE_KERNEL_MINOR_VERSION < 39
#error "linux/fuse.h is older than FUSE 7.39 and has no FUSE_STATX"
#endif

/*
 * The change cookie extension of FUSE_STATX (patched 6.12 kernels): the
 * INIT flag FUSE_STATX_CHANGE_COOKIE, STATX_CHANGE_COOKIE in sx_mask and
 * in fuse_statx.mask, the cookie in fuse_statx.change_cookie at 0xc0,
 * where struct statx has stx_change_cookie (older headers: __spare2[6];
 * libc's struct statx: padding).  A header without it (6.1's, or stock
 * 6.12's) gets the names here; fc_sx_cookie() reaches the field with
 * either.
 */
#ifndef STATX_CHANGE_COOKIE
#define STATX_CHANGE_COOKIE		0x40000000U
#endif
#ifndef STATX_ATTR_CHANGE_MONOTONIC
#define STATX_ATTR_CHANGE_MONOTONIC	0x8000000000000000ULL
#endif
#ifndef FUSE_STATX_CHANGE_COOKIE
#define FUSE_STATX_CHANGE_COOKIE	(1ULL << 62)
#define FC_SX_COOKIE_FIELD		__spare2[6]
#else
#define FC_SX_COOKIE_FIELD		change_cookie
#endif
#define FC_STX_CHANGE_COOKIE_OFF	0xc0
/* The series' stx_time_gran (STATX_TIME_GRAN): timestamp granularity */
#ifndef STATX_TIME_GRAN
#define STATX_TIME_GRAN			0x20000000U
#endif
#define FC_STX_TIME_GRAN_OFF		0xc8

static inline uint64_t *fc_sx_cookie(struct fuse_statx *sx)
{
	return &sx->FC_SX_COOKIE_FIELD;
}

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

#endif /* FC_FUSE_ABI_H */
