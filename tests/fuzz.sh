#!/bin/sh
# fuzz.sh SECONDS: runs each libFuzzer target (built by 'make fuzz-build') for SECONDS on its
# seed corpus (tests/corpus/*): the data reader, the model loader, and the public API driven by
# random sequences of calls (fuzz_api); new inputs go to build/fuzz/corpus_*, crashes to
# build/fuzz/artifacts. Inputs that once crashed live in tests/corpus as regression cases.
set -u
secs=${1:-60}
F=build/fuzz
mkdir -p $F/artifacts
status=0
for t in data model api; do
    mkdir -p $F/corpus_$t tests/corpus/$t
    if $F/fuzz_$t -max_total_time="$secs" -max_len=8192 -rss_limit_mb=2048 -timeout=10 \
        -artifact_prefix=$F/artifacts/$t- $F/corpus_$t tests/corpus/$t > $F/$t.log 2>&1; then
        runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' $F/$t.log)
        echo "fuzz_$t: $runs executions in ${secs} s, no crash"
    else
        echo "fuzz_$t: FAILED; input saved in $F/artifacts (add it to tests/corpus/$t once fixed):"
        grep -E "ERROR|SUMMARY|#[0-9]+ 0x" $F/$t.log | head -n 12
        status=1
    fi
done
exit $status
