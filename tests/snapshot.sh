#!/bin/sh
# snapshot.sh - the front end without a terminal: --snapshot plays --keys
# against the simulated clock and prints the screen. Each check here was a
# defect seen on screen (issue 12, issue 11); the same keys on every run
# give the same bytes.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
scratch
out=$tmpd/out
err=$tmpd/err
export LC_ALL=C.UTF-8
# snap ARGS...: the screen as plain text
snap() { "$SB" --snapshot --no-color "$@" 2>"$err"; }
status_of() { tail -n 1; }
title_of() { head -n 1; }
# E on the status line
efield() { sed -n 's/.* E \([-0-9.e+]*\).*/\1/p'; }

# --- the options ---
check "snapshot prints 24 lines" [ "$(snap | wc -l)" = 24 ]
check "snapshot=100x32" [ "$(snap --snapshot=100x32 | wc -l)" = 32 ]
check "snapshot: the title" sh -c '"$0" --snapshot --no-color | head -n 1 | grep -q "springball · The break"' "$SB"
check "snapshot: the same bytes twice" [ "$(snap --keys='<t 30> space . .')" = "$(snap --keys='<t 30> space . .')" ]
check "snapshot: colours by default" sh -c '"$0" --snapshot | grep -q "$(printf "\033")\[0;38;5;"' "$SB"
check "snapshot: NO_COLOR" sh -c '! NO_COLOR=1 "$0" --snapshot | grep -q "$(printf "\033")"' "$SB"
check "snapshot: no terminal needed" sh -c '"$0" --snapshot </dev/null >/dev/null' "$SB"
expect_fail 2 "springball: --snapshot: '80' is not COLSxROWS (1 to 1000 each)" "$SB" --snapshot=80
# -T pauses the run once, at the step -H -T takes (7.31 at dt 0.05: 147)
snap -T 7.31 --keys='<t 100>' scenes/headon.scene >"$out"
check "-T: paused at the step -H -T ends on" grep -q "^ t 7.35  step 147 " "$out"
check "-T: says so" grep -q "paused at t = 7.35 (-T)" "$out"
snap -T 7.31 --keys='<t 10> space <t 5>' scenes/headon.scene >"$out"
check "-T: space goes on past T" grep -q "^ t 12.35  step 247 " "$out"
snap -T 7.31 --engine=event --keys='<t 100>' scenes/headon.scene >"$out"
check "-T: the event engine pauses at T" grep -q "^ t 7.31  events " "$out"
expect_fail 2 "springball: --keys: 'foo': not a key (a character, space, enter, esc, tab, btab, up, down, left, right, pgup, pgdn, f5, C-x, M-x)" "$SB" --snapshot --keys=foo
expect_fail 2 "springball: --keys: <t -1>: the wait must be a finite time >= 0" "$SB" --snapshot --keys='<t -1>'
expect_fail 2 "springball: --keys: '<t 1': no closing '>'" "$SB" --snapshot --keys='<t 1'
expect_fail 2 "springball: --keys: 'up*0': a count from 1 to 100000 after '*'" "$SB" --snapshot --keys='up*0'
expect_fail 2 "springball: give -H or --snapshot, not both" "$SB" -H --snapshot
expect_fail 2 "springball: --keys is for the terminal or --snapshot, not -H" "$SB" -H --keys=.
check "snapshot --ascii: ASCII only" sh -c '! "$0" --snapshot --ascii --no-color --keys="<t 20> space ?" | LC_ALL=C grep -q "[^ -~]"' "$SB"
# a wait runs the clock: 40 time units at dt 0.05 are 800 steps
check "<t 40>: 800 steps" sh -c '"$0" --snapshot --no-color --keys="<t 40>" | tail -n 1 | grep -q " t 40.00  step 800 "' "$SB"
check "'.' and ',' in a script" [ "$(snap --keys='space .*5 ,*2' | status_of | sed -n 's/.* step \([0-9]*\) .*/\1/p')" = 3 ]

