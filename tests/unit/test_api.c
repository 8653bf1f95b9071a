/* The public API: defaults, input forms, argument errors, class counts, max_iter, cancel,
   the allocator and logger, the data reader's accepted and rejected forms, model files.
   Training checks run on the C backend and on OpenCL (PoCL here). */
#define GPUSVM_IMPLEMENTATION
#include "../../gpusvm.h"
#include "../check.h"
#include <dirent.h>

static char tmpdir[256];

static const char *write_file(const char *name, const char *text)
{
    static char path[512];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    f = fopen(path, "wb");
    if (!f) {
        perror(path);
        exit(1);
    }
    fputs(text, f);
    fclose(f);
    return path;
}

/* two noisy clusters in d dimensions, n points, labels +1 / -1 */
static void blobs(float *x, double *y, size_t n, size_t d, unsigned seed)
{
    size_t i, j;
    for (i = 0; i < n; ++i) {
        y[i] = (i % 3 == 0) ? 1.0 : -1.0;
        for (j = 0; j < d; ++j) {
            seed = seed * 1103515245u + 12345u;
            x[i * d + j] = (float)(((seed >> 8) % 1000) / 1000.0 - 0.5 + (y[i] > 0 ? 0.4 : -0.1) * (j % 2 ? 1 : -1));
        }
    }
}

/* n points of blobs(seed) in d dimensions as a dense matrix over x (labels into y) */
static gpusvm_matrix blob_matrix(float *x, double *y, size_t n, size_t d, unsigned seed)
{
    gpusvm_matrix m;
    blobs(x, y, n, d, seed);
    memset(&m, 0, sizeof m);
    m.rows = n;
    m.cols = d;
    m.values = x;
    return m;
}

static int cancel_after;
static int progress_calls;
static int on_progress(void *user, const gpusvm_progress *p)
{
    (void)user;
    (void)p;
    return ++progress_calls >= cancel_after;
}

static size_t live_allocs, alloc_calls;
static void *count_alloc(size_t size, void *user)
{
    (void)user;
    ++live_allocs;
    ++alloc_calls;
    return malloc(size);
}
static void count_free(void *p, void *user)
{
    (void)user;
    --live_allocs;
    free(p);
}

/* A sizing allocator: each block carries its size, so the live bytes and their peak are known. */
static size_t live_bytes, peak_bytes;
static void *size_alloc(size_t size, void *user)
{
    unsigned char *b = (unsigned char *)malloc(size + 16);
    (void)user;
    if (!b) return NULL;
    memcpy(b, &size, sizeof size);
    live_bytes += size;
    if (live_bytes > peak_bytes) peak_bytes = live_bytes;
    return b + 16;
}
static void size_free(void *p, void *user)
{
    size_t size;
    (void)user;
    if (!p) return;
    memcpy(&size, (unsigned char *)p - 16, sizeof size);
    live_bytes -= size;
    free((unsigned char *)p - 16);
}

/* A context of backend whose host allocations size_alloc counts (NULL: failed). */
static gpusvm_context *sized_context(gpusvm_backend backend)
{
    gpusvm_context_desc desc;
    gpusvm_context *ctx = NULL;
    memset(&desc, 0, sizeof desc);
    desc.backend = backend;
    desc.ignore_environment = 1;
    desc.allocator.alloc = size_alloc;
    desc.allocator.free = size_free;
    live_bytes = 0;
    CHECK_OK(gpusvm_context_create(&desc, &ctx));
    return ctx;
}

static int log_lines;
static void on_log(void *user, gpusvm_log_level level, const char *msg)
{
    (void)user;
    (void)level;
    (void)msg;
    ++log_lines;
}

/* The fixture of the training cases, set up once per backend: 300 points of two blobs in 6
   dimensions as a dense matrix and as the same CSR matrix, a context with a counting allocator and
   a logger, and the model of LIBSVM's defaults (F.m1). */
enum { N = 300, D = 6 };
static struct {
    const char *name; /* the backend's */
    gpusvm_context *ctx;
    float x[N * D];
    double y[N];
    size_t rp[N + 1];
    int32_t col[N * D];
    float val[N * D];
    gpusvm_matrix dense, csr;
    gpusvm_model *m1;
} F;

static void fixture_begin(gpusvm_backend backend, const char *name)
{
    gpusvm_context_desc desc;
    size_t i, j, k = 0;
    F.name = name;
    blobs(F.x, F.y, N, D, 7u);
    memset(&desc, 0, sizeof desc);
    desc.backend = backend;
    desc.ignore_environment = 1;
    desc.allocator.alloc = count_alloc;
    desc.allocator.free = count_free;
    desc.logger.fn = on_log;
    live_allocs = 0;
    log_lines = 0;
    CHECK_OK(gpusvm_context_create(&desc, &F.ctx));
    printf("test_api: %s backend: %s\n", name, gpusvm_context_device_name(F.ctx));
    CHECK(gpusvm_context_backend(F.ctx) == backend, "the context reports the backend asked for");
    memset(&F.dense, 0, sizeof F.dense);
    F.dense.rows = N;
    F.dense.cols = D;
    F.dense.values = F.x;
    F.rp[0] = 0; /* the same matrix as CSR */
    for (i = 0; i < N; ++i) {
        for (j = 0; j < D; ++j)
            if (F.x[i * D + j] != 0.0f) {
                F.col[k] = (int32_t)j;
                F.val[k++] = F.x[i * D + j];
            }
        F.rp[i + 1] = k;
    }
    memset(&F.csr, 0, sizeof F.csr);
    F.csr.layout = GPUSVM_LAYOUT_CSR;
    F.csr.rows = N;
    F.csr.cols = D;
    F.csr.row_ptr = F.rp;
    F.csr.col_idx = F.col;
    F.csr.values = F.val;
    CHECK_OK(gpusvm_train(F.ctx, &F.dense, F.y, NULL, &F.m1));
}

static void fixture_end(void)
{
    char msg[256];
    gpusvm_model_free(F.m1);
    F.m1 = NULL;
    gpusvm_context_destroy(F.ctx);
    F.ctx = NULL;
    snprintf(msg, sizeof msg, "%s: every allocation through the allocator was freed (%lu live)", F.name,
             (unsigned long)live_allocs);
    CHECK(live_allocs == 0, msg);
    CHECK(log_lines > 0, "the logger received messages");
}

/* NULL and {0} params are LIBSVM's defaults, resolved into the model; dense and CSR input agree. */
static void case_defaults(void)
{
    gpusvm_params p;
    size_t i;
    size_t agree = 0;
    char msg[256];
    static double pred[N];
    static double dec[N];
    gpusvm_model *m2 = NULL;
    memset(&p, 0, sizeof p);
    CHECK_OK(gpusvm_train(F.ctx, &F.csr, F.y, &p, &m2));
    snprintf(msg, sizeof msg, "%s: defaults resolved (rbf, gamma 1/%d, degree 3): got kernel %d gamma %g", F.name, D,
             (int)F.m1->kernel_type, F.m1->gamma);
    CHECK(F.m1->svm_type == GPUSVM_C_SVC && F.m1->kernel_type == GPUSVM_KERNEL_RBF && F.m1->gamma == 1.0 / D &&
              F.m1->degree == 3,
          msg);
    CHECK(F.m1->info.converged == 1 && F.m1->info.gap < 1e-3, "defaults: converged below eps 1e-3");
    snprintf(msg, sizeof msg, "%s: dense and CSR input give the same model (nSV %lu vs %lu, rho %.17g vs %.17g)", F.name,
             (unsigned long)F.m1->total_sv, (unsigned long)m2->total_sv, F.m1->rho[0], m2->rho[0]);
    CHECK(F.m1->total_sv == m2->total_sv && F.m1->rho[0] == m2->rho[0], msg);
    CHECK(F.m1->nr_class == 2 && F.m1->label[0] == 1 && F.m1->label[1] == -1,
          "labels -1 then +1 are ordered +1 first, as LIBSVM does");
    CHECK_OK(gpusvm_predict(F.ctx, F.m1, &F.dense, pred, dec));
    for (i = 0; i < N; ++i) agree += pred[i] == F.y[i] && ((dec[i] > 0) == (pred[i] == 1.0));
    snprintf(msg, sizeof msg, "%s: training accuracy on separable-ish blobs %lu/%d, labels follow decision signs",
             F.name, (unsigned long)agree, N);
    CHECK(agree > N * 9 / 10, msg);
    gpusvm_model_free(m2);
}

/* A model file round trip predicts the same; a missing folder is an IO error naming the path. */
static void case_save_load(void)
{
    gpusvm_model *m3 = NULL;
    size_t i;
    size_t agree = 0;
    gpusvm_result r;
    static double pred[N];
    static double pred2[N];
    CHECK_OK(gpusvm_predict(F.ctx, F.m1, &F.dense, pred, NULL));
    {
        char path[512];
        FILE *f;
        char first[64] = {0};
        snprintf(path, sizeof path, "%s/m.model", tmpdir);
        CHECK_OK(gpusvm_model_save(F.ctx, F.m1, path));
        f = fopen(path, "rb");
        if (f) {
            if (!fgets(first, sizeof first, f)) first[0] = 0;
            fclose(f);
        }
        CHECK(strcmp(first, "svm_type c_svc\n") == 0, "a saved model starts with LIBSVM's svm_type line");
        CHECK_OK(gpusvm_model_load(F.ctx, path, &m3));
        CHECK_OK(gpusvm_predict(F.ctx, m3, &F.dense, pred2, NULL));
        for (i = 0, agree = 0; i < N; ++i) agree += pred2[i] == pred[i];
        CHECK(agree == N, "a saved and reloaded model predicts the same labels");
        CHECK(m3->total_sv == F.m1->total_sv && m3->rho[0] == F.m1->rho[0], "reloaded model: same nSV and exact rho");
        gpusvm_model_free(m3);
        m3 = NULL;
        r = gpusvm_model_save(F.ctx, F.m1, "/nonexistent-dir/x/m.model");
        CHECK(IS_ERROR(F.ctx, r, GPUSVM_ERR_FILE_WRITE) && strstr(gpusvm_context_error(F.ctx), "/nonexistent-dir/x/m.model") != NULL,
              "saving into a missing folder is an IO error naming the path");
    }
}

/* A model of the fixture's points trained as `type` with `kernel`: on three classes (row i is class
   i % 3) for classification, on the fixture's labels as targets for SVR. */
static gpusvm_model *train_as(gpusvm_svm_type type, gpusvm_kernel_type kernel, int probability)
{
    static double y3[N];
    gpusvm_params p;
    gpusvm_model *m = NULL;
    size_t i;
    for (i = 0; i < N; ++i) y3[i] = (double)(i % 3);
    memset(&p, 0, sizeof p);
    p.svm_type = type;
    p.kernel_type = kernel;
    p.probability = probability;
    CHECK_OK(gpusvm_train(F.ctx, &F.dense, type == GPUSVM_EPSILON_SVR || type == GPUSVM_NU_SVR ? F.y : y3, &p, &m));
    return m;
}

/* A model copy is the model: the same file bytes and training information, and it predicts the
   same after the original is freed (C-SVC with probabilities on three classes, one-class with its
   marks, epsilon-SVR with its scale, Crammer-Singer). */
static void case_model_copy(void)
{
    static double before[N], after[N];
    const gpusvm_svm_type types[4] = {GPUSVM_C_SVC, GPUSVM_ONE_CLASS, GPUSVM_EPSILON_SVR, GPUSVM_CRAMMER_SINGER};
    size_t i, same;
    int t;
    for (t = 0; t < 4; ++t) {
        gpusvm_model *m = train_as(types[t], GPUSVM_KERNEL_RBF, types[t] != GPUSVM_CRAMMER_SINGER), *c = NULL;
        char *b1 = NULL, *b2 = NULL, msg[200];
        size_t n1 = 0, n2 = 0;
        CHECK_OK(gpusvm_predict(F.ctx, m, &F.dense, before, NULL));
        CHECK_OK(gpusvm_model_copy(F.ctx, m, &c));
        CHECK_OK(gpusvm_model_save_buffer(F.ctx, m, &b1, &n1));
        CHECK_OK(gpusvm_model_save_buffer(F.ctx, c, &b2, &n2));
        snprintf(msg, sizeof msg, "model copy (svm_type %d): the same model file, training information and width", t);
        CHECK(n1 == n2 && memcmp(b1, b2, n1) == 0 && memcmp(&m->info, &c->info, sizeof m->info) == 0 &&
                  m->n_columns == c->n_columns && c->sv_values != m->sv_values,
              msg);
        gpusvm_model_free(m);
        CHECK_OK(gpusvm_predict(F.ctx, c, &F.dense, after, NULL));
        for (i = 0, same = 0; i < N; ++i) same += before[i] == after[i];
        snprintf(msg, sizeof msg, "model copy (svm_type %d): predicts as the original did after it is freed", t);
        CHECK(same == N, msg);
        gpusvm_free(F.ctx, b1);
        gpusvm_free(F.ctx, b2);
        gpusvm_model_free(c);
    }
    CHECK(IS_ERROR(F.ctx, gpusvm_model_copy(F.ctx, NULL, NULL), GPUSVM_ERR_NULL_ARGUMENT), "model copy: no model is refused");
}

/* A prepared predictor gives, point by point, exactly gpusvm_predict's labels and decision values
   for one point (every model type, a linear and a polynomial kernel, a point with two features past
   the model's), and allocates nothing per call. */
