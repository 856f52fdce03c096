/*
 * The shipped diagnosis rules' thresholds and certainties, stated here as the README and
 * the rules' comments promise them: for every threshold a pair of values, one at it (the
 * rule fires) and one just past it (silent), every other term of the rule's `when` held
 * true; and each rule's certainty. A rule file whose number moves (cpu-saturated at 50%
 * instead of 85%) turns this red (scripts/mutants.txt).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "diag/diag.h"
#include "diag/diag_impl.h"
#include "util/util.h"

struct threshold {
	const char	*file;		/* the rules file (its base name) */
	const char	*finding;
	int		 nth;		/* the nth rule of that finding in the file, from 1 */
	const char	*metric;	/* a term of its `when` ({if} is "ix0") */
	double		 fires;		/* at the threshold: the rule fires */
	double		 silent;	/* just past it: it does not */
	const char	*certainty;
};

static const struct threshold thresholds[] = {
	{ "freebsd.rules", "netisr-queue-drops", 1, "netisr.qdrops", 1, 0, "certain" },
	{ "freebsd.rules", "netisr-queue-drops", 2, "ip.intr_queue_drops", 1, 0, "likely" },
	{ "freebsd.rules", "netisr-one-cpu", 1, "netisr.top_cpu_share", 80, 79.9, "likely" },
	{ "freebsd.rules", "netisr-one-cpu", 1, "netisr.handled", 1000, 999, "likely" },
	{ "freebsd.rules", "netisr-one-cpu", 1, "netisr.cpus", 2, 1, "likely" },
	{ "freebsd.rules", "one-queue", 1, "irq.ix0.top_share", 90, 89.9, "likely" },
	{ "freebsd.rules", "one-queue", 1, "irq.ix0.queues", 2, 1, "likely" },
	{ "freebsd.rules", "one-queue", 2, "nic.ix0.rxq_top_share", 90, 89.9, "likely" },
	{ "freebsd.rules", "one-queue", 2, "nic.ix0.rxq_packets", 1000, 999, "likely" },
	{ "freebsd.rules", "txq-ring-drops", 1, "nic.ix0.txq_drops", 1, 0, "certain" },
	{ "freebsd.rules", "output-drops", 1, "if.ix0.odrops", 1, 0, "possible" },
	{ "freebsd.rules", "ring-overrun", 1, "nic.ix0.rx_missed", 1, 0, "certain" },
	{ "freebsd.rules", "mbuf-denied", 1, "mbuf.denied", 1, 0, "certain" },
	{ "freebsd.rules", "pf-states-full", 1, "pf.fill_pct", 90, 89.9, "likely" },
	{ "freebsd.rules", "pf-memory", 1, "pf.memory", 1, 0, "certain" },
	/* busy but not saturated beside idle CPUs: 84.9% is not a bottleneck, 85% is */
	{ "freebsd.rules", "cpu-saturated", 1, "cpu.busy_max", 85, 84.9, "possible" },
	{ "freebsd.rules", "cpu-saturated", 1, "cpu.idle_cpus", 1, 0, "possible" },
	{ "freebsd.rules", "cpu-bound", 1, "cpu.busy_min", 85, 84.9, "likely" },
	{ "freebsd.rules", "cpu-bound", 1, "cpu.kernel_avg", 50, 49.9, "likely" },
	{ "freebsd.rules", "queue-thread-busy", 1, "if.ix0.ithread_max", 85, 84.9, "likely" },
	{ "freebsd.rules", "queue-thread-busy", 2, "if.ix0.ithread_max", 85, 84.9, "likely" },
	{ "freebsd.rules", "netisr-thread-busy", 1, "netisr.thread_max", 85, 84.9, "likely" },
	{ "freebsd.rules", "iflib-thread-busy", 1, "iflib.thread_max", 85, 84.9, "likely" },
	{ "freebsd.rules", "receive-loss", 1, "if.ix0.rx_loss_ps", 1, 0.9, "certain" },
	{ "freebsd.rules", "receive-loss", 1, "if.ix0.rx_loss_pct", 1, 0.99, "certain" },
	{ "freebsd.rules", "receive-loss", 2, "if.ix0.rx_loss_ps", 1, 0.9, "possible" },
	{ "freebsd.rules", "receive-loss", 2, "if.ix0.rx_loss_pct", 0.99, 1, "possible" },
	{ "freebsd.rules", "receive-loss", 3, "net.rx_loss_ps", 1, 0.9, "certain" },
	{ "freebsd.rules", "receive-loss", 3, "net.rx_loss_pct", 1, 0.99, "certain" },
	{ "freebsd.rules", "receive-loss", 4, "net.rx_loss_ps", 1, 0.9, "possible" },
	{ "freebsd.rules", "receive-loss", 4, "net.rx_loss_pct", 0.99, 1, "possible" },
	{ "linux.rules", "conntrack-full", 1, "conntrack.drop", 0.1, 0, "certain" },
	{ "linux.rules", "conntrack-full", 2, "conntrack.fill_pct", 95, 94.9, "likely" },
	{ "linux.rules", "backlog-drops", 1, "softnet.dropped", 1, 0, "certain" },
	{ "linux.rules", "backlog-drops", 2, "if.ix0.idrops", 1, 0, "certain" },
	{ "linux.rules", "shaper-limit", 1, "qdisc.ix0.overlimits", 10, 9, "certain" },
	{ "linux.rules", "qdisc-drops", 1, "qdisc.ix0.drops", 1, 0, "likely" },
	{ "linux.rules", "ring-overrun", 1, "nic.ix0.rx_missed_pct", 0.99, 1, "possible" },
	{ "linux.rules", "ring-overrun", 2, "nic.ix0.rx_missed", 1, 0, "certain" },
	{ "linux.rules", "work-not-spread", 1, "if.ix0.rx_pps", 10000, 9999, "likely" },
	{ "linux.rules", "work-not-spread", 2, "if.ix0.rx_pps", 10000, 9999, "likely" },
	{ "linux.rules", "work-not-spread", 2, "ncpu", 2, 1, "likely" },
	{ "linux.rules", "work-not-spread", 3, "if.ix0.rx_pps", 10000, 9999, "likely" },
	{ "linux.rules", "work-not-spread", 4, "if.ix0.rx_pps", 10000, 9999, "likely" },
	{ "linux.rules", "work-not-spread", 5, "if.ix0.rx_pps", 10000, 9999, "possible" },
	{ "linux.rules", "irq-imbalance", 1, "cpu.busy_max", 85, 84.9, "likely" },
	{ "linux.rules", "irq-imbalance", 1, "irq.ix0.queues_active", 2, 1, "likely" },
	{ "linux.rules", "one-queue", 1, "irq.ix0.top_share", 90, 89.9, "possible" },
	{ "linux.rules", "budget-exhausted", 1, "softnet.squeezed", 100, 99, "possible" },
	{ "linux.rules", "budget-exhausted", 1, "cpu.busy_max", 85, 84.9, "possible" },
	{ "linux.rules", "budget-exhausted", 1, "if.ix0.rx_pps", 20000, 19999, "possible" },
	{ "linux.rules", "neighbour-table-full", 1, "neigh.arp.table_fulls", 1, 0, "certain" },
};

