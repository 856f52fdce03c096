/*
 * Filling struct kb_system from the platform layer (a live machine or a
 * snapshot), and reading the boot files that also set tunables.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <jansson.h>

#include "kb/kb.h"
#include "kb/system.h"
#include "os/os.h"
#include "util/util.h"

static int
get_tunable(void *arg, const char *name, char **value)
{
	struct os_ctx *os = arg;
	char *cause = NULL;

	if (os_tunable_get(os, name, value, &cause) == -1) {
		free(cause);
		return -1;
	}
	return 0;
}

static int
kind_tunable(void *arg, const char *name, int *kind)
{
	struct os_ctx *os = arg;
	enum os_tunable_kind k;
	char *cause = NULL;

	if (os_tunable_kind(os, name, &k, &cause) == -1) {
		free(cause);
		return -1;
	}
	*kind = (int)k;
	return 0;
}

static bool
has_tunable(struct os_ctx *os, const char *name)
{
	char *v = NULL;

	if (get_tunable(os, name, &v) == -1)
		return false;
	free(v);
	return true;
}

int
kb_system_from_os(struct os_ctx *os, struct kb_sysinfo *si, char **cause)
{
	struct os_system s;
	struct os_cpu cpu;
	struct os_nic *nics = NULL;
	size_t nn = 0, i;
	char *why = NULL;

	memset(si, 0, sizeof *si);
	si->sys.ncpu = 0;
	si->sys.smt = -1;
	si->sys.rss_kernel = -1;
	memset(&s, 0, sizeof s);
	if (os_system_info(os, &s, &why) == -1) {
		util_cause(cause, "cannot tell the system: %s", why);
		free(why);
		return -1;
	}
	if ((si->sys.platform = os_platform_parse(s.platform)) == OS_PLATFORM_UNKNOWN &&
	    ((si->sys.platform = os_platform_parse(s.os)) == OS_PLATFORM_UNKNOWN ||
	    si->sys.platform == OS_PLATFORM_FREEBSD))
		si->sys.platform = os_platform_in_text(s.distro) != OS_PLATFORM_UNKNOWN ?
		    os_platform_in_text(s.distro) : OS_PLATFORM_FREEBSD;
	si->version = xstrdup(s.version);
	si->sys.version = *si->version ? si->version : NULL;
	memset(&cpu, 0, sizeof cpu);
	if (os_cpu_info(os, &cpu, &why) == 0) {
		si->sys.ncpu = cpu.threads > 0 ? cpu.threads : 0;
		si->sys.ncores = cpu.cores > 0 ? cpu.cores : 0;
		si->sys.smt = cpu.smt;
		os_cpu_free(&cpu);
	}
	free(why);
	why = NULL;
	if (si->sys.platform != OS_PLATFORM_LINUX) {
		/* net.inet.rss exists only with options RSS; kern.ostype proves we can read sysctls. */
		if (has_tunable(os, "net.inet.rss.bits") || has_tunable(os, "net.inet.rss.enabled"))
			si->sys.rss_kernel = 1;
		else if (has_tunable(os, "kern.ostype") || has_tunable(os, "net.isr.dispatch"))
			si->sys.rss_kernel = 0;
	}
	si->sys.get = get_tunable;
	si->sys.arg = os;
	if (os_nics(os, &nics, &nn, &why) == 0) {
		si->nics = xcalloc(nn ? nn : 1, sizeof *si->nics);
		for (i = 0; i < nn; i++) {
			struct kb_nic *k = &si->nics[i];

			snprintf(k->name, sizeof k->name, "%s", nics[i].name);
			snprintf(k->driver, sizeof k->driver, "%s", nics[i].driver);
			k->speed_mbps = nics[i].speed_mbps;
			k->queues = nics[i].combined_queues > 0 ? nics[i].combined_queues :
			    nics[i].rx_queues;
			k->max_queues = nics[i].max_combined_queues > 0 ?
			    nics[i].max_combined_queues : nics[i].max_rx_queues;
			k->rx_ring = nics[i].rx_ring;
			k->max_rx_ring = nics[i].max_rx_ring;
			k->flow_control = -1;
			k->adaptive_rx = nics[i].adaptive_rx;
			k->lro = nics[i].lro;
			k->tso = nics[i].tso;
		}
		si->nnics = nn;
		os_nics_free(nics, nn);
	}
	free(why);
	si->sys.nics = si->nics;
	si->sys.nnics = si->nnics;
	return 0;
}

static void
add_other(struct kb_sysinfo *si, struct kb_profile *p)
{
	if (p == NULL)
		return;
	si->others = xreallocarray(si->others, si->nothers + 1, sizeof *si->others);
	si->others[si->nothers++] = p;
	si->sys.others = si->others;
	si->sys.nothers = si->nothers;
}

static void
boot_file(void *arg, const char *path, const char *at)
{
	add_other(arg, kb_profile_load(at, NULL));
}

void
kb_system_boot_files(struct kb_sysinfo *si, enum os_platform os, const char *root)
{
	os_boot_files(os == OS_PLATFORM_LINUX ? OS_PLATFORM_LINUX : OS_PLATFORM_FREEBSD, root,
	    boot_file, si);
}

