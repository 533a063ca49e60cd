#!/bin/sh
# replay.sh - recorded runs given as SCENE (traj.h): springball's own
# recordings frame for frame against the run, LAMMPS's dump of an exported
# scene, an ASE-written file, cut and malformed files, and the terminal.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
scratch
tmp=$tmpd
out=$tmp/out err=$tmp/err

# The break recorded every 10 steps: frame 50 is step 500, number for number.
"$SB" -H -n 1000 --every 10 --traj="$tmp/break.xyz" scenes/break.scene >/dev/null
"$SB" -H -n 50 --stats "$tmp/break.xyz" >"$tmp/f50" 2>"$tmp/f50.err"
check "frame 50: status 0" [ $? -eq 0 ]
"$SB" -H -n 500 --stats scenes/break.scene >"$tmp/s500" 2>"$tmp/s500.err"
nums() { awk '$1 == "ball" { print $2, $3, $4, $5, $6, $7; next } $1 != "title" && $1 != "cue"' "$1"; }
check "frame 50 is step 500's state" [ "$(nums "$tmp/f50")" = "$(nums "$tmp/s500")" ]
check "frame 50's stats are step 500's" \
    [ "$(cat "$tmp/f50.err")" = "$(cat "$tmp/s500.err") frame=50 frames=101" ]
check "-T picks the frame at or before T" \
    [ "$("$SB" -H -T 25.2 "$tmp/break.xyz" | nums /dev/stdin)" = "$(nums "$tmp/f50")" ]
# The state printed runs on: 500 more steps of it are step 1000.
"$SB" -H -n 500 "$tmp/f50" >"$tmp/on" 2>/dev/null
"$SB" -H -n 1000 scenes/break.scene >"$tmp/s1000"
check "the frame runs on to step 1000" [ "$(nums "$tmp/on")" = "$(nums "$tmp/s1000")" ]
check "springball= on the comment line" \
    sh -c 'sed -n 2p "$1" | grep -q " springball=\"k 5; dt 0.05\" "' sh "$tmp/break.xyz"
expect_fail 2 "springball: $tmp/break.xyz has 101 frames (0 to 100): no frame 101" \
    "$SB" -H -n 101 "$tmp/break.xyz"
# --format names it; a wrong one says why.
check "--format=xyz" sh -c '"$0" -H -n 1 --format=xyz "$1" >/dev/null' "$SB" "$tmp/break.xyz"
expect_fail 2 "$tmp/break.xyz:1: expected an ITEM: line, found '16'" \
    "$SB" -H --format=lammpstrj "$tmp/break.xyz"
expect_fail 2 "springball: a recorded run is replayed, not simulated: drop --traj, --series and --export" \
    "$SB" -H --traj="$tmp/x.xyz" "$tmp/break.xyz"
expect_fail 2 "springball: -k, --dt, --theta and --engine set a simulation: a recorded run is replayed with its own k and dt" \
    "$SB" -H --dt 0.1 "$tmp/break.xyz"
expect_fail 2 "springball: standard output is not a terminal (use -H for a headless run)" \
    "$SB" "$tmp/break.xyz"

# Cut inside frame 71: the whole frames replay, with a note.
head -n $((71 * 18 + 3)) "$tmp/break.xyz" >"$tmp/cut.xyz"
printf 'X 1 2' >>"$tmp/cut.xyz"
"$SB" -H -n 70 --stats "$tmp/cut.xyz" >"$out" 2>"$err"
rc=$?
check "cut: frame 70 replays (status $rc)" sh -c '[ "$0" -eq 0 ] && [ -s "$1" ]' "$rc" "$out"
check "cut: the note" [ "$(head -n 1 "$err")" = "springball: $tmp/cut.xyz: cut after frame 70" ]
check "cut: frames=71" grep -q ' frame=70 frames=71$' "$err"

