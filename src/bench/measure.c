/* One measured run in the lab: start the load, count what reaches the sink. */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "bench/lab_bench.h"
#include "bench/bench_run.h"
#include "bench/signals.h"
#include "remote/remote.h"
#include "lab/lab.h"
#include "lab/traffic_cli.h"
#include "os/os.h"
#include "util/run.h"
#include "util/util.h"

#define MAX_IRQS	16

static int	cpu_snapshot(struct bench_lab *, struct os_cpu_times **, size_t *);
static void	cpu_busy(struct bench_run *, const struct os_cpu_times *, size_t,
		    const struct os_cpu_times *, size_t);

double
bench_lab_idle_busy(struct bench_lab *l, double secs)
{
	struct os_cpu_times *a = NULL, *b = NULL;
	size_t na = 0, nb = 0, i;
	struct bench_run r;
	double sum = 0, busy;

	memset(&r, 0, sizeof r);
	if (cpu_snapshot(l, &a, &na) == -1)
		return -1;
	usleep((useconds_t)(secs * 1e6));
	if (cpu_snapshot(l, &b, &nb) == -1) {
		free(a);
		return -1;
	}
	cpu_busy(&r, a, na, b, nb);
	for (i = 0; i < r.ncpu; i++)
		sum += r.cpu_busy[i];
	busy = r.ncpu > 0 ? sum / (double)r.ncpu : -1;
	free(a);
	free(b);
	bench_run_free(&r);
	return busy;
}

int
bench_parse_load(const char *s, struct bench_lab *l)
{
	static const struct {
		const char *word;
		enum bench_load_kind kind;
	} loads[] = { { "gen", BENCH_LOAD_GEN }, { "iperf3", BENCH_LOAD_IPERF3 },
	    { "pkt-gen", BENCH_LOAD_PKTGEN } };
	size_t i, n;

	for (i = 0; i < nitems(loads); i++) {
		n = strlen(loads[i].word);
		if (strncmp(s, loads[i].word, n) == 0 && (s[n] == '\0' || s[n] == ' ')) {
			l->load = loads[i].kind;
			l->args = s[n] == '\0' ? NULL : s + n + 1;
			return 0;
		}
	}
	return -1;
}

int
bench_lab_open(struct bench_lab *l, const char *prefix, char **cause)
{
	struct lab_status st;
	char *why = NULL;
	int i;

	if (lab_prefix_valid(prefix, cause) == -1)
		return -1;
	if (lab_check_privileges(&why) == -1) {
		util_cause(cause, "benchmarking in the lab needs root: %s", why);
		free(why);
		return -1;
	}
	if (lab_status(prefix, &st, cause) == -1)
		return -1;
	for (i = 0; i < LAB_NROLES; i++) {
		if (!st.ns_exists[i]) {
			util_cause(cause, "no lab '%s' (namespace '%s-%s' is missing; run `ntune lab up --prefix %s`)",
			    prefix, prefix, lab_role_name((enum lab_role)i), prefix);
			return -1;
		}
	}
	snprintf(l->prefix, sizeof l->prefix, "%s", prefix);
	lab_netns_name(prefix, LAB_GEN, l->gen_ns, sizeof l->gen_ns);
	lab_netns_name(prefix, LAB_DUT, l->dut_ns, sizeof l->dut_ns);
	lab_netns_name(prefix, LAB_SINK, l->sink_ns, sizeof l->sink_ns);
	l->mtu = st.config.mtu > 0 ? st.config.mtu : 1500;
	if (l->os == NULL && (l->os = os_open_live("", cause)) == NULL)
		return -1;
	return 0;
}

void
bench_lab_close(struct bench_lab *l)
{
	if (l->os != NULL)
		os_close(l->os);
	l->os = NULL;
}

struct in_ns {
	const char *ns;
	char *const *argv;
};

/* In the child: exec argv inside the namespace, or say why not. */
static int
exec_in_ns(void *arg)
{
	const struct in_ns *x = arg;
	char *why = NULL;

	lab_netns_execv(x->ns, x->argv, &why);
	dprintf(2, "%s\n", why != NULL ? why : "cannot start the load");
	return 127;
}

