/*
 * The advice rules of `ntune advise`. Every value is computed from the system
 * (CPU count, SMT, NIC queues and rings, link speed); every line says how sure
 * it is: safe (fixes a clear misconfiguration), usually helps (with a source),
 * or measure it (a candidate for `ntune bench` / `ntune tune`, never a fact).
 * The result is run through kb_check and lines with errors are dropped, so the
 * profile passes `ntune check`.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "kb/rules.h"
#include "util/util.h"

struct advisor {
	const struct kb *kb;
	const struct kb_system *sys;
	const char *os;		/* platform name */
	bool	bsd;
	enum kb_goal goal;
	enum kb_role role;
	struct kb_advice *a;
	size_t	n;
};

const char *
kb_certainty_name(enum kb_certainty c)
{
	return c == KB_SAFE ? "safe" : c == KB_USUALLY ? "usually helps" : "measure it";
}

static void
advise(struct advisor *ad, enum kb_certainty c, const char *name, const char *source,
    const char *fmt_value, const char *reason, ...) __attribute__((format(printf, 6, 7)));

/* fls(3): the position of the highest bit set, 0 for 0. */
static int
fls_int(int n)
{
	int b = 0;

	while (n > 0) {
		n >>= 1;
		b++;
	}
	return b;
}

/*
 * net.inet.rss.bits: the kernel's own rule with RSS on, fls(ncpu - 1) + 1 (at least two
 * buckets per CPU), capped at RSS_MAXBITS 7 (sys/net/rss_config.c rss_init).
 */
int
kb_rss_bits(int ncpu)
{
	int b = ncpu > 1 ? fls_int(ncpu - 1) + 1 : 1;

	return b > 7 ? 7 : b;
}

/* Whether the current value already has the effect of the proposed one. */
bool
kb_same_effect(const struct kb_knob *k, const struct kb_system *sys, const char *name,
    const char *cur, const char *want)
{
	long long c, w;

	if (kb_value_equal(k, cur, want))
		return true;
	if (kb_parse_number(cur, &c) == -1 || kb_parse_number(want, &w) == -1)
		return false;
	/* -1 = "all CPUs" for net.isr.maxthreads and friends. */
	if (k->range != NULL && util_startswith(k->range, "-1..ncpu") && sys->ncpu > 0 &&
	    ((c == -1 && w == sys->ncpu) || (w == -1 && c == sys->ncpu)))
		return true;
	/* rss.bits 0 = the kernel's automatic value. */
	if (strcmp(name, "net.inet.rss.bits") == 0 && c == 0 && w == kb_rss_bits(sys->ncpu))
		return true;
	return false;
}

/* The value now: the system's, else the knob's default (said so), else unknown. */
static void
current_of(struct advisor *ad, const struct kb_knob *k, struct kb_advice *x)
{
	char *v = NULL;

	if (ad->sys->get != NULL && ad->sys->get(ad->sys->arg, x->name, &v) == 0) {
		x->current = v;
		return;
	}
	if (k->def != NULL && strcmp(k->def, "auto") != 0) {
		x->current = xstrdup(k->def);
		x->current_is_default = true;
	}
}

/* Adds name=value unless the KB does not know the knob for this OS (then the rule is moot). */
static void
advise(struct advisor *ad, enum kb_certainty c, const char *name, const char *source,
    const char *value, const char *reason, ...)
{
	const struct kb_knob *k;
	struct kb_advice *x;
	va_list ap;
	size_t i;

	if ((k = kb_find(ad->kb, name, ad->os)) == NULL || k->placement == KB_PLACE_READONLY)
		return;
	for (i = 0; i < ad->n; i++) {
		if (strcmp(ad->a[i].name, name) == 0)
			return;	/* the first (more specific) rule wins */
	}
	ad->a = xreallocarray(ad->a, ad->n + 1, sizeof *ad->a);
	x = &ad->a[ad->n++];
	x->name = xstrdup(name);
	x->value = xstrdup(value);
	x->certainty = c;
	x->source = xstrdup(source);
	x->current = NULL;
	x->current_is_default = false;
	va_start(ap, reason);
	xvasprintf(&x->reason, reason, ap);
	va_end(ap);
	current_of(ad, k, x);
	x->already = x->current != NULL && kb_same_effect(k, ad->sys, name, x->current, value);
}

