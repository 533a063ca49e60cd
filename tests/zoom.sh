#!/bin/sh
# zoom.sh - the zoom (issue 26.5) through --snapshot --keys, then the mouse
# in tmux: z zooms in by 2 around the selected ball, Z out, 0 the whole
# table (the very frame of before), F following on and off; the frame's
# marks (x4, the inset, dotted sides that are not walls); balls, arrows and
# the velocity handle clipped to the window; clicks, drags and the wheel at
# the world point drawn under the pointer; the split view.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
scratch
export LC_ALL=C.UTF-8
U=scenes/unequal.scene
snap() { "$SB" --snapshot=200x60 --no-color "$@"; }
# full braille cells (the insides of balls) on the screen
full() { snap "$@" | grep -o '⣿' | wc -l; }
# the note (the row above the status line), its blanks trimmed
note() { snap "$@" | tail -n 2 | head -n 1 | sed 's/^ *//; s/ *$//'; }
# the table's rows inside its frame, from the frame's top line (┌) to its
# bottom line (└), both left out
inside() { sed -n '/^┌/,/^└/p' | sed '1d;$d'; }

# --- z: the balls span many more cells ---
# at t 21 the two balls of the worksheet are in contact; z z is x4 around
# ball 1 (the selected ball): 16 times the area, both balls in the window
a=$(full --keys='<t 21> space' $U)
b=$(full --keys='<t 21> space z z' $U)
check "z z: the balls span many more cells ($a -> $b)" [ "$b" -gt $((10 * a)) ]
check "z z: both balls in the window (their colours)" sh -c '"$0" --snapshot=200x60 --keys="<t 21> space z z" "$1" >"$2" && grep -q "38;5;100m[^ ]" "$2" && grep -q "38;5;30m[^ ]" "$2"' "$SB" $U "$tmpd/both" 
check "z z: the note" [ "$(note --keys='space z z' $U)" = "zoom x4, following ball 1 (F: stay put, Z out, 0 whole)" ]
check "z: the frame shows x2" sh -c '"$0" --snapshot=200x60 --no-color --keys="space z" "$1" | grep -q "┄ ×2 ┄┐"' "$SB" $U
check "z z: the frame shows x4" sh -c '"$0" --snapshot=200x60 --no-color --keys="space z z" "$1" | grep -q "┄ ×4 ┄┐"' "$SB" $U
check "z z in ASCII: x4" sh -c '"$0" --snapshot=200x60 --no-color --ascii --keys="space z z" "$1" | grep -q "[.] x4 [.]+"' "$SB" $U
check "unzoomed: no zoom on the frame" sh -c '! "$0" --snapshot=200x60 --no-color --keys="space" "$1" | grep -q "×"' "$SB" $U

# --- 0 and Z: the whole table again, byte for byte (colours too) ---
snap0() { "$SB" --snapshot=200x60 "$@"; }
snap0 --keys='space <t 100>' $U >"$tmpd/whole"
snap0 --keys='space z z <t 100>' $U >"$tmpd/z4"
check "z z: not the whole table's frame" not cmp -s "$tmpd/whole" "$tmpd/z4"
snap0 --keys='space z z 0 <t 100>' $U >"$tmpd/z0"
check "z z 0: the whole table byte for byte" cmp -s "$tmpd/whole" "$tmpd/z0"
snap0 --keys='space z z Z Z <t 100>' $U >"$tmpd/zZZ"
check "z z Z Z: the whole table byte for byte" cmp -s "$tmpd/whole" "$tmpd/zZZ"
check "Z unzoomed: a note" [ "$(note --keys='space Z' $U)" = "zoom: the whole table already" ]
check "z z z Z: as z z" [ "$(snap --keys='space z z z Z <t 100>' $U)" = "$(snap --keys='space z z <t 100>' $U)" ]
check "x64 at most" [ "$(note --keys='space z*7' $U)" = "zoom x64: the most" ]

# --- the inset: the whole table in small, the part shown filled in ---
# x4 around ball 1 at (200, 180) of 800 x 400: columns 1/8 to 3/8 of the
# inset's 16, its 4 rows' middle two
s=$(snap --keys='space z z' $U)
check "the inset's box" sh -c 'echo "$0" | grep -q "┌────────────────┐┆$"' "$s"
check "the inset: the window x 1/8..3/8, y 1/4..3/4" sh -c 'echo "$0" | grep -q "│  ⣤⣤⣤⣤          │┆$" && echo "$0" | grep -q "│  ⠿⠿⠿⠿          │┆$"' "$s"
# sides of the window inside the table are dotted, walls solid
check "the window's sides inside the table: dotted" sh -c 'echo "$0" | grep -q "^┆ .*┆$" && ! echo "$0" | grep -q "^│"' "$s"
printf 'table 800 400\nball 780 200 0 0 1 15\n' >"$tmpd/wall.scene" # by the right wall
s=$(snap --keys='z z' "$tmpd/wall.scene")
check "a wall in the window: solid, the other sides dotted" sh -c 'echo "$0" | grep -q "^┆ .*│$" && echo "$0" | grep -q "^┌┄.*┄┐$"' "$s"

