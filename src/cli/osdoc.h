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
 * How a command reaches an ssh:// target agentless (remote/capture.h): the ssh
 * options of the other --dut commands, and the DUT's root for its files (a rig).
 */
struct cmd_os_ssh {
	const char *ssh_config, *dut_root;
	bool	accept_new;
};
enum { CMD_OS_OPT_SSH_CONFIG = 300, CMD_OS_OPT_ACCEPT_NEW, CMD_OS_OPT_DUT_ROOT };
#define CMD_OS_SSH_LONGOPTS \
	{ "ssh-config", required_argument, NULL, CMD_OS_OPT_SSH_CONFIG }, \
	{ "ssh-accept-new", no_argument, NULL, CMD_OS_OPT_ACCEPT_NEW }, \
	{ "dut-root", required_argument, NULL, CMD_OS_OPT_DUT_ROOT }
/* 1 if ch was one of them (stored), 0 if not. */
int	cmd_os_ssh_option(struct cmd_os_ssh *, int ch, const char *arg);
/*
 * cmd_os_open with a target: target ssh://[user@]host[:port] is read agentless
 * (capture_run: one script over one ssh connection, nothing written there); a
 * single --from that is a capture (a directory, or a file of the capture script's
 * output) is read as one. Either way a section its parser rejects is printed and
 * NULL returned (exit 2). cap (may be NULL) receives the capture, when there is one.
 */
struct capture_set;
struct os_ctx *cmd_os_open_at(const struct ntune_cmd *, const char *target,
	    const struct cmd_os_ssh *, const char **from, size_t nfrom, struct capture_set *cap);
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
