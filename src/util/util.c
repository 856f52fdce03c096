#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <math.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"

static void
oom(void)
{
	fputs("ntune: out of memory\n", stderr);
	abort();
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		oom();
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		oom();
	return p;
}

void *
xreallocarray(void *p, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size)
		oom();
	if ((p = realloc(p, n * size != 0 ? n * size : 1)) == NULL)
		oom();
	return p;
}

char *
xstrdup(const char *s)
{
	char *p = strdup(s);

	if (p == NULL)
		oom();
	return p;
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (p == NULL)
		oom();
	return p;
}

int
xvasprintf(char **out, const char *fmt, va_list ap)
{
	int n = vasprintf(out, fmt, ap);

	if (n < 0)
		oom();
	return n;
}

int
xasprintf(char **out, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = xvasprintf(out, fmt, ap);
	va_end(ap);
	return n;
}

void
util_cause(char **cause, const char *fmt, ...)
{
	va_list ap;

	if (cause == NULL)
		return;
	va_start(ap, fmt);
	xvasprintf(cause, fmt, ap);
	va_end(ap);
}

void
strbuf_init(struct strbuf *sb)
{
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}

void
strbuf_add(struct strbuf *sb, const void *p, size_t n)
{
	if (sb->len + n + 1 > sb->cap) {
		sb->cap = (sb->len + n + 1) * 2;
		sb->buf = xreallocarray(sb->buf, sb->cap, 1);
	}
	if (n > 0)	/* memcpy from NULL is undefined even for 0 bytes (an empty strbuf's buf) */
		memcpy(sb->buf + sb->len, p, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void
strbuf_addc(struct strbuf *sb, char c)
{
	strbuf_add(sb, &c, 1);
}

void
strbuf_adds(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void
strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = xvasprintf(&s, fmt, ap);
	va_end(ap);
	strbuf_add(sb, s, (size_t)n);
	free(s);
}

char *
strbuf_detach(struct strbuf *sb)
{
	char *p = sb->buf ? sb->buf : xstrdup("");

	strbuf_init(sb);
	return p;
}

void
strbuf_free(struct strbuf *sb)
{
	free(sb->buf);
	strbuf_init(sb);
}

int
util_read_file(const char *path, char **data, size_t *len, char **cause)
{
	struct strbuf sb;
	char chunk[65536];
	ssize_t n;
	int fd;

	if (strcmp(path, "-") == 0)
		fd = STDIN_FILENO;
	else if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		util_cause(cause, "cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	strbuf_init(&sb);
	strbuf_add(&sb, "", 0);
	for (;;) {
		n = read(fd, chunk, sizeof chunk);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			util_cause(cause, "cannot read '%s': %s", path, strerror(errno));
			if (fd != STDIN_FILENO)
				close(fd);
			strbuf_free(&sb);
			return -1;
		}
		if (n == 0)
			break;
		strbuf_add(&sb, chunk, (size_t)n);
	}
	if (fd != STDIN_FILENO)
		close(fd);
	if (len != NULL)
		*len = sb.len;
	*data = strbuf_detach(&sb);
	return 0;
}

/* A write through an existing node: a device, FIFO or symbolic link stays what it is. */
static int
write_in_place(const char *path, const void *data, size_t len, char **cause)
{
	int fd, rc = 0;

	if ((fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)) == -1 ||
	    util_xfer(fd, (void *)(uintptr_t)data, len, true) != 0) {
		util_cause(cause, "cannot write '%s': %s", path, strerror(errno));
		rc = -1;
	}
	if (fd != -1 && close(fd) != 0 && rc == 0) {
		util_cause(cause, "cannot write '%s': %s", path, strerror(errno));
		rc = -1;
	}
	return rc;
}

/*
 * data as name in the directory dfd, atomically: a new file (O_EXCL, O_NOFOLLOW) renamed
 * over it; a link in name's place is replaced, never written through. shown: for messages.
 */
static int
write_at(int dfd, const char *name, const char *shown, const void *data, size_t len, int mode,
    char **cause)
{
	char *tmp;
	int fd, rc = -1;

	xasprintf(&tmp, "%s.tmp.%ld", name, (long)getpid());
	(void)unlinkat(dfd, tmp, 0);	/* a killed run's, with our pid: the name, not a target */
	if ((fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	    mode)) == -1) {
		util_cause(cause, "cannot create '%s.tmp.%ld': %s", shown, (long)getpid(),
		    strerror(errno));
		free(tmp);
		return -1;
	}
	if (util_xfer(fd, (void *)(uintptr_t)data, len, true) == 0 && fsync(fd) == 0)
		rc = 0;
	if (close(fd) != 0 || (rc == 0 && renameat(dfd, tmp, dfd, name) != 0))
		rc = -1;
	if (rc == -1) {
		util_cause(cause, "cannot write '%s': %s", shown, strerror(errno));
		(void)unlinkat(dfd, tmp, 0);
	} else
		(void)fsync(dfd);
	free(tmp);
	return rc;
}

