/*
 * A Linux capture read by the Linux backend: the files of its linux-tree.txt (what
 * tests/fixtures/os/capture-linux.sh copies: /proc and /sys files the backend reads)
 * and the /proc/sys values of its sysctl-a.txt are put back as a tree in a private
 * temporary directory, os_open_live(DIR) reads it as it reads such a tree in the tests
 * (no ioctl, no netlink under a root); os_close removes the tree.
 *
 * linux-tree.txt: "::R ROOT" (the prefix the DUT's paths carry), then the output of
 * POSIX `head` over many files ("==> ROOT/PATH <==" before each, an empty line between
 * two), then "::D PATH" (a directory), "::L PATH -> TARGET" (a symbolic link) and
 * "::F PATH" lines, each of the latter followed by the file's text. Every PATH is under
 * /proc/, /sys/ or is /etc/os-release, with no "." or ".." component; a link named
 * device has a TARGET without ".."; a driver or subsystem link (read for its name) has
 * the ".." that climb above the tree left out (reroot). A link whose TARGET leaves the
 * tree (absolute, or climbing out with "..", through the tree's other links too) refuses
 * the capture before anything reads the tree, naming its line; nothing is ever written,
 * chmodded or removed through a link (openat with O_NOFOLLOW below the tree's top).
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/os.h"
#include "remote/capture.h"
#include "remote/capture_facts.h"
#include "util/util.h"

#define TREE_PATH_MAX	512

static bool
component_ok(const char *s, size_t n)
{
	return n > 0 && !(n == 1 && s[0] == '.') && !(n == 2 && s[0] == '.' && s[1] == '.');
}

/* A path the tree may hold: under /proc/ or /sys/, or /etc/os-release; no ., .., // or control. */
static bool
path_ok(const char *p)
{
	const char *c, *slash;
	size_t i;

	if (strlen(p) >= TREE_PATH_MAX || (strncmp(p, "/proc/", 6) != 0 &&
	    strncmp(p, "/sys/", 5) != 0 && strcmp(p, "/etc/os-release") != 0))
		return false;
	for (i = 0; p[i] != '\0'; i++)
		if ((unsigned char)p[i] < 0x20 || p[i] == 0x7f)
			return false;
	for (c = p + 1; ; c = slash + 1) {
		slash = strchr(c, '/');
		if (!component_ok(c, slash != NULL ? (size_t)(slash - c) : strlen(c)))
			return false;
		if (slash == NULL)
			return true;
	}
}

/* A link's target: relative; without ".." for device (the backend goes through it). */
static bool
target_ok(const char *path, const char *t)
{
	const char *base = strrchr(path, '/') + 1, *c, *slash;

	if (*t == '\0' || *t == '/' || strlen(t) >= TREE_PATH_MAX)
		return false;
	if (strcmp(base, "device") != 0)
		return true;
	for (c = t; ; c = slash + 1) {
		slash = strchr(c, '/');
		if (!component_ok(c, slash != NULL ? (size_t)(slash - c) : strlen(c)))
			return false;
		if (slash == NULL)
			return true;
	}
}

struct tree_link {
	char	*path;
	size_t	 line;
};

struct tree {
	const char	*top;		/* the temporary directory */
	struct tree_link *links;	/* the ::L lines, checked when the tree is whole */
	size_t		 nlinks;
	const char	*where;		/* "ORIGIN:linux-tree.txt" for messages */
	size_t		 line;
	char		 root[TREE_PATH_MAX];	/* ::R */
	char		 path[TREE_PATH_MAX];	/* the file being read, "" none */
	int		 head;		/* it came from head: drop the empty line after it */
	struct strbuf	 text;
	char		**cause;
	char		 where_buf[512];
};

static int
terr(struct tree *t, const char *fmt, const char *arg)
{
	util_cause(t->cause, "%s:%zu: %s '%.*s'", t->where, t->line, fmt, 80, arg);
	return -1;
}

