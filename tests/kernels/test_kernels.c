/* Every OpenCL kernel against the C backend, on fresh random inputs, with the OpenCL
   outputs poisoned first so that an element left unwritten fails the comparison; and a batch
   of problems solved together against each solved alone.
   Needs an OpenCL device (PoCL on a CPU machine); fails without one. GPUSVM_FP64=off runs the
   kernels with float pairs (the path of devices without fp64): every check as with double but
   the gaps, which agree to 1e-12 relative instead of to the bit. GPUSVM_SUBGROUPS (ptx, khr, intel,
   off) builds the reductions with that sub-group exchange where the device has it. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* setenv: GPUSVM_INNER for the third level's context */
#endif
#define GPUSVM_TEST_HOOKS /* the backends' test access (backend.test) */
#define GPUSVM_IMPLEMENTATION
#include "../../gpusvm.h"
#include "../check.h"

/* GPUSVM_TEST_HOOKS also lets a test wrap the OpenCL entry points; these tests take them as they are. */
void gpusvm__test_cl_hook(gpusvm__cl_api *api) { (void)api; }

static uint64_t rng_state;
static int pairs; /* the OpenCL kernels run with float pairs (GPUSVM_FP64=off) */
static double urand(void)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}

typedef struct {
    size_t *rp;
    int32_t *col;
    float *val;
    signed char *y;
    double *C;
    gpusvm__problem p;
} problem_t;

/* n points; with two_copies, 2n variables as epsilon-SVR has (y = +1 then -1, point i twice) */
static void make_problem_v(problem_t *t, size_t n, size_t d, double density, int ktype, int two_copies)
{
    size_t i, j, k = 0;
    t->rp = (size_t *)malloc((n + 1) * sizeof(size_t));
    t->col = (int32_t *)malloc(n * d * sizeof(int32_t));
    t->val = (float *)malloc(n * d * sizeof(float));
    t->y = (signed char *)malloc(2 * n);
    memset(&t->p, 0, sizeof t->p);
    t->C = (double *)malloc(2 * n * sizeof(double));
    t->rp[0] = 0;
    for (i = 0; i < n; ++i) {
        for (j = 0; j < d; ++j)
            if (urand() < density) {
                t->col[k] = (int32_t)j;
                t->val[k] = (float)(2.0 * urand() - 1.0);
                ++k;
            }
        t->rp[i + 1] = k;
        t->y[i] = two_copies ? 1 : (urand() < 0.45 ? 1 : -1);
        t->y[n + i] = -1;
    }
    t->p.nvar = two_copies ? 2 * n : n;
    t->p.map = NULL;
    t->p.npts = n;
    for (i = 0; i < t->p.nvar; ++i) /* class bounds 1.5 / 0.75 times a sample weight in [0.5, 1.5) */
        t->C[i] = (t->y[i] > 0 ? 1.5 : 0.75) * (0.5 + urand());
    t->p.x.rows = n;
    t->p.x.cols = d;
    t->p.x.row_ptr = t->rp;
    t->p.x.col = t->col;
    t->p.x.val = t->val;
    t->p.y = t->y;
    t->p.C = t->C;
    t->p.ktype = ktype;
    t->p.gamma = (float)(0.5 / (double)d + 0.1 * urand());
    t->p.coef0 = 0.25f;
    t->p.degree = 3;
}

static void make_problem(problem_t *t, size_t n, size_t d, double density, int ktype)
{
    make_problem_v(t, n, d, density, ktype, 0);
}

static void free_problem(problem_t *t)
{
    free(t->rp);
    free(t->col);
    free(t->val);
    free(t->y);
    free(t->C);
}

/* Sparse points' edge cases: row 1 holds every feature (more nonzeros than one pass of the sparse
   kernel's table), row 2 none. */
static void special_rows(problem_t *t)
{
    const size_t n = t->p.x.rows, d = t->p.x.cols;
    size_t *rp = (size_t *)malloc((n + 1) * sizeof(size_t)), i, j, k = 0;
    int32_t *col = (int32_t *)malloc((t->rp[n] + d) * sizeof(int32_t));
    float *val = (float *)malloc((t->rp[n] + d) * sizeof(float));
    for (i = 0; i < n; ++i) {
        rp[i] = k;
        if (i == 1) {
            for (j = 0; j < d; ++j, ++k) {
                col[k] = (int32_t)j;
                val[k] = (float)(0.1 * urand());
            }
        } else if (i != 2) {
            for (j = t->rp[i]; j < t->rp[i + 1]; ++j, ++k) {
                col[k] = t->col[j];
                val[k] = t->val[j];
            }
        }
    }
    rp[n] = k;
    free(t->rp);
    free(t->col);
    free(t->val);
    t->p.x.row_ptr = t->rp = rp;
    t->p.x.col = t->col = col;
    t->p.x.val = t->val = val;
}

static int close_rel(double a, double b, double rel, double abs_tol)
{
    double d = fabs(a - b);
    return d <= abs_tol || d <= rel * fabs(b);
}

static double last_pairs; /* the pair updates of the last inner solve solve_path_check compared */

/* The same inner solve on both backends, step by step: the same pair updates, alphas,
   coefficients, and gradients after gpusvm_update. */
static void solve_path_check(const problem_t *t, int q, const double *a1, const double *a2, const double *c1,
                             const double *c2, const double *g1, const double *g2, double it1, double it2,
                             const char *label)
{
    const size_t n = t->p.nvar;
    size_t i, bad;
    int k;
    char what[200];
    snprintf(what, sizeof what, "%s: gpusvm_smo: same pair updates (%g vs %g)", label, it2, it1);
    CHECK(it1 == it2, what);
    for (i = 0, bad = 0; i < n; ++i)
        if (!close_rel(a2[i], a1[i], 1e-9, 1e-12)) {
            if (!bad++) fprintf(stderr, "  alpha[%lu]: opencl %.17g, C %.17g\n", (unsigned long)i, a2[i], a1[i]);
        }
    for (k = 0; k < q; ++k)
        if (!close_rel(c2[k], c1[k], 1e-9, 1e-12)) {
            if (!bad++) fprintf(stderr, "  coef[%d]: opencl %.17g, C %.17g\n", k, c2[k], c1[k]);
        }
    snprintf(what, sizeof what, "%s: gpusvm_smo: same alphas and coefficients (%lu differ)", label, (unsigned long)bad);
    CHECK(bad == 0, what);
    for (i = 0, bad = 0; i < n; ++i) bad += !close_rel(g2[i], g1[i], 1e-9, 1e-9);
    snprintf(what, sizeof what, "%s: gpusvm_update matches the C backend (%lu differ)", label, (unsigned long)bad);
    CHECK(bad == 0, what);
}

/* An inner solve's input: problem t's working set (positions' variables idx, row slots slot, the
   rows K: slot by point), the state before it, its stop (eps, ratio times the outer gap) and its
   budget of pair updates. */
typedef struct {
    const problem_t *t;
    const int *idx, *slot;
    int q;
    const float *K;
    const double *alpha, *G;
    double eps, ratio_gap;
    int max_inner;
} solve_t;

/* The gradient after the solve moved the alphas to a, as gpusvm_update sums it (in double, on
   the host): G_v + y_v sum_t y_t (a_t - alpha_t) K[slot_t][point of v]. */
static void host_gradient(const solve_t *s, const double *a, double *out)
{
    const gpusvm__problem *p = &s->t->p;
    size_t v;
    int k;
    for (v = 0; v < p->nvar; ++v) {
        const size_t pt = GPUSVM__PT(v, p->npts);
        double sum = 0.0;
        for (k = 0; k < s->q; ++k) {
            const size_t u = (size_t)s->idx[k];
            sum += (p->y[u] > 0 ? 1.0 : -1.0) * (a[u] - s->alpha[u]) * (double)s->K[(size_t)s->slot[k] * p->npts + pt];
        }
        out[v] = s->G[v] + (p->y[v] > 0 ? sum : -sum);
    }
}

/* The working set's largest violation m - M (LIBSVM's; with nu, each class's, the larger). */
static double ws_violation(const solve_t *s, const double *a, const double *G)
{
    const gpusvm__problem *p = &s->t->p;
    double m[2] = {-INFINITY, -INFINITY}, M[2] = {INFINITY, INFINITY}, worst = -INFINITY;
    int k, c;
    for (k = 0; k < s->q; ++k) {
        const size_t u = (size_t)s->idx[k];
        const int pos = p->y[u] > 0, cls = p->nu && !pos;
        const double v = pos ? -G[u] : G[u];
        const int below = a[u] < p->C[u], above = a[u] > 0.0;
        if (pos ? below : above) m[cls] = v > m[cls] ? v : m[cls];
        if (pos ? above : below) M[cls] = v < M[cls] ? v : M[cls];
    }
    for (c = 0; c < 2; ++c)
        if (m[c] - M[c] > worst) worst = m[c] - M[c];
    return worst;
}

/* Float pairs choose i and j on floats: on a near tie the OpenCL solve may take another path
   than the C backend's, so its result is checked for what no path changes. It is feasible (bounds;
   each equality constraint), its coefficients are its steps, its gradient after gpusvm_update is
   the host's sum from its alphas, it meets the stop on the working set (unless the budget ran
   out), and its objective is the C backend's within what that stop allows (the working set's
   violation times the sum of its bounds). */
static void solve_optimum_check(const solve_t *s, const double *a1, const double *a2, const double *c2,
                                const double *g1, const double *g2, double it2, const char *label)
{
    const gpusvm__problem *p = &s->t->p;
    const size_t n = p->nvar;
    const double stop = s->q >= (int)n ? s->eps : (s->eps > s->ratio_gap ? s->eps : s->ratio_gap);
    double *h = (double *)malloc(n * sizeof(double)), sum[2] = {0.0, 0.0}, Csum = 0.0, df = 0.0, viol;
    size_t i, bad;
    int k;
    char what[240];
    for (i = 0, bad = 0; i < n; ++i) bad += a2[i] < 0.0 || a2[i] > p->C[i];
    for (k = 0; k < s->q; ++k) {
        const size_t u = (size_t)s->idx[k];
        const double d = a2[u] - s->alpha[u];
        sum[p->nu && p->y[u] < 0] += p->y[u] > 0 ? d : -d;
        bad += !close_rel(c2[k], p->y[u] > 0 ? d : -d, 1e-12, 1e-15);
        Csum += p->C[u];
        df += 0.5 * (a2[u] - a1[u]) * (g2[u] + g1[u]);
    }
    bad += fabs(sum[0]) > 1e-9 || fabs(sum[1]) > 1e-9;
    snprintf(what, sizeof what, "%s: gpusvm_smo (float pairs): within the bounds, the equality constraints kept, "
             "the coefficients its steps (%lu wrong)", label, (unsigned long)bad);
    CHECK(bad == 0, what);
    host_gradient(s, a2, h);
    for (i = 0, bad = 0; i < n; ++i)
        if (!close_rel(g2[i], h[i], 1e-9, 1e-9)) {
            if (!bad++) fprintf(stderr, "  G[%lu]: opencl %.17g, host %.17g\n", (unsigned long)i, g2[i], h[i]);
        }
    snprintf(what, sizeof what, "%s: gpusvm_update (float pairs) is the host's gradient from its alphas (%lu differ)",
             label, (unsigned long)bad);
    CHECK(bad == 0, what);
    viol = ws_violation(s, a2, h);
    snprintf(what, sizeof what, "%s: gpusvm_smo (float pairs): the working set's violation %.3g meets the stop %g "
             "(%g pair updates of %d)", label, viol, stop, it2, s->q >= (int)n ? GPUSVM__WHOLE_INNER : s->max_inner);
    CHECK(viol <= stop * (1.0 + 1e-5) || it2 >= (s->q >= (int)n ? GPUSVM__WHOLE_INNER : s->max_inner), what);
    snprintf(what, sizeof what, "%s: gpusvm_smo (float pairs): objective within %.3g of the C backend's (%.3g)",
             label, stop * Csum, df);
    CHECK(fabs(df) <= stop * Csum, what);
    free(h);
}

