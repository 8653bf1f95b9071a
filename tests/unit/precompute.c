/* precompute GAMMA TRAIN [TEST]: writes LIBSVM's precomputed-kernel format of the RBF kernel,
   exp(-GAMMA |u - v|^2) in double, to stdout: one row per TRAIN point (or per TEST point when
   TEST is given), "label 0:i 1:K(x,x_1) ... l:K(x,x_l)" against the TRAIN points. */
#define GPUSVM_IMPLEMENTATION
#include "../../gpusvm.h"
#include <stdio.h>
#include <stdlib.h>

static double sqdist(const gpusvm_dataset *a, size_t i, const gpusvm_dataset *b, size_t j)
{
    size_t p = a->row_ptr[i], pe = a->row_ptr[i + 1], q = b->row_ptr[j], qe = b->row_ptr[j + 1];
    double s = 0.0, d;
    while (p < pe || q < qe) {
        if (q >= qe || (p < pe && a->col_idx[p] < b->col_idx[q])) d = a->values[p++];
        else if (p >= pe || b->col_idx[q] < a->col_idx[p]) d = b->values[q++];
        else d = (double)a->values[p++] - (double)b->values[q++];
        s += d * d;
    }
    return s;
}

int main(int argc, char **argv)
{
    gpusvm_context_desc desc;
    gpusvm_context *ctx;
    gpusvm_dataset *tr = NULL, *te = NULL;
    const gpusvm_dataset *rows;
    double gamma;
    size_t i, j;
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: precompute GAMMA TRAIN [TEST]\n");
        return 2;
    }
    gamma = atof(argv[1]);
    memset(&desc, 0, sizeof desc);
    desc.backend = GPUSVM_BACKEND_CPU;
    desc.ignore_environment = 1;
    if (gpusvm_context_create(&desc, &ctx) != GPUSVM_OK) return 1;
    if (gpusvm_dataset_load(ctx, argv[2], &tr) != GPUSVM_OK ||
        (argc == 4 && gpusvm_dataset_load(ctx, argv[3], &te) != GPUSVM_OK)) {
        fprintf(stderr, "precompute: %s\n", gpusvm_context_error(ctx));
        return 1;
    }
    rows = te ? te : tr;
    for (i = 0; i < rows->x.rows; ++i) {
        printf("%.17g 0:%lu", rows->y[i], (unsigned long)i + 1);
        for (j = 0; j < tr->x.rows; ++j) printf(" %lu:%.9g", (unsigned long)j + 1, exp(-gamma * sqdist(rows, i, tr, j)));
        printf("\n");
    }
    gpusvm_dataset_free(tr);
    gpusvm_dataset_free(te);
    gpusvm_context_destroy(ctx);
    return 0;
}
