#!/bin/sh
# imd.sh - --connect (IMD, issue 40): the fake servers of tests/imdfake.c,
# good and hostile, then a real LAMMPS run with fix imd (skipped with a
# message when lmp is not installed): frames against its own dump, PAUSE,
# a force pulse, DISCONNECT and KILL. Every wait is for a condition (a
# port file, a line in LAMMPS's output, a process's end), each with a cap
# (WAIT, LCAP: reap and capped in lib.sh) past which it fails, saying so;
# the one span of time is PAUSE's "no frame for 1 s".
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
IMDFAKE=${IMDFAKE:-build/imdfake}
if [ ! -x "$IMDFAKE" ]; then
    echo "imd: $IMDFAKE is not built (make $IMDFAKE)"
    bad "imdfake built"
    summary
    exit
fi
FAKE=$(cd "$(dirname "$IMDFAKE")" && pwd)/$(basename "$IMDFAKE")
tmp=$(mktemp -d)
pids=""
cleanup() {
    for p in $pids; do kill "$p" 2>/dev/null; done
    if [ -n "${sock:-}" ]; then T kill-server 2>/dev/null; fi
    rm -rf "$tmp"
}
trap cleanup EXIT
out=$tmp/out
err=$tmp/err

# serve MODE [N [FRAMES]]: a fake server in the background; $port its port
serve() {
    rm -f "$tmp/port"
    "$FAKE" serve "$1" "$tmp/port" "${2:-3}" "${3:-5}" >"$tmp/sent" 2>&1 &
    spid=$!
    pids="$pids $spid"
    soon test -s "$tmp/port" || echo "imd: the fake server did not start"
    port=$(cat "$tmp/port")
}

# --- good servers ---------------------------------------------------------
# frame 2 of 3 atoms, one step a frame at dt 0.05: x = 20 + i, y = 2i + 1,
# velocities (frame 3 - frame 1) / (2 dt) = 200
serve good
"$SB" -H --connect=127.0.0.1:$port -n 2 >"$out" 2>"$err"
check "good: -n 2 succeeds" test $? -eq 0
check "good: frame 2's balls" test "$(grep '^ball' "$out" | cut -d' ' -f2-5 | tr '\n' ' ')" = \
    "20 1 200 0 21 3 200 0 22 5 200 0 "
check "good: velocities are said to be differences" grep -q "differences of frames" "$err"
check "good: z was dropped, and said" grep -q "z was dropped" "$err"
reap "$spid" "$WAIT" "the fake server"
check "good: GO, then DISCONNECT" test "$(tr '\n' ' ' <"$tmp/sent")" = "GO 0 DISCONNECT 0 "
cp "$out" "$tmp/good"

serve swapped
"$SB" -H --connect=127.0.0.1:$port -n 2 >"$out" 2>"$err"
check "swapped byte order: the same frame" cmp -s "$out" "$tmp/good"
serve energies
"$SB" -H --connect=127.0.0.1:$port -n 2 >"$out" 2>"$err"
check "ENERGIES blocks skipped: the same frame" cmp -s "$out" "$tmp/good"

# the last frame when the run ends first; --trate counts steps and is sent
serve end 3 4
"$SB" -H --connect=127.0.0.1:$port --trate=10 --stats >"$out" 2>"$err"
check "to the end: the last frame" grep -q '^ball 40 1 ' "$out"
check "to the end: step 40 at trate 10" grep -q 'steps=40 ' "$err"
serve good
"$SB" -H --connect=127.0.0.1:$port -n 2 --trate=10 >"$out" 2>"$err"
reap "$spid" "$WAIT" "the fake server"
check "--trate is sent" test "$(tr '\n' ' ' <"$tmp/sent")" = "GO 0 TRATE 10 DISCONNECT 0 "

# --traj and --series record every frame
serve good 3 5
"$SB" -H --connect=127.0.0.1:$port -n 4 --traj="$tmp/t.xyz" --series="$tmp/s.csv" >"$out" 2>"$err"
check "--traj: frames 1 to 4" test "$(grep -c '^3$' "$tmp/t.xyz")" -eq 4
check "--series: a header and 4 rows" test "$(wc -l <"$tmp/s.csv")" -eq 5

