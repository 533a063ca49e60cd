#!/bin/sh
# grid.sh - the spring step with the grid broad phase against the O(n^2)
# loop and against LAMMPS, on a 2D gas of equal discs (r = 1, m = 1,
# packing 0.4, and 0.8 at 10^3 balls, k = 1000, dt = 0.002),
# single-threaded; then on two threads (--threads=2, bench-grid run -t)
# against LAMMPS on two MPI ranks (mpirun -np 2), when mpirun is installed.
#
# bench-grid writes one configuration per N (a jittered lattice mixed for
# 1000 steps) as a scene and as a LAMMPS data file; both programs start
# from it. springball: median of 5 runs of STEPS steps, timing
# sim_step alone; the runs follow each other. LAMMPS: median of 3 runs of
# the same steps ("Loop time", which leaves out its setup), when lmp is
# installed. Peak memory is the peak RSS of the bench-grid process. At
# 10^6 balls and more, the memory floor beside it (bench-grid stream).
#
# BENCH_GRID  the driver (default build/bench-grid)
# ROWS        N:PHI pairs to run (default "1000:0.4 10000:0.4 100000:0.4
#             1000000:0.4 1000:0.8"); or SIZES, the N to run at PHI (0.4)
cd "$(dirname "$0")/../.." || exit 1
BENCH_GRID=${BENCH_GRID:-build/bench-grid}
if [ -n "${SIZES:-}" ]; then
    ROWS=$(for n in $SIZES; do printf '%s:%s ' "$n" "${PHI:-0.4}"; done)
