// SPDX-License-Identifier: GPL-2.0
/*
 * labctl - the NFS lab's control server, run in the server guest next to
 * knfsd.
 *
 * The client guest asks it, over TCP on the lab link, for knfsd's
 * counters and for changes to the exported tree made behind the NFS
 * client's back. A connection carries one request line and gets one reply
 * line, "ok[ PAYLOAD]" or "err REASON", then the server closes it:
 *
 *   ping                  ok labctl
 *   counters              ok {"v3":{...},"v4":{...},"v4ops":{...}}
 *   mktree DIR            DIR/{file,dir,link->file,exec,d1/d2/file,
 *                         d1/d2/d3/file}
 *   mkfiles DIR N         DIR with N entries e00000..: file, dir,
 *                         symlink, executable, in turn
 *   mkdeep DIR            DIR/a?/b?/c?/d?/f0..f3: 64 files 4 levels
 *                         down (lab.h)
 *   mkscan DIR N          DIR with N files f0000.., "data\n" each
 *   scanchange DIR        the scan's changes (bench/case.h): f0000
 *                         grows, f0001 is rewritten with its size and
 *                         times kept (the clock set back for the write)
 *   chmod MODE PATH       octal MODE, not through a symlink
 *   touch PATH            times set to now (a symlink itself)
 *   write PATH            append "data\n", creating PATH
 *   rename OLD NEW
 *   unlink PATH           a file, symlink or empty directory
 *   rmtree DIR            DIR and all below it (no symlink followed)
 *   netem DELAY_MS        netem delay on the lab interface, 0 to remove
 *   tap on                time NFS requests on the lab interface from now
 *   tap off               ok REQUESTS SUM_US MEDIAN_US UNMATCHED DROPPED
 *                         LOST HELD HOLD_SUM_US HOLD_MEDIAN_US BYTES_IN
 *                         BYTES_OUT: each request from its call's arrival
 *                         to its reply's departure, and the HELD ones'
 *                         replies from netem's taking them to their
 *                         departure (wiretap.c; none without the mirror,
 *                         mirror.c); the TCP data in and out, in bytes
 *   quit                  reply, then exit 0
 *
 * Requests are untrusted and checked the way the kernel checks a daemon's
 * replies: a line is at most LAB_LINE_MAX bytes of printable ASCII, words
 * are separated by single spaces, each command takes an exact number of
 * arguments and numbers are range-checked. Paths are relative, made of
 * [A-Za-z0-9._-] components other than "." and "..", and are resolved
 * beneath the export root by openat2(RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV): no request reaches outside it.
 *
 * usage: labctl [-p PORT] [-i IFACE] EXPORT_ROOT
 * Build: see Makefile (static, C11).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <net/if.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include <linux/openat2.h>

#include "case.h"
#include "lab.h"
#include "mirror.h"
#include "netem.h"
#include "wiretap.h"

#define CTL_ARGS_MAX 3
#define CTL_FILES_MAX 10000
#define CTL_DELAY_MAX 10000
#define CTL_MIRROR "labmirror0" /* the dummy device of the egress mirror */

struct labctl {
	int root; /* O_PATH descriptor of the export root */
	const char *ifname; /* the lab link, for netem */
	int mirror; /* ifindex of its egress mirror for the tap, or 0 */
	bool quit;
};

struct ctl_cmd {
	const char *name;
	int argc;
	unsigned int numbers; /* bit N: argument N is a number, not a path */
	int (*fn)(struct labctl *c, char **argv, struct lab_buf *out);
};

/* One entry of a tree made by mktree or mkfiles. */
struct ctl_entry {
	const char *path;
	char type; /* 'f'ile, 'd'ir, 'l'ink */
	mode_t mode;
	const char *data; /* file contents, or the link target */
};

