/*
 * tuned.conf(5): the sysctls of a TuneD profile, read as TuneD 2.20 (Debian 12's
 * tuned 2.20.0-1; github.com/redhat-performance/tuned tag v2.20.0) reads them.
 *
 * - A [section] is a unit; its plugin is its type= option, else its name
 *   (tuned/profiles/unit.py:14). Every unit of type sysctl is a sysctl plugin
 *   instance, [sysctl] and e.g. [sysctl.thunderx] type=sysctl alike. The unit
 *   options type, enabled, replace, drop, devices, devices_udev_regex,
 *   cpuinfo_regex, uname_regex, script_pre, script_post (unit.py:14-25) and
 *   priority (tuned/units/manager.py:76-83) are no sysctls. The instances are applied
 *   lowest priority first (default 0, a stable sort, manager.py:76-80): of two sysctl
 *   units that set one name, the one applied later wins, so entries come in that order.
 * - An instance is created only when enabled (enabled= True/true/1, unit.py:15),
 *   its cpuinfo_regex matches /proc/cpuinfo and its uname_regex matches
 *   " ".join(os.uname()) (manager.py:45-74, Python re.search). ntune does not
 *   evaluate these for a target it may not see: such an instance is said, not read.
 * - [main] include= names profiles, split at ',' or ';' (tuned/profiles/loader.py:89),
 *   after TuneD's ${variable} and ${f:function} expansion (which ntune does not do).
 *   Each is loaded first, its own includes before it (loader.py:77-92), then merged
 *   in that order, the including profile last (loader.py:54-55, merger.py:12-18).
 * - A name is looked up as DIR/basename(NAME)/tuned.conf (locator.py:21-24, :34) in
 *   the load directories, the last first: /etc/tuned, then /usr/lib/tuned
 *   (consts.py:16 LOAD_DIRECTORIES, locator.py:32). A file already loaded is
 *   skipped and the next directory tried (locator.py:36-38): each file is read once,
 *   which also ends a cycle. "-NAME" may be missing (locator.py:28-30, :43-44); any
 *   other missing include makes TuneD refuse the whole profile (loader.py:82-83).
 *   ntune reads a file given by its path, so it looks first in the directory that
 *   holds that file's profile directory (where TuneD would have found it), then in
 *   TuneD's load directories under os_target_root().
 * - Merging (merger.py:20-57): a unit the includer also has keeps the included
 *   options unless replace=true (all dropped, :30-31); drop= removes the named ones
 *   (:46-48); the includer's options override by name (:55); enabled and type are
 *   the includer's (:33-34), the regexes only when it sets them (:38-41).
 * - A value is expanded (${...}) and unquoted before it is written
 *   (tuned/plugins/plugin_sysctl.py:74-77): ntune does not expand, so such a line is
 *   said and not read.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "kb/profile_impl.h"
#include "util/util.h"

#define TUNED_MAX_DEPTH	16	/* TuneD has no bound but reading each file once */
#define TUNED_MAX_FILES	64

struct tunit {
	char	*name;
	int	line;		/* of its [header] */
	int	end;		/* the last line of its section */
	char	*type;
	bool	enabled;
	bool	replace;
	int	replace_line;
	char	*drop;
	int	drop_line;
	char	*uname_re;
	char	*cpuinfo_re;
	char	*priority;	/* priority= as written, NULL none */
	int	priority_line;
};

struct kb_tuned {
	struct tunit *u;
	size_t	n;
	size_t	cur;		/* the section the line loop is in; n before the first */
	char	*include;	/* [main] include= */
	int	include_line;
	int	opt_line;	/* the line of the current section's last option, 0 none */
};

static const char *const unit_keys[] = {
	"type", "enabled", "replace", "drop", "devices", "devices_udev_regex", "cpuinfo_regex",
	"uname_regex", "script_pre", "script_post", "priority",
};

/*
 * The name of a [section] header line as Python's configparser reads it for TuneD
 * (inline_comment_prefixes '#', tuned/profiles/loader.py _load_config_data): a "# comment"
 * after white space is dropped first, so "[sysctl] # kernel" is [sysctl]. NULL for no header.
 */
static char *
header_name(const char *c)
{
	size_t len = strlen(c);
	const char *q;

	if (*c != '[')
		return NULL;
	for (q = c + 1; *q != '\0'; q++) {
		if (*q == '#' && isspace((unsigned char)q[-1])) {
			len = (size_t)(q - c);
			break;
		}
	}
	while (len > 0 && isspace((unsigned char)c[len - 1]))
		len--;
	if (len <= 2 || c[0] != '[' || c[len - 1] != ']')
		return NULL;
	return xstrndup(c + 1, len - 2);
}

bool
kb_tuned_header(const char *c)
{
	char *name = header_name(c);
	bool is = name != NULL;

	free(name);
	return is;
}

