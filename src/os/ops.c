/*
 * The backend's operations called through one function each: an operation the
 * backend lacks (a NULL op) fails with "<what> is unsupported on '<backend>'",
 * so no caller tests the op table itself.
 */
#include "os/os_impl.h"
#include "util/util.h"

static int
unsupported(struct os_ctx *ctx, const char *what, char **cause)
{
	util_cause(cause, "%s is unsupported on '%s'", what, ctx->ops->name);
	return -1;
}

const char *
os_backend_name(const struct os_ctx *ctx)
{
	return ctx->ops->name;
}

int
os_system_info(struct os_ctx *ctx, struct os_system *sys, char **cause)
{
	if (ctx->ops->system == NULL)
		return unsupported(ctx, "reading the system", cause);
	return ctx->ops->system(ctx, sys, cause);
}

int
os_cpu_info(struct os_ctx *ctx, struct os_cpu *cpu, char **cause)
{
	if (ctx->ops->cpu == NULL)
		return unsupported(ctx, "reading the CPUs", cause);
	return ctx->ops->cpu(ctx, cpu, cause);
}

int
os_nics(struct os_ctx *ctx, struct os_nic **nics, size_t *n, char **cause)
{
	if (ctx->ops->nics == NULL)
		return unsupported(ctx, "listing NICs", cause);
	return ctx->ops->nics(ctx, nics, n, cause);
}

int
os_cpu_times(struct os_ctx *ctx, struct os_cpu_times **t, size_t *ncpu, char **cause)
{
	if (ctx->ops->cpu_times == NULL)
		return unsupported(ctx, "reading per-CPU times", cause);
	return ctx->ops->cpu_times(ctx, t, ncpu, cause);
}

int
os_if_counters(struct os_ctx *ctx, struct os_if_counters **c, size_t *n, char **cause)
{
	if (ctx->ops->if_counters == NULL)
		return unsupported(ctx, "reading interface counters", cause);
	return ctx->ops->if_counters(ctx, c, n, cause);
}

int
os_irqs(struct os_ctx *ctx, struct os_irq **irqs, size_t *n, char **cause)
{
	if (ctx->ops->irqs == NULL)
		return unsupported(ctx, "reading interrupts", cause);
	return ctx->ops->irqs(ctx, irqs, n, cause);
}

int
os_tunable_get(struct os_ctx *ctx, const char *name, char **value, char **cause)
{
	if (ctx->ops->tunable_get == NULL)
		return unsupported(ctx, "reading tunables", cause);
	return ctx->ops->tunable_get(ctx, name, value, cause);
}

int
os_tunable_set(struct os_ctx *ctx, const char *name, const char *value, char **cause)
{
	if (ctx->ops->tunable_set == NULL)
		return unsupported(ctx, "setting tunables", cause);
	return ctx->ops->tunable_set(ctx, name, value, cause);
}

int
os_tunable_kind(struct os_ctx *ctx, const char *name, enum os_tunable_kind *kind, char **cause)
{
	if (ctx->ops->tunable_kind == NULL)
		return unsupported(ctx, "reading what kind a tunable is", cause);
	return ctx->ops->tunable_kind(ctx, name, kind, cause);
}

int
os_tunable_list(struct os_ctx *ctx, const char *prefix,
    int (*fn)(const char *name, const char *value, void *arg), void *arg, char **cause)
{
	if (ctx->ops->tunable_list == NULL)
		return unsupported(ctx, "listing tunables", cause);
	return ctx->ops->tunable_list(ctx, prefix, fn, arg, cause);
}
