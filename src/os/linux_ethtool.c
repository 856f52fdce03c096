/*
 * ethtool ioctls (SIOCETHTOOL): legacy offload flags, features by their
 * ethtool -k name.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <linux/ethtool.h>
#include <linux/sockios.h>

#include "os/os_impl.h"
#include "os/linux_impl.h"
#include "util/util.h"

int
linux_ethtool(const char *ifname, void *data, int *err)
{
	struct ifreq ifr;
	int fd, rc;

	if ((fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1) {
		*err = errno;
		return -1;
	}
	memset(&ifr, 0, sizeof ifr);
	os_strlcpy(ifr.ifr_name, ifname, sizeof ifr.ifr_name);
	ifr.ifr_data = data;
	rc = ioctl(fd, SIOCETHTOOL, &ifr);
	*err = errno;
	close(fd);
	return rc;
}

int
linux_ethtool_sset_len(const char *ifname, unsigned int set, uint32_t *len, int *err)
{
	/*
	 * struct ethtool_sset_info ends in a flexible array (one uint32_t per set
	 * asked for), so it cannot be a member of a struct with room after it.
	 */
	uint64_t buf[(sizeof(struct ethtool_sset_info) + sizeof(uint32_t) + 7) / 8];
	struct ethtool_sset_info *info = (struct ethtool_sset_info *)(void *)buf;

	memset(buf, 0, sizeof buf);
	info->cmd = ETHTOOL_GSSET_INFO;
	info->sset_mask = 1ULL << set;
	if (linux_ethtool(ifname, info, err) != 0)
		return -1;
	if ((info->sset_mask & (1ULL << set)) == 0) {
		*err = EOPNOTSUPP;
		return -1;
	}
	*len = info->data[0];
	return 0;
}

int
linux_ifioctl(const char *ifname, unsigned long req, struct ifreq *ifr, int *err)
{
	int fd, rc;

	if ((fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) == -1) {
		*err = errno;
		return -1;
	}
	os_strlcpy(ifr->ifr_name, ifname, sizeof ifr->ifr_name);
	rc = ioctl(fd, req, ifr);
	*err = errno;
	close(fd);
	return rc;
}

int
linux_if_exists(const char *ifname)
{
	return if_nametoindex(ifname) != 0;
}

static const struct offload offloads[] = {
	{ "gro", ETHTOOL_GGRO, ETHTOOL_SGRO, 0 },
	{ "tso", ETHTOOL_GTSO, ETHTOOL_STSO, 0 },
	{ "gso", ETHTOOL_GGSO, ETHTOOL_SGSO, 0 },
	{ "rxcsum", ETHTOOL_GRXCSUM, ETHTOOL_SRXCSUM, 0 },
	{ "txcsum", ETHTOOL_GTXCSUM, ETHTOOL_STXCSUM, 0 },
	{ "sg", ETHTOOL_GSG, ETHTOOL_SSG, 0 },
	{ "lro", 0, 0, ETH_FLAG_LRO },
	{ "rxhash", 0, 0, ETH_FLAG_RXHASH },
	{ "rxvlan", 0, 0, ETH_FLAG_RXVLAN },
	{ "txvlan", 0, 0, ETH_FLAG_TXVLAN },
	{ "ntuple", 0, 0, ETH_FLAG_NTUPLE },
};

const struct offload *
linux_find_offload(const char *s)
{
	size_t i;

	for (i = 0; i < nitems(offloads); i++)
		if (strcmp(offloads[i].name, s) == 0)
			return &offloads[i];
	return NULL;
}

int
linux_offload_get(const char *ifname, const struct offload *o, int *on, int *err)
{
	struct ethtool_value ev;

	memset(&ev, 0, sizeof ev);
	ev.cmd = o->gcmd != 0 ? o->gcmd : ETHTOOL_GFLAGS;
	if (linux_ethtool(ifname, &ev, err) != 0)
		return -1;
	*on = o->gcmd != 0 ? ev.data != 0 : (ev.data & o->flag) != 0;
	return 0;
}

