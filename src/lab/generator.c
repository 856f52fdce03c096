/*
 * The packet generator. Each thread owns an AF_PACKET socket with a
 * PACKET_TX_RING whose frames were filled with the template once; per packet
 * only the source port, stream, sequence, timestamp and UDP checksum are
 * rewritten, and one sendto() hands a whole batch to the kernel, bypassing the
 * qdisc. A full queue (EAGAIN/ENOBUFS) leaves the frame in the ring to be sent
 * again: it is counted, never fatal. Where the ring cannot be set up,
 * sendmmsg() on a raw packet socket does the same job with copies.
 */
#include <sys/types.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <linux/if_packet.h>
#include <linux/virtio_net.h>
#include <net/ethernet.h>
#include <net/if.h>

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lab/traffic.h"
#include "util/util.h"

#define GEN_BATCH	256
#define GEN_PACED_BATCH	16
#define GEN_RING_FRAMES	4096
#define GEN_BLOCK_SIZE	(1 << 16)
#define MMSG_BATCH	64

struct gen_run;

struct worker {
	const struct gen_config	*cfg;
	struct gen_run		*run;
	int			 idx;
	pthread_t		 tid;
	int			 fd;
	bool			 ring_mode;
	uint8_t			*ring;
	size_t			 ring_len;
	unsigned int		 frame_nr, frame_size, head;
	size_t			 vnet;		/* virtio_net_hdr before each frame, or 0 */
	size_t			 pkt_off;	/* frame start within a ring slot */
	struct lab_frame_tpl	 tpl;
	uint8_t			*tmpl;		/* the template frame */
	uint8_t			*bufs;		/* sendmmsg: MMSG_BATCH frames */
	uint64_t		 quota;		/* packets for this thread, UINT64_MAX: no limit */
	double			 rate;		/* packets/s for this thread, 0: no limit */
	uint16_t		 stream;
	unsigned int		 batch;		/* frames per sendto() */
	_Atomic uint64_t	 packets;
	_Atomic uint64_t	 retries;
	_Atomic uint64_t	 errors;
	_Atomic int		 done;
	char			*cause;
};

struct gen_run {
	struct worker		*w;
	int			 n;
	_Atomic int		 go;
	_Atomic int		 stop;
	uint64_t		 t0;		/* CLOCK_MONOTONIC ns at start */
};

void
gen_config_init(struct gen_config *c)
{
	int i;

	memset(c, 0, sizeof(*c));
	c->spec.family = AF_INET;
	c->spec.size = 64;
	c->spec.flows = 1;
	c->spec.dport = LAB_UDP_DPORT;
	c->threads = 1;
	for (i = 0; i < LAB_MAX_THREADS; i++)
		c->cpus[i] = -1;
	c->method = GEN_AUTO;
}

void
gen_result_free(struct gen_result *r)
{
	free(r->per_second);
	r->per_second = NULL;
	r->nper_second = 0;
}

static int
open_socket(struct worker *w, int ifindex, char **cause)
{
	struct sockaddr_ll sll;
	int one = 1, sndbuf = 4 << 20;

	/* Protocol 0: this socket never receives, so it costs nothing on input. */
	if ((w->fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0)) == -1) {
		util_cause(cause, "cannot open packet socket: %s%s", strerror(errno),
		    errno == EPERM ? " (needs root or CAP_NET_RAW)" : "");
		return -1;
	}
	(void)setsockopt(w->fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one));
	if (setsockopt(w->fd, SOL_SOCKET, SO_SNDBUFFORCE, &sndbuf, sizeof(sndbuf)) == -1)
		(void)setsockopt(w->fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_ifindex = ifindex;
	sll.sll_protocol = 0;
	if (bind(w->fd, (struct sockaddr *)&sll, sizeof(sll)) == -1) {
		util_cause(cause, "cannot bind packet socket: %s", strerror(errno));
		close(w->fd);
		w->fd = -1;
		return -1;
	}
	return 0;
}

static size_t
data_off(void)
{
	return TPACKET2_HDRLEN - sizeof(struct sockaddr_ll);
}