static void case_predictor(void)
{
    const gpusvm_svm_type types[6] = {GPUSVM_C_SVC, GPUSVM_ONE_CLASS, GPUSVM_EPSILON_SVR, GPUSVM_CRAMMER_SINGER,
                                      GPUSVM_C_SVC, GPUSVM_NU_SVC};
    const gpusvm_kernel_type kernels[6] = {GPUSVM_KERNEL_RBF, GPUSVM_KERNEL_RBF, GPUSVM_KERNEL_RBF, GPUSVM_KERNEL_RBF,
                                           GPUSVM_KERNEL_LINEAR, GPUSVM_KERNEL_POLY};
    size_t i, j;
    int t;
    for (t = 0; t < 6; ++t) {
        gpusvm_model *m = train_as(types[t], kernels[t], 0);
        gpusvm_predictor *pr = NULL;
        gpusvm_matrix one;
        double label, dv[3], dec[3], lab1;
        float wide[D + 2];
        size_t bad = 0, calls;
        char msg[200];
        CHECK_OK(gpusvm_predictor_create(F.ctx, m, &pr));
        memset(&one, 0, sizeof one);
        one.rows = 1;
        one.cols = D + 2;
        one.values = wide;
        calls = alloc_calls;
        for (i = 0; i < N; ++i) {
            for (j = 0; j < D; ++j) wide[j] = F.x[i * D + j];
            wide[D] = wide[D + 1] = (i % 2) ? 0.5f : 0.0f;
            bad += gpusvm_predictor_predict(pr, wide, D + 2, &label, dv) != GPUSVM_OK;
            bad += (size_t)(alloc_calls != calls);
            CHECK_OK(gpusvm_predict(F.ctx, m, &one, &lab1, dec));
            calls = alloc_calls;
            bad += label != lab1;
            for (j = 0; j < (types[t] == GPUSVM_ONE_CLASS || types[t] == GPUSVM_EPSILON_SVR ? 1u : 3u); ++j)
                bad += dv[j] != dec[j];
        }
        snprintf(msg, sizeof msg,
                 "predictor (svm_type %d, kernel %d): gpusvm_predict's labels and decision values, no allocation "
                 "(%lu differ)",
                 (int)types[t], (int)kernels[t], (unsigned long)bad);
        CHECK(bad == 0, msg);
        gpusvm_predictor_free(pr);
        gpusvm_model_free(m);
    }
    CHECK(IS_ERROR(F.ctx, gpusvm_predictor_create(F.ctx, NULL, NULL), GPUSVM_ERR_NULL_ARGUMENT), "predictor: no model is refused");
}

/* gpusvm_check_params: what gpusvm_train would refuse, without training (LIBSVM's
   svm_check_parameter), nu-SVC's feasibility included; fine parameters pass. */
static void case_check_params(void)
{
    static double yb[N], yf[N];
    gpusvm_params p;
    gpusvm_model *m = NULL;
    gpusvm_result r;
    char msg[2200];
    size_t i;
    for (i = 0; i < N; ++i) {
        yb[i] = i < N / 10 ? 1.0 : -1.0; /* a tenth against the rest */
        yf[i] = F.y[i] * 0.5;          /* not integers */
    }
    memset(&p, 0, sizeof p);
    CHECK(gpusvm_check_params(F.ctx, &F.dense, F.y, &p) == GPUSVM_OK, "check_params: LIBSVM's defaults pass");
    p.C = -1.0;
    r = gpusvm_check_params(F.ctx, &F.dense, F.y, &p);
    snprintf(msg, sizeof msg, "check_params: C = -1 is refused naming params.C (%s)", gpusvm_context_error(F.ctx));
    CHECK(IS_ERROR(F.ctx, r, GPUSVM_ERR_PARAMS_FIELD) && strstr(gpusvm_context_error(F.ctx), "params.C"), msg);
    memset(&p, 0, sizeof p);
    CHECK(gpusvm_check_params(F.ctx, &F.dense, yf, &p) == GPUSVM_ERROR_INVALID_ARGUMENT,
          "check_params: labels that are not integers are refused for classification");
    p.svm_type = GPUSVM_EPSILON_SVR;
    CHECK(gpusvm_check_params(F.ctx, &F.dense, yf, &p) == GPUSVM_OK, "check_params: the same targets pass for SVR");
    memset(&p, 0, sizeof p);
    p.svm_type = GPUSVM_NU_SVC;
    p.nu = 0.9;
    r = gpusvm_check_params(F.ctx, &F.dense, yb, &p);
    snprintf(msg, sizeof msg, "check_params: nu 0.9 on a 1:9 split is infeasible, and training says so too (%s)",
             gpusvm_context_error(F.ctx));
    CHECK(IS_ERROR(F.ctx, r, GPUSVM_ERR_NU_INFEASIBLE) && strstr(gpusvm_context_error(F.ctx), "infeasible") &&
              gpusvm_train(F.ctx, &F.dense, yb, &p, &m) == GPUSVM_ERROR_INVALID_ARGUMENT && !m,
          msg);
    p.nu = 0.1;
    CHECK(gpusvm_check_params(F.ctx, &F.dense, yb, &p) == GPUSVM_OK, "check_params: nu 0.1 on the same split passes");
}

/* params.shrinking: the default is LIBSVM's (on: the same model as 1); on the C backend a problem
   solved whole shrinks (other pair updates, a dual within eps of the unshrunk one, the same
   predictions), on a device it never does (the same model either way); 2 is refused. */
static void case_shrinking(void)
{
    gpusvm_params p;
    gpusvm_model *m[3] = {NULL, NULL, NULL};
    char *bytes[3] = {NULL, NULL, NULL}, msg[256];
    size_t len[3] = {0, 0, 0}, i, same = 0;
    static double d1[N], d2[N], yx[N];
    const int values[3] = {0, 1, -1};
    int k;
    const int cpu = gpusvm_context_backend(F.ctx) == GPUSVM_BACKEND_CPU;
    for (i = 0; i < N; ++i) /* an XOR of two features, every seventh label flipped: no easy margin */
        yx[i] = ((F.x[i * D] * F.x[i * D + 1] > 0.0f) != (i % 7 == 0)) ? 1.0 : -1.0;
    memset(&p, 0, sizeof p);
    p.C = 1000.0; /* many pair updates on N points solved whole: several shrinking rounds */
    p.gamma = 0.5;
    for (k = 0; k < 3; ++k) {
        p.shrinking = values[k];
        CHECK_OK(gpusvm_train(F.ctx, &F.dense, yx, &p, &m[k]));
        CHECK_OK(gpusvm_model_save_buffer(F.ctx, m[k], &bytes[k], &len[k]));
    }
    snprintf(msg, sizeof msg, "%s: shrinking 0 is the default, 1 (the same model bytes)", F.name);
    CHECK(len[0] == len[1] && memcmp(bytes[0], bytes[1], len[0]) == 0, msg);
    CHECK_OK(gpusvm_predict(F.ctx, m[1], &F.dense, NULL, d1));
    CHECK_OK(gpusvm_predict(F.ctx, m[2], &F.dense, NULL, d2));
    for (i = 0; i < N; ++i) same += (d1[i] > 0) == (d2[i] > 0);
    snprintf(msg, sizeof msg,
             "%s: shrinking on and off (-1): %lld and %lld pair updates, %s, objectives %.9g and %.9g, %lu of %d the same side",
             F.name, m[1]->info.iterations, m[2]->info.iterations, cpu ? "different on the C backend" : "the same on a device",
             m[1]->info.obj, m[2]->info.obj, (unsigned long)same, N);
    CHECK((cpu ? m[1]->info.iterations != m[2]->info.iterations
               : len[1] == len[2] && memcmp(bytes[1], bytes[2], len[1]) == 0) &&
              fabs(m[1]->info.obj - m[2]->info.obj) <= 1e-6 * fabs(m[2]->info.obj) && same >= N - 2,
          msg);
    for (k = 0; k < 3; ++k) {
        gpusvm_free(F.ctx, bytes[k]);
        gpusvm_model_free(m[k]);
    }
    p.shrinking = 2;
    CHECK(gpusvm_check_params(F.ctx, &F.dense, F.y, &p) == GPUSVM_ERROR_INVALID_ARGUMENT &&
              strstr(gpusvm_context_error(F.ctx), "params.shrinking"),
          "params.shrinking 2 is refused");
}

/* The primal weights of linear models give gpusvm_predict's decision values (every pair of three
   classes, Crammer-Singer's classes, SVR); another kernel or a missing decision is refused. */
static void case_linear_weights(void)
{
    static double dec[N * 3];
    const gpusvm_svm_type types[3] = {GPUSVM_C_SVC, GPUSVM_CRAMMER_SINGER, GPUSVM_EPSILON_SVR};
    double w[D], b;
    size_t i, j, bad;
    int t, q, nd;
    char msg[200];
    for (t = 0; t < 3; ++t) {
        gpusvm_model *m = train_as(types[t], GPUSVM_KERNEL_LINEAR, 0);
        CHECK_OK(gpusvm_predict(F.ctx, m, &F.dense, NULL, dec));
        nd = types[t] == GPUSVM_EPSILON_SVR ? 1 : 3;
        for (q = 0, bad = 0; q < nd; ++q) {
            CHECK_OK(gpusvm_model_linear_weights(m, q, w, D, &b));
            for (i = 0; i < N; ++i) {
                double v = b;
                for (j = 0; j < D; ++j) v += w[j] * F.x[i * D + j];
                bad += fabs(v - dec[i * (size_t)nd + (size_t)q]) > 1e-4 * (1.0 + fabs(v));
            }
        }
        snprintf(msg, sizeof msg, "linear weights (svm_type %d): w.x + b is gpusvm_predict's decision value (%lu differ)",
                 (int)types[t], (unsigned long)bad);
        CHECK(bad == 0, msg);
        CHECK(gpusvm_model_linear_weights(m, nd, w, D, &b) == GPUSVM_ERROR_INVALID_ARGUMENT,
              "linear weights: a decision function past the model's is refused");
        gpusvm_model_free(m);
    }
    CHECK(gpusvm_model_linear_weights(F.m1, 0, w, D, &b) == GPUSVM_ERROR_INVALID_ARGUMENT,
          "linear weights: an RBF model is refused");
}

/* model->sv_indices: each support vector is the training row it names (C-SVC on three classes,
   epsilon-SVR, Crammer-Singer), no row twice; a loaded model has none. */
static void case_sv_indices(void)
{
    static unsigned char seen[N];
    const gpusvm_svm_type types[3] = {GPUSVM_C_SVC, GPUSVM_EPSILON_SVR, GPUSVM_CRAMMER_SINGER};
    size_t s, k, bad;
    int t;
    char msg[200], *text = NULL;
    size_t len = 0;
    gpusvm_model *loaded = NULL;
    for (t = 0; t < 3; ++t) {
        gpusvm_model *m = train_as(types[t], GPUSVM_KERNEL_RBF, 0);
        memset(seen, 0, sizeof seen);
        for (s = 0, bad = 0; s < m->total_sv; ++s) {
            const size_t row = m->sv_indices[s];
            size_t nz = 0;
            if (row >= N || seen[row]++) {
                ++bad;
                continue;
            }
            for (k = 0; k < D; ++k) nz += F.x[row * D + k] != 0.0f;
            bad += nz != m->sv_row_ptr[s + 1] - m->sv_row_ptr[s];
            for (k = m->sv_row_ptr[s]; k < m->sv_row_ptr[s + 1]; ++k)
                bad += F.x[row * D + (size_t)m->sv_col_idx[k]] != m->sv_values[k];
        }
        snprintf(msg, sizeof msg, "sv_indices (svm_type %d): each of %lu support vectors is the row it names (%lu differ)",
                 (int)types[t], (unsigned long)m->total_sv, (unsigned long)bad);
        CHECK(bad == 0 && m->total_sv > 0, msg);
        if (t == 0) CHECK_OK(gpusvm_model_save_buffer(F.ctx, m, &text, &len));
        gpusvm_model_free(m);
    }
    CHECK_OK(gpusvm_model_load_buffer(F.ctx, text, len, &loaded));
    CHECK(loaded->sv_indices == NULL, "sv_indices: a loaded model has none");
    gpusvm_model_free(loaded);
    gpusvm_free(F.ctx, text);
}