int
linux_offload_set(const char *ifname, const struct offload *o, int on, int *err)
{
	struct ethtool_value ev;

	memset(&ev, 0, sizeof ev);
	if (o->gcmd != 0) {
		ev.cmd = o->scmd;
		ev.data = (uint32_t)on;
		return linux_ethtool(ifname, &ev, err);
	}
	ev.cmd = ETHTOOL_GFLAGS;
	if (linux_ethtool(ifname, &ev, err) != 0)
		return -1;
	ev.cmd = ETHTOOL_SFLAGS;
	if (on)
		ev.data |= o->flag;
	else
		ev.data &= ~o->flag;
	return linux_ethtool(ifname, &ev, err);
}

/*
 * Features by their ethtool -k name (rx-udp-gro-forwarding, rx-gro-list,
 * tx-udp-segmentation...): the string set ETH_SS_FEATURES gives each name its
 * bit, ETHTOOL_GFEATURES / SFEATURES read and write the bits. The legacy
 * commands above know only a dozen of them.
 */
struct feature {
	uint32_t	 bit;
	uint32_t	 words;		/* size of the feature bitmap in 32-bit words */
};

static int
feature_find(const char *ifname, const char *fname, struct feature *f, int *err)
{
	struct ethtool_gstrings *gs;
	uint32_t n, i;
	int rc = -1;

	if (linux_ethtool_sset_len(ifname, ETH_SS_FEATURES, &n, err) != 0)
		return -1;
	if (n == 0 || n > 4096) {
		*err = EOPNOTSUPP;
		return -1;
	}
	gs = xcalloc(1, sizeof *gs + (size_t)n * ETH_GSTRING_LEN);
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_FEATURES;
	gs->len = n;
	if (linux_ethtool(ifname, gs, err) != 0)
		goto out;
	*err = ENOENT;
	for (i = 0; i < n && i < gs->len; i++) {
		const char *name = (const char *)gs->data + (size_t)i * ETH_GSTRING_LEN;

		if (strncmp(name, fname, ETH_GSTRING_LEN) == 0 && strlen(fname) < ETH_GSTRING_LEN) {
			f->bit = i;
			f->words = (n + 31) / 32;
			rc = 0;
			break;
		}
	}
out:
	free(gs);
	return rc;
}

/* The feature's block of GFEATURES: available, requested, active, never_changed. */
static int
feature_block(const char *ifname, const struct feature *f, struct ethtool_get_features_block *b,
    int *err)
{
	struct ethtool_gfeatures *g;
	int rc;

	g = xcalloc(1, sizeof *g + f->words * sizeof g->features[0]);
	g->cmd = ETHTOOL_GFEATURES;
	g->size = f->words;
	if ((rc = linux_ethtool(ifname, g, err)) == 0)
		*b = g->features[f->bit / 32];
	free(g);
	return rc;
}

int
linux_feature_get(const char *ifname, const char *fname, int *on, int *err)
{
	struct feature f;
	struct ethtool_get_features_block b;

	if (feature_find(ifname, fname, &f, err) != 0 || feature_block(ifname, &f, &b, err) != 0)
		return -1;
	*on = (b.active & (1U << (f.bit % 32))) != 0;
	return 0;
}

/* 0, or -1 with *err: EOPNOTSUPP when the driver has it fixed. */
int
linux_feature_set(const char *ifname, const char *fname, int on, int *err)
{
	struct feature f;
	struct ethtool_get_features_block b;
	struct ethtool_sfeatures *sf;
	uint32_t m;
	int rc;

	if (feature_find(ifname, fname, &f, err) != 0 || feature_block(ifname, &f, &b, err) != 0)
		return -1;
	m = 1U << (f.bit % 32);
	if (((b.active & m) != 0) == (on != 0))
		return 0;
	if ((b.available & m) == 0 || (b.never_changed & m) != 0) {
		*err = EOPNOTSUPP;
		return -1;
	}
	sf = xcalloc(1, sizeof *sf + f.words * sizeof sf->features[0]);
	sf->cmd = ETHTOOL_SFEATURES;
	sf->size = f.words;
	sf->features[f.bit / 32].valid = m;
	sf->features[f.bit / 32].requested = on ? m : 0;
	rc = linux_ethtool(ifname, sf, err);
	free(sf);
	/* A positive return says some features were changed or refused: check below. */
	return rc < 0 ? -1 : 0;
}