static const struct diag_rule *
find_rule(const struct diag_rules *rs, const struct threshold *t)
{
	const char *base;
	size_t i;
	int n = 0;

	for (i = 0; i < rs->n; i++) {
		if (rs->r[i].finding == NULL || strcmp(rs->r[i].finding, t->finding) != 0)
			continue;
		base = strrchr(rs->r[i].file, '/') != NULL ? strrchr(rs->r[i].file, '/') + 1 :
		    rs->r[i].file;
		if (strcmp(base, t->file) == 0 && ++n == t->nth)
			return &rs->r[i];
	}
	fail_msg("%s: no rule %d of finding '%s'", t->file, t->nth, t->finding);
	return NULL;
}

/* A value that makes the term "name op n" true. */
static double
true_value(const char *op, double n)
{
	if (strcmp(op, ">") == 0)
		return n + 1;
	if (strcmp(op, "<") == 0)
		return n - 1;
	if (strcmp(op, "!=") == 0)
		return n + 1;
	return n;	/* >= <= == */
}

/* Metrics making every term of when (terms joined by "and" only) true. */
static json_t *
all_true(const char *when, const struct threshold *t)
{
	json_t *m = json_object();
	char *w = xstrdup(when), *term, *save = NULL, name[128], op[3];
	double n;

	if (strstr(when, " or ") != NULL)
		fail_msg("%s %s #%d: its when has 'or': state its pairs another way", t->file,
		    t->finding, t->nth);
	for (term = strtok_r(w, " ", &save); term != NULL; term = strtok_r(NULL, " ", &save)) {
		if (strcmp(term, "and") == 0)
			continue;
		snprintf(name, sizeof name, "%s", term);
		term = strtok_r(NULL, " ", &save);
		assert_non_null(term);
		snprintf(op, sizeof op, "%s", term);
		term = strtok_r(NULL, " ", &save);
		assert_non_null(term);
		n = strtod(term, NULL);
		json_object_set_new(m, name, json_real(true_value(op, n)));
	}
	free(w);
	return m;
}

static void
test_every_threshold_fires_at_it_and_not_just_past_it(void **state)
{
	struct diag_rules *rs;
	char *cause = NULL, *when;
	json_t *m;
	size_t i;

	(void)state;
	if (diag_rules_load(NULL, &rs, &cause) != 0)
		fail_msg("%s", cause);
	for (i = 0; i < nitems(thresholds); i++) {
		const struct threshold *t = &thresholds[i];
		const struct diag_rule *r = find_rule(rs, t);

		when = diag_expand_entity(r->when, r->each, "ix0");
		assert_non_null(when);
		m = all_true(when, t);
		if (json_object_get(m, t->metric) == NULL)
			fail_msg("%s:%d %s: its when has no term on '%s': %s", t->file, r->line,
			    t->finding, t->metric, when);
		json_object_set_new(m, t->metric, json_real(t->fires));
		if (diag_condition(when, m) != 1)
			fail_msg("%s:%d %s: silent with %s = %g (it must fire from %g): %s", t->file,
			    r->line, t->finding, t->metric, t->fires, t->fires, when);
		json_object_set_new(m, t->metric, json_real(t->silent));
		if (diag_condition(when, m) != 0)
			fail_msg("%s:%d %s: fires with %s = %g (it must not below %g): %s", t->file,
			    r->line, t->finding, t->metric, t->silent, t->fires, when);
		if (strcmp(diag_certainty_name(r->certainty), t->certainty) != 0)
			fail_msg("%s:%d %s: certainty %s, stated %s", t->file, r->line, t->finding,
			    diag_certainty_name(r->certainty), t->certainty);
		json_decref(m);
		free(when);
	}
	diag_rules_free(rs);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_threshold_fires_at_it_and_not_just_past_it),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
