#!/bin/sh
# event-callgrind.sh - instructions (valgrind --tool=callgrind, whole run:
# scene, start-up and events; deterministic, no spread) of the event
# engine's driver on the scenarios of event.sh at sizes callgrind can run,
# and on a field, a round table in a field, rolling and linear friction;
# for one or two builds of it, the second as a change against the first.
#   sh tests/bench/event-callgrind.sh BEFORE [AFTER]   (bench-event binaries)
cd "$(dirname "$0")/../.." || exit 1
[ -n "$1" ] || { echo "usage: event-callgrind.sh BENCH_EVENT [BENCH_EVENT]"; exit 2; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
printf 'table 400 400\nfield 0 -0.01\nrandom 1000 1 1 1 5\n' >"$d/field.scene"
printf 'table circle 300\nfield 0.002 -0.01\nrandom 600 1 1 1 6\n' >"$d/bowl.scene"
printf 'table 400 400\nfriction rolling 0.0001\nrandom 1000 1 1 1 7\n' >"$d/roll.scene"
printf 'table 400 400\nfriction linear 0.0001\nrandom 1000 1 1 1 7\n' >"$d/lin.scene"
rows="1000 0.3|1000 1 200000 1 0.3
1000 0.3 all pairs|1000 0 5000 1 0.3
10000 0.3|10000 1 200000 1 0.3
10000 0.6|10000 1 200000 1 0.6
10000 0.75 (lists)|10000 1 200000 1 0.75
10000 0.75 grid|10000 2 200000 1 0.75
p10.txt|tests/particles/p10.txt 1 200000
billiards5.txt|tests/particles/billiards5.txt 1 200000
field 1000|$d/field.scene 1 30000
round field 600|$d/bowl.scene 1 20000
rolling 1000|$d/roll.scene 1 10000
linear drag 1000|$d/lin.scene 1 30000"
ir() {
    valgrind --tool=callgrind --callgrind-out-file="$d/cg" "$@" >/dev/null 2>&1
    awk '/^summary:/ { print $2 }' "$d/cg"
}
printf '%-22s %14s %14s %9s\n' scenario before after change
printf '%s\n' "$rows" | while IFS='|' read -r name args; do
    a=$(ir "$1" $args)
    if [ -n "$2" ]; then
        b=$(ir "$2" $args)
        awk -v n="$name" -v a="$a" -v b="$b" \
            'BEGIN { printf "%-22s %14d %14d %+8.2f%%\n", n, a, b, 100 * (b - a) / a }'
    else
        printf '%-22s %14d\n' "$name" "$a"
    fi
done
