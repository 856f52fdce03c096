/*
 * Small helpers shared by the Linux backend's files: paths under ctx->root,
 * reading and writing one-value files, number and on/off parsing.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "os/os_impl.h"
#include "os/linux_impl.h"
#include "util/util.h"

int
linux_live(struct os_ctx *ctx)
{
	return ctx->root[0] == '\0';
}

void
linux_rpath(struct os_ctx *ctx, char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	n = (size_t)snprintf(buf, len, "%s", ctx->root);
	if (n >= len)
		n = len - 1;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

/* Reads a small file; value without trailing white space. */
int
linux_readval(const char *path, char *buf, size_t len)
{
	int fd;
	ssize_t n;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return 0;
}

long
linux_readlong(const char *path, long def)
{
	char buf[64], *end;
	long v;

	if (linux_readval(path, buf, sizeof buf) != 0)
		return def;
	v = strtol(buf, &end, 0);
	if (end == buf)
		return def;
	return v;
}

/* Writes value to the file at path; -1 with errno (0 after a short write) and cause. */
int
linux_writeval(const char *path, const char *value, char **cause)
{
	int fd, err;
	size_t n = strlen(value);
	ssize_t w;

	/* O_TRUNC as sh's > and sysctl -w (fopen "w"): a regular file standing for one (a test's) keeps no old tail. */
	if ((fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)) == -1) {
		err = errno;
		util_cause(cause, "cannot open '%s': %s", path, strerror(err));
		errno = err;
		return -1;
	}
	w = write(fd, value, n);
	err = w < 0 ? errno : 0;
	if (w < 0 || (size_t)w != n) {
		util_cause(cause, "%s", w < 0 ? strerror(err) : "short write");
		close(fd);
		errno = err;
		return -1;
	}
	if (close(fd) != 0) {
		err = errno;
		util_cause(cause, "%s", strerror(err));
		errno = err;
		return -1;
	}
	return 0;
}

const char *
linux_link_basename(const char *path, char *buf, size_t len)
{
	char tmp[PATH_MAX];
	ssize_t n;
	const char *p;

	if ((n = readlink(path, tmp, sizeof tmp - 1)) < 0)
		return NULL;
	tmp[n] = '\0';
	p = strrchr(tmp, '/');
	os_strlcpy(buf, p != NULL ? p + 1 : tmp, len);
	return buf;
}

int
linux_parse_int(const char *s, long *v)
{
	char *end;

	errno = 0;
	while (isspace((unsigned char)*s))
		s++;
	if (*s == '\0')
		return -1;
	*v = strtol(s, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	if (*end != '\0' || errno != 0)
		return -1;
	return 0;
}

int
linux_parse_onoff(const char *s)
{
	if (strcmp(s, "on") == 0 || strcmp(s, "1") == 0 || strcmp(s, "yes") == 0 ||
	    strcmp(s, "true") == 0)
		return 1;
	if (strcmp(s, "off") == 0 || strcmp(s, "0") == 0 || strcmp(s, "no") == 0 ||
	    strcmp(s, "false") == 0)
		return 0;
	return -1;
}

char *
linux_join_values(char *const *v, size_t n)
{
	struct strbuf sb;
	size_t i;

	for (i = 1; i < n && strcmp(v[i], v[0]) == 0; i++)
		;
	if (i == n)
		return xstrdup(v[0]);
	strbuf_init(&sb);
	for (i = 0; i < n; i++) {
		if (i > 0)
			strbuf_addc(&sb, ' ');
		strbuf_adds(&sb, v[i]);
	}
	return strbuf_detach(&sb);
}
