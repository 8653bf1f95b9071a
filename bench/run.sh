#!/bin/sh
# bench/run.sh: trains and predicts the benchmark rows on the selected device (GPUSVM_BACKEND /
# GPUSVM_DEVICE) and prints markdown tables (dense rows, sparse rows, small data). What is counted:
#   training: gpusvm's own time (gpusvm_train: upload, solve, model), best of BENCH_RUNS runs
#             (default 3) after one warm-up; file parsing excluded, and the kernel program too
#   program:  the kernel program's build when the context was created (that run's; after the
#             warm-up it comes from gpusvm's kernel cache, see GPUSVM_CACHE_DIR)
#   process:  wall time of the whole gpusvm-train process (parsing, context, program included)
#   device:   the device memory training held, and the part that is the data and O(n) vectors
# BENCH_REFERENCE names references (several: comma-separated), each a column of the first table.
# With BENCH_REFERENCE=libsvm, svm-train's process time on the same host is added (slow: minutes);
# with BENCH_REFERENCE=sklearn, scikit-learn's SVC fit (bench/sklearn_ref.py; the mnist rows only
# with BENCH_REFERENCE_MNIST=1: minutes each); with BENCH_REFERENCE=sklearnex, oneDAL's SVC fit
# (scikit-learn-intelex, every core), from a virtual environment in build/venv-sklearnex that the
# first such run makes with pip (BENCH_VENV=folder to use another). For the C backend against
# the others: GPUSVM_BACKEND=cpu BENCH_REFERENCE=libsvm,sklearnex BENCH_ONLY=a9a,w8a,ijcnn1,mnist 8-vs-rest 20 make bench
# Then small data sets against svm-train on the same host (when it is on PATH), and where the
# training time goes (GPUSVM_PROFILE=1). BENCH_ONLY=PREFIX runs only the rows (and breakdowns)
# whose name starts with PREFIX (several: PREFIX,PREFIX,...), e.g. the CPU comparison on a
# machine without a GPU:
#   BENCH_ONLY=a9a BENCH_REFERENCE=libsvm BENCH_RUNS=1 make bench
# BENCH_THREADS=N adds the C backend's training time on 1 thread against N (mnist 8-vs-rest; see there).
# BENCH_ONLY=stream: training with the points streamed through the device (data larger than it).
# BENCH_ONLY=fp64: the same trainings with double and with float pairs (GPUSVM_FP64=on / off).
# BENCH_ONLY=grid: gpusvm-grid against svm-grid on the same host (e.g. GPUSVM_BACKEND=cpu on a
# machine without a GPU).
# BENCH_DEVICES=LIST (GPUSVM_DEVICE's form, e.g. 0,1,2,3): the same trainings on the list's first
# device and on the whole list (BENCH_ONLY=devices: those rows only).
# Data: the repository's data/ and the .xz files in GPUSVM_DATA (default ../shared/data),
# decompressed into BENCH_CACHE (default build/data); a row whose data is in neither says so. The
# large generated sets (BENCH_LARGE=1) are made by default only when the device is a GPU.
set -u
B=build
D=${BENCH_CACHE:-$B/data} # the decompressed data
W=$B/bench
SRC=${GPUSVM_DATA:-../shared/data}
RUNS=${BENCH_RUNS:-3}
mkdir -p "$D" "$W"
# each data file from the repository's data/ where it is bundled, else from $SRC; a row whose file
# is in neither says so in its line (a clone with nothing beside it runs the bundled rows)
for f in a9a a9a.t w8a ijcnn1 ijcnn1.t mnist.scale mnist.scale.t heart_scale diabetes_scale \
    breast-cancer_scale.pm1 svmguide1 svmguide1.t digits.sklearn letter.scale letter.scale.t; do
    [ -s "$D/$f" ] && continue
    # (blank lines dropped: w8a ends with one, which svm-train refuses)
    if [ -s "data/$f" ]; then
        cp "data/$f" "$D/$f"
    elif [ -s "data/$f.xz" ]; then
        xz -dc "data/$f.xz" | grep -v '^$' > "$D/$f"
    elif [ -s "$SRC/$f.xz" ]; then
        xz -dc "$SRC/$f.xz" | grep -v '^$' > "$D/$f"
    fi || { rm -f "$D/$f"; exit 1; }
done
for f in mnist.scale mnist.scale.t; do # 8 against the rest
    [ -s "$D/$f.8" ] || [ ! -s "$D/$f" ] || awk '{ $1 = ($1 == 8) ? 1 : -1; print }' "$D/$f" > "$D/$f.8"
done
[ -s "$D/mnist.scale.8.20k" ] || [ ! -s "$D/mnist.scale.8" ] || head -n 20000 "$D/mnist.scale.8" > "$D/mnist.scale.8.20k" # the first 20,000
for k in 400 1000; do # many classes of three points (one-vs-one's 79,800 and 499,500 pairs of six)
    [ -s "$D/classes$k" ] || sh bench/gen_classes.sh $k > "$D/classes$k"
done

