#!/bin/sh
# fuzz.sh SECONDS: runs each libFuzzer target (built by 'make fuzz-build') for SECONDS on its
# seed corpus (tests/fuzz/corpus/*): the data reader, the model loader, and the public API driven by
# random sequences of calls (fuzz_api); new inputs go to build/fuzz/corpus_*, crashes to
# build/fuzz/artifacts. Inputs that once crashed live in tests/fuzz/corpus as regression cases.
# fuzz.sh --runs N: the same from seed 1 for N executions each (fuzz_api N / 20), from the seed
# corpus alone: every run of it makes the same inputs, so 'make test' passes or fails the same way
# each time (make fuzz explores).
set -u
F=build/fuzz
if [ "${1:-}" = --runs ]; then
    runs=${2:-100000}
    rm -rf $F/fixed && mkdir -p $F/fixed
else
    runs=
    secs=${1:-60}
fi
mkdir -p $F/artifacts
status=0
for t in data model api; do
    mkdir -p $F/corpus_$t tests/fuzz/corpus/$t
    if [ -n "$runs" ]; then
        n=$runs; [ $t = api ] && n=$((runs / 20))
        mkdir -p $F/fixed/$t
        set -- -seed=1 -runs=$n $F/fixed/$t
        what="executions from seed 1"
    else
        set -- -max_total_time="$secs" $F/corpus_$t
        what="executions in ${secs} s"
    fi
    if $F/fuzz_$t "$@" -max_len=8192 -rss_limit_mb=2048 -timeout=10 \
        -artifact_prefix=$F/artifacts/$t- tests/fuzz/corpus/$t > $F/$t.log 2>&1; then
        done_runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' $F/$t.log)
        echo "fuzz_$t: $done_runs $what, no crash"
    else
        echo "fuzz_$t: FAILED; input saved in $F/artifacts (add it to tests/fuzz/corpus/$t once fixed):"
        grep -E "ERROR|SUMMARY|#[0-9]+ 0x" $F/$t.log | head -n 12
        status=1
    fi
done
exit $status
