#!/bin/sh
# oclgrind.sh: every kernel of the program run at least once on small problems inside Oclgrind, a
# simulated OpenCL device that checks each memory access: out of bounds (always), data races
# between work-items (OCLGRIND_DATA_RACES), reads of uninitialised memory (OCLGRIND_UNINITIALIZED)
# and misuse of the OpenCL API (OCLGRIND_CHECK_API). Each run must end well with no report; the
# kernels each run launched (GPUSVM_VERBOSE's "kernel launches") must add up to every kernel the
# program has. Prints ok/FAIL lines and "oclgrind: N passed, M failed"; skips with a clear line
# where no Oclgrind is there.
#
# Which Oclgrind: 26.03.1 built from source (tests/kernels/oclgrind_build.sh, into build/oclgrind;
# tools/setup.sh test builds it), else Debian's 21.10. With 26.03.1 each run is one pass with every
# check on the kernels as the library builds them. 21.10's uninitialised-read check cannot simulate
# the 'freeze' that clang emits at -O2, so there each run is two passes: the kernels as the library
# builds them with bounds, races and the API checked, then as the source reads (-cl-opt-disable;
# GPUSVM_INLINE: the helpers as plain inline functions, as always_inline makes clang emit
# llvm.experimental.noalias.scope.decl for the float pairs' structs, which 21.10 cannot run) with
# every check, the uninitialised reads too.
#
# Both keep a buffer's shadow (which bytes are initialised) by buffer id, sized by the host's
# writes, and a new buffer with a released one's id keeps the old size until the host writes it
# (plugins/Uninitialized.cpp: memoryAllocated is not handled, hostMemoryStore allocates the
# shadow), so a kernel's words past that size read as uninitialised: Crammer-Singer (the dense
# upload's CSR staging buffers are released once scattered), nu-SVC and one-class (their starting
# gradient is a device decision whose buffers go before the training's come) gave hundreds of such
# reports. So every run has GPUSVM_BUFFERS=keep: the library releases its device buffers only when
# the context goes, and no id is reused. tests/kernels/oclgrind_ids.c shows the false report on the
# Oclgrind used: its reports begin at the released buffer's size, and every value read is the one
# written; below, it must report exactly those words.
cd "$(dirname "$0")/../.." || exit 1
B=build
T=$B/tests/oclgrind
mkdir -p "$T"
pass=0
fail=0
icd=$PWD/$B/oclgrind/lib/liboclgrind-rt-icd.so
which="26.03.1 (built from source): the kernels as the library builds them, every check in one pass"
source_pass=
if [ ! -f "$icd" ]; then
    icd=/usr/lib/oclgrind/liboclgrind-rt-icd.so
    which="Debian's 21.10: the kernels as built (bounds, races, API), then as the source reads (every check)"
    source_pass="-cl-opt-disable -DGPUSVM_INLINE=inline"
fi
if [ ! -f "$icd" ]; then
    echo "skip oclgrind: neither $B/oclgrind (tests/kernels/oclgrind_build.sh) nor Debian's oclgrind package is there"
    echo "oclgrind: 0 passed, 0 failed"
    exit 0
fi
echo "oclgrind: $which"
mkdir -p "$T/vendors"
echo "$icd" > "$T/vendors/oclgrind.icd"
# Debian's ICD loader ignores OCL_ICD_FILENAMES; OCL_ICD_VENDORS names the folder of .icd files.
export OCL_ICD_VENDORS=$PWD/$T/vendors OCLGRIND_CHECK_API=1 OCLGRIND_DATA_RACES=1 OCLGRIND_UNINITIALIZED=1 \
    GPUSVM_BUFFERS=keep GPUSVM_BACKEND=opencl GPUSVM_CACHE_DIR=off GPUSVM_VERBOSE=1
unset OCLGRIND_BUILD_OPTIONS
unset GPUSVM_DEVICE GPUSVM_STORAGE GPUSVM_FP64 GPUSVM_DEVICE_MEMORY_MB GPUSVM_SUBGROUPS GPUSVM_OVERLAP GPUSVM_INNER

# the data: heart_scale's first 30, 60, 100 and 150 rows, 30 rows of iris (3 classes), a regression set,
# a9a's first 40 rows (123 features: the tiled rows kernel), heart_scale five times over (device
# prediction), 12 classes of three points
head -n 60 data/heart_scale > $T/h60
head -n 30 data/heart_scale > $T/h30
head -n 100 data/heart_scale > $T/h100
head -n 150 data/heart_scale > $T/h150
xz -dc data/iris.sklearn.xz | awk 'NR % 5 == 1' > $T/iris30
xz -dc data/diabetes_reg.scale.xz | head -n 60 > $T/reg60
xz -dc data/a9a.xz | head -n 40 > $T/a9a40
for k in 1 2 3 4 5; do cat data/heart_scale; done > $T/h1350
sh bench/gen_classes.sh 12 > $T/k12
[ -x $T/train_grid ] && [ $T/train_grid -nt gpusvm.h ] ||
    ${CC:-cc} -std=c99 -O2 -DGPUSVM__SEL_GRID=0 -o $T/train_grid tools/gpusvm-train.c -ldl -lm