now() { date +%s.%N; }
wanted() { # BENCH_ONLY=PREFIX[,PREFIX...]: only the rows whose name starts with one of them
    [ -n "${BENCH_ONLY:-}" ] || return 0
    (
        IFS=,
        for p in $BENCH_ONLY; do
            case "$1" in "$p"*) exit 0 ;; esac
        done
        exit 1
    )
}
absent() { # why=$(absent FILE...): true, with the reason, when a row's data file is missing
    for f in "$@"; do
        [ -s "$D/$f" ] && continue
        case "$f" in
        dense* | text200k* | syn1m*) echo "generated data, made where BENCH_LARGE=1 (the default on a GPU)" ;;
        *) echo "$f is in neither data/ nor $SRC" ;;
        esac
        return 0
    done
    return 1
}
ts_best() { # ts_best TRAIN OPTIONS...: BENCH_THUNDERSVM's best "all training time" of two runs, or failed
    train=$1
    shift
    tb=
    for i in 1 2; do
        "$BENCH_THUNDERSVM" "$@" "$train" "$W/ts.model" > "$W/ts.out" 2>&1 || { tb=failed; break; }
        t=$(sed -n 's/.*all training time = \([0-9.]*\).*/\1/p' "$W/ts.out")
        tb=$(printf '%s\n' $tb $t | sort -g | head -n 1)
    done
    [ "$tb" = failed ] && echo failed || echo "$tb s"
}
row() { # row NAME TRAIN TEST OPTIONS...
    name=$1 train=$D/$2 test=$D/$3
    wanted "$name" || return 0
    why=$(absent "$2" "$3") && { echo "| $name | not run: $why |"; return 0; }
    shift 3
    best= bwall=
    for i in $(seq 0 "$RUNS"); do
        s=$(now)
        $B/gpusvm-train "$@" "$train" "$W/$name.model" > "$W/$name.out" 2> "$W/$name.err" || { echo "| $name | failed: $(tail -n 1 "$W/$name.err") |"; return; }
        e=$(now)
        t=$(sed -n 's/.*training time: \([0-9.]*\) s.*/\1/p' "$W/$name.err")
        [ "$i" = 0 ] && continue # warm-up
        if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best=$t
            bwall=$(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.2f", e - s }')
            cp "$W/$name.out" "$W/$name.best.out"
            cp "$W/$name.err" "$W/$name.best.err"
        fi
    done
    $B/gpusvm-predict "$test" "$W/$name.model" "$W/$name.pred" > "$W/$name.acc" 2> /dev/null
    iters=$(sed -n 's/^optimization finished, #iter = //p' "$W/$name.best.out" | awk '{ s += $1 } END { print s }')
    nsv=$(sed -n 's/^Total nSV = //p' "$W/$name.best.out")
    acc=$(sed -n 's/^Accuracy = \([0-9.]*%\).*/\1/p' "$W/$name.acc")
    mem=$(sed -n 's/.*device memory: \([0-9.]*\) MiB (data and vectors \([0-9.]*\) MiB.*/\1 MiB (data \2)/p' "$W/$name.best.err")
    prog=$(sed -n -e 's/.*kernel program: \([0-9.]*\) s (from the kernel cache.*/\1 s (cached)/p' \
        -e 's/.*kernel program: \([0-9.]*\) s (compiled.*/\1 s (compiled)/p' "$W/$name.best.err")
    ref=
    if reference libsvm; then
        if command -v svm-train > /dev/null; then
            s=$(now)
            svm-train "$@" "$train" "$W/$name.libsvm.model" > "$W/$name.libsvm.out"
            e=$(now)
            svm-predict "$test" "$W/$name.libsvm.model" "$W/$name.libsvm.pred" > "$W/$name.libsvm.acc"
            ref=" $(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.1f", e - s }') s, $(sed -n 's/^Accuracy = \([0-9.]*%\).*/\1/p' "$W/$name.libsvm.acc"), nSV $(sed -n 's/^Total nSV = //p' "$W/$name.libsvm.out") |"
        else
            ref=" not run (no svm-train) |"
        fi
    fi
    if reference sklearn; then
        case "$name" in
        mnist*) [ -n "${BENCH_REFERENCE_MNIST:-}" ] && ref="$ref $(python3 bench/sklearn_ref.py "$train" "$test" "$2" "$4") |" || ref="$ref not run |" ;;
        *) ref="$ref $(python3 bench/sklearn_ref.py "$train" "$test" "$2" "$4") |" ;;
        esac
    fi
    if reference sklearnex; then
        ref="$ref $(SKLEARN_REF_INTELEX=1 "$VENV/bin/python" bench/sklearn_ref.py "$train" "$test" "$2" "$4" 2>&1 | tail -n 1) |"
    fi
    [ -n "${BENCH_THUNDERSVM:-}" ] && ref="$ref $(ts_best "$train" "$@") |"
    echo "| $name | $* | $best s | ${prog:-none} | $bwall s | $iters | $acc | $nsv | ${mem:-C backend} |$ref"

}