/* One full round of each primitive on problem t with working set q. */
/* train.begin under a plan of working-set size q and nothing else. */
static gpusvm_result begin(gpusvm__backend *b, const gpusvm__problem *p, int nprob, int q)
{
    gpusvm__plan plan;
    memset(&plan, 0, sizeof plan);
    plan.q = q;
    return b->train->begin(b, p, nprob, &plan);
}

static void round_trip(gpusvm__backend *cpu, gpusvm__backend *ocl, problem_t *t, int q, const char *label)
{
    const size_t n = t->p.nvar, np = t->p.x.rows; /* variables, points */
    int *idx = (int *)malloc((size_t)q * sizeof(int)), *slot = (int *)malloc((size_t)q * sizeof(int));
    int *idx2 = (int *)malloc((size_t)q * sizeof(int)), *slot2 = (int *)malloc((size_t)q * sizeof(int));
    float *Kc = (float *)malloc((size_t)q * np * sizeof(float)), *Ko = (float *)malloc((size_t)q * np * sizeof(float));
    double *alpha = (double *)malloc(n * sizeof(double)), *G = (double *)malloc(n * sizeof(double));
    double *a1 = (double *)malloc(n * sizeof(double)), *a2 = (double *)malloc(n * sizeof(double));
    double *g1 = (double *)malloc(n * sizeof(double)), *g2 = (double *)malloc(n * sizeof(double));
    double *c1 = (double *)malloc((size_t)q * sizeof(double)), *c2 = (double *)malloc((size_t)q * sizeof(double));
    double st0[GPUSVM__ST_COUNT], s1[GPUSVM__ST_COUNT], s2[GPUSVM__ST_COUNT];
    size_t i, bad;
    int k, mode;
    char what[160];

    CHECK_OK(begin(cpu, &t->p, 1, q));
    CHECK_OK(begin(ocl, &t->p, 1, q));

    /* rows: a random distinct index set, shuffled slots */
    for (k = 0; k < q; ++k) {
        idx[k] = (int)((size_t)k * (n / (size_t)q) + (size_t)(urand() * (double)(n / (size_t)q)));
        slot[k] = k;
    }
    for (k = q - 1; k > 0; --k) {
        int j = (int)(urand() * (k + 1)), tmp = slot[k];
        slot[k] = slot[j];
        slot[j] = tmp;
    }
    CHECK_OK(cpu->train->write_ws(cpu, idx, slot, q));
    CHECK_OK(ocl->train->write_ws(ocl, idx, slot, q));
    CHECK_OK(ocl->test.poison(ocl));
    CHECK_OK(cpu->train->rows(cpu, 1));
    CHECK_OK(ocl->train->rows(ocl, 1));
    CHECK_OK(cpu->test.read_rows(cpu, Kc));
    CHECK_OK(ocl->test.read_rows(ocl, Ko));
    for (i = 0, bad = 0; i < (size_t)q * np; ++i)
        if (!close_rel(Ko[i], Kc[i], 2e-5, 2e-6)) {
            if (!bad) fprintf(stderr, "  rows[%lu]: opencl %.9g, C %.9g\n", (unsigned long)i, Ko[i], Kc[i]);
            ++bad;
        }
    snprintf(what, sizeof what, "%s: gpusvm_rows_tiled matches the C backend (%lu of %lu differ)", label,
             (unsigned long)bad, (unsigned long)((size_t)q * np));
    CHECK(bad == 0, what);

    /* select: random alpha (a third at each bound), random G; mode 0 then mode 1 */
    for (mode = 0; mode < 2; ++mode) {
        for (i = 0; i < n; ++i) {
            const double C = t->C[i], u = urand();
            alpha[i] = u < 0.33 ? 0.0 : u < 0.66 ? C : C * urand();
            G[i] = 4.0 * urand() - 2.0;
            if (urand() < 0.1) G[i] = -1.0; /* ties */
        }
        memset(st0, 0, sizeof st0);
        CHECK_OK(cpu->train->write_state(cpu, alpha, G, st0));
        CHECK_OK(ocl->train->write_state(ocl, alpha, G, st0));
        if (mode == 1) { /* the same previous working set on both */
            CHECK_OK(cpu->train->write_ws(cpu, idx, slot, q));
            CHECK_OK(ocl->train->write_ws(ocl, idx, slot, q));
        } else {
            for (k = 0; k < q; ++k) slot2[k] = k;
            CHECK_OK(cpu->train->write_ws(cpu, idx, slot2, q));
            CHECK_OK(ocl->train->write_ws(ocl, idx, slot2, q));
        }
        CHECK_OK(ocl->test.poison(ocl));
        CHECK_OK(cpu->train->select(cpu, mode == 0, 1e-3, 1e12));
        CHECK_OK(ocl->train->select(ocl, mode == 0, 1e-3, 1e12));
        CHECK_OK(cpu->train->read_status(cpu, s1));
        CHECK_OK(ocl->train->read_status(ocl, s2));
        CHECK_OK(cpu->test.read_ws(cpu, idx, slot, NULL, q));
        CHECK_OK(ocl->test.read_ws(ocl, idx2, slot2, NULL, q));
        snprintf(what, sizeof what, "%s: gpusvm_keys/select mode %d: same gap (%.17g vs %.17g)", label, mode,
                 s2[GPUSVM__ST_GAP], s1[GPUSVM__ST_GAP]);
        CHECK((pairs ? close_rel(s2[GPUSVM__ST_GAP], s1[GPUSVM__ST_GAP], 1e-12, 0.0)
                     : s1[GPUSVM__ST_GAP] == s2[GPUSVM__ST_GAP]) &&
                  s1[GPUSVM__ST_DONE] == s2[GPUSVM__ST_DONE],
              what);
        /* the same working set; the kept half keeps its slots on both, while the C backend's new
           points take lines of its row cache (any distinct lines), so its slots are checked apart */
        for (k = 0, bad = 0; k < q; ++k) bad += idx[k] != idx2[k] || ((mode == 0 || k < q / 2) && slot[k] != slot2[k]);
        snprintf(what, sizeof what, "%s: gpusvm_select mode %d: same working set and slots (%lu differ)", label, mode,
                 (unsigned long)bad);
        CHECK(bad == 0, what);
        for (k = 0, bad = 0; k < q; ++k)
            for (i = 0; i < (size_t)k; ++i) bad += slot[i] == slot[k] || slot2[i] == slot2[k];
        snprintf(what, sizeof what, "%s: gpusvm_select mode %d: every position its own row slot", label, mode);
        CHECK(bad == 0, what);
        memcpy(slot, slot2, (size_t)q * sizeof(int)); /* the rest runs on slots both backends hold */
        for (k = 1, bad = 0; k < q; ++k) bad += idx[k] == idx[k - 1];
        snprintf(what, sizeof what, "%s: gpusvm_select mode %d: no point chosen twice", label, mode);
        CHECK(bad == 0, what);
    }

    /* smo: identical rows, state and working set on both (nu: interior alphas, random G,
       so that both classes have violating pairs) */
    for (i = 0; i < n; ++i) {
        alpha[i] = t->p.nu ? 0.5 * t->C[i] * urand() : 0.0;
        G[i] = t->p.nu ? 2.0 * urand() - 1.0 : -1.0;
    }
    memset(st0, 0, sizeof st0);
    st0[GPUSVM__ST_GAP] = 2.0;
    CHECK_OK(cpu->train->write_state(cpu, alpha, G, st0));
    CHECK_OK(ocl->train->write_state(ocl, alpha, G, st0));
    CHECK_OK(ocl->train->write_ws(ocl, idx, slot, q));
    CHECK_OK(cpu->train->write_ws(cpu, idx, slot, q));
    CHECK_OK(cpu->train->rows(cpu, 1)); /* the working set's own rows: a symmetric subproblem */
    CHECK_OK(cpu->test.read_rows(cpu, Kc));
    CHECK_OK(cpu->test.write_rows(cpu, Kc));
    CHECK_OK(ocl->test.poison(ocl));
    CHECK_OK(ocl->test.write_rows(ocl, Kc)); /* poison hit the rows too */
    CHECK_OK(cpu->train->smo(cpu, 1e-3, 0.1, 10 * q, 1e12));
    CHECK_OK(ocl->train->smo(ocl, 1e-3, 0.1, 10 * q, 1e12));
    CHECK_OK(cpu->train->read_status(cpu, s1));
    CHECK_OK(ocl->train->read_status(ocl, s2));
    CHECK_OK(cpu->train->read_state(cpu, a1, NULL));
    CHECK_OK(ocl->train->read_state(ocl, a2, NULL));
    CHECK_OK(cpu->test.read_ws(cpu, NULL, NULL, c1, q));
    CHECK_OK(ocl->test.read_ws(ocl, NULL, NULL, c2, q));
    CHECK(s1[GPUSVM__ST_ITER] > 0 && s2[GPUSVM__ST_ITER] > 0, "gpusvm_smo: both solves make pair updates");
    last_pairs = s1[GPUSVM__ST_ITER];
    CHECK_OK(cpu->train->update(cpu));
    CHECK_OK(ocl->train->update(ocl));
    CHECK_OK(cpu->train->read_state(cpu, NULL, g1));
    CHECK_OK(ocl->train->read_state(ocl, NULL, g2));
    if (pairs) {
        const solve_t in = {t, idx, slot, q, Kc, alpha, G, 1e-3, 0.1 * st0[GPUSVM__ST_GAP], 10 * q};
        printf("  %s: float pairs: %g pair updates, the C backend %g\n", label, s2[GPUSVM__ST_ITER], s1[GPUSVM__ST_ITER]);
        solve_optimum_check(&in, a1, a2, c2, g1, g2, s2[GPUSVM__ST_ITER], label);
    } else {
        solve_path_check(t, q, a1, a2, c1, c2, g1, g2, s1[GPUSVM__ST_ITER], s2[GPUSVM__ST_ITER], label);
    }

    cpu->train->end(cpu);
    ocl->train->end(ocl);
    free(idx); free(slot); free(idx2); free(slot2); free(Kc); free(Ko);
    free(alpha); free(G); free(a1); free(a2); free(g1); free(g2); free(c1); free(c2);
}

