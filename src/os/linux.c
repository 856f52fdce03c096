/*
 * The Linux backend: /proc, /sys, ethtool ioctls (SIOCETHTOOL), rtnetlink.
 *
 * ctx->root prefixes every /proc and /sys path so tests can point the backend
 * at a captured tree; ioctls and netlink are used only when root is "" (live).
 *
 * Network namespaces: ioctls, netlink and /proc/net follow the calling
 * process's network namespace. /sys/class/net shows the devices of the
 * namespace that mounted /sys: a process that only setns(2)'d into a namespace
 * must also unshare(CLONE_NEWNS) and mount a fresh sysfs on /sys (as
 * `ip netns exec` does) before the sysfs-backed settings (rps_cpus, xps_cpus,
 * rps_flow_cnt, queue lists) work; mtu and txqueuelen use ioctls and do not care.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include "os/os_impl.h"
#include "os/linux_impl.h"
#include "util/util.h"

static int
linux_cpu_times(struct os_ctx *ctx, struct os_cpu_times **out, size_t *n, char **cause)
{
	char path[PATH_MAX], *data, *line, *save;
	size_t len;
	struct os_cpu_times *v = NULL;
	size_t cnt = 0;
	unsigned long long f[8];
	int idx;

	*out = NULL;
	*n = 0;
	linux_rpath(ctx, path, sizeof path, "/proc/stat");
	if (util_read_file(path, &data, &len, cause) != 0)
		return -1;
	for (line = strtok_r(data, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		/* the reader of pasted /proc/stat (text_linux.c), so both read it alike */
		if (os_proc_stat_cpu(line, &idx, f) != 1 || idx < 0)
			continue;
		if ((size_t)idx >= cnt) {
			v = xreallocarray(v, (size_t)idx + 1, sizeof *v);
			memset(v + cnt, 0, ((size_t)idx + 1 - cnt) * sizeof *v);
			cnt = (size_t)idx + 1;
		}
		v[idx].user = f[0];
		v[idx].nice = f[1];
		v[idx].system = f[2];
		v[idx].idle = f[3];
		v[idx].iowait = f[4];
		v[idx].interrupt = f[5];
		v[idx].softirq = f[6];
		v[idx].steal = f[7];
	}
	free(data);
	if (cnt == 0) {
		free(v);
		util_cause(cause, "'%s': no per-CPU lines", path);
		return -1;
	}
	*out = v;
	*n = cnt;
	return 0;
}

static int
linux_if_counters(struct os_ctx *ctx, struct os_if_counters **out, size_t *n, char **cause)
{
	char path[PATH_MAX], *data, *line, *save;
	size_t len, cnt = 0;
	struct os_if_counters *v = NULL, row;

	*out = NULL;
	*n = 0;
	linux_rpath(ctx, path, sizeof path, "/proc/net/dev");
	if (util_read_file(path, &data, &len, cause) != 0)
		return -1;
	for (line = strtok_r(data, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		if (os_proc_net_dev_row(line, &row) != 1)
			continue;
		v = xreallocarray(v, cnt + 1, sizeof *v);
		v[cnt++] = row;
	}
	free(data);
	*out = v;
	*n = cnt;
	return 0;
}

static void
linux_close(struct os_ctx *ctx)
{
	(void)ctx;
}

int
os_linux_init(struct os_ctx *ctx, char **cause)
{
	char path[PATH_MAX];
	struct stat st;

	linux_rpath(ctx, path, sizeof path, "/proc");
	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
		util_cause(cause, "cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

const struct os_ops os_linux_ops = {
	.name = "linux",
	.system = linux_system,
	.cpu = linux_cpu,
	.nics = linux_nics,
	.cpu_times = linux_cpu_times,
	.if_counters = linux_if_counters,
	.irqs = linux_irqs,
	.tunable_get = linux_tunable_get,
	.tunable_set = linux_tunable_set,
	.tunable_kind = linux_tunable_kind,
	.tunable_list = linux_tunable_list,
	.close = linux_close,
};

int
os_linux_if_hwaddr(const char *ifname, uint8_t mac[6], char **cause)
{
	struct ifreq ifr;
	int s, rc = -1;

	if ((s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1) {
		util_cause(cause, "socket: %s", strerror(errno));
		return -1;
	}
	memset(&ifr, 0, sizeof(ifr));
	os_strlcpy(ifr.ifr_name, ifname, sizeof(ifr.ifr_name));
	if (ioctl(s, SIOCGIFHWADDR, &ifr) == 0) {
		memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
		rc = 0;
	} else
		util_cause(cause, "cannot read the address of '%s': %s", ifname, strerror(errno));
	close(s);
	return rc;
}
