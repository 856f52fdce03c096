/*
 * The one apply engine run on this machine (issue 34): agentless_apply, _history, _confirm,
 * _revert on the local host ("local": /bin/sh here, no ssh) with the journal in a directory of
 * the caller's (o->state_dir, else $NTUNE_STATE_DIR). The kernel is a stand-in: FreeBSD's
 * sysctl(8) (tests/cli/standin/freebsd/sysctl) on a MIB directory, and for the knobs sh cannot
 * set itself a stand-in of `ntune knob` (o->self) that keeps each value in a file, so nothing
 * here writes this machine's own settings.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "apply/dut_apply.h"
#include "kb/kb.h"
#include "remote/remote.h"
#include "util/util.h"
#include "tmpdir.h"
#include "share_kb.h"
#include "apply/remote_script.h"
#include "rscript_run.h"

static struct remote_host here;

/* The stand-in of `ntune knob get|set [--netns NS] NAME [VALUE]`: DIR/knobs/[NS/]NAME; same A B: A = B. */
static const char knob_standin[] =
	"#!/bin/sh\n[ \"$1\" = knob ] || exit 2\nop=$2; shift 2\nd=\"$KNOBS\"\n"
	"if [ \"$1\" = --netns ]; then d=\"$d/$2\"; shift 2; fi\n"
	"case $op in\nget) cat \"$d/$1\" 2>/dev/null || { echo \"ntune knob: cannot read '$1'\" >&2; exit 1; } ;;\n"
	"set) [ -f \"$d/$1\" ] && printf '%s\\n' \"$2\" >\"$d/$1\" ;;\nsame) [ \"$2\" = \"$3\" ] ;;\n*) exit 2 ;;\nesac\n";

/*
 * nextboot(8) stand-in (as tests/cli/t4003's): -e NAME=VALUE... writes ROOT/boot/nextboot.conf
 * as sbin/reboot/nextboot.sh does (nextboot_enable="YES", then NAME="VALUE" lines), -D removes it.
 */
static const char nextboot_standin[] =
	"#!/bin/sh\nf=\"$STANDIN_DIR/boot/nextboot.conf\"\nif [ \"$1\" = -D ]; then rm -f \"$f\"; exit 0; fi\n"
	"mkdir -p \"${f%/*}\"\nout='nextboot_enable=\"YES\"'\nwhile getopts e: o; do\n\t[ \"$o\" = e ] || exit 1\n"
	"\tout=\"$out\n${OPTARG%%=*}=\\\"${OPTARG#*=}\\\"\"\ndone\nprintf '%s\\n' \"$out\" >\"$f\"\n";

static int
setup(void **state)
{
	char *path, *p;

	(void)state;
	tmpdir_make(root);
	xasprintf(&p, "cd '%s' && mkdir -p mib/net/isr mib/net/inet/ip knobs/lab1 bin", root);
	assert_int_equal(system(p), 0);
	free(p);
	xasprintf(&path, "%s/tests/cli/standin/freebsd:%s", NTUNE_SRCDIR, getenv("PATH"));
	setenv("PATH", path, 1);
	free(path);
	xasprintf(&p, "%s/mib", root);
	setenv("SYSCTL_STANDIN_MIB", p, 1);
	free(p);
	xasprintf(&p, "%s/knobs", root);
	setenv("KNOBS", p, 1);
	free(p);
	/* the namespaces of the stand-in: knobs/NS is there */
	xasprintf(&p, "%s/knobs", root);
	setenv("NTUNE_NETNS_DIR", p, 1);
	free(p);
	put("/mib/net/isr/dispatch", "direct\n");
	put("/mib/net/inet/ip/intr_queue_maxlen", "256\n");
	put("/mib/net/isr/maxthreads", "1\n");
	put("/knobs/if.eth0.mtu", "1500\n");
	put("/knobs/if.eth1.mtu", "1500\n");
	put("/bin/nextboot", nextboot_standin);
	put("/kenv.txt", "");
	setenv("STANDIN_DIR", root, 1);
	put("/knobs/lab1/net.ipv4.ip_forward", "0\n");
	put("/bin/ntune", knob_standin);
	xasprintf(&p, "%s/bin/ntune", root);
	chmod(p, 0755);
	free(p);
	xasprintf(&p, "%s/bin/nextboot", root);
	chmod(p, 0755);
	free(p);
	xasprintf(&path, "%s/bin:%s", root, getenv("PATH"));
	setenv("PATH", path, 1);
	free(path);
	assert_int_equal(remote_parse("local", &here, NULL), 0);
	return 0;
}

