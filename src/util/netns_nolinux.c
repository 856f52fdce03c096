/*
 * Stand-ins for util's Linux-only functions (src/util/netns.c), built where
 * host_machine.system() is not 'linux' (the top-level meson.build says so).
 */
#include "util/util.h"

static int
no_netns(const char *name, char **cause)
{
	util_cause(cause, "network namespaces are Linux-only (namespace '%s')", name);
	return -1;
}

int
util_netns_open(const char *name, char **cause)
{
	return no_netns(name, cause);
}

int
util_netns_enter(const char *name, char **cause)
{
	return no_netns(name, cause);
}

int
util_netns_enter_sys(const char *name, char **cause)
{
	return no_netns(name, cause);
}
