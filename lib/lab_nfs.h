/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NFS for every side of the lab: knfsd's counters from /proc/net/rpc/nfsd
 * (the server counts every operation it executes, so deltas taken around
 * one call on an otherwise idle mount are the calls that call cost), by
 * number and by name, and the options of the lab's NFS mounts. labctl
 * (the server guest), labcase (the client guest) and the guest tests use
 * it; header-only, as every file of lib/.
 *
 * /proc/net/rpc/nfsd has "proc3 22 N0 .. N21" (RFC 1813 procedure order),
 * "proc4 2 NULL COMPOUND" and "proc4ops 76 N0 .. N75", indexed by NFSv4
 * operation number (include/linux/nfs4.h; 0..2 are unused).
 */
#ifndef LAB_NFS_H
#define LAB_NFS_H

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lab_optin.h"

/* NFSv3 procedures 0..21 and NFSv4 operations 3..75 (REMOVEXATTR). */
#define NFSD_V3_PROCS 22
#define NFSD_V4_OPS 76

/* NFSv4 operation numbers (RFC 7862 / include/linux/nfs4.h) */
enum {
	OP4_ACCESS = 3, OP4_GETATTR = 9, OP4_LOOKUP = 15, OP4_PUTFH = 22,
	OP4_READDIR = 26, OP4_SEQUENCE = 53, OP4_MAX = NFSD_V4_OPS - 1,
};

/* NFSv3 procedure numbers (RFC 1813) */
enum {
	P3_GETATTR = 1, P3_LOOKUP = 3, P3_ACCESS = 4, P3_READDIR = 16,
	P3_READDIRPLUS = 17, P3_MAX = NFSD_V3_PROCS - 1,
};

struct nfsd_counts {
	uint64_t v3[NFSD_V3_PROCS];
	uint64_t v4null;
	uint64_t compound;
	uint64_t op[NFSD_V4_OPS];
};

/* clang-format off */
static const char *const nfsd_v3_names[NFSD_V3_PROCS] = {
	"NULL", "GETATTR", "SETATTR", "LOOKUP", "ACCESS", "READLINK", "READ",
	"WRITE", "CREATE", "MKDIR", "SYMLINK", "MKNOD", "REMOVE", "RMDIR",
	"RENAME", "LINK", "READDIR", "READDIRPLUS", "FSSTAT", "FSINFO",
	"PATHCONF", "COMMIT",
};

static const char *const nfsd_v4_names[NFSD_V4_OPS] = {
	[3] = "ACCESS", "CLOSE", "COMMIT", "CREATE", "DELEGPURGE",
	"DELEGRETURN", "GETATTR", "GETFH", "LINK", "LOCK", "LOCKT", "LOCKU",
	"LOOKUP", "LOOKUPP", "NVERIFY", "OPEN", "OPENATTR", "OPEN_CONFIRM",
	"OPEN_DOWNGRADE", "PUTFH", "PUTPUBFH", "PUTROOTFH", "READ", "READDIR",
	"READLINK", "REMOVE", "RENAME", "RENEW", "RESTOREFH", "SAVEFH",
	"SECINFO", "SETATTR", "SETCLIENTID", "SETCLIENTID_CONFIRM", "VERIFY",
	"WRITE", "RELEASE_LOCKOWNER",
	[40] = "BACKCHANNEL_CTL", "BIND_CONN_TO_SESSION", "EXCHANGE_ID",
	"CREATE_SESSION", "DESTROY_SESSION", "FREE_STATEID",
	"GET_DIR_DELEGATION", "GETDEVICEINFO", "GETDEVICELIST",
	"LAYOUTCOMMIT", "LAYOUTGET", "LAYOUTRETURN", "SECINFO_NO_NAME",
	"SEQUENCE", "SET_SSV", "TEST_STATEID", "WANT_DELEGATION",
	"DESTROY_CLIENTID", "RECLAIM_COMPLETE",
	[59] = "ALLOCATE", "COPY", "COPY_NOTIFY", "DEALLOCATE", "IO_ADVISE",
	"LAYOUTERROR", "LAYOUTSTATS", "OFFLOAD_CANCEL", "OFFLOAD_STATUS",
	"READ_PLUS", "SEEK", "WRITE_SAME", "CLONE", "GETXATTR", "SETXATTR",
	"LISTXATTRS", "REMOVEXATTR",
};
/* clang-format on */

