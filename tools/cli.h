/* cli.h: what the command-line tools share: the library (through its public API only), a
   stderr logger, a context from the environment (GPUSVM_BACKEND, GPUSVM_DEVICE), error exits,
   and a reader of the small text files the tools take besides data (weights, scaling ranges). */
#ifndef GPUSVM_CLI_H
#define GPUSVM_CLI_H

#define GPUSVM_IMPLEMENTATION
#include "../gpusvm.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
static int cli_creating_ = 0; /* context creation reports its errors through the logger */

static void cli_log(void *user, gpusvm_log_level level, const char *msg)
{
    (void)user;
    if (level == GPUSVM_LOG_ERROR) { /* otherwise printed once, by cli_check */
        if (cli_creating_) fprintf(stderr, "gpusvm: %s\n", msg);
        return;
    }
    if (level == GPUSVM_LOG_WARN) fprintf(stderr, "WARNING: %s\n", msg);
    else if (level == GPUSVM_LOG_INFO || cli_verbose_) fprintf(stderr, "gpusvm: %s\n", msg);
}

static gpusvm_context *cli_ctx_ = NULL;

CLI_NORETURN static void cli_exit(int code)
{
    gpusvm_context_destroy(cli_ctx_);
    exit(code);
}

/* Prints the failure (the context's detail when it has one) and exits non-zero. */
CLI_MAYBE_UNUSED static void cli_check(gpusvm_result r, const char *what)
{
    const char *detail;
    if (r == GPUSVM_OK) return;
    detail = gpusvm_context_error(cli_ctx_);
    fprintf(stderr, "%s: %s\n", what, (detail && *detail) ? detail : gpusvm_result_string(r));
    cli_exit(1);
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
    memset(&desc, 0, sizeof desc);
    if (be && *be && strcmp(be, "auto") && strcmp(be, "opencl") && strcmp(be, "cpu")) {
        fprintf(stderr, "GPUSVM_BACKEND='%s' is not auto, opencl or cpu\n", be);
        exit(1);
    }
    desc.logger.fn = cli_log;
    desc.error = why;
    desc.error_size = sizeof why;
    cli_creating_ = 1;
    r = gpusvm_context_create(&desc, &cli_ctx_);
    cli_creating_ = 0;
    if (r != GPUSVM_OK) {
        fprintf(stderr, "cannot create a gpusvm context: %s: %s (check GPUSVM_BACKEND / GPUSVM_DEVICE)\n",
                gpusvm_result_string(r), why);
        exit(1);
    }
    return cli_ctx_;
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
