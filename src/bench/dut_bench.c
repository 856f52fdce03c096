/*
 * The runner for a real DUT reached over ssh, always agentless (apply/dut_apply.h:
 * nothing of ntune's needed there, an ntune installed there is not used): the
 * profile is applied with the DUT's own commands and a dead-man job (it reverts
 * itself if we vanish) and read back the same way; a run starts `ntune sink` on
 * the sink host and `ntune gen` on the generator host (or iperf3, pkt-gen), and
 * the DUT is only talked to idle, before and after.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include <jansson.h>

#include "apply/dut_apply.h"
#include "bench/lab_bench.h"
#include "bench/label.h"
#include "bench/dut_bench_impl.h"
#include "bench/results.h"
#include "bench/bench_run.h"
#include "bench/runner.h"
#include "bench/signals.h"
#include "dut/dut.h"
#include "kb/kb.h"
#include "os/platform.h"
#include "remote/capture.h"
#include "remote/remote.h"
#include "util/util.h"
#include "util/util_json.h"


/* A host as hosts.json has it (bench/results.h). */
static void
host_of(struct bench_host *o, const struct remote_host *h, const struct dut_facts *f)
{
	snprintf(o->url, sizeof o->url, "%s", h->url);
	snprintf(o->os, sizeof o->os, "%s", f->os_name);
	snprintf(o->platform, sizeof o->platform, "%s", f->platform_name);
	snprintf(o->uname, sizeof o->uname, "%s", f->uname);
	snprintf(o->ntune_version, sizeof o->ntune_version, "%s", f->version);
	snprintf(o->boot_id, sizeof o->boot_id, "%s", f->boot_id);
}

/* hosts.json: who is who, their identities, each boot of the DUT as the bench saw it. */
static int
write_hosts(struct bench_remote *b, char **cause)
{
	struct bench_hosts h = { .schema = 1, .dut_in = (char *)b->dut_in,
	    .dut_out = (char *)b->dut_out, .gen_if = (char *)b->gen_if, .sink_if = (char *)b->sink_if,
	    .dst = (char *)b->dst };
	json_t *doc;
	int rc;

	if (b->dir == NULL)
		return 0;
	host_of(&h.dut, &b->dut, &b->dut_facts);
	host_of(&h.gen, &b->gen, &b->gen_facts);
	host_of(&h.sink, &b->sink, &b->sink_facts);
	doc = bench_hosts_json(&h, json_incref(b->boots));
	rc = bench_results_write_json(b->dir, "hosts.json", doc, cause);
	json_decref(doc);
	if (rc == 0 && b->dut_facts.conftxt != NULL && *b->dut_facts.conftxt != '\0')
		rc = bench_results_write_text(b->dir, "dut-conftxt.txt", b->dut_facts.conftxt, cause);
	return rc;
}

static void
note_boot(struct bench_remote *b, const char *why, double recovery_s)
{
	struct bench_boot boot = { .why = (char *)why, .before_run = b->run + 1,
	    .recovery_s = recovery_s };

	snprintf(boot.boot_id, sizeof boot.boot_id, "%s", b->boot_id);
	json_array_append_new(b->boots, bench_boot_json(&boot));
}

