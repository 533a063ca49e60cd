#!/bin/sh
# worker.sh - the terminal's run on a second thread (issue 29): what a live
# run reaches with the worker is what one thread and -H reach, to the bit;
# keys, edits and stepping back while it steps behave as without it; q and
# a signal while it steps end the program cleanly. The real binary in a
# detached tmux session (own server socket); the state compared is what w
# saves.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
scratch

printf 'table 150 150\nrandom 2000 1 1 1 7\n' >"$tmpd/gas.scene"
printf 'table 1000 1000\nrandom 20000 1 1 1 7\n' >"$tmpd/big.scene"
"$SB" -H -T 3 "$tmpd/gas.scene" >"$tmpd/h3.scene"

tmux_open worker
run_wrapper # $tmpd/run: NAME.pid, NAME.rc (lib.sh)
# start NAME ARGS...: springball ARGS (a shell line) in session NAME
# (100 x 30), in its own directory $tmpd/NAME (where w saves); with SPLIT
# set, SPRINGBALL_SPLIT=$SPLIT (the worker splits each step from that
# many balls on)
start() {
    name=$1
    shift
    mkdir -p "$tmpd/$name"
    (cd "$tmpd/$name" &&
        pane "$name" 100 30 "${SPLIT:+SPRINGBALL_SPLIT=$SPLIT }sh $tmpd/run $tmpd $name $SB $*")
}
# threads NAME: the most threads NAME's springball had at once over a
# second (0 where /proc does not list them)
threads() {
    most=0
    for i in 1 2 3 4 5 6 7 8 9 10; do
        c=$(ls "/proc/$(cat "$tmpd/$1.pid")/task" 2>/dev/null | wc -l)
        [ "$c" -gt "$most" ] && most=$c
        sleep 0.1
    done
    echo "$most"
}
# saved NAME: what w saved in NAME's directory, without the cue line
saved() { grep -v '^cue ' "$tmpd/$1/springball-1.scene"; }
# same NAME FILE: NAME's saved scene is FILE, byte for byte
same() { saved "$1" | cmp -s - "$2"; }

# -T pauses the run at the step -H -T ends on; the worker's state is -H's,
# at the default pace and far behind it (the advance cut by the clock
# every frame), each step split over two threads (ws*) or not, and the
# same as one thread's.
for v in "wd:" "wf:--speed=400" "ws:" "wsf:--speed=400" "wn:--no-thread" \
    "wnf:--no-thread --speed=400"; do
    n=${v%%:*} o=${v#*:}
    case $n in ws*) SPLIT=1000 ;; *) SPLIT= ;; esac
    l="$o${SPLIT:+ split}"
    start "$n" "$o -T 3 $tmpd/gas.scene"
    check "-T 3 $l: paused there" wait_for "$n" "paused at t = 3 \(-T\)" 20
    keys "$n" w
    check "-T 3 $l: saved" wait_for "$n" "saved springball-1.scene"
    check "-T 3 $l: the state is -H -T 3's, to the bit" same "$n" "$tmpd/h3.scene"
    keys "$n" q
    check "-T 3 $l: q exits 0" [ "$(wait_rc "$n")" = 0 ]
done
SPLIT=

# Keys while it steps: stepping back and forth, k, reverse, a ball
# removed, between waits of simulated time (which end exactly where
# --snapshot's do): the same state as --snapshot and as one thread.
script="<t 2> , , . k space <t 1> V x <t 0.5> . space <t 1.5> space w"
(mkdir -p "$tmpd/snap" && cd "$tmpd/snap" && "$SB" --snapshot --keys="$script" "$tmpd/gas.scene" >/dev/null)
grep -v '^cue ' "$tmpd/snap/springball-1.scene" >"$tmpd/snap.scene"
check "keys: --snapshot saved its state" [ -s "$tmpd/snap.scene" ]
for v in "kw:" "ks:" "kn:--no-thread"; do
    n=${v%%:*} o=${v#*:}
    case $n in ks) SPLIT=1000 ;; *) SPLIT= ;; esac
    l="$o${SPLIT:+ split}"
    start "$n" "$o --keys='$script' $tmpd/gas.scene"
    check "keys $l: saved" wait_for "$n" "saved springball-1.scene" 20
    check "keys $l: the state is --snapshot's, to the bit" same "$n" "$tmpd/snap.scene"
    keys "$n" q
