#!/bin/sh
# lammps.sh - the LAMMPS export checked against LAMMPS itself (when `lmp` is
# installed; skipped with a message otherwise). Each scene is exported with
# --export=lammps, run by lmp with a dump every step, and run by springball
# with --traj every step; tests/lammps/compare.awk compares the two.
#
# LAMMPS integrates by velocity Verlet, springball by semi-implicit Euler:
# Euler's velocity is Verlet's half-step velocity, so during a contact the
# velocities differ by about F dt / 2m, while positions, and velocities
# once the contacts are over, agree closely. The bounds below are 10-100x
# the values measured at dt = 0.05 (README "Beyond one machine" has the
# table); the head-on pair is also run at dt/2 and dt/4, where the
# difference must shrink.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
if ! command -v lmp >/dev/null 2>&1; then
    echo "lammps: lmp is not installed: the LAMMPS comparisons are skipped"
    summary
    exit
fi
SB=$(cd "$(dirname "$SPRINGBALL")" && pwd)/$(basename "$SPRINGBALL")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
here=$(pwd)

# run NAME STEPS: exports $tmp/NAME.scene, runs both programs, leaves the
# tables $tmp/NAME.sb and $tmp/NAME.lmp and springball's --stats in
# $tmp/NAME.stats and LAMMPS's log in $tmp/NAME.log
run() {
    (
        cd "$tmp" || exit 1
        "$SB" --export=lammps "$1" -n "$2" --every 1 "$1.scene" &&
            lmp -in "$1.in" -log "$1.log" -screen none &&
            "$SB" -H -n "$2" --every 1 --traj="$1.xyz" --stats "$1.scene" \
                >/dev/null 2>"$1.stats" &&
            awk -f "$here/tests/lammps/table.awk" "$1.xyz" >"$1.sb" &&
            awk -f "$here/tests/lammps/table.awk" "$1.lammpstrj" >"$1.lmp"
    )
}

# compare NAME A B R DT: compare.awk's line for balls A, B touching at R
compare() {
    awk -v a="$2" -v b="$3" -v r="$4" -v dt="$5" -f tests/lammps/compare.awk \
        "$tmp/$1.sb" "$tmp/$1.lmp"
}

# field LINE NAME: the value after "NAME " in a compare line
field() { echo "$1" | awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }'; }

# le A B: A <= B as numbers
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 <= b + 0) }'; }

# near A B TOL: |A - B| <= TOL
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'; }

# The last frame's velocities of ball ID in a table.
vx_end() { awk -v id="$2" '$2 == id { v = $5 } END { print v }' "$tmp/$1"; }