# Cut anywhere in a frame, a row or a header line (issue 43: a killed run's
# file): the same note, never a line error. cut_at NAME FILE LINE CHARS:
# FILE's first LINE - 1 lines and CHARS bytes of line LINE.
cut_at() {
    { head -n $(($3 - 1)) "$2"; sed -n "${3}p" "$2" | head -c "$4"; } >"$tmp/$1"
}
cut_note() { # cut_note NAME N: frame N is the last whole one
    "$SB" -H -n "$2" "$tmp/$1" >"$out" 2>"$err"
    check "cut $1: status 0" [ $? -eq 0 ]
    check "cut $1: the note" [ "$(head -n 1 "$err")" = "springball: $tmp/$1: cut after frame $2" ]
}
cut_at mid-number.xyz "$tmp/break.xyz" $((71 * 18 + 3 + 5)) 20   # inside a row's number
cut_note mid-number.xyz 70
cut_at last-row.xyz "$tmp/break.xyz" $((71 * 18 + 18)) 30          # the frame's last row
cut_note last-row.xyz 70
cut_at comment.xyz "$tmp/break.xyz" $((71 * 18 + 2)) 40            # inside the comment line
cut_note comment.xyz 70
cut_at count.xyz "$tmp/break.xyz" $((71 * 18 + 1)) 1               # "1" of "16"
cut_note count.xyz 70
cut_at item.lammpstrj tests/replay/shuffled.lammpstrj 15 10         # "ITEM: NUMB"
cut_note item.lammpstrj 0
cut_at bounds.lammpstrj tests/replay/shuffled.lammpstrj 18 3        # "-10" of a bound
cut_note bounds.lammpstrj 0
cut_at row.lammpstrj tests/replay/shuffled.lammpstrj 24 6           # a row of frame 1
cut_note row.lammpstrj 0
# Another writer's last row without its line end, whole: read.
head -c -1 tests/replay/shuffled.lammpstrj >"$tmp/unended.lammpstrj"
"$SB" -H -n 1 "$tmp/unended.lammpstrj" >"$out" 2>"$err"
rc=$?
check "an unended whole last row: frame 1 read (status $rc)" sh -c '[ "$0" -eq 0 ] && ! grep -q cut "$1"' "$rc" "$err"

# Malformed: the first frame is status 2 at open; a later one when asked.
sed '4s/ 200 / two /' "$tmp/break.xyz" >"$tmp/bad1.xyz"
expect_fail 2 "$tmp/bad1.xyz:4: y: 'two' is not a number" "$SB" -H "$tmp/bad1.xyz"
sed '95s/ [^ ]*$//' "$tmp/break.xyz" >"$tmp/bad5.xyz"
check "a bad frame 5 leaves frame 4" sh -c '"$0" -H -n 4 "$1" >/dev/null 2>&1' "$SB" "$tmp/bad5.xyz"
expect_fail 2 "$tmp/bad5.xyz:95: expected 13 fields (Properties), found 12" \
    "$SB" -H -n 5 "$tmp/bad5.xyz"
awk 'NR == 37 { print "17"; next } { print } NR == 54 { print "X 1 1 0 0 0 0 12 1 0 0 0 1" }' \
    "$tmp/break.xyz" >"$tmp/count.xyz"
expect_fail 2 "$tmp/count.xyz:37: frame 2 has 17 balls, the first 16" "$SB" -H "$tmp/count.xyz"

# ASE's layout: momenta and masses, a species each.
"$SB" -H -n 0 --stats tests/replay/ase.xyz >"$out" 2>"$err"
check "ASE: velocities from momenta (observed: the stats' KE)" grep -q ' ke=1.126031746031746 .* py=0.504 ' "$err"
check "ASE: the radius rule said" grep -q 'radius 3.5 (half the 1st percentile' "$err"
check "ASE: species coloured" sh -c 'grep "^ball 10 " "$0" | grep -q " [a-z]*$"' "$out"

