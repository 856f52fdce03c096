/*
 * The ntune-doctor document: struct doctor_doc and its JSON form, one typed table
 * (util/jtable.h) that writes it and reads it back. The key order of the rows is the
 * order of the document.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/doctor_impl.h"
#include "util/jtable.h"
#include "util/util.h"

static const struct jfield nic_fields[] = {
	JNUMF(struct doctor_nic, NULL, "name", J_PSTR, name, 0),
	JNUMF(struct doctor_nic, NULL, "driver", J_PSTR, driver, 0),
	JNUM(struct doctor_nic, NULL, "queues", J_IDX, queues),
};

static const struct jfield system_fields[] = {
	JNUM(struct doctor_system, NULL, "host", J_PSTR, host),
	JNUM(struct doctor_system, NULL, "platform", J_PSTR, platform),
	JNUMF(struct doctor_system, NULL, "version", J_PSTR, version, JF_NULLSTR),
	JNUM(struct doctor_system, NULL, "ncpu", J_IDX, ncpu),
	JNUM(struct doctor_system, NULL, "ncores", J_IDX, ncores),
	JNUM(struct doctor_system, NULL, "smt", J_TRI, smt),
	JNUM(struct doctor_system, NULL, "rss_kernel", J_TRI, rss_kernel),
	JARR(struct doctor_system, "nics", nics, nnics, nic_fields),
};

static const struct jfield load_fields[] = {
	JSTR(struct doctor_load, NULL, "kind", kind),
	JSTR(struct doctor_load, NULL, "generator", gen),
	JSTR(struct doctor_load, NULL, "sink", sink),
	JSTR(struct doctor_load, NULL, "dut_in", dut_in),
	JSTR(struct doctor_load, NULL, "dut_out", dut_out),
	JNUMF(struct doctor_load, NULL, "rate_asked_pps", J_DBL, rate, JF_NULLNEG),
	JNUM(struct doctor_load, NULL, "size", J_IDX, size),
	JNUM(struct doctor_load, NULL, "sent", J_U64, sent),
	JNUM(struct doctor_load, NULL, "received", J_U64, received),
	JNUM(struct doctor_load, NULL, "offered_pps", J_DBL, offered_pps),
	JNUM(struct doctor_load, NULL, "achieved_pps", J_DBL, achieved_pps),
	JNUM(struct doctor_load, NULL, "bps", J_DBL, bps),
	JNUM(struct doctor_load, NULL, "secs", J_DBL, secs),
	JNUMF(struct doctor_load, NULL, "dut_in_pps", J_DBL, dut_in_pps, JF_NULLNEG),
	JNUMF(struct doctor_load, NULL, "dut_out_pps", J_DBL, dut_out_pps, JF_NULLNEG),
};

static const struct jfield evidence_fields[] = {
	JNUM(struct doctor_evidence, NULL, "metric", J_PSTR, metric),
	JNUM(struct doctor_evidence, NULL, "value", J_PSTR, value),
};

static const struct jfield change_fields[] = {
	JNUM(struct doctor_change, NULL, "file", J_PSTR, file),
	JNUM(struct doctor_change, NULL, "line", J_IDX, line),
	JNUM(struct doctor_change, NULL, "action", J_PSTR, action),
	JNUM(struct doctor_change, NULL, "name", J_PSTR, name),
	JNUMF(struct doctor_change, NULL, "now", J_PSTR, now, JF_NULLSTR),
	JNUMF(struct doctor_change, NULL, "to", J_PSTR, to, JF_NULLSTR),
	JNUMF(struct doctor_change, NULL, "why", J_PSTR, why, JF_NULLSTR),
	JNUMF(struct doctor_change, NULL, "was", J_PSTR, was, JF_OPT | JF_OMITNULL),
	JNUMF(struct doctor_change, NULL, "risk", J_PSTR, risk, JF_OPT | JF_OMITNULL),
	JNUMF(struct doctor_change, NULL, "trial", J_PSTR, trial, JF_OPT | JF_OMITNULL),
};

static const struct jfield item_fields[] = {
	JNUM(struct doctor_item, NULL, "rank", J_IDX, rank),
	JNUM(struct doctor_item, NULL, "kind", J_PSTR, kind),
	JNUM(struct doctor_item, NULL, "id", J_PSTR, id),
	JNUM(struct doctor_item, NULL, "title", J_PSTR, title),
	JNUM(struct doctor_item, NULL, "certainty", J_PSTR, certainty),
	JARR(struct doctor_item, "evidence", evidence, nevidence, evidence_fields),
	JARR(struct doctor_item, "changes", changes, nchanges, change_fields),
	JJSONF(struct doctor_item, "set", set, 0),
	JNUMF(struct doctor_item, NULL, "source", J_PSTR, source, JF_OPT | JF_OMITNULL),
	JNUMF(struct doctor_item, NULL, "entity", J_PSTR, entity, JF_OPT | JF_OMITNULL),
	JNUMF(struct doctor_item, NULL, "count", J_IDX, count, JF_OPT | JF_OMIT0),
	JNUMF(struct doctor_item, NULL, "profile", J_PSTR, profile, JF_OPT | JF_OMITNULL),
	JNUMF(struct doctor_item, NULL, "bench", J_PSTR, bench, JF_OPT | JF_OMITNULL),
};

static const struct jfield cpu_fields[] = {
	JNUM(struct doctor_cpu, NULL, "cpu", J_IDX, cpu),
	JNUM(struct doctor_cpu, NULL, "busy", J_DBL, busy),
	JNUM(struct doctor_cpu, NULL, "interrupt", J_DBL, interrupt),
};

static const struct jfield advice_fields[] = {
	JNUM(struct doctor_advice, NULL, "name", J_PSTR, name),
	JNUM(struct doctor_advice, NULL, "value", J_PSTR, value),
	JNUMF(struct doctor_advice, NULL, "now", J_PSTR, now, JF_NULLSTR),
	JNUM(struct doctor_advice, NULL, "certainty", J_PSTR, certainty),
	JNUM(struct doctor_advice, NULL, "why", J_PSTR, why),
	JNUMF(struct doctor_advice, NULL, "risk", J_PSTR, risk, JF_OPT | JF_OMITNULL),
	JNUMF(struct doctor_advice, NULL, "trial", J_PSTR, trial, JF_OPT | JF_OMITNULL),
};

static const struct jfield profile_fields[] = {
	JNUM(struct doctor_profile, NULL, "path", J_PSTR, path),
	JNUM(struct doctor_profile, NULL, "text", J_PSTR, text),
};

static const struct jfield doc_fields[] = {
	JNUM(struct doctor_doc, NULL, "schema", J_PSTR, schema),
	JNUM(struct doctor_doc, NULL, "version", J_IDX, version),
	JNUM(struct doctor_doc, NULL, "source", J_PSTR, source),
	JNUM(struct doctor_doc, NULL, "dut", J_PSTR, dut),
	JOBJ(struct doctor_doc, "system", system, system_fields),
	JNUM(struct doctor_doc, NULL, "interval_s", J_DBL, interval_s),
	JNUMF(struct doctor_doc, NULL, "interval_from", J_PSTR, interval_from,
	    JF_OPT | JF_OMITNULL),
	JNUMF(struct doctor_doc, NULL, "interval_note", J_PSTR, interval_note,
	    JF_OPT | JF_OMITNULL),
	JNUMF(struct doctor_doc, NULL, "reading", J_PSTR, reading, JF_OPT | JF_OMITNULL),
	JPOBJF(struct doctor_doc, "load", load, load_fields, JF_OPT | JF_OMITNULL),
	JARR(struct doctor_doc, "items", items, nitems, item_fields),
	JSTRV(struct doctor_doc, "fine", fine, nfine),
	JSTRV(struct doctor_doc, "notes", notes, nnotes),
	JARR(struct doctor_doc, "cpu", cpu, ncpu, cpu_fields),
	JJSONF(struct doctor_doc, "diagnosis", diagnosis, 0),
	JNUM(struct doctor_doc, NULL, "bench", J_PSTR, bench),
	JARR(struct doctor_doc, "advice", advice, nadvice, advice_fields),
	JARR(struct doctor_doc, "profiles", profiles, nprofiles, profile_fields),
};

json_t *
doctor_doc_json(const struct doctor_doc *d)
{
	json_t *o = json_object();

	jtable_to_json(o, d, doc_fields, nitems(doc_fields));
	return o;
}

int
doctor_doc_read(json_t *o, const char *where, struct doctor_doc *d, char **cause)
{
	if (jtable_read(o, d, doc_fields, nitems(doc_fields), where, cause) == -1)
		return -1;
	if (strcmp(d->schema, DOCTOR_SCHEMA) != 0 || d->version != DOCTOR_VERSION) {
		util_cause(cause, "%s: not an %s document of version %d (schema '%s', version %d)",
		    where, DOCTOR_SCHEMA, DOCTOR_VERSION, d->schema, d->version);
		doctor_doc_free(d);
		return -1;
	}
	return 0;
}

int
doctor_doc_load(const char *path, struct doctor_doc *d, char **cause)
{
	json_error_t jerr;
	json_t *o;
	int rc;

	if ((o = json_load_file(path, 0, &jerr)) == NULL) {
		if (jerr.line > 0)
			util_cause(cause, "%s:%d: %s", path, jerr.line, jerr.text);
		else
			util_cause(cause, "cannot read '%s': %s", path, jerr.text);
		return -1;
	}
	rc = doctor_doc_read(o, path, d, cause);
	json_decref(o);
	return rc;
}

void
doctor_doc_free(struct doctor_doc *d)
{
	jtable_free(d, doc_fields, nitems(doc_fields));
}

void
doctor_item_free(struct doctor_item *it)
{
	jtable_free(it, item_fields, nitems(item_fields));
	free(it);
}

const char *
doctor_interval_by(const struct doctor_doc *d)
{
	if (d->interval_from == NULL)
		return "";
	if (strcmp(d->interval_from, "cpu-ticks") == 0)
		return "the CPU tick counters";
	return strcmp(d->interval_from, "clock") == 0 ? "clock.txt" : "--duration";
}

size_t
doctor_items(const struct doctor_doc *d)
{
	return d->nitems;
}
