/*
 * The ranked list: the bottlenecks the samples show (with the advice for the knobs
 * each names), then what the box's files get wrong, what they set that the running
 * kernel does not have, what they set that does nothing for forwarding, and their
 * warnings; then what is fine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag/diag.h"
#include "doctor/doctor_impl.h"
#include "kb/kb.h"
#include "util/util.h"

/* The last line of the box's files that sets name (the one in force), or NULL. */
static const struct kb_entry *
where_set(const struct doctor *dr, const char *name)
{
	const struct kb_entry *e, *last = NULL;
	size_t i;

	for (i = 0; i < dr->nfiles; i++) {
		if ((e = kb_profile_get(dr->files[i].p, name)) != NULL)
			last = e;
	}
	return last;
}

/*
 * Where a line for a knob the files do not set goes. Linux: a sysctl in the file ntune's own
 * persistence writes (src/apply/remote_script.c); an interface, CPU, /sys or ethtool setting in no
 * sysctl file at all (`ntune apply` sets it at runtime; no boot file keeps it).
 */
static const char *
add_to(const struct doctor *dr, const char *name, const struct kb_knob *k)
{
	if (dr->linux) {
		if (util_startswith(name, "if.") || util_startswith(name, "cpu.") ||
		    (k != NULL && k->placement != KB_PLACE_SYSCTL && k->placement != KB_PLACE_BOTH))
			return "ntune apply";
		return "/etc/sysctl.d/90-ntune.conf";
	}
	if (k != NULL && k->placement == KB_PLACE_LOADER)
		return "/boot/loader.conf.local";
	return "/etc/sysctl.conf.local";
}

/*
 * How a line already there takes effect: at boot when a loader file has it (or it is a
 * boot-time tunable), else by applying it (sysctl; OPNsense applies its runtime
 * tunables when they are saved).
 */
static const char *
takes_effect(const struct doctor *dr, const char *file, const char *name)
{
	const struct kb_knob *k = kb_find(dr->kb, name,
	    os_platform_name(dr->si.sys.platform));
	const char *base = strrchr(file, '/') != NULL ? strrchr(file, '/') + 1 : file;

	if (!dr->linux && (util_startswith(base, "loader.conf") || (k != NULL &&
	    k->placement == KB_PLACE_LOADER)))
		return "reboot";
	return "apply";
}

/* Records name's running value (else its default) for profiles/current.conf. */
static void
note_current(struct doctor *dr, const char *name)
{
	const struct kb_knob *k;
	char *v;

	if (json_object_get(dr->current, name) != NULL)
		return;
	if ((v = doctor_running(dr, name)) != NULL) {
		json_object_set_new(dr->current, name, json_string(v));
		free(v);
	} else if ((k = kb_find(dr->kb, name, os_platform_name(dr->si.sys.platform))) != NULL &&
	    k->def != NULL)
		json_object_set_new(dr->current, name, json_string(k->def));
}

