# table.awk - one line "step id x y vx vy" per ball and frame, from either
# springball's extended XYZ (--traj; ids are the row numbers, from 1) or a
# LAMMPS custom dump with columns id, x, y, vx, vy among others, named by
# its ITEM: ATOMS line.
FNR == 1 { mode = ($0 ~ /^ITEM:/) ? "lmp" : "xyz"; row = -1 }
mode == "lmp" && /^ITEM: TIMESTEP/ { getline; step = $1; atoms = 0; next }
mode == "lmp" && /^ITEM: ATOMS/ {
    for (k = 3; k <= NF; k++) col[$k] = k - 2
    atoms = 1; next
}
mode == "lmp" && /^ITEM:/ { atoms = 0; next }
mode == "lmp" && atoms { print step, $col["id"], $col["x"], $col["y"], $col["vx"], $col["vy"]; next }
mode == "xyz" && row < 0 { n = $1; row = 0; next }
mode == "xyz" && row == 0 {
    match($0, /Step=[0-9]+/); step = substr($0, RSTART + 5, RLENGTH - 5); row = 1; next
}
mode == "xyz" {
    print step, row, $2, $3, $5, $6
    if (row == n) row = -1; else row++
}
