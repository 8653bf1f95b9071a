/* The edges a new user meets first, each asserted by its error id: zero-based data, the per-frame
   predictor's input, more than 64 classes, a folder where a file belongs, Crammer-Singer's
   decision values, what the progress callback reports, the desc's and params' zero rules, and the
   list of errors itself. On the C backend, and on OpenCL where a device is (GPUSVM_TEST_CPU_ONLY
   skips it). */
#define GPUSVM_IMPLEMENTATION
#include "../../gpusvm.h"
#include "../check.h"
#include <sys/stat.h>

static size_t live, largest;
static void *counted_alloc(size_t size, void *user)
{
    (void)user;
    ++live;
    if (size > largest) largest = size;
    return malloc(size);
}
static void counted_free(void *p, void *user)
{
    (void)user;
    --live;
    free(p);
}

static gpusvm_context *context(gpusvm_backend backend)
{
    gpusvm_context_desc d;
    gpusvm_context *ctx = NULL;
    memset(&d, 0, sizeof d);
    d.backend = backend;
    d.ignore_environment = 1;
    d.allocator.alloc = counted_alloc;
    d.allocator.free = counted_free;
    CHECK_OK(gpusvm_context_create(&d, &ctx));
    return ctx;
}

/* rows points of two features, row-major, as a dense matrix */
static gpusvm_matrix two_columns(const float *x, size_t rows)
{
    gpusvm_matrix m;
    memset(&m, 0, sizeof m);
    m.rows = rows;
    m.cols = 2;
    m.values = x;
    return m;
}

#define CHECK_ID(ctx, call, id, msg) CHECK((call) == gpusvm_error_result(id) && gpusvm_context_error_id(ctx) == (id), msg)

/* 1. Index 0 through the API: refused by default with data buffer:line, read as a feature only
   when asked (GPUSVM_INDEX0_FEATURE), where feature 0 then decides the classes. */
static void case_zero_based(gpusvm_context *ctx)
{
    /* feature 0 alone separates the classes; feature 1 is noise */
    static const char text[] = "1 0:1 1:0.3\n-1 0:-1 1:0.3\n1 0:0.9 1:-0.2\n-1 0:-0.8 1:-0.2\n"
                               "1 0:1.1 1:0.1\n-1 0:-1.2 1:0.1\n";
    gpusvm_data_desc d;
    gpusvm_dataset *ds = NULL;
    gpusvm_model *m = NULL;
    double pred[6];
    size_t i, right = 0;
    CHECK_ID(ctx, gpusvm_dataset_parse(ctx, text, sizeof text - 1, NULL, &ds), GPUSVM_ERR_DATA_INDEX0,
             "zero-based data: refused by default");
    CHECK(!ds && strncmp(gpusvm_context_error(ctx), "data buffer:1: feature index 0", 30) == 0,
          "zero-based data: the refusal names data buffer:1");
    memset(&d, 0, sizeof d);
    d.bytes = text;
    d.size = sizeof text - 1;
    d.index0 = GPUSVM_INDEX0_FEATURE;
    CHECK_OK(gpusvm_dataset_read(ctx, &d, &ds));
    CHECK(ds->x.cols == 2 && ds->x.rows == 6 && ds->col_idx[0] == 0 && ds->values[0] == 1.0f && !ds->serial,
          "zero-based data with GPUSVM_INDEX0_FEATURE: index i is column i");
    CHECK_OK(gpusvm_train(ctx, &ds->x, ds->y, NULL, &m));
    CHECK_OK(gpusvm_predict(ctx, m, &ds->x, pred, NULL));
    for (i = 0; i < 6; ++i) right += pred[i] == ds->y[i];
    CHECK(right == 6 && m->n_columns == 2, "zero-based data: feature 0 is learnt (6 of 6 training points)");
    gpusvm_model_free(m);
    gpusvm_dataset_free(ds);
    d.index0 = (gpusvm_index0)7;
    CHECK_ID(ctx, gpusvm_dataset_read(ctx, &d, &ds), GPUSVM_ERR_DATA_DESC_FIELD, "an unknown index0 is refused");
    CHECK_ID(ctx, gpusvm_dataset_read(ctx, NULL, &ds), GPUSVM_ERR_NULL_ARGUMENT, "a NULL data desc is refused");
}

