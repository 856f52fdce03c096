/*
 * The profiles the list's bench commands compare: profiles/current.conf (every knob an
 * item touches, at its running value), one profile per item (current.conf with the
 * item's change), and proposed.conf (what the box's files should say: the lines kept,
 * the items' changes in, the wrong and wasted lines out).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/doctor_impl.h"
#include "kb/kb.h"
#include "util/util.h"

/* A word for sh: as it is when plain, else single-quoted. */
static void
add_word(struct strbuf *sb, const char *w)
{
	const char *p;

	strbuf_addc(sb, ' ');
	if (strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._/:@-+=,") ==
	    strlen(w) && *w != '\0') {
		strbuf_adds(sb, w);
		return;
	}
	strbuf_addc(sb, '\'');
	for (p = w; *p != '\0'; p++) {
		if (*p == '\'')
			strbuf_adds(sb, "'\\''");
		else
			strbuf_addc(sb, *p);
	}
	strbuf_addc(sb, '\'');
}

/* The NIC the traffic enters (the first bottleneck's interface, else the first NIC) and leaves. */
static void
dut_ports(const struct doctor *dr, const char **in, const char **out)
{
	const char *ent = NULL;
	size_t i;

	*in = *out = NULL;
	for (i = 0; i < dr->nitems && ent == NULL; i++)
		ent = dr->items[i]->entity;
	for (i = 0; ent != NULL && i < dr->si.nnics; i++) {
		if (strcmp(dr->si.nics[i].name, ent) == 0)
			*in = dr->si.nics[i].name;
	}
	for (i = 0; i < dr->si.nnics; i++) {
		if (*in == NULL)
			*in = dr->si.nics[i].name;
		else if (*out == NULL && strcmp(dr->si.nics[i].name, *in) != 0)
			*out = dr->si.nics[i].name;
	}
}

static bool
any_loader(const struct doctor *dr, json_t *set)
{
	const struct kb_knob *k;
	const char *name;
	json_t *v;

	json_object_foreach(set, name, v) {
		k = kb_find(dr->kb, name, os_platform_name(dr->si.sys.platform));
		if (k != NULL && k->placement == KB_PLACE_LOADER)
			return true;
	}
	return false;
}

static char *
bench_command(const struct doctor *dr, const char *dir, const char *b, json_t *set)
{
	const char *in, *out;
	struct strbuf sb;
	char *path;

	strbuf_init(&sb);
	strbuf_adds(&sb, "ntune bench");
	xasprintf(&path, "%s/profiles/current.conf", dir);
	add_word(&sb, path);
	free(path);
	xasprintf(&path, "%s/%s", dir, b);
	add_word(&sb, path);
	free(path);
	strbuf_adds(&sb, " --dut");
	add_word(&sb, dr->dut);
	dut_ports(dr, &in, &out);
	if (in != NULL && out != NULL) {
		strbuf_adds(&sb, " --dut-in");
		add_word(&sb, in);
		strbuf_adds(&sb, " --dut-out");
		add_word(&sb, out);
	}
	if (any_loader(dr, set))
		strbuf_adds(&sb, " --reboot");
	return strbuf_detach(&sb);
}

/* current.conf with the knobs of set replaced. */
static char *
profile_text(const struct doctor *dr, const char *title, json_t *set)
{
	const char *name;
	struct strbuf sb;
	json_t *v, *w;

	strbuf_init(&sb);
	strbuf_addf(&sb, "# ntune doctor, %s: %s\n", dr->host[0] ? dr->host : "the box", title);
	json_object_foreach(dr->current, name, v) {
		w = set != NULL && json_object_get(set, name) != NULL ? json_object_get(set, name) : v;
		strbuf_addf(&sb, "%s=%s\n", name, json_string_value(w));
	}
	return strbuf_detach(&sb);
}

/* Adds the profile path (text is taken). */
static void
profile_add(struct doctor *dr, const char *path, char *text)
{
	dr->profiles = xreallocarray(dr->profiles, dr->nprofiles + 1, sizeof *dr->profiles);
	dr->profiles[dr->nprofiles].path = xstrdup(path);
	dr->profiles[dr->nprofiles++].text = text;
}

/* A file name for an item: 01-queue-thread-busy-ax0.conf. */
static void
item_path(char *buf, size_t len, int rank, const char *id)
{
	size_t n;
	char *p;

	n = (size_t)snprintf(buf, len, "profiles/%02d-", rank);
	for (p = buf + n; *id != '\0' && (size_t)(p - buf) + 6 < len; id++) {
		if ((*id >= 'a' && *id <= 'z') || (*id >= '0' && *id <= '9'))
			*p++ = *id;
		else if (p[-1] != '-')
			*p++ = '-';
	}
	if (p[-1] == '-')
		p--;
	snprintf(p, len - (size_t)(p - buf), ".conf");
}

