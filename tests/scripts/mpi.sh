#!/bin/sh
# mpi.sh: gpusvm-train-mpi and gpusvm-grid-mpi (make mpi) under mpirun with 2 and 3 ranks on
# this machine. gpusvm-train-mpi: the model file and printed lines of one gpusvm-train process on
# the C backend, byte for byte (C-SVC, nu-SVC, epsilon-SVR on svmguide1, C-SVC and 5-fold
# cross-validation on 4000 a9a points: more points than a working set, so every rank holds a
# share), and with every rank on OpenCL; gpusvm-grid-mpi: gpusvm-grid's lines, .out file and PNG; bad input fails every rank
# with file:line and no model. Prints "mpi: N passed, M failed".
W=build/mpi
. tests/suite.sh
if ! command -v mpirun > /dev/null 2>&1 || [ ! -x $B/gpusvm-train-mpi ] || [ ! -x $B/gpusvm-grid-mpi ]; then
    check 1 "mpirun or the MPI tools missing (make setup-test installs openmpi-bin and libopenmpi-dev; make mpi)"
    summary mpi
    exit
fi
export GPUSVM_BACKEND=cpu GPUSVM_THREADS=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
xz -dc data/svmguide1.xz > "$W/svmguide1"
xz -dc data/a9a.xz | head -n 4000 > "$W/a9a4k"

# same NAME RANKS DATA OPTIONS...: the model and stdout of RANKS ranks against one process
same() {
    name=$1 ranks=$2 file=$3 data=$W/$3
    shift 3
    $B/gpusvm-train "$@" "$data" "$W/$name.ref.model" > "$W/$name.ref.out" 2> "$W/$name.ref.err"
    mpirun -np "$ranks" $B/gpusvm-train-mpi "$@" "$data" "$W/$name.$ranks.model" > "$W/$name.$ranks.out" 2> "$W/$name.$ranks.err"
    rc=$?
    if [ $rc = 0 ] && grep -q "part 1 of $ranks" "$W/$name.$ranks.err" && cmp -s "$W/$name.ref.out" "$W/$name.$ranks.out" &&
       { [ ! -e "$W/$name.ref.model" ] || cmp -s "$W/$name.ref.model" "$W/$name.$ranks.model"; }; then
        check 0 "mpirun -np $ranks gpusvm-train-mpi $* $file: one process's model and lines"
    else
        check 1 "mpirun -np $ranks gpusvm-train-mpi $* $file: one process's model and lines (exit $rc, see $W/$name.*)"
    fi
}

same csvc 2 svmguide1 -c 10 -g 1
same csvc 3 svmguide1 -c 10 -g 1
same nusvc 3 svmguide1 -s 1 -n 0.3 -g 1
same svr 2 svmguide1 -s 3 -p 0.2 -c 4 -g 1
same a9a 3 a9a4k -c 1 -g 0.05
same cv 2 a9a4k -c 1 -g 0.05 -v 5

# each rank on an OpenCL device (PoCL's CPU on a machine without a GPU): the problem split by rows
# across the ranks' devices, one process's model and lines; GPUSVM_DEVICE as a list gives each
# rank its entry; ranks on different backends, or whose memory plans different working sets, are
# an error on every rank, with no model
export GPUSVM_BACKEND=opencl
same ocl_csvc 2 svmguide1 -c 10 -g 1
same ocl_nusvc 3 svmguide1 -s 1 -n 0.3 -g 1
GPUSVM_DEVICE=0,0,0 && export GPUSVM_DEVICE
same ocl_svr 3 svmguide1 -s 3 -p 0.2 -c 4 -g 1
unset GPUSVM_DEVICE
same ocl_a9a 2 a9a4k -c 1 -g 0.05
n=$(grep -l "part 1 of [23] of a problem split by rows" "$W/ocl_csvc.2.err" "$W/ocl_nusvc.3.err" "$W/ocl_svr.3.err" \
    "$W/ocl_a9a.2.err" | wc -l)
[ "$n" = 4 ]
check $? "the OpenCL runs split the problem by rows (rank 0's share said: $n of 4)"
mpirun -np 1 -x GPUSVM_BACKEND=cpu $B/gpusvm-train-mpi "$W/a9a4k" "$W/mix.model" : \
    -np 1 -x GPUSVM_BACKEND=opencl $B/gpusvm-train-mpi "$W/a9a4k" "$W/mix.model" > "$W/mix.out" 2>&1
rc=$?
[ $rc != 0 ] && grep -q "run on different backends" "$W/mix.out" && [ ! -e "$W/mix.model" ]
check $? "mpirun with one rank on the C backend and one on OpenCL: an error, no model"
mpirun -np 1 -x GPUSVM_FP64=off $B/gpusvm-train-mpi "$W/a9a4k" "$W/pairs.model" : \
    -np 1 -x GPUSVM_FP64=on $B/gpusvm-train-mpi "$W/a9a4k" "$W/pairs.model" > "$W/pairs.out" 2>&1
rc=$?
[ $rc != 0 ] && grep -q "OpenCL with float pairs" "$W/pairs.out" && [ ! -e "$W/pairs.model" ]
check $? "mpirun with one OpenCL rank on float pairs and one on double: an error, no model"
mpirun -np 1 -x GPUSVM_DEVICE_MEMORY_MB=2 $B/gpusvm-train-mpi "$W/a9a4k" "$W/plan.model" : \
    -np 1 $B/gpusvm-train-mpi "$W/a9a4k" "$W/plan.model" > "$W/plan.out" 2>&1
rc=$?
[ $rc != 0 ] && grep -q "planned different batches" "$W/plan.out" && [ ! -e "$W/plan.model" ]
check $? "mpirun with OpenCL ranks whose memory plans different working sets: an error, no model"
export GPUSVM_BACKEND=cpu

# gpusvm-grid-mpi: the ranks take the gamma values in turn; rank 0 prints svm-grid's lines, the .out
# file and the picture that one gpusvm-grid process writes
$B/gpusvm-grid -out "$W/grid.ref.out" -png "$W/grid.ref.png" data/heart_scale > "$W/grid.ref.txt" 2> /dev/null
mpirun -np 3 $B/gpusvm-grid-mpi -out "$W/grid.3.out" -png "$W/grid.3.png" data/heart_scale > "$W/grid.3.txt" 2> "$W/grid.3.err"
rc=$?
[ $rc = 0 ] && grep -q "rank 2: gamma value" "$W/grid.3.err" && [ -s "$W/grid.ref.txt" ] && cmp -s "$W/grid.ref.txt" "$W/grid.3.txt" &&
    cmp -s "$W/grid.ref.out" "$W/grid.3.out" && cmp -s "$W/grid.ref.png" "$W/grid.3.png"
check $? "mpirun -np 3 gpusvm-grid-mpi heart_scale (default grid): one process's lines, .out file and PNG"

printf '1 1:0.5\n-1 2:x\n' > "$W/bad.txt"
mpirun -np 2 $B/gpusvm-train-mpi "$W/bad.txt" "$W/bad.model" > "$W/bad.out" 2>&1
rc=$?
[ $rc != 0 ] && grep -q "$W/bad.txt:2: value 'x'" "$W/bad.out" && [ ! -e "$W/bad.model" ]
check $? "mpirun -np 2 on a malformed file: non-zero exit, file:line, no model"

summary mpi