# The kinetic energy: springball's --stats, LAMMPS's last thermo line.
ke_sb() { sed -n 's/.* ke=\([^ ]*\) .*/\1/p' "$tmp/$1.stats"; }
ke_lmp() { awk '/^ *Step +Time +c_ke/ { on = 1; next } /^Loop time/ { on = 0 }
                on && NF == 3 { ke = $3 } END { print ke }' "$tmp/$1.log"; }

# --- the head-on pair, at three time steps --------------------------------
prev=""
for dt in 0.05 0.025 0.0125; do
    nm=headon$dt
    sed "s/^table 800 400/table 800 400\ndt $dt/" scenes/headon.scene >"$tmp/$nm.scene"
    steps=$(awk -v dt="$dt" 'BEGIN { printf "%d", 30 / dt }')
    run "$nm" "$steps"
    check "head-on, dt $dt: both programs run" test -s "$tmp/$nm.lmp"
    line=$(compare "$nm" 1 2 40 "$dt")
    echo "head-on dt=$dt: $line"
    check "head-on dt $dt: every frame of both" test "$(field "$line" missing)" = 0
    dvend=$(field "$line" dvend)
    # after the collision: exchanged velocities, the same to 1e-6 relative
    check "head-on dt $dt: end velocities agree ($dvend)" le "$dvend" 1e-5
    check "head-on dt $dt: positions agree" le "$(field "$line" dx)" 1e-3
    # the contact time pi sqrt(mu/k) = 0.99346 (mu = 1/2, k = 5), to a step
    tc=0.99345882657961
    check "head-on dt $dt: springball's contact time" near "$(field "$line" tc1)" $tc "$dt"
    check "head-on dt $dt: LAMMPS's contact time" near "$(field "$line" tc2)" $tc "$dt"
    check "head-on dt $dt: ball 1 leaves at -10" near "$(vx_end "$nm.lmp" 1)" -10 0.05
    check "head-on dt $dt: the kinetic energy agrees" near "$(ke_sb "$nm")" "$(ke_lmp "$nm")" 1e-4
    [ -n "$prev" ] && check "head-on: the difference shrinks with dt ($prev -> $dvend)" le "$dvend" "$prev"
    prev=$dvend
done

# --- masses 1 and 3: ball 2 stops, ball 1 comes back at twice the speed ---
cat >"$tmp/mass13.scene" <<'EOF'
table 800 400
ball 250 200 10 0 1 20
ball 550 200 -10 0 3 20
EOF
run mass13 400
line=$(compare mass13 1 2 40 0.05)
echo "masses 1:3: $line"
check "1:3: end velocities agree" le "$(field "$line" dvend)" 1e-5
check "1:3: positions agree" le "$(field "$line" dx)" 1e-3
# pi sqrt(mu/k), mu = 3/4
check "1:3: contact time, springball" near "$(field "$line" tc1)" 1.2167 0.05
check "1:3: contact time, LAMMPS" near "$(field "$line" tc2)" 1.2167 0.05
check "1:3: LAMMPS's ball 1 at -20" near "$(vx_end mass13.lmp 1)" -20 0.1
check "1:3: LAMMPS's ball 2 stops" near "$(vx_end mass13.lmp 2)" 0 0.1
check "1:3: the kinetic energy agrees" near "$(ke_sb mass13)" "$(ke_lmp mass13)" 1e-3
# momentum: 1*v1 + 3*v2 = 10 - 30 = -20 in both
px=$(awk '{ v[$2] = $5 } END { printf "%.17g", v[1] + 3 * v[2] }' "$tmp/mass13.lmp")
check "1:3: LAMMPS keeps the momentum ($px)" near "$px" -20 1e-9

# --- a spring wall: k times the penetration ------------------------------
cat >"$tmp/wall.scene" <<'EOF'
table 800 400
ball 100 200 -10 0 2 20
EOF
run wall 300
line=$(compare wall 1 0 20 0.05)
echo "wall: $line"
# pi sqrt(m/k) = 1.98692 for m = 2, k = 5 (a wall twice as stiff would give
# 1.405, one of k/2 2.81)
check "wall: contact time, springball" near "$(field "$line" tc1)" 1.98692 0.05
check "wall: contact time, LAMMPS" near "$(field "$line" tc2)" 1.98692 0.05
check "wall: the ball comes back at +10" near "$(vx_end wall.lmp 1)" 10 0.05
check "wall: end velocities agree" le "$(field "$line" dvend)" 1e-5

# --- restitution 0.8: gamma_n from e, for a pair and a wall ---------------
cat >"$tmp/damped.scene" <<'EOF'
table 800 400
restitution 0.8
ball 250 200 10 0 1 20
ball 550 200 -10 0 1 20
ball 100 100 -10 0 1 20
EOF
run damped 600
line=$(compare damped 1 2 40 0.05)
echo "restitution 0.8: $line"
p1=$(vx_end damped.sb 1) l1=$(vx_end damped.lmp 1)
p3=$(vx_end damped.sb 3) l3=$(vx_end damped.lmp 3)
echo "restitution 0.8: pair leaves at $p1 (springball) $l1 (LAMMPS); wall returns $p3 $l3"
# The pair: the same to 1e-5 (both 8.1527: the dashpot at 20 steps a
# contact), and e = 0.8 to the discretisation, 2%.
check "e 0.8: the pair's velocities agree" near "$p1" "$l1" 1e-5
check "e 0.8: the pair leaves at 8, LAMMPS" near "$l1" -8 0.2
check "e 0.8: the pair leaves at 8, springball" near "$p1" -8 0.2
# The wall: wall/gran applies its dashpot with Verlet's half-step velocity;
# the two differ by O(dt) (0.127 at dt 0.05, 0.008 at dt/16) and both tend
# to 8.
check "e 0.8: the wall returns 8, LAMMPS" near "$l3" 8 0.2
check "e 0.8: the wall returns 8, springball" near "$p3" 8 0.2
check "e 0.8: the wall's velocities agree to O(dt)" near "$p3" "$l3" 0.2

# --- a uniform field: fix gravity gives the force m g --------------------
# Two balls of masses 1 and 3 fly free for t = 10 under g = (0.3, -0.7):
# velocity Verlet lands on the parabola x0 + v0 t + g t^2 / 2 exactly,
# semi-implicit Euler half a step ahead of it, by g dt t / 2.
cat >"$tmp/field.scene" <<'EOF'
table 800 400
k 50
dt 0.02
field 0.3 -0.7
ball 300 300 2 1 1 10
ball 500 300 -1 0 3 15
EOF
run field 500
grep -q '^fix field all gravity ' "$tmp/field.in"
check "field: exported as fix gravity" test $? -eq 0
check "field: LAMMPS on the parabola, both masses" awk '
    $1 == 500 { t = 10; gx = 0.3; gy = -0.7
        x0 = ($2 == 1) ? 300 : 500; y0 = 300; vx = ($2 == 1) ? 2 : -1; vy = ($2 == 1) ? 1 : 0
        ex = x0 + vx * t + gx * t * t / 2; ey = y0 + vy * t + gy * t * t / 2
        d = $3 - ex; if (d < 0) d = -d; e = $4 - ey; if (e < 0) e = -e
        if (d > 1e-9 || e > 1e-9) bad++; n++ }
    END { exit bad || n != 2 }' "$tmp/field.lmp"
check "field: springball half a step ahead (g dt t / 2)" awk '
    $1 == 500 { t = 10; dt = 0.02; gx = 0.3; gy = -0.7
        x0 = ($2 == 1) ? 300 : 500; y0 = 300; vx = ($2 == 1) ? 2 : -1; vy = ($2 == 1) ? 1 : 0
        ex = x0 + vx * t + gx * (t * t + dt * t) / 2; ey = y0 + vy * t + gy * (t * t + dt * t) / 2
        d = $3 - ex; if (d < 0) d = -d; e = $4 - ey; if (e < 0) e = -e
        if (d > 1e-9 || e > 1e-9) bad++; n++ }
    END { exit bad || n != 2 }' "$tmp/field.sb"

# --- the break: 16 balls ---------------------------------------------------
cp scenes/break.scene "$tmp/break.scene"
run break 1600
line=$(compare break 1 2 24 0.05)
echo "break: $line"
check "break: every frame of both" test "$(field "$line" missing)" = 0
check "break: positions agree" le "$(field "$line" dx)" 1e-2
check "break: end velocities agree" le "$(field "$line" dvend)" 1e-3
check "break: the kinetic energy agrees" near "$(ke_sb break)" "$(ke_lmp break)" 1e-3

# --- the scale-out path: 10^5 balls on 1 and 2 MPI ranks -----------------
if command -v mpirun >/dev/null 2>&1; then
    printf 'table 2000 2000\nk 100\ndt 0.01\nrandom 100000 2 1 1 7\n' >"$tmp/big.scene"
    (
        cd "$tmp" || exit 1
        "$SB" --export=lammps big -n 20 big.scene &&
            lmp -in big.in -log big1.log -screen none &&
            OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
                mpirun --oversubscribe -np 2 lmp -in big.in -log big2.log -screen none &&
            "$SB" -H -n 20 --stats --every 20 --traj=big20.xyz big.scene >/dev/null 2>big.stats &&
            "$SB" -H -n 21 --every 21 --traj=big21.xyz big.scene >/dev/null
    )
    check "10^5 balls: runs on 1 and 2 ranks" test $? -eq 0
    k1=$(ke_lmp big1) k2=$(ke_lmp big2) ks=$(sed -n 's/.* ke=\([^ ]*\) .*/\1/p' "$tmp/big.stats")
    n1=$(sed -n 's/^Loop time of \([^ ]*\) on 1 procs for 20 steps with \([0-9]*\) atoms/\2 \1/p' "$tmp/big1.log")
    n2=$(sed -n 's/^Loop time of \([^ ]*\) on 2 procs for 20 steps with \([0-9]*\) atoms/\2 \1/p' "$tmp/big2.log")
    echo "10^5 balls, 20 steps: ke springball $ks, LAMMPS 1 rank $k1, 2 ranks $k2;" \
        "atoms and loop seconds: 1 rank $n1, 2 ranks $n2"
    check "10^5 balls: no ball lost on 1 rank" test "${n1%% *}" = 100000
    check "10^5 balls: no ball lost on 2 ranks" test "${n2%% *}" = 100000
    check "10^5 balls: 2 ranks give the serial energy" \
        awk -v a="$k1" -v b="$k2" 'BEGIN { d = (a - b) / a; exit !(a > 0 && d < 1e-12 && d > -1e-12) }'
    check "10^5 balls: springball's energy, to the integrators' difference" \
        awk -v a="$k1" -v b="$ks" 'BEGIN { d = (a - b) / a; exit !(a > 0 && d < 1e-3 && d > -1e-3) }'
    # Euler's velocity after step n is Verlet's at n + 1/2, so Verlet's at n
    # is the mean of springball's after steps 20 and 21 (the start has no
    # contact: the same initial conditions). Its kinetic energy must be
    # LAMMPS's to far better than the raw one.
    kv=$(awk 'FNR == 1 { f++; fr = 0 } /^Lattice=/ { fr++; next }
        NF == 9 && fr == 2 { if (f == 1) { vx[++n] = $5; vy[n] = $6; m[n] = $9 }
                             else { k++; ax = (vx[k] + $5) / 2; ay = (vy[k] + $6) / 2
                                    ke += m[k] * (ax * ax + ay * ay) / 2 } }
        END { printf "%.17g", ke }' "$tmp/big20.xyz" "$tmp/big21.xyz")
    echo "10^5 balls: springball's kinetic energy of the mean velocities of steps 20 and 21: $kv"
    check "10^5 balls: LAMMPS's energy from springball's half steps" \
        awk -v a="$k1" -v b="$kv" 'BEGIN { d = (a - b) / a; exit !(a > 0 && d < 1e-6 && d > -1e-6) }'
else
    echo "lammps: mpirun is not installed: the 2-rank run is skipped"
fi

# --- what has no equivalent is refused -----------------------------------
for s in scenes/round.scene scenes/softexp.scene scenes/gravity.scene scenes/planets.txt \
         scenes/friction.scene scenes/field.scene; do
    "$SB" --export=lammps "$tmp/refused" -n 10 "$s" >/dev/null 2>"$tmp/err"
    rc=$?
    check "$s is refused" test $rc -eq 2 -a ! -e "$tmp/refused.in"
    check "$s: says why" grep -q "has no equivalent of" "$tmp/err"
done

summary