# a scene gives masses, radii and the table; its ball count must match
printf 'table 100 50\nball 0 0 0 0 2 0.4\nball 0 0 0 0 3 0.4\nball 0 0 0 0 4 0.4\n' >"$tmp/three.scene"
serve good
"$SB" -H --connect=127.0.0.1:$port -n 2 "$tmp/three.scene" >"$out" 2>"$err"
check "a scene: its table" grep -q '^table 100 50' "$out"
check "a scene: its masses and radii" grep -q '^ball 22 5 200 0 4 0.4' "$out"
printf 'table 100 50\nball 1 1 0 0 2 0.4\n' >"$tmp/one.scene"
serve good
expect_fail 1 "springball: --connect=127.0.0.1:$port: frame 1 has 3 atoms, not 1 as the scene's balls" \
    "$SB" -H --connect=127.0.0.1:$port -n 2 "$tmp/one.scene"

# --- hostile servers: a message each, exit 1, nothing printed -------------
# hostile MODE MESSAGE: the first line of stderr after the two notes
hostile() {
    serve "$1"
    "$SB" -H --connect=127.0.0.1:$port -n 3 >"$out" 2>"$err"
    rc=$?
    got=$(head -n 1 "$err")
    want="springball: --connect=127.0.0.1:$port: $2"
    if [ $rc -eq 1 ] && [ ! -s "$out" ] && [ "$got" = "$want" ]; then
        ok
    else
        bad "hostile $1: status $rc, '$got' (want 1, '$want')"
    fi
}
hostile shake "the server's first message is type 2 (FCOORDS), not a handshake (type 4): is this an IMD server (LAMMPS fix imd)?"
hostile version "the server's handshake gives IMD version 3 (or 50331648 in the other byte order), not 2"
hostile huge "frame 2 claims 2147483648 atoms, more than the 100000000 a frame may hold"
hostile big "frame 2 claims 2147483647 atoms, more than the 100000000 a frame may hold"
hostile resize "frame 2 has 4 atoms, not 3 as the first"
hostile nan "frame 2: atom 3's y is not a number"
hostile cut "the server closed the link in the middle of frame 2 (18 of 36 bytes)"
hostile type "the server sent PAUSE (type 7), which only a client sends, after frame 1"
hostile stall "the server stopped sending in the middle of frame 2 (18 of 36 bytes) for 5 s"

# a port nobody listens on: refused at once (well within 10 s)
port=$("$FAKE" port)
expect_fail 1 "springball: --connect=127.0.0.1:$port: cannot connect: Connection refused" \
    "$SB" -H --connect=127.0.0.1:$port -n 1
expect_fail 2 "springball: --connect: '127.0.0.1' is not HOST:PORT" \
    "$SB" -H --connect=127.0.0.1 -n 1
expect_fail 2 "springball: --connect: -n counts frames from 1" \
    "$SB" -H --connect=127.0.0.1:5 -n 0
expect_fail 2 "springball: standard output is not a terminal (use -H for a headless run)" \
    "$SB" --connect=127.0.0.1:5
expect_fail 2 "springball: --connect shows a run as it goes: in a terminal, or with -H" \
    "$SB" --snapshot --connect=127.0.0.1:5

# --- --export=lammps --imd -------------------------------------------------
(cd "$tmp" && "$SB" --export=lammps ex -n 400 --imd=5678 --trate=10 "$OLDPWD/scenes/headon.scene")
check "--imd: fix imd, nowait on, before the run" \
    test "$(grep -A1 '^fix imd' "$tmp/ex.in" | tr '\n' ' ')" = "fix imd all imd 5678 trate 10 nowait on run 400 "
expect_fail 2 "springball: --imd: '80' is not a port from 1024 to 65535 (fix imd takes no lower)" \
    "$SB" --export=lammps "$tmp/ex" -n 10 --imd=80 scenes/headon.scene
expect_fail 2 "springball: --imd=PORT adds fix imd to --export=lammps" \
    "$SB" -H -n 10 --imd=5678 scenes/headon.scene

