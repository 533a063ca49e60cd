#!/bin/sh
# view.sh - big scenes: what drawing costs the front end and the terminal.
# A gas at 10% packing on 800 x 400 with 10^3, 10^4 and 10^5 balls, drawn
# into 200 x 58 cells (a 200 x 60 terminal) at the default pace (20 time
# units a second, 30 frames a second: 13 steps of dt 0.05 a frame), by
# build/bench-view (tests/bench/view.c): the view's time a frame, the
# cells listed and changed, and the bytes a curses-like flush would send
# (an upper bound: curses moves the cursor more cheaply). Medians of 3
# runs. Then, when tmux is installed, the real program on the same gases
# in a 200 x 60 pane at the default speed, and 10^5 balls at speed 2 too
# (where the physics keeps up on one core): bytes from the pty a second,
# the fps the status line shows ("-" when it says behind) and their
# ratio. The machine is shared, so read them as rough.
cd "$(dirname "$0")/../.." || exit 1
BV=${BENCH_VIEW:-build/bench-view}
SB=$(cd "$(dirname "$SPRINGBALL")" && pwd)/$(basename "$SPRINGBALL")
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
tmpd=$(mktemp -d)
sock=sbview$$
trap 'tmux -L "$sock" kill-server 2>/dev/null; rm -rf "$tmpd"' EXIT

if [ -x "$BV" ]; then
    echo "drawing a gas into 200x58 cells, 40 frames (medians of 3 runs)"
    printf '%-7s %-8s %9s %8s %8s %12s %9s %9s\n' glyphs balls "draw ms" listed changed "bytes/frame" "step ms" steps
    for g in 0 1; do
        for n in 1000 10000 100000; do
            for i in 1 2 3; do "$BV" "$n" 200 58 40 "$g"; done >"$tmpd/runs"
            col() { cut -d' ' -f"$1" <"$tmpd/runs" | median; }
            printf '%-7s %-8s %9s %8s %8s %12s %9s %9s\n' "$([ "$g" = 0 ] && echo braille || echo ascii)" \
                "$n" "$(col 2)" "$(col 3)" "$(col 4)" "$(col 5)" "$(col 6)" "$(col 7)"
        done
    done
else
    echo "$BV is not built: skipped"
fi

if ! command -v tmux >/dev/null 2>&1; then
    echo "tmux is not installed: the terminal run is skipped"
    exit 0
fi
T() { tmux -L "$sock" "$@"; }
T -f /dev/null new-session -d -s keep "sleep 600"
# run N SPEED: the program on the gas of N balls in a 200x60 pane; prints
# "bytes-per-second fps" (fps "-" when the status line says behind).
run() {
    r=$(awk -v n="$1" 'BEGIN { printf "%.6g", sqrt(0.1 * 800 * 400 / (3.14159265358979 * n)) }')
    printf 'table 800 400\nrandom %s %s 1 8 7\n' "$1" "$r" >"$tmpd/gas.scene"
    out=$tmpd/pty
    : >"$out"
    T -f /dev/null new-session -d -s g -x 200 -y 60 \
        "sleep 0.3; LC_ALL=C.UTF-8 TERM=xterm-256color exec $SB --speed=$2 --duration=10 $tmpd/gas.scene"
    T pipe-pane -t g -o "cat >> $out"
    sleep 3
    b1=$(wc -c <"$out")
    sleep 6
    line=$(T capture-pane -p -t g | tail -n 1)
    b2=$(wc -c <"$out")
    T kill-session -t g 2>/dev/null
    fps=$(echo "$line" | sed -n 's/.*  \([0-9]*\) fps.*/\1/p')
    echo "$(( (b2 - b1) / 6 )) ${fps:--}"
}
echo
echo "the program on the gas in a 200x60 tmux pane, 6 s after a 3 s start (one run each)"
printf '%-8s %6s %14s %6s %12s\n' balls speed "bytes/second" fps bytes/frame
for nv in "1000 20" "10000 20" "100000 20" "100000 2"; do
    set -- $nv
    set -- "$1" "$2" $(run "$1" "$2")
    per=-
    [ "$4" != - ] && per=$(( $3 / $4 ))
    printf '%-8s %6s %14s %6s %12s\n' "$1" "$2" "$3" "$4" "$per"
done
