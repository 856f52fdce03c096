/* OpenSSH as the transport: URL parsing, sh quoting, running commands with time limits. */
#include <sys/types.h>
#include <sys/wait.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "remote/remote.h"
#include "util/run.h"
#include "util/util.h"

static bool
chars_ok(const char *s, const char *extra)
{
	for (; *s != '\0'; s++) {
		if (!isalnum((unsigned char)*s) && strchr(extra, *s) == NULL)
			return false;
	}
	return true;
}

int
remote_parse(const char *url, struct remote_host *h, char **cause)
{
	const char *p, *at, *end, *colon;
	char port[8];
	long n;

	memset(h, 0, sizeof *h);
	if (strlen(url) >= sizeof h->url) {
		util_cause(cause, "host '%.40s...' is too long", url);
		return -1;
	}
	memcpy(h->url, url, strlen(url) + 1);	/* fits: checked above */
	if (strcmp(url, "local") == 0) {
		h->local = true;
		snprintf(h->host, sizeof h->host, "localhost");
		return 0;
	}
	if (strncmp(url, "ssh://", 6) != 0)
		goto bad;
	p = url + 6;
	if ((at = strchr(p, '@')) != NULL) {
		if (at == p || (size_t)(at - p) >= sizeof h->user)
			goto bad;
		memcpy(h->user, p, (size_t)(at - p));
		if (!chars_ok(h->user, "._-") || h->user[0] == '-')
			goto bad;
		p = at + 1;
	}
	if (*p == '[') {
		if ((end = strchr(p, ']')) == NULL)
			goto bad;
		colon = end[1] == ':' ? end + 1 : NULL;
		if (end[1] != '\0' && colon == NULL)
			goto bad;
		p++;
	} else {
		colon = strrchr(p, ':');
		end = colon != NULL ? colon : p + strlen(p);
	}
	if (end == p || (size_t)(end - p) >= sizeof h->host)
		goto bad;
	memcpy(h->host, p, (size_t)(end - p));
	if (!chars_ok(h->host, ".-_:") || h->host[0] == '-')
		goto bad;
	if (colon != NULL) {
		if (strlen(colon + 1) == 0 || strlen(colon + 1) >= sizeof port ||
		    strspn(colon + 1, "0123456789") != strlen(colon + 1))
			goto bad;
		n = strtol(colon + 1, NULL, 10);
		if (n < 1 || n > 65535)
			goto bad;
		h->port = (int)n;
	}
	return 0;
bad:
	util_cause(cause, "invalid host '%s' (ssh://[user@]host[:port] or local; names and "
	    "addresses only)", url);
	memset(h, 0, sizeof *h);
	return -1;
}

char *
remote_quote(const char *w)
{
	struct strbuf sb;

	strbuf_init(&sb);
	strbuf_addc(&sb, '\'');
	for (; *w != '\0'; w++) {
		if (*w == '\'')
			strbuf_adds(&sb, "'\\''");
		else if (*w == '!')
			strbuf_adds(&sb, "'\\!'");
		else
			strbuf_addc(&sb, *w);
	}
	strbuf_addc(&sb, '\'');
	return strbuf_detach(&sb);
}

/* argv[i] is the script of `sh -c SCRIPT` (or /bin/sh -c). */
static bool
is_sh_script(char *const argv[], size_t i)
{
	const char *sh;

	if (i < 2 || strcmp(argv[i - 1], "-c") != 0)
		return false;
	sh = strrchr(argv[i - 2], '/') != NULL ? strrchr(argv[i - 2], '/') + 1 : argv[i - 2];
	return strcmp(sh, "sh") == 0;
}

/*
 * A multi-line sh script as one line that csh passes on as sh does:
 * eval "$(printf %b 'TEXT')", TEXT the script with each \ doubled and each
 * line break written \n (printf's %b turns them back; $(...) drops only
 * the trailing line breaks). The script's $1... stay those of the sh -c.
 */