reference() { # BENCH_REFERENCE=NAME[,NAME...] names it
    case ",${BENCH_REFERENCE:-}," in *",$1,"*) return 0 ;; *) return 1 ;; esac
}
if reference sklearnex; then # oneDAL's SVC in its own virtual environment
    VENV=${BENCH_VENV:-$B/venv-sklearnex}
    if ! "$VENV/bin/python" -c "import sklearnex" 2> /dev/null; then
        echo "Installing scikit-learn-intelex into $VENV (pip; once)..." >&2
        { python3 -m venv "$VENV" && "$VENV/bin/pip" install -q scikit-learn-intelex; } >&2 ||
            { echo "bench: BENCH_REFERENCE=sklearnex needs python3-venv and pip's scikit-learn-intelex (PyPI); not installed" >&2; exit 1; }
    fi
fi
device_of() { # device_of [SELECTION]: the device gpusvm-train names on stderr with GPUSVM_DEVICE=SELECTION (none: as set)
    ( [ $# -gt 0 ] && export GPUSVM_DEVICE="$1"; $B/gpusvm-train -c 1 data/heart_scale "$W/probe.model" 2>&1 > /dev/null ) |
        sed -n 's/^gpusvm: device: //p'
}
dev=$(device_of)
# large generated data (dense 200,000 and 1,000,000 points, sparse text-like sets): by default on a
# GPU only, where a row takes seconds (the C backend or PoCL would take hours)
case "$dev" in
*"C backend"* | *"Portable Computing Language"* | *CPU*) LARGE=${BENCH_LARGE:-0} ;;
*) LARGE=${BENCH_LARGE:-1} ;;
esac
sh bench/stamp.sh
echo "Device: $dev; best of $RUNS runs after a warm-up."
echo
head="| data | options | training | program | process | #iter | accuracy | nSV | device memory |"
rule="|---|---|---|---|---|---|---|---|---|"
reference libsvm && head="$head svm-train (process, accuracy, nSV) |" && rule="$rule---|"
reference sklearn && head="$head scikit-learn SVC (fit, accuracy, nSV) |" && rule="$rule---|"
reference sklearnex && head="$head oneDAL SVC, every core (fit, accuracy, nSV) |" && rule="$rule---|"
[ -n "${BENCH_THUNDERSVM:-}" ] && head="$head ThunderSVM training (best of 2) |" && rule="$rule---|"
echo "$head"
echo "$rule"
row "a9a → a9a.t" a9a a9a.t -c 1 -g 0.05
row "w8a (training set)" w8a w8a -c 1 -g 0.05
row "ijcnn1 → ijcnn1.t" ijcnn1 ijcnn1.t -c 10 -g 1
row "mnist 8-vs-rest → .t" mnist.scale.8 mnist.scale.t.8 -c 1 -g 0.02
row "mnist 8-vs-rest 20,000 → .t" mnist.scale.8.20k mnist.scale.t.8 -c 1 -g 0.02
row "mnist 10-class → .t" mnist.scale mnist.scale.t -c 10 -g 0.02
# Crammer-Singer (-s 5, stopped at a relative duality gap of 0.01): mnist in GTSVM's setting
# (seed 003), letter beside its one-vs-one
row "mnist Crammer-Singer → .t" mnist.scale mnist.scale.t -s 5 -c 0.5 -g 0.02
row "letter Crammer-Singer → .t" letter.scale letter.scale.t -s 5 -c 8 -g 2
row "letter one-vs-one → .t" letter.scale letter.scale.t -c 8 -g 2
# large dense problems (bench/gen_dense.c: two overlapping clusters, 32 features, deterministic)
if wanted dense && [ "$LARGE" = 1 ]; then
    [ -s "$D/dense200k" ] || $B/gen_dense 200000 32 1 > "$D/dense200k"
    [ -s "$D/dense1m" ] || $B/gen_dense 1000000 32 2 > "$D/dense1m"
    [ -s "$D/dense.t" ] || $B/gen_dense 20000 32 3 > "$D/dense.t"
fi
row "dense 200,000 × 32 → 20,000" dense200k dense.t -c 1 -g 0.05
row "dense 1,000,000 × 32 → 20,000" dense1m dense.t -c 1 -g 0.05

