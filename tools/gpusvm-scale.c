/* gpusvm-scale: a drop-in for LIBSVM's svm-scale, with the same output byte for byte.
   Usage: gpusvm-scale [-l lower] [-u upper] [-y y_lower y_upper] [-s save_file | -r restore_file] data_file

   Each feature is mapped linearly from [min, max] (over the data, a missing feature counting as
   0) to [lower, upper]; a feature with min == max is dropped, zeros are not written. With -y the
   labels are scaled too. -s writes the ranges, -r reads them back (features it lists override the
   data's ranges; data features it lacks are dropped with a warning). Values are read as double;
   labels and ranges are written with %.17g and features with %g, as LIBSVM 3.24's svm-scale does. Malformed
   lines are refused with file:line (svm-scale's behaviour on them is undefined); blank lines are
   skipped. */
#include "cli.h"

#include <float.h>

typedef struct {
    cli_text text; /* as read: each pass reads a copy */
    const char *path;
} file_t;

CLI_NORETURN static void fail(const char *path, size_t line, const char *what)
{
    fprintf(stderr, "%s:%lu: %s\n", path, (unsigned long)line, what);
    cli_exit(1);
}

static void read_file(const char *path, file_t *f)
{
    if (!cli_read_text(path, &f->text)) {
        fprintf(stderr, "can't open file %s\n", path);
        cli_exit(1);
    }
    f->path = path;
}

/* Calls back for each "index:value" of every data line; the label through on_label. */
typedef struct {
    double *fmin, *fmax, ymin, ymax, lower, upper, ylower, yupper;
    int max_index, y_scaling, pass;
    long nonzeros, new_nonzeros;
} scale_t;

static double map(double v, double lo, double hi, double to_lo, double to_hi)
{
    if (v == lo) return to_lo;
    if (v == hi) return to_hi;
    return to_lo + (to_hi - to_lo) * (v - lo) / (hi - lo);
}

static void out_feature(scale_t *s, int index, double value)
{
    if (s->fmax[index] == s->fmin[index]) return; /* a single-valued feature */
    value = map(value, s->fmin[index], s->fmax[index], s->lower, s->upper);
    if (value != 0) {
        printf("%d:%g ", index, value);
        s->new_nonzeros++;
    }
}

static void widen(scale_t *s, int index, double v)
{
    if (v > s->fmax[index]) s->fmax[index] = v;
    if (v < s->fmin[index]) s->fmin[index] = v;
}

/* pass 1: largest index; pass 2: ranges; pass 3: output */
static void run_pass(scale_t *s, const file_t *f)
{
    cli_text L = f->text;
    while (cli_next_line(&L)) {
        char *p = L.line, *tok;
        size_t tl;
        double target;
        int next = 1, i;
        if (!cli_token(&p, L.line_end, &tok, &tl)) continue;
        if (!cli_number(tok, tl, &target)) fail(f->path, L.lineno, "the label is not a number");
        if (s->pass == 2) {
            if (target > s->ymax) s->ymax = target;
            if (target < s->ymin) s->ymin = target;
        }
        if (s->pass == 3) printf("%.17g ", s->y_scaling ? map(target, s->ymin, s->ymax, s->ylower, s->yupper) : target);
        while (cli_token(&p, L.line_end, &tok, &tl)) {
            char *colon = (char *)memchr(tok, ':', tl);
            long idx;
            double v;
            if (!colon || !cli_integer(tok, (size_t)(colon - tok), 1, INT_MAX - 1, &idx) ||
                !cli_number(colon + 1, tl - (size_t)(colon + 1 - tok), &v))
                fail(f->path, L.lineno, "expected index:value with an index >= 1");
            if (idx < next) fail(f->path, L.lineno, "feature indices must ascend");
            if (s->pass == 1) {
                if (idx > s->max_index) s->max_index = (int)idx;
                s->nonzeros++;
            } else if (s->pass == 2) {
                for (i = next; i < (int)idx; ++i) widen(s, i, 0.0);
                widen(s, (int)idx, v);
            } else {
                for (i = next; i < (int)idx; ++i) out_feature(s, i, 0.0);
                out_feature(s, (int)idx, v);
            }
            next = (int)idx + 1;
        }
        if (s->pass == 2)
            for (i = next; i <= s->max_index; ++i) widen(s, i, 0.0);
        if (s->pass == 3) {
            for (i = next; i <= s->max_index; ++i) out_feature(s, i, 0.0);
            printf("\n");
        }
    }
}

