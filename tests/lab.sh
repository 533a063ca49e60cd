#!/bin/sh
# lab.sh - the classroom lab (issue 13) through --snapshot --keys: what each
# key shows, its numbers against the headless run, ] and [ at the analytic
# contact, the split view's two engines, restitution and the border, and
# the issue's worksheet with keys alone.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
scratch
printf 'table 800 400\nrestitution 0\nball 200 200 10 0 1 15\nball 450 200 0 0 3 25\n' > "$tmpd/sticky.scene"
export LC_ALL=C.UTF-8
snap() { "$SB" --snapshot --no-color "$@"; }
# has PATTERN ARGS...: the snapshot of ARGS matches the extended regex
has() { p=$1; shift; snap "$@" | grep -Eq -- "$p"; }
hasnt() { ! has "$@"; }
status() { snap "$@" | tail -n 1; }
# field NAME: the number after "NAME " on a line
field() { sed -n "s/.*$1 \([-0-9.e+]*\).*/\1/p" | head -n 1; }
# braille cells in the table (rows 2 to 22 at 80x24)
braille() { snap "$@" | sed -n 2,22p | LC_ALL=C grep -o "$(printf '\342[\240-\243][\200-\277]')" | wc -l; }

# --- v p f: arrows from the balls' rims, one scale per kind in a legend ---
check "v: the velocity legend on the table's frame" has '└─ → v 1/cell ─' --keys='v'
check "v: arrows drawn" [ "$(braille --keys='v')" -gt "$(braille)" ]
check "v twice: off" hasnt 'v [0-9.]+/cell' --keys='v v'
check "p: the momentum legend" has '─ ▷ p 1/cell ─' --keys='p'
check "v p: both legends" has '─ → v 1/cell  ▷ p 1/cell ─' --keys='v p'
# issue 26.4: v and p told apart when equal (the unequal pair's 1 kg ball
# at 10: p = m v), by their heads (→ ▷; > * in ASCII) and shafts, side by side
check "v p: both heads on the table" sh -c "$SB --snapshot --no-color --keys='v p' scenes/unequal.scene | sed -n 2,22p | grep -q '→' && $SB --snapshot --no-color --keys='v p' scenes/unequal.scene | sed -n 2,22p | grep -q '▷'"
check "v p in ASCII: heads > and *, legend" sh -c "$SB --snapshot --no-color --ascii --keys='v p' scenes/unequal.scene >\"\$0\" && sed -n 2,22p \"\$0\" | grep -q '[*]' && sed -n 2,22p \"\$0\" | grep -q '>' && grep -q -- '- > v 1/cell  [*] p 1/cell -' \"\$0\"" "$tmpd/ascii.txt"
# balls over arrows: an arrow through a ball leaves its cells as they were
printf 'table 800 400\nball 200 200 40 0 1 20\nball 300 200 0 0 1 20\n' >"$tmpd/cross.scene"
snap "$tmpd/cross.scene" | sed -n 12,13p >"$tmpd/cross0"
check "v: a ball under an arrow keeps its cells" sh -c 'grep -q "⢠⣶⣶⣦" "$0" && grep -q "⠘⠿⠿⠟" "$0" && snap() { "$1" --snapshot --no-color --keys="v p" "$2"; } && snap "$1" "$2" | sed -n 12,13p | grep -q "⢠⣶⣶⣦" && snap "$1" "$2" | sed -n 12,13p | grep -q "⠘⠿⠿⠟"' "$tmpd/cross0" "$SB" "$tmpd/cross.scene"
# a short arrow: a stub past the rim with its value (0.5 at 1 a cell)
printf 'table 800 400\nball 200 200 10 0 1 40\nball 600 200 0 0.5 1 40\n' >"$tmpd/slow.scene"
check "v: an arrow shorter than the radius is a stub with its value" has '↑0\.5' --keys='v' "$tmpd/slow.scene"
# a force only in a contact: the head-on pair at its deepest overlap
check "f: no force arrows apart" hasnt 'F [0-9.]+/cell' --keys='f' scenes/headon.scene
check "f: the force legend in the contact" has '─ F [0-9.]+/cell  ⇒ aim ─' --keys='f ] .*10' scenes/headon.scene
check "f: none in the event engine" hasnt 'F [0-9.]+/cell' --keys='m f <t 13>' scenes/headon.scene
check "event engine: no springs to list" has 'ball 2: hard balls touch only at an instant' --keys='m i tab <t 13>' scenes/headon.scene
# the scale is kept while stepping (lengths compare), so a slower ball's
# arrow is shorter: the unequal pair after the contact
a=$(snap --keys='v' scenes/unequal.scene | grep -o 'v [0-9.]*/cell')
b=$(snap --keys='v ] ]' scenes/unequal.scene | grep -o 'v [0-9.]*/cell')
check "v: the scale kept through the collision ($a, $b)" [ "$a" = "$b" ]

