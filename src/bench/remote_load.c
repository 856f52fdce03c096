/*
 * The loads of the remote runner and its trials: `ntune sink` and `ntune gen`
 * (or an iperf3 server and client, or netmap's pkt-gen: remote_pktgen.c) on
 * the sink and generator hosts, the DUT's counters read idle before and
 * after; and RFC 2544 trials made of them.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <jansson.h>

#include "bench/lab_bench.h"
#include "bench/dut_bench_impl.h"
#include "bench/signals.h"
#include "lab/rfc2544.h"
#include "lab/traffic.h"
#include "lab/traffic_cli.h"
#include "util/util.h"

#define SINK_READY_S	15	/* the longest wait for the sink to listen */
#define LATE_FRAMES_S	1	/* the sink stops this long after the last frame */
#define LATE_S		15	/* the longest wait for the sink once the generator is done */

/*
 * The iperf3 client on the generator host, $1 the server, $2 seconds, then
 * more options: tried again while the server (started just before) does not
 * listen yet, for at most 15 s; what it printed last on standard output.
 * (iperf3 3.12 -J exits 0 when it cannot connect: its "error" key says so.)
 */
static const char iperf3_client_sh[] =
    "d=$1 t=$2; shift 2; i=0\n"
    "while :; do\n"
    "  out=$(iperf3 -c \"$d\" -t \"$t\" -J \"$@\" 2>&1); i=$((i + 1))\n"
    "  case $out in *'Connection refused'*) if [ $i -lt 15 ]; then sleep 1; continue; fi ;; esac\n"
    "  printf '%s\\n' \"$out\"; exit 0\n"
    "done\n";

/*
 * Learning frames before ntune gen (RFC 2544 section 23): one ping from the
 * generator host to $1 through the DUT, so that the generator's neighbour
 * entry for the DUT (which ntune gen reads, it does not resolve) and the DUT's
 * for the sink exist again, e.g. after a reboot flushed them or an IPv6 entry
 * went stale; then the rest of the words. Best effort: without ping, or
 * without an answer, ntune gen says which neighbour it lacks.
 */
static const char learn_sh[] =	/* one line: a csh login shell takes no line break in quotes */
    "d=$1; shift; "
    "if command -v ping >/dev/null 2>&1; then ping -c 1 -W 1 \"$d\" >/dev/null 2>&1 || :; "
    "else echo \"ntune: no ping on this host to refresh the neighbour entries\" >&2; fi; "
    "exec \"$@\"";

static int
start_sink(struct bench_remote *b, const struct bench_trial *t, struct remote_child *sink, char **cause)
{
	struct remote_words w = { NULL, 0 };
	bool pktgen = b->lab->load == BENCH_LOAD_PKTGEN;
	const char *ready = pktgen ? BENCH_PKTGEN_READY : TRAFFIC_SINK_READY;
	double until;
	int status, rc;

	if (pktgen) {
		if (bench_pktgen_words(b, t, true, &w, cause) == -1) {
			remote_words_free(&w);
			return -1;
		}
	} else if (b->lab->load == BENCH_LOAD_IPERF3) {
		remote_words_add(&w, "iperf3");
		remote_words_add(&w, "-s");
		remote_words_add(&w, "-1");
		remote_words_add(&w, "-J");
	} else {
		remote_words_add(&w, b->ntune);
		remote_words_add(&w, "sink");
		remote_words_add(&w, "--" TRAFFIC_OPT_IFACE);
		remote_words_add(&w, b->sink_if);
		remote_words_add(&w, "--" TRAFFIC_OPT_JSON);
		remote_words_add(&w, "--" TRAFFIC_OPT_QUIET);
		remote_words_addf(&w, "--" TRAFFIC_OPT_IDLE "=%d", LATE_FRAMES_S);
		/* Nothing at all within the load's time and a little more: a run with 0 forwarded. */
		remote_words_addf(&w, "--" TRAFFIC_OPT_WAIT "=%.0f", ceil(t->secs + 5));
		remote_words_addf(&w, "--" TRAFFIC_OPT_DURATION "=%.0f", ceil(t->secs + 30));
	}
	if (!t->probe && !pktgen)
		remote_words_split(&w, b->sink_args);
	rc = remote_start(&b->sink, w.v, sink, cause);
	remote_words_free(&w);
	if (rc == -1 || b->lab->load == BENCH_LOAD_IPERF3)
		return rc;
	/* pkt-gen: netmap opens the port, the link bounces, pkt-gen waits -w seconds. */
	until = util_now() + (pktgen ? BENCH_PKTGEN_LINK_S + 70 : SINK_READY_S);
	while (strstr(sink->ebuf, ready) == NULL) {
		if (remote_child_poll(sink, 0.1, &status) == 1 || util_now() > until || bench_interrupted) {
			if (!bench_interrupted)
				util_cause(cause, "%s on %s did not start: %s", pktgen ? "pkt-gen -f rx" :
				    "ntune sink", b->sink.url, *sink->ebuf != '\0' ? util_trim(sink->ebuf) :
				    "no answer in time");
			remote_child_free(sink);
			return -1;
		}
	}
	return 0;
}

