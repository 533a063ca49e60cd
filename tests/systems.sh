#!/bin/sh
# systems.sh - the other systems from the command line: the figure eight's
# energy over its period, round trips of hard round tables, the --stats line.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

# field NAME: the value of NAME=... in the stats line of $err
field() { tr ' ' '\n' <"$err" | sed -n "s/^$1=//p"; }

# The figure-eight universe: energy over one period (6.32591398e7 s, 2531
# steps of the default dt) within 1e-5, and every body back within 1% of the
# length unit 1e11 m.
"$SPRINGBALL" -H -n 0 --stats scenes/figure8.txt >"$out" 2>"$err"
e0=$(field e)
"$SPRINGBALL" -H -T 6.32591398e7 --stats scenes/figure8.txt >"$out" 2>"$err"
e1=$(field e)
check "figure eight energy over its period ($e0 -> $e1)" \
    awk -v a="$e0" -v b="$e1" 'BEGIN { d = (a - b) / a; if (d < 0) d = -d; exit !(d < 1e-5) }'
check "figure eight back at its start" awk 'NR == FNR { if (FNR > 2 && NF == 6) { x[FNR] = $1; y[FNR] = $2 }; next }
    FNR > 2 && NF == 6 { dx = $1 - x[FNR]; dy = $2 - y[FNR]; if (dx * dx + dy * dy > 1e18) bad = 1 }
    END { exit bad }' scenes/figure8.txt "$out"
# the binary star after one period 2 pi sqrt(a^3/(G M)) = 1.2164e7 s
"$SPRINGBALL" -H -T 1.2164e7 scenes/binary-star.txt >"$out"
check "binary star back at its start" awk 'NR == FNR { if (FNR > 2 && NF == 6) { x[FNR] = $1; y[FNR] = $2 }; next }
    FNR > 2 && NF == 6 { dx = $1 - x[FNR]; dy = $2 - y[FNR]; if (dx * dx + dy * dy > 1e18) bad = 1 }
    END { exit bad }' scenes/binary-star.txt "$out"

# Hard walls on a round table: after thousands of bounces the printed state
# is a valid scene (every ball wholly on the table) and prints back unchanged.
cat >"$out.scene" <<'SCENE'
table circle 100
walls hard
dt 0.3
random 30 6 1 20 3
SCENE
"$SPRINGBALL" -H -n 5000 "$out.scene" >"$out" 2>"$err"
check "hard round table run" test $? -eq 0
if "$SPRINGBALL" -H "$out" | cmp -s - "$out"; then ok; else bad "hard round table round trip"; fi
rm -f "$out.scene"

# --stats: a plain scene keeps its line; the others append pg, dissipated
# and clamps after contacts=
"$SPRINGBALL" -H -n 10 --stats scenes/headon.scene 2>"$err" >/dev/null
check "plain stats line" grep -qE '^t=[^ ]+ steps=10 ke=[^ ]+ pe=[^ ]+ e=[^ ]+ px=[^ ]+ py=[^ ]+ contacts=[0-9]+$' "$err"
"$SPRINGBALL" -H -n 10 --stats scenes/inelastic.scene 2>"$err" >/dev/null
check "systems stats line" grep -qE '^t=[^ ]+ steps=10 ke=[^ ]+ pe=[^ ]+ e=[^ ]+ px=[^ ]+ py=[^ ]+ contacts=[0-9]+ pg=[^ ]+ dissipated=[^ ]+ clamps=[0-9]+$' "$err"
# the inelastic break loses energy, and ke + pe + dissipated stays at 50 (1%)
"$SPRINGBALL" -H -n 4000 --stats scenes/inelastic.scene 2>"$err" >/dev/null
check "inelastic energy balance" awk -v e="$(field e)" -v d="$(field dissipated)" \
    'BEGIN { exit !(d > 10 && (e + d - 50) < 0.5 && (e + d - 50) > -0.5) }'
# an exponential contact at too large a dt is clamped and counted
printf 'contact exp 0.1 1\ndt 2\nball 100 200 5 0 1 20\nball 160 200 -5 0 1 20\n' >"$out"
"$SPRINGBALL" -H -n 20 --stats "$out" 2>"$err" >/dev/null
check "clamps counted ($(field clamps))" test "$(field clamps)" -gt 0
# --theta: Barnes-Hut runs a universe, 0 is the exact sum (the published step),
# and bad values are usage errors
"$SPRINGBALL" -H -T 6.32591398e7 --theta 0.5 scenes/figure8.txt >"$out" 2>"$err"
check "--theta runs" test $? -eq 0
"$SPRINGBALL" -H -n 1 --theta 0 scenes/planets.txt | cmp -s - tests/universes/planets-1step.out
check "--theta 0 is the exact sum" test $? -eq 0
for bad in -1 1.5 x; do
    "$SPRINGBALL" -H --theta "$bad" scenes/planets.txt >"$out" 2>"$err"
    if [ $? -eq 2 ] && [ ! -s "$out" ] && grep -q "^springball: --theta: '$bad'" "$err"; then ok; else
        bad "--theta $bad: $(head -n 1 "$err")"; fi