static int
teardown(void **state)
{
	char *cmd;

	(void)state;
	tmpdir_remove(root);
	/* test_knobs_in_a_namespace_through_this_ntune's, when it failed half-way */
	xasprintf(&cmd, "ip netns del ntune-ul-%d 2>/dev/null", (int)getpid());
	if (getuid() == 0 && system(cmd) == -1)
		print_message("cannot run %s\n", cmd);
	free(cmd);
	return 0;
}

static struct kb_profile *
profile(const char *text)
{
	struct kb_profile *p = kb_profile_parse("p.conf", text, strlen(text), NULL);

	assert_non_null(p);
	return p;
}

/* A FreeBSD-like machine here: the stand-in sysctl, files under root, the journal in root/state. */
static struct agentless_opts
freebsd_here(void)
{
	struct agentless_opts o;
	static char st[64];

	memset(&o, 0, sizeof o);
	snprintf(st, sizeof st, "%s/state", root);
	o.dut = &here;
	o.os = OS_PLATFORM_FREEBSD;
	o.root = root;
	o.state_dir = st;
	o.persist = true;
	return o;
}

/* agentless_apply of p with o, which must succeed (else its cause is the failure). */
static void
applied(const struct kb_profile *p, const struct agentless_opts *o, struct agentless_result *r)
{
	char *cause = NULL;

	if (agentless_apply(NULL, p, o, r, &cause) != 0)
		fail_msg("%s", cause);
}

static bool
has(char **v, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return true;
	return false;
}

static void
test_apply_history_revert_here(void **state)
{
	struct agentless_opts o = freebsd_here();
	struct kb_profile *p = profile("net.isr.dispatch=deferred\nnet.inet.ip.intr_queue_maxlen=2048\n");
	struct agentless_result r;
	struct agentless_entry *e = NULL;
	char *cause = NULL, *said = NULL, *f;
	size_t n = 0;

	(void)state;
	/* --plan / --dry-run: the originals read, nothing changed, the files it would write named */
	o.plan = true;
	applied(p, &o, &r);
	assert_string_equal(r.changes[0].old, "direct");
	xasprintf(&f, "%s/etc/sysctl.conf.local", root);
	assert_true(r.npersisted == 1 && strcmp(r.persisted[0], f) == 0);
	expect("/mib/net/isr/dispatch", "direct\n");
	agentless_result_free(&r);
	o.plan = false;
	applied(p, &o, &r);
	expect("/mib/net/isr/dispatch", "deferred\n");
	expect("/etc/sysctl.conf.local", "# BEGIN ntune: managed by `ntune apply`; edits inside this block are "
	    "lost\nnet.isr.dispatch=deferred\nnet.inet.ip.intr_queue_maxlen=2048\n# END ntune\n");
	assert_int_equal(r.deadman_pid, 0);
	assert_int_equal(agentless_history(&o, NULL, &e, &n, &cause), 0);
	assert_int_equal(n, 1);
	assert_string_equal(e[0].e.id, r.id);
	assert_string_equal(e[0].e.state, "applied");
	agentless_entries_free(e, n);
	if (agentless_revert(&o, r.id, &said, &cause) != 0)
		fail_msg("%s", cause);
	expect("/mib/net/isr/dispatch", "direct\n");
	expect("/mib/net/inet/ip/intr_queue_maxlen", "256\n");
	expect("/etc/sysctl.conf.local", NULL);
	free(said);
	free(f);
	agentless_result_free(&r);
	kb_profile_free(p);
}

