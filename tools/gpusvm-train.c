/* gpusvm-train: a drop-in for LIBSVM's svm-train.
   Usage: gpusvm-train [options] training_set_file [model_file]
   Built with GPUSVM_TRAIN_MPI (make mpi): gpusvm-train-mpi, the same run as MPI ranks that share
   the training's points (cli_mpi.h): mpirun -np 4 build/gpusvm-train-mpi [options] file [model] */
#ifdef GPUSVM_TRAIN_MPI
#include "cli_mpi.h"
#define TRAIN_TOOL "gpusvm-train-mpi"
#else
#include "cli.h"
#define TRAIN_TOOL "gpusvm-train"
#endif

#include <float.h>
#include <time.h>

static void usage(void)
{
    printf("Usage: " TRAIN_TOOL " [options] training_set_file [model_file]\n"
           "options (LIBSVM's svm-train flags):\n"
           "-s svm_type : set type of SVM (default 0)\n"
           "\t0 -- C-SVC\t\t(multi-class classification, one-vs-one)\n"
           "\t1 -- nu-SVC\t\t(multi-class classification, one-vs-one)\n"
           "\t2 -- one-class SVM\n"
           "\t3 -- epsilon-SVR\t(regression)\n"
           "\t4 -- nu-SVR\t\t(regression)\n"
           "\t5 -- Crammer-Singer\t(multi-class, one joint problem, no bias; stops at relative duality gap < -e)\n"
           "-t kernel_type : set type of kernel function (default 2)\n"
           "\t0 -- linear: u'*v\n"
           "\t1 -- polynomial: (gamma*u'*v + coef0)^degree\n"
           "\t2 -- radial basis function: exp(-gamma*|u-v|^2)\n"
           "\t3 -- sigmoid: tanh(gamma*u'*v + coef0)\n"
           "\t4 -- precomputed kernel (kernel values in training_set_file: 0:i 1:K(xi,x1) ...)\n"
           "-d degree : set degree in kernel function (default 3)\n"
           "-g gamma : set gamma in kernel function (default 1/num_features)\n"
           "-r coef0 : set coef0 in kernel function (default 0)\n"
           "-c cost : set the parameter C of C-SVC (default 1)\n"
           "-n nu : set the parameter nu of nu-SVC, one-class SVM, and nu-SVR (default 0.5)\n"
           "-p epsilon : set the epsilon in loss function of epsilon-SVR (default 0.1)\n"
           "-m cachesize : set the budget of the working set's kernel rows in MB (default: none but the\n"
           "\tdevice memory's: the full working set of 1024 rows, the fastest)\n"
           "-e epsilon : set tolerance of termination criterion (default 0.001; -s 5: the relative duality gap, default 0.01)\n"
           "-h shrinking : whether to use the shrinking heuristics, 0 or 1 (default 1): problems solved whole\n"
           "\t(at most the working-set size) shrink on the C backend; working sets and devices never do\n"
           "-b probability_estimates : whether to train a model for probability estimates, 0 or 1 (default 0);\n"
           "\tthe internal 5-fold cross-validations use a fixed-seed generator\n"
           "-wi weight : set the parameter C of class i to weight*C (default 1)\n"
           "-W weight_file : per-sample weights, one per line for each training row: row i's C is\n"
           "\tmultiplied by its weight (>= 0)\n"
           "-v n: n-fold cross validation mode (no model is written)\n"
           "-q : quiet mode (no outputs but errors)\n"
           "A value of 0 for -d, -g, -c, -n, -m or -e means its default, as 0 in gpusvm_params (-p 0 and -r 0 are values)\n"
           "environment: GPUSVM_BACKEND=auto|opencl|cpu, GPUSVM_DEVICE=index|name|all|i,j,..., GPUSVM_VERBOSE=1\n"
#ifdef GPUSVM_TRAIN_MPI
           "run as MPI ranks (mpirun -np N " TRAIN_TOOL " ...): each rank reads the data and holds the kernel rows\n"
           "\tand gradient of its share of the points (C backend; GPUSVM_THREADS per rank, default: the host's\n"
           "\tcores shared among its ranks); rank 0 prints and writes the model, the one a single process trains\n"
#endif
           );
}


