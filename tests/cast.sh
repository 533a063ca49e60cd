#!/bin/sh
# cast.sh - --cast (issue 45): the frames shown as an asciicast v2. Every
# cast made here is read by Python's json (/usr/bin/python3: its header and
# each line, times that never go back, ending at the script's time at the
# speed it runs); its output, played into a tmux pane of its size, leaves
# the screen --snapshot prints; asciinema cat reads it (where installed);
# the terminal's own cast, with a resize, C-c and SIGHUP; the limits (a size
# cap, a file that cannot grow, /dev/full) and the paths refused.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
scratch
out=$tmpd/out
err=$tmpd/err
export LC_ALL=C.UTF-8
unset SPRINGBALL_CAST_MAX SOURCE_DATE_EPOCH NO_COLOR

# --- the paths refused, before anything is written ---
expect_fail 2 "springball: --cast: the file name is empty" "$SB" --snapshot --cast=
expect_fail 2 "springball: --cast records the terminal or --snapshot, not -H" "$SB" -H --cast=x.cast
expect_fail 2 "springball: --cast records the terminal or --snapshot, not --export" \
    "$SB" --export=lammps "$tmpd/l" -n 10 --cast=x.cast
expect_fail 2 "springball: --cast: '-' is standard output, where the snapshot goes" "$SB" --snapshot --cast=-
cp scenes/break.scene "$tmpd/s.scene"
expect_fail 2 "springball: --cast: '$tmpd/s.scene' is the scene file being read" \
    "$SB" --snapshot --cast="$tmpd/s.scene" "$tmpd/s.scene"
expect_fail 2 "springball: --cast: '$tmpd/./s.scene' is the scene file being read" \
    "$SB" --snapshot --cast="$tmpd/./s.scene" "$tmpd/s.scene"
ln -s s.scene "$tmpd/link.scene"
expect_fail 2 "springball: --cast: '$tmpd/link.scene' is the scene file being read" \
    "$SB" --snapshot --cast="$tmpd/link.scene" "$tmpd/s.scene"
check "the scene is untouched" cmp -s scenes/break.scene "$tmpd/s.scene"
expect_fail 1 "springball: $tmpd: cannot write: Is a directory" "$SB" --snapshot --cast="$tmpd"
expect_fail 1 "springball: $tmpd/no/x.cast: cannot write: No such file or directory" \
    "$SB" --snapshot --cast="$tmpd/no/x.cast"
expect_fail 2 "springball: --keys: 'foo': not a key (a character, space, enter, esc, tab, btab, up, down, left, right, pgup, pgdn, f5, C-x, M-x)" \
    "$SB" --snapshot --cast="$tmpd/bad.cast" --keys=foo
check "a bad script writes no cast" test ! -e "$tmpd/bad.cast"
if [ -w /dev/full ]; then
    "$SB" --snapshot --cast=/dev/full --keys='<t 5>' >"$out" 2>"$err"
    check "/dev/full: status 1" [ $? -eq 1 ]
    check "/dev/full: says so" grep -qx "springball: /dev/full: write error: No space left on device (the cast ends at 0.00 s)" "$err"
    check "/dev/full: the snapshot is printed still" [ "$(wc -l <"$out")" -eq 24 ]
fi

PY=/usr/bin/python3
if ! [ -x "$PY" ] || ! "$PY" -c 'import json' 2>/dev/null; then
    echo "SKIP the casts' contents: no /usr/bin/python3"
    summary
    exit
fi
# castcheck FILE COLS ROWS END: the cast is valid asciicast v2 of that
# size, its times never go back and the last is END (- : any); its output
# concatenated to $tmpd/BASENAME.out; prints "EVENTS TITLE"
cat >"$tmpd/cast.py" <<'EOF'
import json, sys
path, w, h, end = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
data = open(path, 'rb').read()
if not data.endswith(b'\n'):
    sys.exit('%s: does not end on a whole line' % path)
lines = data.decode('utf-8').split('\n')[:-1]
hdr = json.loads(lines[0])
if not isinstance(hdr, dict) or hdr.get('version') != 2:
    sys.exit('%s: header %r is not version 2' % (path, hdr))
if hdr.get('width') != w or hdr.get('height') != h:
    sys.exit('%s: %sx%s, want %dx%d' % (path, hdr.get('width'), hdr.get('height'), w, h))
if not isinstance(hdr.get('timestamp'), int) or not isinstance(hdr.get('env', {}).get('TERM'), str):
    sys.exit('%s: no timestamp or env.TERM in %r' % (path, hdr))