/* A few rows (gpusvm_rows_few, up to GPUSVM__FEW) against the C backend and, bit for bit, against
   the same rows from the tiled kernel (a working set of 16); first >= 0: the working set's first point. */
static void few_rows_check_at(gpusvm__backend *cpu, gpusvm__backend *ocl, problem_t *t, const char *label, int first)
{
    const size_t n = t->p.nvar, np = t->p.x.rows;
    const int counts[5] = {1, 2, 3, 5, GPUSVM__FEW};
    int idx[16], slot[16], k, c;
    float *Kt = (float *)malloc(16 * np * sizeof(float)), *Kf = (float *)malloc(16 * np * sizeof(float));
    float *Kc = (float *)malloc(16 * np * sizeof(float));
    size_t i, bad, diff;
    char what[200];
    for (k = 0; k < 16; ++k) {
        idx[k] = (int)((size_t)k * (n / 16) + (size_t)(urand() * (double)(n / 16)));
        slot[k] = 15 - k;
    }
    if (first >= 0) idx[0] = first;
    CHECK_OK(begin(ocl, &t->p, 1, 16));
    CHECK_OK(ocl->train->write_ws(ocl, idx, slot, 16));
    CHECK_OK(ocl->train->rows(ocl, 1));
    CHECK_OK(ocl->test.read_rows(ocl, Kt));
    ocl->train->end(ocl);
    for (c = 0; c < 5; ++c) {
        const int nr = counts[c];
        int sl[16];
        for (k = 0; k < nr; ++k) sl[k] = nr - 1 - k;
        CHECK_OK(begin(cpu, &t->p, 1, nr));
        CHECK_OK(begin(ocl, &t->p, 1, nr));
        CHECK_OK(cpu->train->write_ws(cpu, idx, sl, nr));
        CHECK_OK(ocl->train->write_ws(ocl, idx, sl, nr));
        CHECK_OK(ocl->test.poison(ocl));
        CHECK_OK(cpu->train->rows(cpu, 1));
        CHECK_OK(ocl->train->rows(ocl, 1));
        CHECK_OK(cpu->test.read_rows(cpu, Kc));
        CHECK_OK(ocl->test.read_rows(ocl, Kf));
        for (k = 0, bad = 0, diff = 0; k < nr; ++k)
            for (i = 0; i < np; ++i) {
                const float f = Kf[(size_t)sl[k] * np + i];
                bad += !close_rel(f, Kc[(size_t)sl[k] * np + i], 2e-5, 2e-6);
                diff += memcmp(&f, &Kt[(size_t)slot[k] * np + i], sizeof f) != 0;
            }
        snprintf(what, sizeof what,
                 "%s: %d rows (gpusvm_rows_few) match the C backend (%lu differ) and the tiled kernel bit for bit "
                 "(%lu differ)",
                 label, nr, (unsigned long)bad, (unsigned long)diff);
        CHECK(bad == 0 && diff == 0, what);
        cpu->train->end(cpu);
        ocl->train->end(ocl);
    }
    free(Kt);
    free(Kf);
    free(Kc);
}

static void few_rows_check(gpusvm__backend *cpu, gpusvm__backend *ocl, problem_t *t, const char *label)
{
    few_rows_check_at(cpu, ocl, t, label, -1);
}

/* k() on the device is the shared gpusvm__kfun operation for operation: a polynomial problem's rows
 * are gpusvm__kfun of the same points' linear rows (the same kernel, the same dot products) bit for
 * bit, where a contraction of gamma <x,z> + coef0 into one fma in the device's copy would round
 * otherwise (the RBF and sigmoid kernels end in the device's own exp and tanh). */
static void kfun_check(gpusvm__backend *ocl, problem_t *t)
{
    const size_t np = t->p.npts;
    float *K[2];
    gpusvm__problem p[2];
    int idx[16], slot[16], k, w;
    size_t i, diff = 0;
    char what[160];
    p[0] = p[1] = t->p;
    p[1].ktype = GPUSVM__K_LINEAR;
    for (k = 0; k < 16; ++k) {
        idx[k] = (int)((size_t)k * (np / 16));
        slot[k] = k;
    }
    for (w = 0; w < 2; ++w) {
        K[w] = (float *)malloc(16 * np * sizeof(float));
        CHECK_OK(begin(ocl, &p[w], 1, 16));
        CHECK_OK(ocl->train->write_ws(ocl, idx, slot, 16));
        CHECK_OK(ocl->train->rows(ocl, 1));
        CHECK_OK(ocl->test.read_rows(ocl, K[w]));
        ocl->train->end(ocl);
    }
    for (i = 0; i < 16 * np; ++i) {
        const float h = gpusvm__kfun(GPUSVM__K_POLY, K[1][i], 0.0f, 0.0f, t->p.gamma, t->p.coef0, t->p.degree);
        diff += memcmp(&h, &K[0][i], sizeof h) != 0;
    }
    snprintf(what, sizeof what, "polynomial rows on the device are gpusvm__kfun of its linear rows bit for bit "
                                "(%lu of %lu differ)", (unsigned long)diff, (unsigned long)(16 * np));
    CHECK(diff == 0, what);
    free(K[0]);
    free(K[1]);
}

/* Rows of few features from gpusvm_rows_narrow and from the tiles (no_narrow): the same bits; nr
   rows of a working set of q from position q - nr on (the rounds' new half, or any count). */
static void narrow_check(gpusvm__backend *ocl, problem_t *t, int q, const char *label)
{
    gpusvm__ocl *b = (gpusvm__ocl *)ocl;
    const size_t n = t->p.nvar, np = t->p.x.rows;
    int *idx = (int *)malloc((size_t)q * 2 * sizeof(int)), *slot = idx + q, k, pass, took = 0;
    float *K[2];
    size_t i, diff = 0;
    char what[200];
    for (k = 0; k < q; ++k) {
        idx[k] = (int)(urand() * (double)n);
        slot[k] = (k * 7) % q; /* a permutation when q is not a multiple of 7 */
    }
    for (pass = 0; pass < 2; ++pass) {
        K[pass] = (float *)malloc((size_t)q * np * sizeof(float));
        b->batch.no_narrow = pass;
        CHECK_OK(begin(ocl, &t->p, 1, q));
        took += b->batch.narrow;
        CHECK_OK(ocl->train->write_ws(ocl, idx, slot, q));
        CHECK_OK(ocl->test.poison(ocl));
        CHECK_OK(ocl->train->rows(ocl, 1));
        CHECK_OK(ocl->test.read_rows(ocl, K[pass]));
        ocl->train->end(ocl);
    }
    b->batch.no_narrow = 0;
    for (i = 0; i < (size_t)q * np; ++i) diff += memcmp(&K[0][i], &K[1][i], sizeof(float)) != 0;
    snprintf(what, sizeof what, "%s: %d rows from gpusvm_rows_narrow (taken: %s) and from the tiles bit for bit (%lu differ)",
             label, q, took == 1 ? "yes" : "no", (unsigned long)diff);
    CHECK(took == 1 && diff == 0, what);
    free(K[0]);
    free(K[1]);
    free(idx);
}

/* The same rows from the sparse kernel and from the dense tiles: equal to rounding (kernels part 1b
   sums in another order). */
static void sparse_vs_dense(gpusvm__backend *dense, gpusvm__backend *sparse, problem_t *t, int q, const char *label)
{
    const size_t n = t->p.nvar, np = t->p.x.rows;
    int *idx = (int *)malloc((size_t)q * sizeof(int)), *slot = (int *)malloc((size_t)q * sizeof(int)), k;
    float *Kd = (float *)malloc((size_t)q * np * sizeof(float)), *Ks = (float *)malloc((size_t)q * np * sizeof(float));
    size_t i, bad = 0;
    char what[200];
    for (k = 0; k < q; ++k) {
        idx[k] = (int)((size_t)k * (n / (size_t)q) + (size_t)(urand() * (double)(n / (size_t)q)));
        slot[k] = q - 1 - k;
    }
    idx[0] = 1; /* the row with every feature, and the empty one */
    idx[1] = 2;
    CHECK_OK(begin(dense, &t->p, 1, q));
    CHECK_OK(begin(sparse, &t->p, 1, q));
    CHECK_OK(dense->train->write_ws(dense, idx, slot, q));
    CHECK_OK(sparse->train->write_ws(sparse, idx, slot, q));
    CHECK_OK(sparse->test.poison(sparse));
    CHECK_OK(dense->train->rows(dense, 1));
    CHECK_OK(sparse->train->rows(sparse, 1));
    CHECK_OK(dense->test.read_rows(dense, Kd));
    CHECK_OK(sparse->test.read_rows(sparse, Ks));
    for (i = 0; i < (size_t)q * np; ++i) bad += !close_rel(Ks[i], Kd[i], 2e-5, 2e-6);
    snprintf(what, sizeof what, "%s: gpusvm_rows_sparse agrees with the dense tiles (%lu of %lu differ)", label,
             (unsigned long)bad, (unsigned long)((size_t)q * np));
    CHECK(bad == 0, what);
    dense->train->end(dense);
    sparse->train->end(sparse);
    free(idx); free(slot); free(Kd); free(Ks);
}

/* Three coefficient vectors at once (as multiclass prediction uses them), one with a block of
   zeros, with the output poisoned first. */
static void decision_check(gpusvm__backend *cpu, gpusvm__backend *ocl, problem_t *sv, problem_t *x, const char *label)
{
    const size_t ns = sv->p.x.rows, nt = x->p.x.rows;
    const int nv = 3;
    double *coef = (double *)malloc((size_t)nv * ns * sizeof(double));
    double *d1 = (double *)malloc((size_t)nv * nt * sizeof(double)), *d2 = (double *)malloc((size_t)nv * nt * sizeof(double));
    size_t i, bad = 0;
    char what[160];
    for (i = 0; i < (size_t)nv * ns; ++i) coef[i] = (urand() < 0.2) ? 0.0 : 2.0 * urand() - 1.0;
    for (i = ns; i < ns + ns / 2; ++i) coef[i] = 0.0; /* vector 1: its first half is zero */
    for (i = 0; i < (size_t)nv * nt; ++i) d2[i] = NAN;
    CHECK_OK(cpu->decision(cpu, &sv->p.x, coef, nv, &x->p.x, sv->p.ktype, sv->p.gamma, sv->p.coef0, sv->p.degree, d1));
    CHECK_OK(ocl->decision(ocl, &sv->p.x, coef, nv, &x->p.x, sv->p.ktype, sv->p.gamma, sv->p.coef0, sv->p.degree, d2));
    for (i = 0; i < (size_t)nv * nt; ++i) bad += !close_rel(d2[i], d1[i], 1e-5, 1e-5);
    snprintf(what, sizeof what, "%s: decision values, 3 vectors (rows + update with offsets) match the C backend (%lu differ)",
             label, (unsigned long)bad);
    CHECK(bad == 0, what);
    free(coef); free(d1); free(d2);
}

