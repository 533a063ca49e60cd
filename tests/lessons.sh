#!/bin/sh
# lessons.sh - lessons (springball(1), LESSONS): the malformed lessons of
# tests/lessons (each names its expected "[FILE ]LINE: message" on its first
# line: FILE when the fault is in the scene file the lesson reads), and the
# shipped lessons of scenes/lessons, each loaded.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

for f in tests/lessons/bad-*.lesson; do
    spec=$(head -n 1 "$f" | sed -n 's/^# expect \(.*\)$/\1/p')
    where=$f
    case $spec in
        [0-9]*) ;;
        *) where=tests/lessons/${spec%% *}; spec=${spec#* } ;;
    esac
    line=${spec%%:*}
    msg=${spec#*: }
    # --format=lesson: a file whose first line is not 'lesson' is still one
    expect_fail 2 "$where:$line: $msg" "$SPRINGBALL" -H --format=lesson "$f"
done
# detected: the same message without --format
expect_fail 2 "tests/lessons/bad-ask.lesson:6: ask: vx needs a ball number" \
    "$SPRINGBALL" -H tests/lessons/bad-ask.lesson
# through standard input, `scene FILE` is relative to the working directory
expect_fail 2 "<stdin>:3: scene: cannot read no-such.scene: No such file or directory" \
    sh -c "\"$SPRINGBALL\" -H - < tests/lessons/bad-missing.lesson"
"$SPRINGBALL" --help >"$out" 2>&1
check "--help names the lesson format" grep -q "lesson (lesson TITLE, a scene, then steps)" "$out"

# every shipped lesson loads, as its scene, and has 5 to 10 steps
n=0
for f in scenes/lessons/*.lesson; do
    n=$((n + 1))
    if "$SPRINGBALL" -H -n 0 "$f" >"$out" 2>"$err" && grep -q '^ball ' "$out"; then ok; else
        bad "$f does not load: $(head -n 1 "$err")"; fi
    steps=$(grep -c '^step ' "$f")
    check "$f: 5 to 10 steps ($steps)" test "$steps" -ge 5 -a "$steps" -le 10
done
check "five lessons shipped ($n)" test "$n" -ge 5
# the scene of a lesson is what its lines say (momentum.lesson: dt 0.01, two balls)
"$SPRINGBALL" -H -n 0 scenes/lessons/momentum.lesson >"$out" 2>"$err"
check "momentum.lesson: dt 0.01" grep -qx 'dt 0.01' "$out"
check "momentum.lesson: two balls" test "$(grep -c '^ball ' "$out")" -eq 2

summary