static const struct ctl_entry ctl_tree[] = {
	{ "file", 'f', 0644, "data\n" },
	{ "dir", 'd', 0755, NULL },
	{ "link", 'l', 0, "file" },
	{ "exec", 'f', 0755, "#!/bin/sh\n" },
	{ "d1", 'd', 0755, NULL },
	{ "d1/d2", 'd', 0755, NULL },
	{ "d1/d2/file", 'f', 0644, "data\n" },
	{ "d1/d2/d3", 'd', 0755, NULL },
	{ "d1/d2/d3/file", 'f', 0644, "data\n" },
};

static bool ctl_name_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-';
}

/* Relative, components of [A-Za-z0-9._-], none "." or "..". */
static bool ctl_valid_path(const char *path)
{
	const char *p = path, *start;

	if (strlen(path) > 255)
		return false;
	for (;;) {
		for (start = p; ctl_name_char(*p); p++)
			;
		if (p == start || (p - start == 1 && start[0] == '.') ||
		    (p - start == 2 && start[0] == '.' && start[1] == '.'))
			return false;
		if (*p == '\0')
			return true;
		if (*p++ != '/')
			return false;
	}
}

/* 1..5 decimal digits, at most @max. */
static int ctl_uint(const char *s, unsigned int base, unsigned int max,
		    unsigned int *v)
{
	char *end;
	unsigned long n;

	if (!*s || strlen(s) > 5 || s[0] == '+' || s[0] == '-')
		return -EINVAL;
	errno = 0;
	n = strtoul(s, &end, base);
	if (errno || *end || n > max)
		return -EINVAL;
	*v = n;
	return 0;
}

static int ctl_fail(struct lab_buf *out, int err, const char *what,
		    const char *arg)
{
	buf_printf(out, "%s %s: %s", what, arg, strerror(-err));
	return err;
}

/*
 * The directory holding @path's last component, opened beneath the root
 * with no symlink followed; its name goes to @name.
 */
static int ctl_parent(struct labctl *c, const char *path, char *name)
{
	struct open_how how = {
		.flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_XDEV | RESOLVE_NO_MAGICLINKS,
	};
	const char *slash = strrchr(path, '/');
	char dir[256] = ".";
	long fd;

	if (slash)
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	strcpy(name, slash ? slash + 1 : path);
	fd = syscall(SYS_openat2, c->root, dir, &how, sizeof(how));
	return fd < 0 ? -errno : (int)fd;
}

static int ctl_write_data(int dfd, const char *path, int flags, mode_t mode,
			  const char *data)
{
	int fd = openat(dfd, path, flags | O_WRONLY | O_NOFOLLOW | O_CLOEXEC,
			mode);
	ssize_t len = strlen(data);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, data, len) != len)
		err = -EIO;
	close(fd);
	return err;
}

static int ctl_create(int dfd, const struct ctl_entry *e)
{
	switch (e->type) {
	case 'd':
		return mkdirat(dfd, e->path, e->mode) ? -errno : 0;
	case 'l':
		return symlinkat(e->data, dfd, e->path) ? -errno : 0;
	default:
		return ctl_write_data(dfd, e->path, O_CREAT | O_EXCL, e->mode,
				      e->data);
	}
}

/* A new directory @path; its O_PATH descriptor, or -errno. */
static int ctl_mkdir(struct labctl *c, const char *path)
{
	char name[256];
	int pfd, fd;

	pfd = ctl_parent(c, path, name);
	if (pfd < 0)
		return pfd;
	fd = -errno;
	if (!mkdirat(pfd, name, 0755))
		fd = openat(pfd, name,
			    O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && fd != -errno)
		fd = -errno;
	close(pfd);
	return fd;
}

/* "DIR N": the count N checked, DIR made; its descriptor, or -errno. */
static int ctl_counted_dir(struct labctl *c, char **argv,
			   struct lab_buf *out, unsigned int *n)
{
	int dfd;

	if (ctl_uint(argv[1], 10, CTL_FILES_MAX, n))
		return ctl_fail(out, -EINVAL, "count", argv[1]);
	dfd = ctl_mkdir(c, argv[0]);
	if (dfd < 0)
		return ctl_fail(out, dfd, "mkdir", argv[0]);
	return dfd;
}

