// SPDX-License-Identifier: GPL-2.0
/*
 * fusecount: serve BACKING_DIR at MOUNTPOINT through FUSE and count every
 * request the kernel sends, by opcode; the counts and a trace of recent
 * requests are read over a Unix socket (-o ctl=PATH, see ctl.c) so that
 * reading them costs no request.  FUSE_STATX (FUSE 7.39) is answered by
 * the daemon itself, see statx.c.
 *
 * main() parses and checks the arguments, sets up the node table, the
 * session and the control socket, mounts, runs the loop (loop.c) and
 * unwinds in reverse.  Exit status: 0 after a clean unmount or signal,
 * 1 when setup or serving fails, 2 for bad usage.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctl.h"
#include "loop.h"
#include "ops.h"
#include "statx.h"

enum {
	FC_EXIT_OK,
	FC_EXIT_FAIL,
	FC_EXIT_USAGE,
};

#define FC_MAX_THREADS	256

/* -o values, kept as strings so that each is checked whole */
struct fc_config {
	char *entry_timeout;
	char *attr_timeout;
	char *negative_timeout;
	char *readdirplus;
	char *delay_us;
	char *threads;
	char *ctl;
	char *ctl_mode;
	char *statx_drop;
	char *deny_uid;
	int default_permissions;
	int nostatx;
	int dont_sync_entries;
	int change_cookie;
	int time_gran;
	int dry_run;
	char *backing;		/* the first non-option argument */
};

/* What the checks above make of them */
struct fc_settings {
	double entry_timeout;
	double attr_timeout;
	double negative_timeout;
	enum fc_rdp readdirplus;
	unsigned int delay_us;
	unsigned int threads;
	bool nostatx;
	char ctl[108];		/* absolute, fits sun_path; "" for none */
	mode_t ctl_mode;
	uint32_t statx_drop;	/* STATX_* bits taken out of STATX replies */
	uid_t deny_uid;		/* FC_NO_UID: nobody */
	bool dont_sync_entries;
	bool change_cookie;
	bool time_gran;
};

#define FC_OPT(t, f, v)	{ t, offsetof(struct fc_config, f), v }

static const struct fuse_opt fc_opts[] = {
	FC_OPT("entry_timeout=%s", entry_timeout, 0),
	FC_OPT("attr_timeout=%s", attr_timeout, 0),
	FC_OPT("negative_timeout=%s", negative_timeout, 0),
	FC_OPT("readdirplus=%s", readdirplus, 0),
	FC_OPT("delay_us=%s", delay_us, 0),
	FC_OPT("threads=%s", threads, 0),
	FC_OPT("ctl=%s", ctl, 0),
	FC_OPT("ctl_mode=%s", ctl_mode, 0),
	FC_OPT("statx_drop=%s", statx_drop, 0),
	FC_OPT("deny_uid=%s", deny_uid, 0),
	FC_OPT("nostatx", nostatx, 1),
	FC_OPT("dont_sync_entries", dont_sync_entries, 1),
	FC_OPT("change_cookie", change_cookie, 1),
	FC_OPT("time_gran", time_gran, 1),
	FC_OPT("--dry-run", dry_run, 1),
	/* Ours to report, and libfuse's to pass to the kernel */
	FC_OPT("default_permissions", default_permissions, 1),
	FUSE_OPT_KEY("default_permissions", FUSE_OPT_KEY_KEEP),
	FUSE_OPT_END
};

static const char *const fc_rdp_names[] = {
	[FC_RDP_AUTO] = "auto",
	[FC_RDP_ON] = "on",
	[FC_RDP_OFF] = "off",
};