/* A batch: four problems on one shared set of points through maps (a random subset, two runs
   as a one-vs-one pair has, a problem small enough to be whole, two variables per point as
   epsilon-SVR has), each with its own gamma as a grid's are, solved together must give each
   problem exactly what it gets alone on the same backend, and the two backends the same
   objectives. */
static double batch_obj(const double *alpha, const double *G, size_t n)
{
    double v = 0.0;
    size_t i;
    for (i = 0; i < n; ++i) v += alpha[i] * (G[i] - 1.0);
    return v / 2;
}

static void batch_check(gpusvm_context *c1, gpusvm_context *c2, const char *name)
{
    problem_t t;
    gpusvm__problem pb[4];
    gpusvm_train_info info[4], one;
    gpusvm_params prm;
    int32_t *map = (int32_t *)malloc(2000 * sizeof(int32_t));
    signed char *yv = (signed char *)malloc(2000);
    double *Cv = (double *)malloc(2000 * sizeof(double));
    double *a[2], *g[2], *a1 = (double *)malloc(2000 * sizeof(double)), *g1 = (double *)malloc(2000 * sizeof(double));
    size_t i, k, at = 0, off;
    int p, be, bad;
    char what[200];
    gpusvm_context *ctx[2];
    ctx[0] = c1;
    ctx[1] = c2;
    make_problem(&t, 700, 15, 0.5, 2);
    memset(pb, 0, sizeof pb);
    for (p = 0; p < 4; ++p) {
        const size_t npts = p == 0 ? 400 : p == 1 ? 300 : p == 2 ? 90 : 200;
        pb[p] = t.p;
        pb[p].gamma = t.p.gamma * (float)(1 + p); /* each its own kernel (a grid's gamma values in one batch) */
        pb[p].map = map + at;
        pb[p].npts = npts;
        pb[p].nvar = p == 3 ? 2 * npts : npts;
        pb[p].y = yv + at;
        pb[p].C = Cv + at;
        for (k = 0; k < npts; ++k) {
            if (p == 0) map[at + k] = (int32_t)(k * 700 / 400 + (size_t)(urand() * 1.7)); /* ascending, gaps */
            else if (p == 1) map[at + k] = (int32_t)(k < 150 ? k : 500 + (k - 150));
            else if (p == 2) map[at + k] = (int32_t)(600 + k);
            else map[at + k] = (int32_t)(699 - 3 * k);
        }
        for (k = 0; k < pb[p].nvar; ++k) {
            yv[at + k] = p == 3 ? (k < npts ? 1 : -1) : (urand() < 0.5 ? 1 : -1);
            Cv[at + k] = 0.5 + urand();
        }
        at += pb[p].nvar;
    }
    memset(&prm, 0, sizeof prm);
    prm.eps = 1e-3;
    prm.max_iter = 10000000;
    prm.cache_size_mb = 100;
    prm.working_set_size = 128;
    for (be = 0; be < 2; ++be) {
        a[be] = (double *)malloc(at * sizeof(double));
        g[be] = (double *)malloc(at * sizeof(double));
        memset(info, 0, sizeof info);
        CHECK_OK(gpusvm__solve_batch(ctx[be], pb, 4, &prm, NULL, NULL, a[be], g[be], info));
        for (p = 0, off = 0; p < 4; ++p) {
            memset(&one, 0, sizeof one);
            CHECK_OK(gpusvm__solve_batch(ctx[be], &pb[p], 1, &prm, NULL, NULL, a1, g1, &one));
            for (i = 0, bad = 0; i < pb[p].nvar; ++i) bad += a1[i] != a[be][off + i] || g1[i] != g[be][off + i];
            snprintf(what, sizeof what,
                     "%s: batch of 4, problem %d (%lu variables%s, gamma %g): the same alphas and gradient as alone "
                     "(%d differ), converged, %lld pair updates",
                     be ? name : "cpu", p, (unsigned long)pb[p].nvar, info[p].working_set_size == (int)pb[p].nvar
                     ? ", whole" : "", pb[p].gamma, bad, info[p].iterations);
            CHECK(bad == 0 && info[p].converged && one.converged && info[p].iterations == one.iterations &&
                      info[p].iterations > 0, what);
            off += pb[p].nvar;
        }
    }
    for (p = 0, off = 0; p < 4; ++p) {
        const double o0 = batch_obj(a[0] + off, g[0] + off, pb[p].nvar), o1 = batch_obj(a[1] + off, g[1] + off, pb[p].nvar);
        snprintf(what, sizeof what, "batch problem %d: objective %.10g (%s) vs %.10g (cpu)", p, o1, name, o0);
        CHECK(close_rel(o1, o0, 1e-6, 1e-9) && o0 < 0.0, what);
        off += pb[p].nvar;
    }
    for (be = 0; be < 2; ++be) {
        free(a[be]);
        free(g[be]);
    }
    free(a1); free(g1); free(map); free(yv); free(Cv);
    free_problem(&t);
}

/* The row cache (kernels part 1c): one problem of many more variables than its working set (RBF,
   polynomial, two variables per point as epsilon-SVR has; q = 16: fewer slots than a work-group),
   and a batch of three such problems over one set of points (each its own gamma and slots: a
   cross-validation's folds, a grid's lanes), solved with the cache and without it (no_cache): the
   same alphas, gradient and pair updates bit for bit, rows found held, and every round's new rows
   of every problem either found or computed. */
static void cache_check(gpusvm_context *c, const char *name)
{
    static const char *const kinds[4] = {"rbf", "poly", "rbf, two variables a point", "a batch of 3 (rbf)"};
    gpusvm__ocl *b = (gpusvm__ocl *)c->backend;
    problem_t t;
    gpusvm__problem pb[3];
    gpusvm_params prm;
    gpusvm_train_info info[2][3];
    double *a[2], *g[2];
    int32_t map[1500];
    signed char yv[2 * 1500];
    double Cv[2 * 1500];
    unsigned reused = 0, computed = 0;
    size_t i, bad, nvar;
    int pass, kind, np, p, same_iter;
    long long want;
    char what[300];
    for (kind = 0; kind < 4; ++kind) {
        const int q = kind == 2 ? 16 : 64;
        if (kind == 2) make_problem_v(&t, 1000, 9, 0.7, 2, 1);
        else make_problem(&t, 2000, 9, 0.7, kind == 1 ? 1 : 2);
        pb[0] = t.p;
        np = 1;
        nvar = t.p.nvar;
        if (kind == 3) { /* all 2000 points; 1500 of them, every fourth left out; 600 of them twice */
            size_t at = 0, k;
            for (k = 0; k < 2000; ++k)
                if (k % 4 != 3) map[at++] = (int32_t)k;
            pb[1] = t.p;
            pb[1].map = map;
            pb[1].npts = pb[1].nvar = 1500;
            pb[1].gamma = 2.0f * t.p.gamma;
            pb[2] = pb[1];
            pb[2].npts = 600;
            pb[2].nvar = 1200;
            pb[2].y = yv;
            pb[2].C = Cv;
            pb[2].gamma = 0.5f * t.p.gamma;
            for (k = 0; k < 1200; ++k) {
                yv[k] = k < 600 ? 1 : -1;
                Cv[k] = 0.5 + urand();
            }
            np = 3;
            nvar = 2000 + 1500 + 1200;
        }
        memset(&prm, 0, sizeof prm);
        prm.eps = 1e-2;
        prm.max_iter = 10000000;
        prm.working_set_size = q;
        for (pass = 0; pass < 2; ++pass) {
            a[pass] = (double *)malloc(nvar * sizeof(double));
            g[pass] = (double *)malloc(nvar * sizeof(double));
            memset(info[pass], 0, sizeof info[pass]);
            b->batch.no_cache = pass;
            b->batch.rc_reused = b->batch.rc_computed = 0;
            CHECK_OK(gpusvm__solve_batch(c, pb, np, &prm, NULL, NULL, a[pass], g[pass], info[pass]));
            if (pass == 0) {
                reused = b->batch.rc_reused;
                computed = b->batch.rc_computed;
            }
        }
        b->batch.no_cache = 0;
        for (i = 0, bad = 0; i < nvar; ++i)
            bad += memcmp(&a[0][i], &a[1][i], sizeof(double)) != 0 || memcmp(&g[0][i], &g[1][i], sizeof(double)) != 0;
        for (p = 0, want = 0, same_iter = 1; p < np; ++p) { /* each problem: its first round's rows, then new halves */
            want += q + (info[0][p].outer_iterations - 1) * (q / 2);
            same_iter &= info[0][p].iterations == info[1][p].iterations && info[0][p].converged;
        }
        snprintf(what, sizeof what,
                 "%s %s, %lu variables, q=%d: with the row cache the same alphas and gradient as without (%lu differ), "
                 "%lld and %lld pair updates, %u rows found held + %u computed = %lld new",
                 name, kinds[kind], (unsigned long)nvar, q, (unsigned long)bad, info[0][0].iterations,
                 info[1][0].iterations, reused, computed, want);
        CHECK(bad == 0 && same_iter && reused > 0 && (long long)reused + computed == want, what);
        printf("  %s\n", what);
        for (pass = 0; pass < 2; ++pass) {
            free(a[pass]);
            free(g[pass]);
        }
        free_problem(&t);
    }
}

/* The sparse layout (gpusvm_rows_sparse): every kernel type on sparse points with an empty row and
   a row of every feature, against the C backend and the dense tiles; prediction with test points
   wider than the support vectors; a batch; a precomputed kernel (kept dense). */
static void sparse_checks(gpusvm_context *c1, gpusvm_context *dense, gpusvm_context *c3)
{
    const char *kn[4] = {"linear", "poly", "rbf", "sigmoid"};
    problem_t t, sv, x;
    int kt;
    for (kt = 0; kt < 4; ++kt) {
        char label[96];
        make_problem(&t, 600 + (size_t)(urand() * 300), 2500 + (size_t)(urand() * 2000), 0.01, kt);
        special_rows(&t);
        snprintf(label, sizeof label, "sparse %s n=%lu d=%lu q=128", kn[kt], (unsigned long)t.p.x.rows,
                 (unsigned long)t.p.x.cols);
        round_trip(c1->backend, c3->backend, &t, 128, label);
        sparse_vs_dense(dense->backend, c3->backend, &t, 128, label);
        few_rows_check(c1->backend, c3->backend, &t, label);
        make_problem(&sv, 1100 + (size_t)(urand() * 300), t.p.x.cols, 0.02, kt); /* more than one 1024-row block */
        special_rows(&sv);
        make_problem(&x, 300 + (size_t)(urand() * 200), t.p.x.cols + 3, 0.02, kt); /* features past the SVs' */
        decision_check(c1->backend, c3->backend, &sv, &x, label);
        free_problem(&sv);
        free_problem(&x);
        free_problem(&t);
    }
    { /* a row of every feature, 16 short of four tables' worth, first and alone or before seven rows:
         its passes and its values the same (the seven rows' entries alone make a pass more) */
        const size_t se = ((size_t)1 << ((gpusvm__ocl *)c3->backend)->batch.sparse_hash_log) / 2;
        make_problem(&t, 700, 4 * se - 16, 0.05, GPUSVM__K_RBF);
        special_rows(&t);
        few_rows_check_at(c1->backend, c3->backend, &t, "sparse rbf, the row of every feature first", 1);
        free_problem(&t);
    }
    make_problem(&t, 300, 300, 0.5, 4);
    few_rows_check(c1->backend, c3->backend, &t, "precomputed with sparse storage asked (kept dense)");
    free_problem(&t);
    batch_check(c1, c3, "opencl sparse");
}

