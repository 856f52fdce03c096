/*
 * Building and removing the lab. Each namespace is configured by one
 * `ip -batch` run inside it (a handful of processes, well under a second);
 * a state file under /run/ntune/lab records that ntune made the namespaces.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "lab/lab.h"
#include "os/os.h"
#include "util/run.h"
#include "util/util.h"
#include "util/util_json.h"

static int
mkdir_p(const char *dir, char **cause)
{
	char tmp[512], *p;

	snprintf(tmp, sizeof(tmp), "%s", dir);
	for (p = tmp + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) == -1 && errno != EEXIST)
			goto fail;
		*p = '/';
	}
	if (mkdir(tmp, 0755) == -1 && errno != EEXIST)
		goto fail;
	return 0;
fail:
	util_cause(cause, "cannot create '%s': %s", tmp, strerror(errno));
	return -1;
}

static int
state_write(const struct lab_config *c, char **cause)
{
	char path[512], *text;
	json_t *o;
	int rc;

	if (mkdir_p(lab_state_dir(), cause) == -1)
		return -1;
	lab_state_path(c->prefix, path, sizeof(path));
	o = json_pack("{s:i, s:s, s:s, s:i, s:i, s:s, s:[s,s,s]}", "schema", 1, "prefix", c->prefix,
	    "mode", lab_mode_name(c->mode), "queues", c->queues, "mtu", c->mtu, "impair",
	    lab_impair_name(c->impair), "namespaces", lab_role_name(LAB_GEN), lab_role_name(LAB_DUT),
	    lab_role_name(LAB_SINK));
	text = util_json_dumps(o, JSON_INDENT(2));
	json_decref(o);
	rc = util_write_file_atomic(path, text, strlen(text), 0644, cause);
	free(text);
	return rc;
}

int
lab_read_config(const char *prefix, struct lab_config *c, char **cause)
{
	char path[512];
	json_error_t jerr;
	json_t *o;
	const char *mode = "route", *impair = "none";
	int queues = 1, mtu = 0;

	lab_state_path(prefix, path, sizeof(path));
	if ((o = json_load_file(path, 0, &jerr)) == NULL) {
		if (access(path, F_OK) == -1)
			util_cause(cause, "lab '%s' is not up (no '%s')", prefix, path);
		else
			util_cause(cause, "%s:%d: %s", path, jerr.line, jerr.text);
		return -1;
	}
	lab_config_init(c);
	snprintf(c->prefix, sizeof(c->prefix), "%s", prefix);
	if (json_unpack_ex(o, &jerr, 0, "{s?s, s?i, s?i, s?s}", "mode", &mode, "queues", &queues,
	    "mtu", &mtu, "impair", &impair) == -1 || lab_mode_parse(mode, &c->mode) == -1 ||
	    lab_impair_parse(impair, &c->impair) == -1) {
		util_cause(cause, "%s: bad lab state file", path);
		json_decref(o);
		return -1;
	}
	c->queues = queues;
	c->mtu = mtu;
	json_decref(o);
	return 0;
}

/* The child of run(): stdin and stderr on the pipes, stdout on /dev/null, in namespace ns. */
struct run_child {
	const char *ns;
	char *const *argv;
	int	 in, err, nsfd;
};

static int
run_exec(void *p)
{
	struct run_child *r = p;
	int devnull = open("/dev/null", O_WRONLY);

	dup2(r->in, 0);
	dup2(r->err, 2);
	if (devnull != -1)
		dup2(devnull, 1);
	if (r->nsfd != -1 && setns(r->nsfd, CLONE_NEWNET) == -1) {
		dprintf(2, "cannot enter network namespace '%s': %s\n", r->ns, strerror(errno));
		return 126;
	}
	execvp(r->argv[0], r->argv);
	dprintf(2, "cannot run '%s': %s\n", r->argv[0], strerror(errno));
	return 127;
}

