#!/bin/sh
# tui.sh - the terminal front end as a person sees it: the real binary in a
# detached tmux session of fixed size (own server socket), keys sent with
# send-keys, the screen read with capture-pane. Every check waits
# for its condition (lib.sh: wait_for, becomes, soon), never for a span of time.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
scratch

# Options are checked before any terminal is needed.
u() { "$SB" "$@" >/dev/null 2>"$tmpd/err" </dev/null; echo "$?:$(head -n 1 "$tmpd/err")"; }
check "--fps 0" [ "$(u --fps 0)" = "2:springball: --fps: '0' must be > 0" ]
check "--fps 5000" [ "$(u --fps 5000)" = "2:springball: --fps: '5000' must be <= 1000" ]
check "--speed x" [ "$(u --speed x)" = "2:springball: --speed: 'x' is not a finite number" ]
check "--duration -1" [ "$(u --duration=-1)" = "2:springball: --duration: '-1' must be > 0" ]
check "--cell-aspect 0" [ "$(u --cell-aspect 0)" = "2:springball: --cell-aspect: '0' must be > 0" ]
check "--help lists the front end" sh -c '"$0" --help | grep -q -- --cell-aspect' "$SB"

tmux_open tui

run_wrapper # $tmpd/run: NAME.pid, NAME.rc (lib.sh)
# start NAME COLS ROWS ARGS...: springball ARGS in session NAME (LOCALE,
# when set, is an assignment that replaces LC_ALL=C.UTF-8)
start() {
    name=$1 w=$2 h=$3
    shift 3
    pane "$name" "$w" "$h" "${LOCALE:-} sh $tmpd/run $tmpd $name $SB $*"
}
# field NAME KEY: the number after KEY on the status line
field() { status "$1" | sed -n "s/.* $2 \([-0-9.e+]*\).*/\1/p"; }
# braille NAME [LINE]: the screen (or one line of it) shows braille dots
braille() {
    if [ -n "${2:-}" ]; then screen "$1" | sed -n "$2p"; else screen "$1"; fi |
        LC_ALL=C grep -q "$(printf '\342')[$(printf '\240-\243')]"
}
# wait_braille NAME: until it does
wait_braille() { soon braille "$1"; }
# nonascii NAME: the screen holds a byte outside printable ASCII
nonascii() { screen "$1" | LC_ALL=C grep -q "[^ -~]"; }

