/*
 * Diagnosis: rules over metrics give findings; the result as JSON (schema
 * "ntune-diagnosis" version 1, documented in ntune(8)) and back.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "diag/diag_impl.h"
#include "kb/kb.h"
#include "util/util.h"

static void
finding_free(void *p)
{
	struct diag_finding *f = p;
	size_t i;

	free(f->kind);
	free(f->entity);
	free(f->summary);
	free(f->source);
	free(f->rule);
	for (i = 0; i < f->nevidence; i++)
		free(f->evidence[i].metric);
	free(f->evidence);
	for (i = 0; i < f->nknobs; i++)
		free(f->knobs[i].name);
	free(f->knobs);
}

void
diag_result_free(struct diag_result *d)
{
	if (d == NULL)
		return;
	util_array_free(d->findings, d->nfindings, sizeof *d->findings, finding_free);
	util_array_free(d->facts, d->nfacts, sizeof *d->facts, finding_free);
	util_strv_free(d->notes, d->nnotes);
	free(d->os);
	free(d->netns);
	free(d->headroom);
	json_decref(d->metrics);
	free(d);
}

static void
add_note(struct diag_result *d, char *note)
{
	d->notes = xreallocarray(d->notes, d->nnotes + 1, sizeof *d->notes);
	d->notes[d->nnotes++] = note;
}

static double
metric(const json_t *m, const char *name)
{
	json_t *j = json_object_get(m, name);

	return j != NULL && json_is_number(j) ? json_number_value(j) : NAN;
}

/* Host-wide Linux knobs, from the knowledge base when it loads (names stay as the rule gives them). */
static bool
host_knob(const struct kb *kb, const char *name, const char *os)
{
	const struct kb_knob *k;

	if (kb == NULL || (k = kb_find(kb, name, os)) == NULL)
		return false;
	return k->scope == KB_SCOPE_HOST;
}

/* A finding (fact false) or a headroom fact (its text is the rule's headroom sentence). */
static void
add_finding(struct diag_result *d, const struct diag_rule *r, const char *entity, bool fact)
{
	struct diag_finding *f;
	char *x;
	size_t i;

	if (fact) {
		d->facts = xreallocarray(d->facts, d->nfacts + 1, sizeof *d->facts);
		f = &d->facts[d->nfacts++];
	} else {
		d->findings = xreallocarray(d->findings, d->nfindings + 1, sizeof *d->findings);
		f = &d->findings[d->nfindings++];
	}
	memset(f, 0, sizeof *f);
	f->kind = xstrdup(r->finding);
	f->entity = xstrdup(entity != NULL ? entity : "");
	f->certainty = (enum diag_certainty)r->certainty;
	x = diag_expand_entity(fact ? r->headroom : r->summary, r->each, entity);
	f->summary = diag_expand_metrics(x, d->metrics);
	free(x);
	f->source = xstrdup(r->source);
	xasprintf(&f->rule, "%s:%d", r->file, r->line);
	f->evidence = xcalloc(r->nevidence + 1, sizeof *f->evidence);
	for (i = 0; i < r->nevidence; i++) {
		x = diag_expand_entity(r->evidence[i], r->each, entity);
		if (isnan(metric(d->metrics, x))) {
			free(x);
			continue;
		}
		f->evidence[f->nevidence].value = metric(d->metrics, x);
		f->evidence[f->nevidence++].metric = x;
	}
	f->knobs = xcalloc(r->nknobs, sizeof *f->knobs);
	for (i = 0; i < r->nknobs; i++) {
		f->knobs[i].name = diag_expand_entity(r->knobs[i], r->each, entity);
	}
	f->nknobs = r->nknobs;
}

static bool
in(const struct diag_finding *f, size_t n, const char *kind, const char *entity)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(f[i].kind, kind) == 0 && strcmp(f[i].entity, entity != NULL ? entity :
		    "") == 0)
			return true;
	return false;
}

/* One finding or fact of a kind on an entity: the first rule whose `when` holds gives it. */
static bool
found(const struct diag_result *d, const char *kind, const char *entity)
{
	return in(d->findings, d->nfindings, kind, entity) || in(d->facts, d->nfacts, kind, entity);
}

/* A rule whose condition holds: a finding when its cost is being paid, else a headroom fact. */
static void
fire(struct diag_result *d, const struct diag_rule *r, const char *entity)
{
	char *cost = r->cost != NULL ? diag_expand_entity(r->cost, r->each, entity) : NULL;

	add_finding(d, r, entity, cost != NULL && diag_condition(cost, d->metrics) != 1);
	free(cost);
}