# --- issue 12, defect 1: every number is of the state shown ---
e_paused=$(snap --keys='<t 40> space' scenes/inelastic.scene | status_of | efield)
e_stepped=$(snap --keys='space .*800' scenes/inelastic.scene | status_of | efield)
check "E paused at step 800 is that state's ($e_paused = $e_stepped)" [ "${e_paused:-none}" = "$e_stepped" ]
check "E paused at step 800 is not the start's ($e_paused)" [ "$e_paused" != 50 ]

# --- defect 2: trails go with t and with r ---
check "t off erases the trails" [ "$(snap --keys='t <t 20> t')" = "$(snap --keys='<t 20>')" ]
check "r erases the trails" [ "$(snap --keys='t <t 20> r')" = "$(snap --keys='t r')" ]
check "trails drawn while on" [ "$(snap --keys='t <t 20>')" != "$(snap --keys='<t 20>')" ]

# --- defect 3: the cue ball of each shipped scene, Tab, a click ---
check "cradle: the moving yellow ball is the cue ball" sh -c '"$0" --snapshot --no-color --keys=enter scenes/cradle.scene | grep -q "kick: ball 6 at 10"' "$SB"
check "inelastic: the white ball" sh -c '"$0" --snapshot --no-color --keys=enter scenes/inelastic.scene | grep -q "kick: ball 16 at 10"' "$SB"
check "round: the white ball" sh -c '"$0" --snapshot --no-color --keys=enter scenes/round.scene | grep -q "kick: ball 41 at "' "$SB"
check "tab: the next ball" sh -c '"$0" --snapshot --no-color --keys="tab tab" | grep -q "cue ball: ball 3"' "$SB"
# the cue ball of the break sits at column 15, row 11 at 80x24
check "a click on a ball chooses it" sh -c '"$0" --snapshot --no-color --keys="<click 15 11>" | grep -q "cue ball: ball 1"' "$SB"
check "a click on a rack ball chooses it" sh -c '"$0" --snapshot --no-color --keys="<click 62 11>" | grep -q "cue ball: ball [0-9]"' "$SB"
check "paused: the cue ball has its arrow" sh -c '"$0" --snapshot --no-color --keys=space | grep -q "⇒"' "$SB"
check "running: no arrow" sh -c '! "$0" --snapshot --no-color | grep -q "⇒"' "$SB"
# the aim's head is its own, not the velocity's: without colour, aimed up
# with the velocity arrows on, '⇑' and '→' (ASCII 'x' and '>'); both were
# '↑' and '→' alike, the aim told apart by its colour alone
s=$(snap --keys='space v up*18' scenes/headon.scene | sed -n 2,22p)
check "v, aim up: the aim's ⇑ and the velocity's →" sh -c 'echo "$0" | grep -q "⇑" && echo "$0" | grep -q "→" && ! echo "$0" | grep -q "↑"' "$s"
s=$(snap --ascii --keys='space v up*18' scenes/headon.scene | sed -n 2,22p)
check "v, aim up in ASCII: x and >, no ^" sh -c 'echo "$0" | grep -q "x" && echo "$0" | grep -q ">" && ! echo "$0" | grep -q "\^"' "$s"
# the legend names the aim's head beside the arrows' while it shows
check "paused, v: the legend has '⇒ aim'" sh -c '"$0" --snapshot --no-color --keys="space v" "$1" | grep -q "^└─ → v 1/cell  ⇒ aim ─"' "$SB" scenes/headon.scene
check "help: the arrows name the aim's mark" sh -c '"$0" --snapshot --no-color --keys="?" | grep -q "aim the cue ball: the double arrow"' "$SB"
check "running, v: no aim in the legend" sh -c '! "$0" --snapshot --no-color --keys="v" "$1" | grep -q "aim ─"' "$SB" scenes/headon.scene
check "paused, v, ASCII: 'x aim'" sh -c '"$0" --snapshot --no-color --ascii --keys="space v" "$1" | grep -q "^+- > v 1/cell  x aim -"' "$SB" scenes/headon.scene
check "paused, no arrows: no legend" sh -c '! "$0" --snapshot --no-color --keys="space" "$1" | grep -q "aim ─"' "$SB" scenes/headon.scene

