/*
 * Risk classes of a profile's lines: which settings can stop the box booting or a NIC
 * attaching (boot), or cut the admin off (access), from the knobs' risk-class field and
 * the line itself (kb_line_risk: none at the knob's default, none for a run-time knob in
 * a file applied after boot). apply, check, export and doctor ask here which lines need a
 * one-boot trial.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "kb/rules.h"
#include "util/util.h"

/*
 * Whether e sets one of the values its knob's risk-values names (set4: forwarding=1 is no
 * risk): a value, "<N", any number below N (a table limit is a risk only when lowered:
 * nf_conntrack_max=1048576 cuts nobody off), or "A..B", A to B (nf_conntrack_max=0 is no
 * limit at all). A raise or a lower ends at a value not known here: risky, except a raise
 * against "<N" or "A..B".
 */
static bool
risky_value(const struct kb_knob *k, const struct kb_entry *e)
{
	char buf[256], *tok, *save, *dots;
	long long v, n, lo;

	snprintf(buf, sizeof buf, "%s", k->risk_values);
	for (tok = strtok_r(buf, " \t", &save); tok != NULL; tok = strtok_r(NULL, " \t", &save)) {
		lo = LLONG_MIN;
		if ((dots = strstr(tok, "..")) != NULL) {
			*dots = '\0';
			if (kb_parse_number(tok, &lo) != 0)
				return true;
			tok = dots + 1;
			*tok = '<';
		}
		if (*tok == '<' && kb_parse_number(tok + 1, &n) == 0) {
			if (dots != NULL)
				n++;	/* "A..B": A to B inclusive */
			if (e->op == KB_OP_SET ? kb_parse_number(e->value, &v) != 0 || (v >= lo && v < n) :
			    e->op == KB_OP_LOWER)
				return true;
		} else if (e->op != KB_OP_SET || kb_value_equal(k, e->value, tok))
			return true;
	}
	return false;
}

/*
 * dev.NAME.N.iflib.override_nrxqs/_ntxqs: 1 when NAME's driver clamps a queue override it
 * cannot take (share/knobs/drivers: queue-override clamped), 0 when it can overrun (axgbe),
 * -1 when the driver is not in the table or the table does not say; *drv its name.
 */
static int
queue_override(const struct kb *kb, const char *name, char *drv, size_t len)
{
	const struct kb_drivers *ds = kb_get_drivers(kb);
	const char *leaf;
	size_t i, n;

	if (!util_startswith(name, "dev.") || (leaf = strstr(name, ".iflib.override_n")) == NULL ||
	    (strcmp(leaf, ".iflib.override_nrxqs") != 0 && strcmp(leaf, ".iflib.override_ntxqs") != 0))
		return -2;
	n = strcspn(name + 4, ".");
	snprintf(drv, len, "%.*s", (int)n, name + 4);
	for (i = 0; ds != NULL && i < ds->n; i++) {
		if (strcmp(ds->d[i].os, "freebsd") == 0 && kb_driver_serves(&ds->d[i], drv, NULL))
			return ds->d[i].queue_override;
	}
	return -1;
}

