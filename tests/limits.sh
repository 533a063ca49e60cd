#!/bin/sh
# limits.sh - issue 27: what springball prints, saves or records reads back
# or is refused with a reason; no output clobbers an input or another
# output; control bytes never reach the terminal; long waits sleep and long
# edits are not quadratic. Each check failed before its fix.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out
err=$tmp/err
export LC_ALL=C.UTF-8
ROOT=$(pwd)
HEADON=$ROOT/scenes/headon.scene
snap() { "$SB" --snapshot --no-color "$@" 2>"$err"; }
has() { printf '%s\n' "$1" | grep -qF -- "$2"; }
# none FILE...: none of them exists; all FILE...: each exists, not empty
none() { for f; do [ ! -e "$f" ] || return 1; done; }
all() { for f; do [ -s "$f" ] || return 1; done; }
esc=$(printf '\033')

# --- 2: w saves no non-finite state ---
cd "$tmp" || exit 1
s=$(snap --save-to=s.scene --keys='<:ball 1e308 1 1 1 1 1> space <t 10> w' "$HEADON")
check "w: an infinite state is not saved" [ ! -e s.scene ]
check "w: it says why" has "$s" "cannot save: the state is not finite"
snap --save-to=s.scene --keys='<:v 1e308 1e308> m space <t 10> w' "$HEADON" >/dev/null
check "w: nor after :v 1e308 1e308 in the event engine" [ ! -e s.scene ]
snap --save-to=s.scene --keys='w' "$HEADON" >/dev/null
check "w: a finite state is saved and reads back" "$SB" -H s.scene >/dev/null
rm -f s.scene

# --- 4: a snapshot's wait does at most 10^6 steps, also with trails or the plot ---
for k in 't <t 1e300>' 'P <t 1e300>' '<t 1e300>'; do
    s=$(timeout 60 "$SB" --snapshot --no-color --keys="$k" "$ROOT/scenes/break.scene" | tail -n 1)
    check "snapshot '$k': 10^6 steps, then behind" has "$s" "step 1000000  E 51.1361 (+2.272%)  behind"
done

# --- 5: a :random or :rack line adds its balls at once (O(N + n), was O(n N)) ---
printf 'table 4000 4000\nrandom 100000 1 1 1 1\n' >"$tmp/big.scene"
start=$(date +%s)
s=$(snap --keys='<:random 1000 1 1 1 1>' "$tmp/big.scene")
s2=$(snap --keys='<:random 10000 1 1 1 1>' "$HEADON")
took=$(( $(date +%s) - start ))
check ":random 1000 on 10^5 balls and :random 10000 take seconds at most (${took} s; 24 s and 8 s before)" [ "$took" -le 6 ]
check ":random 1000 on 10^5 balls: all added" has "$s" "1000 balls added"
check ":random 10000: all added" has "$s2" "10002 balls"
check ":random 100001: refused" has "$(snap --keys='<:random 100001 0.1 1 1 1>' "$HEADON")" "at most 100000 balls a command"

# --- 8: recording cadence and size ---
"$SB" -H -n 20 --every-t=1e-320 --series="$tmp/c.csv" "$HEADON" >/dev/null
check "--every-t=1e-320: a row each step (21; was 1)" [ "$(wc -l <"$tmp/c.csv")" = 22 ]
expect_fail 2 "springball: --every-t: 1e+300 frames: at most 10^9 (a larger --every or --every-t)" \
    "$SB" -H --engine=event -T 1 --every-t=1e-300 --series="$tmp/e.csv" "$ROOT/scenes/hard.scene"
check "--every-t=1e-300, event engine: nothing written" none "$tmp/e.csv"
# 8.6 TB: more than any disk here has free; refused before anything is written
"$SB" -H -n 1000000 --traj="$tmp/huge.xyz" "$tmp/big.scene" >"$out" 2>"$err"
check "a recording larger than the free space: status 2" [ $? = 2 ]
check "a recording larger than the free space: says so" \
    grep -q "^springball: --traj=$tmp/huge.xyz: about 8.6 TB (1000001 frames of 100000 balls), more than the .* free there$" "$err"
check "a recording larger than the free space: no file" none "$tmp/huge.xyz"
# over a gigabyte: the size is said first (then /dev/full fails at once)
"$SB" -H -n 200 --traj=/dev/full "$tmp/big.scene" >/dev/null 2>"$err"
check "a recording over 1 GB: its size is said first" \
    [ "$(head -n 1 "$err")" = "springball: --traj=/dev/full: about 1.73 GB (201 frames of 100000 balls)" ]

