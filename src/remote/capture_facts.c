/*
 * The text of ethtool, tc and /proc made facts per interface (capture_facts.h).
 * ethtool's formats are those of ethtool 6.1 (Debian's source package): ethtool.c
 * dump_drvinfo for -i, netlink/rings.c, channels.c, coalesce.c, pause.c and
 * features.c for -g, -l, -c, -a and -k (show_u32 prints "n/a" for what the kernel
 * did not report: the kernel's ioctl answers 0 there), and the ioctl-era output of
 * older ethtool, which has the same lines.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "os/os_impl.h"
#include "remote/capture_facts.h"
#include "util/util.h"

/*
 * ethtool's legacy flags (common.c off_flag_def): ntune's short name (linux_ethtool.c
 * offloads[]), the long name `ethtool -k` prints, and the kernel feature it stands for
 * when it is the only one (a pattern with '*' never is named alone). ethtool prints a
 * flag "on" when any of its features is (netlink/features.c dump_features), as the
 * kernel's legacy ETHTOOL_G* ioctls answer (net/ethtool/ioctl.c ethtool_get_feature_mask).
 */
static const struct legacy {
	const char	*shortname;
	const char	*longname;
	const char	*kernel;
} legacy[] = {
	{ "rxcsum", "rx-checksumming", "rx-checksum" },
	{ "txcsum", "tx-checksumming", NULL },
	{ "sg", "scatter-gather", NULL },
	{ "tso", "tcp-segmentation-offload", NULL },
	{ NULL, "udp-fragmentation-offload", "tx-udp-fragmentation" },
	{ "gso", "generic-segmentation-offload", "tx-generic-segmentation" },
	{ "gro", "generic-receive-offload", "rx-gro" },
	{ "lro", "large-receive-offload", "rx-lro" },
	{ "rxvlan", "rx-vlan-offload", "rx-vlan-hw-parse" },
	{ "txvlan", "tx-vlan-offload", "tx-vlan-hw-insert" },
	{ "ntuple", "ntuple-filters", "rx-ntuple-filter" },
	{ "rxhash", "receive-hashing", "rx-hashing" },
};

/* What each ethtool option reads, as the Linux backend's notes name it (linux_nics.c). */
static const char *
group_of(char opt)
{
	switch (opt) {
	case 'i': return "driver info";
	case 'g': return "rings";
	case 'l': return "channels";
	case 'c': return "coalescing";
	case 'k': return "offloads";
	default: return "flow control";
	}
}

bool
capture_ifname_ok(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || n > CAPTURE_IFNAME_MAX || s[0] == '-' || (n == 1 && s[0] == '.') ||
	    (n == 2 && s[0] == '.' && s[1] == '.'))
		return false;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && strchr("_.@+-", s[i]) == NULL)
			return false;
	return true;
}

struct capture_if_facts *
capture_facts_if(struct capture_facts *f, const char *ifname)
{
	struct capture_if_facts *e;
	size_t i;

	for (i = 0; i < f->n; i++)
		if (strcmp(f->v[i].name, ifname) == 0)
			return &f->v[i];
	/* past the limit the callers check, the last one stands in (never written twice) */
	if (f->n >= CAPTURE_IF_MAX)
		return &f->v[f->n - 1];
	f->v = xreallocarray(f->v, f->n + 1, sizeof *f->v);
	e = &f->v[f->n++];
	memset(e, 0, sizeof *e);
	snprintf(e->name, sizeof e->name, "%s", ifname);
	strbuf_init(&e->text);
	return e;
}

void
capture_facts_free(struct capture_facts *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		strbuf_free(&f->v[i].text);
	free(f->v);
	free(f->threads);
	memset(f, 0, sizeof *f);
}

/* The text being parsed: lines of a copy, and where they are for messages. */
struct lines {
	const char	*where;
	size_t		 line;
	char		**cause;
};

static int
lerr(struct lines *l, const char *what, const char *s)
{
	util_cause(l->cause, "%s:%zu: %s '%.80s'", l->where, l->line, what, s);
	return -1;
}

