/* Shim: the host's <net/if.h> plus FreeBSD's struct if_data, IFCAP_* and ifr_*cap. */
#ifndef SHIM_NET_IF_H
#define SHIM_NET_IF_H

#include_next <net/if.h>
#include <stdint.h>

struct if_data {
	uint8_t		ifi_type;
	uint8_t		ifi_physical;
	uint8_t		ifi_addrlen;
	uint8_t		ifi_hdrlen;
	uint8_t		ifi_link_state;
	uint8_t		ifi_vhid;
	uint16_t	ifi_datalen;
	uint32_t	ifi_mtu;
	uint32_t	ifi_metric;
	uint64_t	ifi_baudrate;
	uint64_t	ifi_ipackets;
	uint64_t	ifi_ierrors;
	uint64_t	ifi_opackets;
	uint64_t	ifi_oerrors;
	uint64_t	ifi_collisions;
	uint64_t	ifi_ibytes;
	uint64_t	ifi_obytes;
	uint64_t	ifi_imcasts;
	uint64_t	ifi_omcasts;
	uint64_t	ifi_iqdrops;
	uint64_t	ifi_oqdrops;
	uint64_t	ifi_noproto;
	uint64_t	ifi_hwassist;
};

#define IFCAP_RXCSUM		0x00001
#define IFCAP_TXCSUM		0x00002
#define IFCAP_VLAN_MTU		0x00008
#define IFCAP_VLAN_HWTAGGING	0x00010
#define IFCAP_TSO4		0x00100
#define IFCAP_TSO6		0x00200
#define IFCAP_LRO		0x00400

/* FreeBSD's struct ifreq has ifru_cap[2]; Linux's union has an int we can name. */
#define ifr_reqcap	ifr_ifru.ifru_ivalue
#define ifr_curcap	ifr_ifru.ifru_ivalue

#endif
