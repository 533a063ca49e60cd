#!/bin/sh
# docs.sh - the man page is the reference: every long option that
# `springball --help` prints, every key of the terminal's key tables
# (src/front/front_keys.c: the one key table, bindings) and every scene directive (src/io/scene.c:
# directives) appears in man/springball.1, and the other way round: every
# option the page names, every key of its KEYS section and every directive
# of its SCENE FORMAT section is one the program has; README.md's
# screenshot is current. Each failure names what is missing.
# MAN and TUI_SRC, SCENE_SRC may point elsewhere (the suite's own check does).
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
MAN=${MAN:-man/springball.1}
TUI_SRC=${TUI_SRC:-src/front/front_keys.c}
SCENE_SRC=${SCENE_SRC:-src/io/scene.c}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The man page as words: font escapes out, \- as -, quotes out.
plain() { sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' -e 's/\\(>=/>=/g' -e 's/"//g' "$1"; }

# 1. options: each --name of the help, as \-\-name in the page
"$SPRINGBALL" --help >"$tmp/help" 2>&1
check "--help prints options" grep -q -- '--headless' "$tmp/help"
grep -o -- '--[a-z][a-z0-9-]*' "$tmp/help" | sort -u >"$tmp/opts"
plain "$MAN" >"$tmp/man"
while read -r o; do
    if grep -q -- "$o\\([^a-z0-9-]\\|\$\\)" "$tmp/man"; then ok; else bad "option $o is not in $MAN"; fi
done <"$tmp/opts"

# 2. keys: each word of each label of the key tables, among the tags (the
# line after .TP) of the KEYS section, up to LIVE EDITS
sed -n '/^\.SH KEYS/,/^\.SH LIVE EDITS/p' "$MAN" |
    awk 'prev == ".TP" {print} {prev = $0}' >"$tmp/tags.roff"
plain "$tmp/tags.roff" | sed -e 's/^\.B[IR]* //' -e 's/, / /g' -e 's/ \/ / /g' |
    tr ' ' '\n' | sed '/^$/d' | sort -u >"$tmp/tags"
check "the KEYS section has tags" test -s "$tmp/tags"
sed -n 's/^ *{[^"]*, [A-Za-z_]*, "\([^"]*\)", ".*/\1/p' "$TUI_SRC" | grep -v "actions_replay_refuse" |
    tr ' ' '\n' | sed '/^$/d' | sort -u >"$tmp/keys"
check "the key tables have labels" test "$(wc -l <"$tmp/keys")" -gt 20
while read -r k; do
    case $k in
        arrows) w=arrow ;;
        C-l) w=Ctrl-L ;;
        click) w=click ;;
        *) w=$k ;;
    esac
    case $w in
        ?) grep -qxF -- "$w" "$tmp/tags" ;;
        *) grep -qixF -- "$w" "$tmp/tags" ;;
    esac
    if [ $? -eq 0 ]; then ok; else bad "key '$k' ($TUI_SRC) is not a tag of the KEYS section of $MAN"; fi
done <"$tmp/keys"

# 3. directives: each name of the table, as a bold word in SCENE FORMAT
sed -n '/^static const struct directive directives\[D_COUNT\] = {/,/^};/p' "$SCENE_SRC" |
    sed -n 's/.*= {"\([a-z]*\)".*/\1/p' >"$tmp/dirs"
check "the directive table has rows" test "$(wc -l <"$tmp/dirs")" -gt 10
sed -n '/^\.SH SCENE FORMAT/,/^\.SH UNIVERSE FORMAT/p' "$MAN" >"$tmp/scene.roff"
while read -r d; do
    if grep -Eq "^\\.BR? \"?$d( |\"|\$)|\\\\fB$d( |\\\\f)" "$tmp/scene.roff"; then
        ok
    else
        bad "directive '$d' ($SCENE_SRC) is not in the SCENE FORMAT section of $MAN"
    fi
done <"$tmp/dirs"

# 5. the other way round: what the page documents, the program has.
# Options: every \-\-name of the page is in --help; every short option of
# a tag of OPTIONS too.
grep -o '\\-\\-[a-z][a-z0-9]*\(\\\{0,1\}-[a-z0-9][a-z0-9]*\)*' "$MAN" | sed 's/\\//g' | sort -u >"$tmp/manopts"
check "the page names options" test "$(wc -l <"$tmp/manopts")" -gt 20
while read -r o; do
    if grep -qxF -- "$o" "$tmp/opts"; then ok; else bad "option $o of $MAN is not in --help"; fi