/* A boot-risk line's comment (kb_risk_comment), when name=value is one. */
static void
risk_comment(const struct doctor *dr, struct strbuf *sb, const char *name, const char *value)
{
	struct kb_entry e = { .name = (char *)name, .value = (char *)value, .op = KB_OP_SET };
	char *c = kb_risk_comment(dr->kb, &e, os_platform_name(dr->si.sys.platform),
	    KB_TARGET_ANY);

	if (c != NULL)
		strbuf_addf(sb, "# %s\n", c);
	free(c);
}

/* What the box's files should say: lines kept, the items' changes in, wrong and wasted out. */
static char *
proposed_text(const struct doctor *dr)
{
	const struct kb_entry *e;
	const char *name;
	struct strbuf sb;
	const struct doctor_item *it;
	json_t *done = json_object(), *v;
	size_t i, j;

	strbuf_init(&sb);
	strbuf_addf(&sb, "# ntune doctor: the tunables proposed for %s\n", dr->host[0] ? dr->host :
	    "the box");
	for (i = 0; i < dr->nitems; i++) {
		it = dr->items[i];
		if (strcmp(it->kind, "bottleneck") != 0)
			continue;
		json_object_foreach(it->set, name, v) {
			if (json_object_get(done, name) != NULL)
				continue;
			strbuf_addf(&sb, "# item %d: %s\n", it->rank, it->id);
			risk_comment(dr, &sb, name, json_string_value(v));
			strbuf_addf(&sb, "%s=%s\n", name, json_string_value(v));
			json_object_set_new(done, name, json_true());
		}
	}
	for (i = 0; i < dr->nfiles; i++) {
		for (j = 0; j < dr->files[i].p->nentries; j++) {
			e = &dr->files[i].p->entries[j];
			if (dr->files[i].cls[j] == DOCTOR_LINE_WRONG ||
			    dr->files[i].cls[j] == DOCTOR_LINE_WASTED ||
			    json_object_get(done, e->name) != NULL)
				continue;
			strbuf_addf(&sb, "# kept from %s:%d\n", e->file, e->line);
			risk_comment(dr, &sb, e->name, e->value);
			strbuf_addf(&sb, "%s=%s\n", e->name, e->value);
			json_object_set_new(done, e->name, json_true());
		}
	}
	json_decref(done);
	return strbuf_detach(&sb);
}

/* Advice the samples do not call for (not an item): listed, with its certainty. */
static void
other_advice(const struct doctor *dr, struct doctor_doc *doc)
{
	struct doctor_advice *a;
	size_t i;

	for (i = 0; i < dr->nadv; i++) {
		if (dr->adv[i].name == NULL || dr->adv[i].certainty == KB_NOT_ADVISED ||
		    dr->adv[i].already || dr->adv[i].value == NULL ||
		    json_object_get(dr->claimed, dr->adv[i].name) != NULL)
			continue;
		doc->advice = xreallocarray(doc->advice, doc->nadvice + 1, sizeof *doc->advice);
		a = &doc->advice[doc->nadvice++];
		a->name = xstrdup(dr->adv[i].name);
		a->value = xstrdup(dr->adv[i].value);
		a->now = dr->adv[i].current != NULL ? xstrdup(dr->adv[i].current) : NULL;
		a->certainty = xstrdup(kb_certainty_name(dr->adv[i].certainty));
		a->why = xstrdup(dr->adv[i].reason);
		a->risk = dr->adv[i].risk_class == KB_RISK_BOOT ? xstrdup("boot") : NULL;
		a->trial = a->risk != NULL ? xstrdup(kb_risk_class_trial(KB_RISK_BOOT)) : NULL;
	}
}

void
doctor_profiles(struct doctor *dr, struct doctor_doc *doc)
{
	const char *dir = dr->o->dir != NULL ? dr->o->dir : "doctor";
	struct doctor_item *it;
	char path[256];
	json_t *all = json_object();
	size_t i;

	for (i = 0; i < dr->nitems; i++) {
		it = dr->items[i];
		if (json_object_size(it->set) == 0)
			continue;
		item_path(path, sizeof path, it->rank, it->id);
		profile_add(dr, path, profile_text(dr, it->id, it->set));
		it->profile = xstrdup(path);
		it->bench = bench_command(dr, dir, path, it->set);
		if (strcmp(it->kind, "bottleneck") == 0)
			json_object_update_missing(all, it->set);
	}
	profile_add(dr, "profiles/current.conf", profile_text(dr,
	    "the running values of every knob the list touches", NULL));
	profile_add(dr, "proposed.conf", proposed_text(dr));
	doc->bench = bench_command(dr, dir, "proposed.conf", all);
	json_decref(all);
	other_advice(dr, doc);
}
