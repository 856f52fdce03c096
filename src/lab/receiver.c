/*
 * The sink: AF_PACKET sockets with a TPACKET_V3 receive ring (blocks of
 * frames, one wake-up per block), joined in a fanout group when there is more
 * than one thread, and a one-instruction BPF filter that keeps only the first
 * 128 bytes of each frame. Test frames are counted per flow and per stream;
 * a stream's sequence numbers give loss, duplicates and reordering, and the
 * send time in the payload against the kernel's receive time gives latency.
 */
#include <sys/types.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lab/traffic.h"
#include "util/util.h"

#define SINK_BLOCK_SIZE	(1 << 20)
#define SINK_BLOCK_NR	32
#define SINK_SNAPLEN	128
#define LAT_SUB		32		/* histogram: sub-buckets per power of two */
#define LAT_BUCKETS	(64 * LAT_SUB)
#define FLOW_SLOTS	32768

struct flow_slot {
	uint64_t	key;		/* family << 32 | sport << 16 | dport, 0: empty */
	uint64_t	packets, bytes;
};

struct sink_worker {
	const struct sink_config *cfg;
	struct sink_state	*st;
	int			 idx;
	pthread_t		 tid;
	int			 fd;
	uint8_t			*ring;
	size_t			 ring_len;
	struct lab_seq		*streams[65536];
	struct flow_slot	*flows;
	uint64_t		 lat_hist[LAT_BUCKETS];
	uint64_t		 lat_n, lat_min, lat_max;
	double			 lat_sum;
	uint64_t		 first_ns, last_ns;	/* receive times of first/last test frame */
	_Atomic uint64_t	 packets, bytes, other;
	_Atomic uint64_t	 lost_pub;	/* expected - unique, published per block */
	uint64_t		 expected, unique;
	uint64_t		 flows_overflow;
	unsigned int		 cur;		/* next block to read */
};

struct sink_state {
	_Atomic int	stop;
};

void
sink_config_init(struct sink_config *c)
{
	memset(c, 0, sizeof(*c));
	c->threads = 1;
}

void
sink_result_free(struct sink_result *r)
{
	free(r->flows);
	free(r->per_second);
	r->flows = NULL;
	r->per_second = NULL;
}

static int
lat_bucket(uint64_t ns)
{
	int msb;

	if (ns < LAT_SUB)
		return (int)ns;
	msb = 63 - __builtin_clzll(ns);
	return (msb - 4) * LAT_SUB + (int)((ns >> (msb - 5)) & (LAT_SUB - 1));
}

/* The lower edge of a bucket, in ns. */
static double
lat_value(int b)
{
	int msb;

	if (b < LAT_SUB)
		return b;
	msb = b / LAT_SUB + 4;
	return (double)(((uint64_t)LAT_SUB + (uint64_t)(b % LAT_SUB)) << (msb - 5));
}

static void
flow_add(struct sink_worker *w, const struct lab_frame_info *fi, uint64_t bytes)
{
	uint64_t key = (uint64_t)(fi->family == AF_INET6 ? 6 : 4) << 32 | (uint64_t)fi->sport << 16 | fi->dport;
	uint32_t h = (uint32_t)((key * 0x9e3779b97f4a7c15ULL) >> 49) & (FLOW_SLOTS - 1);
	int probe;

	for (probe = 0; probe < 64; probe++, h = (h + 1) & (FLOW_SLOTS - 1)) {
		struct flow_slot *f = &w->flows[h];

		if (f->key == key || f->key == 0) {
			f->key = key;
			f->packets++;
			f->bytes += bytes;
			return;
		}
	}
	w->flows_overflow++;
}