static int ctl_ping(struct labctl *c, char **argv, struct lab_buf *out)
{
	(void)c;
	(void)argv;
	buf_printf(out, "labctl");
	return 0;
}

static int ctl_counters(struct labctl *c, char **argv, struct lab_buf *out)
{
	struct nfsd_counts n;
	int err;

	(void)c;
	(void)argv;
	err = nfsd_read(&n);
	if (err)
		return ctl_fail(out, err, "read", "/proc/net/rpc/nfsd");
	nfsd_json(out, &n);
	return 0;
}

static int ctl_mktree(struct labctl *c, char **argv, struct lab_buf *out)
{
	unsigned int i;
	int dfd, err = 0;

	dfd = ctl_mkdir(c, argv[0]);
	if (dfd < 0)
		return ctl_fail(out, dfd, "mkdir", argv[0]);
	for (i = 0; !err && i < sizeof(ctl_tree) / sizeof(ctl_tree[0]); i++) {
		err = ctl_create(dfd, &ctl_tree[i]);
		if (err)
			ctl_fail(out, err, "create", ctl_tree[i].path);
	}
	close(dfd);
	return err;
}

static int ctl_mkfiles(struct labctl *c, char **argv, struct lab_buf *out)
{
	static const struct ctl_entry kinds[] = {
		{ NULL, 'f', 0644, "data\n" },
		{ NULL, 'd', 0755, NULL },
		{ NULL, 'l', 0, "e00000" },
		{ NULL, 'f', 0755, "#!/bin/sh\n" },
	};
	struct ctl_entry e;
	unsigned int i, n;
	char name[16];
	int dfd, err = 0;

	dfd = ctl_counted_dir(c, argv, out, &n);
	if (dfd < 0)
		return dfd;
	for (i = 0; !err && i < n; i++) {
		e = kinds[i % 4];
		snprintf(name, sizeof(name), "e%05u", i);
		e.path = name;
		err = ctl_create(dfd, &e);
		if (err)
			ctl_fail(out, err, "create", name);
	}
	close(dfd);
	return err;
}