/* The restore file: [y, y_lower y_upper, y_min y_max,] x, lower upper, then index min max lines. */
static void restore(scale_t *s, const file_t *f, int ranges, const char *data_path)
{
    cli_text L = f->text;
    double a, b;
    int next = 1, i;
#define NEXT_PAIR(x, y)                                                                                  \
    do {                                                                                                 \
        char *p, *t1, *t2;                                                                               \
        size_t l1, l2;                                                                                   \
        if (!cli_next_line(&L)) fail(f->path, L.lineno + 1, "the file ends early");                  \
        p = L.line;                                                                                      \
        if (!cli_token(&p, L.line_end, &t1, &l1) || !cli_token(&p, L.line_end, &t2, &l2) ||      \
            !cli_number(t1, l1, &x) || !cli_number(t2, l2, &y))                      \
            fail(f->path, L.lineno, "expected two numbers");                                             \
    } while (0)
    if (!cli_next_line(&L)) fail(f->path, 1, "empty scaling file");
    if (L.line < L.line_end && L.line[0] == 'y') {
        NEXT_PAIR(a, b);
        if (ranges) {
            s->ylower = a;
            s->yupper = b;
        }
        NEXT_PAIR(a, b);
        if (ranges) {
            s->ymin = a;
            s->ymax = b;
            s->y_scaling = 1;
        }
        if (!cli_next_line(&L)) fail(f->path, L.lineno + 1, "the file ends early");
    }
    if (!(L.line < L.line_end && L.line[0] == 'x')) fail(f->path, L.lineno, "expected the 'x' line");
    NEXT_PAIR(a, b);
    if (ranges) {
        s->lower = a;
        s->upper = b;
    }
    while (cli_next_line(&L)) {
        char *p = L.line, *t;
        size_t l;
        long idx;
        double lo, hi;
        if (!cli_token(&p, L.line_end, &t, &l)) continue;
        if (!cli_integer(t, l, 1, INT_MAX - 1, &idx)) fail(f->path, L.lineno, "expected an index");
        {
            char *t1, *t2;
            size_t l1, l2;
            if (!cli_token(&p, L.line_end, &t1, &l1) || !cli_token(&p, L.line_end, &t2, &l2) ||
                !cli_number(t1, l1, &lo) || !cli_number(t2, l2, &hi))
                fail(f->path, L.lineno, "expected index min max");
        }
        if (!ranges) {
            if (idx > s->max_index) s->max_index = (int)idx;
            continue;
        }
        for (i = next; i < (int)idx && i <= s->max_index; ++i) /* features the file does not list */
            if (s->fmin[i] != s->fmax[i]) {
                fprintf(stderr, "WARNING: feature index %d appeared in file %s was not seen in the scaling factor file "
                        "%s. The feature is scaled to 0.\n", i, data_path, f->path);
                s->fmin[i] = s->fmax[i] = 0.0;
            }
        if (idx <= s->max_index) {
            s->fmin[idx] = lo;
            s->fmax[idx] = hi;
        }
        next = (int)idx + 1;
    }
    if (ranges)
        for (i = next; i <= s->max_index; ++i)
            if (s->fmin[i] != s->fmax[i]) {
                fprintf(stderr, "WARNING: feature index %d appeared in file %s was not seen in the scaling factor file "
                        "%s. The feature is scaled to 0.\n", i, data_path, f->path);
                s->fmin[i] = s->fmax[i] = 0.0;
            }
#undef NEXT_PAIR
}