/* Argument errors name the field. */
static void case_argument_errors(void)
{
    gpusvm_params p;
    gpusvm_model *m3 = NULL;
    gpusvm_result r;
    size_t i;
    char msg[256];
    memset(&p, 0, sizeof p);
    p.C = -1;
    r = gpusvm_train(F.ctx, &F.dense, F.y, &p, &m3);
    CHECK(IS_ERROR(F.ctx, r, GPUSVM_ERR_PARAMS_FIELD) && strstr(gpusvm_context_error(F.ctx), "params.C") && !m3,
          "C < 0 is INVALID_ARGUMENT naming params.C, no model");
    memset(&p, 0, sizeof p);
    p.gamma = -2;
    r = gpusvm_train(F.ctx, &F.dense, F.y, &p, &m3);
    CHECK(IS_ERROR(F.ctx, r, GPUSVM_ERR_PARAMS_FIELD) && strstr(gpusvm_context_error(F.ctx), "params.gamma"),
          "gamma < 0 is INVALID_ARGUMENT naming params.gamma");
#ifndef __cplusplus /* an enum holding 42 is undefined behaviour in C++, valid in C */
    memset(&p, 0, sizeof p);
    p.kernel_type = (gpusvm_kernel_type)42;
    CHECK(IS_ERROR(F.ctx, gpusvm_train(F.ctx, &F.dense, F.y, &p, &m3), GPUSVM_ERR_PARAMS_FIELD), "an unknown kernel type is rejected");
#endif
    {
        const int wl = (int)F.y[0];
        const double wv = 0.01; /* the class's bounds add up to less than nu l / 2 */
        memset(&p, 0, sizeof p);
        p.svm_type = GPUSVM_NU_SVC;
        p.nu = 0.9;
        p.n_weight = 1;
        p.weight_label = &wl;
        p.weight = &wv;
        r = gpusvm_train(F.ctx, &F.dense, F.y, &p, &m3);
        CHECK(IS_ERROR(F.ctx, r, GPUSVM_ERR_NU_INFEASIBLE) && strstr(gpusvm_context_error(F.ctx), "infeasible") && !m3,
              "an infeasible nu-SVC nu is INVALID_ARGUMENT saying so, and no model");
    }
    CHECK(IS_ERROR(F.ctx, gpusvm_train(F.ctx, NULL, F.y, NULL, &m3), GPUSVM_ERR_NULL_ARGUMENT), "NULL data is rejected");
    CHECK(IS_ERROR(F.ctx, gpusvm_train(F.ctx, &F.dense, NULL, NULL, &m3), GPUSVM_ERR_NULL_ARGUMENT), "NULL labels are rejected");
    { /* labels that are not integers: refused for classification, naming the row; fine for regression */
        static double half[N];
        static double t[N];
        for (i = 0; i < N; ++i) half[i] = 0.5 * (double)(1 + i % 3); /* 0.5, 1.0, 1.5 */
        r = gpusvm_train(F.ctx, &F.dense, half, NULL, &m3);
        CHECK(IS_ERROR(F.ctx, r, GPUSVM_ERR_LABEL_NOT_INTEGER) && !m3 && strstr(gpusvm_context_error(F.ctx), "y[0] = 0.5") &&
                  strstr(gpusvm_context_error(F.ctx), "SVR"),
              "labels 0.5 / 1.0 / 1.5 are refused for C-SVC, naming the row and pointing to SVR");
        CHECK(gpusvm_cross_validation(F.ctx, &F.dense, half, NULL, 3, t) == GPUSVM_ERROR_INVALID_ARGUMENT,
              "and for cross-validation");
        memset(&p, 0, sizeof p);
        p.svm_type = GPUSVM_EPSILON_SVR;
        CHECK_OK(gpusvm_train(F.ctx, &F.dense, half, &p, &m3));
        gpusvm_model_free(m3);
        m3 = NULL;
    }
    { /* a class weight for a label no row has */
        const int wl = 7;
        const double wv = 2.0;
        memset(&p, 0, sizeof p);
        p.n_weight = 1;
        p.weight_label = &wl;
        p.weight = &wv;
        r = gpusvm_train(F.ctx, &F.dense, F.y, &p, &m3);
        CHECK(IS_ERROR(F.ctx, r, GPUSVM_ERR_WEIGHT_LABEL) && !m3 && strstr(gpusvm_context_error(F.ctx), "weight_label[0] = 7"),
              "a class weight for a label no row has is refused, naming it");
    }
    for (i = 1; i < 4; ++i) { /* working sets of 1 to 3 cannot keep half of themselves */
        memset(&p, 0, sizeof p);
        p.working_set_size = (int)i;
        r = gpusvm_train(F.ctx, &F.dense, F.y, &p, &m3);
        snprintf(msg, sizeof msg, "working_set_size %d is refused naming the field", (int)i);
        CHECK(IS_ERROR(F.ctx, r, GPUSVM_ERR_PARAMS_FIELD) && !m3 && strstr(gpusvm_context_error(F.ctx), "working_set_size"), msg);
    }
    memset(&p, 0, sizeof p);
    p.working_set_size = 4;
    p.eps = 1e-6;
    CHECK_OK(gpusvm_train(F.ctx, &F.dense, F.y, &p, &m3));
    snprintf(msg, sizeof msg, "working_set_size 4 reaches the optimum (obj %.8g vs %.8g)", m3->info.obj, F.m1->info.obj);
    CHECK(m3->info.converged && fabs(m3->info.obj - F.m1->info.obj) <= 1e-3 * fabs(F.m1->info.obj), msg);
    gpusvm_model_free(m3);
    m3 = NULL;
}

/* NaN data is refused; three classes train one-vs-one; one class predicts itself. */
static void case_class_counts(void)
{
    gpusvm_model *m3 = NULL;
    size_t i;
    size_t agree = 0;
    char msg[256];
    static double pred2[N];
    {
        float keep = F.x[5];
        double ky = F.y[3];
        static double ky_all[N];
        memcpy(ky_all, F.y, sizeof ky_all);
        F.x[5] = NAN;
        CHECK(IS_ERROR(F.ctx, gpusvm_train(F.ctx, &F.dense, F.y, NULL, &m3), GPUSVM_ERR_MATRIX_NOT_FINITE), "NaN in the data is rejected");
        F.x[5] = keep;
        F.y[3] = 7;
        for (i = 0; i < N; i += 5) F.y[i] = 7;
        CHECK_OK(gpusvm_train(F.ctx, &F.dense, F.y, NULL, &m3));
        snprintf(msg, sizeof msg, "%s: three classes train one-vs-one (labels %d %d %d, %d pairs, SV rows %lu)", F.name,
                 m3->label[0], m3->label[1], m3->label[2], 3, (unsigned long)m3->total_sv);
        CHECK(m3->nr_class == 3 && m3->label[0] == 7 && m3->label[1] == -1 && m3->label[2] == 1 &&
                  m3->n_sv[0] + m3->n_sv[1] + m3->n_sv[2] == (int)m3->total_sv && m3->pair_info[2].n_sv > 0,
              msg);
        {
            static double dv[N * 3];
            CHECK_OK(gpusvm_predict(F.ctx, m3, &F.dense, pred2, dv));
            for (i = 0, agree = 0; i < N; ++i) {
                /* the vote from the three pairwise decisions */
                int v0 = (dv[3 * i] > 0) + (dv[3 * i + 1] > 0), v1 = (dv[3 * i] <= 0) + (dv[3 * i + 2] > 0);
                int v2 = (dv[3 * i + 1] <= 0) + (dv[3 * i + 2] <= 0), w = 0;
                if (v1 > v0) w = 1;
                if (v2 > (w ? v1 : v0)) w = 2;
                agree += pred2[i] == m3->label[w];
            }
            CHECK(agree == N, "three classes: predicted labels are the one-vs-one vote of the decision values");
        }
        gpusvm_model_free(m3);
        m3 = NULL;
        memcpy(F.y, ky_all, sizeof ky_all);
        F.y[3] = ky;
    }
    {
        double one[N];
        for (i = 0; i < N; ++i) one[i] = 4;
        CHECK_OK(gpusvm_train(F.ctx, &F.dense, one, NULL, &m3));
        CHECK_OK(gpusvm_predict(F.ctx, m3, &F.dense, pred2, NULL));
        CHECK(m3->nr_class == 1 && m3->total_sv == 0 && pred2[0] == 4 && pred2[N - 1] == 4,
              "one class: a model with no support vectors that predicts that class (LIBSVM's behaviour)");
        gpusvm_model_free(m3);
        m3 = NULL;
    }
}

/* Degenerate inputs: documented results, no hang. */
static void case_degenerate_inputs(void)
{
    gpusvm_model *m3 = NULL;
    char msg[256];
    gpusvm_result r;
    {
        const float one_x[3] = {1, 2, 3}, same_x[8] = {1, 1, 1, 1, 1, 1, 1, 1};
        const double one_y[1] = {-1}, same_y[4] = {1, -1, 1, -1}, wide_x_y[1] = {0};
        const float wide_x[D + 4] = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f, 0.8f, 0.9f, 1.0f};
        gpusvm_matrix mm;
        double out[4];
        memset(&mm, 0, sizeof mm);
        mm.rows = 1;
        mm.cols = 3;
        mm.values = one_x;
        CHECK_OK(gpusvm_train(F.ctx, &mm, one_y, NULL, &m3));
        CHECK_OK(gpusvm_predict(F.ctx, m3, &mm, out, NULL));
        CHECK(m3->nr_class == 1 && out[0] == -1, "n = 1: a one-class model that predicts its label");
        gpusvm_model_free(m3);
        m3 = NULL;
        mm.rows = 4;
        mm.cols = 2;
        mm.values = same_x;
        CHECK_OK(gpusvm_train(F.ctx, &mm, same_y, NULL, &m3));
        snprintf(msg, sizeof msg, "%s: identical points with both labels converge (nSV %lu, obj %g)", F.name,
                 (unsigned long)m3->total_sv, m3->info.obj);
        CHECK(m3->info.converged == 1 && m3->total_sv == 4, msg);
        gpusvm_model_free(m3);
        m3 = NULL;
        mm.cols = 0;
        mm.values = NULL;
        CHECK_OK(gpusvm_train(F.ctx, &mm, same_y, NULL, &m3));
        CHECK(m3->info.converged == 1 && m3->gamma == 0.0, "zero features: trains (gamma 'auto' is 0, as LIBSVM)");
        gpusvm_model_free(m3);
        m3 = NULL;
        mm.rows = 1;
        mm.cols = D + 4;
        mm.values = wide_x;
        r = gpusvm_predict(F.ctx, F.m1, &mm, out, NULL);
        CHECK(r == GPUSVM_OK && (out[0] == 1 || out[0] == -1),
              "test data with more features than the model predicts (the extra features meet zero weights)");
        mm.cols = 1;
        r = gpusvm_predict(F.ctx, F.m1, &mm, out, NULL);
        CHECK(IS_ERROR(F.ctx, r, GPUSVM_ERR_MATRIX_NARROW) && strstr(gpusvm_context_error(F.ctx), "has 1 columns"),
              "a dense matrix narrower than the model's training data is refused (no buffer read past its width)");
        (void)wide_x_y;
    }
}

/* Per-sample weights: 1 changes nothing, 2 everywhere is C doubled, 2 on some rows is those rows twice. */
static void case_sample_weights(void)
{
    gpusvm_params p;
    gpusvm_model *m3 = NULL;
    size_t i;
    size_t agree = 0;
    char msg[256];
    gpusvm_result r;
    {
        static double w[N], ydup[N + N / 7 + 1], pw[N], pd[N];
        static float xdup[(N + N / 7 + 1) * D];
        gpusvm_matrix md;
        gpusvm_model *a1 = NULL, *a2 = NULL;
        size_t nd = 0;
        for (i = 0; i < N; ++i) w[i] = 1.0;
        memset(&p, 0, sizeof p);
        p.sample_weight = w;
        CHECK_OK(gpusvm_train(F.ctx, &F.dense, F.y, &p, &a1));
        CHECK(a1->rho[0] == F.m1->rho[0] && a1->total_sv == F.m1->total_sv, "unit sample weights give the unweighted model");
        gpusvm_model_free(a1);
        for (i = 0; i < N; ++i) w[i] = 2.0;
        CHECK_OK(gpusvm_train(F.ctx, &F.dense, F.y, &p, &a1));
        memset(&p, 0, sizeof p);
        p.C = 2.0;
        CHECK_OK(gpusvm_train(F.ctx, &F.dense, F.y, &p, &a2));
        CHECK(a1->rho[0] == a2->rho[0] && a1->info.obj == a2->info.obj, "sample weights of 2 are C doubled, exactly");
        gpusvm_model_free(a1);
        gpusvm_model_free(a2);
        for (i = 0; i < N; ++i) {
            w[i] = (i % 7 == 0) ? 2.0 : 1.0;
            memcpy(xdup + nd * D, F.x + i * D, D * sizeof(float));
            ydup[nd++] = F.y[i];
            if (i % 7 == 0) {
                memcpy(xdup + nd * D, F.x + i * D, D * sizeof(float));
                ydup[nd++] = F.y[i];
            }
        }
        memset(&md, 0, sizeof md);
        md.rows = nd;
        md.cols = D;
        md.values = xdup;
        memset(&p, 0, sizeof p);
        p.sample_weight = w;
        p.eps = 1e-5;
        CHECK_OK(gpusvm_train(F.ctx, &F.dense, F.y, &p, &a1));
        p.sample_weight = NULL;
        CHECK_OK(gpusvm_train(F.ctx, &md, ydup, &p, &a2));
        CHECK_OK(gpusvm_predict(F.ctx, a1, &F.dense, pw, NULL));
        CHECK_OK(gpusvm_predict(F.ctx, a2, &F.dense, pd, NULL));
        for (i = 0, agree = 0; i < N; ++i) agree += pw[i] == pd[i];
        snprintf(msg, sizeof msg, "%s: weight 2 on every 7th row = those rows twice (obj %.10g vs %.10g, %lu/%d same labels)",
                 F.name, a1->info.obj, a2->info.obj, (unsigned long)agree, N);
        CHECK(fabs(a1->info.obj - a2->info.obj) <= 1e-5 * fabs(a2->info.obj) && agree >= N - 1, msg);
        gpusvm_model_free(a1);
        gpusvm_model_free(a2);
        w[5] = -1.0;
        memset(&p, 0, sizeof p);
        p.sample_weight = w;
        r = gpusvm_train(F.ctx, &F.dense, F.y, &p, &m3);
        CHECK(IS_ERROR(F.ctx, r, GPUSVM_ERR_PARAMS_FIELD) && strstr(gpusvm_context_error(F.ctx), "params.sample_weight[5]"),
              "a negative sample weight names params.sample_weight[i]");
    }
}