fi
ROWS=${ROWS:-"1000:0.4 10000:0.4 100000:0.4 1000000:0.4 1000:0.8"}
LMP=${LMP:-lmp}
[ -x "$BENCH_GRID" ] || { echo "grid.sh: $BENCH_GRID missing (make $BENCH_GRID)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

have_lmp=0
if command -v "$LMP" >/dev/null 2>&1; then
    have_lmp=1
else
    echo "LAMMPS is not installed: springball runs alone. To compare, install it"
    echo "(Debian/Ubuntu: apt-get install lammps) and run make bench again."
fi

# field KEY LINE: the value of KEY=VALUE in LINE
field() { echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

have_mpi=0
[ "$have_lmp" = 1 ] && command -v mpirun >/dev/null 2>&1 && have_mpi=1
printf '%-12s %6s | %-11s %7s %9s %8s %7s | %10s | %-11s %7s %9s %6s | %7s %7s %6s\n' \
    "N (packing)" steps "ball-steps/s" "ns/step" "contacts" "peak MB" "B/ball" "O(N^2) ns" \
    "LAMMPS b-s/s" "ns/step" "contacts" "ratio" "2 thr" "np 2" "ratio2"
for row in $ROWS; do
    n=${row%%:*} phi=${row#*:}
    case $n in
        1000) steps=25600 runs=5 bsteps=200 ;;
        10000) steps=2560 runs=5 bsteps=10 ;;
        100000) steps=256 runs=5 bsteps=0 ;;
        *) steps=128 runs=5 bsteps=0 ;;
    esac
    "$BENCH_GRID" gen "$n" 1 1000 "$tmp/gas.scene" "$tmp/gas.data" "$phi" || exit 1
    # The files just written (160 MB at 10^6) go to disk now, not during
    # the timed runs.
    sync
    line=$("$BENCH_GRID" run "$steps" "$runs" "$tmp/gas.scene") || exit 1
    bs=$(field ballsteps_per_s "$line")
    ns=$(field ns_per_ballstep "$line")
    cpb=$(field contacts_per_ball "$line")
    rss=$(field peak_rss "$line")
    bpb=$(field bytes_per_ball "$line")
    brute=-
    if [ "$bsteps" -gt 0 ]; then
        bl=$("$BENCH_GRID" run -b "$bsteps" 3 "$tmp/gas.scene") || exit 1
        brute=$(field ns_per_ballstep "$bl")
    fi
    lbs=- lns=- lcpb=- ratio=-
    if [ "$have_lmp" = 1 ]; then
        for r in 1 2 3; do
            OMP_NUM_THREADS=1 "$LMP" -nocite -in tests/bench/grid.lmp \
                -var data "$tmp/gas.data" -var steps "$steps" \
                -log "$tmp/log.$r" -screen none >/dev/null 2>&1
            sed -n 's/^Loop time of \([^ ]*\) on 1 procs.*/\1/p' "$tmp/log.$r"
        done >"$tmp/loops"
        if [ "$(wc -l <"$tmp/loops")" -eq 3 ]; then
            loop=$(median <"$tmp/loops")
            lbs=$(awk -v n="$n" -v s="$steps" -v t="$loop" 'BEGIN {printf "%.4g", n * s / t}')
            lns=$(awk -v n="$n" -v s="$steps" -v t="$loop" 'BEGIN {printf "%.4g", 1e9 * t / (n * s)}')
            lcpb=$(awk -v s="$steps" '$1 == s && NF == 4 {v = $4} END {print v}' "$tmp/log.1")
            ratio=$(awk -v a="$bs" -v b="$lbs" 'BEGIN {printf "%.2f", a / b}')
        else
            lbs="failed"
            echo "grid.sh: LAMMPS failed at N=$n; its log:" >&2
            tail -n 5 "$tmp/log.1" >&2
        fi
    fi
    # two threads against two ranks: ns a ball-step, and LAMMPS's over ours
    ns2=$(field ns_per_ballstep "$("$BENCH_GRID" run -t "$steps" "$runs" "$tmp/gas.scene")")
    lns2=- ratio2=-
    if [ "$have_mpi" = 1 ]; then
        for r in 1 2 3; do
            OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1 \
                mpirun --oversubscribe -np 2 "$LMP" -nocite -in tests/bench/grid.lmp \
                -var data "$tmp/gas.data" -var steps "$steps" \
                -log "$tmp/log2.$r" -screen none >/dev/null 2>&1
            sed -n 's/^Loop time of \([^ ]*\) on 2 procs.*/\1/p' "$tmp/log2.$r"
        done >"$tmp/loops2"
        if [ "$(wc -l <"$tmp/loops2")" -eq 3 ]; then
            loop2=$(median <"$tmp/loops2")
            lns2=$(awk -v n="$n" -v s="$steps" -v t="$loop2" 'BEGIN {printf "%.4g", 1e9 * t / (n * s)}')
            ratio2=$(awk -v a="$lns2" -v b="$ns2" 'BEGIN {printf "%.2f", a / b}')
        else
            lns2=failed
        fi
    fi
    printf '%-12s %6s | %-11s %7s %9s %8.1f %7s | %10s | %-11s %7s %9s %6s | %7s %7s %6s\n' \
        "$n ($phi)" "$steps" "$bs" "$ns" "$cpb" "$(awk -v r="$rss" 'BEGIN {print r / 1048576}')" \
        "$bpb" "$brute" "$lbs" "$lns" "$lcpb" "$ratio" "$ns2" "$lns2" "$ratio2"
    [ "$n" -ge 1000000 ] && big_n=$n big_ns=$(field cpu_ns_per_ballstep "$line")
done
# The memory floor of the largest N: a pass that only reads and writes x,
# y, vx, vy (64 bytes a ball-step), against the step's processor time.
if [ -n "${big_n:-}" ]; then
    fl=$("$BENCH_GRID" stream "$big_n" 128 3) || exit 1
    fns=$(field cpu_ns_per_ballstep "$fl")
    echo "memory floor at N=$big_n: $fns ns a ball-step ($(field gb_per_s "$fl") GB/s, 64 B);" \
        "springball $big_ns ns (processor time), $(awk -v a="$big_ns" -v b="$fns" 'BEGIN {printf "%.2f", a / b}')x the floor"
fi
echo "ns/step: ns per ball-step; contacts: touching neighbours per ball at the"
echo "end; ratio: springball's ball-steps/s over LAMMPS's; 2 thr: springball's ns"
echo "a ball-step on two threads; np 2: LAMMPS's on two MPI ranks; ratio2: np 2's"
echo "time over 2 thr's."