# --- c: the centre of mass, n: numbers ---
check "c: the centre of mass marked" has '⊕' --keys='c'
check "c: ASCII +" has '\+' --ascii --keys='c'
check "n: ball 16 numbered on the table" has '│.*16.*│' --keys='n'
check "n: off by default" hasnt '│.*16.*│'
# a number never against a body's name: the planets read "1E", "3Me", "5V"
s=$(snap --keys='<t 1e7> n' scenes/planets.txt)
check "n on the planets: no number against a name" sh -c '! echo "$0" | sed -n 2,22p | grep -Eq "[0-9][A-Za-z]|[A-Za-z][0-9]"' "$s"
check "n on the planets: numbered" [ "$(echo "$s" | sed -n 2,22p | grep -o '[1-5]' | wc -l)" -ge 4 ]

# --- i: the values panel, rows equal to the state ---
s=$(snap --keys='i <t 10> space')
# the band under the table a third of the rows (issue 42.9: the table keeps
# two thirds): at 80x24 three of the break's 16 rows (was 7)
check "i: the panel" sh -c 'echo "$0" | grep -q "── values 1-3/16 PgDn ──"' "$s"
check "i: the header" sh -c 'echo "$0" | grep -Eq "^ +# +m +x +y +vx +vy +px +py +KE$"' "$s"
# ball 1 at t = 10 against the headless run
hx=$("$SB" -H -T 10 | grep '^ball' | head -n 1 | cut -d' ' -f2)
px=$(echo "$s" | grep -E '^ +1 +1.0000 ' | awk '{print $3}')
check "i: ball 1's x is the state's ($px, $hx)" awk -v a="$px" -v b="$hx" 'BEGIN { exit !(a - b < 0.006 && b - a < 0.006) }'
check "i: the totals row" sh -c 'echo "$0" | grep -Eq "^ +Σ +10.000 +0 +50.000$"' "$s"
check "i: PE, E, M and the centre of mass" sh -c 'echo "$0" | grep -Eq "^   PE 0  E 50  M 16  CM \("' "$s"
check "i: ASCII sum row" has '^ +sum +10.000' --ascii --keys='i'
# selection: Tab selects the next ball (the cue ball), its row marked
check "tab: ball 2's row marked" has '^> +2 ' --keys='i tab'
check "btab: back to ball 1" has '^> +1 ' --keys='i tab btab'
check "click on a ball selects it" has '^> +1 ' --keys='<click 15 11> i'
# with a ball selected, its contacts: partner, overlap s, k·s
s=$(snap --keys='i ] .*5 tab' scenes/headon.scene)
check "contacts: listed" sh -c 'echo "$0" | grep -q "ball 2 touches:"' "$s"
check "contacts: s and k·s" sh -c 'echo "$0" | grep -Eq "^     ball 1 +s [0-9.]+  k·s [0-9.]+$"' "$s"
sv=$(echo "$s" | sed -n 's/.* s \([0-9.]*\)  k·s.*/\1/p')
ks=$(echo "$s" | sed -n 's/.*k·s \([0-9.]*\)$/\1/p')
check "contacts: k·s = 5 s ($ks, $sv)" awk -v a="$ks" -v b="$sv" 'BEGIN { exit !(a - 5 * b < 0.01 && 5 * b - a < 0.01) }'
check "contacts: the dashpot with restitution" has 'dashpot [0-9.-]+' --keys='e*5 i ] .*5 tab' scenes/headon.scene
check "pgdn: the rows scroll" has '^── values 3-5/16 PgUp PgDn ─' --keys='i pgdn'
check "pgdn pgup: back to the top" has '^ +1 +1.0000' --keys='i pgdn pgup'
# which rows show, on the panel's frame: at 100x32 the break's 11 rows of
# 16 said nothing (the header's end had no room for "1-11/16")
check "i at 100x32: the rows shown on the frame" has '^── values 1-6/16 PgDn ─' --snapshot=100x32 --keys='i'
check "i pgdn at 100x32: the next rows, PgUp" has '^── values 6-11/16 PgUp PgDn ─' --snapshot=100x32 --keys='i pgdn'
check "i pgdn*3 at 100x32: the last rows, PgUp" has '^── values 11-16/16 PgUp ─' --snapshot=100x32 --keys='i pgdn*3'
check "i at 100x32 in ASCII" has '^-- values 1-6/16 PgDn -' --snapshot=100x32 --ascii --keys='i'
check "i, every row shown: no mark" has '^── values ──' --snapshot=100x32 --keys='i' scenes/unequal.scene

