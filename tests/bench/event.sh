#!/bin/sh
# event.sh - events per second of the event engine (collisions and wall
# bounces; cell crossings and new neighbour lists are not counted): gases
# of radius-1 balls at speed 1, packing fraction 0.3 (random placement) and
# 0.6 (a melting lattice), 10^3 to 10^6 balls; 0.75 at 10^4 (neighbour
# lists) beside the grid forced; the textbook's p10.txt and billiards5.txt;
# and all pairs (no grid, O(N) per event) beside the default at 10^3 balls
# and on the textbook inputs. Each row is the median of RUNS runs (default 3), the
# rows' runs interleaved (run 1 of every row, then run 2, ...) so that the
# machine's drift spreads over all of them; min-max is the spread. init_s
# is the engine's start-up, (kernel) the part of it spent in the kernel,
# handing out and zeroing the engine's memory; MiB the memory start-up
# touched, (huge) how much of it on huge pages (a fresh huge page can cost
# several times a small one: see README).
# BENCH_EVENT is the driver (default build/bench-event).
cd "$(dirname "$0")/../.." || exit 1
B=${BENCH_EVENT:-build/bench-event}
RUNS=${RUNS:-3}
[ -x "$B" ] || { echo "event.sh: $B not built (make bench builds it)"; exit 1; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT

# Rows: name|driver arguments (seed and packing filled in per run)
rows='1000 0.3|1000 1 2000000 @ 0.3
1000 0.3 all pairs|1000 0 20000 @ 0.3
10000 0.3|10000 1 2000000 @ 0.3
100000 0.3|100000 1 2000000 @ 0.3
1000000 0.3|1000000 1 3000000 @ 0.3
1000 0.6|1000 1 2000000 @ 0.6
10000 0.6|10000 1 2000000 @ 0.6
100000 0.6|100000 1 2000000 @ 0.6
1000000 0.6|1000000 1 3000000 @ 0.6
10000 0.75 (lists)|10000 1 2000000 @ 0.75
10000 0.75 grid|10000 2 2000000 @ 0.75
p10.txt|tests/particles/p10.txt 1 2000000
p10.txt grid|tests/particles/p10.txt 2 2000000
billiards5.txt|tests/particles/billiards5.txt 1 2000000
billiards5.txt grid|tests/particles/billiards5.txt 2 2000000'

for run in $(seq 1 "$RUNS"); do
    printf '%s\n' "$rows" | while IFS='|' read -r name args; do
        set -- $(echo "$args" | sed "s/@/$run/")
        # fields: n grid done crossings init run de collisions init_kernel
        # run_cpu init_mib init_huge_mib
        "$B" "$@" | awk -v name="$name" \
            '{ printf "%s|%.0f|%.3f|%.3f|%.0f|%.0f\n", name, $3 / $6, $5, $9, $11, $12 }'
    done
done >"$out"

printf '%-24s %12s %22s %9s %9s %6s %7s\n' input events/s "(min-max)" init_s "(kernel)" MiB "(huge)"
printf '%s\n' "$rows" | while IFS='|' read -r name args; do
    grep -F "$name|" "$out" | awk -F'|' -v name="$name" '$1 == name' | awk -F'|' '
        { r[NR] = $2; i[NR] = $3; k[NR] = $4; mb = $5; hg = $6 }
        END {
            n = NR
            for (a = 1; a <= n; a++) for (b = a + 1; b <= n; b++) {
                if (r[b] < r[a]) { x = r[a]; r[a] = r[b]; r[b] = x }
                if (i[b] < i[a]) { x = i[a]; i[a] = i[b]; i[b] = x }
                if (k[b] < k[a]) { x = k[a]; k[a] = k[b]; k[b] = x }
            }
            m = (n % 2) ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2
            mi = (n % 2) ? i[(n + 1) / 2] : (i[n / 2] + i[n / 2 + 1]) / 2
            mk = (n % 2) ? k[(n + 1) / 2] : (k[n / 2] + k[n / 2 + 1]) / 2
            printf "%12.0f %10.0f-%-11.0f %9.3f %9.3f %6.0f %7s\n", m, r[1], r[n], mi, mk, mb, "(" hg ")"
        }' | sed "s/^/$(printf '%-24s' "$name")/"
done

# Start-up beyond loading, as a user meets it: the whole process of
# `springball -H --engine=event -n 0` on a scene of STARTUP_N balls
# (default 10^6, packing 0.3) against `springball -H -n 0` (the same
# loading and printing, the spring engine built instead), RUNS alternating
# pairs. The difference of the medians, wall clock and system time (the
# kernel handing out memory); each run follows the other's within a second,
# so part of the memory the kernel hands out was just given back by the
# run before and is cheap: see README on the host taking memory back.
# STARTUP_IDLE=S waits S seconds before each run, so that every run meets
# memory the host has taken back (5 is enough here: the worst case). Peak:
# the largest resident memory of each engine's runs.
SPRINGBALL=${SPRINGBALL:-./springball}
N=${STARTUP_N:-1000000}
IDLE=${STARTUP_IDLE:-0}
if [ -x "$SPRINGBALL" ] && [ -x /usr/bin/time ]; then
    d=$(mktemp -d)
    side=$(awk -v n="$N" 'BEGIN {printf "%.1f", sqrt(n * 3.141592653589793 / 0.3)}')
    printf 'table %s %s\nrandom %s 1 1 1 7\n' "$side" "$side" "$N" >"$d/gen.scene"
    "$SPRINGBALL" -H -n 0 "$d/gen.scene" >"$d/big.scene"
    for run in $(seq 1 "$RUNS"); do
        for e in event spring; do
            sleep "$IDLE"
            /usr/bin/time -f "$e %e %S %M" "$SPRINGBALL" -H --engine="$e" -n 0 "$d/big.scene" \
                2>>"$d/times" >/dev/null
        done
    done
    awk -v n="$N" -v idle="$IDLE" '
        function med(a, k,   i, j, x) {
            for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++)
                if (a[j] < a[i]) { x = a[i]; a[i] = a[j]; a[j] = x }
            return (k % 2) ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
        }
        $1 == "event" { ew[++ne] = $2; es[ne] = $3; if ($4 > em) em = $4 }
        $1 == "spring" { sw[++ns] = $2; ss[ns] = $3; if ($4 > sm) sm = $4 }
        END {
            e = med(ew, ne); s = med(sw, ns); ek = med(es, ne); sk = med(ss, ns)
            printf "start-up beyond loading, %d balls%s: %.2f s (event %.2f s, spring %.2f s; ", \
                n, (idle > 0 ? ", each run after " idle " s idle" : ""), e - s, e, s
            printf "spread %.2f-%.2f and %.2f-%.2f), system %.2f s (%.2f against %.2f), ", \
                ew[1], ew[ne], sw[1], sw[ns], ek - sk, ek, sk
            printf "peak %.0f MiB against %.0f\n", em / 1024, sm / 1024
        }' "$d/times"
    rm -rf "$d"
fi