static char *
script_one_line(const char *script)
{
	struct strbuf esc;
	char *q, *line;

	strbuf_init(&esc);
	for (; *script != '\0'; script++) {
		if (*script == '\\')
			strbuf_adds(&esc, "\\\\");
		else if (*script == '\n')
			strbuf_adds(&esc, "\\n");
		else
			strbuf_addc(&esc, *script);
	}
	strbuf_addc(&esc, '\0');
	q = remote_quote(esc.buf);
	xasprintf(&line, "eval \"$(printf %%b %s)\"", q);
	free(q);
	strbuf_free(&esc);
	return line;
}

int
remote_words_check(char *const argv[], char **cause)
{
	size_t i;

	for (i = 0; argv[i] != NULL; i++)
		if (strpbrk(argv[i], is_sh_script(argv, i) ? "\r" : "\n\r") != NULL) {
			util_cause(cause, "cannot send '%.60s' on an ssh command line: it holds a line "
			    "break, which csh (the login shell of OPNsense's root) cannot take", argv[i]);
			return -1;
		}
	return 0;
}

char *
remote_command(char *const argv[])
{
	struct strbuf sb;
	char *q;
	size_t i;

	strbuf_init(&sb);
	for (i = 0; argv[i] != NULL; i++) {
		if (is_sh_script(argv, i) && strchr(argv[i], '\n') != NULL) {
			char *line = script_one_line(argv[i]);

			q = remote_quote(line);
			free(line);
		} else
			q = remote_quote(argv[i]);
		strbuf_addf(&sb, "%s%s", i > 0 ? " " : "", q);
		free(q);
	}
	strbuf_addc(&sb, '\0');
	sb.len--;
	return strbuf_detach(&sb);
}

bool
remote_ifname_valid(const char *s)
{
	return s[0] != '\0' && s[0] != '-' && strlen(s) <= 15 && chars_ok(s, "._-");
}

int
remote_ssh_init(struct remote_ssh *s, char **cause)
{
	const char *tmp = getenv("TMPDIR");

	/* A unix socket path is short (104 bytes on FreeBSD): keep the directory near the root. */
	if (tmp == NULL || *tmp == '\0' || strlen(tmp) > 24)
		tmp = "/tmp";
	snprintf(s->ctl_dir, sizeof s->ctl_dir, "%s/ntune-ssh.XXXXXX", tmp);
	if (mkdtemp(s->ctl_dir) == NULL) {
		util_cause(cause, "cannot create a directory in %s: %s", tmp, strerror(errno));
		s->ctl_dir[0] = '\0';
		return -1;
	}
	return 0;
}

/*
 * The control directory goes, with the masters' sockets in it: a master told to exit
 * (remote_host_disconnect) may not have removed its socket yet, and rmdir alone then left
 * the directory in /tmp.
 */
void
remote_ssh_done(struct remote_ssh *s)
{
	struct dirent *d;
	DIR *dir;
	char *p;

	if (s->ctl_dir[0] == '\0')
		return;
	if ((dir = opendir(s->ctl_dir)) != NULL) {
		while ((d = readdir(dir)) != NULL) {
			if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0)
				continue;
			xasprintf(&p, "%s/%s", s->ctl_dir, d->d_name);
			unlink(p);
			free(p);
		}
		closedir(dir);
	}
	rmdir(s->ctl_dir);
	s->ctl_dir[0] = '\0';
}

void
remote_words_add(struct remote_words *w, const char *s)
{
	w->v = util_strv_add(w->v, &w->n, s);
}

void
remote_words_addf(struct remote_words *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	w->v = util_strv_vaddf(w->v, &w->n, fmt, ap);
	va_end(ap);
}

void
remote_words_split(struct remote_words *w, const char *s)
{
	char *copy, *tok, *save = NULL;

	if (s == NULL)
		return;
	copy = xstrdup(s);
	for (tok = strtok_r(copy, " \t\n", &save); tok != NULL; tok = strtok_r(NULL, " \t\n", &save))
		remote_words_add(w, tok);
	free(copy);
}

void
remote_words_free(struct remote_words *w)
{
	util_strv_free(w->v, w->n);
	memset(w, 0, sizeof *w);
}