# --- ] [: contact events (the head-on pair meets after 13 = 260 steps) ---
check "]: stops where the contact begins" has ' t 13.05  step 261 ' --keys=']' scenes/headon.scene
check "]: says so" has '1 contact began \(261 steps on\)' --keys=']' scenes/headon.scene
check "] ]: where it ends" has '1 contact ended' --keys='] ]' scenes/headon.scene
check "] ] [: back to its last step" has '1 contact ends at the next step \(1 step back\)' --keys='] ] [' scenes/headon.scene
check "] ] [ [: back before it began" has ' step 260 .*' --keys='] ] [ [' scenes/headon.scene
check "]: pauses" has ' paused ' --keys=']' scenes/headon.scene
check "[: at the start, nothing back" has 'no contact event back to the start' --keys='[' scenes/headon.scene
# issue 42.5: a sticky pair has no spring: the contact says so (it showed
# "k·s 2.5" while no force acts)
check "sticky: the contact line says no spring" has 'ball 1 +s 0\.5  stuck: no spring' --keys='i tab <t 25>' "$tmpd/sticky.scene"
check "sticky: no k·s" hasnt 'k·s' --keys='i tab <t 25>' "$tmpd/sticky.scene"
# issue 42.3: a click on the table gives enter to the kick; tab to a row
# gives it back to the row (it kicked: "kick: ball 2 at 10")
check "click on a ball, tab, enter: the row is edited" has '^:v -10 0' --paused --keys='i <click 16 8> tab enter' scenes/headon.scene
check "click on the table, tab, enter: the row is edited" has '^:v -10 0' --paused --keys='i <click 40 4> tab enter' scenes/headon.scene
check "click on the table, enter: a kick" has 'kick: ball 1 at 10' --paused --keys='i <click 40 4> enter' scenes/headon.scene
# issue 42.4: r keeps the settings, e and 1-D as :restitution, and says so
check "e e 1 r: kept and named" has 'reset; kept e 0\.80, 1-D on' --paused --keys='e e 1 r' scenes/headon.scene
check "e e 1 r: the status line still has them" has ' e 0\.8  1-D$' --paused --keys='e e 1 r' scenes/headon.scene
check "r alone: reset" has ' reset │$' --paused --keys='r' scenes/headon.scene
# issue 42.2: history by a memory budget, not 1000 steps: from t 70 the
# third [ reaches the collision at 13 (it stopped at t 19.95 with "back to
# the start"); the least budget says where it stops and what it kept
check "[ [ [ from t 70: back to the collision" has '^ t 13\.95 .*' --snapshot=120x12 --keys='<t 70> space [ [ [' scenes/headon.scene
check ", from t 150 at 1000 steps' budget: the limit named" has 'history limit \(2488 steps kept\)' --history=0.0625 --snapshot=120x12 --keys='<t 150> space ,*3000'
check "--history: a size too small refused (status 2)" sh -c '"$0" --history=0.01 --snapshot 2>"$1"; [ $? -eq 2 ] && grep -q "history.*megabytes" "$1"' "$SB" "$tmpd/err"
check "]: the event engine steps with ." has "event mode: '.' steps one collision" --keys='m ]' scenes/headon.scene