/* "key = value # comment" as configparser splits it: '=' the delimiter, '#' after a space. */
static bool
split_option(char *c, char **key, char **value)
{
	char *eq = strchr(c, '='), *q;

	if (eq == NULL)
		return false;
	*eq = '\0';
	*key = util_trim(c);
	for (q = eq + 1; *q != '\0'; q++) {
		if (*q == '#' && isspace((unsigned char)q[-1])) {
			*q = '\0';
			break;
		}
	}
	*value = util_trim(eq + 1);
	return true;
}

static bool
truthy(const char *v)
{
	/* unit.py:15-16: `in [True, "True", "true", 1, "1"]`, anything else is false */
	return strcmp(v, "True") == 0 || strcmp(v, "true") == 0 || strcmp(v, "1") == 0;
}

static void
set_str(char **slot, const char *v)
{
	free(*slot);
	*slot = xstrdup(v);
}

static void
unit_option(struct kb_tuned *t, struct tunit *u, int lineno, const char *key, const char *v)
{
	if (strcmp(u->name, "main") == 0 && strcmp(key, "include") == 0) {
		set_str(&t->include, v);
		t->include_line = lineno;
	} else if (strcmp(key, "type") == 0)
		set_str(&u->type, v);
	else if (strcmp(key, "enabled") == 0)
		u->enabled = truthy(v);
	else if (strcmp(key, "replace") == 0) {
		u->replace = truthy(v);
		u->replace_line = lineno;
	} else if (strcmp(key, "drop") == 0) {
		set_str(&u->drop, v);
		u->drop_line = lineno;
	}
	else if (strcmp(key, "uname_regex") == 0)
		set_str(&u->uname_re, v);
	else if (strcmp(key, "cpuinfo_regex") == 0)
		set_str(&u->cpuinfo_re, v);
	else if (strcmp(key, "priority") == 0) {
		set_str(&u->priority, v);
		u->priority_line = lineno;
	}
}

struct kb_tuned *
kb_tuned_scan(const char *text, size_t len)
{
	struct kb_tuned *t = xcalloc(1, sizeof *t);
	const char *s = text, *end = text + len, *nl;
	char *line, *c, *key, *value, *name;
	struct tunit *u;
	int lineno = 0;
	size_t i;

	while (s < end) {
		if ((nl = memchr(s, '\n', (size_t)(end - s))) == NULL)
			nl = end;
		line = xstrndup(s, (size_t)(nl - s));
		s = nl + 1;
		lineno++;
		c = util_trim(line);
		if ((name = header_name(c)) != NULL) {
			t->u = xreallocarray(t->u, t->n + 1, sizeof *t->u);
			u = memset(&t->u[t->n++], 0, sizeof *u);
			u->name = name;
			u->line = lineno;
			u->enabled = true;
		} else if (t->n > 0 && *c != '#' && *c != ';' && split_option(c, &key, &value))
			unit_option(t, &t->u[t->n - 1], lineno, key, value);
		if (t->n > 0)
			t->u[t->n - 1].end = lineno;
		free(line);
	}
	if (t->n == 0) {
		kb_tuned_free(t);
		return NULL;
	}
	for (i = 0; i < t->n; i++) {
		if (t->u[i].type == NULL)
			t->u[i].type = xstrdup(t->u[i].name);	/* unit.py:14 */
	}
	t->cur = t->n;
	return t;
}

void
kb_tuned_free(struct kb_tuned *t)
{
	size_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->n; i++) {
		free(t->u[i].name);
		free(t->u[i].type);
		free(t->u[i].drop);
		free(t->u[i].uname_re);
		free(t->u[i].cpuinfo_re);
		free(t->u[i].priority);
	}
	free(t->u);
	free(t->include);
	free(t);
}

static bool
is_sysctl(const struct tunit *u)
{
	return strcmp(u->type, "sysctl") == 0;
}

static void
section_note(struct kb_profile *p, const struct tunit *u)
{
	if (is_sysctl(u) || strcmp(u->name, "main") == 0)
		return;	/* a sysctl unit is said, if need be, once the includes are merged */
	if (strcmp(u->name, "DEFAULT") == 0)
		kb_profile_note(p, NULL, u->line, KB_WARNING, "tuned section [DEFAULT] is not read: "
		    "TuneD's configparser copies its options into every section, the sysctl units "
		    "too (tuned/profiles/loader.py _load_config_data); ntune does not, so they are "
		    "not checked");
	else if (strcmp(u->name, "variables") == 0)
		kb_profile_note(p, NULL, u->line, KB_NOTE, "tuned section [variables] is not read: "
		    "ntune does not expand TuneD's ${variables} (tuned/profiles/variables.py)");
	else
		kb_profile_note(p, NULL, u->line, KB_NOTE, "tuned section [%s] is not read: it is "
		    "the %s plugin's; ntune reads the units of type sysctl", u->name, u->type);
}

