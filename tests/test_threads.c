/* Two contexts training in two threads at once give the same models as one after the other, and
   the C backend's own threads (desc.threads 1, 2, 3 and 8) give the same model bytes, C-SVC and
   Crammer-Singer (make test builds this with ThreadSanitizer). */
#define GPUSVM_IMPLEMENTATION
#include "../gpusvm.h"
#include "check.h"
#include <pthread.h>

enum { N = 400, D = 8 };
static float X[N * D];
static double Y[N];

typedef struct {
    double C, gamma;
    gpusvm_kernel_type kernel;
    gpusvm_result r;
    double rho, obj, coef_sum;
    size_t nsv;
} job_t;

static void *train_job(void *arg)
{
    job_t *j = (job_t *)arg;
    gpusvm_context_desc d;
    gpusvm_context *ctx = NULL;
    gpusvm_params p;
    gpusvm_matrix m;
    gpusvm_model *model = NULL;
    size_t i;
    memset(&d, 0, sizeof d);
    d.backend = GPUSVM_BACKEND_CPU;
    d.ignore_environment = 1;
    memset(&p, 0, sizeof p);
    p.C = j->C;
    p.gamma = j->gamma;
    p.kernel_type = j->kernel;
    p.working_set_size = 64; /* many outer iterations */
    memset(&m, 0, sizeof m);
    m.rows = N;
    m.cols = D;
    m.values = X;
    j->r = gpusvm_context_create(&d, &ctx);
    if (j->r == GPUSVM_OK) j->r = gpusvm_train(ctx, &m, Y, &p, &model);
    if (j->r == GPUSVM_OK) {
        j->rho = model->rho[0];
        j->obj = model->info.obj;
        j->nsv = model->total_sv;
        j->coef_sum = 0;
        for (i = 0; i < model->total_sv; ++i) j->coef_sum += model->sv_coef[i] * (double)(i + 1);
    }
    gpusvm_model_free(model);
    gpusvm_context_destroy(ctx);
    return NULL;
}

/* A model of 1500 points (enough work for the C backend to split its kernel rows and gradient
   updates) trained with `threads` threads, as the model file's text, followed by the bytes of its
   decision values on the training points (a batch the C backend splits across its threads) and
   of its training info's pair updates, rounds, convergence, gap and objective. */
enum { N2 = 1500, N3 = 3000 }; /* C-SVC's points; Crammer-Singer's (six classes: enough work to split) */
enum { N4 = 70000 };           /* enough variables to split the selection's keys and heaps too */
static float X2[N4 * D];
static double Y2[N4], dec[N4];
static long long max_iter;     /* 0: LIBSVM's */

static char *threads_model(int threads, gpusvm_svm_type type, size_t rows, size_t *len)
{
    gpusvm_context_desc d;
    gpusvm_context *ctx = NULL;
    gpusvm_params p;
    gpusvm_matrix m;
    gpusvm_model *model = NULL;
    char *bytes = NULL, *copy = NULL;
    size_t dec_len = 0;
    memset(&d, 0, sizeof d);
    d.backend = GPUSVM_BACKEND_CPU;
    d.ignore_environment = 1;
    d.threads = threads;
    memset(&p, 0, sizeof p);
    p.svm_type = type;
    p.gamma = 0.5;
    p.max_iter = max_iter;
    memset(&m, 0, sizeof m);
    m.rows = rows;
    m.cols = D;
    m.values = X2;
    if (gpusvm_context_create(&d, &ctx) == GPUSVM_OK && gpusvm_train(ctx, &m, Y2, &p, &model) == GPUSVM_OK &&
        gpusvm_model_save_buffer(ctx, model, &bytes, len) == GPUSVM_OK &&
        gpusvm_predict(ctx, model, &m, NULL, dec) == GPUSVM_OK) {
        const size_t k = (size_t)model->nr_class;
        /* and the solver's account: pair updates, rounds, the last gap (the selection's extremes) */
        const double info[5] = {(double)model->info.iterations, (double)model->info.outer_iterations,
                                (double)model->info.converged, model->info.gap, model->info.obj};
        dec_len = rows * (type == GPUSVM_CRAMMER_SINGER ? k : k * (k - 1) / 2) * sizeof(double);
        if ((copy = (char *)malloc(*len + dec_len + sizeof info)) != NULL) {
            memcpy(copy, bytes, *len);
            memcpy(copy + *len, dec, dec_len);
            memcpy(copy + *len + dec_len, info, sizeof info);
            *len += dec_len + sizeof info;
        }
    }
    gpusvm_free(ctx, bytes);
    gpusvm_model_free(model);
    gpusvm_context_destroy(ctx);
    return copy;
}