/* ssh and its options up to and including the host (control: "" or the -O command). */
static void
ssh_words(const struct remote_host *h, const char *control, struct remote_words *w)
{
	const struct remote_ssh *s = h->ssh;

	remote_words_add(w, "ssh");
	if (s != NULL && s->config != NULL) {
		remote_words_add(w, "-F");
		remote_words_add(w, s->config);
	}
	remote_words_add(w, "-o");
	remote_words_add(w, "BatchMode=yes");
	remote_words_add(w, "-o");
	remote_words_addf(w, "ConnectTimeout=%d", s != NULL && s->connect_timeout > 0 ? s->connect_timeout : 10);
	remote_words_add(w, "-o");
	remote_words_add(w, "ServerAliveInterval=5");
	remote_words_add(w, "-o");
	remote_words_add(w, "ServerAliveCountMax=3");
	remote_words_add(w, "-o");
	remote_words_addf(w, "StrictHostKeyChecking=%s", s != NULL && s->accept_new ? "accept-new" : "yes");
	if (s != NULL && s->ctl_dir[0] != '\0') {
		remote_words_add(w, "-o");
		remote_words_add(w, "ControlMaster=auto");
		remote_words_add(w, "-o");
		remote_words_addf(w, "ControlPath=%s/%%C", s->ctl_dir);
		remote_words_add(w, "-o");
		remote_words_add(w, "ControlPersist=300");
	}
	if (*control != '\0') {
		remote_words_add(w, "-O");
		remote_words_add(w, control);
	} else
		remote_words_add(w, "-T");
	if (h->port > 0) {
		remote_words_add(w, "-p");
		remote_words_addf(w, "%d", h->port);
	}
	if (h->user[0] != '\0') {
		remote_words_add(w, "-l");
		remote_words_add(w, h->user);
	}
	remote_words_add(w, "--");
	remote_words_add(w, h->host);
}

char **
remote_argv(const struct remote_host *h, const char *command)
{
	struct remote_words w = { NULL, 0 };

	if (h->local) {
		remote_words_add(&w, "/bin/sh");
		remote_words_add(&w, "-c");
	} else
		ssh_words(h, "", &w);
	remote_words_add(&w, command);
	return w.v;
}

void
remote_argv_free(char **v)
{
	size_t i;

	for (i = 0; v != NULL && v[i] != NULL; i++)
		free(v[i]);
	free(v);
}

/*
 * Starts argv (ssh) with in (-1: /dev/null), out and err as its stdin, stdout and stderr,
 * and no other descriptor of ours (another child's pipe end would keep its reader waiting).
 */
static pid_t
spawn(char **argv, int in, int out, int err, char **cause)
{
	/* A group of its own: a Ctrl-C at the terminal is ours to handle, not ssh's. */
	struct util_child c = { .argv = (const char *const *)argv, .new_pgrp = true,
	    .reset_signals = true, .null_stdin = in == -1, .in = in, .out = out, .err = err,
	    .exec_error = true, .close_fds = true };

	if (util_child_start(&c, cause) == -1)
		return -1;
	return c.pid;
}

void
remote_host_disconnect(const struct remote_host *h)
{
	struct remote_words w = { NULL, 0 };
	struct util_child c = { .new_pgrp = true, .reset_signals = true, .null_stdio = true };

	if (h->local || h->ssh == NULL || h->ssh->ctl_dir[0] == '\0')
		return;
	ssh_words(h, "exit", &w);
	c.argv = (const char *const *)w.v;
	util_child_run(&c, NULL);
	remote_words_free(&w);
}

int
remote_start(const struct remote_host *h, char *const argv[], struct remote_child *c, char **cause)
{
	char *cmd, *q, **v;
	int o[2], e[2];

	memset(c, 0, sizeof *c);
	c->pid = -1;
	c->out = c->err = -1;
	if (remote_words_check(argv, cause) == -1)
		return -1;
	if (pipe(o) == -1 || pipe(e) == -1) {
		util_cause(cause, "pipe: %s", strerror(errno));
		return -1;
	}
	q = remote_command(argv);
	/* sh tells the pid, not the login shell: csh would read >&2 as "into the file 2". */
	xasprintf(&cmd, "exec sh -c 'echo ntune-pid $$ >&2; exec \"$@\"' sh %s", q);
	free(q);
	v = remote_argv(h, cmd);
	free(cmd);
	c->host = h;
	c->pid = spawn(v, -1, o[1], e[1], cause);
	remote_argv_free(v);
	close(o[1]);
	close(e[1]);
	fcntl(o[0], F_SETFD, FD_CLOEXEC);
	fcntl(e[0], F_SETFD, FD_CLOEXEC);
	fcntl(o[0], F_SETFL, O_NONBLOCK);
	fcntl(e[0], F_SETFL, O_NONBLOCK);
	c->out = o[0];
	c->err = e[0];
	c->obuf = xstrdup("");
	c->ebuf = xstrdup("");
	if (c->pid == -1) {
		remote_child_free(c);
		return -1;
	}
	return 0;
}

