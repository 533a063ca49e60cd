#!/bin/sh
# event.sh - events per second of the event engine (collisions and wall
# bounces; cell crossings are not counted) on random gases at packing
# fraction 0.3, with the grid and without it (all pairs, O(N) per event:
# only up to 10^4 balls). Median of RUNS runs (default 5), each on its own
# seed. BENCH_EVENT is the driver (default build/bench-event).
cd "$(dirname "$0")/../.." || exit 1
B=${BENCH_EVENT:-build/bench-event}
RUNS=${RUNS:-5}
[ -x "$B" ] || { echo "event.sh: $B not built (make bench builds it)"; exit 1; }

# median RATE-LIST: the middle of the sorted numbers
median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# bench N GRID EVENTS: prints the median events/s and init seconds
bench() {
    rates= inits=
    for seed in $(seq 1 "$RUNS"); do
        set -- $("$B" "$1" "$2" "$3" "$seed") "$1" "$2" "$3"
        # fields: n grid done crossings init run de ; then N GRID EVENTS again
        rates="$rates $(awk -v d="$3" -v t="$6" 'BEGIN { printf "%.0f", d / t }')"
        inits="$inits $5"
        shift 7
    done
    echo "$(median $rates) $(median $inits)"
}

printf '%-8s %-6s %10s %14s %10s %14s\n' balls grid events events/s init_s "grid/no-grid"
for n in 1000 10000 100000; do
    set -- $(bench $n 1 200000)
    g=$1
    printf '%-8s %-6s %10s %14s %10s %14s\n' $n on 200000 "$1" "$2" ""
    if [ $n -le 10000 ]; then
        ev=$((20000000 / n))
        set -- $(bench $n 0 $ev)
        printf '%-8s %-6s %10s %14s %10s %14s\n' $n off $ev "$1" "$2" \
            "$(awk -v a="$g" -v b="$1" 'BEGIN { printf "%.1f", a / b }')"
    fi
done
