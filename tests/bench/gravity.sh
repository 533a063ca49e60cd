#!/bin/sh
# gravity.sh - mutual gravity: the exact O(n^2) sum against Barnes-Hut at a
# few opening angles, on the published 1000-body galaxy and 1001-body
# sbh2 universes. Median wall time of 5 runs of 50 steps each; ratio to
# the exact sum. Not a test: it asserts nothing.
cd "$(dirname "$0")/../.." || exit 1
SPRINGBALL=${SPRINGBALL:-./springball}
runs=5
steps=50
# median SECONDS of $runs runs of the command
median() {
    for i in $(seq $runs); do
        s=$(date +%s.%N)
        "$@" >/dev/null 2>&1
        e=$(date +%s.%N)
        echo "$e - $s" | bc -l
    done | sort -g | sed -n "$(( (runs + 1) / 2 ))p"
}
printf '%-28s %8s %10s %8s\n' universe theta 'median s' ratio
for u in tests/universes/galaxy.txt tests/universes/sbh2.txt; do
    exact=$(median "$SPRINGBALL" -H -n $steps "$u")
    printf '%-28s %8s %10.4f %8s\n' "$(basename "$u") ($steps steps)" exact "$exact" 1.00
    for th in 0.3 0.5 1; do
        t=$(median "$SPRINGBALL" -H -n $steps --theta $th "$u")
        printf '%-28s %8s %10.4f %8.2f\n' "" "$th" "$t" "$(echo "$t / $exact" | bc -l)"
    done
done
