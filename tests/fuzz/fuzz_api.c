/* libFuzzer target: random sequences of public calls with random, often hostile, arguments (NULL
   pointers, NaN and infinite values, counts out of range, malformed matrices and text, models
   whose fields no longer agree), on the C backend with a counting allocator. Invariants checked
   after every call:
   - a failure is negative, its id is on the context and gives that result, and it has a message;
   - gpusvm_check_params fails exactly where gpusvm_train does, with the same id;
   - an OK training gives a model that gpusvm_predict, a predictor and the model's own text loaded
     back all answer the same on its training points (labels equal, decision values to rounding);
   - when the input's calls are done and everything is freed, no allocation is left.
   Built by 'make fuzz-build'; tests/fuzz/fuzz.sh runs it. */
#define GPUSVM_IMPLEMENTATION
#include "../../gpusvm.h"

typedef struct {
    const uint8_t *p;
    size_t n;
} src_t;

static unsigned take(src_t *s)
{
    if (!s->n) return 0;
    --s->n;
    return *s->p++;
}
static unsigned take16(src_t *s) { return take(s) | take(s) << 8; }

static double take_double(src_t *s)
{
    static const double special[16] = {0.0, 1.0, -1.0, 0.5, 2.0, 1e-300, 1e300, NAN,
                                       INFINITY, -INFINITY, DBL_MAX, 1e-3, 100.0, 2147483648.0, -0.25, 7.0};
    const unsigned k = take(s);
    return k < 64 ? special[k % 16] : ((double)take16(s) - 32768.0) / 1024.0;
}
static float take_float(src_t *s)
{
    const unsigned k = take(s);
    return k < 8 ? (float)take_double(s) : ((float)k - 128.0f) / 32.0f;
}

static size_t live;
static void *f_alloc(size_t size, void *user)
{
    (void)user;
    ++live;
    return malloc(size);
}
static void f_free(void *p, void *user)
{
    (void)user;
    --live;
    free(p);
}

enum { MAXR = 16, MAXC = 5, SLOTS = 3 };
typedef struct {
    gpusvm_context *ctx;
    float x[MAXR * MAXC];
    size_t rp[MAXR + 1];
    int32_t col[MAXR * MAXC];
    float val[MAXR * MAXC];
    double y[MAXR], out[MAXR * 8];
    gpusvm_matrix dense, csr;
    gpusvm_model *m[SLOTS];
    gpusvm_dataset *ds;
    gpusvm_predictor *pr;
} state_t;

/* A failure must say itself whole: negative, its id on the context giving that result, a message. */
static void check_result(const state_t *st, gpusvm_result r)
{
    gpusvm_error id;
    if (r == GPUSVM_OK) return;
    id = gpusvm_context_error_id(st->ctx);
    if (r >= 0 || id == GPUSVM_ERR_NONE || gpusvm_error_result(id) != r || !gpusvm_context_error(st->ctx)[0]) abort();
}

/* The data: rows x cols from the input (labels small integers, now and then not), dense and CSR. */
static void make_data(state_t *st, src_t *s)
{
    const size_t rows = 2 + take(s) % (MAXR - 1), cols = 1 + take(s) % MAXC;
    const int hostile = take(s) % 16 == 0;
    size_t i, j, k = 0;
    for (i = 0; i < rows; ++i) {
        for (j = 0; j < cols; ++j) st->x[i * cols + j] = hostile ? take_float(s) : (float)((int)take(s) % 9 - 4) / 4.0f;
        st->y[i] = hostile ? take_double(s) : (double)(take(s) % 3) - 1.0;
    }
    st->rp[0] = 0;
    for (i = 0; i < rows; ++i) {
        for (j = 0; j < cols; ++j)
            if (st->x[i * cols + j] != 0.0f) {
                st->col[k] = (int32_t)j;
                st->val[k++] = st->x[i * cols + j];
            }
        st->rp[i + 1] = k;
    }
    memset(&st->dense, 0, sizeof st->dense);
    st->dense.rows = rows;
    st->dense.cols = cols;
    st->dense.values = st->x;
    st->csr = st->dense;
    st->csr.layout = GPUSVM_LAYOUT_CSR;
    st->csr.row_ptr = st->rp;
    st->csr.col_idx = st->col;
    st->csr.values = st->val;
}

