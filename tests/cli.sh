#!/bin/sh
# cli.sh - the command line: malformed scenes (each fixture in tests/scenes
# names its expected "LINE: message" on its first line), bad options, help.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

for f in tests/scenes/bad-*.scene; do
    spec=$(head -n 1 "$f" | sed -n 's/^# expect \([0-9]*\): \(.*\)$/\1:\2/p')
    line=${spec%%:*}
    msg=${spec#*:}
    expect_fail 2 "$f:$line: $msg" "$SPRINGBALL" -H "$f"
done
# the same through standard input
expect_fail 2 "<stdin>:4: radius must be > 0" sh -c "\"$SPRINGBALL\" -H - < tests/scenes/bad-radius.scene"
# unreadable files
expect_fail 2 "tests/scenes/nonexistent.scene:0: cannot read: No such file or directory" "$SPRINGBALL" -H tests/scenes/nonexistent.scene
expect_fail 2 "tests/scenes:0: cannot read: Is a directory" "$SPRINGBALL" -H tests/scenes

# bad options and values
u="Try 'springball --help' for more information."
expect_fail 2 "springball: --dt: '0' must be > 0" "$SPRINGBALL" -H --dt 0
expect_fail 2 "springball: --dt: 'abc' is not a finite number" "$SPRINGBALL" -H --dt abc
expect_fail 2 "springball: --stiffness: 'inf' is not a finite number" "$SPRINGBALL" -H -k inf
expect_fail 2 "springball: --time: '-1' must be >= 0" "$SPRINGBALL" -H -T -1
expect_fail 2 "springball: --steps: '1.5' is not a whole number" "$SPRINGBALL" -H -n 1.5
expect_fail 2 "springball: unknown option '--bogus'" "$SPRINGBALL" -H --bogus
expect_fail 2 "springball: unknown option '-q'" "$SPRINGBALL" -q
expect_fail 2 "springball: option '--time' needs an argument" "$SPRINGBALL" -H --time
expect_fail 2 "springball: give --time or --steps, not both" "$SPRINGBALL" -H -T 1 -n 1
expect_fail 2 "springball: only one scene at a time ('b' is extra)" "$SPRINGBALL" -H a b
expect_fail 2 "springball: standard output is not a terminal (use -H for a headless run)" "$SPRINGBALL" scenes/headon.scene
"$SPRINGBALL" -H --dt 0 2>"$err" >/dev/null
check "usage hint" grep -qF "$u" "$err"

# help and version
"$SPRINGBALL" --help >"$out" 2>"$err"
check "--help exits 0" test $? -eq 0
check "--help prints usage" grep -q '^Usage: springball' "$out"
"$SPRINGBALL" --version >"$out"
check "--version" grep -q '^springball [0-9]' "$out"

# overrides reach the output
"$SPRINGBALL" -H -k 7.5 --dt 0.125 scenes/headon.scene >"$out"
check "-k override" grep -qx 'k 7.5' "$out"
check "--dt override" grep -qx 'dt 0.125' "$out"
# -T stops as soon as t >= T, and t is exact: t = steps * dt (rounded
# once), so 0.05 * 3 = 0.15000000000000002 >= 0.15 after 3 steps, and -T 50
# at dt 0.05 is 1000 steps, -T 500 10000 (adding dt up ran 1001 and 10001).
"$SPRINGBALL" -H -T 0.15 --stats scenes/headon.scene 2>"$err" >/dev/null
check "-T loop while t < T" grep -q 'steps=3 ' "$err"
"$SPRINGBALL" -H -n 7 --stats scenes/headon.scene 2>"$err" >/dev/null
check "-n steps" grep -q '^t=0.35000000000000003 steps=7 ' "$err"
"$SPRINGBALL" -H -T 50 --stats scenes/headon.scene 2>"$err" >/dev/null
check "-T 50 at dt 0.05: exactly 1000 steps" grep -q '^t=50 steps=1000 ' "$err"
"$SPRINGBALL" -H -T 500 --stats scenes/headon.scene 2>"$err" >/dev/null
check "-T 500 at dt 0.05: exactly 10000 steps" grep -q '^t=500 steps=10000 ' "$err"
"$SPRINGBALL" -H -T 1000 --dt 0.1 --stats scenes/gas.scene 2>"$err" >/dev/null
check "-T 1000 at dt 0.1: exactly 10000 steps" grep -q '^t=1000 steps=10000 ' "$err"
"$SPRINGBALL" -H -T 50.01 --stats scenes/headon.scene 2>"$err" >/dev/null
check "-T 50.01 at dt 0.05: 1001 steps" grep -q '^t=50.050000000000004 steps=1001 ' "$err"
# -n is for headless runs and exports; the terminal pauses at -T
expect_fail 2 "springball: -n counts the steps of a headless run or an export: add -H (in the terminal, -T pauses at a time)" \
    "$SPRINGBALL" -n 5 scenes/headon.scene
expect_fail 2 "springball: -n counts the steps of a headless run or an export: add -H (in the terminal, -T pauses at a time)" \
    "$SPRINGBALL" --snapshot -n 5 scenes/headon.scene

# odd values and combinations (tests/fuzz, issue of bad input)
expect_fail 2 "springball: --steps: '99999999999999999999' is too large" "$SPRINGBALL" -H --steps 99999999999999999999
expect_fail 2 "springball: --steps: '' is not a whole number" "$SPRINGBALL" -H --steps ''
expect_fail 2 "springball: --dt: '' is not a finite number" "$SPRINGBALL" -H --dt ''
expect_fail 2 "springball: --stiffness: '-0' must be > 0" "$SPRINGBALL" -H -k -0
expect_fail 2 "springball: --fps: '0.001' must be >= 0.01" "$SPRINGBALL" --fps 0.001
expect_fail 2 "springball: --duration: '1e7' must be <= 1e6 (seconds)" "$SPRINGBALL" --duration 1e7
expect_fail 2 "springball: the scene file name is empty" "$SPRINGBALL" -H ''
expect_fail 2 "/dev/null:1: no balls (a scene needs a ball, rack or random line)" "$SPRINGBALL" -H /dev/null
expect_fail 2 "springball: unknown option '--bogus'" "$SPRINGBALL" scenes/headon.scene --bogus
# a state that becomes non-finite: nothing on stdout, the first bad step, status 1
expect_fail 1 "springball: the state became non-finite at step 755 (t = 37.75): dt is too large for k" "$SPRINGBALL" -H -k 1e300 -T 100 scenes/break.scene
expect_fail 1 "springball: the state became non-finite at step 755 (t = 37.75): dt is too large for k" "$SPRINGBALL" -H -k 1e300 -n 755 scenes/break.scene
expect_fail 1 "springball: the forces overflow at step 1 (t = 0.05): the scene's sizes or strengths are beyond the range of double (no dt helps)" sh -c "printf 'gravity 1e300\nball 1 1 0 0 1e300 1\nball 20 20 0 0 1e300 1\n' | \"$SPRINGBALL\" -H -n 1000 -"
"$SPRINGBALL" -H -k 1e300 -n 754 scenes/break.scene >"$out" 2>"$err"
check "non-finite: the step before is printed" test $? -eq 0 -a -s "$out" -a ! -s "$err"
ref=$(mktemp)
tmp=$(mktemp)
trap 'rm -f "$out" "$err" "$ref" "$tmp"' EXIT
"$SPRINGBALL" -H -n 3 scenes/headon.scene >"$ref"
# options after the scene, and -- before it
"$SPRINGBALL" scenes/headon.scene -H -n 3 >"$out"
check "options after the scene" cmp -s "$ref" "$out"
"$SPRINGBALL" -H -n 3 -- scenes/headon.scene >"$out"
check "-- ends the options" cmp -s "$ref" "$out"
# CRLF line endings and a UTF-8 byte order mark read as the plain file
sed 's/$/\r/' scenes/headon.scene >"$tmp"
"$SPRINGBALL" -H -n 3 "$tmp" >"$out"
check "CRLF scene" cmp -s "$ref" "$out"
printf '\357\273\277' | cat - scenes/headon.scene >"$tmp"
"$SPRINGBALL" -H -n 3 "$tmp" >"$out"
check "BOM scene" cmp -s "$ref" "$out"
printf '\357\273\277' | cat - tests/particles/p10.txt >"$tmp"
"$SPRINGBALL" -H -n 0 "$tmp" >"$out"
"$SPRINGBALL" -H -n 0 tests/particles/p10.txt >"$ref"
check "BOM particles" cmp -s "$ref" "$out"
: >"$tmp"
expect_fail 2 "$tmp:1: no balls (a scene needs a ball, rack or random line)" "$SPRINGBALL" -H "$tmp"
# a denormal dt and -T -0 are legitimate: the output reads back unchanged
"$SPRINGBALL" -H --dt 1e-320 -n 10 scenes/headon.scene >"$tmp"
"$SPRINGBALL" -H "$tmp" >"$out"
check "denormal dt round trip" cmp -s "$tmp" "$out"
# a line of 10^6 bytes (a title) is read and written back whole
{ printf 'title '; head -c 1000000 /dev/zero | tr '\0' a; printf '\nball 1 1 0 0 1 1\n'; } >"$tmp"
"$SPRINGBALL" -H "$tmp" >"$out"
check "a huge line" test "$(head -n 1 "$out" | wc -c)" -eq 1000007
"$SPRINGBALL" -H -T -0 --stats scenes/headon.scene 2>"$err" >/dev/null
check "-T -0 runs no step" grep -q '^t=0 steps=0 ' "$err"
# the event engine refuses what it does not model
expect_fail 2 "springball: event engine: cannot simulate open space (use --engine=spring)" "$SPRINGBALL" -H --engine=event -T 1 scenes/planets.txt
expect_fail 2 "springball: event engine: cannot simulate gravity (use --engine=spring)" "$SPRINGBALL" -H --engine=event -T 1 scenes/gravity.scene
expect_fail 2 "springball: event engine: cannot simulate contact exp (use --engine=spring)" "$SPRINGBALL" -H --engine=event -T 1 scenes/softexp.scene
# A particle file of 5000 balls (issue 10): from 4096 balls on the core
# keeps them in cell order, yet every row comes back as its own ball (its
# mass and colour), in the file's order, after steps.
awk 'BEGIN { n = 5000; print n; s = 11
    for (i = 0; i < n; i++) { s = (s * 16807) % 2147483647; x = s / 2147483647
        s = (s * 16807) % 2147483647; y = s / 2147483647
        printf "%.6f %.6f 0.1 -0.2 0.003 %d %d %d %d\n", 0.005 + 0.99 * x, 0.005 + 0.99 * y, i + 1, i % 256, int(i / 256), 7 } }' >"$tmp"
