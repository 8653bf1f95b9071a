#!/bin/sh
# run.sh: every test of 'make test'. Each step is one line, ok or FAIL; the last line is
# "N passed, M failed" and the exit status is non-zero on any failure. The steps run in two lanes
# side by side: this shell's, and a second one of mostly a core's work (the sanitizer builds,
# fuzzing, the C backend under ThreadSanitizer, Oclgrind) whose lines print when it ends; each step
# adds its counts to $res.
set -u
B=build
T=$B/tests
mkdir -p "$T" "$B/test_api.tmp" "$B/test_faults.tmp"
CC=${CC:-cc}
CXX=${CXX:-c++}
WARN="-Wall -Wextra -pedantic -Werror"
SAN="-g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined"
# the API and kernel tests under the sanitizers at -O0: a third of -O1's compile (10 s against 34 s
# for test_api), for a run a quarter longer (22 s against 17 s)
SAN0="-g -O0 -fsanitize=address,undefined -fno-sanitize-recover=undefined"
export ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(pwd)/tests/lsan.supp UBSAN_OPTIONS=print_stacktrace=1
log=$T/log.txt
res=$T/results.txt
: > "$log"
: > "$res"
: > "$T/skips.txt"

. tests/lib.sh
t_all=$(now)

# the second lane: fuzzing, the C backend under ThreadSanitizer, Oclgrind and the rest of what needs
# one core and no PoCL, beside the rest (PoCL takes every core it finds)
rm -f $T/asan.built $T/test_faults $T/test_faults_plain $T/test_api_asan $T/test_kernels_asan
(
    log=$T/log_lane.txt
    : > "$log"
    # the sanitizer builds first, for this shell's robustness section (which waits for them): a
    # core's compile that would otherwise hold up the lane with PoCL's work
    step "build test_faults (AddressSanitizer + UBSan)" \
        $CC -std=c99 -D_POSIX_C_SOURCE=200809L $SAN $WARN -o $T/test_faults tests/unit/test_faults.c -ldl -lm
    step "build the API tests with AddressSanitizer + UBSan" $CC -std=c99 $SAN0 $WARN -o $T/test_api_asan tests/unit/test_api.c -ldl -lm
    step "build the kernel tests with AddressSanitizer + UBSan" $CC -std=c99 $SAN0 $WARN -o $T/test_kernels_asan tests/kernels/test_kernels.c -ldl -lm
    # the fault sweeps once without the sanitizers: PoCL compiles their programs here, where
    # AddressSanitizer's allocator does not slow its compiler, and the sanitized run finds them in
    # PoCL's cache (with the cache emptied first, that run took 379 s beside the other lane)
    step "build test_faults (no sanitizer)" \
        $CC -std=c99 -D_POSIX_C_SOURCE=200809L -O1 $WARN -o $T/test_faults_plain tests/unit/test_faults.c -ldl -lm
    step "every failing OpenCL call and host allocation, without the sanitizers: an error, nothing leaked, context usable" \
        $T/test_faults_plain
    touch $T/asan.built
    step "fuzz the data reader, the model loader and the API (${FUZZ_RUNS:-200000} executions each from seed 1, the API a twentieth; seed corpus and regressions)" \
        sh tests/fuzz/fuzz.sh --runs "${FUZZ_RUNS:-200000}"
    step "build test_threads (ThreadSanitizer)" \
        $CC -std=c99 -D_POSIX_C_SOURCE=200809L -g -O1 -fsanitize=thread $WARN -o $T/test_threads tests/unit/test_threads.c -ldl -lm -pthread
    step "two contexts in two threads give the same models as one after the other" env ASAN_OPTIONS= $T/test_threads
    step "build test_soak (ThreadSanitizer)" \
        $CC -std=c99 -D_POSIX_C_SOURCE=200809L -g -O1 -fsanitize=thread $WARN -o $T/test_soak_tsan tests/unit/test_soak.c -ldl -lm -pthread
    step "soak, C backend under ThreadSanitizer: 2, 4, 8 threads creating contexts, training, predicting, saving, loading; predictors over one model" \
        env ASAN_OPTIONS= $T/test_soak_tsan cpu
    step "build test_split (ThreadSanitizer)" \
        $CC -std=c99 -D_POSIX_C_SOURCE=200809L -g -O1 -fsanitize=thread $WARN -o $T/test_split tests/unit/test_split.c -ldl -lm -pthread
    step "a context split across 2 and 3 parts gives one process's models (the C backend)" env ASAN_OPTIONS= $T/test_split
    # the C backend's row cache; the picture and grid examples (the C backend)
    step "build gpusvm-train without the C backend's row cache" \
        $CC -std=c99 -O2 $WARN -DGPUSVM__CPU_ROW_CACHE=0 -o $T/train_nocache tools/gpusvm-train.c -ldl -lm
    xz -dc data/svmguide1.xz > $T/svmguide1
    step "the C backend's row cache changes no model (C-SVC, nu-SVC, epsilon-SVR, nu-SVR, one-class; 5 folds)" sh -c "
        for o in '$T/svmguide1' '-s 1 -n 0.3 $T/svmguide1' '-s 3 -p 0.1 $T/svmguide1' \
                 '-s 4 -n 0.4 $T/svmguide1' '-s 2 -n 0.2 $T/svmguide1'; do
            GPUSVM_BACKEND=cpu $T/train_nocache \$o $T/nc.model > /dev/null 2>&1 || exit 1
            GPUSVM_BACKEND=cpu GPUSVM_VERBOSE=1 $B/gpusvm-train \$o $T/c.model > /dev/null 2> $T/c.err || exit 1
            cmp $T/nc.model $T/c.model || exit 1
            grep -q '[1-9][0-9]* found in its row cache' $T/c.err || exit 1
        done
        GPUSVM_BACKEND=cpu $T/train_nocache -v 5 $T/svmguide1 > $T/nc.cv 2>&1 &&
        GPUSVM_BACKEND=cpu $B/gpusvm-train -v 5 $T/svmguide1 > $T/c.cv 2>&1 && cmp $T/nc.cv $T/c.cv"
    # the kernels built part by part as on GPUs (PoCL builds them all in one program otherwise):
    # the parity suite's small sets (the fault sweeps cover these builds' failures)
    step "the kernels built part by part on PoCL, as on GPUs (GPUSVM_PROGRAMS=each): LIBSVM parity on three small sets" \
        env GPUSVM_PROGRAMS=each PARITY_QUICK=1 sh tests/scripts/parity.sh opencl
    step "examples/decision_boundary.c builds (C99, warnings as errors)" \
        $CC -std=c99 -O2 $WARN -I. -o $T/decision_boundary examples/decision_boundary.c -ldl -lm
    step "examples/decision_boundary.c writes a 320 x 240 PNG that decodes" sh -c \
        "$T/decision_boundary $T/boundary.png && python3 tests/scripts/png_check.py $T/boundary.png 320 240"
    step "examples/grid_search.c builds and finds its best point on heart_scale" sh -c \
        "$CC -std=c99 -O2 $WARN -I. -o $T/grid_search examples/grid_search.c -ldl -lm &&
         $T/grid_search data/heart_scale | tee /dev/stderr | grep -q '^best: C = '"
    # make bench in a clone with nothing beside it: the rows of the bundled data run, the others
    # say why not (heart_scale's small-data row and w8a's, which only ../shared/data has)
    rm -rf $T/bench_cache $T/nodata && mkdir -p $T/nodata
    step "make bench's rows with only the bundled data: heart_scale's runs, w8a's says it is not there" sh -c \
        "GPUSVM_BACKEND=cpu GPUSVM_DATA=$T/nodata BENCH_CACHE=$T/bench_cache BENCH_RUNS=1 BENCH_ONLY=heart_scale,w8a sh bench/run.sh > $T/bench.txt &&
         cat $T/bench.txt && grep -q '^Measured .* commit ' $T/bench.txt && grep -q '^Device: CPU (gpusvm C backend);' $T/bench.txt &&
         grep -q '^| heart_scale (270 × 13) | [0-9.]* s | [0-9.]* s | [0-9.]* s |' $T/bench.txt &&
         grep -q '^| w8a (training set) | not run: w8a is in neither data/ nor $T/nodata |' $T/bench.txt &&
         grep -q '^- w8a: not run: w8a is in neither' $T/bench.txt"
    # work for one core that needs no PoCL: Oclgrind (one thread), MPI ranks on the C backend, the
    # number parser, valgrind on the C backend, builds under other compilers and feature macros
    # every kernel inside Oclgrind, a simulated device that checks each memory access, for races and
    # for the API's use and for reads of uninitialised memory (tests/kernels/oclgrind.sh)
    OCLGRIND_NUM_THREADS=1 # a core of its own
    export OCLGRIND_NUM_THREADS
    suite oclgrind tests/kernels/oclgrind.sh
    # one training across MPI ranks (mpirun -np 2 and 3 here): one process's model
    step "gpusvm-train-mpi builds (make mpi)" make -s mpi
    suite mpi tests/scripts/mpi.sh
    # the readers' number parser: strtod's bits on random decimals and on every number of every data set
    # the repository carries (and of ../shared/data's, when it is there)
    step "build test_parse" $CC -std=c99 -D_POSIX_C_SOURCE=200809L -O2 $WARN -o $T/test_parse tests/unit/test_parse.c -ldl -lm
    step "the number parser gives strtod's bits (random decimals, every data file)" \
        $T/test_parse data/*.xz data/heart_scale $(ls ${GPUSVM_DATA:-../shared/data}/*.xz 2>/dev/null)
    # the API tests' C half under valgrind memcheck
    step "build test_api (for valgrind)" $CC -std=c99 -O2 $WARN -o $T/test_api_vg tests/unit/test_api.c -ldl -lm
    step "API tests on the C backend under valgrind memcheck" env GPUSVM_TEST_CPU_ONLY=1 \
        valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect $T/test_api_vg
    step "the implementation builds warning-free under -pthread, POSIX, X/Open, GNU and default feature macros, c99/c11/gnu17, gcc and clang, GCC 14's errors" \
        sh tests/scripts/flags.sh
    if command -v clang >/dev/null 2>&1; then
        step "header compiles with clang as C99" clang -std=c99 $WARN -o $T/twice_clang tests/unit/header_twice.c -ldl -lm
        step "the tools and tests build with clang, warnings as errors" sh -c \
            "for f in tools/gpusvm-train.c tools/gpusvm-predict.c tools/gpusvm-scale.c tests/unit/test_api.c tests/kernels/test_kernels.c \
                 bench/micro.c bench/latency.c bench/reader.c bench/gen_sparse.c bench/warm_start.c examples/quickstart.c examples/predict_only.c \\
                 examples/decision_boundary.c examples/grid_search.c tools/gpusvm-grid.c tools/gpusvm-export.c; do
                 clang -std=c99 $WARN -I. -o $T/clang_check \$f -ldl -lm || exit 1; done"
    fi
) > $T/lane.txt 2>&1 &
lane=$!

# the header alone: C99 and C++11, included twice, two GPUSVM_STATIC units, direct linking
step "header compiles as C99, included twice" $CC -std=c99 $WARN -o $T/twice_c tests/unit/header_twice.c -ldl -lm
step "header compiles as C++11, included twice" $CXX -std=c++11 $WARN -x c++ -o $T/twice_cpp tests/unit/header_twice.c -ldl -lm
step "C99 build runs" $T/twice_c
step "C++11 build runs" $T/twice_cpp
step "strict C99 with a system header first builds; the library's clock is the wall clock" \
    sh -c "$CC -std=c99 $WARN -o $T/strict_first tests/unit/strict_first.c -ldl -lm && $T/strict_first"
step "the implementation leaves the program's feature macros alone (M_PI, drand48, usleep stay)" \
    sh -c "$CC -Wall -Wextra -Werror -o $T/user_macros tests/unit/user_macros.c -ldl -lm && $T/user_macros"
step "GPUSVM_NO_OPENCL builds warning-free" $CC -std=c99 $WARN -DGPUSVM_NO_OPENCL -DGPUSVM_IMPLEMENTATION -x c -c -o $T/noocl.o gpusvm.h
# the threads have a switch of their own: a build without OpenCL runs on threads (linked), one with
# GPUSVM_NO_THREADS on the calling thread, the same model either way (tests/unit/threads_switch.c)
step "GPUSVM_NO_OPENCL trains on threads of its own, GPUSVM_NO_THREADS on the calling thread, the same models" sh -c \
    "$CC -std=c99 $WARN -DGPUSVM_NO_OPENCL -I. -o $T/threads_switch tests/unit/threads_switch.c -lm && $T/threads_switch &&
     $CC -std=c99 $WARN -DGPUSVM_NO_OPENCL -DGPUSVM_NO_THREADS -I. -o $T/threads_off tests/unit/threads_switch.c -lm && $T/threads_off &&
     $CC -std=c99 $WARN -DGPUSVM_NO_THREADS -DGPUSVM_IMPLEMENTATION -x c -c -o $T/nothreads.o gpusvm.h"
step "two translation units with GPUSVM_STATIC link" $CC -std=c99 $WARN -o $T/static tests/unit/static_a.c tests/unit/static_b.c -ldl -lm
step "GPUSVM_STATIC program runs" $T/static
step "GPUSVM_NO_RUNTIME_LINKING checks our OpenCL declarations against <CL/cl.h>" \
    $CC -std=c99 $WARN -o $T/direct tests/unit/direct_link.c -l:libOpenCL.so.1 -lm
step "GPUSVM_NO_RUNTIME_LINKING program runs" $T/direct
step "docs/errors.md is the list of errors in gpusvm.h (make docs)" sh -c \
    "$CC -std=c99 $WARN -o $T/errors_doc tools/errors_doc.c && $T/errors_doc | cmp - docs/errors.md"
step "the README's, the docs' and the header's C snippets compile as C99 and C++11; the programs among them run" sh tests/scripts/snippets.sh $T/snippets
step "kernels.cl.h and gpusvm.h are in step with kernels/" $B/embed_kernels --check gpusvm.h kernels.cl.h kernels/00_shared.h $(ls kernels/*.cl | sort)
step "a build error in a kernel file names that file and line (the embedded program's #line directives; PoCL)" \
    sh tests/scripts/line_map.sh

# the README's example
step "examples/quickstart.c builds (C99, warnings as errors)" $CC -std=c99 $WARN -I. -o $T/quickstart examples/quickstart.c -ldl -lm
step "examples/quickstart.c runs and classifies its four points" sh -c "$T/quickstart | tee /dev/stderr | grep -q 'predictions: -1 -1 1 1'"
step "examples/quickstart.c as C++11 with the documented {} initializers builds with -Wextra -Werror and runs" sh -c \
    "sed 's/= {0};/= {};/' examples/quickstart.c > $T/quickstart_cpp.cc &&
     $CXX -std=c++11 $WARN -I. -o $T/quickstart_cpp $T/quickstart_cpp.cc -ldl -lm && $T/quickstart_cpp | grep -q 'predictions: -1 -1 1 1'"

# a program that only predicts (the model embedded, loaded from memory, a prepared predictor):
# with GPUSVM_PREDICT_ONLY and GPUSVM_STATIC the trainer stays out of it, within a size bound
step "examples/predict_only.c, built as a program that only predicts (gcc, clang): it classifies its frames, at most 64 KB stripped, no solver function in it" \
    sh tests/scripts/predict_size.sh $T
# the picture of a decision boundary (a PNG that decodes, of the example's size) and a grid from C

# every kernel against the C backend; the API
step "build test_kernels" $CC -std=c99 -O2 $WARN -o $T/test_kernels tests/kernels/test_kernels.c -ldl -lm
step "OpenCL kernels match the C backend on random inputs" $T/test_kernels
step "the kernels with float pairs (GPUSVM_FP64=off, devices without fp64) match the C backend, at small sizes (the parity suite runs them on real data below)" \
    env GPUSVM_FP64=off GPUSVM_TEST_QUICK=1 $T/test_kernels
step "build test_kernels with the selection over the grid at every size" \
    $CC -std=c99 -O2 $WARN -DGPUSVM__SEL_GRID=0 -o $T/test_kernels_grid tests/kernels/test_kernels.c -ldl -lm
step "the selection over the grid gives the same working sets (the kernel tests again, on one device)" \
    env GPUSVM_TEST_ONE_DEVICE=1 $T/test_kernels_grid
# the C backend's row cache: the same model bytes as a build without it, a working set of 1024
# over svmguide1's 3,089 points so that many rows come back; the build with it must report rows
# found there
# data larger than the device through the tools: GPUSVM_DEVICE_MEMORY_MB below what 20,000 points of
# 64 features need with 64 kernel rows, so that the points stream (working set 1024, as resident),
# and the model file is the resident one
step "build gen_dense" $CC -std=c99 -O2 $WARN -o $T/gen_dense bench/gen_dense.c -lm
step "GPUSVM_DEVICE_MEMORY_MB=10: the points streamed through the device, the resident model file (OpenCL)" sh -c "
    $T/gen_dense 20000 64 7 > $T/dense20k &&
    GPUSVM_BACKEND=opencl $B/gpusvm-train -q $T/dense20k $T/resident.model > /dev/null 2>&1 &&
    GPUSVM_BACKEND=opencl GPUSVM_DEVICE_MEMORY_MB=10 $B/gpusvm-train $T/dense20k $T/streamed.model \
        > /dev/null 2> $T/streamed.err && grep -q 'streamed through the device in [0-9]* tiles' $T/streamed.err &&
    cmp $T/resident.model $T/streamed.model"
# the inner solve beside the rows, forced (GPUSVM_OVERLAP=always: 4,000 points are too few for it
# to pay), against the steps in turn (GPUSVM_PROFILE=1) and against the default, which leaves it
# off here (the blocks would cost more than they hide); dense, then sparse points
overlap_step() { # overlap_step STORAGE WHAT
    step "the inner solve beside the rows, $1 points ($2) gives the model of the steps in turn and of the default, which leaves it off here" sh -c "
    head -n 4000 $T/dense20k > $T/dense4k || exit 1
    for v in always:beside off:inturn auto:auto; do
        GPUSVM_BACKEND=opencl GPUSVM_STORAGE=$1 GPUSVM_VERBOSE=1 GPUSVM_OVERLAP=\${v%%:*} $B/gpusvm-train $T/dense4k $T/ov_\${v#*:}.model \
            > /dev/null 2> $T/ov_\${v#*:}.err || exit 1
    done
    GPUSVM_BACKEND=opencl GPUSVM_STORAGE=$1 GPUSVM_PROFILE=1 $B/gpusvm-train -q $T/dense4k $T/ov_profile.model > /dev/null 2>&1 &&
    grep -q 'data: $1 on the device' $T/ov_beside.err &&
    grep 'kernel launches' $T/ov_beside.err | grep -q gpusvm_smo && ! grep 'kernel launches' $T/ov_beside.err | grep -q gpusvm_gather_block &&
    grep 'kernel launches' $T/ov_inturn.err | grep -q gpusvm_gather_block && grep 'kernel launches' $T/ov_auto.err | grep -q gpusvm_gather_block &&
    cmp $T/ov_beside.model $T/ov_profile.model && cmp $T/ov_beside.model $T/ov_inturn.model && cmp $T/ov_beside.model $T/ov_auto.model"
}
overlap_step dense "blocks from the working sets' vectors, a second queue"
overlap_step sparse "blocks from the CSR arrays, columns by position"
step "two devices (one opened twice), GPUSVM_DEVICE_MEMORY_MB=10: split by rows, each share streamed, the resident model file" sh -c "
    GPUSVM_BACKEND=opencl GPUSVM_DEVICE=0,0 GPUSVM_SPREAD=always GPUSVM_DEVICE_MEMORY_MB=10 $B/gpusvm-train $T/dense20k $T/split.model \
        > /dev/null 2> $T/split.err && grep -q 'part 2 of 2 of a problem split by rows, in [0-9]* tiles' $T/split.err &&
    cmp $T/resident.model $T/split.model"
step "gpusvm-grid on two devices (one opened twice; every gamma in one call): the one-device .out file" sh -c "
    GPUSVM_BACKEND=opencl GPUSVM_DEVICE=0 $B/gpusvm-grid -log2c -1,5,2 -log2g -5,-1,2 -out $T/grid1.out -png $T/grid1.png \
        data/heart_scale > /dev/null 2>&1 &&
    GPUSVM_BACKEND=opencl GPUSVM_DEVICE=0,0 GPUSVM_SPREAD=always $B/gpusvm-grid -log2c -1,5,2 -log2g -5,-1,2 -out $T/grid2.out \
        -png $T/grid2.png data/heart_scale > /dev/null 2> $T/grid2.err && grep -q '3 of 3 gamma values' $T/grid2.err &&
    ! grep -q '1 of 3 gamma values' $T/grid2.err && cmp $T/grid1.out $T/grid2.out"
step "working sets smaller than the work-group (a build with GPUSVM__Q=64, as a device of 16 KB local memory gets 128): the OpenCL objective is the C backend's, Crammer-Singer's the default build's" sh -c "
    $CC -std=c99 -O2 -DGPUSVM__Q=64 -o $T/train_q64 tools/gpusvm-train.c -ldl -lm &&
    head -n 100 data/heart_scale > $T/h100 &&
    a=\$(GPUSVM_BACKEND=opencl $T/train_q64 -c 4 -g 0.1 $T/h100 $T/q64.ocl.model 2> /dev/null | sed -n 's/^obj = \\([-0-9.]*\\).*/\\1/p') &&
    b=\$(GPUSVM_BACKEND=cpu $T/train_q64 -c 4 -g 0.1 $T/h100 $T/q64.cpu.model 2> /dev/null | sed -n 's/^obj = \\([-0-9.]*\\).*/\\1/p') &&
    awk -v a=\"\$a\" -v b=\"\$b\" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != \"\" && d <= 1e-6 * (b < 0 ? -b : b)) }' &&
    c=\$(GPUSVM_BACKEND=opencl $T/train_q64 -s 5 -c 10 -g 0.1 data/heart_scale $T/q64.cs.model 2> /dev/null | sed -n 's/^obj = \\([-0-9.]*\\).*/\\1/p') &&
    d=\$(GPUSVM_BACKEND=opencl $B/gpusvm-train -s 5 -c 10 -g 0.1 data/heart_scale $T/cs.model 2> /dev/null | sed -n 's/^obj = \\([-0-9.]*\\).*/\\1/p') &&
    [ -n \"\$c\" ] && [ \"\$c\" = \"\$d\" ]"
step "build test_edges" $CC -std=c99 -O2 $WARN -o $T/test_edges tests/unit/test_edges.c -ldl -lm
step "the edges, each by its error id: zero-based data, the predictor's input, 70 classes, folders, Crammer-Singer's decision values, progress, zero rules (C backend and OpenCL)" \
    $T/test_edges $T
step "build test_edges as C++11 with -Wextra -Werror" $CXX -std=c++11 $WARN -x c++ -o $T/test_edges_cpp tests/unit/test_edges.c -ldl -lm
step "build test_api" $CC -std=c99 -O2 $WARN -o $T/test_api tests/unit/test_api.c -ldl -lm
step "public API (C backend and OpenCL)" $T/test_api
step "the environment cannot break a program that did not ask (GPUSVM_BACKEND=gpu, a missing GPUSVM_DEVICE)" \
    env GPUSVM_BACKEND=gpu GPUSVM_DEVICE=no-such-device $T/test_api environment
step "build test_soak" $CC -std=c99 -D_POSIX_C_SOURCE=200809L -O2 $WARN -o $T/test_soak tests/unit/test_soak.c -ldl -lm -pthread
step "soak, OpenCL (PoCL): a cold start of 4 threads, then 2, 4, 8 threads, every result the single-threaded one, memory bounded" \
    env GPUSVM_DEVICE=Portable $T/test_soak opencl


# robustness: fault injection, AddressSanitizer, valgrind (fuzzing and ThreadSanitizer: the second lane)
while [ ! -e $T/asan.built ] && kill -0 $lane 2>/dev/null; do sleep 1; done # built by the second lane, first
step "every failing OpenCL call and host allocation: an error, nothing leaked, context usable" $T/test_faults
step "API tests under AddressSanitizer + UBSan" $T/test_api_asan
step "kernel tests under AddressSanitizer + UBSan (their small sizes: every kernel's host side; the full sizes run above)" env GPUSVM_TEST_QUICK=1 $T/test_kernels_asan

# the tools refuse what they cannot do, with a clear message and a non-zero exit
printf '1 1:0.5\n-1 2:x\n' > $T/bad.txt
expect_fail "gpusvm-train names file:line of a malformed row" "$T/bad.txt:2: value 'x'" $B/gpusvm-train $T/bad.txt $T/bad.model
expect_fail "gpusvm-train refuses -v 1" "n must >= 2" $B/gpusvm-train -v 1 data/heart_scale
expect_fail "gpusvm-train refuses -s 6 (no such SVM type)" "unknown svm type" $B/gpusvm-train -s 6 data/heart_scale
expect_fail "gpusvm-train refuses an unknown option" "unknown option" $B/gpusvm-train -z 1 data/heart_scale
expect_fail "gpusvm-predict reports a missing model" "cannot open" $B/gpusvm-predict data/heart_scale $T/none.model $T/out
if [ "$(ls /etc/OpenCL/vendors 2>/dev/null)" = "pocl.icd" ]; then
    step "auto skips a PoCL-only OpenCL installation without loading it (the C backend)" sh -c \
        "env -u GPUSVM_BACKEND -u GPUSVM_DEVICE $B/gpusvm-train data/heart_scale $T/auto.model 2>&1 | grep -q 'only OpenCL driver installed is PoCL'"
fi
step "an unknown GPUSVM_STORAGE or GPUSVM_OVERLAP is a warning, and auto" sh -c \
    "GPUSVM_STORAGE=bogus $B/gpusvm-train data/heart_scale $T/st.model 2>&1 | grep -q \"GPUSVM_STORAGE='bogus' is not auto\" &&
     GPUSVM_BACKEND=opencl GPUSVM_OVERLAP=bogus $B/gpusvm-train data/heart_scale $T/ov.model 2>&1 |
         grep -q \"GPUSVM_OVERLAP='bogus' is not auto, always or off; using auto\""
step "an unknown GPUSVM_BACKEND is refused; a known one in capitals is taken, as the library takes it" sh -c \
    "! GPUSVM_BACKEND=quantum $B/gpusvm-train data/heart_scale $T/x.model > $T/be.txt 2>&1 && grep -q GPUSVM_BACKEND $T/be.txt &&
     GPUSVM_BACKEND=CPU $B/gpusvm-train -q data/heart_scale $T/x.model"
awk '{ print ($1 > 0) ? 2 : 1 }' data/heart_scale > $T/w.txt
step "-W with weight 2 on every +1 row trains what -w1 2 trains" sh -c \
    "$B/gpusvm-train -W $T/w.txt data/heart_scale $T/w1.model > $T/w1.out 2>/dev/null &&
     $B/gpusvm-train -w1 2 data/heart_scale $T/w2.model > $T/w2.out 2>/dev/null && [ \"\$(grep ^obj $T/w1.out)\" = \"\$(grep ^obj $T/w2.out)\" ] && cmp $T/w1.model $T/w2.model"
head -n 3 $T/w.txt > $T/w3.txt
expect_fail "gpusvm-train names file:line of a weights file that is too short" "$T/w3.txt:4: 3 weights for 270" \
    $B/gpusvm-train -W $T/w3.txt data/heart_scale $T/w3.model
[ ! -e $T/bad.model ]
step "no model file is left behind by a failed training" test ! -e $T/bad.model
printf '1 1:0.5\n\n1.5 1:0.2\n-1 1:0.1\n' > $T/half.txt
expect_fail "gpusvm-train names file:line of a label that is not a class (blank lines counted)" \
    "$T/half.txt:3: label 1.5 is not an integer class label" $B/gpusvm-train $T/half.txt $T/half.model
expect_fail "gpusvm-train says a folder given as the data is a folder" "$T is a folder" $B/gpusvm-train $T $T/dir.model
expect_fail "gpusvm-predict says a folder given as the model is a folder" "$T is a folder" \
    $B/gpusvm-predict data/heart_scale $T $T/dir.out
step "PoCL with GPUSVM_CACHE_DIR: its own cache keeps the programs (a first run says once that it compiles, not cached by gpusvm; no file written)" sh -c \
    "rm -rf $T/kcache && GPUSVM_BACKEND=opencl GPUSVM_CACHE_DIR=$T/kcache $B/gpusvm-train data/heart_scale $T/kc.model 2> $T/kc1.err &&
     test \$(grep -c 'compiling the kernel program for .*(once per device and driver; not cached by gpusvm)' $T/kc1.err) = 1 &&
     test -z \"\$(ls $T/kcache 2>/dev/null)\""
step "gpusvm-train -q and gpusvm-predict -q print nothing, on stdout or stderr" sh -c \
    "[ -z \"\$(GPUSVM_VERBOSE=0 $B/gpusvm-train -q data/heart_scale $T/q.model 2>&1)\" ] &&
     [ -z \"\$($B/gpusvm-predict -q data/heart_scale $T/q.model $T/q.out 2>&1)\" ]"
step "-e 0, -c 0 and -g 0 mean the defaults, as 0 in gpusvm_params (the same model file)" sh -c \
    "$B/gpusvm-train -q -e 0 -c 0 -g 0 data/heart_scale $T/zero.model && cmp $T/zero.model $T/q.model"
# 70 classes (LIBSVM's model format has no limit): ours trains, saves, loads and predicts what
# LIBSVM's svm-predict predicts with the same file
awk 'BEGIN { for (i = 0; i < 210; ++i) printf "%d 1:%.3f 2:%.3f\n", int(i / 3) + 1, int(i / 3) * 0.1 + (i % 3) * 0.01, (i * 7 % 5) * 0.01 }' \
    > $T/c70.txt
step "70 classes: the model file loads back and predicts what LIBSVM's svm-predict predicts with it" sh -c \
    "$B/gpusvm-train -q -c 100 -g 50 $T/c70.txt $T/c70.model && $B/gpusvm-predict -q $T/c70.txt $T/c70.model $T/c70.out &&
     svm-predict -q $T/c70.txt $T/c70.model $T/c70.lib.out && cmp $T/c70.out $T/c70.lib.out && grep -q '^nr_class 70' $T/c70.model"

# one-vs-one's setup linear in the pairs: 1000 classes of three points (499,500 pairs) on the C
# backend, 400 on OpenCL (PoCL); each bound is many times what it takes, and before the setup
# compared every pair with every other (1000 classes: over ten minutes; 400 on PoCL: 77 s)
sh bench/gen_classes.sh 1000 > $T/c1000.txt
head -n 1200 $T/c1000.txt > $T/c400.txt
svm-train -q $T/c400.txt $T/c400.lib.model && svm-predict -q $T/c400.txt $T/c400.lib.model $T/c400.ref
svm-train -q $T/c1000.txt $T/c1000.lib.model && svm-predict -q $T/c1000.txt $T/c1000.lib.model $T/c1000.ref
step "1000 classes (499,500 pairs) train within 120 s on the C backend; svm-predict with the model predicts what it does with svm-train's" sh -c \
    "timeout 120 env GPUSVM_BACKEND=cpu $B/gpusvm-train -q $T/c1000.txt $T/c1000.model &&
     svm-predict -q $T/c1000.txt $T/c1000.model $T/c1000.out && cmp $T/c1000.out $T/c1000.ref"
step "400 classes (79,800 pairs) train within 60 s on OpenCL (PoCL); svm-predict with the model predicts what it does with svm-train's" sh -c \
    "timeout 60 env GPUSVM_BACKEND=opencl $B/gpusvm-train -q $T/c400.txt $T/c400.model &&
     svm-predict -q $T/c400.txt $T/c400.model $T/c400.out && cmp $T/c400.out $T/c400.ref"
# small problems a work-item each (gpusvm_smo_item): a round in one launch instead of about nine of a
# work-group a problem each (400 classes on PoCL: 1.5 s of training before, 0.11 s now); the same bits
step "small problems a work-item each: many classes, -b 1, epsilon-SVR, a precomputed kernel, weights, the grid: the work-group rounds' models, predictions and folds, with double and float pairs (OpenCL)" \
    sh tests/scripts/items.sh $T
# -b 1 with many classes: the pairs' Platt fits run in runs of pairs, each run's folds one batch
# (before, a batch a pair with its own threads, a walk from the first pair to find each and a label
# array the size of the data for each: 1000 classes took two minutes on this VM, now about 9 s):
# the solver's batches are counted (276 now, 499,501 before), the time only bounded
step "-b 1 with 1000 classes (499,500 Platt fits): at most 1,000 batches, within 150 s on the C backend, every pair's probA and probB, and svm-predict with the model predicts what it does with svm-train's" sh -c \
    "timeout 150 env GPUSVM_BACKEND=cpu GPUSVM_VERBOSE=1 $B/gpusvm-train -b 1 $T/c1000.txt $T/c1000b.model > /dev/null 2> $T/c1000b.err &&
     [ \"\$(grep -c 'solver: ' $T/c1000b.err)\" -le 1000 ] &&
     [ \"\$(awk '/^prob[AB] /{print NF - 1}' $T/c1000b.model | sort -u)\" = 499500 ] &&
     [ \"\$(grep -c '^prob[AB] ' $T/c1000b.model)\" = 2 ] &&
     svm-predict -q $T/c1000.txt $T/c1000b.model $T/c1000b.out && cmp $T/c1000b.out $T/c1000.ref"
# gpusvm_model_linear_weights for each of 400 classes' 79,800 pairs: each call checks the support
# vectors and the coefficients its pair reads (before, every pair's: 23 s here for all the pairs)
head -n 90 $T/c400.txt > $T/c30.txt
step "gpusvm_model_linear_weights for all 79,800 pairs of a 400-class linear model within 15 s: each pair's w.x + b is gpusvm_predict's decision value" sh -c \
    "$CC -std=c99 -O2 -Wall -Wextra -pedantic -Werror -o $T/weights_many tests/scripts/weights_many.c -ldl -lm &&
     GPUSVM_BACKEND=cpu $B/gpusvm-train -q -t 0 $T/c400.txt $T/c400.lin.model &&
     GPUSVM_BACKEND=cpu timeout 15 $T/weights_many $T/c400.lin.model $T/c30.txt"
# prediction with many classes reads the pairs' coefficients in place, a point at a time, as LIBSVM
# (before, a pairs x support vectors matrix: 1000 classes 12 GB, never done)
step "gpusvm-predict with 1000 classes (C backend) and 400 (OpenCL) within 120 s each: svm-predict's labels" sh -c \
    "timeout 120 env GPUSVM_BACKEND=cpu $B/gpusvm-predict -q $T/c1000.txt $T/c1000.model $T/c1000.gout && cmp $T/c1000.gout $T/c1000.ref &&
     timeout 120 env GPUSVM_BACKEND=opencl $B/gpusvm-predict -q $T/c400.txt $T/c400.model $T/c400.gout && cmp $T/c400.gout $T/c400.ref"

# -v with -b 1 predicts each fold by its probabilities, as LIBSVM's svm_cross_validation does: wine's
# leave-one-out rate is then not the decision values' (45.5056% for both programs)
xz -dc data/wine.sklearn.xz > $T/wine
step "-b 1 -v: the folds predict by their probabilities (wine, leave-one-out: not the decision values' 45.5056%)" sh -c \
    "$B/gpusvm-train -v 178 $T/wine | grep -q '^Cross Validation Accuracy = 45.5056%$' &&
     ! $B/gpusvm-train -b 1 -v 178 $T/wine | grep -q '^Cross Validation Accuracy = 45.5056%$'"
printf '1 1:0.1\n1 1:0.2\n1 1:0.9\n' > $T/one_label.txt
step "-b 1 -v where a fold trains on one class: that class's label, as svm-train (not an error)" sh -c \
    "$B/gpusvm-train -b 1 -v 2 $T/one_label.txt | grep -q '^Cross Validation Accuracy = 100%$'"
step "one label with -b 1: gpusvm-predict -b 1 writes svm-predict's probability 1, with our model and with LIBSVM's" sh -c \
    "$B/gpusvm-train -q -b 1 $T/one_label.txt $T/one_label.model && svm-train -q -b 1 $T/one_label.txt $T/one_label.lib.model &&
     svm-predict -q -b 1 $T/one_label.txt $T/one_label.lib.model $T/one_label.ref &&
     $B/gpusvm-predict -q -b 1 $T/one_label.txt $T/one_label.model $T/one_label.out && cmp $T/one_label.out $T/one_label.ref &&
     $B/gpusvm-predict -q -b 1 $T/one_label.txt $T/one_label.lib.model $T/one_label.out && cmp $T/one_label.out $T/one_label.ref"

# kernel values past float's range: an error naming the row, never a model or a label with exit 0
printf -- '-1 1:3e38 2:1\n' > $T/big_norm.txt
printf -- '-1 1:1e15\n' > $T/big_poly.txt
$B/gpusvm-train -q data/heart_scale $T/rbf.model && $B/gpusvm-train -q -t 1 -d 3 data/heart_scale $T/poly.model
expect_fail "-t 1 -r 1e30 -d 20: the kernel overflows in training (not a model of no support vector)" "overflows float" \
    $B/gpusvm-train -q -t 1 -r 1e30 -d 20 data/heart_scale $T/over.model
expect_fail "-t 1 -g 1e20 -d 20: likewise" "overflows float" $B/gpusvm-train -q -t 1 -g 1e20 -d 20 data/heart_scale $T/over.model
expect_fail "a point of features 3e38 against an RBF model: an error, not a label" "row 0's kernel value" \
    $B/gpusvm-predict $T/big_norm.txt $T/rbf.model $T/over.out
expect_fail "a degree-3 polynomial on 1:1e15: an error, not a NaN decision value" "row 0's kernel value" \
    $B/gpusvm-predict $T/big_poly.txt $T/poly.model $T/over.out

for r in "-5,15,0.01|at most 1000" "-5,15,0|must not be 0" "1100,1100,1|past a double's range"; do
    expect_fail "gpusvm-grid -log2c ${r%%|*}: an error (${r#*|}), not a grid cut short or of one value" "${r#*|}" \
        $B/gpusvm-grid -log2c "${r%%|*}" -log2g -1,-1,1 -out null -png null data/heart_scale
done
# numbers past their range said so (not "not an integer"), a byte order mark named
sed 's/^total_sv .*/total_sv 2147483648/' $T/rbf.model > $T/big_total.model
printf '3000000000 1:0.5\n-1 1:0.2\n' > $T/big_label.txt
printf -- '-1 99999999999999999999:1\n' > $T/big_index.txt
printf '\357\273\2771 1:0.5\n-1 1:0.2\n' > $T/bom.txt
expect_fail "total_sv 2147483648: too large, and the limit" "total_sv '2147483648' is too large (at most 2147483647)" \
    $B/gpusvm-predict data/heart_scale $T/big_total.model $T/big.out
expect_fail "label 3000000000: too large for a class label" "too large for a class label" \
    $B/gpusvm-train -q $T/big_label.txt $T/big.model
expect_fail "feature index 99999999999999999999: too large" "'99999999999999999999' is too large" \
    $B/gpusvm-predict $T/big_index.txt $T/rbf.model $T/big.out
expect_fail "a UTF-8 byte order mark: named, with file:line" "bom.txt:1: a UTF-8 byte order mark" \
    $B/gpusvm-train -q $T/bom.txt $T/big.model
grep -v '^gamma' $T/rbf.model > $T/nogamma.model
expect_fail "an RBF model file without gamma: refused with file:line (it was read with gamma 0)" "lacks gamma" \
    $B/gpusvm-predict data/heart_scale $T/nogamma.model $T/nogamma.out
cp $T/rbf.model $T/1heart.model
# a training past a second draws its progress as one line redrawn on a terminal's stderr (run under
# script(1), util-linux), from the status the solver reads anyway: none under -q, none with stderr
# a file, and the same model bytes all three ways
xz -dc data/a9a.xz > $T/a9a_all
step "a9a on the C backend: its progress line on a terminal (script), none under -q or into a file, the same model" sh -c \
    "script -q -e -c 'GPUSVM_BACKEND=cpu $B/gpusvm-train -c 1 -g 0.05 $T/a9a_all $T/tty.model' $T/tty.out > /dev/null &&
     tr '\\r' '\\n' < $T/tty.out | grep -q '^gpusvm: round [0-9]*, gap [0-9.e+-]* (eps 0.001), 0 of 1 problems done, [0-9]* s' &&
     script -q -e -c 'GPUSVM_BACKEND=cpu $B/gpusvm-train -q -c 1 -g 0.05 $T/a9a_all $T/ttyq.model' $T/ttyq.out > /dev/null &&
     ! grep -q 'gpusvm: round' $T/ttyq.out &&
     GPUSVM_BACKEND=cpu $B/gpusvm-train -c 1 -g 0.05 $T/a9a_all $T/file.model > /dev/null 2> $T/file.err &&
     ! grep -q 'round' $T/file.err && cmp $T/tty.model $T/file.model && cmp $T/ttyq.model $T/file.model"
step "gpusvm-export: a model on standard input (-), and a name from a file name that starts with a digit (m1heart, not the reserved _1heart), each header building" sh -c \
    "$B/gpusvm-export - < $T/rbf.model > $T/stdin_model.h && grep -q 'model_predict(const float' $T/stdin_model.h &&
     $B/gpusvm-export $T/1heart.model > $T/m1heart.h && grep -q 'm1heart_predict(const float' $T/m1heart.h &&
     ! grep -q '_1heart' $T/m1heart.h &&
     printf '#include \"stdin_model.h\"\n#include \"m1heart.h\"\nint main(void) { float x[13] = {0}; return (int)model_predict(x) != (int)m1heart_predict(x); }\n' > $T/export_names.c &&
     $CC -std=c99 -Wall -Wextra -pedantic -Werror -I$T -o $T/export_names $T/export_names.c -lm && $T/export_names"
expect_fail "-s 5 -b 1: refused (Crammer-Singer fits no probabilities), not a model without them" "fits no probabilities" \
    $B/gpusvm-train -q -s 5 -b 1 data/heart_scale $T/cs_b.model

# standard output that cannot be written (a full disk): every tool exits 1 and says so
for t in "gpusvm-scale data/heart_scale" "gpusvm-train -v 2 data/heart_scale" "gpusvm-predict data/heart_scale $T/rbf.model /dev/stdout" \
    "gpusvm-grid -log2c 1,1,1 -log2g 1,1,1 -out null -png null data/heart_scale" "gpusvm-export $T/rbf.model"; do
    expect_fail "${t%% *} > /dev/full: exit 1 and a message" "could not be written\|write failed" sh -c "$B/$t > /dev/full"
done

# gpusvm-scale against svm-scale, byte for byte
step "gpusvm-scale writes what svm-scale writes (20 cases)" sh tests/scripts/scale.sh
step "gpusvm-grid prints what svm-grid prints, a best point within 1.5 of its, a PNG that decodes (none with -png null)" sh tests/scripts/grid.sh
# tools/png.h's deflate: six images (a heat map with text, gradients, noise, a flat field, one
# pixel, one row) decode to their own pixels, byte for byte
rm -rf $T/png && mkdir -p $T/png
step "tools/png.h: six images, compressed, decode to their pixels byte for byte (zlib, every row's filter undone)" sh -c \
    "$CC -std=c99 -O2 $WARN -o $T/png_roundtrip tests/scripts/png_roundtrip.c && $T/png_roundtrip $T/png > $T/png/list &&
     test \$(wc -l < $T/png/list) = 6 &&
     while read n w h; do python3 tests/scripts/png_check.py $T/png/\$n.png \$w \$h $T/png/\$n.rgb || exit 1; done < $T/png/list"
step "models as C source (gpusvm-export): the same labels, decision values and probabilities as gpusvm_predict on 15 models; a Cortex-M4 build and an ARM run under qemu-arm" sh tests/scripts/export.sh
$B/gpusvm-train -q data/heart_scale $T/exp.model
printf 'svm_type c_svc\nkernel_type precomputed\nnr_class 2\ntotal_sv 2\nrho 0\nlabel 1 -1\nnr_sv 1 1\nSV\n1 0:1\n-1 0:2\n' > $T/pre.model
expect_fail "gpusvm-export refuses a name that is not a C identifier" "is not a C identifier" $B/gpusvm-export $T/exp.model 9lives
expect_fail "gpusvm-export says which model file it cannot open" "nonexistent.model" $B/gpusvm-export $T/nonexistent.model
expect_fail "gpusvm-export refuses a precomputed-kernel model" "precomputed-kernel" $B/gpusvm-export $T/pre.model
expect_fail "gpusvm-grid refuses -c, as svm-grid does" "Use -log2c and -log2g" $B/gpusvm-grid -c 1 data/heart_scale
expect_fail "gpusvm-grid refuses a range without its step" "expected begin,end,step" $B/gpusvm-grid -log2c 1,2 data/heart_scale
expect_fail "gpusvm-grid says which data file it cannot open" "nonexistent.data: cannot open" $B/gpusvm-grid $T/nonexistent.data
printf '1 1:0.5\n-1 x:1\n' > $T/badscale.txt
expect_fail "gpusvm-scale names file:line of a malformed row" "$T/badscale.txt:2:" $B/gpusvm-scale $T/badscale.txt

# nothing the user had is lost or half-written: symlinks, FIFOs, device nodes, permissions, stdout
suite files tests/scripts/files.sh
# every writer of the library and the tools under a comma-decimal locale: the "C" locale's bytes
suite locale tests/scripts/locale.sh



# LIBSVM parity on real data, C backend and OpenCL; then OpenCL again with the points kept
# sparse on the device (the automatic choice keeps most of these sets dense)
suite parity tests/scripts/parity.sh cpu opencl
export GPUSVM_STORAGE=sparse
suite parity tests/scripts/parity.sh opencl
unset GPUSVM_STORAGE
# and with float pairs, the path of devices without double precision (GPUSVM_FP64=off)
export GPUSVM_FP64=off
suite parity tests/scripts/parity.sh opencl
unset GPUSVM_FP64



# a third OpenCL implementation, with another compiler: Intel's runtime for CPUs (tools/setup.sh
# installs it from PyPI into build/intel-ocl, used through its own loader); its program binaries
# cached under build/ (Intel's runtime keeps none of its own)
IV=$PWD/$B/intel-ocl/lib
if [ -f "$IV/libintelocl.so" ]; then
    export LD_LIBRARY_PATH=$IV${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} OCL_ICD_FILENAMES=$IV/libintelocl.so \
        GPUSVM_DEVICE=Intel GPUSVM_CACHE_DIR=$PWD/$T/intel-cache
    # the kernel tests once, through the sub-group exchange only forcing reaches when the device
    # offers it (cl_intel_subgroups; the automatic choice, cl_khr_subgroup_shuffle, trains the
    # parity suite below); on one device: this runtime runs the inner solve's one work-group on a
    # core while the host's thread spins, and the several-device section (three contexts on one
    # CPU) alone takes six minutes here; PoCL's and NVIDIA's runs check it
    export GPUSVM_TEST_ONE_DEVICE=1
    if env GPUSVM_SUBGROUPS=intel GPUSVM_BACKEND=opencl $B/gpusvm-train data/heart_scale $T/intel_sg.model 2>&1 |
        grep -q 'reductions through cl_intel_subgroups'; then
        step "Intel's OpenCL runtime, its cl_intel_subgroups exchanges forced: the kernels match the C backend" \
            env GPUSVM_SUBGROUPS=intel $T/test_kernels
    else
        skip "Intel's cl_intel_subgroups exchanges: the device does not offer them"
        step "Intel's OpenCL runtime: the kernels match the C backend" $T/test_kernels
    fi
    step "soak, Intel's OpenCL runtime: a cold start of 4 threads, then 2, 4, 8 threads, every result the single-threaded one, memory bounded" \
        $T/test_soak opencl
    step "Intel's OpenCL runtime: a first run says once that it compiles the kernel program and where it keeps it; the next run loads it and says nothing of compiling" sh -c \
        "rm -rf $T/kcache && GPUSVM_BACKEND=opencl GPUSVM_CACHE_DIR=$T/kcache $B/gpusvm-train data/heart_scale $T/kc.model 2> $T/kc1.err &&
         test \$(grep -c 'compiling the kernel program for .* kept for the next runs in $T/kcache' $T/kc1.err) = 1 &&
         GPUSVM_BACKEND=opencl GPUSVM_CACHE_DIR=$T/kcache $B/gpusvm-train data/heart_scale $T/kc.model 2> $T/kc2.err &&
         ! grep -q compiling $T/kc2.err && grep -q 'from the kernel cache' $T/kc2.err"
    suite parity tests/scripts/parity.sh opencl
    step "Intel's OpenCL runtime: small problems a work-item each, the work-group rounds' models, predictions and folds (double and float pairs)" \
        sh tests/scripts/items.sh $T/intel
    unset LD_LIBRARY_PATH OCL_ICD_FILENAMES GPUSVM_DEVICE GPUSVM_CACHE_DIR GPUSVM_TEST_ONE_DEVICE
else
    skip "Intel's OpenCL runtime for CPUs: not installed (tools/setup.sh test installs it: pip install intel-opencl-rt)"
fi

wait $lane
echo "-- the second lane:"
cat $T/lane.txt
# the suite's size is a stated fact (docs/tests.md): where nothing was skipped, a run that makes
# another number of checks has lost or gained one the docs do not know of
want=$(sed -n 's/^`make test` makes \*\*\([0-9]*\) checks\*\* where nothing is skipped.*/\1/p' docs/tests.md)
awk -v t="$(took "$t_all")" -v want="$want" -v skips="$(wc -l < "$T/skips.txt")" '{ p += $1; f += $2 } END {
    if (skips == 0 && p + f != want) {
        printf "FAIL docs/tests.md says make test makes %s checks where nothing is skipped; this run made %d\n", want, p + f
        f++
    } else if (skips > 0)
        printf "(%d skipped: the count is not held to docs/tests.md'"'"'s %s)\n", skips, want
    printf "%d passed, %d failed (%s s)\n", p, f, t
    exit f > 0
}' "$res"
