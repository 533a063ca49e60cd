#!/bin/sh
# engine.sh - --engine=lammps[:RANKS] (issue 40.3): a scene run by LAMMPS as
# springball's child, watched through IMD. Against the spring engine on
# headon, the break and a gas before chaos, serially and on 2 ranks; what
# the export refuses; the child and its files gone after SIGTERM, SIGINT,
# SIGHUP and after a failing or hanging lmp (a fake one on PATH); lmp
# missing. The real runs are skipped with a message when lmp is absent.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
tmp=$(mktemp -d)
# the suite's tmux server goes with it (left, it would hold land.sh's lock,
# which its descriptors inherit, for the hour its session sleeps)
trap 'if [ -n "${sock:-}" ]; then T kill-server 2>/dev/null; fi; rm -rf "$tmp"' EXIT
here=$(pwd)
# the child's folders and logs go here, to be looked at
mkdir "$tmp/t" "$tmp/fake"
TMPDIR=$tmp/t
export TMPDIR
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# nothing_left: no folder and no log of a child in $TMPDIR
nothing_left() { [ -z "$(ls -A "$tmp/t")" ]; }

# agree A B TOL: the ball lines of scenes A and B, field by field, within
# TOL (absolute; positions are hundreds, velocities tens); as many lines
agree() {
    awk -v tol="$3" 'NR == FNR { if ($1 == "ball") a[++n] = $0; next }
        $1 == "ball" { split(a[++m], f, " ")
            for (i = 2; i <= NF; i++) { d = $i - f[i]; if (d < 0) d = -d; if (d > w) w = d } }
        END { print "largest difference " w > "/dev/stderr"; exit !(m == n && n > 0 && w <= tol) }' "$1" "$2"
}

# running PID: the process runs (a zombie left to init does not)
running() { s=$(ps -o stat= -p "$1" 2>/dev/null); [ -n "$s" ] && [ "${s#Z}" = "$s" ]; }

# bg [NAME=VALUE]... CMD...: CMD in the background with SIGINT at its default (a shell
# runs background commands with SIGINT ignored, which springball keeps);
# its pid in $pid
bg() {
    env --default-signal=INT "$@" &
    pid=$!
}

# signum NAME: the number of SIGNAME
signum() { case $1 in HUP) echo 1 ;; INT) echo 2 ;; TERM) echo 15 ;; esac; }

# wait_for CMD...: CMD true within 30 s, looked at every 0.05 s
wait_for() {
    i=0
    while ! "$@"; do
        [ $i -ge 600 ] && return 1
        sleep 0.05
        i=$((i + 1))
    done
}

# --- without LAMMPS: refusals and the fake lmp -----------------------------
# what the export refuses, refused before any child, with its reason
for s in scenes/friction.scene scenes/softexp.scene scenes/gravity.scene; do
    "$SB" --engine=lammps -H -n 10 "$s" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    check "$s is refused (status 2)" test $rc -eq 2
    check "$s: says why" grep -q "engine=lammps: LAMMPS's gran/hooke mapping has no equivalent of" "$tmp/err"
    check "$s: nothing printed, nothing left" sh -c "[ ! -s '$tmp/out' ] && [ -z \"\$(ls -A '$tmp/t')\" ]"
done
"$SB" --engine=lammps -H -n 10 scenes/friction.scene 2>"$tmp/err"
check "friction: named" grep -q "no equivalent of friction" "$tmp/err"
"$SB" --engine=lammps:0 -H scenes/headon.scene 2>"$tmp/err"
check "--engine=lammps:0 is a usage error" test $? -eq 2
"$SB" --engine=lammps --snapshot scenes/headon.scene 2>"$tmp/err"
check "--snapshot is refused" grep -q "engine=lammps runs a scene, headless or in the terminal" "$tmp/err"

# lmp missing: PATH without it
PATH=/nonexistent "$SB" --engine=lammps -H -n 10 scenes/headon.scene >"$tmp/out" 2>"$tmp/err"
rc=$?
check "lmp missing: status 1" test $rc -eq 1
check "lmp missing: says so" grep -q "'lmp' is not on PATH" "$tmp/err"
check "lmp missing: nothing left" nothing_left

# a fake lmp that fails: the log kept and named, the folder gone
cat >"$tmp/fake/lmp" <<EOF
#!/bin/sh
echo "fake lmp: \$*"
case \$FAKE in
    fail) echo "ERROR: fake failure" >&2; exit 1 ;;
    hang) echo \$\$ >"$tmp/fakepid"; exec sleep 600 ;;
