#!/bin/sh
# imd.sh - a live run watched (issue 40): a gas of N balls (default 10^5)
# exported with --imd (trate 10) and run by LAMMPS for STEPS steps
# (default 200) with -H --connect recording every frame (--traj), against
# the same run without fix imd, and against the same frames replayed from
# the file (bench-traj: a step forward); then the CPU that -H --follow
# uses over IDLE seconds (default 5) on a file that does not grow.
# Needs lmp; GNU time for the CPU figures.
#
# BENCH_TRAJ  the replay driver (default build/bench-traj)
# IMDFAKE     for a free port (default build/imdfake)
cd "$(dirname "$0")/../.." || exit 1
SPRINGBALL=${SPRINGBALL:-./springball}
BENCH_TRAJ=${BENCH_TRAJ:-build/bench-traj}
IMDFAKE=${IMDFAKE:-build/imdfake}
N=${N:-100000}
STEPS=${STEPS:-200}
IDLE=${IDLE:-5}
command -v lmp >/dev/null || { echo "imd.sh: lmp is not installed"; exit 0; }
SB=$(cd "$(dirname "$SPRINGBALL")" && pwd)/$(basename "$SPRINGBALL")
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
side=$(awk -v n="$N" 'BEGIN { printf "%d", sqrt(n * 3.14159265 * 9 / 0.2) }')
printf 'table %s %s\nrandom %s 3 1 1 7\n' "$side" "$side" "$N" >"$dir/gas.scene"
port=$("$IMDFAKE" port)
(cd "$dir" && "$SB" --export=lammps gas -n "$STEPS" --imd="$port" --trate=10 gas.scene) || exit 1
sed -i 's/nowait on$/nowait off/' "$dir/gas.in"
grep -v '^fix imd' "$dir/gas.in" >"$dir/plain.in"
(cd "$dir" && lmp -in plain.in -log plain.log -screen none)
(cd "$dir" && exec lmp -in gas.in -log gas.log -screen none) &
lpid=$!
i=0
until /usr/bin/time -f "%e %U %S" -o "$dir/client.time" "$SB" -H --connect=127.0.0.1:$port \
        --trate=10 --traj="$dir/frames.xyz" "$dir/gas.scene" >/dev/null 2>"$dir/client.err"; do
    grep -q "refused" "$dir/client.err" && [ $i -lt 300 ] || { cat "$dir/client.err"; exit 1; }
    sleep 0.1
    i=$((i + 1))
done
wait "$lpid"
frames=$((STEPS / 10))
plain=$(awk '/^Loop time/ { print $4 }' "$dir/plain.log")
live=$(awk '/^Loop time/ { print $4 }' "$dir/gas.log")
read -r wall user sys <"$dir/client.time"
echo "LAMMPS, $N balls, $STEPS steps: alone ${plain} s; watched at trate 10 ${live} s"
awk -v f="$frames" -v l="$live" -v w="$wall" -v u="$user" -v s="$sys" 'BEGIN {
    printf "  frames received: %.2f a second (the run'\''s pace); client CPU %.1f ms a frame (with --traj)\n",
        f / l, 1000 * (u + s) / f }'
if [ -x "$BENCH_TRAJ" ]; then
    "$BENCH_TRAJ" "$dir/frames.xyz" | awk '{ printf "  the same frames replayed from the file: a step forward %.1f ms (%.0f frames a second)\n",
        1000 * $6, 1 / $6 }'
fi
head -c 100000 "$dir/frames.xyz" >"$dir/idle.xyz"
/usr/bin/time -f "%U %S" -o "$dir/follow.time" timeout "$IDLE" "$SB" -H --follow -n 5 \
    "$dir/idle.xyz" >/dev/null 2>&1
read -r u s <<EOT
$(tail -n 1 "$dir/follow.time")
EOT
echo "  -H --follow on an idle file for $IDLE s: CPU ${u} s user, ${s} s system"
