#!/bin/sh
# golden.sh - headless runs compared byte for byte with tests/golden/*.out.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.2"' EXIT
grep -v '^#' tests/golden/cases | while read -r name args; do
    [ -n "$name" ] || continue
    eval "\"$SPRINGBALL\" $args" >"$tmp" 2>&1
    if [ -n "${UPDATE:-}" ]; then
        cp "$tmp" "tests/golden/$name.out"
    fi
    if cmp -s "$tmp" "tests/golden/$name.out"; then
        echo "ok $name"
    else
        echo "FAIL golden $name: output differs from tests/golden/$name.out:"
        diff "tests/golden/$name.out" "$tmp" | head -n 10
    fi
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