/* Starts argv inside ns in a process group of its own, output into outfd. */
static pid_t
spawn(const char *ns, char *const argv[], int outfd, char **cause)
{
	struct in_ns x = { ns, argv };
	struct util_child c = { .fn = exec_in_ns, .arg = &x, .new_pgrp = true, .null_stdin = true,
	    .out = outfd, .err = outfd };

	if (util_child_start(&c, cause) == -1)
		return -1;
	return c.pid;
}

static void
stop(pid_t pid)
{
	double deadline;
	int status;

	if (pid <= 0)
		return;
	kill(-pid, SIGTERM);
	deadline = util_now() + 3;
	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (util_now() > deadline) {
			kill(-pid, SIGKILL);
			waitpid(pid, &status, 0);
			break;
		}
		usleep(20000);
	}
	kill(-pid, SIGKILL);	/* anything the load left behind in its group */
}

/* In the sink's namespace: 0 when something listens on iperf3's TCP port 5201. */
static int
iperf3_listening(void *arg)
{
	static const char *const files[] = { "/proc/net/tcp", "/proc/net/tcp6" };
	char line[512], local[128];
	unsigned state;
	size_t i;
	FILE *f;

	(void)arg;
	for (i = 0; i < nitems(files); i++) {
		if ((f = fopen(files[i], "r")) == NULL)
			continue;
		while (fgets(line, sizeof line, f) != NULL) {
			if (sscanf(line, "%*s %127s %*s %x", local, &state) == 2 && state == 0x0a &&
			    strstr(local, ":1451") != NULL) {
				fclose(f);
				return 0;
			}
		}
		fclose(f);
	}
	return 1;
}

/* The last non-empty line the load printed, for error messages. */
static void
last_line(int fd, char *buf, size_t len)
{
	char tmp[4096], *p, *line = NULL;
	off_t size;
	ssize_t n;

	buf[0] = '\0';
	size = lseek(fd, 0, SEEK_END);
	if (size <= 0)
		return;
	lseek(fd, size > (off_t)sizeof tmp - 1 ? size - (off_t)sizeof tmp + 1 : 0, SEEK_SET);
	if ((n = read(fd, tmp, sizeof tmp - 1)) <= 0)
		return;
	tmp[n] = '\0';
	for (p = strtok(tmp, "\n"); p != NULL; p = strtok(NULL, "\n")) {
		if (*util_trim(p) != '\0')
			line = p;
	}
	if (line != NULL)
		snprintf(buf, len, "%s", line);
}

/* Sleeps until t; stops early when the load exits (*exited, *status) or a signal arrives. */
static int
wait_until(double t, pid_t load, int *exited, int *status)
{
	struct timespec ts;
	double left;

	for (;;) {
		if (bench_interrupted)
			return -1;
		if (!*exited && load > 0 && waitpid(load, status, WNOHANG) == load)
			*exited = 1;
		left = t - util_now();
		if (left <= 0)
			return 0;
		if (left > 0.05)
			left = 0.05;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(left * 1e9);
		nanosleep(&ts, NULL);
	}
}

struct sample {
	double	t;
	uint64_t rx_packets, rx_bytes, tx_packets;
};

/*
 * iperf3 and a user's command may take seconds to start sending on a loaded
 * machine (connection set-up, process start); a window that opens before then
 * measures the start-up, not the profile. Up to this many seconds are waited
 * for packets to reach the sink; the load is asked to run that much longer.
 */
#define BENCH_STARTUP_WAIT	5.0

static int
sample(struct bench_lab *l, struct sample *s, char **cause)
{
	struct lab_ifstat st;

	if (lab_if_stat(l->sink_ns, LAB_SINK_IF, &st, cause) == -1)
		return -1;
	s->t = util_now();
	s->rx_packets = st.rx_packets;
	s->rx_bytes = st.rx_bytes;
	if (lab_if_stat(l->gen_ns, LAB_GEN_IF, &st, cause) == -1)
		return -1;
	s->tx_packets = st.tx_packets;
	return 0;
}

