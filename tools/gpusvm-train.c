/* gpusvm-train: a drop-in for LIBSVM's svm-train.
   Usage: gpusvm-train [options] training_set_file [model_file] */
#include "cli.h"

#include <float.h>
#include <time.h>

static void usage(void)
{
    printf("Usage: gpusvm-train [options] training_set_file [model_file]\n"
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
           "-h shrinking : accepted (0 or 1); the solver does not shrink\n"
           "-b probability_estimates : whether to train a model for probability estimates, 0 or 1 (default 0);\n"
           "\tthe internal 5-fold cross-validations use a fixed-seed generator\n"
           "-wi weight : set the parameter C of class i to weight*C (default 1)\n"
           "-W weight_file : per-sample weights, one per line for each training row: row i's C is\n"
           "\tmultiplied by its weight (>= 0)\n"
           "-v n: n-fold cross validation mode (no model is written)\n"
           "-q : quiet mode (no outputs)\n"
           "environment: GPUSVM_BACKEND=auto|opencl|cpu, GPUSVM_DEVICE=index|name, GPUSVM_VERBOSE=1\n");
}

static void bad(const char *msg, const char *arg)
{
    fprintf(stderr, "gpusvm-train: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
    fprintf(stderr, "Try 'gpusvm-train' with no arguments for the options.\n");
    exit(1);
}

/* -W: one weight per line, one line per training row (blank lines skipped). */
static double *read_weights(const char *path, size_t rows)
{
    char *p, *tok;
    size_t tl, k = 0;
    cli_text L;
    double *w;
    if (!cli_read_text(path, &L)) {
        fprintf(stderr, "gpusvm-train: %s: cannot open (%s)\n", path, strerror(errno));
        cli_exit(1);
    }
    w = (double *)malloc((rows ? rows : 1) * sizeof(double));
    if (!w) {
        fprintf(stderr, "gpusvm-train: out of memory\n");
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

static double num(const char *flag, const char *s)
{
    char *end = NULL;
    double v;
    if (!s) bad("missing value for option", flag);
    v = strtod(s, &end);
    if (end == s || *end) bad("not a number", s);
    return v;
}

int main(int argc, char **argv)
{
    gpusvm_params p;
    gpusvm_context *ctx;
    gpusvm_dataset *ds = NULL;
    gpusvm_model *model = NULL;
    int quiet = 0, i, nw = 0, wl[256], nr_fold = 0;
    const char *weight_file = NULL;
    double *sample_weight = NULL;
    double wv[256], nu = 0.5, svr_p = 0.1;
    const char *train_file, *model_file;
    char model_buf[4096];

    memset(&p, 0, sizeof p);
    for (i = 1; i < argc && argv[i][0] == '-'; ++i) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(o, "-q") == 0) {
            quiet = 1;
            continue;
        }
        if (o[1] == 0 || (o[2] != 0 && o[1] != 'w')) bad("unknown option", o);
        switch (o[1]) {
        case 's': {
            double s = num(o, v);
            if (s == 0) p.svm_type = GPUSVM_C_SVC;
            else if (s == 1) p.svm_type = GPUSVM_NU_SVC;
            else if (s == 2) p.svm_type = GPUSVM_ONE_CLASS;
            else if (s == 3) p.svm_type = GPUSVM_EPSILON_SVR;
            else if (s == 4) p.svm_type = GPUSVM_NU_SVR;
            else if (s == 5) p.svm_type = GPUSVM_CRAMMER_SINGER;
            else bad("unknown svm type", v);
            break;
        }
        case 't': {
            double t = num(o, v);
            if (t < 0 || t > 4 || t != (int)t) bad("unknown kernel type", v);
            p.kernel_type = (gpusvm_kernel_type)((int)t + 1);
            break;
        }
        case 'd': {
            double d = num(o, v);
            if (d < 1 || d != (int)d || d > 1000000) bad("-d needs an integer degree >= 1", v);
            p.degree = (int)d;
            break;
        }
        case 'g':
            p.gamma = num(o, v);
            if (!(p.gamma > 0)) bad("-g needs gamma > 0", v);
            p.gamma_mode = GPUSVM_GAMMA_VALUE;
            break;
        case 'r': p.coef0 = num(o, v); break;
        case 'c':
            p.C = num(o, v);
            if (!(p.C > 0)) bad("-c needs C > 0", v);
            break;
        case 'n':
            nu = num(o, v);
            if (!(nu > 0 && nu <= 1)) bad("-n needs nu in (0,1]", v);
            break;
        case 'p':
            svr_p = num(o, v);
            if (!(svr_p >= 0)) bad("-p needs p >= 0", v);
            break;
        case 'm':
            p.cache_size_mb = num(o, v);
            if (!(p.cache_size_mb > 0)) bad("-m needs a size > 0", v);
            break;
        case 'e':
            p.eps = num(o, v);
            if (!(p.eps > 0)) bad("-e needs eps > 0", v);
            break;
        case 'h': {
            double h = num(o, v);
            if (h != 0 && h != 1) bad("-h takes 0 or 1", v);
            p.shrinking = (int)h;
            break;
        }
        case 'b': {
            double b = num(o, v);
            if (b != 0 && b != 1) bad("-b takes 0 or 1", v);
            p.probability = (int)b;
            break;
        }
        case 'W':
            if (!v) bad("missing value for option", o);
            weight_file = v;
            break;
        case 'v': {
            double f = num(o, v);
            if (f < 2 || f != (int)f || f > 1e9) bad("n-fold cross validation: n must >= 2", v);
            nr_fold = (int)f;
            break;
        }
        case 'w': {
            char *end = NULL;
            long lab = strtol(o + 2, &end, 10);
            if (end == o + 2 || *end) bad("-wi needs a class label after w", o);
            if (nw == 256) bad("too many -wi options", o);
            wl[nw] = (int)lab;
            wv[nw] = num(o, v);
            if (!(wv[nw] > 0)) bad("-wi needs a weight > 0", v);
            ++nw;
            break;
        }
        default: bad("unknown option", o);
        }
        ++i; /* the option's value */
    }
    p.nu = nu;
    p.p = svr_p > 0 ? svr_p : DBL_MIN; /* -p 0: the API's 0 means the default */
    if (i >= argc) {
        usage();
        return 1;
    }
    train_file = argv[i];
    if (i + 1 < argc) {
        model_file = argv[i + 1];
        if (i + 2 < argc) bad("too many arguments", argv[i + 2]);
    } else {
        const char *base = strrchr(train_file, '/');
        base = base ? base + 1 : train_file;
        if (strlen(base) + 7 > sizeof model_buf) bad("file name too long", base);
        snprintf(model_buf, sizeof model_buf, "%s.model", base);
        model_file = model_buf;
    }
    p.n_weight = (size_t)nw;
    p.weight_label = wl;
    p.weight = wv;

    ctx = cli_context();
    cli_check(gpusvm_dataset_load(ctx, train_file, &ds), "gpusvm-train");
    cli_check_index0(ds, train_file, p.kernel_type == GPUSVM_KERNEL_PRECOMPUTED);
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
        if (r == GPUSVM_OK && (p.svm_type == GPUSVM_EPSILON_SVR || p.svm_type == GPUSVM_NU_SVR)) {
            double mse, scc;
            cli_regression(target, ds->y, n, &mse, &scc);
            printf("Cross Validation Mean squared error = %g\n", mse);
            printf("Cross Validation Squared correlation coefficient = %g\n", scc);
        } else if (r == GPUSVM_OK) {
            size_t k, correct = 0;
            for (k = 0; k < n; ++k) correct += target[k] == ds->y[k];
            printf("Cross Validation Accuracy = %g%%\n", 100.0 * (double)correct / (double)n);
        }
        free(target);
        free(sample_weight);
        gpusvm_dataset_free(ds);
        cli_check(r, "gpusvm-train");
        cli_exit(0);
    }
    {
        gpusvm_result r = gpusvm_train(ctx, &ds->x, ds->y, &p, &model);
        if (r != GPUSVM_OK) gpusvm_dataset_free(ds);
        cli_check(r, "gpusvm-train");
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
    fprintf(stderr, "gpusvm: training time: %.3f s (%lld outer iterations, working set %d)\n", model->info.seconds,
            model->info.outer_iterations, model->info.working_set_size);
    if (model->info.device_bytes)
        fprintf(stderr, "gpusvm: device memory: %.1f MiB (data and vectors %.1f MiB, working-set rows the rest)\n",
                (double)model->info.device_bytes / 1048576.0, (double)model->info.device_data_bytes / 1048576.0);
    {
        gpusvm_result r = gpusvm_model_save(ctx, model, model_file);
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
