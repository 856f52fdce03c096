/*
 * The snapshot backend (snapshot.c): os_ops answered from an inspect document
 * (os_json.h), read from a JSON snapshot or built from pasted text (fbsd_text.h).
 */
#ifndef NTUNE_OS_SNAPSHOT_H
#define NTUNE_OS_SNAPSHOT_H

#include <jansson.h>

#include "os/os.h"

/* The snapshot backend's document (NULL for other backends) and its recorded errors. */
json_t	*os_snapshot_doc(struct os_ctx *);
json_t	*os_snapshot_errors(struct os_ctx *);
/* The snapshot backend over a document already in memory (takes the reference). */
struct os_ctx *os_open_doc(json_t *doc);
/* Validates a JSON snapshot's text; a new reference, or NULL with "path:line: ..." in cause. */
json_t	*os_snapshot_parse(const char *data, size_t len, const char *path, char **cause);

#endif