/* A copy of s, or NULL. */
static char *
sdup(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

/* The next item of the list (ranked in the order they are made). */
static struct doctor_item *
item_new(struct doctor *dr, const char *kind, const char *id, const char *title,
    const char *certainty)
{
	struct doctor_item *it = xcalloc(1, sizeof *it);

	it->rank = (int)dr->nitems + 1;
	it->kind = xstrdup(kind);
	it->id = xstrdup(id);
	it->title = xstrdup(title);
	it->certainty = xstrdup(certainty);
	it->set = json_object();
	dr->items = xreallocarray(dr->items, dr->nitems + 1, sizeof *dr->items);
	dr->items[dr->nitems++] = it;
	return it;
}

static void
evidence_add(struct doctor_item *it, const char *metric, const char *text)
{
	it->evidence = xreallocarray(it->evidence, it->nevidence + 1, sizeof *it->evidence);
	it->evidence[it->nevidence].metric = xstrdup(metric);
	it->evidence[it->nevidence++].value = xstrdup(text);
}

/* One line to change: file:line (line 0: a line to add), its action, from what to what. */
static void
change_add(struct doctor *dr, struct doctor_item *it, const char *file, int line,
    const char *action, const char *name, const char *now, const char *to, const char *why)
{
	struct doctor_change *c;
	enum kb_risk_class rc;
	char key[600];

	it->changes = xreallocarray(it->changes, it->nchanges + 1, sizeof *it->changes);
	c = &it->changes[it->nchanges++];
	*c = (struct doctor_change){ .file = xstrdup(file), .line = line, .action = xstrdup(action),
	    .name = xstrdup(name), .now = sdup(now), .to = sdup(to), .why = sdup(why) };
	/* a line to add, edit or boot into: its risk class and the trial that proves it */
	rc = to != NULL ? kb_line_risk(dr->kb, &(struct kb_entry){ .name = (char *)name,
	    .value = (char *)to, .op = KB_OP_SET }, os_platform_name(dr->si.sys.platform),
	    kb_target_of_file(file), NULL) : KB_RISK_NONE;
	c->risk = sdup(kb_risk_class_name(rc));
	c->trial = sdup(kb_risk_class_trial(rc));
	if (line > 0) {
		snprintf(key, sizeof key, "%s:%d", file, line);
		json_object_set_new(dr->shown_lines, key, json_true());
	}
	if (to != NULL)
		json_object_set_new(it->set, name, json_string(to));
	json_object_set_new(dr->claimed, name, json_true());
	note_current(dr, name);
}

/* The line that makes advice a true: edit the line in force, add one, or boot into it. */
static void
advice_change(struct doctor *dr, struct doctor_item *it, const struct kb_advice *a)
{
	const struct kb_knob *k = kb_find(dr->kb, a->name, os_platform_name(dr->si.sys.platform));
	const struct kb_entry *e = where_set(dr, a->name);
	char *now = doctor_running(dr, a->name), *why;

	xasprintf(&why, "[%s] %s", kb_certainty_name(a->certainty), a->reason);
	if (e != NULL && k != NULL && kb_same_effect(k, &dr->si.sys, a->name, e->value, a->value))
		change_add(dr, it, e->file, e->line, takes_effect(dr, e->file, a->name), a->name, now,
		    e->value, why);
	else if (e != NULL) {
		change_add(dr, it, e->file, e->line, "edit", a->name, now, a->value, why);
		/* what the line says now */
		it->changes[it->nchanges - 1].was = xstrdup(e->value);
	}
	else
		change_add(dr, it, add_to(dr, a->name, k), 0, "add", a->name, now, a->value, why);
	free(now);
	free(why);
}

static const struct kb_advice *
advice_for(const struct doctor *dr, const char *name)
{
	size_t i;

	for (i = 0; i < dr->nadv; i++) {
		if (dr->adv[i].name != NULL && strcmp(dr->adv[i].name, name) == 0 &&
		    dr->adv[i].certainty != KB_NOT_ADVISED && dr->adv[i].value != NULL &&
		    dr->adv[i].value[0] != '\0' && !dr->adv[i].already)
			return &dr->adv[i];
	}
	return NULL;
}

static const char *not_advised(const struct doctor *, const char *);

/*
 * One item per finding of the diagnosis, with the advice for the knobs it names; a knob
 * the advice rules leave alone ("not advised", e.g. a queue count the hardware sets) is
 * listed as not proposed, with the rule's reason.
 */
void
doctor_items_bottlenecks(struct doctor *dr)
{
	const struct diag_finding *f;
	const struct kb_advice *a;
	struct doctor_item *it;
	const char *na;
	char id[300], *v;
	size_t i, j;

	for (i = 0; i < dr->d->nfindings; i++) {
		f = &dr->d->findings[i];
		snprintf(id, sizeof id, "%s%s%s", f->kind, f->entity[0] ? " on " : "", f->entity);
		it = item_new(dr, "bottleneck", id, f->summary, diag_certainty_name(f->certainty));
		it->source = sdup(f->source);
		if (f->entity[0] != '\0')
			it->entity = xstrdup(f->entity);
		for (j = 0; j < f->nevidence; j++) {
			v = diag_format_value(f->evidence[j].value);
			evidence_add(it, f->evidence[j].metric, v);
			free(v);
		}
		for (j = 0; j < f->nknobs; j++) {
			if (json_object_get(dr->claimed, f->knobs[j].name) != NULL)
				continue;
			if ((a = advice_for(dr, f->knobs[j].name)) != NULL)
				advice_change(dr, it, a);
			else if ((na = not_advised(dr, f->knobs[j].name)) != NULL)
				change_add(dr, it, "", 0, "not-proposed", f->knobs[j].name, NULL, NULL,
				    na);
		}
	}
}

/* The diagnostics kb_check gave one line of a file. */
static size_t
line_diags(const struct doctor_file *f, int line, const struct kb_diag **out, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < f->nd && n < max; i++) {
		if (f->d[i].line == line)
			out[n++] = &f->d[i];
	}
	return n;
}

