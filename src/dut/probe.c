/*
 * Who a host is, read once by one POSIX sh script sent over ssh's standard
 * input (nothing to install; OPNsense has no bash), its boot id, and the DUT's
 * idle counters before and after a trial (read by the readers of src/os, CPU
 * busy by os_cpu_times_ticks).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dut/dut.h"
#include "os/os.h"
#include "util/util.h"

/*
 * The one boot-id reader, a line "boot_id ID" that every script below starts
 * with: Linux's /proc/sys/kernel/random/boot_id, FreeBSD's kern.boottime.
 * NTUNE_TEST_BOOT_ID names a file that stands for it, for the test rig whose
 * "hosts" are network namespaces of one machine (test only).
 */
#define BOOT_ID_SH \
    "if [ -n \"${NTUNE_TEST_BOOT_ID:-}\" ]; then b=$(cat \"$NTUNE_TEST_BOOT_ID\")\n" \
    "elif [ -r /proc/sys/kernel/random/boot_id ]; then b=$(cat /proc/sys/kernel/random/boot_id)\n" \
    "else b=$(sysctl -n kern.boottime); fi\n" \
    "printf 'boot_id %s\\n' \"$b\"\n"

static void
first_line(const char *s, char *buf, size_t len)
{
	size_t n = strcspn(s, "\n");

	if (n >= len)
		n = len - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
}

/* The value of the line "key value" at line, into dst (unchanged when line is another key). */
static void
take(const char *line, const char *key, char *dst, size_t len)
{
	size_t n = strlen(key);

	if (strncmp(line, key, n) == 0 && line[n] == ' ')
		first_line(line + n + 1, dst, len);
}

static const char boot_id_sh[] = BOOT_ID_SH "[ -n \"$b\" ]\n";

int
dut_boot_id(const struct remote_host *h, double timeout, char *buf, size_t len, char **cause)
{
	struct remote_result r;

	buf[0] = '\0';
	if (remote_sh(h, boot_id_sh, NULL, timeout, &r, cause) == -1)
		return -1;
	if (r.status == 0)
		take(r.out, "boot_id", buf, len);
	if (buf[0] == '\0') {
		util_cause(cause, "cannot read the boot id of %s: %s", h->url, remote_result_why(&r));
		remote_result_free(&r);
		return -1;
	}
	remote_result_free(&r);
	return 0;
}

/*
 * $1 = the ntune command there, or "" (not asked). Lines "key value". The platform
 * as the capture script's bsd_platform finds it (remote/capture.c): /etc/platform
 * (pfSense), else what opnsense-version says (OPNsense has no /etc/platform).
 */
static const char facts_sh[] =
    "printf 'os %s\\n' \"$(uname -s)\"\n"
    "printf 'uname %s\\n' \"$(uname -a)\"\n"
    "printf 'release %s\\n' \"$(uname -r)\"\n"
    "if [ -n \"$1\" ]; then printf 'ntune %s\\n' \"$(\"$1\" --version 2>/dev/null || echo none)\"; fi\n"
    BOOT_ID_SH
    "n=$(getconf _NPROCESSORS_ONLN 2>/dev/null || sysctl -n hw.ncpu 2>/dev/null) && printf 'ncpu %s\\n' \"$n\"\n"
    "p=\n"
    "if [ -r /etc/platform ]; then p=$(head -n 1 /etc/platform); fi\n"
    "if command -v opnsense-version >/dev/null 2>&1; then p=$(opnsense-version); fi\n"
    "if [ -n \"$p\" ]; then printf 'platform %s\\n' \"$p\"; fi\n"
    "c=$(sysctl -n kern.conftxt 2>/dev/null) && printf '%s\\n' \"$c\" | sed 's/^/conftxt /'\n"
    "exit 0\n";

