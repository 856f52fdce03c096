/* The tuner on a DUT reached over ssh: what its knobs are set to, read in one go. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "bench/bench.h"
#include "util/util.h"

int
bench_remote_knobs(struct bench_remote *b, char *const *names, size_t n, json_t **values,
    char **cause)
{
	char *argv[] = { (char *)b->ntune, "verify", "-", "--json", NULL };
	struct remote_result r;
	struct strbuf sb;
	json_t *doc, *k, *v;
	json_error_t jerr;
	size_t i;
	int rc = -1;

	/* verify compares, it sets nothing: "?" is a value no knob has. */
	strbuf_init(&sb);
	strbuf_adds(&sb, "# ntune tune: the values the candidates start from\n");
	for (i = 0; i < n; i++)
		strbuf_addf(&sb, "%s=?\n", names[i]);
	if (remote_run(&b->dut, argv, sb.buf, 60, &r, cause) == -1) {
		strbuf_free(&sb);
		return -1;
	}
	strbuf_free(&sb);
	if ((r.status != 0 && r.status != 1) || (doc = json_loads(r.out, 0, &jerr)) == NULL) {
		util_cause(cause, "cannot read the candidates' knobs on %s: `ntune verify` says %s",
		    b->dut.url, remote_result_why(&r));
		goto out;
	}
	*values = json_object();
	json_array_foreach(json_object_get(doc, "knobs"), i, k) {
		if (!json_is_string(v = json_object_get(k, "name")))
			continue;
		json_object_set_new(*values, json_string_value(v), json_pack("{s:O, s:O}", "actual",
		    json_object_get(k, "actual") != NULL ? json_object_get(k, "actual") : json_null(),
		    "error", json_object_get(k, "error") != NULL ? json_object_get(k, "error") :
		    json_null()));
	}
	json_decref(doc);
	rc = 0;
out:
	remote_result_free(&r);
	return rc;
}

int
bench_remote_knob_get(void *arg, const char *name, char **value, char **why)
{
	json_t *k = json_object_get(arg, name), *v;

	if (k != NULL && json_is_string(v = json_object_get(k, "actual"))) {
		*value = xstrdup(json_string_value(v));
		return 0;
	}
	*why = xstrdup(k != NULL && json_is_string(v = json_object_get(k, "error")) ?
	    json_string_value(v) : "the DUT does not report it");
	return -1;
}
