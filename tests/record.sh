#!/bin/sh
# record.sh - trajectories, series and the LAMMPS export through the command
# line: frame and row counts, times, the three input formats, both engines,
# standard output, write errors and bad options; ASE reads every frame when
# python3-ase is installed (skipped with a message otherwise).
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
out=$(mktemp)
err=$(mktemp)
tmp=$(mktemp -d)
trap 'rm -rf "$out" "$err" "$tmp"' EXIT

frames() { grep -c '^Lattice=' "$1"; }

# The issue's example: 101 frames of 16 balls.
"$SPRINGBALL" -H -n 1000 --every 10 --traj="$tmp/break.xyz" --series="$tmp/break.csv" \
    scenes/break.scene >"$out" 2>"$err"
check "break: runs" test $? -eq 0 -a ! -s "$err"
check "break: 101 frames" test "$(frames "$tmp/break.xyz")" -eq 101
check "break: 16 rows a frame" awk 'NR % 18 == 1 && $0 != "16" { exit 1 }
    NR % 18 > 2 || NR % 18 == 0 { if (NF != 13 || $1 != "X") exit 1 }
    END { exit NR != 101 * 18 }' "$tmp/break.xyz"
check "break: steps 0, 10, ..., 1000" awk '/^Lattice=/ { match($0, /Step=[0-9]+/)
    if (substr($0, RSTART + 5, RLENGTH - 5) != 10 * k++) exit 1 } END { exit k != 101 }' \
    "$tmp/break.xyz"
check "break: the final state is printed as before" grep -q '^title The break' "$out"
check "series: header" test "$(head -n 1 "$tmp/break.csv")" = \
    "t,step,ke,pe,pg,e,px,py,contacts,dissipated"
check "series: 101 rows of 10 fields" awk -F, 'NF != 10 { exit 1 } END { exit NR != 102 }' \
    "$tmp/break.csv"
check "series: energy 50 at the start" awk -F, 'NR == 2 { exit !($3 == 50 && $6 == 50) }' \
    "$tmp/break.csv"
# The last frame is the final state, to the bit (awk reads numbers by strtod).
check "last frame = final state" awk '
    FNR == NR { if ($1 == "ball") { bx[++nb] = $2; by[nb] = $3; bvx[nb] = $4; bvy[nb] = $5 } next }
    /^Lattice=/ { f++; r = 0; next }
    f == 101 && NF == 13 { r++; if ($2 != bx[r] || $3 != by[r] || $5 != bvx[r] || $6 != bvy[r]) bad++ }
    END { exit bad || r != 16 }' "$out" "$tmp/break.xyz"

# A field and open sides add pf and out, as --stats does; e = ke + pe + pg + pf.
"$SPRINGBALL" -H -n 200 --every 50 --series="$tmp/f.csv" scenes/field.scene >/dev/null
check "series: pf and out with a field and an open side" test "$(head -n 1 "$tmp/f.csv")" = \
    "t,step,ke,pe,pg,e,px,py,contacts,dissipated,pf,out"
check "series: e = ke + pe + pg + pf" awk -F, 'NR > 1 { d = $6 - ($3 + $4 + $5 + $11); if (d < 0) d = -d
    if (NF != 12 || d > 1e-9 * ($6 < 0 ? -$6 : $6) + 1e-9) bad++ } END { exit bad || NR != 6 }' "$tmp/f.csv"

# --every-t: frames at t = 0, 1, ..., 10 (within half a step).
"$SPRINGBALL" -H -T 10 --every-t 1 --traj="$tmp/t.xyz" scenes/break.scene >/dev/null
check "--every-t: 11 frames" test "$(frames "$tmp/t.xyz")" -eq 11
check "--every-t: times" awk '/^Lattice=/ { match($0, /Time=[^ ]+/); t = substr($0, RSTART + 5, RLENGTH - 5)
    d = t - k++; if (d < -0.025 || d > 0.025) exit 1 } END { exit k != 11 }' "$tmp/t.xyz"

# The event engine: frames every 10 events, and at exact times.
"$SPRINGBALL" -H --engine=event -n 50 --every 10 --traj="$tmp/e.xyz" --series="$tmp/e.csv" \
    scenes/hard.scene >/dev/null 2>"$err"
