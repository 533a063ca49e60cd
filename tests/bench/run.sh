#!/bin/sh
# run.sh - `make bench`: runs every benchmark script in tests/bench/ in turn.
# Benchmarks print tables (medians of repeated runs; this machine is shared
# and noisy); they are not tests and assert nothing.
cd "$(dirname "$0")/../.." || exit 1
export SPRINGBALL=${SPRINGBALL:-./springball}
for b in tests/bench/*.sh; do
    [ "$b" = tests/bench/run.sh ] && continue
    # a comparison of two builds, run by hand (its header says how)
    [ "$b" = tests/bench/event-callgrind.sh ] && continue
    echo "== $b"
    sh "$b" || echo "$b: exit status $?"
done
