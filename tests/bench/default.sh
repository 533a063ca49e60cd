#!/bin/sh
# default.sh - the spring step in the scenes people run: the default k = 5
# and dt = 0.05, a gas of equal discs (r = 1, m = 1) at packing 0.3 and
# speed 1 (`random N 1 1 1 7` on a square table), single-threaded, and
# split over two threads (bench-grid run -t: --threads=2's split step, the
# helpers made once).
#
# bench-grid times sim_step alone (median of 3 runs of STEPS steps, one
# after the other): wall-clock ns per ball-step and the processor time's
# (this machine is shared: time spent waiting for a processor is not the
# program's), the list builds over all runs, the last build's skin, and the
# pairs listed per ball; then the wall-clock ns per ball-step on two
# threads (the same bits; on a busy machine the second thread waits).
#
# BENCH_GRID  the driver (default build/bench-grid)
# SIZES       the N to run (default "10000 100000 1000000")
cd "$(dirname "$0")/../.." || exit 1
BENCH_GRID=${BENCH_GRID:-build/bench-grid}
SIZES=${SIZES:-"10000 100000 1000000"}
[ -x "$BENCH_GRID" ] || { echo "default.sh: $BENCH_GRID missing (make $BENCH_GRID)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
field() { echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
printf '%-8s %6s | %8s %8s | %7s %6s %7s | %9s\n' N steps "ns/step" "cpu ns" builds skin listed \
    "2 threads"
for n in $SIZES; do
    case $n in
        10000) steps=1000 ;;
        100000) steps=100 ;;
        *) steps=20 ;;
    esac
    side=$(awk -v n="$n" 'BEGIN {printf "%.1f", sqrt(n * 3.141592653589793 / 0.3)}')
    printf 'table %s %s\nrandom %s 1 1 1 7\n' "$side" "$side" "$n" >"$tmp/gas.scene"
    line=$("$BENCH_GRID" run "$steps" 3 "$tmp/gas.scene") || exit 1
    two=$("$BENCH_GRID" run -t "$steps" 3 "$tmp/gas.scene") || exit 1
    printf '%-8s %6s | %8s %8s | %7s %6s %7s | %9s\n' "$n" "$steps" \
        "$(field ns_per_ballstep "$line")" "$(field cpu_ns_per_ballstep "$line")" \
        "$(field builds "$line")" "$(field skin "$line")" "$(field listed_per_ball "$line")" \
        "$(field ns_per_ballstep "$two")"
done
echo "ns/step: wall-clock ns per ball-step; cpu ns: the processor time's; builds: over"
echo "the 3 runs; skin: the last build's (r = 1); listed: pairs in the list per ball;"
echo "2 threads: wall-clock ns per ball-step of the step split over two threads"
