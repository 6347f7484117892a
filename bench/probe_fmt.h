/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Turn a struct statx into text or JSON.
 *
 * No syscalls here: callers hand in a filled struct statx (from statx()
 * or converted from struct stat) and a FILE* to write to.
 */
#ifndef PROBE_FMT_H
#define PROBE_FMT_H

#include <stdint.h>
#include <stdio.h>

#include "probe_compat.h"

/* 64 flag characters, a space between each byte, NUL. */
#define PROBE_ATTR_PICTURE_LEN	(64 + 7 + 1)
#define PROBE_TIME_LEN		64

/* What was asked for; echoed in the output next to what came back. */
struct probe_report {
	const char *call;
	const char *path;
	const char *sync;
	unsigned int request_mask;
	unsigned int flags;
};

void probe_stat_to_statx(const struct stat *st, struct statx *stx);

uint64_t probe_stx_mnt_id(const struct statx *stx);
void probe_stx_set_mnt_id(struct statx *stx, uint64_t mnt_id);
uint32_t probe_stx_dio_mem_align(const struct statx *stx);
uint32_t probe_stx_dio_offset_align(const struct statx *stx);
void probe_stx_set_dioalign(struct statx *stx, uint32_t mem, uint32_t offset);
uint64_t probe_stx_change_cookie(const struct statx *stx);
void probe_stx_set_change_cookie(struct statx *stx, uint64_t cookie);
uint32_t probe_stx_time_gran(const struct statx *stx);
void probe_stx_set_time_gran(struct statx *stx, uint32_t ns);

const char *probe_type_name(unsigned int mode);
void probe_attr_picture(char *out, uint64_t attributes, uint64_t attr_mask);
void probe_format_time(char *buf, size_t len,
		       const struct statx_timestamp *ts, int iso);

void probe_json_string(FILE *f, const char *s);
void probe_print_text(FILE *f, const struct probe_report *rep,
		      const struct statx *stx);
void probe_print_json(FILE *f, const struct probe_report *rep,
		      const struct statx *stx);
void probe_print_json_error(FILE *f, const struct probe_report *rep, int err);

#endif /* PROBE_FMT_H */
