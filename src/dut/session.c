/* The router options, the ssh:// a host is named by, and the session the hosts share. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dut/dut.h"
#include "remote/capture.h"
#include "util/util.h"

int
dut_option(struct dut_opts *o, int ch, const char *arg)
{
	switch (ch) {
	case DUT_OPT_DUT:
		o->url = arg;
		return 1;
	case DUT_OPT_SSH_CONFIG:
		o->ssh_config = arg;
		return 1;
	case DUT_OPT_ACCEPT_NEW:
		o->accept_new = true;
		return 1;
	case DUT_OPT_ROOT:
		o->root = arg;
		return 1;
	}
	return 0;
}

bool
dut_opts_ssh_given(const struct dut_opts *o)
{
	return o->ssh_config != NULL || o->accept_new || o->root != NULL;
}

int
dut_host_parse(const char *url, struct remote_ssh *s, struct remote_host *h, char **cause)
{
	if (remote_parse(url, h, cause) == -1)
		return -1;
	h->ssh = s;
	return 0;
}

int
dut_session_open(struct remote_ssh *s, const struct dut_opts *o, char **cause)
{
	if (o != NULL) {
		s->config = o->ssh_config;
		s->accept_new = o->accept_new;
	}
	return remote_ssh_init(s, cause);
}

void
dut_session_close(struct remote_ssh *s, struct remote_host *const hosts[], size_t n)
{
	size_t i;

	if (s->ctl_dir[0] == '\0')
		return;
	for (i = 0; i < n; i++)
		remote_host_disconnect(hosts[i]);
	remote_ssh_done(s);
}

int
dut_open(struct dut *d, const struct dut_opts *o, bool probe, bool *usage, char **cause)
{
	memset(d, 0, sizeof *d);
	*usage = true;
	if (dut_host_parse(o->url != NULL ? o->url : "", &d->ssh, &d->host, cause) == -1)
		return -1;
	if (d->host.local) {
		util_cause(cause, "the router is ssh://[user@]host[:port], not 'local' (this "
		    "machine: leave it out)");
		return -1;
	}
	*usage = false;
	if (dut_session_open(&d->ssh, o, cause) == -1)
		return -1;
	if (!probe)
		return 0;
	if (dut_probe(&d->host, NULL, &d->facts, cause) == -1) {
		dut_close(d);
		return -1;
	}
	if (d->facts.os == OS_PLATFORM_UNKNOWN) {
		util_cause(cause, "%s: uname -s says '%.40s': ntune reaches FreeBSD (OPNsense, "
		    "pfSense) and Linux", d->host.url, d->facts.os_name);
		dut_close(d);
		return -1;
	}
	return 0;
}

void
dut_close(struct dut *d)
{
	struct remote_host *h = &d->host;

	dut_session_close(&d->ssh, &h, 1);
	dut_facts_free(&d->facts);
}

int
dut_capture(const struct dut_opts *o, double secs, struct capture_set *c, bool *usage,
    char **cause)
{
	struct dut d;
	int rc;

	if (dut_open(&d, o, false, usage, cause) == -1)
		return -1;
	rc = capture_run_root(&d.host, secs, o->root, c, cause);
	dut_close(&d);
	return rc;
}
