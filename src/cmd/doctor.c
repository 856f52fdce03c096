/*
 * ntune doctor: read a router (over ssh, or a capture directory) and print one ranked
 * list of what is wrong or wasted, with the evidence, the certainty, the lines to change
 * and the bench command that would prove it; then what is fine (src/doctor).
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cmd/cmd.h"
#include "cmd/osdoc.h"
#include "doctor/doctor.h"
#include "remote/capture.h"
#include "remote/remote.h"
#include "report/report.h"
#include "util/util.h"
#include "util/util_json.h"

extern const struct ntune_cmd cmd_doctor;

/* "FILE:LINE: NAME=TO ..." as the action says. */
static void
print_change(json_t *c)
{
	const char *file = json_string_value(json_object_get(c, "file"));
	const char *action = json_string_value(json_object_get(c, "action"));
	const char *name = json_string_value(json_object_get(c, "name"));
	const char *now = json_string_value(json_object_get(c, "now"));
	const char *to = json_string_value(json_object_get(c, "to"));
	int line = (int)json_integer_value(json_object_get(c, "line"));
	char where[600];

	if (line > 0)
		snprintf(where, sizeof where, "%s:%d", file, line);
	else
		snprintf(where, sizeof where, "%s", file);
	if (strcmp(action, "edit") == 0)
		printf("   change: %s: %s=%s -> %s=%s (running %s)\n", where, name,
		    json_string_value(json_object_get(c, "was")), name, to, now ? now : "unknown");
	else if (strcmp(action, "add") == 0)
		printf("   change: %s: add %s=%s (running %s)\n", where, name, to, now ? now :
		    "unknown");
	else if (strcmp(action, "reboot") == 0 || strcmp(action, "apply") == 0)
		printf("   change: %s: %s=%s is there, not in effect (running %s): %s\n", where, name,
		    to, now ? now : "unknown", strcmp(action, "reboot") == 0 ? "reboot" : "apply it");
	else if (strcmp(action, "remove") == 0 && *name != '\0')
		printf("   change: %s: remove %s%s%s\n", where, name, to ? "=" : "", to ? to : "");
	else if (strcmp(action, "remove") == 0)
		printf("   change: %s: remove the line\n", where);
	else
		printf("   change: %s: %s\n", where, name);
}

/* A group's lines are listed as its evidence: one line says what to do with them. */
static void
print_group_change(json_t *it, bool linux)
{
	size_t i, nboot = 0, napply = 0, nremove = 0, ncheck = 0;
	const char *a;
	json_t *c;

	json_array_foreach(json_object_get(it, "changes"), i, c) {
		a = json_string_value(json_object_get(c, "action"));
		nboot += strcmp(a, "reboot") == 0;
		napply += strcmp(a, "apply") == 0;
		nremove += strcmp(a, "remove") == 0;
		ncheck += strcmp(a, "check") == 0;
	}
	if (ncheck > 0)
		printf("   change: fix or remove the %zu line%s above\n", ncheck, ncheck == 1 ? "" : "s");
	if (nremove > 0)
		printf("   change: remove the %zu line%s above\n", nremove, nremove == 1 ? "" : "s");
	if (nboot > 0)
		printf("   change: reboot to bring in the %zu boot-time line%s above (or remove "
		    "what you do not want)\n", nboot, nboot == 1 ? "" : "s");
	if (napply > 0)
		printf("   change: apply the %zu runtime line%s above (sysctl %s FILE), or remove "
		    "them\n", napply, napply == 1 ? "" : "s", linux ? "-p" : "-f");
}

static void
print_item(json_t *it, bool linux)
{
	const char *kind = json_string_value(json_object_get(it, "kind"));
	json_t *e, *c;
	size_t i;
	bool metric = strcmp(kind, "bottleneck") == 0;

	printf("\n%lld. %s: %s (%s)\n   %s\n", (long long)json_integer_value(json_object_get(it,
	    "rank")), kind, json_string_value(json_object_get(it, "id")),
	    json_string_value(json_object_get(it, "certainty")),
	    json_string_value(json_object_get(it, "title")));
	json_array_foreach(json_object_get(it, "evidence"), i, e) {
		if (metric)
			printf("%s %s=%s", i == 0 ? "   evidence:" : "",
			    json_string_value(json_object_get(e, "metric")),
			    json_string_value(json_object_get(e, "value")));
		else
			printf("   %s: %s\n", json_string_value(json_object_get(e, "metric")),
			    json_string_value(json_object_get(e, "value")));
	}
	if (metric && json_array_size(json_object_get(it, "evidence")) > 0)
		putchar('\n');
	if (!metric && json_object_get(it, "count") != NULL)
		print_group_change(it, linux);
	else
		json_array_foreach(json_object_get(it, "changes"), i, c)
			print_change(c);
	if (metric && json_array_size(json_object_get(it, "changes")) == 0)
		printf("   change: the changes of an item above address it too\n");
	if (json_object_get(it, "bench") != NULL)
		printf("   prove:  %s%s\n", json_string_value(json_object_get(it, "bench")),
		    strcmp(kind, "wasted") == 0 ? "   (expect no difference)" : "");
}