int
bench_remote_open(struct bench_remote *b, char **cause)
{
	struct dut_counters c;
	struct remote_host *hosts[] = { &b->dut, &b->gen, &b->sink };
	struct dut_facts *facts[] = { &b->dut_facts, &b->gen_facts, &b->sink_facts };
	size_t i;

	b->boots = json_array();
	if (dut_session_open(&b->ssh, NULL, cause) == -1)
		return -1;
	for (i = 0; i < nitems(hosts); i++) {
		hosts[i]->ssh = &b->ssh;
		if (dut_probe(hosts[i], b->ntune, facts[i], cause) == -1)
			return -1;
		/* The DUT is run agentless; the load hosts need ntune, unless their load is iperf3 or pkt-gen. */
		if (i > 0 && strcmp(facts[i]->version, "none") == 0 && !hosts[i]->local &&
		    (b->lab == NULL || b->lab->load == BENCH_LOAD_GEN)) {
			util_cause(cause, "no '%s' on %s (give --ntune PATH)", b->ntune, hosts[i]->url);
			return -1;
		}
	}
	if (bench_trial_check_load(b, cause) == -1)
		return -1;
	snprintf(b->boot_id, sizeof b->boot_id, "%s", b->dut_facts.boot_id);
	b->os = dut_facts_kb_os(&b->dut_facts);
	/* The boot found runs the original settings; a reboot costs about this until one is measured. */
	b->boot_text = xstrdup("");
	b->reboot_mean = b->reboot_timeout / 4 + b->reboot_settle;
	if (dut_counters(&b->dut, b->dut_in, b->dut_out, &c, cause) == -1)
		return -1;
	b->ncpu = (int)c.ncpu;
	dut_counters_free(&c);
	note_boot(b, "found", -1);
	return 0;
}

int
bench_remote_open_dir(struct bench_remote *b, char **cause)
{
	char *d;

	xasprintf(&d, "%s/dut", b->dir);
	if (mkdir(d, 0755) == -1 && errno != EEXIST) {
		util_cause(cause, "cannot create '%s': %s", d, strerror(errno));
		free(d);
		return -1;
	}
	free(d);
	return write_hosts(b, cause);
}

void
bench_remote_close(struct bench_remote *b)
{
	struct remote_host *hosts[] = { &b->dut, &b->gen, &b->sink };

	dut_session_close(&b->ssh, hosts, nitems(hosts));
	dut_facts_free(&b->dut_facts);
	dut_facts_free(&b->gen_facts);
	dut_facts_free(&b->sink_facts);
	if (b->boots != NULL)
		json_decref(b->boots);
	b->boots = NULL;
	free(b->boot_text);
	b->boot_text = NULL;
}

char *
bench_remote_profile_part(const struct bench_remote *b, const struct bench_profile *p, bool boot)
{
	const struct kb_entry *e;
	const struct kb_knob *k;
	struct strbuf sb;
	size_t i;

	strbuf_init(&sb);
	strbuf_adds(&sb, "");
	for (i = 0; p->prof != NULL && i < p->prof->nentries; i++) {
		e = &p->prof->entries[i];
		if (kb_profile_get(p->prof, e->name) != e)
			continue;	/* a later line sets it again */
		k = b->kb != NULL ? kb_find(b->kb, e->name, b->os) : NULL;
		if ((k != NULL && k->placement == KB_PLACE_LOADER) == boot)
			strbuf_addf(&sb, "%s%s%s\n", e->name, kb_op_text(e->op), e->value);
	}
	return strbuf_detach(&sb);
}

/* How the DUT is reached (agentless). */
void
bench_remote_agentless(const struct bench_remote *b, struct agentless_opts *o)
{
	memset(o, 0, sizeof *o);
	o->dut = &b->dut;
	o->os = b->dut_facts.os == OS_PLATFORM_FREEBSD ? OS_PLATFORM_FREEBSD : OS_PLATFORM_LINUX;
	o->root = b->dut_root != NULL ? b->dut_root : "";
}

int
bench_remote_check(const struct bench_remote *b, const struct bench_profile *p, char **cause)
{
	struct agentless_opts o;

	if (p->prof == NULL)
		return 0;
	bench_remote_agentless(b, &o);
	return agentless_check(b->kb, p->prof, o.os, cause);
}