/* Every directory on the way to @path (relative to @dfd), then @path. */
static int ctl_mkdirs(int dfd, char *path)
{
	char *s;

	for (s = strchr(path, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdirat(dfd, path, 0755) && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	return mkdirat(dfd, path, 0755) && errno != EEXIST ? -errno : 0;
}

static int ctl_mkdeep(struct labctl *c, char **argv, struct lab_buf *out)
{
	struct ctl_entry e = { NULL, 'f', 0644, "data\n" };
	char leaf[64], file[80];
	unsigned int l, f;
	int dfd, err = 0;

	dfd = ctl_mkdir(c, argv[0]);
	if (dfd < 0)
		return ctl_fail(out, dfd, "mkdir", argv[0]);
	for (l = 0; !err && l < LAB_DEEP_LEAVES; l++) {
		lab_deep_leaf(leaf, sizeof(leaf), ".", l);
		err = ctl_mkdirs(dfd, leaf + 2);
		for (f = 0; !err && f < LAB_DEEP_FILES; f++) {
			snprintf(file, sizeof(file), "%s/f%u", leaf + 2, f);
			e.path = file;
			err = ctl_create(dfd, &e);
		}
		if (err)
			ctl_fail(out, err, "create", leaf + 2);
	}
	close(dfd);
	return err;
}

static int ctl_mkscan(struct labctl *c, char **argv, struct lab_buf *out)
{
	unsigned int i, n;
	char name[16];
	int dfd, err = 0;

	dfd = ctl_counted_dir(c, argv, out, &n);
	if (dfd < 0)
		return dfd;
	for (i = 0; !err && i < n; i++) {
		lab_scan_name(name, sizeof(name), i);
		err = ctl_write_data(dfd, name, O_CREAT | O_EXCL, 0644,
				     "data\n");
		if (err)
			ctl_fail(out, err, "create", name);
	}
	close(dfd);
	return err;
}

static int ctl_scanchange(struct labctl *c, char **argv, struct lab_buf *out)
{
	char path[272], name[256];
	unsigned int i;
	int dfd, err = 0;

	/* the directory itself, beneath the root as every path */
	snprintf(path, sizeof(path), "%s/f", argv[0]);
	dfd = ctl_parent(c, path, name);
	if (dfd < 0)
		return ctl_fail(out, dfd, "open", argv[0]);
	for (i = 0; !err && i < LAB_SCAN_CHANGES; i++)
		err = lab_scan_change(dfd, i);
	if (err == -EAGAIN)
		buf_printf(out, "scanchange %s: the ctime moved every time",
			   argv[0]);
	else if (err)
		ctl_fail(out, err, "scanchange", argv[0]);
	close(dfd);
	return err;
}

static int ctl_chmod(struct labctl *c, char **argv, struct lab_buf *out)
{
	unsigned int mode;
	char name[256];
	int pfd, fd, err = 0;

	if (ctl_uint(argv[0], 8, 07777, &mode) || strlen(argv[0]) > 4)
		return ctl_fail(out, -EINVAL, "mode", argv[0]);
	pfd = ctl_parent(c, argv[1], name);
	if (pfd < 0)
		return ctl_fail(out, pfd, "open", argv[1]);
	fd = openat(pfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fchmod(fd, mode))
		err = ctl_fail(out, -errno, "chmod", argv[1]);
	if (fd >= 0)
		close(fd);
	close(pfd);
	return err;
}

static int ctl_touch(struct labctl *c, char **argv, struct lab_buf *out)
{
	char name[256];
	int pfd, err = 0;

	pfd = ctl_parent(c, argv[0], name);
	if (pfd < 0)
		return ctl_fail(out, pfd, "open", argv[0]);
	if (utimensat(pfd, name, NULL, AT_SYMLINK_NOFOLLOW))
		err = ctl_fail(out, -errno, "touch", argv[0]);
	close(pfd);
	return err;
}

static int ctl_write(struct labctl *c, char **argv, struct lab_buf *out)
{
	char name[256];
	int pfd, err;

	pfd = ctl_parent(c, argv[0], name);
	if (pfd < 0)
		return ctl_fail(out, pfd, "open", argv[0]);
	err = ctl_write_data(pfd, name, O_CREAT | O_APPEND, 0644, "data\n");
	if (err)
		ctl_fail(out, err, "write", argv[0]);
	close(pfd);
	return err;
}

static int ctl_rename(struct labctl *c, char **argv, struct lab_buf *out)
{
	char from[256], to[256];
	int pfrom, pto, err = 0;

	pfrom = ctl_parent(c, argv[0], from);
	if (pfrom < 0)
		return ctl_fail(out, pfrom, "open", argv[0]);
	pto = ctl_parent(c, argv[1], to);
	if (pto < 0) {
		err = ctl_fail(out, pto, "open", argv[1]);
		goto out_close;
	}
	if (renameat(pfrom, from, pto, to))
		err = ctl_fail(out, -errno, "rename", argv[0]);
	close(pto);
out_close:
	close(pfrom);
	return err;
}

static int ctl_unlink(struct labctl *c, char **argv, struct lab_buf *out)
{
	char name[256];
	int pfd, err = 0;

	pfd = ctl_parent(c, argv[0], name);
	if (pfd < 0)
		return ctl_fail(out, pfd, "open", argv[0]);
	if (unlinkat(pfd, name, 0) &&
	    (errno != EISDIR || unlinkat(pfd, name, AT_REMOVEDIR)))
		err = ctl_fail(out, -errno, "unlink", argv[0]);
	close(pfd);
	return err;
}

/*
 * Remove @name below @pfd and everything in it, without following a
 * symlink: directories are opened O_NOFOLLOW and emptied through their
 * own descriptors. A directory is scanned again until rmdir succeeds, as
 * readdir() need not return every entry while entries are removed.
 */
static int ctl_rmtree_at(int pfd, const char *name, int depth)
{
	struct dirent *de;
	struct stat st;
	int fd, err = 0;
	DIR *d;

	if (depth > 16)
		return -ELOOP;
	fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOTDIR || errno == ELOOP ?
			       (unlinkat(pfd, name, 0) ? -errno : 0) :
			       -errno;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	while (!err && unlinkat(pfd, name, AT_REMOVEDIR)) {
		if (errno != ENOTEMPTY && errno != EEXIST) {
			err = -errno;
			break;
		}
		rewinddir(d);
		while (!err && (de = readdir(d))) {
			if (!strcmp(de->d_name, ".") ||
			    !strcmp(de->d_name, ".."))
				continue;
			if (de->d_type == DT_UNKNOWN &&
			    !fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW))
				de->d_type = S_ISDIR(st.st_mode) ? DT_DIR :
								   DT_REG;
			if (de->d_type == DT_DIR)
				err = ctl_rmtree_at(fd, de->d_name, depth + 1);
			else if (unlinkat(fd, de->d_name, 0))
				err = -errno;
		}
	}
	closedir(d);
	return err;
}

static int ctl_rmtree(struct labctl *c, char **argv, struct lab_buf *out)
{
	char name[256];
	int pfd, err;

	pfd = ctl_parent(c, argv[0], name);
	if (pfd < 0)
		return ctl_fail(out, pfd, "open", argv[0]);
	err = ctl_rmtree_at(pfd, name, 0);
	if (err)
		ctl_fail(out, err, "rmtree", argv[0]);
	close(pfd);
	return err;
}

static int ctl_netem(struct labctl *c, char **argv, struct lab_buf *out)
{
	unsigned int ms;
	int err;

	if (ctl_uint(argv[0], 10, CTL_DELAY_MAX, &ms))
		return ctl_fail(out, -EINVAL, "delay", argv[0]);
	err = netem_set(c->ifname, ms);
	if (err)
		return ctl_fail(out, err, "netem on", c->ifname);
	return 0;
}

static int ctl_tap(struct labctl *c, char **argv, struct lab_buf *out)
{
	struct wiretap_result r;
	int err;

	if (!strcmp(argv[0], "on")) {
		err = wiretap_start(c->ifname, c->mirror, LAB_NFS_PORT);
		return err ? ctl_fail(out, err, "tap on", c->ifname) : 0;
	}
	if (strcmp(argv[0], "off"))
		return ctl_fail(out, -EINVAL, "tap", argv[0]);
	err = wiretap_stop(&r);
	if (err)
		return ctl_fail(out, err, "tap off", c->ifname);
	buf_printf(out, "%u %llu %llu %u %u %u %u %llu %llu %llu %llu",
		   r.requests, (unsigned long long)r.sum_us,
		   (unsigned long long)r.median_us, r.unmatched, r.dropped,
		   r.lost, r.held, (unsigned long long)r.hold_sum_us,
		   (unsigned long long)r.hold_median_us,
		   (unsigned long long)r.bytes_in,
		   (unsigned long long)r.bytes_out);
	return 0;
}

static int ctl_quit(struct labctl *c, char **argv, struct lab_buf *out)
{
	(void)argv;
	(void)out;
	c->quit = true;
	return 0;
}

/* clang-format off */
static const struct ctl_cmd ctl_cmds[] = {
	{ "ping", 0, 0, ctl_ping },
	{ "counters", 0, 0, ctl_counters },
	{ "mktree", 1, 0, ctl_mktree },
	{ "mkfiles", 2, 0x2, ctl_mkfiles },
	{ "mkdeep", 1, 0, ctl_mkdeep },
	{ "mkscan", 2, 0x2, ctl_mkscan },
	{ "scanchange", 1, 0, ctl_scanchange },
	{ "chmod", 2, 0x1, ctl_chmod },
	{ "touch", 1, 0, ctl_touch },
	{ "write", 1, 0, ctl_write },
	{ "rename", 2, 0, ctl_rename },
	{ "unlink", 1, 0, ctl_unlink },
	{ "rmtree", 1, 0, ctl_rmtree },
	{ "netem", 1, 0x1, ctl_netem },
	{ "tap", 1, 0, ctl_tap },
	{ "quit", 0, 0, ctl_quit },
};
/* clang-format on */

/* Split @line in place into single-space separated words. */
static int ctl_split(char *line, char **words, int max)
{
	int n = 0;
	char *p;

	for (p = line; *p; p++)
		if (*p < 0x20 || *p > 0x7e)
			return -EINVAL;
	for (p = line; n <= max; p++) {
		if (*p == ' ' || *p == '\0')
			return -EINVAL; /* empty word */
		words[n++] = p;
		p = strchr(p, ' ');
		if (!p)
			return n;
		*p = '\0';
	}
	return -E2BIG;
}

static int ctl_dispatch(struct labctl *c, char *line, struct lab_buf *out)
{
	char *words[CTL_ARGS_MAX + 1];
	const struct ctl_cmd *cmd;
	unsigned int i;
	int n, j;

	n = ctl_split(line, words, CTL_ARGS_MAX);
	if (n < 0) {
		buf_printf(out, "malformed request");
		return n;
	}
	for (i = 0; i < sizeof(ctl_cmds) / sizeof(ctl_cmds[0]); i++) {
		cmd = &ctl_cmds[i];
		if (strcmp(words[0], cmd->name))
			continue;
		if (n - 1 != cmd->argc) {
			buf_printf(out, "%s takes %d argument(s)", cmd->name,
				   cmd->argc);
			return -EINVAL;
		}
		for (j = 1; j < n; j++) {
			if (cmd->numbers & (1u << (j - 1)))
				continue; /* checked by the command */
			if (!ctl_valid_path(words[j])) {
				buf_printf(out, "bad path (relative names of "
						"[A-Za-z0-9._-], no . or ..)");
				return -EINVAL;
			}
		}
		return cmd->fn(c, words + 1, out);
	}
	buf_printf(out, "unknown command");
	return -EINVAL;
}

/* Read one line (without its '\n') into @line: length or -errno. */
static int ctl_read_line(int fd, char *line)
{
	size_t len = 0;
	ssize_t n;
	char *nl;

	for (;;) {
		n = read(fd, line + len, LAB_LINE_MAX - len);
		if (n < 0)
			return errno == EINTR ? -EINTR : -errno;
		if (n == 0)
			return -EPROTO; /* no newline */
		len += n;
		nl = memchr(line, '\n', len);
		if (nl) {
			*nl = '\0';
			return nl - line;
		}
		if (len == LAB_LINE_MAX)
			return -E2BIG;
	}
}

static void ctl_serve(struct labctl *c, int fd)
{
	struct timeval tv = { .tv_sec = 5 };
	char line[LAB_LINE_MAX + 1], msg[LAB_REPLY_MAX - 8];
	char reply[LAB_REPLY_MAX];
	struct lab_buf out;
	int len, err;

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	buf_init(&out, msg, sizeof(msg));
	err = ctl_read_line(fd, line);
	if (err < 0) {
		buf_printf(&out, "request: %s",
			   err == -E2BIG  ? "line too long" :
			   err == -EPROTO ? "no newline" :
					    strerror(-err));
		snprintf(line, sizeof(line), "(unreadable)");
	} else {
		err = ctl_dispatch(c, line, &out);
	}
	if (out.full) {
		buf_init(&out, msg, sizeof(msg));
		buf_printf(&out, "reply too long");
		err = -E2BIG;
	}
	len = snprintf(reply, sizeof(reply), "%s%s%s\n", err ? "err" : "ok",
		       out.len ? " " : "", msg);
	/* The counters are long and only interesting to the client. */
	fprintf(stderr, "labctl: %s -> %s", line,
		err || strcmp(line, "counters") ? reply : "ok\n");
	if (write(fd, reply, len) != len)
		fprintf(stderr, "labctl: reply lost: %s\n", strerror(errno));
}

static int ctl_listen(unsigned int port)
{
	struct sockaddr_in sa = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = htonl(INADDR_ANY),
	};
	int one = 1;
	int fd;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(fd, 8)) {
		one = -errno;
		close(fd);
		return one;
	}
	return fd;
}