static void
print_text(json_t *doc, const char *dir)
{
	json_t *sys = json_object_get(doc, "system"), *v;
	size_t i;

	printf("ntune doctor: %s, %s %s, %lld CPUs, NICs", *json_string_value(json_object_get(sys,
	    "host")) ? json_string_value(json_object_get(sys, "host")) : "(no host name)", json_string_value(json_object_get(sys, "platform")),
	    json_is_string(json_object_get(sys, "version")) ?
	    json_string_value(json_object_get(sys, "version")) : "", (long long)json_integer_value(
	    json_object_get(sys, "ncpu")));
	json_array_foreach(json_object_get(sys, "nics"), i, v)
		printf(" %s", json_string_value(json_object_get(v, "name")));
	if (json_real_value(json_object_get(doc, "interval_s")) > 0)
		printf("; samples %.0f s apart\n", json_real_value(json_object_get(doc, "interval_s")));
	else
		printf("; counters since boot (no samples)\n");
	if (doctor_items(doc) == 0)
		printf("\nnothing to fix\n");
	json_array_foreach(json_object_get(doc, "items"), i, v)
		print_item(v, strcmp(json_string_value(json_object_get(sys, "platform")), "linux") == 0);
	printf("\nfine:\n");
	if (json_array_size(json_object_get(doc, "fine")) == 0)
		printf("  nothing in the box's files or the samples\n");
	json_array_foreach(json_object_get(doc, "fine"), i, v)
		printf("  %s\n", json_string_value(v));
	json_array_foreach(json_object_get(doc, "advice"), i, v)
		printf("%s  %s=%s [%s] %s\n", i == 0 ? "\nalso advised (not called for by the "
		    "samples):\n" : "", json_string_value(json_object_get(v, "name")),
		    json_string_value(json_object_get(v, "value")),
		    json_string_value(json_object_get(v, "certainty")),
		    json_string_value(json_object_get(v, "why")));
	json_array_foreach(json_object_get(doc, "notes"), i, v)
		printf("%snote: %s\n", i == 0 ? "\n" : "", json_string_value(v));
	printf("\nproposed profile: %s/proposed.conf%s\nall of it: %s\n", dir != NULL ? dir :
	    "doctor", dir != NULL ? "" : " (-o DIR writes it and the profiles above)",
	    json_string_value(json_object_get(doc, "bench")));
}

/* -o DIR: the raw capture (DIR/capture/), doctor.json, the profiles and doctor.html. */
static int
write_dir(const char *dir, const struct capture_set *c, json_t *doc, char **cause)
{
	char *sub, *text;
	json_t *p;
	size_t i;
	int rc = -1;

	xasprintf(&sub, "%s/capture", dir);
	if (util_mkdir(dir, cause) == -1 || capture_write_dir(c, sub, cause) == -1)
		goto out;
	free(sub);
	xasprintf(&sub, "%s/profiles", dir);
	if (util_mkdir(sub, cause) == -1)
		goto out;
	json_array_foreach(json_object_get(doc, "profiles"), i, p) {
		if (util_write_text_at(dir, json_string_value(json_object_get(p, "path")),
		    json_string_value(json_object_get(p, "text")), cause) == -1)
			goto out;
	}
	text = util_json_dumps(doc, JSON_INDENT(2));
	rc = util_write_text_at(dir, "doctor.json", text, cause);
	free(text);
	if (rc == 0) {
		text = report_doctor_html(doc);
		rc = util_write_text_at(dir, "doctor.html", text, cause);
		free(text);
	}
out:
	free(sub);
	return rc;
}

/* Does path not exist, or is it an empty directory? */
static bool
dir_empty(const char *path)
{
	struct dirent *de;
	bool empty = true;
	DIR *d;

	if ((d = opendir(path)) == NULL)
		return errno == ENOENT;
	while (empty && (de = readdir(d)) != NULL)
		empty = strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0;
	closedir(d);
	return empty;
}

static const struct option longopts[] = {
	{ "from", required_argument, NULL, 'f' },
	{ "duration", required_argument, NULL, 'd' },
	{ "json", no_argument, NULL, 'j' },
	{ "capture-script", no_argument, NULL, 'S' },
	{ "dut", required_argument, NULL, 'D' },
	CMD_OS_SSH_LONGOPTS,
	{ NULL, 0, NULL, 0 },
};

struct opts {
	const char *from, *out, *dut;
	struct cmd_os_ssh ssh;
	double	duration;
	bool	json, script;
};