static void fc_help(void)
{
	printf("usage: fusecount [options] BACKING_DIR MOUNTPOINT\n");
	printf("\nServe BACKING_DIR at MOUNTPOINT, counting FUSE requests.\n\n"
	       "    -o entry_timeout=SECS    name cache timeout (1.0)\n"
	       "    -o attr_timeout=SECS     attribute cache timeout (1.0)\n"
	       "    -o negative_timeout=SECS negative name cache timeout (0)\n"
	       "    -o default_permissions   let the kernel check permissions\n"
	       "    -o readdirplus=on|off|auto  READDIRPLUS use (auto)\n"
	       "    -o delay_us=N            sleep N us per request (0)\n"
	       "    -o ctl=SOCKET            serve counters on this socket (mode\n"
	       "                             0600; its directory is made 0700 if\n"
	       "                             missing, refused if others can write)\n"
	       "    -o ctl_mode=MODE         the socket's mode instead, octal, 0600\n"
	       "                             to 0666 (0660: the group may connect)\n"
	       "    -o threads=N             worker threads (1)\n"
	       "    -o nostatx               leave FUSE_STATX to libfuse (ENOSYS),\n"
	       "                             like a daemon without statx\n"
	       "    -o statx_drop=MASK       clear these STATX_* bits (hex or decimal,\n"
	       "                             within 0xfff) and their fields in every\n"
	       "                             FUSE_STATX reply, like a daemon whose\n"
	       "                             backend lacks them (0x800: no btime)\n"
	       "    -o deny_uid=UID          answer EACCES to every LOOKUP from UID,\n"
	       "                             like a daemon checking each caller\n"
	       "    -o dont_sync_entries     let statx(AT_STATX_DONT_SYNC) walks reuse\n"
	       "                             expired entries (FUSE_DONT_SYNC_ENTRIES,\n"
	       "                             if the kernel offers it)\n"
	       "    -o change_cookie         report the backing file's change cookie\n"
	       "                             in FUSE_STATX (FUSE_STATX_CHANGE_COOKIE,\n"
	       "                             if the kernel offers it)\n"
	       "    -o time_gran             give the kernel the backing file\n"
	       "                             system's timestamp granularity in\n"
	       "                             FUSE_INIT (if the kernel reports it:\n"
	       "                             STATX_TIME_GRAN)\n"
	       "    --dry-run                check, but do not mount\n\n"
	       "    -h   --help              print help\n"
	       "    -V   --version           print version\n"
	       "    -d   -o debug            enable debug output (implies -f)\n"
	       "    -f                       foreground operation\n"
	       "    -s                       one worker thread (-o threads=1)\n");
	/*
	 * Not fuse_cmdline_help(): its loop options (clone_fd, max_threads,
	 * max_idle_threads) are libfuse's loop's, and fusecount runs its own.
	 */
	fuse_lowlevel_help();
}

/* BACKING_DIR is ours; MOUNTPOINT is left for fuse_parse_cmdline() */
static int fc_opt_proc(void *data, const char *arg, int key,
		       struct fuse_args *outargs)
{
	struct fc_config *cfg = data;

	(void)outargs;
	if (key != FUSE_OPT_KEY_NONOPT || cfg->backing)
		return 1;
	cfg->backing = strdup(arg);
	return cfg->backing ? 0 : -1;
}

static bool fc_bad(const char *key, const char *val, const char *want)
{
	fprintf(stderr, "fusecount: %s=%s: expected %s\n", key, val, want);
	return false;
}

static bool fc_parse_secs(const char *key, const char *s, double *out)
{
	char *end;
	double v;

	if (!s)
		return true;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(v) || v < 0)
		return fc_bad(key, s, "seconds, a number >= 0");
	*out = v;
	return true;
}

static bool fc_parse_uint(const char *key, const char *s, unsigned int min,
			  unsigned int max, unsigned int *out)
{
	unsigned long v;
	char *end;

	if (!s)
		return true;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (*s < '0' || *s > '9' || *end || errno || v < min || v > max) {
		fprintf(stderr,
			"fusecount: %s=%s: expected an integer from %u to %u\n",
			key, s, min, max);
		return false;
	}
	*out = v;
	return true;
}

/* Hex with 0x, else decimal: STATX_* masks are written both ways */
static bool fc_parse_statx_drop(const char *s, uint32_t *out)
{
	const uint32_t all = STATX_BASIC_STATS | STATX_BTIME;
	bool hex = s && (!strncmp(s, "0x", 2) || !strncmp(s, "0X", 2));
	const char *digits = hex ? s + 2 : s;
	unsigned long v;
	char *end;

	if (!s)
		return true;
	errno = 0;
	v = strtoul(digits, &end, hex ? 16 : 10);
	if (!isxdigit((unsigned char)*digits) || *end || errno || v & ~all)
		return fc_bad("statx_drop", s,
			      "a mask of STATX_* bits within 0xfff (STATX_BASIC_STATS|STATX_BTIME), hex (0x800) or decimal");
	*out = v;
	return true;
}

/* Octal, as chmod takes it; the owner must keep read and write */
static bool fc_parse_ctl_mode(const char *s, mode_t *out)
{
	unsigned long v;
	char *end;

	if (!s)
		return true;
	errno = 0;
	v = strtoul(s, &end, 8);
	if (*s < '0' || *s > '7' || *end || errno || (v & ~0666UL) ||
	    (v & 0600) != 0600)
		return fc_bad("ctl_mode", s,
			      "an octal socket mode from 0600 to 0666 (owner rw, no x bits)");
	*out = v;
	return true;
}