/*
 * Waits, up to BENCH_STARTUP_WAIT seconds, until the load's packets reach the
 * sink: at least 10 received within 100 ms, more than iperf3's control
 * connection exchanges while it sets up. -1 on a signal (cause left alone) or
 * when the counters cannot be read.
 */
static int
wait_for_flow(struct bench_lab *l, pid_t load, int *exited, int *status, char **cause)
{
	struct sample a, b;
	double deadline = util_now() + BENCH_STARTUP_WAIT;

	if (sample(l, &a, cause) == -1)
		return -1;
	for (;;) {
		if (wait_until(util_now() + 0.1, load, exited, status) == -1)
			return -1;
		if (sample(l, &b, cause) == -1)
			return -1;
		if (b.rx_packets >= a.rx_packets + 10 || *exited || b.t > deadline)
			return 0;
		a = b;
	}
}

static int
cpu_snapshot(struct bench_lab *l, struct os_cpu_times **t, size_t *n)
{
	char *cause = NULL;

	*t = NULL;
	*n = 0;
	if (l->os == NULL || l->os->ops->cpu_times == NULL ||
	    l->os->ops->cpu_times(l->os, t, n, &cause) == -1) {
		free(cause);
		return -1;
	}
	return 0;
}

static int
irq_snapshot(struct bench_lab *l, struct os_irq **irqs, size_t *n)
{
	char *cause = NULL;

	*irqs = NULL;
	*n = 0;
	if (l->os == NULL || l->os->ops->irqs == NULL || l->os->ops->irqs(l->os, irqs, n, &cause) == -1) {
		free(cause);
		return -1;
	}
	return 0;
}

static void
cpu_busy(struct bench_run *r, const struct os_cpu_times *a, size_t na, const struct os_cpu_times *b,
    size_t nb)
{
	size_t i, n = na < nb ? na : nb;

	if (n == 0)
		return;
	r->cpu_busy = xreallocarray(NULL, n, sizeof *r->cpu_busy);
	r->ncpu = n;
	for (i = 0; i < n; i++)
		r->cpu_busy[i] = os_cpu_busy_pct(&a[i], &b[i]);
}

/* The interrupts that moved during the run, busiest first, at most MAX_IRQS. */
static void
irq_rates(struct bench_run *r, const struct os_irq *a, size_t na, const struct os_irq *b, size_t nb,
    double secs)
{
	size_t i, j, k;
	double rate;

	for (i = 0; i < nb; i++) {
		for (j = 0; j < na && strcmp(a[j].name, b[i].name) != 0; j++)
			;
		if (j == na || b[i].total <= a[j].total || secs <= 0)
			continue;
		rate = (double)(b[i].total - a[j].total) / secs;
		if (r->nirq == MAX_IRQS && rate <= r->irq_rates[MAX_IRQS - 1])
			continue;
		if (r->nirq < MAX_IRQS) {
			r->irq_names = xreallocarray(r->irq_names, r->nirq + 1, sizeof *r->irq_names);
			r->irq_rates = xreallocarray(r->irq_rates, r->nirq + 1, sizeof *r->irq_rates);
			r->nirq++;
		}
		for (k = r->nirq - 1; k > 0 && r->irq_rates[k - 1] < rate; k--) {
			r->irq_rates[k] = r->irq_rates[k - 1];
			memcpy(r->irq_names[k], r->irq_names[k - 1], sizeof r->irq_names[k]);
		}
		r->irq_rates[k] = rate;
		snprintf(r->irq_names[k], sizeof r->irq_names[k], "%s%s%s", b[i].name,
		    b[i].desc[0] != '\0' ? " " : "", b[i].desc);
	}
}

