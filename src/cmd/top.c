/*
 * ntune top: top -P and netstat -hw 1 on one screen, plus the interrupt rate of
 * every NIC queue and the CPU it lands on. Batch mode (-b) prints plain lines
 * per interval, --json one object per interval; otherwise an ncurses screen.
 * Rates are computed over the measured time between samples, not the nominal one.
 */
#include <curses.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/osdoc.h"
#include "os/os.h"
#include "util/util.h"
#include "util/util_json.h"

struct qirq {
	char	 name[OS_NAME_MAX];	/* the IRQ's name as os_irq has it ("38", "irq264: ix0:rxq0") */
	char	 nic[OS_NAME_MAX];
	char	 queue[16];		/* "rx0", "rxtx3" */
};

struct sample {
	double			 t;
	struct os_cpu_times	*cpu;
	size_t			 ncpu;
	struct os_if_counters	*ifc;
	size_t			 nifc;
	struct os_irq		*irq;
	size_t			 nirq;
};

struct cpu_pct {
	double	user, nice, system, interrupt, idle;
};

struct if_rate {
	char	name[OS_NAME_MAX];
	double	ipps, opps, ibps, obps, ierr, idrop, oerr, odrop;
};

struct irq_rate {
	const struct qirq *q;
	double	rate;
	int	cpu;		/* the CPU that took most of them, -1 unknown */
};

struct view {
	struct cpu_pct	*cpu;
	size_t		 ncpu;
	struct if_rate	*ifr;
	size_t		 nifr;
	struct irq_rate	*irq;
	size_t		 nirq;
	double		 dt;
};

struct top {
	struct os_ctx	*ctx;
	char		**ifaces;	/* -i filter; NULL = all but lo */
	size_t		 nifaces;
	struct qirq	*q;
	size_t		 nq;
	int		 sort;		/* 0 name, 1 in pps, 2 out pps */
	int		 percpu;
	int		 pick;		/* interactive: -1 all, else index into the interface list */
};

static volatile sig_atomic_t stop;

static void
on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void
sample_free(struct sample *s)
{
	free(s->cpu);
	free(s->ifc);
	os_irqs_free(s->irq, s->nirq);
	memset(s, 0, sizeof *s);
}

static int
take(struct top *tp, struct sample *s, char **cause)
{
	memset(s, 0, sizeof *s);
	s->t = util_now();
	if (os_cpu_times(tp->ctx, &s->cpu, &s->ncpu, cause) != 0)
		return -1;
	if (os_if_counters(tp->ctx, &s->ifc, &s->nifc, cause) != 0) {
		sample_free(s);
		return -1;
	}
	if (tp->nq > 0 && os_irqs(tp->ctx, &s->irq, &s->nirq, NULL) != 0)
		s->irq = NULL, s->nirq = 0;
	return 0;
}

static int
shown(struct top *tp, const char *name)
{
	size_t i;

	if (tp->nifaces == 0)
		return strcmp(name, "lo") != 0 && strcmp(name, "lo0") != 0;
	for (i = 0; i < tp->nifaces; i++)
		if (strcmp(tp->ifaces[i], name) == 0)
			return 1;
	return 0;
}

static double
d64(uint64_t a, uint64_t b)
{
	return b >= a ? (double)(b - a) : 0;
}

static int
cmp_if(const void *a, const void *b, void *arg)
{
	const struct if_rate *x = a, *y = b;
	int sort = *(int *)arg;

	if (sort == 1 && x->ipps != y->ipps)
		return x->ipps < y->ipps ? 1 : -1;
	if (sort == 2 && x->opps != y->opps)
		return x->opps < y->opps ? 1 : -1;
	return strcmp(x->name, y->name);
}