/* The typed facts of the probe's lines. */
static void
facts_parse(const char *out, struct dut_facts *f)
{
	struct strbuf conf;
	char ncpu[16] = "";
	const char *p, *v, *nl;

	strbuf_init(&conf);
	snprintf(f->version, sizeof f->version, "none");
	for (p = out; *p != '\0'; p += strcspn(p, "\n"), p += *p == '\n') {
		take(p, "os", f->os_name, sizeof f->os_name);
		take(p, "uname", f->uname, sizeof f->uname);
		take(p, "release", f->release, sizeof f->release);
		take(p, "ntune", f->version, sizeof f->version);
		take(p, "boot_id", f->boot_id, sizeof f->boot_id);
		take(p, "ncpu", ncpu, sizeof ncpu);
		take(p, "platform", f->platform_name, sizeof f->platform_name);
		if (strncmp(p, "conftxt ", 8) == 0) {
			v = p + 8;
			nl = strchr(v, '\n');
			strbuf_add(&conf, v, nl != NULL ? (size_t)(nl - v) : strlen(v));
			strbuf_addc(&conf, '\n');
		}
	}
	strbuf_addc(&conf, '\0');
	f->conftxt = strbuf_detach(&conf);
	f->ncpu = atoi(ncpu) > 0 ? atoi(ncpu) : 0;
	f->os = os_platform_of_uname(f->os_name);
	f->platform = os_platform_in_text(f->platform_name);
	if (os_platform_family(f->platform) != f->os || f->platform == OS_PLATFORM_UNKNOWN)
		f->platform = f->os;
}

int
dut_probe(const struct remote_host *h, const char *ntune, struct dut_facts *f, char **cause)
{
	struct remote_result r;
	char *args[] = { (char *)(ntune != NULL ? ntune : ""), NULL };

	memset(f, 0, sizeof *f);
	if (remote_sh(h, facts_sh, args, 30, &r, cause) == -1)
		return -1;
	if (r.status != 0 || strncmp(r.out, "os ", 3) != 0) {
		util_cause(cause, "cannot reach %s: %s", h->url, remote_result_why(&r));
		remote_result_free(&r);
		return -1;
	}
	facts_parse(r.out, f);
	remote_result_free(&r);
	return 0;
}

void
dut_facts_free(struct dut_facts *f)
{
	free(f->conftxt);
	f->conftxt = NULL;
}

const char *
dut_facts_kb_os(const struct dut_facts *f)
{
	if (f->os == OS_PLATFORM_LINUX)
		return os_platform_name(OS_PLATFORM_LINUX);
	return os_platform_name(os_platform_is_distro(f->platform) ? f->platform :
	    OS_PLATFORM_FREEBSD);
}

/*
 * $1 $2 = the DUT's in and out interfaces. Prints "boot_id ID" (BOOT_ID_SH), then a
 * sample that the readers of src/os read: on Linux "if NAME rx_packets rx_dropped
 * tx_packets tx_dropped" from /sys and /proc/stat's cpuN lines (os_counters_text_linux); on
 * FreeBSD the first two commands of the one FreeBSD sample, os.h's OS_FBSD_SAMPLE_TICKS and
 * OS_FBSD_SAMPLE_IF (os_counters_text).
 */
static const char counters_sh[] =
    BOOT_ID_SH
    "if [ -r /proc/stat ]; then\n"
    "  for i in \"$1\" \"$2\"; do\n"
    "    d=/sys/class/net/$i/statistics\n"
    "    if [ -d \"$d\" ]; then\n"
    "      echo \"if $i $(cat $d/rx_packets) $(cat $d/rx_dropped) $(cat $d/tx_packets) $(cat $d/tx_dropped)\"\n"
    "    fi\n"
    "  done\n"
    "  grep '^cpu[0-9]' /proc/stat\n"
    "else\n"
    "  " OS_FBSD_SAMPLE_TICKS "\n"
    "  " OS_FBSD_SAMPLE_IF "\n"
    "fi\n";

#define MAX_CPUS	4096	/* as many CPUs as doctor charts */