/* "NAME COUNT V0 V1 ...": exactly @n values, or -EINVAL. */
static inline int nfsd_fields(const char *line, uint64_t *v, unsigned int n)
{
	const char *p = strchr(line, ' ');
	unsigned int i;
	char *end;

	if (!p || strtoul(p, &end, 10) != n)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (*end != ' ' || !isdigit((unsigned char)end[1]))
			return -EINVAL;
		v[i] = strtoull(end, &end, 10);
	}
	return *end == '\n' || *end == '\0' ? 0 : -EINVAL;
}

/**
 * nfsd_read - read knfsd's counters
 * @c: filled in; counters of a version the server does not run stay 0
 *
 * Return: 0, or -errno when the file is missing or a line is malformed.
 */
static inline int nfsd_read(struct nfsd_counts *c)
{
	uint64_t v4[2];
	char line[2048];
	int err = 0;
	FILE *f;

	memset(c, 0, sizeof(*c));
	f = fopen("/proc/net/rpc/nfsd", "re");
	if (!f)
		return -errno;
	while (!err && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "proc3 ", 6))
			err = nfsd_fields(line, c->v3, NFSD_V3_PROCS);
		else if (!strncmp(line, "proc4ops ", 9))
			err = nfsd_fields(line, c->op, NFSD_V4_OPS);
		else if (!strncmp(line, "proc4 ", 6))
			err = nfsd_fields(line, v4, 2);
		else
			continue;
		if (!err && !strncmp(line, "proc4 ", 6)) {
			c->v4null = v4[0];
			c->compound = v4[1];
		}
	}
	fclose(f);
	return err;
}

/* @d = @after - @before, counter by counter */
static inline void nfsd_delta(struct nfsd_counts *d,
			      const struct nfsd_counts *before,
			      const struct nfsd_counts *after)
{
	unsigned int i;

	for (i = 0; i < NFSD_V3_PROCS; i++)
		d->v3[i] = after->v3[i] - before->v3[i];
	for (i = 0; i < NFSD_V4_OPS; i++)
		d->op[i] = after->op[i] - before->op[i];
	d->v4null = after->v4null - before->v4null;
	d->compound = after->compound - before->compound;
}

#ifdef ASSERT_EQ
/*
 * For the guest tests (kselftest_harness.h first): the server's counters
 * around @call, the difference into *@d.
 */
#define NFSD_MEASURE(d, call)						\
	do {								\
		struct nfsd_counts b_, a_;				\
		ASSERT_EQ(0, lab_nfsd_read(&b_));			\
		call;							\
		ASSERT_EQ(0, lab_nfsd_read(&a_));			\
		lab_nfsd_delta(d, &b_, &a_);				\
	} while (0)
#endif

/* For the guest tests: 0, or -1 when the counters cannot be read. */
static inline int lab_nfsd_read(struct nfsd_counts *c)
{
	return nfsd_read(c) ? -1 : 0;
}

#define lab_nfsd_delta nfsd_delta

/*
 * The options of every lab NFS mount: the case's @opts, then TCP, a
 * cache of its own (nosharecache), for NFSv3 no lock manager (and with
 * @addr, for mount(2), the MOUNT protocol over TCP), and the series'
 * cached-ACCESS window when the kernel was booted with lab.optin=N.
 * Return: what snprintf() returns.
 */
static inline int lab_nfs_opts(char *buf, size_t size, const char *opts,
			       bool v3, const char *addr)
{
	char optin[48] = "", at[64] = "";
	unsigned int secs = lab_optin_seconds();

	if (secs && !strstr(opts, "statx_cached_access="))
		snprintf(optin, sizeof(optin), ",statx_cached_access=%u", secs);
	if (addr)
		snprintf(at, sizeof(at), "%saddr=%s", *opts ? "," : "", addr);
	return snprintf(buf, size, "%s%s,proto=tcp,nosharecache%s%s%s", opts,
			at, v3 ? ",nolock" : "",
			v3 && addr ? ",mountproto=tcp" : "", optin);
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

/* Mount 127.0.0.1:@export on @mnt with @opts, as every lab mount. */
static inline int lab_nfs_mount(const char *export, const char *mnt,
				const char *opts)
{
	char src[256], o[320];
	const char *const argv[] = { "/sbin/mount.nfs", src, mnt, "-o", o,
				     NULL };

	snprintf(src, sizeof(src), "127.0.0.1:%s", export);
	lab_nfs_opts(o, sizeof(o), opts, strstr(opts, "vers=3"), NULL);
	return lab_run(argv);
}

#endif /* LAB_NFS_H */