static int
options(struct cmd_args *args, struct opts *o)
{
	char *arg;
	int ch;

	memset(o, 0, sizeof *o);
	o->duration = 10;
	while ((ch = cmd_next(args, &arg)) != -1) {
		switch (ch) {
		case 'f': o->from = arg; break;
		case 'o': o->out = arg; break;
		case 'd':
			if (cmd_parse_num(&cmd_doctor, "--duration", arg, 1, 3600, &o->duration) != 0)
				return 2;
			break;
		case 'j': o->json = true; break;
		case 'S': o->script = true; break;
		case 'D': o->dut = arg; break;
		default: cmd_os_ssh_option(&o->ssh, ch, arg); break;
		}
	}
	if (o->script)
		return args->argc > 0 || o->from != NULL || o->out != NULL || o->json ?
		    cmd_usage_error(&cmd_doctor, "--capture-script takes nothing else") : 0;
	if ((args->argc > 0) == (o->from != NULL))
		return cmd_usage_error(&cmd_doctor, "give ssh://[user@]router or --from DIR|FILE");
	if (o->dut != NULL && (o->from == NULL || strncmp(o->dut, "ssh://", 6) != 0))
		return cmd_usage_error(&cmd_doctor, "--dut ssh://[user@]router names the router of a "
		    "--from capture in the bench commands");
	if (o->out != NULL && !dir_empty(o->out))
		return cmd_error(&cmd_doctor, 2, "'%s' is not empty (doctor writes into a new or "
		    "empty directory)", o->out);
	if (!capture_secs_valid(o->duration))
		return cmd_error(&cmd_doctor, 2, "--duration %g: 1 to %d seconds", o->duration,
		    CAPTURE_SECS_MAX);
	return 0;
}

/* The capture of the router, over ssh (one sh script, nothing written there). */
static int
capture_ssh(const char *url, const struct opts *o, struct capture_set *c, char **cause)
{
	struct remote_ssh ssh;
	struct remote_host h;
	int rc;

	memset(&ssh, 0, sizeof ssh);
	ssh.config = o->ssh.ssh_config;
	ssh.accept_new = o->ssh.accept_new;
	if (strncmp(url, "ssh://", 6) != 0) {
		util_cause(cause, "the router is ssh://[user@]host[:port], not '%s'", url);
		return -1;
	}
	if (remote_parse(url, &h, cause) == -1 || remote_ssh_init(&ssh, cause) == -1)
		return -1;
	h.ssh = &ssh;
	rc = capture_run_root(&h, o->duration, o->ssh.dut_root, c, cause);
	remote_host_disconnect(&h);
	remote_ssh_done(&ssh);
	return rc;
}

static int
run(struct cmd_args *args)
{
	struct doctor_opts dopts;
	struct capture_set c;
	struct opts o;
	json_t *doc = NULL;
	char *cause = NULL;
	int rc;

	if ((rc = options(args, &o)) != 0)
		return rc;
	if (o.script) {
		char *script = capture_script(o.duration);

		fputs(script, stdout);
		free(script);
		return 0;
	}
	memset(&c, 0, sizeof c);
	memset(&dopts, 0, sizeof dopts);
	dopts.source = args->argc > 0 ? args->argv[0] : o.from;
	dopts.dut = args->argc > 0 ? args->argv[0] : o.dut;
	dopts.dir = o.out;
	dopts.duration = o.duration;
	if ((args->argc > 0 ? capture_ssh(args->argv[0], &o, &c, &cause) :
	    capture_load(o.from, &c, &cause)) == -1 || doctor_run(&c, &dopts, &doc, &cause) == -1 ||
	    (o.out != NULL && write_dir(o.out, &c, doc, &cause) == -1)) {
		capture_set_free(&c);
		json_decref(doc);
		return cmd_fail(&cmd_doctor, &cause, 2);
	}
	if (o.json) {
		util_json_print(doc, stdout, JSON_INDENT(2));
		putchar('\n');
	} else
		print_text(doc, o.out);
	rc = doctor_items(doc) > 0 ? 1 : 0;
	json_decref(doc);
	capture_set_free(&c);
	return rc;
}

const struct ntune_cmd cmd_doctor = {
	.name = "doctor",
	.summary = "read a router and rank what is wrong or wasted, with the lines to change",
	.usage = "doctor ssh://[user@]router [--duration S] [-o DIR] [--json] [--ssh-config FILE]\n"
	    "       [--ssh-accept-new] [--dut-root DIR]\n"
	    "doctor --from DIR|FILE [--dut ssh://[user@]router] [--duration S] [-o DIR] [--json]\n"
	    "doctor --capture-script [--duration S]",
	.notes = "Reads the router (FreeBSD, OPNsense, pfSense or Linux) with its base system\n"
	    "only (nothing is installed or changed on it), or a capture directory; prints one\n"
	    "ranked list: what is wrong or wasted, its evidence, its certainty, the lines to\n"
	    "change (on Linux each /etc/sysctl.d file by its own path and line) and the ntune\n"
	    "bench command that would prove it; then what is fine. Exit 0: nothing to fix,\n"
	    "1: findings, 2: error.",
	.optstring = "o:j",
	.longopts = longopts,
	.max_args = 1,
	.run = run,
};
