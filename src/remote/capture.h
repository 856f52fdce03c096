/*
 * A capture: what ntune reads from a router that has nothing but its base system
 * (doc/interfaces.md, "Captures"). One POSIX sh script (capture_script) prints
 * the sections of the contract between lines carrying a random token; its output
 * comes back over ssh (capture_run) or as a user's paste (capture_parse), or is
 * kept as a directory with one file per section (capture_read_dir,
 * capture_write_dir). os_open_captures reads a capture with the same parsers
 * as `--from` (FreeBSD text: fbsd_text.h).
 */
#ifndef NTUNE_REMOTE_CAPTURE_H
#define NTUNE_REMOTE_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>

struct os_ctx;
struct remote_host;

#define CAPTURE_FORMAT		1	/* the N of the header line "::TOKEN:: ntune-capture N" */
#define CAPTURE_SECS_MAX	3600	/* the longest load sample (top's interval) */

struct capture_section {
	char	*name;		/* "sysctl-a.txt": [A-Za-z0-9_][A-Za-z0-9._-]*, at most 64 */
	char	*text;		/* NUL-terminated (len bytes before the NUL) */
	size_t	 len;
	int	 status;	/* the command's exit status; 0 in a directory */
	size_t	 line;		/* the line of its begin line in the origin, 0 from a directory */
};

struct capture_set {
	struct capture_section *v;
	size_t	 n;
	char	*origin;	/* what it was read from: a file, a directory, ssh://host */
};

/*
 * The capture script (malloc'd): `sh SCRIPT [SECS [ROOT]]` prints, with a token
 * chosen here at random (/dev/urandom), "::TOKEN:: ntune-capture 1", then every
 * section as "::TOKEN:: begin NAME" ... "::TOKEN:: end NAME STATUS", then
 * "::TOKEN:: done". secs (1..CAPTURE_SECS_MAX, rounded to whole seconds) is the
 * default of SECS; files are read under ROOT, else $NTUNE_ROOT, else /.
 * It writes nothing, not even a temporary file. This is what
 * `ntune doctor --capture-script` prints.
 */
char	*capture_script(double secs);
/* Is secs a load sample the script takes (1..CAPTURE_SECS_MAX)? */
bool	 capture_secs_valid(double secs);

/*
 * Parses the script's output (or a paste of it: CRLF line ends, anything before the
 * header line, and lines outside sections are accepted). A capture cut short (a
 * section without its end line, no done line), a malformed token line or a bad
 * section name: -1 with "origin:LINE: ..." in cause; set is then empty.
 */
int	 capture_parse(const char *text, size_t len, const char *origin, struct capture_set *,
	    char **cause);
/* Does text hold a capture header line (before anything else is checked)? */
bool	 capture_is_capture(const char *text, size_t len);

/* A directory of sections (one file per section, its name the section's). */
int	 capture_read_dir(const char *dir, struct capture_set *, char **cause);
/*
 * Writes the sections whose status is 0 into dir, atomically: a temporary
 * directory beside it, then a rename. dir must not exist or be empty.
 */
int	 capture_write_dir(const struct capture_set *, const char *dir, char **cause);
/*
 * Reads a capture from path: a directory (capture_read_dir) or a file holding
 * the script's output (capture_parse).
 */
int	 capture_load(const char *path, struct capture_set *, char **cause);

/* The section called name with status 0, or NULL (an absent section). */
const struct capture_section *capture_get(const struct capture_set *, const char *name);
/* Adds (or replaces) a section; text is copied. */
void	 capture_set_add(struct capture_set *, const char *name, const char *text, size_t len,
	    int status);
void	 capture_set_free(struct capture_set *);

/*
 * Runs the script on host (`sh -s` over its shared ssh connection), waiting at
 * most secs + a margin, and parses what it printed (origin: the host's URL).
 * capture_run_root reads the DUT's files under root (a test rig's planted tree).
 * -1 + cause naming the host when it cannot be reached or its answer not read.
 */
int	 capture_run(const struct remote_host *, double secs, struct capture_set *, char **cause);
int	 capture_run_root(const struct remote_host *, double secs, const char *root,
	    struct capture_set *, char **cause);
/* A capture script run on host with args ($1...), parsed: capture_run's and capture_run_snapshot's. */
int	 capture_run_script(const struct remote_host *, const char *script, char *const args[],
	    double timeout, struct capture_set *, char **cause);

/*
 * The capture of a bench's per-run snapshot (capture_snap.c): the script above without
 * its top sample (a line NTUNE_CAPTURE_TOP=no before it; the counters are read once,
 * back to back), run on host with its files under root (NULL: /) and parsed.
 */
char	*capture_script_snapshot(void);
int	 capture_run_snapshot(const struct remote_host *, const char *root, struct capture_set *,
	    char **cause);

/*
 * The platform layer over a capture: the snapshot backend, its document built by
 * the `--from` parsers from the sections (FreeBSD: sysctl-a.txt, ifconfig-a.txt,
 * pciconf-lv.txt, vmstat-i.txt, netstat-Q.txt, netstat-ibnd.txt, dmesg.txt, top.txt through
 * fbsd_text; Linux: capture_open_linux). The OS is told by uname.txt. NULL + cause
 * when there is no uname.txt or sysctl-a.txt, or the OS is neither.
 */
struct os_ctx *os_open_captures(const struct capture_set *, char **cause);
/*
 * A Linux capture's os_open_captures (capture_linux.c): its linux-tree.txt and
 * sysctl-a.txt put back as a /proc + /sys tree in a private temporary directory, read
 * there by the Linux backend (ntune built for Linux only); os_close removes the tree.
 */
struct os_ctx *capture_open_linux(const struct capture_set *, char **cause);
/*
 * A sample of a Linux capture (before.txt, after.txt: /proc/stat, /proc/net/dev,
 * /proc/interrupts and, when the capture has it, /proc/net/softnet_stat one after another;
 * without softnet_stat the tree's copy is removed) put in place of those files in the tree of ctx
 * (a capture_open_linux context), so that os_counters_collect reads it there with the
 * Linux backend's own parsers. A line that is none of those files' (by its shape), a
 * file missing or given twice: -1 with "WHERE:LINE: ..." in cause, before anything is written.
 */
int	 capture_linux_sample(struct os_ctx *, const char *where, const char *text, size_t len,
	    char **cause);
/* The files a boot reads (loader.conf ... sysctl.conf.local), for a snapshot's boot_files. */
void	 capture_boot_files(const struct capture_set *,
	    void (*fn)(void *arg, const char *path, const char *text), void *arg);

#endif
