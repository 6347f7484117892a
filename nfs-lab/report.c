// SPDX-License-Identifier: GPL-2.0
/*
 * A case's results: one JSON object ("@case ...", the schema is in
 * README.md) and one table row ("@row ..."), both from the counter deltas
 * of the server (knfsd) and of the client (the mount's mountstats).
 */
#include <stdio.h>
#include <string.h>

#include "labcase.h"

#define ROW_OPS_MAX 160

/* What the server counted: its JSON object, the row's op list, calls. */
static uint64_t report_server(struct lab_buf *j, struct lab_buf *ops,
			      const struct lc_run *r,
			      const struct nfsd_counts *a,
			      const struct nfsd_counts *b)
{
	const char *sep = "";
	uint64_t d, calls = 0;
	unsigned int i;

	buf_printf(j, "\"server\":{");
	if (r->v4) {
		calls = b->compound - a->compound + b->v4null - a->v4null;
		buf_printf(j, "\"COMPOUND\":%llu",
			   (unsigned long long)(b->compound - a->compound));
		if (b->v4null != a->v4null)
			buf_printf(j, ",\"NULL\":%llu",
				   (unsigned long long)(b->v4null - a->v4null));
		sep = ",";
	}
	for (i = 0; i < (r->v4 ? NFSD_V4_OPS : NFSD_V3_PROCS); i++) {
		d = r->v4 ? b->op[i] - a->op[i] : b->v3[i] - a->v3[i];
		if (!d)
			continue;
		if (!r->v4)
			calls += d;
		buf_printf(j, "%s\"%s\":%llu", sep,
			   r->v4 ? nfsd_v4_names[i] : nfsd_v3_names[i],
			   (unsigned long long)d);
		buf_printf(ops, "%s%s=%llu", ops->len ? " " : "",
			   r->v4 ? nfsd_v4_names[i] : nfsd_v3_names[i],
			   (unsigned long long)d);
		sep = ",";
	}
	buf_printf(j, "},");
	return calls;
}

/* What the client counted: per-op RPCs (calls), retransmissions, events. */
static void report_client(struct lab_buf *j, const struct mstats *a,
			  const struct mstats *b, uint64_t *calls,
			  uint64_t *retrans)
{
	const char *sep = "";
	uint64_t d;
	unsigned int i;

	*calls = *retrans = 0;
	buf_printf(j, "\"client\":{");
	for (i = 0; i < a->nops && i < b->nops; i++) {
		d = b->op[i].ops - a->op[i].ops;
		*calls += d;
		*retrans += b->op[i].trans - a->op[i].trans - d;
		if (!d || strcmp(a->op[i].name, b->op[i].name))
			continue;
		buf_printf(j, "%s\"%s\":%llu", sep, b->op[i].name,
			   (unsigned long long)d);
		sep = ",";
	}
	buf_printf(j, "},\"events\":{");
	for (i = 0, sep = ""; i < MSTATS_EVENTS; i++) {
		d = b->events[i] - a->events[i];
		if (!d)
			continue;
		buf_printf(j, "%s\"%s\":%llu", sep, mstats_event_names[i],
			   (unsigned long long)d);
		sep = ",";
	}
	buf_printf(j, "},");
}

static void report_what(struct lab_buf *j, struct lab_buf *what,
			const struct lab_case *k)
{
	buf_printf(j, "\"workload\":\"%s\",",
		   k->workload == W_LS	 ? "ls" :
		   k->workload == W_CMD	 ? "cmd" :
		   k->workload == W_DEEP ? "deep" :
					   "syscall");
	if (k->workload == W_CMD) {
		buf_printf(j, "\"cmd\":");
		buf_json_str(j, k->cmd);
		buf_printf(j, ",\"n\":%u,", k->n);
		buf_printf(what, "cmd %.20s", k->cmd);
		return;
	}
	buf_printf(j, "\"call\":\"%s\",", k->call);
	if (k->workload == W_LS)
		buf_printf(j, "\"form\":\"%s\",", k->form);
	buf_printf(j, "\"sync\":\"%s\",", k->sync);
	if (k->workload == W_SYSCALL || k->workload == W_DEEP) {
		buf_printf(j, "\"mask\":");
		buf_json_str(j, k->mask);
		buf_printf(j, ",");
	}
	buf_printf(j, "\"object\":\"%s\",\"path\":\"%s\",", k->object,
		   case_object_path(k));
	if (k->nofollow)
		buf_printf(j, "\"nofollow\":true,");
	if (k->workload == W_LS) {
		buf_printf(j, "\"n\":%u,", k->n);
		buf_printf(what, "%s %s n=%u%s", k->call, k->form, k->n,
			   strcmp(k->sync, "dont") ? "" : " dont");
		return;
	}
	if (k->workload == W_DEEP) {
		buf_printf(j, "\"n\":%u,", k->n);
		buf_printf(what, "tree of %u/%s", k->n, k->sync);
		return;
	}
	buf_printf(what, "%s", k->call);
	if (!strcmp(k->call, "statx"))
		buf_printf(what, "/%s/%s", k->sync, k->mask);
	if (k->nofollow)
		buf_printf(what, "/nofollow");
}

