#!/bin/sh
# readme-shot.sh - the README's screenshot, made by the program: the break at
# t = 60 with the values panel and the energy plot (--snapshot, no colour,
# escapes stripped). With -u it replaces the block between the README's
# "<!-- shot -->" and "<!-- /shot -->" lines (make readme-shot); without, it
# prints the shot.
cd "$(dirname "$0")/.." || exit 1
SPRINGBALL=${SPRINGBALL:-./springball}
shot() {
    echo '```text'
    "$SPRINGBALL" --snapshot=88x30 --no-color --keys='i P <t 60>' </dev/null |
        sed -e 's/\x1b\[[0-9;]*m//g' -e 's/[[:space:]]*$//' || return 1
    echo '```'
}
if [ "${1:-}" = -u ]; then
    tmp=$(mktemp) || exit 1
    shot >"$tmp.shot" || { rm -f "$tmp" "$tmp.shot"; exit 1; }
    awk -v f="$tmp.shot" '
        /^<!-- \/shot -->$/ {skip = 0}
        !skip {print}
        /^<!-- shot -->$/ {while ((getline l < f) > 0) print l; skip = 1; n++}
        END {if (n != 1) exit 1}' README.md >"$tmp" &&
        cat "$tmp" >README.md
    rc=$?
    rm -f "$tmp" "$tmp.shot"
    exit $rc
fi
shot
