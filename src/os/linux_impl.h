/* Internals of the Linux backend shared by its files (src/os/linux*.c only). */
#ifndef NTUNE_OS_LINUX_IMPL_H
#define NTUNE_OS_LINUX_IMPL_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "os/os_impl.h"

struct offload {
	const char *name;
	uint32_t gcmd, scmd;	/* legacy one-feature commands, 0 = a GFLAGS bit */
	uint32_t flag;
};

struct nic_irq {
	int	 irq;
	char	 desc[OS_NAME_MAX];
	char	 kind[8];	/* "rx", "tx", "rxtx"; "" = not a queue (config, misc...) */
	int	 index;		/* queue number, -1 */
	uint64_t total;
};

/* linux_util.c */
int	 linux_live(struct os_ctx *ctx);
void	 linux_rpath(struct os_ctx *ctx, char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int	 linux_readval(const char *path, char *buf, size_t len);
long	 linux_readlong(const char *path, long def);
int	 linux_writeval(const char *path, const char *value, char **cause);
const char	*linux_link_basename(const char *path, char *buf, size_t len);
int	 linux_parse_int(const char *s, long *v);
int	 linux_parse_onoff(const char *s);
/*
 * Values read one per queue, interrupt or thread, as one setting: the value when
 * they are all the same, else all of them space-separated (malloc'd; n > 0).
 */
char	*linux_join_values(char *const *v, size_t n);

/* linux_ethtool.c */
int	 linux_ethtool(const char *ifname, void *data, int *err);
/* The number of strings of ethtool string set `set` (ETH_SS_STATS...); -1 with *err if none. */
int	 linux_ethtool_sset_len(const char *ifname, unsigned int set, uint32_t *len, int *err);
int	 linux_ifioctl(const char *ifname, unsigned long req, struct ifreq *ifr, int *err);
int	 linux_if_exists(const char *ifname);
const struct offload	*linux_find_offload(const char *s);
int	 linux_offload_get(const char *ifname, const struct offload *o, int *on, int *err);
int	 linux_offload_set(const char *ifname, const struct offload *o, int on, int *err);
int	 linux_feature_get(const char *ifname, const char *fname, int *on, int *err);
int	 linux_feature_set(const char *ifname, const char *fname, int on, int *err);

/* linux_captured.c: a captured tree's ROOT/ntune/if/IF (what ethtool, tc, /proc said) */
bool	 linux_captured_has(struct os_ctx *ctx, const char *ifname);
/* The value of KEY ("ring.rx", "offload.gro", "qdisc"): 0, or -1 when the capture lacks it. */
int	 linux_captured_fact(struct os_ctx *ctx, const char *ifname, const char *key, char *buf,
    size_t len);
int	 linux_captured_int(struct os_ctx *ctx, const char *ifname, const char *key, int *v);
/* Why GROUP ("rings") was not read: 0 it was (or no capture), EOPNOTSUPP, or EIO + why. */
int	 linux_captured_failed(struct os_ctx *ctx, const char *ifname, const char *group, char *why,
    size_t len);

/* linux_irq.c */
size_t	 linux_nic_queue_irqs(struct os_ctx *ctx, const char *ifname, struct nic_irq **out);

/* linux_queues.c */
size_t	 linux_count_queues(struct os_ctx *ctx, const char *ifname, const char *dir);
int	 linux_sysfs_if_check(struct os_ctx *ctx, const char *ifname, char **cause);
int	 linux_queue_attr_get(struct os_ctx *ctx, const char *ifname, const char *dir, int queue,
    const char *attr, char **value, char **cause);
int	 linux_ncpu_online(struct os_ctx *ctx);
size_t	 linux_split_words(const char *s, char words[][256], size_t max);
int	 linux_queue_attr_set(struct os_ctx *ctx, const char *ifname, const char *dir, int queue,
    const char *attr, const char *value, int ismask, char **cause);

/* linux_qdisc.c */
int	 linux_qdisc_get(const char *ifname, char *kind, size_t len, char **cause);
int	 linux_qdisc_set(const char *ifname, const char *value, char **cause);

/* linux_affinity.c */
int	 linux_irq_affinity_get(struct os_ctx *ctx, const char *ifname, char **value,
    char **cause);
int	 linux_irq_affinity_set(struct os_ctx *ctx, const char *ifname, const char *value,
    char **cause);
int	 linux_napi_cpus_get(const char *ifname, char **value, char **cause);
int	 linux_napi_cpus_set(const char *ifname, const char *value, char **cause);

/* linux_if.c */
int	 linux_if_get(struct os_ctx *ctx, const char *name, char **value, char **cause);
int	 linux_if_set(struct os_ctx *ctx, const char *name, const char *value, char **cause);
/*
 * One setting of interface ifname by its row r (os/ifset.h); s is the setting as
 * written ("rx-3.rps_cpus", "offload.rx-gro-list"), name the whole knob for messages.
 */
int	 linux_ifset_get(struct os_ctx *, const char *ifname, const struct os_ifset *r,
	    const char *s, const char *name, char **value, char **cause);
int	 linux_ifset_set(struct os_ctx *, const char *ifname, const struct os_ifset *r,
	    const char *s, const char *name, const char *value, char **cause);

/* linux_sysctl.c */
int	 linux_governor_get(struct os_ctx *ctx, char **value, char **cause);
int	 linux_governor_set(struct os_ctx *ctx, const char *value, char **cause);
int	 linux_tunable_get(struct os_ctx *ctx, const char *name, char **value, char **cause);
int	 linux_tunable_set(struct os_ctx *ctx, const char *name, const char *value, char **cause);
int	 linux_tunable_kind(struct os_ctx *ctx, const char *name, enum os_tunable_kind *kind,
    char **cause);
int	 linux_tunable_list(struct os_ctx *ctx, const char *prefix,
    int (*fn)(const char *, const char *, void *), void *arg, char **cause);

/* linux_system.c */
int	 linux_system(struct os_ctx *ctx, struct os_system *sys, char **cause);
int	 linux_cpu(struct os_ctx *ctx, struct os_cpu *cpu, char **cause);

/* linux_nics.c */
int	 linux_nics(struct os_ctx *ctx, struct os_nic **out, size_t *nout, char **cause);

/* linux.c */
int	 linux_irqs(struct os_ctx *ctx, struct os_irq **out, size_t *nout, char **cause);

#endif
