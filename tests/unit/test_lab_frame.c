#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <cmocka.h>

#include "lab/lab.h"
#include "lab/rfc2544.h"
#include "lab/traffic.h"
#include "util/util.h"

static void
spec_init(struct lab_flowspec *s, int family, int size)
{
	memset(s, 0, sizeof(*s));
	s->family = family;
	s->size = size;
	s->flows = 1;
	s->dport = LAB_UDP_DPORT;
	assert_int_equal(lab_parse_mac(LAB_GEN_MAC, s->src_mac), 0);
	assert_int_equal(lab_parse_mac(LAB_DUT_IN_MAC, s->dst_mac), 0);
	if (family == AF_INET6) {
		inet_pton(AF_INET6, LAB_GEN_IP6, &s->src.v6);
		inet_pton(AF_INET6, LAB_SINK_IP6, &s->dst.v6);
	} else {
		inet_pton(AF_INET, LAB_GEN_IP4, &s->src.v4);
		inet_pton(AF_INET, LAB_SINK_IP4, &s->dst.v4);
	}
}

/* The UDP checksum computed from scratch over pseudo header and datagram. */
static uint16_t
udp_checksum(const uint8_t *f, int family)
{
	const uint8_t *ip = f + 14, *udp;
	uint32_t sum = 0;
	size_t i, len;

	if (family == AF_INET6) {
		udp = ip + 40;
		for (i = 8; i < 40; i += 2)
			sum += (uint32_t)ip[i] << 8 | ip[i + 1];
	} else {
		udp = ip + 20;
		for (i = 12; i < 20; i += 2)
			sum += (uint32_t)ip[i] << 8 | ip[i + 1];
	}
	len = (size_t)(udp[4] << 8 | udp[5]);
	sum += 17 + (uint32_t)len;
	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)udp[i] << 8 | udp[i + 1];
	if (len & 1)
		sum += (uint32_t)udp[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;	/* 0xffff when the stored checksum is right */
}

static void
test_lab_frame_build_sizes_count_ethernet_through_fcs(void **state)
{
	struct lab_flowspec s;
	uint8_t f[LAB_FRAME_MAX];
	(void)state;
	spec_init(&s, AF_INET, 64);
	assert_int_equal(lab_frame_build(&s, f), 60);
	assert_int_equal(f[12], 0x08);
	assert_int_equal(f[14 + 2] << 8 | f[14 + 3], 46);	/* IPv4 total length */
	spec_init(&s, AF_INET, 1518);
	assert_int_equal(lab_frame_build(&s, f), 1514);
	assert_int_equal(lab_frame_min(AF_INET), 64);
	assert_int_equal(lab_frame_min(AF_INET6), 84);
}

static void
test_lab_frame_stamp_keeps_udp_checksum_valid(void **state)
{
	static const int sizes[] = { 64, 65, 128, 1518 };
	struct lab_flowspec s;
	struct lab_frame_tpl t;
	uint8_t f[LAB_FRAME_MAX];
	size_t i;
	int fam;

	(void)state;
	for (fam = 0; fam < 2; fam++) {
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			int family = fam ? AF_INET6 : AF_INET;

			if (sizes[i] < lab_frame_min(family))
				continue;
			spec_init(&s, family, sizes[i]);
			lab_frame_build(&s, f);
			assert_int_equal(udp_checksum(f, family), 0xffff);
			lab_frame_tpl_init(&t, &s, f);
			lab_frame_stamp(&t, f, 50000, 0x1203, 0xffffffffffffULL, 0x0123456789abcdefULL);
			assert_int_equal(udp_checksum(f, family), 0xffff);
			lab_frame_stamp(&t, f, 49152, 0, 7, 1);
			assert_int_equal(udp_checksum(f, family), 0xffff);
		}
	}
}

static void
test_lab_frame_parse_reads_back_what_stamp_wrote(void **state)
{
	struct lab_flowspec s;
	struct lab_frame_tpl t;
	struct lab_frame_info fi;
	uint8_t f[LAB_FRAME_MAX];
	size_t len;

	(void)state;
	spec_init(&s, AF_INET6, 128);
	len = lab_frame_build(&s, f);
	lab_frame_tpl_init(&t, &s, f);
	lab_frame_stamp(&t, f, 49153, 0x4201, 123456789012ULL, 1700000000123456789ULL);
	assert_int_equal(lab_frame_parse(f, len, &fi), 0);
	assert_int_equal(fi.family, AF_INET6);
	assert_int_equal(fi.sport, 49153);
	assert_int_equal(fi.dport, LAB_UDP_DPORT);
	assert_int_equal(fi.stream, 0x4201);
	assert_true(fi.seq == 123456789012ULL);
	assert_true(fi.ts_ns == 1700000000123456789ULL);
}

static void
test_lab_frame_parse_rejects_foreign_and_short_frames(void **state)
{
	/* One or two bytes of a good IPv4 frame changed. */
	static const struct {
		const char	*what;
		size_t		 at, n;
		uint8_t		 to[2];
	} foreign[] = {
		{ "magic", 42, 1, { 'X' } },
		{ "ARP", 12, 2, { 0x08, 0x06 } },
		{ "TCP", 14 + 9, 1, { 6 } },
	};
	struct lab_flowspec s;
	struct lab_frame_info fi;
	uint8_t f[LAB_FRAME_MAX];
	size_t len, i;

	(void)state;
	spec_init(&s, AF_INET, 64);
	len = lab_frame_build(&s, f);
	assert_int_equal(lab_frame_parse(f, len, &fi), 0);
	assert_int_equal(lab_frame_parse(f, 40, &fi), -1);
	for (i = 0; i < nitems(foreign); i++) {
		lab_frame_build(&s, f);
		memcpy(f + foreign[i].at, foreign[i].to, foreign[i].n);
		if (lab_frame_parse(f, len, &fi) != -1)
			fail_msg("a frame with %s bytes is taken", foreign[i].what);
	}
}

