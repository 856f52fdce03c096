/* The if.<ifname>.<setting> table (ifset.h), read from share/knobs/if.settings. */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/ifset.h"
#include "util/util.h"

/* Which value kinds a method takes (bit 1 << enum os_ifset_value). */
#define K(v)	(1u << (v))

/* What a method's argument is. */
enum arg {
	ARG_NONE,	/* none: "pause" */
	ARG_ONE_OF,	/* one of the words in args: "ring:rx" */
	ARG_NAME,	/* a file or ethtool -k feature name: [a-z0-9_-], "sysfs:threaded" */
};

static const struct lx_method {
	const char		*name;
	enum os_ifset_linux	 lx;
	unsigned		 kinds;
	enum arg		 arg;
	const char		*args;		/* ARG_ONE_OF: the words, ' ' around each */
} lx_methods[] = {
	{ "ioctl", OS_IFSET_LX_IOCTL, K(OS_IFSET_COUNT), ARG_ONE_OF, " mtu tx_queue_len " },
	{ "channels", OS_IFSET_LX_CHANNELS, K(OS_IFSET_COUNT), ARG_ONE_OF,
	    " combined rx tx other " },
	{ "ring", OS_IFSET_LX_RING, K(OS_IFSET_COUNT), ARG_ONE_OF, " rx tx rx-mini rx-jumbo " },
	{ "coalesce", OS_IFSET_LX_COALESCE, K(OS_IFSET_COUNT) | K(OS_IFSET_ONOFF), ARG_ONE_OF,
	    " rx-usecs tx-usecs rx-frames tx-frames adaptive-rx adaptive-tx " },
	{ "pause", OS_IFSET_LX_PAUSE, K(OS_IFSET_FLOW), ARG_NONE, NULL },
	{ "offload", OS_IFSET_LX_OFFLOAD, K(OS_IFSET_ONOFF), ARG_NAME, NULL },
	{ "queues", OS_IFSET_LX_QUEUES, K(OS_IFSET_CPUMASK) | K(OS_IFSET_COUNT), ARG_ONE_OF,
	    " rx tx " },
	{ "irqs", OS_IFSET_LX_IRQS, K(OS_IFSET_CPULIST), ARG_NONE, NULL },
	{ "qdisc", OS_IFSET_LX_QDISC, K(OS_IFSET_WORDS), ARG_NONE, NULL },
	{ "sysfs", OS_IFSET_LX_SYSFS, K(OS_IFSET_COUNT), ARG_NAME, NULL },
	{ "napi-threads", OS_IFSET_LX_NAPI_THREADS, K(OS_IFSET_CPULIST), ARG_NONE, NULL },
};

static const struct bsd_method {
	const char		*name;
	enum os_ifset_freebsd	 bsd;
	unsigned		 kinds;
	const char		*args;
} bsd_methods[] = {
	{ "-", OS_IFSET_BSD_NONE, ~0u, NULL },
	{ "mtu", OS_IFSET_BSD_MTU, K(OS_IFSET_COUNT), NULL },
	/* freebsd.c's if_cap_bit maps each to its IFCAP bits. */
	{ "cap", OS_IFSET_BSD_CAP, K(OS_IFSET_ONOFF), " tso lro rxcsum txcsum " },
};

static const char *const value_names[] = {
	[OS_IFSET_COUNT] = "count", [OS_IFSET_ONOFF] = "onoff", [OS_IFSET_FLOW] = "flow",
	[OS_IFSET_CPUMASK] = "cpumask", [OS_IFSET_CPULIST] = "cpulist", [OS_IFSET_WORDS] = "words",
};

/* The table every lookup uses (os_ifsets_table) and why it could not be loaded. */
static struct os_ifsets table;
static bool table_tried, table_missing;
static char *table_why;

/* offload.<any ethtool -k feature name>: lx_arg NULL means the name after "offload.". */
static const struct os_ifset feature_row = {
	"offload.*", OS_IFSET_ONOFF, OS_IFSET_LX_OFFLOAD, NULL, OS_IFSET_BSD_NONE, NULL, NULL, 0,
};

/* Only [a-z0-9_-] (and '.' when dots): a setting, file or feature name. */
static bool
good_name(const char *s, bool dots)
{
	if (*s == '\0' || *s == '.' || *s == '-')
		return false;
	for (; *s != '\0'; s++) {
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '_' &&
		    *s != '-' && !(dots && *s == '.' && s[1] != '.' && s[1] != '\0'))
			return false;
	}
	return true;
}

