#!/bin/sh
# parity.sh BACKEND...: gpusvm-train/-predict against LIBSVM's svm-train/svm-predict on real data.
# For each case and backend: every pairwise dual objective within 1e-3 relative, nSV within 3%, predictions
# identical to LIBSVM's on >= 99.5% of test points, and LIBSVM's svm-predict, reading our
# model, agrees with gpusvm-predict on >= 99.9%, as gpusvm-predict reading LIBSVM's model
# agrees with svm-predict. Prints one line per check and "N passed, M failed".
# Data comes from the repository's data/ (decompressed into build/data), else ../shared/data
# (GPUSVM_DATA overrides that folder).
set -u
B=build
D=$B/data
SRC=${GPUSVM_DATA:-../shared/data}
W=$B/parity
mkdir -p "$D" "$W"
backends=${*:-cpu opencl}
pass=0
fail=0
storage="${GPUSVM_STORAGE:+ (GPUSVM_STORAGE=$GPUSVM_STORAGE)}${GPUSVM_FP64:+ (GPUSVM_FP64=$GPUSVM_FP64)}"

check() { # check CONDITION-STATUS MESSAGE
    if [ "$1" = 0 ]; then pass=$((pass + 1)); echo "ok   $2$storage"; else fail=$((fail + 1)); echo "FAIL $2$storage"; fi
}

