#!/bin/sh
# Does tune find what is there? For each planted bottleneck (`ntune lab up --impair NAME`):
# tune the impaired lab within BUDGET, then measure, alternating in ROUNDS rounds, a fresh
# unimpaired reference lab, the impaired lab as it is, and the impaired lab with tune's
# best.conf applied; print the fix tune kept, the three rates and best / unimpaired with its
# spread. Goal (issue 16): the fixing knob kept, best >= 90% of the unimpaired rate.
# The reference is the same router without the misconfiguration: a plain lab (rp-filter,
# napi-on-sender), a NAT lab (conntrack-small), a lab with the same RPS on dut0 (backlog-rps).
# conntrack-small and backlog-rps hold a host-wide sysctl: while they run, this script holds
# /tmp/ntune-t2201-host-sysctl.lock (as t2201 and t6309 do), and the reference is measured with
# the host's original value put back for its run only. Every run starts with the DUT's
# conntrack table emptied (ctnetlink flush, as bench does).
# Usage: sudo bench/tune-planted.sh [BUDGET_MINUTES] [ROUNDS] [IMPAIRMENT...]
# Environment: NTUNE (binary), OUT (results directory), DURATION (s a measured run, default 2).
. "$(dirname "$0")/lib.sh"
cd "$BENCH_ROOT"
BUDGET=${1:-2}
ROUNDS=${2:-5}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- rp-filter napi-on-sender conntrack-small backlog-rps
DUR=${DURATION:-2}
bench_results planted
bench_own_journal
bench_need_root
LABS=
bench_at_exit 'for l in $LABS; do "$NTUNE" lab down --prefix "$l" >/dev/null 2>&1; done'
echo "tune-planted: budget $BUDGET min, $ROUNDS rounds of $DUR s, $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -r), $(getconf _NPROCESSORS_ONLN) CPUs, loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
# What each impairment needs: the lab's mode, the load's flows, tune's options, the reference.
spec() {
	MODE=route FLOWS=1 TARGS= REF=plain
	case $1 in
	conntrack-small) MODE=nat FLOWS=1024 TARGS=--host-knobs ;;
	backlog-rps) TARGS=--host-knobs REF=rps ;;
	esac
}
# Empties the conntrack table of lab $1's DUT (what `conntrack -F` sends; nothing there is fine).
ctflush() {
	ip netns exec "$1-dut" python3 -c '
import socket, struct
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 12)   # NETLINK_NETFILTER
# nlmsghdr (IPCTNL_MSG_CT_DELETE of NFNL_SUBSYS_CTNETLINK, REQUEST|ACK) + nfgenmsg (AF_UNSPEC)
s.sendto(struct.pack("=LHHLLBBH", 20, (1 << 8) | 2, 1 | 4, 1, 0, 0, 0, 0), (0, 0))
s.recv(512)' 2>/dev/null
}
# pps forwarded to sink0 of lab $1 while the lab's load (gen on CPU 0, $FLOWS flows) sends.
measure() {
	ctflush "$1"
	a=$(ip netns exec "$1-sink" cat /sys/class/net/sink0/statistics/rx_packets)
	"$NTUNE" lab exec --prefix "$1" gen -- "$NTUNE" gen --duration "$DUR" --cpus 0 --flows "$FLOWS" \
		--quiet >/dev/null 2>&1
	b=$(ip netns exec "$1-sink" cat /sys/class/net/sink0/statistics/rx_packets)
	echo "$(( (b - a) / DUR ))"
}
# The reference lab $1, measured with the host-wide value (if any) at its original.
measure_ref() {
	[ -n "$HPATH" ] && echo "$HORIG" >"$HPATH"
	measure "$1"
	[ -n "$HPATH" ] && echo "$HVAL" >"$HPATH"
}
exec 7>/tmp/ntune-t2201-host-sysctl.lock
for imp in "$@"; do
	spec "$imp"
	I="pi$$$(echo "$imp" | cut -c1-3)"
	U="pu$$$(echo "$imp" | cut -c1-3)"
	LABS="$LABS $I $U"
	D="$OUT/$imp"
	mkdir -p "$D"
	[ "$TARGS" = --host-knobs ] && { flock -w 900 7 || { echo "$imp: host-sysctl lock busy" >&2; continue; }; }
	HPATH= HVAL= HORIG=
	if ! "$NTUNE" lab up --prefix "$I" --mode "$MODE" --impair "$imp" >/dev/null 2>"$D/up.err" ||
	    ! "$NTUNE" lab up --prefix "$U" --mode "$MODE" >/dev/null 2>>"$D/up.err"; then
		cat "$D/up.err"; "$NTUNE" lab down --prefix "$I" >/dev/null 2>&1; flock -u 7; continue
	fi
	if [ "$REF" = rps ]; then
		mask=$("$NTUNE" lab exec --prefix "$I" dut -- cat /sys/class/net/dut0/queues/rx-0/rps_cpus)
		"$NTUNE" lab exec --prefix "$U" dut -- sh -c "echo $mask >/sys/class/net/dut0/queues/rx-0/rps_cpus"
	fi
	eval "$("$NTUNE" lab status --prefix "$I" --json | python3 -c '