/* Is word one of the ' '-delimited words of list? */
static bool
one_of(const char *list, const char *word)
{
	const char *p;
	size_t n = strlen(word);

	if (n == 0)
		return false;
	for (p = strstr(list, word); p != NULL; p = strstr(p + 1, word))
		if (p[-1] == ' ' && p[n] == ' ')
			return true;
	return false;
}

/* Splits "method:arg" at the colon: *arg NULL when there is none. */
static void
split_method(char *word, char **arg)
{
	char *colon = strchr(word, ':');

	*arg = NULL;
	if (colon != NULL) {
		*colon = '\0';
		*arg = colon + 1;
	}
}

static int
parse_linux(struct os_ifset *r, char *word, const char *where, char **cause)
{
	const struct lx_method *m = NULL;
	char *arg;
	size_t i;

	split_method(word, &arg);
	for (i = 0; i < nitems(lx_methods) && m == NULL; i++)
		if (strcmp(lx_methods[i].name, word) == 0)
			m = &lx_methods[i];
	if (m == NULL) {
		util_cause(cause, "%s: unknown linux method '%s' (ioctl, channels, ring, coalesce, "
		    "pause, offload, queues, irqs, qdisc, sysfs, napi-threads)", where, word);
		return -1;
	}
	if (m->arg == ARG_NONE && arg != NULL) {
		util_cause(cause, "%s: linux method %s takes no argument", where, m->name);
		return -1;
	}
	if (m->arg == ARG_ONE_OF && (arg == NULL || !one_of(m->args, arg))) {
		util_cause(cause, "%s: linux method %s needs one of:%s(%s:FIELD)", where, m->name,
		    m->args, m->name);
		return -1;
	}
	if (m->arg == ARG_NAME && (arg == NULL || !good_name(arg, false))) {
		util_cause(cause, "%s: linux method %s needs a name of [a-z0-9_-] (%s:NAME)", where,
		    m->name, m->name);
		return -1;
	}
	if ((m->kinds & K(r->value)) == 0) {
		util_cause(cause, "%s: linux method %s does not take %s values", where, m->name,
		    value_names[r->value]);
		return -1;
	}
	if (m->lx == OS_IFSET_LX_QUEUES && strchr(r->name, '.') != NULL) {
		util_cause(cause, "%s: a queues setting is the queue file's name (no '.')", where);
		return -1;
	}
	r->lx = m->lx;
	r->lx_arg = arg != NULL ? xstrdup(arg) : NULL;
	return 0;
}

static int
parse_freebsd(struct os_ifset *r, char *word, const char *where, char **cause)
{
	const struct bsd_method *m = NULL;
	char *arg;
	size_t i;

	split_method(word, &arg);
	for (i = 0; i < nitems(bsd_methods) && m == NULL; i++)
		if (strcmp(bsd_methods[i].name, word) == 0)
			m = &bsd_methods[i];
	if (m == NULL) {
		util_cause(cause, "%s: unknown freebsd method '%s' (-, mtu, cap:NAME)", where, word);
		return -1;
	}
	if (m->args == NULL ? arg != NULL : arg == NULL || !one_of(m->args, arg)) {
		if (m->args == NULL)
			util_cause(cause, "%s: freebsd method %s takes no argument", where, m->name);
		else
			util_cause(cause, "%s: freebsd method %s needs one of:%s", where, m->name,
			    m->args);
		return -1;
	}
	if ((m->kinds & K(r->value)) == 0) {
		util_cause(cause, "%s: freebsd method %s does not take %s values", where, m->name,
		    value_names[r->value]);
		return -1;
	}
	r->bsd = m->bsd;
	r->bsd_arg = arg != NULL ? xstrdup(arg) : NULL;
	return 0;
}

