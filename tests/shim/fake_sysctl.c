/*
 * A fake FreeBSD sysctl MIB and kenv for running src/os/freebsd.c on Linux:
 * every oid of a `sysctl -a` fixture becomes a one-level MIB {100 + i} in name
 * order, answering the "name" {0,1}, "next" {0,2} and "oidfmt" {0,4} queries the
 * way the kernel does, with integers as CTLTYPE_INT and the rest as strings.
 * Access flags follow a small table (loader tunables, read-only oids).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include <kenv.h>
#include <sys/cpuset.h>
#include <sys/sysctl.h>

#include "fake_sysctl.h"

struct oid {
	char	*name;
	char	*value;
	int	 isint;
	u_int	 flags;
};

static struct oid *oids;
static size_t noids;
static const char *const *kenv_vars;

static u_int
flags_for(const char *name)
{
	static const char *const rdtun[] = { "net.isr.maxthreads", "net.isr.bindthreads",
	    "net.isr.defaultqlimit", "net.inet.rss.enabled", "net.inet.rss.bits",
	    "machdep.hyperthreading_intr_allowed", "hw.ix.", "dev.ax.0.iflib.override_" };
	static const char *const rwtun[] = { "net.isr.dispatch", "kern.ipc.nmbclusters" };
	size_t i;

	for (i = 0; i < sizeof rdtun / sizeof rdtun[0]; i++)
		if (strncmp(name, rdtun[i], strlen(rdtun[i])) == 0)
			return CTLFLAG_RDTUN;
	for (i = 0; i < sizeof rwtun / sizeof rwtun[0]; i++)
		if (strcmp(name, rwtun[i]) == 0)
			return CTLFLAG_RWTUN;
	if (strchr(name, '%') != NULL || strncmp(name, "kern.smp.", 9) == 0 ||
	    strcmp(name, "hw.ncpu") == 0 || strcmp(name, "hw.model") == 0 ||
	    strncmp(name, "kern.os", 7) == 0)
		return CTLFLAG_RD;
	return CTLFLAG_RW;
}

static int
is_int(const char *s)
{
	char *end;
	long long v;

	if (*s == '\0')
		return 0;
	errno = 0;
	v = strtoll(s, &end, 10);
	return *end == '\0' && errno == 0 && v >= INT32_MIN && v <= INT32_MAX;
}

static int
cmp_oid(const void *a, const void *b)
{
	return strcmp(((const struct oid *)a)->name, ((const struct oid *)b)->name);
}

void
fake_sysctl_load(const char *const *names, const char *const *values, size_t n,
    const char *const *kenv)
{
	size_t i;

	oids = calloc(n + 1, sizeof *oids);
	for (i = 0; i < n; i++) {
		oids[i].name = strdup(names[i]);
		oids[i].value = strdup(values[i]);
		oids[i].isint = is_int(values[i]);
		oids[i].flags = flags_for(names[i]);
	}
	noids = n;
	qsort(oids, n, sizeof *oids, cmp_oid);
	kenv_vars = kenv;
}

void
fake_sysctl_free(void)
{
	size_t i;

	for (i = 0; i < noids; i++) {
		free(oids[i].name);
		free(oids[i].value);
	}
	free(oids);
	oids = NULL;
	noids = 0;
}

static int
out(void *oldp, size_t *oldlenp, const void *data, size_t len)
{
	if (oldp == NULL) {
		*oldlenp = len;
		return 0;
	}
	if (*oldlenp < len) {
		errno = ENOMEM;
		return -1;
	}
	memcpy(oldp, data, len);
	*oldlenp = len;
	return 0;
}

static struct oid *
by_mib(const int *name, u_int namelen)
{
	if (namelen != 1 || name[0] < 100 || (size_t)(name[0] - 100) >= noids) {
		errno = ENOENT;
		return NULL;
	}
	return &oids[name[0] - 100];
}

int
sysctl(const int *name, u_int namelen, void *oldp, size_t *oldlenp, const void *newp,
    size_t newlen)
{
	struct oid *o;

	if (namelen >= 2 && name[0] == 0) {
		if (name[1] == 2) {	/* next */
			int next = namelen == 2 ? 100 : name[2] < 100 ? 100 : name[2] + 1;

			if ((size_t)(next - 100) >= noids) {
				errno = ENOENT;
				return -1;
			}
			return out(oldp, oldlenp, &next, sizeof next);
		}
		if ((o = by_mib(name + 2, namelen - 2)) == NULL)
			return -1;
		if (name[1] == 1)	/* name */
			return out(oldp, oldlenp, o->name, strlen(o->name) + 1);
		if (name[1] == 4) {	/* oidfmt: kind word, then the format string */
			char buf[64];
			u_int kind = o->flags | (o->isint ? CTLTYPE_INT : CTLTYPE_STRING);

			memcpy(buf, &kind, sizeof kind);
			strcpy(buf + sizeof kind, o->isint ? "I" : "A");
			return out(oldp, oldlenp, buf, sizeof kind + 2);
		}
		errno = ENOENT;
		return -1;
	}
	if ((o = by_mib(name, namelen)) == NULL)
		return -1;
	if (newp != NULL) {
		if ((o->flags & CTLFLAG_WR) == 0) {
			errno = EPERM;
			return -1;
		}
		free(o->value);
		if (o->isint) {
			int32_t v;
			char buf[32];

			if (newlen != sizeof v) {
				errno = EINVAL;
				return -1;
			}
			memcpy(&v, newp, sizeof v);
			snprintf(buf, sizeof buf, "%d", v);
			o->value = strdup(buf);
		} else
			o->value = strndup(newp, newlen);
		return 0;
	}
	if (o->isint) {
		int32_t v = (int32_t)strtol(o->value, NULL, 10);

		return out(oldp, oldlenp, &v, sizeof v);
	}
	return out(oldp, oldlenp, o->value, strlen(o->value) + 1);
}