/* Waits for the sink to finish (it stops on its own) and reads its latency. */
static int
sink_latency(pid_t pid, int fd, struct bench_run *r)
{
	json_t *doc, *lat;
	json_error_t jerr;
	double deadline = util_now() + 10;
	struct strbuf sb;
	char chunk[4096], *p;
	ssize_t n;
	int status;

	strbuf_init(&sb);
	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (util_now() > deadline || bench_interrupted) {
			stop(pid);
			return -1;
		}
		usleep(50000);
	}
	/* Its stderr shares the file: the JSON document starts at the first '{'. */
	if (lseek(fd, 0, SEEK_SET) == -1)
		return -1;
	while ((n = read(fd, chunk, sizeof chunk)) > 0)
		strbuf_add(&sb, chunk, (size_t)n);
	strbuf_addc(&sb, '\0');
	p = strchr(sb.buf, '{');
	doc = p != NULL ? json_loads(p, JSON_DISABLE_EOF_CHECK, &jerr) : NULL;
	strbuf_free(&sb);
	lat = json_object_get(doc, TRAFFIC_KEY_LATENCY);
	if (!json_is_number(json_object_get(lat, TRAFFIC_KEY_LAT_P99))) {
		json_decref(doc);
		return -1;
	}
	r->lat_p99 = json_number_value(json_object_get(lat, TRAFFIC_KEY_LAT_P99));
	r->lat_avg = json_number_value(json_object_get(lat, TRAFFIC_KEY_LAT_AVG));
	json_decref(doc);
	return r->lat_p99 > 0 ? 0 : -1;
}

static void
describe_exit(char *buf, size_t len, int status)
{
	if (WIFEXITED(status))
		snprintf(buf, len, "exit status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d", WTERMSIG(status));
	else
		snprintf(buf, len, "status %d", status);
}

/* `ntune diagnose --json` in the DUT over most of the measured window, into l->diagnose_to. */
static pid_t
diagnose(struct bench_lab *l, double duration)
{
	char secs[32], *argv[7];
	pid_t pid;
	int fd;

	if ((fd = open(l->diagnose_to, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
	    0644)) == -1)
		return -1;
	snprintf(secs, sizeof secs, "%.2f", duration > 2.5 ? 2.0 : duration * 0.8);
	argv[0] = (char *)l->self;
	argv[1] = "diagnose";
	argv[2] = "--json";
	argv[3] = "-d";
	argv[4] = secs;
	argv[5] = NULL;
	pid = spawn(l->dut_ns, argv, fd, NULL);
	close(fd);
	return pid;
}

void
bench_gen_words(const struct bench_lab *l, int size, double rate, struct remote_words *w)
{
	if (size > 0 || l->size > 0)
		remote_words_addf(w, "--" TRAFFIC_OPT_SIZE "=%d", size > 0 ? size : l->size);
	if (l->flows > 0)
		remote_words_addf(w, "--" TRAFFIC_OPT_FLOWS "=%d", l->flows);
	if (l->threads > 0)
		remote_words_addf(w, "--" TRAFFIC_OPT_THREADS "=%d", l->threads);
	if (rate > 0 || l->rate > 0)
		remote_words_addf(w, "--" TRAFFIC_OPT_RATE "=%.0f", rate > 0 ? rate : l->rate);
}

/* What a lab run measures with, and what it has started. */
struct lab_run {
	struct bench_lab *l;
	struct bench_run *r;
	double	duration, t0;
	pid_t	load, server, sink, diag;
	int	outfd, sinkfd, exited, status;
	struct os_cpu_times *ct0, *ct1;
	struct os_irq *ir0, *ir1;
	size_t	nct0, nct1, nir0, nir1;
	struct bench_napi_snap napi0, napi1;
};

/* iperf3 -s in the sink, once it listens (a loaded machine may take a while to start it). */
static int
start_iperf3_server(struct lab_run *m, char **cause)
{
	char *sargv[] = { "iperf3", "-s", "-1", NULL };
	int k;

	if ((m->server = spawn(m->l->sink_ns, sargv, m->outfd, cause)) == -1)
		return -1;
	for (k = 0; k < 60 && lab_netns_run(m->l->sink_ns, iperf3_listening, NULL, NULL) != 0; k++)
		usleep(50000);
	return 0;
}

