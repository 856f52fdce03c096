/*
 * Reading and writing tunables for apply/revert/verify, through the platform
 * layer's tunable_get/set (the one writer of tunables). Names that belong to a
 * network namespace are served by a child process that entered it
 * (util_netns_enter_sys: setns + own mount namespace + fresh /sys, as
 * `ip netns exec` does; Linux-only), so the caller's own namespaces never
 * change and threads are not a concern.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apply/apply.h"
#include "apply/apply_impl.h"
#include "kb/kb.h"
#include "os/os.h"
#include "util/run.h"
#include "util/util.h"

struct apply_access {
	struct os_ctx *os;	/* this machine's platform layer (opened on first use) */
	char	*os_why;	/* why it could not be opened */
	bool	os_tried;
	struct util_child server;	/* the helper inside the netns (pid 0: none) */
	int	fd;		/* socket to it */
	char	*netns;
};

bool
apply_in_netns(const struct kb *kb, const char *name)
{
	const struct kb_knob *k;

	if (util_startswith(name, "if."))
		return true;
	if ((k = kb_find(kb, name, "linux")) != NULL && k->scope != KB_SCOPE_UNSET)
		return k->scope == KB_SCOPE_NETNS;
	/* Unknown to the KB: net.core.* is host-global except somaxconn, other net.* per namespace. */
	if (util_startswith(name, "net.core."))
		return strcmp(name, "net.core.somaxconn") == 0;
	return util_startswith(name, "net.");
}

/* This machine's platform layer, opened on first use; NULL + cause when there is none. */
static struct os_ctx *
local_os(struct apply_access *a, char **cause)
{
	if (!a->os_tried) {
		a->os_tried = true;
		a->os = os_open_live("", &a->os_why);
	}
	if (a->os == NULL)
		util_cause(cause, "%s", a->os_why != NULL ? a->os_why : "no platform layer");
	return a->os;
}

static int
local_get(struct apply_access *a, const char *name, char **value, char **cause)
{
	struct os_ctx *os;

	if ((os = local_os(a, cause)) == NULL)
		return -1;
	return os_tunable_get(os, name, value, cause);
}

static int
local_set(struct apply_access *a, const char *name, const char *value, char **cause)
{
	struct os_ctx *os;

	if ((os = local_os(a, cause)) == NULL)
		return -1;
	return os_tunable_set(os, name, value, cause);
}

/* Messages: op byte, then length-prefixed strings. */
static int
send_str(int fd, const char *s)
{
	uint32_t len = s != NULL ? (uint32_t)strlen(s) : 0;

	if (util_xfer(fd, &len, sizeof len, true) == -1)
		return -1;
	return len > 0 ? util_xfer(fd, (void *)s, len, true) : 0;
}

static char *
recv_str(int fd)
{
	uint32_t len;
	char *s;

	if (util_xfer(fd, &len, sizeof len, false) == -1 || len > (1U << 24))
		return NULL;
	s = xmalloc((size_t)len + 1);
	if (len > 0 && util_xfer(fd, s, len, false) == -1) {
		free(s);
		return NULL;
	}
	s[len] = '\0';
	return s;
}

static void
serve(struct apply_access *a, int fd)
{
	char op, *name, *value, *out, *cause;
	int rc;

	for (;;) {
		if (util_xfer(fd, &op, 1, false) == -1)
			return;
		name = recv_str(fd);
		value = recv_str(fd);
		if (name == NULL || value == NULL)
			return;
		out = cause = NULL;
		if (op == 'G')
			rc = local_get(a, name, &out, &cause);
		else
			rc = local_set(a, name, value, &cause);
		op = rc == 0 ? 0 : 1;
		if (util_xfer(fd, &op, 1, true) == -1 || send_str(fd, rc == 0 ? out : cause) == -1)
			return;
		free(name);
		free(value);
		free(out);
		free(cause);
	}
}

struct server_start {
	const char *netns;
	int	fd[2];
};

