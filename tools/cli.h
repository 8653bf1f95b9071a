/* cli.h: what the command-line tools share: the library (through its public API only), a
   stderr logger, a context from the environment (GPUSVM_BACKEND, GPUSVM_DEVICE), error exits,
   and a reader of the small text files the tools take besides data (weights, scaling ranges). */
#ifndef GPUSVM_CLI_H
#define GPUSVM_CLI_H

#define GPUSVM_IMPLEMENTATION
#include "../gpusvm.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _WIN32
#include <io.h>
#define CLI_ISATTY_STDERR() _isatty(_fileno(stderr))
#else
#include <unistd.h>
#define CLI_ISATTY_STDERR() isatty(2)
#endif

#if defined(__GNUC__) || defined(__clang__)
#define CLI_MAYBE_UNUSED __attribute__((unused)) /* not every tool calls every helper */
#define CLI_NORETURN __attribute__((noreturn))
#elif defined(_MSC_VER)
#define CLI_MAYBE_UNUSED
#define CLI_NORETURN __declspec(noreturn)
#else
#define CLI_MAYBE_UNUSED
#define CLI_NORETURN
#endif

static int cli_verbose_ = 0;
static int cli_quiet_ = 0;    /* -q: nothing but errors, as LIBSVM's tools (set before cli_context) */
static int cli_creating_ = 0; /* context creation reports its errors through the logger */
/* A tool run as several processes (gpusvm-train-mpi): this one's rank (only rank 0 prints what
   every rank would), the context's split, and what exiting must do first (cli_mpi.h sets them). */
static int cli_rank_ = 0;
static void (*cli_desc_hook_)(gpusvm_context_desc *desc) = NULL;
static void (*cli_exit_hook_)(int code) = NULL;

/* A long training's progress (the library's "progress: ..." messages, about once a second): one
   line on stderr redrawn in place where stderr is a terminal, nothing under -q or elsewhere
   (GPUSVM_VERBOSE prints them as lines). cli_line_clear takes the line away before anything else
   is written. */
static int cli_tty_ = 0, cli_line_ = 0;
static void cli_line_clear(void)
{
    if (!cli_line_) return;
    fprintf(stderr, "\r%79s\r", "");
    cli_line_ = 0;
}

static void cli_log(void *user, gpusvm_log_level level, const char *msg)
{
    const int progress = strncmp(msg, "progress: ", 10) == 0;
    (void)user;
    if (progress && cli_tty_ && !cli_quiet_ && cli_rank_ == 0) {
        fprintf(stderr, "\rgpusvm: %-71.71s", msg + 10);
        fflush(stderr);
        cli_line_ = 1;
        return;
    }
    if (progress && !cli_verbose_) return;
    cli_line_clear();
    if (level == GPUSVM_LOG_ERROR) { /* otherwise printed once, by cli_check */
        if (cli_creating_) fprintf(stderr, "gpusvm: %s\n", msg);
        return;
    }
    if (cli_rank_ != 0 || cli_quiet_) return;
    if (level == GPUSVM_LOG_WARN) fprintf(stderr, "WARNING: %s\n", msg);
    else if (level == GPUSVM_LOG_INFO || cli_verbose_) fprintf(stderr, "gpusvm: %s\n", msg);
}

static gpusvm_context *cli_ctx_ = NULL;

/* Standard output flushed and checked as a tool ends (a full disk, a closed pipe): a failure is
   said and the exit status becomes 1 (each tool's main installs it with atexit first thing). */
static void cli_stdout_check(void)
{
    if (fflush(stdout) == 0 && !ferror(stdout)) return;
    fprintf(stderr, "error: standard output could not be written (%s)\n", strerror(errno));
    _Exit(1);
}

CLI_NORETURN static void cli_exit(int code)
{
    gpusvm_context_destroy(cli_ctx_);
    if (cli_exit_hook_) cli_exit_hook_(code);
    exit(code);
}

