#!/bin/sh
# export.sh: models as C source (gpusvm-export) against gpusvm_predict: for each case a model is
# trained, exported, and tests/scripts/export_check.c (the header and the library in one program) checks
# every test point's label and decision values (and -b 1 probabilities) on the C backend. Then, where
# the packages are installed (Debian: gcc-arm-none-eabi, gcc-arm-linux-gnueabihf, qemu-user), the
# heart_scale predictor built for a Cortex-M4 warning-free (its flash and RAM sizes reported) and
# run under qemu-arm, its labels the host's. Exits non-zero on a failure.
set -u
B=build
W=$B/export
D=$B/data
mkdir -p "$W" "$D"
CC=${CC:-cc}
fail=0
[ -s $D/a9a.head3000 ] || xz -dc data/a9a.xz | head -n 3000 > $D/a9a.head3000
[ -s $D/a9a.t.head2000 ] || xz -dc data/a9a.t.xz | head -n 2000 > $D/a9a.t.head2000
[ -s $D/mnist.head2000 ] || xz -dc data/mnist.scale.head3000.xz | head -n 2000 > $D/mnist.head2000
[ -s $D/mnist.t.head1000 ] || xz -dc data/mnist.scale.t.head1000.xz > $D/mnist.t.head1000
for f in diabetes_reg.scale iris.sklearn wine.sklearn; do [ -s $D/$f ] || xz -dc data/$f.xz > $D/$f; done
printf '#define GPUSVM_IMPLEMENTATION\n#include "gpusvm.h"\n' > "$W/impl.c"
$CC -std=c99 -O2 -I. -c -o "$W/impl.o" "$W/impl.c" || { echo "FAIL export: the library does not build"; exit 1; }
H=data/heart_scale
# name | training data | test data | options | export options
cases="heart|$H|$H|-c 1|
heart_b|$H|$H|-b 1|
heart_lin|$H|$H|-t 0|
heart_poly|$H|$H|-t 1 -g 0.1 -r 1|
heart_sig|$H|$H|-t 3 -g 0.01|
heart_nu|$H|$H|-s 1 -n 0.3|
heart_oc|$H|$H|-s 2 -n 0.2|
heart_dbl|$H|$H|-c 1|-d
a9a|$D/a9a.head3000|$D/a9a.t.head2000|-c 1 -g 0.05|
mnist|$D/mnist.head2000|$D/mnist.t.head1000|-c 10 -g 0.02|
mnist_cs|$D/mnist.head2000|$D/mnist.t.head1000|-s 5 -c 10 -g 0.02|
iris_b|$D/iris.sklearn|$D/iris.sklearn|-b 1 -c 4|
wine_b|$D/wine.sklearn|$D/wine.sklearn|-b 1 -c 10|
esvr|$D/diabetes_reg.scale|$D/diabetes_reg.scale|-s 3 -p 0.05 -c 4|
nusvr|$D/diabetes_reg.scale|$D/diabetes_reg.scale|-s 4 -n 0.4|"
echo "$cases" | while IFS='|' read -r name tr te opts xopts; do
    GPUSVM_BACKEND=cpu $B/gpusvm-train -q $opts "$tr" "$W/$name.model" > "$W/$name.err" 2>&1 ||
        { echo "FAIL export $name: training failed: $(tail -n 1 "$W/$name.err")"; echo x >> "$W/failed"; continue; }
    $B/gpusvm-export $xopts "$W/$name.model" "$name" > "$W/$name.h" 2> "$W/$name.err" ||
        { echo "FAIL export $name: gpusvm-export failed: $(tail -n 1 "$W/$name.err")"; echo x >> "$W/failed"; continue; }
    prob=; grep -q "define ${name}_PROBABILITY" "$W/$name.h" && prob=-DEXPORT_PROBABILITY
    $CC -std=c99 -O2 -Wall -Wextra -pedantic -Werror -I. -I"$W" -DEXPORT_H="\"$name.h\"" -DEXPORT_NAME=$name $prob \
        -o "$W/check_$name" tests/scripts/export_check.c "$W/impl.o" -ldl -lm > "$W/$name.err" 2>&1 ||
        { echo "FAIL export $name: the header does not build: $(head -n 3 "$W/$name.err")"; echo x >> "$W/failed"; continue; }
    "$W/check_$name" "$W/$name.model" "$te" || echo x >> "$W/failed"
done
[ -s "$W/failed" ] && fail=1
rm -f "$W/failed"
# several models in one program: their names apart, warning-free together
{ for n in heart heart_dbl a9a mnist_cs wine_b esvr; do echo "#include \"$n.h\""; done
  echo 'int main(void) { static float x[780]; static double xd[13]; float p[3];'
  echo '    return heart_predict(x) + heart_dbl_predict(xd) + a9a_predict(x) + mnist_cs_predict(x) +'
  echo '           wine_b_predict_probability(x, p) + (esvr_predict(x) > 1e30f) == 12345; }'; } > "$W/several.c"