/* A count as ethtool prints it: digits, or "n/a" (not reported: the ioctl's 0). */
static int
count_value(const char *s, unsigned long *v)
{
	char *end;

	if (strcmp(s, "n/a") == 0) {
		*v = 0;
		return 0;
	}
	if (!isdigit((unsigned char)*s))
		return -1;
	*v = strtoul(s, &end, 10);
	return *end == '\0' && *v <= 0xffffffffUL ? 0 : -1;
}

/* "Key:<blanks>value": key and value (trimmed) in place; -1 when there is no colon. */
static int
key_value(char *line, char **key, char **value)
{
	char *colon = strchr(line, ':');

	if (colon == NULL || colon == line)
		return -1;
	*colon = '\0';
	*key = util_trim(line);
	*value = util_trim(colon + 1);
	return **key == '\0' ? -1 : 0;
}

/* ethtool -i (ethtool.c dump_drvinfo): "driver: veth", "version: 1.0", ... */
static int
drvinfo_line(struct lines *l, struct strbuf *out, char *line, int *seen)
{
	static const char *const map[][2] = { { "driver", "driver" },
	    { "version", "driver_version" }, { "firmware-version", "firmware" },
	    { "bus-info", "bus" } };
	char *k, *v, copy[256];
	size_t i;

	snprintf(copy, sizeof copy, "%s", line);
	if (key_value(line, &k, &v) == -1)
		return lerr(l, "not a line of ethtool -i:", copy);
	for (i = 0; i < nitems(map); i++) {
		if (strcmp(k, map[i][0]) == 0) {
			strbuf_addf(out, "%s %s\n", map[i][1], v);
			*seen |= i == 0;
		}
	}
	return 0;
}

/* ethtool -g / -l: "Pre-set maximums:", "Current hardware settings:", "RX:\t\t256". */
static int
counted_line(struct lines *l, char opt, struct strbuf *out, char *line, int *part)
{
	static const char *const rings[][2] = { { "RX", "rx" }, { "RX Mini", "rx-mini" },
	    { "RX Jumbo", "rx-jumbo" }, { "TX", "tx" } };
	static const char *const channels[][2] = { { "RX", "rx" }, { "TX", "tx" },
	    { "Other", "other" }, { "Combined", "combined" } };
	const char *const (*map)[2] = opt == 'g' ? rings : channels;
	char *k, *v, copy[256];
	unsigned long n;
	size_t i;

	snprintf(copy, sizeof copy, "%s", line);
	if (key_value(line, &k, &v) == -1)
		return lerr(l, opt == 'g' ? "not a line of ethtool -g:" : "not a line of ethtool -l:",
		    copy);
	if (strcmp(k, "Pre-set maximums") == 0 || strcmp(k, "Current hardware settings") == 0) {
		*part |= k[0] == 'P' ? 1 : 2;
		return 0;
	}
	if (*part == 0)
		return 0;	/* "Ring parameters for eth0:" */
	for (i = 0; i < 4; i++) {
		if (strcmp(k, map[i][0]) != 0)
			continue;
		if (count_value(v, &n) == -1)
			return lerr(l, "not a count:", copy);
		strbuf_addf(out, "%s.%s%s %lu\n", opt == 'g' ? "ring" : "channels",
		    *part == 1 ? "max." : "", map[i][1], n);
	}
	return 0;
}

/* "off", "on", "n/a" (netlink.h u8_to_bool) as 0 or 1; -1 for anything else. */
static int
onoff(const char *s)
{
	if (strcmp(s, "on") == 0)
		return 1;
	return strcmp(s, "off") == 0 || strcmp(s, "n/a") == 0 ? 0 : -1;
}