int
util_write_file_atomic(const char *path, const void *data, size_t len, int mode, char **cause)
{
	char *dircopy, *basecopy;
	struct stat st, to;
	int dfd, rc;

	/*
	 * `-o /dev/null` or `-o /dev/stdout`: a rename would put a regular file in the
	 * device's (or the link's) place, for every program on the machine. A link to
	 * anything else is not written through (it may have been planted).
	 */
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && (stat(path, &to) != 0 ||
	    (!S_ISCHR(to.st_mode) && !S_ISFIFO(to.st_mode)))) {
		util_cause(cause, "cannot write '%s': a symbolic link (not written through)", path);
		return -1;
	}
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		return write_in_place(path, data, len, cause);
	dircopy = xstrdup(path);
	basecopy = xstrdup(path);
	if ((dfd = open(dirname(dircopy), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1) {
		util_cause(cause, "cannot write '%s': %s", path, strerror(errno));
		rc = -1;
	} else {
		rc = write_at(dfd, basename(basecopy), path, data, len, mode, cause);
		close(dfd);
	}
	free(dircopy);
	free(basecopy);
	return rc;
}

/* The part of rel from its start to c (excluded), after dir, for messages. */
static void
walk_cause(char **cause, const char *dir, const char *rel, const char *c, const char *why)
{
	util_cause(cause, "cannot write '%s/%.*s': %s", dir, (int)(c - rel), rel, why);
}

int
util_open_parent(const char *dir, const char *rel, const char **name, char **cause)
{
	const char *c, *slash;
	char part[256];
	struct stat st;
	size_t n;
	int fd, next;

	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1) {
		util_cause(cause, "cannot open '%s': %s", dir, strerror(errno));
		return -1;
	}
	rel += strspn(rel, "/");
	for (c = rel; (slash = strchr(c, '/')) != NULL; c = slash + 1) {
		if ((n = (size_t)(slash - c)) == 0)
			continue;
		if (n >= sizeof part || (n == 2 && c[0] == '.' && c[1] == '.')) {
			walk_cause(cause, dir, rel, slash, "not a name below it");
			close(fd);
			return -1;
		}
		memcpy(part, c, n);
		part[n] = '\0';
		next = openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next == -1) {
			walk_cause(cause, dir, rel, slash, fstatat(fd, part, &st,
			    AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode) ?
			    "a symbolic link (not followed)" : strerror(errno));
			close(fd);
			return -1;
		}
		close(fd);
		fd = next;
	}
	*name = c;
	return fd;
}

