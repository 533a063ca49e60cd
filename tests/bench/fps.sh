#!/bin/sh
# fps.sh - the terminal's pace with many balls: springball in tmux at 200 x 60
# at the default pace (20 time units a second, 30 frames a second asked) on
# two gases at the default k and dt:
#   gas     packing 0.3, speed 1 (`random N 1 1 1 7` on a square table, the
#           scene of tests/bench/default.sh), N in SIZES;
#   lively  packing 0.1, speed 8 (`random N R 1 8 7` on 800 x 400, R for
#           packing 0.1: the gas of tests/bench/view.sh), N in LIVELY_SIZES.
# Each run waits for the run to start and WARM seconds more, then over a
# window of WINDOW seconds: the frames written to the terminal (the bytes
# tmux saw, a frame begun wherever the cursor goes up: curses draws a frame
# top to bottom), the time units run (the status line's t at the window's
# two ends, over the wall time between), and whether the status line said
# "behind" at any of its readings (one a second). Medians (least..most) of
# RUNS runs (default 3), and the load average at the start and end of each
# row. The machine may be shared: a busy spell lowers all of these.
#
# SCENES        which gases (default "gas lively")
# SIZES         the gas's N (default "10000 100000")
# LIVELY_SIZES  the lively gas's N (default "100000")
# WARM, WINDOW  seconds (default 2 and 6)
# ARGS          more options for springball (e.g. --no-thread: one thread)
cd "$(dirname "$0")/../.." || exit 1
SB=$(cd "$(dirname "$SPRINGBALL")" && pwd)/$(basename "$SPRINGBALL")
SCENES=${SCENES:-"gas lively"}
SIZES=${SIZES:-"10000 100000"}
LIVELY_SIZES=${LIVELY_SIZES:-"100000"}
RUNS=${RUNS:-3}
WARM=${WARM:-2}
WINDOW=${WINDOW:-6}
if ! command -v tmux >/dev/null 2>&1; then
    echo "tmux is not installed: skipped"
    exit 0
fi
tmp=$(mktemp -d)
sock=sbfps$$
T() { tmux -L "$sock" "$@"; }
trap 'T kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
range() { echo "$(median <"$1") ($(sort -g "$1" | head -1)..$(sort -g "$1" | tail -1))"; }
load() { cut -d' ' -f1 /proc/loadavg; }
now() { date +%s.%N; }
status() { T capture-pane -p -t b | tail -n 1; }
t_of() { echo "$1" | awk '{for (i = 1; i < NF; i++) if ($i == "t") {print $(i + 1); exit}}'; }

# frames FILE FROM TO: the frames begun in bytes FROM .. TO of FILE (a
# cursor address or move to a row above the cursor's starts one)
frames() {
    head -c "$3" "$1" | tail -c +"$(($2 + 1))" | LC_ALL=C awk '
        BEGIN { RS = "\033\\["; row = 0; n = 0 }
        NR > 1 {
            if (match($0, /^[0-9]*(;[0-9]*)?[HfABd]/)) {
                s = substr($0, 1, RLENGTH); c = substr(s, RLENGTH, 1)
                v = s + 0; if (v == 0) v = 1
                if (c == "H" || c == "f" || c == "d") new = v
                else if (c == "A") new = row - v
                else new = row + v
                if (new < row) n++
                row = new
            }
        }
        { row += gsub(/\n/, "") }
        END { print n }'
}

# run SCENEFILE: one run; prints "fps t_per_s behind_readings readings"
run() {
    out=$tmp/pty
    : >"$out"
    T -f /dev/null new-session -d -s b -x 200 -y 60 \
        "sleep 0.3; LC_ALL=C.UTF-8 TERM=xterm-256color exec $SB ${ARGS:-} --duration=120 $1"
    T pipe-pane -t b -o "cat >> $out"
    i=0 # wait for the run to start: the status line shows t
    while [ "$i" -lt 600 ]; do
        t=$(t_of "$(status)")
        [ -n "$t" ] && break
        sleep 0.1
        i=$((i + 1))
    done
    sleep "$WARM"
    line=$(status)
    s1=$(now)
    b1=$(wc -c <"$out")
    t1=$(t_of "$line")
    behind=0
    k=0
    while [ "$k" -lt "$WINDOW" ]; do
        sleep 1
        line=$(status)
        case $line in *behind*) behind=$((behind + 1)) ;; esac
        k=$((k + 1))
    done
    s2=$(now)
    b2=$(wc -c <"$out")
    t2=$(t_of "$line")
    T kill-session -t b 2>/dev/null
    f=$(frames "$out" "$b1" "$b2")
    awk -v f="$f" -v s1="$s1" -v s2="$s2" -v t1="${t1:-0}" -v t2="${t2:-0}" \
        -v b="$behind" -v k="$WINDOW" \
        'BEGIN { printf "%.1f %.2f %d %d\n", f / (s2 - s1), (t2 - t1) / (s2 - s1), b, k }'
}

T -f /dev/null new-session -d -s keep "sleep 3600" # keeps the server up
printf '%-7s %-7s | %-18s | %-20s | %-9s | %s\n' scene N "fps (least..most)" "t/s (least..most)" behind load
for scene in $SCENES; do
    case $scene in
    gas) sizes=$SIZES ;;
    lively) sizes=$LIVELY_SIZES ;;
    *) echo "fps.sh: no scene $scene" >&2; exit 1 ;;
    esac
    for n in $sizes; do
        if [ "$scene" = gas ]; then
            side=$(awk -v n="$n" 'BEGIN {printf "%.1f", sqrt(n * 3.141592653589793 / 0.3)}')
            printf 'table %s %s\nrandom %s 1 1 1 7\n' "$side" "$side" "$n" >"$tmp/s.scene"
        else
            r=$(awk -v n="$n" 'BEGIN { printf "%.6g", sqrt(0.1 * 800 * 400 / (3.14159265358979 * n)) }')
            printf 'table 800 400\nrandom %s %s 1 8 7\n' "$n" "$r" >"$tmp/s.scene"
        fi
        : >"$tmp/fps"; : >"$tmp/tps"; bsum=0; ksum=0; l0=$(load)
        j=0
        while [ "$j" -lt "$RUNS" ]; do
            set -- $(run "$tmp/s.scene")
            echo "$1" >>"$tmp/fps"
            echo "$2" >>"$tmp/tps"
            [ "$3" -gt 0 ] && bsum=$((bsum + 1))
            j=$((j + 1))
            sleep 0.5
        done
        printf '%-7s %-7s | %-18s | %-20s | %-9s | %s-%s\n' "$scene" "$n" "$(range "$tmp/fps")" \
            "$(range "$tmp/tps")" "$bsum of $RUNS" "$l0" "$(load)"
    done
done
echo "fps: frames written to the terminal a second over a ${WINDOW} s window (after the start and"
echo "${WARM} s); t/s: time units run a second over it (the default pace asks 20, 30 fps);"
echo "behind: runs whose status line said so at any of its ${WINDOW} readings in the window"
