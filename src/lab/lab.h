/*
 * The lab: a generator, a device under test and a sink in three Linux network
 * namespaces, joined by veth pairs (see doc/interfaces.md for names and
 * addresses). lab.c builds and tears it down (this header), netns.c enters
 * namespaces (netns.h), names.c names things (names.h),
 * gen.c/sink.c send and count test traffic, rfc2544.c runs RFC 2544 on it.
 */
#ifndef NTUNE_LAB_H
#define NTUNE_LAB_H

#include <stdbool.h>
#include <stddef.h>

#include "lab/names.h"
#include "lab/nsenter.h"

/*
 * Building the lab, entering namespaces, gen and sink are Linux-only (the
 * top-level meson.build lists the files); elsewhere src/lab/lab_nolinux.c stands in
 * and every such function fails with this cause.
 */
#define LAB_LINUX_ONLY	"the lab is Linux-only (network namespaces, veth, AF_PACKET); " \
	"on FreeBSD measure between machines with --dut ssh://[user@]host"

/*
 * Builds the lab; on failure removes whatever it created and returns -1.
 * Refuses (-1, cause) a prefix whose namespaces already exist.
 */
int	 lab_up(const struct lab_config *, char **cause);
/*
 * Removes the lab's namespaces (and with them its veths, bridge and rules)
 * and its state file. 0 when removed or nothing was there, -1 when a
 * namespace of that name exists that ntune did not create.
 */
int	 lab_down(const char *prefix, int *removed, char **cause);

/* What exists of a lab. */
struct lab_status {
	struct lab_config config;	/* from the state file, if any */
	bool		state_file;	/* ntune's state file exists */
	bool		ns_exists[LAB_NROLES];
	bool		ours[LAB_NROLES];	/* namespace holds an ntune-labelled interface */
	struct lab_ifstat ifs[LAB_NROLES][4];
	int		nifs[LAB_NROLES];
};
int	 lab_status(const char *prefix, struct lab_status *, char **cause);
/* Names of labs with a state file or namespaces "<x>-gen|dut|sink"; free with lab_list_free. */
int	 lab_list(char ***prefixes, size_t *n, char **cause);
void	 lab_list_free(char **, size_t);
/* The host-wide sysctl an impairment sets (hostsysctl.c): its dotted name and value. */
struct lab_host_setting {
	enum lab_impair	impair;
	const char	*name;
	const char	*value;
};
/* The impairment's host-wide setting, NULL when it has none. */
const struct lab_host_setting *lab_host_setting(enum lab_impair);
/*
 * Sets c's impairment's host-wide sysctl after recording its original in
 * LAB_HOST_STATE (*owned true), or shares it with the live lab that set it to
 * the same value (*owned false). -1 + cause when another live lab holds it.
 */
int	 lab_host_hold(const struct lab_config *c, bool *owned, char **cause);
/* Writes back the original when lab prefix holds the host sysctl; 0 when it does not. */
int	 lab_host_release(const char *prefix, char **cause);
/* The host sysctl lab prefix holds: 0 with its name, value and original, -1 when none. */
int	 lab_host_held(const char *prefix, char *name, size_t nlen, char *value, size_t vlen,
	    char *original, size_t olen);
/*
 * Deletes every conntrack entry in namespace ns (conntrack.c), so that a run
 * does not inherit the previous run's flows: entries made while a larger
 * nf_conntrack_max was in force outlive a smaller one. -1 + cause when it
 * could not (no conntrack netlink in the kernel); nothing to delete is 0.
 */
int	 lab_conntrack_flush(const char *ns, char **cause);
/* Reads a lab's state file; -1 + cause when the lab is not up. */
int	 lab_read_config(const char *prefix, struct lab_config *, char **cause);

#endif
