#!/bin/sh
# predict_size.sh OUT_DIR: examples/predict_only.c built as the header says a program that only
# predicts is built (GPUSVM_PREDICT_ONLY, GPUSVM_STATIC, GPUSVM_NO_OPENCL, GPUSVM_NO_THREADS, -O2), with gcc and with
# clang where installed: it must classify its frames, be at most LIMIT bytes stripped, and hold no
# function of the solver; examples/quickstart.c built alike must hold them (the check can fail).
# A program that calls gpusvm_train in such a build must not compile.
set -u
T=${1:-build/tests}
LIMIT=65536
WARN="-Wall -Wextra -pedantic -Werror"
SOLVER='gpusvm__(solve_batch|cpu_smo|cpu_train_begin|cpu_cs_step|train_any)$'
status=0
mkdir -p "$T"
for cc in gcc clang; do
    command -v $cc > /dev/null 2>&1 || { echo "$cc not installed: skipped"; continue; }
    bin=$T/predict_only_$cc
    $cc -std=c99 -O2 $WARN -DGPUSVM_PREDICT_ONLY -DGPUSVM_STATIC -DGPUSVM_NO_OPENCL -DGPUSVM_NO_THREADS -I. -o $bin examples/predict_only.c -lm & p1=$!
    $cc -std=c99 -O2 $WARN -DGPUSVM_STATIC -DGPUSVM_NO_OPENCL -DGPUSVM_NO_THREADS -I. -o $T/quickstart_static_$cc examples/quickstart.c -lm & p2=$!
    wait $p1 && wait $p2 || { status=1; continue; }
    $bin | grep -q 'frames: -1 -1 -1 1 1 1' || { echo "$cc: predict_only does not classify its frames"; status=1; }
    strip -o $bin.stripped $bin
    size=$(wc -c < $bin.stripped)
    n=$(nm $bin | awk '{print $NF}' | grep -c -E "$SOLVER")
    m=$(nm $T/quickstart_static_$cc | awk '{print $NF}' | grep -c -E "$SOLVER")
    echo "$cc: predict_only $size bytes stripped (at most $LIMIT), $n solver functions in it, $m in the quickstart's build"
    [ "$size" -le $LIMIT ] && [ "$n" -eq 0 ] && [ "$m" -gt 0 ] || status=1
done
# with OpenCL too (prediction on a device), warning-free
cc -std=c99 -O1 $WARN -DGPUSVM_PREDICT_ONLY -I. -o $T/predict_only_opencl examples/predict_only.c -ldl -lm & p1=$!
printf '#define GPUSVM_IMPLEMENTATION\n#include "gpusvm.h"\nint main(void) { return gpusvm_train(0, 0, 0, 0, 0) == GPUSVM_OK; }\n' > $T/train_predict_only.c
if cc -std=c99 -fsyntax-only -Wall -Werror -DGPUSVM_PREDICT_ONLY -DGPUSVM_NO_OPENCL -I. -o $T/train_predict_only $T/train_predict_only.c -lm > $T/train_predict_only.log 2>&1; then
    echo "a call to gpusvm_train compiled in a build that only predicts"
    status=1
else
    echo "a call to gpusvm_train does not compile in a build that only predicts: $(grep -m1 -o 'gpusvm_train[^;]*' $T/train_predict_only.log | head -1)"
fi
wait $p1 || status=1
exit $status
