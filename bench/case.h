/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lab's case model, one for every file system. A case is one
 * "key=value ..." line (nfs-lab/README.md, "Cases"): the plan the host writes
 * (labplan) and the guest runners read (fusebench for FUSE, nfs-lab's
 * labcase for NFS). Its words (workload, call, form, sync mode, mask,
 * object, cache state) are parsed here and nowhere else; its keys in
 * results.json are written here too, and so is what every runner does
 * the same way: the measured syscall, the ls command, the deep walk.
 */
#ifndef LAB_CASE_H
#define LAB_CASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

enum lab_workload { LAB_SYSCALL, LAB_LS, LAB_CMD, LAB_DEEP, LAB_SCAN };
enum lab_cache { LAB_COLD, LAB_WARM, LAB_EXPIRED, LAB_CHANGED };

/*
 * The deep tree (workload=deep): ROOT/a?/b?/c?/d?/f0..f3, 4 levels of 2
 * directories, 64 files; a build tool's or git status's walk.
 */
#define LAB_DEEP_DEPTH	4
#define LAB_DEEP_LEAVES	16	/* 2^LAB_DEEP_DEPTH */
#define LAB_DEEP_FILES	4	/* per leaf directory */
#define LAB_DEEP_N	(LAB_DEEP_LEAVES * LAB_DEEP_FILES)

/*
 * The scan (workload=scan): which of the n files f0000.. of a directory
 * changed since the last scan, as a backup or sync tool asks. After the
 * last scan two change behind the client's back: LAB_SCAN_GROWN grows
 * (its size and times move), LAB_SCAN_UNSEEN is rewritten with the same
 * size and keeps its times (a change within one timestamp granule: only
 * the change cookie shows it). sync= is the way the scan asks:
 *   as-stat  statx of mtime, ctime and size (what stat() tools compare)
 *   dont     the directory listed once, then statx DONT_SYNC of the cookie
 *   force    statx FORCE_SYNC of the cookie
 */
#define LAB_SCAN_GROWN		0
#define LAB_SCAN_UNSEEN		1
#define LAB_SCAN_CHANGES	2
#define LAB_SCAN_N		16	/* files when the case line says no n= */
#define STATX_COOKIE		0x40000000U	/* STATX_CHANGE_COOKIE */

struct lab_case {
	unsigned int id;	/* its case line in the plan, from 1 */
	enum lab_workload workload;
	enum lab_cache cache;
	char call[8];		/* stat lstat fstatat statx; ls gnu-ls lsx */
	char form[8];		/* ls: plain color long inode */
	char sync[8];		/* as-stat dont force */
	char mask[32];		/* syscall, deep: as given (basic, type,ino) */
	unsigned int mask_bits;
	char object[8];		/* file dir symlink deep deeper */
	char opts[192];		/* mount options (NFS: without vers=) */
	bool nofollow;		/* AT_SYMLINK_NOFOLLOW (statx, fstatat) */
	unsigned int n;		/* entries listed, files walked, or 1 */
	unsigned int delay_ms;	/* per round trip, for the measured call */
	unsigned int expire_ms;	/* NFS expired: the wait; 0 from opts */
	unsigned int repeat;	/* runs of the measured call, 1 by default */
	int base;		/* the delay-0 twin's index in its plan, -1 */
	char cmd[256];		/* workload=cmd: a sh -c command */
	char line[320];		/* the case line it was read from */
};

extern const char *const lab_cache_names[];
extern const char *const lab_workload_names[];

int lab_sync_flags(const char *word);
int lab_mask_parse(const char *spec, unsigned int *bits);
int lab_case_parse(const char *line, const char *opts0, struct lab_case *k,
		   char *err, size_t errlen);
bool lab_is_case_line(const char *line);

void lab_json_str(FILE *f, const char *s);
void lab_case_keys(FILE *f, const char *kernel, const char *fs,
		   const char *mount_opts, const struct lab_case *k);

/* What a runner does the same way on every file system. */
int lab_call(const struct lab_case *k, const char *path, int dirfd,
	     const char *name, struct statx *stx);
const char *lab_ls_argv(const struct lab_case *k, const char *dir, bool json,
			const char *argv[8]);
void lab_deep_leaf(char *p, size_t len, const char *root, unsigned int leaf);
int lab_deep_walk(const char *root, int flags);
long long lab_now_us(void);

void lab_scan_name(char *p, size_t len, unsigned int i);
unsigned long long lab_stx_cookie(const struct statx *stx);
int lab_scan_change(int dfd, unsigned int i);
int lab_rewrite_unseen(int dfd, const char *name);

#endif /* LAB_CASE_H */
