# lib.sh - shared by the shell suites: counters and checks, a scratch
# directory, and the real binary in tmux. Source it from the repository's
# top, call ok/bad (or check), and end with `summary`.
SPRINGBALL=${SPRINGBALL:-./springball}
# SB: the binary under test by its absolute path (tmux panes and sh -c
# checks may run elsewhere)
SB=$(cd "$(dirname "$SPRINGBALL")" && pwd)/$(basename "$SPRINGBALL")
npass=0
nfail=0
ok() { npass=$((npass + 1)); }
bad() { nfail=$((nfail + 1)); echo "FAIL: $*"; }
# check NAME COMMAND...: passes when COMMAND succeeds
check() { name=$1; shift; if "$@"; then ok; else bad "$name"; fi; }
not() { ! "$@"; }
summary() { echo "$npass passed, $nfail failed"; [ "$nfail" -eq 0 ]; }
# expect_fail STATUS STDERR-LINE COMMAND...: exit STATUS, nothing on
# stdout, exactly STDERR-LINE as the first line of stderr. The caller sets
# $out and $err to scratch files.
expect_fail() {
    want_rc=$1 want_err=$2
    shift 2
    "$@" >"$out" 2>"$err" </dev/null
    rc=$?
    got=$(head -n 1 "$err")
    if [ "$rc" -eq "$want_rc" ] && [ ! -s "$out" ] && [ "$got" = "$want_err" ]; then
        ok
    else
        bad "$* -> status $rc, stderr '$got' (want $want_rc, '$want_err'), stdout $(wc -c <"$out") bytes"
    fi
}

# scratch: a scratch directory $tmpd, removed on exit together with the
# suite's tmux server (once tmux_open made one)
scratch() {
    tmpd=$(mktemp -d)
    trap 'if [ -n "${sock:-}" ]; then T kill-server 2>/dev/null; fi; rm -rf "$tmpd"' EXIT
}

# --- the real binary in tmux: detached sessions of fixed size on a server
# of the suite's own (socket sbNAME<pid>), keys sent with send-keys, the
# screen read with capture-pane. Every wait polls with a timeout.