data() { # data NAME [LINES]: decompress once (the repository's data/ first, then SRC); with LINES,
         # only the first LINES lines
    out=$D/$1${2:+.head$2}
    if [ ! -s "$out" ]; then
        h=$(ls data/"$1".head*.xz 2>/dev/null | head -n 1)
        n=${h#data/$1.head}
        n=${n%.xz}
        if [ -n "${2:-}" ] && [ -n "$h" ] && [ "$n" -ge "$2" ]; then # a carried head of the file
            xz -dc "$h" | head -n "$2" > "$out"
        elif [ -f "data/$1.xz" ] || [ -f "$SRC/$1.xz" ]; then
            f=data/$1.xz
            [ -f "$f" ] || f=$SRC/$1.xz
            if [ -n "${2:-}" ]; then xz -dc "$f" | head -n "$2" > "$out"; else xz -dc "$f" > "$out"; fi
        elif [ -f "data/$1" ]; then
            cp "data/$1" "$out"
        else
            echo "parity: no $1 in data/ or $SRC" >&2
            return 1
        fi
    fi
    echo "$out"
}

run_case() { # run_case NAME TRAIN TEST OPTIONS...
    name=$1 train=$2 test=$3
    shift 3
    ref=$W/$name.libsvm
    if [ ! -s "$ref.model" ]; then
        svm-train "$@" "$train" "$ref.model" > "$ref.out" || { check 1 "$name: svm-train ran"; return; }
        svm-predict "$test" "$ref.model" "$ref.pred" > /dev/null
    fi
    for be in $backends; do
        o=$W/$name.$be
        if ! GPUSVM_BACKEND=$be $B/gpusvm-train "$@" "$train" "$o.model" > "$o.out" 2> "$o.err"; then
            check 1 "$name [$be]: gpusvm-train ran ($(tail -n 1 "$o.err"))"
            continue
        fi
        GPUSVM_BACKEND=$be $B/gpusvm-predict "$test" "$o.model" "$o.pred" > /dev/null 2>> "$o.err"
        svm-predict "$test" "$o.model" "$o.libsvm-pred" > /dev/null 2>&1
        # every pairwise problem's objective, in LIBSVM's order
        sed -n 's/^obj = \([-0-9.e+]*\),.*/\1/p' "$ref.out" > "$o.robj"
        sed -n 's/^obj = \([-0-9.e+]*\),.*/\1/p' "$o.out" > "$o.gobj"
        objs=$(paste "$o.gobj" "$o.robj" | awk '{ d = $1 - $2; if (d < 0) d = -d; b = $2 < 0 ? -$2 : $2; if (d > 1e-3 * b) bad++; w = d / (b > 0 ? b : 1); if (w > worst) worst = w }
            END { printf "%d %d %.1e", NR, bad + 0, worst }')
        n_obj=$(echo "$objs" | cut -d' ' -f1) bad_obj=$(echo "$objs" | cut -d' ' -f2) worst=$(echo "$objs" | cut -d' ' -f3)
        [ "$n_obj" -gt 0 ] && [ "$n_obj" = "$(wc -l < "$o.robj" | tr -d ' ')" ] && [ "$bad_obj" = 0 ]
        check $? "$name [$be]: $n_obj objective(s), one per problem, within 1e-3 relative of LIBSVM's (worst $worst)"
        r_nsv=$(sed -n 's/^Total nSV = //p' "$ref.out") g_nsv=$(sed -n 's/^Total nSV = //p' "$o.out")
        if [ -z "$r_nsv" ]; then # one-class and regression print only nSV = , nBSV =
            r_nsv=$(sed -n 's/^nSV = \([0-9]*\),.*/\1/p' "$ref.out") g_nsv=$(sed -n 's/^nSV = \([0-9]*\),.*/\1/p' "$o.out")
        fi
        awk -v a="$g_nsv" -v b="$r_nsv" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d <= 0.03 * b) }'
        check $? "$name [$be]: nSV $g_nsv vs LIBSVM $r_nsv (3%)"
        case " $* " in
        *" -s 3 "* | *" -s 4 "*) # regression: mean squared error within 1% of LIBSVM's
            mse=$(paste "$o.pred" "$ref.pred" "$test" | awk '{ d = $1 - $3; e = $2 - $3; g += d * d; r += e * e } END { printf "%.6g %.6g", g / NR, r / NR }')
            echo "$mse" | awk '{ d = $1 - $2; if (d < 0) d = -d; exit !($2 > 0 && d <= 0.01 * $2) }'
            check $? "$name [$be]: mean squared error and LIBSVM's (within 1%): $mse" ;;
        *)
            same=$(paste "$o.pred" "$ref.pred" | awk '$1 == $2 { s++ } END { printf "%d/%d", s, NR }')
            echo "$same" | awk -F/ '{ exit !($2 > 0 && $1 >= 0.995 * $2) }'
            check $? "$name [$be]: predictions equal to LIBSVM's on $same test points (99.5%)" ;;
        esac
        both=$(paste "$o.pred" "$o.libsvm-pred" | awk '{ d = $1 - $2; if (d < 0) d = -d; if (d <= 1e-5 * ($2 < 0 ? -$2 : $2) + 1e-9) s++ } END { printf "%d/%d", s, NR }')
        echo "$both" | awk -F/ '{ exit !($2 > 0 && $1 >= 0.999 * $2) }'
        check $? "$name [$be]: LIBSVM's svm-predict reads our model and agrees on $both (99.9%)"
        GPUSVM_BACKEND=$be $B/gpusvm-predict "$test" "$ref.model" "$o.ref-pred" > /dev/null 2>> "$o.err"
        theirs=$(paste "$o.ref-pred" "$ref.pred" | awk '{ d = $1 - $2; if (d < 0) d = -d; if (d <= 1e-5 * ($2 < 0 ? -$2 : $2) + 1e-9) s++ } END { printf "%d/%d", s, NR }')
        echo "$theirs" | awk -F/ '{ exit !($2 > 0 && $1 >= 0.999 * $2) }'
        check $? "$name [$be]: gpusvm-predict reads LIBSVM's model and agrees with svm-predict on $theirs (99.9%)"
    done
}

run_cv() { # run_cv NAME DATA OPTIONS...: cross-validation accuracy within 1 point of LIBSVM's
    name=$1 train=$2
    shift 2
    ref=$W/$name.libsvm
    [ -s "$ref.out" ] || svm-train "$@" "$train" > "$ref.out"
    r_acc=$(sed -n 's/^Cross Validation Accuracy = \([0-9.]*\)%/\1/p' "$ref.out")
    for be in $backends; do
        o=$W/$name.$be
        GPUSVM_BACKEND=$be $B/gpusvm-train "$@" "$train" > "$o.out" 2> "$o.err"
        g_acc=$(sed -n 's/^Cross Validation Accuracy = \([0-9.]*\)%/\1/p' "$o.out")
        awk -v a="$g_acc" -v b="$r_acc" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && b != "" && d <= 1.0) }'
        check $? "$name [$be]: cross-validation accuracy $g_acc% vs LIBSVM $r_acc% (within 1 point)"
    done
}

