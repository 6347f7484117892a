/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The name of an errno value ("ENOENT"), the lab's one source of them:
 * glibc's strerrorname_np(3), then the kernel-internal codes glibc does
 * not know, then "E<number>".  nfs-lab and bench include this header.
 */
#ifndef LAB_ERRNAME_H
#define LAB_ERRNAME_H

#include <stdio.h>
#include <string.h>

/*
 * include/linux/errno.h: codes that must never reach user space, but
 * NFS has leaked some before, and that is what this lab hunts for.
 */
static inline const char *lab_kernel_errname(int err)
{
	static const char *const names[] = {
		[512 - 512] = "ERESTARTSYS",	[518 - 512] = "EOPENSTALE",
		[521 - 512] = "EBADHANDLE",	[522 - 512] = "ENOTSYNC",
		[523 - 512] = "EBADCOOKIE",	[524 - 512] = "ENOTSUPP",
		[525 - 512] = "ETOOSMALL",	[526 - 512] = "ESERVERFAULT",
		[527 - 512] = "EBADTYPE",	[528 - 512] = "EJUKEBOX",
	};
	unsigned int i = (unsigned int)err - 512;

	return i < sizeof(names) / sizeof(names[0]) ? names[i] : NULL;
}

/* The name, or NULL for a value without one. */
static inline const char *lab_errname(int err)
{
	const char *name = strerrorname_np(err);

	return name ? name : lab_kernel_errname(err);
}

/* The name, or "E<number>" for a value without one. */
static inline void lab_errlabel(int err, char *buf, size_t len)
{
	const char *name = lab_errname(err);

	if (name)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "E%d", err);
}

#endif /* LAB_ERRNAME_H */
