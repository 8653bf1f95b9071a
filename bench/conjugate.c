/* bench/conjugate.c: conjugate SMO (Torres-Barran, Alaiz and Dorronsoro, "Faster SVM training via
   conjugate SMO", 2020) against LIBSVM's pair sequence, counted in pair updates, on the host. One
   binary problem (labels > 0 against the rest, the first N rows of DATA), RBF with GAMMA and C,
   solved whole to eps = 1e-3 (an inner solve over a working set of N positions, the kernel block
   in memory) two ways:
     pairs:     LIBSVM's second-order pair (WSS2) and its clipped two-variable step;
     conjugate: the same pair's direction u made Q-conjugate to the last direction d
                (d' = u + g d, g = -u'Qd / d'Qd, Qd' = Qu + g Qd kept beside the gradient), the
                exact step along d' clipped to the box over d's whole support; a clipped step, or a
                d' that does not descend, starts again from the plain pair.
   The stopping rule is LIBSVM's (m(alpha) - M(alpha) < eps) for both. Prints the pair updates, the
   objective and the restarts (clipped steps and directions that did not descend). Besides the two reductions of a pair update (i and j), the
   conjugate step needs a third over the working set (the largest feasible step along d').
   Usage: make build/conjugate; build/conjugate DATA N C GAMMA */
#define GPUSVM_IMPLEMENTATION
#include "../gpusvm.h"
#include <stdio.h>
#include <stdlib.h>

typedef struct prob {
    size_t n;
    const float *K; /* n x n */
    const signed char *y;
    double C;
} prob;

/* LIBSVM's WSS2 over the whole problem: i, j and the gap; 0 when optimal to eps. */
static int select_pair(const prob *p, const double *a, const double *G, double eps, size_t *ii, size_t *jj)
{
    double Gmax = -INFINITY, Gmax2 = -INFINITY, best = INFINITY;
    size_t t, i = 0, j = 0;
    int have_i = 0, have_j = 0;
    for (t = 0; t < p->n; ++t) {
        const int up = p->y[t] > 0 ? a[t] < p->C : a[t] > 0, low = p->y[t] > 0 ? a[t] > 0 : a[t] < p->C;
        const double v = -p->y[t] * G[t];
        if (up && v >= Gmax) { Gmax = v; i = t; have_i = 1; }
        if (low && -v >= Gmax2) Gmax2 = -v;
    }
    if (!have_i || Gmax + Gmax2 < eps) return 0;
    for (t = 0; t < p->n; ++t) {
        const int low = p->y[t] > 0 ? a[t] > 0 : a[t] < p->C;
        const double b = Gmax + p->y[t] * G[t];
        if (low && b > 0) {
            double quad = p->K[i * p->n + i] + p->K[t * p->n + t] - 2.0 * p->K[i * p->n + t];
            if (quad <= 0) quad = 1e-12;
            if (-(b * b) / quad <= best) { best = -(b * b) / quad; j = t; have_j = 1; }
        }
    }
    *ii = i;
    *jj = j;
    return have_j;
}

/* Steps along direction dir (its support in sup[0..ns)) by rho; G += rho Qdir. */
static void step(double *a, double *G, const double *dir, const double *Qdir, const size_t *sup, size_t ns, size_t n,
                 double rho)
{
    size_t t;
    for (t = 0; t < ns; ++t) a[sup[t]] += rho * dir[sup[t]];
    for (t = 0; t < n; ++t) G[t] += rho * Qdir[t];
}