/* Agentless apply of p (confirm_secs > 0: with the DUT's dead-man job); its entry into journal. */
static int
agentless_put(struct bench_remote *b, const struct bench_profile *p, int confirm_secs,
    bool persist, char *journal, size_t len, char **cause)
{
	struct agentless_opts o;
	struct agentless_result res;
	char *why = NULL;
	int rc;

	bench_remote_agentless(b, &o);
	o.confirm_secs = confirm_secs;
	o.persist = persist;
	o.trial_boot = persist && o.os == OS_PLATFORM_FREEBSD;
	rc = agentless_apply(b->kb, p->prof, &o, &res, &why);
	/* A connection lost while the script ran: the entry may be applied, its dead-man job pending. */
	if (rc == 0 || res.unsure)
		snprintf(journal, len, "%s", res.id);
	if (rc == -1) {
		util_cause(cause, "cannot apply '%s' on %s: %s", p->label, b->dut.url, why);
		free(why);
	}
	agentless_result_free(&res);
	return rc;
}

static int
r_restore(void *arg, const char *journal, char **cause)
{
	struct bench_remote *b = arg;
	struct agentless_opts o;
	char *why = NULL;

	bench_remote_agentless(b, &o);
	if (agentless_revert(&o, journal, NULL, &why) == 0)
		return 0;
	util_cause(cause, "cannot restore the DUT's settings (journal entry %s on %s): %s "
	    "(it reverts itself when its --confirm time runs out; or run `ntune revert --dut %s %s`)",
	    journal, b->dut.url, why, b->dut.url, journal);
	free(why);
	return -1;
}

int
bench_remote_verify(struct bench_remote *b, const struct bench_profile *p, char **cause)
{
	struct agentless_opts o;
	char *diff = NULL;
	int rc;

	if (p->prof == NULL || p->prof->nentries == 0)
		return 0;
	bench_remote_agentless(b, &o);
	if ((rc = agentless_verify(b->kb, p->prof, &o, &diff, cause)) == 1) {
		util_cause(cause, "the DUT's settings differ from '%s' after applying it, not measured: %s",
		    p->label, diff);
		rc = -1;
	}
	free(diff);
	return rc;
}

/*
 * The capture script without its top sample, parsed here into the document
 * `ntune snapshot ssh://` prints (b->capture_snapshot). The first failure is
 * said once; a run is not failed for a snapshot.
 */
void
bench_remote_snapshot(struct bench_remote *b, const char *name)
{
	struct capture_set cap;
	json_t *doc = NULL;
	char *why = NULL, *text, *path;

	if (b->dir == NULL || b->capture_snapshot == NULL)
		return;
	xasprintf(&path, "%s/dut/%s.json", b->dir, name);
	/*
	 * --dut-root prefixes the DUT's files, as for apply; a Linux capture would look for
	 * /proc and /sys under it too, which apply reads at / (rscript_proc_path).
	 */
	if (capture_run_snapshot(&b->dut, b->dut_facts.os == OS_PLATFORM_FREEBSD ? b->dut_root :
	    NULL, &cap, &why) == 0 &&
	    (doc = b->capture_snapshot(&cap, &why)) != NULL) {
		char *dump = util_json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER);

		xasprintf(&text, "%s\n", dump);
		free(dump);
		if (util_write_file_in(b->dir, path + strlen(b->dir) + 1, text, strlen(text), 0644,
		    &why) == 0)
			b->snapshot_said = false;
		free(text);
		json_decref(doc);
	}
	capture_set_free(&cap);
	if (why != NULL && !b->snapshot_said) {
		BENCH_SAY(b, "no snapshot of the DUT into %s: %s", path, why);
		b->snapshot_said = true;
	}
	free(why);
	free(path);
}

static double
cpu_mean_busy(const struct dut_counters *a, const struct dut_counters *z, double *per,
    size_t nper)
{
	uint64_t dt, db;
	double sum = 0;
	size_t i, n = a->ncpu < z->ncpu ? a->ncpu : z->ncpu;

	for (i = 0; i < n; i++) {
		dt = z->cpu[i].total - a->cpu[i].total;
		db = z->cpu[i].busy - a->cpu[i].busy;
		if (per != NULL && i < nper)
			per[i] = dt > 0 ? 100.0 * (double)db / (double)dt : 0;
		sum += dt > 0 ? 100.0 * (double)db / (double)dt : 0;
	}
	return n > 0 ? sum / (double)n : -1;
}