/*
 * A line TuneD's configparser cannot read makes TuneD refuse the whole profile
 * (tuned/profiles/loader.py _load_config_data: InvalidProfileException): said at its line.
 */
static void
refused(struct kb_profile *p, int lineno, const char *c, bool before)
{
	if (before)
		kb_profile_note(p, NULL, lineno, KB_ERROR, "TuneD refuses this profile: '%s' comes "
		    "before the first [section] header (configparser's MissingSectionHeaderError, "
		    "tuned/profiles/loader.py _load_config_data); not read", c);
	else
		kb_profile_note(p, NULL, lineno, KB_ERROR, "TuneD refuses this profile: '%s' is "
		    "not name=value (TuneD's configparser takes '=' alone, delimiters=('='), "
		    "tuned/profiles/loader.py _load_config_data); not read", c);
}

void
kb_tuned_bom(struct kb_profile *p)
{
	if (p->tuned != NULL)
		kb_profile_note(p, NULL, 1, KB_ERROR, "TuneD refuses this profile: it starts with a "
		    "UTF-8 byte-order mark, which TuneD's configparser reads as part of line 1, so "
		    "that line is no [section] header (tuned/profiles/loader.py _load_config_data)");
}

int
kb_tuned_continuation(struct kb_profile *p, int lineno, const char *c)
{
	struct kb_tuned *t = p->tuned;
	struct kb_entry *e;
	char *v;

	if (t == NULL || t->cur == t->n || t->opt_line == 0)
		return 0;
	/* configparser: an indented line continues the option before it (joined by a newline,
	 * which the kernel's parser reads as white space) */
	e = p->nentries > 0 ? &p->entries[p->nentries - 1] : NULL;
	if (e != NULL && e->line == t->opt_line && is_sysctl(&t->u[t->cur])) {
		xasprintf(&v, "%s %s", e->value, c);
		free(e->value);
		e->value = v;
	}
	(void)lineno;
	return 1;
}

/*
 * An option of a [vm] unit that TuneD's vm plugin does not have: TuneD logs
 * "Unknown option" and ignores it (tuned/plugins/base.py:79-83). The plugin's
 * options are tuned/plugins/plugin_vm.py:37-42; a sysctl belongs in [sysctl].
 */
static void
vm_option(struct kb_profile *p, const struct tunit *u, int lineno, const char *c)
{
	static const char *const vm_keys[] = {
		"transparent_hugepages", "transparent_hugepage", "transparent_hugepage.defrag",
	};
	char *copy = xstrdup(c), *key, *value;
	size_t i, j;

	if (strcmp(u->type, "vm") == 0 && split_option(copy, &key, &value)) {
		for (i = 0; i < nitems(vm_keys) && strcmp(key, vm_keys[i]) != 0; i++)
			;
		for (j = 0; j < nitems(unit_keys) && strcmp(key, unit_keys[j]) != 0; j++)
			;
		if (i == nitems(vm_keys) && j == nitems(unit_keys))
			kb_profile_note(p, NULL, lineno, KB_WARNING, "tuned section [%s]: the vm "
			    "plugin has no option '%s' (tuned/plugins/plugin_vm.py:37-42): TuneD "
			    "logs 'Unknown option' and ignores it (tuned/plugins/base.py:79-83)%s",
			    u->name, key, strchr(key, '.') != NULL ? "; a sysctl belongs in [sysctl]" :
			    "");
	}
	free(copy);
}

int
kb_tuned_line(struct kb_profile *p, int lineno, const char *c)
{
	struct kb_tuned *t = p->tuned;
	char *copy, *key, *value;
	size_t i, next;
	int taken = 1;

	if (t == NULL)
		return 0;
	if (kb_tuned_header(c)) {
		next = t->cur == t->n ? 0 : t->cur + 1;
		for (i = next; i < t->n && t->u[i].line != lineno; i++)
			;
		if (i < t->n) {
			t->cur = i;
			section_note(p, &t->u[i]);
		}
		t->opt_line = 0;
		return 1;
	}
	if (t->cur == t->n || strchr(c, '=') == NULL) {
		refused(p, lineno, c, t->cur == t->n);
		return 1;
	}
	t->opt_line = lineno;
	if (!is_sysctl(&t->u[t->cur])) {
		vm_option(p, &t->u[t->cur], lineno, c);
		return 1;
	}
	copy = xstrdup(c);
	if (!split_option(copy, &key, &value))
		taken = 0;	/* not name=value: the setting reader says why */
	else {
		for (i = 0; i < nitems(unit_keys) && strcmp(key, unit_keys[i]) != 0; i++)
			;
		if (i < nitems(unit_keys))
			taken = 1;
		else if (strstr(value, "${") != NULL)
			kb_profile_note(p, NULL, lineno, KB_WARNING, "'%s' is not read: its value "
			    "'%s' holds a TuneD ${variable} or ${f:function}, which TuneD expands "
			    "when it applies it (tuned/plugins/plugin_sysctl.py:74, "
			    "tuned/profiles/variables.py:70-76) and ntune does not", key, value);
		else
			taken = 0;
	}
	free(copy);
	return taken;
}