static bool fc_parse_deny_uid(const char *s, uid_t *out)
{
	unsigned int v;

	if (!s)
		return true;
	/* (uid_t)-1 is no uid: setuid(2) takes it as "unchanged" */
	if (!fc_parse_uint("deny_uid", s, 0, FC_NO_UID - 1, &v))
		return false;
	*out = v;
	return true;
}

static bool fc_parse_rdp(const char *s, enum fc_rdp *out)
{
	unsigned int i;

	if (!s)
		return true;
	for (i = 0; i < ARRAY_SIZE(fc_rdp_names); i++) {
		if (!strcmp(s, fc_rdp_names[i])) {
			*out = i;
			return true;
		}
	}
	return fc_bad("readdirplus", s, "on, off or auto");
}

/* Relative paths would break after fuse_daemonize() changes to "/" */
static bool fc_parse_ctl(const char *s, char *out, size_t size)
{
	char cwd[PATH_MAX];
	int n;

	if (!s)
		return true;
	if (!*s)
		return fc_bad("ctl", s, "a socket path");
	if (*s == '/')
		n = snprintf(out, size, "%s", s);
	else if (getcwd(cwd, sizeof(cwd)))
		n = snprintf(out, size, "%s/%s", cwd, s);
	else
		n = -1;
	if (n < 0 || (size_t)n >= size)
		return fc_bad("ctl", s, "a socket path under 108 bytes");
	return true;
}

/* Options that mean nothing without another are refused, not ignored */
static bool fc_check_combined(const struct fc_config *cfg)
{
	if (cfg->ctl_mode && !cfg->ctl) {
		fprintf(stderr, "fusecount: ctl_mode=%s: needs ctl=SOCKET\n",
			cfg->ctl_mode);
		return false;
	}
	if (cfg->statx_drop && cfg->nostatx) {
		fprintf(stderr,
			"fusecount: statx_drop=%s: no FUSE_STATX reply to change with nostatx\n",
			cfg->statx_drop);
		return false;
	}
	return true;
}

static bool fc_check_options(struct fc_config *cfg, struct fc_settings *set)
{
	set->nostatx = cfg->nostatx;
	set->dont_sync_entries = cfg->dont_sync_entries;
	set->change_cookie = cfg->change_cookie;
	set->time_gran = cfg->time_gran;
	return fc_check_combined(cfg) &&
	       fc_parse_secs("entry_timeout", cfg->entry_timeout,
			     &set->entry_timeout) &&
	       fc_parse_secs("attr_timeout", cfg->attr_timeout,
			     &set->attr_timeout) &&
	       fc_parse_secs("negative_timeout", cfg->negative_timeout,
			     &set->negative_timeout) &&
	       fc_parse_rdp(cfg->readdirplus, &set->readdirplus) &&
	       fc_parse_uint("delay_us", cfg->delay_us, 0, FC_CTL_DELAY_MAX,
			     &set->delay_us) &&
	       fc_parse_uint("threads", cfg->threads, 1, FC_MAX_THREADS,
			     &set->threads) &&
	       fc_parse_ctl(cfg->ctl, set->ctl, sizeof(set->ctl)) &&
	       fc_parse_ctl_mode(cfg->ctl_mode, &set->ctl_mode) &&
	       fc_parse_statx_drop(cfg->statx_drop, &set->statx_drop) &&
	       fc_parse_deny_uid(cfg->deny_uid, &set->deny_uid);
}

static bool fc_check_dir(const char *what, const char *path)
{
	struct stat st;

	if (!path) {
		fprintf(stderr,
			"fusecount: missing %s (usage: fusecount [options] BACKING_DIR MOUNTPOINT)\n",
			what);
		return false;
	}
	if (stat(path, &st) == -1) {
		fprintf(stderr, "fusecount: %s: %s\n", path, strerror(errno));
		return false;
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "fusecount: %s: %s is not a directory\n", path,
			what);
		return false;
	}
	return true;
}

/* Return: 0 to go on, or the exit status */
static int fc_parse_args(struct fuse_args *args, struct fc_config *cfg,
			 struct fuse_cmdline_opts *opts,
			 struct fc_settings *set)
{
	/* libfuse has said what is wrong, in one line */
	if (fuse_opt_parse(args, cfg, fc_opts, fc_opt_proc) == -1 ||
	    fuse_parse_cmdline(args, opts) == -1)
		return FC_EXIT_USAGE;
	if (opts->show_help) {
		fc_help();
		return FC_EXIT_OK;
	}
	if (opts->show_version) {
		/* built in (static): the headers' version is the library's */
		printf("fusecount, FUSE library %d.%d\n", FUSE_MAJOR_VERSION,
		       FUSE_MINOR_VERSION);
		return FC_EXIT_OK;
	}
	if (!fc_check_options(cfg, set) ||
	    !fc_check_dir("BACKING_DIR", cfg->backing) ||
	    !fc_check_dir("MOUNTPOINT", opts->mountpoint))
		return FC_EXIT_USAGE;
	if (opts->singlethread)
		set->threads = 1;
	return 0;
}

