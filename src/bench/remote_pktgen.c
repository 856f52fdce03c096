/*
 * netmap's pkt-gen as the load of the remote runner (--load pkt-gen): `pkt-gen
 * -f rx` on the sink host, `pkt-gen -f tx` on the generator host, each driven
 * by a POSIX sh helper sent over ssh, and the counts read from the summary line
 * each prints when it ends.
 *
 * What is known of pkt-gen comes from its source, luigirizzo/netmap
 * apps/pkt-gen/pkt-gen.c (HEAD 89607e1, 2026-02-10; FreeBSD carries a copy in
 * tools/tools/netmap/pkt-gen.c, and the port net/pkt-gen installs upstream's):
 * - options: getopt string at lines 2969-2970; -i interface, -f tx|rx, -n count
 *   (0: endless), -l size "in bytes excluding CRC" (usage, 2500-2502), -d/-s
 *   address[:port] (IPv6 as [addr]:port, extract_ipv6_addr 376-405; port 1234
 *   by default, 432), -D/-S MAC, -R rate (packets/s), -w seconds, -6 IPv6.
 * - after opening the port it sleeps the -w time (2 s by default, 2967) for the
 *   PHY reset that netmap's open causes, logging "Wait %d secs for phy reset"
 *   then "Ready..." on stderr (2695-2697, D() of sys/net/netmap_user.h 173-180:
 *   "%03d.%06d %s [%d] " before the text); a sender with -R starts 2 s after
 *   the next whole second (sender_body, 1708-1712).
 * - SIGINT is taken only after the threads started (3373-3390); its handler
 *   (sigint_h, 569-577) asks every thread to stop, and pkt-gen then prints its
 *   summary and exits 0. A receiver without -W waits for its first frame and
 *   then for ever (forever = 1, 2961; receiver_body 1993), so ours is stopped
 *   with SIGINT.
 * - the summary on stdout (tx_output, 2440-2470, called from main_thread with
 *   "Sent" or "Received", 2837-2840): "%s %llu packets %llu bytes %llu events
 *   %d bytes each in %.2f seconds." then "Speed: ...", or "%s nothing." when
 *   no packet went; before it "Sending on" / "Receiving from" lines (3316-3329).
 *   Progress lines go to stderr. A port that cannot be opened ends in
 *   usage(-1): exit status 255 (3331-3335, 2615).
 * netmap(4) (share/man/man4/netmap.4 line 190): a NIC in netmap mode is
 * disconnected from the host stack, so the sink host cannot answer ARP or ND
 * while pkt-gen receives: the DUT needs a static entry for --dst.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <jansson.h>

#include "bench/lab_bench.h"
#include "bench/dut_bench_impl.h"
#include "lab/traffic.h"
#include "lab/traffic_cli.h"
#include "util/util.h"

#define PKTGEN		"pkt-gen"
#define PKTGEN_PORT	9	/* the discard port, as ntune gen sends */

/*
 * The helper on a load host: $1 rx|tx, $2 seconds from pkt-gen's "Ready..."
 * until it is stopped with SIGINT (rx: the longest it may run, it is stopped
 * earlier with a SIGTERM to this shell), $3 an interface whose address becomes
 * pkt-gen's -s ("": none), $4 4|6; then pkt-gen's words. It tells "ready" on
 * stderr once pkt-gen said "Ready...", and in the end prints pkt-gen's
 * standard output, the last lines of its standard error before any usage text
 * (pkt-gen.c usage(), 2473-2481), and exits with its
 * status (127 when there is no pkt-gen). Bounded: a pkt-gen not ready within
 * 60 s, or still there 15 s after its SIGINT, is stopped or killed.
 */
