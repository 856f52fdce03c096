/* Entering network namespaces: setns(2) for a thread, a child, or an exec. */
#include <sys/types.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <net/if.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/names.h"
#include "lab/nsenter.h"
#include "os/os.h"
#include "util/run.h"
#include "util/util.h"

#define NETNS_RUN_DIR	"/run/netns"

bool
lab_netns_exists(const char *name)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", NETNS_RUN_DIR, name);
	return stat(path, &st) == 0;
}

int
lab_netns_enter(const char *name, char **cause)
{
	return util_netns_enter(name, cause);
}

/* What a child in a namespace does: enter the namespace (fd), then fn(arg) or exec argv. */
struct in_ns {
	int	 fd;
	int	 (*fn)(void *);
	void	*arg;
	char *const *argv;
	int	 err[2];	/* exec: a pipe for the errno of a child that cannot start */
};

static int
run_in_ns(void *p)
{
	struct in_ns *n = p;

	if (setns(n->fd, CLONE_NEWNET) == -1)
		return 255;
	return n->fn(n->arg) & 0xff;
}

int
lab_netns_run(const char *name, int (*fn)(void *), void *arg, char **cause)
{
	struct in_ns n = { .fn = fn, .arg = arg };
	struct util_child c = { .fn = run_in_ns, .arg = &n };
	int rc;

	if ((n.fd = util_netns_open(name, cause)) == -1)
		return -1;
	fflush(NULL);
	rc = util_child_start(&c, cause);
	close(n.fd);
	if (rc == -1)
		return -1;
	rc = util_child_finish(&c, cause);
	if (rc == 255) {
		util_cause(cause, "cannot enter network namespace '%s'", name);
		return -1;
	}
	return rc;
}

/* As ip-netns(8) does: a private mount namespace where /sys shows this netns. */
static int
enter_for_exec(int fd)
{
	if (setns(fd, CLONE_NEWNET) == -1)
		return -1;
	if (unshare(CLONE_NEWNS) == -1)
		return 0;
	if (mount("", "/", NULL, MS_SLAVE | MS_REC, NULL) == -1)
		return 0;
	if (umount2("/sys", MNT_DETACH) == 0)
		(void)mount("sysfs", "/sys", "sysfs", 0, NULL);
	return 0;
}