void
kb_advice_free(struct kb_advice *a, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(a[i].name);
		free(a[i].value);
		free(a[i].reason);
		free(a[i].source);
		free(a[i].current);
	}
	free(a);
}

static int
log2floor(int n)
{
	int b = 0;

	while (n > 1) {
		n >>= 1;
		b++;
	}
	return b;
}

static const char *
num(char *buf, size_t len, long long v)
{
	snprintf(buf, len, "%lld", v);
	return buf;
}

/* Hex mask of the first n CPUs, in the comma-grouped form of /sys (32 bits a group). */
static void
cpumask(int n, char *buf, size_t len)
{
	char group[16];
	int groups = (n + 31) / 32, g, bits;
	unsigned int w;

	buf[0] = '\0';
	for (g = groups - 1; g >= 0; g--) {
		bits = n - g * 32 > 32 ? 32 : n - g * 32;
		w = bits == 32 ? 0xffffffffu : (1u << bits) - 1;
		snprintf(group, sizeof group, g == groups - 1 ? "%x" : "%08x", w);
		if (strlen(buf) + strlen(group) + 2 < len) {
			strcat(buf, group);
			if (g > 0)
				strcat(buf, ",");
		}
	}
}

/* "ix0" -> driver "ix", unit 0. */
static int
split_unit(const char *ifname, char *drv, size_t len, int *unit)
{
	size_t n = strlen(ifname), i = n;

	while (i > 0 && isdigit((unsigned char)ifname[i - 1]))
		i--;
	if (i == 0 || i == n || i >= len)
		return -1;
	memcpy(drv, ifname, i);
	drv[i] = '\0';
	*unit = atoi(ifname + i);
	return 0;
}

static bool
iflib_driver(const char *drv)
{
	static const char *const v[] = { "ix", "ixl", "igb", "em", "igc", "ice", "ax", "vmx", "bnxt" };
	size_t i;

	for (i = 0; i < nitems(v); i++) {
		if (strcmp(drv, v[i]) == 0)
			return true;
	}
	return false;
}

/* The state a NIC reported for the advice just added on name, when the tunables do not say. */
static void
nic_state(struct advisor *ad, const char *name, int on, const char *want)
{
	struct kb_advice *x = ad->n > 0 ? &ad->a[ad->n - 1] : NULL;

	if (x == NULL || strcmp(x->name, name) != 0 || (x->current != NULL &&
	    !x->current_is_default) || on < 0)
		return;
	free(x->current);
	x->current = xstrdup(on ? "on" : "off");
	x->current_is_default = false;
	x->already = strcmp(x->current, want) == 0;
}

/* LRO and TSO of one FreeBSD NIC for a router or firewall. */
static void
advise_bsd_offload(struct advisor *ad, const struct kb_nic *nic)
{
	char name[128];

	if (ad->role == KB_ROLE_HOST || util_startswith(nic->name, "lo"))
		return;
	snprintf(name, sizeof name, "if.%s.offload.lro", nic->name);
	advise(ad, KB_SAFE, name, "ifconfig(8) -lro; OPNsense Interfaces > Settings (hardware LRO "
	    "off by default)", "off", "LRO merges TCP segments %s receives; a %s must forward "
	    "them as they came, so LRO belongs off", nic->name, ad->role == KB_ROLE_FIREWALL ?
	    "firewall" : "router");
	nic_state(ad, name, nic->lro, "off");
	snprintf(name, sizeof name, "if.%s.offload.tso", nic->name);
	advise(ad, KB_USUALLY, name, "ifconfig(8) -tso; OPNsense Interfaces > Settings (hardware "
	    "TSO off by default); em(4) hw.em.unsupported_tso", "off", "TSO only serves TCP the "
	    "box itself sends; forwarded packets never use it and drivers have had TSO errata");
	nic_state(ad, name, nic->tso, "off");
}

