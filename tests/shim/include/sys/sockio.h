/* Shim: the FreeBSD <sys/sockio.h> requests src/os/freebsd.c uses. */
#ifndef SHIM_SYS_SOCKIO_H
#define SHIM_SYS_SOCKIO_H

#include <sys/ioctl.h>

#define SIOCSIFCAP	0x8020691e
#define SIOCGIFCAP	0xc020691f
#ifndef SIOCGIFMTU
#define SIOCGIFMTU	0xc0206933
#endif
#ifndef SIOCSIFMTU
#define SIOCSIFMTU	0x80206934
#endif

#endif
