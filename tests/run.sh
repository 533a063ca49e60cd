#!/bin/sh
# run.sh - runs every test suite and adds up their closing lines
# ("N passed, N failed"). A suite that ends without that line counts as one
# failure. Exit status 0 only when nothing failed.
#
# SPRINGBALL  the binary under test (default ./springball)
# UNIT        the unit test binary (default build/unit)
# SUITES      which suites to run (default: all)
set -u
cd "$(dirname "$0")/.." || exit 1
SPRINGBALL=${SPRINGBALL:-./springball}
UNIT=${UNIT:-build/unit}
export SPRINGBALL
SUITES=${SUITES:-"unit docs golden cli universe systems event tui snapshot look record lammps lab edit limits replay house shown lessons zoom worker threads cast imd follow engine depth"}

passed=0
failed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

for s in $SUITES; do
    echo "== $s"
    case $s in
        unit) "$UNIT" >"$log" 2>&1 ;;
        *) sh "tests/$s.sh" >"$log" 2>&1 ;;
    esac
    rc=$?
    cat "$log"
    last=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
    if [ -z "$last" ]; then
        echo "$s: ended (status $rc) without a summary line"
        failed=$((failed + 1))
        continue
    fi
    p=${last%% passed*}
    f=${last#*passed, }
    f=${f%% failed*}
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "$s: exit status $rc"
        failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