# --- e E b: restitution and border on the status line ---
check "e: restitution 0.9" has '  e 0.9' --keys='e'
check "e e E: 0.9" has '  e 0.9' --keys='e e E'
check "e E: elastic again, not shown" hasnt '  e [0-9.]' --keys='e E'
check "e*9: 0.1" has '  e 0.1' --keys='e*9'
check "e*12: sticky, 0" has '  sticky' --keys='e*12'
check "b: hard walls" has '  hard walls' --keys='b'
check "b b: no walls" has '  no walls' --keys='b b'
check "b b b: spring walls again" sh -c '! "$0" --snapshot --no-color --keys="b b b" | tail -n 1 | grep -q walls' "$SB"
# no walls: the cue ball leaves the table and does not come back
check "no walls: ball 1 has left the table" has '^ +1 +1.0000 +-[0-9]' --keys='b b <t 100> i' scenes/headon.scene
check "hard walls: ball 1 stays on it" has '^ +1 +1.0000 +[0-9]' --keys='b <t 100> i' scenes/headon.scene
check "restitution 0.5: energy lost in the head-on contact" [ "$(status --keys='e*5 <t 30>' scenes/headon.scene | field KE | cut -d. -f1)" -lt 50 ]

# --- sticky collisions: e down to 0 (issue 26.6) ---
check "e*10: sticky on the status line" has '  sticky' --keys='e*10'
check "e*10: the note" has 'sticky, balls that meet move on together' --keys='e*10'
check "sticky head-on: both stop, 100 lost" has 'lost 100' --keys='e*10 <t 60> i' scenes/headon.scene
check "sticky head-on: at rest together" has '^ +2 +1.0000 +[0-9.]+ +200.00 +0 +0 ' --keys='e*10 <t 60> i' scenes/headon.scene
check "sticky: the event engine refuses it" has 'need the spring engine' --keys='m e*10' scenes/headon.scene
check "restitution 0 in a scene" has '  sticky' "$tmpd/sticky.scene"

# --- one undo per action (issue 26.2) ---
check ":v then a kick, ',': the edit stays" has 't 0.25 .*Σp \(3, 1\)' --keys='.*5 <:v 3 1> enter ,'
check ":v then a kick, ', ,': the step's state" has 't 0.25 .*Σp \(10, 0\)' --keys='.*5 <:v 3 1> enter , ,'
check ":v then a kick, ', , ,': a step back" has 't 0.20 ' --keys='.*5 <:v 3 1> enter , , ,'
check "', , .': the edit redone" has 't 0.25 .*Σp \(3, 1\)' --keys='.*5 <:v 3 1> enter , , .'
check "a kick at t = 0 undone" has 't 0.00 .*Σp \(10, 0\)' --keys='space up*3 enter ,'
check "a kick at t = 0: r goes to the scene" has 't 0.00 .*Σp \(10, 0\)' --keys='space up*3 enter r'

# --- 1: 1-D mode (issue 26.8) ---
check "1: 1-D on the status line" has '  1-D' --keys='1'
check "1 1: off" hasnt '  1-D' --keys='1 1'
check "1-D: the oblique pair meets head-on, -5 and 5" has '^ +1 +1.0000 +[0-9.]+ +180.00 +-5.00[0-9]* +0 ' --keys='1 <t 60> i' scenes/unequal.scene
check "1-D: ball 2 keeps its row" has '^ +2 +3.0000 +[0-9.]+ +200.00 +5.00[0-9]* +0 ' --keys='1 <t 60> i' scenes/unequal.scene
check "1-D: a kick keeps to x" has '^ +1 +1.0000 +200.00 +180.00 +7.66[0-9]* +0 ' --keys='1 space up*8 enter i' scenes/unequal.scene
check "1-D: the event engine refuses it" has '1-D mode needs the spring engine' --keys='m 1' scenes/unequal.scene