"$SPRINGBALL" -H -n 3 "$tmp" >"$out" 2>"$err"
check "5000 particles: status 0" test $? -eq 0 -a ! -s "$err"
check "5000 particles: rows in order, colours kept" sh -c "awk 'NR > 1 && (\$6 != NR - 1 || \$7 != (NR - 2) % 256 || \$8 != int((NR - 2) / 256)) { bad = 1 } END { exit bad || NR != 5001 }' '$out'"
# Extreme sizes cost what normal ones do (issue 11): cells sized without
# overflow. Before: 60 s to place 100000 balls of radius 1e-200, 4.5 s for
# 40000 on a 1e200 table, 20 s for 100 steps of 20000 there (now well under
# a second each). The bound is generous: a failure here means O(N^2).
printf 'random 100000 1e-200 1 1 1\n' >"$tmp"
check "random: 100000 balls of radius 1e-200 placed in bounded time" sh -c "timeout 30 '$SPRINGBALL' -H '$tmp' >/dev/null"
printf 'table 1e200 1e200\nrandom 40000 1 1 1 1\n' >"$tmp"
check "random: 40000 balls on a 1e200 table in bounded time" sh -c "timeout 30 '$SPRINGBALL' -H '$tmp' >/dev/null"
printf 'table 1e200 1e200\nrandom 20000 1e-200 1 1 1\n' >"$tmp"
check "grid: 100 steps of 20000 balls of 1e-200 on a 1e200 table in bounded time" sh -c "timeout 30 '$SPRINGBALL' -H -n 100 '$tmp' >/dev/null"

