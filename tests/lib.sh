# lib.sh: the step helpers of run.sh (make test) and check.sh (make check), sourced by both. Each
# step is one line, ok or FAIL, and adds "passed failed" to $res; its output goes to $log.
now() { date +%s.%N 2>/dev/null || date +%s; }
# seconds since $1 (one decimal)
took() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

step() { # step NAME COMMAND...: runs the command, output to the log; the line gives its seconds
    name=$1
    shift
    echo "== $name: $*" >> "$log"
    t0=$(now)
    if "$@" >> "$log" 2>&1; then
        echo "1 0" >> "$res"
        echo "ok   $name ($(took "$t0") s)"
    else
        echo "0 1" >> "$res"
        echo "FAIL $name (see $log)"
        tail -n 15 "$log" | sed 's/^/     /'
    fi
}

# expect_fail NAME PATTERN COMMAND...: the command must exit non-zero and print PATTERN
expect_fail() {
    name=$1 pattern=$2
    shift 2
    echo "== $name: $*" >> "$log"
    out=$("$@" 2>&1)
    rc=$?
    echo "$out" >> "$log"
    if [ $rc -ne 0 ] && echo "$out" | grep -q -- "$pattern"; then
        echo "1 0" >> "$res"
        echo "ok   $name"
    else
        echo "0 1" >> "$res"
        echo "FAIL $name: exit $rc, wanted '$pattern', got: $out"
    fi
}

skip() { # skip REASON: a check not made on this machine, and why (the line, and $T/skips.txt)
    echo "skip $*"
    echo "$*" >> "$T/skips.txt"
}

# suite NAME SCRIPT ARGS...: a script that prints its own ok/FAIL lines and ends with
# "NAME: N passed, M failed"; its counts join the totals
suite() {
    name=$1
    shift
    echo "== $name" >> "$log"
    t0=$(now)
    if sh "$@" > $T/$name.txt 2>&1; then :; fi
    sed "s/^\($name: [0-9]* passed, [0-9]* failed\)$/\1 ($(took "$t0") s)/" $T/$name.txt
    sed -n 's/^skip //p' $T/$name.txt >> "$T/skips.txt"
    p=$(sed -n "s/^$name: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p" $T/$name.txt)
    f=$(sed -n "s/^$name: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p" $T/$name.txt)
    if [ -z "$p" ]; then f=1 p=0; echo "FAIL $name did not finish"; fi
    echo "$p $f" >> "$res"
}
