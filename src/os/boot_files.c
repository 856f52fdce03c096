/*
 * The files an OS re-applies tunables from at boot: what `snapshot` records and
 * `check` compares a profile with (sysctl.d(5), sysctl.conf(5), loader.conf(5)).
 */
#include <sys/stat.h>

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/platform.h"
#include "util/util.h"

static int
namecmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The *.conf files of one sysctl.d directory, in name order. */
static void
conf_dir(const char *root, const char *dir, os_boot_file_fn *fn, void *arg)
{
	char *at, *path, **names = NULL;
	struct dirent *de;
	size_t n = 0, i, len;
	DIR *d;

	xasprintf(&at, "%s%s", root, dir);
	d = opendir(at);
	free(at);
	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		len = strlen(de->d_name);
		if (len > 5 && strcmp(de->d_name + len - 5, ".conf") == 0)
			names = util_strv_add(names, &n, de->d_name);
	}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof *names, namecmp);
	for (i = 0; i < n; i++) {
		xasprintf(&path, "%s/%s", dir, names[i]);
		xasprintf(&at, "%s%s", root, path);
		if (access(at, R_OK) == 0)
			fn(arg, path, at);
		free(at);
		free(path);
	}
	util_strv_free(names, n);
}

void
os_boot_files(enum os_platform os, const char *root, os_boot_file_fn *fn, void *arg)
{
	static const char *const linux_dirs[] = {
		"/usr/lib/sysctl.d", "/lib/sysctl.d", "/run/sysctl.d", "/etc/sysctl.d",
	};
	static const char *const linux_files[] = { "/etc/sysctl.conf" };
	static const char *const bsd_files[] = {
		"/boot/loader.conf", "/boot/loader.conf.local", "/etc/sysctl.conf",
		"/etc/sysctl.conf.local",
	};
	struct stat st, seen[nitems(linux_dirs)];
	const char *const *files;
	size_t i, j, nseen = 0, nfiles;
	char *at;

	if (root == NULL)
		root = "";
	for (i = 0; os == OS_PLATFORM_LINUX && i < nitems(linux_dirs); i++) {
		xasprintf(&at, "%s%s", root, linux_dirs[i]);
		if (stat(at, &st) == 0) {
			/* /lib is /usr/lib on a merged-/usr system: read each directory once */
			for (j = 0; j < nseen; j++)
				if (seen[j].st_dev == st.st_dev && seen[j].st_ino == st.st_ino)
					break;
			if (j == nseen) {
				seen[nseen++] = st;
				conf_dir(root, linux_dirs[i], fn, arg);
			}
		}
		free(at);
	}
	files = os == OS_PLATFORM_LINUX ? linux_files : bsd_files;
	nfiles = os == OS_PLATFORM_LINUX ? nitems(linux_files) : nitems(bsd_files);
	for (i = 0; i < nfiles; i++) {
		xasprintf(&at, "%s%s", root, files[i]);
		if (access(at, R_OK) == 0)
			fn(arg, files[i], at);
		free(at);
	}
}
