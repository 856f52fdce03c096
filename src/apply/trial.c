/*
 * One-boot trials of FreeBSD loader tunables (`apply --trial-boot`): instead of
 * writing a boot-time tunable into /boot/loader.conf.local, apply runs
 * `nextboot -e name=value ...`. nextboot(8) writes /boot/nextboot.conf
 * (sbin/reboot/nextboot.sh, FreeBSD 14; reboot.c in 15); the loader reads it
 * after loader.conf and loader.conf.local, so its values win for that boot, and
 * disables it before the kernel starts (stand/lua/config.lua, checkNextboot()).
 * A box that does not come up is reset and boots its old settings.
 *
 * `ntune confirm` after the reboot asks kenv(1) whether the boot really had the
 * trial values and only then writes them into loader.conf.local; revert of a
 * pending trial runs `nextboot -D`. Both programs are run as found on PATH.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apply/apply_impl.h"
#include "util/run.h"
#include "util/util.h"

#define NEXTBOOT_CONF	"/boot/nextboot.conf"

/* Runs argv; its exit status, with a cause naming the program when it could not run. */
static int
run_tool(const char *const *argv, char **cause)
{
	struct util_child c;
	int st;

	memset(&c, 0, sizeof c);
	c.argv = argv;
	c.close_fds = true;
	c.reset_signals = true;
	if ((st = util_child_run(&c, cause)) == 127)
		util_cause(cause, "cannot run %s(8): not found on PATH (it is part of FreeBSD's base system)",
		    argv[0]);
	return st;
}

/* Is a nextboot(8) configuration waiting for the next boot under root? */
static bool
nextboot_pending(const char *root, char **path)
{
	char *text = NULL;
	size_t len;
	bool pending;

	xasprintf(path, "%s%s", root != NULL ? root : "", NEXTBOOT_CONF);
	if (access(*path, F_OK) != 0 || util_read_file(*path, &text, &len, NULL) == -1)
		return false;
	/* The loader overwrites the first line with nextboot_enable="NO" when it uses the file. */
	pending = strncmp(text, "nextboot_enable=\"YES\"", 21) == 0;
	free(text);
	return pending;
}

int
apply_trial_start(const char *root, const struct apply_change *ch, size_t n, char **cause)
{
	const char **argv;
	char **pairs = NULL, *path = NULL;
	size_t i, np = 0, na = 0;
	int st, rc = -1;

	if (nextboot_pending(root, &path)) {
		util_cause(cause, "a nextboot(8) configuration is already waiting in '%s'; boot it, or "
		    "remove it with `nextboot -D`, before a trial", path);
		free(path);
		return -1;
	}
	free(path);
	argv = xcalloc(2 * n + 2, sizeof *argv);
	argv[na++] = "nextboot";
	for (i = 0; i < n; i++) {
		char *kv;

		if (ch[i].action != APPLY_TRIAL_BOOT)
			continue;
		xasprintf(&kv, "%s=%s", ch[i].name, ch[i].want);
		pairs = util_strv_add(pairs, &np, kv);
		free(kv);
		argv[na++] = "-e";
		argv[na++] = pairs[np - 1];
	}
	if (np == 0) {
		rc = 0;
		goto out;
	}
	st = run_tool(argv, cause);
	if (st == 0)
		rc = 0;
	else if (st != -1 && st != 127)
		util_cause(cause, "`nextboot -e ...` failed (exit %d)", st);
out:
	util_strv_free(pairs, np);
	free(argv);
	return rc;
}

int
apply_trial_drop(char **cause)
{
	const char *const argv[] = { "nextboot", "-D", NULL };
	int st;

	if ((st = run_tool(argv, cause)) == 0)
		return 0;
	if (st != -1 && st != 127)
		util_cause(cause, "`nextboot -D` failed (exit %d)", st);
	return -1;
}

struct kenv_child {
	const char *name;
	int	fd;
};

static int
kenv_exec(void *arg)
{
	struct kenv_child *k = arg;
	const char *const argv[] = { "kenv", "-q", k->name, NULL };

	if (dup2(k->fd, STDOUT_FILENO) == -1)
		return 126;
	close(k->fd);
	execvp(argv[0], (char *const *)argv);
	return 127;
}

/*
 * The value of name in this boot's kernel environment (`kenv -q name`): 1 and
 * *value when set, 0 when not, -1 + cause when kenv(1) cannot be run.
 */
