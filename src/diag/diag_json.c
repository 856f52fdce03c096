/*
 * The diagnosis as JSON ("ntune-diagnosis" version 1, in ntune(8)) and back: one typed
 * table (util/jtable.h) writes `ntune diagnose --json` (a bench or tune DIR/diagnosis.json,
 * doctor's "diagnosis") and reads it back (advise/tune --diagnosis, report).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag/diag_impl.h"
#include "util/jtable.h"
#include "util/util.h"

static const struct jfield evidence_fields[] = {
	JNUM(struct diag_evidence, NULL, "metric", J_PSTR, metric),
	JNUM(struct diag_evidence, NULL, "value", J_DBL, value),
};

static const struct jfield knob_fields[] = {
	JNUM(struct diag_knob, NULL, "name", J_PSTR, name),
	JNUMF(struct diag_knob, NULL, "host", J_BOOL, host, JF_OPT),
};

/* A finding (and a headroom fact); a hand-written one may leave out entity, evidence, source, rule. */
static const struct jfield finding_fields[] = {
	JNUMF(struct diag_finding, NULL, "kind", J_PSTR, kind, JF_OMITNULL),
	JNUMF(struct diag_finding, NULL, "entity", J_PSTR, entity, JF_OPT | JF_OMITNULL),
	JENUMF(struct diag_finding, "certainty", certainty, diag_certainty_names, JF_OPT),
	JNUMF(struct diag_finding, NULL, "summary", J_PSTR, summary, JF_OMITNULL),
	{ NULL, "evidence", J_ARR, offsetof(struct diag_finding, evidence), 0, JF_OPT,
	  evidence_fields, nitems(evidence_fields), sizeof(struct diag_evidence),
	  offsetof(struct diag_finding, nevidence), NULL },
	JARR(struct diag_finding, "knobs", knobs, nknobs, knob_fields),
	JNUMF(struct diag_finding, NULL, "source", J_PSTR, source, JF_OPT | JF_OMITNULL),
	JNUMF(struct diag_finding, NULL, "rule", J_PSTR, rule, JF_OPT | JF_OMITNULL),
};

/* The document after its "schema" and "version" (diag.h's DIAG_SCHEMA, DIAG_VERSION). */
static const struct jfield result_fields[] = {
	JNUMF(struct diag_result, NULL, "os", J_PSTR, os, JF_OPT),
	JNUMF(struct diag_result, NULL, "netns", J_PSTR, netns, JF_OPT),
	JNUMF(struct diag_result, NULL, "since_boot", J_BOOL, since_boot, JF_OPT),
	JNUMF(struct diag_result, NULL, "interval_s", J_DBL, interval_s, JF_OPT),
	JARR(struct diag_result, "findings", findings, nfindings, finding_fields),
	JNUMF(struct diag_result, NULL, "headroom", J_PSTR, headroom, JF_OPT | JF_NULLSTR),
	{ NULL, "headroom_facts", J_ARR, offsetof(struct diag_result, facts), 0, JF_OPT,
	  finding_fields, nitems(finding_fields), sizeof(struct diag_finding),
	  offsetof(struct diag_result, nfacts), NULL },
	{ NULL, "notes", J_STRV, offsetof(struct diag_result, notes), 0, JF_OPT, NULL, 0, 0,
	  offsetof(struct diag_result, nnotes), NULL },
	JJSONF(struct diag_result, "metrics", metrics, JF_OPT),
};

json_t *
diag_to_json(const struct diag_result *d)
{
	json_t *o = json_object();

	json_object_set_new(o, "schema", json_string(DIAG_SCHEMA));
	json_object_set_new(o, "version", json_integer(DIAG_VERSION));
	jtable_to_json(o, d, result_fields, nitems(result_fields));
	/* a copy: the document lives on after d (and no metrics is an empty object) */
	json_object_set_new(o, "metrics", d->metrics != NULL ? json_deep_copy(d->metrics) :
	    json_object());
	return o;
}

/* Prefixes *cause with "where: " (where NULL: nothing). */
static int
at(const char *where, char **cause)
{
	char *c;

	if (where != NULL) {
		xasprintf(&c, "%s: %s", where, *cause);
		free(*cause);
		*cause = c;
	}
	return -1;
}

/* The document through its table; a complaint names where ("PATH: key 'findings[0].kind'"). */
static int
read_doc(const json_t *o, const char *where, struct diag_result **out, char **cause)
{
	struct diag_result *d;
	const json_t *v;
	size_t i;

	if (!json_is_object(o) || !json_is_string(v = json_object_get(o, "schema")) ||
	    strcmp(json_string_value(v), DIAG_SCHEMA) != 0) {
		util_cause(cause, "not an ntune diagnosis (no \"schema\": \"%s\")", DIAG_SCHEMA);
		return at(where, cause);
	}
	if (!json_is_integer(v = json_object_get(o, "version")) || json_integer_value(v) < 1 ||
	    json_integer_value(v) > DIAG_VERSION) {
		util_cause(cause, "unsupported diagnosis version (this ntune reads version %d)",
		    DIAG_VERSION);
		return at(where, cause);
	}
	d = xcalloc(1, sizeof *d);
	if (jtable_read((json_t *)(uintptr_t)o, d, result_fields, nitems(result_fields),
	    where != NULL ? where : "diagnosis", cause) == -1) {
		free(d);
		return -1;
	}
	/* what a hand-written document leaves out */
	d->os = d->os != NULL ? d->os : xstrdup("");
	d->netns = d->netns != NULL ? d->netns : xstrdup("");
	d->interval_s = isnan(d->interval_s) ? 0 : d->interval_s;
	d->metrics = d->metrics != NULL ? d->metrics : json_object();
	for (i = 0; i < d->nfindings + d->nfacts; i++) {
		struct diag_finding *f = i < d->nfindings ? &d->findings[i] :
		    &d->facts[i - d->nfindings];

		if (f->entity == NULL)
			f->entity = xstrdup("");
	}
	*out = d;
	return 0;
}

int
diag_from_json(const json_t *o, struct diag_result **out, char **cause)
{
	return read_doc(o, NULL, out, cause);
}

int
diag_load(const char *path, struct diag_result **out, char **cause)
{
	json_error_t err;
	json_t *o;
	int rc;

	if ((o = json_load_file(path, 0, &err)) == NULL) {
		util_cause(cause, "%s:%d: %s", path, err.line, err.text);
		return -1;
	}
	rc = read_doc(o, path, out, cause);
	json_decref(o);
	return rc;
}