static void
advise_bsd(struct advisor *ad)
{
	const struct kb_system *s = ad->sys;
	char v[64], name[128], drv[32];
	const struct kb_nic *nic;
	int ncpu = s->ncpu, unit, want, maxring = 0;
	size_t i;

	for (i = 0; i < s->nnics; i++) {
		nic = &s->nics[i];
		if (split_unit(nic->name, drv, sizeof drv, &unit) == -1)
			continue;
		if (nic->rx_ring > maxring)
			maxring = nic->rx_ring;
		if (iflib_driver(drv) && ncpu > 1 && nic->queues > 0) {
			want = ncpu;
			if (nic->max_queues > 0 && want > nic->max_queues)
				want = nic->max_queues;
			if (nic->queues < want) {
				snprintf(name, sizeof name, "dev.%s.%d.iflib.override_nrxqs", drv, unit);
				advise(ad, KB_USUALLY, name, "iflib(4)", num(v, sizeof v, want),
				    "%s uses %d rx queues for %d CPUs%s; one queue per CPU spreads "
				    "interrupts over all of them", nic->name, nic->queues, ncpu,
				    nic->max_queues > 0 ? " (hardware maximum shown by the driver)" : "");
				snprintf(name, sizeof name, "dev.%s.%d.iflib.override_ntxqs", drv, unit);
				advise(ad, KB_USUALLY, name, "iflib(4)", num(v, sizeof v, want),
				    "as many tx queues as rx queues on %s", nic->name);
			}
		}
		if (iflib_driver(drv) && nic->rx_ring > 0 && nic->max_rx_ring > nic->rx_ring) {
			snprintf(name, sizeof name, "dev.%s.%d.iflib.override_nrxds", drv, unit);
			advise(ad, KB_MEASURE, name, "iflib(4)", num(v, sizeof v, nic->max_rx_ring),
			    "%s has %d rx descriptors of %d possible; bigger rings absorb bursts but "
			    "cost cache", nic->name, nic->rx_ring, nic->max_rx_ring);
		}
		if (ad->role != KB_ROLE_HOST && nic->flow_control != 0) {
			snprintf(name, sizeof name, "dev.%s.%d.fc", drv, unit);
			advise(ad, KB_USUALLY, name, "ix(4), em(4), ixl(4): fc", "0",
			    "flow control off on %s: a router drops, it must not pause its upstream "
			    "link", nic->name);
		}
		if (strcmp(drv, "ix") == 0) {
			snprintf(name, sizeof name, "dev.ix.%d.enable_aim", unit);
			if (ad->goal == KB_GOAL_LATENCY)
				advise(ad, KB_MEASURE, name, "ix(4)", "0", "for latency no adaptive "
				    "interrupt moderation on %s: every packet interrupts at once",
				    nic->name);
			else
				advise(ad, KB_MEASURE, name, "ix(4); seed 001", "1",
				    "adaptive interrupt moderation on %s: fewer interrupts at high "
				    "load, more latency", nic->name);
		}
		advise_bsd_offload(ad, nic);
	}
	if (maxring > 256)
		advise(ad, KB_USUALLY, "net.isr.defaultqlimit", "netisr(9); seed 000",
		    num(v, sizeof v, maxring),
		    "netisr queues as long as the largest NIC rx ring (%d) so a deferred burst is "
		    "not dropped (netstat -Q QDrops)", maxring);
}

