/* The test frame: built once as a template, then only the changing fields are rewritten. */
#include <sys/types.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "lab/traffic.h"
#include "util/util.h"

const int lab_rfc2544_sizes[7] = { 64, 128, 256, 512, 1024, 1280, 1518 };

#define IP4_LEN		20
#define IP6_LEN		40
#define UDP_LEN		8

static size_t
l3_len(int family)
{
	return family == AF_INET6 ? IP6_LEN : IP4_LEN;
}

int
lab_frame_min(int family)
{
	int n = (int)(LAB_ETH_LEN + l3_len(family) + UDP_LEN + LAB_PAYLOAD_LEN + LAB_FCS_LEN);

	return n < 64 ? 64 : n;
}

static uint32_t
sum16(const uint8_t *p, size_t len, uint32_t sum)
{
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	return sum;
}

static uint16_t
fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

/* The UDP checksum field: 0 means "none", so a computed 0 is sent as 0xffff. */
static uint16_t
csum_final(uint32_t sum)
{
	uint16_t c = (uint16_t)~fold(sum);

	return c == 0 ? 0xffff : c;
}

static void
put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static uint16_t
get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

size_t
lab_frame_build(const struct lab_flowspec *s, uint8_t *buf)
{
	size_t len = (size_t)s->size - LAB_FCS_LEN, l3 = l3_len(s->family);
	size_t udp_len = len - LAB_ETH_LEN - l3;
	uint8_t *ip = buf + LAB_ETH_LEN, *udp = ip + l3, *pay = udp + UDP_LEN;
	uint32_t sum;

	memset(buf, 0, len);
	memcpy(buf, s->dst_mac, 6);
	memcpy(buf + 6, s->src_mac, 6);
	put16(buf + 12, s->family == AF_INET6 ? 0x86dd : 0x0800);
	if (s->family == AF_INET6) {
		ip[0] = 0x60;
		put16(ip + 4, (uint16_t)udp_len);
		ip[6] = IPPROTO_UDP;
		ip[7] = 64;
		memcpy(ip + 8, &s->src.v6, 16);
		memcpy(ip + 24, &s->dst.v6, 16);
		sum = sum16(ip + 8, 32, 0);
	} else {
		ip[0] = 0x45;
		put16(ip + 2, (uint16_t)(len - LAB_ETH_LEN));
		put16(ip + 6, 0x4000);	/* don't fragment */
		ip[8] = 64;
		ip[9] = IPPROTO_UDP;
		memcpy(ip + 12, &s->src.v4, 4);
		memcpy(ip + 16, &s->dst.v4, 4);
		put16(ip + 10, (uint16_t)~fold(sum16(ip, IP4_LEN, 0)));
		sum = sum16(ip + 12, 8, 0);
	}
	put16(udp, LAB_UDP_SPORT);
	put16(udp + 2, s->dport);
	put16(udp + 4, (uint16_t)udp_len);
	put16(pay, LAB_MAGIC);
	sum += IPPROTO_UDP + (uint32_t)udp_len;
	put16(udp + 6, csum_final(sum16(udp, udp_len, sum)));
	return len;
}

void
lab_frame_tpl_init(struct lab_frame_tpl *t, const struct lab_flowspec *s, const uint8_t *frame)
{
	size_t l3 = l3_len(s->family);
	uint8_t tmp[LAB_FRAME_MAX];
	uint32_t sum;

	t->len = (size_t)s->size - LAB_FCS_LEN;
	t->udp_off = LAB_ETH_LEN + l3;
	t->pay_off = t->udp_off + UDP_LEN;
	/* The sum over everything that stays: pseudo header, dport, length, magic, padding. */
	memcpy(tmp, frame, t->len);
	put16(tmp + t->udp_off, 0);
	put16(tmp + t->udp_off + 6, 0);
	memset(tmp + t->pay_off + 2, 0, LAB_PAYLOAD_LEN - 2);
	if (s->family == AF_INET6)
		sum = sum16(tmp + LAB_ETH_LEN + 8, 32, 0);
	else
		sum = sum16(tmp + LAB_ETH_LEN + 12, 8, 0);
	sum += IPPROTO_UDP + (uint32_t)(t->len - t->udp_off);
	t->csum_base = sum16(tmp + t->udp_off, t->len - t->udp_off, sum);
}

