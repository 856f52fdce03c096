/*
 * Backend selection: which system is looked at (os_open_target), and the live
 * backend picked at run time from uname(3) among the ones this build contains.
 * This is the only file of the platform layer that says #ifdef. The helpers
 * the backends share are in os_util.c.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "os/os_impl.h"
#include "os/platform.h"
#include "util/util.h"

const char *
os_target_root(void)
{
	const char *root = getenv("NTUNE_ROOT");

	return root != NULL ? root : "";
}

struct os_ctx *
os_open_target(const char *const *from, size_t n, char **cause)
{
	if (n > 0)
		return os_open_files(from, n, cause);
	return os_open_live(os_target_root(), cause);
}

struct os_ctx *
os_open_live(const char *root, char **cause)
{
	struct os_ctx *ctx;
	struct utsname u;
	const struct os_ops *ops = NULL;
	int (*init)(struct os_ctx *, char **) = NULL;

	if (uname(&u) != 0) {
		util_cause(cause, "uname failed");
		return NULL;
	}
#ifdef __linux__
	if (os_platform_of_uname(u.sysname) == OS_PLATFORM_LINUX) {
		ops = &os_linux_ops;
		init = os_linux_init;
	}
#endif
#ifdef __FreeBSD__
	if (os_platform_of_uname(u.sysname) == OS_PLATFORM_FREEBSD) {
		ops = &os_freebsd_ops;
		init = os_freebsd_init;
	}
#endif
	if (ops == NULL) {
		util_cause(cause, "no live backend for '%s' in this build (use --from FILE)", u.sysname);
		return NULL;
	}
	ctx = xcalloc(1, sizeof *ctx);
	ctx->ops = ops;
	ctx->root = xstrdup(root != NULL ? root : "");
	if (init(ctx, cause) != 0) {
		free((char *)ctx->root);
		free(ctx);
		return NULL;
	}
	return ctx;
}

int
os_backend_counters(struct os_ctx *ctx, struct os_counters *c, char **cause)
{
#ifdef __linux__
	if (ctx->ops == &os_linux_ops)
		return os_linux_counters(ctx, c, cause);
#endif
#ifdef __FreeBSD__
	if (ctx->ops == &os_freebsd_ops)
		return os_fbsd_counters(ctx, c, cause);
#endif
	return 0;
}

int
os_if_hwaddr(const char *ifname, uint8_t mac[6], char **cause)
{
#if defined(__linux__)
	return os_linux_if_hwaddr(ifname, mac, cause);
#elif defined(__FreeBSD__)
	return os_freebsd_if_hwaddr(ifname, mac, cause);
#else
	util_cause(cause, "cannot read the address of '%s' on this system", ifname);
	return -1;
#endif
}

int
os_napi_threads(const char *ifname, struct os_napi_thread *t, size_t max, size_t *n, char **cause)
{
	*n = 0;
#if defined(__linux__)
	return os_linux_napi_threads(ifname, t, max, n, cause);
#else
	(void)t;
	(void)max;
	util_cause(cause, "'%s' has no NAPI threads on this system (Linux only)", ifname);
	return -1;
#endif
}

int
os_napi_thread_read(struct os_napi_thread *t)
{
#if defined(__linux__)
	return os_linux_napi_thread_read(t);
#else
	(void)t;
	return -1;
#endif
}

void
os_close(struct os_ctx *ctx)
{
	if (ctx == NULL)
		return;
	if (ctx->ops->close != NULL)
		ctx->ops->close(ctx);
	if (ctx->on_close != NULL)
		ctx->on_close(ctx->on_close_arg);
	free((char *)ctx->root);
	free(ctx);
}
