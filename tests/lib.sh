# lib.sh - shared by the shell suites: counters and checks.
# Source it, call ok/bad (or check), and end with `summary`.
SPRINGBALL=${SPRINGBALL:-./springball}
npass=0
nfail=0
ok() { npass=$((npass + 1)); }
bad() { nfail=$((nfail + 1)); echo "FAIL: $*"; }
# check NAME COMMAND...: passes when COMMAND succeeds
check() { name=$1; shift; if "$@"; then ok; else bad "$name"; fi; }
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
