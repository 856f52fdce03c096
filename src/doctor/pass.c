/*
 * The doctor's pass over a capture: the system (the platform layer over the pasted
 * text), the files the box loads (kb_check), the samples (diag_captures), the advice
 * ordered by the diagnosis; items.c turns them into the ranked list.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag/diag.h"
#include "doctor/doctor_impl.h"
#include "kb/kb.h"
#include "kb/system.h"
#include "os/os.h"
#include "os/platform.h"
#include "os/snapshot.h"
#include "util/util.h"

/* The files a FreeBSD box loads tunables from, in the order the box applies them. */
static const struct {
	const char *section, *shown;
} box_files[] = {
	{ "loader.conf", "/boot/loader.conf" },
	{ "loader.conf.local", "/boot/loader.conf.local" },
	{ "sysctl.conf", "/etc/sysctl.conf" },
	{ "sysctl.conf.local", "/etc/sysctl.conf.local" },
	{ "config-sysctl.xml", "config-sysctl.xml" },
};

/*
 * What the system's text readers could not read ("path:line: ..."): a note each, after the
 * diagnosis, unless the diagnosis's notes already name that line (reported once).
 */
static void
text_errors(struct doctor *dr)
{
	json_t *errs = json_object_get(os_snapshot_doc(dr->os), "errors"), *e;
	const char *m, *colon;
	char *at;
	size_t i, j;
	bool said;

	json_array_foreach(errs, i, e) {
		m = json_is_string(e) ? json_string_value(e) : json_string_value(json_object_get(e,
		    "message"));
		if (m == NULL || (colon = strchr(m, ':')) == NULL || (colon = strchr(colon + 1,
		    ':')) == NULL)
			continue;
		xasprintf(&at, "%.*s ", (int)(colon - m), m);
		for (said = false, j = 0; dr->d != NULL && j < dr->d->nnotes && !said; j++)
			said = strstr(dr->d->notes[j], at) != NULL;
		free(at);
		if (said)
			continue;
		xasprintf(&at, "skipped by the system's reader: %s", m);
		dr->notes = util_strv_add(dr->notes, &dr->nnotes, at);
		free(at);
	}
}

/* The platform layer over the capture (os_open_captures), and the system kb's rules see. */
static int
open_system(struct doctor *dr, char **cause)
{
	const struct capture_section *s;
	enum os_platform pf;

	if (dr->pastes)
		return doctor_pastes_open(dr, cause);
	if ((dr->os = os_open_captures(dr->set, cause)) == NULL)
		return -1;
	if (kb_system_from_os(dr->os, &dr->si, cause) == -1)
		return -1;
	dr->si_open = true;
	/* platform.txt names a FreeBSD distribution (a Linux one's is /etc/os-release) */
	if (os_platform_family(dr->si.sys.platform) == OS_PLATFORM_FREEBSD &&
	    (s = doctor_section(dr, "platform.txt")) != NULL && s->len > 0 &&
	    (pf = os_platform_in_text(s->text)) != OS_PLATFORM_UNKNOWN)
		dr->si.sys.platform = pf;
	dr->linux = dr->si.sys.platform == OS_PLATFORM_LINUX;
	if (!dr->linux && os_platform_family(dr->si.sys.platform) != OS_PLATFORM_FREEBSD) {
		util_cause(cause, "%s: a %s capture; doctor reads FreeBSD, OPNsense, pfSense and "
		    "Linux captures", dr->set->origin != NULL ? dr->set->origin : "capture",
		    os_platform_label(dr->si.sys.platform));
		return -1;
	}
	return 0;
}

/* The box's host name: uname -a's second word, else kern.hostname. */
static void
find_host(struct doctor *dr)
{
	const struct capture_section *s = doctor_section(dr, "uname.txt");
	char *v;
	size_t i = 0, j;

	dr->host[0] = '\0';
	if (s != NULL) {
		while (i < s->len && s->text[i] != ' ' && s->text[i] != '\n')
			i++;
		for (j = ++i; j < s->len && j - i < sizeof dr->host - 1 &&
		    (s->text[j] == '.' || s->text[j] == '-' || s->text[j] == '_' ||
		    (s->text[j] >= '0' && s->text[j] <= '9') || (s->text[j] >= 'a' && s->text[j] <= 'z') ||
		    (s->text[j] >= 'A' && s->text[j] <= 'Z')); j++)
			;
		if (j > i && j <= s->len)
			snprintf(dr->host, sizeof dr->host, "%.*s", (int)(j - i), s->text + i);
	}
	if (dr->host[0] == '\0' && (v = doctor_running(dr, "kern.hostname")) != NULL) {
		snprintf(dr->host, sizeof dr->host, "%s", v);
		free(v);
	}
	if (dr->o->dut != NULL)
		snprintf(dr->dut, sizeof dr->dut, "%s", dr->o->dut);
	else
		snprintf(dr->dut, sizeof dr->dut, "ssh://root@%s", dr->host[0] ? dr->host : "ROUTER");
}

