/*
 * Running a child process, after git's run-command: describe the child in a
 * struct util_child, util_child_start() forks it, util_child_finish() waits for
 * it, util_child_run() does both. The child execs argv, or calls fn(arg) and
 * exits with its return value (a helper process without exec).
 */
#ifndef NTUNE_UTIL_RUN_H
#define NTUNE_UTIL_RUN_H

#include <stdbool.h>
#include <sys/types.h>

struct util_child {
	const char *const *argv;	/* program and arguments (execvp: PATH search without '/') */
	int	(*fn)(void *);		/* instead of argv: the child runs fn(arg), exits with its value */
	void	*arg;
	const char *dir;		/* chdir there first (NULL: stay) */
	bool	null_stdio;		/* stdin, stdout and stderr on /dev/null */
	bool	null_stdout;		/* only stdout on /dev/null */
	bool	close_fds;		/* close every descriptor above 2 */
	bool	new_session;		/* setsid(): no controlling terminal, own process group */
	bool	new_pgrp;		/* a process group of its own (set in child and parent) */
	bool	reset_signals;		/* empty signal mask, default INT/TERM/PIPE (callers that block them) */
	bool	null_stdin;		/* only stdin on /dev/null */
	int	in, out, err;		/* > 0: dup2'd onto stdin, stdout, stderr (after the /dev/null ones) */
	bool	exec_error;		/* argv: "cannot run 'PROG': why" on stderr when exec fails */
	pid_t	pid;			/* set by util_child_start */
};

/* Flushes stdio and forks the child; -1 + cause when fork fails. */
int	 util_child_start(struct util_child *, char **cause);
/*
 * Waits for a started child (retrying on EINTR): its exit status, or 128 + N after
 * a death by signal N, as a shell reports it; 127 when argv could not be executed.
 */
int	 util_child_finish(struct util_child *, char **cause);
/* util_child_start then util_child_finish. */
int	 util_child_run(struct util_child *, char **cause);

#endif