static void
apply_rule(struct diag_result *d, const struct diag_rule *r)
{
	char **ents = NULL, *when;
	size_t n, i;

	if (r->finding == NULL || !diag_os_match(r->os, d->os))
		return;
	if (r->each == NULL) {
		if (!found(d, r->finding, NULL) && diag_condition(r->when, d->metrics) == 1)
			fire(d, r, NULL);
		return;
	}
	n = diag_entities(d->metrics, r->each, &ents);
	for (i = 0; i < n; i++) {
		if ((when = diag_expand_entity(r->when, r->each, ents[i])) != NULL &&
		    !found(d, r->finding, ents[i]) && diag_condition(when, d->metrics) == 1)
			fire(d, r, ents[i]);
		free(when);
		free(ents[i]);
	}
	free(ents);
}

/*
 * A link at line rate with nothing lost: what is busy is not a bottleneck, the link is the
 * limit. The findings of saturation (not certain: no loss, no full table) become headroom
 * facts, their summary followed by why.
 */
static void
line_limit(struct diag_result *d)
{
	char *s;
	size_t i, k = 0;

	if (metric(d->metrics, "net.line_limited") != 1 || !(metric(d->metrics,
	    "net.rx_loss_ps") < 1))
		return;
	for (i = 0; i < d->nfindings; i++) {
		if (d->findings[i].certainty == DIAG_CERTAIN) {
			d->findings[k++] = d->findings[i];
			continue;
		}
		xasprintf(&s, "%s; but a link is at line rate (%.2f of %.2f Gbit/s on the wire) and "
		    "nothing is lost: the link is the limit, not the box", d->findings[i].summary,
		    metric(d->metrics, "net.line_wire_bps") / 1e9,
		    metric(d->metrics, "net.line_rate_bps") / 1e9);
		free(d->findings[i].summary);
		d->findings[i].summary = s;
		d->facts = xreallocarray(d->facts, d->nfacts + 1, sizeof *d->facts);
		d->facts[d->nfacts++] = d->findings[i];
	}
	d->nfindings = k;
}

static int
cmp_certainty(const void *a, const void *b)
{
	const struct diag_finding *x = a, *y = b;

	return (int)x->certainty - (int)y->certainty;
}

bool
diag_has_metric(const json_t *m, const char *prefix)
{
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)m, key, v)
		if (strncmp(key, prefix, strlen(prefix)) == 0)
			return true;
	return false;
}

/* What could not be seen, and what is host-wide inside a namespace. */
static void
notes(struct diag_result *d)
{
	char *n;

	if (d->netns[0] != '\0' && strcmp(d->os, "linux") == 0) {
		xasprintf(&n, "inside network namespace '%s': CPU times and softnet_stat are the "
		    "host's (all namespaces); net.core.netdev_max_backlog, netdev_budget and "
		    "nf_conntrack_max are host-wide settings, set on the host", d->netns);
		add_note(d, n);
	}
	if (d->since_boot && (metric(d->metrics, "cpu.from_top") == 1 ||
	    metric(d->metrics, "irq.rates") == 1 || diag_has_metric(d->metrics, "ifw.") ||
	    diag_has_metric(d->metrics, "ifs.")))
		add_note(d, xstrdup("one capture: what top, netstat -w, systat -ifstat and vmstat -i N "
		    "show is of now (rates), the other counters are totals since boot; give --before "
		    "and --after captures for rates of everything"));
	else if (d->since_boot)
		add_note(d, xstrdup("one capture: counters since boot, not rates; give --before "
		    "and --after captures for rates"));
	if (metric(d->metrics, "cpu.from_top") == 1 && !diag_has_metric(d->metrics, "irq.") &&
	    strcmp(d->os, "linux") == 0)
		add_note(d, xstrdup("top and mpstat show how busy each CPU is, not which NIC queue "
		    "the time goes to: add /proc/interrupts and /proc/net/softnet_stat"));
	else if (metric(d->metrics, "cpu.from_top") == 1 && !diag_has_metric(d->metrics, "irq.") &&
	    !diag_has_metric(d->metrics, "ithr.") && !diag_has_metric(d->metrics, "kthr.") &&
	    !diag_has_metric(d->metrics, "nic."))
		add_note(d, xstrdup("top -P shows how busy each CPU is, not which NIC queue or kernel "
		    "thread the time goes to: add vmstat -i (interrupts per queue) or top -HSP (CPU per "
		    "thread: intr{irq..: ix0:rxq0}, netisr, if_io_tqg)"));
	if (strcmp(d->os, "linux") == 0 && isnan(metric(d->metrics, "softnet.processed")))
		add_note(d, xstrdup("no /proc/net/softnet_stat: backlog drops and budget "
		    "exhaustion unseen (run: cat /proc/net/softnet_stat)"));
	if (strcmp(d->os, "linux") == 0 && isnan(metric(d->metrics, "conntrack.max")))
		add_note(d, xstrdup("no conntrack counters (nf_conntrack not loaded here)"));
	if (strcmp(d->os, "linux") != 0 && isnan(metric(d->metrics, "netisr.handled")))
		add_note(d, xstrdup("no netstat -Q workstreams: netisr queue drops unseen (run: "
		    "netstat -Q)"));
	if (metric(d->metrics, "cpu.unmoved") == 1)
		add_note(d, xstrdup("the CPU times did not move between the two samples: saturation "
		    "unseen"));
	else if (isnan(metric(d->metrics, "cpu.busy_max")))
		add_note(d, xstrdup("no CPU times (kern.cp_times, top -P or /proc/stat): saturation unseen"));
}