/* The load's command line; it runs secs seconds. */
static int
load_words(struct lab_run *m, const char *secs, struct remote_words *w, char **cause)
{
	struct bench_lab *l = m->l;
	char *env;

	switch (l->load) {
	case BENCH_LOAD_GEN:
		remote_words_add(w, l->self);
		remote_words_add(w, "gen");
		remote_words_add(w, "--" TRAFFIC_OPT_DURATION);
		remote_words_add(w, secs);
		bench_gen_words(l, 0, 0, w);
		break;
	case BENCH_LOAD_IPERF3:
		if (start_iperf3_server(m, cause) == -1)
			return -1;
		remote_words_add(w, "iperf3");
		remote_words_add(w, "-c");
		remote_words_add(w, LAB_SINK_IP4);
		remote_words_add(w, "-t");
		remote_words_add(w, secs);
		break;
	case BENCH_LOAD_CMD:
		/* The command learns where to send and for how long from its environment. */
		xasprintf(&env, "NTUNE_LAB=%s NTUNE_DURATION=%s NTUNE_DST=%s NTUNE_DST6=%s; "
		    "export NTUNE_LAB NTUNE_DURATION NTUNE_DST NTUNE_DST6; %s", l->prefix, secs,
		    LAB_SINK_IP4, LAB_SINK_IP6, l->cmd);
		remote_words_add(w, "/bin/sh");
		remote_words_add(w, "-c");
		remote_words_add(w, env);
		free(env);
		return 0;
	case BENCH_LOAD_PKTGEN:
		util_cause(cause, "--load pkt-gen runs netmap's pkt-gen on load hosts over ssh: it goes "
		    "with --dut ssh://..., not in the lab");
		return -1;
	}
	/* `--load "gen ARGS"` / `--load "iperf3 ARGS"`: ARGS go to the load, split at white space. */
	remote_words_split(w, l->args);
	return 0;
}

/* `ntune sink --json` in the sink for latency, listening a little longer than the load sends. */
static int
start_latency_sink(struct lab_run *m, double total, char **cause)
{
	char stmpl[] = "/tmp/ntune-sink.XXXXXX", secs[32];
	char *sargv[] = { (char *)m->l->self, "sink", "--" TRAFFIC_OPT_DURATION, secs,
	    "--" TRAFFIC_OPT_QUIET, "--" TRAFFIC_OPT_JSON, NULL };

	if ((m->sinkfd = mkstemp(stmpl)) == -1) {
		util_cause(cause, "cannot create a temporary file: %s", strerror(errno));
		return -1;
	}
	unlink(stmpl);
	snprintf(secs, sizeof secs, "%d", (int)ceil(total + 2));
	if ((m->sink = spawn(m->l->sink_ns, sargv, m->sinkfd, cause)) == -1)
		return -1;
	usleep(300000);
	return 0;
}

/* In the DUT's namespace (lab_netns_run's child): the NAPI threads of dut0 and dut1 into *fd. */
static int
napi_in_dut(void *arg)
{
	static const char *const ifs[] = { LAB_DUT_IN_IF, LAB_DUT_OUT_IF };
	struct bench_napi_snap s;
	const int *fd = arg;
	char *why = NULL;
	size_t i, k;

	memset(&s, 0, sizeof s);
	s.ok = true;
	for (i = 0; i < nitems(ifs) && s.ok; i++) {
		if (os_napi_threads(ifs[i], s.t + s.n, BENCH_NAPI_MAX - s.n, &k, &why) == 0) {
			s.n += k;
			continue;
		}
		s.ok = false;
		snprintf(s.why, sizeof s.why, "%s", why != NULL ? why : "unknown error");
		free(why);
	}
	return util_xfer(*fd, &s, sizeof s, true) == 0 ? 0 : 1;
}

