#!/bin/sh
# look.sh - what the table looks like, read from --snapshot: colours
# readable on dark and light backgrounds, unique body labels, balls in
# ASCII, big scenes as a density (issue 12: defects 9 and 10, big scenes).
# Each check failed before the change it guards.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
scratch
export LC_ALL=C.UTF-8
unset NO_COLOR COLORFGBG
# table ARGS...: the rows between the title and the status line, no colour
table() { "$SB" --snapshot --no-color "$@" | sed '1d;$d'; }

# --- defect 9: labels unique, equal bodies alike ---
table --snapshot=100x32 scenes/planets.txt >"$tmpd/pl"
check "planets: Mercury is Me" grep -q 'Me' "$tmpd/pl"
check "planets: Mars is Ma" grep -q 'Ma' "$tmpd/pl"
check "planets: the sun is the one star" [ "$(grep -o '✶' "$tmpd/pl" | wc -l)" = 1 ]
check "planets in ASCII: the star is *" sh -c '"$0" --snapshot=100x32 --no-color --ascii scenes/planets.txt | sed "1d;\$d" | grep -q "[*]"' "$SB"
table scenes/figure8.txt >"$tmpd/f8"
check "figure8: three equal stars are A, B, C" \
    [ "$(grep -o '[A-Z✶*]' "$tmpd/f8" | sort | tr -d '\n')" = ABC ]
table --snapshot=100x32 tests/universes/kaleidoscope.txt | grep -o '[A-Z✶#][a-z0-9]*' >"$tmpd/k"
check "kaleidoscope: 25 labels" [ "$(wc -l <"$tmpd/k")" = 25 ]
check "kaleidoscope: no label twice" [ -z "$(sort "$tmpd/k" | uniq -d)" ]

# --- defect 10: every ball colour has 3:1 on #282828 and on #eeeeee ---
# contrast N: the lower of the two WCAG ratios of xterm colour N (16..255)
contrast() {
    awk -v n="$1" 'function lin(c) { c /= 255; return c <= 0.04045 ? c / 12.92 : exp(2.4 * log((c + 0.055) / 1.055)) }
    function lum(r, g, b) { return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b) }
    BEGIN {
        split("0 95 135 175 215 255", lv, " ")
        if (n < 16) { print 0; exit }
        if (n < 232) { m = n - 16; r = lv[int(m / 36) + 1]; g = lv[int(m / 6) % 6 + 1]; b = lv[m % 6 + 1] }
        else r = g = b = 8 + 10 * (n - 232)
        l = lum(r, g, b); d = lum(40, 40, 40); w = lum(238, 238, 238)
        a = (l + 0.05) / (d + 0.05); c = (w + 0.05) / (l + 0.05)
        printf "%.2f\n", a < c ? a : c
    }'
}
for scene in "" scenes/headon.scene scenes/cradle.scene scenes/inelastic.scene scenes/round.scene; do
    # shellcheck disable=SC2086
    "$SB" --snapshot $scene | sed '1d;$d' | grep -o "$(printf '\033')\[0;38;5;[0-9]*m" |
        sed 's/.*;//; s/m$//' | sort -un >"$tmpd/colors"
    for n in $(cat "$tmpd/colors"); do
        c=$(contrast "$n")
        check "${scene:-break}: colour $n has $c:1 on both" awk -v c="$c" 'BEGIN { exit !(c >= 3) }'
    done
done
check "headon: pure blue is not drawn" sh -c '! "$0" --snapshot scenes/headon.scene | grep -q "38;5;21m"' "$SB"
check "the break: at least 6 ball colours" [ "$("$SB" --snapshot | sed '1d;$d' | grep -o "38;5;[0-9]*m" | sort -u | wc -l)" -ge 6 ]

# --- defect 10 in ASCII: the head-on ball is round, the rack all there ---
table --ascii scenes/headon.scene >"$tmpd/h"
check "headon in ASCII: a round top" grep -q "\.@@@\." "$tmpd/h"
check "headon in ASCII: a round bottom" grep -q "'@@@'" "$tmpd/h"
check "headon in ASCII: no row of only @" sh -c '! grep -qE " @+ " "$0"' "$tmpd/h"
for size in 80x24 60x20 100x32; do
    check "the break in ASCII at $size: 16 balls, each in its own cell" \
        [ "$(table --snapshot=$size --ascii | tr -cd 'O' | wc -c)" = 16 ]
done
# touching balls in braille, no colour: the rack's 15 balls keep free dots
# between them, so no cell of the rack is all eight dots
check "the break: touching balls do not merge" sh -c '! "$0" --snapshot=100x32 --no-color | grep -q "⣿⣿⣿"' "$SB"

# --- big scenes: 10^5 balls smaller than a dot are a density ---
printf 'table 800 400\nrandom 100000 0.319154 1 8 7\n' >"$tmpd/gas.scene"
table --snapshot=200x60 "$tmpd/gas.scene" >"$tmpd/gas"
full=$(grep -o '⣿' "$tmpd/gas" | wc -l)
one=$(grep -o '⠁' "$tmpd/gas" | wc -l)
check "gas of 10^5: not a wall of full cells ($full)" [ "$full" -lt 50 ]
check "gas of 10^5: a density of one dot a cell mostly ($one)" [ "$one" -gt 5000 ]

summary