# data larger than the device: the same training with GPUSVM_DEVICE_MEMORY_MB below what the
# points need, so that they stay on the host and stream through the device in tiles every round,
# against the resident run (best of BENCH_RUNS each), and whether the model file is the resident
# one's byte for byte. BENCH_ONLY=stream: these rows only.
train_best() { # train_best MB OUT MODEL TRAIN OPTIONS...: best training time of RUNS runs (budget MB, 0 none;
               # the last run's stderr in OUT, its stdout in OUT.txt, the best whole process in OUT.proc)
    mb=$1 out=$2 model=$3 train=$4
    shift 4
    tb= pb=
    for i in $(seq "$RUNS"); do
        s=$(now)
        GPUSVM_DEVICE_MEMORY_MB=$mb $B/gpusvm-train "$@" "$train" "$model" > "$out.txt" 2> "$out" || { tb=failed; break; }
        p=$(awk -v s="$s" -v e="$(now)" 'BEGIN { printf "%.2f", e - s }')
        t=$(sed -n 's/.*training time: \([0-9.]*\) s.*/\1/p' "$out")
        tb=$(awk -v a="$tb" -v b="$t" 'BEGIN { print (a == "" || b < a) ? b : a }')
        pb=$(awk -v a="$pb" -v b="$p" 'BEGIN { print (a == "" || b < a) ? b : a }')
    done
    echo "$pb" > "$out.proc"
    echo "$tb"
}
streamed() { # streamed NAME TRAIN MB[,MB...] OPTIONS...
    name=$1 train=$D/$2 budgets=$3
    shift 3
    wanted "$name" || return 0
    why=$(absent "${train##*/}") && { echo "| ${name#stream: } | not run: $why |"; return 0; }
    t0=$(train_best 0 "$W/stream.err" "$W/stream.ref.model" "$train" "$@")
    for mb in $(echo "$budgets" | tr , ' '); do
        t=$(train_best "$mb" "$W/stream.err" "$W/stream.model" "$train" "$@")
        tiles=$(sed -n 's/.*streamed through the device in \([0-9]*\) tiles.*/\1/p' "$W/stream.err")
        same=no
        cmp -s "$W/stream.model" "$W/stream.ref.model" && same=yes
        echo "| ${name#stream: } | $t0 s | $mb MB | ${tiles:-none (resident)} | $t s |" \
            "$(awk -v a="$t" -v b="$t0" 'BEGIN { printf "%.1f", a / b }') | $same |"
    done
}
if wanted stream; then
    if [ "$LARGE" = 1 ]; then
        [ -s "$D/dense200k.64" ] || $B/gen_dense 200000 64 7 > "$D/dense200k.64"
        [ -s "$D/dense1m.64" ] || $B/gen_dense 1000000 64 7 > "$D/dense1m.64"
    fi
    echo
    echo "Data larger than the device (GPUSVM_DEVICE_MEMORY_MB; training time, best of $RUNS):"
    echo
    echo "| data | resident | budget | tiles a round | streamed | ratio | the resident model file |"
    echo "|---|---|---|---|---|---|---|"
    streamed "stream: dense 200,000 × 64 (48.8 MiB of points)" dense200k.64 32,16 -c 1 -g 0.05
    streamed "stream: dense 1,000,000 × 64 (244 MiB of points)" dense1m.64 128,64 -c 1 -g 0.05
fi

# double against float pairs: the same training with GPUSVM_FP64=on and =off (the path of devices
# without double precision), best of BENCH_RUNS each, their ratio, the dual objectives' worst
# relative difference and the predictions' agreement. BENCH_ONLY=fp64: these rows only.
fp64_best() { # fp64_best MODE OUT MODEL TRAIN OPTIONS...: train_best with GPUSVM_FP64=MODE
    m=$1
    shift
    GPUSVM_FP64=$m train_best 0 "$@"
}
pairs() { # pairs NAME TRAIN TEST OPTIONS...
    name=$1 train=$D/$2 test=$D/$3
    shift 3
    wanted "$name" || return 0
    why=$(absent "${train##*/}" "${test##*/}") && { echo "| ${name#fp64: } | not run: $why |"; return 0; }
    rm -f "$W"/fp.* # nothing of an earlier row read as this one's
    t0=$(fp64_best on "$W/fp.on.err" "$W/fp.on.model" "$train" "$@")
    t1=$(fp64_best off "$W/fp.off.err" "$W/fp.off.model" "$train" "$@")
    case "$t0 $t1" in
    *failed*)
        echo "| ${name#fp64: } | $t0 | $t1 | — | — | — |"
        return 0
        ;;
    esac
    for m in on off; do # the models of the timed runs
        GPUSVM_FP64=$m $B/gpusvm-predict "$test" "$W/fp.$m.model" "$W/fp.$m.pred" > /dev/null 2>&1
    done
    obj=$(paste -d ' ' "$W/fp.on.err.txt" "$W/fp.off.err.txt" | sed -n 's/^obj = \([^,]*\),.* obj = \([^,]*\),.*/\1 \2/p' |
        awk '{ d = $1 - $2; d = d < 0 ? -d : d; a = $1 < 0 ? -$1 : $1; r = a > 0 ? d / a : d; if (r > w) w = r } END { printf "%.1e", w }')
    agree=$(paste -d ' ' "$W/fp.on.pred" "$W/fp.off.pred" | awk '$1 == $2 { s++ } END { printf "%d/%d", s, NR }')
    echo "| ${name#fp64: } | $t0 s | $t1 s | $(awk -v a="$t1" -v b="$t0" 'BEGIN { printf "%.2f", a / b }') | $obj | $agree |"
}
case "$dev" in *"C backend"*) fp64=no ;; *) fp64=yes ;; esac
if wanted fp64 && [ $fp64 = no ]; then
    echo
    echo "Double against float pairs: not run (the C backend computes in double only)"
