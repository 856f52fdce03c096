/*
 * NIC drivers as data: share/knobs/drivers/OS.drivers, one driver a stanza (format in
 * doc/interfaces.md): which interfaces it names, whether it is an iflib(4) driver,
 * its descriptor maxima and offload capabilities, each with the source read. And the
 * per-OS knob name prefixes of share/knobs/os.prefixes.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "kb/rules.h"
#include "util/util.h"

void
kb_drivers_free(struct kb_drivers *ds)
{
	size_t i;

	if (ds == NULL)
		return;
	for (i = 0; i < ds->n; i++) {
		free(ds->d[i].name);
		free(ds->d[i].os);
		util_strv_free(ds->d[i].ifnames, ds->d[i].nifnames);
		free(ds->d[i].source);
	}
	free(ds->d);
	free(ds);
}

struct drv_reader {
	struct kb_drivers *ds;
	const char *file;
	struct kb_driver d;
	bool	 any;
	char	**last;
};

static void
drv_reset(struct kb_driver *d)
{
	memset(d, 0, sizeof *d);
	d->iflib = d->lro = d->tso = -1;
	d->max_rxd = d->max_txd = d->default_rxd = -1;
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
	rd->last = NULL;
	if (strcmp(key, "driver") == 0 || strcmp(key, "os") == 0) {
		if (*(strcmp(key, "os") == 0 ? &d->os : &d->name) != NULL)
			goto twice;
		*(strcmp(key, "os") == 0 ? &d->os : &d->name) = xstrdup(value);
	} else if (strcmp(key, "interfaces") == 0) {
		copy = xstrdup(value);
		for (tok = strtok_r(copy, " \t", &save); tok != NULL; tok = strtok_r(NULL, " \t", &save))
			d->ifnames = util_strv_add(d->ifnames, &d->nifnames, tok);
		free(copy);
	} else if (strcmp(key, "iflib") == 0 || strcmp(key, "lro") == 0 || strcmp(key, "tso") == 0) {
		if (yes_no(value, strcmp(key, "iflib") == 0 ? &d->iflib : strcmp(key, "lro") == 0 ?
		    &d->lro : &d->tso) == -1) {
			util_cause(cause, "%s:%d: '%s' is yes or no, not '%s'", rd->file, line, key,
			    value);
			return -1;
		}
	} else if (strcmp(key, "max-rxd") == 0 || strcmp(key, "max-txd") == 0 ||
	    strcmp(key, "default-rxd") == 0) {
		if (kb_parse_number(value, &n) == -1 || n < 1 || n > 1 << 20) {
			util_cause(cause, "%s:%d: bad %s '%s' (a descriptor count)", rd->file, line,
			    key, value);
			return -1;
		}
		*(key[0] == 'd' ? &d->default_rxd : key[4] == 'r' ? &d->max_rxd : &d->max_txd) =
		    (int)n;
	} else if (strcmp(key, "source") == 0) {
		if (d->source == NULL)
			d->source = xstrdup(value);
		else {
			xasprintf(&s, "%s; %s", d->source, value);
			free(d->source);
			d->source = s;
		}
		rd->last = &d->source;
	} else {
		util_cause(cause, "%s:%d: unknown key '%s'", rd->file, line, key);
		return -1;
	}
	return 0;
twice:
	util_cause(cause, "%s:%d: key '%s' given twice", rd->file, line, key);
	return -1;
}

static char **
drv_last(void *arg)
{
	return ((struct drv_reader *)arg)->last;
}

static int
drv_end(void *arg, char **cause)
{
	struct drv_reader *rd = arg;
	struct kb_driver *d = &rd->d;
	const char *missing;

	rd->last = NULL;
	if (!rd->any)
		return 0;
	missing = d->name == NULL ? "driver" : d->os == NULL ? "os" : d->nifnames == 0 ?
	    "interfaces" : d->source == NULL ? "source" : NULL;
	if (missing != NULL) {
		util_cause(cause, "%s:%d: driver stanza has no '%s'", rd->file, d->line, missing);
		return -1;
	}
	if (strcmp(d->os, "freebsd") != 0 && strcmp(d->os, "linux") != 0) {
		util_cause(cause, "%s:%d: os is freebsd or linux, not '%s'", rd->file, d->line, d->os);
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
	static const struct kb_stanza_ops ops = { drv_field, drv_last, drv_end };
	struct drv_reader rd;

	memset(&rd, 0, sizeof rd);
	rd.ds = xcalloc(1, sizeof *rd.ds);
	rd.file = file;
	drv_reset(&rd.d);
	*out = NULL;
	if (kb_stanzas_read(file, text, len, &ops, &rd, cause) == -1) {
		free(rd.d.name);
		free(rd.d.os);
		util_strv_free(rd.d.ifnames, rd.d.nifnames);
		free(rd.d.source);
		kb_drivers_free(rd.ds);
		return -1;
	}
	*out = rd.ds;
	return 0;
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
kb_drivers_load(const char *dir, struct kb_drivers **out, char **cause)
{
	struct kb_drivers *all = xcalloc(1, sizeof *all), *one;
	char *path = NULL, *file, *data, **names = NULL;
	size_t n = 0, i, len;
	struct dirent *de;
	DIR *d;
	int rc = 0;

	if (dir == NULL)
		xasprintf(&path, "%s/knobs/drivers", util_share_dir());
	if ((d = opendir(dir != NULL ? dir : path)) == NULL) {
		util_cause(cause, "cannot open '%s': %s", dir != NULL ? dir : path, strerror(errno));
		free(path);
		kb_drivers_free(all);
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		len = strlen(de->d_name);
		if (de->d_name[0] != '.' && len > 8 && strcmp(de->d_name + len - 8, ".drivers") == 0)
			names = util_strv_add(names, &n, de->d_name);
	}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof *names, cmp_names);
	for (i = 0; i < n && rc == 0; i++) {
		xasprintf(&file, "%s/%s", dir != NULL ? dir : path, names[i]);
		if ((rc = util_read_file(file, &data, &len, cause)) == 0) {
			if ((rc = kb_drivers_parse(file, data, len, &one, cause)) == 0) {
				all->d = xreallocarray(all->d, all->n + one->n ? all->n + one->n : 1,
				    sizeof *all->d);
				memcpy(all->d + all->n, one->d, one->n * sizeof *one->d);
				all->n += one->n;
				free(one->d);
				free(one);
			}
			free(data);
		}
		free(file);
	}
	util_strv_free(names, n);
	free(path);
	if (rc == -1) {
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

	kb_ifname_unit(ifname, letters, sizeof letters);
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

struct pfx_reader {
	struct kb_prefixes *ps;
	const char *file;
	char	*os, *list;
	int	 line;
	char	**last;
};

static int
pfx_field(void *arg, const char *key, const char *value, int line, char **cause)
{
	struct pfx_reader *rd = arg;
	char **f = strcmp(key, "os") == 0 ? &rd->os : strcmp(key, "prefixes") == 0 ? &rd->list :
	    NULL;

	if (rd->os == NULL && rd->list == NULL)
		rd->line = line;
	if (f == NULL) {
		util_cause(cause, "%s:%d: unknown key '%s' (os, prefixes)", rd->file, line, key);
		return -1;
	}
	if (*f != NULL) {
		util_cause(cause, "%s:%d: key '%s' given twice", rd->file, line, key);
		return -1;
	}
	*f = xstrdup(value);
	rd->last = f;
	return 0;
}

static char **
pfx_last(void *arg)
{
	return ((struct pfx_reader *)arg)->last;
}

static int
pfx_end(void *arg, char **cause)
{
	struct pfx_reader *rd = arg;
	char *tok, *save;
	size_t n0;
	int rc = 0;

	rd->last = NULL;
	if (rd->os == NULL && rd->list == NULL)
		return 0;
	if (rd->os == NULL || rd->list == NULL || (strcmp(rd->os, "linux") != 0 &&
	    strcmp(rd->os, "freebsd") != 0)) {
		util_cause(cause, "%s:%d: a stanza needs 'os: freebsd|linux' and 'prefixes'",
		    rd->file, rd->line);
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
	static const struct kb_stanza_ops ops = { pfx_field, pfx_last, pfx_end };
	struct pfx_reader rd;

	memset(&rd, 0, sizeof rd);
	rd.ps = xcalloc(1, sizeof *rd.ps);
	rd.file = file;
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