# --- the break at 100 x 32 ---
start a 100 32
check "title" wait_for a "springball · The break .*spring · running · speed 20 t/s · \? help"
check "box" wait_for a "┌─+┐"
check "balls in braille" wait_braille a
check "256 colours" soon shows_esc a "\[38;5;[0-9]+m"
check "status" wait_for a " t [0-9.]+  step [0-9]+  dt 0.05  k 5  E 50"
# pause stops t (after a few steps, so that there is a past to step into)
check "running" wait_for a " step [0-9]{2,}  "
keys a ' '
check "paused" wait_for a "paused · speed 20 t/s"
# t_stays NAME: t the same over half a second (the frame that says paused
# may be read before its status line has come)
t_stays() { ts1=$(field "$1" t); sleep 0.5; [ -n "$ts1" ] && [ "$ts1" = "$(field "$1" t)" ]; }
check "pause stops t" soon t_stays a
t1=$(field a t)
# . one step, , one back
s0=$(field a step)
keys a .
check "'.' advances one step (from $s0)" becomes $((s0 + 1)) field a step
check "'.' adds dt to t" becomes "$(awk "BEGIN{printf \"%.2f\", $t1 + 0.05}")" field a t
s1=$((s0 + 1))
keys a ,
keys a ,
keys a ,
check "',' goes back three (from $s1)" becomes $((s1 - 3)) field a step
# k K d D
keys a k
check "k divides by 1.25" becomes 4 field a k
keys a K
keys a K
check "K multiplies by 1.25" becomes 6.25 field a k
keys a d
check "d divides dt" becomes 0.04 field a dt
keys a D
keys a D
check "D multiplies dt" becomes 0.0625 field a dt
# dt too large for k: the warning
for i in 1 2 3 4 5; do keys a D; done
check "coarse dt warning" wait_for a "dt too coarse: [0-9.]+ steps/contact"
keys a r
check "reset: the balls back, k and dt kept (issue 42.4)" wait_for a " t 0.00  step 0  dt 0\.19[0-9]*  k 6\.25 "
# speed
keys a +
check "+ doubles the speed" wait_for a "paused · speed 40 t/s"
keys a -
keys a -
check "- halves the speed" wait_for a "paused · speed 10 t/s"
# unknown keys do nothing: the screen before them, then j J and '+', whose
# speed 20 says all three were read; the screen is the one before but for
# the speed ('-' brings it back)
check "settled before the unknown keys" soon still a
screen a >"$tmpd/before"
keys a j
keys a J
keys a +
check "unknown keys: '+' after them read" wait_for a "paused · speed 20 t/s"
soon sh -c 'tmux -L "$0" capture-pane -p -t a | sed "s/speed 20 t/speed 10 t/" | cmp -s - "$1"' "$sock" "$tmpd/before"
check "unknown keys do nothing" sh -c 'tmux -L "$0" capture-pane -p -t a | sed "s/speed 20 t/speed 10 t/" | diff "$1" -' "$sock" "$tmpd/before"
keys a -
check "unknown keys: speed 10 again" wait_for a "paused · speed 10 t/s"
# aim and kick: the arrow appears, enter adds speed 10 along +x: 20^2/2
keys a Left
check "aim arrow" wait_for a "⇒"
keys a Up
for i in 1 2 3 4 5 6 7 8; do keys a Up; done
check "aim turns" wait_for a "⇗"
keys a Down
for i in 1 2 3 4 5 6 7 8; do keys a Down; done
keys a Enter
check "enter kicks at the kick speed (E 50)" wait_for a " E 50 \(0.000%\)"
# (a note lasts 2.5 s of wall time, which a loaded machine may miss: what the
# kick leaves for good is the aim gone from the status line)
check "aim gone from the status after the kick" soon not on_status a " aim "
check "enter: the kick along +x (the note, or its Σp)" wait_for a "kick: ball 1 at 10| Σp \(10, 0\) "
# a mouse click (xterm SGR report, as xterm-256color's terminfo expects)
# above and left of the cue ball aims it that way; enter kicks
e0=$(field a E)
sgr a '0;3;3M'
sgr a '0;3;3m'
check "click aims (the note, or the aim on the status line)" wait_for a "ball 1 aims here|  aim [0-9]+° "
keys a Enter
check "click, enter kicks (the note, or the aim gone and Σp up and left)" \
    wait_for a "kick: ball 1 at 10|Σp \(-[0-9.]+, [0-9.]+\)  16 balls"
check "click: the kick speed ($e0)" becomes 50 field a E
# an escape sequence curses does not know is an unknown key, not Esc (which
# would end the program), and the keys after it in the same read are read
# (they were dropped: a space typed or pasted right after it was lost)
in_one a "$(printf '\033[99~ ')"
check "unknown sequence ignored, the space after it in one write runs" wait_for a "running · speed 10 t/s"
# help overlay
keys a '?'
check "help" wait_for a "space: next page, other keys close"
check "help lists keys" wait_for a "one step back"
check "help box" wait_for a "┌─ keys 1/2 ─+┐"
check "help lists the lab's keys" wait_for a "e E +restitution down / up 0.1"
keys a ' '
check "help: last page" wait_for a "any key closes"
keys a x
check "help closes" wait_gone a "any key closes"
# trails
keys a t
check "trails" wait_braille a
keys a t
# resize re-fits
T resize-window -t a -x 60 -y 20
check "resize re-fits" wait_for a "^┌─{58}┐$"
T resize-window -t a -x 200 -y 60
check "resize to 200x60" wait_for a "┌─+┐"
check "status at 200 cols" wait_for a "balls"
T resize-window -t a -x 20 -y 6
check "too small" wait_for a "terminal too small"
T resize-window -t a -x 80 -y 24
check "recovers" wait_for a "^┌─{78}┐$"
check "recovers status" wait_for a " t [0-9.]+  step"
keys a q
check "q exits 0" [ "$(wait_rc a)" = 0 ]

