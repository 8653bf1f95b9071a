#!/bin/sh
# gpu.sh: the tests and timings that need a GPU, for a machine with an OpenCL GPU driver and
# LIBSVM's svm-train/svm-predict on PATH (make test runs the rest on any machine).
#   sh tests/kernels/gpu.sh [OUTDIR]
# Runs the kernel, API and fault-injection tests on the OpenCL GPU, the LIBSVM parity cases on it,
# the demo, a9a's grid on lanes against one batch (the same .out), and times a9a (-c 1 -g 0.05)
# with gpusvm on the GPU, the C backend, and svm-train on the same host. Logs go to OUTDIR
# (default build/gpu-run); a table ends it.
set -u
OUT=${1:-build/gpu-run}
B=build
mkdir -p "$OUT" "$B/tests" "$B/test_api.tmp" "$B/data"
CC=${CC:-cc}
WARN="-Wall -Wextra -pedantic -Werror"
summary=$OUT/summary.txt
: > "$summary"
row() { echo "$*" | tee -a "$summary"; }

make -s all > "$OUT/build.log" 2>&1 || { cat "$OUT/build.log"; exit 1; }
$CC -std=c99 -O2 $WARN -o $B/tests/test_kernels tests/kernels/test_kernels.c -ldl -lm
$CC -std=c99 -O2 $WARN -o $B/tests/test_api tests/unit/test_api.c -ldl -lm

GPUSVM_BACKEND=opencl $B/tests/test_kernels > "$OUT/kernels.log" 2>&1
row "kernels vs C backend: $(tail -n 1 "$OUT/kernels.log") ($(sed -n 's/^test_kernels: OpenCL device //p' "$OUT/kernels.log"))"
$B/tests/test_api > "$OUT/api.log" 2>&1
row "API tests: $(tail -n 1 "$OUT/api.log")"
$CC -std=c99 -D_POSIX_C_SOURCE=200809L -O1 -g $WARN -o $B/tests/test_faults tests/unit/test_faults.c -ldl -lm
$B/tests/test_faults > "$OUT/faults.log" 2>&1
grep '^test_faults:' "$OUT/faults.log" | tee -a "$summary"
row "fault injection on this device: $(tail -n 1 "$OUT/faults.log")"
sh tests/scripts/parity.sh opencl > "$OUT/parity.log" 2>&1
grep FAIL "$OUT/parity.log" | tee -a "$summary"
row "LIBSVM parity on the GPU: $(tail -n 1 "$OUT/parity.log")"
sh tools/demo.sh > "$OUT/demo.log" 2>&1
row "make demo's job: exit $? ($(grep -c Accuracy "$OUT/demo.log") accuracy lines)"

# a9a, -c 1 -g 0.05: best of 3 for gpusvm on the GPU (after one warm-up run)
for f in a9a a9a.t; do [ -s $B/data/$f ] || xz -dc data/$f.xz > $B/data/$f; done
for i in 0 1 2 3; do
    $B/gpusvm-train -c 1 -g 0.05 $B/data/a9a $OUT/a9a.gpu.model > "$OUT/a9a.gpu.$i.out" 2> "$OUT/a9a.gpu.$i.err"
done
$B/gpusvm-predict $B/data/a9a.t $OUT/a9a.gpu.model $OUT/a9a.gpu.pred > "$OUT/a9a.gpu.acc" 2>/dev/null
best=$(cat "$OUT"/a9a.gpu.[123].err | sed -n 's/.*training time: \([0-9.]*\) s.*/\1/p' | sort -n | head -n 1)
row "a9a gpusvm GPU: train ${best} s (best of 3 after a warm-up), $(sed -n 's/^obj/obj/p' "$OUT/a9a.gpu.1.out"), $(sed -n 's/^Total //p' "$OUT/a9a.gpu.1.out"), $(cat "$OUT/a9a.gpu.acc")"
row "  device: $(sed -n 's/^gpusvm: device: //p' "$OUT/a9a.gpu.1.err")"
start=$(date +%s.%N)
GPUSVM_BACKEND=cpu $B/gpusvm-train -c 1 -g 0.05 $B/data/a9a $OUT/a9a.cpu.model > "$OUT/a9a.cpu.out" 2> "$OUT/a9a.cpu.err"
end=$(date +%s.%N)
row "a9a gpusvm C backend on this host: $(sed -n 's/.*training time: \([0-9.]*\) s.*/\1/p' "$OUT/a9a.cpu.err") s, $(sed -n 's/^Total //p' "$OUT/a9a.cpu.out")"
if command -v svm-train >/dev/null 2>&1; then
    start=$(date +%s.%N)
    svm-train -c 1 -g 0.05 $B/data/a9a $OUT/a9a.libsvm.model > "$OUT/a9a.libsvm.out" 2>&1
    end=$(date +%s.%N)
    row "a9a LIBSVM svm-train on this host: $(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f", e - s }') s wall, $(sed -n 's/^obj/obj/p' "$OUT/a9a.libsvm.out"), $(sed -n 's/^Total //p' "$OUT/a9a.libsvm.out")"
fi

