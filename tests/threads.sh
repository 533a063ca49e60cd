#!/bin/sh
# threads.sh - --threads: a spring step split over N threads (split.h, the
# core's step_split) prints the bytes of one thread's run, for N = 2, 3 and
# 4 on scenes large enough to cut into that many parts (equal discs, the
# benchmark's dense regime, unequal radii with walls, 10^5 balls), with
# the step split from any size (SPRINGBALL_SPLIT=1) and by the default
# rule; --stats says how many threads ran; bad counts are usage errors.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
scratch
out=$tmpd/out err=$tmpd/err

# scene NAME SIDE_W SIDE_H K DT LINE...: a scene file $tmpd/NAME.scene
scene() {
    sn=$1 w=$2 h=$3 k=$4 dt=$5
    shift 5
    { printf 'table %s %s\nk %s\ndt %s\n' "$w" "$h" "$k" "$dt"; printf '%s\n' "$@"; } \
        >"$tmpd/$sn.scene"
}
scene gas 400 400 5 0.05 'random 15000 1 1 1 7'
scene dense 180 180 1000 0.002 'random 5000 1 1 1 3'
scene mixed 700 250 5 0.05 'random 20 8 50 0.5 13' 'random 6000 0.5 1 2 11' 'random 3000 1.5 2 1 12'

# same NAME STEPS ARGS...: --threads=2..4 print the bytes of --threads=1
same() {
    sc=$1 steps=$2
    shift 2
    "$SPRINGBALL" -H -n "$steps" --threads=1 --stats "$@" "$tmpd/$sc.scene" \
        >"$tmpd/one" 2>"$tmpd/one.err" || bad "$sc: --threads=1 failed"
    if grep -q 'threads=' "$tmpd/one.err"; then bad "$sc: --threads=1 says threads="; else ok; fi
    for n in 2 3 4; do
        SPRINGBALL_SPLIT=1 "$SPRINGBALL" -H -n "$steps" --threads=$n --stats "$@" \
            "$tmpd/$sc.scene" >"$out" 2>"$err" || bad "$sc: --threads=$n failed"
        check "$sc: --threads=$n prints the bytes of one thread" cmp -s "$tmpd/one" "$out"
        # the --stats line is one thread's with threads=N after it
        check "$sc: --threads=$n --stats" \
            test "$(cat "$err")" = "$(cat "$tmpd/one.err") threads=$n"
    done
}
same gas 300
same dense 400
same mixed 300
# T rather than N: the same rule, the same steps
"$SPRINGBALL" -H -T 7.5 --threads=1 "$tmpd/gas.scene" >"$tmpd/one"
SPRINGBALL_SPLIT=1 "$SPRINGBALL" -H -T 7.5 --threads=3 "$tmpd/gas.scene" >"$out"
check "gas -T: --threads=3 prints the bytes of one thread" cmp -s "$tmpd/one" "$out"

# 10^5 balls, 200 steps: two threads by the default rule, the same bytes
scene big 1023 1023 5 0.05 'random 100000 1 1 1 7'
"$SPRINGBALL" -H -n 200 --threads=1 "$tmpd/big.scene" >"$tmpd/one"
"$SPRINGBALL" -H -n 200 --threads=2 --stats "$tmpd/big.scene" >"$out" 2>"$err"
check "10^5 balls: --threads=2 prints the bytes of --threads=1" cmp -s "$tmpd/one" "$out"
check "10^5 balls: --threads=2 ran on two" grep -q ' threads=2$' "$err"

# below the default size no step splits; SPRINGBALL_SPLIT=0 never
"$SPRINGBALL" -H -n 5 --threads=4 --stats "$tmpd/dense.scene" >/dev/null 2>"$err"
check "5000 balls: one thread by default" not grep -q 'threads=' "$err"
SPRINGBALL_SPLIT=0 "$SPRINGBALL" -H -n 5 --threads=4 --stats "$tmpd/big.scene" >/dev/null 2>"$err"
check "SPRINGBALL_SPLIT=0: one thread" not grep -q 'threads=' "$err"
# --no-thread: one thread headless too, whatever --threads and
# SPRINGBALL_SPLIT say (man: --no-thread, SPRINGBALL_SPLIT)
SPRINGBALL_SPLIT=1 "$SPRINGBALL" -H -n 5 --threads=4 --no-thread --stats "$tmpd/dense.scene" \
    >/dev/null 2>"$err"
check "--no-thread: one thread headless" not grep -q 'threads=' "$err"
# the event engine and the general path step in one thread
SPRINGBALL_SPLIT=1 "$SPRINGBALL" -H -n 5 --threads=4 --stats --engine=event \
    "$tmpd/dense.scene" >/dev/null 2>"$err"
check "event engine: no threads=" not grep -q 'threads=' "$err"

for v in 0 257; do
    expect_fail 2 "springball: --threads: '$v' must be 1 to 256" \
        "$SPRINGBALL" -H -n 1 --threads="$v"
done
for v in -1 2x '' ' 2'; do
    expect_fail 2 "springball: --threads: '$v' is not a whole number" \
        "$SPRINGBALL" -H -n 1 --threads="$v"
done
summary
