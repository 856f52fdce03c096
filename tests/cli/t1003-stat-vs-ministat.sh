#!/bin/sh
# Where ministat is installed: fresh random data sets, compared with the real
# ministat run for run (stdout and exit status). Skipped without ministat; the
# golden files of t1001 cover the same ground without it.
. "$(dirname "$0")/lib.sh"

test_require MINISTAT

seed=${NTUNE_STAT_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "# seed $seed (NTUNE_STAT_SEED=$seed reproduces)"
(cd "$TRASH" && awk -v seed="$seed" 'BEGIN { srand(seed)
  for (f = 0; f < 7; f++) {
    n = 3 + int(rand() * (rand() < 0.2 ? 400 : 25)); mode = int(rand() * 6)
    mu = (rand() < 0.3 ? -1 : 1) * 10 ^ (int(rand() * 24) - 8); sd = mu * rand() * (rand() < 0.5 ? 0.01 : 1)
    for (i = 0; i < n; i++) { x = mu + sd * (rand() + rand() + rand() - 1.5)
      if (mode == 0) printf "%d\n", x > ("d" f)
      else if (mode == 1) printf "%.3g\n", x > ("d" f)
      else if (mode == 2) printf "%d c\t%.2f # note\n", int(rand() * 10), x > ("d" f)
      else if (mode == 3) printf "%.17g\n", x > ("d" f)
      else if (mode == 4) printf "%d\n", int(rand() * 4) > ("d" f)
      else printf "  %.6e \n", x > ("d" f) } } }')

i=0
for opts in "" "-A" "-n" "-s" "-c 80" "-c 90" "-c 98" "-c 99" "-c 99.5" "-w 7" "-w 33" "-w 150" \
    "-s -w 50" "-C 3" "-C 2 -A" "-d 'c'" "-nA" "-s -c 90 -w 100" "" "-A" "" "-s" "-w 74" "-C 1"; do
	i=$((i + 1))
	k=$(( (seed / i) % 7 + 1 ))
	files=$(for j in $(seq 0 $((k - 1))); do printf 'd%d ' $(( (j + i) % 7 )); done)
	# ministat runs outside the test: where it crashes there is nothing to compare with.
	rc=0; (cd "$TRASH" && eval "ministat $opts $files" >"m$i" 2>/dev/null) || rc=$?
	if [ $rc -ge 128 ]; then
		test_skip "ntune stat $opts $files: identical to ministat" "ministat died of signal $((rc - 128))"
		continue
	fi
	test_expect_success "ntune stat $opts $files: identical to ministat (exit $rc)" "
		test_expect_code $rc eval \"\\\"\\\$NTUNE\\\" stat $opts $files\" >n 2>/dev/null &&
		diff -u m$i n
	"

done

test_done