/* Solves p to eps; conj: conjugate directions. Returns the pair updates; *obj, *restarts. */
static long solve(const prob *p, int conj, double eps, double *obj, long *restarts)
{
    const size_t n = p->n;
    double *a = (double *)calloc(n, sizeof(double)), *G = (double *)malloc(n * sizeof(double));
    double *d = (double *)calloc(n, sizeof(double)), *Qd = (double *)calloc(n, sizeof(double));
    double *u = (double *)calloc(n, sizeof(double)), *Qu = (double *)malloc(n * sizeof(double));
    size_t *sup = (size_t *)malloc(n * sizeof(size_t)), ns = 0, t, i, j;
    unsigned char *in_sup = (unsigned char *)calloc(n, 1);
    double dQd = 0.0, gd = 0.0, o = 0.0;
    long it = 0;
    int have_d = 0;
    for (t = 0; t < n; ++t) G[t] = -1.0;
    *restarts = 0;
    while (it < 100000000L && select_pair(p, a, G, eps, &i, &j)) {
        /* the pair's direction u = y_i e_i - y_j e_j: a_i += y_i r, a_j -= y_j r */
        const double gu = p->y[i] * G[i] - p->y[j] * G[j]; /* < 0 */
        double uQu = p->K[i * n + i] + p->K[j * n + j] - 2.0 * p->K[i * n + j], g = 0.0, dir_g, dir_q, rho, rmax = INFINITY;
        double uQd = have_d ? p->y[i] * Qd[i] - p->y[j] * Qd[j] : 0.0;
        if (uQu <= 0) uQu = 1e-12;
        for (t = 0; t < n; ++t) Qu[t] = p->y[t] * ((double)p->K[t * n + i] - (double)p->K[t * n + j]);
        if (conj && have_d && dQd > 0) {
            g = -uQd / dQd;
            if (!(gu + g * gd < 0) || !(uQu + 2 * g * uQd + g * g * dQd > 1e-12)) g = 0.0; /* no descent: the plain pair */
        }
        if (g == 0.0) { /* start again from the pair */
            for (t = 0; t < ns; ++t) { d[sup[t]] = 0.0; in_sup[sup[t]] = 0; }
            ns = 0;
            dQd = gd = 0.0;
            if (conj && have_d) ++*restarts;
        }
        for (t = 0; t < ns; ++t) d[sup[t]] *= g;
        d[i] += p->y[i];
        d[j] -= p->y[j];
        if (!in_sup[i]) { in_sup[i] = 1; sup[ns++] = i; }
        if (!in_sup[j]) { in_sup[j] = 1; sup[ns++] = j; }
        for (t = 0; t < n; ++t) Qd[t] = Qu[t] + g * Qd[t];
        dir_q = uQu + 2 * g * uQd + g * g * dQd;
        dir_g = gu + g * gd;
        for (t = 0; t < ns; ++t) { /* the largest feasible step along d */
            const size_t s = sup[t];
            const double lim = d[s] > 0 ? (p->C - a[s]) / d[s] : d[s] < 0 ? a[s] / -d[s] : INFINITY;
            if (lim < rmax) rmax = lim;
        }
        rho = -dir_g / dir_q;
        if (rho > rmax) rho = rmax;
        step(a, G, d, Qd, sup, ns, n, rho);
        for (t = 0; t < ns; ++t) { /* exact bounds where the step reached them */
            const size_t s = sup[t];
            if (a[s] < 1e-14 * p->C) a[s] = 0.0;
            if (a[s] > p->C * (1 - 1e-14)) a[s] = p->C;
        }
        gd = dir_g + rho * dir_q;
        dQd = dir_q;
        have_d = conj && rho < rmax; /* a clipped step starts again */
        if (conj && rho >= rmax) ++*restarts;
        if (!have_d) {
            for (t = 0; t < ns; ++t) { d[sup[t]] = 0.0; in_sup[sup[t]] = 0; }
            ns = 0;
            dQd = gd = 0.0;
        }
        ++it;
    }
    for (t = 0; t < n; ++t) o += a[t] * (G[t] - 1.0);
    *obj = o / 2;
    free(a); free(G); free(d); free(Qd); free(u); free(Qu); free(sup); free(in_sup);
    return it;
}

int main(int argc, char **argv)
{
    gpusvm_context *ctx;
    gpusvm_dataset *ds;
    gpusvm__input in;
    prob p;
    float *K, *nrm;
    signed char *y;
    size_t n, s, t;
    double gamma, obj[2];
    long it[2], rs[2];
    int w;
    if (argc < 5) {
        fprintf(stderr, "usage: conjugate DATA N C GAMMA\n");
        return 2;
    }
    if (gpusvm_context_create(NULL, &ctx) != GPUSVM_OK || gpusvm_dataset_load(ctx, argv[1], &ds) != GPUSVM_OK ||
        gpusvm__input_make(ctx, &ds->x, "the data", &in) != GPUSVM_OK) {
        fprintf(stderr, "conjugate: %s\n", gpusvm_context_error(ctx));
        return 1;
    }
    n = (size_t)atol(argv[2]);
    if (n > in.m.rows || n < 2) n = in.m.rows;
    p.C = atof(argv[3]);
    gamma = atof(argv[4]);
    K = (float *)malloc(n * n * sizeof(float));
    nrm = (float *)malloc(n * sizeof(float));
    y = (signed char *)malloc(n);
    if (!K || !nrm || !y) return 1;
    gpusvm__norms(&in.m, 0, n, nrm);
    for (s = 0; s < n; ++s) {
        y[s] = ds->y[s] > 0 ? 1 : -1;
        for (t = 0; t < n; ++t)
            K[s * n + t] = gpusvm__kfun(GPUSVM__K_RBF, gpusvm__dot_sparse(&in.m, s, &in.m, t), nrm[t], nrm[s],
                                        (float)gamma, 0.0f, 3);
    }
    p.n = n;
    p.K = K;
    p.y = y;
    for (w = 0; w < 2; ++w) it[w] = solve(&p, w, 1e-3, &obj[w], &rs[w]);
    printf("%s, %lu points, C = %g, gamma = %g: pairs %ld (objective %.6f); conjugate %ld (objective %.6f, "
           "%ld restarts); ratio %.3f\n",
           argv[1], (unsigned long)n, p.C, gamma, it[0], obj[0], it[1], obj[1], rs[1], (double)it[1] / (double)it[0]);
    return 0;
}