/*
 * One O_PATH fd per inode the kernel knows, as passthrough_ll keeps: a
 * listing of 10000 entries needs more than the usual 1024 soft limit.
 * Raise it to the hard limit; if that fails, the daemon still runs and
 * lookups beyond the limit fail with EMFILE.
 */
static void fc_raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur >= rl.rlim_max)
		return;
	rl.rlim_cur = rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &rl))
		fprintf(stderr, "fusecount: RLIMIT_NOFILE: %s\n",
			strerror(errno));
}

static int fc_setup_data(struct fc_data *d, const char *backing,
			 const struct fc_settings *set, bool debug)
{
	int fd, err;

	fd = open(backing, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd == -1) {
		fprintf(stderr, "fusecount: %s: %s\n", backing,
			strerror(errno));
		return -1;
	}
	err = fc_data_init(d, fd);
	if (err) {
		fprintf(stderr, "fusecount: %s: %s\n", backing, strerror(-err));
		return -1;
	}
	d->entry_timeout = set->entry_timeout;
	d->attr_timeout = set->attr_timeout;
	d->negative_timeout = set->negative_timeout;
	d->readdirplus = set->readdirplus;
	d->delay_us = set->delay_us;
	d->nostatx = set->nostatx;
	d->statx_drop = set->statx_drop;
	d->deny_uid = set->deny_uid;
	d->dont_sync_entries = set->dont_sync_entries;
	d->change_cookie = set->change_cookie;
	d->time_gran = set->time_gran ? fc_statx_time_gran(fd) : 0;
	if (set->time_gran && !d->time_gran)
		fprintf(stderr,
			"fusecount: %s: the kernel does not report its timestamp granularity (STATX_TIME_GRAN): none given to FUSE\n",
			backing);
	d->debug = debug;
	return 0;
}

static int fc_setup_ctl(struct fc_ctl *ctl, const struct fc_settings *set,
			struct fc_data *d)
{
	const char *path = set->ctl;
	int err;

	err = fc_ctl_open(ctl, path, set->ctl_mode, &d->stats, &d->trace);
	ctl->delay_us = &d->delay_us;
	if (err == -EPERM)
		fprintf(stderr,
			"fusecount: %s: its directory must be ours and not writable by group or others (use a private one, e.g. from mktemp -d)\n",
			path);
	else if (err == -EADDRINUSE)
		fprintf(stderr,
			"fusecount: %s: in use by a running fusecount\n", path);
	else if (err == -EEXIST)
		fprintf(stderr, "fusecount: %s: exists and is not a socket\n",
			path);
	else if (err)
		fprintf(stderr, "fusecount: %s: %s\n", path, strerror(-err));
	return err;
}

static void fc_print_dry_run(const struct fc_config *cfg,
			     const struct fuse_cmdline_opts *opts,
			     const struct fc_settings *set)
{
	printf("backing=%s\nmountpoint=%s\n", cfg->backing, opts->mountpoint);
	printf("entry_timeout=%g\nattr_timeout=%g\nnegative_timeout=%g\n",
	       set->entry_timeout, set->attr_timeout, set->negative_timeout);
	printf("readdirplus=%s\ndelay_us=%u\nthreads=%u\nctl=%s\n",
	       fc_rdp_names[set->readdirplus], set->delay_us, set->threads,
	       set->ctl);
	printf("ctl_mode=%04o\n", (unsigned int)set->ctl_mode);
	printf("default_permissions=%s\nnostatx=%s\n",
	       cfg->default_permissions ? "on" : "off",
	       set->nostatx ? "on" : "off");
	printf("statx_drop=0x%x\n", set->statx_drop);
	printf("dont_sync_entries=%s\n",
	       set->dont_sync_entries ? "on" : "off");
	printf("change_cookie=%s\n", set->change_cookie ? "on" : "off");
	printf("time_gran=%s\n", set->time_gran ? "on" : "off");
	if (set->deny_uid == FC_NO_UID)
		printf("deny_uid=none\n");
	else
		printf("deny_uid=%u\n", (unsigned int)set->deny_uid);
}