/* Prints the failure (the context's detail when it has one) and exits non-zero. */
CLI_MAYBE_UNUSED static void cli_check(gpusvm_result r, const char *what)
{
    const char *detail;
    cli_line_clear();
    if (r == GPUSVM_OK) return;
    detail = gpusvm_context_error(cli_ctx_);
    fprintf(stderr, "%s: %s\n", what, (detail && *detail) ? detail : gpusvm_result_string(r));
    cli_exit(1);
}

/* Whether a is b, letters in either case (the library reads its environment words so). */
static int cli_ieq(const char *a, const char *b)
{
    for (; *a && *b; ++a, ++b)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
    return *a == *b;
}

/* A context from the environment. A tool is run by the person who set the environment, so an
   unknown GPUSVM_BACKEND is an error here (a library context would warn and take auto). */
CLI_MAYBE_UNUSED static gpusvm_context *cli_context(void)
{
    gpusvm_context_desc desc;
    gpusvm_result r;
    char why[1024];
    const char *v = getenv("GPUSVM_VERBOSE"), *be = getenv("GPUSVM_BACKEND");
    cli_verbose_ = v && *v && strcmp(v, "0") != 0;
    cli_tty_ = CLI_ISATTY_STDERR();
    memset(&desc, 0, sizeof desc);
    if (be && *be && !cli_ieq(be, "auto") && !cli_ieq(be, "opencl") && !cli_ieq(be, "cpu")) {
        fprintf(stderr, "GPUSVM_BACKEND='%s' is not auto, opencl or cpu\n", be);
        cli_exit(1);
    }
    desc.logger.fn = cli_log;
    desc.error = why;
    desc.error_size = sizeof why;
    if (cli_desc_hook_) cli_desc_hook_(&desc);
    cli_creating_ = 1;
    r = gpusvm_context_create(&desc, &cli_ctx_);
    cli_creating_ = 0;
    if (r != GPUSVM_OK) {
        fprintf(stderr, "cannot create a gpusvm context: %s: %s (check GPUSVM_BACKEND / GPUSVM_DEVICE)\n",
                gpusvm_result_string(r), why);
        cli_exit(1);
    }
    return cli_ctx_;
}

/* The tool's name in its messages (each tool sets it first). */
static const char *cli_tool_ = "gpusvm";

/* A bad command line: the message, and where the options are; exits non-zero. */
CLI_NORETURN CLI_MAYBE_UNUSED static void cli_bad(const char *msg, const char *arg)
{
    fprintf(stderr, "%s: %s%s%s\n", cli_tool_, msg, arg ? ": " : "", arg ? arg : "");
    fprintf(stderr, "Try '%s' with no arguments for the options.\n", cli_tool_);
    cli_exit(1);
}

/* An option's numeric value s (NULL: missing). */
CLI_MAYBE_UNUSED static double cli_num(const char *flag, const char *s)
{
    char *end = NULL;
    double v;
    if (!s) cli_bad("missing value for option", flag);
    v = strtod(s, &end);
    if (end == s || *end) cli_bad("not a number", s);
    return v;
}

/* svm-train's options that set the training parameters, as gpusvm-train and gpusvm-grid take them
   (the tools handle -q, -v and -W themselves). */
typedef struct cli_train {
    gpusvm_params p;
    double nu, svr_p, wv[256];
    int wl[256], nw;
} cli_train;

CLI_MAYBE_UNUSED static void cli_train_init(cli_train *t)
{
    memset(t, 0, sizeof *t);
    t->nu = 0.5;
    t->svr_p = 0.1;
}