static int
setup_ring(struct worker *w, int nframes, char **cause)
{
	struct tpacket_req req;
	int ver = TPACKET_V2, one = 1;
	unsigned int fs = 256, i;

	if (setsockopt(w->fd, SOL_PACKET, PACKET_VERSION, &ver, sizeof(ver)) == -1) {
		util_cause(cause, "PACKET_VERSION: %s", strerror(errno));
		return -1;
	}
	/*
	 * With a virtio_net_hdr whose hdr_len covers the whole frame, the kernel
	 * copies the frame into the skb's linear part instead of pointing at ring
	 * pages: no page copy when veth or the stack must own the data, no pull.
	 */
	if (w->tpl.len <= 256 && setsockopt(w->fd, SOL_PACKET, PACKET_VNET_HDR, &one, sizeof(one)) == 0)
		w->vnet = sizeof(struct virtio_net_hdr);
	w->pkt_off = data_off() + w->vnet;
	while (fs < w->pkt_off + w->tpl.len)
		fs <<= 1;
	memset(&req, 0, sizeof(req));
	req.tp_block_size = fs > GEN_BLOCK_SIZE ? fs : GEN_BLOCK_SIZE;
	req.tp_frame_size = fs;
	req.tp_block_nr = (unsigned int)(((size_t)nframes * fs + req.tp_block_size - 1) / req.tp_block_size);
	req.tp_frame_nr = req.tp_block_nr * (req.tp_block_size / fs);
	if (setsockopt(w->fd, SOL_PACKET, PACKET_TX_RING, &req, sizeof(req)) == -1) {
		util_cause(cause, "PACKET_TX_RING: %s", strerror(errno));
		return -1;
	}
	w->ring_len = (size_t)req.tp_block_size * req.tp_block_nr;
	w->ring = mmap(NULL, w->ring_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, w->fd, 0);
	if (w->ring == MAP_FAILED) {
		w->ring = NULL;
		util_cause(cause, "mmap of the tx ring: %s", strerror(errno));
		return -1;
	}
	w->frame_nr = req.tp_frame_nr;
	w->frame_size = fs;
	/* Prefill: afterwards only the changing fields are written. */
	for (i = 0; i < w->frame_nr; i++) {
		struct tpacket2_hdr *h = (struct tpacket2_hdr *)(w->ring + (size_t)i * fs);

		if (w->vnet != 0) {
			struct virtio_net_hdr *vh = (struct virtio_net_hdr *)((uint8_t *)h + data_off());

			memset(vh, 0, sizeof(*vh));
			vh->gso_type = VIRTIO_NET_HDR_GSO_NONE;
			vh->hdr_len = (uint16_t)w->tpl.len;
		}
		memcpy((uint8_t *)h + w->pkt_off, w->tmpl, w->tpl.len);
		h->tp_len = (uint32_t)(w->vnet + w->tpl.len);
	}
	return 0;
}

static bool
should_stop(struct gen_run *run, const struct worker *w)
{
	return atomic_load_explicit(&run->stop, memory_order_relaxed) ||
	    (w->cfg->stop != NULL && *w->cfg->stop);
}

/* How many packets the rate allows now; waits a little when none. */
static uint64_t
paced(struct gen_run *run, struct worker *w, uint64_t sent, uint64_t want)
{
	uint64_t now, due;
	double el;

	if (w->rate <= 0)
		return want;
	now = util_now_ns();
	el = (double)(now - run->t0) / 1e9;
	due = (uint64_t)(w->rate * el) + 1;
	if (due <= sent) {
		double gap = (double)(sent + 1 - due) / w->rate;

		if (gap > 200e-6) {
			struct timespec ts = { 0, (long)((gap - 100e-6) * 1e9) };

			nanosleep(&ts, NULL);
		}
		return 0;
	}
	return due - sent < want ? due - sent : want;
}

/* How many packets to send now, at most want: -1 once the quota is spent, 0 while the rate waits. */
static int64_t
next_batch(struct gen_run *run, struct worker *w, uint64_t sent, uint64_t want)
{
	if (w->quota != UINT64_MAX) {
		if (sent >= w->quota)
			return -1;
		if (w->quota - sent < want)
			want = w->quota - sent;
	}
	return (int64_t)paced(run, w, sent, want);
}

static void
ring_flush(struct worker *w, struct gen_run *run)
{
	uint64_t deadline = util_now_ns() + 500000000ULL;

	(void)run;
	for (;;) {
		unsigned int i, pending = 0;

		for (i = 0; i < w->frame_nr; i++) {
			struct tpacket2_hdr *h = (struct tpacket2_hdr *)(w->ring + (size_t)i * w->frame_size);
			uint32_t st = __atomic_load_n(&h->tp_status, __ATOMIC_ACQUIRE);

			if (st & (TP_STATUS_SEND_REQUEST | TP_STATUS_SENDING))
				pending++;
		}
		if (pending == 0 || util_now_ns() > deadline) {
			atomic_fetch_sub(&w->packets, pending);
			return;
		}
		if (sendto(w->fd, NULL, 0, MSG_DONTWAIT, NULL, 0) == -1 &&
		    (errno == EAGAIN || errno == ENOBUFS))
			atomic_fetch_add_explicit(&w->retries, 1, memory_order_relaxed);
	}
}

