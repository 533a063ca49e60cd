#!/bin/sh
# depth.sh - 3-D runs drawn top-down (issue 40, item 5): nearer balls
# (larger z) drawn over the others wherever frames are drawn (--snapshot
# of a replay, --follow and --connect in the terminal), --slice=Z0:Z1
# keeping a layer (the rest neither drawn nor counted), the values panel's
# z and vz, bad slices refused; a 3-D LAMMPS run of its own (when lmp is
# installed). Every wait is for a condition, with a cap (lib.sh).
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
IMDFAKE=${IMDFAKE:-build/imdfake}
scratch
out=$tmpd/out
err=$tmpd/err
LAT='Lattice="10 0 0 0 10 0 0 0 10"'

# --- z order ---------------------------------------------------------------
# two balls at one place, red A and blue B, either nearer; the file's order
# swapped too: the nearer covers the other, whatever the order
two() {
    printf '2\n%s Properties=species:S:1:pos:R:3:radius:R:1:color:R:3\n%s\n%s\n' \
        "$LAT" "$2" "$3" >"$tmpd/$1.xyz"
    "$SB" --snapshot=30x12 "$tmpd/$1.xyz" | sed -n 2,11p >"$tmpd/$1.t"
}
two near 'A 5 5 1 3 1 0 0' 'B 5 5 2 3 0 0 1'
two swap 'B 5 5 2 3 0 0 1' 'A 5 5 1 3 1 0 0'
two far 'A 5 5 2 3 1 0 0' 'B 5 5 1 3 0 0 1'
check "z order: the nearer ball covers, whatever the file's order" cmp -s "$tmpd/near.t" "$tmpd/swap.t"
check "z order: the other one nearer, the other colour" not cmp -s "$tmpd/near.t" "$tmpd/far.t"
# two balls of one colour, overlapping seen from above: the nearer keeps a
# dot of gap to the one behind (item 5 of the look: a 3-D dump of one
# species was one blot), so which is nearer shows
two left 'A 4 5 2 2 1 1 1' 'A 6 5 1 2 1 1 1'
two right 'A 4 5 1 2 1 1 1' 'A 6 5 2 2 1 1 1'
check "z order: one colour, the nearer outlined over the other" not cmp -s "$tmpd/left.t" "$tmpd/right.t"
# no drift of E in a 3-D run: its plane's energy is not kept (z unseen)
"$SB" --snapshot=100x24 --no-color --keys='<t 15>' tests/replay/3d.lammpstrj >"$out"
check "3-D: E without a drift on the status line" sh -c "tail -n 1 '$out' | grep -q ' E [0-9.]*  ' && ! tail -n 1 '$out' | grep -q '%)'"

# --- the slice ---------------------------------------------------------------
# four balls apart (z 5, 50, 80, 20, vz 0.5 0 1 0); the layer 10..60 is
# balls 2 and 4: drawn as a file of those two alone draws them
four() {
    printf '%s\n%s Properties=species:S:1:pos:R:3:velo:R:3:radius:R:1:color:R:3\n' "$#" "$LAT"
    for b in "$@"; do printf '%s\n' "$b"; done
}
b1='A 2 2 5 1 0 0.5 0.8 1 0 0'
b2='B 8 2 50 0 1 0 0.8 0 0 1'
b3='C 2 8 80 0 0 1 0.8 0 1 0'
b4='D 8 8 20 -1 0 0 0.8 1 1 0'
four "$b1" "$b2" "$b3" "$b4" >"$tmpd/four.xyz"
four "$b2" "$b4" >"$tmpd/two.xyz"
"$SB" --snapshot=30x12 --slice=10:60 "$tmpd/four.xyz" | sed -n 2,11p >"$tmpd/sl.t"
"$SB" --snapshot=30x12 "$tmpd/two.xyz" | sed -n 2,11p >"$tmpd/two.t"
"$SB" --snapshot=30x12 "$tmpd/four.xyz" | sed -n 2,11p >"$tmpd/all.t"
check "--slice: the layer's balls alone drawn" cmp -s "$tmpd/sl.t" "$tmpd/two.t"
check "--slice: ... not all of them" not cmp -s "$tmpd/sl.t" "$tmpd/all.t"
"$SB" --snapshot=100x24 --no-color --slice=10:60 --keys=i "$tmpd/four.xyz" >"$out"
check "--slice: the status line counts the layer" grep -q 'z 10\.\.60: 2 of 4 balls' "$out"
check "--slice: the values panel lists balls 2 and 4, by their numbers" \
    test "$(awk '$1 ~ /^[0-9]+$/ && NF >= 10 { printf "%s ", $1 }' "$out")" = "2 4 "