if $CC -std=c99 -O2 -Wall -Wextra -pedantic -Werror -I"$W" -o "$W/several" "$W/several.c" -lm > "$W/several.err" 2>&1 &&
    "$W/several"; then
    echo "ok   six exported models in one program: built warning-free and run"
else
    echo "FAIL six exported models in one program: $(head -n 3 "$W/several.err")"; fail=1
fi
# C89: the float headers fall back to math.h's double functions; the labels those builds give are
# the C99 builds', their decision values within 1e-5 (heart rbf, sigmoid, wine one-vs-one)
for n in heart heart_sig wine_b; do
    te=$H; [ $n = wine_b ] && te=$D/wine.sklearn
    for std in c89 c99; do
        $CC -std=$std -O2 -Wall -Wextra -pedantic -Werror -I"$W" -DEXPORT_H="\"$n.h\"" -DEXPORT_NAME=$n \
            -o "$W/$std.$n" tests/scripts/export_c89.c -lm > "$W/$std.err" 2>&1 && "$W/$std.$n" "$te" > "$W/$std.$n.txt" ||
            { echo "FAIL export $n: its -std=$std build: $(head -n 3 "$W/$std.err")"; fail=1; }
    done
    if [ -s "$W/c89.$n.txt" ] && paste -d' ' "$W/c89.$n.txt" "$W/c99.$n.txt" | awk '{h = NF / 2; if ($1 != $(h + 1)) exit 1
            for (i = 2; i <= h; ++i) { d = $i - $(i + h); if (d < 0) d = -d; a = $i < 0 ? -$i : $i; if (d > 1e-5 * (1 + a)) exit 1 } }'; then
        echo "ok   export $n built as C89 (-pedantic -Werror): the C99 build's $(wc -l < "$W/c89.$n.txt") labels, decision values within 1e-5"
    else
        echo "FAIL export $n: the C89 build disagrees with the C99 build"; fail=1
    fi
done
# a model of one label (no support vectors): its header builds under -pedantic -Werror as C89 and C99
printf '1 1:0.5 2:0.1\n1 1:0.2 2:0.3\n' > "$W/one.txt"
if GPUSVM_BACKEND=cpu $B/gpusvm-train -q "$W/one.txt" "$W/one.model" > "$W/one.err" 2>&1 &&
    $B/gpusvm-export "$W/one.model" one > "$W/one.h" 2>> "$W/one.err" &&
    $CC -std=c89 -Wall -Wextra -pedantic -Werror -I"$W" -DEXPORT_H='"one.h"' -DEXPORT_NAME=one -o "$W/c89.one" tests/scripts/export_c89.c -lm >> "$W/one.err" 2>&1 &&
    $CC -std=c99 -Wall -Wextra -pedantic -Werror -I"$W" -DEXPORT_H='"one.h"' -DEXPORT_NAME=one -o "$W/c99.one" tests/scripts/export_c89.c -lm >> "$W/one.err" 2>&1 &&
    [ "$("$W/c89.one" "$W/one.txt" | cut -d' ' -f1 | sort -u)" = 1 ]; then
    echo "ok   export of a one-label model: its header builds as C89 and C99 (-pedantic -Werror) and predicts its label"
else
    echo "FAIL export of a one-label model: $(head -n 3 "$W/one.err")"; fail=1
fi
# the embedded example: a Cortex-M4 object warning-free, and the ARM program's labels under qemu-arm
if command -v arm-none-eabi-gcc >/dev/null 2>&1; then
    if make -s -C examples/embedded > "$W/m4.txt" 2>&1; then
        echo "ok   examples/embedded for a Cortex-M4 (arm-none-eabi-gcc -Os, warnings as errors): $(tail -n 1 "$W/m4.txt")"
    else
        echo "FAIL examples/embedded does not build for a Cortex-M4:"; tail -n 5 "$W/m4.txt"; fail=1
    fi
else
    echo "skip examples/embedded's Cortex-M4 build: no arm-none-eabi-gcc (Debian: gcc-arm-none-eabi libnewlib-arm-none-eabi)"
fi
if command -v arm-linux-gnueabihf-gcc >/dev/null 2>&1 && command -v qemu-arm >/dev/null 2>&1; then
    if make -s -C examples/embedded run > "$W/qemu.txt" 2>&1; then
        echo "ok   examples/embedded under qemu-arm (arm-linux-gnueabihf): $(tail -n 1 "$W/qemu.txt")"
    else
        echo "FAIL examples/embedded under qemu-arm:"; tail -n 5 "$W/qemu.txt"; fail=1
    fi
else
    echo "skip examples/embedded under qemu-arm: no arm-linux-gnueabihf-gcc or qemu-arm (Debian: gcc-arm-linux-gnueabihf libc6-dev-armhf-cross qemu-user)"
fi
exit $fail