static void
test_lab_prefix_valid_refuses_paths_and_long_names(void **state)
{
	char *cause = NULL;

	(void)state;
	assert_int_equal(lab_prefix_valid("ntune", NULL), 0);
	assert_int_equal(lab_prefix_valid("nt123-a_b", NULL), 0);
	assert_int_equal(lab_prefix_valid("-x", NULL), -1);
	assert_int_equal(lab_prefix_valid("a/b", &cause), -1);
	assert_non_null(strstr(cause, "'a/b'"));
	free(cause);
	assert_int_equal(lab_prefix_valid("", NULL), -1);
	assert_int_equal(lab_prefix_valid("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", NULL), -1);
}

static void
test_lab_mode_and_role_names_round_trip(void **state)
{
	enum lab_mode m;
	enum lab_role r;

	(void)state;
	assert_int_equal(lab_mode_parse("nat", &m), 0);
	assert_string_equal(lab_mode_name(m), "nat");
	assert_int_equal(lab_mode_parse("switch", &m), -1);
	assert_int_equal(lab_role_parse("sink", &r), 0);
	assert_string_equal(lab_role_name(r), "sink");
	assert_int_equal(lab_role_parse("router", &r), -1);
}

static void
test_lab_parse_mac_rejects_garbage(void **state)
{
	uint8_t m[6];

	(void)state;
	assert_int_equal(lab_parse_mac("02:4e:54:12:00:02", m), 0);
	assert_int_equal(m[5], 2);
	assert_int_equal(lab_parse_mac("02:4e:54:12:00", m), -1);
	assert_int_equal(lab_parse_mac("02:4e:54:12:00:02x", m), -1);
	assert_int_equal(lab_parse_mac("02:4e:54:12:00:1ff", m), -1);
}

static void
test_rfc2544_parse_sizes_accepts_lists_and_the_standard_set(void **state)
{
	struct rfc2544_config c;
	char *cause = NULL;

	(void)state;
	rfc2544_config_init(&c);
	assert_int_equal(rfc2544_parse_sizes("64,1518", &c, NULL), 0);
	assert_int_equal(c.nsizes, 2);
	assert_int_equal(c.sizes[1], 1518);
	assert_int_equal(rfc2544_parse_sizes("rfc2544", &c, NULL), 0);
	assert_int_equal(c.nsizes, 7);
	assert_int_equal(c.sizes[5], 1280);
	assert_int_equal(rfc2544_parse_sizes("63", &c, &cause), -1);
	assert_non_null(strstr(cause, "63"));
	free(cause);
	assert_int_equal(rfc2544_parse_sizes("64,abc", &c, NULL), -1);
	assert_int_equal(rfc2544_parse_sizes("", &c, NULL), -1);
}

static void
test_rfc2544_parse_loads_needs_descending_percentages(void **state)
{
	struct rfc2544_config c;

	(void)state;
	rfc2544_config_init(&c);
	assert_int_equal(c.nloads, 10);
	assert_int_equal(rfc2544_parse_loads("100,50,10", &c, NULL), 0);
	assert_int_equal(c.nloads, 3);
	assert_int_equal(rfc2544_parse_loads("50,100", &c, NULL), -1);
	assert_int_equal(rfc2544_parse_loads("120", &c, NULL), -1);
	assert_int_equal(rfc2544_parse_loads("0", &c, NULL), -1);
}

static void
test_lab_per_second_add_divides_by_the_interval_it_really_was(void **state)
{
	double *v = NULL;
	size_t n = 0;

	(void)state;
	/* Second 1 ended on time at 2 s, second 2 was due at 3 s but ended at 3.25 s. */
	lab_per_second_add(&v, &n, 1000, 2000000000ULL, 2000000000ULL);
	lab_per_second_add(&v, &n, 1250, 3250000000ULL, 3000000000ULL);
	assert_int_equal(n, 2);
	assert_true(v[0] > 999.999 && v[0] < 1000.001);
	assert_true(v[1] > 999.999 && v[1] < 1000.001);
	free(v);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lab_frame_build_sizes_count_ethernet_through_fcs),
		cmocka_unit_test(test_lab_frame_stamp_keeps_udp_checksum_valid),
		cmocka_unit_test(test_lab_frame_parse_reads_back_what_stamp_wrote),
		cmocka_unit_test(test_lab_frame_parse_rejects_foreign_and_short_frames),
		cmocka_unit_test(test_lab_prefix_valid_refuses_paths_and_long_names),
		cmocka_unit_test(test_lab_mode_and_role_names_round_trip),
		cmocka_unit_test(test_lab_parse_mac_rejects_garbage),
		cmocka_unit_test(test_lab_per_second_add_divides_by_the_interval_it_really_was),
		cmocka_unit_test(test_rfc2544_parse_sizes_accepts_lists_and_the_standard_set),
		cmocka_unit_test(test_rfc2544_parse_loads_needs_descending_percentages),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
