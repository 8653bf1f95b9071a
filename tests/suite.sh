# suite.sh: what the test scripts that count their own checks share (run.sh's `suite` adds their
# counts to its totals). Sourced with W set to the script's scratch folder under build/.
set -u
B=build
rm -rf "$W"
mkdir -p "$W"
pass=0
fail=0
check() { # check STATUS MESSAGE
    if [ "$1" = 0 ]; then pass=$((pass + 1)); echo "ok   $2"; else fail=$((fail + 1)); echo "FAIL $2"; fi
}
summary() { # summary NAME: the line run.sh reads, and the exit status
    echo "$1: $pass passed, $fail failed"
    [ "$fail" = 0 ]
}