static void
drain(int *fd, char **buf, size_t *len)
{
	char tmp[8192];
	ssize_t r;

	while (*fd != -1) {
		r = read(*fd, tmp, sizeof tmp);
		if (r > 0) {
			*buf = xreallocarray(*buf, *len + (size_t)r + 1, 1);
			memcpy(*buf + *len, tmp, (size_t)r);
			*len += (size_t)r;
			(*buf)[*len] = '\0';
			continue;
		}
		if (r == -1 && (errno == EAGAIN || errno == EINTR))
			return;
		close(*fd);
		*fd = -1;
	}
}

/* The first line the wrapper writes, "ntune-pid N", is ours: taken out of the output. */
static void
take_pid(struct remote_child *c)
{
	char *nl;

	if (c->rpid != 0 || c->host == NULL || strncmp(c->ebuf, "ntune-pid ", 10) != 0 ||
	    (nl = strchr(c->ebuf, '\n')) == NULL)
		return;
	c->rpid = strtol(c->ebuf + 10, NULL, 10);
	if (c->rpid <= 0)
		c->rpid = -1;
	c->elen -= (size_t)(nl + 1 - c->ebuf);
	memmove(c->ebuf, nl + 1, c->elen + 1);
}

int
remote_child_poll(struct remote_child *c, double secs, int *status)
{
	struct pollfd p[2];
	int np = 0, st;

	if (c->out != -1)
		p[np++] = (struct pollfd){ c->out, POLLIN, 0 };
	if (c->err != -1)
		p[np++] = (struct pollfd){ c->err, POLLIN, 0 };
	if (np > 0)
		poll(p, (nfds_t)np, (int)(secs * 1000));
	else
		usleep((useconds_t)(secs * 1e6));
	drain(&c->out, &c->obuf, &c->olen);
	drain(&c->err, &c->ebuf, &c->elen);
	take_pid(c);
	if (c->pid > 0 && waitpid(c->pid, &st, WNOHANG) == c->pid) {
		c->pid = -1;
		*status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
		/* What it wrote last; a background ssh master may keep the pipes open, so no more. */
		drain(&c->out, &c->obuf, &c->olen);
		drain(&c->err, &c->ebuf, &c->elen);
		return 1;
	}
	return c->pid > 0 ? 0 : 1;
}

void
remote_child_kill(struct remote_child *c)
{
	double until;
	int st;

	if (c->pid <= 0)
		return;
	if (c->host != NULL && c->rpid > 0) {
		struct remote_result r;
		char pid[24], *argv[] = { "kill", pid, NULL };

		snprintf(pid, sizeof pid, "%ld", c->rpid);
		if (remote_run(c->host, argv, NULL, 15, &r, NULL) == 0)
			remote_result_free(&r);
		c->rpid = -1;
	}
	kill(-c->pid, SIGTERM);
	until = util_now() + 2;
	while (waitpid(c->pid, &st, WNOHANG) == 0) {
		if (util_now() > until) {
			kill(-c->pid, SIGKILL);
			waitpid(c->pid, &st, 0);
			break;
		}
		usleep(20000);
	}
	c->pid = -1;
}

int
remote_child_wait(struct remote_child *c, double deadline, bool *timed_out)
{
	int status = 255;

	*timed_out = false;
	while (remote_child_poll(c, 0.1, &status) == 0) {
		if (util_now() > deadline) {
			remote_child_kill(c);
			*timed_out = true;
			return 255;
		}
	}
	return status;
}

void
remote_child_free(struct remote_child *c)
{
	remote_child_kill(c);
	if (c->out != -1)
		close(c->out);
	if (c->err != -1)
		close(c->err);
	free(c->obuf);
	free(c->ebuf);
	memset(c, 0, sizeof *c);
	c->pid = -1;
	c->out = c->err = -1;
}

