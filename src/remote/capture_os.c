/*
 * A capture taken over ssh (capture_run), and read by the platform layer
 * (os_open_captures): the sections go through the parsers of `--from`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "os/fbsd_text.h"
#include "os/platform.h"
#include "os/snapshot.h"
#include "remote/capture.h"
#include "remote/remote.h"
#include "util/util.h"

/* Seconds allowed beyond the load sample: ssh's connection, sysctl -a and the rest. */
#define RUN_MARGIN	120

int
capture_run_root(const struct remote_host *h, double secs, const char *root,
    struct capture_set *set, char **cause)
{
	char num[16], *script, *args[3] = { num, NULL, NULL };
	int rc;

	memset(set, 0, sizeof *set);
	if (!capture_secs_valid(secs)) {
		util_cause(cause, "bad load sample of %g s (1 to %d)", secs, CAPTURE_SECS_MAX);
		return -1;
	}
	snprintf(num, sizeof num, "%.0f", secs);
	if (root != NULL && *root != '\0')
		args[1] = (char *)root;
	script = capture_script(secs);
	rc = capture_run_script(h, script, args, secs + RUN_MARGIN, set, cause);
	free(script);
	return rc;
}

int
capture_run_script(const struct remote_host *h, const char *script, char *const args[],
    double timeout, struct capture_set *set, char **cause)
{
	struct remote_result r;
	int rc;

	if (remote_sh(h, script, args, timeout, &r, cause) == -1)
		return -1;
	if (r.timed_out || r.status == 255) {
		util_cause(cause, "cannot read '%s': %s", h->url, r.timed_out ?
		    "no answer in time" : remote_result_why(&r));
		remote_result_free(&r);
		return -1;
	}
	if (r.status != 0 && strstr(r.out, ":: ntune-capture ") == NULL) {
		util_cause(cause, "%s: the capture script failed (exit %d): %s", h->url, r.status,
		    remote_result_why(&r));
		remote_result_free(&r);
		return -1;
	}
	rc = capture_parse(r.out, strlen(r.out), h->url, set, cause);
	remote_result_free(&r);
	return rc;
}

int
capture_run(const struct remote_host *h, double secs, struct capture_set *set, char **cause)
{
	return capture_run_root(h, secs, NULL, set, cause);
}

/* What a section is called in messages: DIR/NAME for a directory, ORIGIN:NAME otherwise. */
static char *
section_path(const struct capture_set *set, const struct capture_section *s)
{
	char *p;

	xasprintf(&p, "%s%s%s", set->origin != NULL ? set->origin : "capture",
	    s->line == 0 ? "/" : ":", s->name);
	return p;
}

/* The sections the FreeBSD text parsers read, in this order. */
static const char *const fbsd_sections[] = {
	"sysctl-a.txt", "ifconfig-a.txt", "pciconf-lv.txt", "vmstat-i.txt", "netstat-Q.txt",
	"netstat-ibnd.txt", "dmesg.txt", "top.txt", "cpuset-irq.txt",
};

static struct os_ctx *
open_freebsd(const struct capture_set *set, char **cause)
{
	const struct capture_section *s;
	struct fbsd_text *t;
	json_t *doc;
	char *path;
	size_t i;

	if (capture_get(set, "sysctl-a.txt") == NULL) {
		util_cause(cause, "%s: no sysctl-a.txt (sysctl -a failed or is missing)", set->origin);
		return NULL;
	}
	t = fbsd_text_new();
	for (i = 0; i < nitems(fbsd_sections); i++) {
		if ((s = capture_get(set, fbsd_sections[i])) == NULL ||
		    strspn(s->text, " \t\r\n") == s->len)
			continue;
		path = section_path(set, s);
		if (i == 0)
			fbsd_text_add_sysctl_a(t, s->text, s->len, path);
		else
			fbsd_text_add(t, s->text, s->len, path);
		free(path);
	}
	doc = fbsd_text_doc(t);
	fbsd_text_free(t);
	return os_open_doc(doc);
}

struct os_ctx *
os_open_captures(const struct capture_set *set, char **cause)
{
	const struct capture_section *u = capture_get(set, "uname.txt");
	const char *origin = set->origin != NULL ? set->origin : "capture";

	if (u == NULL) {
		util_cause(cause, "%s: no uname.txt (the capture does not say which system it is)",
		    origin);
		return NULL;
	}
	switch (os_platform_of_uname(u->text)) {
	case OS_PLATFORM_FREEBSD:
		return open_freebsd(set, cause);
	case OS_PLATFORM_LINUX:
		return capture_open_linux(set, cause);
	default:
		break;
	}
	util_cause(cause, "%s: uname.txt names a system ntune does not read: '%.*s'", origin,
	    (int)strcspn(u->text, " \n"), u->text);
	return NULL;
}

/*
 * A Linux capture's sysctl.conf.local: the .conf files of /etc/sysctl.d one after another,
 * each after a "# file: PATH" line; each one given to fn on its own.
 */
static void
sysctl_d_files(const char *text, void (*fn)(void *arg, const char *path, const char *text),
    void *arg)
{
	const char *p = text, *nl, *next;
	char *path, *body;

	while ((p = strncmp(p, "# file: ", 8) == 0 ? p : strstr(p, "\n# file: ")) != NULL) {
		if (*p == '\n')
			p++;
		if ((nl = strchr(p, '\n')) == NULL)
			return;
		path = xstrndup(p + 8, (size_t)(nl - p - 8));
		next = strstr(nl, "\n# file: ");
		body = xstrndup(nl + 1, next != NULL ? (size_t)(next - nl) : strlen(nl + 1));
		if (strncmp(path, "/etc/sysctl.d/", 14) == 0 && strchr(path + 14, '/') == NULL)
			fn(arg, path, body);
		free(path);
		free(body);
		if (next == NULL)
			return;
		p = next + 1;
	}
}

void
capture_boot_files(const struct capture_set *set,
    void (*fn)(void *arg, const char *path, const char *text), void *arg)
{
	static const struct { const char *name, *path; } files[] = {
		{ "loader.conf", "/boot/loader.conf" },
		{ "loader.conf.local", "/boot/loader.conf.local" },
		{ "sysctl.conf", "/etc/sysctl.conf" },
		{ "sysctl.conf.local", "/etc/sysctl.conf.local" },
	};
	const struct capture_section *u = capture_get(set, "uname.txt"), *s;
	size_t i;

	for (i = 0; i < nitems(files); i++) {
		/* a Linux capture's sysctl.conf.local is /etc/sysctl.d/ (several files) */
		if (u != NULL && os_platform_of_uname(u->text) == OS_PLATFORM_LINUX && i != 2) {
			if (i == 3 && (s = capture_get(set, files[i].name)) != NULL &&
			    strlen(s->text) == s->len)
				sysctl_d_files(s->text, fn, arg);
			continue;
		}
		if ((s = capture_get(set, files[i].name)) != NULL && strlen(s->text) == s->len)
			fn(arg, files[i].path, s->text);
	}
}