/* Cross-validation: every row predicted once, the same folds every run. */
static void case_cross_validation(void)
{
    size_t i;
    char msg[256];
    {
        static double t1[N], t2[N];
        size_t ok = 0, same = 0;
        CHECK_OK(gpusvm_cross_validation(F.ctx, &F.dense, F.y, NULL, 5, t1));
        CHECK_OK(gpusvm_cross_validation(F.ctx, &F.csr, F.y, NULL, 5, t2));
        for (i = 0; i < N; ++i) {
            ok += t1[i] == F.y[i];
            same += t1[i] == t2[i];
        }
        snprintf(msg, sizeof msg, "%s: 5-fold cross-validation: %lu/%d right, the same targets twice (%lu)", F.name,
                 (unsigned long)ok, N, (unsigned long)same);
        CHECK(ok > N * 8 / 10 && same == N, msg);
        CHECK(IS_ERROR(F.ctx, gpusvm_cross_validation(F.ctx, &F.dense, F.y, NULL, 1, t1), GPUSVM_ERR_NR_FOLD),
              "cross-validation with one fold is refused");
    }
    { /* a grid: each C of a gamma in one batch gives each point's own cross-validation */
        static double t[N];
        const double C[3] = {0.25, 4.0, 64.0}, G[2] = {0.05, 0.5}, bad = -1.0;
        double rate[6];
        gpusvm_params p;
        int c, g, agree = 0;
        memset(&p, 0, sizeof p);
        CHECK_OK(gpusvm_grid_search(F.ctx, &F.dense, F.y, NULL, 4, C, 3, G, 2, rate));
        for (g = 0; g < 2; ++g)
            for (c = 0; c < 3; ++c) {
                size_t ok = 0;
                p.C = C[c];
                p.gamma = G[g];
                p.gamma_mode = GPUSVM_GAMMA_VALUE;
                CHECK_OK(gpusvm_cross_validation(F.ctx, &F.dense, F.y, &p, 4, t));
                for (i = 0; i < N; ++i) ok += t[i] == F.y[i];
                agree += rate[g * 3 + c] == 100.0 * (double)ok / N;
            }
        snprintf(msg, sizeof msg, "%s: a 3 x 2 grid's rates are its points' cross-validations (%d of 6)", F.name,
                 agree);
        CHECK(agree == 6, msg);
        CHECK(IS_ERROR(F.ctx, gpusvm_grid_search(F.ctx, &F.dense, F.y, NULL, 4, &bad, 1, NULL, 0, rate), GPUSVM_ERR_GRID_VALUE),
              "a grid with C <= 0 is refused");
        CHECK(IS_ERROR(F.ctx, gpusvm_grid_search(F.ctx, &F.dense, F.y, NULL, 4, NULL, 0, NULL, 0, NULL), GPUSVM_ERR_NULL_ARGUMENT),
              "a grid without room for its rates is refused");
        CHECK(IS_ERROR(F.ctx, gpusvm_grid_search(F.ctx, &F.dense, F.y, NULL, 4, C, 3, G, -1, rate), GPUSVM_ERR_GRID_VALUE) &&
                  IS_ERROR(F.ctx, gpusvm_grid_search(F.ctx, &F.dense, F.y, NULL, 4, C, 65536, G, 65536, rate),
                           GPUSVM_ERR_GRID_VALUE),
              "a grid with a negative count, or more points than an int counts, is refused");
    }
}

/* epsilon-SVR, one-class and nu checks through the API. */
static void case_svr_one_class(void)
{
    gpusvm_params p;
    gpusvm_model *m3 = NULL;
    size_t i;
    char msg[256];
    gpusvm_result r;
    {
        static double z[N], zp[N], oc[N];
        double se = 0, var = 0, mean = 0;
        int inside = 0;
        for (i = 0; i < N; ++i) {
            z[i] = 3.0 * F.x[i * D] - 2.0 * F.x[i * D + 1] + 0.5;
            mean += z[i] / N;
        }
        memset(&p, 0, sizeof p);
        p.svm_type = GPUSVM_EPSILON_SVR;
        p.kernel_type = GPUSVM_KERNEL_LINEAR;
        p.C = 10;
        p.p = 0.01;
        CHECK_OK(gpusvm_train(F.ctx, &F.dense, z, &p, &m3));
        CHECK_OK(gpusvm_predict(F.ctx, m3, &F.dense, zp, NULL));
        for (i = 0; i < N; ++i) {
            se += (zp[i] - z[i]) * (zp[i] - z[i]);
            var += (z[i] - mean) * (z[i] - mean);
        }
        snprintf(msg, sizeof msg, "%s: epsilon-SVR fits a linear function (relative squared error %.2e)", F.name, se / var);
        CHECK(se / var < 1e-3 && m3->svm_type == GPUSVM_EPSILON_SVR, msg);
        gpusvm_model_free(m3);
        m3 = NULL;
        memset(&p, 0, sizeof p);
        p.svm_type = GPUSVM_ONE_CLASS;
        p.nu = 0.2;
        CHECK_OK(gpusvm_train(F.ctx, &F.dense, F.y, &p, &m3));
        CHECK_OK(gpusvm_predict(F.ctx, m3, &F.dense, oc, NULL));
        for (i = 0; i < N; ++i) inside += oc[i] == 1.0;
        snprintf(msg, sizeof msg, "%s: one-class with nu = 0.2 keeps about 80%% of its training points inside (%d of %d)",
                 F.name, inside, N);
        CHECK(inside > N * 7 / 10 && inside < N * 9 / 10 && m3->total_sv >= (size_t)(0.2 * N), msg);
        gpusvm_model_free(m3);
        m3 = NULL;
        memset(&p, 0, sizeof p);
        p.svm_type = GPUSVM_ONE_CLASS;
        p.nu = 1.5;
        r = gpusvm_train(F.ctx, &F.dense, F.y, &p, &m3);
        CHECK(IS_ERROR(F.ctx, r, GPUSVM_ERR_PARAMS_FIELD) && strstr(gpusvm_context_error(F.ctx), "params.nu"), "nu > 1 names params.nu");
        p.svm_type = GPUSVM_NU_SVR;
        r = gpusvm_train(F.ctx, &F.dense, F.y, &p, &m3);
        CHECK(IS_ERROR(F.ctx, r, GPUSVM_ERR_PARAMS_FIELD) && strstr(gpusvm_context_error(F.ctx), "params.nu"),
              "nu-SVR with nu > 1 names params.nu");
    }
}

/* max_iter is honoured and reported. */
static void case_max_iter(void)
{
    gpusvm_params p;
    gpusvm_model *m3 = NULL;
    char msg[256];
    memset(&p, 0, sizeof p);
    p.max_iter = 5;
    p.eps = 1e-9;
    CHECK_OK(gpusvm_train(F.ctx, &F.dense, F.y, &p, &m3));
    snprintf(msg, sizeof msg, "%s: max_iter 5 stops at %lld pair updates, converged = %d", F.name, m3->info.iterations,
             m3->info.converged);
    CHECK(m3->info.iterations == 5 && m3->info.converged == 0, msg);
    gpusvm_model_free(m3);
    m3 = NULL;
}

/* The progress callback cancels; the same small working set, not cancelled, reaches the optimum. */
static void case_progress_cancel(void)
{
    gpusvm_params p;
    gpusvm_model *m3 = NULL;
    char msg[256];
    gpusvm_result r;
    memset(&p, 0, sizeof p);
    p.working_set_size = 16;
    p.eps = 1e-6;
    p.progress = on_progress;
    cancel_after = 2;
    progress_calls = 0;
    r = gpusvm_train(F.ctx, &F.dense, F.y, &p, &m3);
    snprintf(msg, sizeof msg, "%s: cancel from the progress callback returns CANCELLED (got %s after %d calls)", F.name,
             gpusvm_result_string(r), progress_calls);
    CHECK(IS_ERROR(F.ctx, r, GPUSVM_ERR_CANCELLED) && m3 == NULL && progress_calls == 2, msg);
    /* and the same small working set, not cancelled, reaches the same optimum */
    cancel_after = 1 << 30;
    p.eps = 0;
    CHECK_OK(gpusvm_train(F.ctx, &F.dense, F.y, &p, &m3));
    snprintf(msg, sizeof msg, "%s: q=16 (%lld outer iterations) and the whole-problem solve agree: obj %.10g vs %.10g",
             F.name, m3->info.outer_iterations, m3->info.obj, F.m1->info.obj);
    CHECK(m3->info.outer_iterations > 3 && fabs(m3->info.obj - F.m1->info.obj) <= 1e-3 * fabs(F.m1->info.obj), msg);
    gpusvm_model_free(m3);
    m3 = NULL;
}

/* gamma 'scale': 1 / (features * variance of all values). */
/* params.cache_size_mb (LIBSVM's -m) bounds the kernel rows held in host memory: 6,000 points (a
   row of 24 KB) at 2 MB hold at most 2 MB of rows beside the data's few hundred KB, where the C
   backend's own choice holds its working set's rows and a row cache of up to 512 MB; the same
   objective either way. */
static void case_row_budget(void)
{
    enum { NB = 6000, DB = 6 };
    static float x[NB * DB];
    static double y[NB];
    const int cpu = gpusvm_context_backend(F.ctx) == GPUSVM_BACKEND_CPU;
    const gpusvm_matrix m = blob_matrix(x, y, NB, DB, 11u);
    gpusvm_context *ctx = sized_context(gpusvm_context_backend(F.ctx));
    gpusvm_params p;
    gpusvm_model *m0 = NULL, *m1 = NULL;
    size_t peak0, peak1;
    char msg[256];
    if (!ctx) return;
    memset(&p, 0, sizeof p);
    peak_bytes = live_bytes;
    CHECK_OK(gpusvm_train(ctx, &m, y, &p, &m0));
    peak0 = peak_bytes;
    p.cache_size_mb = 2.0;
    peak_bytes = live_bytes;
    CHECK_OK(gpusvm_train(ctx, &m, y, &p, &m1));
    peak1 = peak_bytes;
    snprintf(msg, sizeof msg, "%s backend, 6,000 points: -m 2 holds %.2f MB of host memory at its peak (no -m: %.1f MB)",
             F.name, peak1 / 1048576.0, peak0 / 1048576.0);
    CHECK(peak1 <= (size_t)4 << 20 && (!cpu || peak0 > (size_t)16 << 20), msg);
    CHECK(m0 && m1 && fabs(m1->info.obj - m0->info.obj) <= 1e-3 * fabs(m0->info.obj),
          "-m 2: the objective of the training without it");
    gpusvm_model_free(m0);
    gpusvm_model_free(m1);
    gpusvm_context_destroy(ctx);
}

/* One-vs-one with 200 classes of three points (19,900 pairs; their dense coefficients would take
   95 MB): gpusvm_predict and a predictor read the pairs' coefficients in place (neither holds
   more than 16 MB at its peak), give the same decision values, and predict every training label. */
static void case_many_classes(void)
{
    enum { K = 200, NK = 3 * K, NP = 60 };
    static float x[NK * 2];
    static double y[NK], lab[NP], dec[(size_t)NP * (K * (K - 1) / 2)];
    static double one[K * (K - 1) / 2];
    gpusvm_context *ctx;
    gpusvm_matrix m;
    gpusvm_model *model = NULL;
    gpusvm_predictor *pr = NULL;
    size_t i, t, agree = 0, same = 0, peak_predict = 0, peak_create = 0;
    unsigned seed = 5u;
    char msg[256];
    for (i = 0; i < NK; ++i) { /* class c near ((c % 20) / 20, (c / 20) / 10) */
        const int c = (int)(i / 3);
        seed = seed * 1103515245u + 12345u;
        x[2 * i] = (float)((c % 20) / 20.0 + ((seed >> 8) % 1000) * 3e-6);
        seed = seed * 1103515245u + 12345u;
        x[2 * i + 1] = (float)((c / 20) / 10.0 + ((seed >> 8) % 1000) * 3e-6);
        y[i] = c;
    }
    memset(&m, 0, sizeof m);
    m.rows = NK;
    m.cols = 2;
    m.values = x;
    if (!(ctx = sized_context(gpusvm_context_backend(F.ctx)))) return;
    CHECK_OK(gpusvm_train(ctx, &m, y, NULL, &model));
    m.rows = NP;
    if (model) {
        peak_bytes = live_bytes;
        CHECK_OK(gpusvm_predict(ctx, model, &m, lab, dec));
        peak_predict = peak_bytes - live_bytes;
        peak_bytes = live_bytes;
        CHECK_OK(gpusvm_predictor_create(ctx, model, &pr));
        peak_create = peak_bytes;
    }
    for (i = 0; pr && i < NP; ++i) {
        double l1 = 0.0;
        CHECK_OK(gpusvm_predictor_predict(pr, x + 2 * i, 2, &l1, one));
        agree += l1 == y[i] && lab[i] == y[i];
        for (t = 0; t < (size_t)K * (K - 1) / 2; ++t) same += one[t] == dec[i * ((size_t)K * (K - 1) / 2) + t];
    }
    snprintf(msg, sizeof msg,
             "%s backend, 200 classes: gpusvm_predict and a predictor predict %lu of %d labels, the same decision "
             "values %lu of %lu, at most %.1f and %.1f MB held",
             F.name, (unsigned long)agree, NP, (unsigned long)same, (unsigned long)NP * (K * (K - 1) / 2),
             peak_predict / 1048576.0, peak_create / 1048576.0);
    CHECK(agree == NP && same == (size_t)NP * (K * (K - 1) / 2) && peak_predict < ((size_t)16 << 20) &&
              peak_create < ((size_t)16 << 20),
          msg);
    gpusvm_predictor_free(pr);
    gpusvm_model_free(model);
    gpusvm_context_destroy(ctx);
}

static void case_gamma_scale(void)
{
    gpusvm_params p;
    gpusvm_model *m3 = NULL;
    size_t i;
    {
        double s = 0, s2 = 0, var;
        for (i = 0; i < N * D; ++i) {
            s += F.x[i];
            s2 += (double)F.x[i] * F.x[i];
        }
        var = s2 / (N * D) - (s / (N * D)) * (s / (N * D));
        memset(&p, 0, sizeof p);
        p.gamma_mode = GPUSVM_GAMMA_SCALE;
        CHECK_OK(gpusvm_train(F.ctx, &F.dense, F.y, &p, &m3));
        CHECK(fabs(m3->gamma - 1.0 / (D * var)) < 1e-9 * m3->gamma, "gamma 'scale' resolves to 1/(d var(X))");
        gpusvm_model_free(m3);
        m3 = NULL;
    }
}