static int
run_words(const struct remote_host *h, const char *cmd, const char *input, double timeout,
    struct remote_result *r, char **cause)
{
	struct remote_child c;
	char **v;
	size_t off = 0, len = input != NULL ? strlen(input) : 0;
	int o[2], e[2], in[2], status = 255;
	double deadline = util_now() + timeout;
	ssize_t w;

	memset(r, 0, sizeof *r);
	memset(&c, 0, sizeof c);
	if (pipe(o) == -1 || pipe(e) == -1 || pipe(in) == -1) {
		util_cause(cause, "pipe: %s", strerror(errno));
		return -1;
	}
	v = remote_argv(h, cmd);
	c.pid = spawn(v, in[0], o[1], e[1], cause);
	remote_argv_free(v);
	close(in[0]);
	close(o[1]);
	close(e[1]);
	c.out = o[0];
	c.err = e[0];
	fcntl(o[0], F_SETFL, O_NONBLOCK);
	fcntl(e[0], F_SETFL, O_NONBLOCK);
	fcntl(in[1], F_SETFL, O_NONBLOCK);
	c.obuf = xstrdup("");
	c.ebuf = xstrdup("");
	if (c.pid == -1) {
		close(in[1]);
		remote_child_free(&c);
		return -1;
	}
	signal(SIGPIPE, SIG_IGN);
	while (in[1] != -1) {
		w = off < len ? write(in[1], input + off, len - off) : 0;
		if (w > 0)
			off += (size_t)w;
		if (off >= len || (w == -1 && errno != EAGAIN && errno != EINTR)) {
			close(in[1]);
			in[1] = -1;
			break;
		}
		if (remote_child_poll(&c, 0.02, &status) == 1 || util_now() > deadline) {
			close(in[1]);
			in[1] = -1;
		}
	}
	if (c.pid > 0)
		status = remote_child_wait(&c, deadline, &r->timed_out);
	r->status = r->timed_out ? 255 : status;
	r->out = c.obuf;
	r->err = c.ebuf;
	c.obuf = c.ebuf = NULL;
	remote_child_free(&c);
	return 0;
}

int
remote_run(const struct remote_host *h, char *const argv[], const char *input, double timeout,
    struct remote_result *r, char **cause)
{
	char *cmd;
	int rc;

	if (remote_words_check(argv, cause) == -1)
		return -1;
	cmd = remote_command(argv);
	rc = run_words(h, cmd, input, timeout, r, cause);
	free(cmd);
	return rc;
}

int
remote_sh(const struct remote_host *h, const char *script, char *const args[], double timeout,
    struct remote_result *r, char **cause)
{
	struct strbuf sb;
	char *q;
	size_t i;
	int rc;

	if (args != NULL && remote_words_check(args, cause) == -1)
		return -1;
	strbuf_init(&sb);
	strbuf_adds(&sb, "sh -s --");
	for (i = 0; args != NULL && args[i] != NULL; i++) {
		q = remote_quote(args[i]);
		strbuf_addf(&sb, " %s", q);
		free(q);
	}
	strbuf_addc(&sb, '\0');
	rc = run_words(h, sb.buf, script, timeout, r, cause);
	strbuf_free(&sb);
	return rc;
}

void
remote_result_free(struct remote_result *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

const char *
remote_result_why(const struct remote_result *r)
{
	static char line[300];
	const char *src, *p, *start = NULL, *end = NULL;

	if (r->timed_out)
		return "no answer in time";
	src = r->err != NULL && *r->err != '\0' ? r->err : r->out != NULL ? r->out : "";
	for (p = src; *p != '\0'; ) {
		const char *eol = strchr(p, '\n');

		if (eol == NULL)
			eol = p + strlen(p);
		if (eol > p && strspn(p, " \t\r") < (size_t)(eol - p)) {
			start = p;
			end = eol;
		}
		p = *eol == '\0' ? eol : eol + 1;
	}
	if (start == NULL)
		snprintf(line, sizeof line, "exit status %d", r->status);
	else
		snprintf(line, sizeof line, "%.*s", (int)(end - start), start);
	return line;
}
