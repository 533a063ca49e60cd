#!/bin/sh
# stress.sh - the terminal suites run ROUNDS times (3) beside two busy loops
# (issue 43): a landing must not depend on the machine's load, so the suites
# wait for conditions, not for time. Not part of `make test` (it takes
# minutes, and loads the machine on purpose): `sh tests/stress.sh`, or
# ROUNDS=N SUITES="tui edit" sh tests/stress.sh. Ends with the usual
# "N passed, N failed" line, counting suite runs.
cd "$(dirname "$0")/.." || exit 1
ROUNDS=${ROUNDS:-3}
SUITES=${SUITES:-"tui edit zoom worker shown replay cast"}
busy() { while :; do :; done; }
busy &
b1=$!
busy &
b2=$!
trap 'kill $b1 $b2 2>/dev/null' EXIT
trap 'exit 130' INT TERM
log=$(mktemp)
ok=0 bad=0 r=1
start=$(date +%s)
while [ $r -le "$ROUNDS" ]; do
    for s in $SUITES; do
        sh "tests/$s.sh" >"$log" 2>&1
        rc=$?
        last=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
        echo "round $r, $s: ${last:-no summary line} (status $rc)"
        grep -E '^(FAIL|timed out)' "$log"
        if [ "$rc" -eq 0 ] && [ -n "$last" ] && [ "${last#*passed, }" = "0 failed" ]; then
            ok=$((ok + 1))
        else
            bad=$((bad + 1))
        fi
    done
    r=$((r + 1))
done
rm -f "$log"
echo "stress: $ROUNDS rounds of $SUITES beside two busy loops, $(($(date +%s) - start)) s"
echo "$ok passed, $bad failed"
[ "$bad" -eq 0 ]