/* Crammer-Singer's device steps against the C backend's on random clustered classes (3, 7 and
   26 of them): both reach the gap, with the same dual objective and the same predictions on
   the training points; on each backend the row cache on and off (a 1 MB row budget) give the
   same model; the dual at eps 0.01 lies within eps of a tight (1e-5) run's; class weights act
   as the same per-sample weights; max_iter stops it unconverged. */
static gpusvm_model *cs_train(gpusvm_context *c, const gpusvm_matrix *ds, const double *y, double eps,
                              double cache_mb, const gpusvm_params *base)
{
    gpusvm_params p;
    gpusvm_model *m = NULL;
    if (base) p = *base;
    else memset(&p, 0, sizeof p);
    p.svm_type = GPUSVM_CRAMMER_SINGER;
    p.kernel_type = GPUSVM_KERNEL_RBF;
    p.C = 2.0;
    p.gamma = 0.5;
    p.eps = eps;
    p.cache_size_mb = cache_mb;
    if (gpusvm_train(c, ds, y, &p, &m) != GPUSVM_OK) {
        CHECK(0, gpusvm_context_error(c));
        return NULL;
    }
    return m;
}

/* cancels at its first call; counts its calls and checks the gap it is shown */
static int cs_calls, cs_bad_gap;
static int cs_cancel(void *user, const gpusvm_progress *pr)
{
    (void)user;
    cs_bad_gap += !(pr->gap > 0.0) || pr->eps != 1e-3;
    return ++cs_calls >= 1;
}

static int cs_same_model(const gpusvm_model *a, const gpusvm_model *b)
{
    size_t k, r;
    if (a->total_sv != b->total_sv || a->info.obj != b->info.obj) return 0;
    for (r = 0; r < (size_t)a->nr_class; ++r)
        for (k = 0; k < a->total_sv; ++k)
            if (a->sv_coef[r * a->total_sv + k] != b->sv_coef[r * b->total_sv + k]) return 0;
    return 1;
}

/* Folds as one batch: three problems on rows of x (one of them every third row, one a class
   short) trained together give each one the model it gets alone on its rows' own copy. */
static void cs_batch_check(gpusvm_context *c, const gpusvm_matrix *ds, const double *y, const char *name)
{
    gpusvm__input in, sub;
    gpusvm__csr *x;
    size_t *rows[3], nr[3], i, n = ds->rows;
    double *ys = (double *)malloc(n * sizeof(double));
    gpusvm_model *batch[3] = {NULL, NULL, NULL}, *alone = NULL;
    gpusvm_params p;
    int f, same = 0;
    char msg[200];
    memset(&p, 0, sizeof p);
    p.svm_type = GPUSVM_CRAMMER_SINGER;
    p.kernel_type = GPUSVM_KERNEL_RBF;
    p.C = 2.0;
    p.gamma = 0.5;
    p.eps = 1e-3;
    p.degree = 3;
    CHECK_OK(gpusvm__input_make(c, ds, "x", &in));
    x = &in.m;
    for (f = 0; f < 3; ++f) {
        rows[f] = (size_t *)malloc(n * sizeof(size_t));
        nr[f] = 0;
        for (i = 0; i < n; ++i)
            if ((f == 0 && i % 3 != 0) || (f == 1 && i % 3 == 0) || (f == 2 && y[i] != y[0])) rows[f][nr[f]++] = i;
    }
    CHECK_OK(gpusvm__train_cs_many(c, x, y, &p, 3, (const size_t *const *)rows, nr, batch, 0.0));
    for (f = 0; f < 3 && batch[f]; ++f) {
        for (i = 0; i < nr[f]; ++i) ys[i] = y[rows[f][i]];
        CHECK_OK(gpusvm__csr_rows(c, x, rows[f], nr[f], &sub));
        CHECK_OK(gpusvm__train_cs(c, &sub.m, ys, &p, &alone, 0.0));
        same += alone && cs_same_model(batch[f], alone) && batch[f]->nr_class == alone->nr_class;
        gpusvm_model_free(alone);
        alone = NULL;
        gpusvm__input_free(c, &sub);
    }
    snprintf(msg, sizeof msg, "crammer-singer %s: three folds trained as one batch are the models they are alone (%d of 3)",
             name, same);
    CHECK(same == 3, msg);
    for (f = 0; f < 3; ++f) {
        gpusvm_model_free(batch[f]);
        free(rows[f]);
    }
    gpusvm__input_free(c, &in);
    free(ys);
}

static void cs_checks(gpusvm_context *c1, gpusvm_context *c2)
{
    const int classes[3] = {3, 7, 26};
    const size_t d = 6;
    int ci;
    for (ci = 0; ci < 3; ++ci) {
        const int m = classes[ci];
        const size_t n = 300 + (size_t)m * 20;
        float *x = (float *)malloc(n * d * sizeof(float)), *ctr = (float *)malloc((size_t)m * d * sizeof(float));
        double *y = (double *)malloc(n * sizeof(double)), *sw = (double *)malloc(n * sizeof(double));
        double *pa = (double *)malloc(n * sizeof(double)), *pb = (double *)malloc(n * sizeof(double));
        gpusvm_model *mc = NULL, *mo = NULL, *mc0 = NULL, *mo0 = NULL, *tight = NULL, *w1 = NULL, *w2 = NULL, *mi = NULL;
        gpusvm_matrix ds;
        gpusvm_params p;
        size_t i, j, same = 0;
        char msg[300];
        for (i = 0; i < (size_t)m * d; ++i) ctr[i] = (float)(2.0 * urand() - 1.0);
        for (i = 0; i < n; ++i) {
            const int k = (int)(urand() * m) % m;
            y[i] = (double)(k * 3 + 1); /* labels not 0..m-1 */
            sw[i] = k == 1 ? 3.0 : 1.0;
            for (j = 0; j < d; ++j) x[i * d + j] = ctr[(size_t)k * d + j] + (float)(0.6 * (urand() - 0.5));
        }
        memset(&ds, 0, sizeof ds);
        ds.rows = n;
        ds.cols = d;
        ds.values = x;
        mc = cs_train(c1, &ds, y, 1e-3, 0.0, NULL);
        mo = cs_train(c2, &ds, y, 1e-3, 0.0, NULL);
        mc0 = cs_train(c1, &ds, y, 1e-3, 1.0, NULL);
        mo0 = cs_train(c2, &ds, y, 1e-3, 1.0, NULL);
        tight = cs_train(c1, &ds, y, 1e-5, 0.0, NULL);
        if (!mc || !mo || !mc0 || !mo0 || !tight) goto next;
        snprintf(msg, sizeof msg,
                 "crammer-singer m=%d n=%lu: both backends reach the gap (%g, %g < 1e-3), duals %.12g and %.12g within the gap of each other",
                 m, (unsigned long)n, mc->info.gap, mo->info.gap, mc->info.obj, mo->info.obj);
        CHECK(mc->info.converged && mo->info.converged && mc->info.gap < 1e-3 && mo->info.gap < 1e-3 &&
                  close_rel(mc->info.obj, mo->info.obj, 1e-3, 0.0),
              msg);
        CHECK_OK(gpusvm_predict(c1, mc, &ds, pa, NULL));
        CHECK_OK(gpusvm_predict(c1, mo, &ds, pb, NULL));
        for (i = 0; i < n; ++i) same += pa[i] == pb[i];
        snprintf(msg, sizeof msg, "crammer-singer m=%d: the two backends' models predict alike (%lu of %lu)", m,
                 (unsigned long)same, (unsigned long)n);
        CHECK(same + n / 200 >= n, msg);
        snprintf(msg, sizeof msg, "crammer-singer m=%d: the row cache on and off give the same model (C backend, OpenCL)", m);
        CHECK(cs_same_model(mc, mc0) && cs_same_model(mo, mo0), msg);
        snprintf(msg, sizeof msg, "crammer-singer m=%d: the dual at eps 1e-3 (%.10g) is within 1e-3 of the eps 1e-5 run's (%.10g)",
                 m, mc->info.obj, tight->info.obj);
        CHECK(mc->info.obj <= tight->info.obj * (1.0 + 1e-9) && mc->info.obj >= tight->info.obj * (1.0 - 1e-3) &&
                  tight->info.gap < 1e-5,
              msg);
        memset(&p, 0, sizeof p); /* class 4 (k = 1) weighted 3, or each of its points */
        {
            int wl = 4;
            double wv = 3.0;
            p.n_weight = 1;
            p.weight_label = &wl;
            p.weight = &wv;
            w1 = cs_train(c2, &ds, y, 1e-3, 0.0, &p);
            memset(&p, 0, sizeof p);
            p.sample_weight = sw;
            w2 = cs_train(c2, &ds, y, 1e-3, 0.0, &p);
        }
        snprintf(msg, sizeof msg, "crammer-singer m=%d: a class weight is its points' sample weight (duals %.12g, %.12g)", m,
                 w1 ? w1->info.obj : 0.0, w2 ? w2->info.obj : 0.0);
        CHECK(w1 && w2 && cs_same_model(w1, w2) && w1->info.obj != mo->info.obj, msg);
        if (m != 26) {
            snprintf(msg, sizeof msg, "m=%d C backend", m);
            cs_batch_check(c1, &ds, y, msg);
            snprintf(msg, sizeof msg, "m=%d OpenCL", m);
            cs_batch_check(c2, &ds, y, msg);
        }
        memset(&p, 0, sizeof p);
        p.max_iter = 40;
        mi = cs_train(c2, &ds, y, 1e-3, 0.0, &p);
        CHECK(mi && !mi->info.converged && mi->info.iterations >= 40, "crammer-singer: max_iter stops it unconverged");
        {
            gpusvm_model *mx = NULL;
            gpusvm_context *cc[2];
            gpusvm_result r2;
            int b2;
            cc[0] = c1;
            cc[1] = c2;
            for (b2 = 0; b2 < 2; ++b2) {
                memset(&p, 0, sizeof p);
                p.svm_type = GPUSVM_CRAMMER_SINGER;
                p.C = 2.0;
                p.gamma = 0.5;
                p.eps = 1e-3;
                p.progress = cs_cancel;
                cs_calls = cs_bad_gap = 0;
                r2 = gpusvm_train(cc[b2], &ds, y, &p, &mx);
                snprintf(msg, sizeof msg, "crammer-singer m=%d: the progress callback cancels it (%s; %d calls)", m,
                         b2 ? "OpenCL" : "C backend", cs_calls);
                CHECK(r2 == GPUSVM_ERROR_CANCELLED && mx == NULL && cs_calls == 1 && cs_bad_gap == 0, msg);
                gpusvm_model_free(mx);
                mx = NULL;
            }
        }
    next:
        gpusvm_model_free(mc);
        gpusvm_model_free(mo);
        gpusvm_model_free(mc0);
        gpusvm_model_free(mo0);
        gpusvm_model_free(tight);
        gpusvm_model_free(w1);
        gpusvm_model_free(w2);
        gpusvm_model_free(mi);
        free(x);
        free(ctr);
        free(y);
        free(sw);
        free(pa);
        free(pb);
    }
}

