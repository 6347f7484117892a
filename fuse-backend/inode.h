/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fusecount, inode.c: the node table.  Node ids are pointers to struct
 * fc_inode, as in passthrough_ll.  Calls nothing of the daemon.
 */
#ifndef FC_INODE_H
#define FC_INODE_H

#include "fuse_abi.h"
#include <pthread.h>
#include <sys/stat.h>
#include <sys/types.h>

struct fc_inode {
	struct fc_inode *hnext;	/* protected by fc_itable.lock */
	uint64_t refcount;	/* lookups; protected by fc_itable.lock */
	int fd;			/* O_PATH, immutable */
	bool is_symlink;	/* immutable */
	ino_t ino;		/* immutable */
	dev_t dev;		/* immutable */
};

struct fc_itable {
	pthread_mutex_t lock;
	struct fc_inode root;		/* FUSE_ROOT_ID, not in buckets */
	struct fc_inode **buckets;	/* protected by lock */
	size_t nbuckets;		/* protected by lock */
	size_t count;			/* protected by lock */
};

int fc_itable_init(struct fc_itable *t, int root_fd);
void fc_itable_destroy(struct fc_itable *t);
size_t fc_itable_count(struct fc_itable *t);
struct fc_inode *fc_inode_get(struct fc_itable *t, fuse_ino_t ino);
int fc_inode_lookup(struct fc_itable *t, int fd, const struct stat *st,
		    struct fc_inode **out);
void fc_inode_ref(struct fc_itable *t, struct fc_inode *inode);
void fc_inode_forget(struct fc_itable *t, struct fc_inode *inode,
		     uint64_t nlookup);

#endif /* FC_INODE_H */