static void
test_dead_man_here_and_confirm(void **state)
{
	struct agentless_opts o = freebsd_here();
	struct kb_profile *p = profile("net.isr.dispatch=hybrid\n");
	struct agentless_result r;
	char *cause = NULL, *said = NULL, *st;

	(void)state;
	o.confirm_secs = 600;
	o.persist = false;
	applied(p, &o, &r);
	assert_true(r.deadman_pid > 0);
	assert_int_equal(kill(r.deadman_pid, 0), 0);
	assert_int_equal(r.npersisted, 0);
	assert_int_equal(agentless_confirm(&o, NULL, &said, &cause), 0);
	free(said);
	xasprintf(&st, "/state/%s/state", r.id);
	expect(st, "confirmed\n");
	expect("/mib/net/isr/dispatch", "hybrid\n");
	free(st);
	agentless_result_free(&r);
	kb_profile_free(p);
	put("/mib/net/isr/dispatch", "direct\n");
}

/* OPNsense keeps every tunable in loader.conf.local (src/apply/persist.c's rule, one engine now). */
static void
test_opnsense_persists_into_loader_conf_local(void **state)
{
	struct agentless_opts o = freebsd_here();
	struct kb_profile *p = profile("net.inet.ip.intr_queue_maxlen=1024\n");
	struct agentless_result r;
	char *cause = NULL, *said = NULL, *f;

	(void)state;
	o.platform = OS_PLATFORM_OPNSENSE;
	applied(p, &o, &r);
	xasprintf(&f, "%s/boot/loader.conf.local", root);
	assert_true(r.npersisted == 1 && strcmp(r.persisted[0], f) == 0);
	expect("/boot/loader.conf.local", "# BEGIN ntune: managed by `ntune apply`; edits inside this block "
	    "are lost\nnet.inet.ip.intr_queue_maxlen=\"1024\"\n# END ntune\n");
	expect("/etc/sysctl.conf.local", NULL);
	assert_int_equal(agentless_revert(&o, NULL, &said, &cause), 0);
	expect("/boot/loader.conf.local", NULL);
	expect("/mib/net/inet/ip/intr_queue_maxlen", "256\n");
	free(said);
	free(f);
	agentless_result_free(&r);
	kb_profile_free(p);
}

/*
 * A knob that has its value already is written into the boot file, not set (the C engine's
 * apply persisted it too); one the kernel will not let anyone set (read only here) stays so.
 */
static void
test_a_knob_at_its_value_is_persisted_not_set(void **state)
{
	struct agentless_opts o = freebsd_here();
	struct kb_profile *p = profile("net.isr.dispatch=deferred\nkern.ro_knob=7\n");
	struct agentless_result r;
	char *cause = NULL, *said = NULL;

	(void)state;
	sh_ok("mkdir -p mib/kern && echo 7 >mib/kern/ro_knob && chmod 0400 mib/kern/ro_knob%s", "");
	applied(p, &o, &r);
	assert_int_equal(r.changes[1].action, APPLY_SKIP_SAME);
	expect("/etc/sysctl.conf.local", "# BEGIN ntune: managed by `ntune apply`; edits inside this block are "
	    "lost\nnet.isr.dispatch=deferred\nkern.ro_knob=7\n# END ntune\n");
	assert_int_equal(agentless_revert(&o, NULL, &said, &cause), 0);
	expect("/etc/sysctl.conf.local", NULL);
	expect("/mib/net/isr/dispatch", "direct\n");
	free(said);
	agentless_result_free(&r);
	kb_profile_free(p);
}

/*
 * The knobs sh cannot set itself go through `ntune knob` (here its stand-in): an if.* knob,
 * and with a namespace every knob apply_in_netns() puts there (if.* too); none has a boot file.
 */
