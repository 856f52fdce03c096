/* Shim: the parts of FreeBSD's <sys/cpuset.h> (and cpuset(2)) that src/os/freebsd.c uses. */
#ifndef SHIM_SYS_CPUSET_H
#define SHIM_SYS_CPUSET_H

#include <sys/types.h>

#define CPU_SETSIZE_SHIM	256
typedef struct {
	unsigned long	__bits[CPU_SETSIZE_SHIM / (8 * sizeof(unsigned long))];
} cpuset_t;
#ifndef CPU_SETSIZE
#define CPU_SETSIZE		CPU_SETSIZE_SHIM
#endif
#ifndef CPU_ISSET
#define CPU_ISSET(n, p)	((((p)->__bits[(n) / (8 * sizeof(unsigned long))]) >> \
			    ((n) % (8 * sizeof(unsigned long)))) & 1)
#endif

typedef int	cpulevel_t;
typedef int	cpuwhich_t;
#define CPU_LEVEL_WHICH	3
#define CPU_WHICH_IRQ	7

int	cpuset_getaffinity(cpulevel_t, cpuwhich_t, id_t, size_t, cpuset_t *);

#endif
