/* small_sets: trains a LIBSVM data file with small working sets (params.working_set_size, which
   the tools leave automatic), so that a few hundred points take many rounds: the device's row
   cache, the few-rows kernel of a late round's new rows, the kept half of each set; with FOLDS, a
   cross-validation's folds as one batch, each fold its own row cache. For tests/oclgrind.sh.
   Usage: small_sets FILE Q [C GAMMA [FOLDS]] */
#define GPUSVM_IMPLEMENTATION
#include "../../gpusvm.h"
#include <stdio.h>

static void say(void *user, gpusvm_log_level level, const char *msg)
{
    (void)user;
    if (level <= GPUSVM_LOG_INFO || getenv("GPUSVM_VERBOSE")) fprintf(stderr, "gpusvm: %s\n", msg);
}

int main(int argc, char **argv)
{
    gpusvm_context_desc desc;
    gpusvm_context *ctx = NULL;
    gpusvm_dataset *ds = NULL;
    gpusvm_model *m = NULL;
    gpusvm_params p;
    int rc = 1;
    if (argc < 3) {
        fprintf(stderr, "usage: small_sets FILE Q [C GAMMA [FOLDS]]\n");
        return 2;
    }
    memset(&desc, 0, sizeof desc);
    desc.logger.fn = say;
    memset(&p, 0, sizeof p);
    p.working_set_size = atoi(argv[2]);
    p.C = argc > 3 ? atof(argv[3]) : 4.0;
    p.gamma = argc > 4 ? atof(argv[4]) : 0.1;
    if (gpusvm_context_create(&desc, &ctx) != GPUSVM_OK || gpusvm_dataset_load(ctx, argv[1], &ds) != GPUSVM_OK) {
        fprintf(stderr, "small_sets: %s\n", ctx ? gpusvm_context_error(ctx) : "no context");
    } else if (argc > 5) {
        double *target = (double *)malloc(ds->x.rows * sizeof(double));
        size_t k, right = 0;
        if (target && gpusvm_cross_validation(ctx, &ds->x, ds->y, &p, atoi(argv[5]), target) == GPUSVM_OK) {
            for (k = 0; k < ds->x.rows; ++k) right += target[k] == ds->y[k];
            printf("small_sets: %d folds, %lu of %lu right\n", atoi(argv[5]), (unsigned long)right,
                   (unsigned long)ds->x.rows);
            rc = 0;
        } else {
            fprintf(stderr, "small_sets: %s\n", target ? gpusvm_context_error(ctx) : "out of memory");
        }
        free(target);
    } else if (gpusvm_train(ctx, &ds->x, ds->y, &p, &m) == GPUSVM_OK) {
        printf("small_sets: %lu support vectors, %lld rounds, objective %.6f\n", (unsigned long)m->total_sv,
               m->info.outer_iterations, m->info.obj);
        rc = 0;
    } else {
        fprintf(stderr, "small_sets: %s\n", ctx ? gpusvm_context_error(ctx) : "no context");
    }
    gpusvm_model_free(m);
    gpusvm_dataset_free(ds);
    gpusvm_context_destroy(ctx);
    return rc;
}
