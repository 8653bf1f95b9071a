#!/bin/sh
# export_m2cgen.sh: gpusvm-export against m2cgen (scikit-learn's SVC as C) on the same model:
# heart_scale, C-SVC, RBF, C = 1, gamma = 1/13. scikit-learn's SVC (libsvm inside) is trained with
# the same parameters and checked against gpusvm's model (support vectors, rho, decision values);
# then each predictor's C source size, its Cortex-M4 object (arm-none-eabi-gcc -Os, hard float) and
# its host time per prediction (gcc -O2, every point 2,000 times, best of 3). Needs python3 with
# pip (m2cgen and scikit-learn go into build/m2cgen-venv) and arm-none-eabi-gcc.
#   sh bench/export_m2cgen.sh
set -eu
B=build
W=$B/m2cgen
V=$B/m2cgen-venv
mkdir -p "$W"
[ -x $V/bin/python ] || { python3 -m venv $V && $V/bin/pip install -q m2cgen scikit-learn; }
make -s $B/gpusvm-train $B/gpusvm-export
GPUSVM_BACKEND=cpu $B/gpusvm-train -q -c 1 -g 0.0769230769230769 data/heart_scale "$W/heart.model"
$B/gpusvm-export "$W/heart.model" heart > "$W/heart.h"
$V/bin/python - "$W" <<'PY'
import sys, re, numpy as np, m2cgen
from sklearn.datasets import load_svmlight_file
from sklearn.svm import SVC
w = sys.argv[1]
X, y = load_svmlight_file("data/heart_scale", n_features=13)
X = X.toarray()
sk = SVC(C=1.0, kernel="rbf", gamma=1.0 / 13, tol=1e-3).fit(X, y)
# gpusvm's model: its rho, support vectors and decision values (LIBSVM's sign: the first label's side)
lines = open(w + "/heart.model").read().split("\n")
rho = float([l for l in lines if l.startswith("rho")][0].split()[1])
label = [int(v) for v in [l for l in lines if l.startswith("label")][0].split()[1:]]
sv = lines[lines.index("SV") + 1:]
sv = [l for l in sv if l.strip()]
coef = np.array([float(l.split()[0]) for l in sv])
S = np.zeros((len(sv), 13))
for i, l in enumerate(sv):
    for t in l.split()[1:]:
        k, v = t.split(":"); S[i, int(k) - 1] = float(v)
K = np.exp(-(1.0 / 13) * ((X[:, None, :] - S[None, :, :]) ** 2).sum(-1))
ours = K @ coef - rho
theirs = sk.decision_function(X) * (1 if sk.classes_[1] == label[0] else -1)
print("scikit-learn %s SVC: %d support vectors (gpusvm %d), intercept %.6f (gpusvm -rho %.6f), decision values "
      "differ by at most %.2e (LIBSVM's stopping tolerance 1e-3), labels differ on %d of %d points" %
      (__import__("sklearn").__version__, sk.support_.size, len(sv), abs(sk.intercept_[0]), -rho,
       np.abs(ours - theirs).max(), int((np.sign(ours) != np.sign(theirs)).sum()), len(y)))
code = m2cgen.export_to_c(sk)
open(w + "/m2c.c", "w").write(code)
sig = re.search(r"(\w+) score\(([^)]*)\)", code)
open(w + "/m2c_sig.txt", "w").write(sig.group(0) + "\n")
with open(w + "/points.h", "w") as f:
    f.write("static const double pointsd[%d][13] = {\n" % len(y))
    for r in X: f.write("    {" + ", ".join("%.9g" % v for v in r) + "},\n")
    f.write("};\n")
print("m2cgen %s: C source %d bytes (%s)" % (m2cgen.__version__, len(code), sig.group(0)))
PY
echo "gpusvm-export: C source $(wc -c < "$W/heart.h") bytes"
cat > "$W/time.c" <<'C'
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <time.h>
#include "heart.h"
#include "points.h"
double score(double *input);
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
int main(void)
{
    enum { N = sizeof pointsd / sizeof pointsd[0], REPS = 2000 };
    static float pf[N][13];
    double best[2] = {1e9, 1e9}, sink = 0.0;
    int i, r, k, t, agree = 0;
    for (i = 0; i < N; ++i) for (k = 0; k < 13; ++k) pf[i][k] = (float)pointsd[i][k];
    for (t = 0; t < 3; ++t) {
        double t0 = now();
        for (r = 0; r < REPS; ++r) for (i = 0; i < N; ++i) sink += heart_predict(pf[i]);
        if (now() - t0 < best[0]) best[0] = now() - t0;
        t0 = now();
        for (r = 0; r < REPS; ++r) for (i = 0; i < N; ++i) sink += score((double *)pointsd[i]);
        if (now() - t0 < best[1]) best[1] = now() - t0;
    }
    for (i = 0; i < N; ++i) agree += (score((double *)pointsd[i]) > 0 ? 1 : -1) == heart_predict(pf[i]); /* classes_ [-1, 1] */
    printf("host (gcc -O2), a prediction: gpusvm-export %.0f ns, m2cgen %.0f ns; the same label on %d of %d points (%g)\n",
           1e9 * best[0] / (REPS * (double)N), 1e9 * best[1] / (REPS * (double)N), agree, N, sink > 0 ? 1.0 : 0.0);
    return 0;
}
C
cc -std=c99 -O2 -I"$W" -o "$W/time" "$W/time.c" "$W/m2c.c" -lm
"$W/time"
M4="-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 -Os"
printf '#include "heart.h"\nint classify(const float *x) { return heart_predict(x); }\n' > "$W/ours_m4.c"
arm-none-eabi-gcc $M4 -std=c99 -I"$W" -c "$W/ours_m4.c" -o "$W/ours_m4.o"
arm-none-eabi-gcc $M4 -std=c99 -c "$W/m2c.c" -o "$W/m2c_m4.o"
for o in ours_m4 m2c_m4; do
    arm-none-eabi-size "$W/$o.o" | awk -v n=$o 'NR == 2 { printf "Cortex-M4 -Os, %s: flash %d bytes, RAM %d bytes\n", n == "ours_m4" ? "gpusvm-export" : "m2cgen", $1 + $2, $2 + $3 }'
done
