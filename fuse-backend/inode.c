// SPDX-License-Identifier: GPL-2.0
/*
 * fusecount: the node table.  As in libfuse's passthrough_ll, a node id is
 * the address of a struct fc_inode that holds an O_PATH fd of the backing
 * file, and is identified by the backing (st_dev, st_ino).  Each LOOKUP
 * reply (and each entry of READDIRPLUS, CREATE, MKDIR, ...) takes one
 * reference; FORGET and BATCH_FORGET give them back, and the last one
 * closes the fd.  The table is a hash on (dev, ino) so that large
 * directories do not make lookups quadratic.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inode.h"

_Static_assert(sizeof(fuse_ino_t) >= sizeof(uintptr_t),
	       "fuse_ino_t too small to hold a pointer");

#define FC_ITABLE_MIN	256

static size_t fc_hash(dev_t dev, ino_t ino, size_t nbuckets)
{
	uint64_t h = (uint64_t)ino * 0x9e3779b97f4a7c15ULL ^ (uint64_t)dev;

	return (h ^ (h >> 29)) & (nbuckets - 1);
}

/* The table owns @root_fd from here on, even on failure */
int fc_itable_init(struct fc_itable *t, int root_fd)
{
	struct stat st;
	int err = -ENOMEM;

	memset(t, 0, sizeof(*t));
	if (fstat(root_fd, &st) == -1) {
		err = -errno;
		goto out_close;
	}
	t->buckets = calloc(FC_ITABLE_MIN, sizeof(*t->buckets));
	if (!t->buckets)
		goto out_close;
	t->nbuckets = FC_ITABLE_MIN;
	pthread_mutex_init(&t->lock, NULL);
	t->root.fd = root_fd;
	t->root.ino = st.st_ino;
	t->root.dev = st.st_dev;
	t->root.refcount = 2;	/* the kernel's, and ours: never freed */
	return 0;

out_close:
	close(root_fd);
	return err;
}

void fc_itable_destroy(struct fc_itable *t)
{
	struct fc_inode *inode, *next;
	size_t i;

	for (i = 0; i < t->nbuckets; i++) {
		for (inode = t->buckets[i]; inode; inode = next) {
			next = inode->hnext;
			close(inode->fd);
			free(inode);
		}
	}
	free(t->buckets);
	t->buckets = NULL;
	t->nbuckets = 0;
	t->count = 0;
	close(t->root.fd);
	t->root.fd = -1;
	pthread_mutex_destroy(&t->lock);
}

size_t fc_itable_count(struct fc_itable *t)
{
	size_t n;

	pthread_mutex_lock(&t->lock);
	n = t->count;
	pthread_mutex_unlock(&t->lock);
	return n;
}

struct fc_inode *fc_inode_get(struct fc_itable *t, fuse_ino_t ino)
{
	if (ino == FUSE_ROOT_ID)
		return &t->root;
	return (struct fc_inode *)(uintptr_t)ino;
}

/* Called with t->lock held.  A failed resize only makes chains longer. */
static void fc_itable_grow(struct fc_itable *t)
{
	size_t n = t->nbuckets * 2, i, h;
	struct fc_inode **b, *inode, *next;

	b = calloc(n, sizeof(*b));
	if (!b)
		return;
	for (i = 0; i < t->nbuckets; i++) {
		for (inode = t->buckets[i]; inode; inode = next) {
			next = inode->hnext;
			h = fc_hash(inode->dev, inode->ino, n);
			inode->hnext = b[h];
			b[h] = inode;
		}
	}
	free(t->buckets);
	t->buckets = b;
	t->nbuckets = n;
}

/* Called with t->lock held */
static struct fc_inode *fc_itable_find(struct fc_itable *t,
				       const struct stat *st)
{
	struct fc_inode *inode;
	size_t h = fc_hash(st->st_dev, st->st_ino, t->nbuckets);

	for (inode = t->buckets[h]; inode; inode = inode->hnext) {
		if (inode->ino == st->st_ino && inode->dev == st->st_dev)
			return inode;
	}
	return NULL;
}

/* Called with t->lock held */
static void fc_itable_insert(struct fc_itable *t, struct fc_inode *inode)
{
	size_t h;

	if (t->count >= t->nbuckets * 2)
		fc_itable_grow(t);
	h = fc_hash(inode->dev, inode->ino, t->nbuckets);
	inode->hnext = t->buckets[h];
	t->buckets[h] = inode;
	t->count++;
}

/* Called with t->lock held */
static void fc_itable_remove(struct fc_itable *t, struct fc_inode *inode)
{
	size_t h = fc_hash(inode->dev, inode->ino, t->nbuckets);
	struct fc_inode **pp;

	for (pp = &t->buckets[h]; *pp; pp = &(*pp)->hnext) {
		if (*pp == inode) {
			*pp = inode->hnext;
			t->count--;
			return;
		}
	}
}

/**
 * fc_inode_lookup() - take one kernel reference on the node for @st
 * @t: node table
 * @fd: O_PATH fd of the backing file; always consumed
 * @st: its attributes
 * @out: the node
 *
 * Return: 0, or -ENOMEM.
 */
int fc_inode_lookup(struct fc_itable *t, int fd, const struct stat *st,
		    struct fc_inode **out)
{
	struct fc_inode *inode, *fresh;

	/* Allocate outside the lock; a racing lookup may make it unneeded */
	fresh = calloc(1, sizeof(*fresh));
	pthread_mutex_lock(&t->lock);
	inode = fc_itable_find(t, st);
	if (inode) {
		inode->refcount++;
	} else if (fresh) {
		fresh->fd = fd;
		fresh->ino = st->st_ino;
		fresh->dev = st->st_dev;
		fresh->is_symlink = S_ISLNK(st->st_mode);
		fresh->refcount = 1;
		fc_itable_insert(t, fresh);
		inode = fresh;
		fresh = NULL;
		fd = -1;
	}
	pthread_mutex_unlock(&t->lock);

	free(fresh);
	if (fd != -1)
		close(fd);
	*out = inode;
	return inode ? 0 : -ENOMEM;
}

void fc_inode_ref(struct fc_itable *t, struct fc_inode *inode)
{
	pthread_mutex_lock(&t->lock);
	inode->refcount++;
	pthread_mutex_unlock(&t->lock);
}

/* The mirror of fc_inode_lookup(): drop @nlookup kernel references */
void fc_inode_forget(struct fc_itable *t, struct fc_inode *inode,
		     uint64_t nlookup)
{
	bool last;

	pthread_mutex_lock(&t->lock);
	if (nlookup > inode->refcount)
		nlookup = inode->refcount;	/* never underflow */
	inode->refcount -= nlookup;
	last = inode->refcount == 0 && inode != &t->root;
	if (last)
		fc_itable_remove(t, inode);
	pthread_mutex_unlock(&t->lock);

	if (last) {
		close(inode->fd);
		free(inode);
	}
}