/* the model loader: a LIBSVM model file loads; broken ones are refused with file:line */
static void model_reader_checks(gpusvm_context *ctx)
{
    gpusvm_model *m = NULL;
    const char *path;
    char msg[4096];
    size_t t;
    path = write_file("m1.model", "svm_type c_svc\nkernel_type rbf\ngamma 0.5\nnr_class 2\ntotal_sv 2\nrho 0.1\n"
                                  "label 1 -1\nnr_sv 1 1\nSV\n1 1:1 2:0.5 \n-1 2:1 \n");
    CHECK_OK(gpusvm_model_load(ctx, path, &m));
    CHECK(m->total_sv == 2 && m->n_features == 2 && m->sv_coef[1] == -1 && m->rho[0] == 0.1 && m->gamma == 0.5,
          "a LIBSVM model file loads");
    gpusvm_model_free(m);
    m = NULL;
    {
        struct {
            const char *name, *text, *want;
        } badm[] = {
            {"m2.model", "svm_type c_svc\nkernel_type rbf\nfoo 1\n", ":3: unknown header key 'foo'"},
            {"m3.model", "svm_type c_svc\nkernel_type rbf\ngamma 0.5\nnr_class 2\ntotal_sv 2\nrho 0\nlabel 1 -1\nnr_sv 1 1\nSV\n1 1:1\n",
             ":11: the SV section has 1 lines, total_sv is 2"},
            {"m4.model", "svm_type c_svc\nkernel_type rbf\ngamma 0.5\nnr_class 2\ntotal_sv 3\nrho 0\nlabel 1 -1\nnr_sv 1 1\nSV\n",
             "nr_sv adds up to 2, total_sv is 3"},
            {"m5.model", "svm_type c_svc\nkernel_type rbf\ngamma 0.5\nnr_class 3\ntotal_sv 1\nrho 0 0 0\nlabel 1 2 3\nnr_sv 1 0 0\nSV\n1 1:1\n",
             ":10: expected 2 coefficients"},
            {"m6.model", "svm_type c_svx\n", ":1: unknown svm_type 'c_svx'"},
            {"m7.model", "svm_type c_svc\nkernel_type rbf\nnr_class 2\ntotal_sv 0\nlabel 1 -1\nnr_sv 0 0\nSV\n",
             "the header lacks rho"},
            {"m8.model", "svm_type c_svc\nkernel_type polynomial\ngamma 0.5\ncoef0 1\nnr_class 2\ntotal_sv 0\nrho 0\n"
                         "label 1 -1\nnr_sv 0 0\nSV\n",
             ":10: the header lacks degree, which its kernel_type uses"},
        };
        for (t = 0; t < sizeof badm / sizeof badm[0]; ++t) {
            gpusvm_result r;
            path = write_file(badm[t].name, badm[t].text);
            r = gpusvm_model_load(ctx, path, &m);
            snprintf(msg, sizeof msg, "model loader rejects %s (%s; got: %s)", badm[t].name, badm[t].want,
                     gpusvm_context_error(ctx));
            CHECK(r == GPUSVM_ERROR_PARSE && m == NULL && strstr(gpusvm_context_error(ctx), badm[t].want), msg);
        }
    }
}

static void reader_checks(void)
{
    gpusvm_context *ctx;
    gpusvm_context_desc desc;
    gpusvm_dataset *ds = NULL;
    const char *path;
    char msg[4096];
    size_t t;
    struct {
        const char *name, *text, *want;
    } bad[] = {
        {"label.txt", "1 1:0.5\nabc 2:1\n", ":2: label 'abc'"},
        {"colon.txt", "1 1:0.5 2 3:1\n", ":1: expected index:value"},
        {"zero.txt", "1 1:0.5 0:2\n", ":1: feature index 0"},
        {"order.txt", "1 1:1\n-1 3:1 2:1\n", ":2: feature index 2 after 3"},
        {"dup.txt", "1 2:1 2:1\n", ":1: feature index 2 after 2"},
        {"nan.txt", "1 1:1\n1 1:nan\n", ":2: value of feature 1 is not a finite"},
        {"big.txt", "1 4294967297:1\n", ":1: feature index 4294967297 is beyond"},
        {"value.txt", "1 1:1x\n", ":1: value '1x'"},
        {"empty.txt", "", ":1: no data"},
        {"blank.txt", "\n  \n", ":1: no data"},
    };
    memset(&desc, 0, sizeof desc);
    desc.backend = GPUSVM_BACKEND_CPU;
    desc.ignore_environment = 1;
    CHECK_OK(gpusvm_context_create(&desc, &ctx));
    for (t = 0; t < sizeof bad / sizeof bad[0]; ++t) {
        gpusvm_result r;
        path = write_file(bad[t].name, bad[t].text);
        r = gpusvm_dataset_load(ctx, path, &ds);
        snprintf(msg, sizeof msg, "reader rejects %s with file:line (%s; got: %s)", bad[t].name, bad[t].want,
                 gpusvm_context_error(ctx));
        CHECK(r == GPUSVM_ERROR_PARSE && ds == NULL && strstr(gpusvm_context_error(ctx), path) &&
                  strstr(gpusvm_context_error(ctx), bad[t].want),
              msg);
    }
    CHECK(IS_ERROR(ctx, gpusvm_dataset_load(ctx, "/nonexistent/file", &ds), GPUSVM_ERR_FILE_OPEN), "a missing file is an IO error");
    path = write_file("serial.txt", "1 0:3 1:0.5\n-1 2:1\n");
    CHECK(gpusvm_dataset_load(ctx, path, &ds) == GPUSVM_ERROR_PARSE && !ds &&
              gpusvm_context_error_id(ctx) == GPUSVM_ERR_DATA_INDEX0,
          "index 0 is refused by gpusvm_dataset_load (LIBSVM's indices start at 1)");
    {
        gpusvm_data_desc dd;
        memset(&dd, 0, sizeof dd);
        dd.path = path;
        dd.index0 = GPUSVM_INDEX0_SERIAL;
        dd.bytes = "1 1:1\n";
        dd.size = 6;
        CHECK(IS_ERROR(ctx, gpusvm_dataset_read(ctx, &dd, &ds), GPUSVM_ERR_DATA_DESC_FIELD) && !ds,
              "gpusvm_dataset_read given a path and bytes: refused, neither read");
        dd.bytes = NULL;
        dd.size = 0;
        CHECK_OK(gpusvm_dataset_read(ctx, &dd, &ds));
    }
    CHECK(ds->serial && ds->serial[0] == 3.0 &&
              ds->serial[1] == 0.0 && ds->x.cols == 2 && ds->row_ptr[1] == 1 && ds->col_idx[0] == 0,
          "index 0 first (a precomputed kernel's 0:serial) goes to dataset->serial, not into x");
    gpusvm_dataset_free(ds);
    ds = NULL;
    { /* a 2 MB line of 200000 features, and a 1000-character number */
        static char big[2600000];
        size_t at = 0, f;
        at += (size_t)sprintf(big + at, "+1");
        for (f = 1; f <= 200000; ++f) at += (size_t)sprintf(big + at, " %lu:0.%03lu", (unsigned long)f, (unsigned long)(f % 1000));
        at += (size_t)sprintf(big + at, "\n-1 7:0.5");
        for (f = 0; f < 997; ++f) big[at++] = '0';
        at += (size_t)sprintf(big + at, "\n");
        path = write_file("long.txt", big);
        CHECK_OK(gpusvm_dataset_load(ctx, path, &ds));
        CHECK(ds->x.rows == 2 && ds->x.cols == 200000 && ds->row_ptr[1] == 200000 && ds->values[199999] == 0.0f &&
                  ds->values[1] == 0.002f && ds->values[200000] == 0.5f && ds->col_idx[200000] == 6,
              "reader: a line of 200000 features and a 1000-character number");
        gpusvm_dataset_free(ds);
        ds = NULL;
        big[0] = '1';
        big[1] = ' ';
        big[2] = '1';
        big[3] = ':';
        for (f = 4; f < 1100; ++f) big[f] = '0';
        big[f] = 0;
        path = write_file("toolong.txt", big);
        CHECK(IS_ERROR(ctx, gpusvm_dataset_load(ctx, path, &ds), GPUSVM_ERR_DATA_SYNTAX) && strstr(gpusvm_context_error(ctx), ":1: value"),
              "reader: a number of more than 1023 characters is refused, with file:line");
        gpusvm_dataset_free(ds);
        ds = NULL;
    }
    /* LIBSVM's accepted forms: CRLF, blank lines, no final newline, tabs */
    path = write_file("ok.txt", "1 1:0.5 3:-2\r\n\r\n-1\t2:1e-3\n\n+1 1:1 2:2 3:3");
    CHECK_OK(gpusvm_dataset_load(ctx, path, &ds));
    CHECK(ds->x.rows == 3 && ds->x.cols == 3 && ds->row_ptr[3] == 6 && ds->y[1] == -1 && ds->col_idx[2] == 1 &&
              ds->values[2] == 1e-3f,
          "reader: CRLF, blank lines, tabs, a row with no features, no final newline");
    gpusvm_dataset_free(ds);

    model_reader_checks(ctx);
    gpusvm_context_destroy(ctx);
}

/* desc.device_memory_mb: training shrinks its working set to fit, or says what did not fit;
   prediction works in blocks within it, or says so. */
static void budget_checks(void)
{
    enum { N = 300, D = 6, NB = 4000 }; /* NB test points: enough work for the device */
    static float x[N * D], xb[NB * D];
    static double y[N], yb[NB], pred[NB];
    gpusvm_matrix mb;
    gpusvm_context_desc desc;
    gpusvm_context *ctx = NULL, *big = NULL;
    gpusvm_params p;
    gpusvm_matrix m;
    gpusvm_model *model = NULL, *m2 = NULL;
    gpusvm_result r;
    char msg[4096];
    blobs(x, y, N, D, 3u);
    blobs(xb, yb, NB, D, 5u);
    memset(&m, 0, sizeof m);
    m.rows = N;
    m.cols = D;
    m.values = x;
    mb = m;
    mb.rows = NB;
    mb.values = xb;
    memset(&desc, 0, sizeof desc);
    desc.backend = GPUSVM_BACKEND_OPENCL;
    desc.ignore_environment = 1;
    CHECK_OK(gpusvm_context_create(&desc, &big));
    CHECK_OK(gpusvm_train(big, &m, y, NULL, &model));
    desc.device_memory_mb = 0.05;
    CHECK_OK(gpusvm_context_create(&desc, &ctx));
    r = gpusvm_train(ctx, &m, y, NULL, &m2);
    snprintf(msg, sizeof msg, "a 50 KB device budget: training says what does not fit (%s)", gpusvm_context_error(ctx));
    CHECK(IS_ERROR(ctx, r, GPUSVM_ERR_DEVICE_MEMORY) && strstr(gpusvm_context_error(ctx), "device-memory budget") && !m2, msg);
    r = gpusvm_predict(ctx, model, &mb, pred, NULL);
    snprintf(msg, sizeof msg, "a 50 KB device budget: prediction of %d points with %lu support vectors runs in blocks (%s)",
             NB, (unsigned long)model->total_sv, gpusvm_result_string(r));
    CHECK(r == GPUSVM_OK, msg);
    gpusvm_context_destroy(ctx);
    desc.device_memory_mb = 0.005;
    CHECK_OK(gpusvm_context_create(&desc, &ctx));
    r = gpusvm_predict(ctx, model, &mb, pred, NULL);
    snprintf(msg, sizeof msg, "a 5 KB device budget: prediction says what does not fit (%s)", gpusvm_context_error(ctx));
    CHECK(IS_ERROR(ctx, r, GPUSVM_ERR_DEVICE_MEMORY) && strstr(gpusvm_context_error(ctx), "budget"), msg);
    m.rows = 1;
    r = gpusvm_predict(ctx, model, &m, pred, NULL);
    CHECK(r == GPUSVM_OK && (pred[0] == 1 || pred[0] == -1),
          "a 5 KB device budget: one point is predicted on the host, with no device memory");
    m.rows = N;
    gpusvm_context_destroy(ctx);
    desc.device_memory_mb = 0.2;
    CHECK_OK(gpusvm_context_create(&desc, &ctx));
    memset(&p, 0, sizeof p);
    p.working_set_size = 256;
    r = gpusvm_train(ctx, &m, y, &p, &m2);
    snprintf(msg, sizeof msg, "a 200 KB budget: the working set shrinks to fit (asked 256, used %d; %s)",
             m2 ? m2->info.working_set_size : -1, gpusvm_result_string(r));
    CHECK(r == GPUSVM_OK && m2->info.working_set_size < 256 && m2->info.working_set_size >= 64 &&
              fabs(m2->info.obj - model->info.obj) <= 1e-3 * fabs(model->info.obj),
          msg);
    CHECK(gpusvm_predict(ctx, model, &m, pred, NULL) == GPUSVM_OK, "a 200 KB budget: prediction runs in blocks");
    gpusvm_model_free(m2);
    gpusvm_model_free(model);
    gpusvm_context_destroy(ctx);
    gpusvm_context_destroy(big);
}

static char data_path_log[256];
static void path_log(void *user, gpusvm_log_level level, const char *msg)
{
    (void)user;
    (void)level;
    if (strncmp(msg, "data: ", 6) == 0) snprintf(data_path_log, sizeof data_path_log, "%s", msg);
}

/* The points reach the device as CSR arrays scattered there, or, where the budget leaves no room
   for those, as a dense copy built on the host: the same model either way. */