/* Makes the directories of path under top (all of them, or all but the last). */
static int
mkdirs(struct tree *t, const char *path, bool last)
{
	char full[TREE_PATH_MAX * 2], *c;
	struct stat st;
	size_t n;

	n = (size_t)snprintf(full, sizeof full, "%s%s", t->top, path);
	if (n >= sizeof full)
		return terr(t, "path too long", path);
	for (c = full + strlen(t->top) + 1; ; c++) {
		if (*c != '/' && *c != '\0')
			continue;
		if (*c == '\0' && !last)
			break;
		{
			char save = *c;

			*c = '\0';
			if (mkdir(full, 0755) != 0 && errno != EEXIST)
				return terr(t, strerror(errno), path);
			if (lstat(full, &st) != 0 || !S_ISDIR(st.st_mode)) {
				*c = save;
				return terr(t, "not a directory on the way to", path);
			}
			*c = save;
		}
		if (*c == '\0')
			break;
	}
	return 0;
}

static int
write_file(struct tree *t, const char *path, const char *text, size_t len, bool dup_ok)
{
	char full[TREE_PATH_MAX * 2];
	int fd, rc = 0;

	if (mkdirs(t, path, false) == -1)
		return -1;
	snprintf(full, sizeof full, "%s%s", t->top, path);
	if ((fd = open(full, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644)) == -1) {
		if (errno == EEXIST && dup_ok)
			return 0;
		return terr(t, errno == EEXIST ? "the file appears twice" : strerror(errno), path);
	}
	if (util_xfer(fd, (void *)text, len, true) != 0)
		rc = terr(t, strerror(errno), path);
	close(fd);
	return rc;
}

/* Writes the file being read, if any. */
static int
flush(struct tree *t)
{
	int rc;

	if (t->path[0] == '\0')
		return 0;
	if (t->head && t->text.len > 0 && t->text.buf[t->text.len - 1] == '\n')
		t->text.len--;
	/* head printed the name of a file it could not read (an attribute the driver lacks) */
	if (t->head && t->text.len == 0) {
		t->path[0] = '\0';
		return 0;
	}
	rc = write_file(t, t->path, t->text.len > 0 ? t->text.buf : "", t->text.len, false);
	t->path[0] = '\0';
	t->text.len = 0;
	return rc;
}

static int
start_file(struct tree *t, const char *path, int head)
{
	char full[TREE_PATH_MAX * 2];
	struct stat st;

	if (flush(t) == -1)
		return -1;
	if (!path_ok(path))
		return terr(t, "not a path the capture reads:", path);
	snprintf(full, sizeof full, "%s%s", t->top, path);
	if (lstat(full, &st) == 0)
		return terr(t, "the file appears twice", path);
	snprintf(t->path, sizeof t->path, "%s", path);
	t->head = head;
	return 0;
}

/*
 * A NIC's driver and subsystem links are read for their last component only (the driver's
 * and the bus's names, linux_link_basename). Their targets climb to the box's /sys/bus from
 * where the device sits in the box's /sys, which may be deeper than in the tree (a NIC
 * behind PCIe switches or USB hubs): the ".." above the tree's top are left out, as ".."
 * stops at "/", so the link stays in the tree and keeps its name.
 */
static void
reroot(const char *path, const char *target, struct strbuf *out)
{
	const char *c, *end;
	size_t depth = 0, n;

	for (c = path + 1; (c = strchr(c, '/')) != NULL; c++)
		depth++;
	for (c = target; *c != '\0'; c = end + (*end == '/')) {
		end = c + strcspn(c, "/");
		if ((n = (size_t)(end - c)) == 0 || (n == 1 && *c == '.'))
			continue;
		if (n == 2 && c[0] == '.' && c[1] == '.') {
			if (depth == 0)
				continue;
			depth--;
		} else
			depth++;
		if (out->len > 0)
			strbuf_addc(out, '/');
		strbuf_add(out, c, n);
	}
	if (out->len == 0)
		strbuf_addc(out, '.');
}

