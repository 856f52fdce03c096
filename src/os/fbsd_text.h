/*
 * Parsers for FreeBSD / OPNsense / pfSense command output, shared by the
 * snapshot backend (pasted text) and the freebsd backend (live values): sysctl -a,
 * pciconf -lv / -lcbv (both formats), vmstat -i, ifconfig -a, dmesg,
 * kern.sched.topology_spec, top -P, netstat -ibnd and netstat -Q. The kind of each
 * file is found from its content; a file may hold several outputs one after another.
 */
#ifndef NTUNE_FBSD_TEXT_H
#define NTUNE_FBSD_TEXT_H

#include <stddef.h>

#include <jansson.h>

struct fbsd_text;

struct fbsd_text *fbsd_text_new(void);
/* Adds one file's text; what cannot be parsed is recorded as an error naming path:line. */
void	 fbsd_text_add(struct fbsd_text *, const char *data, size_t len, const char *path);
/*
 * Adds text known to be the whole output of `sysctl -a`: a line that is not
 * "name: value" continues the value above it (kern.conftxt's, for one).
 */
void	 fbsd_text_add_sysctl_a(struct fbsd_text *, const char *data, size_t len, const char *path);
/* Adds one sysctl (the freebsd backend feeds live values through this). */
void	 fbsd_text_sysctl(struct fbsd_text *, const char *name, const char *value);
/* The kinds of output found so far, e.g. "sysctl pciconf vmstat-i". */
const char *fbsd_text_kinds(struct fbsd_text *);
/* Builds an inspect document (os_json.h schema) from everything added. */
json_t	*fbsd_text_doc(struct fbsd_text *);
void	 fbsd_text_free(struct fbsd_text *);

/* The CPU topology in a kern.sched.topology_spec value. */
struct fbsd_topology {
	int	 ncpu;		/* CPUs in the root group, -1 unknown */
	int	 ncores;	/* groups flagged THREAD/SMT, or leaf groups */
	int	 nnodes;	/* groups flagged NODE */
	int	 smt;		/* 1 if any SMT group has more than one CPU */
	int	 truncated;	/* the XML ended before </groups> */
	int	*cpu_core;	/* [ncpu]: core index of each CPU, or -1 */
	int	*cpu_node;	/* [ncpu]: node index, or -1 */
};
int	 fbsd_topology_parse(const char *xml, struct fbsd_topology *);
void	 fbsd_topology_free(struct fbsd_topology *);

#endif
