/* ntune lab: build, show, use and remove the gen -> dut -> sink namespace lab. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "lab/lab.h"
#include "util/util.h"
#include "util/util_json.h"

static const struct ntune_cmd cmd_lab_up, cmd_lab_down, cmd_lab_status, cmd_lab_exec;

/* The host-wide sysctl lab prefix's impairment holds, if any, in one line. */
static void
print_host_held(FILE *f, const char *prefix)
{
	char name[128], value[64], orig[64];

	if (lab_host_held(prefix, name, sizeof name, value, sizeof value, orig, sizeof orig) == 0)
		fprintf(f, "host-wide %s=%s (was %s; lab down puts it back)\n", name, value, orig);
}

static const struct option up_opts[] = {
	{ "mode", required_argument, NULL, 'm' },
	{ "queues", required_argument, NULL, 'q' },
	{ "prefix", required_argument, NULL, 'p' },
	{ "mtu", required_argument, NULL, 'M' },
	{ "impair", required_argument, NULL, 'I' },
	{ NULL, 0, NULL, 0 },
};

static int
lab_cmd_up(struct cmd_args *args)
{
	struct lab_config c;
	char *cause = NULL;
	char *arg;
	double t0;
	int ch;

	lab_config_init(&c);
	while ((ch = cmd_next(args, &arg)) != -1) {
		switch (ch) {
		case 'm':
			if (lab_mode_parse(arg, &c.mode) == -1)
				return cmd_usage_error(&cmd_lab_up, "unknown mode '%s' (route, nat or bridge)",
				    arg);
			break;
		case 'q':
			if (cmd_parse_int(arg, 1, 64, &c.queues) == -1)
				return cmd_usage_error(&cmd_lab_up, "invalid --queues '%s' (1..64)", arg);
			break;
		case 'p':
			if (lab_prefix_valid(arg, &cause) == -1)
				return cmd_fail(&cmd_lab_up, &cause, 2);
			snprintf(c.prefix, sizeof(c.prefix), "%s", arg);
			break;
		case 'M':
			if (cmd_parse_int(arg, 68, 65535, &c.mtu) == -1)
				return cmd_usage_error(&cmd_lab_up, "invalid --mtu '%s' (68..65535)", arg);
			break;
		case 'I':
			if (lab_impair_parse(arg, &c.impair) == -1 || c.impair == LAB_IMPAIR_NONE)
				return cmd_usage_error(&cmd_lab_up, "unknown impairment '%s' (rp-filter, "
				    "napi-on-sender, conntrack-small or backlog-rps)", arg);
			break;
		}
	}
	t0 = util_now();
	if (lab_up(&c, &cause) == -1)
		return cmd_fail(&cmd_lab_up, &cause, 2);
	fprintf(stderr, "lab '%s' up: %s mode, %d queue%s%s%s, %s-gen -> %s-dut -> %s-sink (%.2f s)\n",
	    c.prefix, lab_mode_name(c.mode), c.queues, c.queues == 1 ? "" : "s",
	    c.impair != LAB_IMPAIR_NONE ? ", impaired: " : "",
	    c.impair != LAB_IMPAIR_NONE ? lab_impair_name(c.impair) : "",
	    c.prefix, c.prefix, c.prefix, util_now() - t0);
	print_host_held(stderr, c.prefix);
	return 0;
}

/* The options down, status and exec share: --prefix, and the flags each allows. */
static const struct option prefix_opts[] = {
	{ "prefix", required_argument, NULL, 'p' },
	{ NULL, 0, NULL, 0 },
};
static const struct option down_opts[] = {
	{ "prefix", required_argument, NULL, 'p' },
	{ "all", no_argument, NULL, 'a' },
	{ NULL, 0, NULL, 0 },
};
static const struct option status_opts[] = {
	{ "prefix", required_argument, NULL, 'p' },
	{ "json", no_argument, NULL, 'j' },
	{ NULL, 0, NULL, 0 },
};

/* Reads --prefix into prefix[len] and the flags --json, --all; 0, or 2 after saying why. */
static int
prefix_options(struct cmd_args *args, char *prefix, size_t len, int *json, int *all)
{
	char *cause = NULL;
	char *arg;
	int ch;

	while ((ch = cmd_next(args, &arg)) != -1) {
		switch (ch) {
		case 'p':
			if (lab_prefix_valid(arg, &cause) == -1)
				return cmd_fail(args->cmd, &cause, 2);
			snprintf(prefix, len, "%s", arg);
			break;
		case 'j':
			*json = 1;
			break;
		case 'a':
			*all = 1;
			break;
		}
	}
	return 0;
}

