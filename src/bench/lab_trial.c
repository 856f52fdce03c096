/*
 * The lab runner's RFC 2544 trial: `ntune sink` and then `ntune gen` as
 * processes, in the lab's namespaces (`ntune lab exec`) or over OpenSSH on
 * the hosts the configuration names (--gen-host, --sink-host), their --json
 * output read back into the trial.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "bench/lab_bench.h"
#include "lab/rfc2544.h"
#include "lab/traffic_cli.h"
#include "remote/remote.h"
#include "util/run.h"
#include "util/util.h"

#define SINK_READY_S	10	/* the longest wait for the sink's socket */
#define SINK_IDLE_S	"0.3"	/* the sink stops this long after the last frame */

struct argv {
	struct remote_words w;	/* ntune ROLE and its options */
	struct remote_host h;	/* where they run, when remote */
	bool	remote;
	char	**ssh;		/* arg_seal: ssh ... -- host 'ntune' 'ROLE' ..., or NULL */
};

/* The words to exec: over ssh (remote/ssh.c builds every ssh command line), or as they are. */
static char *const *
arg_seal(struct argv *a)
{
	char *line;

	if (!a->remote)
		return a->w.v;
	line = remote_command(a->w.v);
	a->ssh = remote_argv(&a->h, line);
	free(line);
	return a->ssh;
}

/* The command that runs `ntune ROLE` where that role lives. */
static int
role_argv(const struct rfc2544_config *c, const char *role, struct argv *a, char **cause)
{
	const char *host = strcmp(role, "gen") == 0 ? c->gen_host : c->sink_host;
	const char *nt = c->ntune;

	if (host != NULL) {
		/* ssh://[user@]host[:port], checked by remote_parse: no option or shell text gets through. */
		if (remote_parse(host, &a->h, cause) == -1)
			return -1;
		if (a->h.local) {
			util_cause(cause, "invalid host '%s' (ssh://[user@]host[:port])", host);
			return -1;
		}
		a->remote = true;
		remote_words_add(&a->w, nt != NULL ? nt : "ntune");
	} else {
		nt = nt != NULL ? nt : "/proc/self/exe";
		remote_words_add(&a->w, nt);
		remote_words_add(&a->w, "lab");
		remote_words_add(&a->w, "exec");
		remote_words_add(&a->w, "--prefix");
		remote_words_add(&a->w, c->prefix);
		remote_words_add(&a->w, role);
		remote_words_add(&a->w, "--");
		remote_words_add(&a->w, nt);
	}
	remote_words_add(&a->w, role);
	return 0;
}

struct child {
	pid_t		pid;
	int		out, err;
	struct strbuf	obuf, ebuf;
};

static int
child_start(struct child *ch, char *const argv[], char **cause)
{
	struct util_child c = { .null_stdin = true, .reset_signals = true, .exec_error = true };
	int o[2], e[2];
	char self[4096];
	const char *prog = argv[0];
	const char **v;
	size_t n, i;
	ssize_t len;

	/* /proc/self/exe must be resolved here: in the child it would still be us, but be explicit. */
	if (strcmp(prog, "/proc/self/exe") == 0 && (len = readlink(prog, self, sizeof(self) - 1)) > 0) {
		self[len] = '\0';
		prog = self;
	}
	if (pipe2(o, O_CLOEXEC) == -1 || pipe2(e, O_CLOEXEC) == -1) {
		util_cause(cause, "pipe: %s", strerror(errno));
		return -1;
	}
	for (n = 0; argv[n] != NULL; n++)
		;
	v = xcalloc(n + 1, sizeof(*v));
	v[0] = prog;
	for (i = 1; i < n; i++)
		v[i] = argv[i];
	c.argv = v;
	c.out = o[1];
	c.err = e[1];
	if (util_child_start(&c, cause) == -1) {
		free(v);
		close(o[0]); close(o[1]); close(e[0]); close(e[1]);
		return -1;
	}
	free(v);
	ch->pid = c.pid;
	close(o[1]);
	close(e[1]);
	ch->out = o[0];
	ch->err = e[0];
	strbuf_init(&ch->obuf);
	strbuf_init(&ch->ebuf);
	return 0;
}