/* A profile read for an include= line, or the profile itself (the last one). */
struct loaded {
	struct kb_profile *p;
	const char *nfile;	/* what its notes name: NULL for the profile, else a path in files */
	const char *by_file;	/* the include= line that read it (by_file NULL: the profile's) */
	int	by_line;
	char	*name;		/* as the include= line names it */
	bool	*kept;		/* per entry: in effect after the merge */
};

/* A merged unit (merger.py:20-57): its options are entries of the loaded profiles. */
struct munit {
	const struct tunit *u;	/* its latest definition */
	const char *nfile;
	const char *type;
	bool	enabled;
	const char *uname_re;
	const char *cpuinfo_re;
	const struct tunit *prio;	/* the unit whose priority= is in effect, NULL none */
	const char *prio_file;
	struct { size_t l, i; } *e;
	size_t	n;
};

struct resolve {
	struct kb_profile *top;
	const struct kb_profile_reader *rd;
	kb_profile_read_one one;
	struct loaded *l;
	size_t	nl;
	char	**seen;		/* tuned.conf files read (loader.py:51, :84) */
	size_t	nseen;
	const char *stack[TUNED_MAX_DEPTH + 1];
	int	depth;
};

/* The parts of os.path.normpath that matter here: "//", "/./" and a leading "./" go. */
static char *
normpath(const char *s)
{
	struct strbuf sb;
	const char *c, *e;
	char *out;

	strbuf_init(&sb);
	if (*s == '/')
		strbuf_addc(&sb, '/');
	for (c = s; *c != '\0'; c = *e != '\0' ? e + 1 : e) {
		e = strchr(c, '/');
		e = e != NULL ? e : c + strlen(c);
		if (e == c || (e - c == 1 && *c == '.'))
			continue;
		if (sb.len > 0 && sb.buf[sb.len - 1] != '/')
			strbuf_addc(&sb, '/');
		strbuf_add(&sb, c, (size_t)(e - c));
	}
	out = strbuf_detach(&sb);
	return out != NULL && *out != '\0' ? out : (free(out), xstrdup("."));
}

/* The directory that holds the profile directory of path (.../NAME/tuned.conf). */
static char *
profiles_dir(const char *path)
{
	char *n = normpath(path), *d, *slash;

	for (int up = 0; up < 2; up++) {
		slash = strrchr(n, '/');
		if (strcmp(n, "..") == 0 || (slash != NULL && strcmp(slash, "/..") == 0)) {
			xasprintf(&d, "%s/..", n);
			free(n);
			n = d;
		} else if (slash == NULL) {
			d = xstrdup(strcmp(n, ".") == 0 ? ".." : ".");
			free(n);
			n = d;
		} else
			slash[slash == n ? 1 : 0] = '\0';
	}
	return n;
}

static bool
seen(const struct resolve *r, const char *path)
{
	for (size_t i = 0; i < r->nseen; i++) {
		if (strcmp(r->seen[i], path) == 0)
			return true;
	}
	return false;
}

/*
 * Where TuneD would find the profile NAME for the includer at from: 1 and *path, *text
 * when found; 0 when not, *skipped the last file passed over for being read already.
 */
static int
find_profile(struct resolve *r, const char *from, const char *base, char **path, char **text,
    size_t *len, char **skipped, struct strbuf *looked)
{
	char *dirs[3], *cand;
	size_t n = 0, i;
	int found = 0;

	xasprintf(&dirs[1], "%s/etc/tuned", r->rd->root);
	xasprintf(&dirs[2], "%s/usr/lib/tuned", r->rd->root);
	for (i = 1; i < 3; i++) {
		cand = normpath(dirs[i]);
		free(dirs[i]);
		dirs[i] = cand;
	}
	dirs[0] = *from == '<' ? NULL : profiles_dir(from);	/* <stdin>: nowhere beside */
	if (dirs[0] != NULL && (strcmp(dirs[0], dirs[1]) == 0 || strcmp(dirs[0], dirs[2]) == 0)) {
		free(dirs[0]);
		dirs[0] = NULL;		/* a TuneD load directory: TuneD's order */
	}
	*skipped = NULL;
	for (i = 0; i < 3 && !found; i++) {
		if (dirs[i] == NULL)
			continue;
		xasprintf(&path[0], "%s/%s/tuned.conf", dirs[i], base);
		cand = normpath(*path);
		free(*path);
		*path = NULL;
		strbuf_addf(looked, "%s%s", n++ ? ", " : "", dirs[i]);
		if (seen(r, cand)) {
			free(*skipped);
			*skipped = cand;
		} else if (r->rd->read(r->rd->arg, cand, text, len) == 0) {
			*path = cand;
			found = 1;
		} else
			free(cand);
	}
	for (i = 0; i < 3; i++)
		free(dirs[i]);
	return found;
}

