/*
 * The CPU topology in a kern.sched.topology_spec value (fbsd_text.h).
 */
#include <ctype.h>
#include <string.h>

#include "os/fbsd_text.h"
#include "os/os_impl.h"
#include "util/util.h"

void
fbsd_topology_free(struct fbsd_topology *tp)
{
	free(tp->cpu_core);
	free(tp->cpu_node);
	tp->cpu_core = tp->cpu_node = NULL;
}

static void
cpu_set_from(const char *p, const char *end, int *arr, int ncpu, int value)
{
	char *e;
	long c;

	while (p < end) {
		while (p < end && !isdigit((unsigned char)*p))
			p++;
		if (p >= end)
			break;
		c = strtol(p, &e, 10);
		p = e;
		if (c >= 0 && c < ncpu)
			arr[c] = value;
	}
}

int
fbsd_topology_parse(const char *xml, struct fbsd_topology *tp)
{
	const char *p, *cpu, *close, *flags, *nextg;
	int first = 1, core = 0, node = 0, i;

	memset(tp, 0, sizeof *tp);
	tp->ncpu = -1;
	if ((p = strstr(xml, "<groups>")) == NULL && (p = strstr(xml, "<group ")) == NULL)
		return -1;
	tp->truncated = strstr(xml, "</groups>") == NULL;
	for (p = strstr(p, "<group "); p != NULL; p = nextg) {
		int count;

		nextg = strstr(p + 1, "<group ");
		if ((cpu = strstr(p, "<cpu count=\"")) == NULL || (nextg != NULL && cpu > nextg))
			continue;
		count = atoi(cpu + 12);
		close = strstr(cpu, "</cpu>");
		if (first) {
			first = 0;
			if (count <= 0 || count > OS_MAXCPU)
				return -1;
			tp->ncpu = count;
			tp->cpu_core = xcalloc((size_t)count, sizeof(int));
			tp->cpu_node = xcalloc((size_t)count, sizeof(int));
			for (i = 0; i < count; i++)
				tp->cpu_core[i] = tp->cpu_node[i] = -1;
			continue;
		}
		if (close == NULL) {
			tp->truncated = 1;
			break;
		}
		cpu = strchr(cpu, '>');
		flags = strstr(close, "<flags>");
		if (flags != NULL && (nextg == NULL || flags < nextg) &&
		    (strstr(flags, "name=\"THREAD\"") != NULL || strstr(flags, "name=\"SMT\"") != NULL) &&
		    (nextg == NULL || strstr(flags, "name=\"SMT\"") < nextg ||
		    strstr(flags, "name=\"THREAD\"") < nextg)) {
			cpu_set_from(cpu + 1, close, tp->cpu_core, tp->ncpu, core++);
			if (count > 1)
				tp->smt = 1;
		} else if (flags != NULL && (nextg == NULL || flags < nextg) &&
		    strstr(flags, "name=\"NODE\"") != NULL &&
		    (nextg == NULL || strstr(flags, "name=\"NODE\"") < nextg)) {
			cpu_set_from(cpu + 1, close, tp->cpu_node, tp->ncpu, node++);
		}
	}
	if (tp->ncpu < 0)
		return -1;
	/* CPUs in no SMT group are cores of their own */
	for (i = 0; i < tp->ncpu; i++)
		if (tp->cpu_core[i] < 0 && !tp->truncated)
			tp->cpu_core[i] = core++;
	tp->ncores = core;
	tp->nnodes = node;
	return 0;
}