#define CTL_USAGE "usage: labctl [-p PORT] [-i IFACE] EXPORT_ROOT"

/* A usage error: one line, exit status 2. */
static void __attribute__((noreturn)) ctl_usage(const char *what,
						 const char *arg)
{
	fprintf(stderr, "labctl: %s%s%s (%s)\n", what, arg ? " " : "",
		arg ? arg : "", CTL_USAGE);
	exit(2);
}

/*
 * The lab link's egress mirror, for the tap to time netem's hold. The
 * counts do not need it: without it the cases still run, and their wire
 * times lack the hold (labcase says so).
 */
static void ctl_mirror(struct labctl *c)
{
	char why[256];
	int ifindex;

	ifindex = mirror_egress(c->ifname, CTL_MIRROR, why, sizeof(why));
	if (ifindex < 0) {
		fprintf(stderr, "labctl: no mirror of %s's egress, netem's hold is not timed: %s: %s\n",
			c->ifname, why, strerror(-ifindex));
		return;
	}
	c->mirror = ifindex;
}

int main(int argc, char **argv)
{
	struct labctl c = { .ifname = "eth0" };
	unsigned int port = LAB_CTL_PORT;
	int opt, lfd, fd, err;

	opterr = 0;
	while ((opt = getopt(argc, argv, ":p:i:h")) != -1) {
		switch (opt) {
		case 'p':
			if (ctl_uint(optarg, 10, 65535, &port) || !port)
				ctl_usage("-p: a port is 1 to 65535, not", optarg);
			break;
		case 'i':
			if (!*optarg || strlen(optarg) >= IF_NAMESIZE)
				ctl_usage("-i: not an interface name:", optarg);
			c.ifname = optarg;
			break;
		case 'h':
			printf("%s\n", CTL_USAGE);
			return 0;
		case ':':
			ctl_usage("option needs a value:", argv[optind - 1]);
		default:
			ctl_usage("unknown option:", argv[optind - 1]);
		}
	}
	if (optind == argc)
		ctl_usage("no EXPORT_ROOT given", NULL);
	if (optind != argc - 1)
		ctl_usage("unexpected argument:", argv[optind + 1]);
	umask(0);
	signal(SIGPIPE, SIG_IGN);
	c.root = open(argv[optind], O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (c.root < 0) {
		fprintf(stderr, "labctl: %s: %s\n", argv[optind],
			strerror(errno));
		return 1;
	}
	/* Now, so that packets are stamped by the time a case taps them. */
	err = wiretap_init();
	if (err) {
		fprintf(stderr, "labctl: packet timestamps (AF_PACKET, CONFIG_PACKET): %s\n",
			strerror(-err));
		return 1;
	}
	ctl_mirror(&c);
	lfd = ctl_listen(port);
	if (lfd < 0) {
		fprintf(stderr, "labctl: port %u: %s\n", port, strerror(-lfd));
		return 1;
	}
	fprintf(stderr, "labctl: serving %s on port %u\n", argv[optind], port);
	while (!c.quit) {
		fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			fprintf(stderr, "labctl: accept: %s\n",
				strerror(errno));
			return 1;
		}
		ctl_serve(&c, fd);
		close(fd);
	}
	close(lfd);
	return 0;
}