/* The sh column: "-" for none, else a command that quotes '%i' and knows %i, %v, %o. */
static int
parse_sh(struct os_ifset *r, const char *sh, const char *where, char **cause)
{
	const char *p;

	if (strcmp(sh, "-") == 0)
		return 0;
	for (p = strchr(sh, '%'); p != NULL; p = strchr(p + 2, '%')) {
		if (p[1] == '\0' || strchr("ivo", p[1]) == NULL) {
			util_cause(cause, "%s: sh: unknown '%%%.1s' (%%i the interface, %%v the value, "
			    "%%o on/off)", where, p + 1);
			return -1;
		}
	}
	if (strstr(sh, "'%i'") == NULL) {
		util_cause(cause, "%s: sh: the interface must be quoted, '%%i'", where);
		return -1;
	}
	r->sh = xstrdup(sh);
	return 0;
}

static void
row_free(struct os_ifset *r)
{
	free(r->name);
	free(r->lx_arg);
	free(r->bsd_arg);
	free(r->sh);
	memset(r, 0, sizeof *r);
}

/* The next white-space separated word of *p (NUL-terminated in place), NULL at the end. */
static char *
word(char **p)
{
	char *w = *p + strspn(*p, " \t"), *e;

	if (*w == '\0')
		return NULL;
	e = w + strcspn(w, " \t");
	*p = *e != '\0' ? e + 1 : e;
	*e = '\0';
	return w;
}

/* One line of the table: setting value linux freebsd sh... */
static int
parse_line(const struct os_ifsets *t, char *line, const char *where, struct os_ifset *r,
    char **cause)
{
	char *p = line, *w[4], *sh;
	size_t i;

	for (i = 0; i < 4; i++)
		if ((w[i] = word(&p)) == NULL)
			break;
	sh = util_trim(p);
	if (i < 4 || *sh == '\0') {
		util_cause(cause, "%s: expected 5 columns: setting value linux freebsd sh", where);
		return -1;
	}
	if (!good_name(w[0], true) || ((strncmp(w[0], "rx-", 3) == 0 ||
	    strncmp(w[0], "tx-", 3) == 0) && isdigit((unsigned char)w[0][3]))) {
		util_cause(cause, "%s: bad setting name '%s' ([a-z0-9._-], not rx-N.* or tx-N.*)",
		    where, w[0]);
		return -1;
	}
	for (i = 0; i < t->n; i++) {
		if (strcmp(t->v[i].name, w[0]) == 0) {
			util_cause(cause, "%s: setting '%s' given twice (first at line %d)", where, w[0],
			    t->v[i].line);
			return -1;
		}
	}
	for (i = 0; i < nitems(value_names); i++)
		if (strcmp(value_names[i], w[1]) == 0)
			break;
	if (i == nitems(value_names)) {
		util_cause(cause, "%s: unknown value '%s' (count, onoff, flow, cpumask, cpulist, "
		    "words)", where, w[1]);
		return -1;
	}
	r->name = xstrdup(w[0]);
	r->value = (enum os_ifset_value)i;
	return parse_linux(r, w[2], where, cause) == -1 ||
	    parse_freebsd(r, w[3], where, cause) == -1 || parse_sh(r, sh, where, cause) == -1 ?
	    -1 : 0;
}

int
os_ifsets_parse(const char *file, const char *text, size_t len, struct os_ifsets *out,
    char **cause)
{
	const char *p = text, *end = text + len, *nl;
	struct os_ifsets t = { NULL, 0 };
	struct os_ifset r;
	char *line, *where;
	int lineno = 0, rc;

	memset(out, 0, sizeof *out);
	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		lineno++;
		line = xstrndup(p, (size_t)(nl - p));
		if (*util_trim(line) == '\0' || line[0] == '#') {
			free(line);
			continue;
		}
		memset(&r, 0, sizeof r);
		r.line = lineno;
		xasprintf(&where, "%s:%d", file, lineno);
		rc = parse_line(&t, line, where, &r, cause);
		free(where);
		free(line);
		if (rc == -1) {
			row_free(&r);
			os_ifsets_free(&t);
			return -1;
		}
		t.v = xreallocarray(t.v, t.n + 1, sizeof *t.v);
		t.v[t.n++] = r;
	}
	if (t.n == 0) {
		util_cause(cause, "%s: no setting", file);
		return -1;
	}
	*out = t;
	return 0;
}

void
os_ifsets_free(struct os_ifsets *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		row_free(&t->v[i]);
	free(t->v);
	t->v = NULL;
	t->n = 0;
}

char *
os_ifsets_path(void)
{
	char *path;

	xasprintf(&path, "%s/knobs/if.settings", util_share_dir());
	return path;
}