esac
EOF
chmod +x "$tmp/fake/lmp"
FAKE=fail PATH=$tmp/fake:$PATH "$SB" --engine=lammps -H -n 10 scenes/headon.scene >"$tmp/out" 2>"$tmp/err"
rc=$?
check "a failing lmp: status 1" test $rc -eq 1
check "a failing lmp: says so" grep -q "LAMMPS ended before it listened (exit status 1)" "$tmp/err"
log=$(sed -n "s/^springball: --engine=lammps: LAMMPS's output: //p" "$tmp/err")
check "a failing lmp: its log named ($log)" grep -q "ERROR: fake failure" "$log"
check "a failing lmp: its arguments in the log" grep -q "fake lmp: -in run.in .*-var sbport [0-9]" "$log"
check "a failing lmp: the log alone is left" test "$(ls -A "$tmp/t")" = "$(basename "$log")"
rm -f "$log"

# a hanging lmp, ended by each signal: the child and its files gone
for sig in TERM INT HUP; do
    num=$(signum $sig)
    rm -f "$tmp/fakepid"
    bg FAKE=hang PATH="$tmp/fake:$PATH" "$SB" --engine=lammps -H -n 10 scenes/headon.scene \
        >"$tmp/out" 2>"$tmp/err"
    wait_for test -s "$tmp/fakepid"
    check "a hanging lmp ($sig): started" test $? -eq 0
    fake=$(cat "$tmp/fakepid")
    kill -$sig $pid
    reap $pid "$WAIT" "springball after SIG$sig"
    rc=$?
    check "a hanging lmp: SIG$sig ends springball by it ($rc)" test $rc -eq $((128 + num))
    check "a hanging lmp: SIG$sig ends the child" not running "$fake"
    check "a hanging lmp: SIG$sig leaves nothing" nothing_left
    check "a hanging lmp: SIG$sig said" grep -q "SIG$sig: LAMMPS ended, its files removed" "$tmp/err"
done

if ! command -v lmp >/dev/null 2>&1; then
    echo "engine: lmp is not installed: the runs in LAMMPS are skipped"
    summary
    exit
fi
ranks="1"
if command -v mpirun >/dev/null 2>&1; then
    ranks="1 2"
else
    echo "engine: mpirun is not installed: the 2-rank runs are skipped"
fi

# --- LAMMPS against the spring engine ----------------------------------------
# (the bounds: measured 2.6e-6 on headon, 1.6e-4 on the break and 4.8e-5 on
# the gas at 100 steps, where it is not yet chaotic: 1e-3 is the bar)
for r in $ranks; do
    eng=lammps:$r
    for c in "headon -n 400" "headon -n 270" "headon -T 20" "break -n 1600" "gas -n 100"; do
        set -- $c
        "$SB" -H "$2" "$3" "scenes/$1.scene" >"$tmp/spring" 2>&1
        "$SB" --engine=$eng -H "$2" "$3" "scenes/$1.scene" >"$tmp/lmp" 2>"$tmp/err"
        check "$eng $c: runs ($(head -c 300 "$tmp/err"))" test $? -eq 0
        check "$eng $c: agrees with the spring engine to 1e-3" agree "$tmp/spring" "$tmp/lmp" 1e-3
        check "$eng $c: nothing left" nothing_left
    done
done
# (-n 270 is inside the contact: the stored velocities are half a step
# behind Verlet's, and the printed state reads back as the spring engine's)
"$SB" --engine=lammps -H -n 400 --stats scenes/headon.scene >/dev/null 2>"$tmp/err"
check "--stats: the spring engine's line, engine=lammps" \
    grep -q "^t=20 steps=400 ke=100.3231.* engine=lammps ranks=1$" "$tmp/err"

# --traj and --series: frames and rows at the spring engine's steps and
# values (from LAMMPS's %.17g dump)
"$SB" -H -T 20 --every 50 --traj="$tmp/a.xyz" --series="$tmp/a.csv" scenes/headon.scene >/dev/null
"$SB" --engine=lammps -H -T 20 --every 50 --traj="$tmp/b.xyz" --series="$tmp/b.csv" \
    scenes/headon.scene >/dev/null
check "--traj: the frames of the spring engine" \
    test "$(grep -c '^2$' "$tmp/b.xyz")" = 9 -a "$(grep -o 'Step=[0-9]*' "$tmp/b.xyz" | tr '\n' ' ')" = \
    "$(grep -o 'Step=[0-9]*' "$tmp/a.xyz" | tr '\n' ' ')"
check "--series: the rows of the spring engine (1e-3)" awk -F, '
    NR == FNR { ke[FNR] = $3; n = FNR; next }
    { d = $3 - ke[FNR]; if (d < 0) d = -d; if (d > 1e-3) bad++; m++ }
    END { exit !(m == n && n == 10 && !bad) }' "$tmp/a.csv" "$tmp/b.csv"
