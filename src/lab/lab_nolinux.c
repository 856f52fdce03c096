/*
 * Stand-ins for the lab's Linux-only functions (lab.c, netns.c, nl.c, gen.c,
 * sink.c), built where host_machine.system() is not 'linux' (the top-level
 * meson.build says so): portable callers (bench, tune) link and get a clear
 * error instead of a missing symbol.
 */
#include <stdbool.h>
#include <stddef.h>

#include "lab/lab.h"
#include "lab/traffic.h"
#include "util/util.h"

static int
linux_only(char **cause)
{
	util_cause(cause, "%s", LAB_LINUX_ONLY);
	return -1;
}

int
lab_up(const struct lab_config *c, char **cause)
{
	return linux_only(cause);
}

int
lab_down(const char *prefix, int *removed, char **cause)
{
	*removed = 0;
	return linux_only(cause);
}

int
lab_conntrack_flush(const char *ns, char **cause)
{
	return linux_only(cause);
}

int
lab_status(const char *prefix, struct lab_status *st, char **cause)
{
	return linux_only(cause);
}

int
lab_list(char ***prefixes, size_t *n, char **cause)
{
	*prefixes = NULL;
	*n = 0;
	return linux_only(cause);
}

void
lab_list_free(char **list, size_t n)
{
}

int
lab_read_config(const char *prefix, struct lab_config *c, char **cause)
{
	return linux_only(cause);
}

bool
lab_netns_exists(const char *name)
{
	return false;
}

bool
lab_netns_is_lab(const char *prefix, const char *nsname)
{
	return false;
}

int
lab_netns_enter(const char *name, char **cause)
{
	return linux_only(cause);
}

int
lab_netns_run(const char *name, int (*fn)(void *), void *arg, char **cause)
{
	return linux_only(cause);
}

int
lab_netns_exec(const char *name, char *const argv[], char **cause)
{
	return linux_only(cause);
}

int
lab_netns_execv(const char *name, char *const argv[], char **cause)
{
	return linux_only(cause);
}

int
lab_find_self(char *prefix, size_t len, enum lab_role *role, char **cause)
{
	return linux_only(cause);
}

int
lab_if_stats(const char *nsname, struct lab_ifstat *ifs, int max, int *n, char **cause)
{
	*n = 0;
	return linux_only(cause);
}

int
lab_if_stat(const char *nsname, const char *ifname, struct lab_ifstat *st, char **cause)
{
	return linux_only(cause);
}

int
lab_check_privileges(char **cause)
{
	return linux_only(cause);
}

int
lab_nexthop(int family, const union lab_addr *dst, char *ifname, size_t iflen,
    union lab_addr *src, uint8_t src_mac[6], uint8_t dst_mac[6], char **cause)
{
	return linux_only(cause);
}

int
gen_run(const struct gen_config *c, struct gen_result *res, char **cause)
{
	return linux_only(cause);
}

int
sink_run(const struct sink_config *c, struct sink_result *r, char **cause)
{
	return linux_only(cause);
}