int
lab_netns_execv(const char *name, char *const argv[], char **cause)
{
	int fd;

	if ((fd = util_netns_open(name, cause)) == -1)
		return -1;
	if (enter_for_exec(fd) == -1) {
		util_cause(cause, "cannot enter network namespace '%s': %s", name, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	execvp(argv[0], argv);
	util_cause(cause, "cannot run '%s': %s", argv[0], strerror(errno));
	return -1;
}

static int
exec_in_ns(void *p)
{
	struct in_ns *n = p;
	int err;

	close(n->err[0]);
	if (enter_for_exec(n->fd) == 0)
		execvp(n->argv[0], n->argv);
	err = errno;
	if (write(n->err[1], &err, sizeof(err)) != (ssize_t)sizeof(err))
		err = 0;	/* the parent sees only exit 127 */
	return 127;
}

int
lab_netns_exec(const char *name, char *const argv[], char **cause)
{
	struct in_ns n = { .argv = argv };
	struct util_child c = { .fn = exec_in_ns, .arg = &n };
	int err = 0, rc;

	if ((n.fd = util_netns_open(name, cause)) == -1)
		return -1;
	if (pipe2(n.err, O_CLOEXEC) == -1) {
		util_cause(cause, "pipe: %s", strerror(errno));
		close(n.fd);
		return -1;
	}
	fflush(NULL);
	rc = util_child_start(&c, cause);
	close(n.fd);
	close(n.err[1]);
	if (rc == -1) {
		close(n.err[0]);
		return -1;
	}
	if (read(n.err[0], &err, sizeof(err)) == (ssize_t)sizeof(err)) {
		close(n.err[0]);
		util_child_finish(&c, NULL);
		util_cause(cause, "cannot run '%s' in '%s': %s", argv[0], name, strerror(err));
		return -1;
	}
	close(n.err[0]);
	return util_child_finish(&c, cause);
}

int
lab_find_self(char *prefix, size_t len, enum lab_role *role, char **cause)
{
	struct stat self, st;
	struct dirent *de;
	DIR *d;
	char path[512];
	int found = -1;

	if (stat("/proc/self/ns/net", &self) == -1) {
		util_cause(cause, "cannot stat '/proc/self/ns/net': %s", strerror(errno));
		return -1;
	}
	if ((d = opendir(NETNS_RUN_DIR)) == NULL) {
		util_cause(cause, "not inside an ntune lab namespace (no %s)", NETNS_RUN_DIR);
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		const char *dash;
		size_t plen;
		enum lab_role r;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", NETNS_RUN_DIR, de->d_name);
		if (stat(path, &st) == -1 || st.st_ino != self.st_ino || st.st_dev != self.st_dev)
			continue;
		if ((dash = strrchr(de->d_name, '-')) == NULL || lab_role_parse(dash + 1, &r) == -1)
			continue;
		plen = (size_t)(dash - de->d_name);
		if (plen == 0 || plen >= len)
			continue;
		memcpy(prefix, de->d_name, plen);
		prefix[plen] = '\0';
		if (lab_prefix_valid(prefix, NULL) == -1 || !lab_netns_is_lab(prefix, de->d_name))
			continue;
		*role = r;
		found = 0;
		break;
	}
	closedir(d);
	if (found == -1)
		util_cause(cause, "not inside an ntune lab namespace");
	return found;
}

static int
parse_net_dev(char *text, struct lab_ifstat *ifs, int max, int *n)
{
	char *line, *save = NULL;
	int lineno = 0;

	*n = 0;
	for (line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		struct lab_ifstat *s;
		unsigned long long v[16];
		char *colon, *name;

		if (++lineno <= 2 || *n >= max)
			continue;
		if ((colon = strchr(line, ':')) == NULL)
			continue;
		*colon = '\0';
		name = util_trim(line);
		if (sscanf(colon + 1, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
		    &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10],
		    &v[11], &v[12], &v[13], &v[14], &v[15]) != 16)
			continue;
		s = &ifs[(*n)++];
		memset(s, 0, sizeof(*s));
		snprintf(s->name, sizeof(s->name), "%s", name);
		s->rx_bytes = v[0];
		s->rx_packets = v[1];
		s->rx_dropped = v[3];
		s->tx_bytes = v[8];
		s->tx_packets = v[9];
		s->tx_dropped = v[11];
	}
	return 0;
}

struct stats_job {
	const char		*nsname;
	struct lab_ifstat	*ifs;
	int			 max, n;
	char			*cause;
	int			 rc;
};

static void *
stats_thread(void *arg)
{
	struct stats_job *job = arg;
	char *text = NULL;
	size_t len;
	int i, s;

	job->rc = -1;
	if (job->nsname != NULL && lab_netns_enter(job->nsname, &job->cause) == -1)
		return NULL;
	if (util_read_file("/proc/thread-self/net/dev", &text, &len, &job->cause) == -1)
		return NULL;
	parse_net_dev(text, job->ifs, job->max, &job->n);
	free(text);
	if ((s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) != -1) {
		for (i = 0; i < job->n; i++) {
			struct ifreq ifr;
			uint8_t m[6];

			memset(&ifr, 0, sizeof(ifr));
			snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", job->ifs[i].name);
			if (ioctl(s, SIOCGIFFLAGS, &ifr) == 0)
				job->ifs[i].up = (ifr.ifr_flags & IFF_UP) != 0;
			if (os_if_hwaddr(job->ifs[i].name, m, NULL) == 0)
				snprintf(job->ifs[i].mac, sizeof(job->ifs[i].mac),
				    "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
		}
		close(s);
	}
	job->rc = 0;
	return NULL;
}

int
lab_if_stats(const char *nsname, struct lab_ifstat *ifs, int max, int *n, char **cause)
{
	struct stats_job job = { nsname, ifs, max, 0, NULL, -1 };
	pthread_t t;
	int e;

	/* A thread of its own, so that setns() leaves the caller's namespace alone. */
	if ((e = pthread_create(&t, NULL, stats_thread, &job)) != 0) {
		util_cause(cause, "pthread_create: %s", strerror(e));
		return -1;
	}
	pthread_join(t, NULL);
	if (job.rc == -1) {
		if (cause != NULL)
			*cause = job.cause;
		else
			free(job.cause);
		return -1;
	}
	*n = job.n;
	return 0;
}

int
lab_if_stat(const char *nsname, const char *ifname, struct lab_ifstat *st, char **cause)
{
	struct lab_ifstat ifs[64];
	int i, n;

	if (lab_if_stats(nsname, ifs, (int)nitems(ifs), &n, cause) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		if (strcmp(ifs[i].name, ifname) == 0) {
			*st = ifs[i];
			return 0;
		}
	}
	util_cause(cause, "no interface '%s' in namespace '%s'", ifname, nsname ? nsname : "(current)");
	return -1;
}

int
lab_check_privileges(char **cause)
{
	char *text = NULL, *p;
	size_t len;
	unsigned long long eff = 0;

	if (util_read_file("/proc/self/status", &text, &len, NULL) == 0 &&
	    (p = strstr(text, "CapEff:")) != NULL)
		eff = strtoull(p + 7, NULL, 16);
	free(text);
	/* CAP_NET_ADMIN is 12, CAP_SYS_ADMIN (setns, mount) is 21. */
	if ((eff & (1ULL << 12)) == 0 || (eff & (1ULL << 21)) == 0) {
		util_cause(cause, "must be run as root (needs CAP_NET_ADMIN and CAP_SYS_ADMIN)");
		return -1;
	}
	return 0;
}

bool
lab_netns_is_ours(const char *ns)
{
	struct lab_ifstat ifs[16];
	int i, n;

	if (lab_if_stats(ns, ifs, (int)nitems(ifs), &n, NULL) == -1)
		return false;
	for (i = 0; i < n; i++) {
		if (util_startswith(ifs[i].mac, LAB_MAC_PREFIX))
			return true;
	}
	return false;
}

bool
lab_netns_is_lab(const char *prefix, const char *nsname)
{
	char path[512];

	lab_state_path(prefix, path, sizeof(path));
	return access(path, F_OK) == 0 || lab_netns_is_ours(nsname);
}
