/*
 * Other hosts reached over OpenSSH: a DUT, a generator and a sink given as
 * ssh://[user@]host[:port] (or "local"). Every command line sent is a list of
 * words, each single-quoted for POSIX sh (OPNsense has no bash); longer
 * scripts go over ssh's standard input to `sh`. Connections are shared
 * (ControlMaster) through sockets in a private directory.
 */
#ifndef NTUNE_REMOTE_H
#define NTUNE_REMOTE_H

#include <sys/types.h>

#include <stdbool.h>
#include <stddef.h>

/* How every host is reached: one per bench (the hosts point at it). */
struct remote_ssh {
	const char *config;		/* ssh -F FILE, or NULL for ssh's own */
	bool	accept_new;		/* StrictHostKeyChecking=accept-new instead of yes */
	int	connect_timeout;	/* seconds; 0: 10 */
	char	ctl_dir[64];		/* ControlPath directory (mode 0700), "" before init */
};

struct remote_host {
	bool	local;			/* "local": commands run here, no ssh */
	char	user[64];		/* "" = ssh's default */
	char	host[256];
	int	port;			/* 0 = ssh's default */
	char	url[400];		/* as the user gave it */
	const struct remote_ssh *ssh;
};

struct remote_result {
	int	status;			/* exit status; 255: ssh itself failed; 128+N: signal N */
	bool	timed_out;
	char	*out, *err;		/* NUL-terminated, never NULL after remote_run */
};

/*
 * "local", or ssh://[user@]host[:port]: user [A-Za-z0-9._-], host a name or
 * address ([A-Za-z0-9.-_:], IPv6 in brackets), not starting with '-'. -1 + cause.
 */
int	remote_parse(const char *url, struct remote_host *, char **cause);
/*
 * A word for the login shell ssh runs the command line with, POSIX sh or
 * csh/tcsh alike: 'text' with each ' written as '\'' and each ! as '\!'
 * (csh's history substitution acts inside single quotes). OPNsense's root
 * shell, opnsense-shell, runs `ssh host CMD` as /bin/csh -c CMD
 * (src/sbin/opnsense-shell, opnsense/core); FreeBSD's root had /bin/csh
 * through 13.x (etc/master.passwd). malloc'd.
 */
char	*remote_quote(const char *word);
/*
 * The words quoted and joined by spaces (malloc'd): a command line for sh -c
 * or csh -c. The script of `sh -c SCRIPT` may have line breaks: it is sent
 * as one line that sh decodes (eval "$(printf %b '...')").
 */
char	*remote_command(char *const argv[]);
/*
 * No word of argv but a `sh -c` script holds a line break (csh cannot take
 * one inside quotes, so such a word would not reach the host as given), and
 * none a carriage return. -1 + cause naming it.
 */
int	remote_words_check(char *const argv[], char **cause);
/*
 * A command line being built: each word copied, v NULL-terminated (NULL while
 * empty); remote_words_free frees it (as remote_argv_free does).
 */
struct remote_words {
	char	**v;
	size_t	n;
};
void	remote_words_add(struct remote_words *, const char *word);
void	remote_words_addf(struct remote_words *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* The words of s, split at blanks (s NULL: none). */
void	remote_words_split(struct remote_words *, const char *s);
void	remote_words_free(struct remote_words *);

/* An interface name that is safe and valid everywhere: [A-Za-z0-9._-]{1,15}, not '-' first. */
bool	remote_ifname_valid(const char *);

/* Makes the private control-socket directory under $TMPDIR or /tmp. */
int	remote_ssh_init(struct remote_ssh *, char **cause);
/* Closes a host's shared connection (ssh -O exit), quietly. */
void	remote_host_disconnect(const struct remote_host *);
/* Removes the control directory (after every host is disconnected). */
void	remote_ssh_done(struct remote_ssh *);

/*
 * The argv that runs command (a sh command line, see remote_command) on the
 * host: ssh with BatchMode, bounded ConnectTimeout/ServerAlive*, host keys
 * checked, the shared connection; locally /bin/sh -c. NULL-terminated,
 * free with remote_argv_free.
 */
char	**remote_argv(const struct remote_host *, const char *command);
void	remote_argv_free(char **);

/*
 * Runs argv (words, quoted here) on the host with input (or nothing) on its
 * standard input; waits at most timeout seconds (then kills ssh and sets
 * timed_out). Returns 0 once the command ran whatever its status, -1 + cause
 * when it could not be started.
 */
int	remote_run(const struct remote_host *, char *const argv[], const char *input, double timeout,
	    struct remote_result *, char **cause);
/* The same with a POSIX sh script on standard input (`sh -s` there, args as $1...). */
int	remote_sh(const struct remote_host *, const char *script, char *const args[], double timeout,
	    struct remote_result *, char **cause);
void	remote_result_free(struct remote_result *);
/* The last non-empty line of the result's stderr (or stdout), for messages; static storage. */
const char *remote_result_why(const struct remote_result *);

/*
 * A background command: its stdout and stderr are pipes (*out, *err,
 * non-blocking), in a process group of its own. remote_child_wait reads both
 * into buffers until the child exits or the deadline passes (then kills it).
 * Killing ssh does not end the command on the other side (no terminal there):
 * the command first tells its process id, and remote_child_kill sends it a
 * SIGTERM there over a new command before ssh itself is stopped.
 */
struct remote_child {
	const struct remote_host *host;
	long	rpid;			/* the command's process id on the host, 0 until known */
	pid_t	pid;
	int	out, err;
	char	*obuf, *ebuf;
	size_t	olen, elen;
};
int	remote_start(const struct remote_host *, char *const argv[], struct remote_child *, char **cause);
/* Reads what is there without blocking longer than secs; 1 when the child has exited. */
int	remote_child_poll(struct remote_child *, double secs, int *status);
/* Waits until the child exits (killing it at deadline, a util_now() time); its status. */
int	remote_child_wait(struct remote_child *, double deadline, bool *timed_out);
void	remote_child_kill(struct remote_child *);
void	remote_child_free(struct remote_child *);

#endif