# --- V: time reversed ---
# table rows only: the aim and the status line follow the cue ball's velocity
rows() { snap "$@" | sed -n 2,21p; } # the last inside row: the note's (issue 42.7)
check "V: the note" has 'time reversed' --keys='<t 30> V'
check "V: the cue ball goes back, Σp (-10, 0)" has 'Σp \(-10, 0\)' --keys='<t 30> V'
check "V through the break, V: the rack again (springs)" \
    [ "$(rows --keys='<t 50> V <t 50> V space')" = "$(rows --keys='space')" ]
check "V through the collision, V: the start again (events)" \
    [ "$(rows --keys='m <t 50> V <t 50> V space' scenes/unequal.scene)" = "$(rows --keys='m space' scenes/unequal.scene)" ]
check "V then ',': undone" [ "$(rows --keys='<t 30> V ,')" = "$(rows --keys='<t 30> space')" ]
check "V: in the help" has 'V +reverse time' --keys='? space'

# --- P: the plots ---
check "P: energy" has '── energy ──' --keys='P <t 5>'
check "P: energy's legend" has '━ KE  ━ PE  ━ E' --keys='P <t 5>'
# a snapshot's wait samples a frame at a time, as a terminal does: a ball
# dropped in a field bounces at t = 22 and rises again, so its energies
# reach the plot's floor (KE at 0, PE at its least) across the whole
# width, not only at the start (with samples at the ends alone the plot
# drew two straight lines)
printf 'title Bounce\ntable 400 300\nfield 0 -1\nball 200 250 3 0 1 10\n' >"$tmpd/bounce.scene"
for e in spring event; do
    w=$(snap --snapshot=100x40 --engine=$e --keys='P <t 60>' "$tmpd/bounce.scene" | grep '^ *0┤' |
        sed 's/ *$//' | awk '{ print length($0) }')
    check "P, $e engine: a bounce's energies across the plot ($w)" [ "${w:-0}" -gt 80 ]
done
check "P P: momentum" has '━ Σpx  ━ Σpy' --keys='P P <t 5>'
check "P P P: speeds against the law" has 'Maxwell-Boltzmann, a [0-9.]+' --keys='P P P <t 5>' scenes/gas.scene
# issue 26.9: the momentum diagram, before the last contact and now
check "P*4: the momentum diagram" has '── momentum diagram ──' --keys='P P P P'
check "P*4: before any contact" has 'before: no contact yet +now \(t 0\)' --keys='P P P P' scenes/headon.scene
check "P*4: before the head-on contact and after it" has 'before the contact \(t 13\) .*now \(t 15\)' --keys='P P P P space .*300' scenes/headon.scene
check "P*4: each sum after its caption" has '^before the contact \(t 13\)  Σp \(0, 0\) +now \(t 15\)  Σp \(0, 0\)$' --keys='P P P P space .*300' scenes/headon.scene
check "P*4: the whole caption at 100 columns" has '^before the last contact \(t 13\)  Σp \(0, 0\) +now' --snapshot=100x32 --keys='P P P P space .*300' scenes/headon.scene
check "P*4 in ASCII" has '^before the contact \(t 13\)  sum p \(0, 0\)' --ascii --keys='P P P P space .*300' scenes/headon.scene
# at 64x16 P's note (the row above the status line) covered the right
# half's sum, then on the panel's bottom row: 'Σp (0, 0 plot: momentum diagram'
check "P*4 at 64x16: both sums whole beside P's note" sh -c '"$0" --snapshot=64x16 --no-color --keys="P P P P space .*300" "$1" >"$2" && grep -q "^before (t 13)  Σp (0, 0) *now (t 15)  Σp (0, 0)$" "$2" && grep -q "plot: momentum diagram$" "$2"' "$SB" scenes/headon.scene "$tmpd/p64"
# a total within its rounding reads 0, as on the status line: the break's
# diagram read "now (t 40)  Σp (10, 4.441e-16)"
check "P*4 on the break: Σp (10, 0) now" has 'now \(t 40\)  Σp \(10, 0\)$' --keys='P P P P <t 40>'
check "P*5: off" hasnt '── (energy|momentum|speeds|momentum diagram) ──' --keys='P P P P P'