/* Reads and parses path (NULL: the default) into *t; *missing when it does not exist. */
static int
read_table(const char *path, struct os_ifsets *t, bool *missing, char **cause)
{
	char *def = NULL, *text;
	size_t len;
	int rc;

	if (path == NULL)
		path = def = os_ifsets_path();
	*missing = access(path, F_OK) == -1 && errno == ENOENT;
	if (util_read_file(path, &text, &len, cause) == -1) {
		free(def);
		return -1;
	}
	rc = os_ifsets_parse(path, text, len, t, cause);
	free(text);
	free(def);
	return rc;
}

int
os_ifsets_load(const char *path, char **cause)
{
	struct os_ifsets t;
	bool missing;

	if (read_table(path, &t, &missing, cause) == -1)
		return -1;
	os_ifsets_free(&table);
	table = t;
	table_tried = true;
	table_missing = false;
	free(table_why);
	table_why = NULL;
	return 0;
}

const struct os_ifsets *
os_ifsets_table(bool *missing, char **cause)
{
	if (!table_tried) {
		table_tried = true;
		if (read_table(NULL, &table, &table_missing, &table_why) == -1)
			memset(&table, 0, sizeof table);
	}
	if (missing != NULL)
		*missing = table_missing;
	if (table_why != NULL) {
		util_cause(cause, "%s", table_why);
		return NULL;
	}
	return &table;
}

const struct os_ifset *
os_ifset_find(const char *setting)
{
	const struct os_ifsets *t = os_ifsets_table(NULL, NULL);
	size_t i;

	for (i = 0; t != NULL && i < t->n; i++)
		if (strcmp(setting, t->v[i].name) == 0)
			return &t->v[i];
	return NULL;
}

/* "offload." and an ethtool -k feature name (rx-udp-gro-forwarding, tx-gso-list...). */
static int
feature_setting(const char *s)
{
	if (strncmp(s, "offload.", 8) != 0 || s[8] == '\0')
		return 0;
	for (s += 8; *s != '\0'; s++) {
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '-')
			return 0;
	}
	return 1;
}

int
os_ifset_queue(const char *s, char dir[3], int *queue, const char **attr)
{
	const struct os_ifset *r;
	const char *p;

	if ((strncmp(s, "rx-", 3) != 0 && strncmp(s, "tx-", 3) != 0) ||
	    !isdigit((unsigned char)s[3]))
		return -1;
	for (p = s + 3; isdigit((unsigned char)*p); p++)
		;
	if (*p != '.' || (r = os_ifset_find(p + 1)) == NULL || r->lx != OS_IFSET_LX_QUEUES ||
	    strncmp(r->lx_arg, s, 2) != 0)
		return -1;
	memcpy(dir, s, 2);
	dir[2] = '\0';
	*queue = atoi(s + 3);
	*attr = p + 1;
	return 0;
}

const struct os_ifset *
os_ifset_lookup(const char *s)
{
	const struct os_ifset *r;
	const char *attr;
	char dir[3];
	int q;

	if ((r = os_ifset_find(s)) != NULL)
		return r;
	if (os_ifset_queue(s, dir, &q, &attr) == 0)
		return os_ifset_find(attr);
	return feature_setting(s) ? &feature_row : NULL;
}

int
os_if_setting_valid(const char *s)
{
	return os_ifset_lookup(s) != NULL;
}

int
os_if_split(const char *name, char *ifname, size_t len, const char **setting,
    int (*exists)(const char *))
{
	const char *rest, *p, *first = NULL;
	size_t n;

	if (strncmp(name, "if.", 3) != 0)
		return -1;
	rest = name + 3;
	for (p = strchr(rest, '.'); p != NULL; p = strchr(p + 1, '.')) {
		if (p == rest || !os_if_setting_valid(p + 1))
			continue;
		n = (size_t)(p - rest);
		if (n >= len)
			continue;
		if (first == NULL)
			first = p;
		memcpy(ifname, rest, n);
		ifname[n] = '\0';
		if (exists == NULL || exists(ifname)) {
			*setting = p + 1;
			return 0;
		}
	}
	if (first == NULL)
		return -1;
	n = (size_t)(first - rest);
	memcpy(ifname, rest, n);
	ifname[n] = '\0';
	*setting = first + 1;
	return 0;
}
