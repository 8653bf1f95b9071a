/* examples/grid_search.c: choosing C and gamma by cross-validation from C, as LIBSVM's grid.py does
   from the shell. One gpusvm_grid_search call trains every (C, gamma) point with its folds (for
   C-SVC every point of the grid as one batch on the device) and fills a table of rates:

       cc -O2 -I. examples/grid_search.c -ldl -lm && ./a.out data/heart_scale */
#define GPUSVM_IMPLEMENTATION
#include "gpusvm.h" /* build with -I pointing at gpusvm.h's folder */
#include <math.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    double C[6], gamma[5], rate[5 * 6];
    gpusvm_context *ctx;
    gpusvm_dataset *ds;
    int c, g, bc = 0, bg = 0;
    for (c = 0; c < 6; ++c) C[c] = pow(2.0, -1 + 2 * c);     /* 2^-1 .. 2^9 */
    for (g = 0; g < 5; ++g) gamma[g] = pow(2.0, -9 + 2 * g); /* 2^-9 .. 2^-1 */
    if (gpusvm_context_create(NULL, &ctx) != GPUSVM_OK) return 1;
    if (gpusvm_dataset_load(ctx, argc > 1 ? argv[1] : "data/heart_scale", &ds) != GPUSVM_OK ||
        gpusvm_grid_search(ctx, &ds->x, ds->y, NULL, 5, C, 6, gamma, 5, rate) != GPUSVM_OK) {
        fprintf(stderr, "%s\n", gpusvm_context_error(ctx));
        return 1;
    }
    printf("5-fold accuracy (%%) on %s; rows log2 gamma, columns log2 C\n      ", gpusvm_context_device_name(ctx));
    for (c = 0; c < 6; ++c) printf("%7d", -1 + 2 * c);
    printf("\n");
    for (g = 0; g < 5; ++g) {
        printf("%5d ", -9 + 2 * g);
        for (c = 0; c < 6; ++c) {
            printf("%7.2f", rate[g * 6 + c]);
            if (rate[g * 6 + c] > rate[bg * 6 + bc]) bg = g, bc = c;
        }
        printf("\n");
    }
    printf("best: C = %g, gamma = %g, %.4f%%\n", C[bc], gamma[bg], rate[bg * 6 + bc]);
    gpusvm_dataset_free(ds);
    gpusvm_context_destroy(ctx);
    return 0;
}