# --- defect 4: a kick sends the ball along the aim at the kick speed ---
s=$(snap --keys='up*4')
check "aim shown with the kick speed" sh -c 'echo "$0" | tail -n 1 | grep -q "aim 20° v 10"' "$s"
# issue 26.11: the first arrow press turns the aim (it only showed it)
check "the first arrow press turns the aim: up, aim 5°" sh -c '"$0" --snapshot --no-color --keys=up | tail -n 1 | grep -q "aim 5° v 10"' "$SB"
check "... and after a kick too: up enter up, aim 10°" sh -c '"$0" --snapshot --no-color --keys="up enter up" | tail -n 1 | grep -q "aim 10° v 10"' "$SB"
s=$(snap --keys='up*5 enter')
check "5 x up, enter: E stays 50 (was 190.6)" [ "$(echo "$s" | status_of | efield)" = 50 ]
s=$(snap --keys='> enter')
check "> raises the kick speed: E = 12.5^2/2" [ "$(echo "$s" | status_of | efield)" = 78.125 ]
check "a click on empty table, enter: a kick toward it at the kick speed" sh -c '"$0" --snapshot --no-color --keys="<click 40 3> enter" | tail -n 1 | grep -q " E 50 "' "$SB"

# --- defect 5: notes are never cut ---
s=$(snap --snapshot=40x12 --keys=enter scenes/planets.txt)
check "40x12: the whole note" sh -c 'echo "$0" | tr -s " \n" "  " | grep -q "open space: no cue ball to aim or kick"' "$s"
s=$(snap --snapshot=40x12 --keys='<t 200>' scenes/gas.scene)
check "40x12: status has E" sh -c 'echo "$0" | tail -n 1 | grep -q " E [0-9]"' "$s"

# --- defect 6: small windows keep what matters ---
s=$(snap --snapshot=40x12)
check "40x12: the title is whole" sh -c 'echo "$0" | head -n 1 | grep -q "The break .*running"' "$s"
check "40x12: E and its drift" sh -c 'echo "$0" | tail -n 1 | grep -q "E 50 (0.000%)"' "$s"
# every word of the help shows on some page at 40x12, none cut
words() { tr -c 'A-Za-z0-9/.()-' '\n' | grep -E '^[a-z]{3,}$' | sort -u; }
full=$(snap --snapshot=120x50 --keys='?' | words | grep -vx -e balls -e springball -e help)
small=$(for p in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
    k='?'; i=0; while [ $i -lt $p ]; do k="$k space"; i=$((i + 1)); done
    snap --snapshot=40x12 --keys="$k"; done | words)
check "40x12 help: every word on some page, none cut" [ "$(printf '%s\n' "$full" | comm -23 - "$(printf '%s\n' "$small" > "$tmpd/small"; echo "$tmpd/small")")" = "" ]
check "40x12 help: pages" sh -c '"$0" --snapshot=40x12 --no-color --keys="?" | grep -q "keys 1/"' "$SB"
check "help at 80x24: the front end's keys on page 1 of 2" sh -c '"$0" --snapshot --no-color --keys="?" | grep -q "─ keys 1/2 ─"' "$SB"
check "help closes" [ "$(snap --keys='? x')" = "$(snap)" ]

# --- defect 8: the energy of a head-on contact at the default dt ---
for n in 262 265 268 271; do
    e=$(snap --keys="space .*$n" scenes/headon.scene | status_of | efield)
    check "head-on step $n: E $e within 1% of 100" awk "BEGIN{exit !($e > 99 && $e < 101)}"
done

# --- defect 11 ---
check "speed as time units a second" sh -c '"$0" --snapshot --no-color | head -n 1 | grep -q "speed 20 t/s"' "$SB"
check "no ×20 anywhere" sh -c '! "$0" --snapshot --no-color | grep -q "×"' "$SB"
for t in 5 10 15 20 25 30 35 40; do
    snap --keys="<t $t>" >>"$tmpd/drifts"
done
check "never (-0.000%)" not grep -q -- "-0.000%" "$tmpd/drifts"
s=$(snap --keys='K*40 <t 30>' scenes/headon.scene)
check "unstable k pauses with a message" sh -c 'echo "$0" | grep -q "unstable: dt too large for k; paused"' "$s"
check "unstable k: stopped" sh -c 'echo "$0" | head -n 1 | grep -q stopped' "$s"
check "unstable k: stopped early (not +5.78e+10%)" not sh -c 'echo "$0" | tail -n 1 | grep -qE "e\+(0[7-9]|[1-9][0-9])%"' "$s"

