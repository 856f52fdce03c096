#!/bin/sh
# ntune diagnose in the DUT of a lab under ntune gen load: a light clean load gives exit 0, the
# default lab's veth on one CPU is named with its knobs. Loads of 4 s; more bottlenecks: t2209.
# test-set: check
# test-lock: exclusive
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/diag-lab.sh"

test_expect_success ROOT,IP 'a lab comes up for the diagnosis' '
	ntune lab up --prefix "$P" 2>/dev/null
'
test_expect_success ROOT,IP 'a light load on a clean lab: no finding, exit 0, the headroom said' '
	light && grep -q "^no bottleneck found: " out &&
	grep -q "inside network namespace .$P-dut.: CPU times and softnet_stat are the host" out
'
# 20 kpps: the veth still receives on the sending CPU (a fact), but that CPU is not busy in
# softirq and nothing drops: no finding, exit 0, the fact under headroom (issue 27).
test_expect_success ROOT,IP 'ntune gen --rate 20000 on a clean lab: exit 0, the not-spread fact under headroom' '
	light 20000 && grep -q "^no bottleneck found: " out && ! grep -q "^[0-9]\. " out &&
	grep -q "^headroom (seen, but not a cost being paid now):" out &&
	grep -q "^  work-not-spread on dut0: .*not a bottleneck now" out
'
# The generator on one CPU: dut0 is a veth, which receives on the CPU that sends to it (its
# backlog, or its NAPI scheduled there): the finding says so and names the NAPI thread's CPU
# first, then RPS. Where the kernel cannot list NAPI threads (not NAPI_PIDS:
# if.dut0.napi_threads unmeasured, the veth rule cannot fire) the rules read where packets
# are processed instead: softnet_stat is the host's, so when another namespace's traffic runs
# on the other CPU at the same time (other tests, other labs) the concentration cannot be told
# from here and the finding says so (possible).
test_expect_success ROOT,IP 'the default lab under load: a veth receives on the sending CPU, the NAPI thread and RPS named' '
	expect_finding "work-not-spread on dut0" "if.dut0.rps_cpus" --flows 64 --threads 1 --cpus 0 &&
	if test_have_prereq NAPI_PIDS; then
		grep -q "^1\. work-not-spread on dut0 (likely)" out &&
		grep -q "dut0 is a veth, which receives on the CPU that transmits to it, and receives [0-9]* pkt/s with RPS off and no NAPI thread" out &&
		grep -q "knobs: if.dut0.napi_thread_cpus, if.dut0.napi_threaded, if.dut0.offload.gro, if.dut0.rps_cpus" out &&
		grep -q "evidence: if.dut0.veth=1 if.dut0.napi_threads=0" out
	else
		grep -q "dut0 receives [0-9]* pkt/s on one queue with RPS off" out &&
		{ { grep -q "^1\. work-not-spread on dut0 (likely)" out &&
		    grep -q "CPU 0 processes [0-9]* packets/s in softirq" out; } ||
		  { grep -q "^1\. work-not-spread on dut0 (possible)" out &&
		    grep -q "cannot be told from inside the namespace" out; }; }
	fi
'
test_done