done <"$tmp/manopts"
sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$MAN" | awk 'prev == ".TP" {print} {prev = $0}' |
    grep -o '\(^\|[ "]\)\\-[A-Za-z]\b' | sed 's/.*\\-/-/' | sort -u >"$tmp/manshort"
grep -o '^ *-[A-Za-z],' "$tmp/help" | sed 's/[ ,]//g' | sort -u >"$tmp/short"
check "the OPTIONS tags have short options" test -s "$tmp/manshort"
while read -r o; do
    if grep -qxF -- "$o" "$tmp/short"; then ok; else bad "option $o of $MAN is not in --help"; fi
done <"$tmp/manshort"
# Keys: every word of a tag of KEYS (and its replay part) is a key bound in
# the tables of $TUI_SRC, or one of the few words of prose the tags use.
sed -n 's/^ *{\([^,]*\), [A-Za-z_]*, .*/\1/p' "$TUI_SRC" | sort -u >"$tmp/bound"
check "the key tables bind keys" test "$(wc -l <"$tmp/bound")" -gt 30
plain "$tmp/tags.roff" | sed -e 's/^\.B[IR]* //' -e 's/[,()]/ /g' -e 's/ \/ / /g' |
    tr ' ' '\n' | sed '/^$/d' | sort -u >"$tmp/tagwords"
while read -r w; do
    case $w in
        or|keys|on|ball) continue ;;              # prose in the tags
        space) c="' '" ;;
        enter) c="'\\r'" ;;
        tab|Tab) c="'\\t'" ;;
        S-Tab|shift-tab) c=APP_KEY_BTAB ;;
        Esc) c=27 ;;
        F5) c=APP_KEY_F5 ;;
        M-e) c="APP_KEY_ALT | 'e'" ;;
        M-E) c="APP_KEY_ALT | 'E'" ;;
        Delete) c=APP_KEY_DELETE ;;
        Ctrl-L) c=KEY_CTRL_L ;;
        arrow) c=APP_KEY_LEFT ;;
        mouse|click) c=APP_KEY_MOUSE ;;
        ?) c="'$w'" ;;
        *) c="(no key)" ;;
    esac
    if grep -qxF -- "$c" "$tmp/bound"; then ok; else bad "key '$w' of the KEYS section of $MAN is bound in no table of $TUI_SRC"; fi
done <"$tmp/tagwords"
# Directives: the first word of each tag of SCENE FORMAT is a row of the table.
awk 'prev == ".TP" {print} {prev = $0}' "$tmp/scene.roff" | plain /dev/stdin |
    sed -e 's/^\.B[IR]* //' | awk '{print $1}' | sort -u >"$tmp/mandirs"
check "the SCENE FORMAT section has tags" test "$(wc -l <"$tmp/mandirs")" -gt 10
while read -r d; do
    if grep -qxF -- "$d" "$tmp/dirs"; then ok; else bad "directive '$d' of $MAN is not in the table of $SCENE_SRC"; fi
done <"$tmp/mandirs"

# 6. the module map (src/README.md) names every source file, and no file
# that is not there: `src/LAYER/NAME.[ch]`, `src/LAYER/NAME.c`, or NAME.c in a row.
MAP=${MAP:-src/README.md}
for f in src/*/*.c src/*/*.h; do
    b=${f#src/*/}
    n=${b%.*}
    if grep -qF -e "/$b\`" -e "\`$b\`" -e "/$n.[ch]\`" "$MAP"; then ok; else bad "$f is not in the module map $MAP"; fi
done
grep -o '`src/[a-z]*/[a-z_]*\.\(\[ch\]\|[ch]\)`' "$MAP" | tr -d '`' | sort -u >"$tmp/mapped"
check "the module map names files" test "$(wc -l <"$tmp/mapped")" -gt 30
while read -r f; do
    case $f in
        *'[ch]') n=${f%.\[ch\]}; test -e "$n.c" || test -e "$n.h" ;;
        *) test -e "$f" ;;
    esac
    if [ $? -eq 0 ]; then ok; else bad "the module map $MAP names $f, which is not there"; fi
done <"$tmp/mapped"

