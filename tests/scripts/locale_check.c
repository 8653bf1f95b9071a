/* locale_check: every text the library writes is the same bytes under a locale whose decimal point
   is a comma (the program calls setlocale(LC_ALL, LOCALE)) as under "C": models (polynomial, RBF,
   linear, probabilities), models as C source (float and double), the messages it logs and the
   errors it records that carry numbers, and its formatter against snprintf in the "C" locale; and
   what it reads: a value written with the locale's own point ('1,5' in data, 'gamma 0,5' in a
   model, under a comma locale) is refused under either locale, with the same message, and numbers
   that take strtod's path (exponents, many digits) read alike (a model loaded and saved). The point
   may be several bytes (ps_AF's U+066B): widths then still count characters as in "C".
   Usage: locale_check DATA LOCALE (tests/scripts/locale.sh makes the locale where the machine lacks it). */
#define GPUSVM_IMPLEMENTATION
#include "../../gpusvm.h"
#include "../check.h"
#include <locale.h>

#define NTEXT 15
static char said[8192];
static char point[8]; /* the locale's decimal point (main reads it before either run) */

static char *dup_text(const char *s)
{
    char *d = (char *)malloc(strlen(s) + 1);
    if (d) strcpy(d, s);
    return d;
}
static size_t said_len;

static void keep(void *user, gpusvm_log_level level, const char *msg)
{
    const size_t n = strlen(msg);
    (void)user;
    (void)level;
    if (said_len + n + 2 < sizeof said) {
        memcpy(said + said_len, msg, n);
        said_len += n;
        said[said_len++] = '\n';
        said[said_len] = 0;
    }
}

/* The library's texts, in the current locale, into out[0..NTEXT) (malloc'd). */
static void texts(const char *data, char **out)
{
    gpusvm_context_desc desc;
    gpusvm_context *ctx = NULL;
    gpusvm_dataset *ds = NULL;
    gpusvm_params p;
    gpusvm_model *m = NULL;
    size_t n;
    int k = 0, c;
    memset(&desc, 0, sizeof desc);
    desc.backend = GPUSVM_BACKEND_CPU;
    desc.logger.fn = keep;
    said_len = 0;
    said[0] = 0;
    CHECK_OK(gpusvm_context_create(&desc, &ctx));
    CHECK_OK(gpusvm_dataset_load(ctx, data, &ds));
    for (c = 0; c < 4; ++c) {
        char *t = NULL;
        memset(&p, 0, sizeof p);
        p.kernel_type = c == 0 ? GPUSVM_KERNEL_POLY : c == 2 ? GPUSVM_KERNEL_LINEAR : GPUSVM_KERNEL_RBF;
        p.gamma = 0.0769230798;
        p.coef0 = 0.5;
        p.C = 2.5;
        p.probability = c == 3;
        CHECK_OK(gpusvm_train(ctx, &ds->x, ds->y, &p, &m));
        CHECK_OK(gpusvm_model_save_buffer(ctx, m, &out[k++], &n));
        if (c < 2) {
            CHECK_OK(gpusvm_model_to_c(ctx, m, "heart", 0, &out[k++], &n));
            CHECK_OK(gpusvm_model_to_c(ctx, m, "heart", 1, &t, &n));
            out[k++] = t;
        }
        gpusvm_model_free(m);
        m = NULL;
    }
    memset(&p, 0, sizeof p);
    p.C = -1.5; /* an error that names a number */
    CHECK(gpusvm_train(ctx, &ds->x, ds->y, &p, &m) != GPUSVM_OK, "C = -1.5 is refused");
    out[k++] = dup_text(gpusvm_context_error(ctx));
    { /* numbers read: the locale's decimal point is not one (refused alike, the same message) */
        char data_point[64], model_point[256];
        gpusvm_dataset *bad = NULL;
        snprintf(data_point, sizeof data_point, "1 1:1%s5 2:2\n-1 1:0.5\n", point);
        snprintf(model_point, sizeof model_point,
                 "svm_type c_svc\nkernel_type rbf\ngamma 0%s5\nnr_class 2\ntotal_sv 2\n"
                 "rho 0\nlabel 1 -1\nnr_sv 1 1\nSV\n1 1:1\n-1 1:0.5\n", point);
        CHECK(gpusvm_dataset_parse(ctx, data_point, strlen(data_point), "point", &bad) != GPUSVM_OK && !bad,
              "a feature value '1,5' (the locale's point) is refused");
        out[k++] = dup_text(gpusvm_context_error(ctx));
        CHECK(gpusvm_model_load_buffer(ctx, model_point, strlen(model_point), &m) != GPUSVM_OK && !m,
              "a model's 'gamma 0,5' (the locale's point) is refused");
        out[k++] = dup_text(gpusvm_context_error(ctx));
    }
    { /* numbers read through strtod (exponents, many digits): the same model, written back */
        static const char model_long[] = "svm_type c_svc\nkernel_type rbf\ngamma 1.5e-3\nnr_class 2\ntotal_sv 2\n"
                                         "rho -2.5E+1\nlabel 1 -1\nnr_sv 1 1\nSV\n0.123456789012345678901 1:1.25e-3\n"
                                         "-0.123456789012345678901 1:-7.0000000000000000001e+2\n";
        CHECK_OK(gpusvm_model_load_buffer(ctx, model_long, sizeof model_long - 1, &m));
        CHECK_OK(gpusvm_model_save_buffer(ctx, m, &out[k++], &n));
        gpusvm_model_free(m);
        m = NULL;
    }
    gpusvm__log(ctx, GPUSVM_LOG_INFO, "%.3f s, %g, %e, %5.1f|%-6.2g|%+.2e|%s %d %lu %lld %x %c %%", 1.5, 0.25, 1e-7,
                2.75, 0.125, -3.5, "text, with a comma", -4, 5UL, -6LL, 255u, 'q');
    out[k++] = dup_text(said);
    out[k] = NULL;
    gpusvm_dataset_free(ds);
    gpusvm_context_destroy(ctx);
}