check "event: runs" test $? -eq 0 -a ! -s "$err"
check "event: 6 frames" test "$(frames "$tmp/e.xyz")" -eq 6
check "event: steps count events" awk '/^Lattice=/ { match($0, /Step=[0-9]+/)
    if (substr($0, RSTART + 5, RLENGTH - 5) != 10 * k++) exit 1 }' "$tmp/e.xyz"
check "event: series has its counters" test "$(head -n 1 "$tmp/e.csv")" = \
    "t,step,ke,pe,pg,e,px,py,contacts,dissipated,collisions,walls,crossings,mft"
check "event: 6 rows" test "$(wc -l <"$tmp/e.csv")" -eq 7
"$SPRINGBALL" -H --engine=event -T 3 --every-t 0.5 --traj="$tmp/et.xyz" scenes/hard.scene >/dev/null
check "event --every-t: exact times" test "$(grep -o 'Time=[^ ]*' "$tmp/et.xyz" | tr '\n' ' ')" = \
    "Time=0 Time=0.5 Time=1 Time=1.5 Time=2 Time=2.5 Time=3 "

# Universes and particle files.
"$SPRINGBALL" -H -n 20 --every 10 --traj="$tmp/u.xyz" scenes/planets.txt >/dev/null
check "universe: 3 frames of 5 bodies" test "$(frames "$tmp/u.xyz")" -eq 3 -a "$(head -n 1 "$tmp/u.xyz")" = 5
check "universe: the box is -R..R" grep -q 'Origin="-250000000000 -250000000000 -0.5" ' "$tmp/u.xyz"
p=$(ls tests/particles/*.txt | head -n 1)
"$SPRINGBALL" -H -n 4 --every 2 --traj="$tmp/p.xyz" "$p" >/dev/null
check "particles: 3 frames" test "$(frames "$tmp/p.xyz")" -eq 3

# Standard output: the recording takes the place of the final state.
"$SPRINGBALL" -H -n 10 --every 5 --traj=- scenes/headon.scene >"$out"
check "--traj=-: frames on stdout, no scene" test "$(frames "$out")" -eq 3 -a "$(grep -c '^ball' "$out")" -eq 0
"$SPRINGBALL" -H -n 10 --every 5 --series=- scenes/headon.scene >"$out"
check "--series=-: rows on stdout" test "$(wc -l <"$out")" -eq 4

# Write errors and unwritable files: status 1 and the reason.
if [ -w /dev/full ]; then
    expect_fail 1 "springball: /dev/full: write error: No space left on device" \
        "$SPRINGBALL" -H -n 10 --traj=/dev/full scenes/break.scene
    "$SPRINGBALL" -H -n 10 --traj=- scenes/break.scene >/dev/full 2>"$err"
    check "stdout full: status 1" test $? -eq 1
    check "stdout full: says so" grep -q "standard output: write error" "$err"
fi
expect_fail 1 "springball: $tmp/no/x.xyz: cannot write: No such file or directory" \
    "$SPRINGBALL" -H -n 10 --traj="$tmp/no/x.xyz" scenes/break.scene

# A run the event engine refuses leaves the files as they were.
echo keep >"$tmp/g.xyz"
expect_fail 2 "springball: event engine: cannot simulate gravity (use --engine=spring)" \
    "$SPRINGBALL" -H --engine=event -n 5 --traj="$tmp/g.xyz" --series="$tmp/g.csv" scenes/gravity.scene
check "refused run: files untouched" test "$(cat "$tmp/g.xyz")" = keep -a ! -e "$tmp/g.csv"

# Bad options: status 2 and the first line says what is wrong.
u="Try 'springball --help' for more information."
expect_fail 2 "springball: --every: '0' must be >= 1" "$SPRINGBALL" -H --traj=x --every 0
expect_fail 2 "springball: --every: 'x' is not a whole number" "$SPRINGBALL" -H --traj=x --every x
expect_fail 2 "springball: --every-t: '0' must be > 0" "$SPRINGBALL" -H --traj=x --every-t 0
expect_fail 2 "springball: give --every or --every-t, not both" \
    "$SPRINGBALL" -H --traj=x --every 2 --every-t 1
expect_fail 2 "springball: --every and --every-t need --traj, --series or --export" \
    "$SPRINGBALL" -H --every 2
expect_fail 2 "springball: --traj and --series record a headless run: add -H (in the terminal, R records)" \
    "$SPRINGBALL" --traj=x
expect_fail 2 "springball: --traj and --series cannot both write to standard output" \
    "$SPRINGBALL" -H --traj=- --series=-
expect_fail 2 "springball: --traj and --series cannot write to the same file 'a.out'" \
    "$SPRINGBALL" -H --traj=a.out --series=a.out
expect_fail 2 "springball: --traj: the file name is empty" "$SPRINGBALL" -H --traj=
expect_fail 2 "springball: --export: unknown format 'gromacs' (use lammps)" \
    "$SPRINGBALL" --export=gromacs x
expect_fail 2 "springball: --export=lammps needs a PREFIX for PREFIX.in and PREFIX.data" \
    "$SPRINGBALL" --export=lammps
expect_fail 2 "springball: --export=lammps needs the run length: -n STEPS or -T TIME" \
    "$SPRINGBALL" --export=lammps "$tmp/x"
pw="has a blank, quote, \$, #, &, brace, * or %, which LAMMPS would not read back (* and % make per-step and per-rank files)"
expect_fail 2 "springball: --export=lammps: PREFIX 'a b' $pw" "$SPRINGBALL" --export=lammps "a b" -n 1
# issue 27.12: * and % would make LAMMPS write per-step and per-rank files
expect_fail 2 "springball: --export=lammps: PREFIX 'a*b' $pw" "$SPRINGBALL" --export=lammps "a*b" -n 1
expect_fail 2 "springball: --export=lammps: PREFIX 'a%b' $pw" "$SPRINGBALL" --export=lammps "a%b" -n 1
# issue 27.12 and 27.6: runs and dump intervals LAMMPS cannot read (ints), and
# --every-t=1e300 (a float to integer conversion out of range), refused
# before anything is written
expect_fail 2 "springball: --export=lammps: a run of 3000000000 steps is more than LAMMPS takes in one run (2147483647)" \
    "$SPRINGBALL" --export=lammps "$tmp/x" -n 3000000000 scenes/headon.scene
expect_fail 2 "springball: --export=lammps: -T 1e+308 at dt 0.05 is more than the 2147483647 steps LAMMPS takes in one run" \
    "$SPRINGBALL" --export=lammps "$tmp/x" -T 1e308 scenes/headon.scene
expect_fail 2 "springball: --export=lammps: a dump every 18446744073709551615 steps is more than LAMMPS takes (2147483647)" \
    "$SPRINGBALL" --export=lammps "$tmp/x" -n 10 --every 18446744073709551615 scenes/headon.scene
expect_fail 2 "springball: --export=lammps: --every-t 1e+300 at dt 0.05 is more than the 2147483647 steps LAMMPS takes between dumps" \
    "$SPRINGBALL" --export=lammps "$tmp/x" -n 10 --every-t=1e300 scenes/headon.scene
check "a refused run writes nothing" test ! -e "$tmp/x.in" -a ! -e "$tmp/x.data"
"$SPRINGBALL" --export=lammps "$tmp/m" -n 2147483647 --every 2147483647 scenes/headon.scene
check "export: LAMMPS's largest run and interval" grep -q "^run 2147483647$" "$tmp/m.in"
"$SPRINGBALL" --export=lammps "$tmp/m" -n 10 --every-t=1e-320 scenes/headon.scene
check "export: a tiny --every-t dumps every step" grep -q "^dump xyz all xyz 1 " "$tmp/m.in"
expect_fail 2 "springball: --export=lammps: the event engine has no LAMMPS equivalent (gran/hooke is the spring engine)" \
    "$SPRINGBALL" --export=lammps "$tmp/x" -n 1 --engine=event
printf 'table circle 100\nwalls hard\nball 100 100 1 0 1 5\n' >"$tmp/roundhard.scene"
expect_fail 2 "springball: --export=lammps: LAMMPS's gran/hooke mapping has no equivalent of the round table's hard wall" \
    "$SPRINGBALL" --export=lammps "$tmp/x" -n 1 "$tmp/roundhard.scene"
check "a refused export writes nothing" test ! -e "$tmp/x.in" -a ! -e "$tmp/x.data"

# The export: both files, the PREFIX before or after the scene, -T in steps.
"$SPRINGBALL" --export=lammps "$tmp/b" -T 10 scenes/break.scene >"$out" 2>"$err"
check "export: status 0, quiet" test $? -eq 0 -a ! -s "$out" -a ! -s "$err"
check "export: the script" grep -q "^run 200$" "$tmp/b.in"
# -T counts the steps as -H -T takes them (the core's rule)
"$SPRINGBALL" --export=lammps "$tmp/t" -T 50 scenes/headon.scene
check "export: -T 50 at dt 0.05 is run 1000" grep -q "^run 1000$" "$tmp/t.in"
"$SPRINGBALL" --export=lammps "$tmp/t" -T 50.01 scenes/headon.scene
check "export: -T 50.01 is run 1001" grep -q "^run 1001$" "$tmp/t.in"
check "export: 16 atoms" grep -q "^16 atoms$" "$tmp/b.data"
"$SPRINGBALL" scenes/headon.scene --export=lammps "$tmp/h" -n 7 >/dev/null 2>&1
check "export: PREFIX after the scene" grep -q "^run 7$" "$tmp/h.in"
expect_fail 1 "springball: $tmp/no/b.data: cannot write: No such file or directory" \
    "$SPRINGBALL" --export=lammps "$tmp/no/b" -n 1

# The terminal's R key, played by --snapshot in a directory of its own.
here=$(pwd)
mkdir "$tmp/rk"
snapr() { (cd "$tmp/rk" && LC_ALL=C.UTF-8 "$SB" --snapshot --no-color "$@" "$here/scenes/break.scene"); }
snapr --keys='R <t 5> <t 5> R' >"$out" 2>"$err"
check "R: runs" test $? -eq 0 -a ! -s "$err"
check "R: the note says what was written" \
    grep -q "recorded 3 frames to springball-1.xyz and springball-1.csv" "$out"
check "R: a frame at each state shown" test "$(grep -o 'Time=[^ ]*' "$tmp/rk/springball-1.xyz" | tr '\n' ' ')" = \
    "Time=0 Time=5 Time=10 "
check "R: steps" test "$(grep -o 'Step=[0-9]*' "$tmp/rk/springball-1.xyz" | tr '\n' ' ')" = \
    "Step=0 Step=100 Step=200 "
check "R: the series" test "$(cut -d, -f1,2 "$tmp/rk/springball-1.csv" | tr '\n' ' ')" = \
    "t,step 0,0 5,100 10,200 "
snapr --keys='R <t 1>' >"$out" 2>"$err"
check "R: the next free name, nothing overwritten" \
    test -s "$tmp/rk/springball-2.xyz" -a "$(grep -c Lattice "$tmp/rk/springball-1.xyz")" -eq 3
check "R: REC on the status line" sh -c 'tail -n 1 "$1" | grep -Eq "REC springball-2.xyz 2( |$)"' sh "$out"
check "R: the note names both files" grep -q "recording to springball-3.xyz and springball-3.csv (R stops)" \
    "$(snapr --keys='R' >"$out"; echo "$out")"
# Paused: one frame per '.', ',' or kick, none while nothing changes.
rm -f "$tmp"/rk/*
snapr --keys='space R . . , <t 3> enter R' >"$out"
check "R paused: a frame per change" test "$(grep -o 'Step=[0-9]*' "$tmp/rk/springball-1.xyz" | tr '\n' ' ')" = \
    "Step=0 Step=1 Step=2 Step=1 Step=1 "
# Event mode: Step counts events.
rm -f "$tmp"/rk/*
snapr --keys='m R . . . R' >"$out"
check "R event mode: steps are events" test "$(grep -o 'Step=[0-9]*' "$tmp/rk/springball-1.xyz" | tr '\n' ' ')" = \
    "Step=0 Step=1 Step=2 Step=3 "
# Where no file can be made, a note says why and nothing records.
# (/proc takes no new files, even from root.)
if [ -d /proc ]; then
    (cd /proc && LC_ALL=C.UTF-8 "$SB" --snapshot --no-color --keys='R <t 1>' "$here/scenes/break.scene") >"$out" 2>&1
    check "R: cannot record, says so" grep -q "cannot record: springball-1.xyz: " "$out"
    check "R: no REC then" sh -c '! tail -n 1 "$1" | grep -q REC' sh "$out"
fi

# --- Files end at their last whole frame and row (issue 43) ---
# whole_xyz FILE: whole frames of 13 columns, at least one, and a last line
# ended; whole_csv FILE: rows as many fields as the header's, the last ended.
whole_xyz() {
    [ -s "$1" ] && [ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" = '\n' ] &&
        awk 'left == 0 && !head { n = $1; if (n !~ /^[0-9]+$/ || n < 1) exit 1; head = 1; next }
             head { head = 0; left = n; next }
             { if (NF != 13) exit 1; left-- }
             END { exit left != 0 || head }' "$1"
}
whole_csv() {
    [ -s "$1" ] && [ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" = '\n' ] &&
        awk -F, 'NR == 1 { n = NF } NF != n { exit 1 }' "$1"
}
# sig_stop SIGNAL STATUS ENGINE: a long recording of headon stopped by
# SIGNAL once its files hold a megabyte (the writer's first block).
sig_stop() {
    rm -f "$tmp/s.xyz" "$tmp/s.csv"
    "$SB" -H -n 1000000000 --every 1000 --engine="$3" --traj="$tmp/s.xyz" \
        --series="$tmp/s.csv" scenes/headon.scene >"$out" 2>"$err" &
    pid=$!
    poll 300 sh -c '[ "$(wc -c <"$1" 2>/dev/null || echo 0)" -gt 1048576 ]' sh "$tmp/s.xyz"
    kill -"$1" $pid
    wait $pid
    rc=$?
    check "$1 ($3): dies of it, status $2" [ "$rc" -eq "$2" ]
    check "$1 ($3): says so" grep -q "^springball: SIG$1: stopped at t = .*; the recording ends at its last whole frame$" "$err"
    check "$1 ($3): --traj ends at a whole frame" whole_xyz "$tmp/s.xyz"
    check "$1 ($3): --series ends at a whole row" whole_csv "$tmp/s.csv"
    check "$1 ($3): as many frames as rows" \
        [ "$(frames "$tmp/s.xyz")" -eq $(($(wc -l <"$tmp/s.csv") - 1)) ]
    "$SB" -H -n 0 "$tmp/s.xyz" >/dev/null 2>"$err"
    check "$1 ($3): replays, not cut" not grep -q 'cut after' "$err"
}
sig_stop HUP 129 spring
sig_stop TERM 143 event
# A recording to a reader that reads no more (a stalled pipe): SIGTERM
# while the write waits still stops it (with SA_RESTART the write went on
# waiting and the run never ended).
if [ -r /proc/self/stat ]; then
    rm -f "$tmp/stall"
    mkfifo "$tmp/stall"
    sleep 600 <"$tmp/stall" &
    rd=$!
    "$SB" -H -n 100000000 --traj=- scenes/break.scene >"$tmp/stall" 2>"$err" &
    pid=$!
    # the size's note said (the signals are caught), then asleep: the pipe
    # is full and the write waits
    soon test -s "$err"
    soon sh -c 'read -r _ _ st _ <"/proc/$1/stat" && [ "$st" = S ]' sh $pid
    kill -TERM $pid
    check "stalled pipe: SIGTERM ends the run" soon sh -c '! kill -0 $1 2>/dev/null' sh $pid
    kill -KILL $pid 2>/dev/null
    wait $pid
    rc=$?
    check "stalled pipe: dies of SIGTERM, status 143" [ "$rc" -eq 143 ]
    check "stalled pipe: says so, not a write error" \
        grep -q "^springball: SIGTERM: stopped at t = " "$err"
    kill $rd 2>/dev/null
    wait $rd 2>/dev/null
    rm -f "$tmp/stall"
fi
# A file size limit: EFBIG reported, the file cut back to its last whole
# frame (SIGXFSZ killed it, status 153, mid-row).
rm -f "$tmp/lim.xyz"
(ulimit -f 1000; exec "$SB" -H -n 1000 --every 1 --traj="$tmp/lim.xyz" scenes/gas.scene) \
    >"$out" 2>"$err"
check "ulimit -f: status 1" [ $? -eq 1 ]
check "ulimit -f: says so" [ "$(cat "$err")" = "springball: $tmp/lim.xyz: write error: File too large" ]
check "ulimit -f: ends at a whole frame" whole_xyz "$tmp/lim.xyz"
check "ulimit -f: no final state" [ ! -s "$out" ]
(ulimit -f 1000; exec "$SB" -H -n 100000 --series="$tmp/lim.csv" scenes/gas.scene) >"$out" 2>"$err"
check "ulimit -f, --series: status 1" [ $? -eq 1 ]
check "ulimit -f, --series: ends at a whole row" whole_csv "$tmp/lim.csv"
rm -f "$tmp/s.xyz" "$tmp/s.csv" "$tmp/lim.csv"

# ASE reads every frame, with the right positions.
py=""
for p in python3 /usr/bin/python3; do
    if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import ase.io' 2>/dev/null; then
        py=$p
        break
    fi
done
if [ -z "$py" ]; then
    echo "record: python3-ase is not installed: the ASE check is skipped"
else
    "$py" - "$tmp/break.xyz" "$tmp/u.xyz" <<'EOF' >"$out" 2>&1
import sys
import ase.io
fr = ase.io.read(sys.argv[1], index=':')
assert len(fr) == 101, len(fr)
for k, a in enumerate(fr):
    assert len(a) == 16 and a.info['Step'] == 10 * k
    assert abs(a.info['Time'] - 0.5 * k) < 1e-9
    assert list(a.cell.lengths()) == [800, 400, 24]
# the cue ball's track: (160 + 10 t, 200) until it reaches the rack near x = 536
for a in fr[:70]:
    x, y, z = a.positions[0]
    assert x == 160 + 10 * a.info['Time'] or abs(x - 160 - 10 * a.info['Time']) < 1e-9, x
    assert y == 200 and z == 0
assert (fr[0].arrays['velo'][0] == [10, 0, 0]).all()
assert (fr[0].arrays['radius'] == 12).all() and (fr[0].arrays['mass'] == 1).all()
u = ase.io.read(sys.argv[2], index=':')
assert len(u) == 3 and len(u[0]) == 5
print("ase ok")
EOF
    check "ASE reads every frame" grep -q "^ase ok$" "$out"
    grep -q "^ase ok$" "$out" || cat "$out"
    # Velocities and masses where ASE looks (momenta, masses): masses 1 and
    # 3, the kinetic energy springball's --series gives, frame by frame
    # (through the contact of the two balls).
    "$SB" -H -n 200 --every 20 --traj="$tmp/uneq.xyz" --series="$tmp/uneq.csv" \
        scenes/unequal.scene >/dev/null
    "$py" - "$tmp/uneq.xyz" "$tmp/uneq.csv" <<'EOF' >"$out" 2>&1
import sys
import ase.io
fr = ase.io.read(sys.argv[1], index=':')
ke = [float(l.split(',')[2]) for l in open(sys.argv[2]).read().split()[1:]]
assert len(fr) == len(ke) == 11, (len(fr), len(ke))
for a, k in zip(fr, ke):
    assert list(a.get_masses()) == [1, 3], a.get_masses()
    v = a.get_velocities()
    assert abs(v - a.arrays['velo']).max() <= 1e-12 * abs(a.arrays['velo']).max(), v
    assert abs(a.get_kinetic_energy() - k) <= 1e-12 * k, (a.get_kinetic_energy(), k)
assert abs(fr[0].get_velocities()[0][0] - 10) < 1e-15
print("ase velocities ok")
EOF
    check "ASE: velocities, masses and kinetic energy from --traj" grep -q "^ase velocities ok$" "$out"
    grep -q "^ase velocities ok$" "$out" || cat "$out"
    # The export's dump: ASE's lammps-dump-text reader with units='ASE'
    # (LAMMPS's lj units as they are) finds positions and velocities.
    if command -v lmp >/dev/null 2>&1; then
        (cd "$tmp" && "$SB" --export=lammps uq -n 200 --every 20 "$here/scenes/unequal.scene" &&
            lmp -in uq.in -log none -screen none)
        "$py" - "$tmp/uq.lammpstrj" "$tmp/uneq.xyz" <<'EOF' >"$out" 2>&1
import sys
import ase.io
d = ase.io.read(sys.argv[1], format='lammps-dump-text', index=':', units='ASE')
x = ase.io.read(sys.argv[2], index=':')
assert len(d) == len(x) == 11, (len(d), len(x))
for a, b in zip(d, x):
    assert abs(a.positions - b.positions).max() < 1e-3, (a.positions, b.positions)
# before and after the contact the velocities are the same in both
for k in (0, 1, 10):
    assert abs(d[k].get_velocities() - x[k].get_velocities()).max() < 1e-5, k
print("ase dump ok")
EOF
        check "ASE reads the export's LAMMPS dump with velocities" grep -q "^ase dump ok$" "$out"
        grep -q "^ase dump ok$" "$out" || cat "$out"
    else
        echo "record: lmp is not installed: ASE's reading of the LAMMPS dump is skipped"
    fi
fi

summary