static double
r_idle_busy(void *arg, double secs)
{
	struct bench_remote *b = arg;
	struct dut_counters a, z;
	double busy = -1;
	char *why = NULL;

	if (dut_counters(&b->dut, b->dut_in, b->dut_out, &a, &why) == -1) {
		free(why);
		return -1;
	}
	usleep((useconds_t)(secs * 1e6));
	if (dut_counters(&b->dut, b->dut_in, b->dut_out, &z, &why) == 0) {
		busy = cpu_mean_busy(&a, &z, NULL, 0);
		dut_counters_free(&z);
	} else
		free(why);
	dut_counters_free(&a);
	return busy;
}

/* Fills the run from what the sink counted, what the generator sent and the DUT's counters. */
static void
fill_run(struct bench_run *r, const struct bench_trial *t)
{
	r->packets = t->received;
	r->bytes = t->bytes;
	r->pps = t->pps;
	r->bps = t->bps;
	r->duration_s = t->duration_s;
	r->sent = t->sent;
	r->drops = t->sent > t->received ? t->sent - t->received : 0;
	if (t->nsec > 0) {
		r->per_second = xreallocarray(NULL, t->nsec, sizeof *r->per_second);
		memcpy(r->per_second, t->per_second, t->nsec * sizeof *r->per_second);
		r->nsec = t->nsec;
	}
	r->ncpu = t->c0.ncpu < t->c1.ncpu ? t->c0.ncpu : t->c1.ncpu;
	r->cpu_busy = xcalloc(r->ncpu > 0 ? r->ncpu : 1, sizeof *r->cpu_busy);
	cpu_mean_busy(&t->c0, &t->c1, r->cpu_busy, r->ncpu);
	/* The DUT is a machine of its own: all its CPUs' busy time is what it spent. */
	if (r->ncpu > 0) {
		r->dut_cpu = bench_run_all_cpu(r);
		r->dut_cpu_from = BENCH_DUT_CPU_HOST;
	} else
		snprintf(r->dut_cpu_why, sizeof r->dut_cpu_why, "no per-CPU times from the DUT "
		    "(kern.cp_times or /proc/stat over ssh)");
	r->extra = bench_trial_json(t);
}

/* Sleeps up to secs; false when a signal arrived and waits are interruptible. */
static bool
nap(double secs, bool interruptible)
{
	double until = util_now() + secs;

	while (util_now() < until) {
		if (interruptible && bench_interrupted)
			return false;
		usleep(50000);
	}
	return true;
}

/*
 * The reboot protocol: reboot, wait until ssh drops, until it answers with a
 * new boot id, until the data path forwards (probe), then settle; every wait
 * within reboot_timeout. Records the boot (and how long recovery took) in
 * boots. -1 + cause when the DUT did not come back (or on a signal).
 */