# --- Esc quits; --duration ends by itself ---
start b 80 24
check "b up" wait_for b "running"
T send-keys -t b Escape
check "Esc exits 0" [ "$(wait_rc b)" = 0 ]
start c 80 24 --duration=1
check "--duration exits 0" [ "$(wait_rc c)" = 0 ]

# --- signals restore the terminal and end the program ---
start d 80 24
check "d up" wait_for d "running"
kill -HUP "$(cat "$tmpd/d.pid")"
check "SIGHUP exits 129" [ "$(wait_rc d)" = 129 ]
check "SIGHUP: process gone" soon sh -c '! kill -0 "$(cat "$0")" 2>/dev/null' "$tmpd/d.pid"
start e 80 24 --speed 1
check "e up" wait_for e "running"
keys e ' '
check "e paused (blocked in getch)" wait_for e "paused"
kill -TERM "$(cat "$tmpd/e.pid")"
check "SIGTERM exits 143" [ "$(wait_rc e)" = 143 ]
# after the program, the shell of the pane sees a normal screen again
pane f 80 24 "sh -c 'trap \"\" INT; $SB; echo rc=\$?; sleep 3600'"
check "f up" wait_for f "running"
T send-keys -t f C-c
check "C-c: terminal restored" wait_for f "^rc=130"
check "C-c: table gone" wait_gone f "┌"

# --- a scene from a pipe, keys from the terminal ---
pane g 80 24 "sh -c 'cat scenes/headon.scene | $SB -; echo \$? > $tmpd/g.rc'"
check "pipe: scene shown" wait_for g "springball · Head-on"
keys g k
check "pipe: keys work" wait_for g "  k 4  "
keys g q
check "pipe: q exits 0" [ "$(wait_rc g)" = 0 ]

# --- ASCII and no colour ---
start h 80 24 --ascii --no-color
check "ascii box" wait_for h "^\+-+\+$"
check "ascii balls" wait_for h "[@Oo]"
check "ascii only" not nonascii h
check "no colour" not shows_esc h "\[(3[0-7]|38;5;[0-9]+)m"
keys h q
check "ascii q" [ "$(wait_rc h)" = 0 ]

# --- 8 colours (TERM=xterm), and NO_COLOR ---
pane k8 80 24 "TERM=xterm sh $tmpd/run $tmpd k8 $SB"
check "8 colours" soon shows_esc k8 "\[3[1-6]m"
check "8 colours: no 256-colour codes" not shows_esc k8 "\[38;5;"
keys k8 q
pane nc 80 24 "NO_COLOR=1 sh $tmpd/run $tmpd nc $SB"
check "NO_COLOR: up" wait_for nc "running"
check "NO_COLOR: no colour" not shows_esc nc "\[(3[0-7]|38;5;[0-9]+)m"
keys nc q

# --- --cell-aspect 1: square cells, so the 800x400 table is 40x20 cells ---
start ca 80 24 --cell-aspect 1
check "cell aspect 1" wait_for ca "^ {19}┌─{40}┐ *$"
keys ca q

# --- a locale that is not UTF-8: ASCII by itself ---
LOCALE=LC_ALL=C start l 80 24
check "C locale: ascii box" wait_for l "^\+-+\+$"
check "C locale: ascii only" not nonascii l
keys l q

# --- a state that is no longer finite: paused, the last frame kept ---
printf 'title Blow-up\nk 1e9\ndt 1\nball 100 200 10 0 1 20 red\nball 140 200 -10 0 1 20 blue\n' > "$tmpd/blow.scene"
start j 80 24 "$tmpd/blow.scene"
check "runaway: warned" wait_for j "unstable: dt too large for k; paused"
check "runaway: stopped" wait_for j "stopped · speed 20 t/s"
check "non-finite: no nan drawn" not shows j "[nN][aA][nN]"
keys j ' '
check "runaway: space resumes, stopped again" wait_for j "stopped · speed 20 t/s"
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do T send-keys -t j . . .; done
check "non-finite: '.' reaches it" wait_for j "not finite: paused"
check "non-finite: stopped" wait_for j "stopped · speed 20 t/s"
keys j ' '
check "non-finite: space does not resume" wait_for j "stopped · speed 20 t/s"
keys j ,
check "non-finite: ',' steps back to a finite state" wait_for j "paused · speed 20 t/s"
keys j r
check "non-finite: r resets" wait_for j " t 0.00  step 0 "
keys j q

