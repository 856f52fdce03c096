/*
 * The lab's names and settings: modes, roles, prefixes, namespace names and
 * the state file.
 * Portable (bench and tune use them on every system); building the lab is
 * Linux-only (lab.c).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/names.h"
#include "util/util.h"

static const char *const role_names[LAB_NROLES] = { "gen", "dut", "sink" };
static const char *const mode_names[] = { "route", "nat", "bridge" };
static const char *const impair_names[] = { "none", "rp-filter", "napi-on-sender",
    "conntrack-small", "backlog-rps" };

void
lab_config_init(struct lab_config *c)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->prefix, sizeof(c->prefix), "%s", LAB_PREFIX_DEFAULT);
	c->mode = LAB_ROUTE;
	c->queues = 1;
	c->mtu = 0;
}

int
lab_mode_parse(const char *s, enum lab_mode *m)
{
	size_t i;

	for (i = 0; i < nitems(mode_names); i++) {
		if (strcmp(s, mode_names[i]) == 0) {
			*m = (enum lab_mode)i;
			return 0;
		}
	}
	return -1;
}

const char *
lab_mode_name(enum lab_mode m)
{
	return (size_t)m < nitems(mode_names) ? mode_names[m] : "?";
}

int
lab_impair_parse(const char *s, enum lab_impair *m)
{
	size_t i;

	for (i = 0; i < nitems(impair_names); i++) {
		if (strcmp(s, impair_names[i]) == 0) {
			*m = (enum lab_impair)i;
			return 0;
		}
	}
	return -1;
}

const char *
lab_impair_name(enum lab_impair m)
{
	return (size_t)m < nitems(impair_names) ? impair_names[m] : "?";
}

int
lab_role_parse(const char *s, enum lab_role *r)
{
	int i;

	for (i = 0; i < LAB_NROLES; i++) {
		if (strcmp(s, role_names[i]) == 0) {
			*r = (enum lab_role)i;
			return 0;
		}
	}
	return -1;
}

const char *
lab_role_name(enum lab_role r)
{
	return (int)r >= 0 && r < LAB_NROLES ? role_names[r] : "?";
}

int
lab_prefix_valid(const char *p, char **cause)
{
	size_t i, len = strlen(p);

	if (len == 0 || len > LAB_PREFIX_MAX) {
		util_cause(cause, "invalid lab prefix '%s' (1 to %d characters)", p, LAB_PREFIX_MAX);
		return -1;
	}
	for (i = 0; i < len; i++) {
		if (!isalnum((unsigned char)p[i]) && p[i] != '_' && (p[i] != '-' || i == 0)) {
			util_cause(cause, "invalid lab prefix '%s' (letters, digits, '_' and '-' only)", p);
			return -1;
		}
	}
	return 0;
}

void
lab_netns_name(const char *prefix, enum lab_role r, char *buf, size_t len)
{
	snprintf(buf, len, "%s-%s", prefix, lab_role_name(r));
}

const char *
lab_state_dir(void)
{
	const char *d = getenv("NTUNE_LAB_DIR");

	return d != NULL && *d != '\0' ? d : LAB_STATE_DIR;
}

void
lab_state_path(const char *prefix, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s.json", lab_state_dir(), prefix);
}
