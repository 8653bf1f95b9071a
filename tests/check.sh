#!/bin/sh
# check.sh: 'make check', the fast tier for every edit (about a minute on a 2-core machine): the
# header and the tools build, the examples and the documents' snippets compile and run, the API
# and edge tests on the C backend and OpenCL (PoCL), the kernels against the C backend at small
# sizes, LIBSVM parity on three small sets, the prediction-only build's size. 'make test' is the
# full suite (CI runs it). Same output as run.sh: a line per step, then "N passed, M failed".
set -u
B=build
T=$B/check
mkdir -p "$T"
CC=${CC:-cc}
CXX=${CXX:-c++}
WARN="-Wall -Wextra -pedantic -Werror"
log=$T/log.txt
res=$T/results.txt
: > "$log"
: > "$res"
. tests/lib.sh
t_all=$(now)

step "header compiles as C99 and C++11, included twice" sh -c \
    "$CC -std=c99 $WARN -o $T/twice_c tests/unit/header_twice.c -ldl -lm && $CXX -std=c++11 $WARN -x c++ -o $T/twice_cpp tests/unit/header_twice.c -ldl -lm && $T/twice_c && $T/twice_cpp"
step "kernels.cl.h and gpusvm.h are in step with kernels/" $B/embed_kernels --check gpusvm.h kernels.cl.h kernels/00_shared.h $(ls kernels/*.cl | sort)
step "the README's, the docs' and the header's C snippets compile; the programs among them run" sh tests/scripts/snippets.sh $T/snippets
step "examples/predict_only.c, built as a program that only predicts: it classifies its frames, at most 64 KB stripped, no solver function in it" \
    sh tests/scripts/predict_size.sh $T
step "build test_api, test_edges and test_kernels (side by side)" sh -c \
    "$CC -std=c99 -O1 $WARN -o $T/test_api tests/unit/test_api.c -ldl -lm & a=\$!
     $CC -std=c99 -O1 $WARN -o $T/test_edges tests/unit/test_edges.c -ldl -lm & b=\$!
     $CC -std=c99 -O1 $WARN -o $T/test_kernels tests/kernels/test_kernels.c -ldl -lm & c=\$!
     wait \$a && wait \$b && wait \$c"
mkdir -p $T/test_api.tmp
step "public API (C backend and OpenCL)" env GPUSVM_TEST_TMP=$T/test_api.tmp $T/test_api
step "the edges, each by its error id (C backend and OpenCL)" $T/test_edges $T
step "OpenCL kernels match the C backend at small sizes (GPUSVM_TEST_QUICK)" env GPUSVM_TEST_QUICK=1 $T/test_kernels
export PARITY_QUICK=1
suite parity tests/scripts/parity.sh cpu opencl

awk -v t="$(took "$t_all")" '{ p += $1; f += $2 } END { printf "%d passed, %d failed (%s s)\n", p, f, t; exit f > 0 }' "$res"