[ -x $T/small_sets ] && [ $T/small_sets -nt gpusvm.h ] && [ $T/small_sets -nt tests/unit/small_sets.c ] ||
    ${CC:-cc} -std=c99 -O2 -o $T/small_sets tests/unit/small_sets.c -ldl -lm

# The runs stop at -e 0.1 where the tolerance does not choose which kernels run (each launches
# the kernels it launches at LIBSVM's 0.001, as often or less), in fewer pair
# updates (heart_scale's 60 rows: 30 against 55; nu-SVC 21 against 80), and the inner solve's
# loop, interpreted for each of its 256 work-items, is most of a run's time.
# check ID NAME COMMAND...: the command must succeed with no Oclgrind report, in one pass or two
# (see the header). Its line goes to $T/runID.result. (Float pairs, run 9, take GPUSVM_INLINE in
# 21.10's first pass too: see above.) Each run is one simulated thread: two lanes run side by
# side, balanced by their runs' times (prediction after the model it reads, in the same lane)
check() {
    id=$1 name=$2
    shift 2
    log=$T/run$id.log
    t0=$(date +%s)
    : > "$T/run$id.built.log"
    built=
    [ "$id" = 9 ] && built=-DGPUSVM_INLINE=inline
    if { [ -z "$source_pass" ] ||
         OCLGRIND_BUILD_OPTIONS=$built OCLGRIND_UNINITIALIZED=0 "$@" > "$T/run$id.built.log" 2>&1; } &&
       OCLGRIND_BUILD_OPTIONS=$source_pass "$@" > "$log" 2>&1; then
        rc=0
    else
        rc=$?
    fi
    reports=$(cat "$T/run$id.built.log" "$log" 2> /dev/null |
        grep -c -E '^(Invalid|Uninitialized|Controlflow|Read-write|Write-write|Oclgrind - OpenCL runtime error)|data race|OCLGRIND FATAL')
    if [ "$rc" = 0 ] && [ "$reports" = 0 ]; then
        echo "ok   oclgrind: $name ($(($(date +%s) - t0)) s)"
    else
        echo "FAIL oclgrind: $name (exit $rc, $reports reports; see $log)"
        cat "$T/run$id.built.log" "$log" 2> /dev/null |
            grep -m 12 -E '^(Invalid|Uninit|Control|Read-|Write-|Oclgrind -)|Kernel:|At line|FATAL' | sed 's/^/     /'
    fi > $T/run$id.result
}
rm -f $T/run*.result $T/run*.log
jobs=18
# every check: bounds, races, the API and uninitialised reads (see the header)
(
    check 1 "C-SVC, dense, two classes" $B/gpusvm-train -e 0.1 -c 1 -g 0.05 $T/h60 $T/c.model
    check 2 "prediction on the device (1350 points)" $B/gpusvm-predict $T/h1350 $T/c.model $T/c.out
    check 9 "C-SVC, float pairs (GPUSVM_FP64=off)" env GPUSVM_FP64=off $B/gpusvm-train -e 0.1 -c 1 -g 0.05 $T/h60 $T/pairs.model
    check 4 "C-SVC, the selection over the grid" $T/train_grid -e 0.1 -c 1 -g 0.05 $T/h60 $T/grid.model
    check 5 "one-class" $B/gpusvm-train -e 0.1 -s 2 -n 0.2 -g 0.05 $T/h60 $T/one.model
    check 12 "Crammer-Singer" $B/gpusvm-train -s 5 -c 10 $T/iris30 $T/cs.model
    check 13 "nu-SVC" $B/gpusvm-train -e 0.1 -s 1 -n 0.3 -g 0.05 $T/h60 $T/nu.model
    check 15 "3-fold cross-validation, working sets of 16: a row cache for every fold of the batch" $T/small_sets $T/h60 16 4 0.1 3
    check 18 "small problems a work-item each (gpusvm_smo_item): 12 classes of three points, -b 1; 3 classes of 10, 3-fold" sh -c \
        "GPUSVM_STORAGE=dense $B/gpusvm-train -e 0.1 -b 1 $T/k12 $T/items.model && $B/gpusvm-train -e 0.1 -c 10 -v 3 $T/iris30"
    check 16 "two devices, split by rows, each share resident: its inner solve beside its rows (GPUSVM_DEVICE=0,0, working sets of 16)" sh -c \
        "GPUSVM_VERBOSE=1 GPUSVM_DEVICE=0,0 GPUSVM_SPREAD=always $T/small_sets $T/h60 16 > $T/split2.out 2>&1; rc=\$?; cat $T/split2.out; [ \$rc = 0 ] && grep -q 'part 2 of 2 of a problem split by rows.*the inner solve beside its rows' $T/split2.out"
) &
(
    check 6 "working sets of 16: the row cache, the few-rows kernel, the inner solve beside the rows (GPUSVM_OVERLAP=always)" env GPUSVM_OVERLAP=always $T/small_sets $T/h60 16
    check 7 "C-SVC, points kept sparse (30 points)" env GPUSVM_STORAGE=sparse $B/gpusvm-train -e 0.1 -c 1 -g 0.05 $T/h30 $T/sparse.model
    check 14 "working sets of 16, points kept sparse: the inner solve beside the sparse rows (GPUSVM_OVERLAP=always)" env GPUSVM_STORAGE=sparse GPUSVM_OVERLAP=always $T/small_sets $T/h60 16
    check 8 "three classes, 3-fold cross-validation (one batch; a work-group a problem: GPUSVM_INNER=groups)" env GPUSVM_INNER=groups \
        $B/gpusvm-train -e 0.1 -c 10 -v 3 $T/iris30
    check 10 "epsilon-SVR" $B/gpusvm-train -s 3 -p 0.05 $T/reg60 $T/svr.model
    check 11 "C-SVC, many features (the tiled rows kernel)" $B/gpusvm-train -e 0.1 -c 4 -g 0.1 $T/a9a40 $T/tiled.model
    check 3 "two devices, split by rows and streamed (GPUSVM_DEVICE=0,0; five rounds)" env GPUSVM_DEVICE=0,0 GPUSVM_SPREAD=always GPUSVM_DEVICE_MEMORY_MB=0.05 \
        $B/gpusvm-train -e 0.3 -c 4 -g 0.1 -m 0.01 $T/h100 $T/split.model
    check 17 "the inner solve's third level (GPUSVM_INNER=sets; working sets of 128 on 150 points)" env GPUSVM_INNER=sets \
        $T/small_sets $T/h150 128
) &
wait
for k in $(seq 1 $jobs); do
    cat $T/run$k.result 2>/dev/null || echo "FAIL oclgrind: run $k left no result"
    if grep -q '^ok' $T/run$k.result 2>/dev/null; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done

