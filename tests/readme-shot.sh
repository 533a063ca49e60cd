#!/bin/sh
# readme-shot.sh - the README's pictures, made by the program (--snapshot, no
# colour, escapes stripped): "main", the break at t = 60 with the values panel
# and the energy plot; "arrows", the unequal masses' velocity and momentum
# arrows after the contact; "pdiag", their momentum diagram before the contact
# and after it. With -u it replaces the block between each "<!-- shot NAME -->"
# (for main: "<!-- shot -->") and the next "<!-- /shot -->" line of the README
# (make readme-shot); with a NAME it prints that shot; without, the main one.
cd "$(dirname "$0")/.." || exit 1
SPRINGBALL=${SPRINGBALL:-./springball}
SHOTS="main arrows pdiag"
shot() {
    case $1 in
    main) set -- 88x30 'i P <t 60>' ;;
    arrows) set -- 60x16 'v p <t 30>' scenes/unequal.scene ;;
    pdiag) set -- 72x18 'P P P P <t 20> <t 10>' scenes/unequal.scene ;;
    *) echo "readme-shot.sh: no shot '$1' (one of: $SHOTS)" >&2; return 2 ;;
    esac
    echo '```text'
    "$SPRINGBALL" --snapshot="$1" --no-color --keys="$2" ${3:+"$3"} </dev/null |
        sed -e 's/\x1b\[[0-9;]*m//g' -e 's/[[:space:]]*$//' || return 1
    echo '```'
}
if [ "${1:-}" = -u ]; then
    tmp=$(mktemp) || exit 1
    for s in $SHOTS; do
        mark="<!-- shot $s -->"
        [ "$s" = main ] && mark="<!-- shot -->"
        shot "$s" >"$tmp.shot" &&
            awk -v f="$tmp.shot" -v mark="$mark" '
                $0 == "<!-- /shot -->" {skip = 0}
                !skip {print}
                $0 == mark {while ((getline l < f) > 0) print l; skip = 1; n++}
                END {if (n != 1) exit 1}' README.md >"$tmp" &&
            cat "$tmp" >README.md || { echo "readme-shot.sh: README.md has no single '$mark'" >&2; rm -f "$tmp" "$tmp.shot"; exit 1; }
    done
    rm -f "$tmp" "$tmp.shot"
    exit 0
fi
shot "${1:-main}"
