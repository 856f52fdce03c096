/* Shim: FreeBSD's <net/if_dl.h> (link-level sockaddr). */
#ifndef SHIM_NET_IF_DL_H
#define SHIM_NET_IF_DL_H

#include <sys/types.h>

#ifndef AF_LINK
#define AF_LINK		18
#endif

struct sockaddr_dl {
	u_char	sdl_len;
	u_char	sdl_family;
	u_short	sdl_index;
	u_char	sdl_type;
	u_char	sdl_nlen;
	u_char	sdl_alen;
	u_char	sdl_slen;
	char	sdl_data[46];
};

#define LLADDR(s)	((char *)((s)->sdl_data + (s)->sdl_nlen))

#endif