# --- a round table: the rim is drawn, no box ---
printf 'title Round\ntable circle 200\nball 200 200 5 0 1 10 red\n' > "$tmpd/round.scene"
start i 80 24 "$tmpd/round.scene"
check "round: title" wait_for i "springball · Round"
check "round: no box" wait_gone i "┌"
check "round: rim dots on the top row" braille i 3
check "round: nothing above it" not braille i 2
keys i q

# --- m: the event engine and back, with the current state (issue 5) ---
start ev 100 32
check "ev: springs first" wait_for ev "spring · running · speed 20 t/s"
check "ev: a few steps" wait_for ev " step [0-9]{2,}  "
keys ev m
check "m: event in the title" wait_for ev "event · running · speed 20 t/s"
check "m: events on the status line" wait_for ev " t [0-9.]+  events [0-9]+  collisions [0-9]+  mft [-0-9.e+]+  E 50 \("
check "m: no k or dt in event mode" not on_status ev " k 5"
# later NAME T: t on the status line is past T
later() { awk -v a="$(field "$1" t)" -v b="$2" 'BEGIN { exit !(a != "" && a + 0 > b + 0) }'; }
t1=$(field ev t)
check "event mode: t advances (from $t1)" soon later ev "$t1"
keys ev ' '
check "event mode: paused" wait_for ev "event · paused"
check "event mode: paused, t stays" soon t_stays ev
n0=$(field ev events)
t1=$(field ev t)
keys ev .
check "event mode: '.' is one event (from $n0)" becomes $((n0 + 1)) field ev events
check "event mode: '.' moves t" soon later ev "$t1"
keys ev ,
check "event mode: ',' undoes the event" becomes "$n0" field ev events
check "event mode: ',' restores t" becomes "$t1" field ev t
keys ev k
check "event mode: k is for the springs" wait_for ev "k 4 \(for the spring engine\)"
keys ev K
keys ev g
check "event mode: g needs springs" wait_for ev "gravity needs the spring engine"
keys ev m
check "m: back to springs" wait_for ev "spring · paused · speed 20 t/s"
check "m: steps, dt and k again" wait_for ev " t [0-9.]+  step [0-9]+  dt 0.05  k 5  "
check "m: the same time" becomes "$t1" field ev t
s0=$(field ev step)
keys ev .
check "springs: '.' one step again" becomes $((s0 + 1)) field ev step
# g: gravity on with the default G (no gravity directive), and off
keys ev g
check "g: gravity on, default G" wait_for ev "gravity on: G 483 softening 12"
check "g: G on the status line" wait_for ev "  E [-0-9.e+]+ \([-+0-9.e%]+\)  G 483  "
keys ev m
check "m with gravity: no event engine" wait_for ev "no event engine: gravity"
check "m with gravity: still springs" wait_for ev "spring · paused"
keys ev g
check "g: gravity off" wait_for ev "gravity off"
check "g: no G on the status line" not on_status ev "  G 483"
keys ev '?'
check "help lists m" wait_for ev "m +engine: springs / exact events"
check "help lists g" wait_for ev "g +gravity on / off"
keys ev x
keys ev q
check "ev: q exits 0" [ "$(wait_rc ev)" = 0 ]

# --- --engine=event starts the front end in event mode ---
start ee 80 24 --engine=event
check "--engine=event: title" wait_for ee "event · running · speed 20 t/s"
check "--engine=event: status" wait_for ee " events [0-9]+  collisions "
keys ee q
check "--engine=event: q exits 0" [ "$(wait_rc ee)" = 0 ]