int main(void)
{
    job_t seq[2], par[2];
    pthread_t th[2];
    unsigned s = 5u;
    size_t i;
    int k;
    for (i = 0; i < N * D; ++i) {
        s = s * 1103515245u + 12345u;
        X[i] = (float)((s >> 9) % 2000) / 1000.0f - 1.0f;
    }
    for (i = 0; i < N; ++i) Y[i] = (X[i * D] + 0.5f * X[i * D + 1] > 0.1f) ? 1.0 : -1.0;
    memset(seq, 0, sizeof seq);
    seq[0].C = 1;
    seq[0].gamma = 0.5;
    seq[0].kernel = GPUSVM_KERNEL_RBF;
    seq[1].C = 3;
    seq[1].gamma = 0.1;
    seq[1].kernel = GPUSVM_KERNEL_POLY;
    memcpy(par, seq, sizeof seq);
    for (k = 0; k < 2; ++k) train_job(&seq[k]);
    for (k = 0; k < 2; ++k) CHECK(pthread_create(&th[k], NULL, train_job, &par[k]) == 0, "thread started");
    for (k = 0; k < 2; ++k) pthread_join(th[k], NULL);
    for (k = 0; k < 2; ++k) {
        char msg[256];
        snprintf(msg, sizeof msg, "job %d: the same model trained alone and beside another (rho %.17g vs %.17g)", k,
                 par[k].rho, seq[k].rho);
        CHECK(seq[k].r == GPUSVM_OK && par[k].r == GPUSVM_OK && par[k].rho == seq[k].rho &&
                  par[k].obj == seq[k].obj && par[k].nsv == seq[k].nsv && par[k].coef_sum == seq[k].coef_sum,
              msg);
    }
    {
        const int counts[4] = {1, 2, 3, 8};
        char *ref, msg[160];
        size_t ref_len = 0;
        for (i = 0; i < N4 * D; ++i) {
            s = s * 1103515245u + 12345u;
            X2[i] = (float)((s >> 9) % 2000) / 1000.0f - 1.0f;
        }
        const gpusvm_svm_type types[2] = {GPUSVM_C_SVC, GPUSVM_CRAMMER_SINGER};
        int t;
        for (i = 0; i < N2; ++i) Y2[i] = (X2[i * D] * X2[i * D + 1] + 0.3f * X2[i * D + 2] > 0.0f) ? 1.0 : -1.0;
        for (t = 0; t < 2; ++t) {
            const size_t rows = t ? N3 : N2;
            if (t == 1) /* Crammer-Singer on six classes */
                for (i = 0; i < N3; ++i) Y2[i] = (double)((X2[i * D] > 0.0f) * 3 + (int)((X2[i * D + 1] + 1.0f) * 1.5f) % 3);
            ref = threads_model(1, types[t], rows, &ref_len);
            CHECK(ref != NULL && ref_len > 0, "C backend, 1 thread: trained");
            for (k = 1; k < 4; ++k) {
                size_t len = 0;
                char *other = threads_model(counts[k], types[t], rows, &len);
                snprintf(msg, sizeof msg, "C backend, %d threads: the same model bytes, decision values and solver account as 1 thread (%s)", counts[k],
                         t ? "Crammer-Singer" : "C-SVC");
                CHECK(ref && other && len == ref_len && memcmp(other, ref, len) == 0, msg);
                free(other);
            }
            free(ref);
        }
        /* 70,000 points, stopped after 1,000 pair updates: the selection's keys and heaps are split
           across the threads as well */
        for (i = 0; i < N4; ++i) Y2[i] = (X2[i * D] * X2[i * D + 1] + 0.3f * X2[i * D + 2] > 0.0f) ? 1.0 : -1.0;
        max_iter = 1000;
        ref = threads_model(1, GPUSVM_C_SVC, N4, &ref_len);
        CHECK(ref != NULL && ref_len > 0, "C backend, 1 thread, 70,000 points: trained");
        for (k = 2; k < 4; ++k) {
            size_t len = 0;
            char *other = threads_model(counts[k], GPUSVM_C_SVC, N4, &len);
            snprintf(msg, sizeof msg, "C backend, %d threads, 70,000 points: the same model bytes, decision values and solver account as 1 thread",
                     counts[k]);
            CHECK(ref && other && len == ref_len && memcmp(other, ref, len) == 0, msg);
            free(other);
        }
        free(ref);
    }
    return check_summary();
}
