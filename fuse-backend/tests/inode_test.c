// SPDX-License-Identifier: GPL-2.0
/*
 * The node table: a lookup of the same backing file finds the same node,
 * forget mirrors lookup, and the table grows past its first buckets.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inode.h"
#include "tap.h"

#define NFILES	1000

static char dir[] = "/tmp/fc-inode-XXXXXX";

static int lookup(struct fc_itable *t, const char *name,
		  struct fc_inode **out)
{
	struct stat st;
	int fd;

	fd = openat(t->root.fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd == -1 || fstat(fd, &st) == -1)
		return -1;
	return fc_inode_lookup(t, fd, &st, out);
}

static void make_files(void)
{
	char path[64], path2[64];
	int i, fd;

	for (i = 0; i < NFILES; i++) {
		snprintf(path, sizeof(path), "%s/f%d", dir, i);
		fd = open(path, O_CREAT | O_WRONLY, 0644);
		if (fd >= 0)
			close(fd);
	}
	snprintf(path, sizeof(path), "%s/link", dir);
	if (symlink("f0", path))
		diag("symlink failed");
	snprintf(path, sizeof(path), "%s/f0", dir);
	snprintf(path2, sizeof(path2), "%s/hard", dir);
	if (link(path, path2))
		diag("link failed");
}

static void remove_files(void)
{
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		diag("could not remove %s", dir);
}

int main(void)
{
	struct fc_inode *a, *b, *c, *l, *many[NFILES];
	struct fc_itable t;
	char name[16];
	int i, err = 0;

	plan(8);
	if (!mkdtemp(dir))
		skip_all("no temporary directory");
	make_files();
	if (fc_itable_init(&t, open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC))) {
		remove_files();
		skip_all("cannot open the temporary directory");
	}

	ok(fc_inode_get(&t, FUSE_ROOT_ID) == &t.root, "node id 1 is the root");
	ok(!lookup(&t, "f0", &a) && !lookup(&t, "f0", &b) && a == b &&
	   a->refcount == 2 && fc_itable_count(&t) == 1,
	   "two lookups, one node with two references");
	ok(!lookup(&t, "hard", &c) && c == a && a->refcount == 3,
	   "a hard link is the same node");
	ok(fc_inode_get(&t, (uintptr_t)a) == a, "node id is the pointer");
	ok(!lookup(&t, "link", &l) && l != a && l->is_symlink,
	   "a symlink is its own node");

	fc_inode_forget(&t, a, 2);
	ok(a->refcount == 1 && fc_itable_count(&t) == 2,
	   "partial forget keeps the node");
	fc_inode_forget(&t, a, 1);
	fc_inode_forget(&t, l, 5);
	ok(fc_itable_count(&t) == 0, "forgetting every lookup frees the node");

	for (i = 0; i < NFILES && !err; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		err = lookup(&t, name, &many[i]);
	}
	ok(!err && fc_itable_count(&t) == NFILES && t.nbuckets > 256,
	   "%d nodes, table grew to %zu buckets", NFILES, t.nbuckets);
	for (i = 0; i < NFILES && !err; i++)
		fc_inode_forget(&t, many[i], 1);

	fc_itable_destroy(&t);
	remove_files();
	return done();
}