static int
link_line(struct tree *t, char *rest)
{
	char *arrow = strstr(rest, " -> "), full[TREE_PATH_MAX * 2], *base;
	struct strbuf target;
	int rc;

	if (arrow == NULL)
		return terr(t, "a link line without ' -> ':", rest);
	if (arrow[4] == '/')
		return terr(t, "a link out of the capture's tree (refused):", rest);
	*arrow = '\0';
	if (!path_ok(rest) || !target_ok(rest, arrow + 4))
		return terr(t, "not a link the capture reads:", rest);
	if (mkdirs(t, rest, false) == -1)
		return -1;
	snprintf(full, sizeof full, "%s%s", t->top, rest);
	base = strrchr(rest, '/') + 1;
	strbuf_init(&target);
	if (strcmp(base, "driver") == 0 || strcmp(base, "subsystem") == 0)
		reroot(rest, arrow + 4, &target);
	else
		strbuf_adds(&target, arrow + 4);
	rc = symlink(target.buf, full);
	strbuf_free(&target);
	if (rc != 0)
		return terr(t, strerror(errno), rest);
	t->links = xreallocarray(t->links, t->nlinks + 1, sizeof *t->links);
	t->links[t->nlinks].path = xstrdup(rest);
	t->links[t->nlinks++].line = t->line;
	return 0;
}

/* cur ("" the tree's top, "/sys/a") one step up; false when it is the top already. */
static bool
up(char *cur)
{
	if (*cur == '\0')
		return false;
	*strrchr(cur, '/') = '\0';
	return true;
}

/*
 * Does the tree's link at path lead out of the tree? Its target is walked as the kernel
 * would, the tree's links on the way followed (a link to "../.." makes "x/../.." of another
 * leave it), the components after a missing one taken as they are written.
 */
static bool
link_leaves(const char *top, const char *path)
{
	char cur[TREE_PATH_MAX], full[TREE_PATH_MAX * 2], target[TREE_PATH_MAX], *rest, *r, *next;
	struct stat st;
	int hops = 0;
	ssize_t n;
	bool out = false;

	snprintf(cur, sizeof cur, "%s", path);
	rest = xstrdup("");
	for (r = rest; !out; r = next) {
		snprintf(full, sizeof full, "%s%s", top, cur);
		if (lstat(full, &st) == 0 && S_ISLNK(st.st_mode)) {
			if ((n = readlink(full, target, sizeof target - 1)) < 0 || ++hops > 40) {
				out = true;	/* a loop of links */
				break;
			}
			target[n] = '\0';
			xasprintf(&next, "%s/%s", target, r);
			free(rest);
			r = rest = next;
			out = target[0] == '/' || !up(cur);
		}
		if (out || *r == '\0')
			break;
		if ((next = strchr(r, '/')) != NULL)
			*next++ = '\0';
		else
			next = r + strlen(r);
		if (strcmp(r, "..") == 0)
			out = !up(cur);
		else if (*r != '\0' && strcmp(r, ".") != 0 &&
		    !(out = strlen(cur) + strlen(r) + 2 > sizeof cur)) {
			strcat(cur, "/");
			strcat(cur, r);
		}
	}
	free(rest);
	return out;
}

/* Every ::L line whose link leads out of the whole tree refuses the capture. */
static int
links_stay(struct tree *t)
{
	size_t i, line = t->line;
	char full[TREE_PATH_MAX * 3], target[TREE_PATH_MAX];
	ssize_t n;

	for (i = 0; i < t->nlinks; i++) {
		if (!link_leaves(t->top, t->links[i].path))
			continue;
		snprintf(full, sizeof full, "%s%s", t->top, t->links[i].path);
		n = readlink(full, target, sizeof target - 1);
		target[n > 0 ? n : 0] = '\0';
		snprintf(full, sizeof full, "%s -> %s", t->links[i].path, target);
		t->line = t->links[i].line;
		return terr(t, "a link out of the capture's tree (refused):", full);
	}
	t->line = line;
	return 0;
}