# LAMMPS's dump of the exported head-on run, with dt from headon.in.
if command -v lmp >/dev/null 2>&1; then
    (
        cd "$tmp" || exit 1
        "$SB" --export=lammps headon -n 400 --every 20 "$OLDPWD/scenes/headon.scene" &&
            lmp -in headon.in -log none -screen none
    )
    "$SB" -H -n 10 --stats "$tmp/headon.lammpstrj" >"$out" 2>"$err"
    check "LAMMPS: status 0" [ $? -eq 0 ]
    check "LAMMPS: dt from headon.in" \
        [ "$(head -n 1 "$err")" = "springball: $tmp/headon.lammpstrj: k 5, dt 0.05 from headon.in" ]
    check "LAMMPS: frame 10 is step 200, t 10" grep -q '^t=10 steps=200 .* frame=10 frames=21$' "$err"
    check "LAMMPS: the table of the export" grep -q '^table 800 400$' "$out"
    # the balls have passed through each other's contact: about where springball's are
    "$SB" -H -n 200 scenes/headon.scene >"$tmp/sb200"
    check "LAMMPS: positions within 0.1 of springball's" awk '
        NR == FNR && $1 == "ball" { x[++n] = $2; next }
        $1 == "ball" { d = $2 - x[++m]; if (d < 0) d = -d; if (d > 0.1) bad = 1 }
        END { exit bad || m != 2 }' "$tmp/sb200" "$out"
    "$SB" -H -n 3 "$tmp/headon.xyz" >"$out" 2>"$err"
    check "LAMMPS's plain XYZ: velocities from positions" grep -q 'velocities from positions' "$err"
else
    echo "replay: lmp is not installed: the LAMMPS dump is not checked"
fi
# Issue 42.11: a LAMMPS run of the export replays in the scene's colours
# (a dump replayed all grey): each colour an atom type, the types' colours
# in a comment of PREFIX.in, the dump's type column read back through it
# (elements stay X, which ASE and OVITO read)
printf 'table 100 50\nball 20 25 1 0 1 5 red\nball 50 25 0 0 1 5 blue\nball 80 25 0 0 1 5 #ff8000\nball 80 40 0 0 1 5 red\n' >"$tmp/col.scene"
(cd "$tmp" && "$SB" --export=lammps col -n 100 --every 10 col.scene) >/dev/null 2>&1
check "export: a type a colour" grep -q '^3 atom types$' "$tmp/col.data"
check "export: ball 4 is red's type 1" grep -q '^4 1 10 ' "$tmp/col.data"
check "export: the types' colours in a comment" grep -q '^# springball colours by type: red blue rgbff8000$' "$tmp/col.in"
check "export: the dump has a type column, elements X" sh -c "grep -q 'lammpstrj id element x y z vx vy vz radius mass type\$' '$tmp/col.in' && grep -q '^dump_modify traj element X X X sort' '$tmp/col.in'"
cat >"$tmp/col.lammpstrj" <<'EOD'
ITEM: TIMESTEP
0
ITEM: NUMBER OF ATOMS
3
ITEM: BOX BOUNDS mm mm pp
0 100
0 50
-0.5 0.5
ITEM: ATOMS id element x y z vx vy vz radius mass type
1 X 20 25 0 1 0 0 5 1 1
2 X 50 25 0 0 0 0 5 1 2
3 X 80 25 0 0 0 0 5 1 3
EOD
"$SB" -H -n 0 "$tmp/col.lammpstrj" >"$out" 2>"$err"
check "a dump's types take the colours of PREFIX.in" sh -c "grep -q ' red\$' '$out' && grep -q ' blue\$' '$out' && grep -q ' #ff8000\$' '$out'"
# --- The terminal front end: --snapshot, then a live terminal in tmux ---
snap() { "$SB" --no-color --snapshot="$@"; }
# Issue 42.11: the momentum diagram of a replay fills "before" (it said
# "no contact yet" through the contact); no aim mark, handle nor aim legend
# (a replay refuses aiming)
"$SB" -H -T 40 --every 5 --traj="$tmp/h.xyz" scenes/unequal.scene >/dev/null 2>&1
snap 80x24 --keys 'space P P P P .*120' "$tmp/h.xyz" >"$out"
check "replay: the momentum diagram's before, at t 21.5" grep -q 'before the contact (t 21.5)  Σp (10, 0)' "$out"
snap 80x24 --keys 'space v' "$tmp/h.xyz" >"$out"
check "replay: no aim mark, handle or aim legend" sh -c "! grep -q '⇒\|◆\|aim' '$out'"
# The values panel of frame 50 is step 500's, and at a time of contacts too.
for t in 25 40; do
    # (from the values panel's rule on: a replay has no aim mark nor handle)
    snap 100x40 --keys "<t $t> space i" "$tmp/break.xyz" | sed '1,/values/d;$d' >"$tmp/rv"
    snap 100x40 --keys "<t $t> space i" scenes/break.scene | sed '1,/values/d;$d' >"$tmp/lv"
    check "values panel at t $t: the recording's frame is the run's state" cmp -s "$tmp/rv" "$tmp/lv"