check "--traj --series: nothing left" nothing_left

# --- the terminal: LAMMPS as the live engine --------------------------------
# in_folder: how many processes work in a child's folder (mpirun, lmp)
in_folder() { ls -l /proc/[0-9]*/cwd 2>/dev/null | grep -c " -> $tmp/t/"; }
tmux_open engine
pane lv 80 24 "TMPDIR=$tmp/t OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 $SB --engine=lammps:2 scenes/headon.scene; echo rc=\$? >$tmp/lv.rc; sleep 60"
check "terminal: live, LAMMPS running" poll 300 shows lv "live · running · a frame / 10 steps"
check "terminal: mpirun and 2 ranks in the folder" test "$(in_folder)" -eq 3
T send-keys -t lv ' '
check "terminal: space pauses LAMMPS" poll 100 shows lv "live · paused"
# frames sent before PAUSE took effect may still land: the number settles first
frame_no() { screen lv | sed -n 's/.* frame \([0-9]*\) .*/\1/p'; }
settled() { a=$(frame_no); sleep 0.3; [ "$a" = "$(frame_no)" ]; }
poll 100 settled
f1=$(frame_no)
T send-keys -t lv -
check "terminal: - asks for fewer frames (trate 20)" poll 100 shows lv "a frame / 20 steps"
check "terminal: paused, no frame comes ($f1)" sh -c "sleep 0.5; [ \"\$(tmux -L $sock capture-pane -p -t lv | sed -n 's/.* frame \\([0-9]*\\) .*/\\1/p')\" = '$f1' ]"
# . while paused: exactly one frame a press: a frame LAMMPS sent before it
# heard the pause (held), or LAMMPS resumed (PAUSE toggles) and paused again
# at its next frame; pressed until the latter, which the status line says
frame_now() { screen lv | sed -n 's/.* frame \([0-9]*\) .*/\1/p'; }
f=$(frame_now)
f0=$f
n=0
stepped=1
until shows lv "paused after one frame" || [ $n -ge 40 ]; do
    T send-keys -t lv .
    becomes $((f + 1)) frame_now >/dev/null || stepped=0
    f=$((f + 1))
    n=$((n + 1))
    wait_for lv "paused after one frame|paused: \\. one frame" >/dev/null
done
check "terminal: . one frame a press ($n presses: frame $f0 to $f)" test $stepped -eq 1
check "terminal: . resumed LAMMPS for one frame and paused it again" \
    shows lv "^ frame $f +paused after one frame"
check "terminal: ... that frame stays (paused)" still lv
check "terminal: ... frame $f shown" is_now "$f" frame_now
T send-keys -t lv ' '
check "terminal: space again, running" poll 100 shows lv "live · running"
T send-keys -t lv q
check "terminal: q exits 0" poll 100 grep -qx "rc=0" "$tmp/lv.rc"
check "terminal: q ends the child" test "$(in_folder)" -eq 0
check "terminal: q leaves nothing" nothing_left

# --- the child and its files gone: a real run stopped mid-way ---------------
for sig in TERM INT HUP; do
    num=$(signum $sig)
    bg "$SB" --engine=lammps:2 -H -n 10000000 --every 1000 --series="$tmp/s.csv" \
        scenes/gas.scene >"$tmp/out" 2>"$tmp/err"
    # running: LAMMPS's dump of the run is there and growing
    wait_for sh -c "ls '$tmp'/t/*/run.lammpstrj >/dev/null 2>&1"
    check "a real run ($sig): started" test $? -eq 0
    # the child (mpirun) and its children (the ranks, in groups of their own)
    kids=$(ps -eo pid=,ppid= | awk -v p=$pid '{ par[$1] = $2 }
        END { for (k in par) if (par[k] == p || par[par[k]] == p) printf "%s ", k }')
    kill -$sig $pid
    reap $pid "$WAIT" "springball after SIG$sig"
    rc=$?
    check "a real run: SIG$sig ends springball by it ($rc)" test $rc -eq $((128 + num))
    left=
    for k in $kids; do running "$k" && left="$left $k"; done
    check "a real run: SIG$sig ends mpirun and lmp ($kids; left:$left)" test -z "$left"
    check "a real run: SIG$sig leaves nothing" nothing_left
    check "a real run: SIG$sig: the series to its last whole row" \
        sh -c "head -n 1 '$tmp/s.csv' | grep -q '^t,step,ke' && tail -n 1 '$tmp/s.csv' | grep -Eq '^[0-9.e+-]*,([0-9]*000|0),'"
done

summary