elif wanted fp64; then
    if [ "$LARGE" = 1 ]; then
        [ -s "$D/dense200k" ] || $B/gen_dense 200000 32 1 > "$D/dense200k"
        [ -s "$D/dense.t" ] || $B/gen_dense 20000 32 3 > "$D/dense.t"
    fi
    echo
    echo "Double against float pairs (GPUSVM_FP64=on / off; training time, best of $RUNS):"
    echo
    echo "| data | fp64 | float pairs | ratio | objectives (worst relative difference) | the same predictions |"
    echo "|---|---|---|---|---|---|"
    pairs "fp64: a9a → a9a.t" a9a a9a.t -c 1 -g 0.05
    pairs "fp64: ijcnn1 → ijcnn1.t" ijcnn1 ijcnn1.t -c 10 -g 1
    pairs "fp64: mnist 10-class → .t" mnist.scale mnist.scale.t -c 10 -g 0.02
    pairs "fp64: mnist Crammer-Singer → .t" mnist.scale mnist.scale.t -s 5 -c 0.5 -g 0.02
    pairs "fp64: letter Crammer-Singer → .t" letter.scale letter.scale.t -s 5 -c 8 -g 2
    pairs "fp64: dense 200,000 × 32 → 20,000" dense200k dense.t -c 1 -g 0.05
fi

