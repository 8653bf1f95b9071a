#!/bin/sh
# build.sh: what a new user waits for before the first model (make docs-numbers; make bench runs
# it too): the implementation's compile (the translation unit with GPUSVM_IMPLEMENTATION) with gcc
# and clang at -O2 and -O0, best of BUILD_RUNS (default 2); the prediction-only program's size
# (tests/scripts/predict_size.sh, which make check holds to its bound); and a first gpusvm-train of
# heart_scale and of a9a through PoCL with PoCL's cache emptied (a private one), whole process,
# then the same run again with the cache warm. Each figure beside the bound the docs state for the
# 2-core machine they were measured on (docs/results.md); "over" marks one past it.
set -u
B=build
T=$B/bench/build
RUNS=${BUILD_RUNS:-2}
mkdir -p "$T"
now() { date +%s.%N; }
best() { printf '%s\n' "$@" | sort -g | head -n 1; }
mark() { # mark VALUE BOUND: "VALUE s (bound BOUND s)" and " over" past it
    awk -v v="$1" -v b="$2" 'BEGIN { printf "%.2f s (bound %s s)%s", v, b, (v + 0 > b + 0) ? " **over**" : "" }'
}
sh bench/stamp.sh
echo
echo "The implementation's compile (\`cc -c\` of a file with GPUSVM_IMPLEMENTATION and gpusvm.h; best of $RUNS):"
echo
printf '#define GPUSVM_IMPLEMENTATION\n#include "gpusvm.h"\n' > "$T/impl.c"
echo "| compiler | -O2 | -O0 |"
echo "|---|---|---|"
for cc in gcc clang; do
    command -v $cc > /dev/null 2>&1 || { echo "| $cc | not installed | |"; continue; }
    line="| $($cc --version | head -n 1) |"
    for o in O2 O0; do
        ts=
        for i in $(seq "$RUNS"); do
            s=$(now)
            $cc -$o -I. -c -o "$T/impl.o" "$T/impl.c" || { ts=failed; break; }
            ts="$ts $(awk -v s="$s" -v e="$(now)" 'BEGIN { print e - s }')"
        done
        case "$ts" in
        *failed*) line="$line failed |" ;;
        *) line="$line $(mark "$(best $ts)" "$([ $o = O2 ] && echo 12 || echo 2.5)") |" ;;
        esac
    done
    echo "$line"
done
echo
echo "The prediction-only program (examples/predict_only.c; GPUSVM_PREDICT_ONLY, GPUSVM_STATIC, GPUSVM_NO_OPENCL, GPUSVM_NO_THREADS, -O2, stripped):"
echo
sh tests/scripts/predict_size.sh "$T" | sed -n 's/^\(gcc\|clang\): predict_only \([0-9]*\) bytes stripped (at most \([0-9]*\)).*/- \1: \2 bytes (bound \3)/p'
echo
# PoCL's first run: its cache emptied (a private one, so the user's stays), gpusvm's unused there
pocl_run() { # pocl_run MODEL ERR: heart_scale through PoCL with the private cache
    POCL_CACHE_DIR=$T/pocl GPUSVM_BACKEND=opencl GPUSVM_DEVICE="Portable Computing Language" $B/gpusvm-train data/heart_scale "$1" > /dev/null 2> "$2"
}
if ! pocl_run "$T/probe.model" "$T/probe.err" || ! grep -q 'device: .*Portable Computing Language' "$T/probe.err"; then
    echo "PoCL's first run: not run (no PoCL device: $(tail -n 1 "$T/probe.err"))"
    exit 0
fi
echo "A first \`gpusvm-train data/heart_scale\` through PoCL (GPUSVM_BACKEND=opencl GPUSVM_DEVICE=\"Portable Computing Language\"), PoCL's cache emptied, whole process (the kernel program's compile inside it); then again with the cache warm (best of $RUNS each):"
echo
firsts= programs= agains= same=yes
for i in $(seq "$RUNS"); do
    rm -rf "$T/pocl"
    s=$(now)
    pocl_run "$T/first.model" "$T/first.err" || { echo "- failed: $(tail -n 1 "$T/first.err")"; exit 1; }
    firsts="$firsts $(awk -v s="$s" -v e="$(now)" 'BEGIN { print e - s }')"
    programs="$programs $(sed -n 's/.*kernel program: \([0-9.]*\) s.*/\1/p' "$T/first.err")"
    s=$(now)
    pocl_run "$T/again.model" "$T/again.err"
    agains="$agains $(awk -v s="$s" -v e="$(now)" 'BEGIN { print e - s }')"
    cmp -s "$T/first.model" "$T/again.model" || same=no
done
echo "- first run: $(mark "$(best $firsts)" 6) (the kernel program $(best $programs) s of it)"
echo "- again: $(mark "$(best $agains)" 0.5); the same model file: $same"
