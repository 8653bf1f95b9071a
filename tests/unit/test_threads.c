/* Two contexts training in two threads at once give the same models as one after the other, the
   C backend's own threads (desc.threads 1, 2, 3 and 8) give the same model bytes, C-SVC and
   Crammer-Singer, and the several-device section's thread per device, and its jobs a device each
   (a grid's gamma values, Crammer-Singer's folds, -b 1's fits), give the one-device results and
   one whole failure (make test builds this with ThreadSanitizer). */
#define GPUSVM_IMPLEMENTATION
#include "../../gpusvm.h"
#include "../check.h"
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
static int ws_size;            /* 0: automatic */

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
    p.working_set_size = ws_size;
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

/* The multi section's thread per device, without OpenCL: a context whose backend is the multi
   section over `ndev` C backends, each said to want a thread of its own (own_thread, as a GPU
   does), trains six classes' 15 one-vs-one pairs spread across them. Each device's steps record
   the thread that ran them; with fail_at > 0, devices 1 and 2 fail their fail_at-th update, each
   with its own code and message, at about the same time. The model file's text (NULL on failure:
   the code and the context's message in *r and said). */
enum { MD = 3 };
static const gpusvm__train_steps *md_train[MD]; /* each device's own tables, and the wrapping copies */
static const gpusvm__cs_steps *md_cs[MD];
static gpusvm__train_steps md_train_w[MD];
static gpusvm__cs_steps md_cs_w[MD];
static gpusvm__backend *md_dev[MD];
static pthread_t md_ran[MD];
static long md_updates[MD], md_fail_at, md_logs;
static int md_index(gpusvm__backend *b)
{
    int k;
    for (k = 0; k < MD && md_dev[k] != b; ++k) {}
    return k;
}
static gpusvm_result md_select_w(gpusvm__backend *b, int first, double eps, double max_iter)
{
    const int k = md_index(b);
    md_ran[k] = pthread_self();
    return md_train[k]->select(b, first, eps, max_iter);
}
static gpusvm_result md_cs_step_w(gpusvm__backend *b, int step, int first, double eps, double max_iter)
{
    const int k = md_index(b);
    md_ran[k] = pthread_self();
    return md_cs[k]->step(b, step, first, eps, max_iter);
}
static gpusvm_result md_update_w(gpusvm__backend *b)
{
    const int k = md_index(b);
    if (md_fail_at > 0 && k > 0 && ++md_updates[k] == md_fail_at)
        return gpusvm__fail(b->ctx, k == 1 ? GPUSVM_ERR_FILE_WRITE : GPUSVM_ERR_DEVICE_MEMORY, "device %d failed", k);
    return md_train[k]->update(b);
}
static void md_logger(void *user, gpusvm_log_level level, const char *msg)
{
    (void)user, (void)level, (void)msg;
    ++md_logs; /* not atomic: the library calls it from one thread at a time */
}

/* A context over the multi section of ndev such C backends (NULL where it cannot be made). */
static gpusvm_context *multi_context(int ndev, int own_thread, gpusvm_result *r)
{
    gpusvm_context_desc d;
    gpusvm_context *ctx = NULL;
    int k;
    memset(&d, 0, sizeof d);
    d.backend = GPUSVM_BACKEND_CPU;
    d.ignore_environment = 1;
    d.threads = 2;
    d.logger.fn = md_logger;
    if ((*r = gpusvm_context_create(&d, &ctx)) != GPUSVM_OK) return NULL;
    for (k = 0; k < ndev; ++k) {
        md_dev[k] = gpusvm__cpu_create(ctx);
        md_dev[k]->own_thread = own_thread;
        md_train[k] = md_dev[k]->train;
        md_cs[k] = md_dev[k]->cs;
        md_train_w[k] = *md_train[k];
        md_cs_w[k] = *md_cs[k];
        md_train_w[k].select = md_select_w;
        md_train_w[k].update = md_update_w;
        md_cs_w[k].step = md_cs_step_w;
        md_dev[k]->train = &md_train_w[k];
        md_dev[k]->cs = &md_cs_w[k];
        md_ran[k] = pthread_self();
        md_updates[k] = 0;
    }
    ctx->backend->destroy(ctx->backend);
    ctx->backend = gpusvm__multi_create(ctx, md_dev, ndev);
    ctx->spread = 1; /* GPUSVM_SPREAD=always: these small batches and jobs spread over the devices */
    return ctx;
}