/* The NAPI threads of the DUT's interfaces and their CPU time now (BENCH_DUT_CPU_LAB). */
static void
napi_snapshot(struct bench_lab *l, struct bench_napi_snap *s)
{
	char *why = NULL;
	int fd[2], rc;
	bool got;

	memset(s, 0, sizeof *s);
	if (pipe(fd) == -1) {
		snprintf(s->why, sizeof s->why, "pipe: %s", strerror(errno));
		return;
	}
	/* A snapshot is a few KB: the child's write never waits for the reader. */
	rc = lab_netns_run(l->dut_ns, napi_in_dut, &fd[1], &why);
	close(fd[1]);
	got = rc == 0 && util_xfer(fd[0], s, sizeof *s, false) == 0;
	close(fd[0]);
	s->at = util_now();
	if (!got) {
		s->ok = false;
		snprintf(s->why, sizeof s->why, "in '%s': %s", l->dut_ns, why != NULL ? why :
		    "the reader in the namespace failed");
	}
	free(why);
}

/*
 * The measured window: the sink's counters every second, CPU times, the DUT's
 * NAPI threads and interrupts at both ends. 1 when the load died in it, -1 on a signal
 * (cause left alone) or when the counters cannot be read.
 */
static int
window(struct lab_run *m, char **cause)
{
	struct bench_run *r = m->r;
	struct sample s0, prev, cur;
	bool have_cpu, have_irq;
	size_t nsec, k;

	napi_snapshot(m->l, &m->napi0);
	have_cpu = cpu_snapshot(m->l, &m->ct0, &m->nct0) == 0;
	have_irq = irq_snapshot(m->l, &m->ir0, &m->nir0) == 0;
	if (sample(m->l, &s0, cause) == -1)
		return -1;
	if (m->l->diagnose_to != NULL)
		m->diag = diagnose(m->l, m->duration);
	prev = s0;
	nsec = (size_t)ceil(m->duration - 1e-9);
	for (k = 1; k <= nsec && !m->exited; k++) {
		double end = s0.t + ((double)k < m->duration ? (double)k : m->duration);

		if (wait_until(end, m->load, &m->exited, &m->status) == -1 || sample(m->l, &cur, cause) == -1)
			return -1;
		if (cur.t > prev.t) {
			r->per_second = xreallocarray(r->per_second, r->nsec + 1, sizeof *r->per_second);
			r->per_second[r->nsec++] = (double)(cur.rx_packets - prev.rx_packets) / (cur.t - prev.t);
		}
		prev = cur;
	}
	if (m->diag > 0) {
		waitpid(m->diag, NULL, 0);
		m->diag = -1;
	}
	if (have_cpu && cpu_snapshot(m->l, &m->ct1, &m->nct1) == 0)
		cpu_busy(r, m->ct0, m->nct0, m->ct1, m->nct1);
	napi_snapshot(m->l, &m->napi1);
	bench_run_dut_cpu(r, m->ct0, m->nct0, m->ct1, m->nct1, &m->napi0, &m->napi1,
	    os_clock_ticks());
	if (have_irq && irq_snapshot(m->l, &m->ir1, &m->nir1) == 0)
		irq_rates(r, m->ir0, m->nir0, m->ir1, m->nir1, prev.t - s0.t);
	r->duration_s = prev.t - s0.t;
	r->packets = prev.rx_packets - s0.rx_packets;
	r->bytes = prev.rx_bytes - s0.rx_bytes;
	r->sent = prev.tx_packets - s0.tx_packets;
	r->drops = r->sent > r->packets ? r->sent - r->packets : 0;
	r->pps = r->duration_s > 0 ? (double)r->packets / r->duration_s : 0;
	r->bps = r->duration_s > 0 ? (double)r->bytes * 8 / r->duration_s : 0;
	return m->exited ? 1 : 0;
}