static int
tree_line(struct tree *t, char *line)
{
	size_t l = strlen(line), rl;

	if (strncmp(line, "::R ", 4) == 0 && t->path[0] == '\0') {
		snprintf(t->root, sizeof t->root, "%s", line + 4);
		return 0;
	}
	if (strncmp(line, "==> ", 4) == 0 && l > 8 && strcmp(line + l - 4, " <==") == 0) {
		line[l - 4] = '\0';
		rl = strlen(t->root);
		if (strncmp(line + 4, t->root, rl) != 0)
			return terr(t, "a file outside the capture's root:", line + 4);
		return start_file(t, line + 4 + rl, 1);
	}
	if (strncmp(line, "::F ", 4) == 0)
		return start_file(t, line + 4, 0);
	if (strncmp(line, "::D ", 4) == 0 || strncmp(line, "::L ", 4) == 0) {
		if (flush(t) == -1)
			return -1;
		if (line[2] == 'L')
			return link_line(t, line + 4);
		if (!path_ok(line + 4))
			return terr(t, "not a path the capture reads:", line + 4);
		return mkdirs(t, line + 4, true);
	}
	if (t->path[0] == '\0') {
		if (*line == '\0')
			return 0;
		return terr(t, "text outside any file:", line);
	}
	strbuf_adds(&t->text, line);
	strbuf_addc(&t->text, '\n');
	return 0;
}

/* Each line of text through fn; the text is copied. */
static int
each_line(struct tree *t, const char *text, size_t len, int (*fn)(struct tree *, char *))
{
	char *copy = xstrndup(text, len), *line, *next;
	int rc = 0;

	t->line = 0;
	for (line = copy; rc == 0 && line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		t->line++;
		rc = fn(t, line);
	}
	free(copy);
	return rc;
}

/* "net.ipv4.conf.eth0/100.rp_filter = 1" -> /proc/sys/net/ipv4/conf/eth0.100/rp_filter. */
static int
sysctl_line(struct tree *t, char *line)
{
	char *eq = strstr(line, " = "), path[TREE_PATH_MAX], *p;
	size_t n;
	int rc;

	if (*line == '\0')
		return 0;
	if (eq == NULL || eq == line)
		return terr(t, "not a 'name = value' line of sysctl -a:", line);
	*eq = '\0';
	n = (size_t)snprintf(path, sizeof path, "/proc/sys/%s", line);
	if (n >= sizeof path)
		return 0;
	for (p = path + 10; *p != '\0'; p++)
		*p = *p == '.' ? '/' : *p == '/' ? '.' : *p;
	if (!path_ok(path))
		return 0;	/* not a name a kernel has: left out */
	xasprintf(&p, "%s\n", eq + 3);
	rc = write_file(t, path, p, strlen(p), true);
	free(p);
	return rc;
}

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

static void
rmtree(const char *dir)
{
	(void)nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* os_close of the tree's context: the tree goes with it. */
static void
remove_tree(void *arg)
{
	rmtree(arg);
	free(arg);
}

static struct os_ctx *
read_tree(const char *top, char **cause)
{
	struct os_ctx *ctx;

	if ((ctx = os_open_live(top, cause)) == NULL)
		return NULL;
	if (strcmp(os_backend_name(ctx), "linux") != 0) {
		util_cause(cause, "a Linux capture is read by ntune built for Linux (this one is "
		    "for '%s')", os_backend_name(ctx));
		os_close(ctx);
		return NULL;
	}
	ctx->on_close = remove_tree;
	ctx->on_close_arg = xstrdup(top);
	return ctx;
}

/* A file of the tree (top + path) read whole; NULL when it is not there. */
static char *
tree_value(const char *top, const char *path)
{
	char *full, *data = NULL;
	size_t len;

	xasprintf(&full, "%s%s", top, path);
	if (util_read_file(full, &data, &len, NULL) != 0)
		data = NULL;
	else
		data[strcspn(data, "\n")] = '\0';
	free(full);
	return data;
}

/*
 * A /proc/sys file whose mode is not 0644 has its mode in the tree (0444: read-only, the
 * backend's kind; 0200: write-only, not listed), made empty when it is write-only.
 */
static int
sysctl_mode(void *arg, const char *path, int mode)
{
	struct tree *t = arg;
	const char *name;
	struct stat st;
	int dfd, rc = 0;

	if (!path_ok(path))
		return terr(t, "not a path the capture reads:", path);
	/* one sysctl -a could not read although root may (stable_secret: EIO until set) stays out */
	if ((mode & 0444) == 0 && write_file(t, path, "", 0, true) == -1)
		return -1;
	if ((dfd = util_open_parent(t->top, path, &name, NULL)) == -1)
		return errno == ENOENT ? 0 : terr(t, "cannot set the mode of", path);
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && (!S_ISREG(st.st_mode) ||
	    fchmodat(dfd, name, (mode_t)mode, 0) != 0))
		rc = terr(t, "cannot set the mode of", path);
	close(dfd);
	return rc;
}