/* A matrix for a call: the data, its CSR form, or a broken one. */
static gpusvm_matrix *pick_matrix(state_t *st, src_t *s, gpusvm_matrix *tmp)
{
    const unsigned k = take(s) % 12;
    if (k < 5) return &st->dense;
    if (k < 9) return &st->csr;
    if (k == 9) return NULL;
    *tmp = k == 10 ? st->dense : st->csr;
    switch (take(s) % 5) {
    case 0: tmp->layout = (gpusvm_layout)(3 + take(s)); break;
    case 1: tmp->values = NULL; break;
    case 2: tmp->cols = take(s) % 2 ? 0 : (size_t)INT32_MAX + 7; break;
    case 3: tmp->row_ptr = NULL; break;
    default: tmp->rows = 0; break;
    }
    return tmp;
}

static void make_params(gpusvm_params *p, src_t *s)
{
    memset(p, 0, sizeof *p);
    p->svm_type = (gpusvm_svm_type)(take(s) % 8);
    p->kernel_type = (gpusvm_kernel_type)(take(s) % 7 == 6 ? 9 : take(s) % 5); /* precomputed needs its own data */
    if (take(s) % 2) p->C = take_double(s);
    if (take(s) % 2) p->gamma = take_double(s);
    if (take(s) % 4 == 0) p->gamma_mode = (gpusvm_gamma_mode)(take(s) % 5);
    if (take(s) % 4 == 0) p->degree = (int)take(s) % 6 - 1;
    if (take(s) % 4 == 0) p->coef0 = take_double(s);
    if (take(s) % 3 == 0) p->eps = take_double(s);
    if (take(s) % 3 == 0) p->nu = take_double(s);
    if (take(s) % 3 == 0) p->p = take_double(s);
    if (take(s) % 4 == 0) p->shrinking = (int)take(s) % 4 - 1;
    if (take(s) % 4 == 0) p->probability = (int)take(s) % 3;
    if (take(s) % 4 == 0) p->working_set_size = (int)take(s) - 8;
    if (take(s) % 4 == 0) p->cache_size_mb = take_double(s);
    p->max_iter = take(s) % 4 == 0 ? (long long)take16(s) - 4 : 20000; /* bounded work per input */
}

/* The invariants of a model training gave OK: its own points answered alike by gpusvm_predict,
   a predictor, and its text loaded back. */
static void check_model(state_t *st, const gpusvm_model *m, const gpusvm_matrix *x)
{
    double lab[MAXR], lab2[MAXR], *dec, one[64], l1;
    gpusvm_model *back = NULL;
    gpusvm_predictor *pr = NULL;
    char *text = NULL;
    size_t size = 0, i, k, nd = gpusvm_model_decision_count(m);
    float row[MAXC];
    if (x->layout == GPUSVM_LAYOUT_CSR || x->cols > MAXC || nd > 64) return;
    dec = (double *)malloc((x->rows * nd + 1) * sizeof(double));
    if (!dec) return;
    if (gpusvm_predict(st->ctx, m, x, lab, dec) != GPUSVM_OK) abort();
    if (gpusvm_predictor_create(st->ctx, m, &pr) != GPUSVM_OK) abort();
    for (i = 0; i < x->rows; ++i) {
        for (k = 0; k < x->cols; ++k) row[k] = x->values[i * x->cols + k];
        if (gpusvm_predictor_predict(pr, row, x->cols, &l1, one) != GPUSVM_OK || l1 != lab[i]) abort();
        for (k = 0; k < nd; ++k)
            if (one[k] != dec[i * nd + k] && !(fabs(one[k] - dec[i * nd + k]) <= 1e-4 * (1.0 + fabs(dec[i * nd + k]))) &&
                !(isnan(one[k]) && isnan(dec[i * nd + k]))) /* a kernel that overflows (coef0 near DBL_MAX): NaN both ways */
                abort();
    }
    if (gpusvm_model_save_buffer(st->ctx, m, &text, &size) != GPUSVM_OK ||
        gpusvm_model_load_buffer(st->ctx, text, size, &back) != GPUSVM_OK ||
        gpusvm_predict(st->ctx, back, x, lab2, NULL) != GPUSVM_OK)
        abort();
    for (i = 0; i < x->rows; ++i)
        if (lab2[i] != lab[i] && m->kernel_type != GPUSVM_KERNEL_PRECOMPUTED) abort();
    gpusvm_free(st->ctx, text);
    gpusvm_model_free(back);
    gpusvm_predictor_free(pr);
    free(dec);
}

/* A model's fields made to disagree (never its pointers, and never counts past its arrays: the
   fields must describe the arrays, which no check can see). */