last, outs = 0.0, []
for i, line in enumerate(lines[1:], 2):
    e = json.loads(line)
    if not (isinstance(e, list) and len(e) == 3 and isinstance(e[0], (int, float))
            and e[1] in ('o', 'r') and isinstance(e[2], str)):
        sys.exit('%s:%d: not an event: %r' % (path, i, line[:80]))
    if e[0] < last:
        sys.exit('%s:%d: time %r before %r' % (path, i, e[0], last))
    last = e[0]
    if e[1] == 'o':
        outs.append(e[2])
if end != '-' and abs(last - float(end)) > 1e-6:
    sys.exit('%s: ends at %r, want %s' % (path, last, end))
open(sys.argv[5], 'wb').write(''.join(outs).encode('utf-8'))
print(len(lines) - 1, hdr.get('title', ''))
EOF
castcheck() { "$PY" "$tmpd/cast.py" "$@" "$tmpd/$(basename "$1").out"; }

# --- the issue's case: the played cast ends on --snapshot's screen ---
# plain NAME: --snapshot's text (escapes out, trailing blanks out)
plain() { sed -e 's/\x1b\[[0-9;]*m//g' -e 's/ *$//' "$1"; }
"$SB" --snapshot=80x24 --cast="$tmpd/o.cast" --keys='<t 5> v' scenes/break.scene >"$tmpd/o.snap" 2>"$err"
rc=$?
check "--cast: status 0, nothing said" sh -c '[ "$1" -eq 0 ] && [ ! -s "$2" ]' sh "$rc" "$err"
"$SB" --snapshot=80x24 --keys='<t 5> v' scenes/break.scene >"$tmpd/o.want"
check "--cast: the snapshot printed beside it is --snapshot's" cmp -s "$tmpd/o.snap" "$tmpd/o.want"
castcheck "$tmpd/o.cast" 80 24 0.25 >"$out"
check "--cast: valid, ends at t 5 / 20 t/s = 0.25 s" [ $? -eq 0 ]
check "--cast: the title is the scene's" grep -q " The break$" "$out"
check "--cast: TERM xterm-256color" grep -q '"env": {"TERM": "xterm-256color"}}$' "$tmpd/o.cast"
check "--cast: a frame every 1/30 s of the wait" [ "$(grep -c '^\[0\.[0-9]*, "o", ' "$tmpd/o.cast")" -ge 8 ]
check "--cast: colours" grep -q '\\u001b\[0;1;38;5;' "$tmpd/o.cast"

# --- times: waits over the speed at each, paused ones too ---
"$SB" --snapshot --cast="$tmpd/t.cast" --keys='<t 5> + <t 10> space <t 4> ? <t 2>' >/dev/null
check "times: 5/20 + 10/40 + 4/40 + 2/40 = 0.65 s" castcheck "$tmpd/t.cast" 80 24 0.65 >/dev/null
"$SB" --snapshot --cast="$tmpd/t.cast" --fps=10 --keys='<t 20>' >/dev/null
n=$(grep -c ', "o", ' "$tmpd/t.cast")
check "times: --fps=10, a second: 10 frames ($n)" sh -c '[ "$1" -ge 10 ] && [ "$1" -le 12 ]' sh "$n"
check "times: --fps=10 ends at 1 s" castcheck "$tmpd/t.cast" 80 24 1 >/dev/null
"$SB" --snapshot --cast="$tmpd/k.cast" --keys='v i' >/dev/null
check "times: keys alone end at 0" castcheck "$tmpd/k.cast" 80 24 0 >/dev/null
SOURCE_DATE_EPOCH=1234567890 "$SB" --snapshot --cast="$tmpd/r1.cast" --keys='<t 10> i' >/dev/null
SOURCE_DATE_EPOCH=1234567890 "$SB" --snapshot --cast="$tmpd/r2.cast" --keys='<t 10> i' >/dev/null
check "SOURCE_DATE_EPOCH: the timestamp" grep -q '"timestamp": 1234567890,' "$tmpd/r1.cast"
check "SOURCE_DATE_EPOCH: the same bytes twice" cmp -s "$tmpd/r1.cast" "$tmpd/r2.cast"
NO_COLOR=1 "$SB" --snapshot --cast="$tmpd/nc.cast" --keys='<t 5> v i' >/dev/null
check "NO_COLOR: no colour in the cast" not grep -q '38;5;' "$tmpd/nc.cast"

# --- the README's demo (make readme-cast) ---
check "man/demo.cast: valid, 80x24, 19.5 s" castcheck man/demo.cast 80 24 19.5 >/dev/null
check "README.md links the demo and says how to play it" \
    grep -q "\[man/demo.cast\](man/demo.cast).*\|asciinema play man/demo.cast" README.md
