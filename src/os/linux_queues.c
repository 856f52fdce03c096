/*
 * Per-queue sysfs attributes (rps_cpus, xps_cpus, rps_flow_cnt...).
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

size_t
linux_count_queues(struct os_ctx *ctx, const char *ifname, const char *dir)
{
	char path[PATH_MAX], pre[8];
	DIR *d;
	struct dirent *de;
	size_t n = 0;

	linux_rpath(ctx, path, sizeof path, "/sys/class/net/%s/queues", ifname);
	if ((d = opendir(path)) == NULL)
		return 0;
	snprintf(pre, sizeof pre, "%s-", dir);
	while ((de = readdir(d)) != NULL)
		if (strncmp(de->d_name, pre, 3) == 0 && isdigit((unsigned char)de->d_name[3]))
			n++;
	closedir(d);
	return n;
}

int
linux_sysfs_if_check(struct os_ctx *ctx, const char *ifname, char **cause)
{
	char path[PATH_MAX];
	struct stat st;

	linux_rpath(ctx, path, sizeof path, "/sys/class/net/%s", ifname);
	if (stat(path, &st) == 0)
		return 0;
	if (linux_live(ctx) && linux_if_exists(ifname))
		util_cause(cause, "interface '%s' is not in this mount namespace's /sys "
		    "(enter its network namespace with `ip netns exec`, which remounts /sys)",
		    ifname);
	else
		util_cause(cause, "no interface '%s'", ifname);
	return -1;
}

/* Per-queue sysfs attribute: all queues (queue < 0) or one. */
int
linux_queue_attr_get(struct os_ctx *ctx, const char *ifname, const char *dir, int queue,
    const char *attr, char **value, char **cause)
{
	char path[PATH_MAX], buf[256], **v = NULL;
	size_t n, i, nv = 0;

	if (linux_sysfs_if_check(ctx, ifname, cause) != 0)
		return -1;
	n = linux_count_queues(ctx, ifname, dir);
	if (queue >= 0) {
		linux_rpath(ctx, path, sizeof path, "/sys/class/net/%s/queues/%s-%d/%s", ifname, dir,
		    queue, attr);
		if (linux_readval(path, buf, sizeof buf) != 0) {
			util_cause(cause, "cannot read '%s': %s", path, strerror(errno));
			return -1;
		}
		*value = xstrdup(buf);
		return 0;
	}
	if (n == 0) {
		util_cause(cause, "interface '%s' has no %s queues in sysfs", ifname, dir);
		return -1;
	}
	for (i = 0; i < n; i++) {
		linux_rpath(ctx, path, sizeof path, "/sys/class/net/%s/queues/%s-%zu/%s", ifname, dir, i,
		    attr);
		if (linux_readval(path, buf, sizeof buf) != 0) {
			util_cause(cause, "cannot read '%s': %s", path, strerror(errno));
			util_strv_free(v, nv);
			return -1;
		}
		v = util_strv_add(v, &nv, buf);
	}
	*value = linux_join_values(v, nv);
	util_strv_free(v, nv);
	return 0;
}

int
linux_ncpu_online(struct os_ctx *ctx)
{
	char path[PATH_MAX], buf[256];
	unsigned char set[OS_MAXCPU];
	int i, n = 0;

	linux_rpath(ctx, path, sizeof path, "/sys/devices/system/cpu/online");
	if (linux_readval(path, buf, sizeof buf) != 0 || os_cpulist_parse(buf, set, NULL) != 0)
		return (int)sysconf(_SC_NPROCESSORS_ONLN);
	for (i = 0; i < OS_MAXCPU; i++)
		if (set[i])
			n = i + 1;
	return n;
}

/* Splits a space-separated value into words (at most max). */
size_t
linux_split_words(const char *s, char words[][256], size_t max)
{
	size_t n = 0, k;

	while (*s != '\0' && n < max) {
		while (isspace((unsigned char)*s))
			s++;
		if (*s == '\0')
			break;
		for (k = 0; *s != '\0' && !isspace((unsigned char)*s); s++)
			if (k + 1 < 256)
				words[n][k++] = *s;
		words[n][k] = '\0';
		n++;
	}
	return n;
}

int
linux_queue_attr_set(struct os_ctx *ctx, const char *ifname, const char *dir, int queue,
    const char *attr, const char *value, int ismask, char **cause)
{
	char path[PATH_MAX], (*words)[256], norm[256];
	unsigned char set[OS_MAXCPU];
	size_t n, nw, i;
	long v;
	int rc = -1;

	if (linux_sysfs_if_check(ctx, ifname, cause) != 0)
		return -1;
	n = queue >= 0 ? 1 : linux_count_queues(ctx, ifname, dir);
	if (n == 0) {
		util_cause(cause, "interface '%s' has no %s queues in sysfs", ifname, dir);
		return -1;
	}
	words = xcalloc(n + 1, sizeof *words);
	nw = linux_split_words(value, words, n + 1);
	if (nw != 1 && nw != n) {
		util_cause(cause, "give one value or one per queue (%zu)", n);
		goto out;
	}
	for (i = 0; i < nw; i++) {
		if (ismask) {
			if (os_cpumask_parse(words[i], set, NULL) != 0) {
				util_cause(cause, "'%s' is not a hex CPU mask", words[i]);
				goto out;
			}
			os_cpumask_format(set, linux_ncpu_online(ctx), norm, sizeof norm);
			os_strlcpy(words[i], norm, 256);
		} else if (linux_parse_int(words[i], &v) != 0 || v < 0) {
			util_cause(cause, "'%s' is not a count", words[i]);
			goto out;
		}
	}
	for (i = 0; i < n; i++) {
		linux_rpath(ctx, path, sizeof path, "/sys/class/net/%s/queues/%s-%zu/%s", ifname, dir,
		    queue >= 0 ? (size_t)queue : i, attr);
		if (linux_writeval(path, words[nw == 1 ? 0 : i], cause) != 0)
			goto out;
	}
	rc = 0;
out:
	free(words);
	return rc;
}
