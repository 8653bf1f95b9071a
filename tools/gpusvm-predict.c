/* gpusvm-predict: a drop-in for LIBSVM's svm-predict.
   Usage: gpusvm-predict [options] test_file model_file output_file */
#include "cli.h"

static void usage(void)
{
    printf("Usage: gpusvm-predict [options] test_file model_file output_file\n"
           "options:\n"
           "-b probability_estimates: 0 (1 is not in this version)\n"
           "-q : quiet mode (no outputs)\n"
           "environment: GPUSVM_BACKEND=auto|opencl|cpu, GPUSVM_DEVICE=index|name, GPUSVM_VERBOSE=1\n");
}

int main(int argc, char **argv)
{
    gpusvm_context *ctx;
    gpusvm_dataset *ds = NULL;
    gpusvm_model *model = NULL;
    double *pred = NULL;
    int quiet = 0, i, failed = 0;
    const char *test_file, *model_file, *out_file;
    char tmp[4096];
    FILE *out;
    size_t k, correct = 0;

    for (i = 1; i < argc && argv[i][0] == '-'; ++i) {
        if (strcmp(argv[i], "-q") == 0) continue;
        if (strcmp(argv[i], "-b") == 0 && i + 1 < argc) {
            if (strcmp(argv[i + 1], "0") == 0) {
                ++i;
                continue;
            }
            fprintf(stderr, "gpusvm-predict: -b %s: probability estimates are not in this version\n", argv[i + 1]);
            return 1;
        }
        fprintf(stderr, "gpusvm-predict: unknown option: %s\n", argv[i]);
        usage();
        return 1;
    }
    for (k = 1; k < (size_t)i; ++k)
        if (strcmp(argv[k], "-q") == 0) quiet = 1;
    if (argc - i != 3) {
        usage();
        return 1;
    }
    test_file = argv[i];
    model_file = argv[i + 1];
    out_file = argv[i + 2];

    ctx = cli_context();
    cli_check(gpusvm_model_load(ctx, model_file, &model), "gpusvm-predict");
    {
        gpusvm_result r = gpusvm_dataset_load(ctx, test_file, &ds);
        if (r != GPUSVM_OK) gpusvm_model_free(model);
        cli_check(r, "gpusvm-predict");
    }
    pred = (double *)malloc((ds->x.rows ? ds->x.rows : 1) * sizeof(double));
    if (!pred) {
        fprintf(stderr, "gpusvm-predict: out of memory\n");
        failed = 1;
    } else {
        gpusvm_result r = gpusvm_predict(ctx, model, &ds->x, pred, NULL);
        if (r != GPUSVM_OK) {
            fprintf(stderr, "gpusvm-predict: %s\n", gpusvm_context_error(ctx));
            failed = 1;
        }
    }
    if (!failed) {
        /* written beside the target and renamed into place */
        if (strlen(out_file) + 16 > sizeof tmp) {
            fprintf(stderr, "gpusvm-predict: output path too long\n");
            failed = 1;
        } else {
            snprintf(tmp, sizeof tmp, "%s.tmp", out_file);
            out = fopen(tmp, "wb");
            if (!out) {
                fprintf(stderr, "gpusvm-predict: can't open output file %s\n", tmp);
                failed = 1;
            } else {
                for (k = 0; k < ds->x.rows; ++k) fprintf(out, "%.17g\n", pred[k]);
                if (fflush(out) != 0 || ferror(out)) failed = 1;
                if (fclose(out) != 0) failed = 1;
                if (failed || rename(tmp, out_file) != 0) {
                    fprintf(stderr, "gpusvm-predict: writing %s failed; it is unchanged\n", out_file);
                    remove(tmp);
                    failed = 1;
                }
            }
        }
    }
    if (!failed && !quiet) {
        const size_t n = ds->x.rows;
        if (model->svm_type == GPUSVM_EPSILON_SVR || model->svm_type == GPUSVM_NU_SVR) {
            double mse, scc;
            cli_regression(pred, ds->y, n, &mse, &scc);
            printf("Mean squared error = %g (regression)\n", mse);
            printf("Squared correlation coefficient = %g (regression)\n", scc);
        } else {
            for (k = 0; k < n; ++k)
                if (pred[k] == ds->y[k]) ++correct;
            printf("Accuracy = %g%% (%lu/%lu) (classification)\n", 100.0 * (double)correct / (double)n,
                   (unsigned long)correct, (unsigned long)n);
        }
    }
    free(pred);
    gpusvm_model_free(model);
    gpusvm_dataset_free(ds);
    cli_exit(failed ? 1 : 0);
    return 0;
}
