/* Fuzzes the JSON snapshot reader and every snapshot-backend op on what it accepts. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "os/os.h"
#include "os/collect.h"
#include "os/snapshot.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static int
list_cb(const char *name, const char *value, void *arg)
{
	(void)name;
	(void)value;
	return ++*(int *)arg > 1000;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "net.core.netdev_budget", "if.eth0.rps_cpus",
		"net.isr.dispatch" };
	struct os_ctx *ctx;
	char *cause = NULL, *v;
	json_t *d;
	int n = 0;

	if ((d = os_snapshot_parse((const char *)data, size, "fuzz.json", &cause)) == NULL) {
		free(cause);
		return 0;
	}
	ctx = os_open_doc(d);
	d = os_collect(ctx, names, 3, OS_COLLECT_SNAPSHOT);
	json_decref(d);
	if (ctx->ops->tunable_get(ctx, "net.isr.dispatch", &v, NULL) == 0)
		free(v);
	ctx->ops->tunable_list(ctx, "net.", list_cb, &n, NULL);
	os_close(ctx);
	return 0;
}
