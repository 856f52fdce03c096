/*
 * Which CPUs serve a NIC: its queue IRQs' affinity and its NAPI kernel
 * threads' (if.<ifname>.napi_thread_cpus).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "os/os_impl.h"
#include "os/linux_impl.h"
#include "util/util.h"

int
linux_irq_affinity_get(struct os_ctx *ctx, const char *ifname, char **value,
    char **cause)
{
	struct nic_irq *q;
	size_t n, i, nv = 0;
	char path[PATH_MAX], buf[256], **v = NULL;

	if ((n = linux_nic_queue_irqs(ctx, ifname, &q)) == 0) {
		free(q);
		util_cause(cause, "interface '%s' has no queue interrupts", ifname);
		return -1;
	}
	for (i = 0; i < n; i++) {
		linux_rpath(ctx, path, sizeof path, "/proc/irq/%d/smp_affinity_list", q[i].irq);
		if (linux_readval(path, buf, sizeof buf) != 0) {
			util_cause(cause, "cannot read '%s': %s", path, strerror(errno));
			util_strv_free(v, nv);
			free(q);
			return -1;
		}
		v = util_strv_add(v, &nv, buf);
	}
	free(q);
	*value = linux_join_values(v, nv);
	util_strv_free(v, nv);
	return 0;
}

int
linux_irq_affinity_set(struct os_ctx *ctx, const char *ifname, const char *value,
    char **cause)
{
	struct nic_irq *q;
	size_t n, nw, i;
	char path[PATH_MAX], (*words)[256], buf[32];
	unsigned char set[OS_MAXCPU];
	int ncpu = linux_ncpu_online(ctx), rc = -1, spread;

	if ((n = linux_nic_queue_irqs(ctx, ifname, &q)) == 0) {
		free(q);
		util_cause(cause, "interface '%s' has no queue interrupts", ifname);
		return -1;
	}
	words = xcalloc(n + 1, sizeof *words);
	spread = strcmp(value, "spread") == 0;
	nw = spread ? n : linux_split_words(value, words, n + 1);
	if (!spread && nw != 1 && nw != n) {
		util_cause(cause, "give one CPU list, 'spread', or one list per queue interrupt (%zu)",
		    n);
		goto out;
	}
	for (i = 0; !spread && i < nw; i++)
		if (os_cpulist_parse(words[i], set, NULL) != 0) {
			util_cause(cause, "'%s' is not a CPU list", words[i]);
			goto out;
		}
	for (i = 0; i < n; i++) {
		const char *v;

		if (spread) {
			snprintf(buf, sizeof buf, "%zu", i % (size_t)(ncpu > 0 ? ncpu : 1));
			v = buf;
		} else
			v = words[nw == 1 ? 0 : i];
		linux_rpath(ctx, path, sizeof path, "/proc/irq/%d/smp_affinity_list", q[i].irq);
		if (linux_writeval(path, v, cause) != 0)
			goto out;
	}
	rc = 0;
out:
	free(words);
	free(q);
	return rc;
}

#define NAPI_MAXTHREADS	64

/* The online CPUs: what a NAPI thread may run on before anyone pins it. */
static int
online_cpus(unsigned char set[OS_MAXCPU], char **cause)
{
	char buf[256];

	if (linux_readval("/sys/devices/system/cpu/online", buf, sizeof buf) != 0) {
		util_cause(cause, "cannot read '/sys/devices/system/cpu/online': %s", strerror(errno));
		return -1;
	}
	return os_cpulist_parse(buf, set, cause);
}

/*
 * One CPU list when every thread has the same affinity (or the online CPUs
 * when the interface has no NAPI thread), else one list per thread.
 */
int
linux_napi_cpus_get(const char *ifname, char **value, char **cause)
{
	unsigned char set[OS_MAXCPU];
	pid_t pids[NAPI_MAXTHREADS];
	char buf[256], *why = NULL, **v = NULL;
	size_t n, i, nv = 0;

	if (os_linux_napi_pids(ifname, pids, nitems(pids), &n, &why) != 0)
		goto fail;
	if (n == 0) {
		if (online_cpus(set, &why) != 0)
			goto fail;
		os_cpulist_format(set, buf, sizeof buf);
		*value = xstrdup(buf);
		return 0;
	}
	for (i = 0; i < n; i++) {
		if (os_linux_pid_cpus(pids[i], set, &why) != 0) {
			util_strv_free(v, nv);
			goto fail;
		}
		os_cpulist_format(set, buf, sizeof buf);
		v = util_strv_add(v, &nv, buf);
	}
	*value = linux_join_values(v, nv);
	util_strv_free(v, nv);
	return 0;
fail:
	util_cause(cause, "%s", why);
	free(why);
	return -1;
}

/* Pins every NAPI thread of ifname to the CPU list value. */
int
linux_napi_cpus_set(const char *ifname, const char *value, char **cause)
{
	unsigned char set[OS_MAXCPU], online[OS_MAXCPU];
	pid_t pids[NAPI_MAXTHREADS];
	char *why = NULL;
	size_t n, i;
	int any = 0;

	if (os_cpulist_parse(value, set, NULL) != 0) {
		util_cause(cause, "not a CPU list (0-1,3)");
		return -1;
	}
	if (online_cpus(online, &why) != 0)
		goto fail;
	for (i = 0; i < OS_MAXCPU; i++) {
		if (set[i] && !online[i]) {
			util_cause(cause, "CPU %zu is not online", i);
			return -1;
		}
		any |= set[i];
	}
	if (!any) {
		util_cause(cause, "no CPU");
		return -1;
	}
	if (os_linux_napi_pids(ifname, pids, nitems(pids), &n, &why) != 0)
		goto fail;
	if (n == 0) {
		/* Nothing to pin: fine when asked for what an unpinned thread gets (a restore). */
		if (memcmp(set, online, sizeof set) == 0)
			return 0;
		util_cause(cause, "'%s' has no NAPI thread (napi_threaded=1 first)", ifname);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (os_linux_pid_set_cpus(pids[i], set, &why) != 0)
			goto fail;
	return 0;
fail:
	util_cause(cause, "%s", why);
	free(why);
	return -1;
}