done
# ===== issue 17: friction, the uniform field, open sides, the level-6 scene =====
# level6.scene holds the values of the issue: 7 balls of radius 10 and mass 1,
# the cue at (30, h/2) at speed 8, the 1-2-1-2 diamond at w-111 ... w-60
"$SPRINGBALL" -H -n 0 scenes/level6.scene >"$out"
cat >"$out.want" <<'STATE'
title Level 6
table 800 400
k 5
dt 0.05
ball 30 200 8 0 1 10 white
ball 689 200 0 0 1 10 yellow
ball 706 189 0 0 1 10 red
ball 706 211 0 0 1 10 red
ball 723 200 0 0 1 10 blue
ball 740 189 0 0 1 10 green
ball 740 211 0 0 1 10 green
STATE
check "level6 is the issue's scene" cmp -s "$out" "$out.want"
rm -f "$out.want"
# every neighbour in the diamond 0.25 apart (sqrt(410) - 20 = 0.248)
check "level6 gaps" awk '$1 == "ball" && $2 > 600 { n++; x[n] = $2; y[n] = $3 }
    END { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) {
        d = sqrt((x[i] - x[j]) ^ 2 + (y[i] - y[j]) ^ 2) - 20
        if (d < 1) { c++; if (d < 0.247 || d > 0.249) bad = 1 } }
      exit bad || c != 6 }' scenes/level6.scene
# the cue scatters the diamond (t = 80); before any ball reaches a wall
# momentum stays (8, 0) and the energy 32 (to the integrator's order)
"$SPRINGBALL" -H -n 2000 --stats scenes/level6.scene >/dev/null 2>"$err"
check "level6 momentum and energy ($(field px) $(field e))" awk -v px="$(field px)" -v e="$(field e)" \
    'BEGIN { exit !(px - 8 < 1e-12 && 8 - px < 1e-12 && e > 31.9 && e < 32.1) }'

# friction: the break on cloth comes to rest for good, all its energy dissipated
"$SPRINGBALL" -H -n 0 --stats scenes/friction.scene >/dev/null 2>"$err"
e0=$(field e)
"$SPRINGBALL" -H -n 6000 --stats scenes/friction.scene >"$out" 2>"$err"
check "friction: all at rest (ke=$(field ke))" test "$(field ke)" = 0
check "friction: dissipated = e0 ($(field dissipated), $e0)" awk -v d="$(field dissipated)" -v e="$e0" \
    'BEGIN { r = (d - e) / e; exit !(r < 1e-3 && r > -1e-3) }'
"$SPRINGBALL" -H -n 1000 "$out" >"$out.2"
check "friction: at rest stays at rest" cmp -s "$out" "$out.2"
rm -f "$out.2"

# the field: the stats line adds pf= (in e) and out= after clamps=
"$SPRINGBALL" -H -n 10 --stats scenes/field.scene 2>"$err" >/dev/null
check "field stats line" grep -qE ' dissipated=0 clamps=0 pf=[^ ]+ out=[0-9]+$' "$err"
check "field: e = ke + pe + pf" awk -v ke="$(field ke)" -v pe="$(field pe)" -v pf="$(field pf)" -v e="$(field e)" \
    'BEGIN { d = ke + pe + pf - e; exit !(d < 1e-9 * e && -d < 1e-9 * e) }'
# a ball thrown through the open top keeps flying: the printed state, with
# it above the table, is a valid scene that prints back unchanged
printf 'field 0 -0.7\nopen top\nball 400 300 0 30 1 10\n' >"$out.scene"
"$SPRINGBALL" -H -n 400 --stats "$out.scene" >"$out" 2>"$err"
check "open top: out=1 at y > 400" sh -c "grep -q ' out=1\$' '$err' && awk '\$1 == \"ball\" { exit !(\$3 > 410) }' '$out'"
if "$SPRINGBALL" -H "$out" | cmp -s - "$out"; then ok; else bad "open top round trip"; fi
"$SPRINGBALL" -H -n 2000 --stats "$out.scene" >"$out" 2>"$err"
check "open top: back in (out=0)" grep -q ' out=0$' "$err"
rm -f "$out.scene"

# the event engine in the field: exact parabolas, ke + pf kept to rounding,
# balls through the open top counted; its stats line adds pf= and out=
"$SPRINGBALL" -H --engine=event -T 200 --stats scenes/field.scene >"$out" 2>"$err"
check "event engine, field.scene: e kept (de=$(field de))" awk -v d="$(field de)" \
    'BEGIN { exit !(d < 1e-12 && d > -1e-12) }'