heart=$(data heart_scale) || exit 1
# PARITY_QUICK=1 (make check): three small sets, one per kind of problem (two classes, several
# classes one-vs-one, regression), then the summary
if [ "${PARITY_QUICK:-0}" = 1 ]; then
    iris=$(data iris.sklearn) && diab=$(data diabetes_reg.scale) || exit 1
    run_case heart-rbf "$heart" "$heart" -t 2
    run_case iris-rbf "$iris" "$iris" -t 2 -c 4
    run_case diabetes-svr "$diab" "$diab" -s 3 -c 10 -p 0.05
    echo "parity: $pass passed, $fail failed"
    [ "$fail" = 0 ]
    exit
fi
guide=$(data svmguide1) && guide_t=$(data svmguide1.t) || exit 1
a9a=$(data a9a 5000) && a9a_t=$(data a9a.t 5000) || exit 1

run_case heart-linear "$heart" "$heart" -t 0
run_case heart-poly "$heart" "$heart" -t 1 -g 0.1 -r 1
run_case heart-rbf "$heart" "$heart" -t 2
run_case heart-sigmoid "$heart" "$heart" -t 3 -g 0.01 -r -0.5
run_case heart-weighted "$heart" "$heart" -t 2 -c 4 -w1 3 -w-1 0.5
run_case svmguide1-rbf "$guide" "$guide_t" -t 2 -c 2
run_case a9a5000-rbf "$a9a" "$a9a_t" -c 1 -g 0.05
run_case a9a5000-linear "$a9a" "$a9a_t" -t 0 -c 0.5

# the C backend solves a batch's problems of up to 3072 variables whole (past its working sets of
# 1024): letter's 325 pairs of about 1,150 points each (the repository's data/)
case " $backends " in
*" cpu "*)
    letter=$(data letter.scale) && letter_t=$(data letter.scale.t) || exit 1
    all=$backends backends=cpu
    run_case letter-rbf-pairs-whole "$letter" "$letter_t" -c 8 -g 2
    backends=$all
    ;;
esac

# cross-validation (LIBSVM's folds are random too: the accuracies, not the folds, are compared)
run_cv heart-cv5 "$heart" -v 5
run_cv heart-cv10-linear "$heart" -v 10 -t 0
run_cv a9a5000-cv5 "$a9a" -v 5 -c 1 -g 0.05

# one-class and epsilon-SVR
breast=$(data breast-cancer_scale.pm1) && diab=$(data diabetes_reg.scale) || exit 1
run_case heart-oneclass "$heart" "$heart" -s 2 -n 0.3
run_case breast-oneclass "$breast" "$breast" -s 2 -t 2 -g 0.5
run_case diabetes-svr "$diab" "$diab" -s 3 -c 10 -p 0.05
run_case diabetes-svr-linear "$diab" "$diab" -s 3 -t 0 -c 1

# nu-SVC and nu-SVR (LIBSVM's Solver_NU: per-class selection and stop, r and its scaling)
run_case heart-nusvc "$heart" "$heart" -s 1
run_case breast-nusvc "$breast" "$breast" -s 1 -n 0.3 -g 0.5
run_case a9a5000-nusvc "$a9a" "$a9a_t" -s 1 -n 0.4 -g 0.05
run_case diabetes-nusvr "$diab" "$diab" -s 4 -c 10 -n 0.3
run_case diabetes-nusvr-linear "$diab" "$diab" -s 4 -t 0 -n 0.6

# several classes, one-vs-one
iris=$(data iris.sklearn) && wine=$(data wine.sklearn) && digits=$(data digits.sklearn) || exit 1
mnist=$(data mnist.scale 3000) && mnist_t=$(data mnist.scale.t 1000) || exit 1
run_case iris-rbf "$iris" "$iris" -t 2 -c 4
run_case wine-linear "$wine" "$wine" -t 0 -c 0.01
run_case digits-rbf "$digits" "$digits" -t 2 -g 0.002 -c 5
run_case mnist3000-rbf "$mnist" "$mnist_t" -c 10 -g 0.02
run_case wine-nusvc "$wine" "$wine" -s 1 -n 0.2
run_case digits-nusvc "$digits" "$digits" -s 1 -n 0.1 -g 0.002

