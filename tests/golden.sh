#!/bin/sh
# golden.sh - headless runs compared byte for byte with tests/golden/*.out,
# with --threads=1, and again with --threads=2, 3 and 4 with every step
# that can split split (SPRINGBALL_SPLIT=1): the same bytes, but for the
# --stats line's threads= field, which says how many ran.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.2"' EXIT
grep -v '^#' tests/golden/cases | while read -r name args; do
    [ -n "$name" ] || continue
    eval "\"$SPRINGBALL\" --threads=1 $args" >"$tmp" 2>&1
    if [ -n "${UPDATE:-}" ]; then
        cp "$tmp" "tests/golden/$name.out"
    fi
    if cmp -s "$tmp" "tests/golden/$name.out"; then
        echo "ok $name"
    else
        echo "FAIL golden $name: output differs from tests/golden/$name.out:"
        diff "tests/golden/$name.out" "$tmp" | head -n 10
    fi
    for n in 2 3 4; do
        eval "SPRINGBALL_SPLIT=1 \"$SPRINGBALL\" --threads=$n $args" 2>&1 |
            sed 's/ threads=[0-9]*$//' >"$tmp"
        if cmp -s "$tmp" "tests/golden/$name.out"; then
            echo "ok $name --threads=$n"
        else
            echo "FAIL golden $name --threads=$n: output differs from tests/golden/$name.out:"
            diff "tests/golden/$name.out" "$tmp" | head -n 10
        fi
    done
done >"$tmp.2"
cat "$tmp.2"
npass=$(grep -c '^ok ' "$tmp.2")
nfail=$(grep -c '^FAIL' "$tmp.2")

# The built-in scene is scenes/break.scene.
check "break = break-file" cmp -s tests/golden/break.out tests/golden/break-file.out

# Round trip: printing a printed scene changes nothing.
for f in scenes/*.scene; do
    "$SPRINGBALL" -H -T 3 "$f" >"$tmp"
    if "$SPRINGBALL" -H "$tmp" | cmp -s - "$tmp"; then ok; else bad "round trip of $f"; fi
done
summary
