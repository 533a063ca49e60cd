#!/bin/sh
# load.sh - loading and printing a scene of 10^6 balls (springball -H -n 0)
# against its floor in plain C (tests/bench/floor.c: one read, strtod and the
# shortest digits of every number, one write: the same bytes).
#
# The scene: `random N 1 1 1 7` on a table of packing 0.3, printed once by
# springball (so that both read the shortest digits). Wall-clock seconds,
# median of RUNS alternating runs each (the two programs take turns, so that
# a busy spell of this shared machine falls on both), output to /dev/null.
#
# BENCH_FLOOR  the floor program (default build/bench-floor)
# N            balls (default 1000000), RUNS (default 5)
cd "$(dirname "$0")/../.." || exit 1
SPRINGBALL=${SPRINGBALL:-./springball}
BENCH_FLOOR=${BENCH_FLOOR:-build/bench-floor}
N=${N:-1000000}
RUNS=${RUNS:-5}
[ -x "$BENCH_FLOOR" ] || { echo "load.sh: $BENCH_FLOOR missing (make $BENCH_FLOOR)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
side=$(awk -v n="$N" 'BEGIN {printf "%.1f", sqrt(n * 3.141592653589793 / 0.3)}')
printf 'table %s %s\nrandom %s 1 1 1 7\n' "$side" "$side" "$N" >"$tmp/gen.scene"
"$SPRINGBALL" -H -n 0 "$tmp/gen.scene" >"$tmp/big.scene" || exit 1
sync
"$BENCH_FLOOR" "$tmp/big.scene" | cmp -s - "$tmp/big.scene" ||
    echo "load.sh: the floor does not print the same bytes"
secs() { # COMMAND...: wall seconds of one run
    s=$(date +%s.%N); "$@" >/dev/null; e=$(date +%s.%N)
    awk -v s="$s" -v e="$e" 'BEGIN {printf "%.3f\n", e - s}'
}
median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
: >"$tmp/sb"; : >"$tmp/fl"
r=0
while [ "$r" -lt "$RUNS" ]; do
    secs "$SPRINGBALL" -H -n 0 "$tmp/big.scene" >>"$tmp/sb"
    secs "$BENCH_FLOOR" "$tmp/big.scene" >>"$tmp/fl"
    r=$((r + 1))
done
sb=$(median <"$tmp/sb"); fl=$(median <"$tmp/fl")
printf '%-9s %9s | %-19s | %-19s | %s\n' balls MB "springball -H -n 0" "floor (floor.c)" ratio
printf '%-9s %9.1f | %8s s (%s..%s) | %8s s (%s..%s) | %.2f\n' "$N" \
    "$(wc -c <"$tmp/big.scene" | awk '{print $1 / 1e6}')" \
    "$sb" "$(sort -g "$tmp/sb" | head -1)" "$(sort -g "$tmp/sb" | tail -1)" \
    "$fl" "$(sort -g "$tmp/fl" | head -1)" "$(sort -g "$tmp/fl" | tail -1)" \
    "$(awk -v a="$sb" -v b="$fl" 'BEGIN {print a / b}')"
echo "seconds: median (least..most) of $RUNS alternating runs; ratio: springball over the floor"