/* ethtool -c: "Adaptive RX: off  TX: n/a", "rx-usecs: 0", "CQE mode RX: n/a  TX: n/a". */
static int
coalesce_line(struct lines *l, struct strbuf *out, char *line, int *seen)
{
	static const char *const counts[] = { "rx-usecs", "tx-usecs", "rx-frames", "tx-frames" };
	char *k, *v, *tx, copy[256];
	unsigned long n;
	int a, b;
	size_t i;

	snprintf(copy, sizeof copy, "%s", line);
	if (key_value(line, &k, &v) == -1)
		return lerr(l, "not a line of ethtool -c:", copy);
	if (strcmp(k, "Adaptive RX") == 0) {
		if ((tx = strstr(v, "  TX:")) == NULL)
			return lerr(l, "not a line of ethtool -c:", copy);
		*tx = '\0';
		if ((a = onoff(util_trim(v))) < 0 || (b = onoff(util_trim(tx + 5))) < 0)
			return lerr(l, "not on, off or n/a:", copy);
		strbuf_addf(out, "coalesce.adaptive-rx %d\ncoalesce.adaptive-tx %d\n", a, b);
		*seen = 1;
		return 0;
	}
	for (i = 0; i < nitems(counts); i++) {
		if (strcmp(k, counts[i]) != 0)
			continue;
		if (count_value(v, &n) == -1)
			return lerr(l, "not a count:", copy);
		strbuf_addf(out, "coalesce.%s %lu\n", counts[i], n);
		*seen = 1;
	}
	return 0;
}

/* ethtool -a (netlink/pause.c): "Autonegotiate:\ton", "RX:\t\toff", "TX:\t\toff". */
static int
pause_line(struct lines *l, char *line, int *rx, int *tx)
{
	char *k, *v, copy[256];
	int on;

	snprintf(copy, sizeof copy, "%s", line);
	if (key_value(line, &k, &v) == -1)
		return lerr(l, "not a line of ethtool -a:", copy);
	if (strcmp(k, "RX") != 0 && strcmp(k, "TX") != 0)
		return 0;
	if ((on = onoff(v)) < 0)
		return lerr(l, "not on or off:", copy);
	*(k[0] == 'R' ? rx : tx) = on;
	return 0;
}

/* ethtool -k: "[\t]name: on|off[ [fixed]| [requested on]| [requested off]]". */
static int
feature_line(struct lines *l, struct strbuf *out, char *line, int *seen)
{
	bool sub = line[0] == '\t';
	char *k, *v, copy[256], *sp;
	size_t i;
	int on;

	snprintf(copy, sizeof copy, "%s", line);
	if (key_value(line, &k, &v) == -1)
		return lerr(l, "not a line of ethtool -k:", copy);
	if (strncmp(k, "Features for ", 13) == 0 && *v == '\0' && !sub)
		return 0;
	if (strchr(k, ' ') != NULL)
		return lerr(l, "not a line of ethtool -k:", copy);
	if ((sp = strchr(v, ' ')) != NULL) {
		if (strcmp(sp, " [fixed]") != 0 && strcmp(sp, " [requested on]") != 0 &&
		    strcmp(sp, " [requested off]") != 0)
			return lerr(l, "not a line of ethtool -k:", copy);
		*sp = '\0';
	}
	if ((on = onoff(v)) < 0 || strcmp(v, "n/a") == 0)
		return lerr(l, "not on or off:", copy);
	*seen = 1;
	for (i = 0; !sub && i < nitems(legacy); i++) {
		if (strcmp(k, legacy[i].longname) != 0)
			continue;
		if (legacy[i].shortname != NULL)
			strbuf_addf(out, "offload.%s %s\n", legacy[i].shortname, v);
		/* named alone: the kernel feature it is (its own line is not printed) */
		if (legacy[i].kernel != NULL)
			strbuf_addf(out, "offload.%s %s\n", legacy[i].kernel, v);
		return 0;
	}
	strbuf_addf(out, "offload.%s %s\n", k, v);
	return 0;
}

