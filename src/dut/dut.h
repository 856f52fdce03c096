/*
 * The one door to a router (a DUT) and the hosts that load it: the options
 * every command that reaches a router shares, parsing ssh://, opening the ssh
 * session (ControlMaster sockets in a private directory, remote/ssh.c runs the
 * commands over it), and probing once who a host is (OS, platform, release,
 * CPUs, boot id) into one typed struct whose OS is the program's one OS enum
 * (os/platform.h). Used by inspect, snapshot, doctor, apply, confirm, revert,
 * bench, tune and lab rfc2544.
 */
#ifndef NTUNE_DUT_H
#define NTUNE_DUT_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "os/platform.h"
#include "remote/remote.h"

/*
 * The router options, one getopt_long table for every router command (a
 * command puts DUT_LONGOPTS in its longopts and gives each option it reads to
 * dut_option). Adding a router option is a row here, a case in dut_option and
 * the man page's ROUTER OPTIONS.
 */
enum { DUT_OPT_DUT = 1000, DUT_OPT_SSH_CONFIG, DUT_OPT_ACCEPT_NEW, DUT_OPT_ROOT };
#define DUT_LONGOPTS \
	{ "dut", required_argument, NULL, DUT_OPT_DUT }, \
	{ "ssh-config", required_argument, NULL, DUT_OPT_SSH_CONFIG }, \
	{ "ssh-accept-new", no_argument, NULL, DUT_OPT_ACCEPT_NEW }, \
	{ "dut-root", required_argument, NULL, DUT_OPT_ROOT }

struct dut_opts {
	const char *url;	/* --dut (or a read command's ssh:// operand); NULL: none */
	const char *ssh_config;	/* ssh -F FILE; NULL: ssh's own */
	const char *root;	/* --dut-root: the prefix of the router's files (a test rig) */
	bool	accept_new;	/* StrictHostKeyChecking=accept-new */
};

/* 1 if ch was one of DUT_LONGOPTS (stored in o), 0 if not. */
int	dut_option(struct dut_opts *, int ch, const char *arg);
/* Was an ssh option (--ssh-config, --ssh-accept-new, --dut-root) given? */
bool	dut_opts_ssh_given(const struct dut_opts *);

/*
 * "local", or ssh://[user@]host[:port] (remote_parse) into h, attached to the
 * session s (may be NULL until it is opened). -1 + cause.
 */
int	dut_host_parse(const char *url, struct remote_ssh *s, struct remote_host *h, char **cause);
/* Opens the session the hosts share (its options from o, may be NULL). -1 + cause. */
int	dut_session_open(struct remote_ssh *, const struct dut_opts *, char **cause);
/* Closes each host's shared connection, then the session. */
void	dut_session_close(struct remote_ssh *, struct remote_host *const hosts[], size_t n);

/* Who a host is, probed once (dut_probe). */
struct dut_facts {
	enum os_platform os;		/* the family: FREEBSD (OPNsense, pfSense too), LINUX, else UNKNOWN */
	enum os_platform platform;	/* the distribution /etc/platform or opnsense-version names, else os */
	char	os_name[32];		/* uname -s as it said it: Linux, FreeBSD */
	char	platform_name[64];	/* /etc/platform's first line, else opnsense-version's, or "" */
	char	uname[512];		/* uname -a */
	char	release[64];		/* uname -r */
	char	version[64];		/* `ntune --version` there, "none" */
	int	ncpu;			/* online CPUs; 0: not said */
	char	boot_id[128];		/* a new one after every boot */
	char	*conftxt;		/* FreeBSD kern.conftxt, "" elsewhere */
};

/*
 * One sh script over the host's connection: facts as above. ntune: the ntune
 * command whose version is asked there (NULL: not asked, "none"). -1 + cause
 * when the host cannot be reached.
 */
int	dut_probe(const struct remote_host *, const char *ntune, struct dut_facts *, char **cause);
void	dut_facts_free(struct dut_facts *);
/* The knowledge base's name for the OS the facts describe (linux, freebsd, opnsense, pfsense). */
const char *dut_facts_kb_os(const struct dut_facts *);
/* The host's boot id (a new one after every boot) into buf. */
int	dut_boot_id(const struct remote_host *, double timeout, char *buf, size_t len, char **cause);

/* A router reached: its session, its host and who it is. */
struct dut {
	struct remote_ssh ssh;
	struct remote_host host;
	struct dut_facts facts;
};
/*
 * Parses o->url (ssh:// only: "local" is refused, this machine is the caller's)
 * and opens the session; probe: learns who it is (dut_probe, and refuses
 * an OS other than FreeBSD's family or Linux). -1 + cause; *usage set when the URL
 * was wrong (an input error, nothing reached).
 */
int	dut_open(struct dut *, const struct dut_opts *, bool probe, bool *usage, char **cause);
void	dut_close(struct dut *);

/*
 * The capture of the router o->url over one ssh connection (remote/capture.h's
 * capture_run_root: one sh script for secs, its files under o->root, nothing
 * written there); what inspect, snapshot and doctor read. -1 + cause, *usage as
 * dut_open's.
 */
struct capture_set;
int	dut_capture(const struct dut_opts *, double secs, struct capture_set *, bool *usage,
	    char **cause);

struct dut_cpu {
	uint64_t busy, total;		/* ticks */
};

/* The DUT's counters, read idle (never during a trial). */
struct dut_counters {
	char	boot_id[128];
	uint64_t in_rx, in_drop;	/* the interface facing the generator */
	uint64_t out_tx, out_drop;	/* the interface facing the sink */
	struct dut_cpu *cpu;
	size_t	ncpu;
};
int	dut_counters(const struct remote_host *, const char *in, const char *out,
	    struct dut_counters *, char **cause);
/* What the counters program printed (out), read: boot id, the two interfaces, each CPU's ticks. */
int	dut_counters_parse(const char *out, const char *in, const char *outif,
	    struct dut_counters *, const char *url, char **cause);
void	dut_counters_free(struct dut_counters *);

#endif
