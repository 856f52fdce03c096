/* The diagnosis as JSON ("ntune-diagnosis" version 1, in ntune(8)) and back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag/diag_impl.h"
#include "util/util.h"

static json_t *
finding_json(const struct diag_finding *f)
{
	json_t *o = json_object(), *ev = json_array(), *kn = json_array(), *e;
	size_t i;

	json_object_set_new(o, "kind", json_string(f->kind));
	json_object_set_new(o, "entity", json_string(f->entity));
	json_object_set_new(o, "certainty", json_string(diag_certainty_name(f->certainty)));
	json_object_set_new(o, "summary", json_string(f->summary));
	for (i = 0; i < f->nevidence; i++) {
		e = json_object();
		json_object_set_new(e, "metric", json_string(f->evidence[i].metric));
		json_object_set_new(e, "value", json_real(f->evidence[i].value));
		json_array_append_new(ev, e);
	}
	json_object_set_new(o, "evidence", ev);
	for (i = 0; i < f->nknobs; i++) {
		e = json_object();
		json_object_set_new(e, "name", json_string(f->knobs[i].name));
		json_object_set_new(e, "host", json_boolean(f->knobs[i].host));
		json_array_append_new(kn, e);
	}
	json_object_set_new(o, "knobs", kn);
	json_object_set_new(o, "source", json_string(f->source));
	json_object_set_new(o, "rule", json_string(f->rule));
	return o;
}

json_t *
diag_to_json(const struct diag_result *d)
{
	json_t *o = json_object(), *fs = json_array(), *ns = json_array(), *hf;
	size_t i;

	json_object_set_new(o, "schema", json_string(DIAG_SCHEMA));
	json_object_set_new(o, "version", json_integer(DIAG_VERSION));
	json_object_set_new(o, "os", json_string(d->os));
	json_object_set_new(o, "netns", json_string(d->netns));
	json_object_set_new(o, "since_boot", json_boolean(d->since_boot));
	json_object_set_new(o, "interval_s", json_real(d->interval_s));
	for (i = 0; i < d->nfindings; i++)
		json_array_append_new(fs, finding_json(&d->findings[i]));
	json_object_set_new(o, "findings", fs);
	json_object_set_new(o, "headroom", d->headroom != NULL ? json_string(d->headroom) :
	    json_null());
	hf = json_array();
	for (i = 0; i < d->nfacts; i++)
		json_array_append_new(hf, finding_json(&d->facts[i]));
	json_object_set_new(o, "headroom_facts", hf);
	for (i = 0; i < d->nnotes; i++)
		json_array_append_new(ns, json_string(d->notes[i]));
	json_object_set_new(o, "notes", ns);
	json_object_set_new(o, "metrics", d->metrics != NULL ? json_deep_copy(d->metrics) :
	    json_object());
	return o;
}

static char *
str(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? xstrdup(json_string_value(v)) : NULL;
}

static int
finding_from(const json_t *o, struct diag_finding *f, char **cause, size_t idx)
{
	const json_t *ev = json_object_get(o, "evidence"), *kn = json_object_get(o, "knobs"), *e;
	char *c;
	size_t i;

	memset(f, 0, sizeof *f);
	f->kind = str(o, "kind");
	f->entity = str(o, "entity");
	f->summary = str(o, "summary");
	f->source = str(o, "source");
	f->rule = str(o, "rule");
	c = str(o, "certainty");
	f->certainty = DIAG_POSSIBLE;
	if (c != NULL && strcmp(c, "certain") == 0)
		f->certainty = DIAG_CERTAIN;
	else if (c != NULL && strcmp(c, "likely") == 0)
		f->certainty = DIAG_LIKELY;
	free(c);
	if (f->kind == NULL || f->summary == NULL || !json_is_array(kn)) {
		util_cause(cause, "finding %zu has no kind, summary or knobs", idx + 1);
		return -1;
	}
	if (f->entity == NULL)
		f->entity = xstrdup("");
	f->knobs = xcalloc(json_array_size(kn) + 1, sizeof *f->knobs);
	json_array_foreach(kn, i, e) {
		if (!json_is_string(json_object_get(e, "name"))) {
			util_cause(cause, "finding %zu: knob %zu has no name", idx + 1, i + 1);
			return -1;
		}
		f->knobs[f->nknobs].name = str(e, "name");
		f->knobs[f->nknobs++].host = json_is_true(json_object_get(e, "host"));
	}
	f->evidence = xcalloc(json_array_size(ev) + 1, sizeof *f->evidence);
	json_array_foreach(ev, i, e) {
		if (!json_is_string(json_object_get(e, "metric")) ||
		    !json_is_number(json_object_get(e, "value")))
			continue;
		f->evidence[f->nevidence].metric = str(e, "metric");
		f->evidence[f->nevidence++].value = json_number_value(json_object_get(e, "value"));
	}
	return 0;
}

int
diag_from_json(const json_t *o, struct diag_result **out, char **cause)
{
	const json_t *fs = json_object_get(o, "findings"), *v;
	struct diag_result *d;
	size_t i;

	if (!json_is_object(o) || !json_is_string(v = json_object_get(o, "schema")) ||
	    strcmp(json_string_value(v), DIAG_SCHEMA) != 0) {
		util_cause(cause, "not an ntune diagnosis (no \"schema\": \"%s\")", DIAG_SCHEMA);
		return -1;
	}
	if (!json_is_integer(v = json_object_get(o, "version")) || json_integer_value(v) < 1 ||
	    json_integer_value(v) > DIAG_VERSION) {
		util_cause(cause, "unsupported diagnosis version (this ntune reads version %d)",
		    DIAG_VERSION);
		return -1;
	}
	if (!json_is_array(fs)) {
		util_cause(cause, "diagnosis has no \"findings\" array");
		return -1;
	}
	d = xcalloc(1, sizeof *d);
	d->os = str(o, "os");
	d->netns = str(o, "netns");
	if (d->os == NULL)
		d->os = xstrdup("");
	if (d->netns == NULL)
		d->netns = xstrdup("");
	d->since_boot = json_is_true(json_object_get(o, "since_boot"));
	d->interval_s = json_number_value(json_object_get(o, "interval_s"));
	d->headroom = str(o, "headroom");
	d->metrics = json_is_object(v = json_object_get(o, "metrics")) ? json_deep_copy(v) :
	    json_object();
	d->findings = xcalloc(json_array_size(fs) + 1, sizeof *d->findings);
	for (i = 0; i < json_array_size(fs); i++) {
		d->nfindings++;
		if (finding_from(json_array_get(fs, i), &d->findings[i], cause, i) != 0) {
			diag_result_free(d);
			return -1;
		}
	}
	v = json_object_get(o, "headroom_facts");
	d->facts = xcalloc(json_array_size(v) + 1, sizeof *d->facts);
	for (i = 0; i < json_array_size(v); i++) {
		d->nfacts++;
		if (finding_from(json_array_get(v, i), &d->facts[i], cause, i) != 0) {
			diag_result_free(d);
			return -1;
		}
	}
	json_array_foreach(json_object_get(o, "notes"), i, v)
		if (json_is_string(v))
			d->notes = util_strv_add(d->notes, &d->nnotes, json_string_value(v));
	*out = d;
	return 0;
}

int
diag_load(const char *path, struct diag_result **out, char **cause)
{
	json_error_t err;
	json_t *o;
	char *why = NULL;
	int rc;

	if ((o = json_load_file(path, 0, &err)) == NULL) {
		util_cause(cause, "%s:%d: %s", path, err.line, err.text);
		return -1;
	}
	rc = diag_from_json(o, out, &why);
	json_decref(o);
	if (rc != 0) {
		util_cause(cause, "%s: %s", path, why);
		free(why);
	}
	return rc;
}