# tmux_open NAME: the suite's server. Without tmux it says so, prints the
# summary and ends the suite (the checks before it stand).
tmux_open() {
    if ! command -v tmux >/dev/null 2>&1; then
        echo "SKIP $1: tmux is not installed (.ci/run installs it)"
        summary
        exit
    fi
    sock=sb$1$$
    # a session that lives as long as the suite, so that the server does
    # not exit (and race the next new-session) each time a test's ends
    T -f /dev/null new-session -d -s keep "sleep 3600"
}
# (fd 9 closed: a server outliving its suite must not keep a lock that the
# suite's caller holds on it, as land.sh's)
T() { tmux -L "$sock" "$@" 9>&-; }
# pane NAME COLS ROWS COMMAND: COMMAND (a shell line) in a new session NAME
# of that size, in the current directory, with LC_ALL=C.UTF-8 and
# TERM=xterm-256color (assignments in COMMAND come later and win)
pane() {
    name=$1 w=$2 h=$3
    shift 3
    T -f /dev/null new-session -d -s "$name" -x "$w" -y "$h" -c "$PWD" \
        "LC_ALL=C.UTF-8 TERM=xterm-256color $*"
}
# screen NAME: the pane's text; status NAME: its last line
screen() { T capture-pane -p -t "$1" 2>/dev/null; }
status() { screen "$1" | tail -n 1; }
# shows NAME ERE: the screen matches now (shows_esc: with its colours)
shows() { screen "$1" | grep -qE -- "$2"; }
shows_esc() { T capture-pane -e -p -t "$1" 2>/dev/null | grep -qE -- "$2"; }
# on_status NAME ERE: the last line matches now
on_status() { status "$1" | grep -qE -- "$2"; }
# Every wait below polls for a condition, never for a span of time: the
# suites must pass on a loaded machine (issue 43.15; tests/stress.sh runs
# them beside busy loops). WAIT is the cap in seconds (30): generous, as it
# is only reached when a check fails.
WAIT=${WAIT:-30}
# poll N COMMAND...: until COMMAND succeeds, N tenths of a second at most
poll() {
    lim=$1 i=0
    shift
    while [ $i -lt "$lim" ]; do
        "$@" && return 0
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}
# soon COMMAND...: poll for WAIT seconds
soon() { poll $((WAIT * 10)) "$@"; }
# wait_for NAME ERE [SECONDS]: until the screen matches (WAIT seconds, or
# SECONDS when more)
wait_for() {
    cap=${3:-$WAIT}
    [ "$cap" -lt "$WAIT" ] && cap=$WAIT
    poll $((cap * 10)) shows "$1" "$2" && return 0
    echo "timed out waiting for /$2/ in $1; the screen was:"
    screen "$1"
    return 1
}
# wait_gone NAME ERE: until the screen no longer matches
wait_gone() {
    soon not shows "$1" "$2" && return 0
    echo "timed out waiting for /$2/ to go from $1"
    return 1
}
# becomes WANT COMMAND...: until COMMAND prints WANT; else says what it
# printed last
becomes() {
    want=$1
    shift
    soon is_now "$want" "$@" && return 0
    echo "timed out waiting for '$want' from $*: it printed '$("$@")'"
    return 1
}
is_now() { want=$1; shift; [ "$("$@")" = "$want" ]; }
# still NAME: the screen the same over half a second (a frame being drawn,
# or a note's going, would change it)
still() {
    still_a=$(screen "$1")
    sleep 0.5
    [ "$still_a" = "$(screen "$1")" ]
}
# wait_rc NAME: the exit status a pane's command wrote to $tmpd/NAME.rc
# once it has ended, or "none"
wait_rc() {
    soon test -s "$tmpd/$1.rc"
    cat "$tmpd/$1.rc" 2>/dev/null || echo none
}
# alive PID: the process is there and not a zombie (a background job that
# ended and was not waited for yet is one: kill -0 would still succeed)
alive() {
    st=$(ps -o stat= -p "$1" 2>/dev/null)
    [ -n "$st" ] && [ "${st#Z}" = "$st" ]
}
# reap PID SECONDS WHAT: waits for the background job PID, SECONDS at most;
# its status, or past the cap: says so, ends it (TERM, KILL 3 s later) and
# returns 124. Never waits without end on a run that hangs.
reap() {
    if poll $(($2 * 10)) not alive "$1"; then
        wait "$1"
        return $?
    fi
    echo "timed out: $3 (pid $1) still running after $2 s: killed"
    kill "$1" 2>/dev/null
    poll 30 not alive "$1" || kill -9 "$1" 2>/dev/null
    wait "$1" 2>/dev/null
    return 124
}
# capped SECONDS WHAT COMMAND...: COMMAND in the foreground, SECONDS at most
# (then ended, said, status 124)
capped() {
    cap_s=$1 cap_what=$2
    shift 2
    timeout -k 3 "$cap_s" "$@"
    cap_rc=$?
    [ $cap_rc -eq 124 ] && echo "timed out: $cap_what still running after $cap_s s: killed" >&2
    return $cap_rc
}
# keys NAME KEYS: send-keys. Nothing waits here: what the keys do is
# waited for by the check after them (wait_for, becomes, soon).
keys() { T send-keys -t "$1" "$2"; }
# sgr NAME REPORT: an SGR mouse report, e.g. '0;21;12M' (press at column
# 21, row 12, counted from 1) or '0;21;12m' (its release)
# Sent as one paste, one write to the terminal: send-keys -l writes a key at
# a time, and on a loaded machine the program may read the lone ESC past its
# escape delay (25 ms) as the Esc key and the rest as keys ('M': mouse off).
sgr() { in_one "$1" "$(printf '\033[<%s' "$2")"; }
# in_one NAME TEXT: TEXT to the pane's program in one write
in_one() {
    T set-buffer -b sbseq -- "$2"
    T paste-buffer -d -b sbseq -t "$1"
}

# run_wrapper: writes $tmpd/run, the wrapper a pane runs springball in:
# `sh $tmpd/run $tmpd NAME springball ARGS` puts springball's pid in
# $tmpd/NAME.pid and its exit status in $tmpd/NAME.rc. It ignores SIGINT
# itself, so that C-c reaches only springball (which has its own handler).
run_wrapper() {
    cat >"$tmpd/run" <<'EOS'
dir=$1 name=$2
shift 2
trap '' INT
sh -c 'echo $$ > "$0"; exec "$@"' "$dir/$name.pid" "$@"
echo $? > "$dir/$name.rc"
EOS
}