/* Runs argv (inside namespace ns unless NULL) with input on stdin; stderr goes into cause. */
static int
run(const char *ns, char *const argv[], const char *input, char **cause)
{
	int in[2], errp[2], nsfd = -1, status;
	struct run_child rc = { .ns = ns, .argv = argv };
	struct util_child child = { .fn = run_exec, .arg = &rc };
	struct strbuf err;
	char buf[512];
	ssize_t r;

	if (ns != NULL) {
		char path[256];

		snprintf(path, sizeof(path), "/run/netns/%s", ns);
		if ((nsfd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
			util_cause(cause, "cannot open '%s': %s", path, strerror(errno));
			return -1;
		}
	}
	if (pipe2(in, O_CLOEXEC) == -1 || pipe2(errp, O_CLOEXEC) == -1) {
		util_cause(cause, "pipe: %s", strerror(errno));
		if (nsfd != -1)
			close(nsfd);
		return -1;
	}
	fflush(NULL);
	rc.in = in[0];
	rc.err = errp[1];
	rc.nsfd = nsfd;
	if (util_child_start(&child, cause) == -1) {
		close(in[0]); close(in[1]); close(errp[0]); close(errp[1]);
		if (nsfd != -1)
			close(nsfd);
		return -1;
	}
	if (nsfd != -1)
		close(nsfd);
	close(in[0]);
	close(errp[1]);
	if (input != NULL) {
		size_t off = 0, len = strlen(input);
		ssize_t w;

		/* Short writes are resumed; a failed one shows as the command's error below. */
		signal(SIGPIPE, SIG_IGN);
		while (off < len && ((w = write(in[1], input + off, len - off)) > 0 ||
		    (w == -1 && errno == EINTR))) {
			if (w > 0)
				off += (size_t)w;
		}
	}
	close(in[1]);
	strbuf_init(&err);
	while ((r = read(errp[0], buf, sizeof(buf))) > 0 || (r == -1 && errno == EINTR)) {
		if (r > 0)
			strbuf_add(&err, buf, (size_t)r);
	}
	close(errp[0]);
	if ((status = util_child_finish(&child, NULL)) == 0) {
		strbuf_free(&err);
		return 0;
	}
	strbuf_addc(&err, '\0');
	{
		char *msg = util_trim(err.buf);
		char *nl;

		/* ip -batch: "Error: ...\nCommand failed -:7"; keep the first line. */
		if ((nl = strchr(msg, '\n')) != NULL)
			*nl = '\0';
		util_cause(cause, "%s%s%s: %s", argv[0], ns ? " in " : "", ns ? ns : "",
		    *msg ? msg : "failed");
	}
	strbuf_free(&err);
	return -1;
}

static int
run_ip_batch(const char *ns, const char *batch, char **cause)
{
	char *argv[] = { "ip", "-batch", "-", NULL };

	return run(ns, argv, batch, cause);
}

struct sysctl_job {
	const char *const *names;
	const char *value;
};

static int
write_sysctls(void *arg)
{
	const struct sysctl_job *job = arg;
	size_t i;

	for (i = 0; job->names[i] != NULL; i++) {
		char path[256];
		int fd;

		snprintf(path, sizeof(path), "/proc/sys/%s", job->names[i]);
		if ((fd = open(path, O_WRONLY)) == -1)
			return 1;
		if (write(fd, job->value, strlen(job->value)) == -1) {
			close(fd);
			return 1;
		}
		close(fd);
	}
	return 0;
}

static void
add_veth(struct strbuf *b, const char *a, const char *amac, const char *peer,
    const char *pmac, const char *peerns, const struct lab_config *c)
{
	char mtu[32] = "";

	if (c->mtu > 0)
		snprintf(mtu, sizeof(mtu), " mtu %d", c->mtu);
	strbuf_addf(b, "link add %s%s address %s numtxqueues %d numrxqueues %d type veth "
	    "peer name %s%s address %s numtxqueues %d numrxqueues %d netns %s\n",
	    a, mtu, amac, c->queues, c->queues, peer, mtu, pmac, c->queues, c->queues, peerns);
}

static void
add_addrs(struct strbuf *b, const char *ifname, const char *ip4, const char *ip6)
{
	strbuf_addf(b, "link set dev %s up\n", ifname);
	if (ip4 != NULL)
		strbuf_addf(b, "address add %s/24 dev %s\n", ip4, ifname);
	if (ip6 != NULL)
		strbuf_addf(b, "address add %s/64 dev %s nodad\n", ip6, ifname);
}

static void
add_neigh(struct strbuf *b, const char *ifname, const char *ip4, const char *ip6, const char *mac)
{
	strbuf_addf(b, "neighbour replace %s lladdr %s dev %s nud permanent\n", ip4, mac, ifname);
	strbuf_addf(b, "neighbour replace %s lladdr %s dev %s nud permanent\n", ip6, mac, ifname);
}

/* An end of the lab, the generator's or the sink's, and what it reaches across the DUT. */
struct lab_end {
	const char *ifname, *mac, *ip4, *ip6;
	const char *peer, *peer_mac;		/* the DUT's end of the veth it creates, or NULL */
	const char *net4, *net6;		/* the networks of the other end */
	const char *far4, *far6, *far_mac;	/* bridge: the other end's addresses */
	const char *hop4, *hop6, *hop_mac;	/* routed: the DUT's interface on this side */
};

static const struct lab_end gen_end = {
	LAB_GEN_IF, LAB_GEN_MAC, LAB_GEN_IP4, LAB_GEN_IP6, LAB_DUT_IN_IF, LAB_DUT_IN_MAC,
	"198.19.0.0/24", "2001:2:0:2::/64", LAB_SINK_IP4, LAB_SINK_IP6, LAB_SINK_MAC,
	LAB_DUT_IN_IP4, LAB_DUT_IN_IP6, LAB_DUT_IN_MAC,
};
static const struct lab_end sink_end = {
	LAB_SINK_IF, LAB_SINK_MAC, LAB_SINK_IP4, LAB_SINK_IP6, NULL, NULL,
	"198.18.0.0/24", "2001:2:0:1::/64", LAB_GEN_IP4, LAB_GEN_IP6, LAB_GEN_MAC,
	LAB_DUT_OUT_IP4, LAB_DUT_OUT_IP6, LAB_DUT_OUT_MAC,
};

/* ip -batch text for each namespace; an end's veth peer goes into dutns. */
static void
batch_end(struct strbuf *b, const struct lab_config *c, const struct lab_end *e, const char *dutns)
{
	strbuf_addf(b, "link set dev lo up\n");
	if (e->peer != NULL)
		add_veth(b, e->ifname, e->mac, e->peer, e->peer_mac, dutns, c);
	strbuf_addf(b, "link set dev %s alias ntune-lab:%s\n", e->ifname, c->prefix);
	add_addrs(b, e->ifname, e->ip4, e->ip6);
	if (c->mode == LAB_BRIDGE) {
		strbuf_addf(b, "route add %s dev %s\n", e->net4, e->ifname);
		strbuf_addf(b, "route add %s dev %s\n", e->net6, e->ifname);
		add_neigh(b, e->ifname, e->far4, e->far6, e->far_mac);
	} else {
		strbuf_addf(b, "route add %s via %s\n", e->net4, e->hop4);
		strbuf_addf(b, "route add %s via %s\n", e->net6, e->hop6);
		add_neigh(b, e->ifname, e->hop4, e->hop6, e->hop_mac);
	}
}

static void
batch_dut(struct strbuf *b, const struct lab_config *c, const char *sinkns)
{
	strbuf_addf(b, "link set dev lo up\n");
	add_veth(b, LAB_DUT_OUT_IF, LAB_DUT_OUT_MAC, LAB_SINK_IF, LAB_SINK_MAC, sinkns, c);
	strbuf_addf(b, "link set dev %s alias ntune-lab:%s\n", LAB_DUT_IN_IF, c->prefix);
	strbuf_addf(b, "link set dev %s alias ntune-lab:%s\n", LAB_DUT_OUT_IF, c->prefix);
	if (c->mode == LAB_BRIDGE) {
		strbuf_addf(b, "link add br0 type bridge stp_state 0 forward_delay 0\n");
		if (c->mtu > 0)
			strbuf_addf(b, "link set dev br0 mtu %d\n", c->mtu);
		strbuf_addf(b, "link set dev br0 alias ntune-lab:%s\n", c->prefix);
		strbuf_addf(b, "link set dev %s master br0\n", LAB_DUT_IN_IF);
		strbuf_addf(b, "link set dev %s master br0\n", LAB_DUT_OUT_IF);
		strbuf_addf(b, "link set dev %s up\n", LAB_DUT_IN_IF);
		strbuf_addf(b, "link set dev %s up\n", LAB_DUT_OUT_IF);
		strbuf_addf(b, "link set dev br0 up\n");
		return;
	}
	add_addrs(b, LAB_DUT_IN_IF, LAB_DUT_IN_IP4, LAB_DUT_IN_IP6);
	add_addrs(b, LAB_DUT_OUT_IF, LAB_DUT_OUT_IP4, LAB_DUT_OUT_IP6);
	add_neigh(b, LAB_DUT_IN_IF, LAB_GEN_IP4, LAB_GEN_IP6, LAB_GEN_MAC);
	add_neigh(b, LAB_DUT_OUT_IF, LAB_SINK_IP4, LAB_SINK_IP6, LAB_SINK_MAC);
}

static const char nat_rules[] =
    "table inet ntune_lab {\n"
    "\tchain postrouting {\n"
    "\t\ttype nat hook postrouting priority srcnat; policy accept;\n"
    "\t\toifname \"" LAB_DUT_OUT_IF "\" masquerade\n"
    "\t}\n"
    "}\n";

/*
 * The sink namespace drops test frames (UDP port 9) at ingress, after the
 * packet taps that ntune sink reads and after sink0's counters: like a
 * tester's receive port it counts and discards, and no IP stack or ICMP
 * port-unreachable work competes with the DUT for the CPUs.
 */
static const char sink_rules[] =
    "table netdev ntune_sink {\n"
    "\tchain ingress {\n"
    "\t\ttype filter hook ingress device \"" LAB_SINK_IF "\" priority 0; policy accept;\n"
    "\t\tudp dport 9 counter drop\n"
    "\t\tip6 nexthdr udp udp dport 9 counter drop\n"
    "\t}\n"
    "}\n";

/* Turns the kernel's terse errors into what the user has to do. */
static void
explain_failure(char **cause)
{
	char *old;

	if (cause == NULL || *cause == NULL)
		return;
	old = *cause;
	if (strstr(old, "Unknown device type") != NULL && strstr(old, "veth") == NULL &&
	    access("/sys/module/veth", F_OK) == -1) {
		util_cause(cause, "kernel module 'veth' is not available (modprobe veth): %s", old);
		free(old);
	} else if (strstr(old, "nft") == old && (strstr(old, "No such file") != NULL ||
	    strstr(old, "cannot run") != NULL || strstr(old, "Operation not supported") != NULL ||
	    strstr(old, "Could not process rule") != NULL)) {
		util_cause(cause, "nftables NAT is not available (needs nft and the nf_tables, "
		    "nft_masq modules): %s", old);
		free(old);
	}
}

static int
delete_namespaces(const char *prefix, const bool which[LAB_NROLES], char **cause)
{
	struct strbuf b;
	char ns[LAB_NSNAME_MAX];
	int r, rc;

	strbuf_init(&b);
	for (r = 0; r < LAB_NROLES; r++) {
		if (!which[r])
			continue;
		lab_netns_name(prefix, (enum lab_role)r, ns, sizeof(ns));
		strbuf_addf(&b, "netns delete %s\n", ns);
	}
	strbuf_addc(&b, '\0');
	rc = b.len > 1 ? run_ip_batch(NULL, b.buf, cause) : 0;
	strbuf_free(&b);
	return rc;
}

static int
pin_napi_cpu0(void *arg)
{
	struct os_ctx *os;
	int rc;

	(void)arg;
	if ((os = os_open_live("", NULL)) == NULL)
		return 1;
	rc = os_tunable_set(os, "if." LAB_DUT_IN_IF ".napi_thread_cpus", "0", NULL) == 0 ? 0 : 1;
	os_close(os);
	return rc;
}

/* RPS on each of dut0's receive queues to the highest CPU, away from the generator's CPU 0. */
static int
rps_to_last_cpu(const char *dutns, char **cause)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	char cmd[160];
	char *argv[] = { "sh", "-c", cmd, NULL };

	if (ncpu < 2 || ncpu > 64) {
		util_cause(cause, "--impair backlog-rps needs 2 to 64 CPUs (RPS to another CPU), "
		    "not %ld", ncpu);
		return -1;
	}
	snprintf(cmd, sizeof cmd, "for q in /sys/class/net/" LAB_DUT_IN_IF "/queues/rx-*; do "
	    "echo %llx >$q/rps_cpus || exit 1; done", 1ULL << (ncpu - 1));
	if (lab_netns_exec(dutns, argv, cause) != 0) {
		if (cause != NULL && *cause == NULL)
			util_cause(cause, "cannot turn on RPS on dut0 in '%s'", dutns);
		return -1;
	}
	return 0;
}

