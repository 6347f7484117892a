// SPDX-License-Identifier: GPL-2.0
/*
 * fusecount-ctl: send one command to a running fusecount's control socket
 * (-o ctl=SOCKET) and print the reply.
 *
 *   fusecount-ctl SOCKET stats|reset|trace on|off|dump|delay US
 *
 * Exit status: 0 for a reply; 2 for bad usage, no socket at SOCKET, or a
 * command the daemon refuses (its "error: ..." line); 1 when the socket
 * cannot be reached otherwise or the reply is incomplete.  The daemon reads one
 * command per line: a word holding a newline (or any control character)
 * is refused here, so that no argument can carry a second command.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#define CTL_LINE_MAX	256
#define CTL_TIMEOUT_S	10

static const char *prog = "fusecount-ctl";

#define CTL_USAGE	"usage: fusecount-ctl SOCKET stats|reset|trace on|off|dump|delay US"

static int bad_usage(void)
{
	fprintf(stderr, "%s\n", CTL_USAGE);
	return 2;
}

static const struct option ctl_options[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/*
 * Options come before SOCKET ('+': getopt stops at the first word that
 * is none, so a command word is never taken for an option).  Return:
 * the index of SOCKET, or -1 after --help, or -2 for a bad option.
 */
static int parse_options(int argc, char **argv)
{
	int opt;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+:h", ctl_options,
				  NULL)) != -1) {
		if (opt == 'h') {
			printf("%s\n", CTL_USAGE);
			return -1;
		}
		fprintf(stderr, "%s: unknown option '%s'\n", prog,
			argv[optind - 1]);
		return -2;
	}
	return optind;
}

/* Return: the first word with a control character, or NULL */
static const char *find_ctrl(int argc, char **argv)
{
	const unsigned char *p;
	int i;

	for (i = 0; i < argc; i++)
		for (p = (const unsigned char *)argv[i]; *p; p++)
			if (*p < 0x20 || *p == 0x7f)
				return argv[i];
	return NULL;
}

/* Join the command words with spaces, newline-terminated */
static int build_line(char *line, size_t size, int argc, char **argv)
{
	size_t len = 0, n;
	int i;

	for (i = 0; i < argc; i++) {
		n = strlen(argv[i]);
		if (len + n + 2 > size)
			return -1;
		memcpy(line + len, argv[i], n);
		len += n;
		line[len++] = i + 1 < argc ? ' ' : '\n';
	}
	line[len] = '\0';
	return len;
}

static int ctl_connect(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timeval tv = { .tv_sec = CTL_TIMEOUT_S };
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd == -1)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == -1) {
		int err = errno;

		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

/* Read until the server closes; return the reply, NUL-terminated */
static char *read_reply(int fd, size_t *lenp)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap), *p;
	ssize_t n;

	while (buf) {
		if (len + 1 == cap) {
			p = realloc(buf, cap * 2);
			if (!p)
				break;
			buf = p;
			cap *= 2;
		}
		n = recv(fd, buf + len, cap - len - 1, 0);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			break;
		if (n == 0) {
			buf[len] = '\0';
			*lenp = len;
			return buf;
		}
		len += n;
	}
	free(buf);
	return NULL;
}

/* A whole reply ends in a newline, and a dump in a line "end" */
static int check_reply(bool dump, const char *r, size_t len)
{
	if (!len || r[len - 1] != '\n')
		return -1;
	if (!strncmp(r, "error:", 6))
		return 1;
	if (dump && !(len == 4 && !memcmp(r, "end\n", 4)) &&
	    !(len > 4 && !memcmp(r + len - 5, "\nend\n", 5)))
		return -1;
	return 0;
}

/*
 * Why SOCKET could not be reached. No socket at that path is bad usage
 * (status 2); a socket nobody answers on is a daemon gone (status 1).
 */
static int connect_failed(const char *path, int err)
{
	struct stat st;
	bool other_file = !stat(path, &st) && !S_ISSOCK(st.st_mode);

	fprintf(stderr, "%s: %s: %s (is fusecount running with -o ctl=%s?)\n",
		prog, path, other_file ? "not a socket" : strerror(err), path);
	return other_file || err == ENOENT || err == ENOTDIR ? 2 : 1;
}

int main(int argc, char **argv)
{
	char line[CTL_LINE_MAX + 2], *reply;
	const char *path;
	size_t len;
	int fd, n, res;

	n = parse_options(argc, argv);
	if (n < 0)
		return n == -1 ? 0 : 2;
	argc -= n - 1;
	argv += n - 1;
	if (argc < 3)
		return bad_usage();
	path = argv[1];
	if (find_ctrl(argc - 2, argv + 2)) {
		fprintf(stderr,
			"%s: a command word holds a newline or another control character: refused (one command per line)\n",
			prog);
		return 2;
	}
	n = build_line(line, sizeof(line), argc - 2, argv + 2);
	if (n < 0)
		return bad_usage();

	fd = ctl_connect(path);
	if (fd == -1)
		return connect_failed(path, errno);
	if (send(fd, line, n, MSG_NOSIGNAL) != n) {
		fprintf(stderr, "%s: %s: send: %s\n", prog, path,
			strerror(errno));
		close(fd);
		return 1;
	}
	shutdown(fd, SHUT_WR);
	reply = read_reply(fd, &len);
	close(fd);
	if (!reply) {
		fprintf(stderr, "%s: %s: no reply: %s\n", prog, path,
			strerror(errno));
		return 1;
	}

	res = check_reply(argc == 3 && !strcmp(argv[2], "dump"), reply, len);
	if (res < 0)
		fprintf(stderr, "%s: %s: incomplete reply\n", prog, path);
	/* A refusal names the command it refuses, on its one line */
	if (res > 0)
		fprintf(stderr, "%s: '%.*s': ", prog, n - 1, line);
	fwrite(reply, 1, len, res ? stderr : stdout);
	free(reply);
	/* The daemon refused the command: bad usage, as a bad option */
	return res > 0 ? 2 : res < 0 ? 1 : 0;
}