/* Reads text as the profile of the box's file shown (every line kept, unreadable ones noted). */
static int
add_file(struct doctor *dr, const char *section, const char *shown, const char *text,
    size_t len, char **cause)
{
	struct doctor_file *f;
	struct kb_profile *p;

	if ((p = kb_profile_parse_all(shown, text, len, cause)) == NULL)
		return -1;
	dr->files = xreallocarray(dr->files, dr->nfiles + 1, sizeof *dr->files);
	f = &dr->files[dr->nfiles++];
	memset(f, 0, sizeof *f);
	f->section = section;
	f->shown = xstrdup(shown);
	f->p = p;
	return 0;
}

/* The files of a Linux capture, as capture_boot_files gives them. */
struct linux_files {
	char	**path, **text;
	size_t	 n;
};

static void
linux_file(void *arg, const char *path, const char *text)
{
	struct linux_files *lf = arg;

	lf->path = xreallocarray(lf->path, lf->n + 1, sizeof *lf->path);
	lf->text = xreallocarray(lf->text, lf->n + 1, sizeof *lf->text);
	lf->path[lf->n] = xstrdup(path);
	lf->text[lf->n++] = xstrdup(text);
}

/*
 * A Linux box: each .conf file of /etc/sysctl.d in name order (its own path and lines, the capture's
 * "# file: PATH" markers), then /etc/sysctl.conf, the order `sysctl --system` applies them
 * (procps sysctl.c reads /etc/sysctl.conf after the sysctl.d directories). A sysctl.d file
 * with /etc/sysctl.conf's very text is a link to it (Debian's 99-sysctl.conf): read once.
 */
static int
read_linux_files(struct doctor *dr, char **cause)
{
	struct linux_files lf;
	const char *conf = NULL;
	char *note;
	size_t i;
	int rc = 0;

	memset(&lf, 0, sizeof lf);
	capture_boot_files(dr->set, linux_file, &lf);
	for (i = 0; i < lf.n; i++) {
		if (strcmp(lf.path[i], "/etc/sysctl.conf") == 0)
			conf = lf.text[i];
	}
	for (i = 0; i < lf.n && rc == 0; i++) {
		if (strcmp(lf.path[i], "/etc/sysctl.conf") == 0)
			continue;
		if (conf != NULL && strcmp(lf.text[i], conf) == 0) {
			xasprintf(&note, "%s has the text of /etc/sysctl.conf (a link to it): its "
			    "lines are named as /etc/sysctl.conf's", lf.path[i]);
			dr->notes = util_strv_add(dr->notes, &dr->nnotes, note);
			free(note);
			continue;
		}
		rc = add_file(dr, "sysctl.conf.local", lf.path[i], lf.text[i], strlen(lf.text[i]),
		    cause);
	}
	if (rc == 0 && conf != NULL)
		rc = add_file(dr, "sysctl.conf", "/etc/sysctl.conf", conf, strlen(conf), cause);
	for (i = 0; i < lf.n; i++) {
		free(lf.path[i]);
		free(lf.text[i]);
	}
	free(lf.path);
	free(lf.text);
	return rc;
}

/* Each file the box loads, read as a profile (every line kept, unreadable ones noted). */
static int
read_files(struct doctor *dr, char **cause)
{
	const struct capture_section *s;
	size_t i;

	if (dr->pastes)
		return 0;
	if (dr->linux)
		return read_linux_files(dr, cause);
	for (i = 0; i < nitems(box_files); i++) {
		if ((s = doctor_section(dr, box_files[i].section)) == NULL)
			continue;
		if (add_file(dr, box_files[i].section, box_files[i].shown, s->text, s->len,
		    cause) == -1)
			return -1;
	}
	return 0;
}

