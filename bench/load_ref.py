"""load_ref.py FILE...: scikit-learn's load_svmlight_file on each file, best of 3 (seconds, MB/s),
for the reader rows of make bench. Prints 'FILE SECONDS'."""
import os
import sys
import time

from sklearn.datasets import load_svmlight_file

for path in sys.argv[1:]:
    best = None
    for _ in range(3):
        t0 = time.perf_counter()
        load_svmlight_file(path)
        t = time.perf_counter() - t0
        best = t if best is None or t < best else best
    print(path, "%.3f" % best)