static char *multi_model(int ndev, int own_thread, size_t rows, int probability, gpusvm_result *r, char *said,
                         size_t said_size)
{
    gpusvm_context *ctx = multi_context(ndev, own_thread, r);
    gpusvm_params p;
    gpusvm_matrix m;
    gpusvm_model *model = NULL;
    char *bytes = NULL, *copy = NULL;
    size_t len = 0;
    if (!ctx) return NULL;
    memset(&p, 0, sizeof p);
    p.gamma = 0.5;
    p.probability = probability;
    memset(&m, 0, sizeof m);
    m.rows = rows;
    m.cols = D;
    m.values = X2;
    if ((*r = gpusvm_train(ctx, &m, Y2, &p, &model)) == GPUSVM_OK &&
        (*r = gpusvm_model_save_buffer(ctx, model, &bytes, &len)) == GPUSVM_OK &&
        (copy = (char *)malloc(len + 1)) != NULL)
        memcpy(copy, bytes, len + 1);
    snprintf(said, said_size, "%s", gpusvm_context_error(ctx));
    gpusvm_free(ctx, bytes);
    gpusvm_model_free(model);
    gpusvm_context_destroy(ctx);
    return copy;
}

/* A grid search over the multi section: 4 gamma values x 2 C values, 3-fold cross-validation of
   the six classes' first 600 points; the rates (gamma-major) into rate, the code returned. */
enum { GG = 4, GC = 2 };
static gpusvm_result multi_grid(int ndev, int own_thread, double *rate, char *said, size_t said_size)
{
    static const double C[GC] = {1.0, 8.0}, G[GG] = {0.1, 0.5, 2.0, 8.0};
    gpusvm_result r;
    gpusvm_context *ctx = multi_context(ndev, own_thread, &r);
    gpusvm_matrix m;
    if (!ctx) return r;
    memset(&m, 0, sizeof m);
    m.rows = 600;
    m.cols = D;
    m.values = X2;
    r = gpusvm_grid_search(ctx, &m, Y2, NULL, 3, C, GC, G, GG, rate);
    snprintf(said, said_size, "%s", gpusvm_context_error(ctx));
    gpusvm_context_destroy(ctx);
    return r;
}

/* Crammer-Singer's 5-fold cross-validation of the six classes' first 600 points over the multi
   section: the predictions (the code returned). */
static gpusvm_result multi_cs_cv(int ndev, int own_thread, double *target)
{
    gpusvm_result r;
    gpusvm_context *ctx = multi_context(ndev, own_thread, &r);
    gpusvm_params p;
    gpusvm_matrix m;
    if (!ctx) return r;
    memset(&p, 0, sizeof p);
    p.svm_type = GPUSVM_CRAMMER_SINGER;
    p.gamma = 0.5;
    memset(&m, 0, sizeof m);
    m.rows = 600;
    m.cols = D;
    m.values = X2;
    r = gpusvm_cross_validation(ctx, &m, Y2, &p, 5, target);
    gpusvm_context_destroy(ctx);
    return r;
}

/* What else runs a device a job (gpusvm__jobs_run): Crammer-Singer's folds in shares, a batch a
   device on a thread each (the several-device backend runs them on its first device), and the
   pairs' probability fits (-b 1): the one-device predictions and model file. */
static void jobs_checks(char *said, size_t said_size)
{
    static double ref[600], other[600];
    char *mref, *mother;
    gpusvm_result r;
    int k, seen = 0;
    CHECK(multi_cs_cv(1, 1, ref) == GPUSVM_OK, "Crammer-Singer 5-fold cross-validation over one C backend");
    r = multi_cs_cv(MD, 1, other);
    for (k = 1; k < MD; ++k) seen += !pthread_equal(md_ran[k], md_ran[0]);
    CHECK(r == GPUSVM_OK && memcmp(ref, other, sizeof ref) == 0 && seen == MD - 1,
          "Crammer-Singer's folds in shares, a device and thread each: the one-device predictions");
    mref = multi_model(1, 1, 600, 1, &r, said, said_size);
    mother = multi_model(MD, 1, 600, 1, &r, said, said_size);
    CHECK(mref && mother && strcmp(mref, mother) == 0 && strstr(mref, "probA"),
          "-b 1 on three devices (the pairs' probability fits a job each): the one-device model file");
    free(mref);
    free(mother);
}

/* The grid's gamma values at once, a device and thread each (gpusvm__jobs_run): the one-device
   rates; in turn the same; two devices failing together give one whole failure. */
