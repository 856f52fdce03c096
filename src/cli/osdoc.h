/* Helpers shared by inspect, snapshot and top (not a subcommand). */
#ifndef NTUNE_CMD_OSDOC_H
#define NTUNE_CMD_OSDOC_H

#include <stdbool.h>

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
/*
 * cmd_os_open with the router options (dut/dut.h; o may be NULL): o->url
 * ssh://[user@]host[:port] is read agentless (dut_capture: one script over one
 * ssh connection, nothing written there); a
 * single --from that is a capture (a directory, or a file of the capture script's
 * output) is read as one. Either way a section its parser rejects is printed and
 * NULL returned (exit 2). cap (may be NULL) receives the capture, when there is one.
 */
struct capture_set;
struct dut_opts;
struct os_ctx *cmd_os_open_at(const struct ntune_cmd *, const struct dut_opts *o,
	    const char **from, size_t nfrom, struct capture_set *cap);
/*
 * A read command's router: its ssh:// operand (the positional form) or --dut,
 * not both; 0, or the exit status after printing why.
 */
int	cmd_os_target(const struct ntune_cmd *, struct cmd_args *, struct dut_opts *);
/*
 * The snapshot document of a capture (what `ntune snapshot ssh://` prints): the
 * document with the knowledge base's tunables, the raw data, the captured boot
 * files. NULL + cause when the knowledge base or a section cannot be read. Bench's
 * per-run snapshot of an agentless DUT (bench_remote's capture_snapshot).
 */
json_t	*cmd_os_capture_snapshot(const struct capture_set *, char **cause);
/* Prints each of the document's "errors" as "ntune NAME: error"; returns how many there are. */
size_t	cmd_os_errors(const struct ntune_cmd *, json_t *doc);

#endif
