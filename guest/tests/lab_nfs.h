/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Guest-side helpers for NFS tests: knfsd's counters from
 * /proc/net/rpc/nfsd, and NFS mounts of a server directory.
 *
 * The server counts every operation it executes, so deltas taken around
 * one call on an otherwise idle mount are the calls that call cost.
 */
#ifndef LAB_NFS_H
#define LAB_NFS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lab_optin.h"

/* NFSv4 operation numbers (RFC 7862 / include/linux/nfs4.h) */
enum {
	OP4_ACCESS = 3, OP4_GETATTR = 9, OP4_LOOKUP = 15, OP4_PUTFH = 22,
	OP4_READDIR = 26, OP4_SEQUENCE = 53, OP4_MAX = 80,
};

/* NFSv3 procedure numbers (RFC 1813) */
enum {
	P3_GETATTR = 1, P3_LOOKUP = 3, P3_ACCESS = 4, P3_READDIR = 16,
	P3_READDIRPLUS = 17, P3_MAX = 22,
};

struct nfsd_counts {
	unsigned long v3[P3_MAX + 1];
	unsigned long compound;
	unsigned long op[OP4_MAX + 1];
};

/* Read the fields of a "proc3"/"proc4ops" line: "name count v0 v1 ..." */
static inline void lab_nfsd_fields(const char *line, unsigned long *v,
				   int max)
{
	const char *p = strchr(line, ' ');
	char *end;
	int i;

	if (!p)
		return;
	strtoul(p, &end, 10);		/* the number of fields */
	for (i = 0; i <= max && *end; i++) {
		v[i] = strtoul(end, &end, 10);
		if (*end == '\n')
			break;
	}
}

static inline int lab_nfsd_read(struct nfsd_counts *c)
{
	FILE *f = fopen("/proc/net/rpc/nfsd", "r");
	char line[4096];

	memset(c, 0, sizeof(*c));
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "proc3 ", 6))
			lab_nfsd_fields(line, c->v3, P3_MAX);
		else if (!strncmp(line, "proc4ops ", 9))
			lab_nfsd_fields(line, c->op, OP4_MAX);
		else if (!strncmp(line, "proc4 ", 6))
			sscanf(line, "proc4 %*u %*u %lu", &c->compound);
	}
	fclose(f);
	return 0;
}

/* after - before, field by field */
static inline void lab_nfsd_delta(struct nfsd_counts *d,
				  const struct nfsd_counts *before,
				  const struct nfsd_counts *after)
{
	int i;

	for (i = 0; i <= P3_MAX; i++)
		d->v3[i] = after->v3[i] - before->v3[i];
	for (i = 0; i <= OP4_MAX; i++)
		d->op[i] = after->op[i] - before->op[i];
	d->compound = after->compound - before->compound;
}

/* Run argv, quietly; its exit status, or -1. */
static inline int lab_run(const char *const argv[])
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * Mount 127.0.0.1:@export on @mnt with @opts (nosharecache: own caches),
 * and with statx_cached_access=N if the kernel has lab.optin=N.
 */
static inline int lab_nfs_mount(const char *export, const char *mnt,
				const char *opts)
{
	char src[256], o[256], optin[48] = "";
	const char *const argv[] = { "/sbin/mount.nfs", src, mnt, "-o", o,
				     NULL };
	unsigned int secs = lab_optin_seconds();

	if (secs && !strstr(opts, "statx_cached_access="))
		snprintf(optin, sizeof(optin), ",statx_cached_access=%u", secs);
	snprintf(src, sizeof(src), "127.0.0.1:%s", export);
	snprintf(o, sizeof(o), "%s,proto=tcp,nosharecache%s%s", opts,
		 strstr(opts, "vers=3") ? ",nolock" : "", optin);
	return lab_run(argv);
}

#endif /* LAB_NFS_H */
