/*
 * The inspect/snapshot JSON document (schema "ntune-inspect" version 1, described
 * in ntune(8)): everything a backend reports, collected once. `ntune inspect`
 * renders it as text or prints it; `ntune snapshot` adds the raw counters and the
 * sysctl listing; the snapshot backend reads it back.
 */
#ifndef NTUNE_OS_JSON_H
#define NTUNE_OS_JSON_H

#include <jansson.h>

#include "os/os.h"

#define OS_JSON_SCHEMA		"ntune-inspect"
#define OS_JSON_VERSION		1

#define OS_COLLECT_SNAPSHOT	0x1	/* add sysctls, cpu_times, if_counters, irqs */

/*
 * Collects system, CPU, NICs and the named tunables. What could not be read is
 * listed in the document's "errors" array (and the rest is still collected).
 */
json_t	*os_collect(struct os_ctx *, const char *const *tunables, size_t ntunables, int flags);

const char *os_tunable_kind_name(enum os_tunable_kind);
enum os_tunable_kind os_tunable_kind_parse(const char *);

/* Conversions between the structs of os.h and their JSON form (used by the snapshot backend). */
json_t	*os_json_system(const struct os_system *);
json_t	*os_json_cpu(const struct os_cpu *);
json_t	*os_json_nic(const struct os_nic *);
int	 os_json_to_system(json_t *, struct os_system *);
int	 os_json_to_cpu(json_t *, struct os_cpu *);
int	 os_json_to_nic(json_t *, struct os_nic *);
/* Member key of o as a string ("" if it is not one) or a count (0 if not a positive integer). */
void	 os_json_str(json_t *o, const char *key, char *buf, size_t len);
uint64_t os_json_u64(json_t *o, const char *key);

/* The snapshot backend's document (NULL for other backends) and its recorded errors. */
json_t	*os_snapshot_doc(struct os_ctx *);
json_t	*os_snapshot_errors(struct os_ctx *);
/* The snapshot backend over a document already in memory (takes the reference). */
struct os_ctx *os_open_doc(json_t *doc);
/* Validates a JSON snapshot's text; a new reference, or NULL with "path:line: ..." in cause. */
json_t	*os_snapshot_parse(const char *data, size_t len, const char *path, char **cause);

#endif