/* kb_check of each file, the others being the box's other boot files. */
static void
check_files(struct doctor *dr)
{
	struct kb_profile **others = xcalloc(dr->nfiles + 1, sizeof *others);
	struct kb_system sys;
	size_t i, j, n;

	for (i = 0; i < dr->nfiles; i++) {
		sys = dr->si.sys;
		for (j = n = 0; j < dr->nfiles; j++) {
			if (j != i)
				others[n++] = dr->files[j].p;
		}
		sys.others = others;
		sys.nothers = n;
		kb_check(dr->kb, dr->files[i].p, &sys, kb_target_guess(dr->files[i].p,
		    sys.platform), &dr->files[i].d, &dr->files[i].nd);
	}
	free(others);
}

/* clock.txt's two `date -u +%s` lines: the seconds between them, 0 when it does not say. */
static double
clock_secs(struct doctor *dr)
{
	const struct capture_section *s = doctor_section(dr, "clock.txt");
	long long a, b;
	char *text;
	int n;

	if (s == NULL)
		return 0;
	text = xstrndup(s->text, s->len);
	n = sscanf(text, "%lld %lld", &a, &b);
	free(text);
	return n == 2 && b > a ? (double)(b - a) : 0;
}

/*
 * The seconds between the samples (dr->secs, dr->secs_from): the CPU tick counters of
 * before and after (ticks.c) when they tell and are sane (over 0.2 s; within half the
 * clock's figure and 2 s, its 1 s steps and the time the samples take being what it
 * adds), else clock.txt, else --duration; dr->secs_note says why not the counters.
 */
static void
interval(struct doctor *dr, const struct os_counters *a, const struct os_counters *b, double hz)
{
	double clock = clock_secs(dr), t;
	char *why = NULL;

	if (doctor_tick_interval(a, b, hz, &t, &why) == 0) {
		if (t < 0.2)
			util_cause(&why, "the tick counters say %.2f s", t);
		else if (clock > 0 && fabs(t - clock) > clock / 2 + 2)
			util_cause(&why, "the tick counters say %.2f s, clock.txt %.0f s", t, clock);
		else {
			dr->secs = t;
			dr->secs_from = "cpu-ticks";
			return;
		}
	}
	dr->secs_note = why;
	dr->secs = clock > 0 ? clock : dr->o->duration;
	dr->secs_from = clock > 0 ? "clock" : "duration";
}

/* USER_HZ, the unit of /proc/stat's times (fs/proc/stat.c nsec_to_clock_t): 100. */
#define LINUX_USER_HZ	100.0

/* stathz from a sample's kern.clockrate, else from sysctl-a.txt's; 0 unknown. */
static double
fbsd_stathz(struct doctor *dr, const struct os_counters *a, const struct os_counters *b)
{
	static const char key[] = "kern.clockrate: ";
	const struct capture_section *s = doctor_section(dr, "sysctl-a.txt");
	const struct os_counter *v;
	struct os_counters c = { NULL, 0, NULL, 0, NULL, 0 };
	const char *p, *end;
	char *cause = NULL;
	double hz = 0;

	if ((v = os_counters_get(b, "kern.stathz")) != NULL ||
	    (v = os_counters_get(a, "kern.stathz")) != NULL)
		return (double)v->value;
	for (p = s != NULL ? s->text : NULL; p != NULL && p < s->text + s->len; p = end + 1) {
		if ((end = memchr(p, '\n', (size_t)(s->text + s->len - p))) == NULL)
			end = s->text + s->len;
		if ((size_t)(end - p) <= sizeof key - 1 || memcmp(p, key, sizeof key - 1) != 0)
			continue;
		/* the one line, read by the parser of the samples */
		if (os_counters_text(p, (size_t)(end - p) + (end < s->text + s->len), "sysctl-a.txt",
		    &c, &cause) == 0 &&
		    (v = os_counters_get(&c, "kern.stathz")) != NULL)
			hz = (double)v->value;
		break;
	}
	free(cause);
	os_counters_free(&c);
	return hz;
}