static void
compute(struct top *tp, const struct sample *a, const struct sample *b, struct view *v)
{
	size_t i, j, k;
	double dt = b->t - a->t;

	memset(v, 0, sizeof *v);
	if (dt <= 0)
		dt = 1e-9;
	v->dt = dt;
	v->ncpu = a->ncpu < b->ncpu ? a->ncpu : b->ncpu;
	v->cpu = xcalloc(v->ncpu + 1, sizeof *v->cpu);
	for (i = 0; i < v->ncpu; i++) {
		const struct os_cpu_times *x = &a->cpu[i], *y = &b->cpu[i];
		double us = d64(x->user, y->user), ni = d64(x->nice, y->nice);
		double sy = d64(x->system, y->system) + d64(x->steal, y->steal);
		double in = d64(x->interrupt, y->interrupt) + d64(x->softirq, y->softirq);
		double id = d64(x->idle, y->idle) + d64(x->iowait, y->iowait);
		double tot = us + ni + sy + in + id;

		if (tot <= 0) {
			v->cpu[i].idle = 100;
			continue;
		}
		v->cpu[i].user = 100 * us / tot;
		v->cpu[i].nice = 100 * ni / tot;
		v->cpu[i].system = 100 * sy / tot;
		v->cpu[i].interrupt = 100 * in / tot;
		v->cpu[i].idle = 100 * id / tot;
	}
	v->ifr = xcalloc(b->nifc + 1, sizeof *v->ifr);
	for (j = 0; j < b->nifc; j++) {
		const struct os_if_counters *y = &b->ifc[j], *x = NULL;
		struct if_rate *r;

		if (!shown(tp, y->name))
			continue;
		for (k = 0; k < a->nifc; k++)
			if (strcmp(a->ifc[k].name, y->name) == 0)
				x = &a->ifc[k];
		if (x == NULL)
			continue;
		r = &v->ifr[v->nifr++];
		snprintf(r->name, sizeof r->name, "%s", y->name);
		r->ipps = d64(x->ipackets, y->ipackets) / dt;
		r->opps = d64(x->opackets, y->opackets) / dt;
		r->ibps = 8 * d64(x->ibytes, y->ibytes) / dt;
		r->obps = 8 * d64(x->obytes, y->obytes) / dt;
		r->ierr = d64(x->ierrors, y->ierrors) / dt;
		r->idrop = d64(x->idrops, y->idrops) / dt;
		r->oerr = d64(x->oerrors, y->oerrors) / dt;
		r->odrop = d64(x->odrops, y->odrops) / dt;
	}
	util_sort(v->ifr, v->nifr, sizeof *v->ifr, cmp_if, &tp->sort);
	v->irq = xcalloc(tp->nq + 1, sizeof *v->irq);
	for (i = 0; i < tp->nq; i++) {
		const struct os_irq *x = NULL, *y = NULL;
		struct irq_rate *r;
		double best = -1;

		if (!shown(tp, tp->q[i].nic))
			continue;
		for (k = 0; k < a->nirq; k++)
			if (strcmp(a->irq[k].name, tp->q[i].name) == 0)
				x = &a->irq[k];
		for (k = 0; k < b->nirq; k++)
			if (strcmp(b->irq[k].name, tp->q[i].name) == 0)
				y = &b->irq[k];
		if (x == NULL || y == NULL)
			continue;
		r = &v->irq[v->nirq++];
		r->q = &tp->q[i];
		r->rate = d64(x->total, y->total) / dt;
		r->cpu = -1;
		for (k = 0; x->per_cpu != NULL && y->per_cpu != NULL && k < x->ncpu && k < y->ncpu; k++) {
			double d = d64(x->per_cpu[k], y->per_cpu[k]);

			if (d > best && d > 0) {
				best = d;
				r->cpu = (int)k;
			}
		}
	}
}

static void
view_free(struct view *v)
{
	free(v->cpu);
	free(v->ifr);
	free(v->irq);
}

/* "12.3M", "980k", "12" */
static const char *
human(double v, char *buf, size_t len)
{
	if (v >= 1e9)
		snprintf(buf, len, "%.2fG", v / 1e9);
	else if (v >= 1e6)
		snprintf(buf, len, "%.2fM", v / 1e6);
	else if (v >= 1e4)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else
		snprintf(buf, len, "%.0f", v);
	return buf;
}

