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

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

#endif /* FC_FUSE_ABI_H */