/* A model of k classes, 3 points each, on a line (class c near c). */
static gpusvm_model *classes_model(gpusvm_context *ctx, int k, gpusvm_svm_type type, float *x, double *y)
{
    gpusvm_matrix mx;
    gpusvm_params p;
    gpusvm_model *m = NULL;
    int i;
    for (i = 0; i < 3 * k; ++i) {
        y[i] = (double)(i / 3 + 1);
        x[2 * i] = (float)(i / 3) * 0.1f + 0.01f * (float)(i % 3);
        x[2 * i + 1] = (float)((i * 7) % 5) * 0.01f;
    }
    mx = two_columns(x, (size_t)(3 * k));
    memset(&p, 0, sizeof p);
    p.svm_type = type;
    p.C = 100;
    p.gamma = 50;
    CHECK_OK(gpusvm_train(ctx, &mx, y, &p, &m));
    return m;
}

/* 2, 3. The predictor refuses NaN, infinite, NULL input and a NULL predictor, writing nothing, as
   gpusvm_predict refuses the same point. */
static void case_predictor_input(gpusvm_context *ctx)
{
    float x[2 * 3 * 4];
    double y[3 * 4], label = 42, dv[6] = {7, 7, 7, 7, 7, 7};
    gpusvm_model *m = classes_model(ctx, 4, GPUSVM_C_SVC, x, y);
    gpusvm_predictor *pr = NULL;
    const float nan2[2] = {NAN, NAN}, inf2[2] = {INFINITY, 0.0f}, ok2[2] = {0.1f, 0.0f};
    gpusvm_matrix one;
    double l2;
    CHECK_OK(gpusvm_predictor_create(ctx, m, &pr));
    CHECK(gpusvm_predictor_predict(pr, nan2, 2, &label, dv) == GPUSVM_ERROR_INVALID_ARGUMENT && label == 42 && dv[0] == 7,
          "predictor: {NaN, NaN} is refused and nothing is written");
    CHECK(gpusvm_predictor_predict(pr, inf2, 2, &label, dv) == GPUSVM_ERROR_INVALID_ARGUMENT && label == 42,
          "predictor: {Inf, 0} is refused");
    CHECK(gpusvm_predictor_predict(pr, NULL, 2, &label, NULL) == GPUSVM_ERROR_INVALID_ARGUMENT,
          "predictor: a NULL x is refused");
    CHECK(gpusvm_predictor_predict(NULL, ok2, 2, &label, NULL) == GPUSVM_ERROR_INVALID_ARGUMENT,
          "predictor: a NULL predictor is refused");
    CHECK(gpusvm_predictor_predict(pr, ok2, 2, &label, dv) == GPUSVM_OK && label == 2 && dv[0] != 7,
          "predictor: a finite point gets its label");
    CHECK(gpusvm_predictor_predict(pr, NULL, 0, &label, NULL) == GPUSVM_OK, "predictor: no features is the zero point");
    one = two_columns(nan2, 1);
    CHECK_ID(ctx, gpusvm_predict(ctx, m, &one, &l2, NULL), GPUSVM_ERR_MATRIX_NOT_FINITE,
             "gpusvm_predict refuses the same NaN point");
    CHECK_ID(ctx, gpusvm_predictor_create(ctx, NULL, &pr), GPUSVM_ERR_NULL_ARGUMENT, "predictor: a NULL model");
    gpusvm_predictor_free(pr);
    gpusvm_model_free(m);
}

/* 3b. A context checks a library-made model's support vectors once (sv_norms set); changed as
   gpusvm_model's comment says (sv_norms cleared), or with sizes that no longer hold them, they
   are checked again at the next call. */
static void case_sv_changed(gpusvm_context *ctx)
{
    float x[2 * 3 * 4], keep;
    double y[3 * 4], l = 0.0;
    gpusvm_model *m = classes_model(ctx, 4, GPUSVM_C_SVC, x, y), *m2 = classes_model(ctx, 4, GPUSVM_C_SVC, x, y);
    const float ok2[2] = {0.1f, 0.0f};
    const gpusvm_matrix one = two_columns(ok2, 1);
    CHECK(m->sv_norms && m->total_sv && m->sv_row_ptr[m->total_sv] > 0, "a trained model keeps its support vectors' norms");
    CHECK_OK(gpusvm_predict(ctx, m, &one, &l, NULL));
    CHECK_OK(gpusvm_predict(ctx, m, &one, &l, NULL));
    keep = m->sv_values[0];
    m->sv_values[0] = NAN;
    m->allocator.free(m->sv_norms, m->allocator.user_data);
    m->sv_norms = NULL;
    CHECK_ID(ctx, gpusvm_predict(ctx, m, &one, &l, NULL), GPUSVM_ERR_MODEL_INVALID,
             "a support vector made NaN after a check (sv_norms cleared) is refused");
    m->sv_values[0] = keep;
    CHECK(gpusvm_predict(ctx, m, &one, &l, NULL) == GPUSVM_OK && l == 2, "restored, the model predicts again");
    CHECK_OK(gpusvm_predict(ctx, m2, &one, &l, NULL));
    m2->n_features = 0; /* its support vectors' columns no longer fit */
    CHECK_ID(ctx, gpusvm_predict(ctx, m2, &one, &l, NULL), GPUSVM_ERR_MODEL_INVALID,
             "a checked model whose n_features shrank below its support vectors' columns is refused");
    gpusvm_model_free(m);
    gpusvm_model_free(m2);
}

