/* cli.h: what gpusvm-train and gpusvm-predict share: the library, a stderr logger, a
   context from the environment (GPUSVM_BACKEND, GPUSVM_DEVICE), and error exits. */
#ifndef GPUSVM_CLI_H
#define GPUSVM_CLI_H

#define GPUSVM_IMPLEMENTATION
#include "../gpusvm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define CLI_MAYBE_UNUSED __attribute__((unused)) /* not every tool calls every helper */
#else
#define CLI_MAYBE_UNUSED
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

static void cli_exit(int code)
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

CLI_MAYBE_UNUSED static gpusvm_context *cli_context(void)
{
    gpusvm_context_desc desc;
    gpusvm_result r;
    const char *v = getenv("GPUSVM_VERBOSE");
    cli_verbose_ = v && *v && strcmp(v, "0") != 0;
    memset(&desc, 0, sizeof desc);
    desc.logger.fn = cli_log;
    cli_creating_ = 1;
    r = gpusvm_context_create(&desc, &cli_ctx_);
    cli_creating_ = 0;
    if (r != GPUSVM_OK) {
        fprintf(stderr, "cannot create a gpusvm context: %s (check GPUSVM_BACKEND / GPUSVM_DEVICE)\n",
                gpusvm_result_string(r));
        exit(1);
    }
    return cli_ctx_;
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