/* Option o with its value v (NULL: none); a bad one exits. */
CLI_MAYBE_UNUSED static void cli_train_option(cli_train *t, const char *o, const char *v)
{
    gpusvm_params *p = &t->p;
    if (o[1] == 0 || (o[2] != 0 && o[1] != 'w')) cli_bad("unknown option", o);
    switch (o[1]) {
    case 's': {
        const double s = cli_num(o, v);
        if (s < 0 || s > 5 || s != (int)s) cli_bad("unknown svm type", v);
        p->svm_type = s == 0 ? GPUSVM_C_SVC : s == 1 ? GPUSVM_NU_SVC : s == 2 ? GPUSVM_ONE_CLASS
                    : s == 3 ? GPUSVM_EPSILON_SVR : s == 4 ? GPUSVM_NU_SVR : GPUSVM_CRAMMER_SINGER;
        break;
    }
    case 't': {
        const double k = cli_num(o, v);
        if (k < 0 || k > GPUSVM_KERNEL_PRECOMPUTED - 1 || k != (int)k) cli_bad("unknown kernel type", v);
        p->kernel_type = (gpusvm_kernel_type)((int)k + 1);
        break;
    }
    case 'd': {
        const double d = cli_num(o, v);
        if (d < 0 || d != (int)d || d > 1000000) cli_bad("-d needs an integer degree >= 0 (0: the default, 3)", v);
        p->degree = (int)d;
        break;
    }
    case 'g':
        p->gamma = cli_num(o, v);
        if (!(p->gamma >= 0) || p->gamma > DBL_MAX) cli_bad("-g needs gamma > 0 (0: the default, 1/num_features)", v);
        p->gamma_mode = p->gamma > 0 ? GPUSVM_GAMMA_VALUE : GPUSVM_GAMMA_AUTO;
        break;
    case 'r':
        p->coef0 = cli_num(o, v);
        if (!(fabs(p->coef0) <= DBL_MAX)) cli_bad("-r needs a finite coef0", v);
        break;
    case 'c':
        p->C = cli_num(o, v);
        if (!(p->C >= 0) || p->C > DBL_MAX) cli_bad("-c needs C > 0 (0: the default, 1)", v);
        break;
    case 'n':
        t->nu = cli_num(o, v);
        if (!(t->nu >= 0 && t->nu <= 1)) cli_bad("-n needs nu in (0,1] (0: the default, 0.5)", v);
        break;
    case 'p':
        t->svr_p = cli_num(o, v);
        if (!(t->svr_p >= 0) || t->svr_p > DBL_MAX) cli_bad("-p needs p >= 0", v);
        break;
    case 'm':
        p->cache_size_mb = cli_num(o, v);
        if (!(p->cache_size_mb >= 0) || p->cache_size_mb > 1e9) cli_bad("-m needs a size > 0 (0: the default)", v);
        break;
    case 'e':
        p->eps = cli_num(o, v);
        if (!(p->eps >= 0) || p->eps > DBL_MAX) cli_bad("-e needs eps > 0 (0: the default)", v);
        break;
    case 'h': {
        const double h = cli_num(o, v);
        if (h != 0 && h != 1) cli_bad("-h takes 0 or 1", v);
        p->shrinking = h == 1 ? 1 : -1; /* params: 0 is the default (1) */
        break;
    }
    case 'b': {
        const double b = cli_num(o, v);
        if (b != 0 && b != 1) cli_bad("-b takes 0 or 1", v);
        p->probability = (int)b;
        break;
    }
    case 'w': {
        char *end = NULL;
        const long lab = strtol(o + 2, &end, 10);
        if (end == o + 2 || *end) cli_bad("-wi needs a class label after w", o);
        if (t->nw == 256) cli_bad("too many -wi options", o);
        t->wl[t->nw] = (int)lab;
        t->wv[t->nw] = cli_num(o, v);
        if (!(t->wv[t->nw] > 0)) cli_bad("-wi needs a weight > 0", v);
        ++t->nw;
        break;
    }
    default: cli_bad("unknown option", o);
    }
}

/* The parameters the options give (t->p), with nu, p and the class weights in place. */
CLI_MAYBE_UNUSED static void cli_train_done(cli_train *t)
{
    t->p.nu = t->nu; /* 0: the default */
    t->p.p = t->svr_p > 0 ? t->svr_p : DBL_MIN; /* -p 0: the API's 0 means the default */
    t->p.n_weight = (size_t)t->nw;
    t->p.weight_label = t->wl;
    t->p.weight = t->wv;
}

/* Output built in memory, then written with gpusvm_write_file (never half-written). */
typedef struct cli_buf {
    char *p;
    size_t n, cap;
    int failed; /* out of memory */
} cli_buf;

