# compare.awk - reads two tables of table.awk (springball's first, then
# LAMMPS's; same steps and ids) and prints, for balls -v a=ID and -v b=ID
# whose centres are -v r=R apart when they touch (or, with b=0, ball a
# touching the wall x = 0 at x = r):
#   dx   the largest position difference over all balls and frames
#   dv   the largest velocity difference
#   dvend  the largest velocity difference in the last frame
#   tc1 tc2  the contact time of balls a and b in each program, as
#            (frames in contact) * -v dt
function abs(x) { return x < 0 ? -x : x }
NR == FNR { key = $1 " " $2; X[key] = $3; Y[key] = $4; VX[key] = $5; VY[key] = $6
            if ($1 > last) last = $1; next }
{
    key = $1 " " $2
    if (!(key in X)) { missing++; next }
    d = abs($3 - X[key]); if (abs($4 - Y[key]) > d) d = abs($4 - Y[key])
    if (d > dx) dx = d
    d = abs($5 - VX[key]); if (abs($6 - VY[key]) > d) d = abs($6 - VY[key])
    if (d > dv) dv = d
    if ($1 == last && d > dvend) dvend = d
    seen++
    LX[key] = $3; LY[key] = $4
}
END {
    # contact frames of balls a and b in each program
    for (k in X) {
        split(k, p, " ")
        if (p[2] != a) continue
        kb = p[1] " " b
        if (b == 0) {
            n1 += X[k] < r
            n2 += (k in LX) && LX[k] < r
            continue
        }
        if (sqrt((X[k] - X[kb])^2 + (Y[k] - Y[kb])^2) < r) n1++
        if ((k in LX) && sqrt((LX[k] - LX[kb])^2 + (LY[k] - LY[kb])^2) < r) n2++
    }
    printf "rows %d missing %d dx %.3g dv %.3g dvend %.3g tc1 %.6g tc2 %.6g\n", seen, missing + 0, dx, dv, dvend, n1 * dt, n2 * dt
}