static const char pktgen_sh[] =
    "role=$1 secs=$2 srcif=$3 fam=$4; shift 4\n"
    "if ! command -v \"$1\" >/dev/null 2>&1; then\n"
    "  echo \"ntune: no $1 on this host (netmap's packet generator)\" >&2; exit 127\n"
    "fi\n"
    "if [ -n \"$srcif\" ]; then\n"
    "  if [ \"$fam\" = 6 ]; then re='s/.*[[:space:]]inet6 \\([0-9A-Fa-f:]*\\).*/\\1/p'\n"
    "  else re='s/.*[[:space:]]inet \\([0-9.]*\\).*/\\1/p'; fi\n"
    "  a=$({ ip -o -\"$fam\" addr show dev \"$srcif\" 2>/dev/null || ifconfig \"$srcif\" 2>/dev/null; } |\n"
    "    sed -n \"$re\" | grep -iv '^fe80' | head -n 1)\n"
    "  if [ -n \"$a\" ]; then p=$1; shift; set -- \"$p\" -s \"$a\" \"$@\"; fi\n"
    "fi\n"
    "d=$(mktemp -d \"${TMPDIR:-/tmp}/ntune-pkt-gen.XXXXXX\") || exit 1\n"
    "trap '' PIPE\n"
    "trap 'touch \"$d/stop\"' INT TERM HUP\n"
    "\"$@\" </dev/null >\"$d/out\" 2>\"$d/err\" &\n"
    "p=$! ready= n=0 stopped= w=\n"
    "while kill -0 \"$p\" 2>/dev/null; do\n"
    "  if [ -z \"$ready\" ] && grep -q 'Ready\\.\\.\\.' \"$d/err\"; then\n"
    "    ready=1; echo \"ntune-pkt-gen: $role ready\" >&2\n"
    "    (sleep \"$secs\"; touch \"$d/stop\") </dev/null >/dev/null 2>&1 & w=$!\n"
    "  fi\n"
    "  n=$((n + 1))\n"
    "  if [ -z \"$ready\" ] && [ \"$n\" -ge 300 ]; then touch \"$d/stop\"; fi\n"
    "  if [ -e \"$d/stop\" ] && [ -z \"$stopped\" ]; then kill -INT \"$p\" 2>/dev/null; stopped=$n; fi\n"
    "  if [ -n \"$stopped\" ] && [ $((n - stopped)) -ge 75 ]; then kill -KILL \"$p\" 2>/dev/null; fi\n"
    "  sleep 0.2 & wait $!\n"
    "done\n"
    "wait \"$p\"; st=$?\n"
    "[ -n \"$w\" ] && kill \"$w\" 2>/dev/null\n"
    "cat \"$d/out\"; sed '/^Usage:/,$d' \"$d/err\" | tail -n 3 >&2\n"
    "rm -rf \"$d\"\n"
    "exit \"$st\"\n";

/* dut_in's MAC address on the DUT (Linux sysfs, else FreeBSD's ifconfig "ether" line). */
static const char mac_sh[] =
    "if [ -r \"/sys/class/net/$1/address\" ]; then cat \"/sys/class/net/$1/address\"\n"
    "else ifconfig \"$1\" | sed -n 's/^[[:space:]]*ether \\([0-9A-Fa-f:]*\\).*/\\1/p'; fi\n";

static bool
mac_valid(const char *s)
{
	int i;

	for (i = 0; i < 17; i++) {
		if (i % 3 == 2 ? s[i] != ':' : strchr("0123456789abcdefABCDEF", s[i]) == NULL ||
		    s[i] == '\0')
			return false;
	}
	return s[17] == '\0';
}

/* Reads (once, idle: before a load starts) the MAC address pkt-gen sends to: the DUT's dut_in. */
static int
dut_mac(struct bench_remote *b, char **cause)
{
	struct remote_result r;
	char *args[] = { (char *)b->dut_in, NULL };
	char *mac;

	if (b->dut_mac[0] != '\0')
		return 0;
	if (remote_sh(&b->dut, mac_sh, args, 30, &r, cause) == -1)
		return -1;
	mac = util_trim(r.out);
	if (r.status != 0 || !mac_valid(mac)) {
		util_cause(cause, "cannot read the MAC address of %s on the DUT %s (pkt-gen sends to it "
		    "with -D): %s", b->dut_in, b->dut.url, r.status != 0 ? remote_result_why(&r) :
		    *mac != '\0' ? mac : "no answer");
		remote_result_free(&r);
		return -1;
	}
	snprintf(b->dut_mac, sizeof b->dut_mac, "%s", mac);
	remote_result_free(&r);
	return 0;
}

/* The frame size for -l (without the FCS, which ntune's sizes count), 0: pkt-gen's default. */
static int
frame_size(const struct bench_remote *b, const struct bench_trial *t, bool v6)
{
	int size = t->size > 0 ? t->size : b->lab->size;

	if (size <= 0 && v6)
		size = lab_frame_min(AF_INET6);
	return size > 4 ? size - 4 : 0;
}

