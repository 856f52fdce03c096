/*
 * The dead-man timer of `apply --confirm SECS`: a process that outlives the
 * session, waits for the deadline and reverts the entry unless it was confirmed.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "apply/apply_impl.h"
#include "util/run.h"
#include "util/util.h"

int
apply_deadman_wait(const char *state_dir, const char *id, char **cause)
{
	const char *state = apply_state_dir(state_dir);
	struct timespec now;
	json_t *doc;
	long long deadline, end = -1;
	int lock, rc;

	for (;;) {
		if ((doc = apply_journal_load(state, id, cause)) == NULL)
			return -1;
		if (!apply_entry_pending(doc)) {
			json_decref(doc);
			return 0;	/* confirmed or reverted by hand */
		}
		deadline = json_integer_value(json_object_get(doc, "confirm_deadline"));
		json_decref(doc);
		/* The time left, counted on a clock a step of the date does not move. */
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (end == -1)
			end = (long long)now.tv_sec + deadline - (long long)time(NULL);
		if ((long long)now.tv_sec >= end)
			break;
		sleep(1);
	}
	if ((lock = apply_lock(state, true, cause)) == -1)
		return -1;
	/* Confirmation may have arrived while we waited for the lock. */
	if ((doc = apply_journal_load(state, id, cause)) == NULL) {
		apply_unlock(lock);
		return -1;
	}
	rc = apply_entry_pending(doc) ? apply_revert_locked(state, id, "dead-man timer", cause) : 0;
	json_decref(doc);
	apply_unlock(lock);
	return rc;
}

/*
 * The dead-man process: systemd-run when systemd runs the machine (it outlives
 * any login session), else a double-forked, setsid()ed process of our own.
 */
struct deadman {
	const char *state_dir;
	const char *id;
	int	pipe[2];
};

static int
deadman_main(void *arg)
{
	struct deadman *d = arg;

	return apply_deadman_wait(d->state_dir, d->id, NULL) == 0 ? 0 : 1;
}

/* The middle of the double fork: starts the dead-man, sends its pid up, exits. */
static int
deadman_detach(void *arg)
{
	struct deadman *d = arg;
	struct util_child c = { .fn = deadman_main, .arg = d, .dir = "/", .null_stdio = true,
	    .close_fds = true };
	pid_t child = -1;
	ssize_t n;

	close(d->pipe[0]);
	signal(SIGHUP, SIG_IGN);
	if (util_child_start(&c, NULL) == 0)
		child = c.pid;
	n = write(d->pipe[1], &child, sizeof child);
	return child == -1 || n != sizeof child;
}

int
apply_deadman_start(const char *state_dir, const char *id, const char *self_exe, int *pidp,
    char **cause)
{
	const char *how = getenv("NTUNE_DEADMAN");
	char exe[4096], unit[80], setenv_arg[4200];
	struct deadman d = { .state_dir = state_dir, .id = id };
	struct util_child c;
	pid_t child;
	ssize_t n;

	*pidp = 0;
	if (self_exe == NULL) {
		n = readlink("/proc/self/exe", exe, sizeof exe - 1);
		exe[n > 0 ? n : 0] = '\0';
		self_exe = exe;
	}
	if ((how != NULL ? strcmp(how, "systemd") == 0 : access("/run/systemd/system", F_OK) == 0) &&
	    access("/usr/bin/systemd-run", X_OK) == 0 && *self_exe != '\0') {
		const char *const argv[] = { "/usr/bin/systemd-run", "--quiet", "--collect",
		    "--unit", unit, "--setenv", setenv_arg, self_exe, "revert", "--deadman", id, NULL };

		snprintf(unit, sizeof unit, "ntune-deadman-%s", id);
		snprintf(setenv_arg, sizeof setenv_arg, "NTUNE_STATE_DIR=%s", state_dir);
		c = (struct util_child){ .argv = argv, .reset_signals = true };
		if (util_child_run(&c, NULL) == 0)
			return 0;
		/* Fall back to our own process. */
	}
	if (pipe(d.pipe) == -1) {
		util_cause(cause, "pipe: %s", strerror(errno));
		return -1;
	}
	/* apply blocks signals while it writes; the dead-man starts afresh, in its own session. */
	c = (struct util_child){ .fn = deadman_detach, .arg = &d, .new_session = true,
	    .reset_signals = true };
	if (util_child_start(&c, cause) == -1) {
		close(d.pipe[0]);
		close(d.pipe[1]);
		return -1;
	}
	close(d.pipe[1]);
	n = read(d.pipe[0], &child, sizeof child);
	close(d.pipe[0]);
	util_child_finish(&c, NULL);
	if (n != sizeof child || child <= 0) {
		util_cause(cause, "the dead-man process did not start");
		return -1;
	}
	*pidp = (int)child;
	return 0;
}
