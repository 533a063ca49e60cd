#!/bin/sh
# shown.sh - one state, one truth (issue 24): what the terminal shows of a
# moment, what --snapshot draws for the same keys, what R records and what
# a headless run writes agree. The real binary in a detached tmux session
# of fixed size (own server socket), keys sent with send-keys, the screen
# read with capture-pane.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
HEADON=$(pwd)/scenes/headon.scene
scratch

# Headless: --series through the head-on contact keeps E within 1% of 100
# (the stored velocities' energy climbed to 108.57), and the frame at step
# 270 is the observed state (vx -0.1199 mid-contact, not the stored 0.673).
"$SB" -H -n 400 --series="$tmpd/h.csv" --traj="$tmpd/h.xyz" "$HEADON" >/dev/null
check "--series: E within 1% through the contact" awk -F, 'NR > 1 {
    d = $6 - 100; if (d < 0) d = -d; if (d > m) m = d } END { exit !(NR == 402 && m < 1) }' "$tmpd/h.csv"
vx_h=$(awk '/Step=270 / { f = 1; next } f && /^X/ { print $5; exit }' "$tmpd/h.xyz")
check "--traj: vx at step 270 is the observed one ($vx_h)" \
    awk -v v="$vx_h" 'BEGIN { exit !(v < -0.1199 && v > -0.12) }'

tmux_open shown
# start NAME COLS ROWS ARGS...: springball ARGS in session NAME, in $tmpd
start() {
    name=$1 w=$2 h=$3
    shift 3
    (cd "$tmpd" && pane "$name" "$w" "$h" "$SB $*")
}
# plot NAME: the plot panel's rows (from its rule to the line before the note)
plot() { sed -n '/── energy/,$p' | sed '$d' | sed '$d'; }
# midrows: the plot's rows between its top and bottom labels hold braille
midrows() { sed -n '3,9p' | LC_ALL=C grep -c "$(printf '\342')[$(printf '\240-\243')]"; }

# --- the plot after stepping over the whole contact: live = snapshot ---
start p 80 30 "$HEADON"
wait_for p " step [0-9]+ " >/dev/null
for k in Space r P ']' ']'; do keys p "$k"; done
wait_for p "contact ended" >/dev/null
screen p | plot >"$tmpd/live"
"$SB" --snapshot=80x30 --no-color --keys="space r P ] ]" "$HEADON" | plot >"$tmpd/snap"
check "space r P ] ]: the terminal draws what --snapshot draws" cmp -s "$tmpd/live" "$tmpd/snap"
check "space r P ] ]: the dip and the hump are drawn ($(midrows <"$tmpd/live") rows)" \
    test "$(midrows <"$tmpd/live")" -ge 5
# a burst of keys: ']' then twenty '.' sent at once
keys p r
keys p ']'
T send-keys -t p . . . . . . . . . . . . . . . . . . . .
wait_for p " step 281 " >/dev/null
screen p | plot >"$tmpd/live2"
"$SB" --snapshot=80x30 --no-color --keys="space r P ] r ] . . . . . . . . . . . . . . . . . . . ." \
    "$HEADON" | plot >"$tmpd/snap2"
check "] and a burst of twenty '.': the terminal draws what --snapshot draws" \
    cmp -s "$tmpd/live2" "$tmpd/snap2"
check "] and a burst of twenty '.': the contact is drawn" test "$(midrows <"$tmpd/live2")" -ge 5

# --- step 270: the values table, R's frame and the headless frame agree ---
start v 100 40 "$HEADON"
wait_for v " step [0-9]+ " >/dev/null
for k in Space r i ']'; do keys v "$k"; done
wait_for v "contact began" >/dev/null
soon still v
s=$(screen v | tail -n 1 | sed -n 's/.* step \([0-9]*\) .*/\1/p')
i=${s:-270}
while [ "$i" -lt 270 ]; do T send-keys -t v .; i=$((i + 1)); done
check "step 270 reached" wait_for v " step 270 "
keys v R
keys v R
check "R: one frame recorded" wait_for v "recorded 1 frame to springball-1.xyz"
vx_t=$(screen v | awk '$1 == 1 && NF == 9 { print $5 }')
vx_r=$(awk '/^X/ { print $5; exit }' "$tmpd/springball-1.xyz")
ke_t=$(screen v | sed -n 's/.* KE \([-0-9.e]*\)  PE .*/\1/p' | tail -n 1)
ke_s=$(awk -F, 'NR == 272 { print $3 }' "$tmpd/h.csv")
check "table vx $vx_t = R's $vx_r = --traj's $vx_h" awk -v a="$vx_t" -v b="$vx_r" -v c="$vx_h" \
    'BEGIN { exit !(b == c && a != "" && (a - b < 1e-4 && b - a < 1e-4)) }'
check "status KE $ke_t = --series' $ke_s" awk -v a="$ke_t" -v b="$ke_s" \
    'BEGIN { d = a - b; exit !(a != "" && d < 1e-6 && d > -1e-6) }'

# --- paused mid-contact: d and e change nothing shown; :v reads back ---
keys v d
check "d: dt changed" wait_for v " dt 0.04 "
check "d: the KE shown stays" wait_for v " KE $ke_t "
keys v e
check "e: restitution changed" wait_for v " e 0.9( |$)"
check "e: the KE shown stays" wait_for v " KE $ke_t "
keys v :
T send-keys -t v -l "v 12.5 0"
keys v Enter
check ":v 12.5 0 reads back 12.5" wait_for v "^   1 +1.0000 +[0-9.]+ +200.00 +12.500 +0 "

summary