SPRINGBALL=$SB sh tests/readme-cast.sh "$tmpd/demo.cast"
check "make readme-cast makes a cast of the same length" castcheck "$tmpd/demo.cast" 80 24 19.5 >/dev/null

# --- the limits ---
SPRINGBALL_CAST_MAX=6000 "$SB" --snapshot --cast="$tmpd/cap.cast" --keys='<t 60>' >"$out" 2>"$err"
check "cap: status 1" [ $? -eq 1 ]
check "cap: says so" grep -Eq "^springball: $tmpd/cap.cast: the cast reached its size cap of 6000 bytes \(SPRINGBALL_CAST_MAX\) at [0-9.]+ s and ends there$" "$err"
check "cap: at most the cap" [ "$(wc -c <"$tmpd/cap.cast")" -le 6000 ]
check "cap: whole lines, valid" castcheck "$tmpd/cap.cast" 80 24 - >/dev/null
# a file that cannot grow past 4 blocks of 512 bytes, as a full disk
(trap '' XFSZ; ulimit -f 4 && exec "$SB" --snapshot --cast="$tmpd/fs.cast" --keys='<t 60>') >"$out" 2>"$err"
check "full: status 1" [ $? -eq 1 ]
check "full: says so" grep -Eq "^springball: $tmpd/fs.cast: write error: File too large \(the cast ends at [0-9.]+ s\)$" "$err"
check "full: no line cut short" castcheck "$tmpd/fs.cast" 80 24 - >/dev/null

# --- the bytes, played into a terminal of the cast's size ---
tmux_open cast
n=0
# played COLS ROWS ARGS...: --snapshot=COLSxROWS --cast with ARGS; its
# output shown in a pane of that size; the pane's text, and --snapshot's
played() {
    played_in "$@"
    rc=$?
    name=$check_name # pane (lib.sh) sets name, which check prints
    return $rc
}
played_in() {
    check_name=$name
    cols=$1 rows=$2
    shift 2
    n=$((n + 1))
    "$SB" --snapshot="${cols}x$rows" --cast="$tmpd/p$n.cast" "$@" >"$tmpd/p$n.snap" 2>"$err" &&
        castcheck "$tmpd/p$n.cast" "$cols" "$rows" - >/dev/null &&
        "$SB" --snapshot="${cols}x$rows" "$@" >"$tmpd/p$n.want" 2>"$err" || return 1
    plain "$tmpd/p$n.want" >"$tmpd/p$n.txt"
    pane "p$n" "$cols" "$rows" "cat $tmpd/p$n.cast.out; sleep 3600"
    soon sh -c 'tmux -L "$0" capture-pane -p -t "$1" | sed "s/ *\$//" | cmp -s - "$2"' \
        "$sock" "p$n" "$tmpd/p$n.txt" && return 0
    echo "the pane p$n shows:"
    screen "p$n"
    echo "--snapshot prints:"
    cat "$tmpd/p$n.txt"
    return 1
}
check "played: 80x24 '<t 5> v' break.scene (the issue's)" played 80 24 --keys='<t 5> v' scenes/break.scene
check "played: 88x30 the README's picture" played 88 30 --keys='i P <t 60>'
check "played: 40x12 the help" played 40 12 --keys='<t 30> ?'
check "played: 24x8 too small" played 24 8 --keys='<t 10>'
check "played: 120x40 trails, two plots" played 120 40 --keys='t <t 80> P P'
check "played: --no-color, arrows" played 60 20 --no-color --keys='v p <t 30>' scenes/unequal.scene
check "played: --ascii" played 100 30 --ascii --keys='v p <t 30>' scenes/unequal.scene
check "played: the event engine" played 80 24 --keys='m <t 20> i' scenes/bowl.scene
# the event engine's plots sample at each frame's end: a snapshot runs its
# waits by the frames, cast or not (was: another plot without --cast)
check "played: the event engine's energy plot" played 80 24 --keys='m P <t 20> i' scenes/bowl.scene
check "played: the event engine's momentum diagram" played 80 24 --keys='m P P P <t 20> <t 5>' scenes/round.scene
check "played: zoom, a panel" played 100 30 --keys='i <t 20> z z <t 10>' scenes/maxwell.scene
check "played: a kick, the split view" played 80 24 --keys='up*3 enter <t 10> s <t 5>'
sed 's/^title .*/title 台球 "q" \\ ☃ the break/' scenes/break.scene >"$tmpd/cjk.scene"
check "played: a title of wide characters, quotes, a backslash" played 80 24 --keys='<t 2> i' "$tmpd/cjk.scene"
check "played: its title in the header" sh -c '"$0" "$1" "$2" 80 24 - "$3" | grep -q " 台球 \"q\" \\\\ ☃ the break$"' \
    "$PY" "$tmpd/cast.py" "$tmpd/p$n.cast" "$tmpd/title.out"