done
status_of() { snap 100x30 --keys "$1" "$2" | tail -n 1; }
check "status at frame 50" sh -c '[ "$(echo "$1" | cut -c1-33)" = " frame 50/101  t 25.00  step 500 " ]' \
    sh "$(status_of '<t 25> space' "$tmp/break.xyz")"
check ". , ] [ r" [ "$(status_of '. . . , ] ] [' "$tmp/break.xyz" | cut -c1-14)" = " frame 12/101 " ]
check "r: the first frame" [ "$(status_of '] r' "$tmp/break.xyz" | cut -c1-13)" = " frame 0/101 " ]
check "] stops at the last frame" \
    [ "$(status_of '<t 60> ] ]' "$tmp/break.xyz" | cut -c1-15)" = " frame 100/101 " ]
check "the last frame stops the play" \
    sh -c '"$0" --no-color --snapshot --keys "<t 60>" "$1" | head -n 1 | grep -q "replay · paused"' \
    "$SB" "$tmp/break.xyz"
check "title: replay, speed 10 frames a second" \
    sh -c '"$0" --no-color --snapshot "$1" | head -n 1 | grep -q "replay · running · speed 5 t/s"' \
    "$SB" "$tmp/break.xyz"
for k in k d m s : enter g e; do
    check "'$k' needs a simulation" \
        sh -c '"$0" --no-color --snapshot=100x30 --keys "space $1" "$2" | grep -q "replay: no simulation - w saves this frame as a scene"' \
        "$SB" "$k" "$tmp/break.xyz"
done
check "? lists the replay's keys" \
    sh -c '"$0" --no-color --snapshot=100x40 --keys "?" "$1" | grep -q "one frame forward / back"' "$SB" "$tmp/break.xyz"
# w saves the frame as a scene that runs on
(cd "$tmp" && "$SB"  --no-color --snapshot=160x30 --save-to="$tmp/w50.scene" --keys '<t 25> space w' break.xyz) >"$out"
check "w: the note" grep -q "saved $tmp/w50.scene (16 balls), frame 50: k, dt and walls as recorded" "$out"
check "w then -H: frame 50" [ "$("$SB" -H "$tmp/w50.scene" | nums /dev/stdin)" = "$(nums "$tmp/f50")" ]
check "w then -H -n 500: step 1000" \
    [ "$("$SB" -H -n 500 "$tmp/w50.scene" | nums /dev/stdin)" = "$(nums "$tmp/s1000")" ]
# a cut file's note; a bad frame stops the play with its line
check "cut: said in the terminal" \
    sh -c '"$0" --no-color --snapshot=100x30 "$1" | grep -q "the file is cut after the last frame"' "$SB" "$tmp/cut.xyz"
check "a bad frame: its line" \
    sh -c '"$0" --no-color --snapshot=100x30 --keys ". . . . . ." "$1" | grep -q "frame 5: line 95: expected 13 fields"' \
    "$SB" "$tmp/bad5.xyz"