static void
test_knobs_through_ntune_knob(void **state)
{
	struct agentless_opts o = freebsd_here();
	struct kb_profile *p = profile("if.eth0.mtu=9000\n"), *pn = profile("net.ipv4.ip_forward=1\n");
	struct agentless_result r;
	struct agentless_entry *e = NULL;
	char *cause = NULL, *said = NULL, *self;
	size_t n = 0;
	json_t *j;

	(void)state;
	xasprintf(&self, "%s/bin/ntune", root);
	o.os = OS_PLATFORM_LINUX;
	/* without ntune's path (a DUT): refused before anything is read */
	assert_int_equal(agentless_apply(NULL, p, &o, &r, &cause), -1);
	assert_non_null(strstr(cause, "'if.eth0.mtu' is an ifconfig setting"));
	free(cause);
	cause = NULL;
	agentless_result_free(&r);
	o.self = self;
	applied(p, &o, &r);
	assert_non_null(strstr(r.script, "ntune_set 'if.eth0.mtu' '@' '9000'"));
	expect("/knobs/if.eth0.mtu", "9000\n");
	assert_true(r.nchanges == 1 && !r.changes[0].in_netns);
	assert_true(r.nnot_persisted == 1 && has(r.not_persisted, 1, "if.eth0.mtu"));
	assert_int_equal(r.npersisted, 0);
	expect("/etc/sysctl.d/90-ntune.conf", NULL);
	assert_int_equal(agentless_revert(&o, NULL, &said, &cause), 0);
	expect("/knobs/if.eth0.mtu", "1500\n");
	free(said);
	agentless_result_free(&r);
	o.netns = "lab1";
	assert_int_equal(agentless_apply(NULL, pn, &o, &r, &cause), 0);
	assert_non_null(strstr(r.script, "ntune_set 'net.ipv4.ip_forward' '@lab1' '1'"));
	expect("/knobs/lab1/net.ipv4.ip_forward", "1\n");
	assert_true(r.nchanges == 1 && r.changes[0].in_netns && r.nnot_persisted == 1);
	/* history says where: the entry's namespace, the change made in it */
	assert_int_equal(agentless_history(&o, r.id, &e, &n, &cause), 0);
	assert_true(n == 1 && e[0].e.netns != NULL && strcmp(e[0].e.netns, "lab1") == 0);
	assert_true(e[0].nchanges == 1 && e[0].changes[0].in_netns);
	j = agentless_entry_json(&e[0], "local");
	assert_string_equal(json_string_value(json_object_get(j, "netns")), "lab1");
	json_decref(j);
	agentless_entries_free(e, n);
	assert_int_equal(agentless_revert(&o, NULL, &said, &cause), 0);
	expect("/knobs/lab1/net.ipv4.ip_forward", "0\n");
	free(said);
	free(self);
	agentless_result_free(&r);
	kb_profile_free(p);
	kb_profile_free(pn);
}

/*
 * A second apply merges into the block of the first (the C engine's persist.c did; t4001): its
 * names set again, the others kept; a revert without an id takes the newest entry not reverted
 * and puts its file back as it found it, the next one the apply before; then none is left.
 */
static void
test_second_apply_merges_into_the_block(void **state)
{
	struct agentless_opts o = freebsd_here();
	struct kb_profile *p1 = profile("net.isr.dispatch=deferred\nnet.inet.ip.intr_queue_maxlen=512\n");
	struct kb_profile *p2 = profile("net.inet.ip.intr_queue_maxlen=1024\n");
	struct agentless_result r1, r2;
	char *cause = NULL, *said = NULL, *sd;

	(void)state;
	xasprintf(&sd, "%s/state-merge", root);
	o.state_dir = sd;
	put("/etc/sysctl.conf.local", "# mine\n");
	applied(p1, &o, &r1);
	applied(p2, &o, &r2);
	expect("/etc/sysctl.conf.local", "# mine\n# BEGIN ntune: managed by `ntune apply`; edits inside this "
	    "block are lost\nnet.isr.dispatch=deferred\nnet.inet.ip.intr_queue_maxlen=1024\n# END ntune\n");
	assert_int_equal(agentless_revert(&o, NULL, &said, &cause), 0);	/* the newest not reverted */
	assert_non_null(strstr(said, r2.id));
	free(said);
	expect("/etc/sysctl.conf.local", "# mine\n# BEGIN ntune: managed by `ntune apply`; edits inside this "
	    "block are lost\nnet.isr.dispatch=deferred\nnet.inet.ip.intr_queue_maxlen=512\n# END ntune\n");
	expect("/mib/net/inet/ip/intr_queue_maxlen", "512\n");
	assert_int_equal(agentless_revert(&o, NULL, &said, &cause), 0);
	assert_non_null(strstr(said, r1.id));
	free(said);
	assert_int_equal(agentless_revert(&o, NULL, &said, &cause), -1);
	assert_non_null(strstr(cause, "no journal entry on this host that is not reverted"));
	free(cause);
	expect("/etc/sysctl.conf.local", "# mine\n");
	expect("/mib/net/inet/ip/intr_queue_maxlen", "256\n");
	expect("/mib/net/isr/dispatch", "direct\n");
	agentless_result_free(&r1);
	agentless_result_free(&r2);
	kb_profile_free(p1);
	kb_profile_free(p2);
	free(sd);
}