static int fc_check_dev_fuse(void)
{
	int fd, err;

	fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	err = errno;
	fprintf(stderr, "fusecount: /dev/fuse: %s%s\n", strerror(err),
		err == ENOENT || err == ENODEV || err == ENXIO ?
		" (is CONFIG_FUSE_FS enabled?)" : "");
	return -err;
}

static int fc_mount(struct fuse_session *se, const char *mountpoint)
{
	int err;

	if (fuse_session_mount(se, mountpoint) != 0)
		return -1;
	/* Same fd; every reply now passes through fc_io_writev() */
	err = fuse_session_custom_io(se, &fc_io, fuse_session_fd(se));
	if (err) {
		fprintf(stderr, "fusecount: custom io: %s\n", strerror(-err));
		fuse_session_unmount(se);
		return -1;
	}
	return 0;
}

/* Mount, serve until unmount or signal, unmount.  Return: exit status */
static int fc_serve(struct fuse_session *se, struct fc_data *d,
		    struct fc_ctl *ctl, const struct fc_settings *set,
		    const struct fuse_cmdline_opts *opts)
{
	int ret = FC_EXIT_FAIL, err;

	if (fc_check_dev_fuse())
		return FC_EXIT_FAIL;
	if (fuse_set_signal_handlers(se) != 0)
		return FC_EXIT_FAIL;
	if (fc_mount(se, opts->mountpoint))
		goto out_signals;
	/* Threads come after the fork in fuse_daemonize(), never before */
	if (fuse_daemonize(opts->foreground) != 0)
		goto out_unmount;
	err = *set->ctl ? fc_ctl_start(ctl) : 0;
	if (err) {
		fprintf(stderr, "fusecount: %s: %s\n", set->ctl,
			strerror(-err));
		goto out_unmount;
	}
	/*
	 * delay_us is an emulated latency: the default 50 us of timer slack
	 * would lengthen every delayed request (the workers inherit this).
	 */
	prctl(PR_SET_TIMERSLACK, 1UL);
	err = fc_loop_run(se, d, set->threads);
	if (err)
		fprintf(stderr, "fusecount: %s\n", strerror(-err));
	else
		ret = FC_EXIT_OK;

out_unmount:
	fuse_session_unmount(se);
out_signals:
	fuse_remove_signal_handlers(se);
	return ret;
}

static void fc_config_free(struct fc_config *cfg)
{
	free(cfg->entry_timeout);
	free(cfg->attr_timeout);
	free(cfg->negative_timeout);
	free(cfg->readdirplus);
	free(cfg->delay_us);
	free(cfg->threads);
	free(cfg->ctl);
	free(cfg->ctl_mode);
	free(cfg->statx_drop);
	free(cfg->deny_uid);
	free(cfg->backing);
}

int main(int argc, char *argv[])
{
	struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
	struct fc_settings set = {
		.entry_timeout = 1.0,
		.attr_timeout = 1.0,
		.readdirplus = FC_RDP_AUTO,
		.threads = 1,
		.ctl_mode = FC_CTL_MODE,
		.deny_uid = FC_NO_UID,
	};
	struct fuse_cmdline_opts opts = { 0 };
	struct fc_config cfg = { 0 };
	struct fuse_session *se;
	struct fc_ctl ctl = { .lfd = -1, .stop = { -1, -1 } };
	struct fc_data d;
	int ret;

	/*
	 * Modes arrive already masked by the caller's umask.  The control
	 * socket does not depend on it: fc_ctl_open() sets its mode.
	 */
	umask(0);
	fc_raise_nofile();
	ret = fc_parse_args(&args, &cfg, &opts, &set);
	if (ret || opts.show_help || opts.show_version)
		goto out_args;

	ret = FC_EXIT_USAGE;
	if (fc_setup_data(&d, cfg.backing, &set, opts.debug))
		goto out_args;
	/* It refuses unknown -o options, so a failure is a usage error */
	se = fuse_session_new(&args, &fc_oper, sizeof(fc_oper), &d);
	if (!se)
		goto out_data;

	ret = FC_EXIT_FAIL;
	if (*set.ctl && fc_setup_ctl(&ctl, &set, &d))
		goto out_session;
	if (cfg.dry_run) {
		fc_print_dry_run(&cfg, &opts, &set);
		ret = FC_EXIT_OK;
	} else {
		ret = fc_serve(se, &d, &ctl, &set, &opts);
	}
	fc_ctl_close(&ctl);
out_session:
	fuse_session_destroy(se);
out_data:
	fc_data_destroy(&d);
out_args:
	fc_config_free(&cfg);
	free(opts.mountpoint);
	fuse_opt_free_args(&args);
	return ret;
}
