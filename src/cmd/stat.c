/*
 * ntune stat: ministat(1), option for option and byte for byte, plus any
 * confidence level, Welch's t, the Mann-Whitney U test, published summaries,
 * p-values and JSON.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "stat/stat.h"
#include "util/util.h"
#include "util/util_json.h"

#define MAX_SETS	7
#define MAX_WIDTH	100000

struct source {
	const char *arg;	/* file name, or the --summary text */
	int	 summary;
};

struct opts {
	struct stat_parse parse;
	struct stat_render render;
	int	 flag_n, flag_a, json;
	struct source src[MAX_SETS + 1];
	int	 nsrc;
	int	 too_many;
};

static const char *prog = "ntune stat";

static void
usage(const char *whine)
{
	fprintf(stderr, "%s\n", whine);
	fprintf(stderr,
	    "Usage: ntune stat [-C column] [-c confidence] [-d delimiter(s)] [-Anps] [-w width]\n"
	    "       [--welch | --mann-whitney] [--json] [--summary N:MEAN:STDDEV[:NAME]]...\n"
	    "       [file [file ...]]\n");
	fprintf(stderr, "\tconfidence = {80%%, 90%%, 95%%, 98%%, 99%%, 99.5%%} as ministat, "
	    "or any level in (0, 100)\n");
	fprintf(stderr, "\t-A : print statistics only. suppress the graph.\n");
	fprintf(stderr, "\t-C : column number to extract (starts and defaults to 1)\n");
	fprintf(stderr, "\t-d : delimiter(s) string, default to \" \\t\"\n");
	fprintf(stderr, "\t-n : print summary statistics only, no graph/test\n");
	fprintf(stderr, "\t-p : print the p-value of each comparison\n");
	fprintf(stderr, "\t-s : print avg/median/stddev bars on separate lines\n");
	fprintf(stderr, "\t-w : width of graph/test output (default 74 or terminal width)\n");
	fprintf(stderr, "\t--welch : Welch's unequal-variance t test instead of pooled Student t\n");
	fprintf(stderr, "\t--mann-whitney : Mann-Whitney U rank test (exact for small samples)\n");
	fprintf(stderr, "\t--summary N:MEAN:STDDEV[:NAME] : a data set given by its summary\n");
	fprintf(stderr, "\t--json : print every figure as one JSON document\n");
	exit(2);
}

static void
add_source(struct opts *o, const char *arg, int summary)
{
	if (o->nsrc >= MAX_SETS) {
		o->too_many = 1;
		return;
	}
	o->src[o->nsrc].arg = arg;
	o->src[o->nsrc].summary = summary;
	o->nsrc++;
}

static int
default_width(void)
{
	struct winsize wsz;
	const char *p;

	if (!isatty(STDOUT_FILENO))
		return 74;
	if ((p = getenv("COLUMNS")) != NULL && *p != '\0')
		return atoi(p);
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &wsz) != -1 && wsz.ws_col > 0)
		return wsz.ws_col - 2;
	return 74;
}

/* ministat's -C COLUMN, -c CONFIDENCE and -w WIDTH, with its messages. */
static void
number_option(struct opts *o, int c, const char *arg, int *conf_set)
{
	char *p;
	double a;
	long l;

	switch (c) {
	case 'C':
		l = strtol(arg, &p, 10);
		if (*p != '\0')
			usage("Invalid column number.");
		o->parse.column = (int)l;
		if (o->parse.column <= 0)
			usage("Column number should be positive.");
		break;
	case 'c':
		a = strtod(arg, &p);
		if (*p != '\0')
			usage("Not a floating point number");
		if (a > 0 && a < 100) {
			o->render.conf = a;
			*conf_set = 1;
		} else if (!*conf_set) {
			usage("No support for confidence level");
		}
		break;
	default:	/* 'w' */
		l = strtol(arg, &p, 10);
		if (*p != '\0')
			usage("Invalid width, not a number.");
		o->render.width = (int)l;
		if (o->render.width < 0)
			usage("Unable to move beyond left margin.");
		break;
	}
}