import json, sys
h = json.load(sys.stdin).get("host_sysctl")
if h:
    print("HPATH=/proc/sys/%s HVAL=%s HORIG=%s" % (h["name"].replace(".", "/"), h["value"], h["original"]))')"
	"$NTUNE" tune --lab --prefix "$I" --budget "$BUDGET" --flows "$FLOWS" $TARGS -o "$D/tune" \
		>"$D/tune.txt" 2>"$D/tune.err" || echo "$imp: tune failed (exit $?), see $D/tune.err" >&2
	: >"$D/unimpaired.txt"; : >"$D/impaired.txt"; : >"$D/best.txt"
	r=1
	# Odd rounds unimpaired first, even rounds last, so that drift does not favour either.
	while [ $r -le "$ROUNDS" ]; do
		[ $((r % 2)) = 1 ] && measure_ref "$U" >>"$D/unimpaired.txt"
		measure "$I" >>"$D/impaired.txt"
		if grep -q '^[a-z]' "$D/tune/best.conf" 2>/dev/null; then
			"$NTUNE" apply "$D/tune/best.conf" --netns "$I-dut" --no-persist >/dev/null 2>&1 &&
				measure "$I" >>"$D/best.txt"
			"$NTUNE" revert >/dev/null 2>&1
		fi
		[ $((r % 2)) = 0 ] && measure_ref "$U" >>"$D/unimpaired.txt"
		r=$((r + 1))
	done
	"$NTUNE" lab down --prefix "$I" >/dev/null 2>&1
	"$NTUNE" lab down --prefix "$U" >/dev/null 2>&1
	[ -n "$HPATH" ] && echo "$imp: host-wide $(echo "${HPATH#/proc/sys/}" | tr / .) back to $(cat "$HPATH") (was $HORIG)"
	flock -u 7
	python3 - "$imp" "$D" <<'PY'
import json, sys, os, statistics as st
imp, d = sys.argv[1], sys.argv[2]
def vals(n):
    return [float(x) for x in open(os.path.join(d, n + ".txt")) if x.strip()]
u, i, b = vals("unimpaired"), vals("impaired"), vals("best")
kept = []
try:
    s = json.load(open(os.path.join(d, "tune", "summary.json")))
    kept = [x["change"] for x in s["steps"] if x["kept"]]
except Exception as e:
    print("%s: no tune summary (%s)" % (imp, e))
def m(x):
    return "%.0f (%.0f-%.0f)" % (st.mean(x), min(x), max(x)) if x else "-"
print("%s: kept %s" % (imp, "; ".join(kept) if kept else "nothing"))
print("  pps mean (min-max) over %d rounds: unimpaired %s, impaired %s, impaired + best.conf %s"
      % (len(i), m(u), m(i), m(b)))
if i and u:
    print("  impaired / unimpaired: %.2f (by the means)" % (st.mean(i) / st.mean(u)))
if b and u:
    # per-round ratios: each round measured the two labs back to back
    rs = [x / y for x, y in zip(b, u) if y > 0]
    sd = st.stdev(rs) if len(rs) > 1 else 0
    t = {2: 12.71, 3: 4.30, 4: 3.18, 5: 2.78, 6: 2.57, 7: 2.45, 8: 2.36}.get(len(rs), 2.0)
    hw = t * sd / len(rs) ** 0.5
    mr = st.mean(rs)
    print("  best / unimpaired: %.2f ± %.2f (95%%, %d paired rounds) -> %s" % (mr, hw, len(rs),
          "recovered (>= 0.90)" if mr >= 0.90 else "NOT recovered (< 0.90)"))
PY
done
echo "results: $OUT" >&2
