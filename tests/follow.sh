#!/bin/sh
# follow.sh - -H --follow (issue 40): a recorded run read while a writer
# appends to it: the frame asked for is waited for, a frame cut in the
# middle is not an error, the result is the frame a finished file gives;
# a file that is no recording is still an error at once; a 3-D run's z is
# dropped, and said. Every wait is
# for a condition (a line on standard error, a process's end).
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; [ -n "${sock:-}" ] && T kill-server 2>/dev/null; rm -rf "$tmp"' EXIT

# grow FILE FULL K: FILE holds FULL's first K lines
grow() { head -n "$3" "$2" >"$1"; }
# follow_case NAME FULL CUT ARGS...: FULL cut after CUT lines, followed with
# ARGS, then the rest appended once springball says it waits; the frame
# must be what the whole file gives
follow_case() {
    nm=$1 full=$2 cut=$3
    shift 3
    ext=${full##*.}
    f=$tmp/$nm.$ext
    grow "$f" "$full" "$cut"
    "$SB" -H "$@" "$full" >"$tmp/$nm.want" 2>/dev/null
    "$SB" -H --follow "$@" "$f" >"$tmp/$nm.got" 2>"$tmp/$nm.err" &
    pid=$!
    soon grep -qs "waiting for" "$tmp/$nm.err"
    check "$nm: waits ($(head -n 1 "$tmp/$nm.err"))" grep -q "waiting for" "$tmp/$nm.err"
    tail -n +"$((cut + 1))" "$full" >>"$f"
    wait "$pid"
    rc=$?
    pid=
    check "$nm: ends once the frame is there (status $rc)" test "$rc" -eq 0
    check "$nm: the frame of the whole file" cmp -s "$tmp/$nm.want" "$tmp/$nm.got"
}

"$SB" -H -n 200 --every 10 --traj="$tmp/break.xyz" scenes/break.scene >/dev/null
per=$(( $(wc -l <"$tmp/break.xyz") / 21 ))
# three frames and a half: the fourth is being written
follow_case xyz "$tmp/break.xyz" $((3 * per + 5)) -n 8
follow_case xyz-time "$tmp/break.xyz" $((2 * per)) -T 7.5
# a LAMMPS dump cut in its second (and last) frame
follow_case lammps tests/replay/shuffled.lammpstrj 15 -n 1
# nothing yet: an empty file
: >"$tmp/empty.xyz"
"$SB" -H --follow -n 1 "$tmp/empty.xyz" >"$tmp/e.out" 2>"$tmp/e.err" &
pid=$!
soon grep -qs "waiting for frame 1" "$tmp/e.err"
check "an empty file: waited for" grep -q "waiting for frame 1" "$tmp/e.err"
head -n $((2 * per)) "$tmp/break.xyz" >>"$tmp/empty.xyz"
wait "$pid"
rc=$?
pid=
check "an empty file: frame 1 once written ($rc)" test "$rc" -eq 0

out=$tmp/out
err=$tmp/err

# a 3-D run (tests/replay/3d.lammpstrj, z from 5 to 80): drawn at (x, y),
# and said
"$SB" -H -n 1 tests/replay/3d.lammpstrj >"$out" 2>"$err"
check "3-D: printed at (x, y)" grep -q '^ball 30 12 0 0 1 ' "$out"
check "3-D: z was dropped, and said" grep -q "a 3-D run: z was dropped (seen from above" "$err"
"$SB" -H -n 1 tests/replay/headon.xyz >"$out" 2>"$err"
check "2-D: nothing said of z" not grep -q "z was dropped" "$err"
"$SB" --snapshot=60x20 --no-color tests/replay/3d.lammpstrj >"$out" 2>"$err"
check "3-D: --snapshot draws it" grep -q "frame 0/2" "$out"
printf 'hello world\n' >"$tmp/bad.xyz"
expect_fail 2 "$tmp/bad.xyz:1: expected the ball count of frame 0, found 'hello world'" \
    "$SB" -H --follow "$tmp/bad.xyz"
expect_fail 2 "springball: standard output is not a terminal (use -H for a headless run)" \
    "$SB" --follow "$tmp/bad.xyz"
expect_fail 2 "springball: --follow shows a file as it grows: in a terminal, or with -H" \
    "$SB" --snapshot --follow "$tmp/bad.xyz"
expect_fail 2 "springball: --follow follows a recorded run: give its FILE" \
    "$SB" -H --follow

# --- the terminal: frames drawn as they land ------------------------------
tmpd=$tmp
tmux_open follow
run_wrapper
# three frames and half of the fourth: the newest whole one drawn, with its
# time and step; the half frame waited for, then the frames appended
grow "$tmp/t.xyz" "$tmp/break.xyz" $((3 * per + per / 2))
pane ft 80 24 "sh $tmpd/run $tmpd ft $SB --follow $tmp/t.xyz"
check "terminal: the newest whole frame, its t and step" wait_for ft "frame 2 +t 1.00 +step 20 "
check "terminal: a file has no frame rate" not shows ft "a frame /"
tail -n +"$((3 * per + per / 2 + 1))" "$tmp/break.xyz" | head -n $((2 * per - per / 2)) >>"$tmp/t.xyz"
check "terminal: frames appended are drawn" wait_for ft "frame 4 +t 2.00 +step 40 "
T send-keys -t ft ' '
check "terminal: space says a file cannot be paused" wait_for ft "cannot be paused"
T send-keys -t ft q
check "terminal: q exits 0" test "$(wait_rc ft)" = 0
# a file without a whole frame yet: waited for before the terminal starts
: >"$tmp/w.xyz"
pane fw 80 24 "sh $tmpd/run $tmpd fw $SB --follow $tmp/w.xyz"
head -n "$per" "$tmp/break.xyz" >>"$tmp/w.xyz"
check "terminal: the first frame, once written" wait_for fw "frame 0 +t 0.00"
T send-keys -t fw q
check "terminal: q exits 0 after waiting" test "$(wait_rc fw)" = 0
# a file that does not grow: looked at 4 times a second, not at the frame
# rate (bench/imd.sh: 3.2 % of a core at 30 a second); a key still at once
pane fi 140 24 "sh $tmpd/run $tmpd fi $SB --follow $tmp/t.xyz"
check "terminal: an idle file, 4 frames a second" wait_for fi "  [2-5] fps  "
T send-keys -t fi q
check "terminal: ... q exits 0" test "$(wait_rc fi)" = 0
summary