/* FreeBSD: the two interfaces' counters from netstat -ibnd as the reader read them. */
static void
fbsd_if(const struct os_counters *oc, const char *in, const char *out, struct dut_counters *c,
    int *ok_in, int *ok_out)
{
	const struct os_counter *v;
	char name[96];

	snprintf(name, sizeof name, "if.%s.ipackets", in);
	if (!*ok_in && (v = os_counters_get(oc, name)) != NULL) {
		c->in_rx = v->value;
		snprintf(name, sizeof name, "if.%s.idrops", in);
		c->in_drop = (v = os_counters_get(oc, name)) != NULL ? v->value : 0;
		*ok_in = 1;
	}
	snprintf(name, sizeof name, "if.%s.opackets", out);
	if (!*ok_out && (v = os_counters_get(oc, name)) != NULL) {
		c->out_tx = v->value;
		snprintf(name, sizeof name, "if.%s.odrops", out);
		c->out_drop = (v = os_counters_get(oc, name)) != NULL ? v->value : 0;
		*ok_out = 1;
	}
}

/* The sample's text (all but the boot and Linux "if" lines): each CPU's busy and total ticks. */
static void
sample(const char *text, size_t len, const char *in, const char *out, struct dut_counters *c,
    int *ok_in, int *ok_out)
{
	struct os_counters oc;
	struct os_cpu_times t;
	uint64_t busy, total;
	bool is_linux = strncmp(text, "cpu", 3) == 0;
	char *why = NULL;

	memset(&oc, 0, sizeof oc);
	(void)os_counters_paste(text, len, "(counters)", is_linux ? "linux" : "freebsd", &oc, &why);
	free(why);
	if (!is_linux)
		fbsd_if(&oc, in, out, c, ok_in, ok_out);
	while (c->ncpu < MAX_CPUS && os_counters_cpu(&oc, c->ncpu, &t)) {
		total = os_cpu_times_ticks(&t, &busy);
		c->cpu = xreallocarray(c->cpu, c->ncpu + 1, sizeof *c->cpu);
		c->cpu[c->ncpu].busy = busy;
		c->cpu[c->ncpu].total = total;
		c->ncpu++;
	}
	os_counters_free(&oc);
}

int
dut_counters_parse(const char *out, const char *in, const char *outif, struct dut_counters *c,
    const char *url, char **cause)
{
	struct strbuf text;
	char name[64];
	uint64_t v[4];
	const char *p;
	size_t n;
	int ok_in = 0, ok_out = 0;

	memset(c, 0, sizeof *c);
	strbuf_init(&text);
	for (p = out; *p != '\0'; p += n, p += *p == '\n') {
		n = strcspn(p, "\n");
		if (strncmp(p, "boot_id ", 8) == 0)
			take(p, "boot_id", c->boot_id, sizeof c->boot_id);
		else if (sscanf(p, "if %63s %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64, name, &v[0],
		    &v[1], &v[2], &v[3]) == 5) {
			if (strcmp(name, in) == 0 && !ok_in) {
				c->in_rx = v[0];
				c->in_drop = v[1];
				ok_in = 1;
			}
			if (strcmp(name, outif) == 0 && !ok_out) {
				c->out_tx = v[2];
				c->out_drop = v[3];
				ok_out = 1;
			}
		} else {
			strbuf_add(&text, p, n);
			strbuf_addc(&text, '\n');
		}
	}
	if (text.len > 0)
		sample(text.buf, text.len, in, outif, c, &ok_in, &ok_out);
	strbuf_free(&text);
	if (!ok_in || !ok_out) {
		util_cause(cause, "%s has no interface '%s'", url, !ok_in ? in : outif);
		dut_counters_free(c);
		return -1;
	}
	return 0;
}

int
dut_counters(const struct remote_host *h, const char *in, const char *out,
    struct dut_counters *c, char **cause)
{
	struct remote_result r;
	char *args[] = { (char *)in, (char *)out, NULL };
	int rc;

	memset(c, 0, sizeof *c);
	if (remote_sh(h, counters_sh, args, 30, &r, cause) == -1)
		return -1;
	if (r.status != 0) {
		util_cause(cause, "cannot read the counters of %s: %s", h->url, remote_result_why(&r));
		remote_result_free(&r);
		return -1;
	}
	rc = dut_counters_parse(r.out, in, out, c, h->url, cause);
	remote_result_free(&r);
	return rc;
}

void
dut_counters_free(struct dut_counters *c)
{
	free(c->cpu);
	c->cpu = NULL;
	c->ncpu = 0;
}