static void upload_checks(void)
{
    enum { N = 2000, D = 64 };
    static float x[N * D];
    static double y[N], d1[N], d2[N];
    gpusvm_context_desc desc;
    gpusvm_context *c1 = NULL, *c2 = NULL;
    gpusvm_params p;
    gpusvm_matrix m;
    gpusvm_model *m1 = NULL, *m2 = NULL;
    char msg[512];
    int same = 1;
    size_t i;
    blobs(x, y, N, D, 9u);
    memset(&m, 0, sizeof m);
    m.rows = N;
    m.cols = D;
    m.values = x;
    memset(&p, 0, sizeof p);
    p.working_set_size = 64;
    memset(&desc, 0, sizeof desc);
    desc.backend = GPUSVM_BACKEND_OPENCL;
    desc.ignore_environment = 1;
    desc.logger.fn = path_log;
    CHECK_OK(gpusvm_context_create(&desc, &c1));
    data_path_log[0] = 0;
    CHECK_OK(gpusvm_train(c1, &m, y, &p, &m1));
    snprintf(msg, sizeof msg, "upload: the nonzeros are scattered on the device (%s)", data_path_log);
    CHECK(strstr(data_path_log, "scattered") != NULL, msg);
    desc.device_memory_mb = 1.3; /* the dense data (0.5 MB) and the solver fit, the CSR arrays (1 MB) no more */
    CHECK_OK(gpusvm_context_create(&desc, &c2));
    data_path_log[0] = 0;
    CHECK_OK(gpusvm_train(c2, &m, y, &p, &m2));
    snprintf(msg, sizeof msg, "upload: a tight budget builds the dense copy on the host (%s)", data_path_log);
    CHECK(strstr(data_path_log, "host") != NULL, msg);
    CHECK_OK(gpusvm_predict(c1, m1, &m, NULL, d1));
    CHECK_OK(gpusvm_predict(c1, m2, &m, NULL, d2));
    for (i = 0; i < N; ++i) same &= d1[i] == d2[i];
    CHECK(same && m1->info.iterations == m2->info.iterations, "upload: both ways train the same model");
    gpusvm_model_free(m1);
    gpusvm_model_free(m2);
    gpusvm_context_destroy(c2);
    gpusvm_context_destroy(c1);
}

/* How the device keeps the points: auto picks sparse for sparse wide data and dense for dense data;
   either can be forced (desc.storage); both give the same predictions; a bad value is refused. */
static char storage_log[256];
static void storage_logger(void *user, gpusvm_log_level level, const char *msg)
{
    (void)user;
    (void)level;
    if (strncmp(msg, "data: sparse on", 15) == 0 || strncmp(msg, "data: dense on", 14) == 0)
        snprintf(storage_log, sizeof storage_log, "%s", msg);
}

static const char *storage_of(gpusvm_storage st, const gpusvm_matrix *m, const double *y, double *dec)
{
    gpusvm_context_desc desc;
    gpusvm_context *c = NULL;
    gpusvm_params p;
    gpusvm_model *model = NULL;
    memset(&desc, 0, sizeof desc);
    desc.backend = GPUSVM_BACKEND_OPENCL;
    desc.ignore_environment = 1;
    desc.logger.fn = storage_logger;
    desc.storage = st;
    memset(&p, 0, sizeof p);
    p.gamma = 0.5;
    CHECK_OK(gpusvm_context_create(&desc, &c));
    storage_log[0] = 0;
    CHECK_OK(gpusvm_train(c, m, y, &p, &model));
    if (dec) CHECK_OK(gpusvm_predict(c, model, m, NULL, dec));
    gpusvm_model_free(model);
    gpusvm_context_destroy(c);
    return strstr(storage_log, "data: sparse") ? "sparse" : strstr(storage_log, "data: dense") ? "dense" : "?";
}

static void storage_checks(void)
{
    enum { N = 600, D = 20000, NZ = 20, ND = 12 };
    static size_t rp[N + 1];
    static int32_t col[N * NZ];
    static float val[N * NZ], dense[N * ND];
    static double y[N], d1[N], d2[N];
    gpusvm_context_desc desc;
    gpusvm_context *c = NULL;
    gpusvm_matrix sm, dm;
    size_t i, k, bad = 0;
    char msg[512];
    for (i = 0; i < N; ++i) { /* a class feature (0 or 1) and NZ - 1 spread ones */
        y[i] = i % 2 ? 1.0 : -1.0;
        rp[i] = i * NZ;
        col[i * NZ] = (int32_t)(i % 2);
        val[i * NZ] = 1.0f;
        for (k = 1; k < NZ; ++k) {
            col[i * NZ + k] = (int32_t)(k * 997 + (i * 7919 + k * 31) % 997);
            val[i * NZ + k] = (float)((i * 13 + k * 7) % 10) / 10.0f + 0.05f;
        }
    }
    rp[N] = N * NZ;
    memset(&sm, 0, sizeof sm);
    sm.rows = N;
    sm.cols = D;
    sm.layout = GPUSVM_LAYOUT_CSR;
    sm.row_ptr = rp;
    sm.col_idx = col;
    sm.values = val;
    blobs(dense, y, N, ND, 5u);
    memset(&dm, 0, sizeof dm);
    dm.rows = N;
    dm.cols = ND;
    dm.values = dense;
    CHECK(strcmp(storage_of(GPUSVM_STORAGE_AUTO, &sm, y, d1), "sparse") == 0,
          "storage: auto keeps 600 points of 20000 features, 20 nonzeros each, sparse");
    CHECK(strcmp(storage_of(GPUSVM_STORAGE_DENSE, &sm, y, d2), "dense") == 0, "storage: dense when asked");
    for (i = 0; i < N; ++i) bad += fabs(d1[i] - d2[i]) > 1e-4 * (1.0 + fabs(d1[i]));
    snprintf(msg, sizeof msg, "storage: sparse and dense give the same decision values (%lu differ)", (unsigned long)bad);
    CHECK(bad == 0, msg);
    CHECK(strcmp(storage_of(GPUSVM_STORAGE_AUTO, &dm, y, d1), "dense") == 0, "storage: auto keeps dense data dense");
    CHECK(strcmp(storage_of(GPUSVM_STORAGE_SPARSE, &dm, y, d2), "sparse") == 0, "storage: sparse when asked");
    for (i = 0, bad = 0; i < N; ++i) bad += fabs(d1[i] - d2[i]) > 1e-4 * (1.0 + fabs(d1[i]));
    snprintf(msg, sizeof msg, "storage: dense data kept sparse gives the same decision values (%lu differ)",
             (unsigned long)bad);
    CHECK(bad == 0, msg);
    memset(&desc, 0, sizeof desc);
    desc.storage = (gpusvm_storage)3; /* in the enum's range (C++), not one of its values */
    desc.ignore_environment = 1;
    CHECK(gpusvm_context_create(&desc, &c) == GPUSVM_ERROR_INVALID_ARGUMENT && !c, "storage: desc.storage 3 is refused");
}

/* desc.fp64: float pairs (OFF, the path of devices without double precision) train the models
   double trains on the same device (the same support vectors, decision values of the same sign
   within the stopping tolerance, 1e-3: their choices of i and j compare floats, so a near tie can
   take another path to the optimum; the kernel tests hold each kernel to the C backend) and say
   so in the device name; a value outside the enum is refused. */
static void fp64_checks(void)
{
    enum { N = 500, D = 10 };
    static float x[N * D];
    static double y[N], dc[N], dp[N];
    const gpusvm_svm_type types[3] = {GPUSVM_C_SVC, GPUSVM_NU_SVC, GPUSVM_EPSILON_SVR};
    gpusvm_context_desc desc;
    gpusvm_context *ref = NULL, *ocl = NULL;
    gpusvm_matrix m = blob_matrix(x, y, N, D, 11u);
    gpusvm_params p;
    int t;
    char msg[512];
    memset(&desc, 0, sizeof desc);
    desc.ignore_environment = 1;
#ifndef __cplusplus /* C++ has no value in the enum's range that is not one of its values */
    desc.fp64 = (gpusvm_fp64)4;
    CHECK(gpusvm_context_create(&desc, &ocl) == GPUSVM_ERROR_INVALID_ARGUMENT && !ocl, "fp64: desc.fp64 4 is refused");
#endif
    desc.fp64 = GPUSVM_FP64_AUTO;
    desc.backend = GPUSVM_BACKEND_OPENCL;
    CHECK_OK(gpusvm_context_create(&desc, &ref));
    desc.fp64 = GPUSVM_FP64_OFF;
    CHECK_OK(gpusvm_context_create(&desc, &ocl));
    snprintf(msg, sizeof msg, "fp64: the device name says float pairs (%s)", gpusvm_context_device_name(ocl));
    CHECK(strstr(gpusvm_context_device_name(ocl), "fp64 off: float pairs") != NULL, msg);
    for (t = 0; t < 3; ++t) {
        gpusvm_model *mc = NULL, *mp = NULL;
        size_t i, far = 0;
        memset(&p, 0, sizeof p);
        p.svm_type = types[t];
        p.gamma = 0.2;
        p.nu = 0.3;
        CHECK_OK(gpusvm_train(ref, &m, y, &p, &mc));
        CHECK_OK(gpusvm_train(ocl, &m, y, &p, &mp));
        CHECK_OK(gpusvm_predict(ref, mc, &m, NULL, dc));
        CHECK_OK(gpusvm_predict(ocl, mp, &m, NULL, dp));
        for (i = 0; i < N; ++i) far += fabs(dc[i] - dp[i]) > 1e-3 * (1.0 + fabs(dc[i])) || (dc[i] > 0) != (dp[i] > 0);
        snprintf(msg, sizeof msg,
                 "fp64: float pairs give double's model (svm type %d: %lu of %d decision values differ, nSV %lu "
                 "and %lu)",
                 (int)types[t], (unsigned long)far, N, mc ? (unsigned long)mc->total_sv : 0UL,
                 mp ? (unsigned long)mp->total_sv : 0UL);
        CHECK(mc && mp && far == 0 && mc->total_sv == mp->total_sv, msg);
        gpusvm_model_free(mc);
        gpusvm_model_free(mp);
    }
    gpusvm_context_destroy(ocl);
    gpusvm_context_destroy(ref);
}

/* The kernel cache: the first context compiles and writes it, the second loads it and trains the
   same model; a damaged file is rejected (compiled again and rewritten). */
static void cache_checks(void)
{
    enum { N = 200, D = 5 };
    static float x[N * D];
    static double y[N], p1[N], p2[N];
    char dir[512], path[1024], msg[512], cmd[600];
    gpusvm_context_desc desc;
    gpusvm_context *c1 = NULL, *c2 = NULL, *c3 = NULL;
    gpusvm_matrix m;
    gpusvm_model *m1 = NULL, *m2 = NULL;
    int cached1 = -1, cached2 = -1, cached3 = -1, same = 1, files = 0, tmps = 0, loaded = 0;
    const char *at;
    double s1, s2;
    size_t i;
    FILE *f;
    struct dirent *e;
    DIR *dd;
    blobs(x, y, N, D, 5u);
    memset(&m, 0, sizeof m);
    m.rows = N;
    m.cols = D;
    m.values = x;
    snprintf(dir, sizeof dir, "%s/kernel-cache/sub", tmpdir);
    snprintf(cmd, sizeof cmd, "rm -rf '%s/kernel-cache'", tmpdir);
    CHECK(system(cmd) == 0, "kernel cache: starts without the folder");
    memset(&desc, 0, sizeof desc);
    desc.backend = GPUSVM_BACKEND_OPENCL;
    desc.ignore_environment = 1;
    desc.kernel_cache_dir = dir;
    CHECK_OK(gpusvm_context_create(&desc, &c1));
    s1 = gpusvm_context_build_seconds(c1, &cached1);
    CHECK_OK(gpusvm_context_create(&desc, &c2));
    s2 = gpusvm_context_build_seconds(c2, &cached2);
    snprintf(msg, sizeof msg, "kernel cache: the first context compiles (%.3f s), the second loads it (%.3f s)", s1, s2);
    CHECK(cached1 == 0 && cached2 == 1 && s1 > 0.0 && s2 > 0.0 && strstr(gpusvm_context_build_log(c2), "kernel cache"),
          msg);
    for (at = gpusvm_context_build_log(c2); (at = strstr(at, "from the kernel cache: ")) != NULL; ++at) ++loaded;
    CHECK_OK(gpusvm_train(c1, &m, y, NULL, &m1));
    CHECK_OK(gpusvm_train(c2, &m, y, NULL, &m2));
    CHECK_OK(gpusvm_predict(c1, m1, &m, NULL, p1));
    CHECK_OK(gpusvm_predict(c2, m2, &m, NULL, p2));
    for (i = 0; i < N; ++i) same &= p1[i] == p2[i];
    CHECK(same && m1->info.iterations == m2->info.iterations && m1->total_sv == m2->total_sv,
          "kernel cache: the cached program trains the same model as the compiled one");
    dd = opendir(dir); /* a file a program: one, or one a kernel built (GPUSVM_PROGRAMS) */
    while (dd && (e = readdir(dd)) != NULL)
        if (e->d_name[0] != '.') {
            ++files;
            tmps += strstr(e->d_name, ".tmp") != NULL;
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            if ((f = fopen(path, "r+b")) != NULL) { /* damage the binary's last byte */
                fseek(f, -1, SEEK_END);
                fputc(0x5a ^ fgetc(f), f);
                fclose(f);
            }
        }
    if (dd) closedir(dd);
    CHECK(loaded >= 1 && files >= loaded && tmps == 0, "kernel cache: a file a program, no temporary left behind");
    CHECK_OK(gpusvm_context_create(&desc, &c3));
    gpusvm_context_build_seconds(c3, &cached3);
    CHECK(cached3 == 0, "kernel cache: a damaged file is not loaded (compiled instead)");
    gpusvm_context_destroy(c3);
    CHECK_OK(gpusvm_context_create(&desc, &c3));
    gpusvm_context_build_seconds(c3, &cached3);
    CHECK(cached3 == 1, "kernel cache: and rewritten, so the next context loads it");
    gpusvm_model_free(m1);
    gpusvm_model_free(m2);
    gpusvm_context_destroy(c3);
    gpusvm_context_destroy(c2);
    gpusvm_context_destroy(c1);
}