# --- issue 11, item 7: live parameters stay bounded ---
s=$(snap --keys='D*4000 <t 10>')
check "D x 4000: dt finite" sh -c 'echo "$0" | tail -n 1 | grep -q " dt 5e+04 "' "$s"
s=$(snap --keys='d*4000 K*4000 <t 0.01>')
check "d, K x 4000: dt and k finite" sh -c 'echo "$0" | tail -n 1 | grep -q " dt 5e-08  k 5e+06 "' "$s"
s=$(snap --speed=1e308 --keys='+ + <t 1e300>' --engine=event)
check "--speed=1e308 then +: finite t" sh -c 'echo "$0" | tail -n 1 | grep -qE " t [0-9]+\.[0-9]+  events"' "$s"
check "--speed=1e308 then +: not faster" sh -c 'echo "$0" | grep -q "speed stays within 1024 times"' "$s"

# --- the title row: the name and the engine apart (at 72 columns one blank
# was left: 'Unequal masses in 2-D spring · running') ---
# gap COLS ARGS...: the blanks between the name's last character and "spring"
gap() { w=$1; shift; snap --snapshot="$w" "$@" | head -n 1 | sed -n 's/.*[^ ]\( *\)spring · .*/\1/p' | awk '{ print length($0) }'; }
for w in 72x20 80x24 64x16 60x16 40x12; do
    for sc in scenes/unequal.scene scenes/headon.scene scenes/planets.txt; do
        g=$(gap $w $sc)
        check "title at $w, $sc: 3 blanks or more before the engine (${g:-none})" [ "${g:-0}" -ge 3 ]
    done
done
check "title at 72 columns: the name whole, the state and speed" sh -c '"$0" --snapshot=72x20 --no-color "$1" | head -n 1 | grep -q "^ springball · Unequal masses in 2-D  *spring · running · speed 20 t/s$"' "$SB" scenes/unequal.scene

# --- issue 11, item 12: a CJK title fits the title line ---
printf 'title 弹簧球的一个非常长的标题在这里显示出来看看吧\nball 100 100 1 0 1 10\n' > "$tmpd/cjk.scene"
for w in 80 40 24; do
    l=$(snap --snapshot=${w}x12 "$tmpd/cjk.scene" | head -n 1 | wc -L)
    check "CJK title at $w columns: $l wide" [ "$l" -le "$w" ]
done

# --- found by random key scripts (helper fuzz): bounded, no hang ---
# a ball edited to r 1e9 and selected: the selection ring had 10^10 steps
check "r 1e9, selected: the screen in time" timeout 20 sh -c '"$0" --snapshot=60x200 --no-color --keys="<:r 1e9> <click 19 15>" scenes/gas.scene >/dev/null' "$SB"
check "x -1e308, lab on: the screen in time" timeout 20 sh -c '"$0" --snapshot=80x24 --no-color --keys="<:x -1e308 5> l c <t 0.5>" scenes/break.scene >/dev/null' "$SB"

# a missing scene is reported before the terminal is looked at
"$SB" "$tmpd/missing.scene" >"$out" 2>"$err"
check "missing scene, stdout a file: the file is named first" grep -q "missing.scene:0: cannot read" "$err"

# the cue directive names the cue ball; it is checked and written back
printf 'ball 100 100 0 0 1 10\nball 300 100 0 0 1 10 red\ncue 2\n' > "$tmpd/cue.scene"
check "cue 2: the keys kick ball 2" sh -c '"$0" --snapshot --no-color --keys=enter "$1" | grep -q "kick: ball 2 at "' "$SB" "$tmpd/cue.scene"
check "cue: written back" sh -c '"$0" -H "$1" | grep -qx "cue 2"' "$SB" "$tmpd/cue.scene"
printf 'ball 100 100 0 0 1 10\ncue 3\n' > "$tmpd/cue3.scene"
expect_fail 2 "$tmpd/cue3.scene:2: cue 3: there is 1 ball before this line" "$SB" -H "$tmpd/cue3.scene"
printf 'cue 0\nball 100 100 0 0 1 10\n' > "$tmpd/cue0.scene"
expect_fail 2 "$tmpd/cue0.scene:1: cue must be between 1 and 10000000" "$SB" -H "$tmpd/cue0.scene"

