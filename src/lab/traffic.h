/*
 * Test traffic: the generator (gen.c), the sink (sink.c), the frame layout they
 * share (frame.c) and next-hop resolution over rtnetlink (nl.c).
 *
 * A test frame is Ethernet + IPv4/IPv6 + UDP + an 18-byte payload:
 *   u16 magic 'N''T' | u16 stream (run id << 8 | thread) | u48 sequence | u64 send time (ns, CLOCK_REALTIME)
 * all big-endian, so a 64-byte frame (60 + FCS) carries it over IPv4.
 */
#ifndef NTUNE_TRAFFIC_H
#define NTUNE_TRAFFIC_H

#include <sys/types.h>
#include <netinet/in.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LAB_MAGIC		0x4e54
#define LAB_PAYLOAD_LEN		18
#define LAB_ETH_LEN		14
#define LAB_FCS_LEN		4
#define LAB_FRAME_MAX		9018	/* jumbo, with FCS */
#define LAB_UDP_DPORT		9	/* discard */
#define LAB_UDP_SPORT		49152	/* first source port; flows count up from here */
#define LAB_MAX_THREADS		64

/* The RFC 2544 frame sizes (bytes, Ethernet header through FCS). */
extern const int lab_rfc2544_sizes[7];

union lab_addr {
	struct in_addr	v4;
	struct in6_addr	v6;
};

/* Everything needed to build frames. */
struct lab_flowspec {
	int		family;		/* AF_INET or AF_INET6 */
	union lab_addr	src, dst;
	uint8_t		src_mac[6], dst_mac[6];
	int		size;		/* frame size with FCS */
	int		flows;		/* source ports LAB_UDP_SPORT .. + flows - 1 */
	uint16_t	dport;
};

/* Smallest frame (with FCS) that holds the payload for family. */
int	 lab_frame_min(int family);
/* Writes the template frame (size - FCS bytes) for flow 0, sequence 0; returns its length. */
size_t	 lab_frame_build(const struct lab_flowspec *, uint8_t *buf);

/* Per-packet rewrite state: offsets and the checksum of the template. */
struct lab_frame_tpl {
	size_t		len;		/* frame bytes without FCS */
	size_t		udp_off;	/* offset of the UDP header */
	size_t		pay_off;	/* offset of the payload */
	uint32_t	csum_base;	/* UDP checksum sum of the template without sport/payload */
};
void	 lab_frame_tpl_init(struct lab_frame_tpl *, const struct lab_flowspec *, const uint8_t *frame);
/* Rewrites source port, stream, sequence, timestamp and the UDP checksum in frame. */
void	 lab_frame_stamp(const struct lab_frame_tpl *, uint8_t *frame, uint16_t sport,
	    uint16_t stream, uint64_t seq, uint64_t ts_ns);

/* What the sink decodes from a received frame. */
struct lab_frame_info {
	int		family;
	uint16_t	sport, dport;
	uint16_t	stream;
	uint64_t	seq;
	uint64_t	ts_ns;
	size_t		len;		/* frame length without FCS */
};
/* 0 and fills info when frame (without FCS) is a test frame, -1 otherwise. */
int	 lab_frame_parse(const uint8_t *frame, size_t len, struct lab_frame_info *);

/*
 * Next hop towards dst: outgoing interface, our source address and MAC, the
 * neighbour's MAC (from the neighbour table; static in the lab). Runs in the
 * current network namespace. Returns 1, with all but dst_mac filled in, when
 * there is a route but no neighbour entry (the caller may have the MAC).
 */
int	 lab_nexthop(int family, const union lab_addr *dst, char *ifname, size_t iflen,
	    union lab_addr *src, uint8_t src_mac[6], uint8_t dst_mac[6], char **cause);
int	 lab_parse_mac(const char *, uint8_t mac[6]);
uint64_t lab_realtime_ns(void);
/*
 * Appends to v[*n] the rate of the second that ended at now (CLOCK_MONOTONIC ns)
 * and was due to end at next: packets over the time since next - 1 s, since the
 * interval may run a little longer than a second.
 */