static void follow(struct resolve *, struct kb_profile *, const char *nfile, const char *from);

/* Moves what the reader said about an included file into the profile's notes. */
static void
take_notes(struct kb_profile *top, struct kb_profile *sub, const char *nfile)
{
	size_t i;

	for (i = 0; i < sub->nnotes; i++) {
		kb_profile_note(top, sub->notes[i].file != NULL ? sub->notes[i].file : nfile,
		    sub->notes[i].line, sub->notes[i].severity, "%s", sub->notes[i].message);
		free(sub->notes[i].message);
	}
	free(sub->notes);
	sub->notes = NULL;
	sub->nnotes = 0;
}

/*
 * The profiles TuneD ships (usr/lib/tuned/NAME/tuned.conf of Debian's tuned 2.20.0-1): on a box
 * that runs TuneD an include of one is found, whatever the checking machine has (set 4: F1).
 */
static bool
shipped(const char *name)
{
	static const char *const names[] = {
		"accelerator-performance", "atomic-guest", "atomic-host", "aws", "balanced",
		"cpu-partitioning", "cpu-partitioning-powersave", "default", "desktop",
		"desktop-powersave", "enterprise-storage", "hpc-compute", "intel-sst",
		"laptop-ac-powersave", "laptop-battery-powersave", "latency-performance", "mssql",
		"network-latency", "network-throughput", "openshift", "openshift-control-plane",
		"openshift-node", "optimize-serial-console", "oracle", "postgresql", "powersave",
		"realtime", "realtime-virtual-guest", "realtime-virtual-host", "sap-hana",
		"sap-netweaver", "server-powersave", "spectrumscale-ece", "spindown-disk",
		"throughput-performance", "virtual-guest", "virtual-host",
	};
	size_t i;

	for (i = 0; i < nitems(names); i++) {
		if (strcmp(name, names[i]) == 0)
			return true;
	}
	return false;
}

static void
not_found(struct resolve *r, const char *nfile, int line, const char *name, char *skipped,
    const char *looked)
{
	int i;

	for (i = 0; skipped != NULL && i < r->depth && strcmp(r->stack[i], skipped) != 0; i++)
		;
	if (skipped != NULL && i < r->depth)
		kb_profile_note(r->top, nfile, line, KB_WARNING, "tuned include '%s' is a cycle: %s "
		    "is being read already; TuneD reads each file once and skips it "
		    "(tuned/profiles/locator.py:36-38)", name, skipped);
	else if (skipped != NULL)
		kb_profile_note(r->top, nfile, line, KB_NOTE, "tuned include '%s': %s was read "
		    "already; TuneD reads each file once (tuned/profiles/locator.py:36-38)", name,
		    skipped);
	else if (name[0] == '-')
		kb_profile_note(r->top, nfile, line, KB_NOTE, "tuned include '%s': not in %s; "
		    "TuneD skips a '-' include it cannot find (tuned/profiles/locator.py:28-30)",
		    name, looked);
	else if (shipped(name))
		kb_profile_note(r->top, nfile, line, KB_NOTE, "tuned include '%s' is a profile "
		    "TuneD ships (usr/lib/tuned/%s in tuned 2.20); not on this machine (%s), so "
		    "its settings are not checked here", name, name, looked);
	else
		kb_profile_note(r->top, nfile, line, KB_WARNING, "tuned include '%s' is not read: "
		    "no %s/tuned.conf in %s; TuneD refuses to load a profile whose include it cannot "
		    "find (tuned/profiles/loader.py:82-83)", name, name, looked);
	free(skipped);
}

