/* Shim: the parts of FreeBSD's <sys/sysctl.h> that src/os/freebsd.c uses. */
#ifndef SHIM_SYS_SYSCTL_H
#define SHIM_SYS_SYSCTL_H

#include <stddef.h>
#include <sys/types.h>

#define CTL_MAXNAME	24

#define CTLTYPE		0xf
#define CTLTYPE_NODE	1
#define CTLTYPE_INT	2
#define CTLTYPE_STRING	3
#define CTLTYPE_S64	4
#define CTLTYPE_OPAQUE	5
#define CTLTYPE_UINT	6
#define CTLTYPE_LONG	7
#define CTLTYPE_ULONG	8
#define CTLTYPE_U64	9
#define CTLTYPE_U8	0xa
#define CTLTYPE_U16	0xb
#define CTLTYPE_S8	0xc
#define CTLTYPE_S16	0xd
#define CTLTYPE_S32	0xe
#define CTLTYPE_U32	0xf

#define CTLFLAG_RD	0x80000000
#define CTLFLAG_WR	0x40000000
#define CTLFLAG_RW	(CTLFLAG_RD | CTLFLAG_WR)
#define CTLFLAG_TUN	0x00080000
#define CTLFLAG_RDTUN	(CTLFLAG_RD | CTLFLAG_TUN)
#define CTLFLAG_RWTUN	(CTLFLAG_RW | CTLFLAG_TUN)

int	sysctl(const int *, u_int, void *, size_t *, const void *, size_t);
int	sysctlbyname(const char *, void *, size_t *, const void *, size_t);
int	sysctlnametomib(const char *, int *, size_t *);

#endif
