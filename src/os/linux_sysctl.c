/*
 * Tunables: sysctls through /proc/sys, cpu.governor through cpufreq sysfs,
 * and the if.* settings dispatched to linux_if.c.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "os/os_impl.h"
#include "os/linux_impl.h"
#include "util/util.h"

static size_t
governor_paths(struct os_ctx *ctx, char (**paths)[PATH_MAX])
{
	char dir[PATH_MAX], p[PATH_MAX];
	DIR *d;
	struct dirent *de;
	size_t n = 0;
	struct stat st;

	*paths = NULL;
	linux_rpath(ctx, dir, sizeof dir, "/sys/devices/system/cpu");
	if ((d = opendir(dir)) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, "cpu", 3) != 0 || !isdigit((unsigned char)de->d_name[3]))
			continue;
		if (snprintf(p, sizeof p, "%s/%s/cpufreq/scaling_governor", dir, de->d_name) >=
		    (int)sizeof p || stat(p, &st) != 0)
			continue;
		*paths = xreallocarray(*paths, n + 1, sizeof **paths);
		os_strlcpy((*paths)[n++], p, PATH_MAX);
	}
	closedir(d);
	return n;
}

int
linux_governor_get(struct os_ctx *ctx, char **value, char **cause)
{
	char (*paths)[PATH_MAX], buf[64];
	size_t n;

	if ((n = governor_paths(ctx, &paths)) == 0) {
		free(paths);
		util_cause(cause, "no CPU frequency scaling (cpufreq) here");
		return -1;
	}
	if (linux_readval(paths[0], buf, sizeof buf) != 0) {
		util_cause(cause, "cannot read '%s': %s", paths[0], strerror(errno));
		free(paths);
		return -1;
	}
	free(paths);
	*value = xstrdup(buf);
	return 0;
}

int
linux_governor_set(struct os_ctx *ctx, const char *value, char **cause)
{
	char (*paths)[PATH_MAX];
	size_t n, i;

	if ((n = governor_paths(ctx, &paths)) == 0) {
		free(paths);
		util_cause(cause, "no CPU frequency scaling (cpufreq) here");
		return -1;
	}
	for (i = 0; i < n; i++)
		if (linux_writeval(paths[i], value, cause) != 0) {
			free(paths);
			return -1;
		}
	free(paths);
	return 0;
}

static int
sysctl_path(struct os_ctx *ctx, const char *name, char *buf, size_t len, char **cause)
{
	char rel[PATH_MAX], *comp, *save;
	size_t i, n = strlen(name);

	if (n == 0 || n >= sizeof rel - 1 || name[0] == '.' || name[n - 1] == '.')
		goto bad;
	for (i = 0; i < n; i++) {
		if (name[i] == '.')
			rel[i] = '/';
		else if (name[i] == '/')
			rel[i] = '.';
		else if (isspace((unsigned char)name[i]) || name[i] == '=')
			goto bad;
		else
			rel[i] = name[i];
	}
	rel[n] = '\0';
	{
		char tmp[PATH_MAX];

		os_strlcpy(tmp, rel, sizeof tmp);
		for (comp = strtok_r(tmp, "/", &save); comp != NULL; comp = strtok_r(NULL, "/", &save))
			if (strcmp(comp, ".") == 0 || strcmp(comp, "..") == 0)
				goto bad;
		if (strstr(rel, "//") != NULL)
			goto bad;
	}
	linux_rpath(ctx, buf, len, "/proc/sys/%s", rel);
	return 0;
bad:
	util_cause(cause, "invalid sysctl name '%s'", name);
	return -1;
}

static void
normalize_value(char *s)
{
	char *r, *w;
	int sp = 0;

	for (r = w = s; *r != '\0'; r++) {
		if (*r == '\t' || *r == ' ' || *r == '\n') {
			sp = 1;
			continue;
		}
		if (sp && w != s)
			*w++ = ' ';
		sp = 0;
		*w++ = *r;
	}
	*w = '\0';
}

static int
sysctl_read(const char *path, char **value)
{
	char *data;
	size_t len;

	if (util_read_file(path, &data, &len, NULL) != 0)
		return -1;
	normalize_value(data);
	*value = data;
	return 0;
}

/* The /proc/sys file of an existing sysctl name; -1 + cause for a bad or unknown name. */
static int
sysctl_file(struct os_ctx *ctx, const char *name, char path[PATH_MAX], char **cause)
{
	struct stat st;

	if (sysctl_path(ctx, name, path, PATH_MAX, cause) != 0)
		return -1;
	if (stat(path, &st) != 0 || S_ISDIR(st.st_mode)) {
		util_cause(cause, "unknown sysctl '%s'", name);
		return -1;
	}
	return 0;
}