# asciinema cat reads the cast (it wants a terminal: in a pane) and prints
# the concatenated output
if [ -x /usr/bin/asciinema ]; then
    pane acat 80 24 "/usr/bin/asciinema cat $tmpd/o.cast >$tmpd/acat.out 2>$tmpd/acat.err; echo \$? >$tmpd/acat.rc; sleep 3600"
    check "asciinema cat: status 0" [ "$(wait_rc acat)" = 0 ]
    check "asciinema cat: the cast's bytes" cmp -s "$tmpd/acat.out" "$tmpd/o.cast.out"
else
    echo "SKIP asciinema cat: /usr/bin/asciinema is not installed"
fi

# --- live: the terminal's own cast ---
run_wrapper
# settled NAME: the screen the same over half a second
settled() {
    screen "$1" >"$tmpd/s1"
    sleep 0.5
    screen "$1" >"$tmpd/s2"
    cmp -s "$tmpd/s1" "$tmpd/s2"
}
pane live 80 24 "sh $tmpd/run $tmpd live $SB --paused --cast=$tmpd/live.cast --keys='i v'"
wait_for live "values 1-"
T resize-window -t live -x 100 -y 30
wait_for live "values 1-"
# the note gone (2.5 s), so that no frame comes between the screen read and q
wait_gone live "arrows on"
soon settled live
screen live | sed 's/ *$//' >"$tmpd/live.txt"
keys live q
check "live: quits with status 0" [ "$(wait_rc live)" = 0 ]
castcheck "$tmpd/live.cast" 80 24 - >/dev/null
check "live: a valid cast of 80x24" [ $? -eq 0 ]
check "live: the resize, an r event" grep -q ', "r", "100x30"\]$' "$tmpd/live.cast"
check "live: TERM of the terminal" grep -q '"env": {"TERM": "xterm-256color"}}$' "$tmpd/live.cast"
check "live: ends showing the cursor" sh -c 'tail -n 1 "$0" | grep -q "?25h\"\]$"' "$tmpd/live.cast"
pane lplay 100 30 "cat $tmpd/live.cast.out; sleep 3600"
check "live: played, the screen the user saw last" soon sh -c \
    'tmux -L "$0" capture-pane -p -t lplay | sed "s/ *\$//" | cmp -s - "$1"' "$sock" "$tmpd/live.txt"

pane int 80 24 "sh $tmpd/run $tmpd int $SB --cast=$tmpd/int.cast"
wait_for int "running"
T send-keys -t int C-c
check "C-c: status 130" [ "$(wait_rc int)" = 130 ]
check "C-c: a whole cast" castcheck "$tmpd/int.cast" 80 24 - >/dev/null
check "C-c: its last event" sh -c 'tail -n 1 "$0" | grep -q "?25h\"\]$"' "$tmpd/int.cast"

pane hup 80 24 "sh $tmpd/run $tmpd hup $SB --cast=$tmpd/hup.cast"
wait_for hup "running"
# frames: a cast written as they are drawn, while running
check "live: frames written as they are drawn" soon sh -c \
    '[ "$(grep -c ", \"o\", " "$0")" -ge 3 ]' "$tmpd/hup.cast"
kill -HUP "$(cat "$tmpd/hup.pid")"
check "SIGHUP: status 129" [ "$(wait_rc hup)" = 129 ]
check "SIGHUP: a whole cast" castcheck "$tmpd/hup.cast" 80 24 - >/dev/null
check "SIGHUP: its last event" sh -c 'tail -n 1 "$0" | grep -q "?25h\"\]$"' "$tmpd/hup.cast"

# the size cap, live: a note, the run goes on, status 1 at the end
pane capl 80 24 "SPRINGBALL_CAST_MAX=20000 sh $tmpd/run $tmpd capl $SB --cast=$tmpd/capl.cast"
check "live cap: a note says so" wait_for capl "size cap of 20000 bytes" 10
check "live cap: the run goes on" wait_for capl "running"
keys capl q
check "live cap: status 1" [ "$(wait_rc capl)" = 1 ]
check "live cap: a whole cast under the cap" castcheck "$tmpd/capl.cast" 80 24 - >/dev/null
check "live cap: at most the cap" [ "$(wc -c <"$tmpd/capl.cast")" -le 20000 ]

summary