/* 4. More classes than 64: the model saves, loads back and predicts as before. */
static void case_many_classes(gpusvm_context *ctx)
{
    enum { K = 70 };
    static float x[2 * 3 * K];
    static double y[3 * K], a[3 * K], b[3 * K];
    gpusvm_model *m = classes_model(ctx, K, GPUSVM_C_SVC, x, y), *back = NULL;
    gpusvm_matrix mx;
    char *text = NULL;
    size_t size = 0, i, same = 0, right = 0;
    mx = two_columns(x, 3 * K);
    CHECK(m->nr_class == K && gpusvm_model_decision_count(m) == (size_t)K * (K - 1) / 2, "70 classes: 2415 pairs");
    CHECK_OK(gpusvm_model_save_buffer(ctx, m, &text, &size));
    CHECK_OK(gpusvm_model_load_buffer(ctx, text, size, &back));
    CHECK_OK(gpusvm_predict(ctx, m, &mx, a, NULL));
    CHECK_OK(gpusvm_predict(ctx, back, &mx, b, NULL));
    for (i = 0; i < 3 * K; ++i) {
        same += a[i] == b[i];
        right += a[i] == y[i];
    }
    CHECK(back->nr_class == K && same == 3 * K && right == 3 * K,
          "70 classes: the model loads back and predicts its training labels as before");
    gpusvm_free(ctx, text);
    gpusvm_model_free(back);
    { /* nr_class larger than the rest of the file could hold: refused before anything is sized by it */
        static const char huge[] = "svm_type c_svc\nkernel_type rbf\ngamma 1\nnr_class 2000000000\ntotal_sv 0\nrho 0\nSV\n";
        back = NULL;
        largest = 0;
        CHECK_ID(ctx, gpusvm_model_load_buffer(ctx, huge, sizeof huge - 1, &back), GPUSVM_ERR_MODEL_SYNTAX,
                 "nr_class 2e9 in a 70-byte model is refused");
        CHECK(!back && largest < 4096 && strstr(gpusvm_context_error(ctx), "model buffer:4:"),
              "nr_class 2e9: model buffer:4, and no allocation sized by it");
    }
    gpusvm_model_free(m);
}

/* 5. A folder given as a data or model file: said so, and no allocation of its "size". */
static void case_folder(gpusvm_context *ctx, const char *dir)
{
    gpusvm_dataset *ds = NULL;
    gpusvm_model *m = NULL;
    largest = 0;
    CHECK_ID(ctx, gpusvm_dataset_load(ctx, dir, &ds), GPUSVM_ERR_FILE_IS_FOLDER, "a folder as a data file");
    CHECK_ID(ctx, gpusvm_model_load(ctx, dir, &m), GPUSVM_ERR_FILE_IS_FOLDER, "a folder as a model file");
    CHECK(!ds && !m && largest < 65536 && strstr(gpusvm_context_error(ctx), "is a folder"),
          "a folder: no allocation sized by it, and the message says it is a folder");
}

/* 6. Crammer-Singer's decision values: nr_class a row, as gpusvm_model_decision_count says; the
   predictor gives the same. */
