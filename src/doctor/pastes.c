/*
 * doctor --from over what a router owner pastes: its own capture (a directory with
 * uname.txt, or a file of the capture script's output), else pastes with any names: a
 * file, several, a folder of them, or - (stdin). Each paste is a section "paste:PATH";
 * doctor reads the system from their text (the inspect readers), diagnoses them with the
 * counters readers (FreeBSD or Linux, told by their content), and says what they lacked
 * with the command that shows it.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diag/diag.h"
#include "doctor/doctor.h"
#include "doctor/doctor_impl.h"
#include "kb/system.h"
#include "os/fbsd_text.h"
#include "os/os.h"
#include "os/platform.h"
#include "os/snapshot.h"
#include "remote/capture.h"
#include "util/util.h"

#define PASTE_PREFIX	"paste:"
#define MAX_PASTES	256

/* A paste; one with a NUL byte (a screenshot) is kept as a failed section (status 1), no text. */
static void
add_paste(struct capture_set *set, const char *path, const char *text, size_t len)
{
	char *name;

	xasprintf(&name, PASTE_PREFIX "%s", path);
	if (memchr(text, '\0', len) != NULL)
		capture_set_add(set, name, "", 0, 1);
	else
		capture_set_add(set, name, text, len, 0);
	free(name);
}