enum kb_risk_class
kb_line_risk(const struct kb *kb, const struct kb_entry *e, const char *os, enum kb_target t,
    const char **why)
{
	const struct kb_knob *k = kb_find(kb, e->name, os);
	enum kb_risk_class c = k != NULL ? k->risk_class : KB_RISK_NONE;

	if (why != NULL)
		*why = kb_risk_class_why(k);
	if (c == KB_RISK_NONE)
		return c;
	/*
	 * The loopback interface's own setting: its traffic is the box's own, looped back, and
	 * never reaches an admin from outside (rp_filter on lo: ip_input.c does not check a
	 * loopback packet's source, and other interfaces take max(all, their own), never lo's).
	 */
	if (c == KB_RISK_ACCESS && (util_startswith(e->name, "net.ipv4.conf.lo.") ||
	    util_startswith(e->name, "net.ipv6.conf.lo.")))
		return KB_RISK_NONE;
	/*
	 * Only at the values that carry the risk; without risk-values, any but the knob's own
	 * default (the box boots with it, the admin reached it with it anyway).
	 */
	if (k->risk_values != NULL ? !risky_value(k, e) : e->op == KB_OP_SET && k->def != NULL &&
	    kb_value_equal(k, e->value, k->def))
		return KB_RISK_NONE;
	/*
	 * A queue override: none where the driver clamps it (iflib lowers it to the max the
	 * driver set in attach_pre); where the driver is not known, the risk stands, but the
	 * reason is that it was not read, not another driver's fault.
	 */
	if (c == KB_RISK_BOOT) {
		static char unread[640];
		char drv[64];
		int q = queue_override(kb, e->name, drv, sizeof drv);

		if (q == 1)
			return KB_RISK_NONE;
		if (q == -1 && why != NULL) {
			snprintf(unread, sizeof unread, "whether the driver of %s takes this queue "
			    "count was not read (ntune's driver table has no queue facts for it): iflib "
			    "lowers an override to the isc_nrxqsets_max/isc_ntxqsets_max the driver sets "
			    "at attach (sys/net/iflib.c:4634-4637, :5096-5099), which is safe where that "
			    "max is what the driver allocates and not where it is above it (axgbe: "
			    "sys/dev/axgbe/if_axgbe_pci.c:714-715, 16, more than the channels it "
			    "allocates); read at attach, so only a reboot shows it", drv);
			*why = unread;
		}
	}
	/* a boot risk: none if settable at run time and written where sysctl(8) applies it */
	if (c == KB_RISK_BOOT && t == KB_TARGET_SYSCTL && k->placement == KB_PLACE_BOTH)
		return KB_RISK_NONE;
	return c;
}

size_t
kb_profile_risky(const struct kb *kb, const struct kb_profile *p, const char *os,
    enum kb_target t, enum kb_risk_class c, const struct kb_entry ***out)
{
	size_t i, n = 0;

	*out = NULL;
	for (i = 0; p != NULL && i < p->nentries; i++) {
		if (kb_line_risk(kb, &p->entries[i], os, t, NULL) != c)
			continue;
		*out = xreallocarray(*out, n + 1, sizeof **out);
		(*out)[n++] = &p->entries[i];
	}
	return n;
}

char *
kb_risk_comment(const struct kb *kb, const struct kb_entry *e, const char *os, enum kb_target t)
{
	const char *why;
	enum kb_risk_class c = kb_line_risk(kb, e, os, t, &why);
	char *s;

	if (c != KB_RISK_BOOT)
		return NULL;
	xasprintf(&s, "boot risk: %s. Not proven here by a one-boot trial: %s", why,
	    kb_risk_class_trial(c));
	return s;
}

char *
kb_boot_risk_refusal(const struct kb *kb, const struct kb_profile *p, const char *os)
{
	const struct kb_entry **e;
	struct strbuf sb;
	/*
	 * Where apply persists a run-time knob depends on the platform (OPNsense puts every
	 * tunable into loader.conf.local), so only the default-value rule frees a line here.
	 */
	size_t i, n = kb_profile_risky(kb, p, os, KB_TARGET_ANY, KB_RISK_BOOT, &e);

	if (n == 0)
		return NULL;
	strbuf_init(&sb);
	strbuf_addf(&sb, "%s has %zu boot-risk line%s (", p->path, n, n == 1 ? "" : "s");
	for (i = 0; i < n; i++)
		strbuf_addf(&sb, "%s%s:%d %s", i > 0 ? ", " : "", e[i]->file, e[i]->line, e[i]->name);
	strbuf_addf(&sb, "): a wrong value can stop the box booting or a NIC attaching, and "
	    "loader.conf.local is read at every boot; nothing changed. --trial-boot sets them for "
	    "one boot (nextboot -e; `ntune confirm` after a good boot keeps them), --no-trial "
	    "writes them at once");
	free(e);
	return strbuf_detach(&sb);
}