int
sysctlnametomib(const char *name, int *mibp, size_t *sizep)
{
	size_t i;

	for (i = 0; i < noids; i++)
		if (strcmp(oids[i].name, name) == 0) {
			if (*sizep < 1) {
				errno = ENOMEM;
				return -1;
			}
			mibp[0] = (int)(100 + i);
			*sizep = 1;
			return 0;
		}
	errno = ENOENT;
	return -1;
}

/* kern.cp_times and the interrupt tables are not in sysctl -a text: fixed values. */
int
sysctlbyname(const char *name, void *oldp, size_t *oldlenp, const void *newp, size_t newlen)
{
	static const long cp_times[8 * 5] = {
		100, 0, 200, 300, 400, 110, 0, 210, 310, 410, 120, 0, 220, 320, 420,
		130, 0, 230, 330, 430, 140, 0, 240, 340, 440, 150, 0, 250, 350, 450,
		160, 0, 260, 360, 460, 170, 0, 270, 370, 470,
	};
	static const char names[] = "cpu0:timer\0irq82: ax0:rxq0\0irq83: ax0:rxq1\0"
	    "irq84: ax0:rxq2\0irq85: ax0:rxq3\0irq88: ax1:rxq0\0";
	static const u_long counts[6] = { 1000, 981, 977, 964, 959, 912 };
	int mib[1];
	size_t len = 1;

	if (strcmp(name, "kern.cp_times") == 0)
		return out(oldp, oldlenp, cp_times, sizeof cp_times);
	if (strcmp(name, "hw.intrnames") == 0)
		return out(oldp, oldlenp, names, sizeof names);
	if (strcmp(name, "hw.intrcnt") == 0)
		return out(oldp, oldlenp, counts, sizeof counts);
	if (sysctlnametomib(name, mib, &len) != 0)
		return -1;
	return sysctl(mib, 1, oldp, oldlenp, newp, newlen);
}

int
kenv(int action, const char *name, char *value, int len)
{
	size_t i, n = strlen(name);

	if (action != KENV_GET || kenv_vars == NULL) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; kenv_vars[i] != NULL; i++)
		if (strncmp(kenv_vars[i], name, n) == 0 && kenv_vars[i][n] == '=') {
			snprintf(value, (size_t)len, "%s", kenv_vars[i] + n + 1);
			return (int)strlen(value) + 1;
		}
	errno = ENOENT;
	return -1;
}

/* Every interrupt may run on CPU (irq mod 4). */
int
cpuset_getaffinity(cpulevel_t level, cpuwhich_t which, id_t id, size_t size, cpuset_t *set)
{
	int cpu = (int)id % 4;

	if (level != CPU_LEVEL_WHICH || which != CPU_WHICH_IRQ || size < sizeof *set) {
		errno = EINVAL;
		return -1;
	}
	memset(set, 0, size);
	set->__bits[0] = 1UL << cpu;
	return 0;
}