/*
 * The planted misconfigurations (bench/tune-planted.sh asks tune to find them):
 * rp-filter: strict reverse-path filtering on dut0 while the route back to the
 * generator leaves by dut1, as on a router with asymmetric routing: every
 * packet is dropped (IPReversePathFilter). napi-on-sender: dut0's receive
 * path in a NAPI thread pinned to CPU 0, where the lab's generator runs.
 * conntrack-small: a NAT DUT whose conntrack table (host-wide
 * nf_conntrack_max) holds 128 entries, fewer than a many-flow load needs.
 * backlog-rps: RPS on dut0 to another CPU, whose backlog (host-wide
 * netdev_max_backlog) holds 64 packets. The host-wide values are held as
 * hostsysctl.c says (*owned: this lab restores them).
 */
static int
impair(const struct lab_config *c, const char *dutns, bool *owned, char **cause)
{
	static const char *const rpf[] = { "net/ipv4/conf/all/rp_filter",
	    "net/ipv4/conf/" LAB_DUT_IN_IF "/rp_filter", NULL };
	struct sysctl_job job = { rpf, "1\n" };
	char *gro[] = { "ethtool", "-K", LAB_DUT_IN_IF, "gro", "on", "rx-gro-list", "on", NULL };
	char *thr[] = { "sh", "-c", "echo 1 >/sys/class/net/" LAB_DUT_IN_IF "/threaded", NULL };

	*owned = false;
	switch (c->impair) {
	case LAB_IMPAIR_NONE:
		return 0;
	case LAB_IMPAIR_RP_FILTER:
		if (c->mode == LAB_BRIDGE) {
			util_cause(cause, "--impair rp-filter needs a routing DUT (route or nat mode)");
			return -1;
		}
		if (run_ip_batch(dutns, "route add " LAB_GEN_IP4 "/32 via " LAB_SINK_IP4 "\n",
		    cause) == -1)
			return -1;
		if (lab_netns_run(dutns, write_sysctls, &job, cause) != 0) {
			if (cause != NULL && *cause == NULL)
				util_cause(cause, "cannot turn on rp_filter in '%s'", dutns);
			return -1;
		}
		return 0;
	case LAB_IMPAIR_NAPI_SENDER:
		if (run(dutns, gro, NULL, cause) == -1 || lab_netns_exec(dutns, thr, cause) != 0)
			goto napi_fail;
		if (lab_netns_run(dutns, pin_napi_cpu0, NULL, cause) != 0)
			goto napi_fail;
		return 0;
	case LAB_IMPAIR_CONNTRACK_SMALL:
		return lab_host_hold(c, owned, cause);
	case LAB_IMPAIR_BACKLOG_RPS:
		if (rps_to_last_cpu(dutns, cause) == -1)
			return -1;
		return lab_host_hold(c, owned, cause);
	}
	return 0;
napi_fail:
	if (cause != NULL && *cause == NULL)
		util_cause(cause, "cannot put dut0's NAPI thread on CPU 0 in '%s' (needs Linux >= 6.9)",
		    dutns);
	return -1;
}