/* The batch's working-set size: the OpenCL backend halves it for a problem of GPUSVM__LARGE_NVAR
   variables or more unless the user names a size; the C backend keeps its cap. */
static void working_set_check(gpusvm_context *cpu, gpusvm_context *ocl)
{
    const gpusvm__backend *b = ocl->backend;
    gpusvm__problem p[2];
    gpusvm_params prm;
    memset(p, 0, sizeof p);
    memset(&prm, 0, sizeof prm);
    p[0].nvar = p[0].npts = GPUSVM__LARGE_NVAR - 1;
    p[1].nvar = p[1].npts = 5000;
    CHECK(gpusvm__batch_q(b, p, 2, &prm, 0) == b->qcap, "below the large size the working set is the cap");
    CHECK(b->qcap < 1024 || b->q_large == b->qcap / 2, "a 1024-wide device halves it for large problems");
    p[0].nvar = p[0].npts = GPUSVM__LARGE_NVAR;
    CHECK(gpusvm__batch_q(b, p, 2, &prm, 0) == (b->q_large ? b->q_large : b->qcap),
          "a batch holding a large problem takes the backend's size for it");
    prm.working_set_size = 1024;
    CHECK(gpusvm__batch_q(b, p, 2, &prm, 0) == b->qcap, "the user's working-set size wins");
    prm.working_set_size = 0;
    CHECK(gpusvm__batch_q(cpu->backend, p, 2, &prm, 0) == cpu->backend->qcap, "the C backend keeps its cap");
}

/* How long a problem may go without a new low of its gap before it counts as stalled: 2000 rounds,
   or the rounds that bring in each of its variables four times (q/2 a round) when more. */
static void patience_check(gpusvm_context *c)
{
    gpusvm__problem p[2];
    gpusvm__batch_run run;
    memset(p, 0, sizeof p);
    p[0].nvar = 4000000;
    p[1].nvar = 30000;
    CHECK_OK(gpusvm__batch_run_alloc(c, p, 2, 512, &run));
    CHECK(run.patience[0] == 62500, "a 4M-variable problem at q = 512 waits 62500 rounds");
    CHECK(run.patience[1] == 2000, "a small problem waits 2000 rounds");
    gpusvm__batch_run_free(&c->alloc, &run);
}

/* Two models the same to the bit: support vectors, coefficients, rho, objective. */
static int same_model(const gpusvm_model *a, const gpusvm_model *b)
{
    const size_t npair = (size_t)a->nr_class * (size_t)(a->nr_class - 1) / 2;
    size_t k;
    if (a->nr_class != b->nr_class || a->total_sv != b->total_sv || a->info.obj != b->info.obj) return 0;
    for (k = 0; k < (size_t)(a->nr_class - 1) * a->total_sv; ++k)
        if (a->sv_coef[k] != b->sv_coef[k]) return 0;
    for (k = 0; k < npair; ++k)
        if (a->rho[k] != b->rho[k]) return 0;
    for (k = 0; k <= a->total_sv; ++k)
        if (a->sv_row_ptr[k] != b->sv_row_ptr[k]) return 0;
    return 1;
}

/* n points of d features, row-major in x, as a dense matrix. */
static gpusvm_matrix dense_of(float *x, size_t n, size_t d)
{
    gpusvm_matrix m;
    memset(&m, 0, sizeof m);
    m.rows = n;
    m.cols = d;
    m.layout = GPUSVM_LAYOUT_DENSE;
    m.values = x;
    return m;
}

/* A desc for an OpenCL context of its own, the environment ignored, its messages to fn. */
static void opencl_desc(gpusvm_context_desc *desc, void (*fn)(void *, gpusvm_log_level, const char *))
{
    memset(desc, 0, sizeof *desc);
    desc->ignore_environment = 1;
    desc->backend = GPUSVM_BACKEND_OPENCL;
    desc->logger.fn = fn;
}

/* One binary problem larger than its working set on several devices: split by rows (each device
   says its share), and the one-device model, bit for bit, with its iterations. */
static int rows_said, beside_said, opened; /* opened: devices opened (each says its arithmetic once) */
static void rows_logger(void *user, gpusvm_log_level level, const char *msg)
{
    (void)user;
    (void)level;
    rows_said += strstr(msg, "of a problem split by rows") != NULL;
    beside_said += strstr(msg, "of a problem split by rows") != NULL && strstr(msg, "the inner solve beside its rows");
    opened += strstr(msg, ": double precision ") != NULL;
}

/* A problem split by rows on ndev devices gives the one-device model, each share's inner solve
   beside its rows (by default) and after them (GPUSVM_OVERLAP=off). */
static void rows_case(gpusvm_context *one, gpusvm_context *many, int ndev, const gpusvm_matrix *ds, const double *y,
                      const gpusvm_params *p, const char *what)
{
    gpusvm_model *m1 = NULL, *m2 = NULL;
    char msg[256];
    int off;
    CHECK_OK(gpusvm_train(one, ds, y, p, &m1));
    for (off = 0; off < 2; ++off) {
        rows_said = beside_said = 0;
        many->overlap = off ? 2 : 0;
        CHECK_OK(gpusvm_train(many, ds, y, p, &m2));
        snprintf(msg, sizeof msg, "%s on %d devices: split by rows (%d shares said, %d with the inner solve beside its rows), "
                 "the one-device model", what, ndev, rows_said, beside_said);
        CHECK(m1 && m2 && rows_said == ndev && beside_said == (off ? 0 : ndev) && same_model(m1, m2) &&
                  m1->info.iterations == m2->info.iterations,
              msg);
        gpusvm_model_free(m2);
        m2 = NULL;
    }
    many->overlap = 0;
    gpusvm_model_free(m1);
}

/* Work this small does not pay for a second device: it trains on the first, the second never
   opened (its context not made), the one-device model. */
static void lazy_device_checks(gpusvm_context *one, gpusvm_context_desc *desc, const gpusvm_matrix *ds, const double *y,
                               const double *yb, const gpusvm_model *m1)
{
    gpusvm_context *two = NULL;
    gpusvm_model *m2 = NULL, *b1 = NULL;
    gpusvm_params p;
    opened = rows_said = 0;
    CHECK_OK(gpusvm_context_create(desc, &two));
    CHECK(opened == 1, "several devices: the first opened with the context, the others not yet");
    memset(&p, 0, sizeof p);
    p.kernel_type = GPUSVM_KERNEL_RBF;
    p.C = 4.0;
    p.gamma = 0.3;
    CHECK_OK(gpusvm_train(two, ds, y, &p, &m2));
    CHECK(same_model(m1, m2) && opened == 1, "six small pairs on two devices: all on the first, the second not opened");
    gpusvm_model_free(m2);
    m2 = NULL;
    p.working_set_size = 256;
    CHECK_OK(gpusvm_train(one, ds, yb, &p, &b1));
    CHECK_OK(gpusvm_train(two, ds, yb, &p, &m2));
    CHECK(b1 && m2 && same_model(b1, m2) && rows_said == 0 && opened == 1,
          "a small binary problem on two devices: not split, the second not opened, the one-device model");
    gpusvm_model_free(b1);
    gpusvm_model_free(m2);
    gpusvm_context_destroy(two);
}

/* Several devices (here one device opened twice, then three times; GPUSVM_SPREAD=always, as the
   problems are small): one-vs-one pairs, the folds of a cross-validation and a batch too large for
   one share give each problem the one-device model; one binary problem split by rows too;
   Crammer-Singer and prediction (on the first device) too; bad lists are errors. */