/* One name of an include= line of the profile p (read from file from). */
static void
include_one(struct resolve *r, struct kb_profile *p, const char *nfile, const char *from,
    const char *name)
{
	int line = p->tuned->include_line;
	const char *base = name + (name[0] == '-');
	char *path, *text, *skipped, *cause = NULL;
	struct kb_profile *sub;
	struct loaded *l;
	struct strbuf looked;
	size_t len;

	if (strrchr(base, '/') != NULL)		/* locator.py:33-34 */
		base = strrchr(base, '/') + 1;
	if (r->depth >= TUNED_MAX_DEPTH || r->nseen >= TUNED_MAX_FILES) {
		kb_profile_note(r->top, nfile, line, KB_ERROR, "tuned include '%s' is not read: "
		    "more than %d %s", name, r->depth >= TUNED_MAX_DEPTH ? TUNED_MAX_DEPTH :
		    TUNED_MAX_FILES, r->depth >= TUNED_MAX_DEPTH ? "profiles deep" :
		    "profiles in all");
		return;
	}
	strbuf_init(&looked);
	if (!find_profile(r, from, base, &path, &text, &len, &skipped, &looked)) {
		not_found(r, nfile, line, name, skipped, looked.buf != NULL ? looked.buf : "");
		strbuf_free(&looked);
		return;
	}
	strbuf_free(&looked);
	free(skipped);
	r->seen = util_strv_add(r->seen, &r->nseen, path);
	sub = r->one(path, text, len, &cause);
	free(text);
	if (sub == NULL) {
		kb_profile_note(r->top, nfile, line, KB_ERROR, "tuned include '%s': %s", name, cause);
		free(cause);
		free(path);
		return;
	}
	r->top->files = util_strv_add(r->top->files, &r->top->nfiles, path);
	free(path);
	path = r->top->files[r->top->nfiles - 1];
	take_notes(r->top, sub, path);
	if (sub->tuned == NULL)
		kb_profile_note(r->top, path, 1, KB_WARNING, "no [section] in this tuned profile: "
		    "TuneD cannot parse it (configparser), ntune reads nothing of it");
	r->stack[r->depth++] = path;
	follow(r, sub, path, path);
	r->depth--;
	r->l = xreallocarray(r->l, r->nl + 1, sizeof *r->l);
	l = &r->l[r->nl++];
	l->p = sub;
	l->nfile = path;
	l->by_file = nfile;
	l->by_line = line;
	l->name = xstrdup(name);
	l->kept = NULL;
}

/* The include= line of p: each name in order, split at ',' or ';' (loader.py:89). */
static void
follow(struct resolve *r, struct kb_profile *p, const char *nfile, const char *from)
{
	const struct kb_tuned *t = p->tuned;
	char *list, *name, *next;

	if (t == NULL || t->include == NULL)
		return;
	if (r->rd == NULL) {
		kb_profile_note(r->top, nfile, t->include_line, KB_WARNING, "tuned 'include=%s': "
		    "the included profile is not read (ntune follows includes of a file it reads, "
		    "e.g. 'ntune check FILE'); check its file too", t->include);
		return;
	}
	if (strstr(t->include, "${") != NULL) {
		kb_profile_note(r->top, nfile, t->include_line, KB_WARNING, "tuned 'include=%s' is "
		    "not followed: TuneD expands its ${...} first (tuned/profiles/loader.py:89, "
		    "variables.py:70-76), ntune does not", t->include);
		return;
	}
	list = xstrdup(t->include);
	for (name = list; name != NULL; name = next) {
		if ((next = strpbrk(name, ",;")) != NULL)
			*next++ = '\0';
		include_one(r, p, nfile, from, util_trim(name));
	}
	free(list);
}

static struct munit *
munit_named(struct munit *m, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++) {
		if (strcmp(m[i].u->name, name) == 0)
			return &m[i];
	}
	return NULL;
}

static struct kb_entry *
entry_of(const struct resolve *r, const struct munit *m, size_t k)
{
	return &r->l[m->e[k].l].p->entries[m->e[k].i];
}

/* Takes the options of m that name names and the profile li did not set: said, then gone. */
static void
drop_older(struct resolve *r, struct munit *m, size_t li, const char *name, const char *nfile,
    int line, const char *why)
{
	const struct kb_entry *o;
	size_t k, w;

	for (k = w = 0; k < m->n; k++) {
		o = entry_of(r, m, k);
		if (m->e[k].l == li || strcmp(o->name, name) != 0) {
			m->e[w++] = m->e[k];
			continue;
		}
		kb_profile_note(r->top, nfile, line, KB_NOTE, "%s '%s%s%s' of %s:%d (%s)",
		    why, o->name, kb_op_text(o->op), o->value, r->l[m->e[k].l].nfile != NULL ?
		    r->l[m->e[k].l].nfile : r->top->path, o->line, why[0] == 'd' ?
		    "tuned/profiles/merger.py:46-48" : "the including profile's value wins, "
		    "tuned/profiles/merger.py:55");
	}
	m->n = w;
}