/* The output of the shell command cmd, its last line break dropped (malloc'd). */
static char *
output(const char *cmd)
{
	char buf[256];
	size_t n;
	FILE *f = popen(cmd, "r");

	assert_non_null(f);
	n = fread(buf, 1, sizeof buf - 1, f);
	pclose(f);
	buf[n] = '\0';
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return xstrdup(buf);
}

/*
 * With this build's ntune (build/ntune) and a namespace made here (root and ip(8) only, else
 * skipped): a net.* sysctl and an if.* setting of the namespace set and restored through
 * `ntune knob --netns`; the host's own value never changes.
 */
static void
test_knobs_in_a_namespace_through_this_ntune(void **state)
{
	struct agentless_opts o = freebsd_here();
	struct kb_profile *p = profile("net.ipv4.ip_default_ttl=77\nif.v0.txqueuelen=4321\n");
	struct agentless_result r;
	char exe[4096], ns[64], *self, *cmd, *host, *v, *cause = NULL, *said = NULL;

	(void)state;
	if (getuid() != 0 || system("command -v ip >/dev/null 2>&1") != 0 ||
	    util_self_exe(exe, sizeof exe) == -1)
		skip();
	*strrchr(exe, '/') = '\0';
	xasprintf(&self, "%s/../ntune", exe);
	snprintf(ns, sizeof ns, "ntune-ul-%d", (int)getpid());
	xasprintf(&cmd, "ip netns add %s && ip -n %s link add v0 type veth peer name v1", ns, ns);
	if (system(cmd) != 0)
		skip();
	free(cmd);
	host = output("cat /proc/sys/net/ipv4/ip_default_ttl");
	unsetenv("NTUNE_NETNS_DIR");
	o.os = OS_PLATFORM_LINUX;
	o.self = self;
	o.netns = ns;
	applied(p, &o, &r);
	xasprintf(&cmd, "ip netns exec %s sh -c 'cat /proc/sys/net/ipv4/ip_default_ttl "
	    "/sys/class/net/v0/tx_queue_len | tr \"\\\\n\" \" \"'", ns);
	v = output(cmd);
	assert_string_equal(v, "77 4321 ");
	free(v);
	assert_true(r.nchanges == 2 && r.changes[0].in_netns && r.changes[1].in_netns);
	assert_true(r.nnot_persisted == 2 && r.npersisted == 0);
	v = output("cat /proc/sys/net/ipv4/ip_default_ttl");
	assert_string_equal(v, host);
	free(v);
	assert_int_equal(agentless_revert(&o, NULL, &said, &cause), 0);
	v = output(cmd);
	assert_string_equal(v, "64 1000 ");
	free(v);
	free(cmd);
	free(said);
	agentless_result_free(&r);
	/* a namespace deleted before the revert: nothing of it is left to put back */
	applied(p, &o, &r);
	xasprintf(&cmd, "ip netns del %s", ns);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	if (agentless_revert(&o, NULL, &said, &cause) != 0)
		fail_msg("%s", cause);
	xasprintf(&cmd, "%s/knobs", root);
	setenv("NTUNE_NETNS_DIR", cmd, 1);
	free(cmd);
	free(host);
	free(said);
	free(self);
	agentless_result_free(&r);
	kb_profile_free(p);
}