static void
ring_loop(struct worker *w, struct gen_run *run)
{
	const struct lab_flowspec *s = &w->cfg->spec;
	uint64_t sent = 0, seq = 0;
	unsigned int flow = (unsigned int)w->idx % (unsigned int)s->flows;
	int stalled = 0;

	while (!should_stop(run, w)) {
		uint64_t n, ts, k;
		int64_t b;

		if ((b = next_batch(run, w, sent, w->batch)) == -1)
			break;
		if ((n = (uint64_t)b) == 0)
			continue;
		ts = lab_realtime_ns();
		for (k = 0; k < n; k++) {
			struct tpacket2_hdr *h = (struct tpacket2_hdr *)(w->ring +
			    (size_t)w->head * w->frame_size);
			uint32_t st = __atomic_load_n(&h->tp_status, __ATOMIC_ACQUIRE);

			if (st & (TP_STATUS_SEND_REQUEST | TP_STATUS_SENDING))
				break;	/* the ring is full: let the kernel catch up */
			if (st & TP_STATUS_WRONG_FORMAT) {
				/* Counted as sent when queued; the kernel refused it. */
				atomic_fetch_add_explicit(&w->errors, 1, memory_order_relaxed);
				atomic_fetch_sub_explicit(&w->packets, 1, memory_order_relaxed);
			}
			lab_frame_stamp(&w->tpl, (uint8_t *)h + w->pkt_off,
			    (uint16_t)(LAB_UDP_SPORT + flow), w->stream, seq++, ts);
			__atomic_store_n(&h->tp_status, TP_STATUS_SEND_REQUEST, __ATOMIC_RELEASE);
			if (++w->head == w->frame_nr)
				w->head = 0;
			if (++flow == (unsigned int)s->flows)
				flow = 0;
		}
		sent += k;
		atomic_fetch_add_explicit(&w->packets, k, memory_order_relaxed);
		if (sendto(w->fd, NULL, 0, MSG_DONTWAIT, NULL, 0) == -1) {
			if (errno == EAGAIN || errno == ENOBUFS || errno == EINTR) {
				atomic_fetch_add_explicit(&w->retries, 1, memory_order_relaxed);
				if (k == 0 && ++stalled > 16) {
					sched_yield();
					stalled = 0;
				}
				continue;
			}
			util_cause(&w->cause, "send on '%s': %s", w->cfg->ifname, strerror(errno));
			break;
		}
		stalled = 0;
	}
	ring_flush(w, run);
}

