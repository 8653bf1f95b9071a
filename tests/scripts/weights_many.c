/* weights_many.c MODEL DATA: gpusvm_model_linear_weights for every decision function of a linear
   model with many classes (each call reads the support vectors and this pair's coefficients, not
   every pair's: 400 classes' 79,800 pairs in about a second, where a whole-model check per call took
   minutes), each pair's w.x + bias against gpusvm_predict's decision values on DATA's rows (within
   1e-4 relative). Prints "N decision functions, M values compared"; exits 1 on a difference or a
   failure. */
#define GPUSVM_IMPLEMENTATION
#include "../../gpusvm.h"
#include <stdio.h>

int main(int argc, char **argv)
{
    gpusvm_context *ctx = NULL;
    gpusvm_model *m = NULL;
    gpusvm_dataset *d = NULL;
    double *dec = NULL, *w = NULL, bias;
    size_t nd, t, i, k, bad = 0;
    if (argc != 3) return 2;
    if (gpusvm_context_create(NULL, &ctx) != GPUSVM_OK || gpusvm_model_load(ctx, argv[1], &m) != GPUSVM_OK ||
        gpusvm_dataset_load(ctx, argv[2], &d) != GPUSVM_OK) {
        fprintf(stderr, "weights_many: %s\n", ctx ? gpusvm_context_error(ctx) : "no context");
        return 1;
    }
    nd = gpusvm_model_decision_count(m);
    dec = (double *)malloc(nd * d->x.rows * sizeof(double));
    w = (double *)malloc((d->x.cols ? d->x.cols : 1) * sizeof(double));
    if (!dec || !w || gpusvm_predict(ctx, m, &d->x, NULL, dec) != GPUSVM_OK) return 1;
    for (t = 0; t < nd; ++t) {
        if (gpusvm_model_linear_weights(m, (int)t, w, d->x.cols, &bias) != GPUSVM_OK) return 1;
        for (i = 0; i < d->x.rows; ++i) {
            double v = bias;
            for (k = d->row_ptr[i]; k < d->row_ptr[i + 1]; ++k) v += w[d->col_idx[k]] * (double)d->values[k];
            bad += fabs(v - dec[i * nd + t]) > 1e-4 * (1.0 + fabs(v));
        }
    }
    printf("%lu decision functions, %lu values compared, %lu differ\n", (unsigned long)nd,
           (unsigned long)(nd * d->x.rows), (unsigned long)bad);
    free(dec);
    free(w);
    gpusvm_dataset_free(d);
    gpusvm_model_free(m);
    gpusvm_context_destroy(ctx);
    return bad != 0;
}
