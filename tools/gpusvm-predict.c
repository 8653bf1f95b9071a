/* gpusvm-predict: a drop-in for LIBSVM's svm-predict.
   Usage: gpusvm-predict [options] test_file model_file output_file */
#include "cli.h"

static void usage(void)
{
    printf("Usage: gpusvm-predict [options] test_file model_file output_file\n"
           "options:\n"
           "-b probability_estimates: whether to predict probability estimates, 0 or 1 (default 0); the model\n"
           "   must have been trained with -b 1. The output then starts with \"labels\" and the class order\n"
           "-q : quiet mode (no outputs but errors)\n"
           "environment: GPUSVM_BACKEND=auto|opencl|cpu, GPUSVM_DEVICE=index|name, GPUSVM_VERBOSE=1\n");
}

int main(int argc, char **argv)
{
    atexit(cli_stdout_check); /* first: the last handler to run */
    gpusvm_context *ctx;
    gpusvm_dataset *ds = NULL;
    gpusvm_model *model = NULL;
    double *pred = NULL;
    int quiet = 0, i, failed = 0, want_prob = 0, rows_prob = 0;
    double *prob = NULL;
    const char *test_file, *model_file, *out_file;
    size_t k, correct = 0;

    for (i = 1; i < argc && argv[i][0] == '-'; ++i) {
        if (strcmp(argv[i], "-q") == 0) continue;
        if (strcmp(argv[i], "-b") == 0 && i + 1 < argc) {
            if (strcmp(argv[i + 1], "0") != 0 && strcmp(argv[i + 1], "1") != 0) {
                fprintf(stderr, "gpusvm-predict: -b takes 0 or 1, not %s\n", argv[i + 1]);
                return 1;
            }
            want_prob = argv[i + 1][0] == '1';
            ++i;
            continue;
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

    cli_quiet_ = quiet;
    ctx = cli_context();
    cli_check(gpusvm_model_load(ctx, model_file, &model), "gpusvm-predict");
    {
        gpusvm_result r = cli_read_data(ctx, test_file, &ds);
        if (r != GPUSVM_OK) gpusvm_model_free(model);
        cli_check(r, "gpusvm-predict");
        if (model->kernel_type != GPUSVM_KERNEL_PRECOMPUTED && ds->index0_line) {
            gpusvm_model_free(model);
            cli_check_index0(ds, test_file, 0);
        }
    }
    {
        const int regression = model->svm_type == GPUSVM_EPSILON_SVR || model->svm_type == GPUSVM_NU_SVR;
        const int has_prob = regression ? model->probA != NULL
                                        : model->svm_type == GPUSVM_ONE_CLASS ? model->prob_density_marks != NULL
                                                                              : (model->probA && model->probB) ||
                                                                                    model->nr_class == 1; /* probability 1 */
        if (want_prob && !has_prob) {
            fprintf(stderr, "gpusvm-predict: the model does not support probability estimates (train with -b 1)\n");
            gpusvm_model_free(model);
            gpusvm_dataset_free(ds);
            cli_exit(1);
        }
        if (!want_prob && has_prob && !quiet && !regression)
            printf("Model supports probability estimates, but disabled in prediction.\n");
        if (want_prob && regression && !quiet)
            printf("Prob. model for test data: target value = predicted value + z,\nz: Laplace distribution "
                   "e^(-|z|/sigma)/(2sigma),sigma=%g\n", model->probA[0]);
        rows_prob = want_prob && !regression;
    }
    pred = (double *)malloc((ds->x.rows ? ds->x.rows : 1) * sizeof(double));
    if (rows_prob) prob = (double *)malloc((ds->x.rows ? ds->x.rows : 1) * (size_t)model->nr_class * sizeof(double));
    if (!pred || (rows_prob && !prob)) {
        fprintf(stderr, "gpusvm-predict: out of memory\n");
        failed = 1;
    } else {
        gpusvm_result r = rows_prob ? gpusvm_predict_probability(ctx, model, &ds->x, pred, prob)
                                    : gpusvm_predict(ctx, model, &ds->x, pred, NULL);
        if (r != GPUSVM_OK) {
            fprintf(stderr, "gpusvm-predict: %s\n", gpusvm_context_error(ctx));
            failed = 1;
        }
    }
    if (!failed) {
        cli_buf o;
        memset(&o, 0, sizeof o);
        if (rows_prob) { /* svm-predict's layout: a header, then the label and each class's probability */
            int c;
            if (model->svm_type == GPUSVM_ONE_CLASS) {
                cli_printf(&o, "label normal outlier\n");
            } else {
                cli_printf(&o, "labels");
                for (c = 0; c < model->nr_class; ++c) cli_printf(&o, " %d", model->label[c]);
                cli_printf(&o, "\n");
            }
            for (k = 0; k < ds->x.rows; ++k) {
                cli_printf(&o, "%g", pred[k]);
                for (c = 0; c < model->nr_class; ++c) cli_printf(&o, " %g", prob[k * (size_t)model->nr_class + (size_t)c]);
                cli_printf(&o, "\n");
            }
        } else {
            for (k = 0; k < ds->x.rows; ++k) cli_printf(&o, "%.17g\n", pred[k]);
        }
        failed = !cli_write(ctx, "gpusvm-predict", out_file, &o);
        free(o.p);
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
    free(prob);
    gpusvm_model_free(model);
    gpusvm_dataset_free(ds);
    cli_exit(failed ? 1 : 0);
    return 0;
}