/* A FreeBSD capture's interval: its samples read as diag_captures reads them, for the ticks. */
static void
fbsd_interval(struct doctor *dr, const struct diag_capture *before,
    const struct diag_capture *after)
{
	struct os_counters a = { NULL, 0, NULL, 0, NULL, 0 };
	struct os_counters b = { NULL, 0, NULL, 0, NULL, 0 };
	char *cause = NULL;

	/* a sample that does not parse fails in diag_captures, with its line */
	if (os_counters_text(before->text, before->len, before->name, &a, &cause) != 0 ||
	    os_counters_text(after->text, after->len, after->name, &b, &cause) != 0) {
		os_counters_free(&a);
		os_counters_free(&b);
	}
	free(cause);
	interval(dr, &a, &b, fbsd_stathz(dr, &a, &b));
	os_counters_free(&a);
	os_counters_free(&b);
}

/*
 * Adds section s to c; what errors cite is where it came from, as os_open_captures does:
 * DIR/NAME for a directory, ORIGIN:NAME for a file or ssh:// (freed by diagnose).
 */
static void
add_capture(const struct doctor *dr, struct diag_capture *c, size_t *n,
    const struct capture_section *s)
{
	char *name;

	if (s == NULL || s->len == 0)
		return;
	xasprintf(&name, "%s%s%s", dr->set->origin != NULL ? dr->set->origin : "capture",
	    s->line == 0 ? "/" : ":", s->name);
	c[*n].name = name;
	c[*n].text = s->text;
	c[*n].len = s->len;
	(*n)++;
}

static void
free_names(struct diag_capture *c, size_t n)
{
	while (n > 0)
		free((char *)c[--n].name);
}

/* One sample of a Linux capture, read by the Linux backend from the capture's tree. */
static int
linux_sample(struct doctor *dr, const char *name, struct os_counters *c, bool topology,
    char **cause)
{
	const struct capture_section *s = doctor_section(dr, name);
	char *where;
	int rc;

	xasprintf(&where, "%s%s%s", dr->set->origin != NULL ? dr->set->origin : "capture",
	    s->line == 0 ? "/" : ":", s->name);
	rc = capture_linux_sample(dr->os, where, s->text, s->len, cause);
	free(where);
	return rc == 0 ? os_counters_collect(dr->os, c, topology, cause) : -1;
}

/*
 * A Linux capture: before.txt and after.txt over the interval, else the counters since boot
 * of its linux-tree.txt; read by the Linux backend (os_counters_collect) from the capture's
 * tree, evaluated by the Linux rules. top.txt (procps top) is not read: /proc/stat gives the
 * CPU figures.
 */
static int
diagnose_linux(struct doctor *dr, char **cause)
{
	struct diag_rules *rs;
	struct os_counters a, b;
	int rc;

	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	if (diag_rules_load(NULL, &rs, cause) != 0)
		return -1;
	if (doctor_section(dr, "before.txt") != NULL && doctor_section(dr, "after.txt") != NULL) {
		rc = linux_sample(dr, "before.txt", &a, false, cause) == 0 &&
		    linux_sample(dr, "after.txt", &b, true, cause) == 0 ? 0 : -1;
		if (rc == 0)
			interval(dr, &a, &b, LINUX_USER_HZ);
		if (rc == 0 && dr->secs <= 0)
			dr->secs_from = NULL;	/* no interval: after.txt's counters since boot */
		if (rc == 0)
			rc = diag_evaluate(rs, dr->secs > 0 ? &a : NULL, &b, dr->secs > 0 ?
			    dr->secs : 0, "linux", "", &dr->d, cause);
	} else {
		dr->secs = 0;
		rc = os_counters_collect(dr->os, &b, true, cause) == 0 ? diag_evaluate(rs, NULL, &b,
		    0, "linux", "", &dr->d, cause) : -1;
	}
	os_counters_free(&a);
	os_counters_free(&b);
	diag_rules_free(rs);
	return rc;
}