CLI_MAYBE_UNUSED static void cli_printf(cli_buf *b, const char *fmt, ...)
{
    va_list ap;
    int n;
    if (b->failed) return;
    for (;;) {
        va_start(ap, fmt);
        n = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->failed = 1;
            return;
        }
        if (b->p && b->n + (size_t)n < b->cap) {
            b->n += (size_t)n;
            return;
        }
        {
            size_t cap = b->cap ? b->cap * 2 : 1 << 16;
            char *grown;
            while (cap < b->n + (size_t)n + 1) cap *= 2;
            if (!(grown = (char *)realloc(b->p, cap))) {
                b->failed = 1;
                return;
            }
            b->p = grown;
            b->cap = cap;
        }
    }
}

/* Writes b to path (gpusvm_write_file: a temporary file renamed into place, or directly for a
   device, a FIFO or "-"); 0 after printing why it failed. */
CLI_MAYBE_UNUSED static int cli_write(gpusvm_context *ctx, const char *tool, const char *path, const cli_buf *b)
{
    if (b->failed) {
        fprintf(stderr, "%s: out of memory writing %s\n", tool, path);
        return 0;
    }
    if (gpusvm_write_file(ctx, path, b->p ? b->p : "", b->n) != GPUSVM_OK) {
        fprintf(stderr, "%s: %s\n", tool, gpusvm_context_error(ctx));
        return 0;
    }
    return 1;
}

/* A data file as the tools read it: index 0 kept as a precomputed kernel's serial number
   (GPUSVM_INDEX0_SERIAL), which cli_check_index0 refuses for other kernels with the tools' advice. */
CLI_MAYBE_UNUSED static gpusvm_result cli_read_data(gpusvm_context *ctx, const char *path, gpusvm_dataset **out)
{
    gpusvm_data_desc d;
    memset(&d, 0, sizeof d);
    d.path = path;
    d.index0 = GPUSVM_INDEX0_SERIAL;
    return gpusvm_dataset_read(ctx, &d, out);
}

/* A zero-based data file (index 0 where the kernel is not precomputed) is refused with its line. */
CLI_MAYBE_UNUSED static void cli_check_index0(const gpusvm_dataset *ds, const char *path, int precomputed)
{
    if (precomputed || !ds->index0_line) return;
    fprintf(stderr,
            "%s:%lu: feature index 0: LIBSVM's indices start at 1 (0:k is only a precomputed kernel's serial "
            "number, -t 4). This looks like a zero-based file (scikit-learn's dump_svmlight_file writes them by "
            "default): add 1 to every index, or write it with zero_based=False\n",
            path, (unsigned long)ds->index0_line);
    cli_exit(1);
}

/* A classification's labels are integers (svm-train would truncate 1.5 to 1): a label that is not
   is refused with its file:line. */
CLI_MAYBE_UNUSED static void cli_check_labels(const gpusvm_dataset *ds, const char *path, gpusvm_svm_type type)
{
    size_t i;
    if (type != GPUSVM_SVM_DEFAULT && type != GPUSVM_C_SVC && type != GPUSVM_NU_SVC && type != GPUSVM_CRAMMER_SINGER)
        return;
    for (i = 0; i < ds->x.rows; ++i)
        if (ds->y[i] != floor(ds->y[i]) || ds->y[i] < (double)INT_MIN || ds->y[i] > (double)INT_MAX) {
            if (ds->y[i] == floor(ds->y[i]))
                fprintf(stderr, "%s:%lu: label %.17g is too large for a class label (an int: %d to %d)\n", path,
                        (unsigned long)ds->line[i], ds->y[i], INT_MIN, INT_MAX);
            else
                fprintf(stderr,
                        "%s:%lu: label %.17g is not an integer class label (-s 0, 1 and 5 classify by integer labels; "
                        "-s 3 or -s 4 for real-valued targets)\n",
                        path, (unsigned long)ds->line[i], ds->y[i]);
            cli_exit(1);
        }
}

