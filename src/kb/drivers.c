/*
 * NIC drivers as data: share/knobs/drivers/OS.drivers, one driver a stanza (format in
 * doc/interfaces.md): which interfaces it names, whether it is an iflib(4) driver,
 * its descriptor maxima and offload capabilities, each with the source read. And the
 * per-OS knob name prefixes of share/knobs/os.prefixes.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kb/catalog.h"
#include "kb/kb.h"
#include "kb/rules.h"
#include "util/util.h"

static void
driver_free(void *p)
{
	struct kb_driver *d = p;

	free(d->name);
	free(d->os);
	util_strv_free(d->ifnames, d->nifnames);
	free(d->source);
	free(d->queues_source);
}

void
kb_drivers_free(struct kb_drivers *ds)
{
	if (ds == NULL)
		return;
	util_array_free(ds->d, ds->n, sizeof *ds->d, driver_free);
	free(ds);
}

/* The drivers so far and the one being read (st first: kb_stanza_last). */
struct drv_reader {
	struct kb_stanza_state st;
	struct kb_drivers *ds;
	struct kb_driver d;
	bool	 any;
};

/* A driver stanza's single-valued keys (no continuation lines). */
static const struct kb_stanza_key drv_keys[] = {
	{ "driver", offsetof(struct kb_driver, name) },
	{ "os", offsetof(struct kb_driver, os) },
};

static void
drv_reset(struct kb_driver *d)
{
	memset(d, 0, sizeof *d);
	d->iflib = d->lro = d->tso = -1;
	d->max_rxd = d->max_txd = d->default_rxd = -1;
	d->max_queues = d->hw_queues = d->queue_override = -1;
}

/* "yes"/"no" into *out; -1 when it is neither. */
static int
yes_no(const char *v, int *out)
{
	if (strcmp(v, "yes") == 0)
		*out = 1;
	else if (strcmp(v, "no") == 0)
		*out = 0;
	else
		return -1;
	return 0;
}

static int
drv_field(void *arg, const char *key, const char *value, int line, char **cause)
{
	struct drv_reader *rd = arg;
	struct kb_driver *d = &rd->d;
	long long n;
	char *copy, *tok, *save, *s;

	if (!rd->any)
		d->line = line;
	rd->any = true;
	rd->st.last = NULL;
	if (strcmp(key, "driver") == 0 || strcmp(key, "os") == 0) {
		if (kb_stanza_single(&rd->st, d, drv_keys, nitems(drv_keys), key, value, line,
		    cause) == -1)
			return -1;
		rd->st.last = NULL;
	} else if (strcmp(key, "interfaces") == 0) {
		copy = xstrdup(value);
		for (tok = strtok_r(copy, " \t", &save); tok != NULL; tok = strtok_r(NULL, " \t", &save))
			d->ifnames = util_strv_add(d->ifnames, &d->nifnames, tok);
		free(copy);
	} else if (strcmp(key, "iflib") == 0 || strcmp(key, "lro") == 0 || strcmp(key, "tso") == 0) {
		if (yes_no(value, strcmp(key, "iflib") == 0 ? &d->iflib : strcmp(key, "lro") == 0 ?
		    &d->lro : &d->tso) == -1) {
			util_cause(cause, "%s:%d: '%s' is yes or no, not '%s'", rd->st.file, line,
			    key, value);
			return -1;
		}
	} else if (strcmp(key, "max-rxd") == 0 || strcmp(key, "max-txd") == 0 ||
	    strcmp(key, "default-rxd") == 0) {
		if (kb_parse_number(value, &n) == -1 || n < 1 || n > 1 << 20) {
			util_cause(cause, "%s:%d: bad %s '%s' (a descriptor count)", rd->st.file,
			    line, key, value);
			return -1;
		}
		*(key[0] == 'd' ? &d->default_rxd : key[4] == 'r' ? &d->max_rxd : &d->max_txd) =
		    (int)n;
	} else if (strcmp(key, "max-queues") == 0) {
		if (kb_parse_number(value, &n) == -1 || n < 1 || n > 4096) {
			util_cause(cause, "%s:%d: bad max-queues '%s' (a queue count)", rd->st.file,
			    line, value);
			return -1;
		}
		d->max_queues = (int)n;
	} else if (strcmp(key, "queues") == 0) {
		if (strcmp(value, "hardware") != 0 && strcmp(value, "driver") != 0) {
			util_cause(cause, "%s:%d: 'queues' is hardware or driver, not '%s'",
			    rd->st.file, line, value);
			return -1;
		}
		d->hw_queues = value[0] == 'h';
	} else if (strcmp(key, "queue-override") == 0) {
		if (strcmp(value, "clamped") != 0 && strcmp(value, "overrun") != 0) {
			util_cause(cause, "%s:%d: 'queue-override' is clamped or overrun, not '%s'",
			    rd->st.file, line, value);
			return -1;
		}
		d->queue_override = value[0] == 'c';
	} else if (strcmp(key, "source") == 0 || strcmp(key, "queues-source") == 0) {
		char **to = key[0] == 's' ? &d->source : &d->queues_source;

		if (*to == NULL)
			*to = xstrdup(value);
		else {
			xasprintf(&s, "%s; %s", *to, value);
			free(*to);
			*to = s;
		}
		rd->st.last = to;
	} else
		return kb_stanza_set(NULL, rd->st.file, line, key, value, cause);
	return 0;
}

