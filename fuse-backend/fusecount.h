/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fusecount: a libfuse low-level passthrough daemon that counts every
 * request the kernel sends.  Interfaces shared by the daemon's files.
 *
 * linux/fuse.h is the patched kernel's uapi header, copied into the build
 * directory by the Makefile: it must describe FUSE 7.39 (FUSE_STATX).
 */
#ifndef FUSECOUNT_H
#define FUSECOUNT_H

#define FUSE_USE_VERSION 312

#include <fuse_lowlevel.h>
#include <linux/fuse.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#if FUSE_KERNEL_MINOR_VERSION < 39
#error "linux/fuse.h is older than FUSE 7.39 and has no FUSE_STATX"
#endif

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

#define FC_NR_OPCODES	64	/* each its own; the rest share one */
#define FC_TRACE_LEN	4096	/* requests kept for "dump" */
#define FC_NAME_MAX	255	/* longest name kept in the trace */
#define FC_CTL_LINE_MAX	256	/* longest command, without '\n' */
#define FC_MASK_SLOTS	16	/* distinct FUSE_STATX masks counted */

/* sbuf.c: a growing string for replies on the control socket */
struct fc_sb {
	char *buf;
	size_t len;
	size_t cap;
	bool oom;	/* an append failed; the text is truncated */
};

