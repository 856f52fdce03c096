/*
 * ntune diagnose: sample the counters that locate a forwarding bottleneck, and name
 * it with its evidence and the knobs that address it (src/diag). Live, or from
 * pasted captures: one (since boot) or two taken --interval seconds apart.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/osdoc.h"
#include "diag/diag.h"
#include "os/os.h"
#include "os/platform.h"
#include "util/util.h"
#include "util/util_json.h"

extern const struct ntune_cmd cmd_diagnose;

#define MAXFILES	16
#define MAXIFS		32

static void
print_text(const struct diag_result *d)
{
	const struct diag_finding *f;
	size_t i, j;
	char *v;

	if (d->since_boot)
		printf("diagnosis of %s: counters since boot (one capture)\n", d->os);
	else
		printf("diagnosis of %s%s%s%s over %.1f s (rates per second)\n", d->os,
		    d->netns[0] != '\0' ? " in network namespace '" : "", d->netns,
		    d->netns[0] != '\0' ? "'" : "", d->interval_s);
	for (i = 0; i < d->nfindings; i++) {
		f = &d->findings[i];
		printf("\n%zu. %s%s%s (%s)\n   %s\n   evidence:", i + 1, f->kind,
		    f->entity[0] != '\0' ? " on " : "", f->entity, diag_certainty_name(f->certainty),
		    f->summary);
		for (j = 0; j < f->nevidence; j++) {
			v = diag_format_value(f->evidence[j].value);
			printf(" %s=%s", f->evidence[j].metric, v);
			free(v);
		}
		printf("\n   knobs:");
		for (j = 0; j < f->nknobs; j++)
			printf("%s %s%s", j > 0 ? "," : "", f->knobs[j].name,
			    f->knobs[j].host ? " (host-wide)" : "");
		printf("\n   source: %s\n", f->source);
	}
	if (d->headroom != NULL)
		printf("\nno bottleneck found: %s\n", d->headroom);
	for (i = 0; i < d->nfacts; i++)
		printf("%s  %s%s%s: %s\n", i == 0 ? "\nheadroom (seen, but not a cost being paid now):\n" : "", d->facts[i].kind,
		    d->facts[i].entity[0] != '\0' ? " on " : "", d->facts[i].entity,
		    d->facts[i].summary);
	for (i = 0; i < d->nnotes; i++)
		printf("%snote: %s\n", i == 0 ? "\n" : "", d->notes[i]);
}

static int
output(struct diag_result *d, char **ifs, size_t nifs, bool json)
{
	json_t *doc;
	int rc;

	diag_keep_entities(d, (const char *const *)ifs, nifs);
	rc = d->nfindings > 0 ? 1 : 0;
	if (json) {
		doc = diag_to_json(d);
		util_json_print(doc, stdout, JSON_INDENT(2));
		putchar('\n');
		json_decref(doc);
	} else
		print_text(d);
	diag_result_free(d);
	return rc;
}

static int
live(double secs, char **ifs, size_t nifs, bool json)
{
	struct os_ctx *ctx;
	struct diag_result *d;
	char *cause = NULL;

	if ((ctx = cmd_os_open(&cmd_diagnose, NULL, 0)) == NULL)
		return 2;
	if (!json)
		fprintf(stderr, "diagnose: sampling for %.1f s\n", secs);
	if (diag_run(ctx, secs, (const char *const *)ifs, nifs, &d, &cause) != 0) {
		os_close(ctx);
		return cmd_fail(&cmd_diagnose, &cause, 2);
	}
	os_close(ctx);
	return output(d, ifs, nifs, json);
}

static const struct option longopts[] = {
	{ "duration", required_argument, NULL, 'd' },
	{ "interface", required_argument, NULL, 'i' },
	{ "from", required_argument, NULL, 'f' },
	{ "before", required_argument, NULL, 'b' },
	{ "after", required_argument, NULL, 'a' },
	{ "interval", required_argument, NULL, 'I' },
	{ "os", required_argument, NULL, 'o' },
	{ "json", no_argument, NULL, 'j' },
	{ NULL, 0, NULL, 0 },
};

static int
run(struct cmd_args *args)
{
	const char *from[MAXFILES], *before[MAXFILES], *after[MAXFILES], *os = "freebsd";
	char *ifs[MAXIFS], *cause = NULL;
	size_t nfrom = 0, nbefore = 0, nafter = 0, nifs = 0;
	double secs = 2, interval = 0;
	bool json = false;
	struct diag_result *d;
	enum os_platform plat;
	char *arg;
	int ch;

	while ((ch = cmd_next(args, &arg)) != -1) {
		switch (ch) {
		case 'd':
			if (cmd_parse_num(&cmd_diagnose, "-d", arg, 0.1, 3600, &secs) != 0)
				return 2;
			break;
		case 'i':
			if (nifs == MAXIFS)
				return cmd_usage_error(&cmd_diagnose, "too many -i interfaces");
			ifs[nifs++] = arg;
			break;
		case 'f':
			if (cmd_add_from(&cmd_diagnose, from, &nfrom, MAXFILES, arg) != 0)
				return 2;
			break;
		case 'b':
			if (cmd_add_from(&cmd_diagnose, before, &nbefore, MAXFILES, arg) != 0)
				return 2;
			break;
		case 'a':
			if (cmd_add_from(&cmd_diagnose, after, &nafter, MAXFILES, arg) != 0)
				return 2;
			break;
		case 'I':
			if (cmd_parse_num(&cmd_diagnose, "--interval", arg, 0.001, 1e9,
			    &interval) != 0)
				return 2;
			break;
		case 'o':
			if (cmd_parse_os(&cmd_diagnose, arg, &plat) != 0)
				return 2;
			os = os_platform_name(plat);
			break;
		case 'j':
			json = true;
			break;
		}
	}
	/* --from a b c: the arguments after the options are more files */
	for (; nfrom > 0 && args->argc > 0; args->argc--, args->argv++)
		if (cmd_add_from(&cmd_diagnose, from, &nfrom, MAXFILES, args->argv[0]) != 0)
			return 2;
	if (args->argc > 0)
		return cmd_usage_error(&cmd_diagnose, "unexpected argument '%s'", args->argv[0]);
	if (nfrom > 0 && (nbefore > 0 || nafter > 0))
		return cmd_usage_error(&cmd_diagnose, "--from is one capture; --before/--after are two");
	if ((nbefore > 0) != (nafter > 0) || ((nbefore > 0) != (interval > 0)))
		return cmd_usage_error(&cmd_diagnose, "--before, --after and --interval go together");
	if (nfrom == 0 && nafter == 0)
		return live(secs, ifs, nifs, json);
	if (diag_files(before, nbefore, nfrom > 0 ? from : after, nfrom > 0 ? nfrom : nafter,
	    interval, os, (const char *const *)ifs, nifs, &d, &cause) != 0)
		return cmd_fail(&cmd_diagnose, &cause, 2);
	return output(d, ifs, nifs, json);
}

const struct ntune_cmd cmd_diagnose = {
	.name = "diagnose",
	.summary = "name the bottleneck under load, its evidence and the knobs that address it",
	.usage = "diagnose [-d SECS] [-i IFACE]... [--json]\n"
	    "diagnose --from FILE... [--os freebsd|opnsense|pfsense|linux] [-i IFACE]... [--json]\n"
	    "diagnose --before FILE... --after FILE... --interval SECS [--os OS] [--json]",
	.optstring = "d:i:j",
	.longopts = longopts,
	.max_args = -1,
	.run = run,
};
