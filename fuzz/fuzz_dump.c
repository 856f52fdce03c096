/* Fuzzes the FreeBSD text parsers (sysctl -a, pciconf, vmstat -i, ifconfig, dmesg, top -P, netstat). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "os/fbsd_text.h"
#include "os/os.h"
#include "os/collect.h"
#include "os/snapshot.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "net.isr.maxthreads", "dev.ix.0.fc" };
	struct fbsd_text *t = fbsd_text_new();
	struct fbsd_topology tp;
	struct os_ctx *ctx;
	json_t *d;
	char *s;

	fbsd_text_add(t, (const char *)data, size, "fuzz.txt");
	ctx = os_open_doc(fbsd_text_doc(t));
	fbsd_text_free(t);
	d = os_collect(ctx, names, 2, OS_COLLECT_SNAPSHOT);
	json_decref(d);
	os_close(ctx);
	s = xstrndup((const char *)data, size);
	if (fbsd_topology_parse(s, &tp) == 0)
		fbsd_topology_free(&tp);
	free(s);
	return 0;
}
