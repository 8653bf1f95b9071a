#!/bin/sh
# scale.sh: gpusvm-scale against LIBSVM's svm-scale, byte for byte (output, warnings, range files),
# for several option sets and save/restore chains. Prints "scale: N passed, M failed".
set -u
B=build
D=$B/data
SRC=${GPUSVM_DATA:-../shared/data}
W=$B/scale
mkdir -p "$D" "$W"
pass=0
fail=0
for f in australian svmguide1 svmguide1.t diabetes_reg.scale; do # the repository's data/ first
    if [ -f "data/$f.xz" ]; then src=data/$f.xz; else src=$SRC/$f.xz; fi
    [ -s "$D/$f" ] || xz -dc "$src" > "$D/$f" || exit 1
done
cp data/heart_scale "$D/heart_scale"
same() { # same NAME: compares W/ref.* with W/our.*
    if cmp -s "$W/ref.out" "$W/our.out" && cmp -s "$W/ref.err" "$W/our.err" &&
        { [ ! -f "$W/ref.range" ] || cmp -s "$W/ref.range" "$W/our.range"; }; then
        pass=$((pass + 1)); echo "ok   gpusvm-scale $1"
    else
        fail=$((fail + 1)); echo "FAIL gpusvm-scale $1"
    fi
    rm -f "$W/ref.range" "$W/our.range"
}
for args in "" "-l 0 -u 1" "-y -1 1" "-l -2 -u 3 -y 0 10"; do
    for f in heart_scale australian svmguide1 diabetes_reg.scale; do
        svm-scale $args "$D/$f" > "$W/ref.out" 2> "$W/ref.err"
        $B/gpusvm-scale $args "$D/$f" > "$W/our.out" 2> "$W/our.err"
        same "${args:-(defaults)} $f: same bytes as svm-scale"
    done
done
for chain in "svmguide1 svmguide1.t -l 0" "diabetes_reg.scale heart_scale -y 0 1" "heart_scale australian" \
             "australian heart_scale -l -1 -u 2"; do
    set -- $chain
    a=$1 b=$2
    shift 2
    svm-scale "$@" -s "$W/ref.range" "$D/$a" > "$W/ref.out" 2> "$W/ref.err"
    $B/gpusvm-scale "$@" -s "$W/our.range" "$D/$a" > "$W/our.out" 2> "$W/our.err"
    cp "$W/ref.range" "$W/keep.range"
    same "$* -s on $a: same output and range file"
    svm-scale -r "$W/keep.range" "$D/$b" > "$W/ref.out" 2> "$W/ref.err"
    $B/gpusvm-scale -r "$W/keep.range" "$D/$b" > "$W/our.out" 2> "$W/our.err"
    same "-r (from $a) on $b: same output and warnings"
done
echo "scale: $pass passed, $fail failed"
[ "$fail" = 0 ]