static void
headroom(struct diag_result *d)
{
	double busy = metric(d->metrics, "cpu.busy_max"), cpu = metric(d->metrics,
	    "cpu.busy_max_cpu");

	if (d->nfindings > 0)
		return;
	if (metric(d->metrics, "net.line_limited") == 1 && metric(d->metrics, "net.rx_loss_ps") < 1) {
		xasprintf(&d->headroom, "the link is the limit: %.2f Gbit/s on the wire of a %.2f "
		    "Gbit/s link (netstat -w bytes and packets, with each frame's 24 bytes of FCS, "
		    "preamble and gap) and nothing lost", metric(d->metrics, "net.line_wire_bps") / 1e9,
		    metric(d->metrics, "net.line_rate_bps") / 1e9);
		return;
	}
	if (isnan(busy) && !isnan(metric(d->metrics, "net.rx_pps")))
		xasprintf(&d->headroom, "nothing lost on receive at %.0f pkt/s in, %.0f out (netstat "
		    "-w); how close the CPUs are to full is unseen: add top -P", metric(d->metrics,
		    "net.rx_pps"), metric(d->metrics, "net.tx_pps"));
	if (isnan(busy)) {
		if (d->headroom == NULL)
			d->headroom = xstrdup("nothing saturated as far as the counters show");
		return;
	}
	if (busy >= 85 && strcmp(d->os, "linux") == 0)
		xasprintf(&d->headroom, "CPU %d is %.0f%% busy, %.0f%% of it in softirq and "
		    "interrupt, and nothing drops: the packet path does not fill it (other processes "
		    "may: see top)", (int)cpu, busy, metric(d->metrics, "cpu.busy_max_soft"));
	else if (busy >= 85)
		xasprintf(&d->headroom, "CPU %d is %.0f%% busy, %.0f%% of it in the kernel (interrupt "
		    "and system), and nothing drops: no rule points at the packet path (other "
		    "processes may be using the CPUs: see top -HSP)", (int)cpu, busy,
		    metric(d->metrics, "cpu.busy_max_kernel"));
	else
		xasprintf(&d->headroom, "nothing saturated: the busiest CPU (%d) is %.0f%% busy and "
		    "nothing drops; the DUT has headroom, so the limit is elsewhere (the load "
		    "generator, the link or the peer)", (int)cpu, busy);
}

int
diag_evaluate(const struct diag_rules *rs, const struct os_counters *before,
    const struct os_counters *after, double secs, const char *os, const char *netns,
    struct diag_result **out, char **cause)
{
	struct diag_result *d;
	struct kb *kb = NULL;
	char *kbdir;
	size_t i, j;

	if (before != NULL && secs <= 0) {
		util_cause(cause, "the interval between the two samples must be positive");
		return -1;
	}
	d = xcalloc(1, sizeof *d);
	d->os = xstrdup(os);
	d->netns = xstrdup(netns != NULL ? netns : "");
	d->since_boot = before == NULL;
	d->interval_s = before != NULL ? secs : 0;
	d->metrics = diag_metrics(rs, before, after, secs, os);
	json_object_set_new(d->metrics, "netns", json_real(d->netns[0] != '\0'));
	for (i = 0; i < rs->n; i++)
		apply_rule(d, &rs->r[i]);
	line_limit(d);
	/*
	 * Host-wide knobs: Linux only, from the Linux knobs of the knowledge base (without
	 * the catalogue: a diagnosis must stay cheap), only when there are findings.
	 */
	xasprintf(&kbdir, "%s/knobs/linux", util_share_dir());
	if (d->nfindings > 0 && strcmp(os, "linux") == 0 && kb_load(kbdir, &kb, NULL) == 0) {
		for (i = 0; i < d->nfindings; i++)
			for (j = 0; j < d->findings[i].nknobs; j++)
				d->findings[i].knobs[j].host = host_knob(kb, d->findings[i].knobs[j].name,
				    d->os);
		kb_free(kb);
	}
	free(kbdir);
	if (d->nfindings > 1)
		qsort(d->findings, d->nfindings, sizeof *d->findings, cmp_certainty);
	notes(d);
	headroom(d);
	*out = d;
	return 0;
}

