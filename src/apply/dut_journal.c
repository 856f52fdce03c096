/*
 * The journal of an agentless DUT read back (dut_apply.h): history's program (rscript_history)
 * run there, its lines parsed; an entry as a JSON document and as a profile.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "apply/dut_apply.h"
#include "kb/kb.h"
#include "remote/remote.h"
#include "util/util.h"

/* The fields of line (tabs made NULs) into f[max]; their number. */
static size_t
fields(char *line, char **f, size_t max)
{
	size_t n = 0;

	f[n++] = line;
	for (; *line != '\0'; line++)
		if (*line == '\t' && n < max) {
			*line = '\0';
			f[n++] = line + 1;
		}
	return n;
}

/* A copy of s with every control character as '?' (text from the DUT goes to a terminal). */
static char *
field(const char *s)
{
	char *c, *v = xstrdup(s);

	for (c = v; *c != '\0'; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	return v;
}

static int
action_of(const char *word, enum apply_action *a)
{
	int i;

	for (i = APPLY_SET; i <= APPLY_TRIAL_BOOT; i++)
		if (strcmp(word, apply_action_name((enum apply_action)i)) == 0) {
			*a = (enum apply_action)i;
			return 0;
		}
	return -1;
}

static int
add_change(struct agentless_entry *e, char **f, size_t nf)
{
	struct apply_change *c;
	enum apply_action a;

	if ((nf != 5 && (nf != 6 || strcmp(f[5], "netns") != 0)) || action_of(f[1], &a) == -1)
		return -1;
	e->changes = xreallocarray(e->changes, e->nchanges + 1, sizeof *e->changes);
	c = &e->changes[e->nchanges++];
	c->name = field(f[2]);
	c->old = strcmp(f[3], "!") == 0 ? NULL : field(f[3]);
	c->want = field(f[4]);
	c->in_netns = nf == 6;
	c->action = a;
	e->e.nchanges = (int)e->nchanges;
	return 0;
}

/* One line of an entry (not its "@"): -1 when it is none history's program prints. */
static int
entry_line(struct agentless_entry *e, char **f, size_t nf, long long *deadline)
{
	char **slot = NULL;

	if (strcmp(f[0], "change") == 0)
		return add_change(e, f, nf);
	if (strcmp(f[0], "confirmed") == 0 && nf == 1) {
		e->e.confirmed = true;
		return 0;
	}
	if (strcmp(f[0], "trial") == 0 && nf == 1) {
		e->trial_pending = true;
		return 0;
	}
	if (nf != 2)
		return -1;
	if (strcmp(f[0], "deadline") == 0)
		*deadline = strtoll(f[1], NULL, 10);
	else if (strcmp(f[0], "left") == 0) {
		e->left = xreallocarray(e->left, e->nleft + 1, sizeof *e->left);
		e->left[e->nleft++] = field(f[1]);
	} else if (strcmp(f[0], "state") == 0)
		slot = &e->e.state;
	else if (strcmp(f[0], "reverted") == 0)
		slot = &e->e.reverted_by;
	else if (strcmp(f[0], "created") == 0)
		slot = &e->e.created;
	else if (strcmp(f[0], "profile") == 0)
		slot = &e->e.profile;
	else if (strcmp(f[0], "os") == 0)
		slot = &e->os;
	else if (strcmp(f[0], "netns") == 0)
		slot = &e->e.netns;
	else
		return -1;
	if (slot != NULL) {
		free(*slot);
		*slot = field(f[1]);
	}
	return 0;
}

/* When an entry without its record was made: its id's time (20261206T223502Z-...), else "". */
static char *
created_of(const char *id)
{
	char *c;

	if (strlen(id) < 16 || id[8] != 'T' || id[15] != 'Z' || strspn(id, "0123456789") != 8 ||
	    strspn(id + 9, "0123456789") != 6)
		return xstrdup("");
	xasprintf(&c, "%.4s-%.2s-%.2sT%.2s:%.2s:%.2sZ", id, id + 4, id + 6, id + 9, id + 11, id + 13);
	return c;
}

/* A deadline of the DUT's clock on this one; pending: neither confirmed nor reverted. */
static void
entry_done(struct agentless_entry *e, long long deadline, long long dut_now)
{
	if (e == NULL)
		return;
	/* seconds since boot or since 1970 both fit in 2^40: larger is a damaged listing */
	if (deadline > 0 && deadline < (1LL << 40) && dut_now >= 0 && dut_now < (1LL << 40))
		e->e.deadline = deadline - dut_now + (long long)time(NULL);
	/* An apply without a dead-man marks itself confirmed: nothing waited for a confirm. */
	e->e.confirmed = e->e.confirmed && deadline > 0;
	e->e.confirm_pending = e->e.deadline > 0 && !e->e.confirmed && e->e.reverted_by == NULL &&
	    e->e.state != NULL && strcmp(e->e.state, "applied") == 0;
	if (e->e.created == NULL)
		e->e.created = created_of(e->e.id);
}

int
agentless_parse_history(const char *url, char *out, struct agentless_entry **entries, size_t *n,
    char **cause)
{
	struct agentless_entry *v = NULL, *e = NULL;
	long long *dl = NULL, now = -1;
	char *line, *next, *f[6];
	size_t nf, i, count = 0;

	for (line = out; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		nf = fields(line, f, nitems(f));
		if (strcmp(f[0], "@") == 0 && nf == 2 && strspn(f[1], "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "abcdefghijklmnopqrstuvwxyz0123456789-") == strlen(f[1]) && strlen(f[1]) < APPLY_ID_MAX) {
			v = xreallocarray(v, count + 1, sizeof *v);
			dl = xreallocarray(dl, count + 1, sizeof *dl);
			e = &v[count];
			memset(e, 0, sizeof *e);
			dl[count++] = 0;
			snprintf(e->e.id, sizeof e->e.id, "%s", f[1]);
		} else if (strcmp(f[0], "now") == 0 && nf == 2 && (next == NULL || *next == '\0'))
			now = strtoll(f[1], NULL, 10);
		else if (e == NULL || entry_line(e, f, nf, &dl[count - 1]) == -1) {
			util_cause(cause, "%s: its journal holds a line ntune does not read: '%.60s'", url,
			    f[0]);
			now = -2;
			break;
		}
	}
	if (now == -1)
		util_cause(cause, "%s: the journal's listing was cut short", url);
	for (i = 0; now >= 0 && i < count; i++)
		entry_done(&v[i], dl[i], now);
	free(dl);
	if (now < 0) {
		agentless_entries_free(v, count);
		return -1;
	}
	*entries = v;
	*n = count;
	return 0;
}

int
agentless_history(const struct agentless_opts *o, const char *id, struct agentless_entry **entries,
    size_t *n, char **cause)
{
	struct rscript s = agentless_rscript(o, id, false);
	char *t, *out = NULL;
	int rc;

	*entries = NULL;
	*n = 0;
	if (rscript_check_root(o->root, cause) == -1 || agentless_check_id(id, cause) == -1)
		return -1;
	t = rscript_history(&s);
	rc = agentless_run(o, t, "read the journal", id != NULL ? id : "any", &out, cause);
	free(t);
	if (rc == 0)
		rc = agentless_parse_history(o->dut->url, out, entries, n, cause);
	free(out);
	return rc;
}

json_t *
agentless_entry_json(const struct agentless_entry *e, const char *url)
{
	json_t *doc = json_object(), *arr;
	size_t i;

	json_object_set_new(doc, "schema", json_integer(1));
	json_object_set_new(doc, "id", json_string(e->e.id));
	json_object_set_new(doc, "dut", json_string(url));
	json_object_set_new(doc, "created", json_string(e->e.created));
	json_object_set_new(doc, "state", e->e.state ? json_string(e->e.state) : json_null());
	json_object_set_new(doc, "profile", e->e.profile ? json_string(e->e.profile) : json_null());
	json_object_set_new(doc, "os", e->os ? json_string(e->os) : json_null());
	json_object_set_new(doc, "netns", e->e.netns ? json_string(e->e.netns) : json_null());
	arr = json_array();
	for (i = 0; i < e->nchanges; i++)
		json_array_append_new(arr, apply_change_json(&e->changes[i]));
	json_object_set_new(doc, "changes", arr);
	json_object_set_new(doc, "confirm_deadline", json_integer(e->e.deadline));
	json_object_set_new(doc, "confirmed", json_boolean(e->e.confirmed));
	json_object_set_new(doc, "reverted_by", e->e.reverted_by ? json_string(e->e.reverted_by) :
	    json_null());
	arr = json_array();
	for (i = 0; i < e->nleft; i++)
		json_array_append_new(arr, json_string(e->left[i]));
	json_object_set_new(doc, "left", arr);
	json_object_set_new(doc, "trial", e->trial_pending ? json_pack("{s:s}", "state", "pending") :
	    json_null());
	return doc;
}

static void
entry_free(void *p)
{
	struct agentless_entry *e = p;

	free(e->e.created);
	free(e->e.state);
	free(e->e.profile);
	free(e->e.netns);
	free(e->e.reverted_by);
	free(e->os);
	apply_changes_free(e->changes, e->nchanges);
	util_strv_free(e->left, e->nleft);
}

void
agentless_entries_free(struct agentless_entry *v, size_t n)
{
	util_array_free(v, n, sizeof *v, entry_free);
}

char *
apply_changes_profile(const struct apply_change *c, size_t n)
{
	struct strbuf sb;
	size_t i;

	strbuf_init(&sb);
	for (i = 0; i < n; i++)
		strbuf_addf(&sb, "%s=%s\n", c[i].name, c[i].want);
	strbuf_addc(&sb, '\0');
	return strbuf_detach(&sb);
}

struct kb_profile *
apply_profile_or_entry(const char *arg, const struct agentless_opts *o, char **cause)
{
	struct agentless_entry *e;
	struct agentless_opts here;
	struct remote_host h;
	size_t n;
	char *text;
	struct kb_profile *p = NULL;

	if (strcmp(arg, "-") == 0 || access(arg, F_OK) == 0 || agentless_check_id(arg, NULL) == -1)
		return kb_profile_load(arg, cause);
	if (o == NULL && agentless_local(&here, &h, NULL, NULL, NULL, cause) == -1)
		return NULL;
	if (agentless_history(o != NULL ? o : &here, arg, &e, &n, cause) == -1)
		return NULL;
	/* An entry of an ntune before the record (ENTRY/entry) names no change. */
	text = n == 1 && e->nchanges > 0 ? apply_changes_profile(e->changes, e->nchanges) : NULL;
	agentless_entries_free(e, n);
	if (text != NULL)
		p = kb_profile_parse(arg, text, strlen(text), cause);
	else
		util_cause(cause, "%s: journal entry %s records no change (an older ntune made it, "
		    "which kept them only in its restore program)", o != NULL ? o->dut->url : "here", arg);
	free(text);
	return p;
}