static void
handle(struct sink_worker *w, const uint8_t *frame, size_t snap, size_t len, uint64_t rx_ns)
{
	struct lab_frame_info fi;
	struct lab_seq *s;
	uint64_t bytes = len + LAB_FCS_LEN, lat;

	if (lab_frame_parse(frame, snap, &fi) == -1) {
		atomic_fetch_add_explicit(&w->other, 1, memory_order_relaxed);
		return;
	}
	atomic_fetch_add_explicit(&w->packets, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&w->bytes, bytes, memory_order_relaxed);
	if (w->first_ns == 0)
		w->first_ns = rx_ns;
	w->last_ns = rx_ns;
	if ((s = w->streams[fi.stream]) == NULL)
		s = w->streams[fi.stream] = xcalloc(1, sizeof(*s));
	{
		uint64_t before = s->seen ? s->max - s->base + 1 : 0, dups = s->dups;

		lab_seq_update(s, fi.seq);
		w->expected += s->max - s->base + 1 - before;
		w->unique += 1 - (s->dups - dups);
	}
	flow_add(w, &fi, bytes);
	if (fi.ts_ns != 0 && rx_ns >= fi.ts_ns) {
		lat = rx_ns - fi.ts_ns;
		if (lat < 3600ULL * 1000000000ULL) {
			w->lat_hist[lat_bucket(lat)]++;
			if (w->lat_n == 0 || lat < w->lat_min)
				w->lat_min = lat;
			if (lat > w->lat_max)
				w->lat_max = lat;
			w->lat_sum += (double)lat;
			w->lat_n++;
		}
	}
}

static void
walk_block(struct sink_worker *w, struct tpacket_block_desc *bd)
{
	struct tpacket3_hdr *h = (struct tpacket3_hdr *)((uint8_t *)bd + bd->hdr.bh1.offset_to_first_pkt);
	uint32_t i, n = bd->hdr.bh1.num_pkts;

	for (i = 0; i < n; i++) {
		const struct sockaddr_ll *sll = (const struct sockaddr_ll *)((uint8_t *)h +
		    TPACKET_ALIGN(sizeof(struct tpacket3_hdr)));

		if (sll->sll_pkttype != PACKET_OUTGOING)
			handle(w, (uint8_t *)h + h->tp_mac, h->tp_snaplen, h->tp_len,
			    (uint64_t)h->tp_sec * 1000000000ULL + h->tp_nsec);
		h = (struct tpacket3_hdr *)((uint8_t *)h + h->tp_next_offset);
	}
}

static void *
worker_main(void *arg)
{
	struct sink_worker *w = arg;
	unsigned int cur = 0;

	while (!atomic_load_explicit(&w->st->stop, memory_order_relaxed)) {
		struct tpacket_block_desc *bd = (struct tpacket_block_desc *)(w->ring +
		    (size_t)cur * SINK_BLOCK_SIZE);

		if ((__atomic_load_n(&bd->hdr.bh1.block_status, __ATOMIC_ACQUIRE) & TP_STATUS_USER) == 0) {
			struct pollfd p = { w->fd, POLLIN | POLLERR, 0 };

			(void)poll(&p, 1, 50);
			continue;
		}
		walk_block(w, bd);
		__atomic_store_n(&bd->hdr.bh1.block_status, TP_STATUS_KERNEL, __ATOMIC_RELEASE);
		atomic_store_explicit(&w->lost_pub, w->expected > w->unique ? w->expected - w->unique : 0,
		    memory_order_relaxed);
		cur = (cur + 1) % SINK_BLOCK_NR;
	}
	w->cur = cur;
	return NULL;
}

static int
open_worker(struct sink_worker *w, int ifindex, int fanout_id, int nthreads, char **cause)
{
	struct sock_filter code[] = { BPF_STMT(BPF_RET | BPF_K, SINK_SNAPLEN) };
	struct sock_fprog prog = { 1, code };
	struct tpacket_req3 req;
	struct sockaddr_ll sll;
	int ver = TPACKET_V3, one = 1;

	if ((w->fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(ETH_P_ALL))) == -1) {
		util_cause(cause, "cannot open packet socket: %s%s", strerror(errno),
		    errno == EPERM ? " (needs root or CAP_NET_RAW)" : "");
		return -1;
	}
	(void)setsockopt(w->fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog));
	(void)setsockopt(w->fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one));
	if (setsockopt(w->fd, SOL_PACKET, PACKET_VERSION, &ver, sizeof(ver)) == -1) {
		util_cause(cause, "PACKET_VERSION: %s", strerror(errno));
		return -1;
	}
	memset(&req, 0, sizeof(req));
	req.tp_block_size = SINK_BLOCK_SIZE;
	req.tp_block_nr = SINK_BLOCK_NR;
	req.tp_frame_size = 2048;
	req.tp_frame_nr = (SINK_BLOCK_SIZE / 2048) * SINK_BLOCK_NR;
	req.tp_retire_blk_tov = 20;
	if (setsockopt(w->fd, SOL_PACKET, PACKET_RX_RING, &req, sizeof(req)) == -1) {
		util_cause(cause, "PACKET_RX_RING: %s", strerror(errno));
		return -1;
	}
	w->ring_len = (size_t)SINK_BLOCK_SIZE * SINK_BLOCK_NR;
	w->ring = mmap(NULL, w->ring_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, w->fd, 0);
	if (w->ring == MAP_FAILED) {
		w->ring = NULL;
		util_cause(cause, "mmap of the rx ring: %s", strerror(errno));
		return -1;
	}
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = ifindex;
	if (bind(w->fd, (struct sockaddr *)&sll, sizeof(sll)) == -1) {
		util_cause(cause, "cannot bind packet socket: %s", strerror(errno));
		return -1;
	}
	if (nthreads > 1) {
		int arg = fanout_id | PACKET_FANOUT_CPU << 16;

		if (setsockopt(w->fd, SOL_PACKET, PACKET_FANOUT, &arg, sizeof(arg)) == -1) {
			util_cause(cause, "PACKET_FANOUT: %s", strerror(errno));
			return -1;
		}
	}
	return 0;
}

