#!/bin/sh
# event.sh - the event engine and the particle format through the command
# line: every textbook input loads and runs in both engines and prints back
# in its own format; -T lands exactly on T; errors name what is wrong.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
out=$(mktemp)
err=$(mktemp)
tmp=$(mktemp)
dir=$(mktemp -d)
trap 'rm -rf "$out" "$err" "$tmp" "$dir"' EXIT

# A particle file's shape: line 1 is n, then n rows of 9 fields.
is_particles() {
    awk 'NR == 1 { n = $1; if (NF != 1) exit 1; next }
         NF != 9 { exit 1 } END { exit NR != n + 1 }' "$1"
}

for f in tests/particles/*.txt; do
    # the event engine, for 10 time units, and the spring engine, 20 steps
    "$SPRINGBALL" -H --engine=event -T 10 --stats "$f" >"$out" 2>"$err"
    check "$f: event engine runs" test $? -eq 0
    check "$f: event output is particles" is_particles "$out"
    check "$f: event run stops at t=10" grep -q '^t=10 ' "$err"
    check "$f: energy kept" awk -F'de=' '{ d = $2 + 0; exit !(d < 1e-12 && d > -1e-12) }' "$err"
    "$SPRINGBALL" -H -n 20 "$f" >"$tmp"
    check "$f: spring engine runs" test $? -eq 0
    check "$f: spring output is particles" is_particles "$tmp"
    # printing the printed state again changes nothing
    "$SPRINGBALL" -H "$out" | cmp -s - "$out"
    check "$f: round trip" test $? -eq 0
    "$SPRINGBALL" -H --format=particles "$tmp" | cmp -s - "$tmp"
    check "$f: round trip with --format" test $? -eq 0
done

# -T lands exactly on T (the double 0.3 prints as 0.3, %.17g gave 0.29999999999999999)
"$SPRINGBALL" -H --engine=event -T 0.3 --stats scenes/headon.scene 2>"$err" >/dev/null
check "-T exact" grep -q '^t=0.3 steps=0 ' "$err"
# -n counts events: the cradle's first three collisions, all at t = 22
"$SPRINGBALL" -H --engine=event -n 3 --stats scenes/cradle.scene 2>"$err" >/dev/null
check "-n counts events" grep -q '^t=22 steps=3 .* collisions=3 walls=0 ' "$err"
# the rack's exactly touching balls are accepted, and the break runs
"$SPRINGBALL" -H --engine=event -T 100 scenes/break.scene >/dev/null
check "break accepted" test $? -eq 0
# the spring engine's output is unchanged by the event engine's presence
"$SPRINGBALL" -H --engine=spring -n 2000 --stats 2>&1 | cmp -s - tests/golden/break.out
check "--engine=spring is the default" test $? -eq 0

# a 1e200 table of 20000 balls: cells from sqrt(w) sqrt(h/n) (sqrt(w h / n)
# overflowed to one cell: 3.3 s against 0.2 s); bounded by timeout
awk 'BEGIN { print "table 1e200 1e200"; m = 142
    for (i = 0; i < 20000; i++)
        printf "ball %.17g %.17g %g %g 1 1e195\n", ((i % m) + 0.5) / m * 1e200,
            (int(i / m) + 0.5) / m * 1e200, (i % 3 ? 1 : -2) * 1e150, (i % 5 ? 1 : -1) * 1e150 }' >"$tmp"
timeout 20 "$SPRINGBALL" -H --engine=event -n 20 --stats "$tmp" 2>"$err" >/dev/null
check "1e200 table: 20 events in bounded time" grep -q ' steps=20 .*engine=event' "$err"

# errors
printf 'ball 100 100 0 0 1 10\nball 300 100 0 0 1 10\nball 315 100 0 0 1 10\n' >"$tmp"
expect_fail 2 "springball: event engine: balls 2 and 3 overlap" "$SPRINGBALL" -H --engine=event "$tmp"
printf 'ball 100 100 0 0 1 10\nball 300 5 0 0 1 10\n' >"$tmp"
expect_fail 2 "springball: event engine: ball 2 reaches through the wall" "$SPRINGBALL" -H --engine=event "$tmp"
"$SPRINGBALL" -H "$tmp" >/dev/null
check "the spring engine takes a ball pressed into a wall" test $? -eq 0
# fuzz_sim: masses up to 6e301 gave an event time of NaN, and the queue
# rebuilt its calendar for ever; now the run ends with the non-finite state
printf 'table 39 40\nrandom 2 1e-150..8 1 4 3012\n' > "$tmp"
expect_fail 1 "springball: the state became non-finite (event engine): the collision of balls 1 and 2 at t = 11.164833353363518: their reduced mass m1 m2 / (m1 + m2) overflows (masses too large)" timeout 20 "$SPRINGBALL" -H --engine=event -n 16 "$tmp"
expect_fail 2 "springball: --engine: 'hard' is not spring, event or lammps[:RANKS]" "$SPRINGBALL" -H --engine=hard
expect_fail 2 "springball: option '--engine' needs an argument" "$SPRINGBALL" -H --engine
expect_fail 2 "springball: --format=xyz replays a recorded run: give its FILE" "$SPRINGBALL" -H --format=xyz
expect_fail 2 "scenes/headon.scene:1: expected the number of particles alone on the line" \
    "$SPRINGBALL" -H --format=particles scenes/headon.scene
expect_fail 2 "tests/particles/p10.txt:1: unknown directive '10'" \
    "$SPRINGBALL" -H --format=scene tests/particles/p10.txt
printf '3\n.5 .5 0 0 .1 1 0 0 0\n.2 .2 0 0 .1 1 0 0 0\n' >"$tmp"
expect_fail 2 "<stdin>:3: expected 3 particles (line 1), found 2" sh -c "\"$SPRINGBALL\" -H - < $tmp"
printf '2\n.5 .5 0 0 .1 1 0 0 0\n.2 .2 0 0 .1 1 0 300 0\n' >"$tmp"
expect_fail 2 "$tmp:3: green: '300' is not a whole number from 0 to 255" "$SPRINGBALL" -H "$tmp"
printf '2\n.5 .5 0 0 .1 1 0 0 0\n.55 .5 0 0 .1 1 0 0 0\n' >"$tmp"
expect_fail 2 "springball: event engine: balls 1 and 2 overlap" "$SPRINGBALL" -H --engine=event "$tmp"

# help lists the options
# Issue 27.1: with hard walls, a state the event engine prints reads back,
# into either engine, and prints the same again: the engine leaves a ball at
# a wall an ulp or so past it (y = 4.9999999999999147 for r = 5), which the
# reader took for a ball through the wall for about a third of the seeds.
for t in 'table 600 300' 'table circle 300'; do
    for seed in 1 3 4 5 7; do
        printf '%s\nwalls hard\nrandom 20 5 1 5 %s\n' "$t" "$seed" >"$tmp"
        "$SPRINGBALL" -H --engine=event -n 2000 "$tmp" >"$out" 2>"$err"
        "$SPRINGBALL" -H - <"$out" 2>"$err" | cmp -s - "$out"
        check "hard walls, $t, seed $seed: the event engine's state reads back" test $? -eq 0
        "$SPRINGBALL" -H --engine=event - <"$out" >/dev/null 2>"$err"
        check "hard walls, $t, seed $seed: and into the event engine" test $? -eq 0
    done
done
# A ball past the wall by more than rounding is still refused, by both.
printf 'table 600 300\nwalls hard\nball 100 4.99999 0 0 1 5\n' >"$tmp"
expect_fail 2 "$tmp:3: ball 1 at (100, 4.9999900000000004) of radius 5 crosses a wall (with walls hard every ball must lie wholly on the table)" "$SPRINGBALL" -H "$tmp"
# Issue 27.7: a field beyond the engine's arithmetic is refused, not run
# through the floor (field 0 -1e308) or off an open side's phantom wall.
msg="springball: event engine: the field is too strong: the energy it gives the balls across the table overflows"
printf 'table 800 400\nfield 0 -1e308\nball 100 100 0 0 1 5\nball 300 100 0 0 1 5\n' >"$tmp"
expect_fail 2 "$msg" "$SPRINGBALL" -H --engine=event -T 1 "$tmp"
printf 'table 800 400\nfield 1e308 -1e308\nopen top\nball 100 100 0 0 1 5\nball 300 100 0 0 1 5\n' >"$tmp"
expect_fail 2 "$msg" "$SPRINGBALL" -H --engine=event -T 1 "$tmp"
# Issue 27.17: a valid scene whose run overflows names the event, its balls
# and the cause, status 1, nothing on standard output.
printf 'table 800 400\nball 100 200 1 0 1e308 5\nball 300 200 -1 0 1e308 5\n' >"$tmp"
expect_fail 1 "springball: the state became non-finite (event engine): the collision of balls 1 and 2 at t = 95: their reduced mass m1 m2 / (m1 + m2) overflows (masses too large)" "$SPRINGBALL" -H --engine=event -T 200 "$tmp"
# ... and the terminal pauses there with the same words (it ran on silently,
# 'behind: cannot keep 20 t/s', then 'no more events', on 4199e65)
"$SPRINGBALL" --engine=event --snapshot=100x24 --no-color --keys '<t 120>' "$tmp" >"$out" 2>&1
# (the note inside the table, wrapped to its width: issue 42.7; the rows joined)
check "terminal: the stop in the engine's words" sh -c 'sed "s/^ *│ *//; s/ *│\$//" "$0" | tr "\n" " " | grep -q "$1"' "$out" "not finite: paused (',' back, r reset): the collision of balls 1 and 2 at t = 95: their reduced"
"$SPRINGBALL" --engine=event --snapshot=100x24 --no-color --keys "<t 120> ," "$tmp" >"$out" 2>&1
check "terminal: ',' gets back from the stop" grep -q "^ t 0.00 .* 2 balls  back 0" "$out"
printf 'table 800 400\nball 100 200 1e308 1e308 1 5\nball 300 200 0 0 1 5\n' >"$tmp"
"$SPRINGBALL" -H --engine=event -T 1 "$tmp" >"$out" 2>"$err"
check "speeds of 1e308: status 1" test $? -eq 1
check "speeds of 1e308: the collision, its balls, the cause" grep -q "^springball: the state became non-finite (event engine): the collision of balls 1 and 2 at t = .*: the impulse overflows" "$err"
check "speeds of 1e308: nothing printed" test ! -s "$out"
printf 'table 800 400\nopen right\nball 100 200 1e308 0 1 5\n' >"$tmp"
expect_fail 1 "springball: the state became non-finite (event engine): ball 1 at t = 10: its position or speed overflows in flight" "$SPRINGBALL" -H --engine=event -T 10 "$tmp"
"$SPRINGBALL" --help >"$out"
check "--help: --engine" grep -q -- '--engine=ENGINE' "$out"
check "--help: --format" grep -q -- '--format=FORMAT' "$out"
check "man: --engine" grep -q 'engine' man/springball.1
# Issue 43.11: dissipated, one value everywhere. Elastic, nothing is
# dissipated: 0 in every row (e0 - e read -1.4e-14 in 28 rows of the break);
# inelastic (e 0.8): --stats says it (it said nothing without friction), and
# --series' last row and R's CSV (0 there) say the same bits.
"$SB" -H --engine=event -T 100 --series="$dir/b.csv" scenes/break.scene >/dev/null
check "elastic: --series' dissipated 0 in every row" awk -F, 'NR > 1 && $10 != "0" { bad++ } END { exit bad || NR < 10 }' "$dir/b.csv"
"$SB" -H --engine=event -T 100 --stats --series="$dir/i.csv" scenes/inelastic.scene 2>"$err" >/dev/null
d_stats=$(sed -n 's/.* dissipated=\([^ ]*\).*/\1/p' "$err")
d_series=$(tail -n 1 "$dir/i.csv" | cut -d, -f10)
(cd "$dir" && "$SB" --snapshot --keys='m R <t 100> R' "$OLDPWD/scenes/inelastic.scene" >/dev/null)
d_r=$(tail -n 1 "$dir/springball-1.csv" | cut -d, -f1,10)
check "inelastic: --stats says dissipated ($d_stats)" awk -v d="$d_stats" 'BEGIN { exit !(d > 19 && d < 21) }'
check "inelastic: --series' last row the same ($d_series)" [ "$d_series" = "$d_stats" ]
check "inelastic: R's CSV at t 100 the same ($d_r)" [ "$d_r" = "100,$d_stats" ]

summary