int main(int argc, char **argv)
{
    atexit(cli_stdout_check); /* first: the last handler to run */
    scale_t s;
    file_t data, rest;
    const char *save = NULL, *restore_path = NULL;
    int i;
    memset(&s, 0, sizeof s);
    memset(&rest, 0, sizeof rest);
    s.lower = -1.0;
    s.upper = 1.0;
    s.ymax = -DBL_MAX;
    s.ymin = DBL_MAX;
    for (i = 1; i < argc && argv[i][0] == '-'; ++i) {
        char *end = NULL;
        if (i + 1 >= argc) break;
        switch (argv[i][1]) {
        case 'l': s.lower = strtod(argv[++i], &end); break;
        case 'u': s.upper = strtod(argv[++i], &end); break;
        case 'y':
            if (i + 2 >= argc) {
                fprintf(stderr, "-y needs y_lower y_upper\n");
                return 1;
            }
            s.ylower = strtod(argv[++i], &end);
            s.yupper = strtod(argv[++i], &end);
            s.y_scaling = 1;
            break;
        case 's': save = argv[++i]; break;
        case 'r': restore_path = argv[++i]; break;
        default:
            fprintf(stderr, "unknown option\n");
            i = argc;
        }
        if (end && *end) {
            fprintf(stderr, "gpusvm-scale: '%s' is not a number\n", argv[i]);
            return 1;
        }
    }
    if (i != argc - 1) {
        printf("Usage: gpusvm-scale [options] data_filename\n"
               "options:\n"
               "-l lower : x scaling lower limit (default -1)\n"
               "-u upper : x scaling upper limit (default +1)\n"
               "-y y_lower y_upper : y scaling limits (default: no y scaling)\n"
               "-s save_filename : save scaling parameters to save_filename\n"
               "-r restore_filename : restore scaling parameters from restore_filename\n");
        return 1;
    }
    if (!(s.upper > s.lower) || (s.y_scaling && !(s.yupper > s.ylower))) {
        fprintf(stderr, "inconsistent lower/upper specification\n");
        return 1;
    }
    if (restore_path && save) {
        fprintf(stderr, "cannot use -r and -s simultaneously\n");
        return 1;
    }
    read_file(argv[i], &data);
    if (restore_path) {
        read_file(restore_path, &rest);
        restore(&s, &rest, 0, argv[i]);
    }
    s.pass = 1;
    run_pass(&s, &data);
    s.fmin = (double *)malloc(((size_t)s.max_index + 1) * sizeof(double));
    s.fmax = (double *)malloc(((size_t)s.max_index + 1) * sizeof(double));
    if (!s.fmin || !s.fmax) {
        fprintf(stderr, "can't allocate enough memory\n");
        cli_exit(1);
    }
    for (i = 0; i <= s.max_index; ++i) {
        s.fmax[i] = -DBL_MAX;
        s.fmin[i] = DBL_MAX;
    }
    s.pass = 2;
    run_pass(&s, &data);
    if (restore_path) restore(&s, &rest, 1, argv[argc - 1]);
    if (save) { /* written as gpusvm_write_file writes: never half-written */
        gpusvm_context_desc d; /* no device needed: the C backend, no log */
        cli_buf o;
        int ok;
        memset(&o, 0, sizeof o);
        if (s.y_scaling) cli_printf(&o, "y\n%.17g %.17g\n%.17g %.17g\n", s.ylower, s.yupper, s.ymin, s.ymax);
        cli_printf(&o, "x\n%.17g %.17g\n", s.lower, s.upper);
        for (i = 1; i <= s.max_index; ++i)
            if (s.fmin[i] != s.fmax[i]) cli_printf(&o, "%d %.17g %.17g\n", i, s.fmin[i], s.fmax[i]);
        memset(&d, 0, sizeof d);
        d.backend = GPUSVM_BACKEND_CPU;
        d.ignore_environment = 1;
        ok = gpusvm_context_create(&d, &cli_ctx_) == GPUSVM_OK && cli_write(cli_ctx_, "gpusvm-scale", save, &o);
        free(o.p);
        if (!ok) {
            fprintf(stderr, "can't write file %s\n", save);
            cli_exit(1);
        }
    }
    s.pass = 3;
    run_pass(&s, &data);
    if (s.new_nonzeros > s.nonzeros)
        fprintf(stderr,
                "WARNING: original #nonzeros %ld\n"
                "       > new      #nonzeros %ld\n"
                "If feature values are non-negative and sparse, use -l 0 rather than the default -l -1\n",
                s.nonzeros, s.new_nonzeros);
    free(s.fmin);
    free(s.fmax);
    free(data.text.buf);
    free(rest.text.buf);
    cli_exit(0);
    return 0;
}