# --- the terminal: a run that goes on (imdfake's live servers) ------------
# sent ERE: what the client sent (the fake server's log) matches, 5 s at most
sent() { poll 50 grep -qE -- "$1" "$tmp/sent"; }
tmpd=$tmp
tmux_open imd
run_wrapper
# the frames drawn as they come, velocities from differences, said
serve live
pane lv 80 24 "sh $tmpd/run $tmpd lv $SB --ascii --connect=127.0.0.1:$port"
check "terminal: frames come" wait_for lv "frame [0-9]+ +t [0-9.]+ +step [0-9]+"
check "terminal: velocities said to be differences" wait_for lv "v from differences of frames"
check "terminal: the title says live, running, the frame rate" \
    wait_for lv "live . running . a frame / 1 step"
# space pauses the run itself (PAUSE), and resumes it
T send-keys -t lv ' '
check "terminal: space sends PAUSE" sent "^PAUSE 0"
check "terminal: paused, said" wait_for lv "paused: \. one frame, space resumes"
# . while paused: PAUSE (the run resumes), the next frame, PAUSE again
# (paused again): exactly one frame through, the status line says so
frame_lv() { screen lv | sed -n 's/.* frame \([0-9]*\) .*/\1/p'; }
pauses() { grep -c '^PAUSE 0' "$tmp/sent"; }
k=$(frame_lv)
T send-keys -t lv .
check "terminal: . resumes the run (PAUSE) and pauses it again (PAUSE)" becomes 3 pauses
check "terminal: . one frame through ($k to $((k + 1)))" becomes $((k + 1)) frame_lv
check "terminal: . said on the status line, the frame, t and step whole at 80x24" \
    wait_for lv "^ frame $((k + 1)) +paused after one frame: \. another, space resumes +t [0-9.]+ +step [0-9]+"
check "terminal: ... and no frame more (the screen still)" still lv
check "terminal: ... still frame $((k + 1)), PAUSE 3 times" test "$(frame_lv) $(pauses)" = "$((k + 1)) 3"
# again: a frame the server sent before it heard the PAUSE (held), or the
# run resumed for the next: one frame either way
T send-keys -t lv .
check "terminal: . again: one frame more" becomes $((k + 2)) frame_lv
p=$(pauses)
T send-keys -t lv ' '
check "terminal: space again resumes" wait_for lv "live . running"
check "terminal: ... with PAUSE again" becomes $((p + 1)) pauses
# - and + the frame rate (TRATE), counted in the steps
T send-keys -t lv -- '-'
check "terminal: - sends TRATE 2" sent "^TRATE 2"
check "terminal: - a frame every 2 steps" wait_for lv "a frame / 2 steps"
T send-keys -t lv '+'
check "terminal: + sends TRATE 1" sent "^TRATE 1"
T send-keys -t lv '+'
check "terminal: + at trate 1 says so" wait_for lv "a frame every step already"
# a drag from ball 1 (the lowest: the last row of the table with a ball
# in it) to the right pushes it right: a positive force on atom 0
xy=$(screen lv | awk 'NR > 2 && NR < 23 && /@/ { i = index($0, "@"); s = substr($0, i)
    n = match(s, /[^@]/) - 1; r = NR; c = i + int(n / 2) } END { print c, r }')