int
util_write_file_in(const char *dir, const char *rel, const void *data, size_t len, int mode,
    char **cause)
{
	const char *name;
	char *shown;
	struct stat st;
	int dfd, rc = -1;

	if ((dfd = util_open_parent(dir, rel, &name, cause)) == -1)
		return -1;
	xasprintf(&shown, "%s/%s", dir, rel + strspn(rel, "/"));
	if (*name == '\0' || (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' &&
	    name[2] == '\0'))))
		util_cause(cause, "cannot write '%s': not a file name", shown);
	else if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(st.st_mode))
		util_cause(cause, "cannot write '%s': %s (not written through)", shown,
		    S_ISLNK(st.st_mode) ? "a symbolic link" : "not a regular file");
	else
		rc = write_at(dfd, name, shown, data, len, mode, cause);
	close(dfd);
	free(shown);
	return rc;
}

int
util_dir_no_links(const char *dir, char **cause)
{
	struct dirent *de;
	struct stat st;
	DIR *d;
	int rc = 0;

	if ((d = opendir(dir)) == NULL)
		return 0;
	while (rc == 0 && (de = readdir(d)) != NULL) {
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISLNK(st.st_mode)) {
			util_cause(cause, "'%s/%s' is a symbolic link (no file is written through one: "
			    "choose another directory)", dir, de->d_name);
			rc = -1;
		}
	}
	closedir(d);
	return rc;
}