/* Refuses a bad config, missing privileges, or a prefix whose namespaces exist; names them. */
static int
up_check(const struct lab_config *c, char ns[LAB_NROLES][LAB_NSNAME_MAX], char **cause)
{
	int r;

	if (lab_prefix_valid(c->prefix, cause) == -1)
		return -1;
	if (c->queues < 1 || c->queues > 64) {
		util_cause(cause, "invalid queue count %d (1..64)", c->queues);
		return -1;
	}
	if (c->mtu != 0 && (c->mtu < 68 || c->mtu > 65535)) {
		util_cause(cause, "invalid mtu %d (68..65535)", c->mtu);
		return -1;
	}
	if (c->impair == LAB_IMPAIR_CONNTRACK_SMALL && c->mode != LAB_NAT) {
		util_cause(cause, "--impair conntrack-small needs --mode nat (a DUT that tracks "
		    "connections)");
		return -1;
	}
	if (lab_check_privileges(cause) == -1)
		return -1;
	for (r = 0; r < LAB_NROLES; r++) {
		lab_netns_name(c->prefix, (enum lab_role)r, ns[r], sizeof(ns[r]));
		if (!lab_netns_exists(ns[r]))
			continue;
		if (lab_netns_is_lab(c->prefix, ns[r]))
			util_cause(cause, "lab '%s' is already up (ntune lab down --prefix %s)",
			    c->prefix, c->prefix);
		else
			util_cause(cause, "prefix '%s' is in use: network namespace '%s' exists "
			    "and was not made by ntune", c->prefix, ns[r]);
		return -1;
	}
	return 0;
}