/* Data larger than the device (desc.device_memory_mb below what the points need): the points
   stream through the device in tiles, and the model is the resident one, byte for byte, with its
   working-set size; C-SVC, epsilon-SVR (two variables a point), three classes (each pair's points
   through the map) and cross-validation's folds. */
static char stream_log[512];
static void stream_logger(void *user, gpusvm_log_level level, const char *msg)
{
    (void)user;
    (void)level;
    if (strstr(msg, "streamed through the device")) snprintf(stream_log, sizeof stream_log, "%s", msg);
}

static void stream_case(gpusvm_context *big, gpusvm_context *small, const gpusvm_matrix *m, const double *y,
                        const gpusvm_params *p, const char *what)
{
    gpusvm_model *m1 = NULL, *m2 = NULL;
    char *t1 = NULL, *t2 = NULL, msg[1024];
    size_t s1 = 0, s2 = 0;
    stream_log[0] = 0;
    CHECK_OK(gpusvm_train(big, m, y, p, &m1));
    CHECK(!stream_log[0], "streaming: the resident run keeps its points on the device");
    CHECK_OK(gpusvm_train(small, m, y, p, &m2));
    snprintf(msg, sizeof msg, "streaming, %s: the points streamed (%s)", what, stream_log[0] ? stream_log : "not said");
    CHECK(stream_log[0] != 0, msg);
    if (m1 && m2) {
        CHECK_OK(gpusvm_model_save_buffer(big, m1, &t1, &s1));
        CHECK_OK(gpusvm_model_save_buffer(small, m2, &t2, &s2));
        snprintf(msg, sizeof msg, "streaming, %s: the resident model, byte for byte (%lu and %lu bytes, %d and %d iterations)",
                 what, (unsigned long)s1, (unsigned long)s2, (int)m1->info.iterations, (int)m2->info.iterations);
        CHECK(t1 && t2 && s1 == s2 && memcmp(t1, t2, s1) == 0 && m1->info.obj == m2->info.obj && m1->info.working_set_size == m2->info.working_set_size, msg);
    }
    gpusvm_free(big, t1);
    gpusvm_free(small, t2);
    gpusvm_model_free(m1);
    gpusvm_model_free(m2);
}

static void stream_checks(void)
{
    enum { N = 6000, D = 64 };
    static float x[N * D];
    static double y[N], yr[N], y3[N], cv1[N], cv2[N];
    gpusvm_context_desc desc;
    gpusvm_context *big = NULL, *small = NULL;
    gpusvm_params p;
    gpusvm_matrix m;
    size_t i, differ = 0;
    char msg[512];
    blobs(x, y, N, D, 11u);
    for (i = 0; i < N; ++i) {
        yr[i] = 0.5 * x[i * D] - x[i * D + 1] + 0.25 * x[i * D + 2];
        y3[i] = (double)(i % 3);
    }
    memset(&m, 0, sizeof m);
    m.rows = N;
    m.cols = D;
    m.values = x;
    memset(&desc, 0, sizeof desc);
    desc.backend = GPUSVM_BACKEND_OPENCL;
    desc.ignore_environment = 1;
    desc.logger.fn = stream_logger;
    CHECK_OK(gpusvm_context_create(&desc, &big));
    desc.device_memory_mb = 2.5; /* the points need 1.5 MB, with 64 rows of 6000 more than 3 MB */
    CHECK_OK(gpusvm_context_create(&desc, &small));
    memset(&p, 0, sizeof p);
    p.working_set_size = 256;
    p.gamma = 0.05;
    stream_case(big, small, &m, y, &p, "C-SVC");
    p.svm_type = GPUSVM_EPSILON_SVR;
    p.p = 0.05;
    stream_case(big, small, &m, yr, &p, "epsilon-SVR");
    p.svm_type = GPUSVM_C_SVC;
    p.kernel_type = GPUSVM_KERNEL_POLY;
    p.degree = 2;
    p.C = 0.01;
    stream_case(big, small, &m, y3, &p, "3 classes, polynomial");
    p.kernel_type = GPUSVM_KERNEL_RBF;
    p.C = 1.0;
    CHECK_OK(gpusvm_cross_validation(big, &m, y, &p, 3, cv1));
    stream_log[0] = 0;
    CHECK_OK(gpusvm_cross_validation(small, &m, y, &p, 3, cv2));
    for (i = 0; i < N; ++i) differ += cv1[i] != cv2[i];
    snprintf(msg, sizeof msg, "streaming, 3-fold cross-validation: the folds streamed (%s), the same predictions (%lu differ)",
             stream_log[0] ? "said" : "not said", (unsigned long)differ);
    CHECK(stream_log[0] && differ == 0, msg);
    gpusvm_context_destroy(small);
    gpusvm_context_destroy(big);
}

/* Models and data in memory: the buffer functions give what the file functions give, byte for
   byte, and their errors name the buffer. */
/* gpusvm_model_to_c: the header's text for a trained model; every hostile argument an error from
   the list (the outputs cleared), never text with a value C cannot spell. */
static void case_export(void)
{
    char *text = (char *)"x", longname[80];
    size_t size = 1;
    gpusvm_model *m = NULL;
    CHECK_OK(gpusvm_model_to_c(F.ctx, F.m1, "F", 0, &text, &size));
    CHECK(text && size == strlen(text) && strstr(text, "F_predict(const float *x)") && strstr(text, "#endif /* F_MODEL_H */"),
          "export: the header's text, NUL-terminated, with its predictor");
    gpusvm_free(F.ctx, text);
    CHECK_OK(gpusvm_model_to_c(F.ctx, F.m1, "Fd", 1, &text, &size));
    CHECK(text && strstr(text, "Fd_predict(const double *x)") != NULL, "export: -d gives double arithmetic");
    gpusvm_free(F.ctx, text);
    CHECK(gpusvm_model_to_c(NULL, F.m1, "F", 0, &text, &size) == GPUSVM_ERROR_INVALID_ARGUMENT, "export: no context");
    CHECK(IS_ERROR(F.ctx, gpusvm_model_to_c(F.ctx, NULL, "F", 0, &text, &size), GPUSVM_ERR_NULL_ARGUMENT) && !text &&
              !size, "export: no model is refused, the outputs cleared");
    CHECK(IS_ERROR(F.ctx, gpusvm_model_to_c(F.ctx, F.m1, NULL, 0, &text, &size), GPUSVM_ERR_NULL_ARGUMENT) &&
              IS_ERROR(F.ctx, gpusvm_model_to_c(F.ctx, F.m1, "F", 0, NULL, &size), GPUSVM_ERR_NULL_ARGUMENT) &&
              IS_ERROR(F.ctx, gpusvm_model_to_c(F.ctx, F.m1, "F", 0, &text, NULL), GPUSVM_ERR_NULL_ARGUMENT),
          "export: no name, text or size is refused");
    memset(longname, 'a', 65);
    longname[65] = 0;
    CHECK(IS_ERROR(F.ctx, gpusvm_model_to_c(F.ctx, F.m1, "", 0, &text, &size), GPUSVM_ERR_EXPORT) &&
              IS_ERROR(F.ctx, gpusvm_model_to_c(F.ctx, F.m1, "9lives", 0, &text, &size), GPUSVM_ERR_EXPORT) &&
              IS_ERROR(F.ctx, gpusvm_model_to_c(F.ctx, F.m1, "a-b", 0, &text, &size), GPUSVM_ERR_EXPORT) &&
              IS_ERROR(F.ctx, gpusvm_model_to_c(F.ctx, F.m1, longname, 0, &text, &size), GPUSVM_ERR_EXPORT),
          "export: an empty name, one starting with a digit, one with a '-', one of 65 characters are refused");
    CHECK_OK(gpusvm_model_copy(F.ctx, F.m1, &m));
    m->rho[0] = INFINITY; /* LIBSVM's files may say inf; C has no literal for it */
    CHECK(IS_ERROR(F.ctx, gpusvm_model_to_c(F.ctx, m, "F", 0, &text, &size), GPUSVM_ERR_EXPORT) && !text &&
              IS_ERROR(F.ctx, gpusvm_model_to_c(F.ctx, m, "F", 1, &text, &size), GPUSVM_ERR_EXPORT),
          "export: an infinite rho is refused, in float and in double");
    m->rho[0] = 1e300; /* finite in double, not in float */
    CHECK(IS_ERROR(F.ctx, gpusvm_model_to_c(F.ctx, m, "F", 0, &text, &size), GPUSVM_ERR_EXPORT),
          "export: a value past float's range is refused in float");
    CHECK_OK(gpusvm_model_to_c(F.ctx, m, "F", 1, &text, &size));
    gpusvm_free(F.ctx, text);
    m->sv_coef[0] = NAN;
    CHECK(IS_ERROR(F.ctx, gpusvm_model_to_c(F.ctx, m, "F", 1, &text, &size), GPUSVM_ERR_MODEL_INVALID),
          "export: a NaN coefficient is an invalid model");
    gpusvm_model_free(m);
}

static void case_buffers(void)
{
    char path[512], *text = NULL, *file = NULL, msg[512];
    size_t size = 0, flen = 0, i;
    gpusvm_model *m2 = NULL;
    gpusvm_dataset *d1 = NULL, *d2 = NULL;
    static double p1[N], p2[N];
    FILE *f;
    const char data[] = "1 1:0.5 3:-1\n-1 2:0.25\n\n1 1:1e-3 2:2 3:4\n";
    const char bad[] = "1 1:0.5\n-1 2:x\n";
    snprintf(path, sizeof path, "%s/buffers.model", tmpdir);
    CHECK_OK(gpusvm_model_save(F.ctx, F.m1, path));
    CHECK_OK(gpusvm_model_save_buffer(F.ctx, F.m1, &text, &size));
    f = fopen(path, "rb");
    if (f) {
        file = (char *)malloc(size + 1);
        flen = file ? fread(file, 1, size + 1, f) : 0;
        fclose(f);
    }
    CHECK(file && flen == size && memcmp(file, text, size) == 0 && text[size] == 0,
          "gpusvm_model_save_buffer gives the model file's bytes, NUL-terminated");
    CHECK_OK(gpusvm_model_load_buffer(F.ctx, text, size, &m2));
    CHECK_OK(gpusvm_predict(F.ctx, F.m1, &F.dense, p1, NULL));
    CHECK_OK(gpusvm_predict(F.ctx, m2, &F.dense, p2, NULL));
    for (i = 0; i < N && p1[i] == p2[i]; ++i) {
    }
    CHECK(i == N && m2->total_sv == F.m1->total_sv && m2->rho[0] == F.m1->rho[0],
          "a model loaded from its buffer predicts as the original");
    gpusvm_model_free(m2);
    m2 = NULL;
    CHECK(gpusvm_model_load_buffer(F.ctx, text, 20, &m2) == GPUSVM_ERROR_PARSE && !m2 &&
              strncmp(gpusvm_context_error(F.ctx), "model buffer:", 13) == 0,
          "a cut model buffer is a parse error naming \"model buffer:line\"");
    gpusvm_free(F.ctx, text);
    free(file);
    CHECK_OK(gpusvm_dataset_load(F.ctx, write_file("buffers.txt", data), &d1));
    CHECK_OK(gpusvm_dataset_parse(F.ctx, data, sizeof data - 1, NULL, &d2));
    CHECK(d1->x.rows == 3 && d2->x.rows == 3 && d1->x.cols == d2->x.cols &&
              memcmp(d1->row_ptr, d2->row_ptr, 4 * sizeof(size_t)) == 0 &&
              memcmp(d1->col_idx, d2->col_idx, d1->row_ptr[3] * sizeof(int32_t)) == 0 &&
              memcmp(d1->values, d2->values, d1->row_ptr[3] * sizeof(float)) == 0 &&
              memcmp(d1->y, d2->y, 3 * sizeof(double)) == 0,
          "gpusvm_dataset_parse reads what gpusvm_dataset_load reads from the same bytes");
    gpusvm_dataset_free(d1);
    gpusvm_dataset_free(d2);
    d2 = NULL;
    CHECK(gpusvm_dataset_parse(F.ctx, bad, sizeof bad - 1, "asset.txt", &d2) == GPUSVM_ERROR_PARSE && !d2,
          "a malformed data buffer is a parse error");
    snprintf(msg, sizeof msg, "a data buffer's error names it and the line (%.200s)", gpusvm_context_error(F.ctx));
    CHECK(strncmp(gpusvm_context_error(F.ctx), "asset.txt:2:", 12) == 0, msg);
}

/* 4 threads reading text of n bytes (one and many: contexts of 1 and 4 threads): an error late in
   the text, and an index 0 before it, with the lines counted across the parts */