tmux_open replay
pane r 80 24 "$SB $tmp/break.xyz; echo \$? > $tmp/r.rc; sleep 3600"
check "tmux: replay plays" wait_for r "replay · running"
T send-keys -t r ' '
check "tmux: space pauses" wait_for r "replay · paused"
T send-keys -t r r
check "tmux: r" wait_for r "^ frame 0/101  t 0.00  step 0 "
T send-keys -t r .
check "tmux: ." wait_for r "^ frame 1/101  t 0.50  step 10 "
T send-keys -t r ']'
check "tmux: ]" wait_for r "^ frame 11/101 "
T send-keys -t r ','
check "tmux: ," wait_for r "^ frame 10/101 "
T send-keys -t r k
check "tmux: k refused" wait_for r "replay: no simulation"
T send-keys -t r q
check "tmux: q quits, status 0" [ "$(wait_rc r)" = 0 ]
# --- Issue 43 ---
# Item 2: a frame printed is the restart state: the stored velocities
# rebuilt from the observed ones the file holds (they differ by dt/2 F/m
# in a contact or a field). Headon's frame 27 runs on to step 300 (KE
# 101.395 where the run had 100.323), field's frame 250 to step 5000.
bv() { awk '$1 == "ball" { print $2, $3, $4, $5 }' "$1"; }
"$SB" -H -n 300 --every 10 --traj="$tmp/h.xyz" scenes/headon.scene >/dev/null
"$SB" -H -n 27 "$tmp/h.xyz" >"$tmp/h27" 2>/dev/null
"$SB" -H -n 30 --stats "$tmp/h27" >"$tmp/hon" 2>"$tmp/hon.err"
"$SB" -H -n 300 --stats scenes/headon.scene >"$tmp/h300" 2>"$tmp/h300.err"
check "headon frame 27 runs on to step 300, to the bit" [ "$(bv "$tmp/hon")" = "$(bv "$tmp/h300")" ]
check "headon frame 27 + 30 steps: the run's step" \
    [ "$(sed 's/ .*//; s/t=1.5/t=15/' "$tmp/hon.err")" = "$(sed 's/ .*//' "$tmp/h300.err")" ]
check "headon frame 27 + 30 steps: the run's KE" \
    [ "$(grep -o 'ke=[^ ]*' "$tmp/hon.err")" = "$(grep -o 'ke=[^ ]*' "$tmp/h300.err")" ]
"$SB" -H -n 5000 --every 10 --traj="$tmp/f.xyz" scenes/field.scene >/dev/null
"$SB" -H -n 250 "$tmp/f.xyz" 2>/dev/null | "$SB" -H -n 2500 - >"$tmp/fon"
"$SB" -H -n 5000 scenes/field.scene >"$tmp/f5000"
check "field frame 250 runs on to step 5000, to the bit" [ "$(bv "$tmp/fon")" = "$(bv "$tmp/f5000")" ]
# Item 12: a replay's --stats is a scene's line (the observed state, the
# shortest digits), then the frame's place.
"$SB" -H -n 27 --stats "$tmp/h.xyz" 2>"$tmp/h27.err" >/dev/null
"$SB" -H -n 270 --stats scenes/headon.scene 2>"$tmp/h270.err" >/dev/null
check "headon frame 27's stats are step 270's" \
    [ "$(cat "$tmp/h27.err")" = "$(cat "$tmp/h270.err") frame=27 frames=31" ]
"$SB" -H -n 250 --stats "$tmp/f.xyz" 2>"$tmp/f250.err" >/dev/null
"$SB" -H -n 2500 --stats scenes/field.scene 2>"$tmp/f2500.err" >/dev/null
check "field frame 250's stats are step 2500's (pg, dissipated, pf too)" \
    [ "$(cat "$tmp/f250.err")" = "$(cat "$tmp/f2500.err") frame=250 frames=501" ]
rm -f "$tmp/f.xyz"
# Items 6 and 10: PREFIX.in read with bounds; a round table's export read
# back round (it came back 'table 200 200', or shifted by its title's
# 'table').
(cd "$tmp" && "$SB" --export=lammps round -n 10 "$OLDPWD/scenes/round.scene")
printf 'ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n1\nITEM: BOX BOUNDS mm mm pp\n0 400\n0 400\n-1 1\nITEM: ATOMS id type x y vx vy radius mass\n1 1 200 200 1 0 5 1\n' \
    >"$tmp/round.lammpstrj"