static int
reboot_wait(struct bench_remote *b, const char *why, bool interruptible, char **cause)
{
	struct remote_result r;
	char old[128], id[128], *err = NULL, *argv[] = { "/bin/sh", "-c", NULL, NULL };
	double t0 = util_now(), deadline = t0 + b->reboot_timeout;
	const char *phase = "drop its ssh";
	struct bench_boot boot;
	int rc = -1;

	snprintf(old, sizeof old, "%s", b->boot_id);
	BENCH_SAY(b, "rebooting the DUT (%s)", why);
	argv[2] = (char *)(b->reboot_cmd != NULL ? b->reboot_cmd : "shutdown -r now");
	if (remote_run(&b->dut, argv, NULL, 30, &r, cause) == -1)
		return -1;
	if (r.status != 0 && r.status != 255) {
		util_cause(cause, "the DUT's reboot command failed: %s", remote_result_why(&r));
		remote_result_free(&r);
		return -1;
	}
	remote_result_free(&r);
	b->nreboots++;
	/* The shared connection dies with the DUT: never reuse it. */
	remote_host_disconnect(&b->dut);
	for (;;) {
		if (interruptible && bench_interrupted)
			goto interrupted;
		if (util_now() > deadline)
			goto gone;
		if (dut_boot_id(&b->dut, 15, id, sizeof id, &err) == -1) {
			free(err);
			err = NULL;
			break;
		}
		if (strcmp(id, old) != 0)
			break;
		nap(1, interruptible);
	}
	phase = "answer with a new boot id";
	for (;;) {
		if (interruptible && bench_interrupted)
			goto interrupted;
		if (util_now() > deadline)
			goto gone;
		if (dut_boot_id(&b->dut, 15, id, sizeof id, &err) == 0 && strcmp(id, old) != 0)
			break;
		free(err);
		err = NULL;
		nap(1, interruptible);
	}
	snprintf(b->boot_id, sizeof b->boot_id, "%s", id);
	phase = "forward the probe (1000 pps, no loss)";
	while (bench_trial_probe(b) != 0) {
		if (interruptible && bench_interrupted)
			goto interrupted;
		if (util_now() > deadline)
			goto gone;
		nap(1, interruptible);
	}
	if (!nap(b->reboot_settle, interruptible))
		goto interrupted;
	rc = 0;
	b->reboot_total += util_now() - t0;
	b->reboot_mean = b->reboot_total / b->nreboots;
	BENCH_SAY(b, "the DUT is back after %.1f s (boot %s)", util_now() - t0, b->boot_id);
	goto record;
gone:
	util_cause(cause, "the DUT did not %s within %.0f s of its reboot (%s)", phase, b->reboot_timeout,
	    why);
	goto record;
interrupted:
	util_cause(cause, "interrupted by signal %d while waiting for the DUT to %s", (int)bench_interrupted,
	    phase);
record:
	boot = (struct bench_boot){ .why = (char *)why, .before_run = b->run + 1,
	    .recovery_s = util_now() - t0, .came_back = rc == 0, .error = rc == -1 ? *cause : NULL };
	snprintf(boot.boot_id, sizeof boot.boot_id, "%s", rc == 0 ? b->boot_id : "");
	json_array_append_new(b->boots, bench_boot_json(&boot));
	if (b->dir != NULL)
		write_hosts(b, NULL);
	return rc;
}

/* Reboot mode: puts profile p (NULL: none) in force through a reboot. */
static int
switch_boot(struct bench_remote *b, const struct bench_profile *p, bool interruptible, char **cause)
{
	char why[BENCH_LABEL_MAX + 32];

	if (b->cur_journal[0] != '\0') {
		if (r_restore(b, b->cur_journal, cause) == -1)
			return -1;
		b->cur_journal[0] = '\0';
	}
	b->cur_label[0] = '\0';
	/*
	 * Persisted (FreeBSD: loader tunables for one boot only, nextboot -e) with the DUT's
	 * dead-man job until the reboot, then its boot guard: a controller gone leaves nothing
	 * persisted for longer than --dut-confirm.
	 */
	if (p != NULL && p->prof != NULL && p->prof->nentries > 0 && agentless_put(b, p,
	    b->confirm_secs, true, b->cur_journal, sizeof b->cur_journal, cause) == -1)
		return -1;
	snprintf(why, sizeof why, p != NULL ? "switch to %s" : "restore the original settings",
	    p != NULL ? p->label : "");
	if (reboot_wait(b, why, interruptible, cause) == -1)
		return -1;
	if (p != NULL)
		snprintf(b->cur_label, sizeof b->cur_label, "%s", p->label);
	return 0;
}