static void multi_device_checks(gpusvm_context *one)
{
    const size_t n = 2800, d = 10;
    char name[256], sel[1024];
    const char *paren;
    float *x = (float *)malloc(n * d * sizeof(float));
    double *y = (double *)malloc(n * sizeof(double)), *yb = (double *)malloc(n * sizeof(double));
    double *yr = (double *)malloc(n * sizeof(double));
    double *t1 = (double *)malloc(n * sizeof(double)), *t2 = (double *)malloc(n * sizeof(double));
    double *dv1 = (double *)malloc(n * 6 * sizeof(double)), *dv2 = (double *)malloc(n * 6 * sizeof(double));
    gpusvm_matrix ds;
    gpusvm_params p;
    gpusvm_context_desc desc;
    gpusvm_context *many[2] = {NULL, NULL};
    gpusvm_model *m1 = NULL, *m2 = NULL;
    size_t i, k;
    int ndev;
    snprintf(name, sizeof name, "%s", gpusvm_context_device_name(one));
    if ((paren = strstr(name, " (")) != NULL) name[paren - name] = 0;
    if (strchr(name, ',')) {
        printf("test_kernels: several devices not checked (the device name '%s' holds a comma)\n", name);
        free(x), free(y), free(yb), free(yr), free(t1), free(t2), free(dv1), free(dv2);
        return;
    }
    for (i = 0; i < n; ++i) { /* four overlapping classes */
        const int c = (int)(i % 4);
        y[i] = c;
        yb[i] = c < 2 ? 1.0 : -1.0;
        for (k = 0; k < d; ++k) x[i * d + k] = (float)(urand() * 2.0 - 1.0 + (k == (size_t)c ? 0.8 : 0.0));
        yr[i] = x[i * d] - 0.5 * x[i * d + 1];
    }
    ds = dense_of(x, n, d);
    opencl_desc(&desc, rows_logger);
    desc.fp64 = pairs ? GPUSVM_FP64_OFF : GPUSVM_FP64_AUTO; /* as the one-device context */
    snprintf(sel, sizeof sel, "%s,%s", name, name);
    desc.devices = sel;
    memset(&p, 0, sizeof p);
    p.kernel_type = GPUSVM_KERNEL_RBF;
    p.C = 4.0;
    p.gamma = 0.3;
    CHECK_OK(gpusvm_train(one, &ds, y, &p, &m1)); /* six pairs of 1400 points: working sets of q < n */
    lazy_device_checks(one, &desc, &ds, y, yb, m1);
    CHECK_OK(gpusvm_context_create(&desc, &many[0]));
    snprintf(sel, sizeof sel, "%s,%s,%s", name, name, name);
    CHECK_OK(gpusvm_context_create(&desc, &many[1]));
    many[0]->spread = many[1]->spread = 1; /* GPUSVM_SPREAD=always */
    CHECK(strncmp(gpusvm_context_device_name(many[0]), "2 devices:", 10) == 0, "two devices are named as such");
    for (ndev = 0; ndev < 2; ++ndev) {
        opened = 0;
        CHECK_OK(gpusvm_train(many[ndev], &ds, y, &p, &m2));
        CHECK(same_model(m1, m2), "one-vs-one on several devices: the one-device model");
        CHECK(opened == ndev + 1, "the devices past the first opened by the first training that spreads to them");
        CHECK_OK(gpusvm_predict(many[ndev], m1, &ds, NULL, dv2));
        CHECK_OK(gpusvm_predict(one, m1, &ds, NULL, dv1));
        CHECK(memcmp(dv1, dv2, n * 6 * sizeof(double)) == 0, "prediction on several devices: the same values");
        gpusvm_model_free(m2);
        CHECK_OK(gpusvm_cross_validation(one, &ds, yb, &p, 5, t1));
        CHECK_OK(gpusvm_cross_validation(many[ndev], &ds, yb, &p, 5, t2));
        CHECK(memcmp(t1, t2, n * sizeof(double)) == 0, "five folds on several devices: the one-device predictions");
        p.working_set_size = 256; /* 2800 variables: 11 working sets' worth */
        rows_case(one, many[ndev], ndev + 2, &ds, yb, &p, "C-SVC");
        p.svm_type = GPUSVM_NU_SVC;
        p.nu = 0.3;
        rows_case(one, many[ndev], ndev + 2, &ds, yb, &p, "nu-SVC");
        p.svm_type = GPUSVM_EPSILON_SVR;
        p.p = 0.1;
        rows_case(one, many[ndev], ndev + 2, &ds, yr, &p, "epsilon-SVR");
        p.svm_type = GPUSVM_C_SVC;
        p.working_set_size = 0;
    }
    gpusvm_model_free(m1);
    p.svm_type = GPUSVM_CRAMMER_SINGER;
    CHECK_OK(gpusvm_train(one, &ds, y, &p, &m1));
    CHECK_OK(gpusvm_train(many[0], &ds, y, &p, &m2));
    CHECK(m1->info.obj == m2->info.obj && m1->total_sv == m2->total_sv, "Crammer-Singer on several devices: the same");
    gpusvm_model_free(m1);
    gpusvm_model_free(m2);
    gpusvm_context_destroy(many[0]);
    gpusvm_context_destroy(many[1]);
    {
        const char *bad[3] = {"0,,0", "0,99999", ","};
        char err[256];
        gpusvm_context *c = NULL;
        desc.error = err;
        desc.error_size = sizeof err;
        for (k = 0; k < 3; ++k) {
            desc.devices = bad[k];
            CHECK(gpusvm_context_create(&desc, &c) == GPUSVM_ERROR_NO_DEVICE && !c && err[0],
                  "a bad device list is an error that says why");
        }
    }
    free(x), free(y), free(yb), free(yr), free(t1), free(t2), free(dv1), free(dv2);
}

/* A failing call's detail (the OpenCL call, its code and line), printed beside the check that fails. */
/* The inner solve beside the rows where it pays: "kernel launches" lines said as each backend
   closes (a lane when its jobs end, the context's at its destroy); the blocks gathered from the
   rows (gpusvm_gather_block) mean the inner solve ran after the rows. */
static int ov_lines, ov_gathered; /* lines that launched gpusvm_smo, and of them those with gathered blocks */
static void ov_logger(void *user, gpusvm_log_level level, const char *msg)
{
    (void)user;
    (void)level;
    if (strncmp(msg, "kernel launches:", 16) != 0 || !strstr(msg, "gpusvm_smo")) return;
    ++ov_lines;
    ov_gathered += strstr(msg, "gpusvm_gather_block") != NULL;
}

/* One training of ds at working sets of q on a fresh context: 1 where its inner solve ran beside
   the rows, 0 after them, -1 on failure. */
static int ov_train(gpusvm_context_desc *desc, const gpusvm_matrix *ds, const double *y, int q)
{
    gpusvm_context *ctx = NULL;
    gpusvm_model *m = NULL;
    gpusvm_params p;
    int ok;
    memset(&p, 0, sizeof p);
    p.C = 2.0;
    p.gamma = 0.2;
    p.working_set_size = q;
    ov_lines = ov_gathered = 0;
    ok = gpusvm_context_create(desc, &ctx) == GPUSVM_OK && gpusvm_train(ctx, ds, y, &p, &m) == GPUSVM_OK;
    gpusvm_model_free(m);
    gpusvm_context_destroy(ctx);
    return ok && ov_lines == 1 ? ov_gathered == 0 : -1;
}

/* The row cache's budget (gpusvm__ocl_cache_plan, host arithmetic only): 2 GiB, on a grid's lane
   2 GiB or a 32nd of the device's memory, the larger; params.cache_size_mb instead where set; never
   more than half of what the memory budget has left; at most 8q rows a problem; none where it
   holds q rows or fewer.
   Rows of 1M points are 4 MiB (q = 512); a grid lane's five a9a folds 102 KB (q = 1024). */
static void cache_budget_check(void)
{
    static const struct {
        double gib, budget_gib, m_mb; /* the device's memory, the memory budget left, -m (0: unset) */
        int lane, nprob;
        size_t pts, nvar;
        int q, slots;
        const char *what;
    } c[] = {
        {144, 144, 0, 0, 1, 1 << 20, 1 << 20, 512, 0, "1M points, one batch: 2 GiB, q rows, so none"},
        {144, 144, 0, 1, 1, 1 << 20, 1 << 20, 512, 1152, "1M points on a lane of a 144 GiB device: a 32nd, 4.5 GiB"},
        {80, 80, 0, 1, 1, 1 << 20, 1 << 20, 512, 640, "1M points on a lane of an 80 GiB device: 2.5 GiB"},
        {144, 6, 0, 1, 1, 1 << 20, 1 << 20, 512, 768, "1M points on a lane, 6 GiB left: half of it"},
        {144, 144, 8192, 0, 1, 1 << 20, 1 << 20, 512, 2048, "1M points, -m 8192: its 8 GiB"},
        {144, 144, 100, 1, 1, 1 << 20, 1 << 20, 512, 0, "1M points on a lane, -m 100: fewer than q rows, so none"},
        {144, 144, 0, 0, 5, 26112, 26049, 1024, 4112, "five folds, one batch: 2 GiB"},
        {144, 18, 0, 1, 5, 26112, 26049, 1024, 8192, "a lane's five folds on a 144 GiB device: 8q rows a fold"},
        {24, 3, 0, 1, 5, 26112, 26049, 1024, 3084, "a lane's five folds on a 24 GiB device: half of the 3 GiB left"},
        {8, 8, 0, 1, 5, 26112, 26049, 1024, 4112, "a lane's five folds on an 8 GiB device: 2 GiB"},
    };
    size_t k;
    for (k = 0; k < sizeof c / sizeof c[0]; ++k) {
        gpusvm__ocl b;
        gpusvm__problem p[5];
        gpusvm__plan plan;
        size_t bytes[GPUSVM__TB_COUNT];
        char what[200];
        int t;
        memset(&b, 0, sizeof b);
        memset(p, 0, sizeof p);
        memset(&plan, 0, sizeof plan);
        memset(bytes, 0, sizeof bytes);
        b.global_mem = (size_t)(c[k].gib * 1073741824.0);
        b.mem_budget = (size_t)(c[k].budget_gib * 1073741824.0);
        b.max_alloc = b.global_mem;
        b.batch.ldk = c[k].pts;
        b.ov.lane = c[k].lane;
        for (t = 0; t < c[k].nprob; ++t) {
            p[t].npts = c[k].pts;
            p[t].nvar = c[k].nvar;
        }
        plan.q = c[k].q;
        plan.rows_budget = (size_t)(c[k].m_mb * 1048576.0);
        gpusvm__ocl_cache_plan(&b, p, c[k].nprob, &plan, bytes);
        snprintf(what, sizeof what, "row cache budget: %s: %d slots a problem (want %d)", c[k].what, b.batch.cslots,
                 c[k].slots);
        CHECK(b.batch.cslots == c[k].slots &&
                  bytes[GPUSVM__TB_K] == (size_t)c[k].nprob * (size_t)b.batch.cslots * c[k].pts * sizeof(float),
              what);
    }
}

/* 1,200 points: at working sets of 16 a round's new rows (8 x 1,200) are more than eight times the
   16 x 16 block, so the inner solve runs beside them; at 128 they are not (64 x 1,200 against
   8 x 128 x 128). A grid's lanes keep it after the rows whatever the size, and give the rates of
   the one batch, which takes it. */
static void overlap_rule_checks(void)
{
    const size_t n = 1200, d = 6;
    float *x = (float *)malloc(n * d * sizeof(float));
    double *y = (double *)malloc(n * sizeof(double));
    const double C[2] = {1.0, 8.0}, G = 0.2;
    double lanes_rate[2] = {0, 0}, batch_rate[2] = {0, 0};
    gpusvm_matrix ds;
    gpusvm_context_desc desc;
    gpusvm_context *ctx = NULL;
    gpusvm_params p;
    size_t i, k;
    int ok, lines = 0, gathered = 0;
    for (i = 0; i < n; ++i) {
        y[i] = (i % 2) ? 1.0 : -1.0;
        for (k = 0; k < d; ++k) x[i * d + k] = (float)(urand() * 2.0 - 1.0 + (k == 0 ? 0.4 * y[i] : 0.0));
    }
    ds = dense_of(x, n, d);
    opencl_desc(&desc, ov_logger);
    desc.storage = GPUSVM_STORAGE_DENSE;
    CHECK(ov_train(&desc, &ds, y, 16) == 1, "working sets of 16 on 1,200 points: the inner solve beside the rows");
    CHECK(ov_train(&desc, &ds, y, 128) == 0, "working sets of 128 on 1,200 points: the inner solve after the rows");
    desc.storage = GPUSVM_STORAGE_SPARSE;
    CHECK(ov_train(&desc, &ds, y, 16) == 1, "points kept sparse, working sets of 16: the inner solve beside the rows");
    CHECK(ov_train(&desc, &ds, y, 128) == 0, "points kept sparse, working sets of 128: the inner solve after the rows");
    desc.storage = GPUSVM_STORAGE_DENSE;
    memset(&p, 0, sizeof p);
    p.working_set_size = 16;
    ok = gpusvm_context_create(&desc, &ctx) == GPUSVM_OK;
    if (ok) {
        ov_lines = ov_gathered = 0;
        ctx->lanes = 2; /* GPUSVM_LANES=2 */
        ok = gpusvm_grid_search(ctx, &ds, y, &p, 2, C, 2, &G, 1, lanes_rate) == GPUSVM_OK;
        lines = ov_lines;
        gathered = ov_gathered;
        ctx->lanes = 1; /* none: one batch */
        ok = ok && gpusvm_grid_search(ctx, &ds, y, &p, 2, C, 2, &G, 1, batch_rate) == GPUSVM_OK;
    }
    gpusvm_context_destroy(ctx);
    CHECK(ok && lines == 2 && gathered == 2, "a grid on two lanes: each lane's inner solve after its rows");
    CHECK(ok && ov_lines == lines + 1 && ov_gathered == gathered,
          "the same grid as one batch (the context's own backend): the inner solve beside the rows");
    CHECK(ok && memcmp(lanes_rate, batch_rate, sizeof lanes_rate) == 0, "the lanes' rates are the one batch's");
    free(x);
    free(y);
}