/* Merges unit u of the profile li into the units so far (merger.py:29-55). */
static void
merge_unit(struct resolve *r, struct munit **mu, size_t *nm, size_t li, const struct tunit *u)
{
	const struct loaded *l = &r->l[li];
	struct munit *m = munit_named(*mu, *nm, u->name);
	char *drop, *d, *next;
	size_t i;

	if (m != NULL && u->replace && m->n > 0) {
		kb_profile_note(r->top, l->nfile, u->replace_line, KB_NOTE, "replace=true: the %zu "
		    "settings of [%s] from the included profiles are dropped "
		    "(tuned/profiles/merger.py:30-31)", m->n, u->name);
		m->n = 0;
	}
	if (m == NULL) {
		*mu = xreallocarray(*mu, *nm + 1, sizeof **mu);
		m = memset(&(*mu)[(*nm)++], 0, sizeof *m);
	}
	if (m->u == NULL || u->replace || u->uname_re != NULL)
		m->uname_re = u->uname_re;
	if (m->u == NULL || u->replace || u->cpuinfo_re != NULL)
		m->cpuinfo_re = u->cpuinfo_re;
	if (m->u == NULL || u->replace || u->priority != NULL) {	/* an option: merger.py:55 */
		m->prio = u->priority != NULL ? u : NULL;
		m->prio_file = l->nfile;
	}
	m->u = u;
	m->nfile = l->nfile;
	m->type = u->type;
	m->enabled = u->enabled;
	if (u->drop != NULL) {
		drop = xstrdup(u->drop);
		for (d = drop; d != NULL; d = next) {
			if ((next = strpbrk(d, ",;")) != NULL)
				*next++ = '\0';
			drop_older(r, m, li, util_trim(d), l->nfile, u->drop_line, "drop= removes");
		}
		free(drop);
	}
	for (i = 0; i < l->p->nentries; i++) {
		const struct kb_entry *e = &l->p->entries[i];

		if (e->line <= u->line || e->line > u->end)
			continue;
		drop_older(r, m, li, e->name, l->nfile, e->line, "this setting overrides");
		m->e = xreallocarray(m->e, m->n + 1, sizeof *m->e);
		m->e[m->n].l = li;
		m->e[m->n++].i = i;
	}
}

/* A sysctl unit TuneD may not apply: said with why; true when its settings are read. */
static bool
unit_applies(struct resolve *r, const struct munit *m)
{
	char cond[512];
	const struct kb_entry *e = m->n > 0 ? entry_of(r, m, 0) : NULL;

	if (!m->enabled) {
		kb_profile_note(r->top, m->nfile, m->u->line, KB_NOTE, "tuned section [%s] "
		    "(type=sysctl) is disabled (enabled= not True, true or 1): TuneD creates no "
		    "instance of it (tuned/units/manager.py:66-68); its %zu setting%s not read",
		    m->u->name, m->n, m->n == 1 ? " is" : "s are");
		return false;
	}
	if (m->uname_re == NULL && m->cpuinfo_re == NULL)
		return true;
	snprintf(cond, sizeof cond, "%s%s%s%s%s%s%s", m->uname_re != NULL ? "uname matches "
	    "uname_regex '" : "", m->uname_re != NULL ? m->uname_re : "", m->uname_re != NULL ?
	    "'" : "", m->uname_re != NULL && m->cpuinfo_re != NULL ? " and " : "",
	    m->cpuinfo_re != NULL ? "/proc/cpuinfo matches cpuinfo_regex '" : "",
	    m->cpuinfo_re != NULL ? m->cpuinfo_re : "", m->cpuinfo_re != NULL ? "'" : "");
	kb_profile_note(r->top, m->nfile, m->u->line, KB_NOTE, "tuned section [%s] (type=sysctl) "
	    "is a conditional sysctl instance: TuneD applies it only where %s "
	    "(tuned/units/manager.py:45-74); ntune does not evaluate that for the target, so "
	    "its %zu setting%s%s%s%s not read", m->u->name, cond, m->n, m->n == 1 ? "" : "s",
	    e != NULL ? " (" : "", e != NULL ? e->name : "", e != NULL ? (m->n > 1 ? ", ...) are" :
	    ") is") : " are");
	return false;
}

/* A unit's priority as TuneD's int() takes it (manager.py:76-77); 0 when unset. */
static long
unit_priority(struct resolve *r, const struct munit *m, bool say)
{
	const char *v = m->prio != NULL ? m->prio->priority : NULL;
	char *end;
	long n;

	if (v == NULL)
		return 0;	/* consts.py:131 CFG_DEF_DEFAULT_INSTANCE_PRIORITY */
	n = strtol(v, &end, 10);
	if (end == v || *util_trim(end) != '\0') {
		if (say)
			kb_profile_note(r->top, m->prio_file, m->prio->priority_line, KB_ERROR,
			    "tuned section [%s]: priority=%s is not an integer: TuneD's int() fails "
			    "when it creates the instances (tuned/units/manager.py:77), so the "
			    "profile is not applied", m->u->name, v);
		return 0;
	}
	if (say)
		kb_profile_note(r->top, m->prio_file, m->prio->priority_line, KB_NOTE, "tuned section "
		    "[%s] has priority=%ld: TuneD applies the sysctl instances lowest priority first "
		    "(the default is 0; tuned/units/manager.py:76-80), so where two set one name the "
		    "one applied last wins; ntune reads them in that order", m->u->name, n);
	return n;
}

