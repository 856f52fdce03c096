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

#include "bench/bench.h"
#include "lab/lab.h"
#include "lab/traffic_cli.h"
#include "os/os.h"
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
	} loads[] = { { "gen", BENCH_LOAD_GEN }, { "iperf3", BENCH_LOAD_IPERF3 } };
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

/* Starts argv inside ns in a process group of its own, output into outfd. */
static pid_t
spawn(const char *ns, char *const argv[], int outfd, char **cause)
{
	char *why = NULL;
	pid_t pid;
	int nul;

	fflush(NULL);
	if ((pid = fork()) == -1) {
		util_cause(cause, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		setpgid(0, 0);
		if ((nul = open("/dev/null", O_RDONLY)) != -1)
			dup2(nul, 0);
		dup2(outfd, 1);
		dup2(outfd, 2);
		lab_netns_execv(ns, argv, &why);
		dprintf(2, "%s\n", why != NULL ? why : "cannot start the load");
		_exit(127);
	}
	setpgid(pid, pid);
	return pid;
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
	uint64_t ta, tb, ia, ib;
	size_t i, n = na < nb ? na : nb;

	if (n == 0)
		return;
	r->cpu_busy = xreallocarray(NULL, n, sizeof *r->cpu_busy);
	r->ncpu = n;
	for (i = 0; i < n; i++) {
		ta = a[i].user + a[i].nice + a[i].system + a[i].interrupt + a[i].softirq + a[i].idle +
		    a[i].iowait + a[i].steal;
		tb = b[i].user + b[i].nice + b[i].system + b[i].interrupt + b[i].softirq + b[i].idle +
		    b[i].iowait + b[i].steal;
		ia = a[i].idle + a[i].iowait;
		ib = b[i].idle + b[i].iowait;
		r->cpu_busy[i] = tb > ta ? 100.0 * (double)((tb - ta) - (ib - ia)) / (double)(tb - ta) : 0;
		if (r->cpu_busy[i] < 0)
			r->cpu_busy[i] = 0;
	}
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
iso_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void
fail_run(struct bench_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
fail_run(struct bench_run *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->error, sizeof r->error, fmt, ap);
	va_end(ap);
	r->ok = false;
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

	if ((fd = open(l->diagnose_to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) == -1)
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

int
bench_lab_measure(struct bench_lab *l, double duration, struct bench_run *r, char **cause)
{
	char secs[32], size[16], flows[16], threads[16], rate[32], line[200], how[64], *cmdenv = NULL;
	char sinksecs[32];
	char *argv[48], *sargv[8], *extra = NULL, *tok, *save = NULL;
	struct os_cpu_times *ct0 = NULL, *ct1 = NULL;
	struct os_irq *ir0 = NULL, *ir1 = NULL;
	size_t nct0 = 0, nct1 = 0, nir0 = 0, nir1 = 0, nsec, k;
	struct sample s0, prev, cur, s1;
	pid_t load = -1, server = -1, sink = -1, diag = -1;
	int sinkfd = -1, outfd, exited = 0, status = 0, rc = -1, argc = 0, have_cpu, have_irq;
	char tmpl[] = "/tmp/ntune-load.XXXXXX";
	double t0, total, startup;

	r->ok = true;
	r->error[0] = '\0';
	iso_now(r->started, sizeof r->started);
	if ((outfd = mkstemp(tmpl)) == -1) {
		util_cause(cause, "cannot create a temporary file: %s", strerror(errno));
		return -1;
	}
	unlink(tmpl);
	total = l->settle + duration;
	startup = l->load == BENCH_LOAD_GEN ? 0 : BENCH_STARTUP_WAIT;
	/* The load runs a little longer than the window so that it never ends inside it. */
	snprintf(secs, sizeof secs, "%d", (int)ceil(total + 1 + startup));
	switch (l->load) {
	case BENCH_LOAD_GEN:
		argv[argc++] = (char *)l->self;
		argv[argc++] = "gen";
		argv[argc++] = "--" TRAFFIC_OPT_DURATION;
		argv[argc++] = secs;
		if (l->size > 0) {
			snprintf(size, sizeof size, "%d", l->size);
			argv[argc++] = "--" TRAFFIC_OPT_SIZE;
			argv[argc++] = size;
		}
		if (l->flows > 0) {
			snprintf(flows, sizeof flows, "%d", l->flows);
			argv[argc++] = "--" TRAFFIC_OPT_FLOWS;
			argv[argc++] = flows;
		}
		if (l->threads > 0) {
			snprintf(threads, sizeof threads, "%d", l->threads);
			argv[argc++] = "--" TRAFFIC_OPT_THREADS;
			argv[argc++] = threads;
		}
		if (l->rate > 0) {
			snprintf(rate, sizeof rate, "%.0f", l->rate);
			argv[argc++] = "--" TRAFFIC_OPT_RATE;
			argv[argc++] = rate;
		}
		break;
	case BENCH_LOAD_IPERF3:
		sargv[0] = "iperf3";
		sargv[1] = "-s";
		sargv[2] = "-1";
		sargv[3] = NULL;
		if ((server = spawn(l->sink_ns, sargv, outfd, cause)) == -1)
			goto out;
		/* A loaded machine may take a while to start it: wait until it listens. */
		for (k = 0; k < 60 && lab_netns_run(l->sink_ns, iperf3_listening, NULL, NULL) != 0; k++)
			usleep(50000);
		argv[argc++] = "iperf3";
		argv[argc++] = "-c";
		argv[argc++] = LAB_SINK_IP4;
		argv[argc++] = "-t";
		argv[argc++] = secs;
		break;
	case BENCH_LOAD_CMD:
		/* The command learns where to send and for how long from its environment. */
		xasprintf(&cmdenv, "NTUNE_LAB=%s NTUNE_DURATION=%s NTUNE_DST=%s NTUNE_DST6=%s; "
		    "export NTUNE_LAB NTUNE_DURATION NTUNE_DST NTUNE_DST6; %s", l->prefix, secs,
		    LAB_SINK_IP4, LAB_SINK_IP6, l->cmd);
		argv[argc++] = "/bin/sh";
		argv[argc++] = "-c";
		argv[argc++] = cmdenv;
		break;
	}
	/* `--load "gen ARGS"` / `--load "iperf3 ARGS"`: ARGS go to the load, split at white space. */
	if (l->load != BENCH_LOAD_CMD && l->args != NULL) {
		extra = xstrdup(l->args);
		for (tok = strtok_r(extra, " \t", &save); tok != NULL && argc < 46;
		    tok = strtok_r(NULL, " \t", &save))
			argv[argc++] = tok;
	}
	argv[argc] = NULL;
	if (l->latency) {
		/* The sink listens a little longer than the load sends. */
		char stmpl[] = "/tmp/ntune-sink.XXXXXX";

		if ((sinkfd = mkstemp(stmpl)) == -1) {
			util_cause(cause, "cannot create a temporary file: %s", strerror(errno));
			goto out;
		}
		unlink(stmpl);
		snprintf(sinksecs, sizeof sinksecs, "%d", (int)ceil(total + 2));
		sargv[0] = (char *)l->self;
		sargv[1] = "sink";
		sargv[2] = "--" TRAFFIC_OPT_DURATION;
		sargv[3] = sinksecs;
		sargv[4] = "--" TRAFFIC_OPT_QUIET;
		sargv[5] = "--" TRAFFIC_OPT_JSON;
		sargv[6] = NULL;
		if ((sink = spawn(l->sink_ns, sargv, sinkfd, cause)) == -1)
			goto out;
		usleep(300000);
	}
	t0 = util_now();
	if ((load = spawn(l->gen_ns, argv, outfd, cause)) == -1)
		goto out;
	if (wait_until(t0 + l->settle, load, &exited, &status) == -1)
		goto interrupted;
	if (exited)
		goto died;
	if (startup > 0 && wait_for_flow(l, load, &exited, &status, cause) == -1) {
		if (bench_interrupted)
			goto interrupted;
		goto out;
	}
	if (exited)
		goto died;
	have_cpu = cpu_snapshot(l, &ct0, &nct0) == 0;
	have_irq = irq_snapshot(l, &ir0, &nir0) == 0;
	if (sample(l, &s0, cause) == -1)
		goto out;
	if (l->diagnose_to != NULL)
		diag = diagnose(l, duration);
	prev = s0;
	nsec = (size_t)ceil(duration - 1e-9);
	for (k = 1; k <= nsec; k++) {
		double end = s0.t + ((double)k < duration ? (double)k : duration);

		if (wait_until(end, load, &exited, &status) == -1)
			goto interrupted;
		if (sample(l, &cur, cause) == -1)
			goto out;
		if (cur.t > prev.t) {
			r->per_second = xreallocarray(r->per_second, r->nsec + 1, sizeof *r->per_second);
			r->per_second[r->nsec++] = (double)(cur.rx_packets - prev.rx_packets) /
			    (cur.t - prev.t);
		}
		prev = cur;
		if (exited)
			break;
	}
	s1 = prev;
	if (diag > 0) {
		waitpid(diag, NULL, 0);
		diag = -1;
	}
	if (have_cpu && cpu_snapshot(l, &ct1, &nct1) == 0)
		cpu_busy(r, ct0, nct0, ct1, nct1);
	if (have_irq && irq_snapshot(l, &ir1, &nir1) == 0)
		irq_rates(r, ir0, nir0, ir1, nir1, s1.t - s0.t);
	r->duration_s = s1.t - s0.t;
	r->packets = s1.rx_packets - s0.rx_packets;
	r->bytes = s1.rx_bytes - s0.rx_bytes;
	r->sent = s1.tx_packets - s0.tx_packets;
	r->drops = r->sent > r->packets ? r->sent - r->packets : 0;
	r->pps = r->duration_s > 0 ? (double)r->packets / r->duration_s : 0;
	r->bps = r->duration_s > 0 ? (double)r->bytes * 8 / r->duration_s : 0;
	if (exited)
		goto died;
	/* Ethernet header + VLAN tag over the MTU: no wire carries a larger frame. */
	if (l->load == BENCH_LOAD_GEN && r->packets > 0 &&
	    (double)r->bytes / (double)r->packets > (double)(l->mtu > 0 ? l->mtu : 1500) + 18)
		fail_run(r, "%s received frames of %.0f bytes on average, more than the MTU: merged "
		    "(GRO/GSO) packets crossed the lab's wire and each counted as one packet; turn "
		    "tx-udp-segmentation and tx-gso-list off on %s", LAB_SINK_IF,
		    (double)r->bytes / (double)r->packets, LAB_DUT_OUT_IF);
	if (sink > 0 && r->packets > 0 && sink_latency(sink, sinkfd, r) == -1)
		fail_run(r, "no latency from the sink (does the load carry ntune gen's timestamps?)");
	sink = -1;
	if (r->packets == 0 && (r->sent == 0 || !l->zero_ok)) {
		if (r->sent == 0)
			fail_run(r, "zero packets: the load sent nothing on %s", LAB_GEN_IF);
		else
			fail_run(r, "zero packets: the load sent %llu packets but none reached %s "
			    "(is the DUT forwarding?)", (unsigned long long)r->sent, LAB_SINK_IF);
	}
	rc = 0;
	goto out;
died:
	last_line(outfd, line, sizeof line);
	describe_exit(how, sizeof how, status);
	fail_run(r, "the load command died after %.1f s (%s)%s%s", util_now() - t0, how,
	    line[0] != '\0' ? ": " : "", line);
	r->pps = r->bps = 0;
	rc = 0;
	goto out;
interrupted:
	util_cause(cause, "interrupted by signal %d", (int)bench_interrupted);
out:
	stop(load);
	stop(server);
	stop(diag);
	stop(sink);
	if (sinkfd != -1)
		close(sinkfd);
	close(outfd);
	free(cmdenv);
	free(extra);
	free(ct0);
	free(ct1);
	os_irqs_free(ir0, nir0);
	os_irqs_free(ir1, nir1);
	return rc;
}