/* Both output modes render into lines; curses draws them, batch prints them. */
typedef void (*emit_fn)(void *, const char *, ...) __attribute__((format(printf, 2, 3)));

static void
render(struct top *tp, const struct view *v, emit_fn emit, void *arg)
{
	char ts[32], a[16], b[16], c[16], d[16];
	time_t now = time(NULL);
	struct tm tm;
	size_t i;

	localtime_r(&now, &tm);
	strftime(ts, sizeof ts, "%Y-%m-%d %H:%M:%S", &tm);
	emit(arg, "ntune top  %s  interval %.2f s  backend %s", ts, v->dt, os_backend_name(tp->ctx));
	if (tp->percpu) {
		for (i = 0; i < v->ncpu; i++)
			emit(arg, "CPU %-3zu %5.1f%% user %5.1f%% nice %5.1f%% system %5.1f%% interrupt "
			    "%5.1f%% idle", i, v->cpu[i].user, v->cpu[i].nice, v->cpu[i].system,
			    v->cpu[i].interrupt, v->cpu[i].idle);
	} else {
		struct cpu_pct s = { 0, 0, 0, 0, 0 };

		for (i = 0; i < v->ncpu; i++) {
			s.user += v->cpu[i].user / (double)v->ncpu;
			s.nice += v->cpu[i].nice / (double)v->ncpu;
			s.system += v->cpu[i].system / (double)v->ncpu;
			s.interrupt += v->cpu[i].interrupt / (double)v->ncpu;
			s.idle += v->cpu[i].idle / (double)v->ncpu;
		}
		emit(arg, "CPU:    %5.1f%% user %5.1f%% nice %5.1f%% system %5.1f%% interrupt "
		    "%5.1f%% idle", s.user, s.nice, s.system, s.interrupt, s.idle);
	}
	emit(arg, "%s", "");
	emit(arg, "%-12s %10s %10s %10s %10s %8s %8s %8s %8s", "IFACE", "in pkt/s", "out pkt/s",
	    "in bit/s", "out bit/s", "ierr/s", "idrop/s", "oerr/s", "odrop/s");
	for (i = 0; i < v->nifr; i++) {
		const struct if_rate *r = &v->ifr[i];

		emit(arg, "%-12s %10.0f %10.0f %10s %10s %8.0f %8.0f %8.0f %8.0f", r->name, r->ipps,
		    r->opps, human(r->ibps, a, sizeof a), human(r->obps, b, sizeof b), r->ierr, r->idrop,
		    r->oerr, r->odrop);
	}
	if (v->nirq == 0)
		return;
	emit(arg, "%s", "");
	emit(arg, "%-12s %-8s %-24s %10s %5s", "IRQ", "QUEUE", "NIC", "rate/s", "CPU");
	for (i = 0; i < v->nirq; i++) {
		const struct irq_rate *r = &v->irq[i];

		snprintf(c, sizeof c, "%d", r->cpu);
		emit(arg, "%-12.12s %-8s %-24.24s %10s %5s", r->q->name, r->q->queue, r->q->nic,
		    human(r->rate, d, sizeof d), r->cpu >= 0 ? c : "-");
	}
}