/* Trailing white space off, in place. */
static char *
trim_end(char *s)
{
	size_t n = strlen(s);

	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* What a failed block said: its last line, made one line of at most 200 bytes. */
static void
failed_block(struct strbuf *out, char opt, char *const *v, size_t n)
{
	char msg[201] = "";
	size_t i;

	while (n > 0 && *trim_end(v[n - 1]) == '\0')
		n--;
	if (n > 0)
		snprintf(msg, sizeof msg, "%s", v[n - 1]);
	for (i = 0; msg[i] != '\0'; i++)
		if (iscntrl((unsigned char)msg[i]))
			msg[i] = ' ';
	if (strstr(msg, "Operation not supported") != NULL || strstr(msg, "Invalid argument") != NULL)
		strbuf_addf(out, "unsupported %s\n", group_of(opt));
	else
		strbuf_addf(out, "unread %s: %s\n", group_of(opt), msg[0] != '\0' ? msg :
		    "ethtool failed and said nothing");
}

/* One block of an ethtool section: its n lines v (the first at line first + 1), its status. */
static int
ethtool_block(struct lines *l, char opt, const char *ifname, struct strbuf *out, char *const *v,
    size_t n, size_t first, int status)
{
	struct strbuf got;
	size_t i;
	int seen = 0, rc = 0, rx = 0, tx = 0;

	if (status != 0) {
		failed_block(out, opt, v, n);
		return 0;
	}
	strbuf_init(&got);
	for (i = 0; rc == 0 && i < n; i++) {
		l->line = first + i + 1;
		if (*trim_end(v[i]) == '\0')
			continue;
		switch (opt) {
		case 'i': rc = drvinfo_line(l, &got, v[i], &seen); break;
		case 'g': case 'l': rc = counted_line(l, opt, &got, v[i], &seen); break;
		case 'c': rc = coalesce_line(l, &got, v[i], &seen); break;
		case 'k': rc = feature_line(l, &got, v[i], &seen); break;
		default: rc = pause_line(l, v[i], &rx, &tx); seen = 1; break;
		}
	}
	if (rc == 0 && (opt == 'g' || opt == 'l' ? seen != 3 : seen == 0)) {
		util_cause(l->cause, "%s:%zu: the block of '%s' is not what ethtool -%c prints",
		    l->where, first, ifname, opt);
		rc = -1;
	}
	if (rc == 0 && opt == 'a')
		strbuf_addf(&got, "pause %s\n", rx && tx ? "on" : rx ? "rx" : tx ? "tx" : "off");
	if (rc == 0)
		strbuf_add(out, got.buf, got.len);
	strbuf_free(&got);
	return rc;
}

/* "::IF NAME STATUS": the name and status, or -1. */
static int
block_header(struct lines *l, const char *line, char name[CAPTURE_IFNAME_MAX + 1], int *status)
{
	const char *sp = strchr(line + 5, ' ');
	char *end;
	long st;

	if (sp == NULL || !capture_ifname_ok(line + 5, (size_t)(sp - line - 5)))
		return lerr(l, "bad interface block line (::IF NAME STATUS):", line);
	st = strtol(sp + 1, &end, 10);
	if (!isdigit((unsigned char)sp[1]) || *end != '\0' || st > 255)
		return lerr(l, "bad exit status in the interface block line:", line);
	memcpy(name, line + 5, (size_t)(sp - line - 5));
	name[sp - line - 5] = '\0';
	*status = (int)st;
	return 0;
}

/* The lines of a copy of text (NUL-terminated in place); a last empty one is left out. */
static char **
split_lines(char *copy, size_t *n)
{
	char **v = NULL, *line, *next;

	*n = 0;
	for (line = copy; line != NULL; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if (next == NULL && *line == '\0')
			break;
		v = xreallocarray(v, *n + 1, sizeof *v);
		v[(*n)++] = line;
	}
	return v;
}

int
capture_facts_ethtool(struct capture_facts *f, char opt, const char *where, const char *text,
    size_t len, char **cause)
{
	struct lines l = { where, 0, cause };
	char *copy = xstrndup(text, len), **v, name[CAPTURE_IFNAME_MAX + 1];
	char (*done)[CAPTURE_IFNAME_MAX + 1] = NULL;
	size_t n, i, j, k, ndone = 0;
	int status = 0, rc = 0;

	v = split_lines(copy, &n);
	for (i = 0; rc == 0 && i < n; i = j) {
		l.line = i + 1;
		if (strncmp(v[i], "::IF ", 5) != 0) {
			if (*trim_end(v[i]) != '\0')
				rc = lerr(&l, "text before the first '::IF' line:", v[i]);
			j = i + 1;
			continue;
		}
		if ((rc = block_header(&l, v[i], name, &status)) == -1)
			break;
		for (j = i + 1; j < n && strncmp(v[j], "::IF ", 5) != 0; j++)
			;
		for (k = 0; k < ndone; k++)
			if (strcmp(done[k], name) == 0)
				rc = lerr(&l, "an interface given twice:", name);
		if (rc == 0 && f->n >= CAPTURE_IF_MAX && strcmp(capture_facts_if(f, name)->name, name) != 0)
			rc = lerr(&l, "more interfaces than ntune reads (" CAPTURE_IF_MAX_S "):", name);
		done = xreallocarray(done, ndone + 1, sizeof *done);
		memcpy(done[ndone++], name, sizeof name);
		if (rc == 0)
			rc = ethtool_block(&l, opt, name, &capture_facts_if(f, name)->text, v + i + 1,
			    j - i - 1, i + 1, status);
	}
	free(done);
	free(v);
	free(copy);
	return rc;
}

int
capture_facts_qdisc(struct capture_facts *f, const char *where, const char *text, size_t len,
    char **cause)
{
	struct lines l = { where, 0, cause };
	char *copy = xstrndup(text, len), *line, *next, *w[64], *save, *p;
	size_t n, i;
	int rc = 0, any = 0, root;

	for (line = copy; rc == 0 && line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		l.line++;
		if (strncmp(line, "qdisc ", 6) != 0) {
			/* a qdisc's options go on over lines (taprio, cake) */
			if (!any && *trim_end(line) != '\0')
				rc = lerr(&l, "not a line of tc qdisc show:", line);
			continue;
		}
		any = 1;
		for (n = 0, p = strtok_r(line, " \t", &save); p != NULL && n < nitems(w);
		    p = strtok_r(NULL, " \t", &save))
			w[n++] = p;
		if (n < 5 || strlen(w[1]) > 32 || strspn(w[1], "abcdefghijklmnopqrstuvwxyz0123456789_-") !=
		    strlen(w[1]) || w[2][strlen(w[2]) - 1] != ':' ||
		    strspn(w[2], "0123456789abcdef:") != strlen(w[2]) || strcmp(w[3], "dev") != 0) {
			rc = lerr(&l, "not a qdisc line of tc qdisc show (qdisc KIND HANDLE: dev IF ...):",
			    w[0]);
			break;
		}
		for (root = 0, i = 5; i < n; i++)
			root |= strcmp(w[i], "root") == 0;
		if (root && capture_ifname_ok(w[4], strlen(w[4])) && f->n >= CAPTURE_IF_MAX &&
		    strcmp(capture_facts_if(f, w[4])->name, w[4]) != 0) {
			rc = lerr(&l, "more interfaces than ntune reads (" CAPTURE_IF_MAX_S "):", w[4]);
			break;
		}
		if (root && capture_ifname_ok(w[4], strlen(w[4])))
			strbuf_addf(&capture_facts_if(f, w[4])->text, "qdisc %s\n",
			    strcmp(w[2], "0:") == 0 ? "default" : w[1]);
	}
	free(copy);
	return rc;
}

int
capture_facts_napi(struct capture_facts *f, const char *where, const char *text, size_t len,
    char **cause)
{
	struct lines l = { where, 0, cause };
	unsigned char set[OS_MAXCPU];
	char *copy = xstrndup(text, len), *line, *next, *sp, *why = NULL;
	int rc = 0;

	for (line = copy; rc == 0 && line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		l.line++;
		trim_end(line);
		if (strncmp(line, "napi/", 5) == 0 && strchr(line, ' ') == NULL)
			continue;	/* the thread went before its status was read */
		if ((sp = strchr(line, ' ')) == NULL || strncmp(line, "napi/", 5) != 0 ||
		    (size_t)(sp - line) >= sizeof f->threads->comm) {
			rc = lerr(&l, "not a 'napi/IF-ID CPULIST' line:", line);
			break;
		}
		*sp++ = '\0';
		if (strlen(sp) >= sizeof f->threads->cpus || os_cpulist_parse(sp, set, &why) != 0) {
			free(why);
			why = NULL;
			rc = lerr(&l, "not a CPU list:", sp);
			break;
		}
		if (f->nthreads >= CAPTURE_THREADS_MAX) {
			rc = lerr(&l, "more NAPI threads than ntune reads (65536):", line);
			break;
		}
		f->threads = xreallocarray(f->threads, f->nthreads + 1, sizeof *f->threads);
		snprintf(f->threads[f->nthreads].comm, sizeof f->threads->comm, "%s", line);
		snprintf(f->threads[f->nthreads].cpus, sizeof f->threads->cpus, "%s", sp);
		f->nthreads++;
	}
	free(copy);
	return rc;
}

/*
 * Is comm a thread of ifname's NAPI: "napi/IF-ID" (net/core/dev.c napi_kthread_create),
 * or that cut at 15 characters (TASK_COMM_LEN)? Its ID, else -1.
 */
static long
napi_id(const char *comm, const char *ifname)
{
	char want[64];
	size_t n = (size_t)snprintf(want, sizeof want, "napi/%s-", ifname), c = strlen(comm);
	const char *id = comm + n;

	if (c < n)
		return c == 15 && strncmp(comm, want, c) == 0 ? 0 : -1;
	if (strncmp(comm, want, n) != 0 || (*id == '\0' && c != 15) ||
	    strspn(id, "0123456789") != strlen(id))
		return -1;
	return *id != '\0' ? strtol(id, NULL, 10) : 0;
}

struct napi_match {
	long	 id;
	char	 cpus[256];
};

static int
by_id_desc(const void *a, const void *b)
{
	long x = ((const struct napi_match *)a)->id, y = ((const struct napi_match *)b)->id;

	return x < y ? 1 : x > y ? -1 : 0;
}

char *
capture_facts_napi_cpus(const struct capture_facts *f, const char *ifname, const char *threaded,
    const char *online)
{
	struct napi_match *m = NULL;
	unsigned char set[OS_MAXCPU];
	char buf[256], **v = NULL, *out = NULL;
	size_t n = 0, nv = 0, i;
	long id;

	for (i = 0; threaded == NULL || strcmp(threaded, "0") != 0 ? i < f->nthreads : 0; i++) {
		if ((id = napi_id(f->threads[i].comm, ifname)) < 0)
			continue;
		m = xreallocarray(m, n + 1, sizeof *m);
		m[n].id = id;
		snprintf(m[n++].cpus, sizeof m->cpus, "%s", f->threads[i].cpus);
	}
	/* netdev-genl.c dumps an interface's NAPIs from the newest (highest ID) down */
	if (n > 0)
		qsort(m, n, sizeof *m, by_id_desc);
	for (i = 0; i < (n > 0 ? n : 1); i++) {
		if (os_cpulist_parse(n > 0 ? m[i].cpus : online, set, NULL) != 0)
			goto out;
		os_cpulist_format(set, buf, sizeof buf);
		v = util_strv_add(v, &nv, buf);
	}
	for (i = 1; i < nv && strcmp(v[i], v[0]) == 0; i++)
		;
	if (i == nv)
		out = xstrdup(v[0]);
	else {
		struct strbuf sb;

		strbuf_init(&sb);
		for (i = 0; i < nv; i++)
			strbuf_addf(&sb, "%s%s", i > 0 ? " " : "", v[i]);
		out = strbuf_detach(&sb);
	}
out:
	util_strv_free(v, nv);
	free(m);
	return out;
}

int
capture_facts_netns(const char *where, const char *text, size_t len, char *name, size_t nlen,
    char **cause)
{
	struct lines l = { where, 0, cause };
	char *copy = xstrndup(text, len), **v, self[32] = "", init[32] = "", *w[4], *save, *p;
	size_t n, i, k;
	int rc = 0;

	name[0] = '\0';
	v = split_lines(copy, &n);
	for (i = 0; rc == 0 && i < n; i++) {
		l.line = i + 1;
		for (k = 0, p = strtok_r(v[i], " ", &save); p != NULL && k < nitems(w);
		    p = strtok_r(NULL, " ", &save))
			w[k++] = p;
		if (k == 0)
			continue;
		if (k < 2 || strlen(w[1]) >= sizeof self || strspn(w[1], "0123456789") != strlen(w[1]) ||
		    (strcmp(w[0], "ns") == 0 ? k != 3 || strlen(w[2]) >= nlen ||
		    strcmp(w[2], ".") == 0 || strcmp(w[2], "..") == 0 :
		    k != 2 || (strcmp(w[0], "self") != 0 && strcmp(w[0], "init") != 0))) {
			rc = lerr(&l, "not a line of the namespace list (self INODE, init INODE, "
			    "ns INODE NAME):", w[0]);
			break;
		}
		for (p = k == 3 ? w[2] : ""; *p != '\0'; p++)
			if (iscntrl((unsigned char)*p) || *p == '/')
				rc = lerr(&l, "not a namespace name:", w[2]);
		if (strcmp(w[0], "self") == 0)
			snprintf(self, sizeof self, "%s", w[1]);
		else if (strcmp(w[0], "init") == 0)
			snprintf(init, sizeof init, "%s", w[1]);
		/* system.netns: the first name of ours, none in the host's (linux_system.c) */
		else if (rc == 0 && name[0] == '\0' && strcmp(w[1], self) == 0 &&
		    strcmp(self, init) != 0)
			snprintf(name, nlen, "%s", w[2]);
	}
	free(v);
	free(copy);
	return rc;
}

/* ls -l's mode ("-rw-------") as bits (read and write only), or -1. */
static int
ls_mode(const char *s)
{
	static const char want[] = "rwxrwxrwx";
	int mode = 0, i;

	if (strlen(s) < 10 || s[0] != '-')
		return -1;
	for (i = 0; i < 9; i++) {
		if (s[1 + i] == want[i])
			mode |= 1 << (8 - i);
		else if (s[1 + i] != '-' && !(i == 8 && s[9] == 't'))
			return -1;
	}
	return mode & 0666;
}

int
capture_facts_modes(const char *where, const char *text, size_t len,
    int (*fn)(void *arg, const char *path, int mode), void *arg, char **cause)
{
	struct lines l = { where, 0, cause };
	char *copy = xstrndup(text, len), **v, path[512], *p, *sp;
	size_t n, i;
	int rc = 0, mode;

	v = split_lines(copy, &n);
	for (i = 0; rc == 0 && i < n; i++) {
		l.line = i + 1;
		if (v[i][0] == '\0')
			continue;
		sp = strchr(v[i], ' ');
		p = strstr(v[i], " ./");
		if (sp != NULL)
			*sp = '\0';
		if (sp == NULL || p == NULL || (mode = ls_mode(v[i])) < 0 || strstr(p, "/../") != NULL ||
		    strstr(p, "/./") != NULL || strstr(p + 1, "//") != NULL || p[3] == '\0' ||
		    (size_t)snprintf(path, sizeof path, "/proc/sys/%s", p + 3) >= sizeof path) {
			if (sp != NULL)
				*sp = ' ';
			rc = lerr(&l, "not a line of ls -ld of a /proc/sys file:", v[i]);
			break;
		}
		rc = fn(arg, path, mode);
	}
	free(v);
	free(copy);
	return rc;
}