int
bench_pktgen_words(struct bench_remote *b, const struct bench_trial *t, bool rx, struct remote_words *w,
    char **cause)
{
	bool v6 = strchr(b->dst, ':') != NULL;
	double rate = t->rate > 0 ? t->rate : b->lab->rate;
	int size = frame_size(b, t, v6);

	if (!rx && dut_mac(b, cause) == -1)
		return -1;
	remote_words_add(w, "/bin/sh");
	remote_words_add(w, "-c");
	remote_words_add(w, pktgen_sh);
	remote_words_add(w, "ntune-pkt-gen");
	remote_words_add(w, rx ? "rx" : "tx");
	/* tx with -R ends by its -n count, 2 to 3 s after "Ready...": this is the fallback. */
	remote_words_addf(w, "%.3f", rx ? t->secs + BENCH_PKTGEN_LINK_S + 60 :
	    rate > 0 ? t->secs + 10 : t->secs);
	remote_words_add(w, rx ? "" : b->gen_if);
	remote_words_add(w, v6 ? "6" : "4");
	remote_words_add(w, PKTGEN);
	remote_words_add(w, "-i");
	remote_words_add(w, rx ? b->sink_if : b->gen_if);
	remote_words_add(w, "-f");
	remote_words_add(w, rx ? "rx" : "tx");
	remote_words_add(w, "-w");
	remote_words_addf(w, "%d", BENCH_PKTGEN_LINK_S);
	if (!rx) {
		if (v6)
			remote_words_add(w, "-6");
		if (size > 0) {
			remote_words_add(w, "-l");
			remote_words_addf(w, "%d", size);
		}
		remote_words_add(w, "-d");
		remote_words_addf(w, v6 ? "[%s]:%d" : "%s:%d", b->dst, PKTGEN_PORT);
		remote_words_add(w, "-D");
		remote_words_add(w, b->dut_mac);
		if (rate > 0) {
			remote_words_add(w, "-R");
			remote_words_addf(w, "%.0f", rate);
			remote_words_add(w, "-n");
			remote_words_addf(w, "%.0f", ceil(rate * t->secs));
		}
	}
	if (!t->probe)
		remote_words_split(w, rx ? b->sink_args : b->gen_args);
	return 0;
}

int
bench_pktgen_summary(const char *out, bool rx, struct bench_pktgen *s, char **cause)
{
	const char *verb = rx ? "Received" : "Sent", *p, *nl;
	size_t vlen = strlen(verb), len;
	char line[512];
	int n;

	memset(s, 0, sizeof *s);
	for (p = out; *p != '\0'; p = *nl != '\0' ? nl + 1 : nl) {
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p);
		len = (size_t)(nl - p);
		if (len > 0 && p[len - 1] == '\r')
			len--;
		if (len <= vlen || strncmp(p, verb, vlen) != 0 || p[vlen] != ' ')
			continue;
		if (len >= sizeof line) {
			util_cause(cause, "its '%s' line is %zu bytes long", verb, len);
			return -1;
		}
		memcpy(line, p, len);
		line[len] = '\0';
		snprintf(s->line, sizeof s->line, "%.*s", (int)sizeof s->line - 1, line);
		if (strcmp(line + vlen + 1, "nothing.") == 0) {
			s->nothing = true;
			return 0;
		}
		n = -1;
		/* pkt-gen prints unsigned counts (%llu) and seconds >= 0: no sign anywhere. */
		if (strpbrk(line, "+-") != NULL || sscanf(line + vlen + 1, "%" SCNu64 " packets %" SCNu64 " bytes %" SCNu64
		    " events %d bytes each in %lf seconds.%n", &s->packets, &s->bytes, &s->events,
		    &s->size, &s->secs, &n) != 5 || n != (int)(len - vlen - 1) || !isfinite(s->secs) ||
		    s->secs < 0) {
			util_cause(cause, "unexpected summary line '%.60s' (pkt-gen prints '%s N packets "
			    "N bytes N events N bytes each in S seconds.')", line, verb);
			return -1;
		}
		return 0;
	}
	util_cause(cause, "no '%s ...' summary line in its output (pkt-gen.c tx_output)", verb);
	return -1;
}

/*
 * What a failed pkt-gen said last: up to three lines of its stderr (the helper
 * leaves out pkt-gen's usage text, which follows its error), else its stdout's
 * first line; in buf.
 */
static const char *
said(struct remote_child *c, char *buf, size_t len)
{
	char *e = util_trim(c->ebuf), *p;
	int n = 0;

	for (p = e + strlen(e); p > e && n < 3; p--) {
		if (p[-1] == '\n' && ++n == 3)
			break;
	}
	if (*p != '\0') {
		for (n = 0; *p != '\0' && (size_t)n + 3 < len; p++) {
			if (*p != '\n') {
				buf[n++] = *p;
				continue;
			}
			buf[n++] = ';';
			buf[n++] = ' ';
		}
		buf[n] = '\0';
		return buf;
	}
	e = util_trim(c->obuf);
	if ((p = strchr(e, '\n')) != NULL)
		*p = '\0';
	return *e != '\0' ? e : "no output";
}