/* The offloads of the lab's ports that make a veth behave like a wire (and a tester's port). */
static int
wire_offloads(char ns[LAB_NROLES][LAB_NSNAME_MAX], char **cause)
{
	/*
	 * A wire carries packets, never 64 KiB UDP super-packets: a veth that
	 * accepts UDP GSO would hand the sink a merged packet (from GRO on dut0)
	 * and every counter would count it as one. The DUT's egress ports segment
	 * in software, like a NIC without UDP segmentation offload. Best effort:
	 * kernels before 5.6 have neither feature, and `bench` checks frame sizes.
	 */
	{
		static const char *const ports[] = { LAB_DUT_IN_IF, LAB_DUT_OUT_IF };
		size_t i;

		for (i = 0; i < nitems(ports); i++) {
			char *argv[] = { "ethtool", "-K", (char *)ports[i], "tx-udp-segmentation", "off",
			    "tx-gso-list", "off", NULL };

			(void)run(ns[LAB_DUT], argv, NULL, NULL);
		}
	}
	/*
	 * A veth hands a packet to its peer's NAPI (and so to GRO and a NAPI
	 * thread) only if the packet is GRO-eligible: always when the sending
	 * veth has TSO off, else only a socket's packet with fraglist or UDP
	 * forwarding GRO on the receiver (veth_skb_is_eligible_for_gro,
	 * drivers/net/veth.c). With TSO on gen0, whether dut0's NAPI sees the
	 * generator's frames depended on how they were sent (tx_ring or
	 * sendmmsg) and on dut0's GRO flavour. A tester's port does not segment:
	 * TSO off makes every frame eligible, whatever the generator does.
	 */
	{
		char *argv[] = { "ethtool", "-K", LAB_GEN_IF, "tso", "off", NULL };

		if (run(ns[LAB_GEN], argv, NULL, cause) == -1)
			return -1;
	}
	return 0;
}