static void
advise_linux(struct advisor *ad)
{
	const struct kb_system *s = ad->sys;
	char v[64], name[128], mask[256];
	const struct kb_nic *nic;
	int ncpu = s->ncpu, want;
	long maxspeed = 0;
	size_t i;

	for (i = 0; i < s->nnics; i++) {
		nic = &s->nics[i];
		if (nic->speed_mbps > maxspeed)
			maxspeed = nic->speed_mbps;
		if (strcmp(nic->name, "lo") == 0)
			continue;
		if (ncpu > 1 && nic->queues > 0 && nic->max_queues > nic->queues) {
			want = ncpu < nic->max_queues ? ncpu : nic->max_queues;
			if (want > nic->queues) {
				snprintf(name, sizeof name, "if.%s.channels.combined", nic->name);
				advise(ad, KB_USUALLY, name, "ethtool(8) -L; scaling.rst (RSS)",
				    num(v, sizeof v, want),
				    "%s uses %d of %d queues on %d CPUs; one queue per CPU spreads the "
				    "receive work", nic->name, nic->queues, nic->max_queues, ncpu);
			}
		}
		if (ncpu > 1 && nic->queues > 0 && nic->queues < ncpu &&
		    (nic->max_queues <= nic->queues || nic->max_queues < 0)) {
			cpumask(ncpu, mask, sizeof mask);
			snprintf(name, sizeof name, "if.%s.rps_cpus", nic->name);
			advise(ad, KB_USUALLY, name, "Documentation/networking/scaling.rst (RPS)", mask,
			    "%s has %d queue%s for %d CPUs and cannot have more: steer its packets "
			    "to all CPUs in software (RPS)", nic->name, nic->queues,
			    nic->queues == 1 ? "" : "s", ncpu);
		}
		if (nic->rx_ring > 0 && nic->max_rx_ring > nic->rx_ring) {
			snprintf(name, sizeof name, "if.%s.ring.rx", nic->name);
			advise(ad, KB_MEASURE, name, "ethtool(8) -G", num(v, sizeof v, nic->max_rx_ring),
			    "%s has %d rx descriptors of %d possible; bigger rings absorb bursts "
			    "(rx_missed) but cost cache", nic->name, nic->rx_ring, nic->max_rx_ring);
		}
		if (ad->role != KB_ROLE_HOST && nic->lro == 1) {
			snprintf(name, sizeof name, "if.%s.offload.lro", nic->name);
			advise(ad, KB_SAFE, name, "Documentation/networking/segmentation-offloads.rst",
			    "off", "LRO is on for %s; merged frames must not be forwarded", nic->name);
		}
		if (ad->role != KB_ROLE_HOST && nic->flow_control == 1) {
			snprintf(name, sizeof name, "if.%s.flow-control", nic->name);
			advise(ad, KB_USUALLY, name, "ethtool(8) -A", "off",
			    "pause frames from a router stall its upstream link");
		}
		if (ncpu > 1 && nic->queues > 1 && ad->role != KB_ROLE_HOST) {
			snprintf(name, sizeof name, "if.%s.irq_affinity", nic->name);
			advise(ad, KB_MEASURE, name,
			    "Documentation/core-api/irq/irq-affinity.rst; irqbalance issue 38", "spread",
			    "pin queue N of %s to CPU N instead of letting irqbalance move them "
			    "(stop irqbalance or ban these IRQs)", nic->name);
		}
		if (nic->adaptive_rx == 0) {
			snprintf(name, sizeof name, "if.%s.coalesce.adaptive-rx", nic->name);
			advise(ad, KB_MEASURE, name,
			    "ethtool(8) -C", ad->goal == KB_GOAL_LATENCY ? "off" : "on",
			    "adaptive interrupt moderation on %s trades latency for fewer interrupts",
			    nic->name);
		}
	}
	if (ncpu > 1 && ad->role != KB_ROLE_HOST) {
		/* Backlog: about 1 ms of 64-byte frames per CPU at the fastest link, at least 1000. */
		long long backlog = maxspeed > 0 ? (long long)maxspeed * 1000000LL / 672 / 1000 /
		    ncpu : 0;

		if (backlog > 1000)
			advise(ad, KB_USUALLY, "net.core.netdev_max_backlog",
			    "Documentation/admin-guide/sysctl/net.rst", num(v, sizeof v, backlog),
			    "about 1 ms of minimum-size frames at %ld Mbit/s spread over %d CPUs; "
			    "drops show in /proc/net/softnet_stat column 2", maxspeed, ncpu);
	}
}