# Crammer-Singer (-s 5): accuracy within 1 point of one-vs-one (which matches LIBSVM's above),
# the relative duality gap at exit below the stop threshold, and the saved model predicting alike
run_cs() { # run_cs NAME TRAIN TEST OPTIONS...
    name=$1 train=$2 test=$3
    shift 3
    for be in $backends; do
        o=$W/$name.$be
        if ! GPUSVM_BACKEND=$be $B/gpusvm-train -s 5 "$@" "$train" "$o.model" > "$o.out" 2> "$o.err" ||
            ! GPUSVM_BACKEND=$be $B/gpusvm-predict "$test" "$o.model" "$o.pred" > "$o.acc" 2>> "$o.err" ||
            ! GPUSVM_BACKEND=$be $B/gpusvm-train "$@" "$train" "$o.ovo.model" > /dev/null 2>> "$o.err" ||
            ! GPUSVM_BACKEND=$be $B/gpusvm-predict "$test" "$o.ovo.model" "$o.ovo.pred" > "$o.ovo.acc" 2>> "$o.err"; then
            check 1 "$name [$be]: -s 5 and -s 0 trained and predicted ($(tail -n 1 "$o.err"))"
            continue
        fi
        a=$(sed -n 's/^Accuracy = \([0-9.]*\)%.*/\1/p' "$o.acc") b=$(sed -n 's/^Accuracy = \([0-9.]*\)%.*/\1/p' "$o.ovo.acc")
        awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && b != "" && d <= 1.0) }'
        check $? "$name [$be]: Crammer-Singer accuracy $a% vs one-vs-one $b% (within 1 point)"
        gap=$(sed -n 's/.*relative duality gap = \([-0-9.e+]*\)$/\1/p' "$o.out")
        awk -v g="$gap" 'BEGIN { exit !(g != "" && g >= 0 && g < 0.01) }'
        check $? "$name [$be]: relative duality gap at exit $gap < 0.01"
        grep -q '^svm_type crammer_singer$' "$o.model" && ! grep -q '^rho' "$o.model"
        check $? "$name [$be]: the model says svm_type crammer_singer and has no rho"
    done
}
digits_t=$(data digits.sklearn) && mnist2k=$(data mnist.scale 2000) || exit 1
run_cs digits-cs "$digits" "$digits" -g 0.002 -c 5
run_cs mnist2000-cs "$mnist2k" "$mnist_t" -g 0.02 -c 10

