// SPDX-License-Identifier: GPL-2.0
/*
 * The client's readdir decisions, counted from its tracepoints. The
 * mountstats ops say what the client sent (READDIR or READDIRPLUS on
 * NFSv3; NFSv4 has one READDIR op with or without attributes); these say
 * why, on both versions:
 *   nfs_readdir_cache_fill    a readdir reply read into the page cache
 *   nfs_readdir_uncached      one read past it (a seek, a full cache)
 *   nfs_readdir_force_readdirplus
 *                             the "ls -l" heuristic saw enough attribute
 *                             misses, dropped the cached listing and
 *                             restarted it with attributes
 *   nfs_readdir_lookup, nfs_readdir_lookup_revalidate(_failed)
 *                             an entry that came with its attributes and
 *                             primed the dcache: the listing was "plus"
 * A kernel without CONFIG_FTRACE has no tracefs: the cases then carry no
 * "readdir" key, and the start says so once.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rdtrace.h"

#define RDT_DIR "/sys/kernel/tracing"
/* Per CPU: a cold listing of 10000 entries writes one event per entry. */
#define RDT_BUFFER_KB "8192"

static const char *const rdt_events[] = {
	"nfs_readdir_cache_fill", "nfs_readdir_uncached",
	"nfs_readdir_force_readdirplus", "nfs_readdir_lookup",
	"nfs_readdir_lookup_revalidate",
	"nfs_readdir_lookup_revalidate_failed",
};

static bool rdt_on;

static int rdt_write(const char *file, const char *text)
{
	char path[160];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), RDT_DIR "/%s", file);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -EIO;
}

/* Mount tracefs and turn the readdir events on: 0, or -errno. */
int rdtrace_start(void)
{
	char file[96];
	unsigned int i;
	int err;

	mkdir(RDT_DIR, 0755);
	if (access(RDT_DIR "/trace", F_OK) &&
	    mount("tracefs", RDT_DIR, "tracefs", 0, NULL))
		return -errno;
	err = rdt_write("buffer_size_kb", RDT_BUFFER_KB);
	for (i = 0; !err && i < sizeof(rdt_events) / sizeof(*rdt_events); i++) {
		snprintf(file, sizeof(file), "events/nfs/%s/enable",
			 rdt_events[i]);
		err = rdt_write(file, "1");
	}
	rdt_on = !err;
	return err;
}

/* Before the measured call: what the warm-up left is not its. */
void rdtrace_clear(void)
{
	if (rdt_on)
		rdt_write("trace", "");
}

static void rdt_count(struct rdtrace_counts *c, const char *line)
{
	unsigned long w, e;

	if (sscanf(line, "# entries-in-buffer/entries-written: %lu/%lu",
		   &e, &w) == 2)
		c->lost |= e != w;
	if (line[0] == '#')
		return;
	if (strstr(line, " nfs_readdir_cache_fill:"))
		c->fills++;
	else if (strstr(line, " nfs_readdir_uncached:"))
		c->uncached++;
	else if (strstr(line, " nfs_readdir_force_readdirplus:"))
		c->forced++;
	else if (strstr(line, " nfs_readdir_lookup:") ||
		 strstr(line, " nfs_readdir_lookup_revalidate:") ||
		 strstr(line, " nfs_readdir_lookup_revalidate_failed:"))
		c->primed++;
}

/* After it: 1 with @c filled, 0 when tracing is off, -errno. */
int rdtrace_read(struct rdtrace_counts *c)
{
	char line[512];
	FILE *f;

	memset(c, 0, sizeof(*c));
	if (!rdt_on)
		return 0;
	f = fopen(RDT_DIR "/trace", "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		rdt_count(c, line);
	fclose(f);
	return 1;
}

void rdtrace_json(FILE *f, const struct rdtrace_counts *c)
{
	fprintf(f, ",\"readdir\":{\"fills\":%lu,\"uncached\":%lu,"
		   "\"forced_plus\":%lu,\"primed\":%lu}",
		c->fills, c->uncached, c->forced, c->primed);
}
