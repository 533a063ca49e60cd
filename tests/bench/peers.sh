#!/bin/sh
# peers.sh - the event engine against the published codes, in one sitting:
# Smallenburg's EDMD (3-D, periodic) at the same packing fraction and about
# the same number of balls, and algs4's CollisionSystem on the textbook's
# p10.txt and billiards5.txt; each peer's run alternates with springball's
# (bench-event) run of the same row, RUNS rounds (default 3), every run
# pinned to processor PIN (default 1; the two processors of the machine
# these figures come from differ, see README). A row prints both rates'
# medians with their spread and the median of the rounds' ratios.
#   EDMD=.../Single/md      EDMD's Single variant, built with its own flags,
#                           changed to take N PHI T as arguments, run with
#                           its FCC start and thermostat off, and print
#                           "collisions=C seconds=S" for its main loop
#                           (see README: how the peers were run)
#   ALGS4=DIR               a directory holding the compiled CollisionSystem,
#                           Particle and MinPQ, drawing removed, run as
#                           `java -cp DIR CollisionSystem LIMIT < FILE`,
#                           printing "EVENTS SECONDS RATE" for simulate()
# Either may be left out (its rows are skipped). BENCH_EVENT: the driver.
# Rates: collisions a second against EDMD (its count has no walls), events
# a second (collisions and bounces) against algs4.
cd "$(dirname "$0")/../.." || exit 1
B=${BENCH_EVENT:-build/bench-event}
RUNS=${RUNS:-3}
PIN=${PIN:-1}
[ -x "$B" ] || { echo "peers.sh: $B not built (make bench builds it)"; exit 1; }
out=$(mktemp)
scratch=$(mktemp -d) # EDMD's working directory
trap 'rm -f "$out"; rm -rf "$scratch"' EXIT

# name|springball arguments (@: the round)|peer|peer arguments
rows=''
if [ -n "${EDMD:-}" ] && [ -x "$EDMD" ]; then
    rows="$rows
10^3 0.3|1000 1 2000000 @ 0.3|edmd|864 0.3 463
10^4 0.3|10000 1 2000000 @ 0.3|edmd|10976 0.3 36
10^5 0.3|100000 1 2000000 @ 0.3|edmd|97556 0.3 4.1
10^6 0.3|1000000 1 3000000 @ 0.3|edmd|1000188 0.3 0.52
10^3 0.6|1000 1 2000000 @ 0.6|edmd|864 0.6 94.5
10^4 0.6|10000 1 2000000 @ 0.6|edmd|10976 0.6 7.5
10^5 0.6|100000 1 2000000 @ 0.6|edmd|97556 0.6 0.84
10^6 0.6|1000000 1 3000000 @ 0.6|edmd|1000188 0.6 0.0813"
fi
if [ -n "${ALGS4:-}" ] && [ -d "$ALGS4" ] && command -v java >/dev/null; then
    rows="$rows
p10.txt|tests/particles/p10.txt 1 2000000|algs4|6000000 tests/particles/p10.txt
billiards5.txt|tests/particles/billiards5.txt 1 2000000|algs4|1200000 tests/particles/billiards5.txt"
fi
[ -n "$rows" ] || { echo "peers.sh: skipped: set EDMD and/or ALGS4 (see the head of this file)"; exit 0; }

for run in $(seq 1 "$RUNS"); do
    printf '%s\n' "$rows" | while IFS='|' read -r name args peer pargs; do
        [ -n "$name" ] || continue
        set -- $(echo "$args" | sed "s/@/$run/")
        if [ "$peer" = edmd ]; then
            # collisions a second: bench-event's collisions over its run
            sb=$(taskset -c "$PIN" "$B" "$@" | awk '{ printf "%.0f", $8 / $6 }')
            set -- $pargs
            pr=$(cd "$scratch" && taskset -c "$PIN" "$EDMD" "$@" |
                awk -F'[= ]' '/collisions=/ { for (i = 1; i < NF; i++) {
                    if ($i == "collisions") c = $(i + 1); if ($i == "seconds") s = $(i + 1) }
                    printf "%.0f", c / s }')
        else
            sb=$(taskset -c "$PIN" "$B" "$@" | awk '{ printf "%.0f", $3 / $6 }')
            set -- $pargs
            pr=$(taskset -c "$PIN" java -cp "$ALGS4" CollisionSystem "$1" <"$2" | awk '{ print $3 }')
        fi
        echo "$name|$sb|$pr"
    done
done >"$out"

printf '%-16s %12s %22s %12s %22s %7s %s\n' input springball "(min-max)" peer "(min-max)" ratio "(min-max)"
printf '%s\n' "$rows" | while IFS='|' read -r name args peer pargs; do
    [ -n "$name" ] || continue
    awk -F'|' -v name="$name" -v peer="$peer" '$1 == name' "$out" | awk -F'|' -v name="$name" -v peer="$peer" '
        function med(a, n,   i, j, x) {
            for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
                if (a[j] < a[i]) { x = a[i]; a[i] = a[j]; a[j] = x }
            return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
        }
        { s[NR] = $2; p[NR] = $3; r[NR] = ($3 > 0) ? $2 / $3 : 0 }
        END {
            n = NR
            ms = med(s, n); mp = med(p, n); mr = med(r, n)
            printf "%-16s %12.0f %10.0f-%-11.0f %12.0f %10.0f-%-11.0f %6.2fx %.2f-%.2f (%s)\n",
                name, ms, s[1], s[n], mp, p[1], p[n], mr, r[1], r[n], peer
        }'
done