static void
parse_options(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "welch", no_argument, NULL, 'W' },
		{ "mann-whitney", no_argument, NULL, 'M' },
		{ "summary", required_argument, NULL, 'S' },
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *optstring;
	char *argv0 = argv[0];
	int c, conf_set = 0;

	memset(o, 0, sizeof *o);
	o->parse.column = 1;
	o->parse.delim = " \t";
	o->parse.strict = 1;
	o->render.width = default_width();
	o->render.conf = 95;
	o->render.test = "student";
	/* In order, so that --summary and files keep their places; POSIXLY_CORRECT stops at a file. */
	optstring = getenv("POSIXLY_CORRECT") != NULL ? "+AC:c:d:npsw:" : "-AC:c:d:npsw:";
	argv[0] = (char *)prog;
	optind = 0;
	while ((c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1) {
		switch (c) {
		case 1:
			add_source(o, optarg, 0);
			break;
		case 'A':
			o->flag_a = 1;
			break;
		case 'C':
		case 'c':
		case 'w':
			number_option(o, c, optarg, &conf_set);
			break;
		case 'd':
			if (*optarg == '\0')
				usage("Can't use empty delimiter string");
			o->parse.delim = optarg;
			break;
		case 'n':
			o->flag_n = 1;
			break;
		case 'p':
			o->render.pvalues = 1;
			break;
		case 's':
			o->render.separate = 1;
			break;
		case 'W':
		case 'M':
			if (strcmp(o->render.test, "student") != 0 &&
			    strcmp(o->render.test, c == 'W' ? "welch" : "mann-whitney") != 0)
				usage("--welch and --mann-whitney exclude each other");
			o->render.test = c == 'W' ? "welch" : "mann-whitney";
			break;
		case 'S':
			add_source(o, optarg, 1);
			break;
		case 'J':
			o->json = 1;
			break;
		case 'h':
			cmd_usage(&cmd_stat, 1);
			exit(0);
		default:
			usage("Unknown option");
			break;
		}
	}
	for (; optind < argc; optind++)
		add_source(o, argv[optind], 0);
	argv[0] = argv0;
	if (o->too_many)
		usage("Too many datasets.");
	if (o->render.width > MAX_WIDTH) {
		fprintf(stderr, "%s: plot width %d is too large (at most %d)\n", prog,
		    o->render.width, MAX_WIDTH);
		exit(2);
	}
	o->render.plot = !o->flag_n && !o->flag_a;
	o->render.relative = !o->flag_n;
}

/* N:MEAN:STDDEV[:NAME] */
static int
parse_summary(const char *arg, struct stat_set *s, char **msg)
{
	char *p, *q;
	unsigned long long n;
	double mean, sd;

	memset(s, 0, sizeof *s);
	errno = 0;
	n = strtoull(arg, &p, 10);
	if (p == arg || *p != ':' || errno != 0 || n < 2 || n > (1ULL << 40) || arg[0] == '-')
		goto bad;
	mean = strtod(p + 1, &q);
	if (q == p + 1 || *q != ':' || !isfinite(mean))
		goto bad;
	p = q + 1;
	sd = strtod(p, &q);
	if (q == p || (*q != ':' && *q != '\0') || !isfinite(sd) || sd < 0)
		goto bad;
	s->given = 1;
	s->n = (size_t)n;
	s->name = *q == ':' && q[1] != '\0' ? xstrdup(q + 1) : xstrndup(arg, (size_t)(q - arg));
	stat_summary_given(&s->sum, s->n, mean, sd);
	return 0;
bad:
	xasprintf(msg, "--summary '%s': expected N:MEAN:STDDEV with N >= 2 and "
	    "STDDEV >= 0, e.g. 5:1704710.4:48677.407", arg);
	return -1;
}

struct job {
	const struct source *src;
	struct stat_set *set;
	const struct opts *o;
	int	 rc;
	char	*msg;		/* the error, without the program name */
};

static void *
read_source(void *arg)
{
	struct job *j = arg;
	struct stat_error err;
	const char *name;
	int fd, rc;

	j->rc = 0;
	j->msg = NULL;
	if (j->src->summary) {
		if (parse_summary(j->src->arg, j->set, &j->msg) == -1)
			j->rc = 2;
		return NULL;
	}
	if (strcmp(j->src->arg, "-") == 0) {
		fd = STDIN_FILENO;
		name = "<stdin>";
	} else {
		name = j->src->arg;
		if ((fd = open(j->src->arg, O_RDONLY)) == -1) {
			xasprintf(&j->msg, "Cannot open %s: %s", j->src->arg, strerror(errno));
			j->rc = 1;
			memset(j->set, 0, sizeof *j->set);
			return NULL;
		}
	}
	rc = stat_read_fd(j->set, fd, name, &j->o->parse, &err);
	if (fd != STDIN_FILENO)
		close(fd);
	if (rc == -1) {
		j->msg = err.msg != NULL ? err.msg : xstrdup("cannot read data");
		j->rc = err.status != 0 ? err.status : 2;
		return NULL;
	}
	stat_set_finish(j->set, strcmp(j->o->render.test, "mann-whitney") == 0);
	return NULL;
}

/*
 * Reads every set; files are read in parallel unless stdin is among them.
 * The first failing set in command-line order decides, as ministat reading
 * them one after the other.
 */
static int
read_all(struct opts *o, struct stat_set *sets)
{
	struct job jobs[MAX_SETS];
	pthread_t tid[MAX_SETS];
	int started[MAX_SETS] = { 0 }, i, rc = 0, parallel = o->nsrc > 1;

	for (i = 0; i < o->nsrc; i++) {
		memset(&sets[i], 0, sizeof sets[i]);
		jobs[i] = (struct job){ &o->src[i], &sets[i], o, 0, NULL };
		if (!o->src[i].summary && strcmp(o->src[i].arg, "-") == 0)
			parallel = 0;
	}
	for (i = 0; i < o->nsrc; i++) {
		if (parallel && !o->src[i].summary &&
		    pthread_create(&tid[i], NULL, read_source, &jobs[i]) == 0)
			started[i] = 1;
		else if (!parallel)
			break;
	}
	for (i = 0; i < o->nsrc; i++) {
		if (started[i])
			pthread_join(tid[i], NULL);
		else if (rc == 0)
			read_source(&jobs[i]);
		if (rc == 0 && jobs[i].rc != 0) {
			fprintf(stderr, "%s: %s\n", prog, jobs[i].msg);
			rc = jobs[i].rc;
		}
	}
	for (i = 0; i < o->nsrc; i++) {
		free(jobs[i].msg);
		if (rc != 0)
			stat_set_free(&sets[i]);
	}
	return rc;
}