/* Whether the running kernel has what line e sets: 1 yes, 0 no, -1 cannot tell. */
static int
in_effect(struct doctor *dr, const struct kb_entry *e, char **running)
{
	const struct kb_knob *k = kb_find(dr->kb, e->name, os_platform_name(dr->si.sys.platform));
	int rc;

	*running = NULL;
	if (k == NULL || k->placement == KB_PLACE_READONLY ||
	    (*running = doctor_running(dr, e->name)) == NULL)
		return -1;
	rc = kb_same_effect(k, &dr->si.sys, e->name, *running, e->value) ? 1 : 0;
	return rc;
}


#define MAXD	16

/* What a line of a box file is: one class, the most important that applies. */
static enum doctor_line
classify_once(struct doctor *dr, const struct doctor_file *f, const struct kb_entry *e)
{
	const struct kb_diag *ds[MAXD];
	size_t i, n = line_diags(f, e->line, ds, MAXD);
	enum doctor_line c = DOCTOR_LINE_FINE;
	char *running;

	for (i = 0; i < n; i++) {
		if (strcmp(ds[i]->rule, "forwarding") == 0)
			return DOCTOR_LINE_WASTED;
	}
	if (json_object_get(dr->claimed, e->name) != NULL)
		return DOCTOR_LINE_CHANGED;
	for (i = 0; i < n; i++) {
		if (ds[i]->severity == KB_ERROR)
			return DOCTOR_LINE_WRONG;
		if (ds[i]->severity == KB_WARNING)
			c = DOCTOR_LINE_WARNED;
	}
	if (in_effect(dr, e, &running) == 0)
		c = DOCTOR_LINE_ABSENT;
	free(running);
	return c;
}

/* The class classify_once gave entry e of f before the file items claimed their knobs. */
static enum doctor_line
classify(struct doctor *dr, const struct doctor_file *f, const struct kb_entry *e)
{
	(void)dr;
	return (enum doctor_line)f->cls[e - f->p->entries];
}

/* The messages of a line's diagnostics of at least severity sev, joined. */
static char *
line_why(const struct doctor_file *f, int line, enum kb_severity sev)
{
	const struct kb_diag *ds[MAXD];
	size_t i, n = line_diags(f, line, ds, MAXD);
	struct strbuf sb;

	strbuf_init(&sb);
	for (i = 0; i < n; i++) {
		if (ds[i]->severity < sev)
			continue;
		strbuf_addf(&sb, "%s%s", sb.len > 0 ? "; " : "", ds[i]->message);
	}
	return strbuf_detach(&sb);
}

static void
evidence_line(struct doctor_item *it, const struct kb_entry *e, const char *text)
{
	char where[600];

	snprintf(where, sizeof where, "%s:%d", e->file, e->line);
	evidence_add(it, where, text);
}

/* A forwarding field "none: WHAT; WHY" of the knob of e: WHAT, and WHY in *rest. */
static char *
forwarding_parts(const struct doctor *dr, const struct kb_entry *e, const char **rest)
{
	const struct kb_knob *k = kb_find(dr->kb, e->name, os_platform_name(dr->si.sys.platform));
	const char *f, *semi;

	*rest = NULL;
	if (k == NULL || k->forwarding == NULL)
		return xstrdup("");
	f = k->forwarding + strlen("none: ");
	if ((semi = strstr(f, "; ")) == NULL)
		return xstrdup(f);
	*rest = semi + 2;
	return xstrndup(f, (size_t)(semi - f));
}