static void
close_workers(struct sink_worker *w, int n)
{
	int i, k;

	for (i = 0; i < n; i++) {
		if (w[i].ring != NULL)
			munmap(w[i].ring, w[i].ring_len);
		if (w[i].fd != -1)
			close(w[i].fd);
		for (k = 0; k < 65536; k++)
			free(w[i].streams[k]);
		free(w[i].flows);
	}
	free(w);
}

static int
cmp_flow(const void *a, const void *b)
{
	const struct sink_flow *x = a, *y = b;

	if (x->family != y->family)
		return x->family - y->family;
	if (x->sport != y->sport)
		return x->sport - y->sport;
	return x->dport - y->dport;
}

static void
merge(struct sink_worker *w, int n, struct sink_result *r)
{
	uint64_t hist[LAT_BUCKETS], cum, first = 0, last = 0;
	double sum = 0;
	size_t cap = 0;
	int i, k, b;

	memset(hist, 0, sizeof(hist));
	for (k = 0; k < 65536; k++) {
		uint64_t base = UINT64_MAX, max = 0, count = 0, dups = 0, reord = 0;
		bool seen = false;

		for (i = 0; i < n; i++) {
			struct lab_seq *s = w[i].streams[k];

			if (s == NULL || !s->seen)
				continue;
			seen = true;
			if (s->base < base)
				base = s->base;
			if (s->max > max)
				max = s->max;
			count += s->count;
			dups += s->dups;
			reord += s->reordered;
		}
		if (!seen)
			continue;
		r->duplicates += dups;
		r->reordered += reord;
		if (max - base + 1 > count - dups)
			r->lost += max - base + 1 - (count - dups);
	}
	for (i = 0; i < n; i++) {
		r->packets += w[i].packets;
		r->bytes += w[i].bytes;
		r->other += w[i].other;
		if (w[i].first_ns != 0 && (first == 0 || w[i].first_ns < first))
			first = w[i].first_ns;
		if (w[i].last_ns > last)
			last = w[i].last_ns;
		for (b = 0; b < LAT_BUCKETS; b++)
			hist[b] += w[i].lat_hist[b];
		if (w[i].lat_n > 0) {
			if (r->lat_samples == 0 || w[i].lat_min / 1e3 < r->lat_min)
				r->lat_min = (double)w[i].lat_min / 1e3;
			if (w[i].lat_max / 1e3 > r->lat_max)
				r->lat_max = (double)w[i].lat_max / 1e3;
			r->lat_samples += w[i].lat_n;
			sum += w[i].lat_sum;
		}
		for (k = 0; k < FLOW_SLOTS; k++) {
			struct flow_slot *f = &w[i].flows[k];
			size_t j;

			if (f->key == 0)
				continue;
			for (j = 0; j < r->nflows; j++) {
				struct sink_flow *g = &r->flows[j];

				if (g->family == (f->key >> 32 == 6 ? AF_INET6 : AF_INET) &&
				    g->sport == (uint16_t)(f->key >> 16) && g->dport == (uint16_t)f->key)
					break;
			}
			if (j == r->nflows) {
				if (r->nflows == cap) {
					cap = cap ? cap * 2 : 64;
					r->flows = xreallocarray(r->flows, cap, sizeof(*r->flows));
				}
				r->flows[j].family = f->key >> 32 == 6 ? AF_INET6 : AF_INET;
				r->flows[j].sport = (uint16_t)(f->key >> 16);
				r->flows[j].dport = (uint16_t)f->key;
				r->flows[j].packets = r->flows[j].bytes = 0;
				r->nflows++;
			}
			r->flows[j].packets += f->packets;
			r->flows[j].bytes += f->bytes;
		}
	}
	if (r->nflows > 1)
		qsort(r->flows, r->nflows, sizeof(*r->flows), cmp_flow);
	if (r->lat_samples > 0) {
		double pct[3] = { 0.50, 0.90, 0.99 }, *out[3] = { &r->lat_p50, &r->lat_p90, &r->lat_p99 };
		int p = 0;

		r->lat_avg = sum / (double)r->lat_samples / 1e3;
		for (b = 0, cum = 0; b < LAT_BUCKETS && p < 3; b++) {
			cum += hist[b];
			while (p < 3 && (double)cum >= pct[p] * (double)r->lat_samples) {
				double v = lat_value(b) / 1e3;

				*out[p++] = v < r->lat_min ? r->lat_min : v > r->lat_max ? r->lat_max : v;
			}
		}
	}
	r->duration_s = r->run_s;
	if (r->packets > 1 && last > first)
		r->duration_s = (double)(last - first) / 1e9;
	r->pps = r->duration_s > 0 ? (double)r->packets / r->duration_s : 0;
	r->bps = r->duration_s > 0 ? (double)r->bytes * 8 / r->duration_s : 0;
}