int
bench_remote_finish(struct bench_remote *b, char **cause)
{
	double deadline = util_now() + b->reboot_timeout;
	char id[128], *why = NULL;
	bool orig;

	if (!(b->reboot || b->reboot_auto) || (b->cur_journal[0] == '\0' && b->nreboots == 0))
		return 0;
	/*
	 * The boot in force came up with nothing of ours persisted (a profile
	 * without settings, its switch completed): it runs the original settings
	 * already, and another reboot would only repeat that.
	 */
	orig = b->reboot_auto ? b->boot_text != NULL && b->boot_text[0] == '\0' :
	    b->cur_label[0] != '\0';
	if (b->cur_journal[0] == '\0' && orig && b->pending[0] == '\0') {
		BENCH_SAY(b, "the DUT runs its original settings (boot %s): no reboot to restore them", b->boot_id);
		return 0;
	}
	/* Stopped in the middle of a reboot: the DUT must answer before it can be restored. */
	while (dut_boot_id(&b->dut, 15, id, sizeof id, &why) == -1) {
		if (util_now() > deadline) {
			util_cause(cause, "cannot restore the DUT's settings: %s (journal entry %s there)",
			    why, b->cur_journal[0] != '\0' ? b->cur_journal : "none");
			free(why);
			return -1;
		}
		free(why);
		why = NULL;
		nap(1, false);
	}
	snprintf(b->boot_id, sizeof b->boot_id, "%s", id);
	free(b->boot_text);
	b->boot_text = NULL;
	if (switch_boot(b, NULL, false, cause) == -1)
		return -1;
	b->boot_text = xstrdup("");
	return 0;
}

static int	apply_runtime(struct bench_remote *, const struct bench_profile *,
		    const struct bench_profile *, char *, size_t, char **);

/* A part of a profile as a profile of its own (text is taken). */
static int
part_profile(const char *label, char *text, struct bench_profile *out, char **cause)
{
	memset(out, 0, sizeof *out);
	snprintf(out->label, sizeof out->label, "%s", label);
	out->text = text;
	out->prof = kb_profile_parse(label, text, strlen(text), cause);
	return out->prof != NULL ? 0 : -1;
}

/*
 * reboot_auto: a reboot when p's boot-time part is not the one in force, then
 * the runtime part with --confirm, then the whole of p read back.
 */
static int
apply_auto(struct bench_remote *b, const struct bench_profile *p, char *journal, size_t len,
    char **cause)
{
	struct bench_profile boot, rt;
	int rc = -1;

	memset(&boot, 0, sizeof boot);
	memset(&rt, 0, sizeof rt);
	if (part_profile(p->label, bench_remote_profile_part(b, p, true), &boot, cause) == -1 ||
	    part_profile(p->label, bench_remote_profile_part(b, p, false), &rt, cause) == -1)
		goto out;
	if (b->boot_text == NULL || strcmp(b->boot_text, boot.text) != 0) {
		free(b->boot_text);
		b->boot_text = NULL;
		if (switch_boot(b, boot.prof->nentries > 0 ? &boot : NULL, true, cause) == -1)
			goto out;
		b->boot_text = xstrdup(boot.text);
	}
	rc = apply_runtime(b, &rt, p, journal, len, cause);
out:
	bench_profile_free(&boot);
	bench_profile_free(&rt);
	return rc;
}

/*
 * Reboot mode: the lease of the entry in force from now (its boot guard restores
 * the originals --dut-confirm seconds after the boot unless renewed).
 */
static int
renew(struct bench_remote *b, char **cause)
{
	struct agentless_opts o;
	char *why = NULL;

	if (b->cur_journal[0] == '\0')
		return 0;
	bench_remote_agentless(b, &o);
	if (agentless_renew(&o, b->cur_journal, &why) == 0)
		return 0;
	util_cause(cause, "cannot renew the lease of '%s' on %s: %s", b->cur_label, b->dut.url, why);
	free(why);
	return -1;
}