static int
sysctl_get(struct os_ctx *ctx, const char *name, char **value, char **cause)
{
	char path[PATH_MAX];

	if (sysctl_file(ctx, name, path, cause) != 0)
		return -1;
	if (sysctl_read(path, value) != 0) {
		util_cause(cause, "cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

static int
sysctl_set(struct os_ctx *ctx, const char *name, const char *value, char **cause)
{
	char path[PATH_MAX];

	if (sysctl_file(ctx, name, path, cause) != 0)
		return -1;
	if (!linux_live(ctx)) {
		util_cause(cause, "a captured tree is read-only");
		return -1;
	}
	return linux_writeval(path, value, cause);
}

int
linux_tunable_get(struct os_ctx *ctx, const char *name, char **value, char **cause)
{
	*value = NULL;
	if (strcmp(name, "cpu.governor") == 0)
		return linux_governor_get(ctx, value, cause);
	if (strncmp(name, "if.", 3) == 0)
		return linux_if_get(ctx, name, value, cause);
	return sysctl_get(ctx, name, value, cause);
}

int
linux_tunable_set(struct os_ctx *ctx, const char *name, const char *value, char **cause)
{
	if (strcmp(name, "cpu.governor") == 0)
		return linux_governor_set(ctx, value, cause);
	if (strncmp(name, "if.", 3) == 0)
		return linux_if_set(ctx, name, value, cause);
	return sysctl_set(ctx, name, value, cause);
}

int
linux_tunable_kind(struct os_ctx *ctx, const char *name, enum os_tunable_kind *kind,
    char **cause)
{
	char path[PATH_MAX], *v = NULL;
	struct stat st;

	*kind = OS_TUNABLE_NONE;
	if (strcmp(name, "cpu.governor") == 0 || strncmp(name, "if.", 3) == 0) {
		if (linux_tunable_get(ctx, name, &v, NULL) == 0)
			*kind = OS_TUNABLE_RUNTIME;
		free(v);
		return 0;
	}
	if (sysctl_path(ctx, name, path, sizeof path, cause) != 0)
		return -1;
	if (stat(path, &st) != 0 || S_ISDIR(st.st_mode))
		return 0;
	*kind = (st.st_mode & 0222) && linux_live(ctx) ? OS_TUNABLE_RUNTIME : OS_TUNABLE_READONLY;
	if (!linux_live(ctx) && (st.st_mode & 0222))
		*kind = OS_TUNABLE_RUNTIME;
	return 0;
}

struct walk {
	int	(*fn)(const char *, const char *, void *);
	void	*arg;
	const char *prefix;
	int	 stop;
};

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
walk_dir(struct walk *w, const char *dir, const char *name, int depth)
{
	DIR *d;
	struct dirent *de;
	char **names = NULL, path[PATH_MAX], sub[1024], *v;
	size_t n = 0, i, k;
	struct stat st;

	if (depth > 16 || (d = opendir(dir)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		names = util_strv_add(names, &n, de->d_name);
	}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof *names, cmpstr);
	for (i = 0; i < n && !w->stop; i++) {
		size_t l;

		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		l = (size_t)snprintf(sub, sizeof sub, "%s%s", name, name[0] ? "." : "");
		for (k = 0; names[i][k] != '\0' && l + 1 < sizeof sub; k++)
			sub[l++] = names[i][k] == '.' ? '/' : names[i][k];
		sub[l] = '\0';
		if (lstat(path, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			walk_dir(w, path, sub, depth + 1);
			continue;
		}
		if (!S_ISREG(st.st_mode) || (st.st_mode & 0444) == 0)
			continue;
		if (strncmp(sub, w->prefix, strlen(w->prefix)) != 0)
			continue;
		if (sysctl_read(path, &v) != 0)
			continue;
		if (w->fn(sub, v, w->arg) != 0)
			w->stop = 1;
		free(v);
	}
	util_strv_free(names, n);
}

int
linux_tunable_list(struct os_ctx *ctx, const char *prefix,
    int (*fn)(const char *, const char *, void *), void *arg, char **cause)
{
	struct walk w = { fn, arg, prefix, 0 };
	char dir[PATH_MAX], name[1024];
	const char *dot;
	size_t n, i;

	/* Start at the deepest directory the prefix names completely. */
	dot = strrchr(prefix, '.');
	n = dot != NULL ? (size_t)(dot - prefix) : 0;
	if (n >= sizeof name)
		n = sizeof name - 1;
	memcpy(name, prefix, n);
	name[n] = '\0';
	if (n > 0 && sysctl_path(ctx, name, dir, sizeof dir, NULL) != 0) {
		util_cause(cause, "invalid sysctl prefix '%s'", prefix);
		return -1;
	}
	if (n == 0)
		linux_rpath(ctx, dir, sizeof dir, "/proc/sys");
	for (i = 0; i < n; i++)
		if (name[i] == '/')
			name[i] = '.';
	{
		struct stat st;
		char top[PATH_MAX];

		linux_rpath(ctx, top, sizeof top, "/proc/sys");
		if (stat(top, &st) != 0) {
			util_cause(cause, "cannot read '%s': %s", top, strerror(errno));
			return -1;
		}
	}
	/* name must be the dotted form as walk_dir builds it */
	memcpy(name, prefix, n);
	name[n] = '\0';
	walk_dir(&w, dir, name, 0);
	return 0;
}