# --- a universe (issue 4): letters, the sun a star, trails, no box ---
start pl 120 30 scenes/planets.txt
check "planets: 60 dt a second" wait_for pl "spring · running · speed 1.5e\+06 t/s"
check "planets: the sun is a star" wait_for pl "✶"
body() { screen pl | sed '1d;$d' | grep -q "$1"; }
check "planets: Earth" soon body E
check "planets: Venus" soon body V
check "planets: Mars and Mercury" soon body M
check "planets: no box" not body "┌"
check "planets: trails" wait_braille pl
check "planets: no k" not on_status pl " k "
keys pl m
check "planets: no event engine" wait_for pl "no event engine: open space"
keys pl Enter
check "planets: no cue ball" wait_for pl "open space: no cue ball"
keys pl q
check "planets: q exits 0" [ "$(wait_rc pl)" = 0 ]
start pa 80 24 --ascii scenes/planets.txt
check "planets ascii: the sun is *" wait_for pa "\*"
keys pa q
check "planets ascii: q exits 0" [ "$(wait_rc pa)" = 0 ]

# --- a particle file (unit box): the box, the balls, its own speed ---
start pt 80 24 tests/particles/billiards5.txt
check "particles: the square box" wait_for pt "^ {19}┌─{40}┐ *$"
check "particles: balls" wait_braille pt
check "particles: a quarter box a second" wait_for pt "spring · running · speed 2.5 t/s"
keys pt m
check "particles: event mode" wait_for pt "event · running · speed 2.5 t/s"
keys pt q
check "particles: q exits 0" [ "$(wait_rc pt)" = 0 ]

# --- TERM=dumb is refused; vt100 (no alternate screen) is left clean;
# the Linux console (no braille in its font) gets ASCII (issue 12, 7) ---
pane dumb 80 24 "TERM=dumb sh $tmpd/run $tmpd dumb $SB 2>$tmpd/dumb.err"
check "TERM=dumb exits 2" [ "$(wait_rc dumb)" = 2 ]
check "TERM=dumb says why" soon grep -q "cannot move the cursor" "$tmpd/dumb.err"
pane vt 80 24 "TERM=vt100 sh -c '$SB; echo rc=\$?; sleep 3600'"
check "vt100: up" wait_for vt "running"
keys vt q
check "vt100: q" wait_for vt "^rc=0"
check "vt100: the last frame is gone" wait_gone vt "step"
check "vt100: the box is gone" not shows vt "[┌+]-"
pane lx 80 24 "TERM=linux sh $tmpd/run $tmpd lx $SB"
check "linux console: ascii box" wait_for lx "^\+-+\+$"
check "linux console: no braille" not braille lx
keys lx q

# --- Ctrl-L redraws what something else wrote over (issue 12, 2) ---
start cl 80 24
check "cl up" wait_for cl "running"
keys cl ' '
check "cl paused" wait_for cl "paused"
# still (lib.sh): the paused program draws nothing more (a frame still
# coming, or a note's going, could write over the garbage on a loaded
# machine). The garbage goes to row 5 (written where the cursor was, it
# wrapped when that was near a line's end), and again should a late frame
# have covered it.
check "cl still" soon still cl
garbage() {
    printf '\033[5;3HGARBAGE-ON-SCREEN' >"/proc/$(cat "$tmpd/cl.pid")/fd/1"
    poll 20 shows cl "GARBAGE-ON-SCREEN"
}
check "garbage written" soon garbage
keys cl C-l
check "C-l: redrawn" wait_gone cl "GARBAGE"
check "C-l: the table again" wait_for cl "^┌─+┐$"
keys cl q

# --- the mouse: on by default, --no-mouse, M toggles (issue 12, 11) ---
mouse() { T display -p -t "$1" '#{mouse_any_flag}#{mouse_button_flag}#{mouse_standard_flag}' | grep -q 1; }
start mo 80 24
check "mo up" wait_for mo "running"
check "mouse reported by default" mouse mo
keys mo M
check "M: mouse off" soon not mouse mo
check "M: a note" wait_for mo "mouse off: the terminal selects text"
keys mo M
check "M again: mouse on" soon mouse mo
keys mo q
start nm 80 24 --no-mouse
check "nm up" wait_for nm "running"
check "--no-mouse: not reported" not mouse nm
keys nm q

