/* export_check.c: an exported model (gpusvm_model_to_c's header, EXPORT_H, names EXPORT_NAME_...)
   against gpusvm_predict on the C backend: the same label on every point of DATA (classification),
   decision values (and regression's values) within float rounding, and (a model trained with
   -b 1) the same likeliest class and each probability within 1e-4 plus what the decision values'
   bound moves it. The bound on a decision value, float's rounding (2^-24 a step) with room:
   2^-16 times the sum of the magnitudes it adds up (1, |rho| and each |coefficient x kernel
   value|), plus for RBF each |coefficient x kernel value x gamma (|x|^2 + |sv|^2)| times 2^-21:
   the library takes |x - sv|^2 as |x|^2 + |sv|^2 - 2 <x, sv> in float, which loses that much where
   the features are large (unscaled data), the exported predictor as a sum of squared differences.
   Points are given to both with the model's features only (the header's contract). Built per
   model, against the library built once:
       cc -std=c99 -I. -Ibuild/export -DEXPORT_H='"m.h"' -DEXPORT_NAME=m tests/scripts/export_check.c impl.o -ldl -lm
       ./a.out MODEL DATA */
#include "gpusvm.h"
#include EXPORT_H
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EX_CAT(a, b) a##b
#define EX_JOIN(a, b) EX_CAT(a, b)
#define EX(f) EX_JOIN(EXPORT_NAME, f)
#define EX_NAME_STR(a) #a
#define EX_STR(a) EX_NAME_STR(a)

typedef EX(_REAL) real;

/* The bound on x's decision values (above): the same for each (every coefficient row counted). */
static double dec_bound(const gpusvm_model *m, const real *x)
{
    const size_t ns = m->total_sv;
    const int rows = m->svm_type == GPUSVM_CRAMMER_SINGER ? m->nr_class
                     : m->svm_type == GPUSVM_C_SVC || m->svm_type == GPUSVM_NU_SVC ? m->nr_class - 1 : 1;
    double sum = 1.0, rbf = 0.0, xx = 0.0;
    size_t s, k;
    int r;
    for (k = 0; k < (size_t)EX(_N_FEATURES); ++k) xx += (double)x[k] * x[k];
    for (r = 0; m->rho && m->svm_type != GPUSVM_CRAMMER_SINGER && r < rows; ++r) sum += fabs(m->rho[r]);
    for (s = 0; s < ns; ++s) {
        double c = 0.0, vv = 0.0;
        for (r = 0; r < rows; ++r) c += fabs(m->sv_coef[(size_t)r * ns + s]);
        c *= fabs((double)EX(_kernel)(x, (int)s));
        for (k = m->sv_row_ptr[s]; k < m->sv_row_ptr[s + 1]; ++k) vv += (double)m->sv_values[k] * m->sv_values[k];
        sum += c;
        if (m->kernel_type == GPUSVM_KERNEL_RBF) rbf += c * m->gamma * (xx + vv);
    }
    return ldexp(sum, -16) + ldexp(rbf, -21);
}

