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
summary