static void report_result(struct lab_buf *j, const struct lab_case *k,
			  const struct lc_result *res)
{
	if (k->workload == W_LS || k->workload == W_CMD) {
		buf_printf(j, "\"status\":%d,", res->status);
		return;
	}
	if (res->err) {
		buf_printf(j, "\"errno\":\"%s\",",
			   strerrorname_np(res->err) ?: "?");
		return;
	}
	if (k->workload == W_DEEP)
		return;
	if (res->statx)
		buf_printf(j, "\"result_mask\":\"0x%x\",\"btime\":%s,",
			   res->stx.stx_mask,
			   res->stx.stx_mask & STATX_BTIME ? "true" : "false");
	buf_printf(j, "\"mode\":\"%04o\",\"ino\":%llu,",
		   res->stx.stx_mode & 07777,
		   (unsigned long long)res->stx.stx_ino);
	if (!strcmp(k->cache, "changed"))
		buf_printf(j, "\"seen\":%s,",
			   res->seen < 0 ? "null" :
			   res->seen	 ? "true" :
					   "false");
}

void report_header(void)
{
	printf("%-7s %-6s %-22s %-22s %-7s %-7s %5s %5s %6s %4s %9s  %s\n",
	       "kernel", "fs", "opts", "call", "object", "cache", "delay",
	       "calls", "client", "retr", "wall_us", "server ops");
}

/**
 * report_case - print a case's "@case" JSON line and "@row" table line
 * @c: the case
 * @before: counters before the measured call
 * @after: and after it
 * @res: the call's result
 */
void report_case(const struct lc_ctx *c, const struct lc_snap *before,
		 const struct lc_snap *after, const struct lc_result *res)
{
	static char json[16384];
	char ops[ROW_OPS_MAX], what[64];
	const struct lab_case *k = c->k;
	const struct lc_run *r = c->run;
	struct lab_buf j, o, w;
	uint64_t calls, ccalls, retrans;

	buf_init(&j, json, sizeof(json));
	buf_init(&o, ops, sizeof(ops));
	buf_init(&w, what, sizeof(what));
	buf_printf(&j, "{\"id\":%u,\"kernel\":", k->id);
	buf_json_str(&j, r->kernel);
	buf_printf(&j, ",\"fs\":\"%s\",\"mount_opts\":\"vers=%s%s%s\",", r->fs,
		   r->vers, k->opts[0] ? "," : "", k->opts);
	report_what(&j, &w, k);
	buf_printf(&j, "\"cache\":\"%s\",\"delay_ms\":%u,", k->cache,
		   k->delay_ms);
	if (!strcmp(k->cache, "expired"))
		buf_printf(&j, "\"expire_ms\":%u,", case_expire_ms(k));
	report_result(&j, k, res);
	calls = report_server(&j, &o, r, &before->srv, &after->srv);
	report_client(&j, &before->cli, &after->cli, &ccalls, &retrans);
	buf_printf(&j,
		   "\"calls\":%llu,\"client_calls\":%llu,\"retrans\":%llu,"
		   "\"wall_us\":%lld}",
		   (unsigned long long)calls, (unsigned long long)ccalls,
		   (unsigned long long)retrans, res->wall_us);
	if (j.full)
		fprintf(stderr, "labcase: case %u: JSON truncated\n", k->id);
	else
		printf("@case %s\n", json);
	if (o.full)
		memcpy(ops + sizeof(ops) - 4, "...", 4);
	printf("@row %-7s %-6s %-22s %-22s %-7s %-7s %5u %5llu %5llu%c %4llu "
	       "%9lld  %s\n",
	       r->kernel, r->fs, k->opts[0] ? k->opts : "-", what,
	       k->workload == W_CMD ? "-" : k->object, k->cache, k->delay_ms,
	       (unsigned long long)calls, (unsigned long long)ccalls,
	       ccalls != calls ? '*' : ' ', (unsigned long long)retrans,
	       res->wall_us, ops);
}