# --- 9, 14: --save-to ---
long=$tmp/$(printf 'a%.0s' $(seq 200))/$(printf 'b%.0s' $(seq 200))/$(printf 'c%.0s' $(seq 150))
mkdir -p "$long"
snap --save-to="$long/x.scene" --keys='w w' "$HEADON" >/dev/null
check "--save-to of 580 bytes: w writes it whole" [ -s "$long/x.scene" ]
check "--save-to of 580 bytes: the second w writes x-2.scene" [ -s "$long/x-2.scene" ]
expect_fail 2 "springball: --save-to: the name is longer than 4000 bytes" \
    "$SB" --snapshot --save-to="$(printf 'a%.0s' $(seq 4001))" "$HEADON"
expect_fail 2 "springball: --save-to: the file name is empty" "$SB" --snapshot --save-to= "$HEADON"
mkdir -p dir
expect_fail 2 "springball: --save-to: 'dir' is not a regular file (w writes a new file)" \
    "$SB" --snapshot --save-to=dir "$HEADON"
check "--save-to=DIR: nothing beside it" [ ! -e dir-2 ]
expect_fail 2 "springball: --save-to: '/dev/null' is not a regular file (w writes a new file)" \
    "$SB" --snapshot --save-to=/dev/null "$HEADON"