static int
start_gen(struct bench_remote *b, const struct bench_trial *t, struct remote_child *gen, char **cause)
{
	struct remote_words w = { NULL, 0 };
	int rc;

	if (b->lab->load == BENCH_LOAD_PKTGEN) {
		rc = bench_pktgen_words(b, t, false, &w, cause);
		if (rc == 0)
			rc = remote_start(&b->gen, w.v, gen, cause);
		remote_words_free(&w);
		return rc;
	}
	if (b->lab->load == BENCH_LOAD_IPERF3) {
		remote_words_add(&w, "/bin/sh");
		remote_words_add(&w, "-c");
		remote_words_add(&w, iperf3_client_sh);
		remote_words_add(&w, "iperf3-client");
		remote_words_add(&w, b->dst);
		remote_words_addf(&w, "%.0f", ceil(t->secs));
		/* The probe: UDP at about 1000 packets a second. */
		if (t->probe)
			remote_words_split(&w, "-u -b 1M -l 125");
	} else {
		remote_words_add(&w, "/bin/sh");
		remote_words_add(&w, "-c");
		remote_words_add(&w, learn_sh);
		remote_words_add(&w, "ntune-learn");
		remote_words_add(&w, b->dst);
		remote_words_add(&w, b->ntune);
		remote_words_add(&w, "gen");
		remote_words_add(&w, "--" TRAFFIC_OPT_IFACE);
		remote_words_add(&w, b->gen_if);
		remote_words_add(&w, "--" TRAFFIC_OPT_IFACE_ANY);
		remote_words_add(&w, "--" TRAFFIC_OPT_DST);
		remote_words_add(&w, b->dst);
		remote_words_addf(&w, "--" TRAFFIC_OPT_DURATION "=%.3f", t->secs);
		remote_words_add(&w, "--" TRAFFIC_OPT_JSON);
		remote_words_add(&w, "--" TRAFFIC_OPT_QUIET);
		bench_gen_words(b->lab, t->size, t->rate, &w);
		if (t->gen_word != NULL)
			remote_words_add(&w, t->gen_word);
	}
	if (!t->probe)
		remote_words_split(&w, b->gen_args);
	rc = remote_start(&b->gen, w.v, gen, cause);
	remote_words_free(&w);
	return rc;
}

/* Waits for the generator to end, never talking to the DUT; -1 on a signal. */
static int
wait_gen(struct remote_child *gen, double deadline, int *status)
{
	while (remote_child_poll(gen, 0.1, status) == 0) {
		if (bench_interrupted)
			return -1;
		if (util_now() > deadline) {
			remote_child_kill(gen);
			*status = 255;
			return 0;
		}
	}
	return 0;
}

/*
 * The sink after the generator ended (gs its status): pkt-gen -f rx does not
 * stop by itself, so after the late frames' second it is stopped; then its
 * status, within LATE_S (255 when the generator failed: the sink is not waited for).
 */
static int
sink_finish(struct remote_child *sink, bool pktgen, int gs)
{
	bool late;

	if (gs != 0)
		return 255;
	if (pktgen) {
		util_sleep(LATE_FRAMES_S, &bench_interrupted);
		bench_pktgen_stop(sink);
	}
	return remote_child_wait(sink, util_now() + LATE_S, &late);
}

static void
add_second(struct bench_trial *t, double v)
{
	t->per_second = xreallocarray(t->per_second, t->nsec + 1, sizeof *t->per_second);
	t->per_second[t->nsec++] = v;
}