# No silent O(N^2) when memory is short (issue 11): under a falling limit on
# memory, 100000 balls either run, or stop at once with "out of memory" and
# status 1. Before, the step fell back to all pairs (a minute a step). A
# sanitizer build cannot run under a memory limit: skipped there.
printf 'table 2100 2100\nrandom 100000 1 1 1 1\n' >"$tmp"
if (ulimit -v 400000 && "$SPRINGBALL" --version) >/dev/null 2>&1; then
    v=48000 grid_hit=0 sweep_ok=1
    while [ $v -ge 16000 ]; do
        (ulimit -v $v; timeout 20 "$SPRINGBALL" -H -n 2 "$tmp") >/dev/null 2>"$err"
        rc=$?
        if [ $rc -ne 0 ]; then
            if [ $rc -ne 1 ] || ! grep -q '^springball: out of memory' "$err"; then
                sweep_ok=0
                echo "under ulimit -v $v: status $rc, $(head -c 200 "$err")"
            fi
            grep -q 'contact grid' "$err" && grid_hit=1
            [ $grid_hit = 1 ] && break
        fi
        v=$((v - 1000))
    done
    check "memory limits: a run or a prompt 'out of memory', never a crawl" test $sweep_ok = 1
    check "memory limits: the grid's own failure was reached" test $grid_hit = 1