static int
drv_end(void *arg, char **cause)
{
	struct drv_reader *rd = arg;
	struct kb_driver *d = &rd->d;
	const char *missing;

	rd->st.last = NULL;
	if (!rd->any)
		return 0;
	missing = d->name == NULL ? "driver" : d->os == NULL ? "os" : d->nifnames == 0 ?
	    "interfaces" : d->source == NULL ? "source" : NULL;
	if (missing != NULL) {
		util_cause(cause, "%s:%d: driver stanza has no '%s'", rd->st.file, d->line,
		    missing);
		return -1;
	}
	if (strcmp(d->os, "freebsd") != 0 && strcmp(d->os, "linux") != 0) {
		util_cause(cause, "%s:%d: os is freebsd or linux, not '%s'", rd->st.file, d->line,
		    d->os);
		return -1;
	}
	rd->ds->d = xreallocarray(rd->ds->d, rd->ds->n + 1, sizeof *rd->ds->d);
	rd->ds->d[rd->ds->n++] = *d;
	drv_reset(d);
	rd->any = false;
	return 0;
}

int
kb_drivers_parse(const char *file, const char *text, size_t len, struct kb_drivers **out,
    char **cause)
{
	static const struct kb_stanza_ops ops = { drv_field, kb_stanza_last, drv_end };
	struct drv_reader rd;

	memset(&rd, 0, sizeof rd);
	rd.ds = xcalloc(1, sizeof *rd.ds);
	rd.st.file = file;
	drv_reset(&rd.d);
	*out = NULL;
	if (kb_stanzas_read(file, text, len, &ops, &rd, cause) == -1) {
		driver_free(&rd.d);
		kb_drivers_free(rd.ds);
		return -1;
	}
	*out = rd.ds;
	return 0;
}

/* kb_read_dir's callback: one .drivers file's stanzas appended to the drivers so far. */
static int
load_file(void *arg, const char *file, const char *text, size_t len, char **cause)
{
	struct kb_drivers *all = arg, *one;

	if (kb_drivers_parse(file, text, len, &one, cause) == -1)
		return -1;
	all->d = xreallocarray(all->d, all->n + one->n ? all->n + one->n : 1, sizeof *all->d);
	memcpy(all->d + all->n, one->d, one->n * sizeof *one->d);
	all->n += one->n;
	free(one->d);
	free(one);
	return 0;
}

int
kb_drivers_load(const char *dir, struct kb_drivers **out, char **cause)
{
	struct kb_drivers *all = xcalloc(1, sizeof *all);

	if (kb_read_dir(dir, "knobs/drivers", ".drivers", 0, load_file, all, cause) == -1) {
		kb_drivers_free(all);
		return -1;
	}
	*out = all;
	return 0;
}

const struct kb_driver *
kb_driver_named(const struct kb_drivers *ds, const char *os, const char *name)
{
	size_t i;

	for (i = 0; ds != NULL && i < ds->n; i++) {
		if (strcmp(ds->d[i].os, os) == 0 && strcmp(ds->d[i].name, name) == 0)
			return &ds->d[i];
	}
	return NULL;
}