# --- following, F ---
# the note of a click then a: the world point under the click
added() { note --keys="$1" $U | sed -n 's/.*added at (\([^)]*\)).*/\1/p'; }
# x4 at 200x60: 0.99 columns a unit (198 columns for 800, times 4), a row
# two columns; ball 1 at (200, 180) is in the middle of the window: column
# 100.0, row 29.9 (the window moves by whole dots). The middle of cell
# (130, 20) is 30.5 columns right of it and 9.4 rows up: 30.8 and 19 units.
check "a click while zoomed: the world point drawn there" [ "$(added 'space z z <click 130 20> a')" = "230.8, 199" ]
check "the same click unzoomed: elsewhere" [ "$(added 'space <click 130 20> a')" = "523.2, 276.8" ]
# ball 1 runs 100 units in t 10: the view follows it
check "following: the view moved with ball 1" [ "$(added 'z z <t 10> space <click 130 20> a')" = "330.8, 199" ]
check "F: the view stays where it is" [ "$(added 'z z F <t 10> space <click 130 20> a')" = "230.8, 199" ]
check "F F: following again" [ "$(added 'z z F F <t 10> space <click 130 20> a')" = "330.8, 199" ]
check "F: the note" [ "$(note --keys='space z z F' $U)" = "zoom: the view stays where it is (F follows the selected ball)" ]
# tab selects ball 2: z centres on it
# ball 2 at (450, 200): the click 60.5 columns right and 19.6 rows up
check "z around the selected ball (tab: ball 2)" [ "$(added 'space tab z z <click 160 10> a')" = "511.1, 239.4" ]
# no ball: the table's centre
printf 'table 800 400\n' >"$tmpd/empty.scene"
check "z with no ball: around the centre" sh -c '[ "$("$0" --snapshot=200x60 --no-color --keys="z z <click 130 20> a" "$1" | tail -n 2 | grep -o "added at ([^)]*)")" = "added at (430.8, 219.2)" ]' "$SB" "$tmpd/empty.scene"
# a drag by 10 columns moves the ball 10 / 0.99 units (unzoomed: 40.4)
check "a drag while zoomed" [ "$(note --keys='space z z <press 100 29> <drag 110 29> <release 110 29>' $U)" = "ball 1 at (210.1, 180)" ]
# 12 columns right of its centre is on ball 1 (r 15: 14.85 columns) at x4 only
check "the wheel while zoomed: over the ball" [ "$(note --keys='space z z <wheel up 112 29>' $U)" = "ball 1: m 1.1" ]
check "the same wheel unzoomed: off the ball" [ "$(note --keys='space <wheel up 112 29>' $U)" = "the wheel over the selected ball changes its mass" ]
# a ball out of the window cannot be clicked where it would be
check "a click where no ball is drawn selects none" sh -c '! "$0" --snapshot=200x60 --no-color --keys="space tab z z 0 <t 1> tab z z <click 190 30>" "$1" | grep -q "cue ball: ball 2"' "$SB" $U

# --- clipping: balls, arrows, the handle stay in the window ---
# ball 2 (x 450) is cut by the window's right side at x4 around ball 1 at t 16
s=$(snap --keys='<t 16> space v p z z' $U)
check "v p zoomed: the frame's sides whole" sh -c '[ "$(echo "$0" | sed -n "/^┌/,/^└/p" | sed "1d;\$d" | grep -c "^┆.*┆$")" -eq 50 ]' "$s"
check "v p zoomed: the top side only dots and the zoom" sh -c 'echo "$0" | grep -Eq "^┌┄+ ×4 ┄┐$"' "$s"
check "v p zoomed: the legend" sh -c 'echo "$0" | grep -Eq "└┄ → v [0-9.]+/cell  ▷ p [0-9.]+/cell  ⇒ aim ┄"' "$s"

# --- trails move with the view; a new zoom clears them ---
# (a trail is a dot a frame: a row of lone dots behind the ball, not a
# blot under it, when the trails move with the view)
s=$(snap --keys='z z t <t 12> space' $U)
check "trails while following: a row behind the ball" sh -c 'echo "$0" | grep -Eq "([⡀⢀] {3,}){8}"' "$s"
s=$(snap --keys='z z t <t 12> space z' $U)
check "a new zoom clears the trails" sh -c '! echo "$0" | grep -Eq "[⡀⢀] {3,}[⡀⢀]"' "$s"

# --- the split view: the same window on both tables ---
s=$(snap --keys='s z z' $U)
check "split: both tables zoomed" [ "$(echo "$s" | grep -o '×4' | wc -l)" -eq 2 ]
check "split: both titles kept" sh -c 'echo "$0" | grep -q "springs · KE+PE 50" && echo "$0" | grep -q "events · KE 50"' "$s"

# --- panels beside or below the table, whichever leaves it larger ---
# the values panel at 200x60: below, the table's frame 196 columns wide
# (beside it was 114, and a third of the screen empty); at 120x24 beside
# (52: a band would leave it smaller)
width() { "$SB" --snapshot="$1" --no-color --keys='i' $U | grep -m1 '┌' | grep -o '─' | wc -l; }
check "i at 200x60: the panel under the table, the table 196 wide" [ "$(width 200x60)" -eq 196 ]
check "i at 120x24: the panel beside, the table 52 wide" [ "$(width 120x24)" -eq 52 ]

# --- small screens and help ---
check "80x24: zoomed, the marks" sh -c '"$0" --snapshot --no-color --keys="space z z" "$1" | grep -q "×4"' "$SB" $U
check "help lists z Z 0 F" sh -c '"$0" --snapshot=120x50 --no-color --keys="?" | grep -q "z Z 0 F"' "$SB"

# --- tmux: the mouse through the zoomed view ---
tmux_open zoom
pane z 200 60 "$SB --paused $U; sleep 3600"
check "tmux: paused" wait_for z "paused"
T send-keys -t z z z
check "tmux: z z" wait_for z "×4"
# SGR columns and rows count from 1: cell (130, 20) is 131;21
sgr z '0;131;21M'; sgr z '0;131;21m'
T send-keys -t z a
check "tmux: a click while zoomed, a: the world point drawn there" wait_for z "ball 3 added at \(230\.8, 199\)"
T send-keys -t z 0
check "tmux: 0: the whole table" wait_for z "zoom: the whole table"
T send-keys -t z q
summary
