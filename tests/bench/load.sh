#!/bin/sh
# load.sh - loading and printing a scene of 10^6 balls (springball -H -n 0)
# against its floor in plain C (tests/bench/floor.c: one read, strtod and the
# shortest digits of every number, one write: the same bytes).
#
# A second floor, `floor -r`, reads the numbers with springball's own reader
# (text_double, exact as strtod and faster) instead of strtod: the same job
# with springball's two number routines, so that its second ratio is what
# springball spends beyond reading and printing numbers.
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
"$BENCH_FLOOR" -r "$tmp/big.scene" | cmp -s - "$tmp/big.scene" ||
    echo "load.sh: the floor -r does not print the same bytes"
secs() { # COMMAND...: wall seconds of one run
    s=$(date +%s.%N); "$@" >/dev/null; e=$(date +%s.%N)
    awk -v s="$s" -v e="$e" 'BEGIN {printf "%.3f\n", e - s}'
}
median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
: >"$tmp/sb"; : >"$tmp/fl"; : >"$tmp/fr"
r=0
while [ "$r" -lt "$RUNS" ]; do
    secs "$SPRINGBALL" -H -n 0 "$tmp/big.scene" >>"$tmp/sb"
    secs "$BENCH_FLOOR" "$tmp/big.scene" >>"$tmp/fl"
    secs "$BENCH_FLOOR" -r "$tmp/big.scene" >>"$tmp/fr"
    r=$((r + 1))
done
# FILE: "median s (least..most)"
spread() { printf '%s s (%s..%s)' "$(median <"$1")" "$(sort -g "$1" | head -1)" "$(sort -g "$1" | tail -1)"; }
ratio() { awk -v a="$(median <"$1")" -v b="$(median <"$2")" 'BEGIN {printf "%.2f", a / b}'; }
printf '%-9s %6s | %-22s | %-22s | %-22s | %s\n' balls MB "springball -H -n 0" \
    "floor (strtod)" "floor -r (text_double)" "ratios"
printf '%-9s %6.1f | %-22s | %-22s | %-22s | %s, %s\n' "$N" \
    "$(wc -c <"$tmp/big.scene" | awk '{print $1 / 1e6}')" \
    "$(spread "$tmp/sb")" "$(spread "$tmp/fl")" "$(spread "$tmp/fr")" \
    "$(ratio "$tmp/sb" "$tmp/fl")" "$(ratio "$tmp/sb" "$tmp/fr")"
echo "seconds: median (least..most) of $RUNS alternating runs; ratios: springball over each floor"
