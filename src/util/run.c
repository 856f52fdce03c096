/* Child processes: one fork/exec/wait path for the whole program (see run.h). */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/run.h"
#include "util/util.h"

/* The descriptors a child may hold, found before fork (sysconf is not async-signal-safe). */
static int open_max = 1024;

/* In the child, between fork and exec (or fn): only async-signal-safe calls. */
static void
child_setup(const struct util_child *c)
{
	sigset_t none;
	int fd;

	if (c->new_session)
		setsid();
	if (c->new_pgrp)
		setpgid(0, 0);
	if (c->reset_signals) {
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
	}
	if (c->dir != NULL && chdir(c->dir) == -1)
		_exit(127);
	if (c->null_stdio && (fd = open("/dev/null", O_RDWR)) != -1) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	if (c->null_stdout && !c->null_stdio && (fd = open("/dev/null", O_WRONLY)) != -1) {
		dup2(fd, 1);
		if (fd > 2)
			close(fd);
	}
	if (c->null_stdin && (fd = open("/dev/null", O_RDONLY)) != -1) {
		dup2(fd, 0);
		if (fd > 2)
			close(fd);
	}
	if (c->in > 0)
		dup2(c->in, 0);
	if (c->out > 0)
		dup2(c->out, 1);
	if (c->err > 0)
		dup2(c->err, 2);
	if (c->close_fds) {
		for (fd = 3; fd < open_max; fd++)
			close(fd);
	}
}

int
util_child_start(struct util_child *c, char **cause)
{
	long m;

	if (c->close_fds && (m = sysconf(_SC_OPEN_MAX)) > 0)
		open_max = m < 65536 ? (int)m : 65536;
	fflush(NULL);
	if ((c->pid = fork()) == -1) {
		util_cause(cause, "fork: %s", strerror(errno));
		return -1;
	}
	if (c->pid != 0) {
		if (c->new_pgrp)
			setpgid(c->pid, c->pid);
		return 0;
	}
	child_setup(c);
	if (c->fn != NULL)
		_exit(c->fn(c->arg));
	execvp(c->argv[0], (char *const *)c->argv);
	if (c->exec_error)
		dprintf(2, "cannot run '%s': %s\n", c->argv[0], strerror(errno));
	_exit(127);
}

int
util_child_finish(struct util_child *c, char **cause)
{
	int status;

	while (waitpid(c->pid, &status, 0) == -1) {
		if (errno != EINTR) {
			util_cause(cause, "waitpid: %s", strerror(errno));
			return -1;
		}
	}
	c->pid = 0;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

int
util_child_run(struct util_child *c, char **cause)
{
	if (util_child_start(c, cause) == -1)
		return -1;
	return util_child_finish(c, cause);
}