static json_t *
render_json(struct top *tp, const struct view *v)
{
	json_t *o, *cpus, *ifs, *irqs;
	char ts[UTIL_UTC_LEN];
	size_t i;

	util_utc(0, false, ts);
	cpus = json_array();
	for (i = 0; i < v->ncpu; i++)
		json_array_append_new(cpus, json_pack("{s:i, s:f, s:f, s:f, s:f, s:f}", "cpu", (int)i,
		    "user", v->cpu[i].user, "nice", v->cpu[i].nice, "system", v->cpu[i].system,
		    "interrupt", v->cpu[i].interrupt, "idle", v->cpu[i].idle));
	ifs = json_array();
	for (i = 0; i < v->nifr; i++) {
		const struct if_rate *r = &v->ifr[i];

		json_array_append_new(ifs, json_pack("{s:s, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}",
		    "name", r->name, "in_pps", r->ipps, "out_pps", r->opps, "in_bps", r->ibps,
		    "out_bps", r->obps, "in_errors_ps", r->ierr, "in_drops_ps", r->idrop,
		    "out_errors_ps", r->oerr, "out_drops_ps", r->odrop));
	}
	irqs = json_array();
	for (i = 0; i < v->nirq; i++) {
		const struct irq_rate *r = &v->irq[i];

		json_array_append_new(irqs, json_pack("{s:s, s:s, s:s, s:f, s:o}", "irq", r->q->name,
		    "nic", r->q->nic, "queue", r->q->queue, "rate", r->rate,
		    "cpu", r->cpu >= 0 ? json_integer(r->cpu) : json_null()));
	}
	o = json_pack("{s:s, s:f, s:s, s:o, s:o, s:o}", "time", ts, "interval_s", v->dt,
	    "backend", os_backend_name(tp->ctx), "cpus", cpus, "interfaces", ifs, "irqs", irqs);
	return o;
}

/* The queue IRQs of the shown NICs, from the NIC list (read once). */
static void
find_queue_irqs(struct top *tp)
{
	struct os_nic *nics;
	size_t n, i, j;
	struct os_irq *irqs = NULL;
	size_t nirq = 0, k;

	if (os_nics(tp->ctx, &nics, &n, NULL) != 0)
		return;
	if (os_irqs(tp->ctx, &irqs, &nirq, NULL) != 0)
		irqs = NULL, nirq = 0;
	for (i = 0; i < n; i++) {
		for (j = 0; j < nics[i].nqueues; j++) {
			const struct os_queue *q = &nics[i].queues[j];
			struct qirq *e;
			char want[32];

			if (q->irq < 0)
				continue;
			tp->q = xreallocarray(tp->q, tp->nq + 1, sizeof *tp->q);
			e = &tp->q[tp->nq++];
			memset(e, 0, sizeof *e);
			/* the IRQ's key in os_irq: "38" (Linux) or "irq264: ix0:rxq0" (FreeBSD) */
			snprintf(want, sizeof want, "%d", q->irq);
			snprintf(e->name, sizeof e->name, "%s", want);
			for (k = 0; k < nirq; k++) {
				const char *nm = irqs[k].name;

				if (strcmp(nm, want) == 0 || (strncmp(nm, "irq", 3) == 0 &&
				    atoi(nm + 3) == q->irq)) {
					snprintf(e->name, sizeof e->name, "%s", nm);
					break;
				}
			}
			snprintf(e->nic, sizeof e->nic, "%s", nics[i].name);
			snprintf(e->queue, sizeof e->queue, "%s%d", q->kind, q->index);
		}
	}
	os_irqs_free(irqs, nirq);
	os_nics_free(nics, n);
}

