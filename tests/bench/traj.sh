#!/bin/sh
# traj.sh - replaying a large recorded run (traj.h): a gas of N balls
# (default 10^6) at packing 0.2 recorded for FRAMES frames (default 50,
# about 4.3 GB at 10^6), then opened and read by bench-traj RUNS times:
# the index's time (one pass over the file, which the page cache holds
# after the writing; the first frame's reading included) and its rate, the
# median time of a step forward and back, the peak memory. The file is
# written to TRAJ_DIR (default /tmp; it needs the room) and removed.
#
# BENCH_TRAJ  the driver (default build/bench-traj)
cd "$(dirname "$0")/../.." || exit 1
BENCH_TRAJ=${BENCH_TRAJ:-build/bench-traj}
SPRINGBALL=${SPRINGBALL:-./springball}
N=${N:-1000000}
FRAMES=${FRAMES:-50}
RUNS=${RUNS:-3}
[ -x "$BENCH_TRAJ" ] || { echo "traj.sh: $BENCH_TRAJ missing (make $BENCH_TRAJ)"; exit 1; }
dir=$(mktemp -d "${TRAJ_DIR:-/tmp}/sbtraj.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
side=$(awk -v n="$N" 'BEGIN { printf "%d", sqrt(n * 3.14159265 / 0.2) }')
printf 'table %s %s\nrandom %s 1 1 1 7\n' "$side" "$side" "$N" >"$dir/gas.scene"
"$SPRINGBALL" -H -n $((FRAMES - 1)) --every 1 --traj="$dir/gas.xyz" "$dir/gas.scene" >/dev/null ||
    exit 1
echo "replay of $N balls, $FRAMES frames ($(du -h "$dir/gas.xyz" | cut -f1)): $RUNS runs"
echo "   index_s  GB/s  frame_first_s  step_fw_s  step_back_s  maxrss_MB"
i=0
while [ $i -lt "$RUNS" ]; do
    "$BENCH_TRAJ" "$dir/gas.xyz" | awk '{ printf "   %7.3f  %4.2f  %13.3f  %9.3f  %11.3f  %9.0f\n",
        $4, $1 / 1e9 / $4, $5, $6, $7, $8 }'
    i=$((i + 1))
done