/* A wasted line: its knob's own reason, and what else check said of it. */
static void
wasted_line(struct doctor *dr, struct doctor_item *it, const struct doctor_file *f,
    const struct kb_entry *e)
{
	const struct kb_diag *ds[MAXD];
	size_t i, n = line_diags(f, e->line, ds, MAXD);
	const char *rest;
	char *what = forwarding_parts(dr, e, &rest), *running;
	struct strbuf sb;

	strbuf_init(&sb);
	strbuf_addf(&sb, "%s=%s: %s", e->name, e->value, what);
	for (i = 0; i < n; i++) {
		if (strcmp(ds[i]->rule, "forwarding") != 0 && ds[i]->severity >= KB_WARNING)
			strbuf_addf(&sb, "; also: %s", ds[i]->message);
	}
	if (rest != NULL && it->source == NULL)
		it->source = xstrdup(rest);
	evidence_line(it, e, sb.buf);
	running = doctor_running(dr, e->name);
	change_add(dr, it, e->file, e->line, "remove", e->name, running, e->value, what);
	free(running);
	free(what);
	strbuf_free(&sb);
}

/* A line check found wrong (an error) or questionable (a warning). */
static void
checked_line(struct doctor *dr, struct doctor_item *it, const struct doctor_file *f,
    const struct kb_entry *e, enum doctor_line c)
{
	char *why = line_why(f, e->line, c == DOCTOR_LINE_WRONG ? KB_ERROR : KB_WARNING), *t;

	xasprintf(&t, "%s=%s: %s", e->name, e->value, why);
	evidence_line(it, e, t);
	change_add(dr, it, e->file, e->line, c == DOCTOR_LINE_WRONG ? "remove" : "check", e->name,
	    NULL, NULL, why);
	free(t);
	free(why);
}

/* Why the advice rules leave name alone ("not advised"), or NULL. */
static const char *
not_advised(const struct doctor *dr, const char *name)
{
	size_t i;

	for (i = 0; i < dr->nadv; i++) {
		if (dr->adv[i].name != NULL && strcmp(dr->adv[i].name, name) == 0 &&
		    dr->adv[i].certainty == KB_NOT_ADVISED)
			return dr->adv[i].reason;
	}
	return NULL;
}

static void
absent_line(struct doctor *dr, struct doctor_item *it, const struct kb_entry *e)
{
	const char *na = not_advised(dr, e->name);
	char *running, *why;

	in_effect(dr, e, &running);
	xasprintf(&why, "%s=%s, running %s%s%s", e->name, e->value, running,
	    na != NULL ? "; ntune does not advise it: " : "", na != NULL ? na : "");
	evidence_line(it, e, why);
	change_add(dr, it, e->file, e->line, takes_effect(dr, e->file, e->name), e->name, running,
	    e->value, why);
	free(running);
	free(why);
}

/* The lines of class c of every file, as one item (what they set becomes its profile). */
static void
group_item(struct doctor *dr, enum doctor_line c)
{
	static const char *const kinds[] = { "wrong", "not-in-effect", "wasted", "warning" };
	static const char *const ids[] = { "not taken by the kernel", "not in effect",
		"useless for forwarding", "warnings" };
	const struct kb_entry *e;
	struct doctor_item *it = NULL;
	char *title;
	size_t i, j, n = 0;

	for (i = 0; i < dr->nfiles; i++) {
		for (j = 0; j < dr->files[i].p->nentries; j++) {
			e = &dr->files[i].p->entries[j];
			if (classify(dr, &dr->files[i], e) != c)
				continue;
			if (it == NULL)
				it = item_new(dr, kinds[c], ids[c], "", c == DOCTOR_LINE_WARNED ?
				    "likely" : "certain");
			n++;
			if (c == DOCTOR_LINE_ABSENT)
				absent_line(dr, it, e);
			else if (c == DOCTOR_LINE_WASTED)
				wasted_line(dr, it, &dr->files[i], e);
			else
				checked_line(dr, it, &dr->files[i], e, c);
		}
	}
	if (it == NULL)
		return;
	if (c == DOCTOR_LINE_WRONG)
		xasprintf(&title, "%zu line%s of the box's files %s nothing: the kernel or the loader "
		    "does not take %s as written", n, n == 1 ? "" : "s", n == 1 ? "does" : "do",
		    n == 1 ? "it" : "them");
	else if (c == DOCTOR_LINE_WARNED)
		xasprintf(&title, "%zu line%s of the box's files %s a problem worth a look (an "
		    "obsolete name, a missing device, an unmet requirement)", n, n == 1 ? "" : "s",
		    n == 1 ? "has" : "have");
	else if (c == DOCTOR_LINE_ABSENT)
		xasprintf(&title, "%zu setting%s of the box's files %s not what the running kernel has: "
		    "boot-time tunables are read at boot (the box has not booted since, or the loader "
		    "did not read them); runtime ones were changed since, or refused", n,
		    n == 1 ? "" : "s", n == 1 ? "is" : "are");
	else
		xasprintf(&title, "%zu setting%s only serve%s sockets on the box itself: %s", n,
		    n == 1 ? "" : "s", n == 1 ? "s" : "", it->source != NULL ? it->source :
		    "a forwarded packet never reaches a socket");
	free(it->title);
	it->title = title;
	it->count = (int)n;
}