check "event engine, field.scene: pf= and out= ($(field out))" grep -qE ' de=[^ ]+ pf=[^ ]+ out=[0-9]+$' "$err"
check "event engine, field.scene: e = ke + pf" awk -v ke="$(field ke)" -v pf="$(field pf)" -v e="$(field e)" \
    'BEGIN { d = ke + pf - e; exit !(d < 1e-9 * e && -d < 1e-9 * e) }'
# a projectile: x = 100 + 3 t, y = 300 + 12 t - 0.35 t^2, vy = 12 - 0.7 t
printf 'table 1000 1000\nfield 0 -0.7\nball 100 300 3 12 1 10\n' >"$out.scene"
"$SPRINGBALL" -H --engine=event -T 10 "$out.scene" >"$out"
check "event engine: the projectile at t = 10" awk '$1 == "ball" { d = ($2 - 130) ^ 2 + ($3 - 385) ^ 2 + ($5 - 5) ^ 2; exit !(d < 1e-24 && $4 == 3) }' "$out"
# thrown up at 20 through an open top: above the table at t = 20, back on
# the floor at t = 40 (one event), up again
printf 'table 100 100\nfield 0 -1\nopen top\nball 50 10 0 20 1 10\n' >"$out.scene"
"$SPRINGBALL" -H --engine=event -T 20 --stats "$out.scene" >"$out" 2>"$err"
check "event engine, open top: out at t = 20" sh -c "grep -q ' out=1\$' '$err' && awk '\$1 == \"ball\" { exit !(\$3 > 209.99 && \$3 < 210.01) }' '$out'"
"$SPRINGBALL" -H --engine=event -n 1 --stats "$out.scene" >"$out" 2>"$err"
check "event engine, open top: back at t = 40 (t=$(field t))" awk -v t="$(field t)" 'BEGIN { exit !(t > 40 - 1e-12 && t < 40 + 1e-12) }'
rm -f "$out.scene"
# the event engine runs rolling friction exactly: the break on cloth comes
# to rest, all its energy dissipated, after a finite number of events
"$SPRINGBALL" -H --engine=event -T 400 --stats scenes/friction.scene >"$out" 2>"$err"
check "event engine, friction.scene: at rest (ke=$(field ke))" test "$(field ke)" = 0
check "event engine, friction.scene: dissipated = e0 ($(field dissipated))" awk -v d="$(field dissipated)" \
    'BEGIN { exit !(d == 50) }'
"$SPRINGBALL" -H --engine=event -n 1000 "$out" >"$out.2"
check "event engine, friction: at rest stays at rest" cmp -s "$out" "$out.2"
rm -f "$out.2"
# it refuses quadratic drag, and friction with a field, with a reason
for d in 'friction drag 0.001:friction drag (quadratic drag has no closed-form meeting time)' \
         'friction linear 1
field 0 -1:friction with a field'; do
    printf '%s\nball 100 100 1 0 1 10\n' "${d%%:*}" >"$out.scene"
    expect_fail 2 "springball: event engine: cannot simulate ${d#*:} (use --engine=spring)" \
        "$SPRINGBALL" -H --engine=event -n 10 "$out.scene"
done
rm -f "$out.scene"
# the LAMMPS export refuses friction and open sides rather than leave them
# out (a field becomes fix gravity: tests/lammps.sh)
for d in 'friction drag 0.01:friction' 'open top:open sides'; do
    printf '%s\nball 100 100 1 0 1 10\n' "${d%%:*}" >"$out.scene"
    expect_fail 2 "springball: --export=lammps: LAMMPS's gran/hooke mapping has no equivalent of ${d#*:}" \
        "$SPRINGBALL" --export=lammps "$out.x" -n 10 "$out.scene"
done
rm -f "$out.scene" "$out.x.in" "$out.x.data"
# a field too strong for the step: the run stops and blames the forces, not k
printf 'field 1e307 -1e308\nball 100 100 1 0 1 10\n' >"$out.scene"
expect_fail 1 "springball: the state became non-finite at step 23 (t = 1.1500000000000001): dt is too large for the forces" \
    "$SPRINGBALL" -H -n 1000 "$out.scene"
# errors name the file and line
printf 'ball 100 100 1 0 1 10\nfriction drag -1\n' >"$out.scene"
expect_fail 2 "$out.scene:2: friction drag C must be > 0" "$SPRINGBALL" -H "$out.scene"
printf 'table circle 100\nopen top\nball 100 100 1 0 1 10\n' >"$out.scene"
expect_fail 2 "$out.scene:2: open: only a rectangular table has sides to open" "$SPRINGBALL" -H "$out.scene"
rm -f "$out.scene"
summary
