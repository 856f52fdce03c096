/*
 * The interface of `ntune gen` and `ntune sink` that other code drives: bench
 * (src/bench/measure.c, src/bench/dut_bench.c) and lab rfc2544 (src/lab/rfc2544_search.c)
 * start them as child processes, in a lab namespace or over ssh, and read their
 * --json documents and the sink's ready line. The commands (src/cmd/gen.c,
 * src/cmd/sink.c) take their option names and JSON keys from here too, so a
 * renamed option or key changes both sides or neither. Option names are given
 * without the dashes (getopt_long's spelling); a driver writes "--" TRAFFIC_OPT_X.
 */
#ifndef NTUNE_TRAFFIC_CLI_H
#define NTUNE_TRAFFIC_CLI_H

/* Options of gen and sink. */
#define TRAFFIC_OPT_IFACE	"iface"		/* both: the interface to send or receive on */
#define TRAFFIC_OPT_DURATION	"duration"	/* both: seconds */
#define TRAFFIC_OPT_THREADS	"threads"	/* both */
#define TRAFFIC_OPT_JSON	"json"		/* both: the result document on stdout */
#define TRAFFIC_OPT_QUIET	"quiet"		/* both: no progress lines */
#define TRAFFIC_OPT_IFACE_ANY	"iface-any"	/* gen: send outside a lab namespace */
#define TRAFFIC_OPT_DST		"dst"		/* gen: destination address */
#define TRAFFIC_OPT_SIZE	"size"		/* gen: frame size, bytes with FCS */
#define TRAFFIC_OPT_FLOWS	"flows"		/* gen: source ports; sink: a per-flow table (no value) */
#define TRAFFIC_OPT_RATE	"rate"		/* gen: packets/s */
#define TRAFFIC_OPT_IPV6	"ipv6"		/* gen */
#define TRAFFIC_OPT_BATCH	"batch"		/* gen: frames per send call */
#define TRAFFIC_OPT_IDLE	"idle"		/* sink: stop after this many seconds without a test frame */
#define TRAFFIC_OPT_WAIT	"wait"		/* sink: stop when no test frame came within this many seconds */

/* Keys of the --json documents (numbers unless said). */
#define TRAFFIC_KEY_PACKETS	"packets"	/* both: sent / received test frames */
#define TRAFFIC_KEY_BYTES	"bytes"
#define TRAFFIC_KEY_PPS		"pps"
#define TRAFFIC_KEY_BPS		"bps"
#define TRAFFIC_KEY_DURATION	"duration_s"	/* both: from the first to the last frame */
#define TRAFFIC_KEY_PER_SECOND	"per_second"	/* both: an array, packets/s in each second */
#define TRAFFIC_KEY_LATENCY	"latency_us"	/* sink: an object of the keys below, or null */
#define TRAFFIC_KEY_LAT_MIN	"min"
#define TRAFFIC_KEY_LAT_AVG	"avg"
#define TRAFFIC_KEY_LAT_MAX	"max"
#define TRAFFIC_KEY_LAT_P50	"p50"
#define TRAFFIC_KEY_LAT_P90	"p90"
#define TRAFFIC_KEY_LAT_P99	"p99"

/* The sink's stderr line once it listens: a driver starts the generator after it. */
#define TRAFFIC_SINK_READY	"sink: receiving on"

#endif