# the front end's options and keys are in the man page (tests/docs.sh checks every one)
for o in --snapshot --keys --no-mouse --fps --speed --duration --ascii --no-color --cell-aspect; do
    check "man page has $o" grep -q -- "\\\\-\\\\-${o#--}" man/springball.1
done
for k in "Ctrl-L" "shift-tab" "^.BR < " "KEY SCRIPTS"; do
    check "man page: $k" grep -q -- "$k" man/springball.1
done

# issue 17: the event engine runs the field and the open top; its status
# line shows them as the spring engine's does (it showed neither)
check "event engine: g and out on the status line" sh -c '"$0" --snapshot --no-color --engine=event --keys="<t 60>" scenes/field.scene | tail -n 1 | grep -q "  E 13164.3 (0.000%)  g 0,-0.7  out 1\$"' "$SB"
check "event engine: the field's potential as PE" sh -c '"$0" --snapshot=60x20 --no-color --engine=event --keys="<t 60> i" scenes/field.scene | tail -n 1 | grep -q "  PE 8593\$"' "$SB"

# every key on every shipped scene, both engines, small and large: no
# crash (make check runs this under ASan and UBSan), status 0
mix='. , m .*3 ,*2 <t 3> g K D k d r t tab ] [ up*3 enter <click 10 5> <click 40 12> ? space space x <t 3> ,*5 m <t 2> . M C-l m r <t 1> ,*3 .*4 btab backspace esc'
for f in scenes/*.scene scenes/*.txt tests/particles/billiards5.txt; do
    for size in 40x12 80x24 24x8 10x3; do
        "$SB" --snapshot=$size --keys="$mix" "$f" >/dev/null 2>"$err"
        rc=$?
        if [ "$rc" -eq 0 ]; then ok; else bad "every key on $f at $size: status $rc: $(head -n 3 "$err")"; fi
    done
done

# m refused: the note names the reason once ("no event engine: event engine:
# the field is too strong" said the engine twice).
printf 'table 200 100\nfield 0 -1e308\nball 50 50 0 0 1 10\n' > "$tmpd/strong.scene"
snap --snapshot=120x24 --keys=m "$tmpd/strong.scene" > "$out"
check "m refused: the reason once" grep -q "no event engine: the field is too strong" "$out"
check "m refused: no doubled engine" not grep -q "event engine: event engine" "$out"


# ',' says what it undid, one action a press, '.' what it redid (issue 26.2);
# a plain step of time after them leaves no stale "undone" note
undo_note() { "$SB" --snapshot=100x24 --no-color --keys="$1" scenes/break.scene | sed -n 21,23p; }  # the note: over a panel or inside the table (issue 42.7)
check ", after a kick: 'undone: the kick of ball 1'" sh -c 'echo "$0" | grep -q "undone: the kick of ball 1"' "$(undo_note 'space .*5 <:v 3 1> enter ,')"
check ", , then: 'undone: the velocity of ball 1'" sh -c 'echo "$0" | grep -q "undone: the velocity of ball 1"' "$(undo_note 'space .*5 <:v 3 1> enter , ,')"
check ", , . .: 'redone: the kick of ball 1'" sh -c 'echo "$0" | grep -q "redone: the kick of ball 1"' "$(undo_note 'space .*5 <:v 3 1> enter , , . .')"
check "a kick at t = 0 undone says so" sh -c 'echo "$0" | grep -q "undone: the kick of ball 1"' "$(undo_note 'space up*3 enter ,')"
check "a ball added, then , : 'undone: the ball added'" sh -c 'echo "$0" | grep -q "undone: the ball added"' "$(undo_note 'space a ,')"
check "a step of time after an undo: no stale note" sh -c '! echo "$0" | grep -q "undone"' "$(undo_note 'space .*5 <:v 3 1> enter , , ,')"
summary