/* netns.txt and sysctl-modes.txt: the namespace's name as ROOT/ntune/netns, the files' modes. */
static int
write_system(struct tree *t, const struct capture_set *set, const char *origin)
{
	const struct capture_section *s;
	char name[64];
	int rc = 0;

	snprintf(t->where_buf, sizeof t->where_buf, "%s:netns.txt", origin);
	if ((s = capture_get(set, "netns.txt")) != NULL &&
	    (rc = capture_facts_netns(t->where_buf, s->text, s->len, name, sizeof name,
	    t->cause)) == 0)
		rc = write_file(t, "/ntune/netns", name, strlen(name), false);
	snprintf(t->where_buf, sizeof t->where_buf, "%s:sysctl-modes.txt", origin);
	t->where = t->where_buf;
	if (rc == 0 && (s = capture_get(set, "sysctl-modes.txt")) != NULL)
		rc = capture_facts_modes(t->where_buf, s->text, s->len, sysctl_mode, t, t->cause);
	return rc;
}

/* Every interface of the tree (its /sys/class/net) gets facts (a NAPI fact at least). */
static void
tree_interfaces(const char *top, struct capture_facts *f)
{
	struct dirent *de;
	char *dir;
	DIR *d;

	xasprintf(&dir, "%s/sys/class/net", top);
	if ((d = opendir(dir)) != NULL) {
		while ((de = readdir(d)) != NULL)
			if (capture_ifname_ok(de->d_name, strlen(de->d_name)))
				(void)capture_facts_if(f, de->d_name);
		closedir(d);
	}
	free(dir);
}

/*
 * The facts of the ethtool, tc and NAPI sections (capture_facts.h) as ROOT/ntune/if/IF,
 * "KEY VALUE" lines the Linux backend reads for what it asks ioctls and netlink on a live
 * system (linux_captured.c). An absent section (no ethtool on the box) adds nothing.
 */
static int
write_facts(struct tree *t, const struct capture_set *set, const char *origin)
{
	static const char opts[] = "iglcka";
	struct capture_facts f;
	const struct capture_section *s;
	char name[32], *path, *threaded, *online, *v;
	size_t i;
	int rc = 0, napi;

	memset(&f, 0, sizeof f);
	for (i = 0; rc == 0 && i < sizeof opts - 1; i++) {
		snprintf(name, sizeof name, "ethtool-%c.txt", opts[i]);
		snprintf(t->where_buf, sizeof t->where_buf, "%s:%s", origin, name);
		if ((s = capture_get(set, name)) != NULL)
			rc = capture_facts_ethtool(&f, opts[i], t->where_buf, s->text, s->len, t->cause);
	}
	snprintf(t->where_buf, sizeof t->where_buf, "%s:tc-qdisc.txt", origin);
	if (rc == 0 && (s = capture_get(set, "tc-qdisc.txt")) != NULL)
		rc = capture_facts_qdisc(&f, t->where_buf, s->text, s->len, t->cause);
	snprintf(t->where_buf, sizeof t->where_buf, "%s:napi-threads.txt", origin);
	napi = (s = capture_get(set, "napi-threads.txt")) != NULL;
	if (rc == 0 && napi)
		rc = capture_facts_napi(&f, t->where_buf, s->text, s->len, t->cause);
	online = tree_value(t->top, "/sys/devices/system/cpu/online");
	if (napi)
		tree_interfaces(t->top, &f);
	for (i = 0; rc == 0 && napi && online != NULL && i < f.n; i++) {
		xasprintf(&path, "/sys/class/net/%s/threaded", f.v[i].name);
		threaded = tree_value(t->top, path);
		if ((v = capture_facts_napi_cpus(&f, f.v[i].name, threaded, online)) != NULL)
			strbuf_addf(&f.v[i].text, "napi_thread_cpus %s\n", v);
		free(v);
		free(threaded);
		free(path);
	}
	free(online);
	for (i = 0; rc == 0 && i < f.n; i++) {
		xasprintf(&path, "/ntune/if/%s", f.v[i].name);
		rc = write_file(t, path, f.v[i].text.len > 0 ? f.v[i].text.buf : "", f.v[i].text.len,
		    false);
		free(path);
	}
	capture_facts_free(&f);
	return rc;
}

