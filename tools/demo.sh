#!/bin/sh
# demo.sh: trains on bundled data and predicts, as 'make demo' runs it.
set -e
B=build
mkdir -p $B/data
for f in a9a a9a.t; do
    [ -s $B/data/$f ] || xz -dc data/$f.xz > $B/data/$f
done
echo "== heart_scale (270 points, 13 features), LIBSVM's defaults"
$B/gpusvm-train data/heart_scale $B/heart_scale.model
$B/gpusvm-predict data/heart_scale $B/heart_scale.model $B/heart_scale.out
echo
echo "== a9a (32561 points, 123 features): -c 1 -g 0.05, then predict a9a.t (16281 points)"
start=$(date +%s.%N)
$B/gpusvm-train -c 1 -g 0.05 $B/data/a9a $B/a9a.model
end=$(date +%s.%N)
$B/gpusvm-predict $B/data/a9a.t $B/a9a.model $B/a9a.out
awk -v s="$start" -v e="$end" 'BEGIN { printf "gpusvm-train wall time (whole process, file parsing included): %.2f s\n", e - s }'
echo "Models: $B/heart_scale.model $B/a9a.model (LIBSVM's format). Choose a device with GPUSVM_BACKEND=auto|opencl|cpu and GPUSVM_DEVICE=index|name."
