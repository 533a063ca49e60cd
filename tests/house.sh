#!/bin/sh
# house.sh - the rules of the house, checked on the sources:
#  1. no circle among the modules (a module is a file's name up to its
#     first '_' without .c/.h: event_time.c and event_impl.h are the event
#     module's; A -> B when a file of A includes a header of B);
#  2. curses in term.c alone (TERMINAL in the Makefile is "term");
#  3. no stdio and no curses in a core module (CORE in the Makefile): each
#     core .c is compiled with -fsyntax-only against stub headers that stop
#     the compiler, and implicit declarations as errors;
#  4. the drawing (screen*, panel*, view*, lesson_panel*: the lesson's
#     panel) reads a struct shown (shown.h), never the session: no struct session pointer, no session_ call (the
#     terminal steps the session on a second thread while it draws).
# Each failure names the file or the circle.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

makevar() { sed -n "s/^$1 *= *//p" Makefile; }
CORE=$(makevar CORE)
TERMINAL=$(makevar TERMINAL)

# 1. circles: tsort reports any loop in the include graph
module() { m=$(basename "$1"); m=${m%.*}; echo "${m%%_*}"; }
for f in src/*.c src/*.h; do
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

# 2. curses in term.c alone: the terminal list names term and nothing else,
#    and no other file includes a curses header
check "the terminal list is term alone" test "$TERMINAL" = term
allowed=""
for m in $TERMINAL; do allowed="$allowed src/$m.c src/$m.h"; done
for f in src/*.c src/*.h; do
    if grep -Eq '^[[:space:]]*#[[:space:]]*include[[:space:]]*<(n?curses\.h|ncursesw/|term\.h|panel\.h|menu\.h|form\.h)' "$f"; then
        case " $allowed " in
            *" $f "*) ok ;;
            *) bad "$f includes curses (only $TERMINAL may)" ;;
        esac
    fi
done

# 3. the core compiles without stdio and curses
for h in stdio.h curses.h ncurses.h term.h ncursesw/curses.h; do
    mkdir -p "$(dirname "$tmp/stubs/$h")"
    printf '#error "<%s> in a core module"\n' "$h" >"$tmp/stubs/$h"
done
for m in $CORE; do
    if ${CC:-cc} -std=c11 -fsyntax-only -Werror=implicit-function-declaration \
        -I"$tmp/stubs" -Isrc "src/$m.c" 2>"$tmp/err"; then
        ok
    else
        bad "src/$m.c: $(grep -m 1 -E 'error' "$tmp/err")"
    fi
done
# the stubs stop a file that includes stdio
printf '#include <stdio.h>\nint main(void) { return 0; }\n' >"$tmp/uses.c"
check "a stub stops <stdio.h>" sh -c '! ${CC:-cc} -std=c11 -fsyntax-only -I"$0" "$1" 2>/dev/null' \
    "$tmp/stubs" "$tmp/uses.c"
# 4. the drawing never reaches the live session
drawing=$(ls src/screen*.[ch] src/panel*.[ch] src/view*.[ch] src/lesson_panel*.[ch])
for f in $drawing; do
    check "$f draws from a struct shown, not the session" \
        sh -c '! grep -nE "struct session[[:space:]]*\*|[^_a-z]session_[a-z_]+\(" "$0"' "$f"
done
check "the drawing's files are found" test -n "$drawing"
printf 'void f(struct session *ss) { session_diag(ss); }\n' >"$tmp/draws.c"
check "the check sees a session pointer and a call" \
    sh -c 'grep -cE "struct session[[:space:]]*\*|[^_a-z]session_[a-z_]+\(" "$0" | grep -qx 1' "$tmp/draws.c"
check "the core list is read from the Makefile" test -n "$CORE"
check "the terminal list is read from the Makefile" test -n "$TERMINAL"
summary