static void parallel_reader_lines(gpusvm_context *one, gpusvm_context *many, char *text, size_t n)
{
    char *bad = strstr(text + n - n / 5, "\n") + 1, *zero = strstr(text + n / 2, "\n") + 1;
    size_t bad_line = 1, zero_line = 1, line = 1, row = 0;
    int lines_ok = 1;
    const char *c, *at = text;
    gpusvm_dataset *d1 = NULL, *d2 = NULL;
    gpusvm_data_desc dd;
    char kept[4], msg[512];
    for (c = text; c < bad; ++c) bad_line += *c == '\n';
    for (c = text; c < zero; ++c) zero_line += *c == '\n';
    memcpy(kept, zero + 2, 4);
    memcpy(zero + 2, " 0:1", 4); /* after the label: "-1 0:1..." or " 1 0:1" */
    memset(&dd, 0, sizeof dd);
    dd.bytes = text;
    dd.size = n;
    dd.name = "big.txt";
    dd.index0 = GPUSVM_INDEX0_SERIAL;
    CHECK_OK(gpusvm_dataset_read(many, &dd, &d2));
    snprintf(msg, sizeof msg, "4 threads: the first index 0 is on line %lu (said %lu)", (unsigned long)zero_line,
             (unsigned long)d2->index0_line);
    CHECK(d2->index0_line == zero_line, msg);
    for (c = text; c < text + n; ++c) /* each row's line, as the text counts it (blank lines skipped) */
        if (*c == '\n') {
            if (c > at && at[0] != '\n' && at[0] != '\r') lines_ok &= row < d2->x.rows && d2->line[row++] == line;
            ++line;
            at = c + 1;
        }
    CHECK(lines_ok && row == d2->x.rows, "4 threads: each row's line, counted across the parts");
    gpusvm_dataset_free(d2);
    d2 = NULL;
    CHECK(gpusvm_dataset_parse(many, text, n, "big.txt", &d2) == GPUSVM_ERROR_PARSE && !d2 &&
              gpusvm_context_error_id(many) == GPUSVM_ERR_DATA_INDEX0,
          "4 threads: an index 0 is refused by default");
    snprintf(msg, sizeof msg, "big.txt:%lu: feature index 0", (unsigned long)zero_line);
    CHECK(strncmp(gpusvm_context_error(many), msg, strlen(msg)) == 0, "4 threads: the refusal names its line");
    memcpy(zero + 2, kept, 4);
    bad[0] = 'x';
    CHECK(gpusvm_dataset_parse(many, text, n, "big.txt", &d2) == GPUSVM_ERROR_PARSE && !d2, "4 threads: a bad label is refused");
    snprintf(msg, sizeof msg, "big.txt:%lu: label 'x", (unsigned long)bad_line);
    CHECK(strncmp(gpusvm_context_error(many), msg, strlen(msg)) == 0, "4 threads: the error names the line the whole file counts");
    CHECK(gpusvm_dataset_parse(one, text, n, "big.txt", &d1) == GPUSVM_ERROR_PARSE &&
              strcmp(gpusvm_context_error(one), gpusvm_context_error(many)) == 0,
          "1 and 4 threads report the same error");
}

/* A data file of several MiB is read by several threads: the same dataset as one thread reads,
   and its first error and first index 0 on the right line whichever part they fall in. */
static void parallel_reader_checks(void)
{
    enum { ROWS = 60000 };
    gpusvm_context_desc desc;
    gpusvm_context *one = NULL, *many = NULL;
    gpusvm_dataset *d1 = NULL, *d2 = NULL;
    size_t cap = (size_t)ROWS * 200, n = 0, i, nnz;
    char *text = (char *)malloc(cap), msg[512];
    unsigned seed = 5u;
    int j, same;
    if (!text) return;
    for (i = 0; i < ROWS; ++i) { /* about 120 bytes a row: 7 MiB */
        n += (size_t)snprintf(text + n, cap - n, "%d", (i % 3) ? 1 : -1);
        for (j = 1; j <= 12; ++j) {
            seed = seed * 1103515245u + 12345u;
            if ((seed >> 16) % 3 == 0) continue;
            n += (size_t)snprintf(text + n, cap - n, " %d:%.6g", j, ((seed >> 8) % 100000) / 7919.0 - 3.0);
        }
        n += (size_t)snprintf(text + n, cap - n, (i % 1000 == 7) ? "\r\n" : (i % 997 == 3) ? "\n\n" : "\n");
    }
    memset(&desc, 0, sizeof desc);
    desc.backend = GPUSVM_BACKEND_CPU;
    desc.ignore_environment = 1;
    desc.threads = 1;
    CHECK_OK(gpusvm_context_create(&desc, &one));
    desc.threads = 4;
    CHECK_OK(gpusvm_context_create(&desc, &many));
    CHECK_OK(gpusvm_dataset_parse(one, text, n, "big.txt", &d1));
    CHECK_OK(gpusvm_dataset_parse(many, text, n, "big.txt", &d2));
    nnz = d1->row_ptr[d1->x.rows];
    same = d1->x.rows == ROWS && d2->x.rows == ROWS && d1->x.cols == d2->x.cols && d2->row_ptr[ROWS] == nnz &&
           memcmp(d1->row_ptr, d2->row_ptr, (ROWS + 1) * sizeof(size_t)) == 0 &&
           memcmp(d1->col_idx, d2->col_idx, nnz * sizeof(int32_t)) == 0 &&
           memcmp(d1->values, d2->values, nnz * sizeof(float)) == 0 && memcmp(d1->y, d2->y, ROWS * sizeof(double)) == 0;
    snprintf(msg, sizeof msg, "4 threads read %lu bytes into the dataset 1 thread reads (%lu rows, %lu entries)",
             (unsigned long)n, (unsigned long)d2->x.rows, (unsigned long)nnz);
    CHECK(same, msg);
    gpusvm_dataset_free(d2);
    d2 = NULL;
    { /* the same bytes as a file, read by 4 threads at once (each its own range) */
        char path[512];
        FILE *f;
        snprintf(path, sizeof path, "%s/big.txt", tmpdir);
        f = fopen(path, "wb");
        if (f) {
            fwrite(text, 1, n, f);
            fclose(f);
        }
        CHECK_OK(gpusvm_dataset_load(many, path, &d2));
        CHECK(d2->x.rows == ROWS && d2->row_ptr[ROWS] == nnz && memcmp(d1->col_idx, d2->col_idx, nnz * sizeof(int32_t)) == 0 &&
                  memcmp(d1->values, d2->values, nnz * sizeof(float)) == 0 && memcmp(d1->y, d2->y, ROWS * sizeof(double)) == 0,
              "a 7 MB file read by 4 threads at once gives the dataset of its bytes");
        remove(path);
    }
    gpusvm_dataset_free(d1);
    gpusvm_dataset_free(d2);
    d1 = d2 = NULL;
    parallel_reader_lines(one, many, text, n);
    gpusvm_context_destroy(one);
    gpusvm_context_destroy(many);
    free(text);
}

/* A context's creation: the reason for a failure reaches desc.error without a context or a logger;
   what the environment asks (run as `GPUSVM_BACKEND=gpu GPUSVM_DEVICE=no-such-device test_api
   environment`) never breaks a program that did not ask for it: a warning and auto, the C backend
   where the device is not there. */
static char env_log[1024];
static void env_logger(void *user, gpusvm_log_level level, const char *msg)
{
    (void)user;
    if (level <= GPUSVM_LOG_WARN && strlen(env_log) + strlen(msg) + 2 < sizeof env_log) {
        strcat(env_log, msg);
        strcat(env_log, "\n");
    }
}

static void environment_checks(void)
{
    gpusvm_context_desc desc;
    gpusvm_context *ctx = NULL;
    char why[512], msg[1400];
    const char *be = getenv("GPUSVM_BACKEND"), *dev = getenv("GPUSVM_DEVICE");
    gpusvm_result r;
    memset(&desc, 0, sizeof desc);
    desc.backend = GPUSVM_BACKEND_OPENCL;
    desc.device = "no-such-device";
    desc.ignore_environment = 1;
    desc.error = why;
    desc.error_size = sizeof why;
    r = gpusvm_context_create(&desc, &ctx);
    snprintf(msg, sizeof msg, "a failed creation says why in desc.error, with no logger (%s)", why);
    CHECK(r == GPUSVM_ERROR_NO_DEVICE && !ctx && strstr(why, "no-such-device"), msg);
    memset(&desc, 0, sizeof desc);
    desc.logger.fn = env_logger;
    env_log[0] = 0;
    r = gpusvm_context_create(&desc, &ctx);
    snprintf(msg, sizeof msg, "a context from the environment (GPUSVM_BACKEND=%s, GPUSVM_DEVICE=%s) is created (%s)",
             be ? be : "", dev ? dev : "", gpusvm_result_string(r));
    CHECK(r == GPUSVM_OK && ctx, msg);
    if (be && *be && strcmp(be, "auto") && strcmp(be, "opencl") && strcmp(be, "cpu"))
        CHECK(strstr(env_log, "GPUSVM_BACKEND") && strstr(env_log, "using auto"),
              "an unknown GPUSVM_BACKEND is a warning and auto");
    if (dev && strcmp(dev, "no-such-device") == 0)
        CHECK(ctx && gpusvm_context_backend(ctx) == GPUSVM_BACKEND_CPU,
              "a GPUSVM_DEVICE that is not there falls back to the C backend");
    gpusvm_context_destroy(ctx);
}

/* Every case by name: `test_api` runs them all, `test_api NAME...` only those (`--list` names
   them). Training cases run on the C backend, then on OpenCL; device cases on OpenCL only. */
enum { ANY, TRAINING, DEVICE };
typedef struct test_case {
    const char *name;
    void (*run)(void);
    int kind;
} test_case;
static const test_case cases[] = {
    {"reader", reader_checks, ANY},
    {"parallel_reader", parallel_reader_checks, ANY},
    {"environment", environment_checks, DEVICE}, /* its default context may open OpenCL */
    {"defaults", case_defaults, TRAINING},
    {"save_load", case_save_load, TRAINING},
    {"model_copy", case_model_copy, TRAINING},
    {"predictor", case_predictor, TRAINING},
    {"check_params", case_check_params, TRAINING},
    {"shrinking", case_shrinking, TRAINING},
    {"linear_weights", case_linear_weights, TRAINING},
    {"sv_indices", case_sv_indices, TRAINING},
    {"argument_errors", case_argument_errors, TRAINING},
    {"class_counts", case_class_counts, TRAINING},
    {"degenerate_inputs", case_degenerate_inputs, TRAINING},
    {"sample_weights", case_sample_weights, TRAINING},
    {"cross_validation", case_cross_validation, TRAINING},
    {"svr_one_class", case_svr_one_class, TRAINING},
    {"max_iter", case_max_iter, TRAINING},
    {"progress_cancel", case_progress_cancel, TRAINING},
    {"gamma_scale", case_gamma_scale, TRAINING},
    {"row_budget", case_row_budget, TRAINING},
    {"many_classes", case_many_classes, TRAINING},
    {"buffers", case_buffers, TRAINING},
    {"export", case_export, TRAINING},
    {"budget", budget_checks, DEVICE},
    {"kernel_cache", cache_checks, DEVICE},
    {"upload", upload_checks, DEVICE},
    {"storage", storage_checks, DEVICE},
    {"fp64", fp64_checks, DEVICE},
    {"stream", stream_checks, DEVICE},
};
#define NCASES (sizeof cases / sizeof cases[0])

static int chosen(int argc, char **argv, const char *name)
{
    int i;
    for (i = 1; i < argc; ++i)
        if (strcmp(argv[i], name) == 0) return 1;
    return argc < 2;
}

/* The training cases chosen, on one backend. */
static void run_training(int argc, char **argv, gpusvm_backend backend, const char *name)
{
    size_t c;
    int any = 0;
    for (c = 0; c < NCASES; ++c) any |= cases[c].kind == TRAINING && chosen(argc, argv, cases[c].name);
    if (!any) return;
    fixture_begin(backend, name);
    for (c = 0; c < NCASES; ++c)
        if (cases[c].kind == TRAINING && chosen(argc, argv, cases[c].name)) cases[c].run();
    fixture_end();
}

int main(int argc, char **argv)
{
    gpusvm_context *probe = NULL;
    gpusvm_context_desc d;
    size_t c;
    int i, opencl;
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (c = 0; c < NCASES; ++c) printf("%s\n", cases[c].name);
        return 0;
    }
    for (i = 1; i < argc; ++i) {
        for (c = 0; c < NCASES && strcmp(cases[c].name, argv[i]) != 0; ++c) {
        }
        if (c == NCASES) {
            fprintf(stderr, "test_api: no case '%s' (--list names them)\n", argv[i]);
            return 2;
        }
    }
    /* the folder for its files: GPUSVM_TEST_TMP (run.sh's second lane has its own), else this one */
    snprintf(tmpdir, sizeof tmpdir, "%s", getenv("GPUSVM_TEST_TMP") ? getenv("GPUSVM_TEST_TMP") : "build/test_api.tmp");
    for (c = 0; c < NCASES; ++c)
        if (cases[c].kind == ANY && chosen(argc, argv, cases[c].name)) cases[c].run();
    run_training(argc, argv, GPUSVM_BACKEND_CPU, "C");
    if (getenv("GPUSVM_TEST_CPU_ONLY")) return check_summary(); /* valgrind runs the C half only */
    memset(&d, 0, sizeof d);
    d.backend = GPUSVM_BACKEND_OPENCL;
    d.ignore_environment = 1;
    opencl = gpusvm_context_create(&d, &probe) == GPUSVM_OK;
    gpusvm_context_destroy(probe);
    CHECK(opencl, "an OpenCL device is available for the OpenCL half of the API tests");
    if (opencl) {
        run_training(argc, argv, GPUSVM_BACKEND_OPENCL, "OpenCL");
        for (c = 0; c < NCASES; ++c)
            if (cases[c].kind == DEVICE && chosen(argc, argv, cases[c].name)) cases[c].run();
    }
    CHECK(strcmp(gpusvm_result_string(GPUSVM_ERROR_UNSUPPORTED), "not supported in this version") == 0,
          "result strings");
    return check_summary();
}