# the false report itself, on this Oclgrind: a kernel-filled buffer with a released buffer's id
if ${CC:-cc} -std=c99 -o $T/oclgrind_ids tests/kernels/oclgrind_ids.c -l:libOpenCL.so.1 2> $T/ids_build.log; then
    OCLGRIND_UNINITIALIZED=1 $T/oclgrind_ids > $T/ids.log 2>&1
    rc=$?
    n=$(grep -c '^Uninitialized' $T/ids.log)
    if [ "$rc" = 0 ] && [ "$n" = 48 ]; then
        pass=$((pass + 1))
        echo "ok   oclgrind: its uninitialised-read check reports the 48 words past a released buffer's 16, all read as written"
    else
        fail=$((fail + 1))
        echo "FAIL oclgrind: tests/kernels/oclgrind_ids.c: exit $rc, $n reports (48 expected: see the header)"
    fi
else
    fail=$((fail + 1))
    echo "FAIL oclgrind: tests/kernels/oclgrind_ids.c does not build (see $T/ids_build.log)"
fi

# every kernel of the program was launched by some run
all=$(grep -o '"gpusvm_[a-z_]*", GPUSVM__' kernels/00_shared.h | sed 's/"\(gpusvm_[a-z_]*\)".*/\1/' | sort -u)
seen=$(grep -h 'kernel launches:' $T/run*.log | tr ' ' '\n' | grep '^gpusvm_' | sort -u)
missing=$(for k in $all; do echo "$seen" | grep -qx "$k" || echo "$k"; done)
if [ -z "$missing" ] && [ -n "$all" ]; then
    pass=$((pass + 1))
    echo "ok   oclgrind: every kernel ran ($(echo "$all" | wc -l) kernels)"
else
    fail=$((fail + 1))
    echo "FAIL oclgrind: kernels no run launched:" $missing
fi
echo "oclgrind: $pass passed, $fail failed"
[ "$fail" = 0 ]