static void grid_checks(char *said, size_t said_size)
{
    double ref[GG * GC], other[GG * GC];
    char msg[320];
    gpusvm_result r;
    int k, seen = 0, t;
    r = multi_grid(1, 1, ref, said, said_size);
    CHECK(r == GPUSVM_OK, "grid over one C backend: 8 points cross-validated");
    r = multi_grid(MD, 1, other, said, said_size);
    for (k = 1; k < MD; ++k) seen += !pthread_equal(md_ran[k], md_ran[0]);
    snprintf(msg, sizeof msg, "grid, %d devices a thread each: the one-device rates (%d of %d devices on threads of their own)",
             MD, seen, MD - 1);
    CHECK(r == GPUSVM_OK && memcmp(ref, other, sizeof ref) == 0 && seen == MD - 1, msg);
    r = multi_grid(MD, 0, other, said, said_size);
    CHECK(r == GPUSVM_OK && memcmp(ref, other, sizeof ref) == 0, "grid, devices without own_thread: the same rates");
    for (t = 1; t <= 2; ++t) {
        md_fail_at = t;
        r = multi_grid(MD, 1, other, said, said_size);
        snprintf(msg, sizeof msg, "grid: devices 1 and 2 fail update %d together: %s, \"%s\"", t,
                 gpusvm_result_string(r), said);
        CHECK((r == GPUSVM_ERROR_IO && strcmp(said, "device 1 failed") == 0) ||
                  (r == GPUSVM_ERROR_DEVICE_MEMORY && strcmp(said, "device 2 failed") == 0), msg);
    }
    md_fail_at = 0;
}

static void multi_checks(void)
{
    char said[128], *ref, *other, msg[320];
    gpusvm_result r;
    size_t i;
    int k, seen = 0, t;
    for (i = 0; i < N2; ++i) Y2[i] = (double)((X2[i * D] > 0.0f) * 3 + (int)((X2[i * D + 1] + 1.0f) * 1.5f) % 3);
    ref = multi_model(1, 1, N2, 0, &r, said, sizeof said);
    CHECK(ref != NULL, "multi section over one C backend: 15 pairs trained");
    other = multi_model(MD, 1, N2, 0, &r, said, sizeof said);
    for (k = 1; k < MD; ++k) seen += !pthread_equal(md_ran[k], md_ran[0]);
    snprintf(msg, sizeof msg,
             "%d devices, a thread each: the one-device model file (%d of %d devices on threads of their own)", MD,
             seen, MD - 1);
    CHECK(ref && other && strcmp(ref, other) == 0 && seen == MD - 1, msg);
    free(other);
    other = multi_model(MD, 0, N2, 0, &r, said, sizeof said);
    for (k = 1, seen = 0; k < MD; ++k) seen += !pthread_equal(md_ran[k], md_ran[0]);
    CHECK(ref && other && strcmp(ref, other) == 0 && seen == 0,
          "devices without own_thread: in turn, the same model file");
    free(other);
    free(ref);
    for (t = 1; t <= 2; ++t) { /* two devices fail at once: one failure is told, whole, with its own code */
        md_fail_at = t;
        other = multi_model(MD, 1, N2, 0, &r, said, sizeof said);
        snprintf(msg, sizeof msg, "devices 1 and 2 fail update %d together: %s, \"%s\"", t, gpusvm_result_string(r),
                 said);
        CHECK(!other && ((r == GPUSVM_ERROR_IO && strcmp(said, "device 1 failed") == 0) ||
                         (r == GPUSVM_ERROR_DEVICE_MEMORY && strcmp(said, "device 2 failed") == 0)), msg);
        free(other);
    }
    md_fail_at = 0;
    grid_checks(said, sizeof said);
    jobs_checks(said, sizeof said);
    CHECK(md_logs > 0, "the logger was called (one thread at a time: ThreadSanitizer watches)");
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
            for (k = t ? 2 : 1; k < 4; ++k) { /* Crammer-Singer: 3 and 8 (uneven shares; more threads than cores) */
                size_t len = 0;
                char *other = threads_model(counts[k], types[t], rows, &len);
                snprintf(msg, sizeof msg, "C backend, %d threads: the same model bytes, decision values and solver account as 1 thread (%s)", counts[k],
                         t ? "Crammer-Singer" : "C-SVC");
                CHECK(ref && other && len == ref_len && memcmp(other, ref, len) == 0, msg);
                free(other);
            }
            free(ref);
        }
        /* 70,000 points, stopped after 150 pair updates in working sets of 64 (many selections, few
           kernel rows): the selection's keys and heaps are split across the threads as well */
        for (i = 0; i < N4; ++i) Y2[i] = (X2[i * D] * X2[i * D + 1] + 0.3f * X2[i * D + 2] > 0.0f) ? 1.0 : -1.0;
        max_iter = 150;
        ws_size = 64;
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
    multi_checks();
    return check_summary();
}
