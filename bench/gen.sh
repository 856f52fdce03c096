#!/bin/sh
# ntune gen against trafgen (netsniff-ng) and iperf3 in a throw-away route lab:
# 64-byte UDP frames gen0 -> dut0 (forwarded) -> dut1 -> sink0, counted at
# sink0's own rx counter over the same steady-state window for every tool.
# The tools run alternately, ROUNDS times; the medians give the ratios.
# Then RPS is turned on for dut0 (rx in the DUT on CPU 1): trafgen is known to
# abort there ("Flushing TX_RING failed"); ntune gen must keep sending.
# Usage: bench/gen.sh [NTUNE_BINARY] [ROUNDS] [SECONDS]
set -eu
nt=${1:-build/ntune}
rounds=${2:-3}
secs=${3:-4}
[ "$(id -u)" = 0 ] || { echo "bench/gen.sh: needs root (network namespaces)" >&2; exit 2; }
[ -x "$nt" ] || { echo "bench/gen.sh: no binary '$nt' (run make first)" >&2; exit 2; }
for c in trafgen iperf3; do
	command -v $c >/dev/null || { echo "bench/gen.sh: '$c' is not installed (apt-get install netsniff-ng iperf3)" >&2; exit 2; }
done
nt=$(cd "$(dirname "$nt")" && pwd)/$(basename "$nt")
p=ntgb$$
d=$(mktemp -d "${TMPDIR:-/tmp}/ntune-bench-gen.XXXXXX")
cleanup() {
	[ -n "${bgpid:-}" ] && kill -INT "$bgpid" 2>/dev/null
	[ -f "$d/iperf3.pid" ] && kill "$(cat "$d/iperf3.pid")" 2>/dev/null
	"$nt" lab down --prefix "$p" 2>/dev/null || true
	rm -rf "$d"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
"$nt" lab up --prefix "$p" --queues 2
ncpu=$(nproc)

# 60 bytes + FCS = 64: Ethernet, IPv4 198.18.0.1 -> 198.19.0.2, UDP 49152 -> 9, 18 bytes of zeros.
cat > "$d/udp64.trafgen" <<'EOF'
{
  0x02, 0x4e, 0x54, 0x12, 0x00, 0x02,
  0x02, 0x4e, 0x54, 0x12, 0x00, 0x01,
  0x08, 0x00,
  0x45, 0x00, const16(46), const16(0), 0x40, 0x00, 64, 17, csumip(14, 33),
  198, 18, 0, 1,
  198, 19, 0, 2,
  const16(49152), const16(9), const16(26), const16(0),
  fill(0x00, 18)
}
EOF

rx() { ip netns exec "$p-sink" cat /sys/class/net/sink0/statistics/rx_packets; }

# measure NAME CMD...: starts CMD in the gen namespace, skips 1 s of start-up,
# counts sink0's rx packets over $secs seconds, stops CMD; prints pps.
measure() {
	name=$1; shift
	# trafgen stops on SIGINT only; timeout is the safety net.
	ip netns exec "$p-gen" timeout -s INT $((secs + 5)) "$@" > "$d/$name.out" 2>&1 &
	bgpid=$!
	sleep 1
	a=$(rx)
	sleep "$secs"
	b=$(rx)
	kill -INT "$bgpid" 2>/dev/null || true
	wait "$bgpid" 2>/dev/null || true
	bgpid=
	echo $(( (b - a) / secs ))
}

ip netns exec "$p-sink" iperf3 -s -D -I "$d/iperf3.pid" >/dev/null 2>&1
sleep 0.3
run_tool() {
	case $1 in
	trafgen1) measure trafgen1 trafgen --dev gen0 --conf "$d/udp64.trafgen" --cpus 1 --no-sock-mem -q ;;
	trafgen2) measure trafgen2 trafgen --dev gen0 --conf "$d/udp64.trafgen" --cpus 2 --no-sock-mem -q ;;
	iperf3) measure iperf3 iperf3 -u -l 18 -b 0 -c 198.19.0.2 -t $((secs + 3)) ;;
	ntune1) measure ntune1 "$nt" gen --threads 1 --duration $((secs + 3)) --quiet ;;
	ntune2) measure ntune2 "$nt" gen --threads 2 --duration $((secs + 3)) --quiet ;;
	esac
}

tools="trafgen1 ntune1 iperf3 trafgen2 ntune2"
[ "$ncpu" -ge 2 ] || tools="trafgen1 ntune1 iperf3"
r=1
while [ "$r" -le "$rounds" ]; do
	# Alternate the order each round so that drift hits every tool alike.
	order=$tools
	[ $((r % 2)) = 0 ] && order=$(echo "$tools" | tr ' ' '\n' | sort -r | tr '\n' ' ')
	for t in $order; do
		v=$(run_tool "$t")
		echo "$v" >> "$d/$t.txt"
		printf 'round %d  %-9s %10d pps\n' "$r" "$t" "$v" >&2
	done
	r=$((r + 1))
done

median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }'; }
echo "64-byte UDP forwarded through the DUT, pps at sink0 (median of $rounds rounds of $secs s):"
for t in $tools; do printf '  %-9s %10d\n' "$t" "$(median "$d/$t.txt")"; done
t1=$(median "$d/trafgen1.txt"); n1=$(median "$d/ntune1.txt"); ip3=$(median "$d/iperf3.txt")
echo "ratio ntune gen / trafgen, 1 thread:   $(ratio "$n1" "$t1")"
if [ "$ncpu" -ge 2 ]; then
	t2=$(median "$d/trafgen2.txt"); n2=$(median "$d/ntune2.txt")
	echo "ratio ntune gen / trafgen, 2 threads:  $(ratio "$n2" "$t2")"
	echo "ratio ntune gen / iperf3 -u -l 18:     $(ratio "$n1" "$ip3") (1 thread), $(ratio "$n2" "$ip3") (2 threads)"
else
	echo "ratio ntune gen / iperf3 -u -l 18:     $(ratio "$n1" "$ip3")"
fi

# Paired per round (same minute, same background load), then their geometric mean.
paired() { paste "$d/$1.txt" "$d/$2.txt" | awk '$2 > 0 { s += log($1 / $2); n++ } END { printf "%.2f", n ? exp(s / n) : 0 }'; }
echo "paired per-round ratios (geometric mean): gen/trafgen 1 thread $(paired ntune1 trafgen1)$([ "$ncpu" -ge 2 ] && echo ", 2 threads $(paired ntune2 trafgen2)"), gen/iperf3 $(paired ntune1 iperf3)"

# RPS on dut0: the DUT's rx work moves to CPU 1 and its backlog fills up.
if [ "$ncpu" -ge 2 ]; then
	ip netns exec "$p-dut" sh -c 'echo 2 > /sys/class/net/dut0/queues/rx-0/rps_cpus; echo 2 > /sys/class/net/dut0/queues/rx-1/rps_cpus'
	tv=$(measure trafgen-rps trafgen --dev gen0 --conf "$d/udp64.trafgen" --cpus 1 --no-sock-mem -q)
	if grep -q "Flushing TX_RING failed" "$d/trafgen-rps.out"; then tstate="aborted (Flushing TX_RING failed)"; else tstate="kept running"; fi
	nv=$(measure ntune-rps "$nt" gen --threads 1 --duration $((secs + 3)))
	nretries=$(sed -n 's/.*tx_ring, \([0-9]*\) retries.*/\1/p' "$d/ntune-rps.out")
	echo "with RPS on dut0: trafgen $tv pps, $tstate; ntune gen $nv pps (${nretries:-?} full-queue retries, kept sending)"
fi