/*
 * The test hooks of a run here (t4101's): killed after the first of two sets, the entry stays
 * applying and a revert puts everything back; the second set failing restores the first.
 */
static void
test_hooks_kill_and_fail_a_set(void **state)
{
	struct agentless_opts o = freebsd_here();
	struct kb_profile *p = profile("if.eth0.mtu=9000\nif.eth1.mtu=9000\n");
	struct agentless_result r;
	struct agentless_entry *e = NULL;
	char *cause = NULL, *said = NULL, *self;
	size_t n = 0;

	(void)state;
	xasprintf(&self, "%s/bin/ntune", root);
	o.os = OS_PLATFORM_LINUX;
	o.self = self;
	setenv("NTUNE_TEST_KILL_AFTER", "1", 1);
	assert_int_equal(agentless_apply(NULL, p, &o, &r, &cause), -1);
	unsetenv("NTUNE_TEST_KILL_AFTER");
	assert_int_equal(r.status, 128 + 9);
	free(cause);
	expect("/knobs/if.eth0.mtu", "9000\n");
	expect("/knobs/if.eth1.mtu", "1500\n");
	assert_int_equal(agentless_history(&o, r.id, &e, &n, &cause), 0);
	assert_string_equal(e[0].e.state, "applying");
	agentless_entries_free(e, n);
	assert_int_equal(agentless_revert(&o, r.id, &said, &cause), 0);
	expect("/knobs/if.eth0.mtu", "1500\n");
	free(said);
	agentless_result_free(&r);
	setenv("NTUNE_TEST_FAIL_WRITE", "2", 1);
	assert_int_equal(agentless_apply(NULL, p, &o, &r, &cause), -1);
	unsetenv("NTUNE_TEST_FAIL_WRITE");
	assert_int_equal(r.status, RSCRIPT_EX_SET);
	assert_non_null(strstr(cause, "cannot set if.eth1.mtu; everything restored"));
	free(cause);
	expect("/knobs/if.eth0.mtu", "1500\n");
	free(self);
	agentless_result_free(&r);
	kb_profile_free(p);
}

/* The dead-man of a run here on Linux (setsid nohup sh, no systemd-run) puts the original back. */
static void
test_dead_man_here_reverts_on_linux(void **state)
{
	struct agentless_opts o = freebsd_here();
	struct kb_profile *p = profile("if.eth0.mtu=9000\n");
	struct agentless_result r;
	char *self, *st;

	(void)state;
	xasprintf(&self, "%s/bin/ntune", root);
	o.os = OS_PLATFORM_LINUX;
	o.self = self;
	o.confirm_secs = 1;
	applied(p, &o, &r);
	assert_true(r.deadman_pid > 0);
	expect("/knobs/if.eth0.mtu", "9000\n");
	xasprintf(&st, "/state/%s/reverted", r.id);
	assert_true(wait_for(st, "dead-man timer\n", 10));
	expect("/knobs/if.eth0.mtu", "1500\n");
	free(st);
	free(self);
	agentless_result_free(&r);
	kb_profile_free(p);
}

/*
 * --trial-boot here: nextboot(8) for one boot; confirm keeps the tunable in loader.conf.local
 * only once kenv(1) shows this boot had it (trial.c's rule in the C engine).
 */