# --- fps after the help is closed, and while behind (issue 12, 5 and 11) ---
start fp 132 24
check "fp up" wait_for fp " [0-9]+ fps"
# fps_ok NAME: the fps on the status line is 12 or more (it read 4-9 after
# the help; a loaded machine may draw fewer frames for a while: polled)
fps_ok() { f=$(status "$1" | sed -n 's/.*  \([0-9]*\) fps.*/\1/p'); [ "${f:-0}" -ge 12 ]; }
keys fp '?'
check "fp: the help" wait_for fp "space: next page"
sleep 2 # the help shown a while (issue 12.5: the fps counted it)
keys fp x
check "fp: the help closed" wait_gone fp "space: next page"
check "fps after the help: not 4-9" soon fps_ok fp
kill -STOP "$(cat "$tmpd/fp.pid")"
sleep 1 # stopped a while
kill -CONT "$(cat "$tmpd/fp.pid")"
check "fps after stop and continue" soon fps_ok fp
check "no behind after stop and continue" soon not on_status fp behind
keys fp q
start bh 100 32 --speed=1e6 scenes/gas.scene
check "behind: said, with the fps" wait_for bh "behind: cannot keep 1e\+06 t/s  [0-9]+ fps"
keys bh q

# --- SIGQUIT restores the terminal like SIGINT (issue 11, 9) ---
cat > "$tmpd/stay" <<'EOS'
dir=$1 name=$2
shift 2
sh -c 'echo $$ > "$0"; exec "$@"' "$dir/$name.pid" "$@"
echo $? > "$dir/$name.rc"
sleep 3600
EOS
pane sq 80 24 "sh $tmpd/stay $tmpd sq $SB"
check "sq up" wait_for sq "running"
kill -QUIT "$(cat "$tmpd/sq.pid")"
check "SIGQUIT exits 131" [ "$(wait_rc sq)" = 131 ]
# (the status is written once springball has ended; tmux may read its last
# bytes a little later)
check "SIGQUIT: mouse reporting off" soon not mouse sq
check "SIGQUIT: alternate screen off" becomes 0 T display -p -t sq "#{alternate_on}"
check "SIGQUIT: cursor shown" becomes 1 T display -p -t sq "#{cursor_flag}"

# --- a lost terminal without SIGHUP: springball notices and ends (issue 11, 8) ---
cp scenes/gas.scene "$tmpd/lost.scene"
pane lost 80 24 "setsid -w $SB $tmpd/lost.scene"
check "lost: up" wait_for lost "running"
lpid=$(pgrep -f "^$SB $tmpd/lost.scene" | head -n 1)
check "lost: found its pid" [ -n "$lpid" ]
T kill-session -t lost
check "lost terminal: the process ends" soon not kill -0 "$lpid" 2>/dev/null
[ -n "$lpid" ] && kill "$lpid" 2>/dev/null
# --- issue 17: the field, friction and open sides on screen ---
start fo 80 24 scenes/field.scene
check "field: status shows g" wait_for fo "  g 0,-0.7"
check "field: the open top is not drawn" wait_for fo "^┌ {78}┐$"
check "field: the floor is" wait_for fo "^└─{78}┘$"
keys fo m
check "field: m runs it in the event engine" wait_for fo "event · running"
check "field: the event engine's status shows g" wait_for fo "  events [0-9]+ .*  g 0,-0.7"
keys fo q
check "field: q exits 0" [ "$(wait_rc fo)" = 0 ]
start fr 80 24 --ascii scenes/friction.scene
check "friction: status shows the law" wait_for fr "  rolling 0.05"
check "friction: box closed" wait_for fr "^\+-{78}\+$"
keys fr m
check "friction: m runs it in the event engine" wait_for fr "event . running"
check "friction: the event engine's status shows the law" wait_for fr "  events [0-9]+ .*  rolling 0.05"
keys fr q
check "friction: q exits 0" [ "$(wait_rc fr)" = 0 ]