/* -W: one weight per line, one line per training row (blank lines skipped). */
static double *read_weights(const char *path, size_t rows)
{
    char *p, *tok;
    size_t tl, k = 0;
    cli_text L;
    double *w;
    if (!cli_read_text(path, &L)) {
        fprintf(stderr, TRAIN_TOOL ": %s: cannot open (%s)\n", path, strerror(errno));
        cli_exit(1);
    }
    w = (double *)malloc((rows ? rows : 1) * sizeof(double));
    if (!w) {
        fprintf(stderr, TRAIN_TOOL ": out of memory\n");
        cli_exit(1);
    }
    while (cli_next_line(&L)) {
        p = L.line;
        if (!cli_token(&p, L.line_end, &tok, &tl)) continue;
        if (k == rows) {
            fprintf(stderr, "%s:%lu: more weights than the %lu training rows\n", path, (unsigned long)L.lineno,
                    (unsigned long)rows);
            cli_exit(1);
        }
        if (!cli_number(tok, tl, &w[k]) || !(w[k] >= 0.0) || w[k] > DBL_MAX || cli_token(&p, L.line_end, &tok, &tl)) {
            fprintf(stderr, "%s:%lu: expected one finite weight >= 0\n", path, (unsigned long)L.lineno);
            cli_exit(1);
        }
        ++k;
    }
    if (k != rows) {
        fprintf(stderr, "%s:%lu: %lu weights for %lu training rows\n", path, (unsigned long)L.lineno + 1,
                (unsigned long)k, (unsigned long)rows);
        cli_exit(1);
    }
    free(L.buf);
    return w;
}