"$SB" -H "$tmp/round.lammpstrj" >"$out" 2>"$err"
check "the export of a round table: read back round" grep -qx 'table circle 200' "$out"
check "the export of a round table: k from round.in" grep -qx 'k 20' "$out"
cp "$tmp/round.lammpstrj" "$tmp/p.lammpstrj"
rm -f "$tmp/p.in" && mkfifo "$tmp/p.in"
timeout 10 "$SB" -H "$tmp/p.lammpstrj" >"$out" 2>"$err"
check "a FIFO as PREFIX.in: not waited on" [ $? -eq 0 ]
check "a FIFO as PREFIX.in: skipped with a note" grep -q "^springball: $tmp/p.lammpstrj: p.in skipped: not a regular file" "$err"
rm -f "$tmp/p.in" && ln -s /dev/zero "$tmp/p.in"
timeout 10 "$SB" -H "$tmp/p.lammpstrj" >"$out" 2>"$err"
rc=$?
check "/dev/zero as PREFIX.in: skipped (status $rc)" sh -c '[ "$0" -eq 0 ] && grep -q "p.in skipped: not a regular file" "$1"' "$rc" "$err"
rm -f "$tmp/p.in" && printf 'timestep 0.1\n\000\n' >"$tmp/p.in"
"$SB" -H "$tmp/p.lammpstrj" >"$out" 2>"$err"
check "a NUL byte in PREFIX.in: skipped" grep -q "p.in skipped: a NUL byte" "$err"
rm -f "$tmp/p.in"
# Item 7: springball= holds the run's parameters, nothing else.
sed '2s/springball="k 5; dt 0.05"/springball="k 5; dt 0.05; ball 1 1 0 0 1 1"/' "$tmp/break.xyz" >"$tmp/p7.xyz"
expect_fail 2 "$tmp/p7.xyz:2: springball=: 'ball' is not a run parameter (table, k, dt, restitution, walls, contact, gravity, friction, field, open)" \
    "$SB" -H "$tmp/p7.xyz"
sed '2s/springball="k 5; dt 0.05"/springball="k 5; random 9000000 1 1 1 1"/' "$tmp/break.xyz" >"$tmp/p7.xyz"
expect_fail 2 "$tmp/p7.xyz:2: springball=: 'random' is not a run parameter (table, k, dt, restitution, walls, contact, gravity, friction, field, open)" \
    "$SB" -H "$tmp/p7.xyz"
sed '2s/springball="k 5; dt 0.05"/springball="k 5; dt 0.05; restitution 0.5; field 0 -1"/' "$tmp/break.xyz" >"$tmp/p7.xyz"
"$SB" -H "$tmp/p7.xyz" >"$out" 2>&1
check "springball=: the run's parameters read" grep -qx 'field 0 -1' "$out"
# Item 8: a box beyond doubles is refused naming its line.
sed '7s/.*/-1e308 1e308/' tests/replay/shuffled.lammpstrj >"$tmp/big.lammpstrj"
expect_fail 2 "$tmp/big.lammpstrj:7: BOX BOUNDS: the box is beyond the range of double" \
    "$SB" -H "$tmp/big.lammpstrj"
# Item 9: a column named twice.
sed '9s/.*/ITEM: ATOMS id type xs ys vx vy radius xs/' tests/replay/shuffled.lammpstrj >"$tmp/twice.lammpstrj"
expect_fail 2 "$tmp/twice.lammpstrj:9: ATOMS: column 'xs' twice" "$SB" -H "$tmp/twice.lammpstrj"
sed 's/Properties=species:S:1:pos:R:3/Properties=species:S:1:pos:R:3:pos:R:3/' "$tmp/break.xyz" >"$tmp/twice.xyz"
expect_fail 2 "$tmp/twice.xyz:2: Properties: 'pos' twice" "$SB" -H "$tmp/twice.xyz"

summary
