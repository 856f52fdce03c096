/*
 * A captured tree's answers to what a live system is asked through ioctls and netlink:
 * ROOT/ntune/if/IF, written by the capture reader (src/remote/capture_linux.c) from the
 * box's ethtool, tc and /proc text, holds "KEY VALUE" lines (ring.rx 256, offload.gro on,
 * qdisc default, napi_thread_cpus 0-1, ...) and, for what ethtool could not read,
 * "unsupported GROUP" or "unread GROUP: WHY" (GROUP: driver info, channels, rings,
 * coalescing, offloads, flow control).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "os/os_impl.h"
#include "os/linux_impl.h"
#include "util/util.h"

static char *
facts_text(struct os_ctx *ctx, const char *ifname)
{
	char path[PATH_MAX], *data;
	size_t len;

	if (strchr(ifname, '/') != NULL)
		return NULL;
	linux_rpath(ctx, path, sizeof path, "/ntune/if/%s", ifname);
	if (util_read_file(path, &data, &len, NULL) != 0)
		return NULL;
	if (strlen(data) != len) {
		free(data);
		return NULL;
	}
	return data;
}

/* The rest of the line of text that starts with prefix, into buf; -1 when none does. */
static int
line_value(const char *text, const char *prefix, char *buf, size_t len)
{
	size_t n = strlen(prefix);
	const char *p;

	for (p = text; p != NULL && *p != '\0'; p = strchr(p, '\n') != NULL ? strchr(p, '\n') + 1 : NULL) {
		if (strncmp(p, prefix, n) == 0) {
			snprintf(buf, len, "%.*s", (int)strcspn(p + n, "\n"), p + n);
			return 0;
		}
	}
	return -1;
}

bool
linux_captured_has(struct os_ctx *ctx, const char *ifname)
{
	char *t = facts_text(ctx, ifname);

	free(t);
	return t != NULL;
}

int
linux_captured_fact(struct os_ctx *ctx, const char *ifname, const char *key, char *buf,
    size_t len)
{
	char *t = facts_text(ctx, ifname), prefix[128];
	int rc;

	if (t == NULL)
		return -1;
	snprintf(prefix, sizeof prefix, "%s ", key);
	rc = line_value(t, prefix, buf, len);
	free(t);
	return rc;
}

int
linux_captured_failed(struct os_ctx *ctx, const char *ifname, const char *group, char *why,
    size_t len)
{
	char *t = facts_text(ctx, ifname), line[128];
	int rc = 0;

	why[0] = '\0';
	if (t == NULL)
		return 0;
	snprintf(line, sizeof line, "unsupported %s", group);
	if (line_value(t, line, why, len) == 0 && why[0] == '\0')
		rc = EOPNOTSUPP;
	else {
		snprintf(line, sizeof line, "unread %s: ", group);
		if (line_value(t, line, why, len) == 0)
			rc = EIO;
		else
			why[0] = '\0';
	}
	free(t);
	return rc;
}

int
linux_captured_int(struct os_ctx *ctx, const char *ifname, const char *key, int *v)
{
	char buf[32], *end;
	long n;

	if (linux_captured_fact(ctx, ifname, key, buf, sizeof buf) != 0)
		return -1;
	n = strtol(buf, &end, 10);
	if (end == buf || *end != '\0' || n < 0 || n > INT32_MAX)
		return -1;
	*v = (int)n;
	return 0;
}
