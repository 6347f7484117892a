/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The series' permission opt-ins are per mount: NFS has the mount option
 * statx_cached_access=N, FUSE the control file statx_cached_perm of each
 * connection (fusectl), both in seconds past the attribute timeout. The
 * lab's "optin" kernel is the patched kernel booted with lab.optin=N on
 * its command line: every NFS and FUSE mount the guest tools make then
 * turns the opt-in on for N seconds. Stock and patched have no lab.optin.
 */
#ifndef LAB_OPTIN_H
#define LAB_OPTIN_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/statfs.h>
#include <unistd.h>

#define LAB_FUSECTL		"/sys/fs/fuse/connections"
#define LAB_FUSECTL_MAGIC	0x65735543

/* lab.optin=N from the kernel command line: N seconds, or 0. */
static inline unsigned int lab_optin_seconds(void)
{
	char line[1024];
	const char *p;
	FILE *f = fopen("/proc/cmdline", "r");
	unsigned int secs = 0;

	if (!f)
		return 0;
	if (fgets(line, sizeof(line), f)) {
		p = strstr(line, "lab.optin=");
		if (p)
			secs = strtoul(p + strlen("lab.optin="), NULL, 10);
	}
	fclose(f);
	return secs;
}

/* Mount the fuse control filesystem, unless it is there already. */
static inline int lab_fusectl_mount(void)
{
	struct statfs sf;

	if (!statfs(LAB_FUSECTL, &sf) && sf.f_type == LAB_FUSECTL_MAGIC)
		return 0;
	return mount("fusectl", LAB_FUSECTL, "fusectl", 0, NULL);
}

/*
 * The device minor of the mount on @mnt, from /proc/self/mountinfo: a
 * stat() of the mount would send the daemon a request of its own.
 */
static inline int lab_mount_minor(const char *mnt, unsigned int *minor)
{
	char line[1024], point[512];
	unsigned int maj, min;
	FILE *f = fopen("/proc/self/mountinfo", "r");
	int found = 0;

	if (!f)
		return -1;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*u %*u %u:%u %*s %511s", &maj, &min,
			   point) == 3 && !strcmp(point, mnt)) {
			*minor = min;
			found = 1;
		}
	fclose(f);
	return found ? 0 : -1;
}

/*
 * Write @secs to statx_cached_perm of the FUSE connection behind @mnt
 * (its directory in fusectl is named after the mount's device minor).
 */
static inline int lab_fuse_cached_perm(const char *mnt, unsigned int secs)
{
	char path[128], val[16];
	unsigned int min;
	int fd, len, ok;

	if (lab_mount_minor(mnt, &min) || lab_fusectl_mount())
		return -1;
	snprintf(path, sizeof(path), LAB_FUSECTL "/%u/statx_cached_perm",
		 min);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	len = snprintf(val, sizeof(val), "%u\n", secs);
	ok = write(fd, val, len) == len;
	close(fd);
	return ok ? 0 : -1;
}

/* Turn the FUSE opt-in on for @mnt if the kernel has lab.optin=N. */
static inline int lab_fuse_optin(const char *mnt)
{
	unsigned int secs = lab_optin_seconds();

	return secs ? lab_fuse_cached_perm(mnt, secs) : 0;
}

#endif /* LAB_OPTIN_H */