# --- --keys in a terminal plays a demo: <t 2> at 20 t/s lasts 0.1 s ---
start kd 80 24 "--keys='<t 2> space'"
check "demo: paused by the script" wait_for kd "paused · speed 20 t/s"
tstep() { echo "$(field "$1" t) $(field "$1" step)"; }
check "demo: paused at t = 2 exactly, as a snapshot" becomes "2.00 40" tstep kd
keys kd ' '
check "demo: the keyboard still works" wait_for kd "running · speed 20 t/s"
keys kd q
check "demo: q exits 0" [ "$(wait_rc kd)" = 0 ]
start kb 80 24 "--keys=foo"
check "demo: a bad script exits 2" [ "$(wait_rc kb)" = 2 ]
# issue 27: a paused wait of any length sleeps (it spun, and its
# milliseconds overflowed an int); the keyboard still works during it.
cpu() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null; }
start kw 80 24 "--keys='space <t 1e8> q'" scenes/headon.scene
check "long wait: paused" wait_for kw "paused · speed"
kwp=$(cat "$tmpd/kw.pid" 2>/dev/null)
c0=$(cpu "$kwp"); sleep 1; c1=$(cpu "$kwp")
check "long wait: sleeps (cpu ticks $c0 -> $c1 in 1 s)" [ $((${c1:-999} - ${c0:-0})) -le 20 ]
keys kw q
check "long wait: q from the keyboard exits 0" [ "$(wait_rc kw)" = 0 ]
start ki 80 24 "--keys='space <t 1e300> q'" scenes/headon.scene
check "longest wait: paused" wait_for ki "paused · speed"
keys ki q
check "longest wait: q exits 0" [ "$(wait_rc ki)" = 0 ]

# The momentum diagram after a burst of '.' read at once (a key held, a
# paste): no frame is drawn between the steps, and "before" is still the
# last step before the contact, t 13, as in a snapshot (it was the last
# frame drawn: "before the contact (t 0)", or "no contact yet")
start pd 80 24 "--keys='space P P P P'" scenes/headon.scene
check "burst: the diagram" wait_for pd "before: no contact yet +now \(t 0\)"
in_one pd "$(printf '%300s' '' | tr ' ' .)"
check "burst: 300 steps read at once" wait_for pd "now \(t 15\)"
check "burst: before the contact at t 13" wait_for pd "^before the contact \(t 13\)  Σp \(0, 0\)"
keys pd q
check "burst: q exits 0" [ "$(wait_rc pd)" = 0 ]

# Issue 42: the control bar, live. C shows it above the status line; a
# click on an item is its key; Alt-e (Esc e at once) and a drag on the
# elasticity's value move it by 0.01; then Esc in a lesson asks first
start cb 80 24 "--paused" scenes/headon.scene
wait_braille cb
keys cb C
check "bar: C shows it" wait_for cb "space pause \. step v vectors"
row=$(screen cb | grep -n "space pause" | cut -d: -f1)
col=$(screen cb | sed -n "${row}p" | awk '{ print index($0, "v vectors") }')
sgr cb "0;$col;${row}M"
sgr cb "0;$col;${row}m"
check "bar: a click on v: velocity arrows" wait_for cb "velocity arrows on"
keys cb M-e
check "bar: Alt-e: restitution 0.99" wait_for cb "e E e 0\.99"
col=$(screen cb | sed -n "${row}p" | awk '{ print index($0, "e 0.99") + 2 }')
sgr cb "0;$col;${row}M"
sgr cb "32;$((col - 4));${row}M"
sgr cb "0;$((col - 4));${row}m"
check "bar: a drag 4 cells left: 0.95" wait_for cb "e E e 0\.95"
keys cb q
check "bar: q exits 0" [ "$(wait_rc cb)" = 0 ]
start ls 80 24 scenes/lessons/momentum.lesson
check "lesson: opens" wait_for ls "step 1/10"
keys ls Escape
check "lesson: Esc asks" wait_for ls "quit the lesson\? y: quit"
keys ls x
check "lesson: another key stays" wait_for ls "the lesson goes on"
keys ls Escape
wait_for ls "quit the lesson\? y: quit" >/dev/null
keys ls y
check "lesson: Esc y quits, status 0" [ "$(wait_rc ls)" = 0 ]

summary