static const char *
live_os(struct os_ctx *ctx, char *netns, size_t len)
{
	struct os_system s;
	enum os_platform p;

	netns[0] = '\0';
	if (os_system_info(ctx, &s, NULL) != 0)
		return strcmp(os_backend_name(ctx), "linux") == 0 ? "linux" : "freebsd";
	snprintf(netns, len, "%s", s.netns);
	/* The platform the evidence names (os_platform.h), else the OS, else FreeBSD. */
	if ((p = os_platform_parse(s.platform)) == OS_PLATFORM_UNKNOWN &&
	    (p = os_platform_parse(s.os)) == OS_PLATFORM_UNKNOWN)
		p = OS_PLATFORM_FREEBSD;
	if (p == OS_PLATFORM_FREEBSD && os_platform_in_text(s.distro) != OS_PLATFORM_UNKNOWN)
		p = os_platform_in_text(s.distro);
	return os_platform_name(p);
}

/* What the readers skipped or inferred comes first among the notes. */
static void
take_notes(struct diag_result *d, struct os_counters *c)
{
	char **n;

	if (c->nnotes == 0)
		return;
	n = xreallocarray(NULL, d->nnotes + c->nnotes, sizeof *n);
	memcpy(n, c->notes, c->nnotes * sizeof *n);
	if (d->nnotes > 0)
		memcpy(n + c->nnotes, d->notes, d->nnotes * sizeof *n);
	free(d->notes);
	free(c->notes);
	d->notes = n;
	d->nnotes += c->nnotes;
	c->notes = NULL;
	c->nnotes = 0;
}

int
diag_run(struct os_ctx *ctx, double secs, const char *const *ifs, size_t nifs,
    struct diag_result **out, char **cause)
{
	struct diag_rules *rs;
	struct os_counters a = { NULL, 0, ifs, nifs, NULL, 0 }, b = { NULL, 0, ifs, nifs, NULL, 0 };
	char netns[OS_NAME_MAX];
	const char *os;
	double t0, t1;
	int rc = -1;

	if (diag_rules_load(NULL, &rs, cause) != 0)
		return -1;
	os = live_os(ctx, netns, sizeof netns);
	t0 = util_now();
	if (os_counters_collect(ctx, &a, false, cause) != 0)
		goto out;
	util_sleep(secs, NULL);
	t1 = util_now();
	if (os_counters_collect(ctx, &b, true, cause) != 0)
		goto out;
	if ((rc = diag_evaluate(rs, &a, &b, t1 - t0, os, netns, out, cause)) == 0)
		take_notes(*out, &b);	/* the live FreeBSD text a reader skipped, said */
out:
	os_counters_free(&a);
	os_counters_free(&b);
	diag_rules_free(rs);
	return rc;
}

int
diag_counters_read(const char *const *paths, size_t n, const char *os, struct os_counters *c,
    char **cause)
{
	struct os_ctx *ctx;
	char *data, *why = NULL, *note, *first = NULL;
	size_t len, i, used = 0;
	int rc;

	for (i = 0; i < n; i++) {
		if (util_read_file(paths[i], &data, &len, cause) != 0) {
			free(first);
			return -1;
		}
		if (len > 0 && data[strspn(data, " \t\r\n")] == '{') {
			free(data);
			if ((ctx = os_open_files(&paths[i], 1, cause)) == NULL) {
				free(first);
				return -1;
			}
			rc = os_counters_collect(ctx, c, true, cause);
			os_close(ctx);
		} else {
			/* one paste of several that has nothing to read is left out, said in a note */
			rc = os_counters_paste(data, len, paths[i], os, c, n > 1 ? &why : cause);
			free(data);
			if (rc != 0 && n > 1) {
				xasprintf(&note, "left out: %s", why != NULL ? why : paths[i]);
				c->notes = util_strv_add(c->notes, &c->nnotes, note);
				free(note);
				if (first == NULL)
					first = why;
				else
					free(why);
				why = NULL;
				continue;
			}
		}
		if (rc != 0) {
			free(first);
			return -1;
		}
		used++;
	}
	if (used == 0 && n > 1) {
		util_cause(cause, "nothing could be read in any of the %zu files; the first: %s", n,
		    first != NULL ? first : "?");
		free(first);
		return -1;
	}
	free(first);
	return 0;
}