/* The samples: before.txt and after.txt (+ top.txt) over the interval, else since boot. */
static int
diagnose(struct doctor *dr, char **cause)
{
	struct diag_capture before[1], after[4];
	size_t nb = 0, na = 0;
	const char *os = os_platform_name(dr->si.sys.platform);
	int rc;

	if (dr->pastes)
		return doctor_pastes_diagnose(dr, cause);
	if (dr->linux)
		return diagnose_linux(dr, cause);
	add_capture(dr, before, &nb, doctor_section(dr, "before.txt"));
	add_capture(dr, after, &na, doctor_section(dr, "after.txt"));
	if (nb == 1 && na == 1)
		fbsd_interval(dr, &before[0], &after[0]);
	if (nb == 1 && na == 1 && dr->secs > 0) {
		add_capture(dr, after, &na, doctor_section(dr, "top.txt"));
		rc = diag_captures(before, nb, after, na, dr->secs, os, &dr->d, cause);
		free_names(before, nb);
		free_names(after, na);
		return rc;
	}
	free_names(before, nb);
	free_names(after, na);
	dr->secs = 0;
	dr->secs_from = NULL;
	na = 0;
	add_capture(dr, after, &na, doctor_section(dr, "vmstat-i.txt"));
	add_capture(dr, after, &na, doctor_section(dr, "netstat-Q.txt"));
	add_capture(dr, after, &na, doctor_section(dr, "top.txt"));
	if (na == 0) {
		util_cause(cause, "the capture has no samples (before.txt, after.txt, top.txt) and "
		    "no vmstat-i.txt or netstat-Q.txt: nothing to diagnose");
		return -1;
	}
	rc = diag_captures(NULL, 0, after, na, 0, os, &dr->d, cause);
	free_names(after, na);
	return rc;
}

/* What the box is: its host name, platform, CPUs and NICs. */
static void
system_of(const struct doctor *dr, struct doctor_system *o)
{
	const struct kb_sysinfo *si = &dr->si;
	size_t i;

	o->host = xstrdup(dr->host);
	o->platform = xstrdup(os_platform_name(si->sys.platform));
	o->version = si->sys.version != NULL ? xstrdup(si->sys.version) : NULL;
	o->ncpu = si->sys.ncpu;
	o->ncores = si->sys.ncores;
	o->smt = si->sys.smt < 0 ? -1 : si->sys.smt != 0;
	o->rss_kernel = si->sys.rss_kernel < 0 ? -1 : si->sys.rss_kernel != 0;
	o->nics = xcalloc(si->nnics + 1, sizeof *o->nics);
	for (i = 0; i < si->nnics; i++) {
		o->nics[o->nnics].name = xstrdup(si->nics[i].name);
		o->nics[o->nnics].driver = xstrdup(si->nics[i].driver);
		o->nics[o->nnics++].queues = si->nics[i].queues;
	}
}

/* Per-CPU load over the interval (or top's display), for the chart. */
static void
cpus_of(const struct diag_result *d, struct doctor_doc *doc)
{
	json_t *busy, *soft;
	char key[64];
	int i;

	for (i = 0; i < 4096; i++) {
		snprintf(key, sizeof key, "cpu.%d.busy", i);
		if ((busy = json_object_get(d->metrics, key)) == NULL)
			break;
		snprintf(key, sizeof key, "cpu.%d.soft", i);
		soft = json_object_get(d->metrics, key);
		doc->cpu = xreallocarray(doc->cpu, doc->ncpu + 1, sizeof *doc->cpu);
		doc->cpu[doc->ncpu++] = (struct doctor_cpu){ .cpu = i, .busy = json_number_value(busy),
		    .interrupt = soft != NULL ? json_number_value(soft) : 0.0 };
	}
}

