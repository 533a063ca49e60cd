#!/bin/sh
# house.sh - the rules of the house, checked on the sources and the build:
#  1. src/ holds the layers of the Makefile's LAYERS as folders, and every
#     source file lives in one of them;
#  2. the walls: a file may include the headers of its own layer and of the
#     layers beneath it. The build gives each layer only those include paths;
#     here one include across each wall is planted in a copy of the tree and
#     the build must refuse it, while the same include from the layer above
#     the header's own compiles;
#  3. no circle among the modules (a module is a file's name up to its first
#     '_' without .c/.h: event_time.c and event_impl.h are the event module's;
#     A -> B when a file of A includes a header of B);
#  4. curses in front/term.c alone (TERMINAL in the Makefile);
#  5. no stdio and no curses in the engines' layers (core, event, session):
#     each file is compiled with -fsyntax-only against stub headers that stop
#     the compiler, and implicit declarations as errors;
#  6. the drawing (draw/) reads a struct shown (shown.h), never the session:
#     no struct session pointer, no session_ call (the terminal steps the
#     session on a second thread while it draws), and owns no engine (the
#     split view's two engines are the front end's, labscreen.h);
#  7. above the session (draw, front, cli) no file names struct session's
#     fields: it reads the session through its functions;
#  8. no source file over 1 000 lines, no front-end file over 600.
# Each failure names the file, the wall or the circle.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

makevar() { sed -n "s/^$1 *= *//p" Makefile; }
LAYERS=$(makevar LAYERS)
TERMINAL=$(makevar TERMINAL)
ENGINES="core event session"

# 1. the folders are the layers
check "the layers are read from the Makefile" test -n "$LAYERS"
for l in $LAYERS; do
    check "src/$l is a folder with sources" sh -c 'ls "$0"/*.c >/dev/null 2>&1' "src/$l"
done
for f in src/*.c src/*.h; do
    [ -e "$f" ] && bad "$f lies outside the layers' folders"
done
for d in src/*/; do
    d=${d%/}
    case " $LAYERS " in *" ${d#src/} "*) ok ;; *) bad "$d is not a layer of the Makefile" ;; esac
done

# 2. the walls, proved by the build: for each layer, an include of the first
#    header of every layer above it is planted in a copy of the tree.
mkdir -p "$tmp/tree"
cp -r Makefile src scenes "$tmp/tree/"
below=""
for l in $LAYERS; do
    above=0
    for h in $LAYERS; do
        [ "$h" = "$l" ] && { above=1; continue; }
        [ $above -eq 1 ] || continue
        hdr=$(cd "src/$h" && ls ./*.h | head -n 1)
        hdr=${hdr#./}
        printf '#include "%s"\nint house_probe(void);\nint house_probe(void) { return 0; }\n' "$hdr" \
            >"$tmp/tree/src/$l/house_probe.c"
        rm -rf "$tmp/obj"
        if make -s -C "$tmp/tree" O="$tmp/obj" "$tmp/obj/$l/house_probe.o" >"$tmp/err" 2>&1; then
            bad "the wall $l < $h: src/$l may include $h's $hdr"
        elif grep -q "$hdr" "$tmp/err"; then
            ok
        else
            bad "the wall $l < $h: the build failed for another reason: $(head -n 1 "$tmp/err")"
        fi
        rm -f "$tmp/tree/src/$l/house_probe.c"
    done
    # a header of a layer beneath (or the same) is allowed
    hdr=$(cd "src/$l" && ls ./*.h | head -n 1)
    printf '#include "%s"\nint house_probe(void);\nint house_probe(void) { return 0; }\n' "${hdr#./}" \
        >"$tmp/tree/src/$l/house_probe.c"
    rm -rf "$tmp/obj"
    check "src/$l may include its own ${hdr#./}" \
        make -s -C "$tmp/tree" O="$tmp/obj" "$tmp/obj/$l/house_probe.o"
    rm -f "$tmp/tree/src/$l/house_probe.c"
    below="$below $l"
done

# 3. circles: tsort reports any loop in the include graph
module() { m=$(basename "$1"); m=${m%.*}; echo "${m%%_*}"; }
for f in src/*/*.c src/*/*.h; do
    from=$(module "$f")
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)\.h".*/\1/p' "$f" |
        while read -r to; do
            to=$(module "$to")
            [ "$to" != "$from" ] && echo "$from $to"
        done
done | sort -u >"$tmp/edges"
check "the include graph has edges" test -s "$tmp/edges"
if tsort "$tmp/edges" >/dev/null 2>"$tmp/loop"; then
    ok
else
    bad "a circle among the modules: $(sed -n 's/^tsort: //p' "$tmp/loop" | grep -v loop | tr '\n' ' ')"
fi
# the screen reaches the lab only through struct panel_class (labscreen_init adds the panels)
check "no screen -> lab edge" sh -c '! grep -Eq "^screen (lab|labscreen|panel|twin)\$" "$0"' "$tmp/edges"
# the check sees a circle: one made up from a real edge and its reverse
edge=$(head -n 1 "$tmp/edges")
{ cat "$tmp/edges"; echo "$edge" | awk '{print $2, $1}'; } >"$tmp/made"
check "tsort sees a made-up circle" sh -c '! tsort "$0" >/dev/null 2>&1' "$tmp/made"

# 4. curses in term.c alone: the terminal names front/term, and no other
#    file includes a curses header
check "the terminal is front/term alone" test "$TERMINAL" = front/term
for f in src/*/*.c src/*/*.h; do
    if grep -Eq '^[[:space:]]*#[[:space:]]*include[[:space:]]*<(n?curses\.h|ncursesw/|term\.h|panel\.h|menu\.h|form\.h)' "$f"; then
        case $f in
            "src/$TERMINAL.c" | "src/$TERMINAL.h") ok ;;
            *) bad "$f includes curses (only src/$TERMINAL.c may)" ;;
        esac
    fi