/* A text file in memory, read line by line: lines end at \n (a \r before it is dropped). */
typedef struct cli_text {
    char *buf, *p, *end; /* the file, NUL-terminated; the rest to read */
    char *line, *line_end;
    size_t lineno;
} cli_text;

/* The whole file; 0 (errno set) when it cannot be read. */
CLI_MAYBE_UNUSED static int cli_read_text(const char *path, cli_text *t)
{
    FILE *f = fopen(path, "rb");
    size_t cap = 1 << 16, len = 0, r;
    memset(t, 0, sizeof *t);
    if (!f) return 0;
    t->buf = (char *)malloc(cap);
    while (t->buf && (r = fread(t->buf + len, 1, cap - len - 1, f)) > 0) {
        char *grown;
        len += r;
        if (cap - len > 1) continue;
        if (!(grown = (char *)realloc(t->buf, cap * 2))) free(t->buf);
        t->buf = grown;
        cap *= 2;
    }
    if (!t->buf || ferror(f)) {
        fclose(f);
        free(t->buf);
        t->buf = NULL;
        errno = errno ? errno : ENOMEM;
        return 0;
    }
    fclose(f);
    t->buf[len] = 0;
    t->p = t->buf;
    t->end = t->buf + len;
    return 1;
}

CLI_MAYBE_UNUSED static int cli_next_line(cli_text *t)
{
    char *nl;
    if (t->p >= t->end) return 0;
    nl = (char *)memchr(t->p, '\n', (size_t)(t->end - t->p));
    t->line = t->p;
    t->line_end = nl ? nl : t->end;
    t->p = nl ? nl + 1 : t->end;
    if (t->line_end > t->line && t->line_end[-1] == '\r') t->line_end--;
    t->lineno++;
    return 1;
}

/* The next blank-separated token of [*s, end). */
CLI_MAYBE_UNUSED static int cli_token(char **s, const char *end, char **tok, size_t *len)
{
    char *p = *s;
    while (p < end && (*p == ' ' || *p == '\t')) ++p;
    *s = p;
    if (p >= end) return 0;
    *tok = p;
    while (p < end && *p != ' ' && *p != '\t') ++p;
    *len = (size_t)(p - *tok);
    *s = p;
    return 1;
}

/* A whole token as a number (strtod's syntax; the tools run in the C locale). */
CLI_MAYBE_UNUSED static int cli_number(const char *s, size_t len, double *out)
{
    char tmp[1024], *e = NULL;
    if (len == 0 || len >= sizeof tmp) return 0;
    memcpy(tmp, s, len);
    tmp[len] = 0;
    *out = strtod(tmp, &e);
    return e == tmp + len;
}

/* A whole token as a decimal integer in [lo, hi]. */
CLI_MAYBE_UNUSED static int cli_integer(const char *s, size_t len, long lo, long hi, long *out)
{
    long v = 0;
    size_t i = (len > 0 && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
    if (i == len) return 0;
    for (; i < len; ++i) {
        if (s[i] < '0' || s[i] > '9' || v > (LONG_MAX - (s[i] - '0')) / 10) return 0;
        v = v * 10 + (s[i] - '0');
    }
    if (s[0] == '-') v = -v;
    if (v < lo || v > hi) return 0;
    *out = v;
    return 1;
}

/* LIBSVM's two regression figures for predictions v of targets t: mean squared error and
   squared correlation coefficient. */
CLI_MAYBE_UNUSED static void cli_regression(const double *v, const double *t, size_t n, double *mse, double *scc)
{
    double se = 0, sv = 0, st = 0, svv = 0, stt = 0, svt = 0, N = (double)n;
    size_t k;
    for (k = 0; k < n; ++k) {
        se += (v[k] - t[k]) * (v[k] - t[k]);
        sv += v[k];
        st += t[k];
        svv += v[k] * v[k];
        stt += t[k] * t[k];
        svt += v[k] * t[k];
    }
    *mse = se / N;
    *scc = ((N * svt - sv * st) * (N * svt - sv * st)) / ((N * svv - sv * sv) * (N * stt - st * st));
}

#endif
