#!/bin/sh
# fps.sh - the terminal's frame rate with many balls: springball in tmux at
# 200 x 60 on a gas at the default k and dt (packing 0.3, speed 1: `random N
# 1 1 1 7` on a square table, the scene of tests/bench/default.sh), at the
# default pace (20 t/s, 30 fps asked). After 9.5 s the status line gives the
# frames a second, whether it says "behind", and t (so steps a second:
# t / dt over the time run). Medians of RUNS runs (default 3); the machine
# is shared, so a busy spell lowers both.
#
# SIZES  the N to run (default "10000 100000")
# ARGS   more options for springball (e.g. --no-thread: one thread)
cd "$(dirname "$0")/../.." || exit 1
SB=$(cd "$(dirname "$SPRINGBALL")" && pwd)/$(basename "$SPRINGBALL")
SIZES=${SIZES:-"10000 100000"}
RUNS=${RUNS:-3}
if ! command -v tmux >/dev/null 2>&1; then
    echo "tmux is not installed: skipped"
    exit 0
fi
tmp=$(mktemp -d)
sock=sbfps$$
T() { tmux -L "$sock" "$@"; }
trap 'T kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
T -f /dev/null new-session -d -s keep "sleep 600" # keeps the server up
printf '%-8s | %-19s | %-21s | %s\n' N "fps (least..most)" "steps/s (least..most)" behind
for n in $SIZES; do
    side=$(awk -v n="$n" 'BEGIN {printf "%.1f", sqrt(n * 3.141592653589793 / 0.3)}')
    printf 'table %s %s\nrandom %s 1 1 1 7\n' "$side" "$side" "$n" >"$tmp/gas.scene"
    : >"$tmp/fps"; : >"$tmp/sps"; behind=0
    r=0
    while [ "$r" -lt "$RUNS" ]; do
        T -f /dev/null new-session -d -s b -x 200 -y 60 \
            "LC_ALL=C.UTF-8 TERM=xterm-256color exec $SB ${ARGS:-} --duration=12 $tmp/gas.scene"
        s=$(date +%s.%N)
        sleep 9.5
        line=$(T capture-pane -p -t b | tail -n 1)
        e=$(date +%s.%N)
        T kill-session -t b 2>/dev/null
        echo "$line" | sed -n 's/.*  \([0-9]*\) fps.*/\1/p' >>"$tmp/fps"
        echo "$line" | awk -v s="$s" -v e="$e" '{for (i = 1; i < NF; i++) {
            if ($i == "t") t = $(i + 1); if ($i == "dt") dt = $(i + 1) }}
            END {if (dt > 0) printf "%.0f\n", t / dt / (e - s)}' >>"$tmp/sps"
        case $line in *behind*) behind=$((behind + 1)) ;; esac
        r=$((r + 1))
        sleep 0.5
    done
    fr="$(median <"$tmp/fps") ($(sort -g "$tmp/fps" | head -1)..$(sort -g "$tmp/fps" | tail -1))"
    sr="$(median <"$tmp/sps") ($(sort -g "$tmp/sps" | head -1)..$(sort -g "$tmp/sps" | tail -1))"
    printf '%-8s | %-19s | %-21s | %s of %s\n' "$n" "$fr" "$sr" "$behind" "$RUNS"
done
echo "fps: the status line's at 9.5 s; steps/s: t / dt over the wall time since the start"
echo "(the default pace asks 400); behind: runs whose status line said so"