/* Starts the worker threads; on failure stops and joins those already started. */
static int
start_workers(struct sink_worker *w, int n, struct sink_state *st, char **cause)
{
	int i, e;

	for (i = 0; i < n; i++) {
		if ((e = pthread_create(&w[i].tid, NULL, worker_main, &w[i])) != 0) {
			util_cause(cause, "pthread_create: %s", strerror(e));
			atomic_store(&st->stop, 1);
			while (--i >= 0)
				pthread_join(w[i].tid, NULL);
			return -1;
		}
	}
	return 0;
}

/* After the workers stopped: what is left in each ring, and the kernel's drop counts. */
static void
drain_rings(struct sink_worker *w, int n, struct sink_result *r)
{
	int i;

	for (i = 0; i < n; i++) {
		struct tpacket_stats_v3 ps;
		socklen_t len = sizeof(ps);

		/*
		 * What is left in the ring once traffic has stopped: whole blocks
		 * in order, then the block the kernel is still filling (its
		 * packet count grows as frames arrive, so it can be read now).
		 */
		{
			unsigned int b, cur = w[i].cur;

			for (b = 0; b < SINK_BLOCK_NR; b++, cur = (cur + 1) % SINK_BLOCK_NR) {
				struct tpacket_block_desc *bd = (struct tpacket_block_desc *)(w[i].ring +
				    (size_t)cur * SINK_BLOCK_SIZE);
				uint32_t bs = __atomic_load_n(&bd->hdr.bh1.block_status, __ATOMIC_ACQUIRE);

				if (bs & TP_STATUS_USER) {
					walk_block(&w[i], bd);
					bd->hdr.bh1.block_status = TP_STATUS_KERNEL;
					continue;
				}
				if (bd->hdr.bh1.num_pkts > 0 && bd->hdr.bh1.offset_to_first_pkt != 0)
					walk_block(&w[i], bd);
				break;
			}
		}
		if (getsockopt(w[i].fd, SOL_PACKET, PACKET_STATISTICS, &ps, &len) == 0)
			r->ring_drops += ps.tp_drops;
	}
}

/* n workers, each with its socket in the fanout group, started; NULL + cause, all closed. */
static struct sink_worker *
open_workers(const struct sink_config *c, struct sink_state *st, unsigned int ifindex, int fanout_id,
    char **cause)
{
	struct sink_worker *w;
	int i, n = c->threads;

	w = xcalloc((size_t)n, sizeof(*w));
	for (i = 0; i < n; i++)
		w[i].fd = -1;
	for (i = 0; i < n; i++) {
		w[i].cfg = c;
		w[i].st = st;
		w[i].idx = i;
		w[i].flows = xcalloc(FLOW_SLOTS, sizeof(*w[i].flows));
		if (open_worker(&w[i], (int)ifindex, fanout_id, n, cause) == -1) {
			close_workers(w, n);
			return NULL;
		}
	}
	if (start_workers(w, n, st, cause) == -1) {
		close_workers(w, n);
		return NULL;
	}
	return w;
}