static void
emit_stdout(void *arg, const char *fmt, ...)
{
	va_list ap;

	(void)arg;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

struct cur {
	int	row;
};

static void
emit_curses(void *arg, const char *fmt, ...)
{
	struct cur *c = arg;
	char line[512];
	va_list ap;

	if (c->row >= LINES - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	mvaddnstr(c->row++, 0, line, COLS);
}

static int
run_batch(struct top *tp, double delay, long count, int json)
{
	struct sample prev, cur;
	struct view v;
	char *cause = NULL;
	long n;
	double next;

	if (take(tp, &prev, &cause) != 0)
		return cmd_fail(&cmd_top, &cause, 1);
	next = prev.t + delay;
	for (n = 0; (count <= 0 || n < count) && !stop; n++) {
		util_sleep(next - util_now(), &stop);
		if (stop)
			break;
		next += delay;
		if (take(tp, &cur, &cause) != 0) {
			sample_free(&prev);
			return cmd_fail(&cmd_top, &cause, 1);
		}
		compute(tp, &prev, &cur, &v);
		if (json) {
			json_t *o = render_json(tp, &v);

			util_json_print(o, stdout, JSON_COMPACT | JSON_PRESERVE_ORDER);
			putchar('\n');
			json_decref(o);
		} else {
			render(tp, &v, emit_stdout, NULL);
			putchar('\n');
		}
		fflush(stdout);
		view_free(&v);
		sample_free(&prev);
		prev = cur;
	}
	sample_free(&prev);
	return 0;
}

static int
cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* 'i' steps through the interfaces one at a time, then back to all of them. */
static void
pick_next(struct top *tp, const struct sample *s, char **saved, size_t nsaved)
{
	size_t i;

	util_strv_free(tp->ifaces, tp->nifaces);
	tp->ifaces = NULL;
	tp->nifaces = 0;
	tp->pick++;
	if (nsaved > 0) {
		if (tp->pick >= (int)nsaved) {
			tp->pick = -1;
			for (i = 0; i < nsaved; i++)
				tp->ifaces = util_strv_add(tp->ifaces, &tp->nifaces, saved[i]);
			return;
		}
		tp->ifaces = util_strv_add(tp->ifaces, &tp->nifaces, saved[tp->pick]);
		return;
	}
	{
		/* all interfaces but loopback, in name order */
		const char **names = xcalloc(s->nifc + 1, sizeof *names);
		size_t n = 0;

		for (i = 0; i < s->nifc; i++)
			if (strcmp(s->ifc[i].name, "lo") != 0 && strcmp(s->ifc[i].name, "lo0") != 0)
				names[n++] = s->ifc[i].name;
		qsort(names, n, sizeof *names, cmp_name);
		if (tp->pick >= (int)n) {
			tp->pick = -1;
			free(names);
			return;
		}
		tp->ifaces = util_strv_add(tp->ifaces, &tp->nifaces, names[tp->pick]);
		free(names);
	}
}

static void
draw(struct top *tp, const struct sample *a, const struct sample *b)
{
	static const char *const sorts[] = { "name", "in pkt/s", "out pkt/s" };
	struct view v;
	struct cur c;

	compute(tp, a, b, &v);
	erase();
	c.row = 0;
	render(tp, &v, emit_curses, &c);
	mvprintw(LINES - 1, 0, "q quit  i interfaces (%s)  s sort (%s)  c per-CPU (%s)",
	    tp->nifaces == 0 ? "all" : tp->nifaces == 1 ? tp->ifaces[0] : "-i list",
	    sorts[tp->sort], tp->percpu ? "on" : "off");
	refresh();
	view_free(&v);
}

static int
run_curses(struct top *tp, double delay, long count)
{
	struct sample old, prev, cur;
	char *cause = NULL, **saved = NULL;
	size_t nsaved = tp->nifaces, i;
	long n = 0;
	int ch, have = 0;
	double next;

	if (take(tp, &prev, &cause) != 0)
		return cmd_fail(&cmd_top, &cause, 1);
	memset(&old, 0, sizeof old);
	if (nsaved > 0) {
		saved = xcalloc(nsaved, sizeof *saved);
		for (i = 0; i < nsaved; i++)
			saved[i] = xstrdup(tp->ifaces[i]);
	}
	if (initscr() == NULL) {
		cmd_error(&cmd_top, 0, "cannot start the terminal screen (use -b)");
		sample_free(&prev);
		return 1;
	}
	cbreak();
	noecho();
	curs_set(0);
	keypad(stdscr, TRUE);
	mvaddstr(0, 0, "ntune top: collecting the first interval...");
	refresh();
	next = prev.t + delay;
	while (!stop && (count <= 0 || n < count)) {
		double left = next - util_now();

		if (left > 0) {
			timeout((int)(left * 1000) + 1);
			ch = getch();
			if (ch == 'q' || ch == 'Q')
				break;
			if (ch == 'c')
				tp->percpu = !tp->percpu;
			else if (ch == 's')
				tp->sort = (tp->sort + 1) % 3;
			else if (ch == 'i')
				pick_next(tp, &prev, saved, nsaved);
			if (ch != ERR && have)
				draw(tp, &old, &prev);
			continue;
		}
		next += delay;
		if (take(tp, &cur, &cause) != 0)
			break;
		draw(tp, &prev, &cur);
		sample_free(&old);
		old = prev;
		prev = cur;
		have = 1;
		n++;
	}
	endwin();
	sample_free(&old);
	sample_free(&prev);
	for (i = 0; i < nsaved; i++)
		free(saved[i]);
	free(saved);
	if (cause != NULL)
		return cmd_fail(&cmd_top, &cause, 1);
	return 0;
}

static const struct option longopts[] = {
	{ "batch", no_argument, NULL, 'b' },
	{ "delay", required_argument, NULL, 'd' },
	{ "count", required_argument, NULL, 'n' },
	{ "interface", required_argument, NULL, 'i' },
	{ "json", no_argument, NULL, 'j' },
	{ NULL, 0, NULL, 0 },
};

static int
run(struct cmd_args *args)
{
	struct top tp;
	double delay = 1;
	long count = 0;
	int batch = 0, json = 0, ch, rc = 0;
	char *end, *cause = NULL;
	size_t i;
	char *arg;
	struct sigaction sa;

	memset(&tp, 0, sizeof tp);
	tp.percpu = 1;
	tp.pick = -1;
	while ((ch = cmd_next(args, &arg)) != -1) {
		switch (ch) {
		case 'b':
			batch = 1;
			break;
		case 'd':
			delay = strtod(arg, &end);
			if (end == arg || *end != '\0' || !(delay >= 0.05) || delay > 86400) {
				rc = cmd_error(&cmd_top, 2, "invalid interval '%s' (seconds, 0.05 or more)",
				    arg);
				goto out;
			}
			break;
		case 'n':
			count = strtol(arg, &end, 10);
			if (end == arg || *end != '\0' || count < 1) {
				rc = cmd_error(&cmd_top, 2, "invalid count '%s'", arg);
				goto out;
			}
			break;
		case 'i':
			tp.ifaces = util_strv_add(tp.ifaces, &tp.nifaces, arg);
			break;
		case 'j':
			json = 1;
			batch = 1;
			break;
		}
	}
	if ((tp.ctx = cmd_os_open(&cmd_top, NULL, 0)) == NULL) {
		rc = 2;
		goto out;
	}
	/* every -i must name an interface that exists */
	{
		struct os_if_counters *c;
		size_t n, k;

		if (os_if_counters(tp.ctx, &c, &n, &cause) != 0) {
			cmd_error(&cmd_top, 0, "%s", cause != NULL ? cause : "no interface counters");
			free(cause);
			rc = 1;
			goto out;
		}
		for (i = 0; i < tp.nifaces; i++) {
			for (k = 0; k < n && strcmp(c[k].name, tp.ifaces[i]) != 0; k++)
				;
			if (k == n) {
				cmd_error(&cmd_top, 0, "no interface '%s'", tp.ifaces[i]);
				free(c);
				rc = 2;
				goto out;
			}
		}
		free(c);
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	find_queue_irqs(&tp);
	if (!batch && !isatty(STDOUT_FILENO))
		batch = 1;
	rc = batch ? run_batch(&tp, delay, count, json) : run_curses(&tp, delay, count);
out:
	util_strv_free(tp.ifaces, tp.nifaces);
	free(tp.q);
	if (tp.ctx != NULL)
		os_close(tp.ctx);
	return rc;
}

const struct ntune_cmd cmd_top = {
	.name = "top",
	.summary = "per-CPU load, per-interface pps/bit/s/drops and per-queue IRQ rates",
	.usage = "top [-b] [-d SECS] [-n COUNT] [-i IFACE]... [--json]",
	.optstring = "bd:n:i:j",
	.longopts = longopts,
	.max_args = 0,
	.run = run,
};