/* What a measured run must not be: merged frames, no latency when asked for, nothing forwarded. */
static void
judge(struct lab_run *m)
{
	struct bench_lab *l = m->l;
	struct bench_run *r = m->r;

	/* Ethernet header + VLAN tag over the MTU: no wire carries a larger frame. */
	if (l->load == BENCH_LOAD_GEN && r->packets > 0 &&
	    (double)r->bytes / (double)r->packets > (double)(l->mtu > 0 ? l->mtu : 1500) + 18)
		bench_run_fail(r, "%s received frames of %.0f bytes on average, more than the MTU: merged "
		    "(GRO/GSO) packets crossed the lab's wire and each counted as one packet; turn "
		    "tx-udp-segmentation and tx-gso-list off on %s", LAB_SINK_IF,
		    (double)r->bytes / (double)r->packets, LAB_DUT_OUT_IF);
	if (m->sink > 0 && r->packets > 0 && sink_latency(m->sink, m->sinkfd, r) == -1)
		bench_run_fail(r, "no latency from the sink (does the load carry ntune gen's timestamps?)");
	m->sink = -1;
	if (r->packets == 0 && (r->sent == 0 || !l->zero_ok)) {
		if (r->sent == 0)
			bench_run_fail(r, "zero packets: the load sent nothing on %s", LAB_GEN_IF);
		else
			bench_run_fail(r, "zero packets: the load sent %llu packets but none reached %s "
			    "(is the DUT forwarding?)", (unsigned long long)r->sent, LAB_SINK_IF);
	}
}

static void
died(struct lab_run *m)
{
	char line[200], how[64];

	last_line(m->outfd, line, sizeof line);
	describe_exit(how, sizeof how, m->status);
	bench_run_fail(m->r, "the load command died after %.1f s (%s)%s%s", util_now() - m->t0, how,
	    line[0] != '\0' ? ": " : "", line);
	m->r->pps = m->r->bps = 0;
}

static void
lab_run_end(struct lab_run *m)
{
	stop(m->load);
	stop(m->server);
	stop(m->diag);
	stop(m->sink);
	if (m->sinkfd != -1)
		close(m->sinkfd);
	close(m->outfd);
	free(m->ct0);
	free(m->ct1);
	os_irqs_free(m->ir0, m->nir0);
	os_irqs_free(m->ir1, m->nir1);
}

int
bench_lab_measure(struct bench_lab *l, double duration, struct bench_run *r, char **cause)
{
	struct lab_run m = { .l = l, .r = r, .duration = duration, .load = -1, .server = -1,
	    .sink = -1, .diag = -1, .sinkfd = -1 };
	struct remote_words w = { NULL, 0 };
	char tmpl[] = "/tmp/ntune-load.XXXXXX", secs[32];
	double total = l->settle + duration, startup;
	int rc = -1, k;

	r->ok = true;
	r->error[0] = '\0';
	util_utc(0, false, r->started);
	if ((m.outfd = mkstemp(tmpl)) == -1) {
		util_cause(cause, "cannot create a temporary file: %s", strerror(errno));
		return -1;
	}
	unlink(tmpl);
	/*
	 * Each run starts from an empty conntrack table in the DUT: entries the
	 * previous run made under a larger nf_conntrack_max outlive a smaller one
	 * (and time out only after 30 s), so a NAT DUT's run would carry the
	 * previous profile's state. Best effort: a DUT without conntrack has none.
	 */
	(void)lab_conntrack_flush(l->dut_ns, NULL);
	startup = l->load == BENCH_LOAD_GEN ? 0 : BENCH_STARTUP_WAIT;
	/* The load runs a little longer than the window so that it never ends inside it. */
	snprintf(secs, sizeof secs, "%d", (int)ceil(total + 1 + startup));
	if (load_words(&m, secs, &w, cause) == -1 || (l->latency && start_latency_sink(&m, total, cause) == -1))
		goto out;
	m.t0 = util_now();
	if ((m.load = spawn(l->gen_ns, w.v, m.outfd, cause)) == -1)
		goto out;
	if (wait_until(m.t0 + l->settle, m.load, &m.exited, &m.status) == -1 ||
	    (!m.exited && startup > 0 && wait_for_flow(l, m.load, &m.exited, &m.status, cause) == -1))
		goto interrupted;
	k = m.exited ? 1 : window(&m, cause);
	if (k == -1)
		goto interrupted;
	if (k == 1)
		died(&m);
	else
		judge(&m);
	rc = 0;
	goto out;
interrupted:
	if (bench_interrupted)
		util_cause(cause, "interrupted by signal %d", (int)bench_interrupted);
out:
	lab_run_end(&m);
	remote_words_free(&w);
	return rc;
}
