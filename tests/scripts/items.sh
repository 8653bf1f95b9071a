#!/bin/sh
# items.sh OUT_DIR: small problems solved a work-item each (gpusvm_smo_item) against the work-group
# rounds (GPUSVM_INNER=groups) on the OpenCL backend, with double and with float pairs: each case's
# model, predictions and 5-fold line the same bytes, and gpusvm-grid's .out file and picture. The
# default runs must launch gpusvm_smo_item and the groups' runs must not (so neither side can be
# the other).
# Cases: many classes of three points (RBF, linear, polynomial, sigmoid, -b 1), letter's 26 classes
# on 200 points (pairs of at most 26), epsilon-SVR on 14 points (two variables a point) with -b 1,
# the same point twice, a precomputed linear kernel, class weights.
set -u
T=${1:-build/tests}/items
B=build
mkdir -p "$T"
status=0
sh bench/gen_classes.sh 100 > "$T/k100"
xz -dc data/letter.scale.xz | head -n 200 > "$T/let200"
xz -dc data/diabetes_reg.scale.xz | head -n 14 > "$T/reg14"
head -n 28 data/heart_scale > "$T/h28"
head -n 14 data/heart_scale | cat - "$T/h28" | head -n 30 > "$T/hdup"
# heart_scale's first 28 points' linear kernel, LIBSVM's precomputed form (0:index, then k(i, j))
awk '{ y[NR] = $1; for (k = 2; k <= NF; ++k) { split($k, a, ":"); x[NR, a[1]] = a[2] } }
     END { for (i = 1; i <= NR; ++i) { printf "%s 0:%d", y[i], i
               for (j = 1; j <= NR; ++j) { s = 0; for (f = 1; f <= 13; ++f) s += x[i, f] * x[j, f]; printf " %d:%.6g", j, s }
               printf "\n" } }' "$T/h28" > "$T/pre28"
cases='k100|
k100|-t 0
k100|-t 1 -d 2 -g 4 -r 1
k100|-t 3 -g 0.5
k100|-b 1
let200|-c 10 -g 2
let200|-w1 2 -w5 0.5
reg14|-s 3 -p 0.05
reg14|-s 3 -b 1
hdup|-g 0.3
pre28|-t 4'
run() { # run OUT_DIR: every case into OUT_DIR, the launches' lines into OUT_DIR/launches
    o=$1
    mkdir -p "$o"
    : > "$o/launches"
    i=0
    echo "$cases" | while IFS='|' read -r data args; do
        i=$((i + 1))
        b=; case "$args" in *"-b 1"*) b="-b 1" ;; esac
        GPUSVM_VERBOSE=1 $B/gpusvm-train $args "$T/$data" "$o/m$i" > /dev/null 2> "$o/e$i" || { echo "train $i: $data $args"; return 1; }
        grep 'kernel launches' "$o/e$i" >> "$o/launches"
        $B/gpusvm-predict -q $b "$T/$data" "$o/m$i" "$o/p$i" || return 1
        $B/gpusvm-train -q $args -v 5 "$T/$data" > "$o/v$i" 2>&1 || return 1
        rm -f "$o/e$i"
    done || return 1
    $B/gpusvm-grid -log2c -1,3,2 -log2g -2,0,1 -out "$o/grid.out" -png "$o/grid.png" "$T/let200" > /dev/null 2>&1
}
for fp in on off; do
    export GPUSVM_BACKEND=opencl GPUSVM_FP64=$fp
    GPUSVM_INNER=pairs run "$T/items_$fp" || status=1
    GPUSVM_INNER=groups run "$T/groups_$fp" || status=1
    n=$(grep -c gpusvm_smo_item "$T/items_$fp/launches")
    g=$(grep -c gpusvm_smo_item "$T/groups_$fp/launches")
    same=0 differ=0
    for f in "$T/items_$fp"/*; do
        case $f in */launches) continue ;; esac
        if cmp -s "$f" "$T/groups_$fp/${f##*/}"; then same=$((same + 1)); else differ=$((differ + 1)); echo "fp64 $fp: ${f##*/} differs"; fi
    done
    echo "fp64 $fp: $same files the same, $differ differ; gpusvm_smo_item launched in $n trainings of 11 (work-group rounds: $g)"
    [ "$differ" -eq 0 ] && [ "$same" -eq 35 ] && [ "$n" -eq 11 ] && [ "$g" -eq 0 ] || status=1
done
exit $status