static void case_cs_decisions(gpusvm_context *ctx)
{
    enum { K = 5 };
    float x[2 * 3 * K];
    double y[3 * K], dv[(3 * K) * K + 1], lab[3 * K], one[K + 1], label;
    gpusvm_model *m = classes_model(ctx, K, GPUSVM_CRAMMER_SINGER, x, y);
    gpusvm_predictor *pr = NULL;
    gpusvm_matrix mx;
    size_t i, k, same = 0;
    mx = two_columns(x, 3 * K);
    for (i = 0; i < sizeof dv / sizeof dv[0]; ++i) dv[i] = -12345.0;
    CHECK(gpusvm_model_decision_count(m) == K, "Crammer-Singer: nr_class decision values a row");
    CHECK_OK(gpusvm_predict(ctx, m, &mx, lab, dv));
    CHECK(dv[(3 * K) * K] == -12345.0 && dv[(3 * K) * K - 1] != -12345.0,
          "Crammer-Singer: gpusvm_predict writes exactly decision_count values a row");
    CHECK_OK(gpusvm_predictor_create(ctx, m, &pr));
    for (i = 0; i < 3 * K; ++i) {
        one[K] = -12345.0;
        CHECK_OK(gpusvm_predictor_predict(pr, x + 2 * i, 2, &label, one));
        same += label == lab[i] && one[K] == -12345.0;
        for (k = 0; k < K; ++k) same -= fabs(one[k] - dv[i * K + k]) > 1e-6 * (1 + fabs(dv[i * K + k]));
    }
    CHECK(same == 3 * K, "Crammer-Singer: the predictor's labels and decision values are gpusvm_predict's");
    CHECK(gpusvm_model_decision_count(NULL) == 0, "decision_count(NULL) is 0");
    gpusvm_predictor_free(pr);
    gpusvm_model_free(m);
}

/* 7. The progress callback: the gap it reports is the one training decided on; the last call,
   made when training ends, reports the gap that stopped it (below eps, and the model's). */
static double last_gap, last_eps;
static int calls;
static int on_progress(void *user, const gpusvm_progress *p)
{
    (void)user;
    last_gap = p->gap;
    last_eps = p->eps;
    ++calls;
    return 0;
}

static void case_progress(gpusvm_context *ctx, gpusvm_svm_type type)
{
    enum { K = 3, ROWS = 600 };
    static float x[ROWS * 2];
    static double y[ROWS];
    gpusvm_params p;
    gpusvm_matrix mx;
    gpusvm_model *m = NULL;
    int i;
    char msg[200];
    for (i = 0; i < ROWS; ++i) { /* overlapping classes: many working sets */
        unsigned s = (unsigned)i * 2654435761u;
        y[i] = type == GPUSVM_CRAMMER_SINGER ? (double)(i % K) : (i % 2 ? 1.0 : -1.0);
        x[2 * i] = (float)(s % 1000) / 1000.0f + 0.2f * (float)y[i];
        x[2 * i + 1] = (float)((s >> 10) % 1000) / 1000.0f;
    }
    mx = two_columns(x, ROWS);
    memset(&p, 0, sizeof p);
    p.svm_type = type;
    p.C = 10;
    p.working_set_size = 16;
    p.progress = on_progress;
    calls = 0;
    last_gap = -1;
    CHECK_OK(gpusvm_train(ctx, &mx, y, &p, &m));
    snprintf(msg, sizeof msg, "progress (svm_type %d): the last call reports the final gap (%g, the model's %g, eps %g; %d calls)",
             (int)type, last_gap, m->info.gap, last_eps, calls);
    CHECK(calls > 0 && m->info.converged && last_gap == m->info.gap && last_gap < last_eps, msg);
    gpusvm_model_free(m);
}

/* 8. Zero rules: desc.device_memory_mb below 0 or NaN is refused (0 is all the device has);
   params.eps 0 is the default, negative is refused. */
static void case_zero_rules(gpusvm_context *ctx)
{
    gpusvm_context_desc d;
    gpusvm_context *c = NULL;
    char why[256];
    float x[2 * 3 * 2];
    double y[3 * 2];
    gpusvm_params p;
    gpusvm_matrix mx;
    gpusvm_model *m = NULL;
    memset(&d, 0, sizeof d);
    d.backend = GPUSVM_BACKEND_CPU;
    d.ignore_environment = 1;
    d.device_memory_mb = -1;
    d.error = why;
    d.error_size = sizeof why;
    CHECK(gpusvm_context_create(&d, &c) == GPUSVM_ERROR_INVALID_ARGUMENT && !c && strstr(why, "desc.device_memory_mb"),
          "desc.device_memory_mb = -1 is refused");
    d.device_memory_mb = NAN;
    CHECK(gpusvm_context_create(&d, &c) == GPUSVM_ERROR_INVALID_ARGUMENT && !c, "desc.device_memory_mb = NaN is refused");
    m = classes_model(ctx, 2, GPUSVM_C_SVC, x, y);
    gpusvm_model_free(m);
    m = NULL;
    mx = two_columns(x, 6);
    memset(&p, 0, sizeof p);
    p.eps = -1e-3;
    CHECK_ID(ctx, gpusvm_train(ctx, &mx, y, &p, &m), GPUSVM_ERR_PARAMS_FIELD, "params.eps < 0 is refused");
    CHECK(!m && strstr(gpusvm_context_error(ctx), "params.eps"), "params.eps < 0: the message names it");
    p.eps = NAN;
    CHECK_ID(ctx, gpusvm_train(ctx, &mx, y, &p, &m), GPUSVM_ERR_PARAMS_FIELD, "params.eps NaN is refused");
}

