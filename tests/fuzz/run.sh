#!/bin/sh
# run.sh - runs each libFuzzer harness in build/fuzz for FUZZTIME seconds
# (default 60), one after the other, on one core. Called by `make fuzz`.
#
# The seed corpus is assembled here from the example scenes and the test
# fixtures as symbolic links (build/fuzz/seed-NAME); what a run learns goes
# to build/fuzz/corpus-NAME, kept between runs. A crash leaves its input in
# build/fuzz/ as crash-*, leak-*, timeout-* or oom-*, and stops the script.
#
# FUZZTIME   seconds per harness (default 60)
# FUZZERS    which harnesses (default: scene universe particles detect view sim command numfmt session script traj lesson imd)
# FUZZFLAGS  more libFuzzer flags, e.g. -runs=1000
set -u
cd "$(dirname "$0")/../.." || exit 1
FUZZTIME=${FUZZTIME:-60}
FUZZERS=${FUZZERS:-"scene universe particles detect view sim command numfmt session script traj lesson imd"}
FUZZFLAGS=${FUZZFLAGS:-}
B=build/fuzz

# seed NAME FILE...: links each FILE into $B/seed-NAME.
seed() {
    d=$B/seed-$1
    shift
    rm -rf "$d"
    mkdir -p "$d"
    for f in "$@"; do
        [ -f "$f" ] || continue
        ln -s "$PWD/$f" "$d/$(echo "$f" | tr / _)"
    done
}
seed scene scenes/*.scene tests/scenes/*.scene
seed universe scenes/*.txt tests/universes/*.txt tests/universes/bad/*
seed particles tests/particles/*.txt
seed traj tests/replay/*
seed lesson scenes/lessons/*.lesson tests/lessons/*.lesson
seed detect scenes/* tests/scenes/* tests/particles/*.txt tests/universes/*.txt \
    tests/universes/bad/*

seed sim scenes/* tests/scenes/* tests/particles/*.txt tests/universes/*.txt
seed view scenes/* tests/scenes/* tests/particles/*.txt tests/universes/*.txt
mkdir -p "$B/seed-command"
for l in 'ball 100 200 5 0 1 15 red' 'k 20' 'dt 0.01' 'restitution 0.8' 'walls hard' \
         'rack 400 200 3 10 1' 'random 5 5 1 1 7' 'm 1.5' 'r 12' 'v 2 0' 'x 300 200' 'del' 'cue 2'; do
    printf '%s' "$l" > "$B/seed-command/$(echo "$l" | tr ' ' _)"
done

mkdir -p "$B/seed-numfmt" # 8 bytes a double: 0.1, 1/3, 5e-324, DBL_MAX, 2^63
for h in 9a9999999999b93f 555555555555d53f 0100000000000000 ffffffffffffef7f 000000000000e043; do
    oct=
    for b in $(echo "$h" | sed 's/../& /g'); do oct="$oct$(printf '\\%03o' "0x$b")"; done
    printf "$oct" > "$B/seed-numfmt/$h"
done
# session: a byte an operation, then its ball and values (fuzz_session.c)
mkdir -p "$B/seed-session"
printf '\000\001\002\005\016\001\003\004\003\003\017\000\007\040' > "$B/seed-session/edits"
printf '\007\001\001\001\005\003\004\022\001\011\005\005\023\000\012' > "$B/seed-session/events"
mkdir -p "$B/seed-script" # key scripts (--keys)
printf '%s' '. . <t 40> space up*3 <click 3 4> <:k 20> <wheel up 3 4 mod> C-l <drag 5 6>' > "$B/seed-script/demo"
# imd: a piece size, the handshake, a frame of 2 atoms (all 1.0), ENERGIES,
# a frame (all 2.0); printf alone holds NUL bytes
mkdir -p "$B/seed-imd"
{
    printf '\007\000\000\000\004\002\000\000\000\000\000\000\002\000\000\000\002'
    for i in 1 2 3 4 5 6; do printf '\000\000\200\077'; done
    printf '\000\000\000\001\000\000\000\001'
    for i in 1 2 3 4 5 6 7 8 9 10; do printf '\000\000\000\000'; done
    printf '\000\000\000\002\000\000\000\002'
    for i in 1 2 3 4 5 6; do printf '\000\000\000\100'; done
} > "$B/seed-imd/stream"

status=0
for z in $FUZZERS; do
    mkdir -p "$B/corpus-$z"
    dict=
    [ -f "tests/fuzz/$z.dict" ] && dict=-dict=tests/fuzz/$z.dict
    echo "== fuzz_$z for ${FUZZTIME}s"
    # -max_len: the small seeds are where the inputs grow; -timeout: no
    # single input may take 10 s (random near jamming takes some); -rss_limit_mb:
    # nor more than 1 GiB.
    # shellcheck disable=SC2086
    "$B/fuzz_$z" -max_total_time="$FUZZTIME" -max_len=8192 -timeout=10 \
        -rss_limit_mb=1024 -print_final_stats=1 -artifact_prefix="$B/" \
        $dict $FUZZFLAGS "$B/corpus-$z" "$B/seed-$z" || { status=1; break; }
done
exit $status
