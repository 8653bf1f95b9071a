"""bench/sklearn_ref.py TRAIN TEST C GAMMA: scikit-learn's SVC (libsvm inside, one CPU thread) with
its defaults but C and an RBF gamma (tol 1e-3 = LIBSVM's eps, 200 MB cache) on a LIBSVM-format
file, as bench/run.sh's reference. Prints one line: fit seconds, accuracy on TEST ("-" when TEST is
the training file), number of support vectors. The fit alone is timed. With SKLEARN_REF_INTELEX=1
the SVC is oneDAL's (scikit-learn-intelex's patch_sklearn(): every core, its own solver)."""
import os
import sys
import time

import numpy as np

if os.environ.get("SKLEARN_REF_INTELEX") == "1":
    from sklearnex import patch_sklearn

    patch_sklearn(verbose=False)
from sklearn.datasets import load_svmlight_file
from sklearn.svm import SVC


def main():
    train, test, c, gamma = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
    x, y = load_svmlight_file(train)
    xt, yt = (x, y) if test == train else load_svmlight_file(test, n_features=x.shape[1])
    for m in (x, xt):  # SVC takes 32-bit sparse indices only
        m.indices = m.indices.astype(np.int32)
        m.indptr = m.indptr.astype(np.int32)
    model = SVC(C=c, kernel="rbf", gamma=gamma)
    if os.environ.get("SKLEARN_REF_INTELEX") == "1" and not type(model).__module__.startswith("sklearnex"):
        sys.exit("bench/sklearn_ref.py: scikit-learn-intelex did not take SVC over")
    start = time.perf_counter()
    model.fit(x, y)
    seconds = time.perf_counter() - start
    acc = "-" if test == train else "%.4f%%" % (100.0 * (model.predict(xt) == yt).mean())
    print("%.1f s, %s, nSV %d" % (seconds, acc, model.n_support_.sum()))


if __name__ == "__main__":
    main()