/* Lines kb_check could not read (no entry carries them): each an item. */
static void
unread_items(struct doctor *dr, const struct doctor_file *f)
{
	struct doctor_item *it;
	char id[600];
	size_t i;

	for (i = 0; i < f->nd; i++) {
		if (strcmp(f->d[i].rule, "syntax") != 0)
			continue;
		snprintf(id, sizeof id, "unreadable line %s:%d", f->d[i].file, f->d[i].line);
		it = item_new(dr, "wrong", id, f->d[i].message, "certain");
		change_add(dr, it, f->d[i].file, f->d[i].line, "remove", "", NULL, NULL,
		    f->d[i].message);
	}
}

void
doctor_items_files(struct doctor *dr)
{
	struct doctor_file *f;
	size_t i, j;

	for (i = 0; i < dr->nfiles; i++) {
		f = &dr->files[i];
		f->cls = xcalloc(f->p->nentries + 1, sizeof *f->cls);
		for (j = 0; j < f->p->nentries; j++)
			f->cls[j] = (int)classify_once(dr, f, &f->p->entries[j]);
	}
	for (i = 0; i < dr->nfiles; i++)
		unread_items(dr, &dr->files[i]);
	group_item(dr, DOCTOR_LINE_WRONG);
	group_item(dr, DOCTOR_LINE_ABSENT);
	group_item(dr, DOCTOR_LINE_WASTED);
	group_item(dr, DOCTOR_LINE_WARNED);
}

/* What is fine: lines in effect without a problem (notes said), the headroom facts. */
void
doctor_fine(struct doctor *dr)
{
	const struct kb_entry *e;
	char *why, *t;
	size_t i, j;

	for (i = 0; i < dr->nfiles; i++) {
		for (j = 0; j < dr->files[i].p->nentries; j++) {
			e = &dr->files[i].p->entries[j];
			if (classify(dr, &dr->files[i], e) != DOCTOR_LINE_FINE)
				continue;
			why = line_why(&dr->files[i], e->line, KB_NOTE);
			xasprintf(&t, "%s:%d: %s=%s%s%s", e->file, e->line, e->name, e->value,
			    *why ? ": " : "", why);
			dr->fine = util_strv_add(dr->fine, &dr->nfine, t);
			free(t);
			free(why);
		}
	}
	if (dr->d->headroom != NULL) {
		xasprintf(&t, "no bottleneck in the samples: %s", dr->d->headroom);
		dr->fine = util_strv_add(dr->fine, &dr->nfine, t);
		free(t);
	}
	for (i = 0; i < dr->d->nfacts; i++) {
		xasprintf(&t, "%s%s%s: %s", dr->d->facts[i].kind, dr->d->facts[i].entity[0] ?
		    " on " : "", dr->d->facts[i].entity, dr->d->facts[i].summary);
		dr->fine = util_strv_add(dr->fine, &dr->nfine, t);
		free(t);
	}
}
