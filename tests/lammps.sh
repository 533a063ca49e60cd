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

# --- past the wall line: springball's spring wall at any depth -----------
# At speed 20 against k 5 the ball of radius 6 goes 8.9 past the floor, its
# centre 2.9 beyond the line; fix wall/gran pushed it out (lost atom), the
# export's addforce pushes it back as springball does. Leapfrog positions:
# the same to rounding.
printf 'table 100 100\nball 50 30 0 -20 1 6\n' >"$tmp/deep.scene"
run deep 200
line=$(compare deep 1 0 6 0.05)
echo "deep wall: $line"
miny=$(awk 'BEGIN { m = 1e9 } $4 < m { m = $4 } END { print m }' "$tmp/deep.lmp")
echo "deep wall: LAMMPS's lowest centre y = $miny"
check "deep wall: the centre goes past the floor line" le "$miny" -2
check "deep wall: every frame of both" test "$(field "$line" missing)" = 0
check "deep wall: positions agree to rounding" le "$(field "$line" dx)" 1e-12
check "deep wall: velocities agree to rounding" le "$(field "$line" dv)" 1e-12
check "deep wall: the ball comes back up at 20" near "$(awk '$1 == 80 { print $6 }' "$tmp/deep.lmp")" 20 0.05

# --- the round table: the rim's spring along the radius, deep too --------
# Two balls that never meet (pair contacts part the integrators, above).
printf 'table circle 50\nball 50 30 3 -20 1 6\nball 20 55 -15 2 2 4\n' >"$tmp/rdeep.scene"
run rdeep 150
line=$(compare rdeep 1 2 10 0.05)
echo "round table: $line"
check "round table: the balls never meet" test "$(field "$line" tc1)" = 0
check "round table: every frame of both" test "$(field "$line" missing)" = 0
check "round table: positions agree to rounding" le "$(field "$line" dx)" 1e-11
# --traj writes the observed (synchronised) velocities, Verlet's full step:
# the same to rounding in a wall contact too
check "round table: velocities agree to rounding" le "$(field "$line" dv)" 1e-11