done

# 5. the engines' layers compile without stdio and curses
for h in stdio.h curses.h ncurses.h term.h ncursesw/curses.h; do
    mkdir -p "$(dirname "$tmp/stubs/$h")"
    printf '#error "<%s> in an engine layer"\n' "$h" >"$tmp/stubs/$h"
done
inc=""
for l in $ENGINES; do
    inc="$inc -Isrc/$l"
    # event sees core; session sees core, event and the formats beneath it
    [ "$l" = session ] && inc="$inc -Isrc/io"
done
for l in $ENGINES; do
    for f in src/$l/*.c; do
        if ${CC:-cc} -std=c11 -fsyntax-only -Werror=implicit-function-declaration \
            -I"$tmp/stubs" $inc "$f" 2>"$tmp/err"; then
            ok
        else
            bad "$f: $(grep -m 1 -E 'error' "$tmp/err")"
        fi
    done
done
# the stubs stop a file that includes stdio
printf '#include <stdio.h>\nint main(void) { return 0; }\n' >"$tmp/uses.c"
check "a stub stops <stdio.h>" sh -c '! ${CC:-cc} -std=c11 -fsyntax-only -I"$0" "$1" 2>/dev/null' \
    "$tmp/stubs" "$tmp/uses.c"

# 6. the drawing never reaches the live session
drawing=$(ls src/draw/*.[ch])
for f in $drawing; do
    check "$f draws from a struct shown, not the session" \
        sh -c '! grep -nE "struct session[[:space:]]*\*|[^_a-z]session_[a-z_]+\(" "$0"' "$f"
done
check "the drawing's files are found" test -n "$drawing"
# ... and owns no engine: the split view's engines are the front end's
for f in $drawing; do
    check "$f owns no engine (no twin, no event engine)" \
        sh -c '! grep -nE "#[[:space:]]*include[[:space:]]*\"(twin|event)\.h\"|[^_a-z](twin|event)_[a-z_]+\(" "$0"' "$f"
done
printf 'void f(struct session *ss) { session_diag(ss); }\n' >"$tmp/draws.c"
check "the check sees a session pointer and a call" \
    sh -c 'grep -cE "struct session[[:space:]]*\*|[^_a-z]session_[a-z_]+\(" "$0" | grep -qx 1' "$tmp/draws.c"

# 7. above the session, nothing names its fields: the front end and the
#    command line read it through session_state, session_caps, session_said
#    ... (a session is named ss there, by the house's convention)
for f in src/draw/*.[ch] src/front/*.[ch] src/cli/*.[ch]; do
    check "$f reads the session through its functions" \
        sh -c '! grep -nE "(^|[^_a-zA-Z0-9])ss(\.|->)[a-z_]+" "$0" | grep -vE "^[0-9]+:[[:space:]]*(/?\*|//)"' "$f"
done
printf 'double f(struct ui *u) { return u->ss.s.t + session_pos(&u->ss); }\n' >"$tmp/fields.c"
check "the check sees a field read" \
    sh -c 'grep -cE "(^|[^_a-zA-Z0-9])ss(\.|->)[a-z_]+" "$0" | grep -qx 1' "$tmp/fields.c"
# 8. sizes: no source file over 1 000 lines, no front-end file over 600
#    (split a file by concept before it grows past them)
for f in src/*/*.[ch]; do
    n=$(wc -l <"$f")
    lim=1000
    case $f in src/front/*) lim=600 ;; esac
    if [ "$n" -le "$lim" ]; then ok; else bad "$f has $n lines (at most $lim)"; fi
done
# 9. no test that cannot fail: 'check NAME [ A ] && [ B ]' runs B outside
#    check (and check returns 0 after a failure), so B is never counted; one
#    command per check (sh -c '...' for more). A check's line, with the
#    lines its quotes and backslashes carry on to, holds no &&, || or | outside
#    its quotes.
unchecked() {
    awk '# outside(t): the text of t outside its quotes; q: the quote still
        # open at its end (0 none, 1 single, 2 double)
        function outside(t,    i, c, o) {
            o = ""
            for (i = 1; i <= length(t); i++) {
                c = substr(t, i, 1)
                if (q == 1) { if (c == "\047") q = 0; continue }
                if (c == "\\") { i++; continue }
                if (q == 2) { if (c == "\"") q = 0; continue }
                if (c == "\047") q = 1
                else if (c == "\"") q = 2
                else o = o c
            }
            return o
        }
        /^[ \t]*check[ \t]/ {
            n = FNR; q = 0; line = $0; out = outside($0)
            while ((q || $0 ~ /\\$/) && (getline) > 0) {
                line = line " " $0
                out = out " " outside($0)
            }
            if (out ~ /&&|[|]/) print FILENAME ":" n ": " substr(line, 1, 70)
        }' "$@"
}
no_unchecked() { found=$(unchecked "$@"); [ -z "$found" ] || { echo "$found"; return 1; }; }
check "no check runs a command outside itself (&&, || or | after it)" no_unchecked tests/*.sh tests/*/*.sh
printf '%s\n' "check x [ 0 -eq 0 ] && [ -s /nonexistent ]" "check y sh -c '[ 1 ] && [ 2 ]'" \
    "check z awk 'BEGIN {" "  exit 0 || 1 }'" "check \"it's\" true" "check w [ 1 ] && [ 2 ]" >"$tmp/unchecked.sh"
check "the check sees two such lines of five" [ "$(unchecked "$tmp/unchecked.sh" | grep -c .)" = 2 ]
summary