int
sink_run(const struct sink_config *c, struct sink_result *r, char **cause)
{
	struct sink_state st;
	struct sink_worker *w;
	unsigned int ifindex;
	uint64_t t0, t_end, last_pk = 0, last_by = 0, last_lost = 0, last_change, now, prev_pk = 0;
	int i, n = c->threads, sec = 0, fanout_id = (int)(getpid() & 0xffff);
	bool any = false;

	memset(r, 0, sizeof(*r));
	if (n < 1 || n > LAB_MAX_THREADS) {
		util_cause(cause, "invalid thread count %d (1..%d)", n, LAB_MAX_THREADS);
		return -1;
	}
	if ((ifindex = if_nametoindex(c->ifname)) == 0) {
		util_cause(cause, "no interface '%s' in this network namespace", c->ifname);
		return -1;
	}
	memset(&st, 0, sizeof(st));
	if ((w = open_workers(c, &st, ifindex, fanout_id, cause)) == NULL)
		return -1;
	if (c->on_ready != NULL)
		c->on_ready(c->arg);
	t0 = last_change = util_now_ns();
	t_end = c->duration > 0 ? t0 + (uint64_t)(c->duration * 1e9) : UINT64_MAX;
	for (;;) {
		uint64_t next = t0 + (uint64_t)(sec + 1) * 1000000000ULL, pk = 0, by = 0, lost = 0;
		bool quit = false;

		while ((now = util_now_ns()) < next && now < t_end) {
			struct timespec ts = { 0, 10000000 };

			for (i = 0, pk = 0; i < n; i++)
				pk += atomic_load_explicit(&w[i].packets, memory_order_relaxed);
			if (pk != prev_pk) {
				any = true;
				last_change = now;
				prev_pk = pk;
			}
			if ((c->stop != NULL && *c->stop) ||
			    (c->count != 0 && pk >= c->count) ||
			    (any && c->idle_stop > 0 && now - last_change > (uint64_t)(c->idle_stop * 1e9)) ||
			    (!any && c->wait_first > 0 && now - t0 > (uint64_t)(c->wait_first * 1e9))) {
				quit = true;
				break;
			}
			nanosleep(&ts, NULL);
		}
		for (i = 0, pk = 0, by = 0, lost = 0; i < n; i++) {
			pk += atomic_load_explicit(&w[i].packets, memory_order_relaxed);
			by += atomic_load_explicit(&w[i].bytes, memory_order_relaxed);
			lost += atomic_load_explicit(&w[i].lost_pub, memory_order_relaxed);
		}
		if (pk != last_pk)
			any = true;
		if (!quit && now >= next) {
			struct sink_second s;

			sec++;
			s.second = sec;
			s.elapsed = (double)(now - t0) / 1e9;
			s.packets = pk - last_pk;
			s.bytes = by - last_by;
			/* Per thread: with fanout a stream split over threads looks lossy here. */
			s.lost = lost > last_lost ? lost - last_lost : 0;
			last_lost = lost;
			lab_per_second_add(&r->per_second, &r->nper_second, s.packets, now, next);
			if (c->progress != NULL)
				c->progress(&s, c->arg);
			last_pk = pk;
			last_by = by;
		}
		if (quit || now >= t_end)
			break;
	}
	/* Let the workers drain what is already in their rings. */
	{
		struct timespec ts = { 0, 60000000 };

		nanosleep(&ts, NULL);
	}
	atomic_store(&st.stop, 1);
	for (i = 0; i < n; i++)
		pthread_join(w[i].tid, NULL);
	r->run_s = (double)(util_now_ns() - t0) / 1e9;
	drain_rings(w, n, r);
	merge(w, n, r);
	close_workers(w, n);
	if (r->packets == 0 && c->wait_first > 0) {
		util_cause(cause, "no test frames arrived on '%s' in %.1f s", c->ifname, r->run_s);
		return -1;
	}
	return 0;
}