static int
down_one(const char *prefix)
{
	char *cause = NULL;
	double t0 = util_now();
	int removed;

	if (lab_down(prefix, &removed, &cause) == -1)
		return cmd_fail(&cmd_lab_down, &cause, 2);
	if (removed > 0)
		fprintf(stderr, "lab '%s' down: %d namespace%s removed (%.2f s)\n", prefix,
		    removed, removed == 1 ? "" : "s", util_now() - t0);
	else
		fprintf(stderr, "lab '%s' is not up; nothing to remove\n", prefix);
	return 0;
}

static int
lab_cmd_down(struct cmd_args *args)
{
	char prefix[LAB_PREFIX_MAX + 1] = LAB_PREFIX_DEFAULT;
	int all = 0, rc;

	if ((rc = prefix_options(args, prefix, sizeof(prefix), NULL, &all)) != 0)
		return rc;
	if (all) {
		char **labs, *cause = NULL;
		size_t i, n;

		if (lab_list(&labs, &n, &cause) == -1)
			return cmd_fail(&cmd_lab_down, &cause, 2);
		for (i = 0, rc = 0; i < n; i++) {
			if (down_one(labs[i]) != 0)
				rc = 2;
		}
		lab_list_free(labs, n);
		return rc;
	}
	return down_one(prefix);
}

static void
print_status(const struct lab_status *st)
{
	char ns[LAB_NSNAME_MAX];
	int r, i;
	bool any = false;

	for (r = 0; r < LAB_NROLES; r++)
		any = any || st->ns_exists[r];
	printf("lab %s: %s", st->config.prefix, any ? "up" : "not up");
	if (any && st->state_file)
		printf(" (%s mode, %d queue%s%s%s)", lab_mode_name(st->config.mode), st->config.queues,
		    st->config.queues == 1 ? "" : "s", st->config.impair != LAB_IMPAIR_NONE ?
		    ", impaired: " : "", st->config.impair != LAB_IMPAIR_NONE ?
		    lab_impair_name(st->config.impair) : "");
	putchar('\n');
	if (!any)
		return;
	print_host_held(stdout, st->config.prefix);
	printf("%-20s %-7s %-5s %14s %16s %10s %14s %16s %10s\n", "namespace", "iface", "state",
	    "rx_packets", "rx_bytes", "rx_drop", "tx_packets", "tx_bytes", "tx_drop");
	for (r = 0; r < LAB_NROLES; r++) {
		lab_netns_name(st->config.prefix, (enum lab_role)r, ns, sizeof(ns));
		if (!st->ns_exists[r]) {
			printf("%-20s missing\n", ns);
			continue;
		}
		for (i = 0; i < st->nifs[r]; i++) {
			const struct lab_ifstat *s = &st->ifs[r][i];

			printf("%-20s %-7s %-5s %14llu %16llu %10llu %14llu %16llu %10llu\n", ns, s->name,
			    s->up ? "up" : "down", (unsigned long long)s->rx_packets,
			    (unsigned long long)s->rx_bytes, (unsigned long long)s->rx_dropped,
			    (unsigned long long)s->tx_packets, (unsigned long long)s->tx_bytes,
			    (unsigned long long)s->tx_dropped);
		}
	}
}

static json_t *
status_json(const struct lab_status *st)
{
	json_t *o, *nss;
	char ns[LAB_NSNAME_MAX];
	int r, i;
	bool any = false;

	for (r = 0; r < LAB_NROLES; r++)
		any = any || st->ns_exists[r];
	nss = json_object();
	for (r = 0; r < LAB_NROLES; r++) {
		json_t *ifs = json_array();

		if (!st->ns_exists[r])
			continue;
		for (i = 0; i < st->nifs[r]; i++) {
			const struct lab_ifstat *s = &st->ifs[r][i];

			json_array_append_new(ifs, json_pack("{s:s, s:s, s:b, s:I, s:I, s:I, s:I, s:I, s:I}",
			    "name", s->name, "mac", s->mac, "up", s->up,
			    "rx_packets", (json_int_t)s->rx_packets, "rx_bytes", (json_int_t)s->rx_bytes,
			    "rx_dropped", (json_int_t)s->rx_dropped, "tx_packets", (json_int_t)s->tx_packets,
			    "tx_bytes", (json_int_t)s->tx_bytes, "tx_dropped", (json_int_t)s->tx_dropped));
		}
		lab_netns_name(st->config.prefix, (enum lab_role)r, ns, sizeof(ns));
		json_object_set_new(nss, lab_role_name((enum lab_role)r),
		    json_pack("{s:s, s:o}", "netns", ns, "interfaces", ifs));
	}
	o = json_pack("{s:s, s:b, s:s, s:i, s:i, s:s, s:o}", "prefix", st->config.prefix, "up", any,
	    "mode", lab_mode_name(st->config.mode), "queues", st->config.queues,
	    "mtu", st->config.mtu, "impair", lab_impair_name(st->config.impair), "namespaces", nss);
	{
		char name[128], value[64], orig[64];

		json_object_set_new(o, "host_sysctl", lab_host_held(st->config.prefix, name,
		    sizeof name, value, sizeof value, orig, sizeof orig) == 0 ?
		    json_pack("{s:s, s:s, s:s}", "name", name, "value", value, "original", orig) :
		    json_null());
	}
	return o;
}