int main(int argc, char **argv)
{
    atexit(cli_stdout_check); /* first: the last handler to run */
    gpusvm_params p;
    gpusvm_context *ctx;
    gpusvm_dataset *ds = NULL;
    gpusvm_model *model = NULL;
    cli_train t;
    int quiet = 0, i, nw, nr_fold = 0;
    const int *wl;
    const double *wv;
    const char *weight_file = NULL;
    double *sample_weight = NULL;
    const char *train_file, *model_file;
    char model_buf[4096];

#ifdef GPUSVM_TRAIN_MPI
    cli_mpi_init(&argc, &argv, 1);
#endif
    cli_tool_ = TRAIN_TOOL;
    cli_train_init(&t);
    for (i = 1; i < argc && argv[i][0] == '-'; ++i) {
        if (strcmp(argv[i], "-q") == 0) {
            quiet = 1;
            continue;
        }
        if (strcmp(argv[i], "-W") == 0) {
            if (i + 1 >= argc) cli_bad("missing value for option", argv[i]);
            weight_file = argv[++i];
            continue;
        }
        if (strcmp(argv[i], "-v") == 0) {
            const double f = cli_num(argv[i], i + 1 < argc ? argv[i + 1] : NULL);
            if (f < 2 || f != (int)f || f > 1e9) cli_bad("n-fold cross validation: n must >= 2", argv[i + 1]);
            nr_fold = (int)f;
            ++i;
            continue;
        }
        cli_train_option(&t, argv[i], i + 1 < argc ? argv[i + 1] : NULL);
        ++i; /* the option's value */
    }
    cli_train_done(&t);
    p = t.p;
    nw = t.nw;
    wl = t.wl;
    wv = t.wv;
    if (i >= argc) {
        if (cli_rank_ == 0) usage();
        cli_exit(1);
    }
    if (cli_rank_ != 0) quiet = 1; /* rank 0 prints what every rank would */
    train_file = argv[i];
    if (i + 1 < argc) {
        model_file = argv[i + 1];
        if (i + 2 < argc) cli_bad("too many arguments", argv[i + 2]);
    } else {
        const char *base = strrchr(train_file, '/');
        base = base ? base + 1 : train_file;
        if (strlen(base) + 7 > sizeof model_buf) cli_bad("file name too long", base);
        snprintf(model_buf, sizeof model_buf, "%s.model", base);
        model_file = model_buf;
    }
    cli_quiet_ = quiet;
    ctx = cli_context();
    cli_check(cli_read_data(ctx, train_file, &ds), TRAIN_TOOL);
    cli_check_index0(ds, train_file, p.kernel_type == GPUSVM_KERNEL_PRECOMPUTED);
    cli_check_labels(ds, train_file, p.svm_type);
    if (weight_file) p.sample_weight = sample_weight = read_weights(weight_file, ds->x.rows);
    if (p.kernel_type == GPUSVM_KERNEL_PRECOMPUTED) { /* LIBSVM's checks on 0:serial */
        size_t k;
        for (k = 0; k < ds->x.rows; ++k) {
            const double sn = ds->serial ? ds->serial[k] : 0.0;
            if (!ds->serial || !(sn >= 1.0) || sn > (double)ds->x.cols || sn != (double)(long long)sn) {
                fprintf(stderr, "%s: data row %lu: Wrong input format: %s\n", train_file, (unsigned long)k + 1,
                        !ds->serial || sn == 0.0 ? "first column must be 0:sample_serial_number"
                                                 : "sample_serial_number out of range");
                gpusvm_dataset_free(ds);
                cli_exit(1);
            }
        }
        p.serial = ds->serial;
    }
    if (nr_fold) { /* LIBSVM's lines; no model */
        const size_t n = ds->x.rows;
        double *target = (double *)malloc((n ? n : 1) * sizeof(double));
        gpusvm_result r = target ? gpusvm_cross_validation(ctx, &ds->x, ds->y, &p, nr_fold, target)
                                 : GPUSVM_ERROR_OUT_OF_MEMORY;
        const int print = r == GPUSVM_OK && cli_rank_ == 0; /* rank 0 prints what every rank would */
        cli_line_clear();
        if (print && (p.svm_type == GPUSVM_EPSILON_SVR || p.svm_type == GPUSVM_NU_SVR)) {
            double mse, scc;
            cli_regression(target, ds->y, n, &mse, &scc);
            printf("Cross Validation Mean squared error = %g\n", mse);
            printf("Cross Validation Squared correlation coefficient = %g\n", scc);
        } else if (print) {
            size_t k, correct = 0;
            for (k = 0; k < n; ++k) correct += target[k] == ds->y[k];
            printf("Cross Validation Accuracy = %g%%\n", 100.0 * (double)correct / (double)n);
        }
        free(target);
        free(sample_weight);
        gpusvm_dataset_free(ds);
        cli_check(r, TRAIN_TOOL);
        cli_exit(0);
    }
    {
        gpusvm_result r = gpusvm_train(ctx, &ds->x, ds->y, &p, &model);
        if (r != GPUSVM_OK) gpusvm_dataset_free(ds);
        cli_check(r, TRAIN_TOOL);
    }
    if (!quiet && model->svm_type == GPUSVM_CRAMMER_SINGER) {
        const gpusvm_train_info *in = &model->info;
        printf("optimization finished, #iter = %lld\n", in->iterations);
        printf("obj = %f, relative duality gap = %g\n", in->obj, in->gap);
        printf("Total nSV = %lu\n", (unsigned long)model->total_sv);
        fflush(stdout);
    } else if (!quiet && model->svm_type != GPUSVM_C_SVC && model->svm_type != GPUSVM_NU_SVC) { /* one problem */
        const gpusvm_train_info *in = &model->info;
        printf("optimization finished, #iter = %lld\n", in->iterations);
        if (model->svm_type == GPUSVM_EPSILON_SVR) printf("nu = %f\n", in->nu);
        if (model->svm_type == GPUSVM_NU_SVR) printf("epsilon = %f\n", -in->nu_r);
        printf("obj = %f, rho = %f\n", in->obj, model->rho[0]);
        printf("nSV = %lu, nBSV = %lu\n", (unsigned long)in->n_sv, (unsigned long)in->n_bsv);
        fflush(stdout);
    } else if (!quiet) { /* LIBSVM's lines, one block per pairwise problem */
        int ci, cj, p = 0, k;
        for (ci = 0; ci < model->nr_class; ++ci)
            for (cj = ci + 1; cj < model->nr_class; ++cj, ++p) {
                const gpusvm_train_info *in = &model->pair_info[p];
                double wi = 1.0, wj = 1.0;
                for (k = 0; k < nw; ++k) {
                    if (wl[k] == model->label[ci]) wi = wv[k];
                    if (wl[k] == model->label[cj]) wj = wv[k];
                }
                printf("optimization finished, #iter = %lld\n", in->iterations);
                if (model->svm_type == GPUSVM_NU_SVC) printf("C = %f\n", 1.0 / in->nu_r);
                else if (wi == wj) printf("nu = %f\n", in->nu);
                printf("obj = %f, rho = %f\n", in->obj, model->rho[p]);
                printf("nSV = %lu, nBSV = %lu\n", (unsigned long)in->n_sv, (unsigned long)in->n_bsv);
            }
        printf("Total nSV = %lu\n", (unsigned long)model->total_sv);
        fflush(stdout);
    }
    if (!quiet)
        fprintf(stderr, "gpusvm: training time: %.3f s (%lld outer iterations, working set %d)\n", model->info.seconds,
                model->info.outer_iterations, model->info.working_set_size);
    if (!quiet && model->info.device_bytes && model->info.device_data_bytes > model->info.device_bytes)
        fprintf(stderr, "gpusvm: device memory: %.1f MiB (the points streamed from host memory)\n",
                (double)model->info.device_bytes / 1048576.0);
    else if (!quiet && model->info.device_bytes)
        fprintf(stderr, "gpusvm: device memory: %.1f MiB (data and vectors %.1f MiB, working-set rows the rest)\n",
                (double)model->info.device_bytes / 1048576.0, (double)model->info.device_data_bytes / 1048576.0);
    {
        gpusvm_result r = cli_rank_ == 0 ? gpusvm_model_save(ctx, model, model_file) : GPUSVM_OK;
        gpusvm_model_free(model);
        gpusvm_dataset_free(ds);
        free(sample_weight);
        if (r != GPUSVM_OK) {
            fprintf(stderr, "can't save model to file %s: %s\n", model_file, gpusvm_context_error(ctx));
            cli_exit(1);
        }
    }
    cli_exit(0);
    return 0;
}
