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
	json_t *it;
	size_t i;

	*in = *out = NULL;
	json_array_foreach(dr->items, i, it) {
		if ((ent = json_string_value(json_object_get(it, "entity"))) != NULL)
			break;
	}
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

static void
profile_add(json_t *profiles, const char *path, char *text)
{
	json_array_append_new(profiles, json_pack("{s:s, s:s}", "path", path, "text", text));
	free(text);
}

/* A file name for an item: 01-queue-thread-busy-ax0.conf. */
static void
item_path(char *buf, size_t len, json_int_t rank, const char *id)
{
	size_t n;
	char *p;

	n = (size_t)snprintf(buf, len, "profiles/%02lld-", (long long)rank);
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

/* What the box's files should say: lines kept, the items' changes in, wrong and wasted out. */
static char *
proposed_text(const struct doctor *dr)
{
	const struct kb_entry *e;
	const char *name;
	struct strbuf sb;
	json_t *done = json_object(), *it, *set, *v;
	size_t i, j;
	char tag[64];

	strbuf_init(&sb);
	strbuf_addf(&sb, "# ntune doctor: the tunables proposed for %s\n", dr->host[0] ? dr->host :
	    "the box");
	json_array_foreach(dr->items, i, it) {
		if (strcmp(json_string_value(json_object_get(it, "kind")), "bottleneck") != 0)
			continue;
		set = json_object_get(it, "set");
		json_object_foreach(set, name, v) {
			if (json_object_get(done, name) != NULL)
				continue;
			snprintf(tag, sizeof tag, "%lld", (long long)json_integer_value(
			    json_object_get(it, "rank")));
			strbuf_addf(&sb, "# item %s: %s\n%s=%s\n", tag, json_string_value(
			    json_object_get(it, "id")), name, json_string_value(v));
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
			strbuf_addf(&sb, "# kept from %s:%d\n%s=%s\n", e->file, e->line, e->name,
			    e->value);
			json_object_set_new(done, e->name, json_true());
		}
	}
	json_decref(done);
	return strbuf_detach(&sb);
}

/* Advice the samples do not call for (not an item): listed, with its certainty. */
static json_t *
other_advice(const struct doctor *dr)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < dr->nadv; i++) {
		if (dr->adv[i].name == NULL || dr->adv[i].certainty == KB_NOT_ADVISED ||
		    dr->adv[i].already || dr->adv[i].value == NULL ||
		    json_object_get(dr->claimed, dr->adv[i].name) != NULL)
			continue;
		json_array_append_new(a, json_pack("{s:s, s:s, s:s?, s:s, s:s}", "name",
		    dr->adv[i].name, "value", dr->adv[i].value, "now", dr->adv[i].current,
		    "certainty", kb_certainty_name(dr->adv[i].certainty), "why", dr->adv[i].reason));
	}
	return a;
}

void
doctor_profiles(struct doctor *dr, json_t *doc)
{
	const char *dir = dr->o->dir != NULL ? dr->o->dir : "doctor";
	char path[256], *cmd;
	json_t *it, *set, *all = json_object();
	size_t i;

	json_array_foreach(dr->items, i, it) {
		set = json_object_get(it, "set");
		if (json_object_size(set) == 0)
			continue;
		item_path(path, sizeof path, json_integer_value(json_object_get(it, "rank")),
		    json_string_value(json_object_get(it, "id")));
		profile_add(dr->profiles, path, profile_text(dr, json_string_value(json_object_get(it,
		    "id")), set));
		json_object_set_new(it, "profile", json_string(path));
		cmd = bench_command(dr, dir, path, set);
		json_object_set_new(it, "bench", json_string(cmd));
		free(cmd);
		if (strcmp(json_string_value(json_object_get(it, "kind")), "bottleneck") == 0)
			json_object_update_missing(all, set);
	}
	profile_add(dr->profiles, "profiles/current.conf", profile_text(dr,
	    "the running values of every knob the list touches", NULL));
	profile_add(dr->profiles, "proposed.conf", proposed_text(dr));
	cmd = bench_command(dr, dir, "proposed.conf", all);
	json_object_set_new(doc, "bench", json_string(cmd));
	free(cmd);
	json_decref(all);
	json_object_set_new(doc, "advice", other_advice(dr));
	json_object_set_new(doc, "profiles", json_incref(dr->profiles));
}