void fc_sb_init(struct fc_sb *sb);
void fc_sb_free(struct fc_sb *sb);
void fc_sb_printf(struct fc_sb *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void fc_sb_json_str(struct fc_sb *sb, const char *s, size_t n);

/* inode.c: node ids are pointers to these, as in passthrough_ll */
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

/* trace.c: what one request carried, decoded from its raw buffer */
enum {
	FC_HAS_NAME	= 1 << 0,
	FC_HAS_NAME2	= 1 << 1,
	FC_HAS_GETATTR	= 1 << 2,	/* getattr_flags and fh */
	FC_HAS_STATX	= 1 << 3,	/* sx_flags and sx_mask too */
	FC_HAS_FORGET	= 1 << 4,	/* nlookup */
};

struct fc_req {
	uint64_t seq;		/* request number since the last reset */
	uint64_t unique;
	uint64_t nodeid;
	uint32_t opcode;
	uint32_t len;
	unsigned int has;	/* FC_HAS_* */
	const char *name;	/* points into the request buffer */
	size_t namelen;
	const char *name2;	/* RENAME: the new name */
	size_t name2len;
	uint32_t getattr_flags;
	uint64_t fh;
	uint32_t sx_flags;
	uint32_t sx_mask;
	uint64_t nlookup;	/* FORGET, BATCH_FORGET: sum over entries */
};

/* How a request was answered, seen on the way to the kernel */
struct fc_reply {
	bool replied;
	int32_t error;		/* fuse_out_header.error: 0 or -errno */
	uint64_t usec;		/* from receive to end of dispatch */
};

struct fc_trace_ent {
	uint64_t seq;		/* 0: slot unused */
	uint64_t unique;
	uint64_t nodeid;
	uint64_t fh;
	uint64_t nlookup;
	uint64_t usec;
	uint32_t opcode;
	uint32_t getattr_flags;
	uint32_t sx_flags;
	uint32_t sx_mask;
	int32_t error;
	unsigned int has;
	bool replied;
	char name[FC_NAME_MAX + 1];
	char name2[FC_NAME_MAX + 1];
};

struct fc_trace {
	pthread_mutex_t lock;
	atomic_bool on;
	struct fc_trace_ent *ring;	/* FC_TRACE_LEN, protected by lock */
};

int fc_req_decode(const void *buf, size_t len, struct fc_req *req);
int fc_trace_init(struct fc_trace *t);
void fc_trace_destroy(struct fc_trace *t);
void fc_trace_set(struct fc_trace *t, bool on);
void fc_trace_reset(struct fc_trace *t);
void fc_trace_record(struct fc_trace *t, const struct fc_req *req,
		     const struct fc_reply *rep);
void fc_trace_dump(struct fc_trace *t, struct fc_sb *sb);

/* stats.c: per-opcode counters, bumped once per request */
enum fc_sync {
	FC_SYNC_AS_STAT,
	FC_SYNC_FORCE,
	FC_SYNC_DONT,
	FC_SYNC_INVALID,	/* both FORCE and DONT: statx(2) refuses it */
	FC_SYNC_NR,
};

struct fc_mask_slot {
	atomic_uint_fast64_t key;	/* sx_mask + 1; 0 while free */
	atomic_uint_fast64_t count;
};

struct fc_stats {
	atomic_uint_fast64_t op[FC_NR_OPCODES + 1];	/* last: the rest */
	atomic_uint_fast64_t total;
	atomic_uint_fast64_t sync[FC_SYNC_NR];
	struct fc_mask_slot mask[FC_MASK_SLOTS];
	atomic_uint_fast64_t mask_other;	/* masks beyond the slots */
	atomic_uint_fast64_t nlookup;		/* forgotten lookups */
};

const char *fc_opcode_name(uint32_t opcode);
enum fc_sync fc_sync_mode(uint32_t sx_flags);
void fc_stats_count(struct fc_stats *s, struct fc_req *req);
void fc_stats_reset(struct fc_stats *s);
uint64_t fc_stats_get(struct fc_stats *s, uint32_t opcode);
void fc_stats_json(struct fc_stats *s, struct fc_sb *sb);

/* ctl.c: the control socket, one command per line */
enum fc_ctl_op {
	FC_CTL_STATS,
	FC_CTL_RESET,
	FC_CTL_TRACE_ON,
	FC_CTL_TRACE_OFF,
	FC_CTL_DUMP,
	FC_CTL_DELAY,
};

#define FC_CTL_DELAY_MAX	10000000	/* us: 10 s, as -o delay_us */
#define FC_CTL_MODE		0600	/* the socket: its owner only */
#define FC_CTL_CLIENTS		16	/* clients served at once */

struct fc_ctl_srv;

struct fc_ctl {
	int lfd;		/* listening socket, -1 when closed */
	int stop[2];		/* pipe: closing stop[1] stops the thread */
	pthread_t thread;
	struct fc_ctl_srv *srv;	/* the thread's clients */
	bool running;
	bool made_dir;		/* we created dir: rmdir it at close */
	char path[108];		/* sizeof(sun_path) */
	char dir[108];		/* path's directory */
	struct fc_stats *stats;
	struct fc_trace *trace;
	unsigned int *delay_us;	/* set by "delay"; NULL: refused */
};

int fc_ctl_parse(const char *line, size_t len, enum fc_ctl_op *op,
		 unsigned int *arg, const char **why);
void fc_ctl_line(struct fc_ctl *c, const char *line, size_t len,
		 struct fc_sb *out);
int fc_ctl_open(struct fc_ctl *c, const char *path, mode_t mode,
		struct fc_stats *stats, struct fc_trace *trace);
int fc_ctl_start(struct fc_ctl *c);
void fc_ctl_close(struct fc_ctl *c);

/* The daemon's state, reached from requests through fuse_req_userdata() */
enum fc_rdp {
	FC_RDP_AUTO,
	FC_RDP_ON,
	FC_RDP_OFF,
};

struct fc_data {
	double entry_timeout;		/* immutable after startup */
	double attr_timeout;		/* immutable after startup */
	double negative_timeout;	/* immutable after startup */
	enum fc_rdp readdirplus;	/* immutable after startup */
	unsigned int delay_us;		/* atomic: the ctl thread sets it */
	bool nostatx;			/* immutable after startup */
	uint32_t statx_drop;		/* immutable after startup */
	uid_t deny_uid;			/* immutable; FC_NO_UID: nobody */
	bool debug;			/* immutable after startup */
	struct fc_itable itable;
	struct fc_stats stats;
	struct fc_trace trace;
};

#define FC_NO_UID	((uid_t)-1)	/* no uid: setuid(2)'s "unchanged" */

int fc_data_init(struct fc_data *d, int root_fd);
void fc_data_destroy(struct fc_data *d);

/* statx.c: FUSE_STATX, which libfuse 3.14 does not know */
struct fc_statx_req {
	uint64_t unique;
	uint64_t nodeid;
	uint64_t fh;
	uint32_t getattr_flags;
	uint32_t sx_flags;
	uint32_t sx_mask;
};

struct fc_statx_reply {
	struct fuse_out_header hdr;
	struct fuse_statx_out out;
};

int fusecount_statx_decode(const void *buf, size_t len,
			   struct fc_statx_req *out);
void fc_statx_build(struct fc_statx_reply *rep, uint64_t unique,
		    const struct statx *stx, double timeout);
void fc_statx_drop(struct fuse_statx *sx, uint32_t drop);
void fc_statx_handle(struct fc_data *d, int fd, const void *buf, size_t len);

/* loop.c: our own session loop, so that FUSE_STATX can be intercepted */
extern const struct fuse_custom_io fc_io;
ssize_t fc_io_writev(int fd, struct iovec *iov, int count, void *userdata);
int fc_loop_run(struct fuse_session *se, struct fc_data *d,
		unsigned int nthreads);

/* ops.c */
extern const struct fuse_lowlevel_ops fc_oper;

#endif /* FUSECOUNT_H */