bool
kb_driver_serves(const struct kb_driver *d, const char *ifname, const char *driver)
{
	char letters[64];
	size_t i;

	util_ifname_unit(ifname, letters, sizeof letters);
	for (i = 0; i < d->nifnames; i++) {
		if ((driver != NULL && strcmp(d->ifnames[i], driver) == 0) ||
		    strcmp(d->ifnames[i], letters) == 0)
			return true;
	}
	return false;
}

int
kb_nic_rx_ring(const struct kb_nic *nic, const struct kb_driver *drv)
{
	if (nic->rx_ring > 0)
		return nic->rx_ring;
	if (drv != NULL && drv->iflib == 1 && drv->default_rxd > 0)
		return drv->default_rxd;
	return -1;
}

const struct kb_driver *
kb_driver_for_nic(const struct kb_drivers *ds, const char *os, const struct kb_nic *nic)
{
	size_t i;

	for (i = 0; ds != NULL && i < ds->n; i++) {
		if (strcmp(ds->d[i].os, os) == 0 &&
		    kb_driver_serves(&ds->d[i], nic->name, nic->driver[0] != '\0' ? nic->driver : NULL))
			return &ds->d[i];
	}
	return NULL;
}

void
kb_prefixes_free(struct kb_prefixes *ps)
{
	if (ps == NULL)
		return;
	util_strv_free(ps->os, ps->n);
	util_strv_free(ps->prefix, ps->n);
	free(ps);
}

/* The prefixes so far and the stanza being read (st first: kb_stanza_last). */
struct pfx_reader {
	struct kb_stanza_state st;
	struct kb_prefixes *ps;
	char	*os, *list;
	int	 line;
};

static const struct kb_stanza_key pfx_keys[] = {
	{ "os", offsetof(struct pfx_reader, os) },
	{ "prefixes", offsetof(struct pfx_reader, list) },
};

static int
pfx_field(void *arg, const char *key, const char *value, int line, char **cause)
{
	struct pfx_reader *rd = arg;

	if (rd->os == NULL && rd->list == NULL)
		rd->line = line;
	if (kb_stanza_slot(rd, pfx_keys, nitems(pfx_keys), key) == NULL) {
		util_cause(cause, "%s:%d: unknown key '%s' (os, prefixes)", rd->st.file, line, key);
		return -1;
	}
	return kb_stanza_single(&rd->st, rd, pfx_keys, nitems(pfx_keys), key, value, line, cause);
}

static int
pfx_end(void *arg, char **cause)
{
	struct pfx_reader *rd = arg;
	char *tok, *save;
	size_t n0;
	int rc = 0;

	rd->st.last = NULL;
	if (rd->os == NULL && rd->list == NULL)
		return 0;
	if (rd->os == NULL || rd->list == NULL || (strcmp(rd->os, "linux") != 0 &&
	    strcmp(rd->os, "freebsd") != 0)) {
		util_cause(cause, "%s:%d: a stanza needs 'os: freebsd|linux' and 'prefixes'",
		    rd->st.file, rd->line);
		rc = -1;
	}
	for (tok = rc == 0 ? strtok_r(rd->list, " \t", &save) : NULL; tok != NULL;
	    tok = strtok_r(NULL, " \t", &save)) {
		n0 = rd->ps->n;
		rd->ps->os = util_strv_add(rd->ps->os, &n0, rd->os);
		rd->ps->prefix = util_strv_add(rd->ps->prefix, &rd->ps->n, tok);
	}
	free(rd->os);
	free(rd->list);
	rd->os = rd->list = NULL;
	return rc;
}

int
kb_prefixes_parse(const char *file, const char *text, size_t len, struct kb_prefixes **out,
    char **cause)
{
	static const struct kb_stanza_ops ops = { pfx_field, kb_stanza_last, pfx_end };
	struct pfx_reader rd;

	memset(&rd, 0, sizeof rd);
	rd.ps = xcalloc(1, sizeof *rd.ps);
	rd.st.file = file;
	*out = NULL;
	if (kb_stanzas_read(file, text, len, &ops, &rd, cause) == -1) {
		free(rd.os);
		free(rd.list);
		kb_prefixes_free(rd.ps);
		return -1;
	}
	*out = rd.ps;
	return 0;
}

bool
kb_prefix_is(const struct kb_prefixes *ps, const char *name, const char *os)
{
	size_t i;

	for (i = 0; ps != NULL && i < ps->n; i++) {
		if (strcmp(ps->os[i], os) == 0 && util_startswith(name, ps->prefix[i]))
			return true;
	}
	return false;
}