int
lab_up(const struct lab_config *c, char **cause)
{
	static const char *const fwd[] = { "net/ipv4/ip_forward", "net/ipv6/conf/all/forwarding", NULL };
	struct sysctl_job job = { fwd, "1\n" };
	char ns[LAB_NROLES][LAB_NSNAME_MAX], path[512];
	bool created[LAB_NROLES] = { false, false, false }, owned = false;
	struct strbuf b;
	int r, rc;

	if (up_check(c, ns, cause) == -1)
		return -1;
	lab_state_path(c->prefix, path, sizeof(path));
	/* The state file comes first, so that `down` can clean up after a crash. */
	if (state_write(c, cause) == -1)
		return -1;

	strbuf_init(&b);
	for (r = 0; r < LAB_NROLES; r++)
		strbuf_addf(&b, "netns add %s\n", ns[r]);
	rc = run_ip_batch(NULL, b.buf, cause);
	for (r = 0; r < LAB_NROLES; r++)
		created[r] = lab_netns_exists(ns[r]);
	if (rc == -1)
		goto fail;

	b.len = 0;
	batch_end(&b, c, &gen_end, ns[LAB_DUT]);
	strbuf_addc(&b, '\0');
	if (run_ip_batch(ns[LAB_GEN], b.buf, cause) == -1)
		goto fail;
	b.len = 0;
	batch_dut(&b, c, ns[LAB_SINK]);
	strbuf_addc(&b, '\0');
	if (run_ip_batch(ns[LAB_DUT], b.buf, cause) == -1)
		goto fail;
	b.len = 0;
	batch_end(&b, c, &sink_end, NULL);
	strbuf_addc(&b, '\0');
	if (run_ip_batch(ns[LAB_SINK], b.buf, cause) == -1)
		goto fail;
	if (c->mode != LAB_BRIDGE && lab_netns_run(ns[LAB_DUT], write_sysctls, &job, cause) != 0) {
		if (cause != NULL && *cause == NULL)
			util_cause(cause, "cannot turn on forwarding in '%s'", ns[LAB_DUT]);
		goto fail;
	}
	if (c->mode == LAB_NAT) {
		char *argv[] = { "nft", "-f", "-", NULL };

		if (run(ns[LAB_DUT], argv, nat_rules, cause) == -1)
			goto fail;
	}
	{
		char *argv[] = { "nft", "-f", "-", NULL };

		/* Best effort: without nftables the sink's IP stack just does the work. */
		(void)run(ns[LAB_SINK], argv, sink_rules, NULL);
	}
	if (wire_offloads(ns, cause) == -1)
		goto fail;
	if (impair(c, ns[LAB_DUT], &owned, cause) == -1)
		goto fail;
	strbuf_free(&b);
	return 0;

fail:
	explain_failure(cause);
	strbuf_free(&b);
	delete_namespaces(c->prefix, created, NULL);
	if (owned)
		(void)lab_host_release(c->prefix, NULL);
	unlink(path);
	return -1;
}