static void
figures_ntune(struct bench_trial *t)
{
	json_t *v;
	size_t i;

	t->received = (uint64_t)json_integer_value(json_object_get(t->sink, TRAFFIC_KEY_PACKETS));
	t->bytes = (uint64_t)json_integer_value(json_object_get(t->sink, TRAFFIC_KEY_BYTES));
	t->pps = json_number_value(json_object_get(t->sink, TRAFFIC_KEY_PPS));
	t->bps = json_number_value(json_object_get(t->sink, TRAFFIC_KEY_BPS));
	t->duration_s = json_number_value(json_object_get(t->sink, TRAFFIC_KEY_DURATION));
	t->sent = (uint64_t)json_integer_value(json_object_get(t->gen, TRAFFIC_KEY_PACKETS));
	t->gen_pps = json_number_value(json_object_get(t->gen, TRAFFIC_KEY_PPS));
	json_array_foreach(json_object_get(t->sink, TRAFFIC_KEY_PER_SECOND), i, v)
		add_second(t, json_number_value(v));
}

/*
 * The iperf3 server's own intervals after the first t->skip seconds: bytes
 * (TCP), or packets and lost packets (UDP, where the server counts them).
 */
static void
figures_iperf3(struct bench_trial *t)
{
	json_t *iv, *s;
	size_t i;
	double secs = 0, start;
	uint64_t packets = 0;
	bool udp = false;

	json_array_foreach(json_object_get(t->sink, "intervals"), i, iv) {
		s = json_object_get(iv, "sum");
		start = json_number_value(json_object_get(s, "start"));
		if (start + 1e-6 < t->skip || json_number_value(json_object_get(s, "seconds")) <= 0)
			continue;
		secs += json_number_value(json_object_get(s, "seconds"));
		t->bytes += (uint64_t)json_integer_value(json_object_get(s, "bytes"));
		udp = json_is_integer(json_object_get(s, "packets"));
		packets += (uint64_t)json_integer_value(json_object_get(s, "packets"));
		t->lost += (uint64_t)json_integer_value(json_object_get(s, "lost_packets"));
		add_second(t, udp ? (json_number_value(json_object_get(s, "packets")) -
		    json_number_value(json_object_get(s, "lost_packets"))) /
		    json_number_value(json_object_get(s, "seconds")) :
		    json_number_value(json_object_get(s, "bits_per_second")));
	}
	if (udp) {
		t->sent = packets;
		t->received = packets > t->lost ? packets - t->lost : 0;
	}
	t->duration_s = secs;
	t->bps = secs > 0 ? (double)t->bytes * 8 / secs : 0;
	t->pps = secs > 0 ? (double)t->received / secs : 0;
	s = json_object_get(json_object_get(t->gen, "end"), udp ? "sum" : "sum_sent");
	t->gen_pps = udp && json_number_value(json_object_get(s, "seconds")) > 0 ?
	    json_number_value(json_object_get(s, "packets")) / json_number_value(json_object_get(s, "seconds")) : 0;
}

static void
failed(struct bench_trial *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
failed(struct bench_trial *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->error, sizeof t->error, fmt, ap);
	va_end(ap);
}

/* Reads the two documents; t->error when one is missing or says it failed. */
static void
documents(struct bench_remote *b, struct bench_trial *t, struct remote_child *gen, int gs,
    struct remote_child *sink, int ss)
{
	bool iperf3 = b->lab->load == BENCH_LOAD_IPERF3;
	const char *what = iperf3 ? "iperf3" : "ntune";
	json_error_t jerr;

	if (b->lab->load == BENCH_LOAD_PKTGEN) {
		bench_pktgen_documents(b, t, gen, gs, sink, ss);
		if (t->error[0] == '\0')
			figures_ntune(t);
		return;
	}
	if (gs == 0 && (t->gen = json_loads(gen->obuf, 0, &jerr)) == NULL)
		gs = 255;
	if (gs != 0 || json_is_string(json_object_get(t->gen, "error")))
		failed(t, "%s %s on %s failed: %s", what, iperf3 ? "client" : "gen",
		    b->gen.url, *gen->ebuf != '\0' ? util_trim(gen->ebuf) : t->gen != NULL ?
		    json_string_value(json_object_get(t->gen, "error")) : *gen->obuf != '\0' ?
		    util_trim(gen->obuf) : "no answer in time");
	else if ((t->sink = json_loads(sink->obuf, 0, &jerr)) == NULL ||
	    json_is_string(json_object_get(t->sink, "error")))
		failed(t, "%s %s on %s failed (exit %d): %s", what,
		    iperf3 ? "server" : "sink", b->sink.url, ss, t->sink != NULL ?
		    json_string_value(json_object_get(t->sink, "error")) : util_trim(sink->ebuf));
	else if (iperf3)
		figures_iperf3(t);
	else
		figures_ntune(t);
}