/* The sysctl units in the order TuneD applies them: by priority, stable (manager.py:80). */
static size_t *
apply_order(struct resolve *r, struct munit *mu, size_t nm)
{
	size_t *o = xreallocarray(NULL, nm + 1, sizeof *o), i, j, t;
	long *pr = xreallocarray(NULL, nm + 1, sizeof *pr);

	for (i = 0; i < nm; i++) {
		o[i] = i;
		pr[i] = is_sysctl(mu[i].u) ? unit_priority(r, &mu[i], mu[i].enabled) : 0;
	}
	for (i = 1; i < nm; i++)	/* insertion sort: stable, as Python's sort */
		for (j = i; j > 0 && pr[o[j - 1]] > pr[o[j]]; j--) {
			t = o[j];
			o[j] = o[j - 1];
			o[j - 1] = t;
		}
	free(pr);
	return o;
}

/* The entries in effect, in the order TuneD applies them; the others freed. */
static void
assemble(struct resolve *r, struct munit *mu, size_t nm)
{
	struct kb_entry *out = NULL, *e;
	size_t n = 0, li, i, *order = apply_order(r, mu, nm);

	for (li = 0; li < r->nl; li++)
		r->l[li].kept = xcalloc(r->l[li].p->nentries + 1, sizeof *r->l[li].kept);
	/* Lines of the profile before its first [section] are plain settings. */
	for (i = 0; i < r->top->nentries && r->top->entries[i].line < r->top->tuned->u[0].line; i++)
		r->l[r->nl - 1].kept[i] = true;
	out = xreallocarray(NULL, i + 1, sizeof *out);
	if (i > 0)	/* entries may be NULL when there are none: memcpy's argument must not be */
		memcpy(out, r->top->entries, i * sizeof *out);
	n = i;
	for (size_t o = 0; o < nm; o++) {
		struct munit *m = &mu[order[o]];

		if (!is_sysctl(m->u) || !unit_applies(r, m))
			continue;
		out = xreallocarray(out, n + m->n + 1, sizeof *out);
		for (i = 0; i < m->n; i++) {
			e = entry_of(r, m, i);
			r->l[m->e[i].l].kept[m->e[i].i] = true;
			out[n] = *e;
			out[n++].file = r->l[m->e[i].l].nfile != NULL ? r->l[m->e[i].l].nfile :
			    r->top->path;
		}
	}
	free(order);
	for (li = 0; li < r->nl; li++) {
		struct kb_profile *p = r->l[li].p;

		for (i = 0; i < p->nentries; i++) {
			if (r->l[li].kept[i])
				continue;
			free(p->entries[i].name);
			free(p->entries[i].value);
			free(p->entries[i].comment);
			free(p->entries[i].command);
		}
		free(p->entries);
		p->entries = NULL;
		p->nentries = 0;
	}
	r->top->entries = out;
	r->top->nentries = n;
}

/* What each include= read: how many of its settings are in effect. */
static void
say_includes(struct resolve *r)
{
	size_t li, i, n;

	for (li = 0; li + 1 < r->nl; li++) {
		for (i = n = 0; i < r->top->nentries; i++)
			n += r->top->entries[i].file == r->l[li].nfile;
		kb_profile_note(r->top, r->l[li].by_file, r->l[li].by_line, KB_NOTE, "tuned include "
		    "'%s' read from %s: %zu of its sysctl settings in effect (TuneD merges the "
		    "included profile first, the including one over it: tuned/profiles/loader.py:"
		    "77-92)", r->l[li].name, r->l[li].nfile, n);
	}
}

void
kb_tuned_resolve(struct kb_profile *top, const struct kb_profile_reader *rd,
    kb_profile_read_one one)
{
	struct resolve r;
	struct munit *mu = NULL;
	size_t nm = 0, li, i;
	char *self;

	memset(&r, 0, sizeof r);
	r.top = top;
	r.rd = rd;
	r.one = one;
	self = normpath(top->path);
	r.seen = util_strv_add(r.seen, &r.nseen, self);
	r.stack[r.depth++] = self;
	follow(&r, top, NULL, top->path);
	r.l = xreallocarray(r.l, r.nl + 1, sizeof *r.l);
	memset(&r.l[r.nl], 0, sizeof *r.l);
	r.l[r.nl++].p = top;
	for (li = 0; li < r.nl; li++) {
		const struct kb_tuned *t = r.l[li].p->tuned;

		for (i = 0; t != NULL && i < t->n; i++) {
			if (strcmp(t->u[i].name, "main") != 0)
				merge_unit(&r, &mu, &nm, li, &t->u[i]);
		}
	}
	assemble(&r, mu, nm);
	say_includes(&r);
	for (i = 0; i < nm; i++)
		free(mu[i].e);
	free(mu);
	for (li = 0; li < r.nl; li++) {
		free(r.l[li].kept);
		free(r.l[li].name);
		kb_tuned_free(r.l[li].p->tuned);
		r.l[li].p->tuned = NULL;
		if (r.l[li].p != top)
			kb_profile_free(r.l[li].p);
	}
	free(r.l);
	util_strv_free(r.seen, r.nseen);
	free(self);
}