/* nu-SVC where the kernel cannot tell the classes apart (one point, labelled both ways): r = 0 and
   LIBSVM writes coefficients alpha / r = inf; training must refuse rather than return that model. */
static void case_nu_degenerate(gpusvm_context *ctx)
{
    float x[2] = {-1, -1};
    double y[2] = {1, -1};
    gpusvm_matrix mx;
    gpusvm_params p;
    gpusvm_model *m = NULL;
    char *text = NULL;
    size_t size = 0;
    memset(&mx, 0, sizeof mx);
    mx.layout = GPUSVM_LAYOUT_DENSE;
    mx.rows = 2;
    mx.cols = 1;
    mx.values = x;
    memset(&p, 0, sizeof p);
    p.svm_type = GPUSVM_NU_SVC;
    CHECK_ID(ctx, gpusvm_train(ctx, &mx, y, &p, &m), GPUSVM_ERR_NU_DEGENERATE,
             "nu-SVC on points the kernel cannot tell apart: refused (r = 0), no model");
    CHECK(!m, "nu-SVC, r = 0: *out stays NULL");
    x[1] = 1; /* told apart: the same call trains */
    CHECK(gpusvm_train(ctx, &mx, y, &p, &m) == GPUSVM_OK && m && gpusvm_model_save_buffer(ctx, m, &text, &size) == GPUSVM_OK,
          "nu-SVC on two distinct points trains, and its model saves");
    gpusvm_free(ctx, text);
    gpusvm_model_free(m);
}

/* The list of errors: a name, a text and a result for each id, the result's sign as documented. */
static void case_error_list(void)
{
    int id, ok = 1;
    for (id = 0; id < GPUSVM_ERR_COUNT; ++id) {
        const gpusvm_result r = gpusvm_error_result((gpusvm_error)id);
        ok &= strncmp(gpusvm_error_name((gpusvm_error)id), "GPUSVM_ERR_", 11) == 0;
        ok &= strlen(gpusvm_error_text((gpusvm_error)id)) >= 8;
        ok &= id == GPUSVM_ERR_NONE ? r == GPUSVM_OK : r < 0;
    }
    CHECK(ok, "every error id has a name, a text and a negative result (NONE: OK)");
    CHECK(gpusvm_error_name(GPUSVM_ERR_COUNT)[0] == 0 && gpusvm_error_result((gpusvm_error)-1) == GPUSVM_ERROR_INVALID_ARGUMENT,
          "an id outside the list has no name");
    CHECK(strcmp(gpusvm_error_name(GPUSVM_ERR_DATA_INDEX0), "GPUSVM_ERR_DATA_INDEX0") == 0, "names are the enum's");
}

static void run_backend(gpusvm_backend backend, const char *dir)
{
    gpusvm_context *ctx = context(backend);
    printf("test_edges: %s\n", gpusvm_context_device_name(ctx));
    case_zero_based(ctx);
    case_predictor_input(ctx);
    case_sv_changed(ctx);
    case_many_classes(ctx);
    case_folder(ctx, dir);
    case_cs_decisions(ctx);
    case_progress(ctx, GPUSVM_C_SVC);
    case_progress(ctx, GPUSVM_CRAMMER_SINGER);
    case_zero_rules(ctx);
    case_nu_degenerate(ctx);
    gpusvm_context_destroy(ctx);
    CHECK(live == 0, "every allocation freed");
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    const char *cpu_only = getenv("GPUSVM_TEST_CPU_ONLY");
    case_error_list();
    run_backend(GPUSVM_BACKEND_CPU, dir);
    if (!(cpu_only && *cpu_only)) run_backend(GPUSVM_BACKEND_OPENCL, dir);
    return check_summary();
}