sgr lv "0;${xy% *};${xy#* }M"
sgr lv "0;78;${xy#* }m"
check "terminal: a drag pushes ball 1 right ($xy)" sent "^MDCOMM 1 atom 0 force (0\.[0-9]*[1-9]|[1-9])[0-9.e+-]* [-0-9.e+]+ 0$"
# enter pushes the cue ball: a force on atom 0, taken away at the next frame
T send-keys -t lv Enter
check "terminal: enter sends a force on atom 0" sent "^MDCOMM 1 atom 0 force -?(0\.[0-9]*[1-9]|[1-9])[0-9.e+-]* 0 0"
check "terminal: ... and its end at the next frame" sent "^MDCOMM 1 atom 0 force 0 0 0"
check "terminal: the push said" wait_for lv "push: ball 1 toward v"
# the help open: the frames are still taken (a run waits on a viewer that
# stops reading)
T send-keys -t lv '?'
wait_for lv "keys 1/" >/dev/null
f1=$(status lv | sed -n 's/.*frame \([0-9]*\).*/\1/p')
later() { f2=$(status lv | sed -n 's/.*frame \([0-9]*\).*/\1/p'); [ "${f2:-0}" -gt "${f1:-0}" ]; }
check "terminal: frames come with the help open ($f1)" poll 50 later
T send-keys -t lv Escape
wait_gone lv "keys 1/" >/dev/null
# :kill asks once; any other key keeps the run, y ends it (KILL)
T send-keys -t lv ':kill' Enter
check "terminal: :kill asks" wait_for lv "end the run itself\? y ends it"
T send-keys -t lv n
check "terminal: another key keeps it" wait_for lv "the run goes on"
check "terminal: ... no KILL sent" not grep -q KILL "$tmp/sent"
T send-keys -t lv ':kill' Enter
wait_for lv "y ends it" >/dev/null
T send-keys -t lv y
check "terminal: y sends KILL" sent "^KILL 0"
check "terminal: the run ended, said" wait_for lv "the run was ended"
T send-keys -t lv q
check "terminal: q after the end exits 0" test "$(wait_rc lv)" = 0
# q disconnects and leaves the run going: the server takes the next client
serve live
pane lq 80 24 "sh $tmpd/run $tmpd lq $SB --connect=127.0.0.1:$port"
wait_for lq "frame [0-9]+" >/dev/null
T send-keys -t lq q
check "terminal: q exits 0" test "$(wait_rc lq)" = 0
check "terminal: q sends DISCONNECT" sent "^DISCONNECT 0"
"$SB" -H --connect=127.0.0.1:$port -n 2 >"$out" 2>"$err"
check "terminal: the run went on for the next client" test $? -eq 0
kill $pids 2>/dev/null
# a link closed between frames (the run ended, or not) says so; r reconnects
serve drop
pane ld 80 24 "sh $tmpd/run $tmpd ld $SB --connect=127.0.0.1:$port"
check "terminal: a closed link is said" wait_for ld "the run ended, or its link closed: r reconnects"
T send-keys -t ld r
check "terminal: r reconnects" sent "^client 2"
check "terminal: ... and the frames come again" wait_for ld "live . running"
T send-keys -t ld q
check "terminal: q after a reconnect exits 0" test "$(wait_rc ld)" = 0
kill $pids 2>/dev/null
# a run that sends nothing: the terminal waits, counting, and q quits at once
printf 'table 20 10\nball 5 1 0 0 1 0.5\nball 8 3 0 0 1 0.5\nball 11 5 0 0 1 0.5\n' >"$tmp/three.scene"
serve slow
pane lw 80 24 "sh $tmpd/run $tmpd lw $SB --connect=127.0.0.1:$port $tmp/three.scene"
check "terminal: a silent run: waiting, counted" wait_for lw "waiting for the run \([2-9] s\)"
T send-keys -t lw q
check "terminal: q quits a waiting link" test "$(wait_rc lw)" = 0
kill $pids 2>/dev/null
# hostile servers in the terminal: the link drops with the reason; the
# terminal is restored
for m in nan stall; do
    serve $m
    pane "h$m" 80 24 "sh $tmpd/run $tmpd h$m $SB --connect=127.0.0.1:$port"
    check "terminal: hostile $m: the link drops" wait_for "h$m" "the link dropped" 10
    T send-keys -t "h$m" q
    check "terminal: hostile $m: q exits 0" test "$(wait_rc "h$m")" = 0
    kill $pids 2>/dev/null
done

# --- LAMMPS ---------------------------------------------------------------
if ! command -v lmp >/dev/null 2>&1; then
    echo "imd: lmp is not installed: the runs with fix imd are skipped"
    summary
    exit
fi
here=$(pwd)

# Every wait on LAMMPS has a cap (LCAP seconds; a run here takes a few):
# a run that hangs is ended and the check after it fails, saying so.
LCAP=${LCAP:-120}

