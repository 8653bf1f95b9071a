/* latency.c: what one gpusvm_predict call costs for a handful of points, as a game or a tool
   predicting per frame meets it: a 1000-support-vector RBF model (16 features), 1 and 8 points
   per call, on the context's backend (GPUSVM_BACKEND / GPUSVM_DEVICE) and on the C backend.
   Prints microseconds per call (best of 5 runs of 2000 calls). */
#define GPUSVM_IMPLEMENTATION
#include "../gpusvm.h"

enum { N = 2400, D = 16, CALLS = 2000 };

static double now(void) { return gpusvm__now(); }

/* two overlapping clusters: about 1000 support vectors with C = 1, gamma = 0.5 */
static void data(float *x, double *y)
{
    unsigned s = 7u;
    size_t i, j;
    for (i = 0; i < N; ++i) {
        y[i] = (i % 2) ? 1.0 : -1.0;
        for (j = 0; j < D; ++j) {
            s = s * 1103515245u + 12345u;
            x[i * D + j] = (float)(((s >> 8) % 1000) / 1000.0 - 0.5 + (y[i] > 0 ? 0.08 : -0.08));
        }
    }
}

static void time_backend(gpusvm_backend backend, const char *label)
{
    static float x[N * D];
    static double y[N], out[8];
    gpusvm_context_desc desc;
    gpusvm_context *ctx = NULL;
    gpusvm_params p;
    gpusvm_matrix m, one;
    gpusvm_model *model = NULL;
    gpusvm_predictor *pr = NULL;
    double best[3] = {1e30, 1e30, 1e30}, sink = 0.0;
    int run, k, rows[2] = {1, 8}, r;
    data(x, y);
    memset(&desc, 0, sizeof desc);
    desc.backend = backend;
    if (gpusvm_context_create(&desc, &ctx) != GPUSVM_OK) {
        printf("| %s | no context: %s |\n", label, gpusvm_context_error(ctx));
        return;
    }
    memset(&m, 0, sizeof m);
    m.rows = N;
    m.cols = D;
    m.values = x;
    memset(&p, 0, sizeof p);
    p.C = 1.0;
    p.gamma = 0.5;
    if (gpusvm_train(ctx, &m, y, &p, &model) != GPUSVM_OK) {
        printf("| %s | training failed: %s |\n", label, gpusvm_context_error(ctx));
        gpusvm_context_destroy(ctx);
        return;
    }
    for (r = 0; r < 2; ++r)
        for (run = 0; run < 5; ++run) {
            double t0 = now(), t;
            for (k = 0; k < CALLS; ++k) {
                one = m;
                one.rows = (size_t)rows[r];
                one.values = x + (size_t)(k % (N - 8)) * D;
                if (gpusvm_predict(ctx, model, &one, out, NULL) != GPUSVM_OK) {
                    printf("| %s | prediction failed: %s |\n", label, gpusvm_context_error(ctx));
                    gpusvm_model_free(model);
                    gpusvm_context_destroy(ctx);
                    return;
                }
            }
            t = (now() - t0) / CALLS * 1e6;
            if (t < best[r]) best[r] = t;
        }
    if (gpusvm_predictor_create(ctx, model, &pr) == GPUSVM_OK) { /* one point, prepared: no context, no allocation */
        for (run = 0; run < 5; ++run) {
            double t0 = now(), t;
            for (k = 0; k < CALLS; ++k) {
                double label = 0.0;
                gpusvm_predictor_predict(pr, x + (size_t)(k % (N - 8)) * D, D, &label, NULL);
                sink += label;
            }
            t = (now() - t0) / CALLS * 1e6;
            if (t < best[2]) best[2] = t;
        }
        gpusvm_predictor_free(pr);
    }
    printf("| %s (%s) | %lu | %.1f | %.1f | %.1f |\n", label, gpusvm_context_device_name(ctx),
           (unsigned long)model->total_sv, best[0], best[1], best[2] + 0.0 * sink);
    gpusvm_model_free(model);
    gpusvm_context_destroy(ctx);
}

int main(void)
{
    printf("| context | support vectors | µs per call, 1 point | µs per call, 8 points | µs per point, "
           "gpusvm_predictor_predict |\n|---|---|---|---|---|\n");
    time_backend(GPUSVM_BACKEND_DEFAULT, "selected");
    time_backend(GPUSVM_BACKEND_CPU, "C backend");
    return 0;
}
