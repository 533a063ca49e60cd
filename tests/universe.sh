#!/bin/sh
# universe.sh - the NBody universe format: every published run in
# tests/universes/expected-outputs.txt reproduced byte for byte, every
# universe of tests/universes/ and scenes/ loading and running, detection and
# --format, and malformed universes giving FILE:LINE: errors with status 2.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
out=$(mktemp)
err=$(mktemp)
want=$(mktemp)
trap 'rm -f "$out" "$err" "$want"' EXIT
U=tests/universes

# The published blocks: each "java... NBody T DT < FILE" line is followed by
# the expected output up to the next blank line.
blocks=0
while IFS= read -r line; do
    case $line in
        java*NBody*) ;;
        *) continue ;;
    esac
    set -- $line
    T=$3 DT=$4 file=$6
    sed -n "\\|^$line\$|,/^\$/p" $U/expected-outputs.txt | sed '1d;/^$/d' >"$want"
    "$SPRINGBALL" -H -T "$T" --dt "$DT" "$U/$file" >"$out" 2>"$err"
    blocks=$((blocks + 1))
    if cmp -s "$want" "$out"; then ok; else
        bad "published run T=$T dt=$DT $file differs:"; diff "$want" "$out" | head -n 12
    fi
done <$U/expected-outputs.txt
check "six published blocks found" test "$blocks" -eq 6
# the issue's five-year run, through standard input
"$SPRINGBALL" -H -T 157788000.0 --dt 25000.0 - <scenes/planets.txt >"$out"
check "planets five years" cmp -s "$out" $U/planets-5years.out

# Every universe loads and runs (3 steps), printing N + 2 lines; printing a
# printed universe changes nothing.
nu=0
for f in $U/*.txt scenes/*.txt; do
    [ "$f" = $U/expected-outputs.txt ] && continue
    case $f in $U/*) nu=$((nu + 1)) ;; esac
    if "$SPRINGBALL" -H -n 3 "$f" >"$out" 2>"$err"; then
        n=$(head -n 1 "$f" | tr -d ' \r')
        [ -z "$n" ] && n=$(awk 'NF { print $1; exit }' "$f")
        lines=$(wc -l <"$out")
        if [ "$lines" -eq $((n + 2)) ] && [ ! -s "$err" ]; then ok; else
            bad "$f: $lines lines (want $((n + 2))), stderr: $(head -c 200 "$err")"
        fi
        if "$SPRINGBALL" -H "$out" | cmp -s - "$out"; then ok; else bad "round trip of $f"; fi
    else
        bad "$f: status $?: $(head -c 200 "$err")"
    fi
done
check "all 41 published universes ran ($nu)" test "$nu" -eq 41

# Detection and --format
"$SPRINGBALL" -H --format=universe $U/binary.txt >"$out"
check "--format=universe" cmp -s "$out" $U/binary.txt.expect
"$SPRINGBALL" -H $U/binary.txt >"$out"
check "detected universe" cmp -s "$out" $U/binary.txt.expect

# 5000 bodies (issue 10): above SIM_BH_MIN gravity takes Barnes-Hut; point
# masses get no contact grid (their zero radii once made a NaN cell and a
# SIGSEGV on the first step). The rows come back in the file's order, each
# with its own name, after steps; printing the printed universe again
# changes nothing.
awk 'BEGIN { n = 5000; print n; print "1.00e+12"; s = 7
    for (i = 0; i < n; i++) { s = (s * 16807) % 2147483647; x = s / 2147483647 - 0.5
        s = (s * 16807) % 2147483647; y = s / 2147483647 - 0.5
        printf "%.6e %.6e %.6e %.6e %.6e b%d\n", x * 1e12, y * 1e12, y * 1e3, -x * 1e3, 1e20 * (1 + i), i } }' >"$want"
"$SPRINGBALL" -H -n 3 "$want" >"$out" 2>"$err"
check "5000 bodies: 3 steps, status 0" test $? -eq 0 -a ! -s "$err"
check "5000 bodies: 5002 lines" test "$(wc -l <"$out")" -eq 5002
check "5000 bodies: rows in order" sh -c "awk 'NR > 2 && \$6 != \"b\" (NR - 3) { bad = 1 } END { exit bad }' '$out'"
"$SPRINGBALL" -H "$out" >"$err"
check "5000 bodies: printed state reads back" cmp -s "$out" "$err"

# What a run prints near the limits of double reads back (issue 11).
printf '1\n1e11\n9e307 0 2.4e303 0 1 a\n' | "$SPRINGBALL" -H -n 1 - >"$out"
"$SPRINGBALL" -H "$out" >"$err" 2>&1
check "a body at 1.5e308 reads back" cmp -s "$out" "$err"

B=tests/universes/bad
expect_fail 2 "$B/missing-rows.txt:4: missing rows: 4 bodies announced, 2 found" "$SPRINGBALL" -H $B/missing-rows.txt
expect_fail 2 "$B/short-row.txt:4: body 2: expected 6 fields (x y vx vy mass name), found 5" "$SPRINGBALL" -H $B/short-row.txt
expect_fail 2 "$B/long-row.txt:3: body 1: expected 6 fields (x y vx vy mass name), found 7" "$SPRINGBALL" -H $B/long-row.txt
expect_fail 2 "$B/bad-number.txt:4: body 2: vx: '3.0e0x4' is not a number" "$SPRINGBALL" -H $B/bad-number.txt
expect_fail 2 "$B/nan.txt:3: body 1: y: 'nan' is not a finite number" "$SPRINGBALL" -H $B/nan.txt
# a first x of nan is no species: not read as an XYZ replay (issue 43)
expect_fail 2 "$B/nan-first.txt:3: body 1: x: 'nan' is not a finite number" "$SPRINGBALL" -H $B/nan-first.txt
expect_fail 2 "$B/zero-mass.txt:4: body 2: mass must not be 0" "$SPRINGBALL" -H $B/zero-mass.txt
expect_fail 2 "$B/bad-radius.txt:2: radius: 'big' is not a number" "$SPRINGBALL" -H $B/bad-radius.txt
expect_fail 2 "$B/negative-radius.txt:2: radius must be > 0" "$SPRINGBALL" -H $B/negative-radius.txt
expect_fail 2 "$B/no-radius.txt:1: missing the radius R" "$SPRINGBALL" -H $B/no-radius.txt
expect_fail 2 "$B/zero-count.txt:1: body count must be between 1 and 10000000" "$SPRINGBALL" -H $B/zero-count.txt
expect_fail 2 "$B/count-fields.txt:1: expected the body count N alone on its line, found 2 fields" "$SPRINGBALL" -H $B/count-fields.txt
expect_fail 2 "$B/radius-fields.txt:3: expected the radius R alone on its line, found 3 fields" "$SPRINGBALL" -H $B/radius-fields.txt
expect_fail 2 "$B/count-word.txt:1: body count: 'five' is not a whole number" "$SPRINGBALL" -H --format=universe $B/count-word.txt
expect_fail 2 "$B/count-word.txt:1: unknown directive 'five'" "$SPRINGBALL" -H $B/count-word.txt
expect_fail 2 "<stdin>:1: missing the body count N" sh -c "\"$SPRINGBALL\" -H --format=universe - </dev/null"
expect_fail 2 "$U/planets.txt:1: unknown directive '5'" "$SPRINGBALL" -H --format=scene $U/planets.txt
expect_fail 2 "springball: --format: unknown format 'xml' (use scene, universe, particles or lesson; xyz or lammpstrj replay a recorded run)" "$SPRINGBALL" -H --format=xml
summary