check "--slice: the sums are the layer's (KE 0.5 + 0.5)" grep -q 'E 1 ' "$out"
check "values: z and vz columns" grep -Eq '^ +# +m +x +y +z +vx +vy +vz ' "$out"
check "values: ball 2's z 50, vz 0" grep -Eq '^ +2 +1\.0+ +8\.0+ +2\.0+ +50\.0+ +0 +1\.0+ +0 ' "$out"
"$SB" --snapshot=100x24 --no-color --keys=i "$tmpd/four.xyz" >"$out"
check "values: ball 1's vz 0.5" grep -Eq '^ +1 .* 5\.0+ +1\.0+ +0 +0\.50+ ' "$out"
"$SB" --snapshot=100x24 --no-color --keys=i tests/replay/headon.xyz >"$out"
check "values: no z column in 2-D" not grep -Eq ' z +vx' "$out"
# -H: the layer printed, said
"$SB" -H --slice=10:60 "$tmpd/four.xyz" >"$out" 2>"$err"
check "-H --slice: the layer's 2 balls printed" test "$(grep -c '^ball' "$out")" -eq 2
check "-H --slice: said" grep -q -- "--slice=10:60: 2 of 4 balls (frame 0)" "$err"
check "-H: z was dropped, said" grep -q "a 3-D run: z was dropped" "$err"
# bad slices: status 2, a clear message
expect_fail 2 "springball: --slice: '3:1': Z0 must be below Z1" "$SB" -H --slice=3:1 "$tmpd/four.xyz"
expect_fail 2 "springball: --slice: '2:2': Z0 must be below Z1" "$SB" -H --slice=2:2 "$tmpd/four.xyz"
expect_fail 2 "springball: --slice: '1' is not Z0:Z1 (two finite numbers)" "$SB" -H --slice=1 "$tmpd/four.xyz"
expect_fail 2 "springball: --slice: 'nan:1' is not Z0:Z1 (two finite numbers)" "$SB" -H --slice=nan:1 "$tmpd/four.xyz"
expect_fail 2 "springball: --slice: '0:1e999' is not Z0:Z1 (two finite numbers)" "$SB" -H --slice=0:1e999 "$tmpd/four.xyz"
expect_fail 2 "springball: --slice keeps a layer of a 3-D run: a recorded run (-H prints the layer), --follow, --connect, or --engine=lammps in the terminal" \
    "$SB" -H --slice=0:1 scenes/headon.scene
expect_fail 2 "springball: --slice keeps a layer of what the terminal draws: not with -H --connect" \
    "$SB" -H --slice=0:1 --connect=127.0.0.1:5

# --- a 3-D LAMMPS run -------------------------------------------------------
if command -v lmp >/dev/null 2>&1; then
    cat >"$tmpd/lj.in" <<'EOF'
units lj
atom_style atomic
lattice fcc 0.8442
region box block 0 3 0 3 0 3
create_box 1 box
create_atoms 1 box
mass 1 1.0
velocity all create 1.44 87287 loop geom
pair_style lj/cut 2.5
pair_coeff 1 1 1.0 1.0 2.5
fix 1 all nve
dump d all custom 10 lj.lammpstrj id type x y z vx vy vz
run 50
EOF
    (cd "$tmpd" && capped 120 "lmp on lj.in" lmp -in lj.in -log none -screen none)
    check "LAMMPS: a 3-D run dumped" test -s "$tmpd/lj.lammpstrj"
    # frame 0's atoms with 1 <= z <= 3 (the fcc layers at z 0.84, 1.68, 2.52, 3.36)
    want=$(awk '/^ITEM: ATOMS/ { on = 1; next } /^ITEM/ { if (on) exit } on && $5 >= 1 && $5 <= 3 { n++ } END { print n + 0 }' "$tmpd/lj.lammpstrj")
    "$SB" --snapshot=100x30 --no-color --slice=1:3 --keys=i "$tmpd/lj.lammpstrj" >"$out" 2>"$err"
    check "LAMMPS 3-D: the slice keeps the dump's $want atoms of 108" grep -q "z 1\.\.3: $want of 108 balls" "$out"
    check "LAMMPS 3-D: the values panel has z and vz" grep -Eq '^ +# +m +x +y +z +vx +vy +vz ' "$out"
    "$SB" -H -n 5 "$tmpd/lj.lammpstrj" >"$out" 2>"$err"
    check "LAMMPS 3-D: -H says z was dropped" grep -q "a 3-D run: z was dropped" "$err"
    check "LAMMPS 3-D: radii from 3-D neighbours (0.4 to 0.6 sigma)" \
        awk '/^ball/ { r = $7 } END { exit !(r > 0.4 && r < 0.6) }' "$out"
else
    echo "depth: lmp is not installed: the 3-D LAMMPS run is skipped"
fi

# --- the terminal: --follow and --connect of a 3-D run ----------------------
tmux_open depth
run_wrapper
cp "$tmpd/four.xyz" "$tmpd/grow.xyz"
pane df 100 24 "sh $tmpd/run $tmpd df $SB --follow --slice=10:60 $tmpd/grow.xyz"
check "--follow 3-D: the layer counted" wait_for df "z 10\.\.60: 2 of 4 balls"
T send-keys -t df i
check "--follow 3-D: the values panel's z" wait_for df "^ +2 +1\.0+ +8\.0+ +2\.0+ +50\.0+ "
# a frame appended: ball 1 moves into the layer
sed '2s/$/ Time=1/; 3s/ 5 1 0 0.5 / 30 1 0 0.5 /' "$tmpd/four.xyz" >>"$tmpd/grow.xyz"
check "--follow 3-D: a frame appended, ball 1 now in the layer" wait_for df "z 10\.\.60: 3 of 4 balls"
T send-keys -t df q
check "--follow 3-D: q exits 0" test "$(wait_rc df)" = 0
if [ -x "$IMDFAKE" ]; then
    rm -f "$tmpd/port"
    "$IMDFAKE" serve live3d "$tmpd/port" 3 >/dev/null 2>&1 &
    fpid=$!
    soon test -s "$tmpd/port"
    port=$(cat "$tmpd/port")
    pane dc 100 24 "sh $tmpd/run $tmpd dc $SB --connect=127.0.0.1:$port --slice=0.5:2.5"
    check "--connect 3-D (z = 0, 1, 2): the layer 0.5..2.5 counted" wait_for dc "z 0\.5\.\.2\.5: 2 of 3 balls"
    T send-keys -t dc i
    check "--connect 3-D: the values panel lists balls 2 and 3 with their z" wait_for dc "^ +3 .* 2\.0+ +"
    T send-keys -t dc q
    check "--connect 3-D: q exits 0" test "$(wait_rc dc)" = 0
    kill "$fpid" 2>/dev/null
    reap "$fpid" "$WAIT" "the fake server" >/dev/null
fi
summary
