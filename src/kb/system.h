/* A struct kb_system filled from the platform layer, with the storage it points to. */
#ifndef NTUNE_KB_SYSTEM_H
#define NTUNE_KB_SYSTEM_H

#include "kb/kb.h"

struct os_ctx;

struct kb_sysinfo {
	struct kb_system sys;
	char	*version;
	struct kb_nic *nics;
	size_t	nnics;
	struct kb_profile **others;
	size_t	nothers;
};

/* Reads system, CPUs, NICs of os; sys.get reads tunables through os (keep os open). */
int	 kb_system_from_os(struct os_ctx *, struct kb_sysinfo *, char **cause);
/* Adds the boot files of a live system under root (sysctl.d..., loader.conf...). */
void	 kb_system_boot_files(struct kb_sysinfo *, enum os_platform, const char *root);
/* Adds the "boot_files" [{"path","text"}] of a JSON snapshot. */
int	 kb_system_snapshot_files(struct kb_sysinfo *, const char *snapshot, char **cause);
void	 kb_sysinfo_free(struct kb_sysinfo *);

/*
 * The system a command looks at: the snapshot files when given (n > 0), else
 * this machine when it runs os (OS_PLATFORM_UNKNOWN = any). On success *osp is the open
 * backend (NULL when there is none: checking a FreeBSD profile on Linux) and si
 * is filled; the caller closes with kb_target_close.
 */
int	 kb_target_open(const char *const *from, size_t n, enum os_platform os, const char *root,
	    struct os_ctx **osp, struct kb_sysinfo *si, char **cause);
void	 kb_target_close(struct os_ctx *, struct kb_sysinfo *);
/* No system to compare with: only os (OS_PLATFORM_UNKNOWN = Linux) and version (or NULL). */
void	 kb_target_none(enum os_platform os, const char *version, struct kb_sysinfo *si);

#endif