int
util_mkdir(const char *path, char **cause)
{
	if (mkdir(path, 0755) == -1 && errno != EEXIST) {
		util_cause(cause, "cannot create '%s': %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int
util_write_text_at(const char *dir, const char *name, const char *text, char **cause)
{
	return util_write_file_in(dir, name, text, strlen(text), 0644, cause);
}

int
util_read_line(const char *path, char *buf, size_t len, char **cause)
{
	FILE *f;
	size_t n;

	if ((f = fopen(path, "re")) == NULL) {
		util_cause(cause, "cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	if (fgets(buf, (int)len, f) == NULL) {
		buf[0] = '\0';
		if (ferror(f)) {
			util_cause(cause, "cannot read '%s': %s", path, strerror(errno));
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	n = strlen(buf);
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		buf[--n] = '\0';
	return 0;
}

int
util_parse_scaled(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || v < 0 || !isfinite(v))
		return -1;
	switch (*end) {
	case 'k': case 'K': v *= 1e3; end++; break;
	case 'm': case 'M': v *= 1e6; end++; break;
	case 'g': case 'G': v *= 1e9; end++; break;
	}
	if (*end != '\0')
		return -1;
	*out = v;
	return 0;
}

char *
util_trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n' || end[-1] == '\r'))
		*--end = '\0';
	return s;
}

int
util_startswith(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

size_t
util_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, *row, prev, tmp, best;

	row = xcalloc(lb + 1, sizeof *row);
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			tmp = row[j];
			best = prev + (a[i - 1] != b[j - 1]);
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			prev = tmp;
		}
	}
	best = row[lb];
	free(row);
	return best;
}

const char *
util_did_you_mean(const char *word, const char *const *candidates, size_t n)
{
	size_t i, d, best = SIZE_MAX, limit = strlen(word) / 3;
	const char *found = NULL;

	if (limit < 2)
		limit = 2;
	for (i = 0; i < n; i++) {
		d = util_edit_distance(word, candidates[i]);
		if (d < best) {
			best = d;
			found = candidates[i];
		}
	}
	return best <= limit ? found : NULL;
}

int
util_xfer(int fd, void *buf, size_t len, bool out)
{
	char *p = buf;
	ssize_t n;

	while (len > 0) {
		n = out ? write(fd, p, len) : read(fd, p, len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

void
util_sleep(double secs, const volatile sig_atomic_t *stop)
{
	struct timespec ts;

	if (secs <= 0)
		return;
	ts.tv_sec = (time_t)secs;
	ts.tv_nsec = (long)((secs - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) == -1 && errno == EINTR && (stop == NULL || !*stop))
		;
}

double
util_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

uint64_t
util_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

const char *
util_share_dir(void)
{
	static char found[PATH_MAX];
	const char *env = getenv("NTUNE_SHARE");
	struct stat st;
	char exe[PATH_MAX], *dir;

	if (env != NULL && *env != '\0')
		return env;
	if (found[0] != '\0')
		return found;
	/*
	 * Running from a build directory of the source tree: its share/. Installed
	 * as PREFIX/sbin/ntune: PREFIX/share/ntune, so that an unpacked package
	 * (dpkg -x, pkg -r) finds its own knowledge base.
	 */
	if (util_self_exe(exe, sizeof exe) == 0) {
		static const char *const rel[] = { "../share", "../share/ntune" };
		size_t i;

		dir = dirname(exe);
		for (i = 0; i < nitems(rel); i++) {
			snprintf(found, sizeof found, "%s/%s/knobs", dir, rel[i]);
			if (stat(found, &st) == 0 && S_ISDIR(st.st_mode)) {
				snprintf(found, sizeof found, "%s/%s", dir, rel[i]);
				return found;
			}
		}
	}
	snprintf(found, sizeof found, "%s", NTUNE_DATADIR);
	return found;
}

static void
merge_sort(char *v, char *tmp, size_t n, size_t size,
    int (*cmp)(const void *, const void *, void *), void *arg)
{
	size_t half = n / 2, i = 0, j = half, k = 0;

	if (n < 2)
		return;
	merge_sort(v, tmp, half, size, cmp, arg);
	merge_sort(v + half * size, tmp, n - half, size, cmp, arg);
	while (i < half && j < n) {
		/* Take from the right only when strictly smaller: stable. */
		if (cmp(v + j * size, v + i * size, arg) < 0)
			memcpy(tmp + k++ * size, v + j++ * size, size);
		else
			memcpy(tmp + k++ * size, v + i++ * size, size);
	}
	memcpy(tmp + k * size, v + i * size, (half - i) * size);
	k += half - i;
	memcpy(v, tmp, k * size);
}

void
util_sort(void *base, size_t n, size_t size,
    int (*cmp)(const void *, const void *, void *), void *arg)
{
	char *tmp;

	if (n < 2 || size == 0)
		return;
	tmp = xreallocarray(NULL, n, size);
	merge_sort(base, tmp, n, size, cmp, arg);
	free(tmp);
}

static char **
strv_push(char **v, size_t *n, char *s)
{
	v = xreallocarray(v, *n + 2, sizeof *v);
	v[(*n)++] = s;
	v[*n] = NULL;
	return v;
}

char **
util_strv_add(char **v, size_t *n, const char *s)
{
	return strv_push(v, n, xstrdup(s));
}

char **
util_strv_vaddf(char **v, size_t *n, const char *fmt, va_list ap)
{
	char *s;

	xvasprintf(&s, fmt, ap);
	return strv_push(v, n, s);
}

void
util_strv_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void
util_array_free(void *base, size_t n, size_t size, void (*elem_free)(void *))
{
	size_t i;

	for (i = 0; i < n; i++)
		elem_free((char *)base + i * size);
	free(base);
}

int
util_ifname_unit(const char *ifname, char *letters, size_t len)
{
	size_t n = strlen(ifname), i = n;

	while (i > 0 && isdigit((unsigned char)ifname[i - 1]))
		i--;
	if (i == 0 || i == n || i >= len) {
		snprintf(letters, len, "%s", ifname);
		return -1;
	}
	memcpy(letters, ifname, i);
	letters[i] = '\0';
	return atoi(ifname + i);
}

char *
util_utc(time_t t, bool compact, char buf[UTIL_UTC_LEN])
{
	struct tm tm;

	if (t == 0)
		t = time(NULL);
	gmtime_r(&t, &tm);
	strftime(buf, UTIL_UTC_LEN, compact ? "%Y%m%dT%H%M%SZ" : "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
}
