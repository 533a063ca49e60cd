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