static void
print_json(struct stat_set *const *sets, int nsets, const struct opts *o)
{
	json_t *doc, *jsets, *jcmps, *js, *jc;
	struct stat_cmp cmp;
	char sym[2] = { 0, 0 };
	int i;

	doc = json_object();
	json_object_set_new(doc, "confidence", json_real(o->render.conf));
	json_object_set_new(doc, "test", json_string(o->render.test));
	jsets = json_array();
	for (i = 0; i < nsets; i++) {
		js = json_object();
		sym[0] = stat_symbol((size_t)i);
		json_object_set_new(js, "symbol", json_string(sym));
		json_object_set_new(js, "given", json_boolean(sets[i]->given));
		jc = stat_summary_json(sets[i]->name, &sets[i]->sum);
		json_object_update(js, jc);
		json_decref(jc);
		json_array_append_new(jsets, js);
	}
	json_object_set_new(doc, "sets", jsets);
	jcmps = json_array();
	for (i = 1; i < nsets && o->render.relative; i++) {
		if (stat_render_compare(NULL, sets[0], sets[i], &o->render, &cmp) == -1)
			continue;
		jc = json_object();
		json_object_set_new(jc, "set", json_integer(i));
		json_object_set_new(jc, "reference", json_integer(0));
		json_object_set_new(jc, "name", json_string(sets[i]->name));
		js = stat_cmp_json(&cmp);
		json_object_update(jc, js);
		json_decref(js);
		json_array_append_new(jcmps, jc);
	}
	json_object_set_new(doc, "comparisons", jcmps);
	util_json_print(doc, stdout, JSON_INDENT(2));
	putchar('\n');
	json_decref(doc);
}

static int
run(struct cmd_args *args)
{
	struct opts o;
	struct stat_set sets[MAX_SETS], *sp[MAX_SETS];
	struct stat_cmp cmp;
	char *cause = NULL;
	int i, rc;

	parse_options(args->nwords, args->words, &o);
	if (o.nsrc == 0)
		add_source(&o, "-", 0);
	if ((rc = read_all(&o, sets)) != 0)
		return rc;
	rc = 2;
	for (i = 0; i < o.nsrc; i++)
		sp[i] = &sets[i];
	if (strcmp(o.render.test, "mann-whitney") == 0 && o.render.relative) {
		for (i = 0; i < o.nsrc; i++) {
			if (sets[i].given == 0)
				continue;
			fprintf(stderr, "%s: --mann-whitney needs the values of every set, "
			    "not the summary '%s'\n", prog, sets[i].name);
			goto out;
		}
	}
	if (o.json) {
		print_json(sp, o.nsrc, &o);
		goto flush;
	}
	/* A plot that cannot be drawn must fail before anything is printed. */
	if (o.render.plot && stat_render_plot(NULL, sp, (size_t)o.nsrc, &o.render, &cause) == -1) {
		fprintf(stderr, "%s: %s\n", prog, cause);
		free(cause);
		goto out;
	}
	for (i = 0; i < o.nsrc; i++)
		printf("%c %s\n", stat_symbol((size_t)i), sets[i].name);
	if (o.render.plot)
		stat_render_plot(stdout, sp, (size_t)o.nsrc, &o.render, NULL);
	stat_render_vitals_head(stdout);
	stat_render_vitals(stdout, 0, &sets[0]);
	for (i = 1; i < o.nsrc; i++) {
		stat_render_vitals(stdout, (size_t)i, &sets[i]);
		if (o.render.relative)
			stat_render_compare(stdout, &sets[0], &sets[i], &o.render, &cmp);
	}
flush:
	rc = 0;
	if (fflush(stdout) == EOF || ferror(stdout)) {
		fprintf(stderr, "%s: cannot write output: %s\n", prog, strerror(errno));
		rc = 2;
	}
out:
	for (i = 0; i < o.nsrc; i++)
		stat_set_free(&sets[i]);
	return rc;
}

const struct ntune_cmd cmd_stat = {
	.name = "stat",
	.summary = "ministat-compatible statistics, plus Welch, Mann-Whitney, --summary, --json",
	.usage = "stat [-Anps] [-C column] [-c confidence] [-d delimiters] [-w width] [file ...]\n"
	    "stat [--welch | --mann-whitney] [--json] [--summary N:MEAN:STDDEV[:NAME]]... [options] [file ...]\n",
	.max_args = -1,
	.flags = NTUNE_CMD_OWN_ARGS,
	.run = run,
};