/* One side's summary into a document of ntune gen/sink's keys; NULL + why when it is wrong. */
static json_t *
side(struct bench_remote *b, struct remote_child *c, int status, bool rx, char *why, size_t len)
{
	const struct remote_host *h = rx ? &b->sink : &b->gen;
	struct bench_pktgen s;
	char *cause = NULL, *msg = NULL, buf[256];

	if (status != 0)
		xasprintf(&msg, "pkt-gen -f %s on %s failed (exit %d): %s", rx ? "rx" : "tx", h->url,
		    status, said(c, buf, sizeof buf));
	else if (bench_pktgen_summary(c->obuf, rx, &s, &cause) == -1)
		xasprintf(&msg, "pkt-gen -f %s on %s: %s", rx ? "rx" : "tx", h->url, cause);
	if (msg != NULL) {
		snprintf(why, len, "%s", msg);
		free(msg);
		free(cause);
		return NULL;
	}
	return json_pack("{s:I, s:I, s:f, s:s}", TRAFFIC_KEY_PACKETS, (json_int_t)s.packets,
	    TRAFFIC_KEY_BYTES, (json_int_t)s.bytes, TRAFFIC_KEY_DURATION, s.secs, "pkt_gen", s.line);
}

void
bench_pktgen_documents(struct bench_remote *b, struct bench_trial *t, struct remote_child *gen, int gs,
    struct remote_child *sink, int ss)
{
	double secs;

	if ((t->gen = side(b, gen, gs, false, t->error, sizeof t->error)) == NULL ||
	    (t->sink = side(b, sink, ss, true, t->error, sizeof t->error)) == NULL)
		return;
	/*
	 * Rates over the time the generator sent (its own clock): the receiver,
	 * stopped by us, counts from its first frame to the stop, a second or more
	 * after the last frame.
	 */
	secs = json_number_value(json_object_get(t->gen, TRAFFIC_KEY_DURATION));
	json_object_set_new(t->gen, TRAFFIC_KEY_PPS, json_real(secs > 0 ?
	    (double)json_integer_value(json_object_get(t->gen, TRAFFIC_KEY_PACKETS)) / secs : 0));
	json_object_set_new(t->sink, TRAFFIC_KEY_PPS, json_real(secs > 0 ?
	    (double)json_integer_value(json_object_get(t->sink, TRAFFIC_KEY_PACKETS)) / secs : 0));
	json_object_set_new(t->sink, TRAFFIC_KEY_BPS, json_real(secs > 0 ?
	    (double)json_integer_value(json_object_get(t->sink, TRAFFIC_KEY_BYTES)) * 8 / secs : 0));
	json_object_set_new(t->sink, "receive_s", json_copy(json_object_get(t->sink,
	    TRAFFIC_KEY_DURATION)));
	json_object_set_new(t->sink, TRAFFIC_KEY_DURATION, json_real(secs));
}

void
bench_pktgen_stop(struct remote_child *sink)
{
	struct remote_result r;
	char pid[24], *argv[] = { "kill", pid, NULL };

	if (sink->host == NULL || sink->rpid <= 0)
		return;
	snprintf(pid, sizeof pid, "%ld", sink->rpid);
	if (remote_run(sink->host, argv, NULL, 15, &r, NULL) == 0)
		remote_result_free(&r);
}

int
bench_load_prog_check(struct bench_remote *b, const char *prog, char **cause)
{
	const struct remote_host *h[] = { &b->gen, &b->sink };
	struct remote_result r;
	char *args[] = { (char *)prog, NULL };
	size_t i;
	int rc;

	for (i = 0; i < nitems(h); i++) {
		if (remote_sh(h[i], "command -v \"$1\"", args, 30, &r, cause) == -1)
			return -1;
		rc = r.status;
		remote_result_free(&r);
		if (rc != 0) {
			util_cause(cause, "no %s on %s (%s)", prog, h[i]->url, strcmp(prog, PKTGEN) == 0 ?
			    "netmap's packet generator, on the PATH of an ssh command: on FreeBSD "
			    "`pkg install pkt-gen`" : "install it there");
			return -1;
		}
	}
	return 0;
}
