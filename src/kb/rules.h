/*
 * Advice rules as data (share/knobs/advice/NAME.advice): parser and evaluator; and the
 * NIC drivers a rule can name (share/knobs/drivers/OS.drivers).
 */
#ifndef NTUNE_KB_RULES_H
#define NTUNE_KB_RULES_H

#include "kb/kb.h"

/* What a FreeBSD (or Linux) NIC driver is, from share/knobs/drivers/OS.drivers. */
struct kb_driver {
	char	*name;		/* "em": its hw.NAME.* knobs */
	char	*os;		/* "freebsd" | "linux" */
	char	**ifnames;	/* interface/device names its ports carry: "em igb" */
	size_t	nifnames;
	int	iflib;		/* 1 an iflib(4) driver, 0 not, -1 not said */
	int	max_rxd, max_txd;	/* the driver's isc_nrxd_max/isc_ntxd_max, -1 not said */
	int	default_rxd;	/* isc_nrxd_default: the ring an iflib override of 0 gives, -1 */
	int	lro, tso;	/* the driver offers IFCAP_LRO / IFCAP_TSO: 1, 0, -1 not said */
	int	max_queues;	/* the most queue sets the driver takes (isc_nrxqsets_max), -1 */
	int	hw_queues;	/* 1 the hardware sets the count at attach, 0 iflib/the driver
				   does (an override up to max_queues is clamped), -1 not said */
	int	queue_override;	/* 1 an iflib queue override above what the driver takes is
				   clamped (isc_nrxqsets_max set at attach_pre from what it can
				   allocate), 0 it can overrun (axgbe), -1 not said */
	char	*queues_source;	/* where the queue facts were read (file:line, version) */
	char	*source;	/* where those facts were read, "; "-joined */
	int	line;
};

struct kb_drivers {
	struct kb_driver *d;
	size_t	n;
};

int	 kb_drivers_parse(const char *file, const char *text, size_t len, struct kb_drivers **,
	    char **cause);
/* Loads every NAME.drivers file of dir (NULL = util_share_dir()/knobs/drivers). */
int	 kb_drivers_load(const char *dir, struct kb_drivers **, char **cause);
void	 kb_drivers_free(struct kb_drivers *);
/* The driver named name ("em", for hw.em.* knobs) on os, or NULL. */
const struct kb_driver *kb_driver_named(const struct kb_drivers *, const char *os,
	    const char *name);
/*
 * The driver of a NIC: the first stanza of os whose interfaces hold the NIC's driver
 * field or its name without the unit number (igb0 -> em). NULL when none does.
 */
const struct kb_driver *kb_driver_for_nic(const struct kb_drivers *, const char *os,
	    const struct kb_nic *);
/*
 * The rx descriptors a NIC uses: what it reports, else its iflib driver's default
 * (override_nrxds 0 = isc_nrxd_default); -1 unknown. drv may be NULL.
 */
int	 kb_nic_rx_ring(const struct kb_nic *, const struct kb_driver *drv);
/* Whether driver d's ports include one of the NIC's (driver field or name letters). */
bool	 kb_driver_serves(const struct kb_driver *, const char *ifname, const char *driver);

/* Knob name prefixes per OS (share/knobs/os.prefixes): os[i] owns names starting with prefix[i]. */
struct kb_prefixes {
	char	**os;
	char	**prefix;
	size_t	n;
};

int	 kb_prefixes_parse(const char *file, const char *text, size_t len, struct kb_prefixes **,
	    char **cause);
void	 kb_prefixes_free(struct kb_prefixes *);
/* Whether name starts with one of os's prefixes. */
bool	 kb_prefix_is(const struct kb_prefixes *, const char *name, const char *os);

/* What kb_load read besides the knobs: share/knobs/drivers and share/knobs/os.prefixes. */
const struct kb_drivers *kb_get_drivers(const struct kb *);

/* share/knobs/drivers/freebsd.hints: the hint leaves drivers read (kb/hints.c). */
struct kb_hints;
int	 kb_hints_parse(const char *file, const char *text, size_t len, struct kb_hints **,
	    char **cause);
void	 kb_hints_free(struct kb_hints *);
int	 kb_hint_leaf(const struct kb_hints *, const char *leaf, const char **near,
	    const char **where);
const char *kb_hints_tree(const struct kb_hints *);
const struct kb_hints *kb_get_hints(const struct kb *);
/* The FreeBSD base kernel module names (drivers/freebsd.modules), in kb_hints form. */
const struct kb_hints *kb_get_modules(const struct kb *);
const struct kb_prefixes *kb_get_prefixes(const struct kb *);

struct kb_rule {
	char	*knob;		/* may hold {placeholders} */
	char	*os;		/* platforms, white-space separated; NULL = all */
	char	*when;		/* condition or NULL */
	char	*value;		/* NULL for a "not advised" note */
	int	 certainty;	/* enum kb_certainty */
	char	*reason;
	char	*source;	/* may hold {placeholders} */
	bool	 per_nic;	/* "for: nic": tried once for every NIC */
	char	*nic_state;	/* "lro" | "tso": the NIC's state is the current value */
	int	 line;
};

struct kb_rules {
	struct kb_rule *r;
	size_t	n;
};

/* What a condition and the placeholders see. */
struct kb_rule_ctx {
	const struct kb_system *sys;
	const char *os;		/* platform */
	enum kb_goal goal;
	enum kb_role role;
	int	log2ncpu;
	int	rssbits;	/* kb_rss_bits(ncpu) */
	const char *cpumask;	/* hex mask of all CPUs */
	long	maxspeed;	/* fastest NIC link, Mbit/s, 0 unknown */
	int	maxring;	/* largest NIC rx ring, 0 unknown */
	const struct kb_drivers *drivers;	/* share/knobs/drivers */
	/* per-NIC rules: the NIC, its driver's facts (or NULL) */
	const struct kb_nic *nic;
	const struct kb_driver *drv;
};

int	 kb_rules_parse(const char *file, const char *text, size_t len, struct kb_rules **,
	    char **cause);
int	 kb_rules_load(const char *path, struct kb_rules **, char **cause);
void	 kb_rules_free(struct kb_rules *);
/*
 * 1 and the expanded name, value (NULL for a note), reason and source (malloc'd; source
 * may be NULL: not wanted) when the rule applies, else 0. A per-NIC rule needs c->nic.
 */
int	 kb_rule_eval(const struct kb_rule *, const struct kb_rule_ctx *, char **name, char **value,
	    char **reason, char **source);

/*
 * A knob's boot-value lines: "FROM -> EXPR [when COND]", EXPR and COND in the language
 * of the advice rules (ncpu, ncores, rssbits, log2ncpu...): while the knob holds FROM
 * the kernel sets EXPR at boot (net.inet.rss.bits: "0 -> rssbits when ncpu > 1").
 * 1 with *v, and in why what EXPR depends on ("for 6 CPUs", or ""), when a line
 * applies to value on c's system; else 0.
 */
int	 kb_boot_value(const struct kb_knob *, const char *value, const struct kb_rule_ctx *c,
	    long long *v, char *why, size_t len);
/*
 * Why a boot-value line is bad (malloc'd), or NULL with *from its VALUE (malloc'd), for
 * the knob's own value check.
 */
char	*kb_boot_value_problem(const char *line, char **from);

#endif