# --- s: both engines, time-locked ---
s=$(snap --keys='s <t 40> space' scenes/cradle.scene)
check "s: the springs' table" sh -c 'echo "$0" | grep -q "springs · KE+PE "' "$s"
check "s: the events' table" sh -c 'echo "$0" | grep -q "events · KE 50"' "$s"
check "s: one status, the springs' time" sh -c 'echo "$0" | tail -n 1 | grep -q " t 40.00 "' "$s"
check "s: the springs' steps on their frame" sh -c 'echo "$0" | grep -q "springs · KE+PE [0-9.]* · step 800"' "$s"
check "s: the event engine's collisions on its frame" sh -c 'echo "$0" | grep -q "events · KE 50 · 5 collisions"' "$s"
# time-locked after stepping back: the event side rebuilt to the same time
a=$(snap --keys='s <t 40> space ,*100' scenes/cradle.scene | grep -o "events · KE [0-9.]* · [0-9]* collisions")
b=$(snap --keys='s <t 35> space' scenes/cradle.scene | grep -o "events · KE [0-9.]* · [0-9]* collisions")
check "s: back 100 steps = run to t 35 ($a, $b)" [ -n "$a" -a "$a" = "$b" ]
check "s: '1 collision', not '1 collisions' (issue 26.11)" has 'events · KE 100 · 1 collision ' --snapshot=120x30 --keys='s <t 20>' scenes/headon.scene
check "s: the titles say what each E holds, springs KE+PE, hard balls KE (issue 26.11)" has 'springs · KE\+PE [0-9.]* · step 100 .*events · KE [0-9.]* · [0-9]* collisions' --snapshot=120x30 --keys='s <t 5>' scenes/gas.scene
check "s: the note says why the energies differ (issue 26.11)" has "split, time-locked: springs' E is KE\\+PE \\(overlaps\\), hard balls' KE" --keys='s' scenes/gas.scene
check "s: refused with gravity" has 'no split view: gravity' --keys='s' scenes/gravity.scene
check "s s: off" hasnt 'events · KE' --keys='s s' scenes/cradle.scene
check "s then m: split off" has 'split off: the event engine is on' --keys='s m' scenes/cradle.scene

# --- the worksheet: unequal masses in 2-D with keys alone ---
s0=$(status --snapshot=100x32 scenes/unequal.scene)
s1=$(status --snapshot=100x32 --keys='i v ] . . . . .' scenes/unequal.scene)
s2=$(status --snapshot=100x32 --keys='i v ] ]' scenes/unequal.scene)
check "worksheet: Σp before" sh -c 'echo "$0" | grep -q "Σp (10, 0)"' "$s0"
check "worksheet: Σp in the contact" sh -c 'echo "$0" | grep -q "Σp (10, 0)"' "$s1"
check "worksheet: Σp after" sh -c 'echo "$0" | grep -q "Σp (10, 0)"' "$s2"
ke=$(echo "$s2" | field KE)
check "worksheet: KE back after ($ke of 50)" awk -v k="$ke" 'BEGIN { exit !(k > 49.9 && k < 50.1) }'
s3=$(status --snapshot=100x32 --keys='e*5 ] ]' scenes/unequal.scene)
check "worksheet e 0.5: Σp kept" sh -c 'echo "$0" | grep -q "Σp (10, "' "$s3"
check "worksheet e 0.5: KE lost" [ "$(echo "$s3" | field KE | cut -d. -f1)" -lt 35 ]

