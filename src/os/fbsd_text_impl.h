/* Internals of the text parsers shared by their files (src/os/fbsd_text*.c only). */
#ifndef NTUNE_OS_FBSD_TEXT_IMPL_H
#define NTUNE_OS_FBSD_TEXT_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "os/os.h"

struct pcidev {
	char	name[OS_NAME_MAX];	/* ix0, or none12 */
	char	sel[OS_NAME_MAX];	/* pci0:21:0:0 */
	char	vendor_id[8], device_id[8];
	char	vendor[OS_TEXT_MAX], device[OS_TEXT_MAX];
	char	cls[32];
	int	network;
};

struct vmirq {
	char	 name[OS_NAME_MAX];	/* "irq264: ix0:rxq0" as vmstat -i prints it */
	char	 desc[OS_NAME_MAX];	/* "ix0:rxq0" */
	int	 irq;
	uint64_t total;
};

struct ifc {
	char	 name[OS_NAME_MAX];
	int	 mtu, up, have_flags;
	char	 mac[24];
	char	 options[OS_TEXT_MAX];
	long	 speed;
	int	 counters;
	struct os_if_counters c;
};

struct dnic {
	char	name[OS_NAME_MAX];
	char	desc[OS_TEXT_MAX];
	int	rxq, txq, rxd, txd;
	char	mac[24];
};

struct fbsd_text {
	json_t		*sysctls;
	json_t		*errors;
	struct pcidev	*pci;
	size_t		 npci;
	struct vmirq	*irq;
	size_t		 nirq;
	struct ifc	*ifs;
	size_t		 nifs;
	struct dnic	*dn;
	size_t		 ndn;
	char		 cpu_model[OS_TEXT_MAX];
	char		 os_release[OS_TEXT_MAX];
	int		 d_ncpu, d_pkgs, d_cores, d_threads;
	double		(*load)[5];
	size_t		 nload;
	int		 load_complete;
	char		*topology;
	char		 topology_from[OS_TEXT_MAX];
	struct irqmask {
		int	 irq;
		char	 cpus[OS_NAME_MAX];
	}		*masks;		/* cpuset -g -x IRQ */
	size_t		 nmasks;
	struct lnic {
		char	 name[OS_NAME_MAX];
		char	 driver[OS_NAME_MAX], version[OS_NAME_MAX], firmware[OS_TEXT_MAX];
		char	 bus[OS_NAME_MAX];
		int	 ch[2][4];	/* [max, current][rx, tx, other, combined] */
		int	 ring[2][2];	/* [max, current][rx, tx] */
	}		*lnics;
	size_t		 nlnics;
	struct os_irq	*lirqs;		/* /proc/interrupts rows */
	size_t		 nlirqs;
	size_t		 lirq_ncpu;
	char		 kinds[256];
};

/* fbsd_text.c */
void	 fbsd_text_kind(struct fbsd_text *t, const char *k);
void	 fbsd_text_error(struct fbsd_text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
const char	*fbsd_text_value(struct fbsd_text *t, const char *name);
long	 fbsd_text_value_long(struct fbsd_text *t, const char *name, long def);
int	 fbsd_text_sysctl_line(const char *line, char *name, size_t nlen, const char **value);
int	 fbsd_text_conf_line(const char *line);
int	 fbsd_text_is_devname(const char *s, size_t n);
/* Replaces bytes that are not valid UTF-8 (JSON strings must be) with '?', in place. */
void	 fbsd_text_utf8_clean(unsigned char *);
int	 fbsd_text_two_ints(const char *line, uint64_t *a, uint64_t *b, size_t *start);

/* fbsd_text_freebsd.c */
int	 fbsd_text_pciconf_entry(struct fbsd_text *t, const char *line);
int	 fbsd_text_pciconf_prop(struct fbsd_text *t, const char *line);
int	 fbsd_text_ifconfig_head(struct fbsd_text *t, const char *line);
int	 fbsd_text_ifconfig_prop(struct fbsd_text *t, const char *line);
int	 fbsd_text_vmstat_line(struct fbsd_text *t, const char *line, int in_vmstat, int *cut);
int	 fbsd_text_top_line(struct fbsd_text *t, const char *line, int *cut);
int	 fbsd_text_netstat_i_row(struct fbsd_text *t, const char *line);
int	 fbsd_text_netstat_q_row(struct fbsd_text *t, const char *line);
int	 fbsd_text_cpuset_line(struct fbsd_text *t, const char *line);
int	 fbsd_text_dmesg_line(struct fbsd_text *t, const char *line);

/* fbsd_text_linux.c */
int	 fbsd_text_linux_line(const char *line);
int	 fbsd_text_is_linux(const char *text);
void	 fbsd_text_linux_file(struct fbsd_text *t, char *text, const char *path);
int	 fbsd_text_irq_ifname(const char *desc, char *name, size_t len, int *index,
    char *qkind, size_t klen);
void	 fbsd_text_linux_nic(struct fbsd_text *t, const char *name, struct os_nic *nic);

/* fbsd_text_doc.c */
int	 fbsd_text_is_nic_driver(const char *drv);

#endif
