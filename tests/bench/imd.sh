#!/bin/sh
# imd.sh - a live run watched (issue 40): a gas of N balls (default 10^5)
# exported with --imd (trate 10) and run by LAMMPS for STEPS steps
# (default 200) with -H --connect recording every frame (--traj), against
# the same run without fix imd, and against the same frames replayed from
# the file (bench-traj: a step forward); the key-to-paused latency in the
# terminal (TRIALS presses of space, default 10: the key to the PAUSE at a
# fake server, stamped as it comes, and the key to "paused" on the screen;
# then the same on the LAMMPS run of N balls, --engine=lammps, the key to
# the last frame that comes); then the CPU that -H --follow and the
# terminal's --follow use over IDLE seconds (default 5) on a file that does
# not grow. Needs lmp; GNU time for the CPU figures; tmux for the terminal.
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
TRIALS=${TRIALS:-10}
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

# --- the terminal: key-to-paused latency, CPU following an idle file -------
command -v tmux >/dev/null || { echo "  (no tmux: the terminal's figures skipped)"; exit 0; }
sock=sbbenchimd$$
T() { tmux -L "$sock" "$@" 9>&-; }
trap 'T kill-server 2>/dev/null; rm -rf "$dir"' EXIT
T -f /dev/null new-session -d -s keep "sleep 3600"
now() { date +%s.%N; }
shows() { T capture-pane -p -t "$1" 2>/dev/null | grep -qE -- "$2"; }
# until NAME shows ERE, 30 s at most (polled every 10 ms); 1 when it never does
until_shows() {
    k=0
    until shows "$1" "$2"; do
        k=$((k + 1))
        [ $k -ge 3000 ] && return 1
        sleep 0.01
    done
}
# the median, least and largest of the numbers on standard input, in ms
stats_ms() { sort -g | awk '{ v[NR] = $1 } END { if (!NR) { print "none"; exit }
    m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%.1f ms median, %.1f to %.1f (%d presses)", 1000 * m, 1000 * v[1], 1000 * v[NR], NR }'; }
IMDFAKE_STAMP=1 "$IMDFAKE" serve live "$dir/port" 16 >"$dir/sent" 2>&1 &
fpid=$!
k=0
until [ -s "$dir/port" ] || [ $k -ge 300 ]; do sleep 0.01; k=$((k + 1)); done
T -f /dev/null new-session -d -s fk -x 100 -y 30 "LC_ALL=C.UTF-8 TERM=xterm-256color $SB --connect=127.0.0.1:$(cat "$dir/port")"
until_shows fk "live . running" || echo "  the terminal did not show the fake run"
: >"$dir/lat.srv"
: >"$dir/lat.scr"
for t in $(seq "$TRIALS"); do
    t0=$(now)
    T send-keys -t fk ' '
    until_shows fk "live . paused"
    t2=$(now)
    k=0
    until [ "$(grep -c '^PAUSE' "$dir/sent")" -ge $((2 * t - 1)) ] || [ $k -ge 3000 ]; do sleep 0.01; k=$((k + 1)); done
    t1=$(grep '^PAUSE' "$dir/sent" | sed -n "$((2 * t - 1))s/.*@//p")
    echo "$t1 - $t0" | bc -l >>"$dir/lat.srv"
    echo "$t2 - $t0" | bc -l >>"$dir/lat.scr"
    T send-keys -t fk ' '
    until_shows fk "live . running"
done
echo "load $(cut -d' ' -f1-3 /proc/loadavg): key (tmux send-keys) to paused, a fake IMD server (a frame every 40 ms):"
echo "  to the PAUSE at the server: $(stats_ms <"$dir/lat.srv")"
echo "  to 'paused' on the screen (polled every 10 ms): $(stats_ms <"$dir/lat.scr")"
T kill-session -t fk
kill "$fpid" 2>/dev/null
# LAMMPS: N balls in the terminal; the key to 'paused' shown, and to the
# last frame that came (the run stopped; within one frame's interval)
rm -rf "$dir/t" && mkdir "$dir/t"
T -f /dev/null new-session -d -s lk -x 100 -y 30 "LC_ALL=C.UTF-8 TERM=xterm-256color TMPDIR=$dir/t $SB --engine=lammps --trate=10 $dir/gas.scene"
if until_shows lk "live . running . a frame / 10 steps"; then
    frame_now() { T capture-pane -p -t lk | sed -n 's/.* frame \([0-9]*\) .*/\1/p'; }
    : >"$dir/lat.lscr"
    : >"$dir/lat.last"
    for t in $(seq 3); do
        until_shows lk "frame [0-9]+ " || break
        t0=$(now)
        T send-keys -t lk ' '
        until_shows lk "live . paused"
        t2=$(now)
        # the last frame: the counter still for 2 s after it last moved
        last=$(frame_now)
        tl=$t2
        while :; do
            sleep 0.01
            f=$(frame_now)
            if [ "$f" != "$last" ]; then last=$f; tl=$(now); fi
            [ "$(echo "$(now) - $tl > 2" | bc -l)" = 1 ] && break
        done
        echo "$t2 - $t0" | bc -l >>"$dir/lat.lscr"
        echo "$tl - $t0" | bc -l >>"$dir/lat.last"
        T send-keys -t lk ' '
        until_shows lk "live . running"
        sleep 1
    done
    echo "  LAMMPS, $N balls, trate 10: to 'paused' on the screen: $(stats_ms <"$dir/lat.lscr")"
    echo "  ... the last frame that came (the run stopped, within a frame) by: $(stats_ms <"$dir/lat.last")"
else
    echo "  LAMMPS in the terminal did not start"
fi
T send-keys -t lk q
# the terminal's --follow on an idle file (its first frame whole): its CPU
# over IDLE s
head -n $((N + 2)) "$dir/frames.xyz" >"$dir/idle1.xyz"
T -f /dev/null new-session -d -s fw -x 100 -y 30 "LC_ALL=C.UTF-8 TERM=xterm-256color sh -c 'echo \$\$ >$dir/fw.pid; exec $SB --follow $dir/idle1.xyz'"
until_shows fw "live" || { echo "  the terminal's --follow did not start"; exit 0; }
pid=$(cat "$dir/fw.pid")
ticks=$(getconf CLK_TCK)
c0=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
sleep "$IDLE"
c1=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
echo "  the terminal's --follow on an idle file for $IDLE s: CPU $(echo "($c1 - $c0) / $ticks" | bc -l | awk '{ printf "%.2f", $1 }') s ($(echo "100 * ($c1 - $c0) / $ticks / $IDLE" | bc -l | awk '{ printf "%.1f", $1 }') % of a core)"
T send-keys -t fw q