/* A metric of the diagnosis, NaN when it has none. */
static double
metric(const struct diag_result *d, const char *fmt, const char *name)
{
	json_t *v;
	char key[128];

	snprintf(key, sizeof key, fmt, name);
	v = json_object_get(d->metrics, key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The load, with what the box's own counters saw of it over the samples (malloc'd). */
static struct doctor_load *
load_copy(const struct doctor *dr)
{
	struct doctor_load *l = xmalloc(sizeof *l);

	*l = *dr->o->load;
	l->dut_in_pps = dr->secs > 0 ? metric(dr->d, "if.%s.rx_pps", l->dut_in) : NAN;
	l->dut_out_pps = dr->secs > 0 ? metric(dr->d, "if.%s.tx_pps", l->dut_out) : NAN;
	if (l->rate <= 0)
		l->rate = -1;
	return l;
}

/* The document: what the pass found, moved out of dr (its items, fine, notes, profiles). */
static void
document(struct doctor *dr, struct doctor_doc *doc)
{
	size_t i;

	doc->schema = xstrdup(DOCTOR_SCHEMA);
	doc->version = DOCTOR_VERSION;
	doc->source = xstrdup(dr->o->source ? dr->o->source : "");
	doc->dut = xstrdup(dr->dut);
	system_of(dr, &doc->system);
	doc->interval_s = dr->secs;
	doc->interval_from = dr->secs_from != NULL ? xstrdup(dr->secs_from) : NULL;
	doc->interval_note = dr->secs_from != NULL && dr->secs_note != NULL ?
	    xstrdup(dr->secs_note) : NULL;
	doc->reading = dr->pastes && dr->secs <= 0 ? doctor_paste_reading(dr) : NULL;
	if (dr->o->load != NULL)
		doc->load = load_copy(dr);
	for (i = 0; i < dr->d->nnotes; i++)
		dr->notes = util_strv_add(dr->notes, &dr->nnotes, dr->d->notes[i]);
	cpus_of(dr->d, doc);
	doc->diagnosis = diag_to_json(dr->d);
	doctor_profiles(dr, doc);
	doc->items = xcalloc(dr->nitems + 1, sizeof *doc->items);
	for (i = 0; i < dr->nitems; i++) {
		doc->items[i] = *dr->items[i];
		free(dr->items[i]);
	}
	doc->nitems = dr->nitems;
	free(dr->items);
	dr->items = NULL;
	dr->nitems = 0;
	doc->fine = dr->fine;
	doc->nfine = dr->nfine;
	doc->notes = dr->notes;
	doc->nnotes = dr->nnotes;
	doc->profiles = dr->profiles;
	doc->nprofiles = dr->nprofiles;
	dr->fine = dr->notes = NULL;
	dr->nfine = dr->nnotes = 0;
	dr->profiles = NULL;
}

static void
doctor_free(struct doctor *dr)
{
	size_t i;

	for (i = 0; i < dr->nfiles; i++) {
		kb_diags_free(dr->files[i].d, dr->files[i].nd);
		free(dr->files[i].cls);
		kb_profile_free(dr->files[i].p);
		free(dr->files[i].shown);
	}
	free(dr->files);
	free(dr->secs_note);
	if (dr->adv != NULL)
		kb_advice_free(dr->adv, dr->nadv);
	if (dr->d != NULL)
		diag_result_free(dr->d);
	if (dr->si_open)
		kb_sysinfo_free(&dr->si);
	if (dr->os != NULL)
		os_close(dr->os);
	if (dr->own_kb != NULL)
		kb_free(dr->own_kb);
	for (i = 0; i < dr->nitems; i++)
		doctor_item_free(dr->items[i]);
	free(dr->items);
	util_strv_free(dr->fine, dr->nfine);
	util_strv_free(dr->notes, dr->nnotes);
	json_decref(dr->claimed);
	json_decref(dr->current);
	json_decref(dr->shown_lines);
}

int
doctor_run(const struct capture_set *set, const struct doctor_opts *o, struct doctor_doc *doc,
    char **cause)
{
	struct doctor dr;
	int rc = -1;

	memset(&dr, 0, sizeof dr);
	dr.o = o;
	dr.set = set;
	dr.pastes = set->n > 0 && doctor_is_paste(&set->v[0]);
	dr.claimed = json_object();
	dr.current = json_object();
	dr.shown_lines = json_object();
	memset(doc, 0, sizeof *doc);
	if ((dr.kb = o->kb) == NULL) {
		if (kb_load(NULL, &dr.own_kb, cause) == -1)
			goto out;
		dr.kb = dr.own_kb;
	}
	if (open_system(&dr, cause) == -1)
		goto out;
	find_host(&dr);
	if (read_files(&dr, cause) == -1 || diagnose(&dr, cause) == -1)
		goto out;
	text_errors(&dr);
	check_files(&dr);
	/* pastes without a CPU count: no advice (it derives from the count), said in a note */
	if (dr.pastes && dr.si.sys.ncpu <= 0)
		dr.notes = util_strv_add(dr.notes, &dr.nnotes, "the CPU count is unknown (no top -P "
		    "or sysctl hw.ncpu in the pastes): no tuning advice");
	else if (kb_advise(dr.kb, &dr.si.sys, KB_GOAL_FORWARDING, KB_ROLE_ROUTER, &dr.adv,
	    &dr.nadv, cause) == -1)
		goto out;
	diag_order_advice(dr.d, dr.adv, dr.nadv);
	doctor_items_bottlenecks(&dr);
	doctor_items_files(&dr);
	doctor_fine(&dr);
	document(&dr, doc);
	rc = 0;
out:
	doctor_free(&dr);
	return rc;
}
