/* bench/warm_start.c: alpha seeding along C (DeCoste and Wagstaff 2000) measured on the solver
   itself. One binary problem (labels > 0 against the rest, every row of DATA), RBF with GAMMA,
   solved at C = 2^-1, 2^1, ..., 2^7 (grid.py's -log2c -1,7,2) two ways on the device
   GPUSVM_BACKEND / GPUSVM_DEVICE select:
     cold:   each C from alpha = 0 (what gpusvm_grid_search does: every C in one batch)
     seeded: each C from the previous C's solution scaled by the ratio of the C values (feasible:
             the equality constraint and the bounds scale with it), its gradient scaled the same
             way (G = Q alpha - 1 is affine in alpha), so no kernel row is computed for the start
   Prints, per C, the rounds (outer iterations), pair updates, solver seconds and objective of
   both, and the totals: the seeded chain must run its C values one after another, the cold
   ones run side by side in one batch (bound by the slowest). Usage:
       cc -std=c99 -O2 -I. -o build/warm_start bench/warm_start.c -ldl -lm
       build/warm_start DATA GAMMA */
#define GPUSVM_IMPLEMENTATION
#include "../gpusvm.h"
#include <stdio.h>
#include <stdlib.h>

static double objective(const double *a, const double *G, size_t n)
{
    double v = 0.0;
    size_t i;
    for (i = 0; i < n; ++i) v += a[i] * (G[i] - 1.0);
    return v / 2;
}

int main(int argc, char **argv)
{
    enum { NC = 5 };
    gpusvm_context *ctx;
    gpusvm_dataset *ds;
    gpusvm__input in;
    gpusvm__problem pb;
    gpusvm_params prm;
    gpusvm_train_info info;
    double *C, *a, *G, *a0, *G0, cold_max = 0.0, cold_sum = 0.0, seed_sum = 0.0;
    signed char *y;
    size_t n, i;
    int c, way;
    if (argc < 3) {
        fprintf(stderr, "usage: warm_start DATA GAMMA\n");
        return 2;
    }
    if (gpusvm_context_create(NULL, &ctx) != GPUSVM_OK || gpusvm_dataset_load(ctx, argv[1], &ds) != GPUSVM_OK ||
        gpusvm__input_make(ctx, &ds->x, "the data", &in) != GPUSVM_OK) {
        fprintf(stderr, "warm_start: %s\n", gpusvm_context_error(ctx));
        return 1;
    }
    n = in.m.rows;
    y = (signed char *)malloc(n);
    C = (double *)malloc(n * sizeof(double));
    a = (double *)malloc(n * sizeof(double));
    G = (double *)malloc(n * sizeof(double));
    a0 = (double *)malloc(n * sizeof(double));
    G0 = (double *)malloc(n * sizeof(double));
    if (!y || !C || !a || !G || !a0 || !G0) return 1;
    for (i = 0; i < n; ++i) y[i] = ds->y[i] > 0 ? 1 : -1;
    memset(&pb, 0, sizeof pb);
    pb.x = in.m;
    pb.npts = pb.nvar = n;
    pb.y = y;
    pb.C = C;
    pb.ktype = GPUSVM__K_RBF;
    pb.gamma = (float)atof(argv[2]);
    pb.degree = 3;
    memset(&prm, 0, sizeof prm);
    prm.eps = 1e-3;
    prm.max_iter = 1e12;
    prm.shrinking = 1;
    printf("%s: %lu rows, gamma %g, device %s\n", argv[1], (unsigned long)n, pb.gamma, gpusvm_context_device_name(ctx));
    printf("| C | cold rounds | cold pair updates | cold s | seeded rounds | seeded pair updates | seeded s | "
           "objective cold | objective seeded |\n|---|---|---|---|---|---|---|---|---|\n");
    for (c = 0; c < NC; ++c) {
        const double cv = pow(2.0, -1 + 2 * c);
        double t[2], obj[2];
        long long rounds[2], pairs[2];
        for (i = 0; i < n; ++i) C[i] = cv;
        for (way = 0; way < 2; ++way) {
            const int seeded = way == 1 && c > 0;
            double t0;
            if (seeded)
                for (i = 0; i < n; ++i) { /* the previous C's solution (a0, G0) scaled by 4 */
                    a0[i] *= 4.0;
                    G0[i] = 4.0 * (G0[i] + 1.0) - 1.0;
                }
            memset(&info, 0, sizeof info);
            t0 = gpusvm__now();
            if (gpusvm__solve_batch(ctx, &pb, 1, &prm, seeded ? a0 : NULL, seeded ? G0 : NULL, a, G, &info) !=
                GPUSVM_OK) {
                fprintf(stderr, "warm_start: %s\n", gpusvm_context_error(ctx));
                return 1;
            }
            t[way] = gpusvm__now() - t0;
            rounds[way] = info.outer_iterations;
            pairs[way] = info.iterations;
            obj[way] = objective(a, G, n);
            if (way == 1) { /* the seed of the next C */
                memcpy(a0, a, n * sizeof(double));
                memcpy(G0, G, n * sizeof(double));
            }
        }
        cold_max = t[0] > cold_max ? t[0] : cold_max;
        cold_sum += t[0];
        seed_sum += t[1];
        printf("| %g | %lld | %lld | %.3f | %lld | %lld | %.3f | %.6f | %.6f |\n", cv, rounds[0], pairs[0], t[0],
               rounds[1], pairs[1], t[1], obj[0], obj[1]);
    }
    printf("cold: %.3f s one after another, the slowest C %.3f s; seeded chain: %.3f s\n", cold_sum, cold_max,
           seed_sum);
    gpusvm__input_free(ctx, &in);
    gpusvm_dataset_free(ds);
    gpusvm_context_destroy(ctx);
    return 0;
}
