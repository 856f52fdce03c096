/*
 * Network namespaces of ip-netns(8) (/run/netns/NAME). Linux-only: the top-level
 * meson.build builds src/util/netns_nolinux.c in its place elsewhere.
 */
#include <sys/types.h>
#include <sys/mount.h>

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"

int
util_netns_open(const char *name, char **cause)
{
	char path[256];
	int fd;

	if (strchr(name, '/') != NULL || name[0] == '.' || name[0] == '\0') {
		util_cause(cause, "invalid namespace name '%s'", name);
		return -1;
	}
	snprintf(path, sizeof(path), "/run/netns/%s", name);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		if (errno == ENOENT)
			util_cause(cause, "network namespace '%s' does not exist", name);
		else
			util_cause(cause, "cannot open '%s': %s", path, strerror(errno));
	}
	return fd;
}

int
util_netns_enter(const char *name, char **cause)
{
	int fd;

	if ((fd = util_netns_open(name, cause)) == -1)
		return -1;
	if (setns(fd, CLONE_NEWNET) == -1) {
		util_cause(cause, "cannot enter network namespace '%s': %s", name, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

int
util_netns_enter_sys(const char *name, char **cause)
{
	if (util_netns_enter(name, cause) == -1)
		return -1;
	/* Own mount namespace with a /sys that shows this namespace's devices. */
	if (unshare(CLONE_NEWNS) == -1 ||
	    mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) == -1) {
		util_cause(cause, "cannot make a mount namespace: %s", strerror(errno));
		return -1;
	}
	umount2("/sys", MNT_DETACH);
	if (mount(name, "/sys", "sysfs", 0, NULL) == -1) {
		util_cause(cause, "cannot mount /sys in '%s': %s", name, strerror(errno));
		return -1;
	}
	return 0;
}
