#!/bin/sh
# gen_classes.sh K: K classes of three points each in two features, LIBSVM's format on standard
# output (class c near ((c % 40) / 40, (c / 40) / 25); one-vs-one's K (K - 1) / 2 pairs of six
# points). The first 3 k rows of K are those of k for any k < K.
awk -v K="${1:?usage: gen_classes.sh K}" 'BEGIN { srand(3); for (c = 0; c < K; c++) for (k = 0; k < 3; k++)
    printf "%d 1:%.4f 2:%.4f\n", c, (c % 40) / 40 + rand() * .003, int(c / 40) / 25 + rand() * .003 }'