# --- small and ASCII screens ---
# a plot with no room says what is missing (at 40x12 each said "too small"
# alone), and 2 more rows show it
check "40x12 P: 2 more rows needed" has '^2 more rows needed$' --snapshot=40x12 --keys='P <t 5>'
check "40x12 P*4: 1 more row needed" has '^1 more row needed$' --snapshot=40x12 --keys='P P P P <t 5>'
check "40x14 P: the energy plot" has '━ KE  ━ PE  ━ E' --snapshot=40x14 --keys='P <t 5>'
check "40x13 P*4: the momentum diagram" has '^no contact yet +now \(t 5\)' --snapshot=40x13 --keys='P P P P <t 5>'
# labels on the table (ball numbers, short arrows' values) never run
# together, nor over a ball, a head or the frame: at 40x12 the break's
# rack read "1⢁3⣈569⠇14" and "1015" (balls 10 and 15), the stubs' values
# "2.11.4", "2.1.60⡀0⢀9" and "◹2.2" on the top frame; a dropped label is
# better than a wrong number. The table's rows are 3 to 10, frames 2, 11.
nums() { sed -n 3,10p | sed 's/^ *│//; s/│.*$//' | grep -o '[0-9][0-9.e+-]*'; }
s=$(snap --snapshot=40x12 --keys='n <t 60>')
check "40x12 n: ball numbers 1 to 16, none run together" sh -c 'echo "$0" | awk "BEGIN { ok = 1 } { if (\$0 !~ /^[0-9]+\$/ || \$0 < 1 || \$0 > 16) ok = 0 } END { exit !ok }"' "$(echo "$s" | nums)"
check "40x12 n: some numbers shown" [ "$(echo "$s" | nums | wc -l)" -ge 4 ]
s=$(snap --snapshot=40x12 --keys='v p <t 100>')
check "40x12 v p: each stub's value whole (%.2g)" sh -c 'echo "$0" | awk "BEGIN { ok = 1 } !/^[0-9](\\.[0-9])?\$/ { ok = 0 } END { exit !ok }"' "$(echo "$s" | nums)"
check "40x12 v p: values shown" [ "$(echo "$s" | nums | wc -l)" -ge 2 ]
check "40x12 v p: nothing on the top frame" sh -c 'echo "$0" | sed -n 2p | grep -q "^   ┌─*◹*─*┐"' "$s"
# at 40x12 the note (on the row above the status line, over the table's
# frame) covered the arrows' legend: 'p 1/cell' went under 'momentum arrows on'
s=$(snap --snapshot=40x12 --keys='v p')
check "40x12 v p: the legend whole" sh -c 'echo "$0" | grep -q "└─ → v 5/cell  ▷ p 5/cell ─"' "$s"
check "40x12 v p: the note whole, inside the table" sh -c 'echo "$0" | sed -n 10p | grep -q " momentum arrows on │$"' "$s"
s=$(snap --snapshot=40x12 --keys='v p <t 100>')
check "40x12 v p, the note gone: the table's last row again" sh -c '! echo "$0" | grep -q "momentum arrows on" && echo "$0" | sed -n 10p | grep -q "^   │ "' "$s"
check "40x12 with every panel: draws" sh -c '"$0" --snapshot=40x12 --no-color --keys="i P v p f c n tab s" >/dev/null' "$SB"
check "40x12: the table keeps its rows" [ "$(snap --snapshot=40x12 --keys='i P' | grep -c '│')" -ge 4 ]
check "ASCII: no braille or Σ with everything on" sh -c '! "$0" --snapshot --no-color --ascii --keys="i P v p c n tab" | sed "\$d" | grep -q "[^ -~]"' "$SB"

# Issue 42.7: ball numbers beside a small ball, not on it (ASCII: the O
# became the number: none of the break's 16 balls showed at t 64)
o=$("$SB" --snapshot --no-color --ascii --keys='n <t 64>' scenes/break.scene | sed '1d;$d' | tr -cd O | wc -c)
check "n: the break's 16 balls still show at t 64 ($o)" test "$o" -eq 16
# labels keep off the velocity handle (cradle t 30: "1◆3←")
check "the handle covers no label" sh -c '! "$0" --snapshot --no-color --keys="v <t 30> space" scenes/cradle.scene | grep -q "[0-9.]◆\|◆[0-9.]"' "$SB"
# nothing of the overlay on the table's frame (gas t 5: heads replaced its right border)
check "arrows stay off the frame" sh -c '"$0" --snapshot --no-color --keys="v p <t 5> space" scenes/gas.scene | sed -n "3,20p" | grep -vqE "│\$|┐\$|┘\$|^ *\$" && exit 1 || exit 0' "$SB"