# --- hard walls: wall/reflect at r from the edges -------------------------
printf 'table 100 100\nwalls hard\nball 50 30 7 -20 1 6\nball 20 80 -9 3 1 6\n' >"$tmp/hardw.scene"
run hardw 200
line=$(compare hardw 1 2 12 0.05)
echo "hard walls: $line"
check "hard walls: every frame of both" test "$(field "$line" missing)" = 0
check "hard walls: positions agree to rounding" le "$(field "$line" dx)" 1e-11
check "hard walls: velocities agree to rounding" le "$(field "$line" dv)" 1e-11

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
# The wall: fix addforce evaluates the dashpot with Verlet's half-step
# velocity, which is springball's: the same to rounding (wall/gran's gave
# 7.875 against 8.001 at dt 0.05).
check "e 0.8: the wall returns 8, LAMMPS" near "$l3" 8 0.2
check "e 0.8: the wall returns 8, springball" near "$p3" 8 0.2
check "e 0.8: the wall's velocities agree to rounding" near "$p3" "$l3" 1e-12

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
    # Euler's stored velocity after step n is Verlet's at n + 1/2; --traj
    # writes the observed one, v + dt/2 F/m, Verlet's at n itself (the
    # start has no contact: the same initial conditions). Its kinetic
    # energy must be LAMMPS's to far better than the half step's.
    kv=$(awk '/^Lattice=/ { fr++; next }
        NF == 13 && fr == 2 { ke += $9 * ($5 * $5 + $6 * $6) / 2 }
        END { printf "%.17g", ke }' "$tmp/big20.xyz")
    echo "10^5 balls: springball's kinetic energy of the observed velocities at step 20: $kv"
    check "10^5 balls: LAMMPS's energy from springball's observed state" \
        awk -v a="$k1" -v b="$kv" 'BEGIN { d = (a - b) / a; exit !(a > 0 && d < 1e-6 && d > -1e-6) }'
else
    echo "lammps: mpirun is not installed: the 2-rank run is skipped"
fi

# --- the README's example: gas.scene, 20000 steps, 1 and 2 ranks ---------
# Chaotic: the two integrators part within a few collisions, so the check
# is statistical: the mean kinetic energy over the run's samples (every 100
# steps) within the spread of springball's samples, and no ball lost.
(
    cd "$tmp" || exit 1
    cp "$here/scenes/gas.scene" gas.scene &&
        "$SB" --export=lammps gas -n 20000 gas.scene &&
        lmp -in gas.in -log gas1.log -screen none &&
        if command -v mpirun >/dev/null 2>&1; then
            OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
                mpirun --oversubscribe -np 2 lmp -in gas.in -log gas2.log -screen none
        fi &&
        "$SB" -H -n 20000 --every 100 --series=gas.csv gas.scene >/dev/null
)
check "gas: runs" test $? -eq 0
ke_mean() { awk '/^ *Step +Time +c_ke/ { on = 1; next } /^Loop time/ { on = 0 }
                 on && NF == 3 { s += $3; n++ } END { if (n) printf "%.6f %d", s / n, n }' "$1"; }
sb=$(awk -F, 'NR > 1 { s += $3; q += $3 * $3; n++ }
     END { m = s / n; printf "%.6f %.6f %d", m, sqrt(q / n - m * m), n }' "$tmp/gas.csv")
m1=$(ke_mean "$tmp/gas1.log")
echo "gas, 20000 steps: mean kinetic energy springball ${sb% *} (mean, spread, samples)," \
    "LAMMPS 1 rank ${m1% *}"
check "gas: 201 samples of each" test "${sb##* }" = 201 -a "${m1#* }" = 201
check "gas: no ball lost, 1 rank" grep -q "^Loop time of .* for 20000 steps with 300 atoms" "$tmp/gas1.log"
check "gas: LAMMPS's mean kinetic energy within springball's spread" \
    awk -v a="${m1% *}" -v s="$sb" 'BEGIN { split(s, b, " "); d = a - b[1]; exit !(d * d <= b[2] * b[2]) }'
if [ -s "$tmp/gas2.log" ]; then
    m2=$(ke_mean "$tmp/gas2.log")
    echo "gas, 20000 steps: LAMMPS 2 ranks ${m2% *}"
    check "gas: no ball lost, 2 ranks" grep -q "^Loop time of .* for 20000 steps with 300 atoms" "$tmp/gas2.log"
    check "gas: 2 ranks' mean kinetic energy within springball's spread" \
        awk -v a="${m2% *}" -v s="$sb" 'BEGIN { split(s, b, " "); d = a - b[1]; exit !(d * d <= b[2] * b[2]) }'
fi

# --- 10^5 balls at the default k and dt, deep into the walls --------------
# Speed 8 against k 5: every ball that meets a wall goes past its line
# (fix wall/gran lost 1832 of them by step 100). 1 and 2 ranks must agree.
if command -v mpirun >/dev/null 2>&1; then
    printf 'table 2000 2000\nrandom 100000 2 1 8 3\n' >"$tmp/dgas.scene"
    (
        cd "$tmp" || exit 1
        "$SB" --export=lammps dgas -n 200 dgas.scene &&
            lmp -in dgas.in -log dgas1.log -screen none &&
            OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
                mpirun --oversubscribe -np 2 lmp -in dgas.in -log dgas2.log -screen none
    )
    check "10^5 default gas: runs on 1 and 2 ranks" test $? -eq 0
    k1=$(ke_lmp dgas1) k2=$(ke_lmp dgas2)
    echo "10^5 default gas, 200 steps: kinetic energy 1 rank $k1, 2 ranks $k2"
    check "10^5 default gas: no ball lost, 1 rank" \
        grep -q "^Loop time of .* for 200 steps with 100000 atoms" "$tmp/dgas1.log"
    check "10^5 default gas: no ball lost, 2 ranks" \
        grep -q "^Loop time of .* for 200 steps with 100000 atoms" "$tmp/dgas2.log"
    check "10^5 default gas: 2 ranks give the serial energy" \
        awk -v a="$k1" -v b="$k2" 'BEGIN { d = (a - b) / a; exit !(a > 0 && d < 1e-12 && d > -1e-12) }'
fi

# --- what has no equivalent is refused -----------------------------------
printf 'table circle 100\nwalls hard\nball 100 100 1 0 1 5\n' >"$tmp/roundhard.scene"
printf 'table 800 400\nopen left\nball 100 100 1 0 1 5\n' >"$tmp/open.scene"
for s in "$tmp/roundhard.scene" "$tmp/open.scene" scenes/softexp.scene scenes/gravity.scene \
         scenes/planets.txt scenes/friction.scene scenes/field.scene; do
    rm -f "$tmp/refused.in" "$tmp/refused.data"
    "$SB" --export=lammps "$tmp/refused" -n 10 "$s" >/dev/null 2>"$tmp/err"
    rc=$?
    check "$s is refused" test $rc -eq 2 -a ! -e "$tmp/refused.in"
    check "$s: says why" grep -q "has no equivalent of" "$tmp/err"
done
"$SB" --export=lammps "$tmp/refused" -n 10 "$tmp/roundhard.scene" 2>"$tmp/err"
check "the round table's hard wall: named" grep -q "of the round table's hard wall" "$tmp/err"
"$SB" --export=lammps "$tmp/refused" -n 10 "$tmp/open.scene" 2>"$tmp/err"
check "open sides: named" grep -q "of open sides" "$tmp/err"

summary