static void log_errors(void *user, gpusvm_log_level level, const char *msg)
{
    (void)user;
    if (level == GPUSVM_LOG_ERROR) fprintf(stderr, "gpusvm: %s\n", msg);
}

/* The inner solve's third level (GPUSVM_INNER=sets, read when a context is made: its program is
   another build of the inner solve) on both backends: the same pair updates, alphas and gradients
   (every kind of kernel at working sets of 128, and 256 and 512 with rbf), and on one working set
   other pair updates than the plain pair sequence's (c2's program). */
static void third_level_check(gpusvm_context *c1, gpusvm_context *c2, const gpusvm_context_desc *d, int quick)
{
    const char *kn[4] = {"linear", "poly", "rbf", "sigmoid"};
    gpusvm_context_desc e = *d;
    gpusvm_context *cs = NULL;
    problem_t t;
    uint64_t seed;
    double it_sets, it_pairs;
    char label[96];
    int kt;
    e.ignore_environment = 0;
    CHECK(setenv("GPUSVM_INNER", "sets", 1) == 0, "GPUSVM_INNER=sets set");
    CHECK_OK(gpusvm_context_create(&e, &cs));
    unsetenv("GPUSVM_INNER");
    if (!cs) return;
    CHECK(cs->sets == 1 && c2->sets == 0, "GPUSVM_INNER=sets read when a context is made");
    c1->sets = 1;
    for (kt = 0; kt < (quick ? 4 : 6); ++kt) {
        const int q = kt < 4 ? 128 : 256 * (kt - 3);
        make_problem(&t, (size_t)q * 3 + (size_t)(urand() * 200), 17 + (size_t)(urand() * 20), 0.4, kt < 4 ? kt : 2);
        snprintf(label, sizeof label, "%s n=%lu q=%d, the third level", kn[kt < 4 ? kt : 2], (unsigned long)t.p.x.rows, q);
        round_trip(c1->backend, cs->backend, &t, q, label);
        free_problem(&t);
    }
    seed = rng_state;
    rng_state = 400; /* one fixed problem: on some of the run's random ones both make as many pair updates */
    make_problem(&t, 400, 19, 0.5, 2);
    round_trip(c1->backend, cs->backend, &t, 128, "rbf n=400 q=128, the third level");
    it_sets = last_pairs;
    free_problem(&t);
    gpusvm_context_destroy(cs);
    c1->sets = 0;
    rng_state = 400; /* the same problem, alphas and gradients */
    make_problem(&t, 400, 19, 0.5, 2);
    round_trip(c1->backend, c2->backend, &t, 128, "rbf n=400 q=128, the plain pair sequence");
    it_pairs = last_pairs;
    rng_state = seed;
    CHECK(it_sets != it_pairs && it_sets > 0 && it_pairs > 0,
          "the third level and the plain pair sequence make different pair updates on one working set");
    free_problem(&t);
}

int main(void)
{
    gpusvm_context *c1, *c2, *c3;
    gpusvm_context_desc d;
    int kt, quick;
    const char *kn[4] = {"linear", "poly", "rbf", "sigmoid"};
    rng_state = getenv("GPUSVM_TEST_SEED") ? (uint64_t)strtoull(getenv("GPUSVM_TEST_SEED"), NULL, 10)
                                           : (uint64_t)time(NULL) ^ ((uint64_t)clock() << 20);
    printf("test_kernels: seed %llu\n", (unsigned long long)rng_state);
    memset(&d, 0, sizeof d);
    d.ignore_environment = getenv("GPUSVM_SUBGROUPS") == NULL; /* with it: that sub-group exchange */
    if (getenv("GPUSVM_CACHE_DIR") && strcmp(getenv("GPUSVM_CACHE_DIR"), "off") != 0)
        d.kernel_cache_dir = getenv("GPUSVM_CACHE_DIR"); /* for a driver that keeps no programs (Intel's) */
    d.backend = GPUSVM_BACKEND_CPU;
    CHECK_OK(gpusvm_context_create(&d, &c1));
    d.backend = GPUSVM_BACKEND_OPENCL;
    d.device = getenv("GPUSVM_DEVICE");
    d.logger.fn = log_errors;
    d.storage = GPUSVM_STORAGE_DENSE;
    pairs = getenv("GPUSVM_FP64") && strcmp(getenv("GPUSVM_FP64"), "off") == 0;
    d.fp64 = pairs ? GPUSVM_FP64_OFF : GPUSVM_FP64_AUTO;
    if (gpusvm_context_create(&d, &c2) != GPUSVM_OK) {
        CHECK(0, "an OpenCL device is available (install pocl-opencl-icd)");
        return check_summary();
    }
    printf("test_kernels: OpenCL device %s\n", gpusvm_context_device_name(c2));
    CHECK(pairs == (strstr(gpusvm_context_device_name(c2), "fp64") != NULL),
          "the device's name says when its kernels run with float pairs (the word fp64)");
    quick = getenv("GPUSVM_TEST_QUICK") != NULL;
    cache_budget_check(); /* host arithmetic: quick or not */
    for (kt = 0; kt < 4; ++kt) {
        problem_t t, sv, x;
        char label[64];
        make_problem(&t, (quick ? 200 : 700) + (size_t)(urand() * 300), 20 + (size_t)(urand() * 40), 0.3, kt);
        snprintf(label, sizeof label, "%s n=%lu d=%lu q=128", kn[kt], (unsigned long)t.p.x.rows,
                 (unsigned long)t.p.x.cols);
        round_trip(c1->backend, c2->backend, &t, 128, label);
        few_rows_check(c1->backend, c2->backend, &t, kn[kt]);
        if (kt == GPUSVM__K_POLY) kfun_check(c2->backend, &t);
        make_problem(&sv, (quick ? 200 : 1100) + (size_t)(urand() * 300), t.p.x.cols, 0.4, kt); /* more than one 1024-row block */
        make_problem(&x, (quick ? 100 : 300) + (size_t)(urand() * 200), t.p.x.cols + 3, 0.4, kt);
        decision_check(c1->backend, c2->backend, &sv, &x, kn[kt]);
        free_problem(&sv);
        free_problem(&x);
        free_problem(&t);
    }
    if (quick) { /* make check: every kernel once at small sizes (sparse rows and Crammer-Singer's too) */
        problem_t t;
        make_problem(&t, 300, 23, 0.4, 2);
        t.p.nu = 1;
        round_trip(c1->backend, c2->backend, &t, 128, "rbf nu (per-class selection and stop) n=300 q=128");
        free_problem(&t);
        third_level_check(c1, c2, &d, 1);
        d.storage = GPUSVM_STORAGE_SPARSE;
        CHECK_OK(gpusvm_context_create(&d, &c3));
        sparse_checks(c1, c2, c3);
        cs_checks(c1, c2);
        gpusvm_context_destroy(c3);
        gpusvm_context_destroy(c2);
        gpusvm_context_destroy(c1);
        printf("test_kernels: quick (GPUSVM_TEST_QUICK): small sizes; the narrow rows, the row cache, streaming, several devices and the grid selection not checked\n");
        return check_summary();
    }
    {
        problem_t t;
        make_problem(&t, 200, 13, 0.8, 2);
        round_trip(c1->backend, c2->backend, &t, 200, "rbf whole problem n=200 q=200");
        free_problem(&t);
        make_problem_v(&t, 500, 17, 0.5, 2, 1);
        round_trip(c1->backend, c2->backend, &t, 128, "rbf, 1000 variables on 500 points (epsilon-SVR) q=128");
        free_problem(&t);
        make_problem(&t, 900, 23, 0.4, 2);
        t.p.nu = 1;
        round_trip(c1->backend, c2->backend, &t, 128, "rbf nu (per-class selection and stop) n=900 q=128");
        free_problem(&t);
        make_problem(&t, 300, 300, 0.5, 4); /* x is the kernel matrix */
        few_rows_check(c1->backend, c2->backend, &t, "precomputed");
        free_problem(&t);
        make_problem_v(&t, 500, 37, 0.5, 2, 1); /* 48 padded features: the 16-feature tail */
        few_rows_check(c1->backend, c2->backend, &t, "rbf, 1000 variables on 500 points (epsilon-SVR)");
        free_problem(&t);
        for (kt = 0; kt < 4; ++kt) { /* 1 and 2 chunks of 16 features (17: padded); 134 rows: a part group of 4 */
            char label[64];
            const size_t dims[3] = {5, 17, 32};
            make_problem(&t, 600 + (size_t)(urand() * 300), dims[kt % 3], 0.6, kt);
            snprintf(label, sizeof label, "%s n=%lu d=%lu", kn[kt], (unsigned long)t.p.x.rows,
                     (unsigned long)t.p.x.cols);
            narrow_check(c2->backend, &t, kt == 3 ? 134 : 128, label);
            free_problem(&t);
        }
        make_problem(&t, 300, 290, 0.3, 2); /* 304 padded features: two staged chunks */
        few_rows_check(c1->backend, c2->backend, &t, "rbf, 290 features");
        free_problem(&t);
        make_problem_v(&t, 400, 11, 0.5, 1, 1);
        t.p.nu = 1;
        round_trip(c1->backend, c2->backend, &t, 256, "poly nu-SVR, 800 variables on 400 points q=256");
        free_problem(&t);
    }
    third_level_check(c1, c2, &d, 0);
    working_set_check(c1, c2);
    patience_check(c1);
    overlap_rule_checks();
    if (getenv("GPUSVM_TEST_ONE_DEVICE")) /* see run.sh: Intel's runtime */
        printf("test_kernels: several devices not checked (GPUSVM_TEST_ONE_DEVICE)\n");
    else
        multi_device_checks(c2);
    batch_check(c1, c2, "opencl");
    cache_check(c2, "dense");
    d.storage = GPUSVM_STORAGE_SPARSE;
    CHECK_OK(gpusvm_context_create(&d, &c3));
    cache_check(c3, "sparse");
    sparse_checks(c1, c2, c3);
    cs_checks(c1, c2);
    gpusvm_context_destroy(c3);
    gpusvm_context_destroy(c2);
    gpusvm_context_destroy(c1);
    return check_summary();
}