/* Rules, two sets of counters read by fill, evaluated; the common part of diag_files and diag_captures. */
static int
diagnose_counters(int (*fill)(const void *, size_t, const char *, struct os_counters *, char **),
    const void *before, size_t nb, const void *after, size_t na, double secs, const char *os,
    const char *const *ifs, size_t nifs, struct diag_result **out, char **cause)
{
	struct diag_rules *rs;
	struct os_counters a = { NULL, 0, ifs, nifs, NULL, 0 };
	struct os_counters b = { NULL, 0, ifs, nifs, NULL, 0 };
	int rc = -1;

	if (diag_rules_load(NULL, &rs, cause) != 0)
		return -1;
	if ((nb == 0 || fill(before, nb, os, &a, cause) == 0) && fill(after, na, os, &b, cause) == 0 &&
	    (rc = diag_evaluate(rs, nb > 0 ? &a : NULL, &b, secs, os, "", out, cause)) == 0) {
		take_notes(*out, &b);
		take_notes(*out, &a);
	}
	os_counters_free(&a);
	os_counters_free(&b);
	diag_rules_free(rs);
	return rc;
}

static int
fill_files(const void *paths, size_t n, const char *os, struct os_counters *c, char **cause)
{
	return diag_counters_read(paths, n, os, c, cause);
}

static int
fill_captures(const void *caps, size_t n, const char *os, struct os_counters *c, char **cause)
{
	const struct diag_capture *k = caps;
	size_t i;

	for (i = 0; i < n; i++)
		if (os_counters_paste(k[i].text, k[i].len, k[i].name, os, c, cause) != 0)
			return -1;
	return 0;
}

int
diag_files(const char *const *before, size_t nb, const char *const *after, size_t na,
    double secs, const char *os, const char *const *ifs, size_t nifs, struct diag_result **out,
    char **cause)
{
	return diagnose_counters(fill_files, before, nb, after, na, secs, os, ifs, nifs, out, cause);
}

int
diag_captures(const struct diag_capture *before, size_t nb, const struct diag_capture *after,
    size_t na, double secs, const char *os, struct diag_result **out, char **cause)
{
	if (na == 0) {
		util_cause(cause, "no capture to diagnose");
		return -1;
	}
	return diagnose_counters(fill_captures, before, nb, after, na, secs, os, NULL, 0, out, cause);
}

/* Keeps the entries of f about an entity in names (or about the whole system); the count left. */
static size_t
keep(struct diag_finding *f, size_t nf, const char *const *names, size_t n)
{
	size_t i, j, k = 0;
	bool ok;

	for (i = 0; i < nf; i++) {
		ok = f[i].entity[0] == '\0';
		for (j = 0; j < n && !ok; j++)
			ok = strcmp(names[j], f[i].entity) == 0;
		if (ok)
			f[k++] = f[i];
		else
			finding_free(&f[i]);
	}
	return k;
}

void
diag_keep_entities(struct diag_result *d, const char *const *names, size_t n)
{
	if (n == 0)
		return;
	d->nfindings = keep(d->findings, d->nfindings, names, n);
	d->nfacts = keep(d->facts, d->nfacts, names, n);
}

int
diag_knob_rank(const struct diag_result *d, const char *knob)
{
	size_t i, j;

	for (i = 0; d != NULL && i < d->nfindings; i++)
		for (j = 0; j < d->findings[i].nknobs; j++)
			if (strcmp(d->findings[i].knobs[j].name, knob) == 0)
				return (int)i;
	return -1;
}

void
diag_order_advice(const struct diag_result *d, struct kb_advice *a, size_t n)
{
	struct kb_advice *out;
	size_t i, k = 0, f;
	char *r;

	if (n == 0)	/* no advice (a paste without a CPU count): a NULL array, nothing to order */
		return;
	out = xcalloc(n + 1, sizeof *out);
	for (f = 0; f < d->nfindings; f++)
		for (i = 0; i < n; i++) {
			if (a[i].name == NULL || diag_knob_rank(d, a[i].name) != (int)f)
				continue;
			xasprintf(&r, "%s; observed: %s", a[i].reason, d->findings[f].summary);
			free(a[i].reason);
			a[i].reason = r;
			out[k++] = a[i];
			a[i].name = NULL;
		}
	for (i = 0; i < n; i++)
		if (a[i].name != NULL)
			out[k++] = a[i];
	memcpy(a, out, n * sizeof *a);
	free(out);
}