static void corrupt(gpusvm_model *m, src_t *s)
{
    switch (take(s) % 7) {
    case 0: m->nr_class = m->nr_class - 1 - (int)(take(s) % 4); break; /* more would pass its arrays */
    case 1: { /* never to Crammer-Singer from another type: it has a row of coefficients more */
        const gpusvm_svm_type t = (gpusvm_svm_type)(take(s) % 9);
        if (t != GPUSVM_CRAMMER_SINGER || m->svm_type == GPUSVM_CRAMMER_SINGER) m->svm_type = t;
        break;
    }
    case 2: m->kernel_type = (gpusvm_kernel_type)(take(s) % 9); break;
    case 3: if (m->total_sv) m->total_sv -= 1; break;
    case 4: if (m->total_sv && m->sv_coef) m->sv_coef[0] = NAN; break;
    case 5: m->gamma = take_double(s); break;
    default: if (m->n_features) m->n_features -= 1; break;
    }
}

/* train, and check_params agrees; an OK result is checked against its training data */
static void op_train(state_t *st, src_t *s, const gpusvm_matrix *x, gpusvm_model **slot)
{
    const double *y = take(s) % 16 ? st->y : NULL;
    gpusvm_model *m = NULL;
    gpusvm_params p;
    gpusvm_result r, r2;
    make_params(&p, s);
    r2 = gpusvm_check_params(st->ctx, x, y, &p);
    r = gpusvm_train(st->ctx, x, y, &p, &m);
    if (r == GPUSVM_OK) {
        check_model(st, m, x);
        gpusvm_model_free(*slot);
        *slot = m;
    } else if (!m) {
        check_result(st, r);
    } else {
        abort();
    }
    /* check_params gives train's error, but for what only the solution shows */
    if ((r2 != r && !(r2 == GPUSVM_OK && (gpusvm_context_error_id(st->ctx) == GPUSVM_ERR_NU_DEGENERATE ||
                                          gpusvm_context_error_id(st->ctx) == GPUSVM_ERR_NOT_FINITE ||
                                          (p.probability && gpusvm_context_error_id(st->ctx) == GPUSVM_ERR_NU_INFEASIBLE)))) ||
        (r != GPUSVM_OK && gpusvm_context_error_id(st->ctx) == GPUSVM_ERR_NONE))
        abort();
}

static gpusvm_result op_grid(state_t *st, src_t *s, const gpusvm_matrix *x)
{
    double C[3], g[2], rate[6];
    gpusvm_params p;
    int k;
    for (k = 0; k < 3; ++k) C[k] = take(s) % 4 ? (double)(1 + take(s) % 8) : take_double(s);
    for (k = 0; k < 2; ++k) g[k] = take(s) % 4 ? 0.25 * (1 + take(s) % 4) : take_double(s);
    make_params(&p, s);
    return gpusvm_grid_search(st->ctx, x, st->y, &p, 2 + (int)(take(s) % 3), C, (int)(take(s) % 4), g,
                              (int)(take(s) % 3), rate);
}

/* a predictor of a model, and hostile points: a label or INVALID_ARGUMENT, nothing else */
static void op_predictor(state_t *st, src_t *s, gpusvm_model *model)
{
    float pt[MAXC + 2];
    double lab = 0, dec[64];
    size_t k, n = take(s) % (MAXC + 3);
    gpusvm_result r;
    gpusvm_predictor_free(st->pr);
    st->pr = NULL;
    r = gpusvm_predictor_create(st->ctx, model, take(s) % 8 ? &st->pr : NULL);
    if (r != GPUSVM_OK) {
        check_result(st, r);
        return;
    }
    for (k = 0; k < n; ++k) pt[k] = take_float(s);
    r = gpusvm_predictor_predict(st->pr, take(s) % 8 ? pt : NULL, n, &lab,
                                 gpusvm_model_decision_count(model) <= 64 ? dec : NULL);
    if (r != GPUSVM_OK && r != GPUSVM_ERROR_INVALID_ARGUMENT) abort();
}

/* the model's text, loaded back: its own text always loads */
static gpusvm_result op_reload(state_t *st, src_t *s, const gpusvm_model *model)
{
    char *text = NULL;
    size_t size = 0;
    gpusvm_model *m = NULL;
    gpusvm_result r = gpusvm_model_save_buffer(st->ctx, model, take(s) % 8 ? &text : NULL, &size);
    if (r == GPUSVM_OK) {
        r = gpusvm_model_load_buffer(st->ctx, text, size, &m);
        if (r != GPUSVM_OK) abort();
        gpusvm_model_free(m);
    }
    gpusvm_free(st->ctx, text);
    return r;
}