void
lab_frame_stamp(const struct lab_frame_tpl *t, uint8_t *frame, uint16_t sport, uint16_t stream,
    uint64_t seq, uint64_t ts)
{
	uint8_t *udp = frame + t->udp_off, *pay = frame + t->pay_off;
	uint32_t sum = t->csum_base;
	uint16_t w[8];
	int i;

	w[0] = stream;
	w[1] = (uint16_t)(seq >> 32);
	w[2] = (uint16_t)(seq >> 16);
	w[3] = (uint16_t)seq;
	w[4] = (uint16_t)(ts >> 48);
	w[5] = (uint16_t)(ts >> 32);
	w[6] = (uint16_t)(ts >> 16);
	w[7] = (uint16_t)ts;
	put16(udp, sport);
	sum += sport;
	for (i = 0; i < 8; i++) {
		put16(pay + 2 + 2 * i, w[i]);
		sum += w[i];
	}
	put16(udp + 6, csum_final(sum));
}

int
lab_frame_parse(const uint8_t *f, size_t len, struct lab_frame_info *info)
{
	size_t off = LAB_ETH_LEN;
	uint16_t type;
	const uint8_t *udp, *pay;

	if (len < LAB_ETH_LEN + IP4_LEN + UDP_LEN + LAB_PAYLOAD_LEN)
		return -1;
	type = get16(f + 12);
	if (type == 0x8100) {	/* one VLAN tag */
		type = get16(f + 16);
		off += 4;
	}
	if (type == 0x0800) {
		size_t ihl = (size_t)(f[off] & 0x0f) * 4;

		if ((f[off] >> 4) != 4 || ihl < IP4_LEN || f[off + 9] != IPPROTO_UDP ||
		    (get16(f + off + 6) & 0x3fff) != 0)
			return -1;
		info->family = AF_INET;
		off += ihl;
	} else if (type == 0x86dd) {
		if (len < off + IP6_LEN || f[off + 6] != IPPROTO_UDP)
			return -1;
		info->family = AF_INET6;
		off += IP6_LEN;
	} else
		return -1;
	if (len < off + UDP_LEN + LAB_PAYLOAD_LEN)
		return -1;
	udp = f + off;
	pay = udp + UDP_LEN;
	if (get16(pay) != LAB_MAGIC)
		return -1;
	info->sport = get16(udp);
	info->dport = get16(udp + 2);
	info->stream = get16(pay + 2);
	info->seq = (uint64_t)get16(pay + 4) << 32 | (uint64_t)get16(pay + 6) << 16 | get16(pay + 8);
	info->ts_ns = (uint64_t)get16(pay + 10) << 48 | (uint64_t)get16(pay + 12) << 32 |
	    (uint64_t)get16(pay + 14) << 16 | get16(pay + 16);
	info->len = len;
	return 0;
}

int
lab_parse_mac(const char *s, uint8_t mac[6])
{
	unsigned int b[6];
	char tail;
	int i;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x%c", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &tail) != 6)
		return -1;
	for (i = 0; i < 6; i++) {
		if (b[i] > 0xff)
			return -1;
		mac[i] = (uint8_t)b[i];
	}
	return 0;
}

uint64_t
lab_realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

void
lab_per_second_add(double **v, size_t *n, uint64_t packets, uint64_t now, uint64_t next)
{
	*v = xreallocarray(*v, *n + 1, sizeof **v);
	(*v)[(*n)++] = (double)packets / ((double)(now - (next - 1000000000ULL)) / 1e9);
}

void
lab_fmt_rate(char *buf, size_t len, double pps, double bps)
{
	const char *pu = "pps", *bu = "bit/s";
	double p = pps, b = bps;

	if (p >= 1e6) {
		p /= 1e6;
		pu = "Mpps";
	} else if (p >= 1e3) {
		p /= 1e3;
		pu = "kpps";
	}
	if (b >= 1e9) {
		b /= 1e9;
		bu = "Gbit/s";
	} else if (b >= 1e6) {
		b /= 1e6;
		bu = "Mbit/s";
	} else if (b >= 1e3) {
		b /= 1e3;
		bu = "kbit/s";
	}
	snprintf(buf, len, "%8.3f %-4s %9.3f %s", p, pu, b, bu);
}