# Issue 42.7: notes and the handle off the table's frame. frame_whole: every
# row of the first box, top to bottom, begins and ends with its frame (the
# note replaced the bottom edge's right part at 80x24, "values panel on"
# took the right border at 24x8; the velocity handle replaced the left
# border of a table centred in its rectangle, cradle t 100 at 24x8)
frame_whole() { sed -n '/┌/,/└/p' | grep -vqE '^ *[┌│└].*[┐│┘]$' && return 1; return 0; }
for k in v i C s 'e e' b n; do
    for z in 80x24 40x12 24x8; do
        check "note of '$k' at $z: the frame whole" sh -c '"$0" --snapshot="$1" --no-color --keys="$2" scenes/break.scene | sed -n "/┌/,/└/p" | grep -vqE "^ *[┌│└].*[┐│┘]\$" && exit 1; exit 0' "$SB" "$z" "$k"
    done
done
check "the note inside the table at 80x24" has '│ +velocity arrows on │$' --keys='v'
check "the handle off the frame: cradle t 100 at 24x8" sh -c '"$0" --snapshot=24x8 --no-color --keys="v p f <t 100> space" scenes/cradle.scene | sed -n "/┌/,/└/p" | grep -vqE "^ *[┌│└].*[┐│┘]\$" && exit 1; exit 0' "$SB"
check "the handle off the frame: head-on t 113 at 40x12" sh -c '"$0" --snapshot=40x12 --no-color --keys="v p f <t 113> space" scenes/headon.scene | sed -n "/┌/,/└/p" | grep -vqE "^ *[┌│└].*[┐│┘]\$" && exit 1; exit 0' "$SB"

# Issue 42.9: a panel switched on with no room says so and what it needs
# (at 40x12 with the values on, P changed nothing and said nothing)
check "40x12 i P: the plot has no room, says so" sh -c '"$0" --snapshot=40x12 --no-color --keys="i P" scenes/break.scene | grep -q "plot: energy: no room (needs"' "$SB"
check "40x12 P: the plot has no room, says so (it said 'plot: energy')" sh -c '"$0" --snapshot=40x12 --no-color --keys="P" scenes/break.scene | grep -q "plot: energy: no room (needs 6 rows)"' "$SB"
check "24x8 C: the control bar has no room, says so (it said 'control bar on')" sh -c '"$0" --snapshot=24x8 --no-color --keys="C" scenes/break.scene >"$1" && grep -q "no room (needs" "$1" && grep -q " 9 rows)" "$1"' "$SB" "$tmpd/c24"
# the table keeps two thirds of the rows (80x24 with the values: 15 rows,
# was 11, the break's balls 3 to 4 dots across); a selected ball's
# contacts and a lesson's text still get their rows
box() { sed -n '/┌/,/└/p' | wc -l; }
check "80x24 i: the table keeps 15 of 24 rows" [ "$(snap --keys='i' | box)" -ge 15 ]
check "80x24 i P: the table keeps 15 rows" [ "$(snap --keys='i P' | box)" -ge 15 ]
check "200x60 i P: the table keeps 39 rows" [ "$(snap --snapshot=200x60 --keys='i P' | box)" -ge 39 ]
check "80x24 i tab: the contacts shown" has 'ball 2 touches:' --keys='i ] .*5 tab' scenes/headon.scene
check "24x8 i: the values have no room, say so" sh -c '"$0" --snapshot=24x8 --no-color --keys="i" scenes/break.scene | grep -q "values: no"' "$SB"
# Issue 42.12: the squash shows: zoomed x4 at the head-on's deepest
# overlap (6.3 of 40), the lens the two discs share is half dots (⢕)
check "the squash: the lens of two overlapping discs" sh -c '"$0" --snapshot=100x40 --no-color --paused --keys="] .*10 z z" scenes/headon.scene | grep -q "⢕"' "$SB"

summary