done
SPLIT=

# Always behind (20000 balls at 40000 t/s): the worker steps all the time;
# the keys still answer within a frame or so, q and SIGINT end it cleanly.
start bq "--speed=40000 $tmpd/big.scene"
check "behind: says so" wait_for bq "behind: cannot keep" 20
if [ -d /proc/self/task ]; then # the steps split from 50000 balls on
    check "behind: two threads, the steps not split (20000 balls)" [ "$(threads bq)" -le 2 ]
fi
keys bq ' '
check "behind: space pauses" wait_for bq "paused · speed"
# step NAME: the step on the status line; stays NAME: the same over 0.5 s
step() { status "$1" | sed -n 's/.* step \([0-9]*\) .*/\1/p'; }
stays() { st=$(step "$1"); sleep 0.5; [ -n "$st" ] && [ "$st" = "$(step "$1")" ]; }
check "behind: paused, the step stays" soon stays bq
keys bq ','
check "behind: , steps back one (from $st)" wait_for bq " step $((st - 1)) "
keys bq ' '
check "behind: running again" wait_for bq "running · speed"
keys bq q
check "behind: q exits 0" [ "$(wait_rc bq)" = 0 ]
start bi "--speed=40000 $tmpd/big.scene"
check "SIGINT: running" wait_for bi "behind: cannot keep" 20
kill -INT "$(cat "$tmpd/bi.pid")"
check "SIGINT: exits 130" [ "$(wait_rc bi)" = 130 ]

# 10^5 balls: while running the status line's sums may be a few frames
# old (the observers' share is bounded), never once paused: E after a
# pause is the state's, the same after ',' and '.' come back to it.
printf 'table 1023.3 1023.3\nrandom 100000 1 1 1 7\n' >"$tmpd/e5.scene"
start e5 "$tmpd/e5.scene"
check "1e5: running" wait_for e5 " step [0-9]{2,} " 20
if [ -d /proc/self/task ]; then # the steps split from 50000 balls on
    check "1e5: three threads (the steps split)" [ "$(threads e5)" -ge 3 ]
fi
# While running, the line is one state's even when its sums are older than
# the table's balls: its E is that of its own step (-H --stats to the step).
one=1 seen=""
for i in 1 2 3 4; do
    line=$(status e5)
    st=$(echo "$line" | sed -n 's/.* step \([0-9]*\) .*/\1/p')
    e=$(echo "$line" | sed -n 's/.* E \([-0-9.e+]*\) .*/\1/p')
    eh=$("$SB" -H -n "${st:-0}" --stats "$tmpd/e5.scene" 2>&1 >/dev/null |
        sed -n 's/.* e=\([^ ]*\) .*/\1/p')
    eh=$(awk -v x="$eh" 'BEGIN {printf "%.6g", x}')
    seen="$seen step $st: $e/$eh"
    [ -n "$e" ] && [ "$e" = "$eh" ] || one=0
done
check "1e5: running, E is the line's step's ($seen)" [ "$one" = 1 ]
keys e5 ' '
check "1e5: paused" wait_for e5 "paused · speed"
check "1e5: paused, the step stays" soon stays e5
e1=$(status e5 | sed -n 's/.* E \([-0-9.e+]*\) .*/\1/p')
st=$(status e5 | sed -n 's/.* step \([0-9]*\) .*/\1/p')
keys e5 ','
check "1e5: ',' back" wait_for e5 " step $((st - 1)) "
keys e5 '.'
check "1e5: '.' forth" wait_for e5 " step $st "
e2=$(status e5 | sed -n 's/.* E \([-0-9.e+]*\) .*/\1/p')
check "1e5: paused, E is the state's ($e1, after , and . $e2)" \
    sh -c '[ -n "$1" ] && [ "$1" = "$2" ]' sh "$e1" "$e2"
keys e5 q

summary
