#!/bin/sh
# record.sh - what recording a run costs, and the scene as a LAMMPS run.
#
#  1. ns per number of the shortest round-trip printer against printf's
#     "%.17g" (medians of 7 alternating runs of 10^6 numbers, the range of
#     the runs in brackets);
#  2. extended XYZ frames written per second at 10^5 and 10^6 balls (a gas
#     from bench-grid gen) to /dev/null, so that the disk's bandwidth
#     (87 MB/s at 10^6 on this machine's) is left out, against the same
#     frames written by fprintf
#     "%.17g", and one frame's writing over the 10 steps between frames at
#     --every 10 (medians of RUNS alternating runs);
#  3. when lmp is installed: a 10^5-ball export run by LAMMPS on 1 and (with
#     mpirun) 2 ranks, seconds per step from its "Loop time" beside
#     springball's own (bench-grid run, the stepping alone).
#
# BENCH_RECORD, BENCH_GRID  the drivers (default build/bench-record, build/bench-grid)
# SIZES  the N of part 2 (default "100000 1000000")
cd "$(dirname "$0")/../.." || exit 1
BENCH_RECORD=${BENCH_RECORD:-build/bench-record}
BENCH_GRID=${BENCH_GRID:-build/bench-grid}
SPRINGBALL=${SPRINGBALL:-./springball}
SIZES=${SIZES:-"100000 1000000"}
for d in "$BENCH_RECORD" "$BENCH_GRID"; do
    [ -x "$d" ] || { echo "record.sh: $d missing (make $d)"; exit 1; }
done
SB=$(cd "$(dirname "$SPRINGBALL")" && pwd)/$(basename "$SPRINGBALL")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
field() { echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }

echo "-- printing a double (ns per number, median of 7 runs of 10^6, range)"
"$BENCH_RECORD" print 1000000 7 || exit 1

echo "-- extended XYZ frames written to /dev/null: the writer's own cost, without"
echo "   the disk's (medians; range of runs)"
printf '%-8s | %-20s | %-22s | %-20s | %5s | %5s | %7s | %s\n' N "frames/s, 1 thread" \
    "frames/s, all threads" "frames/s, %.17g" ratio "MB/fr" "ns/ball" \
    "frame / 10 steps (1 thread, all)"
for n in $SIZES; do
    case $n in
        1000000) frames=1 runs=5 ;;
        *) frames=4 runs=7 ;;
    esac
    "$BENCH_GRID" gen "$n" 1 100 "$tmp/gas.scene" "$tmp/gas.data" >/dev/null || exit 1
    rm -f "$tmp/gas.data"
    sync
    line=$("$BENCH_RECORD" frames "$tmp/gas.scene" "$frames" "$runs" /dev/null) || exit 1
    printf '%-8s | %6s (%-11s) | %6s (%-11s) %2s | %6s (%-11s) | %4sx | %5s | %7s | %s, %s\n' "$n" \
        "$(field frames_per_s "$line")" "$(field spread "$line")" \
        "$(field threads_frames_per_s "$line")" "$(field spread_threads "$line")" \
        "$(field threads "$line")" \
        "$(field printf_frames_per_s "$line")" "$(field spread_printf "$line")" \
        "$(field ratio "$line")" "$(field mb_per_frame "$line")" \
        "$(field ns_per_ball "$line")" "$(field frame_over_10_steps "$line")" \
        "$(field threads_frame_over_10_steps "$line")"
done

if ! command -v lmp >/dev/null 2>&1; then
    echo "-- LAMMPS is not installed: the scale-out timing is skipped"
    echo "   (Debian/Ubuntu: apt-get install lammps openmpi-bin)"
    exit 0
fi
echo "-- 10^5 balls (gas of bench-grid), 200 steps: seconds per step"
"$BENCH_GRID" gen 100000 1 100 "$tmp/gas.scene" "$tmp/gas.data" >/dev/null || exit 1
sb=$("$BENCH_GRID" run 200 3 "$tmp/gas.scene")
echo "springball (1 thread): $(awk -v s="$(field median_s "$sb")" 'BEGIN { printf "%.3g", s / 200 }')"
(cd "$tmp" && "$SB" --export=lammps big -n 200 gas.scene) || exit 1
for np in 1 2; do
    if [ "$np" -eq 1 ]; then
        (cd "$tmp" && lmp -in big.in -log big.log -screen none) || continue
    elif command -v mpirun >/dev/null 2>&1; then
        (cd "$tmp" && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
            mpirun --oversubscribe -np 2 lmp -in big.in -log big.log -screen none) || continue
    else
        echo "mpirun is not installed: 2 ranks skipped"
        continue
    fi
    awk -v np="$np" '/^Loop time of/ { printf "LAMMPS, %d rank(s): %.3g (%s atoms)\n", np, $4 / 200, $(NF - 1) }' \
        "$tmp/big.log"
done