# mnist, 10 classes one-vs-one, -c 10 -g 0.02 (60000 x 780 -> 10000 test points)
if [ -f "${GPUSVM_DATA:-../shared/data}/mnist.scale.xz" ]; then
    for f in mnist.scale mnist.scale.t; do [ -s $B/data/$f ] || xz -dc "${GPUSVM_DATA:-../shared/data}/$f.xz" > $B/data/$f; done
    start=$(date +%s.%N)
    $B/gpusvm-train -c 10 -g 0.02 $B/data/mnist.scale $OUT/mnist.model > "$OUT/mnist.out" 2> "$OUT/mnist.err"
    end=$(date +%s.%N)
    $B/gpusvm-predict $B/data/mnist.scale.t $OUT/mnist.model $OUT/mnist.pred > "$OUT/mnist.acc" 2>/dev/null
    row "mnist 10-class gpusvm GPU: train $(sed -n 's/.*training time: \([0-9.]*\) s.*/\1/p' "$OUT/mnist.err") s (process $(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f", e - s }') s), $(sed -n 's/^Total //p' "$OUT/mnist.out"), $(cat "$OUT/mnist.acc")"
fi

# cross-validation: every fold's pairs in one batch (a9a 5-fold; mnist 10-class 5-fold, 225 problems)
start=$(date +%s.%N)
$B/gpusvm-train -v 5 -c 1 -g 0.05 $B/data/a9a > "$OUT/a9a.cv.out" 2> "$OUT/a9a.cv.err"
end=$(date +%s.%N)
row "a9a -v 5 gpusvm GPU: $(tail -n 1 "$OUT/a9a.cv.out") (process $(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f", e - s }') s)"
if [ -s $B/data/mnist.scale ]; then
    start=$(date +%s.%N)
    timeout 300 $B/gpusvm-train -v 5 -c 10 -g 0.02 $B/data/mnist.scale > "$OUT/mnist.cv.out" 2> "$OUT/mnist.cv.err"
    end=$(date +%s.%N)
    row "mnist 10-class -v 5 gpusvm GPU: $(tail -n 1 "$OUT/mnist.cv.out") (process $(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f", e - s }') s)"
fi

# a9a's 5 x 5 grid of 5 folds: its points on lanes of the GPU (the default there) against one batch
# (GPUSVM_LANES=1): the same .out, byte for byte
G="-log2c -1,7,2 -log2g -9,-1,2 -v 5 -png null"
for lanes in auto 1; do
    start=$(date +%s.%N)
    if [ $lanes = auto ]; then $B/gpusvm-grid $G -out "$OUT/grid.$lanes.out" $B/data/a9a > /dev/null 2> "$OUT/grid.$lanes.err"
    else GPUSVM_LANES=1 $B/gpusvm-grid $G -out "$OUT/grid.$lanes.out" $B/data/a9a > /dev/null 2> "$OUT/grid.$lanes.err"; fi
    end=$(date +%s.%N)
    how=$(sed -n 's/^gpusvm: grid: //p' "$OUT/grid.$lanes.err")
    row "a9a 5x5 grid, lanes $lanes: process $(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f", e - s }') s (${how:-one batch})"
done
if cmp -s "$OUT/grid.auto.out" "$OUT/grid.1.out"; then row "a9a 5x5 grid: lanes and one batch write the same .out"
else row "FAIL a9a 5x5 grid: lanes and one batch write different .out files"; fi

# Crammer-Singer on the first 10000 mnist points (-s 5 -c 10 -g 0.02), next to one-vs-one on them
if [ -s $B/data/mnist.scale ]; then
    head -n 10000 $B/data/mnist.scale > $B/data/mnist.scale.head10000
    timeout 300 $B/gpusvm-train -s 5 -c 10 -g 0.02 $B/data/mnist.scale.head10000 $OUT/mnist-cs.model > "$OUT/mnist-cs.out" 2> "$OUT/mnist-cs.err"
    $B/gpusvm-predict $B/data/mnist.scale.t $OUT/mnist-cs.model $OUT/mnist-cs.pred > "$OUT/mnist-cs.acc" 2>/dev/null
    $B/gpusvm-train -c 10 -g 0.02 $B/data/mnist.scale.head10000 $OUT/mnist-ovo10k.model > "$OUT/mnist-ovo10k.out" 2> "$OUT/mnist-ovo10k.err"
    $B/gpusvm-predict $B/data/mnist.scale.t $OUT/mnist-ovo10k.model $OUT/mnist-ovo10k.pred > "$OUT/mnist-ovo10k.acc" 2>/dev/null
    row "mnist 10000 Crammer-Singer GPU: train $(sed -n 's/.*training time: \([0-9.]*\) s.*/\1/p' "$OUT/mnist-cs.err") s, $(sed -n 's/^obj/obj/p' "$OUT/mnist-cs.out"), $(sed -n 's/^Total //p' "$OUT/mnist-cs.out"), $(cat "$OUT/mnist-cs.acc")"
    row "mnist 10000 one-vs-one GPU: train $(sed -n 's/.*training time: \([0-9.]*\) s.*/\1/p' "$OUT/mnist-ovo10k.err") s, $(cat "$OUT/mnist-ovo10k.acc")"
fi