static int
r_apply(void *arg, const struct bench_profile *p, char *journal, size_t len, char **cause)
{
	struct bench_remote *b = arg;
	char *why = NULL;

	journal[0] = '\0';
	if (b->reboot_auto)
		return apply_auto(b, p, journal, len, cause);
	if (b->reboot) {
		/* The boot found runs the original settings: a profile without any is in force. */
		if (b->nreboots == 0 && b->cur_journal[0] == '\0' && (p->prof == NULL ||
		    p->prof->nentries == 0))
			snprintf(b->cur_label, sizeof b->cur_label, "%s", p->label);
		if (strcmp(b->cur_label, p->label) == 0 && b->pending[0] == '\0')
			return renew(b, cause) == -1 ? -1 : bench_remote_verify(b, p, cause);
		if (switch_boot(b, p, true, &why) == -1) {
			if (bench_interrupted) {
				*cause = why;
				return -1;
			}
			/* The run is recorded as failed, with why. */
			snprintf(b->pending, sizeof b->pending, "%s", why);
			free(why);
			return 0;
		}
		/* Verify after the boot: a setting the DUT changed on its way up is refused. */
		return renew(b, cause) == -1 ? -1 : bench_remote_verify(b, p, cause);
	}
	return apply_runtime(b, p, p, journal, len, cause);
}

/* Applies p with the DUT's dead-man job (nothing when it is empty), then reads check back. */
static int
apply_runtime(struct bench_remote *b, const struct bench_profile *p,
    const struct bench_profile *check, char *journal, size_t len, char **cause)
{
	journal[0] = '\0';
	if (p->prof == NULL || p->prof->nentries == 0)
		return check->prof == NULL || check->prof->nentries == 0 ? 0 :
		    bench_remote_verify(b, check, cause);
	if (agentless_put(b, p, b->confirm_secs, false, journal, len, cause) == -1)
		return -1;
	if (bench_remote_verify(b, check, cause) == -1) {
		char *why = NULL;

		if (r_restore(b, journal, &why) == -1) {
			char *both;

			xasprintf(&both, "%s; %s", *cause, why);
			free(*cause);
			free(why);
			*cause = both;
		}
		journal[0] = '\0';
		return -1;
	}
	return 0;
}

static int
r_measure(void *arg, double duration, struct bench_run *r, char **cause)
{
	struct bench_remote *b = arg;
	struct bench_trial t = { .secs = b->lab->settle + duration, .skip = b->lab->settle };
	char name[32];
	int rc;

	r->ok = true;
	util_utc(0, false, r->started);
	b->run = r->run;
	snprintf(r->boot, sizeof r->boot, "%s", b->boot_id);
	if (b->pending[0] != '\0') {
		bench_run_fail(r, "%s", b->pending);
		return 0;
	}
	snprintf(name, sizeof name, "run-%d-before", r->run);
	bench_remote_snapshot(b, name);
	if ((rc = bench_trial_run(b, &t, cause)) == 0) {
		snprintf(name, sizeof name, "run-%d-after", r->run);
		bench_remote_snapshot(b, name);
		fill_run(r, &t);
		if (t.error[0] != '\0')
			bench_run_fail(r, "%s", t.error);
		else if (r->packets == 0 && r->bytes == 0)
			bench_run_fail(r, "zero packets: %llu sent from %s, none reached %s (is the DUT forwarding?)",
			    (unsigned long long)r->sent, b->gen.url, b->sink.url);
	}
	bench_trial_free(&t);
	return rc;
}

/* Boot against boot: bench's reboot mode always, the tuner's when the boot-time parts differ. */
static bool
r_per_boot(void *arg, const struct bench_profile *p, size_t n)
{
	struct bench_remote *b = arg;
	char *first, *other;
	bool differ = false;
	size_t i;

	if (b->reboot || !b->reboot_auto)
		return b->reboot;
	first = bench_remote_profile_part(b, &p[0], true);
	for (i = 1; i < n && !differ; i++) {
		other = bench_remote_profile_part(b, &p[i], true);
		differ = strcmp(first, other) != 0;
		free(other);
	}
	free(first);
	return differ;
}

void
bench_remote_runner(struct bench_remote *b, struct bench_runner *r)
{
	memset(r, 0, sizeof *r);
	r->arg = b;
	r->apply = r_apply;
	r->restore = r_restore;
	r->measure = r_measure;
	r->idle_busy = r_idle_busy;
	r->per_boot = r_per_boot;
	r->trial = bench_remote_rfc2544_trial;
}