int
kb_system_snapshot_files(struct kb_sysinfo *si, const char *snapshot, char **cause)
{
	json_t *doc, *files, *f;
	json_error_t err;
	const char *path, *text;
	size_t i;

	if ((doc = json_load_file(snapshot, 0, &err)) == NULL)
		return 0;	/* not JSON: a FreeBSD text dump has no boot files */
	files = json_object_get(doc, "boot_files");
	json_array_foreach(files, i, f) {
		path = json_string_value(json_object_get(f, "path"));
		text = json_string_value(json_object_get(f, "text"));
		if (path != NULL && text != NULL)
			add_other(si, kb_profile_parse(path, text, strlen(text), NULL));
	}
	json_decref(doc);
	return 0;
}

void
kb_sysinfo_free(struct kb_sysinfo *si)
{
	size_t i;

	for (i = 0; i < si->nothers; i++)
		kb_profile_free(si->others[i]);
	free(si->others);
	free(si->nics);
	free(si->version);
	memset(si, 0, sizeof *si);
}

/* The tunables of a file that is an OPNsense/pfSense config.xml, else NULL. */
static struct kb_profile *
config_xml(const char *path)
{
	struct kb_profile *p;
	char *data = NULL;
	size_t len = 0, i = 0;

	if (util_read_file(path, &data, &len, NULL) == -1 || data == NULL)
		return NULL;
	while (i < len && (data[i] == ' ' || data[i] == '\n' || data[i] == '\t' || data[i] == '\r'))
		i++;
	p = NULL;
	if (i < len && data[i] == '<' && memmem(data, len, "<sysctl", 7) != NULL &&
	    memmem(data, len, "<tunable>", 9) != NULL)
		p = kb_profile_parse(path, data, len, NULL);
	free(data);
	return p;
}

static enum os_platform
family(enum os_platform os)
{
	return os == OS_PLATFORM_LINUX ? OS_PLATFORM_LINUX : OS_PLATFORM_FREEBSD;
}

static void
sysinfo_unknown(struct kb_sysinfo *si, enum os_platform os)
{
	memset(si, 0, sizeof *si);
	si->sys.platform = os;
	si->sys.smt = -1;
	si->sys.rss_kernel = -1;
}

void
kb_target_none(enum os_platform os, const char *version, struct kb_sysinfo *si)
{
	sysinfo_unknown(si, os != OS_PLATFORM_UNKNOWN ? os : OS_PLATFORM_LINUX);
	if (version != NULL) {
		si->version = xstrdup(version);
		si->sys.version = si->version;
	}
}

int
kb_target_open(const char *const *from, size_t n, enum os_platform os, const char *root,
    struct os_ctx **osp, struct kb_sysinfo *si, char **cause)
{
	struct os_ctx *ctx = NULL;
	struct kb_profile **xml = NULL;
	const char **rest = NULL;
	char *why = NULL;
	size_t i, nxml = 0, nrest = 0;
	int rc = -1;

	*osp = NULL;
	memset(si, 0, sizeof *si);
	/* An OPNsense/pfSense config.xml among --from: its tunables are the system's boot file. */
	rest = xcalloc(n ? n : 1, sizeof *rest);
	for (i = 0; i < n; i++) {
		struct kb_profile *p = config_xml(from[i]);

		if (p != NULL) {
			xml = xreallocarray(xml, nxml + 1, sizeof *xml);
			xml[nxml++] = p;
		} else
			rest[nrest++] = from[i];
	}
	if (nrest > 0) {
		if ((ctx = os_open_target(rest, nrest, cause)) == NULL)
			goto out;
		if (kb_system_from_os(ctx, si, cause) == -1) {
			os_close(ctx);
			ctx = NULL;
			goto out;
		}
		for (i = 0; i < nrest; i++)
			kb_system_snapshot_files(si, rest[i], NULL);
	} else if (nxml > 0) {
		sysinfo_unknown(si, os == OS_PLATFORM_PFSENSE ? os : OS_PLATFORM_OPNSENSE);
	} else if ((ctx = os_open_target(NULL, 0, &why)) != NULL) {
		if (kb_system_from_os(ctx, si, &why) == -1 ||
		    (os != OS_PLATFORM_UNKNOWN && family(os) != family(si->sys.platform))) {
			/* A profile for another OS: no system to compare with. */
			kb_sysinfo_free(si);
			os_close(ctx);
			ctx = NULL;
		} else {
			kb_system_boot_files(si, si->sys.platform,
			    root != NULL ? root : os_target_root());
			/* Mode bits are facts only on a live /proc/sys, not in a snapshot. */
			if (si->sys.platform == OS_PLATFORM_LINUX)
				si->sys.kind = kind_tunable;
		}
	}
	free(why);
	if (ctx == NULL && n == 0)
		sysinfo_unknown(si, os != OS_PLATFORM_UNKNOWN ? os : OS_PLATFORM_LINUX);
	for (i = 0; i < nxml; i++) {
		add_other(si, xml[i]);
		xml[i] = NULL;
		if (si->sys.platform == OS_PLATFORM_FREEBSD && os != OS_PLATFORM_FREEBSD)
			si->sys.platform = OS_PLATFORM_OPNSENSE;
	}
	/* --os refines the platform (a FreeBSD snapshot of an OPNsense box). */
	if (os != OS_PLATFORM_UNKNOWN && family(os) == family(si->sys.platform))
		si->sys.platform = os;
	*osp = ctx;
	rc = 0;
out:
	for (i = 0; i < nxml; i++)
		kb_profile_free(xml[i]);
	free(xml);
	free(rest);
	return rc;
}

void
kb_target_close(struct os_ctx *ctx, struct kb_sysinfo *si)
{
	kb_sysinfo_free(si);
	if (ctx != NULL)
		os_close(ctx);
}
