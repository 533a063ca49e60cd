#!/bin/sh
# tui.sh - what the terminal front end costs: bytes written to the terminal
# per frame while the break runs (counted from the pty with tmux pipe-pane),
# CPU while running and while paused (from /proc), and the time to draw
# 10^4 balls into the view (a small C driver linked with build/view.o).
# Medians of 3 runs; the machine is shared, so read the numbers as rough.
cd "$(dirname "$0")/../.." || exit 1
SB=$(cd "$(dirname "$SPRINGBALL")" && pwd)/$(basename "$SPRINGBALL")
if ! command -v tmux >/dev/null 2>&1; then
    echo "tmux is not installed: skipped"
    exit 0
fi
tmpd=$(mktemp -d)
sock=sbbench$$
T() { tmux -L "$sock" "$@"; }
trap 'T kill-server 2>/dev/null; rm -rf "$tmpd"' EXIT
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
bytes() { wc -c <"$1" | tr -d ' '; }
hz=$(getconf CLK_TCK)
T -f /dev/null new-session -d -s keep "sleep 600" # keeps the server up

# ticks PID: user + system CPU ticks so far
ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null; }

# run_bytes COLS ROWS: one 11 s run of the break; prints
# "first-second-bytes bytes-per-frame fps"
run_bytes() {
    out=$tmpd/pty.$1x$2
    : >"$out"
    T -f /dev/null new-session -d -s b -x "$1" -y "$2" \
        "sleep 0.5; LC_ALL=C.UTF-8 TERM=xterm-256color exec $SB --duration=11"
    T pipe-pane -t b -o "cat >> $out"
    sleep 1.5
    b1=$(bytes "$out")
    sleep 9.5
    fps=$(T capture-pane -p -t b | tail -n 1 | sed -n 's/.*  \([0-9]*\) fps.*/\1/p')
    b2=$(bytes "$out")
    sleep 0.6
    T kill-session -t b 2>/dev/null
    awk -v b1="$b1" -v b2="$b2" -v f="${fps:-30}" \
        'BEGIN { printf "%d %.0f %d\n", b1, (b2 - b1) / (9.5 * f), f }'
}

echo "bytes written to the terminal, the break (built-in scene) at speed 20"
printf '%-9s %14s %16s %5s\n' size "first second" "bytes/frame" fps
for size in "80 24" "100 32" "200 60"; do
    set -- $size
    for i in 1 2 3; do run_bytes "$1" "$2"; done >"$tmpd/runs"
    first=$(cut -d' ' -f1 <"$tmpd/runs" | median)
    per=$(cut -d' ' -f2 <"$tmpd/runs" | median)
    fps=$(cut -d' ' -f3 <"$tmpd/runs" | median)
    printf '%-9s %14s %16s %5s\n' "$1x$2" "$first" "$per" "$fps"
done

# cpu_pct SECONDS: CPU of the program in the session over SECONDS
cpu_pct() {
    pid=$(cat "$tmpd/pid")
    a=$(ticks "$pid")
    sleep "$1"
    b=$(ticks "$pid")
    awk -v a="$a" -v b="$b" -v s="$1" -v hz="$hz" 'BEGIN { printf "%.1f\n", 100 * (b - a) / (s * hz) }'
}
echo
echo "CPU use, the break at 100x32, 4 s windows"
for i in 1 2 3; do
    T -f /dev/null new-session -d -s c -x 100 -y 32 \
        "LC_ALL=C.UTF-8 TERM=xterm-256color sh -c 'echo \$\$ > $tmpd/pid; exec $SB'"
    sleep 1
    cpu_pct 4 >>"$tmpd/running"
    T send-keys -t c ' '
    sleep 0.5
    cpu_pct 4 >>"$tmpd/paused"
    T kill-session -t c 2>/dev/null
    sleep 0.2
done
printf '%-10s %6s%%\n' running "$(median <"$tmpd/running")" paused "$(median <"$tmpd/paused")"

# Drawing 10^4 balls into a 200x60 view: the front end's per-frame cost
# apart from the physics.
echo
if [ -f build/view.o ]; then
    cat >"$tmpd/vb.c" <<'EOC'
#include "view.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
int main(void)
{
    enum { N = 10000, FRAMES = 200 };
    static double x[N], y[N];
    struct view v;
    view_init(&v);
    if (view_layout(&v, 200, 58, 0, 0, 2000, 1000, 2, VIEW_RIM_BOX, VIEW_BRAILLE))
        return 1;
    srand(1);
    for (int i = 0; i < N; i++) {
        x[i] = 2000.0 * rand() / RAND_MAX;
        y[i] = 1000.0 * rand() / RAND_MAX;
    }
    struct timespec a, b;
    size_t painted = 0;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int f = 0; f < FRAMES; f++) {
        view_begin(&v);
        for (int i = 0; i < N; i++)
            view_ball(&v, x[i] + f, y[i], 3, 1);
        view_end(&v);
        painted += v.nused;
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    double us = ((b.tv_sec - a.tv_sec) * 1e6 + (b.tv_nsec - a.tv_nsec) / 1e3) / FRAMES;
    printf("%.0f %zu\n", us, painted / FRAMES);
    view_free(&v);
    return 0;
}
EOC
    if cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Isrc -o "$tmpd/vb" "$tmpd/vb.c" build/view.o -lm; then
        for i in 1 2 3; do "$tmpd/vb"; done >"$tmpd/vb.out"
        us=$(cut -d' ' -f1 <"$tmpd/vb.out" | median)
        cells=$(cut -d' ' -f2 <"$tmpd/vb.out" | head -n 1)
        echo "view: 10^4 balls (radius 3) into 200x58 cells: $us us a frame, $cells cells covered"
    fi
fi