int main(int argc, char **argv)
{
    gpusvm_context_desc desc;
    gpusvm_context *ctx;
    gpusvm_model *m;
    gpusvm_dataset *ds;
    gpusvm_matrix xm;
    size_t *rp, i, k, nnz = 0, nd, bad_label = 0, bad_dec = 0, bad_prob = 0;
    int32_t *ci;
    float *cv;
    real x[EX(_N_FEATURES) + 1];
    double *lab, *dec, *prob = NULL, *plab = NULL, worst = 0.0;
    int prob_model, regression;
    if (argc != 3) return 2;
    memset(&desc, 0, sizeof desc);
    desc.backend = GPUSVM_BACKEND_CPU;
    if (gpusvm_context_create(&desc, &ctx) != GPUSVM_OK || gpusvm_model_load(ctx, argv[1], &m) != GPUSVM_OK ||
        gpusvm_dataset_load(ctx, argv[2], &ds) != GPUSVM_OK) {
        fprintf(stderr, "export_check: %s\n", gpusvm_context_error(ctx));
        return 1;
    }
    nd = m->svm_type == GPUSVM_CRAMMER_SINGER ? (size_t)m->nr_class
         : m->svm_type == GPUSVM_C_SVC || m->svm_type == GPUSVM_NU_SVC ? (size_t)m->nr_class * (m->nr_class - 1) / 2 : 1;
    regression = m->svm_type == GPUSVM_EPSILON_SVR || m->svm_type == GPUSVM_NU_SVR;
    prob_model = (m->svm_type == GPUSVM_C_SVC || m->svm_type == GPUSVM_NU_SVC) && m->probA && m->nr_class > 1;
    /* the points with the model's features only */
    rp = (size_t *)malloc((ds->x.rows + 1) * sizeof(size_t));
    ci = (int32_t *)malloc((ds->x.row_ptr[ds->x.rows] + 1) * sizeof(int32_t));
    cv = (float *)malloc((ds->x.row_ptr[ds->x.rows] + 1) * sizeof(float));
    lab = (double *)malloc(ds->x.rows * sizeof(double));
    dec = (double *)malloc(ds->x.rows * (nd ? nd : 1) * sizeof(double));
    if (prob_model) {
        prob = (double *)malloc(ds->x.rows * (size_t)m->nr_class * sizeof(double));
        plab = (double *)malloc(ds->x.rows * sizeof(double));
    }
    for (i = 0; i < ds->x.rows; ++i) {
        rp[i] = nnz;
        for (k = ds->x.row_ptr[i]; k < ds->x.row_ptr[i + 1]; ++k)
            if ((size_t)ds->x.col_idx[k] < (size_t)EX(_N_FEATURES)) {
                ci[nnz] = ds->x.col_idx[k];
                cv[nnz++] = ds->x.values[k];
            }
    }
    rp[ds->x.rows] = nnz;
    xm.rows = ds->x.rows;
    xm.cols = EX(_N_FEATURES);
    xm.layout = GPUSVM_LAYOUT_CSR;
    xm.values = cv;
    xm.row_ptr = rp;
    xm.col_idx = ci;
    if (gpusvm_predict(ctx, m, &xm, lab, dec) != GPUSVM_OK ||
        (prob_model && gpusvm_predict_probability(ctx, m, &xm, plab, prob) != GPUSVM_OK)) {
        fprintf(stderr, "export_check: %s\n", gpusvm_context_error(ctx));
        return 1;
    }
    for (i = 0; i < xm.rows; ++i) {
        real d[EX(_N_DEC)];
        double bound = 0.0;
        size_t p;
        memset(x, 0, sizeof x);
        for (k = rp[i]; k < rp[i + 1]; ++k) x[ci[k]] = cv[k];
        if (nd && !(m->nr_class == 1 && m->svm_type != GPUSVM_ONE_CLASS)) {
            bound = dec_bound(m, x);
            EX(_decision)(x, d);
            for (p = 0; p < nd; ++p) {
                const double e = fabs((double)d[p] - dec[i * nd + p]);
                if (e / bound > worst) worst = e / bound;
                if (e > bound) ++bad_dec;
            }
        }
        if (regression ? fabs((double)EX(_predict)(x) - lab[i]) > bound : (double)EX(_predict)(x) != lab[i])
            ++bad_label;
#ifdef EXPORT_PROBABILITY
        if (prob_model) {
            real pr[EX(_N_CLASS)];
            double most = 0.0;
            int c;
            for (p = 0; p < nd; ++p) most = fabs(m->probA[p]) > most ? fabs(m->probA[p]) : most;
            if ((double)EX(_predict_probability)(x, pr) != plab[i]) ++bad_prob;
            for (c = 0; c < m->nr_class; ++c)
                if (fabs((double)pr[c] - prob[i * (size_t)m->nr_class + (size_t)c]) > 1e-4 + most * bound) ++bad_prob;
        }
#endif
    }
    printf("%s %s: %lu points; %s differ on %lu; decision values past their bound %lu (the largest difference "
           "%.3g of its bound)%s%s\n",
           bad_label || bad_dec || bad_prob ? "FAIL" : "ok  ", EX_STR(EXPORT_NAME), (unsigned long)xm.rows,
           regression ? "values (past the bound)" : "labels", (unsigned long)bad_label, (unsigned long)bad_dec, worst,
           prob_model ? "; probabilities (the likeliest class; each within 1e-4 + max |probA| x the bound) differ " : "",
           prob_model ? (bad_prob ? "somewhere" : "nowhere") : "");
    return bad_label || bad_dec || bad_prob ? 1 : 0;
}