static int
kenv_get(const char *name, char **value, char **cause)
{
	struct util_child c;
	struct kenv_child k;
	char buf[1100];
	size_t len = 0;
	ssize_t got;
	int fds[2], st;

	if (pipe(fds) == -1) {
		util_cause(cause, "pipe: %s", strerror(errno));
		return -1;
	}
	memset(&c, 0, sizeof c);
	k.name = name;
	k.fd = fds[1];
	c.fn = kenv_exec;
	c.arg = &k;
	c.reset_signals = true;
	if (util_child_start(&c, cause) == -1) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	close(fds[1]);
	while (len < sizeof buf - 1 && ((got = read(fds[0], buf + len, sizeof buf - 1 - len)) > 0 ||
	    (got == -1 && errno == EINTR)))
		len += got > 0 ? (size_t)got : 0;
	close(fds[0]);
	buf[len] = '\0';
	if ((st = util_child_finish(&c, cause)) == -1)
		return -1;
	if (st == 127) {
		util_cause(cause, "cannot run kenv(1): not found on PATH (it is part of FreeBSD's base "
		    "system)");
		return -1;
	}
	if (st != 0)
		return 0;
	*value = xstrdup(util_trim(buf));
	return 1;
}

int
apply_trial_in_effect(json_t *changes, char **cause)
{
	json_t *c;
	const char *name, *want, *action;
	char *have = NULL;
	size_t i;
	int got;

	json_array_foreach(changes, i, c) {
		name = json_string_value(json_object_get(c, "name"));
		want = json_string_value(json_object_get(c, "new"));
		action = json_string_value(json_object_get(c, "action"));
		if (name == NULL || want == NULL || action == NULL ||
		    strcmp(action, apply_action_name(APPLY_TRIAL_BOOT)) != 0)
			continue;
		if ((got = kenv_get(name, &have, cause)) == -1)
			return -1;
		if (got == 0 || strcmp(have, want) != 0) {
			util_cause(cause, "this boot did not have the trial: kenv says %s is %s%s%s, the trial "
			    "sets '%s' (not rebooted since the trial, or the trial boot failed and the box "
			    "came back on its old settings)", name, got ? "'" : "unset", got ? have : "",
			    got ? "'" : "", want);
			free(have);
			return 0;
		}
		free(have);
		have = NULL;
	}
	return 1;
}

int
apply_trial_persist(json_t *doc, char **path, char **cause)
{
	json_t *changes = json_object_get(doc, "changes"), *trial = json_object_get(doc, "trial");
	json_t *c, *files, *f;
	const char *root, *action;
	char **names = NULL, **values = NULL, *old;
	size_t i, nn = 0, nv = 0, len;
	struct apply_file *file = NULL;
	size_t nfiles = 0;
	int rc = -1;

	root = json_string_value(json_object_get(trial, "root"));
	json_array_foreach(changes, i, c) {
		action = json_string_value(json_object_get(c, "action"));
		if (action == NULL || strcmp(action, apply_action_name(APPLY_TRIAL_BOOT)) != 0)
			continue;
		names = util_strv_add(names, &nn, json_string_value(json_object_get(c, "name")));
		values = util_strv_add(values, &nv, json_string_value(json_object_get(c, "new")));
	}
	if (apply_persist_loader(root, names, values, nn, &file, &nfiles, cause) == -1)
		goto out;
	if (nfiles == 0) {
		rc = 0;
		goto out;
	}
	/* Revert restores the file's text from before this confirm. */
	if ((files = json_object_get(doc, "files")) == NULL) {
		files = json_array();
		json_object_set_new(doc, "files", files);
	}
	f = json_object();
	json_object_set_new(f, "path", json_string(file[0].path));
	if (access(file[0].path, F_OK) == 0 && util_read_file(file[0].path, &old, &len, NULL) == 0) {
		json_object_set_new(f, "old", json_stringn(old, len));
		free(old);
	} else
		json_object_set_new(f, "old", json_null());
	json_array_append_new(files, f);
	if (apply_write_file(file[0].path, file[0].text, cause) == -1)
		goto out;
	*path = xstrdup(file[0].path);
	rc = 0;
out:
	apply_files_free(file, nfiles);
	util_strv_free(names, nn);
	util_strv_free(values, nv);
	return rc;
}