/* The child: enters the namespace, says whether it could, then serves until EOF. */
static int
server_main(void *arg)
{
	struct server_start *s = arg;
	struct apply_access inner;
	char *why = NULL, status;
	int ready;

	close(s->fd[0]);
	memset(&inner, 0, sizeof inner);
	ready = util_netns_enter_sys(s->netns, &why);
	status = ready == 0 ? 0 : 1;
	if (util_xfer(s->fd[1], &status, 1, true) == -1 || send_str(s->fd[1], why) == -1)
		return 1;
	if (ready == 0)
		serve(&inner, s->fd[1]);
	return 0;
}

struct apply_access *
apply_access_open(const char *netns, char **cause)
{
	struct apply_access *a = xcalloc(1, sizeof *a);
	struct server_start s = { .netns = netns };
	char *why = NULL, status;

	a->fd = -1;
	if (netns == NULL || *netns == '\0')
		return a;
	a->netns = xstrdup(netns);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, s.fd) == -1) {
		util_cause(cause, "socketpair: %s", strerror(errno));
		goto fail;
	}
	a->server.fn = server_main;
	a->server.arg = &s;
	if (util_child_start(&a->server, cause) == -1) {
		close(s.fd[0]);
		close(s.fd[1]);
		goto fail;
	}
	close(s.fd[1]);
	a->fd = s.fd[0];
	if (util_xfer(a->fd, &status, 1, false) == -1 || (why = recv_str(a->fd)) == NULL) {
		util_cause(cause, "cannot start the helper in namespace '%s'", netns);
		goto fail;
	}
	if (status != 0) {
		util_cause(cause, "%s", why);
		free(why);
		goto fail;
	}
	free(why);
	return a;
fail:
	apply_access_close(a);
	return NULL;
}

static int
remote(struct apply_access *a, char op, const char *name, const char *value, char **out,
    char **cause)
{
	char status, *s;

	if (util_xfer(a->fd, &op, 1, true) == -1 || send_str(a->fd, name) == -1 ||
	    send_str(a->fd, value) == -1 || util_xfer(a->fd, &status, 1, false) == -1 ||
	    (s = recv_str(a->fd)) == NULL) {
		util_cause(cause, "lost the helper in namespace '%s'", a->netns);
		return -1;
	}
	if (status != 0) {
		util_cause(cause, "%s", s);
		free(s);
		return -1;
	}
	if (out != NULL)
		*out = s;
	else
		free(s);
	return 0;
}

int
apply_access_get(struct apply_access *a, const struct kb *kb, const char *name, char **value,
    char **cause)
{
	if (a->server.pid > 0 && apply_in_netns(kb, name))
		return remote(a, 'G', name, "", value, cause);
	return local_get(a, name, value, cause);
}

int
apply_access_set_in(struct apply_access *a, bool in_netns, const char *name, const char *value,
    char **cause)
{
	if (a->server.pid > 0 && in_netns)
		return remote(a, 'S', name, value, NULL, cause);
	return local_set(a, name, value, cause);
}

int
apply_access_set(struct apply_access *a, const struct kb *kb, const char *name, const char *value,
    char **cause)
{
	if (a->server.pid > 0 && apply_in_netns(kb, name))
		return remote(a, 'S', name, value, NULL, cause);
	return local_set(a, name, value, cause);
}

int
apply_access_kind(struct apply_access *a, const char *name, enum os_tunable_kind *kind)
{
	struct os_ctx *os = local_os(a, NULL);
	char *cause = NULL;

	*kind = OS_TUNABLE_NONE;
	if (os == NULL)
		return -1;
	if (os_tunable_kind(os, name, kind, &cause) == -1) {
		free(cause);
		return -1;
	}
	return 0;
}

void
apply_access_close(struct apply_access *a)
{
	if (a == NULL)
		return;
	if (a->fd != -1)
		close(a->fd);
	if (a->server.pid > 0)
		util_child_finish(&a->server, NULL);
	if (a->os != NULL)
		os_close(a->os);
	free(a->os_why);
	free(a->netns);
	free(a);
}