struct os_ctx *
capture_open_linux(const struct capture_set *set, char **cause)
{
	const struct capture_section *tree_s = capture_get(set, "linux-tree.txt");
	const struct capture_section *sysctl_s = capture_get(set, "sysctl-a.txt");
	const char *origin = set->origin != NULL ? set->origin : "capture";
	const char *tmp = getenv("TMPDIR");
	char *top, where[512];
	struct tree t;
	struct os_ctx *ctx = NULL;
	int rc;

	if (tree_s == NULL || sysctl_s == NULL) {
		util_cause(cause, "%s: no %s (the capture of a Linux host needs it)", origin,
		    tree_s == NULL ? "linux-tree.txt" : "sysctl-a.txt");
		return NULL;
	}
	/* In TMPDIR when it is set (a test's scratch directory), else /tmp. */
	xasprintf(&top, "%s/ntune-capture-XXXXXX", tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
	if (mkdtemp(top) == NULL) {
		util_cause(cause, "cannot make '%s': %s", top, strerror(errno));
		free(top);
		return NULL;
	}
	memset(&t, 0, sizeof t);
	t.top = top;
	t.cause = cause;
	strbuf_init(&t.text);
	snprintf(where, sizeof where, "%s:linux-tree.txt", origin);
	t.where = where;
	rc = each_line(&t, tree_s->text, tree_s->len, tree_line);
	if (rc == 0)
		rc = flush(&t);
	if (rc == 0)
		rc = links_stay(&t);
	while (t.nlinks > 0)
		free(t.links[--t.nlinks].path);
	free(t.links);
	snprintf(where, sizeof where, "%s:sysctl-a.txt", origin);
	if (rc == 0)
		rc = each_line(&t, sysctl_s->text, sysctl_s->len, sysctl_line);
	if (rc == 0)
		rc = write_facts(&t, set, origin);
	if (rc == 0)
		rc = write_system(&t, set, origin);
	strbuf_free(&t.text);
	if (rc == 0)
		ctx = read_tree(top, cause);
	if (ctx == NULL)
		rmtree(top);
	free(top);
	return ctx;
}

/* ---- a sample (before.txt, after.txt): /proc/stat, /proc/net/dev, /proc/interrupts ---- */

/* The parts of a sample; softnet_stat is optional (captures before it was added lack it). */
enum sample_part { PART_NONE = -1, PART_STAT, PART_DEV, PART_IRQ, PART_SOFTNET, PART_N };

static const char *const part_path[PART_N] = { "/proc/stat", "/proc/net/dev",
	"/proc/interrupts", "/proc/net/softnet_stat" };

/* A row of /proc/net/softnet_stat: words of 8 hex digits (net/core/net-procfs.c softnet_seq_show). */
static bool
softnet_row(const char *line)
{
	size_t n = 0, w;

	for (;;) {
		w = strspn(line, "0123456789abcdef");
		if (w != 8)
			return false;
		n++;
		line += w;
		if (*line == '\0')
			return n >= 3;
		if (*line++ != ' ')
			return false;
	}
}

/*
 * The part a line starts: /proc/stat's "cpu " line, /proc/net/dev's "Inter-|", the "CPU0"
 * header of /proc/interrupts, the first row of /proc/net/softnet_stat (no header).
 */
static enum sample_part
part_start(const char *line, enum sample_part cur)
{
	const char *p = line + strspn(line, " ");

	if (cur != PART_SOFTNET && softnet_row(line))
		return PART_SOFTNET;
	if (strncmp(line, "cpu ", 4) == 0)
		return PART_STAT;
	if (strncmp(line, "Inter-|", 7) == 0)
		return PART_DEV;
	if (strncmp(p, "CPU0", 4) == 0 && p != line)
		return PART_IRQ;
	return PART_NONE;
}

/* Is a line of a part what that file prints? Only its shape: the backend reads the values. */
static bool
part_line_ok(enum sample_part part, size_t nth, const char *line)
{
	const char *p = line + strspn(line, " "), *colon;

	switch (part) {
	case PART_STAT:		/* "cpu3 1 2 3", "intr 5 0 1", "ctxt 7", "btime 1" */
		if (strspn(p, "abcdefghijklmnopqrstuvwxyz_0123456789") == 0)
			return false;
		p += strspn(p, "abcdefghijklmnopqrstuvwxyz_0123456789");
		return *p == ' ' && strspn(p, " 0123456789") == strlen(p);
	case PART_DEV:		/* the second header line, then "  eth0: 1 2 ..." */
		if (nth == 1)
			return strstr(line, "|bytes") != NULL;
		return (colon = strchr(p, ':')) != NULL && colon > p &&
		    strspn(colon + 1, " 0123456789") == strlen(colon + 1);
	case PART_IRQ:		/* " 30:  1  2  PCI-MSI 1-edge eth0-TxRx-0", "NMI: 0 0 Non-maskable" */
		return (colon = strchr(p, ':')) != NULL && colon > p &&
		    strcspn(p, " \t") > (size_t)(colon - p) && (colon[1] == ' ' ||
		    colon[1] == '\0');
	case PART_SOFTNET:
		return softnet_row(line);
	default:
		return false;
	}
}

/* Replaces the tree's file path with text (atomically: a new file renamed over it). */
static int
replace_file(const char *top, const char *path, const char *text, size_t len, char **cause)
{
	return util_write_file_in(top, path, text, len, 0644, cause);
}

/* Removes the tree's file path (a sample without it must not be read with the tree's copy). */
static int
remove_file(const char *top, const char *path, char **cause)
{
	const char *name;
	int dfd, rc = 0;

	if ((dfd = util_open_parent(top, path, &name, cause)) == -1)
		return -1;
	if (unlinkat(dfd, name, 0) != 0 && errno != ENOENT) {
		util_cause(cause, "cannot remove '%s%s': %s", top, path, strerror(errno));
		rc = -1;
	}
	close(dfd);
	return rc;
}

int
capture_linux_sample(struct os_ctx *ctx, const char *where, const char *text, size_t len,
    char **cause)
{
	struct strbuf part[PART_N];
	enum sample_part cur = PART_NONE, s;
	char *copy, *line, *next;
	size_t lineno = 0, nth = 0, i;
	bool seen[PART_N] = { false, false, false, false };
	int rc = 0;

	if (ctx->on_close != remove_tree) {
		util_cause(cause, "%s: not a Linux capture's tree", where);
		return -1;
	}
	copy = xstrndup(text, len);
	for (i = 0; i < PART_N; i++)
		strbuf_init(&part[i]);
	for (line = copy; rc == 0 && line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		lineno++;
		if (*line == '\0')
			continue;
		if ((s = part_start(line, cur)) != PART_NONE) {
			if (seen[s]) {
				util_cause(cause, "%s:%zu: %s appears twice in one sample", where,
				    lineno, part_path[s]);
				rc = -1;
				break;
			}
			seen[s] = true;
			cur = s;
			nth = 0;
		} else if (cur == PART_NONE || !part_line_ok(cur, nth, line)) {
			util_cause(cause, "%s:%zu: not a line of %s: '%.80s'", where, lineno,
			    cur == PART_NONE ? "/proc/stat, /proc/net/dev or /proc/interrupts" :
			    part_path[cur], line);
			rc = -1;
			break;
		}
		strbuf_adds(&part[cur], line);
		strbuf_addc(&part[cur], '\n');
		nth++;
	}
	for (i = 0; rc == 0 && i < PART_SOFTNET; i++) {
		if (!seen[i]) {
			util_cause(cause, "%s: no %s in the sample", where, part_path[i]);
			rc = -1;
		}
	}
	for (i = 0; rc == 0 && i < PART_N; i++) {
		if (seen[i])
			rc = replace_file(ctx->on_close_arg, part_path[i], part[i].buf, part[i].len,
			    cause);
		else
			rc = remove_file(ctx->on_close_arg, part_path[i], cause);
	}
	for (i = 0; i < PART_N; i++)
		strbuf_free(&part[i]);
	free(copy);
	return rc;
}