static void
mmsg_loop(struct worker *w, struct gen_run *run)
{
	const struct lab_flowspec *s = &w->cfg->spec;
	struct mmsghdr msgs[MMSG_BATCH];
	struct iovec iov[MMSG_BATCH];
	uint64_t sent = 0, seq = 0;
	unsigned int flow = (unsigned int)w->idx % (unsigned int)s->flows;
	int i, off = 0, fill = 0, r;

	memset(msgs, 0, sizeof(msgs));
	for (i = 0; i < MMSG_BATCH; i++) {
		iov[i].iov_base = w->bufs + (size_t)i * w->tpl.len;
		iov[i].iov_len = w->tpl.len;
		msgs[i].msg_hdr.msg_iov = &iov[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	while (!should_stop(run, w)) {
		uint64_t n = 0, ts;
		int64_t b;

		/* New frames only once the last batch is out: a retry resends what is left. */
		if (fill == 0) {
			b = next_batch(run, w, sent, w->batch < MMSG_BATCH ? w->batch : MMSG_BATCH);
			if (b == -1)
				break;
			if ((n = (uint64_t)b) == 0)
				continue;
			ts = lab_realtime_ns();
			for (i = 0; i < (int)n; i++) {
				lab_frame_stamp(&w->tpl, iov[i].iov_base,
				    (uint16_t)(LAB_UDP_SPORT + flow), w->stream, seq++, ts);
				if (++flow == (unsigned int)s->flows)
					flow = 0;
			}
			off = 0;
			fill = (int)n;
		}
		r = sendmmsg(w->fd, msgs + off, (unsigned int)fill, MSG_DONTWAIT);
		if (r == -1) {
			if (errno == EAGAIN || errno == ENOBUFS || errno == EINTR) {
				atomic_fetch_add_explicit(&w->retries, 1, memory_order_relaxed);
				continue;
			}
			util_cause(&w->cause, "send on '%s': %s", w->cfg->ifname, strerror(errno));
			break;
		}
		sent += (uint64_t)r;
		atomic_fetch_add_explicit(&w->packets, (uint64_t)r, memory_order_relaxed);
		fill -= r;
		off += r;
	}
}

static void *
worker_main(void *arg)
{
	struct worker *w = arg;
	struct gen_run *run = w->run;

	if (w->cfg->cpus[w->idx] >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(w->cfg->cpus[w->idx], &set);
		(void)pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	}
	while (!atomic_load(&run->go))
		sched_yield();
	if (w->ring_mode)
		ring_loop(w, run);
	else
		mmsg_loop(w, run);
	atomic_store(&w->done, 1);
	return NULL;
}

static void
workers_close(struct worker *w, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (w[i].ring != NULL)
			munmap(w[i].ring, w[i].ring_len);
		if (w[i].fd != -1)
			close(w[i].fd);
		free(w[i].tmpl);
		free(w[i].bufs);
		free(w[i].cause);
	}
	free(w);
}

static int
check_config(const struct gen_config *c, char **cause)
{
	int min = lab_frame_min(c->spec.family);

	if (c->threads < 1 || c->threads > LAB_MAX_THREADS) {
		util_cause(cause, "invalid thread count %d (1..%d)", c->threads, LAB_MAX_THREADS);
		return -1;
	}
	if (c->spec.size < min || c->spec.size > LAB_FRAME_MAX) {
		util_cause(cause, "frame size %d out of range for %s (%d..%d)", c->spec.size,
		    c->spec.family == AF_INET6 ? "IPv6" : "IPv4", min, LAB_FRAME_MAX);
		return -1;
	}
	if (c->spec.flows < 1 || c->spec.flows > 16384) {
		util_cause(cause, "invalid flow count %d (1..16384)", c->spec.flows);
		return -1;
	}
	if (c->rate < 0) {
		util_cause(cause, "invalid rate %g", c->rate);
		return -1;
	}
	return 0;
}

/* Worker i of nthreads: its share of the count and rate, its socket and ring or buffers. */
static int
worker_setup(struct worker *w, int i, int nthreads, const struct gen_config *c,
    unsigned int ifindex, const uint8_t *tmpl, uint16_t runid, char **cause)
{
	struct worker *x = &w[i];
	char *why = NULL;

	x->fd = -1;
	x->cfg = c;
	x->idx = i;
	x->stream = (uint16_t)(runid << 8 | (unsigned)i);
	lab_frame_tpl_init(&x->tpl, &c->spec, tmpl);
	x->tmpl = xmalloc(x->tpl.len);
	memcpy(x->tmpl, tmpl, x->tpl.len);
	x->quota = UINT64_MAX;
	if (c->count != 0)
		x->quota = c->count / (uint64_t)nthreads + ((uint64_t)i < c->count % (uint64_t)nthreads);
	if (c->rate > 0)
		x->rate = c->rate / nthreads;
	/* Paced frames go out in small batches, so that their timestamps stay true. */
	x->batch = c->batch > 0 ? (unsigned int)c->batch : c->rate > 0 ? GEN_PACED_BATCH : GEN_BATCH;
	if (open_socket(x, (int)ifindex, cause) == -1)
		return -1;
	if (c->method != GEN_MMSG) {
		if (setup_ring(x, c->ring_frames > 0 ? c->ring_frames : GEN_RING_FRAMES, &why) == 0)
			x->ring_mode = true;
		else if (c->method == GEN_RING) {
			if (cause != NULL)
				*cause = why;
			else
				free(why);
			return -1;
		}
		free(why);
	}
	if (!x->ring_mode) {
		int k;

		x->bufs = xmalloc((size_t)MMSG_BATCH * x->tpl.len);
		for (k = 0; k < MMSG_BATCH; k++)
			memcpy(x->bufs + (size_t)k * x->tpl.len, tmpl, x->tpl.len);
	}
	return 0;
}

/* Starts the worker threads; on failure stops and joins those already started. */
static int
workers_start(struct worker *w, int nthreads, struct gen_run *run, char **cause)
{
	int i, e;

	for (i = 0; i < nthreads; i++)
		w[i].run = run;
	for (i = 0; i < nthreads; i++) {
		if ((e = pthread_create(&w[i].tid, NULL, worker_main, &w[i])) != 0) {
			util_cause(cause, "pthread_create: %s", strerror(e));
			atomic_store(&run->stop, 1);
			atomic_store(&run->go, 1);
			while (--i >= 0)
				pthread_join(w[i].tid, NULL);
			return -1;
		}
	}
	return 0;
}

int
gen_run(const struct gen_config *c, struct gen_result *res, char **cause)
{
	struct gen_run run;
	struct worker *w;
	uint64_t last_pk = 0, last_by = 0, last_rt = 0, t_end;
	unsigned int ifindex;
	int i, sec = 0, nthreads = c->threads;
	uint8_t tmpl[LAB_FRAME_MAX];
	uint16_t runid;

	memset(res, 0, sizeof(*res));
	if (check_config(c, cause) == -1)
		return -1;
	if ((ifindex = if_nametoindex(c->ifname)) == 0) {
		util_cause(cause, "no interface '%s' in this network namespace", c->ifname);
		return -1;
	}
	lab_frame_build(&c->spec, tmpl);
	runid = (uint16_t)((util_now_ns() ^ (uint64_t)getpid()) & 0xff);
	w = xcalloc((size_t)nthreads, sizeof(*w));
	for (i = 0; i < nthreads; i++) {
		if (worker_setup(w, i, nthreads, c, ifindex, tmpl, runid, cause) == -1) {
			workers_close(w, i + 1);
			return -1;
		}
	}
	memset(&run, 0, sizeof(run));
	run.w = w;
	run.n = nthreads;
	if (workers_start(w, nthreads, &run, cause) == -1) {
		workers_close(w, nthreads);
		return -1;
	}
	run.t0 = util_now_ns();
	t_end = c->duration > 0 ? run.t0 + (uint64_t)(c->duration * 1e9) : UINT64_MAX;
	atomic_store(&run.go, 1);
	for (;;) {
		uint64_t next = run.t0 + (uint64_t)(sec + 1) * 1000000000ULL, now, pk = 0, rt = 0;
		int done = 0;

		/* Sleep in small steps so that the end of a count is noticed quickly. */
		while ((now = util_now_ns()) < next && now < t_end) {
			struct timespec ts = { 0, 10000000 };

			for (i = 0, done = 0; i < nthreads; i++)
				done += atomic_load(&w[i].done);
			if (done == nthreads || (c->stop != NULL && *c->stop))
				break;
			nanosleep(&ts, NULL);
		}
		for (i = 0; i < nthreads; i++) {
			pk += atomic_load_explicit(&w[i].packets, memory_order_relaxed);
			rt += atomic_load_explicit(&w[i].retries, memory_order_relaxed);
		}
		if (now >= next) {
			struct gen_second s;

			sec++;
			s.second = sec;
			s.elapsed = (double)(now - run.t0) / 1e9;
			s.packets = pk - last_pk;
			s.bytes = s.packets * (uint64_t)c->spec.size;
			s.retries = rt - last_rt;
			lab_per_second_add(&res->per_second, &res->nper_second, s.packets, now, next);
			if (c->progress != NULL)
				c->progress(&s, c->arg);
			last_pk = pk;
			last_rt = rt;
			last_by = pk * (uint64_t)c->spec.size;
		}
		if (now >= t_end || done == nthreads || (c->stop != NULL && *c->stop))
			break;
	}
	(void)last_by;
	atomic_store(&run.stop, 1);
	for (i = 0; i < nthreads; i++)
		pthread_join(w[i].tid, NULL);
	res->duration_s = (double)(util_now_ns() - run.t0) / 1e9;
	for (i = 0; i < nthreads; i++) {
		res->packets += atomic_load(&w[i].packets);
		res->retries += atomic_load(&w[i].retries);
		res->errors += atomic_load(&w[i].errors);
		if (w[i].cause != NULL && (cause == NULL || *cause == NULL)) {
			if (cause != NULL)
				*cause = w[i].cause;
			else
				free(w[i].cause);
			w[i].cause = NULL;
		}
	}
	if (c->duration > 0 && res->duration_s > c->duration && c->count == 0)
		res->duration_s = c->duration;
	res->bytes = res->packets * (uint64_t)c->spec.size;
	res->pps = res->duration_s > 0 ? (double)res->packets / res->duration_s : 0;
	res->bps = res->pps * c->spec.size * 8;
	res->method = w[0].ring_mode ? "tx_ring" : "sendmmsg";
	workers_close(w, nthreads);
	if (cause != NULL && *cause != NULL && res->packets == 0)
		return -1;
	return 0;
}