int main(int argc, char **argv)
{
    char *c_texts[NTEXT + 1], *l_texts[NTEXT + 1], buf[256], ref[256], what[160];
    const char *dp;
    int k;
    if (argc != 3) {
        fprintf(stderr, "usage: locale_check DATA LOCALE\n");
        return 2;
    }
    if (!setlocale(LC_ALL, argv[2])) {
        fprintf(stderr, "FAIL: setlocale(LC_ALL, \"%s\") refused\n", argv[2]);
        return 1;
    }
    dp = localeconv()->decimal_point;
    CHECK(dp && strcmp(dp, ".") != 0 && strlen(dp) < sizeof point, "the locale's decimal point is not '.' (the test means something)");
    snprintf(point, sizeof point, "%s", dp ? dp : ",");
    setlocale(LC_ALL, "C");
    texts(argv[1], c_texts);
    setlocale(LC_ALL, argv[2]);
    texts(argv[1], l_texts);
    for (k = 0; c_texts[k]; ++k) {
        snprintf(what, sizeof what, "text %d (of models, C source, an error, a log) the same bytes under %s", k,
                 argv[2]);
        CHECK(l_texts[k] && strcmp(c_texts[k], l_texts[k]) == 0, what);
        free(c_texts[k]);
        free(l_texts[k]);
    }
    CHECK(k == 13, "thirteen texts compared");
    gpusvm__format(buf, sizeof buf, "%.17g %g %.*f %10.3e %-5d|%5s|%.2s %zu %12.3e|%-9.2f|%08.2f|%+07.1f|%9g %%", 0.1,
                   1e300, 3, 2.5, -1.25e-9, 42, "ab", "xyz", (size_t)7, 2.5e-3, 1.5, -3.25, 2.5, -INFINITY);
    setlocale(LC_ALL, "C");
    snprintf(ref, sizeof ref, "%.17g %g %.*f %10.3e %-5d|%5s|%.2s %zu %12.3e|%-9.2f|%08.2f|%+07.1f|%9g %%", 0.1, 1e300,
             3, 2.5, -1.25e-9, 42, "ab", "xyz", (size_t)7, 2.5e-3, 1.5, -3.25, 2.5, -INFINITY);
    CHECK(strcmp(buf, ref) == 0, "gpusvm__format under the comma locale is snprintf in \"C\"");
    if (strcmp(buf, ref) != 0) fprintf(stderr, "  got '%s'\n  want '%s'\n", buf, ref);
    return check_summary();
}
