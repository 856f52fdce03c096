/*
 * The system (kernel, network namespace) and its CPUs.
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

static int
current_netns(char *buf, size_t len)
{
	static const char *const dirs[] = { "/run/netns", "/var/run/netns" };
	struct stat self, st;
	DIR *d;
	struct dirent *de;
	char path[PATH_MAX];
	size_t i;

	buf[0] = '\0';
	if (stat("/proc/self/ns/net", &self) != 0)
		return -1;
	if (stat("/proc/1/ns/net", &st) == 0 && st.st_ino == self.st_ino && st.st_dev == self.st_dev)
		return 0;
	for (i = 0; i < nitems(dirs); i++) {
		if ((d = opendir(dirs[i])) == NULL)
			continue;
		while ((de = readdir(d)) != NULL) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof path, "%s/%s", dirs[i], de->d_name);
			if (stat(path, &st) == 0 && st.st_ino == self.st_ino &&
			    st.st_dev == self.st_dev) {
				os_strlcpy(buf, de->d_name, len);
				closedir(d);
				return 0;
			}
		}
		closedir(d);
	}
	return 0;
}

int
linux_system(struct os_ctx *ctx, struct os_system *sys, char **cause)
{
	char path[PATH_MAX], *data, *line, *save;
	size_t len;

	memset(sys, 0, sizeof *sys);
	os_strlcpy(sys->os, "Linux", sizeof sys->os);
	linux_rpath(ctx, path, sizeof path, "/proc/sys/kernel/osrelease");
	if (linux_readval(path, sys->version, sizeof sys->version) != 0) {
		util_cause(cause, "cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	linux_rpath(ctx, path, sizeof path, "/proc/sys/kernel/hostname");
	linux_readval(path, sys->hostname, sizeof sys->hostname);
	linux_rpath(ctx, path, sizeof path, "/etc/os-release");
	if (util_read_file(path, &data, &len, NULL) == 0) {
		for (line = strtok_r(data, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
			if (strncmp(line, "PRETTY_NAME=", 12) == 0) {
				char *v = line + 12;
				size_t l = strlen(v);

				if (l >= 2 && (v[0] == '"' || v[0] == '\'') && v[l - 1] == v[0]) {
					v[l - 1] = '\0';
					v++;
				}
				os_strlcpy(sys->distro, v, sizeof sys->distro);
			}
		}
		free(data);
	}
	if (linux_live(ctx))
		current_netns(sys->netns, sizeof sys->netns);
	else {
		/* a capture's (src/remote/capture_linux.c) */
		linux_rpath(ctx, path, sizeof path, "/ntune/netns");
		if (linux_readval(path, sys->netns, sizeof sys->netns) != 0)
			sys->netns[0] = '\0';
	}
	return 0;
}

int
linux_cpu(struct os_ctx *ctx, struct os_cpu *cpu, char **cause)
{
	char path[PATH_MAX], buf[256], *data, *line, *save;
	unsigned char set[OS_MAXCPU];
	size_t len;
	int i, n = 0, *pkg, k, j, npkg = 0, ncore = 0;
	DIR *d;
	struct dirent *de;

	memset(cpu, 0, sizeof *cpu);
	cpu->smt = OS_UNKNOWN;
	linux_rpath(ctx, path, sizeof path, "/proc/cpuinfo");
	if (util_read_file(path, &data, &len, cause) != 0)
		return -1;
	for (line = strtok_r(data, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');

		if (colon == NULL)
			continue;
		*colon = '\0';
		util_trim(line);
		if (strcmp(line, "model name") == 0 || strcmp(line, "Model") == 0 ||
		    strcmp(line, "cpu model") == 0 || strcmp(line, "cpu") == 0) {
			if (cpu->model[0] == '\0' || strcmp(line, "model name") == 0)
				os_strlcpy(cpu->model, util_trim(colon + 1), sizeof cpu->model);
		}
	}
	free(data);
	linux_rpath(ctx, path, sizeof path, "/sys/devices/system/cpu/online");
	if (linux_readval(path, buf, sizeof buf) != 0 || os_cpulist_parse(buf, set, NULL) != 0) {
		util_cause(cause, "cannot read '%s'", path);
		return -1;
	}
	for (i = 0; i < OS_MAXCPU; i++)
		if (set[i])
			n = i + 1;
	cpu->threads = n;
	cpu->cpu_numa = xcalloc((size_t)n, sizeof(int));
	cpu->cpu_core = xcalloc((size_t)n, sizeof(int));
	pkg = xcalloc((size_t)n, sizeof(int));
	for (i = 0; i < n; i++) {
		linux_rpath(ctx, path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", i);
		pkg[i] = (int)linux_readlong(path, 0);
		linux_rpath(ctx, path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/core_id", i);
		cpu->cpu_core[i] = (int)linux_readlong(path, i);
		cpu->cpu_numa[i] = 0;
		linux_rpath(ctx, path, sizeof path, "/sys/devices/system/cpu/cpu%d", i);
		if ((d = opendir(path)) != NULL) {
			while ((de = readdir(d)) != NULL)
				if (strncmp(de->d_name, "node", 4) == 0 &&
				    isdigit((unsigned char)de->d_name[4]))
					cpu->cpu_numa[i] = atoi(de->d_name + 4);
			closedir(d);
		}
	}
	for (i = 0; i < n; i++) {
		for (j = 0; j < i && pkg[j] != pkg[i]; j++)
			;
		if (j == i)
			npkg++;
		for (k = 0; k < i && (pkg[k] != pkg[i] || cpu->cpu_core[k] != cpu->cpu_core[i]); k++)
			;
		if (k == i)
			ncore++;
	}
	free(pkg);
	cpu->packages = npkg;
	cpu->cores = ncore;
	cpu->smt = n > ncore ? OS_ON : OS_OFF;
	linux_rpath(ctx, path, sizeof path, "/sys/devices/system/cpu/smt/control");
	if (linux_readval(path, buf, sizeof buf) == 0 && strcmp(buf, "on") == 0 && n == ncore)
		cpu->smt = OS_OFF;
	cpu->numa_nodes = 0;
	linux_rpath(ctx, path, sizeof path, "/sys/devices/system/node");
	if ((d = opendir(path)) != NULL) {
		while ((de = readdir(d)) != NULL)
			if (strncmp(de->d_name, "node", 4) == 0 && isdigit((unsigned char)de->d_name[4]))
				cpu->numa_nodes++;
		closedir(d);
	}
	if (cpu->numa_nodes == 0)
		cpu->numa_nodes = 1;
	if (linux_governor_get(ctx, &data, NULL) == 0) {
		os_strlcpy(cpu->governor, data, sizeof cpu->governor);
		free(data);
	}
	return 0;
}