/* Drops lines that fail the lint (unknown on this version, out of range...). */
static void
self_check(struct advisor *ad)
{
	struct kb_profile p;
	struct kb_diag *d;
	size_t nd, i, j, w;
	bool *bad;

	memset(&p, 0, sizeof p);
	p.path = (char *)"advice";
	p.entries = xcalloc(ad->n ? ad->n : 1, sizeof *p.entries);
	for (i = 0; i < ad->n; i++) {
		p.entries[i].file = p.path;
		p.entries[i].line = (int)i + 1;
		p.entries[i].name = ad->a[i].name;
		p.entries[i].value = ad->a[i].value;
	}
	p.nentries = ad->n;
	kb_check(ad->kb, &p, ad->sys, KB_TARGET_ANY, &d, &nd);
	bad = xcalloc(ad->n ? ad->n : 1, sizeof *bad);
	for (j = 0; j < nd; j++) {
		if (d[j].severity == KB_ERROR && d[j].line >= 1 && (size_t)d[j].line <= ad->n)
			bad[d[j].line - 1] = true;
	}
	kb_diags_free(d, nd);
	free(p.entries);
	for (i = w = 0; i < ad->n; i++) {
		if (bad[i]) {
			free(ad->a[i].name);
			free(ad->a[i].value);
			free(ad->a[i].reason);
			free(ad->a[i].source);
			free(ad->a[i].current);
			continue;
		}
		ad->a[w++] = ad->a[i];
	}
	ad->n = w;
	free(bad);
}

/* Applies the data rules of share/knobs/advice/NAME.advice. */
static int
advise_data(struct advisor *ad, const char *dir, const char *file, char **cause)
{
	struct kb_rules *rs;
	struct kb_rule_ctx c;
	char *path, *name, *value, *reason, mask[256];
	size_t i;

	xasprintf(&path, "%s/%s", dir, file);
	if (kb_rules_load(path, &rs, cause) == -1) {
		free(path);
		return -1;
	}
	free(path);
	cpumask(ad->sys->ncpu, mask, sizeof mask);
	memset(&c, 0, sizeof c);
	c.sys = ad->sys;
	c.os = ad->os;
	c.goal = ad->goal;
	c.role = ad->role;
	c.log2ncpu = log2floor(ad->sys->ncpu);
	c.rssbits = kb_rss_bits(ad->sys->ncpu);
	c.cpumask = mask;
	for (i = 0; i < rs->n; i++) {
		if (kb_rule_eval(&rs->r[i], &c, &name, &value, &reason) != 1)
			continue;
		advise(ad, (enum kb_certainty)rs->r[i].certainty, name, rs->r[i].source, value, "%s",
		    reason);
		free(name);
		free(value);
		free(reason);
	}
	kb_rules_free(rs);
	return 0;
}

int
kb_advise(const struct kb *kb, const struct kb_system *sys, enum kb_goal goal, enum kb_role role,
    struct kb_advice **out, size_t *nout, char **cause)
{
	struct advisor ad;
	char *dir;
	int rc;

	memset(&ad, 0, sizeof ad);
	ad.kb = kb;
	ad.sys = sys;
	ad.os = os_platform_name(sys->platform != OS_PLATFORM_UNKNOWN ? sys->platform :
	    OS_PLATFORM_LINUX);
	ad.bsd = os_platform_family(os_platform_parse(ad.os)) == OS_PLATFORM_FREEBSD;
	ad.goal = goal;
	ad.role = role;
	if (sys->ncpu <= 0) {
		util_cause(cause, "the CPU count is unknown; advice derives from it");
		return -1;
	}
	xasprintf(&dir, "%s/knobs/advice", util_share_dir());
	rc = advise_data(&ad, dir, "system.advice", cause);
	if (rc == 0) {
		if (ad.bsd)
			advise_bsd(&ad);
		else
			advise_linux(&ad);
		rc = advise_data(&ad, dir, "late.advice", cause);
	}
	free(dir);
	if (rc == -1) {
		kb_advice_free(ad.a, ad.n);
		return -1;
	}
	self_check(&ad);
	*out = ad.a;
	*nout = ad.n;
	return 0;
}