# 4. the README's pictures are the program's own and current (make readme-shot):
#    the break, the v and p arrows, the momentum diagram
SPRINGBALL=$SPRINGBALL sh tests/readme-shot.sh >"$tmp/shot"
check "the screenshot is made" grep -q 'The break' "$tmp/shot"
SPRINGBALL=$SPRINGBALL sh tests/readme-shot.sh arrows >"$tmp/shot-arrows"
check "the arrows' picture shows both heads and both scales" sh -c 'grep -q "▷" "$0" && grep -q "→ v .*▷ p " "$0"' "$tmp/shot-arrows"
SPRINGBALL=$SPRINGBALL sh tests/readme-shot.sh pdiag >"$tmp/shot-pdiag"
check "the momentum diagram's picture is titled and has before and now" sh -c 'grep -q "momentum diagram" "$0" && grep -q "before .*Σp.*now .*Σp" "$0"' "$tmp/shot-pdiag"
sed -n '/^<!-- shot -->$/,/^<!-- \/shot -->$/p' README.md | sed '1d;$d' >"$tmp/readme-shot"
check "README.md's screenshot is current (make readme-shot)" cmp -s "$tmp/shot" "$tmp/readme-shot"
for s in arrows pdiag; do
    sed -n "/^<!-- shot $s -->\$/,/^<!-- \\/shot -->\$/p" README.md | sed '1d;$d' >"$tmp/readme-$s"
    check "README.md's $s picture is current (make readme-shot)" cmp -s "$tmp/shot-$s" "$tmp/readme-$s"
done
check "README.md is at most 300 lines" test "$(wc -l <README.md)" -le 300

# The check can fail: a page without an option, a key and a directive.
if [ -z "${DOCS_INNER:-}" ]; then
    o=$(head -n 1 "$tmp/opts")
    o=${o#--}
    sed -e "s/\\\\-\\\\-$o//g" -e "s/--$o//g" -e '/^\.SH KEYS/,/^\.SH LIVE EDITS/s/^\.B space$/.B nothing/' \
        -e '/^\.SH SCENE FORMAT/,/^\.SH UNIVERSE FORMAT/s/rack/RACK/g' "$MAN" >"$tmp/broken.1"
    DOCS_INNER=1 MAN="$tmp/broken.1" sh tests/docs.sh >"$tmp/inner" 2>&1
    check "a page without --$o fails" grep -q "option --$o is not" "$tmp/inner"
    check "a page without space fails" grep -q "key 'space'" "$tmp/inner"
    check "a page without rack fails" grep -q "directive 'rack'" "$tmp/inner"
    # ... and one with an option, a key and a directive the program lacks
    sed -e '/^\.SH OPTIONS/a\
.TP\
.BR \\-Y ", " \\-\\-yodel\
Yodel.' -e '/^\.SH KEYS/,/^\.SH LIVE EDITS/s/^\.B space$/.BR space ", " Q/' \
        -e '/^\.SH SCENE FORMAT/,/^\.SH UNIVERSE FORMAT/s/^\.B rack /.B shelf /' "$MAN" >"$tmp/extra.1"
    DOCS_INNER=1 MAN="$tmp/extra.1" sh tests/docs.sh >"$tmp/inner" 2>&1
    check "a page with --yodel fails" grep -q "option --yodel of .* is not in --help" "$tmp/inner"
    check "a page with -Y fails" grep -q "option -Y of .* is not in --help" "$tmp/inner"
    check "a page with key Q fails" grep -q "key 'Q' of the KEYS section" "$tmp/inner"
    check "a page with directive shelf fails" grep -q "directive 'shelf' of .* is not in the table" "$tmp/inner"
    # ... and a module map without session.c and with a file that is not there
    sed -e 's/`src\/session\/session.\[ch\]`/`src\/session\/sessions.[ch]`/' src/README.md >"$tmp/map.md"
    DOCS_INNER=1 MAP="$tmp/map.md" sh tests/docs.sh >"$tmp/inner" 2>&1
    check "a map without session.c fails" grep -q "src/session/session.c is not in the module map" "$tmp/inner"
    check "a map with sessions.[ch] fails" grep -q "names src/session/sessions.\[ch\], which is not there" "$tmp/inner"
fi
# The break's energy the man page quotes after 10^5 and 10^6 steps is what
# --stats prints (issue 43: it quoted 51.42, the stored velocities' energy,
# where --stats prints 51.136).
for n in 100000 1000000; do
    e=$("$SPRINGBALL" -H -n $n --stats scenes/break.scene 2>&1 >/dev/null | sed 's/.* e=\([^ ]*\) .*/\1/')
    want=$(printf '%.2f' "$e")
    if [ $n = 100000 ]; then after='10⁵ steps'; else after='10⁶'; fi
    check "man: the break's energy after $after is $want" grep -q "$want after $after" man/springball.1
done
summary
