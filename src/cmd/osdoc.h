/* Helpers shared by inspect, snapshot and top (not a subcommand). */
#ifndef NTUNE_CMD_OSDOC_H
#define NTUNE_CMD_OSDOC_H

#include <jansson.h>

#include "os/os.h"

struct ntune_cmd;
/*
 * The inspect document (os_json.h schema) of ctx, with the current value of
 * every tunable of the knowledge base for its OS and the per-CPU load of a
 * top -P paste. NULL after printing "ntune NAME: why" when the knowledge base
 * is missing or empty. flags: OS_COLLECT_SNAPSHOT adds the raw data.
 */
json_t	*cmd_os_document(const struct ntune_cmd *, struct os_ctx *ctx, int flags);

/*
 * Which system a command looks at (os_open_target: the --from files, else this
 * machine, a captured /proc + /sys tree when NTUNE_ROOT is set); NULL after
 * printing "ntune NAME: why". inspect, snapshot, top and diagnose use it; check
 * and advise reach os_open_target through kb_target_open (which also takes an
 * OPNsense config.xml and the profile's OS family).
 */
struct os_ctx *cmd_os_open(const struct ntune_cmd *, const char **from, size_t nfrom);
/* Prints each of the document's "errors" as "ntune NAME: error"; returns how many there are. */
size_t	cmd_os_errors(const struct ntune_cmd *, json_t *doc);

#endif