/* Reads the child's output until it exits; returns its exit status. */
static int
child_finish(struct child *ch)
{
	struct pollfd p[2];
	char buf[4096];
	int status, open_fds = 2;

	p[0].fd = ch->out;
	p[1].fd = ch->err;
	p[0].events = p[1].events = POLLIN;
	while (open_fds > 0) {
		int i;

		if (poll(p, 2, -1) == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < 2; i++) {
			ssize_t n;

			if (p[i].fd == -1 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			n = read(p[i].fd, buf, sizeof(buf));
			if (n > 0)
				strbuf_add(i == 0 ? &ch->obuf : &ch->ebuf, buf, (size_t)n);
			else if (n == 0 || errno != EINTR) {
				close(p[i].fd);
				p[i].fd = -1;
				open_fds--;
			}
		}
	}
	strbuf_addc(&ch->obuf, '\0');
	strbuf_addc(&ch->ebuf, '\0');
	while (waitpid(ch->pid, &status, 0) == -1 && errno == EINTR)
		;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

static void
child_free(struct child *ch)
{
	strbuf_free(&ch->obuf);
	strbuf_free(&ch->ebuf);
}

/* Waits until the sink says on stderr that it receives (or exits, or takes too long). */
static int
wait_ready(struct child *ch)
{
	double until = util_now() + SINK_READY_S;
	char buf[1024];

	while (util_now() < until) {
		struct pollfd p = { ch->err, POLLIN, 0 };
		ssize_t n;

		if (poll(&p, 1, 100) <= 0)
			continue;
		if ((n = read(ch->err, buf, sizeof(buf))) <= 0)
			return -1;
		strbuf_add(&ch->ebuf, buf, (size_t)n);
		strbuf_addc(&ch->ebuf, '\0');
		ch->ebuf.len--;
		if (strstr(ch->ebuf.buf, TRAFFIC_SINK_READY) != NULL)
			return 0;
	}
	return -1;
}

static const char *
first_line(char *s)
{
	char *nl;

	s = util_trim(s);
	/* The last line is the one that says what went wrong. */
	while ((nl = strrchr(s, '\n')) != NULL && nl[1] == '\0')
		*nl = '\0';
	if ((nl = strrchr(s, '\n')) != NULL)
		return nl + 1;
	return s;
}

int
bench_lab_rfc2544_trial(void *arg, const struct rfc2544_config *c, int size, double rate,
    const char *phase, struct rfc2544_trial *t, char **cause)
{
	struct argv ga = { 0 }, sa = { 0 };
	struct child gen, sink;
	json_t *gj = NULL, *sj = NULL;
	json_error_t jerr;
	int grc, src, rc = -1;

	rfc2544_trial_init(t, size, rate, phase);
	if (role_argv(c, "sink", &sa, cause) == -1 || role_argv(c, "gen", &ga, cause) == -1)
		goto out;
	remote_words_add(&sa.w, "--" TRAFFIC_OPT_JSON);
	remote_words_add(&sa.w, "--" TRAFFIC_OPT_QUIET);
	remote_words_add(&sa.w, "--" TRAFFIC_OPT_IDLE);
	remote_words_add(&sa.w, SINK_IDLE_S);
	remote_words_add(&sa.w, "--" TRAFFIC_OPT_DURATION);
	remote_words_addf(&sa.w, "%.3f", c->duration + 10);
	remote_words_split(&sa.w, c->sink_args);
	remote_words_add(&ga.w, "--" TRAFFIC_OPT_JSON);
	remote_words_add(&ga.w, "--" TRAFFIC_OPT_QUIET);
	remote_words_add(&ga.w, "--" TRAFFIC_OPT_SIZE);
	remote_words_addf(&ga.w, "%d", size);
	remote_words_add(&ga.w, "--" TRAFFIC_OPT_DURATION);
	remote_words_addf(&ga.w, "%.3f", c->duration);
	remote_words_add(&ga.w, "--" TRAFFIC_OPT_THREADS);
	remote_words_addf(&ga.w, "%d", c->threads);
	if (rate > 0) {
		remote_words_add(&ga.w, "--" TRAFFIC_OPT_RATE);
		remote_words_addf(&ga.w, "%.0f", rate);
	}
	if (c->ipv6)
		remote_words_add(&ga.w, "--" TRAFFIC_OPT_IPV6);
	/* Small batches: a frame should not wait for 255 others before it leaves. */
	if (strcmp(phase, "latency") == 0) {
		remote_words_add(&ga.w, "--" TRAFFIC_OPT_BATCH);
		remote_words_add(&ga.w, "8");
	}
	remote_words_split(&ga.w, c->gen_args);

	if (child_start(&sink, arg_seal(&sa), cause) == -1)
		goto out;
	if (wait_ready(&sink) == -1) {
		kill(sink.pid, SIGTERM);
		src = child_finish(&sink);
		util_cause(cause, "ntune sink did not start (exit %d): %s", src, first_line(sink.ebuf.buf));
		child_free(&sink);
		goto out;
	}
	if (child_start(&gen, arg_seal(&ga), cause) == -1) {
		kill(sink.pid, SIGTERM);
		child_finish(&sink);
		child_free(&sink);
		goto out;
	}
	grc = child_finish(&gen);
	if (grc != 0)
		kill(sink.pid, SIGTERM);
	src = child_finish(&sink);
	if (grc != 0) {
		util_cause(cause, "ntune gen failed: %s", first_line(gen.ebuf.buf));
		goto done;
	}
	if ((gj = json_loads(gen.obuf.buf, 0, &jerr)) == NULL) {
		util_cause(cause, "ntune gen printed no JSON: %s", first_line(gen.ebuf.buf));
		goto done;
	}
	if ((sj = json_loads(sink.obuf.buf, 0, &jerr)) == NULL) {
		util_cause(cause, "ntune sink failed (exit %d): %s", src, first_line(sink.ebuf.buf));
		goto done;
	}
	rfc2544_trial_fill(c, t, gj, sj);
	rc = 0;
done:
	json_decref(gj);
	json_decref(sj);
	child_free(&gen);
	child_free(&sink);
out:
	remote_words_free(&ga.w);
	remote_words_free(&sa.w);
	remote_argv_free(ga.ssh);
	remote_argv_free(sa.ssh);
	return rc;
}