# lmp_done: waits for the LAMMPS run $lpid, LCAP seconds at most; a run
# still going then is ended and a check fails, naming the input
lmp_done() {
    reap "$lpid" "$LCAP" "LAMMPS on $lin"
    [ $? -ne 124 ] || bad "LAMMPS on $lin ended within $LCAP s"
}
# the cap itself: a job that hangs is ended at it, said, status 124
sleep 1000 &
hung=$!
reap "$hung" 1 "a job that hangs (the cap's own test)" >"$out"
check "a wait's cap: a hung job ends at it, status 124" test $? -eq 124
check "a wait's cap: ... and is gone" not alive "$hung"
check "a wait's cap: ... said" grep -q "timed out: a job that hangs" "$out"

# lammps NAME: starts lmp on $tmp/NAME.in in the background ($lpid)
lammps() {
    (cd "$tmp" && exec lmp -in "$1.in" -log "$1.log" -screen "$1.screen") &
    lpid=$!
    lin=$1.in
    pids="$pids $lpid"
}

# listening CMD...: CMD (a client) once fix imd listens: again while its
# connection is refused (LAMMPS buffers its screen, so no line says when;
# a probe would be taken as the client), 30 s at most. Output in $out, $err.
listening() {
    i=0
    while :; do
        capped "$LCAP" "$1 $2" "$@" >"$out" 2>"$err"
        rc=$?
        grep -q "Connection refused" "$err" && [ $i -lt 300 ] || return $rc
        sleep 0.1
        i=$((i + 1))
    done
}