# probability outputs (-b 1): LIBSVM's folds are random, ours fixed, so predicted classes and
# the log-loss are compared, not the values; svm-predict must read our probability models
logloss() { # logloss PROB_OUTPUT DATA: mean -log p(true class), the columns named by the header
    awk 'NR == FNR { y[FNR] = $1; next }
         FNR == 1 { for (i = 2; i <= NF; i++) col[$i] = i; next }
         { p = $(col[y[FNR - 1] + 0]); if (p < 1e-15) p = 1e-15; s -= log(p); n++ }
         END { printf "%.6f", s / n }' "$2" "$1"
}
run_prob() { # run_prob NAME TRAIN TEST OPTIONS...
    name=$1 train=$2 test=$3
    shift 3
    ref=$W/$name.libsvm
    if [ ! -s "$ref.prob" ]; then
        svm-train -b 1 "$@" "$train" "$ref.model" > /dev/null && svm-predict -b 1 "$test" "$ref.model" "$ref.prob" > /dev/null ||
            { check 1 "$name: svm-train -b 1 ran"; return; }
    fi
    for be in $backends; do
        o=$W/$name.$be
        if ! GPUSVM_BACKEND=$be $B/gpusvm-train -b 1 "$@" "$train" "$o.model" > "$o.out" 2> "$o.err" ||
            ! GPUSVM_BACKEND=$be $B/gpusvm-predict -b 1 "$test" "$o.model" "$o.prob" > /dev/null 2>> "$o.err"; then
            check 1 "$name [$be]: -b 1 trained and predicted ($(tail -n 1 "$o.err"))"
            continue
        fi
        same=$(paste "$o.prob" "$ref.prob" | awk 'NR > 1 { n++; if ($1 == $(NF / 2 + 1)) s++ } END { printf "%d/%d", s, n }')
        echo "$same" | awk -F/ '{ exit !($2 > 0 && $1 >= 0.98 * $2) }'
        check $? "$name [$be]: -b 1 predicts LIBSVM's class on $same test points (98%)"
        g=$(logloss "$o.prob" "$test") r=$(logloss "$ref.prob" "$test")
        awk -v a="$g" -v b="$r" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d <= 0.05 * b) }'
        check $? "$name [$be]: log-loss $g vs LIBSVM's $r (5%)"
        svm-predict -b 1 "$test" "$o.model" "$o.libsvm-prob" > /dev/null 2>&1
        both=$(paste "$o.prob" "$o.libsvm-prob" | awk 'NR == 1 { if ($0 != "") ok = 1; next }
            { n++; d = 0; for (i = 2; i <= NF / 2; i++) { e = $i - $(i + NF / 2); if (e < 0) e = -e; if (e > d) d = e }
              if ($1 == $(NF / 2 + 1) && d <= 1e-4) s++ } END { printf "%d/%d", s, n }')
        echo "$both" | awk -F/ '{ exit !($2 > 0 && $1 >= 0.999 * $2) }'
        check $? "$name [$be]: svm-predict -b 1 reads our model: same classes and probabilities on $both"
    done
}
run_prob heart-prob "$heart" "$heart"
run_prob iris-prob "$iris" "$iris" -c 4
run_prob heart-nusvc-prob "$heart" "$heart" -s 1 -n 0.4
run_prob digits-prob "$digits" "$digits" -g 0.002 -c 5
run_prob a9a5000-prob "$a9a" "$a9a_t" -g 0.05
for be in $backends; do # regression: the Laplace scale within 10% of LIBSVM's; one-class: the marks' probabilities
    o=$W/diabetes-prob.$be
    [ -s "$W/diabetes-prob.libsvm.model" ] || svm-train -b 1 -s 3 -c 10 "$diab" "$W/diabetes-prob.libsvm.model" > /dev/null
    GPUSVM_BACKEND=$be $B/gpusvm-train -b 1 -s 3 -c 10 "$diab" "$o.model" > /dev/null 2>&1
    a=$(sed -n 's/^probA //p' "$o.model") b=$(sed -n 's/^probA //p' "$W/diabetes-prob.libsvm.model")
    awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d <= 0.1 * b) }'
    check $? "diabetes-prob [$be]: epsilon-SVR's Laplace scale $a vs LIBSVM's $b (10%)"
    o=$W/heart-oneclass-prob.$be
    GPUSVM_BACKEND=$be $B/gpusvm-train -b 1 -s 2 -n 0.3 "$heart" "$o.model" > /dev/null 2>&1 &&
        GPUSVM_BACKEND=$be $B/gpusvm-predict -b 1 "$heart" "$o.model" "$o.prob" > /dev/null 2>&1 &&
        GPUSVM_BACKEND=$be $B/gpusvm-predict "$heart" "$o.model" "$o.pred" > /dev/null 2>&1
    check $? "heart-oneclass-prob [$be]: -b 1 trained and predicted"
    marks=$(sed -n 's/^prob_density_marks //p' "$o.model" | awk '{ ok = NF == 10; for (i = 2; i <= NF; i++) if ($i < $(i - 1)) ok = 0; print ok }')
    rows=$( (head -n 1 "$o.prob"; tail -n +2 "$o.prob" | paste - "$o.pred") | awk 'NR == 1 { ok = $0 == "label normal outlier"; next }
        { p = $2; good = (p == 0.001 || p == 0.999 || (p * 10 == int(p * 10 + 0.5) && p > 0 && p < 1)) && $2 + $3 == 1 && $1 == $4
          if (!good) ok = 0; if (($2 >= 0.5) == ($1 > 0)) agree++; n++ }
        END { print ok, agree / n }')
    [ "$marks" = 1 ] && echo "$rows" | awk '{ exit !($1 == 1 && $2 >= 0.9) }'
    check $? "heart-oneclass-prob [$be]: 10 ascending density marks; probabilities on them; labels the decision's sign ($rows)"
done

# precomputed kernels (-t 4): LIBSVM's 0:i format, an RBF matrix computed in double by
# build/precompute; against LIBSVM's -t 4, and against our own -t 2 on the same points
pre() { # pre NAME GAMMA TRAIN [TEST]: the kernel file, made once
    out=$D/$1.pre
    [ -s "$out" ] || $B/precompute "$2" "$3" ${4:+"$4"} > "$out" || return 1
    echo "$out"
}
same_as_rbf() { # same_as_rbf NAME PRE_TRAIN PRE_TEST TRAIN TEST GAMMA OPTIONS...: -t 4 and -t 2 give one model
    name=$1 ptr=$2 pte=$3 tr=$4 te=$5 g=$6
    shift 6
    for be in $backends; do
        o=$W/$name.$be
        GPUSVM_BACKEND=$be $B/gpusvm-train "$@" -t 4 "$ptr" "$o.pre.model" > "$o.pre.out" 2>&1 &&
            GPUSVM_BACKEND=$be $B/gpusvm-train "$@" -t 2 -g "$g" "$tr" "$o.rbf.model" > "$o.rbf.out" 2>&1 &&
            GPUSVM_BACKEND=$be $B/gpusvm-predict "$pte" "$o.pre.model" "$o.pre.pred" > /dev/null 2>&1 &&
            GPUSVM_BACKEND=$be $B/gpusvm-predict "$te" "$o.rbf.model" "$o.rbf.pred" > /dev/null 2>&1
        check $? "$name [$be]: trained and predicted with -t 4 and with -t 2"
        a=$(sed -n 's/^obj = \([-0-9.e+]*\),.*/\1/p' "$o.pre.out" | head -n 1) b=$(sed -n 's/^obj = \([-0-9.e+]*\),.*/\1/p' "$o.rbf.out" | head -n 1)
        awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d <= 1e-4 * (b < 0 ? -b : b)) }'
        check $? "$name [$be]: objective with the precomputed matrix $a, with -t 2 $b (1e-4 relative)"
        a=$(sed -n 's/^total_sv //p' "$o.pre.model") b=$(sed -n 's/^total_sv //p' "$o.rbf.model")
        awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d <= 0.01 * b) }'
        check $? "$name [$be]: support vectors $a vs $b (1%)"
        same=$(paste "$o.pre.pred" "$o.rbf.pred" | awk '$1 == $2 { s++ } END { printf "%d/%d", s, NR }')
        echo "$same" | awk -F/ '{ exit !($2 > 0 && $1 >= 0.995 * $2) }'
        check $? "$name [$be]: the same predictions on $same test points (99.5%)"
    done
}
[ build/precompute -nt tests/unit/precompute.c ] && [ build/precompute -nt gpusvm.h ] ||
    ${CC:-cc} -std=c99 -O2 -o build/precompute tests/unit/precompute.c -ldl -lm || exit 1