static void
test_trial_is_kept_only_when_kenv_has_it(void **state)
{
	struct agentless_opts o = freebsd_here();
	struct kb *kb = share_kb();
	struct kb_profile *p = profile("net.isr.maxthreads=4\n");
	struct agentless_result r;
	struct agentless_entry *e = NULL;
	char *cause = NULL, *said = NULL;
	size_t n = 0;
	json_t *j;

	(void)state;
	o.trial_boot = true;
	applied(p, &o, &r);	/* kb NULL there: the placement below needs the KB */
	agentless_result_free(&r);
	assert_int_equal(agentless_revert(&o, NULL, &said, &cause), 0);
	free(said);
	if (agentless_apply(kb, p, &o, &r, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(r.changes[0].action, APPLY_TRIAL_BOOT);
	assert_true(r.nreboot == 1 && r.npersisted == 0);
	assert_int_equal(agentless_history(&o, r.id, &e, &n, &cause), 0);
	assert_true(n == 1 && e[0].trial_pending);
	j = agentless_entry_json(&e[0], "local");
	assert_string_equal(json_string_value(json_object_get(json_object_get(j, "trial"), "state")), "pending");
	json_decref(j);
	agentless_entries_free(e, n);
	expect("/boot/nextboot.conf", "nextboot_enable=\"YES\"\nnet.isr.maxthreads=\"4\"\n");
	/* a boot that did not have it (the loader used the file, kenv says nothing) */
	put("/boot/nextboot.conf", "nextboot_enable=\"NO\"\n");
	assert_int_equal(agentless_confirm(&o, NULL, &said, &cause), -1);
	assert_non_null(strstr(cause, "this boot did not have the trial: kenv says net.isr.maxthreads is "
	    "unset, the trial sets '4'"));
	free(cause);
	cause = NULL;
	expect("/boot/loader.conf.local", NULL);
	put("/kenv.txt", "net.isr.maxthreads=\"4\"\n");
	assert_int_equal(agentless_confirm(&o, NULL, &said, &cause), 0);
	free(said);
	expect("/boot/loader.conf.local", "# BEGIN ntune: managed by `ntune apply`; edits inside this block "
	    "are lost\nnet.isr.maxthreads=\"4\"\n# END ntune\n");
	assert_int_equal(agentless_history(&o, r.id, &e, &n, &cause), 0);
	assert_true(n == 1 && !e[0].trial_pending);
	agentless_entries_free(e, n);
	assert_int_equal(agentless_revert(&o, NULL, &said, &cause), 0);
	expect("/boot/loader.conf.local", NULL);
	free(said);
	put("/kenv.txt", "");
	agentless_result_free(&r);
	kb_profile_free(p);
	kb_free(kb);
}

/*
 * OPNsense with --trial-boot: the runtime tunable goes into loader.conf.local's block at apply,
 * the trial's tunable joins it at confirm (kenv has it), and revert puts the file back as it was
 * before both (keep's copy first, then the apply's).
 */
static void
test_opnsense_trial_keeps_both_in_one_block(void **state)
{
	struct agentless_opts o = freebsd_here();
	struct kb *kb = share_kb();
	struct kb_profile *p = profile("net.isr.maxthreads=4\nnet.inet.ip.intr_queue_maxlen=1024\n");
	struct agentless_result r;
	char *cause = NULL, *said = NULL;

	(void)state;
	o.platform = OS_PLATFORM_OPNSENSE;
	o.trial_boot = true;
	put("/boot/loader.conf.local", "kern.hz=\"100\"\n");
	if (agentless_apply(kb, p, &o, &r, &cause) != 0)
		fail_msg("%s", cause);
	expect("/boot/loader.conf.local", "kern.hz=\"100\"\n# BEGIN ntune: managed by `ntune apply`; edits "
	    "inside this block are lost\nnet.inet.ip.intr_queue_maxlen=\"1024\"\n# END ntune\n");
	put("/boot/nextboot.conf", "nextboot_enable=\"NO\"\n");
	put("/kenv.txt", "net.isr.maxthreads=\"4\"\n");
	assert_int_equal(agentless_confirm(&o, NULL, &said, &cause), 0);
	free(said);
	expect("/boot/loader.conf.local", "kern.hz=\"100\"\n# BEGIN ntune: managed by `ntune apply`; edits "
	    "inside this block are lost\nnet.inet.ip.intr_queue_maxlen=\"1024\"\nnet.isr.maxthreads=\"4\"\n"
	    "# END ntune\n");
	assert_int_equal(agentless_revert(&o, NULL, &said, &cause), 0);
	free(said);
	expect("/boot/loader.conf.local", "kern.hz=\"100\"\n");
	expect("/mib/net/inet/ip/intr_queue_maxlen", "256\n");
	put("/kenv.txt", "");
	sh_ok("rm boot/loader.conf.local%s", "");
	agentless_result_free(&r);
	kb_profile_free(p);
	kb_free(kb);
}

/* --os another than this machine's: its boot files only; a runtime knob is refused. */
static void
test_another_os_writes_boot_files_only(void **state)
{
	struct agentless_opts o = freebsd_here();
	struct kb *kb = share_kb();
	struct kb_profile *p = profile("net.isr.maxthreads=-1\n"), *rt = profile("net.isr.dispatch=deferred\n");
	struct agentless_result r;
	char *cause = NULL, *said = NULL;

	(void)state;
	o.files_only = true;
	assert_int_equal(agentless_apply(kb, rt, &o, &r, &cause), -1);
	assert_non_null(strstr(cause, "p.conf:1: 'net.isr.dispatch' is set at runtime"));
	free(cause);
	cause = NULL;
	agentless_result_free(&r);
	if (agentless_apply(kb, p, &o, &r, &cause) != 0)
		fail_msg("%s", cause);
	assert_null(r.changes[0].old);
	assert_int_equal(r.changes[0].action, APPLY_BOOT_ONLY);
	expect("/boot/loader.conf.local", "# BEGIN ntune: managed by `ntune apply`; edits inside this block "
	    "are lost\nnet.isr.maxthreads=\"-1\"\n# END ntune\n");
	assert_int_equal(agentless_revert(&o, NULL, &said, &cause), 0);
	expect("/boot/loader.conf.local", NULL);
	free(said);
	agentless_result_free(&r);
	kb_profile_free(p);
	kb_profile_free(rt);
	kb_free(kb);
}

/*
 * Without a journal directory of its own, a run here keeps its journal in $NTUNE_STATE_DIR, where
 * an entry's id also names its profile.
 */
static void
test_journal_here_defaults_to_the_state_dir(void **state)
{
	struct agentless_opts o = freebsd_here();
	struct kb_profile *p = profile("net.isr.dispatch=deferred\n"), *e;
	struct agentless_result r;
	char *cause = NULL, *said = NULL, *sd, *st;

	(void)state;
	xasprintf(&sd, "%s/ntune-state", root);
	setenv("NTUNE_STATE_DIR", sd, 1);
	o.state_dir = NULL;
	o.persist = false;
	applied(p, &o, &r);
	xasprintf(&st, "/ntune-state/%s/state", r.id);
	expect(st, "applied\n");
	/* an entry's id stands for its profile (verify, diff, export), read from that journal */
	e = apply_profile_or_entry(r.id, NULL, &cause);
	assert_non_null(e);
	assert_true(e->nentries == 1 && strcmp(e->entries[0].name, "net.isr.dispatch") == 0 &&
	    strcmp(e->entries[0].value, "deferred") == 0);
	kb_profile_free(e);
	assert_int_equal(agentless_revert(&o, NULL, &said, &cause), 0);
	expect(st, "reverted\n");
	unsetenv("NTUNE_STATE_DIR");
	free(said);
	free(st);
	free(sd);
	agentless_result_free(&r);
	kb_profile_free(p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_apply_history_revert_here),
		cmocka_unit_test(test_dead_man_here_and_confirm),
		cmocka_unit_test(test_opnsense_persists_into_loader_conf_local),
		cmocka_unit_test(test_a_knob_at_its_value_is_persisted_not_set),
		cmocka_unit_test(test_knobs_through_ntune_knob),
		cmocka_unit_test(test_second_apply_merges_into_the_block),
		cmocka_unit_test(test_knobs_in_a_namespace_through_this_ntune),
		cmocka_unit_test(test_hooks_kill_and_fail_a_set),
		cmocka_unit_test(test_dead_man_here_reverts_on_linux),
		cmocka_unit_test(test_trial_is_kept_only_when_kenv_has_it),
		cmocka_unit_test(test_opnsense_trial_keeps_both_in_one_block),
		cmocka_unit_test(test_another_os_writes_boot_files_only),
		cmocka_unit_test(test_journal_here_defaults_to_the_state_dir),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