int
lab_down(const char *prefix, int *removed, char **cause)
{
	char ns[LAB_NSNAME_MAX], path[512];
	bool which[LAB_NROLES] = { false, false, false };
	bool state;
	int r, n = 0;

	if (removed != NULL)
		*removed = 0;
	if (lab_prefix_valid(prefix, cause) == -1)
		return -1;
	lab_state_path(prefix, path, sizeof(path));
	state = access(path, F_OK) == 0;
	for (r = 0; r < LAB_NROLES; r++) {
		lab_netns_name(prefix, (enum lab_role)r, ns, sizeof(ns));
		if (!lab_netns_exists(ns))
			continue;
		if (!lab_netns_is_lab(prefix, ns)) {
			util_cause(cause, "network namespace '%s' was not made by ntune; not removing it", ns);
			return -1;
		}
		which[r] = true;
		n++;
	}
	if (n > 0 || state) {
		if (lab_check_privileges(cause) == -1)
			return -1;
	}
	if (n > 0 && delete_namespaces(prefix, which, cause) == -1)
		return -1;
	/* A host-wide sysctl this lab's impairment changed goes back, also after a crash. */
	if (lab_host_release(prefix, cause) == -1)
		return -1;
	if (state && unlink(path) == -1 && errno != ENOENT) {
		util_cause(cause, "cannot remove '%s': %s", path, strerror(errno));
		return -1;
	}
	if (removed != NULL)
		*removed = n;
	return 0;
}