# several devices (BENCH_DEVICES): one binary problem split by rows across them (dense 1M x 64, 2M
# and 4M x 32, generated; the 4M row alone takes minutes on one GPU), mnist's 45
# one-vs-one pairs spread across them and a 5 x 5 grid of 5-fold cross-validation on a9a
# (gpusvm-grid, the whole process: its gamma values at once, a device each), against the list's
# first device alone (best of BENCH_RUNS each),
# and whether the model or .out file is the same. The devices' names come first: where PoCL is
# installed beside a GPU driver its CPU device may be index 0.
on_devices() { # on_devices NAME TRAIN OPTIONS...
    name=$1 train=$D/$2
    shift 2
    wanted "$name" || return 0
    why=$(absent "${train##*/}") && { echo "| ${name#devices: } | not run: $why |"; return 0; }
    export GPUSVM_DEVICE="${BENCH_DEVICES%%,*}"
    t1=$(train_best 0 "$W/dev.err" "$W/dev.one.model" "$train" "$@")
    p1=$(cat "$W/dev.err.proc")
    export GPUSVM_DEVICE="$BENCH_DEVICES"
    tn=$(train_best 0 "$W/dev.err" "$W/dev.all.model" "$train" "$@")
    pn=$(cat "$W/dev.err.proc")
    unset GPUSVM_DEVICE
    same=no
    cmp -s "$W/dev.one.model" "$W/dev.all.model" && same=yes
    echo "| ${name#devices: } | $t1 s / $p1 s | $tn s / $pn s |" \
        "$(awk -v a="$t1" -v b="$tn" 'BEGIN { printf "%.2f", a / b }') | $same |"
}
grid_devices() { # grid_devices NAME DATA GRID_OPTIONS...
    name=$1 data=$D/$2
    shift 2
    wanted "$name" || return 0
    why=$(absent "${data##*/}") && { echo "| ${name#devices: } | not run: $why |"; return 0; }
    for sel in "${BENCH_DEVICES%%,*}" "$BENCH_DEVICES"; do
        best=
        for i in $(seq 0 "$RUNS"); do
            s=$(now)
            GPUSVM_DEVICE=$sel $B/gpusvm-grid "$@" -out "$W/dev.grid.out" -png "$W/dev.grid.png" "$data" \
                > /dev/null 2> "$W/dev.grid.err" || { echo "| ${name#devices: } | failed: $(tail -n 1 "$W/dev.grid.err") |"; return; }
            e=$(now)
            [ "$i" = 0 ] && continue
            t=$(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.2f", e - s }')
            if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
        done
        cp "$W/dev.grid.out" "$W/dev.grid.$([ "$sel" = "$BENCH_DEVICES" ] && echo all || echo one).out"
        [ "$sel" = "$BENCH_DEVICES" ] && tn=$best || t1=$best
    done
    same=no
    cmp -s "$W/dev.grid.one.out" "$W/dev.grid.all.out" && same=yes
    echo "| ${name#devices: } | $t1 s | $tn s | $(awk -v a="$t1" -v b="$tn" 'BEGIN { printf "%.2f", a / b }') | $same |"
}
if wanted devices; then
    echo
    if [ -z "${BENCH_DEVICES:-}" ]; then
        echo "Several devices: not run (BENCH_DEVICES not set)"
    else
        [ -s "$D/dense1m.64" ] || $B/gen_dense 1000000 64 7 > "$D/dense1m.64"
        for n in 2 4; do
            [ "$LARGE" = 1 ] && wanted "devices: dense $n," && { [ -s "$D/dense${n}m.32" ] || $B/gen_dense ${n}000000 32 2 > "$D/dense${n}m.32"; }
        done
        echo "Several devices (GPUSVM_DEVICE=$BENCH_DEVICES against ${BENCH_DEVICES%%,*}; training time / whole process,"
        echo "each best of $RUNS; the grid: whole process; work below 5e10 stays on the first device):"
        echo
        echo "One: $(device_of "${BENCH_DEVICES%%,*}")"
        echo "All: $(device_of "$BENCH_DEVICES")"
        echo
        echo "| data | one device | all of them | speed-up (training) | the one-device model (grid: .out) file |"
        echo "|---|---|---|---|---|"
        on_devices "devices: dense 1,000,000 × 64, split by rows" dense1m.64 -c 1 -g 0.05
        on_devices "devices: dense 2,000,000 × 32, split by rows" dense2m.32 -c 1 -g 0.05
        on_devices "devices: dense 4,000,000 × 32, split by rows" dense4m.32 -c 1 -g 0.05
        on_devices "devices: mnist, 45 one-vs-one pairs" mnist.scale -c 10 -g 0.02
        on_devices "devices: heart_scale (small work)" heart_scale -c 1 -g 0.05
        grid_devices "devices: a9a, 5 × 5 grid of 5-fold cross-validation (whole process)" a9a -log2c -1,7,2 -log2g -9,-1,2 -v 5
    fi
fi

# sparse data: real text (deb-python, when GPUSVM_DATA has it) and text-like sets from
# bench/gen_sparse.c (deterministic), with the device memory training held beside the size of the
# points in CSR form (8 bytes a nonzero, 4 a row). BENCH_THUNDERSVM=/path/to/thundersvm-train
# runs that binary side by side on the same files and options (its "all training time"), in both
# tables.
sparse_row() { # sparse_row NAME TRAIN TEST OPTIONS...
    name=$1 train=$D/$2 test=$D/$3
    wanted "$name" || return 0
    why=$(absent "$2" "$3") && { echo "| $name | not run: $why |"; return 0; }
    shift 3
    best=
    for i in $(seq 0 "$RUNS"); do
        s=$(now)
        $B/gpusvm-train "$@" "$train" "$W/sp.model" > "$W/sp.out" 2> "$W/sp.err" || { echo "| $name | failed: $(tail -n 1 "$W/sp.err") |"; return; }
        e=$(now)
        t=$(sed -n 's/.*training time: \([0-9.]*\) s.*/\1/p' "$W/sp.err")
        [ "$i" = 0 ] && continue
        if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best=$t
            bwall=$(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.2f", e - s }')
            mem=$(sed -n 's/.*device memory: \([0-9.]*\) MiB (data and vectors \([0-9.]*\) MiB.*/\1 MiB (data \2)/p' "$W/sp.err")
        fi
    done
    acc=$($B/gpusvm-predict "$test" "$W/sp.model" "$W/sp.pred" 2> /dev/null | sed -n 's/^Accuracy = \([0-9.]*%\).*/\1/p')
    csr=$(awk '{ n += NF - 1 } END { printf "%.1f MiB", (n * 8 + (NR + 1) * 4) / 1048576 }' "$train")
    ref=
    [ -n "${BENCH_THUNDERSVM:-}" ] && ref=" $(ts_best "$train" "$@") |"
    echo "| $name | $* | $best s | $bwall s | $acc | ${mem:-C backend} | $csr |$ref"
}
if wanted deb || wanted text || wanted synthetic; then
    for f in deb-python deb-python.t; do
        [ -s "$D/$f" ] || [ ! -s "$SRC/$f.xz" ] || xz -dc "$SRC/$f.xz" > "$D/$f"
    done
    if [ "$LARGE" = 1 ]; then
        [ -s "$D/text200k" ] || $B/gen_sparse 30000 200000 100 10 1 > "$D/text200k"
        [ -s "$D/text200k.t" ] || $B/gen_sparse 5000 200000 100 10 2 > "$D/text200k.t"
        [ -s "$D/syn1m" ] || $B/gen_sparse 40000 1000000 80 2 4 > "$D/syn1m"
        [ -s "$D/syn1m.t" ] || $B/gen_sparse 5000 1000000 80 2 5 > "$D/syn1m.t"
    fi
    echo
    echo "Sparse data (accuracy on the test file; the points' CSR size beside the device memory):"
    echo
    if [ -n "${BENCH_THUNDERSVM:-}" ]; then
        echo "| data | options | training | process | accuracy | device memory | CSR | ThunderSVM training |"
        echo "|---|---|---|---|---|---|---|---|"
    else
        echo "| data | options | training | process | accuracy | device memory | CSR |"
        echo "|---|---|---|---|---|---|---|"
    fi
    sparse_row "deb-python → .t (47,785 × 37,824 text)" deb-python deb-python.t -c 10 -g 1
    sparse_row "text 30,000 × 200,000, 10 classes → .t" text200k text200k.t -c 10 -g 1
    sparse_row "synthetic 40,000 × 1,000,000 → .t" syn1m syn1m.t -c 10 -g 1
fi

# small data: gpusvm on the selected device and with its C backend against svm-train, each the
# best of BENCH_RUNS processes after a warm-up (LIBSVM's defaults: -c 1, gamma 1/features)
small() { # small NAME TRAIN TEST
    name=$1 train=$D/$2 test=$D/$3
    wanted "$name" || return 0
    why=$(absent "$2" "$3") && { echo "| $name | not run: $why |"; return 0; }
    bt= bp= bc= bl=
    for i in $(seq 0 "$RUNS"); do
        s=$(now)
        $B/gpusvm-train "$train" "$W/s.model" > /dev/null 2> "$W/s.err" || { echo "| $name | failed: $(tail -n 1 "$W/s.err") |"; return; }
        e=$(now)
        t=$(sed -n 's/.*training time: \([0-9.]*\) s.*/\1/p' "$W/s.err")
        s2=$(now)
        GPUSVM_BACKEND=cpu $B/gpusvm-train "$train" "$W/s.cpu.model" > /dev/null 2> "$W/s.cpu.err"
        e2=$(now)
        c=$(sed -n 's/.*training time: \([0-9.]*\) s.*/\1/p' "$W/s.cpu.err")
        l=
        if command -v svm-train > /dev/null; then
            s3=$(now)
            svm-train "$train" "$W/s.libsvm.model" > /dev/null
            l=$(awk -v s="$s3" -v e="$(now)" 'BEGIN { printf "%.3f", e - s }')
        fi
        [ "$i" = 0 ] && continue
        p=$(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.3f", e - s }')
        pc=$(awk -v s="$s2" -v e="$e2" 'BEGIN { printf "%.3f", e - s }')
        bt=$(printf '%s\n' $bt $t | sort -g | head -n 1)
        bp=$(printf '%s\n' $bp $p | sort -g | head -n 1)
        bc=$(printf '%s\n' $bc "$c/$pc" | sort -g | head -n 1)
        [ -n "$l" ] && bl=$(printf '%s\n' $bl $l | sort -g | head -n 1)
    done
    acc=$($B/gpusvm-predict "$test" "$W/s.model" "$W/s.pred" 2> /dev/null | sed -n 's/^Accuracy = \([0-9.]*%\).*/\1/p')
    lacc=
    [ -n "$bl" ] && lacc=$(svm-predict "$test" "$W/s.libsvm.model" "$W/s.libsvm.pred" | sed -n 's/^Accuracy = \([0-9.]*%\).*/\1/p')
    echo "| $name | $bt s | $bp s | ${bc%/*} s | ${bc#*/} s | ${bl:--} s | $acc | ${lacc:--} |"
}
echo
echo "Small data (LIBSVM's default options; accuracy on the test file, or on the training file where there is none):"
echo
echo "| data | gpusvm training | gpusvm process | C backend training | C backend process | svm-train process | accuracy | svm-train accuracy |"
echo "|---|---|---|---|---|---|---|---|"
small "heart_scale (270 × 13)" heart_scale heart_scale
small "breast-cancer (683 × 10)" breast-cancer_scale.pm1 breast-cancer_scale.pm1
small "diabetes (768 × 8)" diabetes_scale diabetes_scale
small "digits (1797 × 64, 10 classes)" digits.sklearn digits.sklearn
small "svmguide1 (3089 × 4) → .t" svmguide1 svmguide1.t
small "400 classes (1200 × 2, 79,800 pairs)" classes400 classes400
small "1000 classes (3000 × 2, 499,500 pairs)" classes1000 classes1000

# where the training time goes: one more run per row with every solver step waited for and timed
# (GPUSVM_PROFILE=1; the waits themselves add a launch round trip per step)
echo
echo "Time per solver step (GPUSVM_PROFILE=1, one run each, every step waited for):"
echo
breakdown() { # breakdown NAME TRAIN OPTIONS...
    name=$1 train=$D/$2
    wanted "$name" || return 0
    why=$(absent "$2") && { echo "- $name: not run: $why"; return 0; }
    shift 2
    GPUSVM_PROFILE=1 $B/gpusvm-train "$@" "$train" "$W/$name.prof.model" > /dev/null 2> "$W/$name.prof.err"
    echo "- $name: $(sed -n -e 's/^gpusvm: solver steps (each waited for): //p' \
        -e 's/^gpusvm: Crammer-Singer steps (each waited for): //p' "$W/$name.prof.err")"
}
breakdown a9a a9a -c 1 -g 0.05
breakdown w8a w8a -c 1 -g 0.05
breakdown ijcnn1 ijcnn1 -c 10 -g 1
breakdown "mnist 8-vs-rest" mnist.scale.8 -c 1 -g 0.02
breakdown "mnist 10-class" mnist.scale -c 10 -g 0.02
breakdown "dense 200,000 × 32" dense200k -c 1 -g 0.05
breakdown "dense 1,000,000 × 32" dense1m -c 1 -g 0.05
breakdown "mnist Crammer-Singer" mnist.scale -s 5 -c 0.5 -g 0.02
breakdown "letter Crammer-Singer" letter.scale -s 5 -c 8 -g 2
breakdown deb-python deb-python -c 10 -g 1
breakdown "text 30,000 × 200,000" text200k -c 10 -g 1

# the C backend's threads: training time on 1 thread and on BENCH_THREADS threads (e.g. 16), runs
# of the two taken in turn (1, N, 1, N, ...: a VM's speed drifts), BENCH_RUNS of each; the medians,
# their ratio, and whether every run wrote the same model bytes. BENCH_ONLY=threads: these rows only.
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
scaling() { # scaling NAME TRAIN OPTIONS...
    name=$1 train=$D/$2
    wanted "$name" || return 0
    why=$(absent "$2") && { echo "| ${name#threads: } | not run: $why |"; return 0; }
    shift 2
    one= many= same=yes
    for i in $(seq 1 "$RUNS"); do
        for n in 1 "$BENCH_THREADS"; do
            GPUSVM_BACKEND=cpu GPUSVM_THREADS=$n $B/gpusvm-train "$@" "$train" "$W/threads$n.model" > /dev/null 2> "$W/threads.err" ||
                { echo "| $name | failed: $(tail -n 1 "$W/threads.err") |"; return; }
            t=$(sed -n 's/.*training time: \([0-9.]*\) s.*/\1/p' "$W/threads.err")
            if [ "$n" = 1 ]; then one="$one $t"; else many="$many $t"; fi
            [ "$i$n" = 11 ] && cp "$W/threads1.model" "$W/threads.ref.model"
            cmp -s "$W/threads$n.model" "$W/threads.ref.model" || same=no
        done
    done
    m1=$(median $one) mn=$(median $many)
    echo "| ${name#threads: } | $m1 s ($(echo $one | sed 's/ /, /g')) | $mn s ($(echo $many | sed 's/ /, /g')) |" \
        "$(awk -v a="$m1" -v b="$mn" 'BEGIN { printf "%.1f", a / b }') | $same |"
}
if [ -n "${BENCH_THREADS:-}" ]; then
    echo
    echo "C backend, 1 thread against $BENCH_THREADS (training time; $RUNS runs of each, taken in turn; median (runs)):"
    echo
    echo "| data | 1 thread | $BENCH_THREADS threads | ratio of the medians | the same model bytes |"
    echo "|---|---|---|---|---|"
    scaling "threads: mnist 8-vs-rest (60,000 points)" mnist.scale.8 -c 1 -g 0.02
    scaling "threads: mnist 8-vs-rest, first 20,000" mnist.scale.8.20k -c 1 -g 0.02
fi

# parameter search: gpusvm-grid against LIBSVM's svm-grid (its svm-train, one process a point) on
# the same host, runs taken in turn, the median wall time of each; and both best lines.
# BENCH_ONLY=grid: these rows only.
grid_row() { # grid_row NAME DATA OPTIONS...
    name=$1 data=$D/$2
    wanted "$name" || return 0
    why=$(absent "$2") && { echo "| ${name#grid: } | not run: $why |"; return 0; }
    shift 2
    ours= ref=
    for i in $(seq 1 "$RUNS"); do
        t0=$(now)
        $B/gpusvm-grid "$@" -out null -png "$W/grid.png" "$data" > "$W/grid.ours" 2> "$W/grid.err" ||
            { echo "| $name | failed: $(tail -n 1 "$W/grid.err") |"; return; }
        t1=$(now)
        svm-grid -svmtrain "$(command -v svm-train)" -gnuplot null "$@" -out null "$data" > "$W/grid.ref" 2>&1 ||
            { echo "| $name | svm-grid failed: $(tail -n 1 "$W/grid.ref") |"; return; }
        t2=$(now)
        ours="$ours $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')"
        ref="$ref $(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.3f", b - a }')"
    done
    mo=$(median $ours) mr=$(median $ref)
    echo "| ${name#grid: } | $mo s ($(echo $ours | sed 's/ /, /g')) | $mr s ($(echo $ref | sed 's/ /, /g')) |" \
        "$(awk -v a="$mr" -v b="$mo" 'BEGIN { printf "%.1f", a / b }') | $(tail -n 1 "$W/grid.ours") | $(tail -n 1 "$W/grid.ref") |"
}
if wanted grid; then
    echo
    if command -v svm-grid > /dev/null && command -v svm-train > /dev/null; then
        echo "Parameter search, gpusvm-grid ($dev) against svm-grid with svm-train (one process a point, this host; wall time, $RUNS runs of each taken in turn; median (runs)):"
        echo
        echo "| grid | gpusvm-grid | svm-grid | ratio of the medians | gpusvm-grid's best (C, gamma, rate) | svm-grid's best |"
        echo "|---|---|---|---|---|---|"
        grid_row "grid: heart_scale, default (11 x 10, 5 folds)" heart_scale
        grid_row "grid: heart_scale, 4 x 3 (-log2c -1,5,2 -log2g -5,-1,2)" heart_scale -log2c -1,5,2 -log2g -5,-1,2
        grid_row "grid: svmguide1, 5 x 5 (-log2c -1,7,2 -log2g -7,1,2)" svmguide1 -log2c -1,7,2 -log2g -7,1,2
    else
        echo "Parameter search: not run (no svm-grid / svm-train on PATH: apt-get install libsvm-tools)"
    fi
fi

# reading data files: gpusvm_dataset_load on one thread and on every core, next to scikit-learn's
# load_svmlight_file (single-threaded Cython) where python3 has scikit-learn
if wanted reader; then
    echo
    echo "Reading LIBSVM files (the whole load: the file read and parsed; best of 3):"
    echo
    if [ ! -s "$D/mnist.scale" ]; then
        echo "- not run: mnist.scale is in neither data/ nor $SRC"
        exit 0
    fi
    $B/reader "$D/mnist.scale" "$D/a9a"
    if python3 -c "import sklearn" 2> /dev/null; then
        echo
        python3 bench/load_ref.py "$D/mnist.scale" "$D/a9a" |
            awk '{ printf "- scikit-learn load_svmlight_file: %s %.3f s\n", $1, $2 }'
    else
        echo "- scikit-learn load_svmlight_file: not run (python3 has no scikit-learn)"
    fi
fi