# a full disk: a file size limit of 0 (its signal ignored) fails every write
full() { (trap '' XFSZ; ulimit -f 0; "$@"); }
s=$(full "$SB" --snapshot --no-color --save-to=f.scene --keys=w "$HEADON" 2>"$err")
check "w on a full disk: no empty file left" [ ! -e f.scene ]
check "w on a full disk: it says so" has "$s" "cannot save f.scene: File too large"
s=$(full "$SB" --snapshot --no-color --keys='R <t 1> R' "$HEADON" 2>&1)
check "R on a full disk: says so" has "$s" "recording stopped: springball-1.xyz: write error: File too large"
check "R on a full disk: no empty files left" none springball-1.xyz springball-1.csv
# (its messages through a pipe: a file as stderr is full too)
s=$(full sh -c '"$0" -n 10 --export=lammps ex "$1" 2>&1 >/dev/null; echo "status $?"' "$SB" "$HEADON")
check "--export on a full disk: no files left" none ex.data ex.in
check "--export on a full disk: the message, status 1" [ "$s" = "springball: ex.data: write error: File too large
status 1" ]

# --- 18: the numbers of w go on; <lt> ---
start=$(date +%s)
snap --keys='w*3000' "$HEADON" >/dev/null
took=$(( $(date +%s) - start ))
check "w*3000 takes seconds, not minutes (${took} s; 11 s before)" [ "$took" -le 6 ]
check "w*3000: 3000 files" [ "$(ls springball-*.scene | wc -l)" = 3000 ]
check "w*3000: the last is springball-3000.scene" [ -s springball-3000.scene ]
rm -f springball-*.scene
touch springball-2.scene
snap --keys='w w w' "$HEADON" >/dev/null
check "w: a taken name is skipped" all springball-1.scene springball-3.scene springball-4.scene
check "w: a taken name is not overwritten" [ ! -s springball-2.scene ]
rm -f springball-*.scene
check "<lt> is '<' (kick speed down x1.25, three times)" has "$(snap --keys='<lt>*3' "$HEADON")" "v 5.12"

# --- 10: outputs that alias inputs or each other ---
cp "$HEADON" in.scene
cp in.scene keep.scene
expect_fail 2 "springball: --traj: 'in.scene' is the scene file being read" \
    "$SB" -H -n 2 --traj=in.scene in.scene
expect_fail 2 "springball: --series: './in.scene' is the scene file being read" \
    "$SB" -H -n 2 --series=./in.scene in.scene
ln -s in.scene link.scene
expect_fail 2 "springball: --traj: 'link.scene' is the scene file being read" \
    "$SB" -H -n 2 --traj=link.scene in.scene
check "the input is untouched" cmp -s in.scene keep.scene
mkdir -p d
expect_fail 2 "springball: --traj and --series cannot write to the same file ('d/a' is 'd/./a')" \
    "$SB" -H -n 2 --traj=d/a --series=d/./a in.scene
expect_fail 2 "springball: --traj and --series cannot write to the same file ('/dev/stdout' is '-')" \
    "$SB" -H -n 2 --traj=/dev/stdout --series=- in.scene
ln -s not-yet.xyz dangling
expect_fail 2 "springball: --traj and --series cannot write to the same file ('dangling' is 'not-yet.xyz')" \
    "$SB" -H -n 2 --traj=dangling --series=not-yet.xyz in.scene
check "nothing was written" none d/a not-yet.xyz
"$SB" -n 2 --export=lammps in in.scene >/dev/null 2>&1 # in.in and in.data: no alias
check "--export beside its scene" [ -s in.data ]
cp in.scene x.data
expect_fail 2 "springball: --export: 'x.data' is the scene file being read" \
    "$SB" -n 2 --export=lammps x x.data
"$SB" -H -n 2 --traj=same.xyz in.scene >same.xyz 2>"$err"
check "--traj to the file standard output writes: frames, not the final state mixed in" \
    [ "$(grep -c '^title' same.xyz)" = 0 ]

# --- 11: a closed pipe is a write error ---
# unread COMMAND...: COMMAND with standard output a pipe whose read end was
# closed before it started, so its first write fails every time. (The
# check was '| head -c N': it held only while the output outgrew what the
# pipe buffers, 64 KB on Linux, before head had gone.)
unread() {
    rm -f "$tmp/fifo"
    mkfifo "$tmp/fifo" || return 99
    (exec 5<>"$tmp/fifo" 6>"$tmp/fifo" 5<&-; "$@" >&6 6>&-)
}
unread "$SB" -H -n 1000 --traj=- "$ROOT/scenes/gas.scene" 2>"$err"
check "closed pipe: status 1 (was 141)" [ $? = 1 ]
check "closed pipe: says write error" grep -q "^springball: standard output: write error: Broken pipe" "$err"
# the final state: a few hundred bytes, which a pipe held before head went
unread "$SB" -H -n 2 "$HEADON" 2>"$err"
check "closed pipe, the final state: status 1" [ $? = 1 ]
check "closed pipe, the final state: says write error" grep -q "^springball: write error: Broken pipe" "$err"
# the helper itself: a command that does not ignore SIGPIPE dies of it
unread sh -c 'echo x'
check "unread: the pipe is closed (sh dies of SIGPIPE: 141)" [ $? = 141 ]

# --- 13: garbage is no number ---
expect_fail 2 "springball: --snapshot: '4294967297x24' is not COLSxROWS (1 to 1000 each)" \
    "$SB" --snapshot=4294967297x24 "$HEADON"
expect_fail 2 "springball: --snapshot: '80x24x' is not COLSxROWS (1 to 1000 each)" \
    "$SB" --snapshot=80x24x "$HEADON"
expect_fail 2 "springball: --keys: <click 4294967296 0>: column and row from 0 to 10000" \
    "$SB" --snapshot --keys='<click 4294967296 0>' "$HEADON"
expect_fail 2 "springball: --keys: <press 1 -0>: column and row from 0 to 10000" \
    "$SB" --snapshot --keys='<press 1 -0>' "$HEADON"
expect_fail 2 "springball: --keys: '<t 1                ...': an item <...> is at most 63 characters" \
    "$SB" --snapshot --keys="<t 1$(printf '%70s' '')junk>" "$HEADON"
expect_fail 2 "springball: --keys: <t 1x>: the wait must be a finite time >= 0" \
    "$SB" --snapshot --keys='<t 1x>' "$HEADON"

# --- 15: the : line refuses what it cannot hold ---
z=$(printf '0%.0s' $(seq 250))
s=$(snap --keys="<:ball 100 100 0 0 1$z>" "$HEADON")
check ": line over 200 bytes: refused" has "$s" "the line is longer than 200 characters: not run"
check ": line over 200 bytes: no ball added" has "$(snap --keys="<:ball 100 100 0 0 1$z> esc" "$HEADON")" "2 balls"
s=$(snap --keys="<:ball 100 100 0 0 1$z> esc <:ball 100 100 0 0 1 1> esc" "$HEADON")
check ": line: the next line runs" has "$s" "3 balls"

# --- 16: control bytes never reach the output ---
for a in "--keys=${esc}[31m" "--engine=${esc}[31m" "--snapshot=${esc}[2J"; do
    "$SB" --snapshot "$a" "$HEADON" >/dev/null 2>"$err"
    check "control bytes in $(printf '%s' "$a" | tr -d '\033'): not echoed" not grep -q "$esc" "$err"
done
"$SB" -n 1 --export=lammps "a${esc}b" "$HEADON" >/dev/null 2>"$err"
check "control bytes in the export prefix: not echoed" not grep -q "$esc" "$err"
"$SB" -H "x${esc}[2J.scene" >/dev/null 2>"$err"
check "control bytes in a scene's name: not echoed" not grep -q "$esc" "$err"
printf 'title A\302\2332JB\ntable 100 50\nball 10 10 0 0 1 2\n' >c1.scene
snap c1.scene >"$out"
check "U+009B in a title: not in the snapshot" not grep -q "$(printf '\302\233')" "$out"
check "U+009B in a title: shown as U+FFFD" grep -q "A$(printf '\357\277\275')2JB" "$out"

cd "$ROOT" || exit 1
summary
