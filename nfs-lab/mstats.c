// SPDX-License-Identifier: GPL-2.0
/*
 * The NFS client's own counters for one mount, from /proc/self/mountstats
 * (fs/nfs/super.c nfs_show_stats, net/sunrpc/stats.c):
 *   "events:" the NFSIOS_* event counters (include/linux/nfs_iostat.h)
 *   "per-op statistics", then "NAME: ops trans timeouts bytes_sent
 *   bytes_recv queue rtt execute errors" per RPC procedure of this
 *   mount's RPC client: on NFSv4 one line per kind of COMPOUND the client
 *   sends, named after its main operation. rtt is the client kernel's
 *   own measure of each reply's round trip, from the request's
 *   transmission to the arrival of its reply (xprt_lookup_rqst),
 *   summed, in ms.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stdbool.h>

#include "mstats.h"

/* clang-format off */
const char *const mstats_event_names[MSTATS_EVENTS] = {
	"inoderevalidate", "dentryrevalidate", "datainvalidate",
	"attrinvalidate", "vfsopen", "vfslookup", "vfsaccess",
	"vfsupdatepage", "vfsreadpage", "vfsreadpages", "vfswritepage",
	"vfswritepages", "vfsgetdents", "vfssetattr", "vfsflush", "vfsfsync",
	"vfslock", "vfsrelease", "congestionwait", "setattrtrunc",
	"extendwrite", "sillyrename", "shortread", "shortwrite", "delay",
	"pnfsread", "pnfswrite",
};
/* clang-format on */

/* The next @n numbers of @s into @v; the end of the last, NULL if short. */
static const char *mstats_numbers(const char *s, uint64_t *v, unsigned int n)
{
	char *end;

	while (n--) {
		*v++ = strtoull(s, &end, 10);
		if (end == s)
			return NULL;
		s = end;
	}
	return s;
}

static int mstats_events(const char *s, struct mstats *m)
{
	return mstats_numbers(s, m->events, MSTATS_EVENTS) ? 0 : -EINVAL;
}

/* "        NAME: ops trans timeouts bytes_sent bytes_recv queue rtt ..." */
static int mstats_op(const char *s, struct mstats *m)
{
	struct mstats_op *op;
	uint64_t v[7];
	size_t len;

	s += strspn(s, " \t");
	len = strcspn(s, ":");
	if (!len || s[len] != ':' || len >= sizeof(op->name))
		return -EINVAL;
	if (m->nops == MSTATS_OPS)
		return -E2BIG;
	op = &m->op[m->nops++];
	memcpy(op->name, s, len);
	op->name[len] = '\0';
	if (!mstats_numbers(s + len + 1, v, 7))
		return -EINVAL;
	op->ops = v[0];
	op->trans = v[1];
	op->rtt_ms = v[6];
	return 0;
}

/**
 * mstats_read - the counters of the NFS mount on @mnt
 * @mnt: its mount point, as in /proc/self/mountinfo
 * @m: filled in
 *
 * Return: 0, -ENOENT if no NFS mount is there, -EINVAL if the file does
 * not read as expected.
 */
int mstats_read(const char *mnt, struct mstats *m)
{
	char want[128], *line = NULL;
	bool in = false, ops = false;
	int err = -ENOENT;
	size_t size = 0;
	FILE *f;

	memset(m, 0, sizeof(*m));
	snprintf(want, sizeof(want), " mounted on %s with fstype nfs", mnt);
	f = fopen("/proc/self/mountstats", "re");
	if (!f)
		return -errno;
	while (getline(&line, &size, f) > 0) {
		if (!strncmp(line, "device ", 7)) {
			if (in)
				break;
			in = strstr(line, want) != NULL;
			if (in)
				err = 0;
			continue;
		}
		if (!in || err)
			continue;
		if (!strncmp(line, "\tevents:", 8))
			err = mstats_events(line + 8, m);
		else if (!strncmp(line, "\tper-op statistics", 18))
			ops = true;
		else if (ops && line[0] == '\n')
			ops = false; /* the blank line ending the mount */
		else if (ops)
			err = mstats_op(line, m);
	}
	free(line);
	fclose(f);
	return err;
}