else
    echo "cli.sh: skipping the memory-limit runs (a sanitizer build)"
fi
# Every printed state reads back (issue 11): a ball driven through a spring
# wall, on a rectangle, a round table, and in a particle file.
for s in 'ball 780 200 20 0 1 5' 'table circle 200\nball 380 200 20 0 1 5'; do
    printf "$s\n" | "$SPRINGBALL" -H -n 30 - >"$out"
    "$SPRINGBALL" -H - <"$out" >"$err" 2>&1
    check "printed state reads back: $s" cmp -s "$out" "$err"
done
printf '2\n0.98 0.5 3 0 0.01 1 255 0 0\n0.5 0.5 0 0 0.01 1 0 0 255\n' | "$SPRINGBALL" -H -k 1 --dt 0.001 -n 30 - >"$out"
"$SPRINGBALL" -H -k 1 --dt 0.001 - <"$out" >"$err" 2>&1
check "printed particles read back" cmp -s "$out" "$err"
# A NUL byte ends the reading (issue 11: /dev/zero was read to 4.2 GB).
expect_fail 2 "/dev/zero:1: NUL byte in the scene" timeout 10 "$SPRINGBALL" -H /dev/zero
# A FIFO or a pipe is opened once and sniffed from the bytes read (issue 43:
# the format's sniffing read, closed and opened again: a FIFO hung on the
# second open, a pipe said "no balls").
rm -f "$tmp.fifo" && mkfifo "$tmp.fifo"
(printf 'ball 100 100 1 0 1 5\n' >"$tmp.fifo" &)
timeout 10 "$SPRINGBALL" -H "$tmp.fifo" >"$out" 2>"$err"
check "a scene from a FIFO: status 0" [ $? -eq 0 ]
check "a scene from a FIFO: its ball" grep -qx 'ball 100 100 1 0 1 5' "$out"
rm -f "$tmp.fifo"
printf 'ball 100 100 1 0 1 5\n' | timeout 10 "$SPRINGBALL" -H /dev/stdin >"$out" 2>"$err"
check "a scene from a pipe by name: its ball" grep -qx 'ball 100 100 1 0 1 5' "$out"
printf '1\nLattice="10 0 0 0 10 0 0 0 1" Properties=species:S:1:pos:R:3\nX 1 1 0\n' >"$tmp.xyz"
expect_fail 2 "/dev/stdin:0: a recorded run is read from a regular file, not a pipe or standard input" \
    sh -c 'cat "$1" | "$0" -H /dev/stdin' "$SPRINGBALL" "$tmp.xyz"
expect_fail 2 "/dev/stdin:0: a recorded run is read from a regular file, not a pipe or a device" \
    sh -c 'cat "$1" | "$0" -H --format=xyz /dev/stdin' "$SPRINGBALL" "$tmp.xyz"