static int
lab_cmd_status(struct cmd_args *args)
{
	char prefix[LAB_PREFIX_MAX + 1] = LAB_PREFIX_DEFAULT;
	struct lab_status st;
	char *cause = NULL;
	int json = 0, rc, r;
	bool any = false;

	if ((rc = prefix_options(args, prefix, sizeof(prefix), &json, NULL)) != 0)
		return rc;
	if (lab_status(prefix, &st, &cause) == -1)
		return cmd_fail(&cmd_lab_status, &cause, 2);
	for (r = 0; r < LAB_NROLES; r++)
		any = any || st.ns_exists[r];
	if (json) {
		json_t *o = status_json(&st);

		util_json_print(o, stdout, JSON_INDENT(2));
		putchar('\n');
		json_decref(o);
	} else {
		char **labs;
		size_t i, n;

		print_status(&st);
		if (lab_list(&labs, &n, NULL) == 0) {
			const char *sep = "other labs: ";

			for (i = 0; i < n; i++) {
				if (strcmp(labs[i], prefix) == 0)
					continue;
				printf("%s%s", sep, labs[i]);
				sep = ", ";
			}
			if (strcmp(sep, ", ") == 0)
				putchar('\n');
			lab_list_free(labs, n);
		}
	}
	return any ? 0 : 1;
}

static int
lab_cmd_exec(struct cmd_args *args)
{
	char prefix[LAB_PREFIX_MAX + 1] = LAB_PREFIX_DEFAULT, ns[LAB_NSNAME_MAX];
	char *cause = NULL, **argv = args->argv;
	enum lab_role role;
	int rc;

	if ((rc = prefix_options(args, prefix, sizeof(prefix), NULL, NULL)) != 0)
		return rc;
	if (args->argc == 0)
		return cmd_usage_error(&cmd_lab_exec, "%s", "needs a role (gen, dut or sink) and a command");
	if (lab_role_parse(argv[0], &role) == -1)
		return cmd_usage_error(&cmd_lab_exec, "unknown role '%s' (gen, dut or sink)", argv[0]);
	argv++;
	if (*argv != NULL && strcmp(*argv, "--") == 0)
		argv++;
	if (*argv == NULL)
		return cmd_usage_error(&cmd_lab_exec, "%s", "needs a command after the role");
	lab_netns_name(prefix, role, ns, sizeof(ns));
	if (!lab_netns_exists(ns))
		return cmd_error(&cmd_lab_exec, 2, "lab '%s' is not up (no namespace '%s')", prefix, ns);
	if (lab_check_privileges(&cause) == -1)
		return cmd_fail(&cmd_lab_exec, &cause, 2);
	lab_netns_execv(ns, argv, &cause);
	return cmd_fail(&cmd_lab_exec, &cause, 127);
}

static const struct ntune_cmd cmd_lab_up = {
	.name = "lab up",
	.summary = "build the lab: three namespaces joined by veth pairs",
	.usage = "lab up [--mode route|nat|bridge] [--queues N] [--prefix NAME] [--mtu N]\n"
	    "    [--impair rp-filter|napi-on-sender|conntrack-small|backlog-rps]",
	.longopts = up_opts,
	.optstring = "m:q:p:",
	.max_args = 0,
	.run = lab_cmd_up,
};

static const struct ntune_cmd cmd_lab_down = {
	.name = "lab down",
	.summary = "remove a lab's namespaces",
	.usage = "lab down [--prefix NAME | --all]",
	.longopts = down_opts,
	.optstring = "p:",
	.max_args = 0,
	.run = lab_cmd_down,
};

static const struct ntune_cmd cmd_lab_status = {
	.name = "lab status",
	.summary = "is the lab up, and its interfaces' counters",
	.usage = "lab status [--prefix NAME] [--json]",
	.longopts = status_opts,
	.optstring = "p:",
	.max_args = 0,
	.run = lab_cmd_status,
};

static const struct ntune_cmd cmd_lab_exec = {
	.name = "lab exec",
	.summary = "run a command in one of the lab's namespaces",
	.usage = "lab exec [--prefix NAME] ROLE -- CMD [ARGS]",
	.longopts = prefix_opts,
	.optstring = "+p:",
	.max_args = -1,		/* the role and the command: lab_cmd_exec says which is missing */
	.run = lab_cmd_exec,
};

static const struct ntune_cmd *const lab_subs[] = {
	&cmd_lab_up, &cmd_lab_down, &cmd_lab_status, &cmd_lab_exec, &cmd_lab_rfc2544, NULL,
};

const struct ntune_cmd cmd_lab = {
	.name = "lab",
	.summary = "build a gen -> dut -> sink router lab in network namespaces",
	.subs = lab_subs,
};
