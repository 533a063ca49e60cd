#!/bin/sh
# lessons.sh - lessons (springball(1), LESSONS): the malformed lessons of
# tests/lessons (each names its expected "[FILE ]LINE: message" on its first
# line: FILE when the fault is in the scene file the lesson reads), and the
# shipped lessons of scenes/lessons, each loaded.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

for f in tests/lessons/bad-*.lesson; do
    spec=$(head -n 1 "$f" | sed -n 's/^# expect \(.*\)$/\1/p')
    where=$f
    case $spec in
        [0-9]*) ;;
        *) where=tests/lessons/${spec%% *}; spec=${spec#* } ;;
    esac
    line=${spec%%:*}
    msg=${spec#*: }
    # --format=lesson: a file whose first line is not 'lesson' is still one
    expect_fail 2 "$where:$line: $msg" "$SPRINGBALL" -H --format=lesson "$f"
done
# detected: the same message without --format
expect_fail 2 "tests/lessons/bad-ask.lesson:6: ask: vx needs a ball number" \
    "$SPRINGBALL" -H tests/lessons/bad-ask.lesson
# through standard input, `scene FILE` is relative to the working directory
expect_fail 2 "<stdin>:3: scene: cannot read no-such.scene: No such file or directory" \
    sh -c "\"$SPRINGBALL\" -H - < tests/lessons/bad-missing.lesson"
"$SPRINGBALL" --help >"$out" 2>&1
check "--help names the lesson format" grep -q "lesson (lesson TITLE, a scene, then steps)" "$out"

# every shipped lesson loads, as its scene, and has 5 to 10 steps
n=0
for f in scenes/lessons/*.lesson; do
    n=$((n + 1))
    if "$SPRINGBALL" -H -n 0 "$f" >"$out" 2>"$err" && grep -q '^ball ' "$out"; then ok; else
        bad "$f does not load: $(head -n 1 "$err")"; fi
    steps=$(grep -c '^step ' "$f")
    check "$f: 5 to 10 steps ($steps)" test "$steps" -ge 5 -a "$steps" -le 10
done
check "five lessons shipped ($n)" test "$n" -ge 5
# the scene of a lesson is what its lines say (momentum.lesson: dt 0.01, two balls)
"$SPRINGBALL" -H -n 0 scenes/lessons/momentum.lesson >"$out" 2>"$err"
check "momentum.lesson: dt 0.01" grep -qx 'dt 0.01' "$out"
check "momentum.lesson: two balls" test "$(grep -c '^ball ' "$out")" -eq 2

# Stepping: PgDn and l go on (a step that asks shows its answer first),
# PgUp and L go back; the frame names the step
snap() { "$SPRINGBALL" --snapshot=100x30 --no-color --keys "$1" "$2" 2>"$err"; }
M=scenes/lessons/momentum.lesson
check "a lesson opens at step 1" sh -c "\"$SPRINGBALL\" --snapshot=100x30 --no-color $M | grep -q 'lesson: Momentum in one dimension  step 1/10'"
snap 'pgdn' $M >"$out"
check "pgdn on a question: the answer" grep -q 'Σpx = 10.0000' "$out"
check "pgdn on a question: the same step" grep -q 'step 1/10' "$out"
snap 'pgdn pgdn' $M >"$out"
check "pgdn pgdn: step 2" grep -q 'step 2/10' "$out"
snap 'l*5 L' $M >"$out"
check "l*5 L: step 3" grep -q 'step 3/10' "$out"
snap 'l*5 pgup pgup' $M >"$out"
check "l*5 pgup pgup: step 2" grep -q 'step 2/10' "$out"
snap 'L' $M >"$out"
check "L on the first step: the first again" grep -q 'the first step, again' "$out"
snap 'l*30' $M >"$out"
check "l at the end: the last step" grep -q 'step 10/10' "$out"
check "l at the end: a note" grep -q 'the last step of the lesson' "$out"
# a step opens on its own state, whatever the class did before: the same
# screen after 'l l' and after 'l l', a run, a ball removed, panels, L l l
snap 'l l' $M >"$out"
snap 'l l space <t 7> x i v <:k 9> L l l' $M >"$err.2"
check "going back and forth restores the step exactly" cmp -s "$out" "$err.2"
rm -f "$err.2"
# the title row names the lesson, not its file (it showed
# 'springball · scenes/lessons/momentum.lesson')
check "the title row: the lesson's title" sh -c "\"$SPRINGBALL\" --snapshot=100x30 --no-color $M | head -n 1 | grep -q '^ springball · Momentum in one dimension  '"
check "the title row: --ascii too, no path" sh -c "\"$SPRINGBALL\" --snapshot=100x30 --no-color --ascii --keys 'l l' $M | head -n 1 | grep -q '^ springball - Momentum in one dimension  ' && ! \"$SPRINGBALL\" --snapshot=100x30 --no-color $M | head -n 1 | grep -q lesson"
# the panel keeps the tallest step's height, so that the table keeps its
# size from step to step: at 200x60 the table's bottom row moved between
# rows 47 and 51 as steps of 8 to 12 rows came and went
rows=$(for k in '' pgdn 'l l' 'l l l' 'l l l A' 'l*5' 'l*8' 'l*12' 'l*18' 'l*30'; do
    "$SPRINGBALL" --snapshot=200x60 --no-color --keys "$k" $M | grep -n '^ *└─' | head -n 1 | cut -d: -f1
done | sort -u)
check "200x60: the table the same size at every step (its bottom at row(s) $(echo $rows))" [ "$(echo "$rows" | wc -l)" = 1 ]
# l L A without a lesson say how to open one
snap 'l' scenes/headon.scene >"$out"
check "l without a lesson: a note" grep -q 'no lesson: open one' "$out"
# small screens: the step's number stays on the frame (the lesson's name
# gives way), the question stays whole (the step's title gives way before
# it), cut text ends in "…" within the row. At 40x12 the frame read
# "lesson: Momentum in one dimension" (no step) over "Momentum is mass
# times velocity" and "? What is the total momentum of the" (cut, no mark);
# at 40x14 the mark went past the row's end.
"$SPRINGBALL" --snapshot=40x12 --no-color --keys '<t 5>' $M >"$out"
check "40x12: the step on the frame" grep -q '^┌─ lesson: Momentum in on…  step 1/10 ─┐$' "$out"
check "40x12: the question whole" sh -c 'grep -q "^│ ? What is the total momentum of the  │$" "$0" && grep -q "^│   two balls? " "$0"' "$out"
"$SPRINGBALL" --snapshot=40x14 --no-color --keys '<t 5>' $M >"$out"
check "40x14: the cut text marked within the row" grep -q '^│ Ball 1 (yellow, 1 kg) moves right a… │$' "$out"
"$SPRINGBALL" --snapshot=40x14 --ascii --no-color --keys '<t 5>' $M >"$out"
check "40x14 in ASCII: marked with a dot" grep -q '^| Ball 1 (yellow, 1 kg) moves right a\. |$' "$out"
# beside a plot at 80x24 (the panel 40 wide) the keys' row read "A: answe"
# and the speeds' legend "Maxwell-Boltzmann, a 5" (5.64 cut): the keys
# closer together, the curve's name shorter, the numbers whole
"$SPRINGBALL" --snapshot=80x24 --no-color --keys 'A' scenes/lessons/energy.lesson >"$out"
check "80x24 beside the plot: the keys' row whole" grep -q '│ PgDn l: next  PgUp L: back  A: answer  │$' "$out"
a=$("$SPRINGBALL" --snapshot=200x60 --no-color --keys 'A' scenes/lessons/gas.lesson | grep -o 'Boltzmann, a [0-9.]*')
"$SPRINGBALL" --snapshot=80x24 --no-color --keys 'A' scenes/lessons/gas.lesson >"$out"
check "80x24 beside the plot: the law's a whole ($a)" grep -q "^⣿ balls  ━ Maxwell-$a  " "$out"
# the help lists the lesson's keys
{ snap '?' $M; snap '? space' $M; snap '? space space' $M; } >"$out"
check "? lists l L A F5" grep -q 'l L A F5  *lesson: next, back, answer, the step again' "$out"

# README.md's picture of the lesson panel is the program's own
awk '/^## Lessons/{on=1} on && /^```text/{p=1; next} p && /^```/{exit} p' README.md >"$out"
"$SPRINGBALL" --snapshot=80x24 --no-color --keys 'l l l A' $M | sed -e 's/[[:space:]]*$//' |
    sed -n '/^┌─ lesson/,/^└/p' >"$err"
check "README.md's lesson picture is current" cmp -s "$out" "$err"

# The answers, against the physics: each lesson played under --snapshot to
# the step that asks, its answer revealed (A) and read from the panel.
# presses LESSON STEP: the l presses from step 1 to STEP (a step that asks
# takes two: the answer, then the next step)
presses() {
    awk -v want="$2" '/^step /{n++} /^ask /{a[n]=1} END{p=0; for(i=1;i<want;i++) p+=a[i]?2:1; print p}' "$1"
}
# answer LESSON STEP: the value the panel shows for the step's question
answer() {
    p=$(presses "$1" "$2")
    keys="A"
    [ "$p" -gt 0 ] && keys="l*$p A"
    "$SPRINGBALL" --snapshot=200x60 --ascii --no-color --keys "$keys" "$1" 2>"$err" |
        sed -n 's/.*-> .* = \([-0-9.e+]*\).*/\1/p' | head -n 1
}
# near NAME VALUE WANT TOL
near() {
    if [ -n "$2" ] && awk -v v="$2" -v w="$3" -v t="$4" 'BEGIN{d=v-w; if(d<0)d=-d; exit !(d<=t)}'; then
        ok
    else
        bad "$1: got '$2', want $3 +- $4"
    fi
}
# within NAME VALUE LO HI
within() {
    if [ -n "$2" ] && awk -v v="$2" -v lo="$3" -v hi="$4" 'BEGIN{exit !(v>=lo && v<=hi)}'; then
        ok
    else
        bad "$1: got '$2', want $3 .. $4"
    fi
}
L=scenes/lessons
# momentum: equal masses exchange velocities; 1 : 3 from 10 gives -5 and 5;
# sticky: both at 2.5, 37.5 of the 50 lost
near "momentum 1: sum px" "$(answer $L/momentum.lesson 1)" 10 1e-9
near "momentum 3: equal, v2" "$(answer $L/momentum.lesson 3)" 10 1e-3
near "momentum 4: equal, v1" "$(answer $L/momentum.lesson 4)" 0 1e-3
near "momentum 6: 1:3, v1" "$(answer $L/momentum.lesson 6)" -5 1e-3
near "momentum 7: 1:3, v2" "$(answer $L/momentum.lesson 7)" 5 1e-3
near "momentum 9: sticky, v" "$(answer $L/momentum.lesson 9)" 2.5 1e-3
near "momentum 10: sticky, lost" "$(answer $L/momentum.lesson 10)" 37.5 1e-2
# energy: KE 50; at the deepest squeeze of an equal-mass contact half of it
# in the spring; elastic: 50 again; e = 0.5: 2.5 and 7.5, 50 (1 - e^2) / 2 lost
near "energy 1: KE" "$(answer $L/energy.lesson 1)" 50 1e-9
near "energy 3: PE at the squeeze" "$(answer $L/energy.lesson 3)" 25 0.05
near "energy 4: KE at the squeeze" "$(answer $L/energy.lesson 4)" 25 0.05
near "energy 5: E after" "$(answer $L/energy.lesson 5)" 50 1e-2
near "energy 6: e 0.5, v2" "$(answer $L/energy.lesson 6)" 7.5 2e-3
near "energy 7: e 0.5, v1" "$(answer $L/energy.lesson 7)" 2.5 2e-3
near "energy 8: e 0.5, lost" "$(answer $L/energy.lesson 8)" 18.75 0.05
# two dimensions: sum p kept in x and y; equal masses leave at 90 degrees
# (springs: energy and momentum kept imply it); hard balls: ball 2 at
# 10 cos 30 = 8.660254, and with 1 : 3 ball 1 leaves with v1'^2 = 100 - 3
# (10 cos 30 / 2)^2 = 43.75 and v1'.n = -10 cos 30 / 2: 130.89 degrees
near "twod 1: sum px" "$(answer $L/twod.lesson 1)" 10 1e-9
near "twod 3: sum px after" "$(answer $L/twod.lesson 3)" 10 1e-9
near "twod 4: sum py after" "$(answer $L/twod.lesson 4)" 0 1e-9
near "twod 5: the right angle" "$(answer $L/twod.lesson 5)" 90 0.1
near "twod 6: hard, v2 = 10 cos 30" "$(answer $L/twod.lesson 6)" 8.660254 1e-4
a7=$(awk 'BEGIN{c=-5*sqrt(3)/2/sqrt(43.75); printf "%.6f", atan2(sqrt(1-c*c), c)*180/atan2(0,-1)}')
near "twod 7: hard 1:3, the angle" "$(answer $L/twod.lesson 7)" "$a7" 1e-3
near "twod 8: sum px, 1:3" "$(answer $L/twod.lesson 8)" 10 1e-9
# the cradle: springs share the momentum out (the last ball below 10),
# elastic (KE 50); hard balls pass it whole (10 and 0); the break keeps
# sum px = 10 and E = 50 before any wall
near "cradle 1: sum px" "$(answer $L/cradle.lesson 1)" 10 1e-9
within "cradle 2: springs, last ball" "$(answer $L/cradle.lesson 2)" 5 9.99
near "cradle 3: springs, KE" "$(answer $L/cradle.lesson 3)" 50 1e-2
near "cradle 4: hard, last ball" "$(answer $L/cradle.lesson 4)" 10 1e-9
near "cradle 5: hard, ball 6" "$(answer $L/cradle.lesson 5)" 0 1e-9
near "cradle 7: the break, sum px" "$(answer $L/cradle.lesson 7)" 10 1e-6
near "cradle 8: the break, E" "$(answer $L/cradle.lesson 8)" 50 0.05
# the gas: 196 balls at speed 8 and one at rest: kT = 196 * 32 / 197 =
# 31.8376; kept, but for the springs' PE (within 5%), while the collisions
# share it; E kept;
# e = 0.8 cools it; the heavy ball moves, less than it would fly at its
# equipartition speed sqrt(2 kT / 25) = 1.6 in a straight line
near "gas 1: kT" "$(answer  scenes/lessons/gas.lesson 1)" 31.8376 1e-3
within "gas 2: kT after collisions (less the springs' PE)" "$(answer  scenes/lessons/gas.lesson 2)" 30.2 31.8376
near "gas 3: E kept" "$(answer  scenes/lessons/gas.lesson 3)" 6272 31
within "gas 4: cooled" "$(answer  scenes/lessons/gas.lesson 4)" 0 28.6
within "gas 5: the heavy ball moved" "$(answer  scenes/lessons/gas.lesson 5)" 0.5 160
within "gas 6: a Brownian walk" "$(answer  scenes/lessons/gas.lesson 6)" 0.5 320

# Issue 42.6: a presenter's remote in a lesson. Esc (and q) asked nothing
# and quit at once: now they ask, y quits, any other key stays
snap 'esc' $M >"$out"
check "esc in a lesson asks" grep -q 'quit the lesson? y: quit, any other key: stay' "$out"
snap 'esc x l l' $M >"$out"
check "esc, another key: the lesson goes on (l l: step 2)" grep -q 'step 2/10' "$out"
snap 'esc y l l' $M >"$out"
check "esc y: quit (no key after it is played)" grep -q 'step 1/10' "$out"
snap 'q n' $M >"$out"
check "q in a lesson asks too" grep -q 'the lesson goes on' "$out"
check "esc outside a lesson quits at once" sh -c "\"$SPRINGBALL\" --snapshot=100x30 --no-color --keys 'esc i' scenes/headon.scene | grep -qv 'values'"
# --step=N and :step N open a step, as N-1 PgDn's would
snap 'l l l' $M >"$out"
"$SPRINGBALL" --snapshot=100x30 --no-color --step=3 $M >"$err.2" 2>"$err"
check "--step=3 opens on the screen of step 3" cmp -s "$out" "$err.2"
snap '<:step 3>' $M >"$err.2"
check ":step 3 opens on the screen of step 3" cmp -s "$out" "$err.2"
rm -f "$err.2"
snap '<:step 11>' $M >"$out"
check ":step 11: the lesson has steps 1 to 10" grep -q 'step: the lesson has steps 1 to 10' "$out"
expect_fail 2 "springball: --step: the lesson has steps 1 to 10" "$SPRINGBALL" --snapshot --step=11 $M
expect_fail 2 "springball: --step opens a lesson at a step: give a lesson (scenes/lessons/*.lesson)" \
    "$SPRINGBALL" --snapshot --step=2 scenes/headon.scene
# F5 opens the step shown again; b blanks the screen, any key shows it again
snap 'l l l space <t 5> x f5' $M >"$err.2"
snap 'l l l' $M >"$out"
check "f5: the step from its start (the note)" grep -q 'step 3 from its start' "$err.2"
check "f5: the step from its start (the screen)" sh -c "head -n 28 '$out' >'$out.a'; head -n 28 '$err.2' | cmp -s - '$out.a'"
rm -f "$out.a" "$err.2"
snap 'b' $M >"$out"
check "b in a lesson: a blank screen" sh -c "! grep -q '[^ ]' '$out'"
snap 'b space' $M >"$out"
check "b, a key: the screen again (paused still)" sh -c "grep -q 'step 1/10' '$out' && grep -q paused '$out'"
# Issue 42.8: in a lesson the values' rule said PgDn, which turns the page
snap 'i' $L/gas.lesson >"$out"
check "the values' rule in a lesson: wheel tab, not PgDn" sh -c "grep -q 'values 1-[0-9]*/197 wheel tab' '$out' && ! grep -q PgDn.*─ '$out'"

summary