/* The load alone (the DUT is not talked to): -1 + cause only when it could not start or on a signal. */
static int
load(struct bench_remote *b, struct bench_trial *t, char **cause)
{
	struct remote_child sink, gen;
	bool pktgen = b->lab->load == BENCH_LOAD_PKTGEN;
	int gs = 0, ss;

	if (start_sink(b, t, &sink, cause) == -1)
		goto interrupted;
	if (start_gen(b, t, &gen, cause) == -1) {
		remote_child_free(&sink);
		return -1;
	}
	/* pkt-gen -f tx: its link wait, and with -R 2 to 3 s more before it sends. */
	if (wait_gen(&gen, util_now() + t->secs + 30 + (pktgen ? BENCH_PKTGEN_LINK_S + 5 : 0),
	    &gs) == -1) {
		remote_child_free(&gen);
		remote_child_free(&sink);
		goto interrupted;
	}
	ss = sink_finish(&sink, pktgen, gs);
	documents(b, t, &gen, gs, &sink, ss);
	remote_child_free(&gen);
	remote_child_free(&sink);
	return 0;
interrupted:
	if (bench_interrupted)
		util_cause(cause, "interrupted by signal %d", (int)bench_interrupted);
	return -1;
}

/* Polls the generator for secs; 1 when it has ended (*status), -1 on a signal. */
static int
gen_poll(struct remote_child *gen, double secs, int *status)
{
	double until = util_now() + secs;

	do {
		if (bench_interrupted)
			return -1;
		if (remote_child_poll(gen, 0.1, status) == 1)
			return 1;
	} while (util_now() < until);
	return 0;
}

/* The load goes on while during runs; then the generator is stopped (its SIGTERM). */
static int
load_during(struct bench_remote *b, struct bench_trial *t, double settle,
    int (*during)(void *, char **), void *arg, char **cause)
{
	struct remote_child sink, gen;
	bool pktgen = b->lab->load == BENCH_LOAD_PKTGEN;
	int gs = 0, ss, ended, rc = 0;

	if (start_sink(b, t, &sink, cause) == -1)
		goto interrupted;
	if (start_gen(b, t, &gen, cause) == -1) {
		remote_child_free(&sink);
		return -1;
	}
	/* pkt-gen -f tx: its link wait, and 2 to 3 s more before it sends. */
	ended = gen_poll(&gen, settle + (pktgen ? BENCH_PKTGEN_LINK_S + 3 : 0), &gs);
	if (ended == 0)
		rc = during(arg, cause);
	if (ended == 0 && (ended = gen_poll(&gen, 0, &gs)) == 1)
		failed(t, "the load ended before the reading under it did (it sends %.0f s at most)",
		    t->secs);
	else if (ended == 1)
		failed(t, "the load ended within %.1f s: %s", settle, *gen.ebuf != '\0' ?
		    util_trim(gen.ebuf) : *gen.obuf != '\0' ? util_trim(gen.obuf) : "no output");
	if (ended == 0) {
		bench_pktgen_stop(&gen);	/* a SIGTERM to it over a new command */
		if (wait_gen(&gen, util_now() + LATE_S, &gs) == -1)
			ended = -1;
	}
	if (ended == -1) {
		remote_child_free(&gen);
		remote_child_free(&sink);
		goto interrupted;
	}
	ss = sink_finish(&sink, pktgen, gs);
	if (t->error[0] == '\0')
		documents(b, t, &gen, gs, &sink, ss);
	remote_child_free(&gen);
	remote_child_free(&sink);
	return rc;
interrupted:
	if (bench_interrupted)
		util_cause(cause, "interrupted by signal %d", (int)bench_interrupted);
	return -1;
}

int
bench_remote_load_during(struct bench_remote *b, double settle, double secs,
    int (*during)(void *arg, char **cause), void *arg, struct bench_load_figures *f,
    char **cause)
{
	struct bench_trial t = { .secs = secs };
	int rc;

	memset(f, 0, sizeof *f);
	if (b->lab == NULL || b->lab->load == BENCH_LOAD_IPERF3 || b->lab->load == BENCH_LOAD_CMD) {
		util_cause(cause, "the load under a reading is ntune gen or pkt-gen (one stopped when "
		    "the reading is done)");
		return -1;
	}
	if ((rc = load_during(b, &t, settle, during, arg, cause)) == 0) {
		f->sent = t.sent;
		f->received = t.received;
		f->gen_pps = t.gen_pps;
		f->pps = t.pps;
		f->bps = t.bps;
		f->secs = t.duration_s;
		snprintf(f->error, sizeof f->error, "%s", t.error);
	}
	bench_trial_free(&t);
	return rc;
}