rm -f "$tmp.xyz"
# A write error is a failure, even for --help and --version (issue 11).
if [ -w /dev/full ]; then
    "$SPRINGBALL" --help >/dev/full 2>"$err"
    check "--help > /dev/full: status 1" test $? -eq 1
    check "--help > /dev/full: says so" grep -q '^springball: write error' "$err"
    "$SPRINGBALL" --version >/dev/full 2>"$err"
    check "--version > /dev/full: status 1" test $? -eq 1
fi
# Out of memory while parsing is a failure at run time: status 1, not 2
# (issue 11). Not under a sanitizer, which cannot run with a memory limit.
if (ulimit -v 400000 && "$SPRINGBALL" --version) >/dev/null 2>&1; then
    printf 'random 5000000 0.1 1 1 1\n' >"$tmp"
    expect_fail 1 "$tmp:1: out of memory" sh -c "ulimit -v 100000; exec \"$SPRINGBALL\" -H '$tmp'"
    expect_fail 1 "<stdin>:0: cannot read: Cannot allocate memory" sh -c "yes 'ball 1 1 0 0 1 1' | head -c 80000000 | (ulimit -v 30000; exec \"$SPRINGBALL\" -H -)"
fi
# Messages that say what is wrong (issue 11).
overflow="the scene's sizes or strengths are beyond the range of double (no dt helps)"
expect_fail 1 "springball: the forces overflow at step 1 (t = 0.05): $overflow" sh -c "printf 'ball 100 100 1 0 1 1e308\n' | \"$SPRINGBALL\" -H -n 10 -"
expect_fail 1 "springball: the forces overflow at step 27 (t = 1.35): $overflow" sh -c "printf 'contact exp 1e-300 1e300\nball 100 100 1 0 1 10\nball 125 100 -3 0 1 10\n' | \"$SPRINGBALL\" -H -n 100 -"
expect_fail 2 "<stdin>:1: particle count must be between 1 and 268435455" sh -c "printf '1234567890123456789\n0.5 0.5 0 0 0.1 1 0 0 0\n' | \"$SPRINGBALL\" -H -"
expect_fail 2 "springball: option '--st' is ambiguous: --steps, --stiffness, --stats, --step" "$SPRINGBALL" -H --st 3
expect_fail 2 "springball: option '--headless' takes no value" "$SPRINGBALL" --headless=1
expect_fail 2 "<stdin>:1: unknown directive '<U+FEFF>table'" sh -c "printf '\357\273\277\357\273\277table 800 400\n' | \"$SPRINGBALL\" -H -"
expect_fail 2 "<stdin>:2: colour '#12345g' is not #rrggbb (six hex digits)" sh -c "printf 'k 5\nball 100 100 0 0 1 5 #12345g\n' | \"$SPRINGBALL\" -H -"
printf 'table 800 400\rball 100 100 0 0 1 5\rball 200 100 0 0 1 5 red\r' | "$SPRINGBALL" -H - >"$out" 2>"$err"
check "CR-only line ends read as lines" grep -qx 'ball 200 100 0 0 1 5 red' "$out"
printf 'table 800 400\r\nball 100 100 0 0 1 5\r\n' | "$SPRINGBALL" -H - >"$out" 2>"$err"
check "CR LF line ends still read" grep -qx 'ball 100 100 0 0 1 5' "$out"
# The layering (issue 10): the broad phase knows nothing of the simulation.
# grid.c and grid_build.c compile with grid.h, grid_impl.h, the allocator's
# mem.h and the C library alone.
mkdir -p "$tmp.d" && cp src/core/grid.h src/core/grid_impl.h src/core/mem.h src/core/grid.c \
    src/core/grid_build.c "$tmp.d/"
check "grid.c compiles without sim.h" ${CC:-cc} -std=c11 -fsyntax-only "$tmp.d/grid.c"
check "grid_build.c compiles without sim.h" ${CC:-cc} -std=c11 -fsyntax-only "$tmp.d/grid_build.c"
rm -rf "$tmp.d"
# No circle between sim and contact (issue 28): the contact laws compile with
# contact.h, the parameters' types.h and the C library alone.
mkdir -p "$tmp.d" && cp src/core/contact.h src/core/types.h src/core/contact.c "$tmp.d/"
check "contact.c compiles without sim.h" ${CC:-cc} -std=c11 -fsyntax-only "$tmp.d/contact.c"
rm -rf "$tmp.d"
summary