int
lab_status(const char *prefix, struct lab_status *st, char **cause)
{
	char ns[LAB_NSNAME_MAX], path[512];
	int r;

	memset(st, 0, sizeof(*st));
	if (lab_prefix_valid(prefix, cause) == -1)
		return -1;
	lab_state_path(prefix, path, sizeof(path));
	st->state_file = lab_read_config(prefix, &st->config, NULL) == 0;
	if (!st->state_file) {
		lab_config_init(&st->config);
		snprintf(st->config.prefix, sizeof(st->config.prefix), "%s", prefix);
	}
	for (r = 0; r < LAB_NROLES; r++) {
		struct lab_ifstat all[32];
		int i, n;

		lab_netns_name(prefix, (enum lab_role)r, ns, sizeof(ns));
		if (!(st->ns_exists[r] = lab_netns_exists(ns)))
			continue;
		if (lab_if_stats(ns, all, (int)nitems(all), &n, NULL) == -1)
			continue;
		for (i = 0; i < n && st->nifs[r] < (int)nitems(st->ifs[r]); i++) {
			if (strcmp(all[i].name, "lo") == 0)
				continue;
			if (util_startswith(all[i].mac, LAB_MAC_PREFIX))
				st->ours[r] = true;
			st->ifs[r][st->nifs[r]++] = all[i];
		}
	}
	return 0;
}

static int
add_name(char ***list, size_t *n, const char *name)
{
	size_t i;

	for (i = 0; i < *n; i++) {
		if (strcmp((*list)[i], name) == 0)
			return 0;
	}
	*list = util_strv_add(*list, n, name);
	return 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
lab_list(char ***prefixes, size_t *n, char **cause)
{
	struct dirent *de;
	DIR *d;

	*prefixes = NULL;
	*n = 0;
	if ((d = opendir(lab_state_dir())) != NULL) {
		while ((de = readdir(d)) != NULL) {
			size_t len = strlen(de->d_name);
			char name[LAB_PREFIX_MAX + 1];

			if (len <= 5 || len - 5 > LAB_PREFIX_MAX ||
			    strcmp(de->d_name + len - 5, ".json") != 0)
				continue;
			memcpy(name, de->d_name, len - 5);
			name[len - 5] = '\0';
			add_name(prefixes, n, name);
		}
		closedir(d);
	}
	if ((d = opendir("/run/netns")) != NULL) {
		while ((de = readdir(d)) != NULL) {
			char name[LAB_PREFIX_MAX + 1], nsname[300];
			const char *dash = strrchr(de->d_name, '-');
			enum lab_role r;
			size_t plen;

			if (dash == NULL || lab_role_parse(dash + 1, &r) == -1)
				continue;
			plen = (size_t)(dash - de->d_name);
			if (plen == 0 || plen > LAB_PREFIX_MAX)
				continue;
			memcpy(name, de->d_name, plen);
			name[plen] = '\0';
			snprintf(nsname, sizeof(nsname), "%s", de->d_name);
			if (lab_netns_is_ours(nsname))
				add_name(prefixes, n, name);
		}
		closedir(d);
	}
	if (*n > 1)
		qsort(*prefixes, *n, sizeof(**prefixes), cmp_str);
	(void)cause;
	return 0;
}

void
lab_list_free(char **list, size_t n)
{
	util_strv_free(list, n);
}