int
bench_trial_run(struct bench_remote *b, struct bench_trial *t, char **cause)
{
	if (dut_counters(&b->dut, b->dut_in, b->dut_out, &t->c0, cause) == -1)
		return -1;
	if (strcmp(t->c0.boot_id, b->boot_id) != 0) {
		util_cause(cause, "the DUT rebooted on its own (boot id %s, was %s)", t->c0.boot_id, b->boot_id);
		return -1;
	}
	if (load(b, t, cause) == -1 ||
	    dut_counters(&b->dut, b->dut_in, b->dut_out, &t->c1, cause) == -1)
		return -1;
	if (t->error[0] == '\0' && strcmp(t->c1.boot_id, b->boot_id) != 0)
		failed(t, "the DUT rebooted during the run (boot id %s, was %s)",
		    t->c1.boot_id, b->boot_id);
	return 0;
}

int
bench_trial_probe(struct bench_remote *b)
{
	struct bench_trial t = { .rate = 1000, .secs = 1, .probe = true };
	char *why = NULL;
	int rc;

	/* ntune gen's default frame (64 bytes) is too small for IPv6 and its test payload. */
	if (strchr(b->dst, ':') != NULL && b->lab->size == 0)
		t.size = lab_frame_min(AF_INET6);

	if (load(b, &t, &why) == -1) {
		free(why);
		return -1;
	}
	/* >=: pkt-gen's receiver also counts frames that are not the load's (it sees the whole port). */
	rc = t.error[0] == '\0' && t.sent > 0 && t.received >= t.sent ? 0 : -1;
	bench_trial_free(&t);
	return rc;
}

int
bench_trial_check_load(struct bench_remote *b, char **cause)
{
	if (b->lab == NULL)
		return 0;
	switch (b->lab->load) {
	case BENCH_LOAD_IPERF3:
		return bench_load_prog_check(b, "iperf3", cause);
	case BENCH_LOAD_PKTGEN:
		return bench_load_prog_check(b, "pkt-gen", cause);
	default:
		return 0;
	}
}

void
bench_trial_free(struct bench_trial *t)
{
	json_decref(t->gen);
	json_decref(t->sink);
	dut_counters_free(&t->c0);
	dut_counters_free(&t->c1);
	free(t->per_second);
	t->gen = t->sink = NULL;
	t->per_second = NULL;
	t->nsec = 0;
}

json_t *
bench_trial_json(const struct bench_trial *t)
{
	const struct dut_counters *c0 = &t->c0, *c1 = &t->c1;

	return json_pack("{s:{s:s, s:I, s:I, s:I, s:I}, s:{s:f, s:I}}", "dut", "boot_id",
	    c1->boot_id, "in_packets", (json_int_t)(c1->in_rx - c0->in_rx), "in_drops",
	    (json_int_t)(c1->in_drop - c0->in_drop), "out_packets",
	    (json_int_t)(c1->out_tx - c0->out_tx), "out_drops",
	    (json_int_t)(c1->out_drop - c0->out_drop), "gen", "pps", t->gen_pps, "packets",
	    (json_int_t)t->sent);
}

/*
 * An RFC 2544 trial through the DUT (bench_remote_runner's trial, arg the
 * bench_remote): the DUT's counters in the trial's runs.jsonl line; latency
 * only when the generator and the sink are one host (one clock).
 */
int
bench_remote_rfc2544_trial(void *arg, const struct rfc2544_config *c, int size, double rate,
    const char *phase, struct rfc2544_trial *rt, char **cause)
{
	struct bench_remote *b = arg;
	struct bench_trial t = { .size = size, .rate = rate, .secs = c->duration };
	int i, rc;

	rfc2544_trial_init(rt, size, rate, phase);
	/* Small batches: a frame should not wait for 255 others before it leaves. */
	if (strcmp(phase, "latency") == 0 && b->lab->load == BENCH_LOAD_GEN)
		t.gen_word = "--" TRAFFIC_OPT_BATCH "=8";
	if ((rc = bench_trial_run(b, &t, cause)) == 0 && t.error[0] != '\0') {
		util_cause(cause, "%s", t.error);
		rc = -1;
	}
	if (rc == 0) {
		rfc2544_trial_fill(c, rt, t.gen, t.sink);
		rt->extra = bench_trial_json(&t);
		if (strcmp(b->gen.url, b->sink.url) != 0)
			for (i = 0; i < 6; i++)
				rt->lat[i] = -1;
	}
	bench_trial_free(&t);
	return rc;
}