a9a2k=$(data a9a 2000) && a9a2k_t=$(data a9a.t 1000) || exit 1
hpre=$(pre heart 0.07692307692307693 "$heart") && ipre=$(pre iris 0.25 "$iris") && dpre=$(pre diab 0.1 "$diab") &&
    apre=$(pre a9a2k 0.05 "$a9a2k") && apre_t=$(pre a9a2k.t 0.05 "$a9a2k" "$a9a2k_t") || exit 1
run_case heart-pre "$hpre" "$hpre" -t 4
run_case iris-pre "$ipre" "$ipre" -t 4 -c 4
run_case a9a2000-pre "$apre" "$apre_t" -t 4
run_case diabetes-svr-pre "$dpre" "$dpre" -s 3 -t 4 -c 10
run_case heart-oneclass-pre "$hpre" "$hpre" -s 2 -t 4 -n 0.3
run_cv heart-pre-cv5 "$hpre" -t 4 -v 5
same_as_rbf heart-pre-vs-rbf "$hpre" "$hpre" "$heart" "$heart" 0.07692307692307693
same_as_rbf a9a2000-pre-vs-rbf "$apre" "$apre_t" "$a9a2k" "$a9a2k_t" 0.05

echo "parity: $pass passed, $fail failed"
[ "$fail" = 0 ]
