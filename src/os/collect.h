/*
 * Collecting the inspect/snapshot document (os_json.h) from any backend:
 * `ntune inspect` renders it as text or prints it; `ntune snapshot` adds the raw
 * counters and the sysctl listing.
 */
#ifndef NTUNE_OS_COLLECT_H
#define NTUNE_OS_COLLECT_H

#include <jansson.h>

#include "os/os.h"

#define OS_COLLECT_SNAPSHOT	0x1	/* add sysctls, cpu_times, if_counters, irqs */

/*
 * Collects system, CPU, NICs and the named tunables. What could not be read is
 * listed in the document's "errors" array (and the rest is still collected).
 */
json_t	*os_collect(struct os_ctx *, const char *const *tunables, size_t ntunables, int flags);

#endif