/* data text from the input, in any index-0 mode; what reads trains or is refused */
static gpusvm_result op_read(state_t *st, src_t *s)
{
    gpusvm_data_desc d;
    gpusvm_model *m = NULL;
    gpusvm_params p;
    char text[256];
    size_t n = take(s) % sizeof text, k;
    gpusvm_result r;
    for (k = 0; k < n; ++k) text[k] = (char)take(s);
    memset(&d, 0, sizeof d);
    d.bytes = text;
    d.size = n;
    d.index0 = (gpusvm_index0)(take(s) % 4);
    gpusvm_dataset_free(st->ds);
    st->ds = NULL;
    r = gpusvm_dataset_read(st->ctx, take(s) % 16 ? &d : NULL, &st->ds);
    if (r == GPUSVM_OK && st->ds->x.rows <= MAXR && st->ds->x.cols <= 64) {
        make_params(&p, s);
        check_result(st, gpusvm_train(st->ctx, &st->ds->x, st->ds->y, &p, &m));
        gpusvm_model_free(m);
    }
    return r;
}

/* a model whose fields disagree: refused or answered, never a crash; then nothing else is asked of it */
static void op_corrupt(state_t *st, src_t *s, gpusvm_model **slot)
{
    gpusvm_model *m = NULL;
    corrupt(*slot, s);
    check_result(st, gpusvm_predict(st->ctx, *slot, &st->dense, st->out, NULL));
    check_result(st, gpusvm_model_copy(st->ctx, *slot, &m));
    gpusvm_model_free(m);
    gpusvm_model_free(*slot);
    *slot = NULL;
}

/* one public call, chosen and argued by the input */
static void op(state_t *st, src_t *s)
{
    gpusvm_matrix tmp, *x = pick_matrix(st, s, &tmp);
    gpusvm_model **slot = &st->m[take(s) % SLOTS], *m = NULL;
    gpusvm_params p;
    gpusvm_result r = GPUSVM_OK, r2;
    switch (take(s) % 13) {
    case 0: op_train(st, s, x, slot); return;
    case 1:
        make_params(&p, s);
        r = gpusvm_cross_validation(st->ctx, x, st->y, &p, (int)take(s) - 2, take(s) % 8 ? st->out : NULL);
        break;
    case 2: r = op_grid(st, s, x); break;
    case 3:
        if (*slot && gpusvm_model_decision_count(*slot) <= 8) r = gpusvm_predict(st->ctx, *slot, x, st->out, st->out);
        else r = gpusvm_predict(st->ctx, take(s) % 2 ? NULL : *slot, x, st->out, NULL);
        break;
    case 4:
        if (*slot && (size_t)(*slot)->nr_class > 8) return;
        r = gpusvm_predict_probability(st->ctx, *slot, x, st->out, st->out + MAXR);
        break;
    case 5: op_predictor(st, s, *slot); return;
    case 6: r = op_reload(st, s, *slot); break;
    case 7:
        r = gpusvm_model_copy(st->ctx, *slot, &m);
        if (r == GPUSVM_OK) {
            gpusvm_model_free(*slot);
            *slot = m;
        }
        break;
    case 8: {
        double w[MAXC + 1], bias;
        const size_t n = take(s) % (MAXC + 2);
        r2 = gpusvm_model_linear_weights(*slot, (int)take(s) - 2, take(s) % 8 ? w : NULL, n, &bias);
        if (r2 != GPUSVM_OK && r2 != GPUSVM_ERROR_INVALID_ARGUMENT) abort();
        return;
    }
    case 9: r = op_read(st, s); break;
    case 10:
        if (*slot) op_corrupt(st, s, slot);
        return;
    case 11: r = gpusvm_check_params(st->ctx, x, take(s) % 4 ? st->y : NULL, NULL); break;
    default: r = gpusvm_write_file(st->ctx, "/dev/null", take(s) % 4 ? "x" : NULL, take(s) % 3); break;
    }
    check_result(st, r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gpusvm_context_desc d;
    state_t st;
    src_t s;
    int k, ops = 0;
    memset(&st, 0, sizeof st);
    memset(&d, 0, sizeof d);
    d.backend = GPUSVM_BACKEND_CPU;
    d.ignore_environment = 1;
    d.threads = 1;
    d.allocator.alloc = f_alloc;
    d.allocator.free = f_free;
    live = 0;
    if (gpusvm_context_create(&d, &st.ctx) != GPUSVM_OK) abort();
    s.p = data;
    s.n = size;
    make_data(&st, &s);
    while (s.n && ops++ < 24) op(&st, &s);
    for (k = 0; k < SLOTS; ++k) gpusvm_model_free(st.m[k]);
    gpusvm_dataset_free(st.ds);
    gpusvm_predictor_free(st.pr);
    gpusvm_context_destroy(st.ctx);
    if (live != 0) abort(); /* an error or a success left an allocation behind */
    return 0;
}