void	 lab_per_second_add(double **v, size_t *n, uint64_t packets, uint64_t now, uint64_t next);
/* "  1.234 Mpps   632.000 Mbit/s" */
void	 lab_fmt_rate(char *buf, size_t len, double pps, double bps);

/* The generator. */
enum gen_method { GEN_AUTO, GEN_RING, GEN_MMSG };

struct gen_second {
	int		second;		/* 1, 2, ... */
	double		elapsed;	/* seconds since start */
	uint64_t	packets, bytes;	/* in this interval */
	uint64_t	retries;	/* full-queue (EAGAIN/ENOBUFS) retries in this interval */
};

struct gen_config {
	char		ifname[16];	/* IF_NAMESIZE */
	struct lab_flowspec spec;
	double		rate;		/* packets/s in total, 0: as fast as possible */
	double		duration;	/* seconds, 0: until count (or forever) */
	uint64_t	count;		/* packets in total, 0: until duration */
	int		threads;
	int		cpus[LAB_MAX_THREADS];	/* CPU for each thread, -1: not pinned */
	enum gen_method	method;
	int		ring_frames;	/* per thread, 0: default */
	int		batch;		/* frames per sendto(), 0: default (256); small keeps latency low */
	volatile int	*stop;		/* set non-zero to stop early (signal handler) */
	/* Called once a second from the main thread. */
	void		(*progress)(const struct gen_second *, void *);
	void		*arg;
};

struct gen_result {
	double		duration_s;
	uint64_t	packets, bytes;	/* bytes count frames with FCS */
	uint64_t	retries;	/* EAGAIN/ENOBUFS seen and retried */
	uint64_t	errors;		/* other send errors (frames dropped) */
	double		pps, bps;
	const char	*method;	/* "tx_ring" or "sendmmsg" */
	double		*per_second;	/* pps per whole second, malloc'd */
	size_t		nper_second;
};

void	 gen_config_init(struct gen_config *);
int	 gen_run(const struct gen_config *, struct gen_result *, char **cause);
void	 gen_result_free(struct gen_result *);

/*
 * Sequence tracking of one stream: frames seen, duplicates (a sequence number
 * seen again within the last LAB_SEQ_WINDOW), reordered (arriving after a
 * later one); lost = max - base + 1 - (count - dups).
 */
#define LAB_SEQ_WINDOW	8192
struct lab_seq {
	bool		seen;
	uint64_t	base, max, count, dups, reordered;
	uint64_t	bits[LAB_SEQ_WINDOW / 64];
};
void	 lab_seq_update(struct lab_seq *, uint64_t seq);

/* The sink. */
struct sink_flow {
	int		family;
	uint16_t	sport, dport;
	uint64_t	packets, bytes;
};

struct sink_second {
	int		second;
	double		elapsed;
	uint64_t	packets, bytes, lost;
};

struct sink_config {
	char		ifname[16];	/* IF_NAMESIZE */
	double		duration;	/* seconds, 0: until stop/count */
	uint64_t	count;		/* stop after this many test frames, 0: no limit */
	double		idle_stop;	/* stop this long after traffic ends, 0: never */
	double		wait_first;	/* give up when nothing arrives for this long, 0: never */
	int		threads;	/* fanout members */
	volatile int	*stop;
	void		(*on_ready)(void *);	/* called once the sockets receive */
	void		(*progress)(const struct sink_second *, void *);
	void		*arg;
};

struct sink_result {
	double		duration_s;	/* first to last test frame, or run time if none */
	double		run_s;
	uint64_t	packets, bytes;	/* test frames, bytes with FCS */
	uint64_t	other;		/* frames that were not test frames */
	uint64_t	lost, reordered, duplicates;
	uint64_t	ring_drops;	/* frames the kernel could not put in our ring */
	double		pps, bps;
	double		lat_min, lat_avg, lat_max, lat_p50, lat_p90, lat_p99; /* microseconds */
	uint64_t	lat_samples;
	struct sink_flow *flows;
	size_t		nflows;
	double		*per_second;
	size_t		nper_second;
};

void	 sink_config_init(struct sink_config *);
int	 sink_run(const struct sink_config *, struct sink_result *, char **cause);
void	 sink_result_free(struct sink_result *);

#endif