# export NAME SCENE ARGS...: the scene with fix imd on a free port
# (nowait off: the run waits for us, so frame k is step 10 k)
export_imd() {
    nm=$1 sc=$2
    shift 2
    lport=$("$FAKE" port)
    case $sc in /*) ;; *) sc=$here/$sc ;; esac
    (cd "$tmp" && "$SB" --export=lammps "$nm" --imd="$lport" --trate=10 "$@" "$sc") &&
        sed -i 's/nowait on$/nowait off/' "$tmp/$nm.in"
}

# looping NAME N: NAME.in runs (nowait on) 100 steps at a time until the
# file go is there, then its N steps, then says "springball-test: the end"
looping() {
    sed -i -e 's/nowait off$/nowait on/' -e "s/^run $2\$/label wait\nrun 100\nif \"\$(is_file(go))\" then \"jump SELF done\"\njump SELF wait\nlabel done\nrun $2\nprint \"springball-test: the end\"/" \
        "$tmp/$1.in"
}

# frames against the run's own dump at the same steps (1e-4 relative)
export_imd brk scenes/break.scene -n 200 --every 10
lammps brk
listening "$SB" -H --connect=127.0.0.1:$lport -n 5 --trate=10 scenes/break.scene
check "LAMMPS: -n 5 at trate 10 ($(head -n 1 "$err"))" test $? -eq 0
cp "$out" "$tmp/brk.out"
lmp_done
check "LAMMPS: the run went on to its end" grep -q "^Loop time" "$tmp/brk.log"
awk '/^ITEM: TIMESTEP/ { getline; s = $1; on = 0; next } /^ITEM: ATOMS/ { on = (s == 50); next }
     /^ITEM/ { on = 0 } on { print $3, $4 }' "$tmp/brk.lammpstrj" >"$tmp/brk.dump"
grep '^ball' "$tmp/brk.out" | awk '{ print $2, $3 }' >"$tmp/brk.got"
check "LAMMPS: frame 5 is step 50 of the dump (1e-4 relative)" awk '
    NR == FNR { x[FNR] = $1; y[FNR] = $2; n = FNR; next }
    { dx = $1 - x[FNR]; dy = $2 - y[FNR]; if (dx < 0) dx = -dx; if (dy < 0) dy = -dy
      if (dx > 1e-4 * (x[FNR] < 0 ? -x[FNR] : x[FNR]) + 1e-9 ||
          dy > 1e-4 * (y[FNR] < 0 ? -y[FNR] : y[FNR]) + 1e-9) bad++; m++ }
    END { exit !(m == n && n == 16 && !bad) }' "$tmp/brk.dump" "$tmp/brk.got"

# PAUSE stops the steps: the frames under way arrive, then none for 1 s
# (unpaused, this run sends thousands a second); after PAUSE again, the
# next frame
export_imd pau scenes/headon.scene -n 100000
lammps pau
listening "$FAKE" client 127.0.0.1:$lport frames 2 pause quiet 1000 pause frames 1 kill
check "PAUSE: the frames stop, and come again ($(cat "$err"))" test $? -eq 0
k=$(sed -n 's/^quiet after frame //p' "$out")
check "PAUSE: the next frame after the pause ($k)" grep -q "^frame $((k + 1)) " "$out"
lmp_done
check "PAUSE: LAMMPS paused and went on" grep -q "Continuing run on IMD client request" "$tmp/pau.screen"
check "KILL: LAMMPS ended on the client's request" grep -q "terminated on IMD request" "$tmp/pau.screen"

# a force on one free ball, standing while the run's last 2000 steps go:
# each step adds F dt / m (1 %). F dt / m = 0.03 * 0.05 / 2 = 0.00075 is
# the most frequent change of vx from a step to the next (half of it on
# the steps that send a frame, where fix imd of IMD v2 adds no force)
printf 'table 1000 1000\nball 500 500 0 0 2 10\n' >"$tmp/one.scene"
export_imd pul "$tmp/one.scene" -n 2000 --every 1
looping pul 2000
lammps pul
listening "$FAKE" client 127.0.0.1:$lport frames 1 force 0 0.03 0 0 touch "$tmp/go" rest
check "a force: the client read to the run's end ($(cat "$err"))" test $? -eq 0
lmp_done
rm -f "$tmp/go"
check "a force: dv per step is F dt / m" awk '
    /^ITEM: ATOMS/ { getline; v = $6; if (have && v != last) c[sprintf("%.6g", v - last)]++
                     last = v; have = 1 }
    END { for (d in c) if (c[d] > best) { best = c[d]; mode = d + 0 }
          exit !(mode > 0.00075 * 0.99 && mode < 0.00075 * 1.01 && best > 1000) }' \
    "$tmp/pul.lammpstrj"

# DISCONNECT leaves the run going to its end: a run that loops until told
export_imd dis scenes/headon.scene -n 400
looping dis 400
lammps dis
listening "$SB" -H --connect=127.0.0.1:$lport -n 3 && touch "$tmp/go"
check "DISCONNECT: a frame printed" grep -q '^ball' "$out"
lmp_done
check "DISCONNECT: LAMMPS ran to its end" grep -q "^springball-test: the end" "$tmp/dis.screen"
check "DISCONNECT: LAMMPS saw the client leave" grep -q "IMD client detached" "$tmp/dis.screen"

# the terminal on a LAMMPS run (nowait off: it waits for its viewer; a
# probe first, which connects once fix imd listens and leaves): frames
# drawn, space pauses the run itself, :kill and y end it
export_imd trm scenes/break.scene -n 10000000
lammps trm
listening "$FAKE" client 127.0.0.1:$lport frames 1 bye
pane lt 80 24 "sh $tmpd/run $tmpd lt $SB --connect=127.0.0.1:$lport --trate=10 $here/scenes/break.scene"
check "LAMMPS, terminal: frames drawn" wait_for lt "frame [0-9]+ +t [0-9.]+ +step [0-9]+0 " 30
check "LAMMPS, terminal: the scene's title" shows lt "The break +live"
T send-keys -t lt ' '
check "LAMMPS, terminal: space pauses the run" wait_for lt "live . paused"
T send-keys -t lt ' '
check "LAMMPS, terminal: space again resumes it" wait_for lt "live . running"
T send-keys -t lt ':kill' Enter
wait_for lt "y ends it" >/dev/null
T send-keys -t lt y
check "LAMMPS, terminal: :kill ends it" wait_for lt "the run was ended"
lmp_done
check "LAMMPS, terminal: LAMMPS paused and went on" grep -q "Continuing run on IMD client request" "$tmp/trm.screen"
check "LAMMPS, terminal: LAMMPS ended on the request" grep -q "terminated on IMD request" "$tmp/trm.screen"
T send-keys -t lt q
check "LAMMPS, terminal: q exits 0" test "$(wait_rc lt)" = 0
summary