static int
read_stream(FILE *f, const char *name, struct capture_set *set, char **cause)
{
	struct strbuf sb;
	char buf[8192];
	size_t n;

	strbuf_init(&sb);
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		strbuf_add(&sb, buf, n);
	if (ferror(f)) {
		strbuf_free(&sb);
		util_cause(cause, "cannot read '%s': %s", name, strerror(errno));
		return -1;
	}
	add_paste(set, name, sb.len > 0 ? sb.buf : "", sb.len);
	strbuf_free(&sb);
	return 0;
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A folder of pastes: its regular files (not hidden ones), in name order. */
static int
read_folder(const char *dir, struct capture_set *set, char **cause)
{
	char *names[MAX_PASTES], *path, *data;
	struct dirent *de;
	struct stat st;
	size_t n = 0, i, len;
	DIR *d;
	int rc = 0;

	if ((d = opendir(dir)) == NULL) {
		util_cause(cause, "cannot open '%s': %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL && n < MAX_PASTES)
		if (de->d_name[0] != '.')
			names[n++] = xstrdup(de->d_name);
	closedir(d);
	qsort(names, n, sizeof *names, cmp_names);
	for (i = 0; i < n; i++) {
		xasprintf(&path, "%s/%s", dir, names[i]);
		if (rc == 0 && lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
		    (rc = util_read_file(path, &data, &len, cause)) == 0) {
			add_paste(set, path, data, len);
			free(data);
		}
		free(path);
		free(names[i]);
	}
	return rc;
}

/* The capture script's first line, "::TOKEN:: ntune-capture 1", anywhere in text. */
static bool
is_capture(const char *text)
{
	const char *p = strstr(text, ":: ntune-capture ");

	return p != NULL && (p == text || p[-1] != '\n');
}

static bool
own_capture_dir(const char *path)
{
	struct stat st;
	char *u;
	bool yes;

	xasprintf(&u, "%s/uname.txt", path);
	yes = lstat(u, &st) == 0 && S_ISREG(st.st_mode);
	free(u);
	return yes;
}

static int
add_path(const char *path, struct capture_set *set, char **cause)
{
	struct stat st;
	char *data;
	size_t len;

	if (strcmp(path, "-") == 0)
		return read_stream(stdin, "-", set, cause);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return read_folder(path, set, cause);
	if (util_read_file(path, &data, &len, cause) != 0)
		return -1;
	add_paste(set, path, data, len);
	free(data);
	return 0;
}

int
doctor_from_load(const char *const *paths, size_t n, struct capture_set *set, char **cause)
{
	char *text;
	size_t i, len;
	int rc;

	memset(set, 0, sizeof *set);
	if (n == 1 && strcmp(paths[0], "-") != 0 && own_capture_dir(paths[0]))
		return capture_load(paths[0], set, cause);
	for (i = 0; i < n; i++)
		if (add_path(paths[i], set, cause) != 0) {
			capture_set_free(set);
			return -1;
		}
	/* one file of the capture script's output (pasted with anything around it) */
	if (n == 1 && set->n == 1 && is_capture(set->v[0].text)) {
		text = set->v[0].text;
		len = set->v[0].len;
		set->v[0].text = NULL;
		capture_set_free(set);
		rc = capture_parse(text, len, paths[0], set, cause);
		free(text);
		return rc;
	}
	if (set->n == 0) {
		util_cause(cause, "%s: no capture files (uname.txt, sysctl-a.txt, ...) or pastes in it",
		    paths[0]);
		return -1;
	}
	set->origin = xstrdup(paths[0]);
	return 0;
}

bool
doctor_is_paste(const struct capture_section *s)
{
	return strncmp(s->name, PASTE_PREFIX, strlen(PASTE_PREFIX)) == 0;
}

const char *
doctor_paste_path(const struct capture_section *s)
{
	return s->name + strlen(PASTE_PREFIX);
}

/*
 * Linux pastes: the Linux reader reads a paste the FreeBSD one cannot, or gets more
 * counters from them.
 */
static bool
pastes_linux(const struct capture_set *set)
{
	struct os_counters f, l;
	char *cause = NULL;
	size_t i, nf = 0, nl = 0, only_linux = 0;
	int rf, rl;

	for (i = 0; i < set->n; i++) {
		memset(&f, 0, sizeof f);
		memset(&l, 0, sizeof l);
		if ((rf = os_counters_text(set->v[i].text, set->v[i].len, "p", &f, &cause)) != 0)
			free(cause);
		cause = NULL;
		if ((rl = os_counters_text_linux(set->v[i].text, set->v[i].len, "p", &l, &cause)) != 0)
			free(cause);
		cause = NULL;
		only_linux += rf != 0 && rl == 0;
		nf += f.n;
		nl += l.n;
		os_counters_free(&f);
		os_counters_free(&l);
	}
	return only_linux > 0 || nl > nf;
}

int
doctor_pastes_open(struct doctor *dr, char **cause)
{
	struct fbsd_text *t = fbsd_text_new();
	enum os_platform pf = OS_PLATFORM_UNKNOWN;
	size_t i;

	for (i = 0; i < dr->set->n; i++) {
		fbsd_text_add(t, dr->set->v[i].text, dr->set->v[i].len,
		    doctor_paste_path(&dr->set->v[i]));
		if (pf == OS_PLATFORM_UNKNOWN)
			pf = os_platform_in_text(dr->set->v[i].text);
	}
	/* what the inspect readers could not read is the diagnosis's to say (its notes) */
	dr->pastes_system = fbsd_text_kinds(t)[0] != '\0';
	dr->os = os_open_doc(fbsd_text_doc(t));
	fbsd_text_free(t);
	if (kb_system_from_os(dr->os, &dr->si, cause) == -1)
		return -1;
	dr->si_open = true;
	dr->linux = pastes_linux(dr->set);
	if (dr->linux)
		dr->si.sys.platform = OS_PLATFORM_LINUX;
	else if (pf != OS_PLATFORM_UNKNOWN && pf != OS_PLATFORM_LINUX)
		dr->si.sys.platform = pf;
	else if (os_platform_family(dr->si.sys.platform) != OS_PLATFORM_FREEBSD)
		dr->si.sys.platform = OS_PLATFORM_FREEBSD;
	return 0;
}

/* What the pastes did not include, and the command that shows it (a note each). */
static void
missing(struct doctor *dr)
{
	static const struct {
		int	 os;		/* 0 FreeBSD, 1 Linux */
		const char *metric, *what, *run;
	} need[] = {
		{ 0, "cpu.busy_max", "no top -P: how busy each CPU is unseen", "top -HSPz -s 5 -d 2" },
		{ 0, "irq.", "no vmstat -i: queue balance unseen", "vmstat -i" },
		{ 0, "ithr.", "no top -HSP threads: which queue or netisr thread is busy unseen",
		    "top -HSPz -s 5 -d 2" },
		{ 0, "net.rx_pps", "no netstat -ihw 1: packet rates and drops per second unseen",
		    "netstat -ihw 1 -q 5" },
		{ 1, "cpu.busy_max", "no per-CPU load: saturation unseen", "mpstat -P ALL 1 5" },
		{ 1, "irq.", "no /proc/interrupts: queue balance unseen", "cat /proc/interrupts" },
		{ 1, "if.", "no /proc/net/dev: interface drops unseen", "cat /proc/net/dev" },
	};
	size_t i;
	char *n;

	for (i = 0; i < nitems(need); i++) {
		if (need[i].os != (dr->linux ? 1 : 0) || diag_has_metric(dr->d->metrics, need[i].metric))
			continue;
		/* the kthr. threads of iflib stand for the queue threads of ithr. */
		if (strcmp(need[i].metric, "ithr.") == 0 && diag_has_metric(dr->d->metrics, "kthr."))
			continue;
		if (strcmp(need[i].metric, "net.rx_pps") == 0 && diag_has_metric(dr->d->metrics, "if."))
			continue;
		xasprintf(&n, "%s (run: %s)", need[i].what, need[i].run);
		dr->notes = util_strv_add(dr->notes, &dr->nnotes, n);
		free(n);
	}
}

/* The CPU count from the pastes' CPU lines when the system text did not say (not from top's aggregate). */
static void
cpus(struct doctor *dr)
{
	json_t *n = json_object_get(dr->d->metrics, "ncpu");
	size_t i;

	if (dr->si.sys.ncpu > 0 || !json_is_number(n))
		return;
	for (i = 0; i < dr->d->nnotes; i++)
		if (strstr(dr->d->notes[i], "read as the box's one CPU") != NULL)
			return;
	dr->si.sys.ncpu = (int)json_number_value(n);
}

/* The kinds of counters the header names: totals since boot, then displays and rates of now. */
static const struct {
	const char *prefix, *what;
	bool	 now;
} kind[] = {
	{ "cpu.", "CPU tick counters", false }, { "if.", "interface counters", false },
	{ "irq.", "interrupt counts", false }, { "netisr.", "netisr counters", false },
	{ "softnet.", "softnet_stat", false }, { "nic.", "NIC counters", false },
	{ "pf.", "pf counters", false }, { "mbuf.", "mbuf counters", false },
	{ "snmp.", "protocol counters", false }, { "top.cpu.", "top's CPU lines", true },
	{ "ithr.", "top's threads", true }, { "kthr.", "top's threads", true },
	{ "ifw.", "interface rates", true }, { "ifs.", "systat -ifstat rates", true },
	{ "irqrate.", "vmstat -i rates", true },
};

static void
kinds(struct doctor *dr, const struct os_counters *c)
{
	size_t i, k, l;

	for (i = 0; i < c->n; i++)
		for (k = 0; k < nitems(kind); k++) {
			l = strlen(kind[k].prefix);
			/* cpu.N.user, not top.cpu. (its own kind) */
			if (strncmp(c->v[i].name, kind[k].prefix, l) == 0 &&
			    (k != 0 || isdigit((unsigned char)c->v[i].name[l])))
				dr->paste_kinds |= 1u << k;
		}
}

/* "of A, B and C": the kinds of one sort (now or since boot) the pastes gave, once each. */
static void
kind_list(const struct doctor *dr, bool now, struct strbuf *sb)
{
	const char *said[nitems(kind)];
	size_t k, j, n = 0, total = 0;

	for (k = 0; k < nitems(kind); k++)
		if ((dr->paste_kinds & 1u << k) && kind[k].now == now)
			total++;
	for (k = 0; k < nitems(kind); k++) {
		if (!(dr->paste_kinds & 1u << k) || kind[k].now != now)
			continue;
		for (j = 0; j < n && strcmp(said[j], kind[k].what) != 0; j++)
			;
		if (j < n) {
			total--;
			continue;
		}
		strbuf_addf(sb, "%s%s", n == 0 ? "" : n + 1 == total ? " and " : ", ", kind[k].what);
		said[n++] = kind[k].what;
	}
}

char *
doctor_paste_reading(const struct doctor *dr)
{
	struct strbuf sb;
	unsigned since = 0, now = 0;
	size_t k;

	for (k = 0; k < nitems(kind); k++)
		if (dr->paste_kinds & 1u << k)
			*(kind[k].now ? &now : &since) |= 1u << k;
	if (since == 0 && now == 0)
		return NULL;
	strbuf_init(&sb);
	strbuf_adds(&sb, dr->set->n == 1 ? "from a paste: " : "from pastes: ");
	if (since != 0) {
		strbuf_adds(&sb, "one reading of the ");
		kind_list(dr, false, &sb);
		strbuf_adds(&sb, " (totals since boot; their rates unknown)");
	}
	if (now != 0) {
		strbuf_adds(&sb, since != 0 ? "; " : "");
		kind_list(dr, true, &sb);
		strbuf_adds(&sb, " (of now)");
	}
	return strbuf_detach(&sb);
}

/*
 * A paste of several (a folder with a screenshot, a file of another system's output) that
 * its reader cannot read at all is left out with a note; the rest is diagnosed. 0 read.
 */
static int
readable(struct doctor *dr, const struct capture_section *s, const char *os, char **first)
{
	struct os_counters t;
	char *why = NULL, *n;
	int rc;

	memset(&t, 0, sizeof t);
	if (s->status != 0) {
		xasprintf(&why, "%s: binary data, not command output", doctor_paste_path(s));
		rc = -1;
	} else
		rc = os_counters_paste(s->text, s->len, doctor_paste_path(s), os, &t, &why);
	kinds(dr, &t);
	os_counters_free(&t);
	if (rc == 0)
		return 0;
	xasprintf(&n, "left out: %s", why);
	dr->notes = util_strv_add(dr->notes, &dr->nnotes, n);
	free(n);
	if (*first == NULL)
		*first = why;
	else
		free(why);
	return -1;
}

/* Pastes of the system only: a diagnosis of nothing, whose notes say what to paste. */
static int
no_counters(struct doctor *dr, const char *os, char **cause)
{
	struct diag_rules *rs;
	struct os_counters none;
	int rc;

	memset(&none, 0, sizeof none);
	if (diag_rules_load(NULL, &rs, cause) != 0)
		return -1;
	rc = diag_evaluate(rs, NULL, &none, 0, os, "", &dr->d, cause);
	diag_rules_free(rs);
	return rc;
}

int
doctor_pastes_diagnose(struct doctor *dr, char **cause)
{
	struct diag_capture *c = xcalloc(dr->set->n, sizeof *c);
	const char *os = dr->linux ? "linux" : os_platform_name(dr->si.sys.platform);
	char *first = NULL;
	size_t i, n = 0;
	int rc = -1;

	for (i = 0; i < dr->set->n; i++) {
		if (readable(dr, &dr->set->v[i], os, &first) != 0)
			continue;
		c[n].name = doctor_paste_path(&dr->set->v[i]);
		c[n].text = dr->set->v[i].text;
		c[n++].len = dr->set->v[i].len;
	}
	dr->secs = 0;
	dr->secs_from = NULL;
	if (n == 0 && !dr->pastes_system)
		util_cause(cause, "%s", first);
	else if (n == 0)
		rc = no_counters(dr, os, cause);	/* dmesg, pciconf, ifconfig: the system, no sample */
	else
		rc = diag_captures(NULL, 0, c, n, 0, os, &dr->d, cause);
	if (rc == 0) {
		missing(dr);
		cpus(dr);
	}
	free(first);
	free(c);
	return rc;
}
