/* gpusvm-grid: a drop-in for LIBSVM's grid.py (Debian's svm-grid). Every (C, gamma) point of the
   grid and each of its folds is trained by gpusvm_grid_search, every point together as one batch
   on the device (C-SVC; the other types point by point), instead of one svm-train -v run per
   point; on several GPUs (GPUSVM_DEVICE=all or a list) they share the batch. The lines on
   stdout, the .out file and the last line are svm-grid's; the contour picture is a PNG here.
   Usage: gpusvm-grid [grid_options] [svm_options] dataset
   Built with GPUSVM_GRID_MPI (make mpi): gpusvm-grid-mpi, the same run as MPI ranks that take the
   gamma values in turn (cli_mpi.h): mpirun -np 4 build/gpusvm-grid-mpi [options] dataset */
#ifdef GPUSVM_GRID_MPI
#include "cli_mpi.h"
#define GRID_TOOL "gpusvm-grid-mpi"
#else
#include "cli.h"
#define GRID_TOOL "gpusvm-grid"
#endif
#include "png.h"

#include <math.h>
#include <time.h>

static void usage(void)
{
    printf("Usage: " GRID_TOOL " [grid_options] [svm_options] dataset\n"
           "grid_options (svm-grid's):\n"
           "-log2c {begin,end,step | \"null\"} : set the range of c (default -5,15,2)\n"
           "    begin,end,step -- c_range = 2^{begin,...,begin+k*step,...,end}\n"
           "    \"null\"         -- do not grid with c\n"
           "-log2g {begin,end,step | \"null\"} : set the range of g (default 3,-15,-2)\n"
           "    begin,end,step -- g_range = 2^{begin,...,begin+k*step,...,end}\n"
           "    \"null\"         -- do not grid with g\n"
           "-v n : n-fold cross validation (default 5)\n"
           "-svmtrain pathname : accepted and ignored (gpusvm trains itself)\n"
           "-gnuplot {pathname | \"null\"} : accepted and ignored (the PNG is drawn here)\n"
           "-out {pathname | \"null\"} : set output file path and name (default dataset.out)\n"
           "-png {pathname | \"null\"} : set graphic output file path and name (default dataset.png; null: none)\n"
           "svm_options: gpusvm-train's, but -c, -g, -v, -W and -b (the grid sets or needs none of them)\n"
           "The rate is the cross-validation accuracy in percent; for -s 3 and -s 4 the mean squared error,\n"
           "where the best point is the smallest.\n"
           "environment: GPUSVM_BACKEND=auto|opencl|cpu, GPUSVM_DEVICE=index|name|all|i,j,..., GPUSVM_VERBOSE=1,\n"
           "\tGPUSVM_LANES=n (a GPU's points n at a time, each its folds' batch; default 8 where points are large, 1: one batch)\n"
#ifdef GPUSVM_GRID_MPI
           "run as MPI ranks (mpirun -np N " GRID_TOOL " ...): rank r takes the gamma values r, r + N, ... (each\n"
           "\ton its own context: GPUSVM_DEVICE per rank, or the C backend); rank 0 prints and writes\n"
#endif
           );
}

/* svm-grid's range_f: begin, begin + step, ... while not past end (at most 1000 values). */
static int range_f(double begin, double end, double step, double *out)
{
    int n = 0;
    for (;;) {
        if ((step > 0 && begin > end) || (step < 0 && begin < end) || n == 1000) break;
        out[n++] = begin;
        if (step == 0) break;
        begin = begin + step;
    }
    return n;
}

/* A -log2c / -log2g range that range_f would cut short or that names no usable value is an error:
   a step of 0 (svm-grid never ends on it), more than 1000 values, or a power of two past a
   double's range (its C or gamma would be 0 or infinite). */
static void range_check(const char *opt, const char *v, const double *r)
{
    char why[160];
    const double n = r[2] != 0.0 ? floor((r[1] - r[0]) / r[2]) + 1.0 : 0.0;
    double last;
    if (!(fabs(r[0]) <= DBL_MAX && fabs(r[1]) <= DBL_MAX && fabs(r[2]) <= DBL_MAX))
        cli_bad("begin, end and step must be finite numbers", v);
    if (r[2] == 0.0) cli_bad("the step must not be 0", v);
    if (n > 1000.0) {
        snprintf(why, sizeof why, "%s gives %.0f values, at most 1000 are taken: use a larger step", opt, n);
        cli_bad(why, v);
    }
    last = n >= 1.0 ? r[0] + (n - 1.0) * r[2] : r[0];
    if (fabs(r[0]) > 1000.0 || fabs(last) > 1000.0) {
        snprintf(why, sizeof why, "%s: 2^%g is past a double's range (powers of two from -1000 to 1000)", opt,
                 fabs(r[0]) > 1000.0 ? r[0] : last);
        cli_bad(why, v);
    }
}

/* svm-grid's permute_sequence: the middle first, then the halves' own orders interleaved. */
static int permute(const double *seq, int n, double *out)
{
    double left[1000], right[1000];
    int nl, nr, mid, il = 0, ir = 0, k = 0;
    if (n <= 1) {
        if (n == 1) out[0] = seq[0];
        return n;
    }
    mid = n / 2;
    nl = permute(seq, mid, left);
    nr = permute(seq + mid + 1, n - mid - 1, right);
    out[k++] = seq[mid];
    while (il < nl || ir < nr) {
        if (il < nl) out[k++] = left[il++];
        if (ir < nr) out[k++] = right[ir++];
    }
    return k;
}

/* v as Python's str(float) writes it (svm-grid's numbers): the shortest digits that read back
   as v, fixed notation for exponents -4..15, else d.ddde+XX. */
static void pyfloat(double v, char *out, size_t size)
{
    char buf[64], digits[32];
    int p, e, nd = 0, k;
    const char *s;
    size_t at = 0;
    for (p = 0; p < 17; ++p) {
        snprintf(buf, sizeof buf, "%.*e", p, v);
        if (strtod(buf, NULL) == v) break;
    }
    s = buf;
    if (*s == '-') out[at++] = *s++;
    for (; *s && *s != 'e'; ++s)
        if (*s != '.') digits[nd++] = *s;
    e = atoi(s + 1);
    while (nd > 1 && digits[nd - 1] == '0') --nd;
    if (e >= -4 && e < 16) {
        if (e < 0) {
            at += (size_t)snprintf(out + at, size - at, "0.");
            for (k = 0; k < -e - 1; ++k) at += (size_t)snprintf(out + at, size - at, "0");
            for (k = 0; k < nd; ++k) at += (size_t)snprintf(out + at, size - at, "%c", digits[k]);
        } else {
            for (k = 0; k <= e; ++k) at += (size_t)snprintf(out + at, size - at, "%c", k < nd ? digits[k] : '0');
            at += (size_t)snprintf(out + at, size - at, ".");
            if (nd <= e + 1) at += (size_t)snprintf(out + at, size - at, "0");
            for (k = e + 1; k < nd; ++k) at += (size_t)snprintf(out + at, size - at, "%c", digits[k]);
        }
    } else {
        at += (size_t)snprintf(out + at, size - at, "%c", digits[0]);
        if (nd > 1) at += (size_t)snprintf(out + at, size - at, ".");
        for (k = 1; k < nd; ++k) at += (size_t)snprintf(out + at, size - at, "%c", digits[k]);
        snprintf(out + at, size - at, "e%c%02d", e < 0 ? '-' : '+', e < 0 ? -e : e);
    }
}

/* A log2 value of the grid as svm-grid prints it (an integer where its range was the default). */
static void log2_str(double v, int is_int, char *out, size_t size)
{
    if (is_int) snprintf(out, size, "%d", (int)v);
    else pyfloat(v, out, size);
}

typedef struct grid_opts {
    double c[3], g[3];
    int with_c, with_g, fold;
    int c_int, g_int; /* the default ranges: svm-grid's are integers, so it prints -5, not -5.0 */
    const char *out, *png, *data;
    cli_train t;
} grid_opts;

static void parse(int argc, char **argv, grid_opts *o)
{
    int i;
    memset(o, 0, sizeof *o);
    o->c[0] = -5, o->c[1] = 15, o->c[2] = 2;
    o->g[0] = 3, o->g[1] = -15, o->g[2] = -2;
    o->with_c = o->with_g = 1;
    o->c_int = o->g_int = 1;
    o->fold = 5;
    cli_train_init(&o->t);
    for (i = 1; i < argc - 1; ++i) {
        const char *a = argv[i], *v = argv[i + 1];
        if (!strcmp(a, "-log2c") || !strcmp(a, "-log2g")) {
            double *r = a[5] == 'c' ? o->c : o->g;
            int *with = a[5] == 'c' ? &o->with_c : &o->with_g;
            *(a[5] == 'c' ? &o->c_int : &o->g_int) = 0;
            char *e1, *e2, *e3;
            if (!strcmp(v, "null")) {
                *with = 0;
            } else {
                r[0] = strtod(v, &e1);
                if (*e1 != ',') cli_bad("expected begin,end,step", v);
                r[1] = strtod(e1 + 1, &e2);
                if (*e2 != ',') cli_bad("expected begin,end,step", v);
                r[2] = strtod(e2 + 1, &e3);
                if (*e3 || e3 == e2 + 1) cli_bad("expected begin,end,step", v);
                range_check(a, v, r);
            }
        } else if (!strcmp(a, "-v")) {
            const double f = cli_num(a, v);
            if (f < 2 || f != (int)f || f > 1e9) cli_bad("n-fold cross validation: n must >= 2", v);
            o->fold = (int)f;
        } else if (!strcmp(a, "-svmtrain") || !strcmp(a, "-gnuplot")) { /* accepted: nothing to run */
        } else if (!strcmp(a, "-out")) {
            o->out = strcmp(v, "null") ? v : "";
        } else if (!strcmp(a, "-png")) {
            o->png = strcmp(v, "null") ? v : "";
        } else if (!strcmp(a, "-c") || !strcmp(a, "-g")) {
            cli_bad("Use -log2c and -log2g.", a);
        } else if (!strcmp(a, "-q")) {
            continue;
        } else if (!strcmp(a, "-W") || !strcmp(a, "-b") || !strcmp(a, "-resume")) {
            cli_bad("not an option of gpusvm-grid", a);
        } else {
            cli_train_option(&o->t, a, v);
        }
        ++i;
    }
    if (i != argc - 1) {
        if (cli_rank_ == 0) usage();
        cli_exit(1);
    }
    if (!o->with_c && !o->with_g) cli_bad("-log2c and -log2g should not be null simultaneously", NULL);
    o->data = argv[argc - 1];
    cli_train_done(&o->t);
}

/* The rates of every grid point: every point in one call (C-SVC's train as one batch, shared by
   the devices of GPUSVM_DEVICE=all or a list); as MPI ranks, rank r takes gamma values r,
   r + ranks, ... and every rank gets all rates. */
static void run_grid(gpusvm_context *ctx, const gpusvm_dataset *ds, const grid_opts *o, const double *cs, int nc,
                     const double *gs, int ng, double *rate)
{
    double C[1000], G[1000];
    int i, ranks = 1, step = ng;
    time_t start = time(NULL);
#ifdef GPUSVM_GRID_MPI
    ranks = cli_mpi_size_;
    step = 1;
#endif
    for (i = 0; i < nc; ++i) C[i] = pow(2.0, cs[i]);
    for (i = 0; i < ng; ++i) G[i] = pow(2.0, gs[i]);
    memset(rate, 0, (size_t)nc * (size_t)ng * sizeof(double));
    for (i = cli_rank_; i < ng; i += ranks * step) {
        const int n = step < ng - i ? step : ng - i;
        cli_check(gpusvm_grid_search(ctx, &ds->x, ds->y, &o->t.p, o->fold, o->with_c ? C : NULL, o->with_c ? nc : 0,
                                     o->with_g ? G + i : NULL, o->with_g ? n : 0, rate + (size_t)i * (size_t)nc),
                  GRID_TOOL);
        if (ranks == 1)
            fprintf(stderr, "gpusvm-grid: %d of %d gamma values (%d points each) done, %.0f s\n", i + n, ng, nc,
                    difftime(time(NULL), start));
        else
            fprintf(stderr, GRID_TOOL ": rank %d: gamma value %d of %d (%d points) done, %.0f s\n", cli_rank_, i + 1,
                    ng, nc, difftime(time(NULL), start));
    }
#ifdef GPUSVM_GRID_MPI
    cli_mpi_sum(rate, (size_t)nc * (size_t)ng);
#endif
}

/* The grid as computed: its ranges in order (cr, gr) and in svm-grid's order (cs, gs), the rates
   (rate[g * nc + c] for cs[c], gs[g]) and the best point so far in svm-grid's order. */
typedef struct grid_run {
    grid_opts o;
    double cr[1000], gr[1000], cs[1000], gs[1000], *rate, best_c, best_g, best_rate;
    int nc, ng, regression, have_best;
} grid_run;

/* One job (cs[ci], gs[gi]): svm-grid's update of the best, its stdout line and its .out line. */
static void report_point(grid_run *g, int ci, int gi, cli_buf *outf)
{
    const grid_opts *o = &g->o;
    char rs[64], s1[64], s2[64], s3[64];
    double r;
    snprintf(rs, sizeof rs, "%g", g->rate[(size_t)gi * (size_t)g->nc + (size_t)ci]); /* svm-train's %g */
    r = strtod(rs, NULL);
    if (!g->have_best || (g->regression ? r < g->best_rate : r > g->best_rate) ||
        (r == g->best_rate && (!o->with_g || g->gs[gi] == g->best_g) && o->with_c && g->cs[ci] < g->best_c)) {
        g->best_rate = r, g->best_c = o->with_c ? g->cs[ci] : 0, g->best_g = o->with_g ? g->gs[gi] : 0;
        g->have_best = 1;
    }
    if (o->with_c) log2_str(g->cs[ci], o->c_int, s1, sizeof s1);
    if (o->with_g) log2_str(g->gs[gi], o->g_int, s2, sizeof s2);
    pyfloat(r, s3, sizeof s3);
    printf("[local] %s%s%s %s (best ", o->with_c ? s1 : "", o->with_c && o->with_g ? " " : "", o->with_g ? s2 : "", s3);
    if (o->with_c) {
        cli_printf(outf, "log2c=%s ", s1);
        pyfloat(pow(2.0, g->best_c), s1, sizeof s1);
        printf("c=%s, ", s1);
    }
    if (o->with_g) {
        cli_printf(outf, "log2g=%s ", s2);
        pyfloat(pow(2.0, g->best_g), s2, sizeof s2);
        printf("g=%s, ", s2);
    }
    cli_printf(outf, "rate=%s\n", s3);
    pyfloat(g->best_rate, s3, sizeof s3);
    printf("rate=%s)\n", s3);
}

/* svm-grid's order: the jobs line by line, C and gamma resolution raised in turn. */
static void report(grid_run *g, cli_buf *outf)
{
    int li = 0, lj = 0, j;
    while (li < g->nc || lj < g->ng) {
        const int inc_c = (double)li / g->nc < (double)lj / g->ng;
        for (j = 0; j < (inc_c ? lj : li); ++j) report_point(g, inc_c ? li : j, inc_c ? j : lj, outf);
        if (inc_c) ++li;
        else ++lj;
    }
}

/* The picture (grid.py's gnuplot contour plot, drawn here): the rates as a heat map with svm-grid's
   contour levels, axes in log2 C and log2 gamma with their grid points as ticks, a title with the
   data set and the best point, and a colour legend with the levels marked. */
#define CELL_MIN 32   /* pixels per grid point, at least */
#define PLOT_W 480    /* the heat map's size, at least */
#define PLOT_H 384
#define MARGIN_L 64   /* room for the y ticks' labels */
#define MARGIN_T 56   /* the title and the y axis' name */
#define MARGIN_B 56   /* the x ticks' labels and the x axis' name */
#define MARGIN_R 150  /* the legend */
#define TEXT 2        /* font scale */

/* The contour levels: level0 + k step for k < GRID_LEVELS, each below the highest rate hi (a level
   at hi itself would draw its ties); GRID_LEVEL: the levels at or below v. */
#define GRID_LEVELS(hi, level0, step) ((int)ceil(((hi) - (level0)) / (step)))
#define GRID_LEVEL(v, hi, level0, step) fmin(floor(((v) - (level0)) / (step)), GRID_LEVELS(hi, level0, step) - 1.0)

typedef struct plot {
    unsigned char *rgb;
    int w, h;          /* the image */
    int x0, y0, pw, ph; /* the heat map in it */
    int nx, ny;        /* grid points */
    const double *xs, *ys; /* their log2 C by column (rising to the right), log2 gamma by row (falling
                              downwards) */
} plot;

/* The colour of t in [0, 1] (clamped; not a number: 0): blue, green, red (the best). */
static void heat(double t0, unsigned char *c)
{
    const double t = t0 >= 0.0 ? (t0 <= 1.0 ? t0 : 1.0) : 0.0;
    const double r = t < 0.5 ? 0.0 : 2.0 * t - 1.0, g = t < 0.5 ? 2.0 * t : 2.0 - 2.0 * t, b = t < 0.5 ? 1.0 - 2.0 * t : 0.0;
    c[0] = (unsigned char)(40 + 215 * r);
    c[1] = (unsigned char)(40 + 215 * g);
    c[2] = (unsigned char)(40 + 215 * b);
}

static void fill(const plot *p, int x, int y, int w, int h, const unsigned char *c)
{
    int i, j;
    for (j = y; j < y + h; ++j)
        for (i = x; i < x + w; ++i)
            if (i >= 0 && i < p->w && j >= 0 && j < p->h) memcpy(p->rgb + ((size_t)j * p->w + i) * 3, c, 3);
}

/* The heat map: the rate interpolated bilinearly between the grid points (at the cells' centres),
   svm-grid's contour levels (from the best rounded, minus 3, every 0.5; for an error, eight steps
   from the least) in black, the best point a white cross. val[row * nx + col], rows top first. */
static void heat_map(const plot *p, const double *val, double lo, double hi, double level0, double step, int regression,
                     int bx, int by)
{
    const double cw = (double)p->pw / p->nx, ch = (double)p->ph / p->ny;
    double *v = (double *)malloc((size_t)p->pw * (size_t)p->ph * sizeof(double));
    unsigned char c[3];
    int x, y, k;
    if (!v) cli_check(GPUSVM_ERROR_OUT_OF_MEMORY, GRID_TOOL);
    for (y = 0; y < p->ph; ++y)
        for (x = 0; x < p->pw; ++x) {
            const double fx = (x + 0.5) / cw - 0.5, fy = (y + 0.5) / ch - 0.5;
            const int x0 = fx < 0 ? 0 : (int)fx, y0 = fy < 0 ? 0 : (int)fy;
            const int x1 = x0 + 1 < p->nx ? x0 + 1 : x0, y1 = y0 + 1 < p->ny ? y0 + 1 : y0;
            const double tx = fx < 0 ? 0 : fx - x0 > 1 ? 1 : fx - x0, ty = fy < 0 ? 0 : fy - y0 > 1 ? 1 : fy - y0;
            const double a = val[y0 * p->nx + x0] * (1 - tx) + val[y0 * p->nx + x1] * tx;
            const double b = val[y1 * p->nx + x0] * (1 - tx) + val[y1 * p->nx + x1] * tx;
            const double t = hi > lo ? (a * (1 - ty) + b * ty - lo) / (hi - lo) : 1.0;
            v[(size_t)y * p->pw + x] = a * (1 - ty) + b * ty;
            heat(regression ? 1.0 - t : t, c);
            fill(p, p->x0 + x, p->y0 + y, 1, 1, c);
        }
    memset(c, 0, 3);
    for (y = 0; y < p->ph; ++y) /* contour lines where a level lies between neighbours */
        for (x = 0; x < p->pw; ++x) {
            const double here = v[(size_t)y * p->pw + x];
            const double right = x + 1 < p->pw ? v[(size_t)y * p->pw + x + 1] : here;
            const double down = y + 1 < p->ph ? v[(size_t)(y + 1) * p->pw + x] : here;
            const double lc = GRID_LEVEL(here, hi, level0, step), lr = GRID_LEVEL(right, hi, level0, step),
                         ld = GRID_LEVEL(down, hi, level0, step);
            if ((lc != lr && (here >= level0 || right >= level0)) || (lc != ld && (here >= level0 || down >= level0)))
                fill(p, p->x0 + x, p->y0 + y, 1, 1, c);
        }
    memset(c, 255, 3);
    for (k = -6; k <= 6; ++k) { /* the best point */
        const int cx = p->x0 + (int)((bx + 0.5) * cw), cy = p->y0 + (int)((by + 0.5) * ch);
        fill(p, cx + k, cy - 1, 1, 3, c);
        fill(p, cx - 1, cy + k, 3, 1, c);
    }
    free(v);
}

/* The axes: a frame, a tick at every grid point with its log2 value (as many as fit), the names. */
static void axes(const plot *p, const grid_run *g)
{
    static const unsigned char black[3] = {0, 0, 0};
    const grid_opts *o = &g->o;
    const int th = PNG_GLYPH_H * TEXT;
    char s[64];
    int i, every, last = -1000;
    fill(p, p->x0 - 1, p->y0 - 1, p->pw + 2, 1, black);
    fill(p, p->x0 - 1, p->y0 + p->ph, p->pw + 2, 1, black);
    fill(p, p->x0 - 1, p->y0 - 1, 1, p->ph + 2, black);
    fill(p, p->x0 + p->pw, p->y0 - 1, 1, p->ph + 2, black);
    for (i = 0; i < p->nx && o->with_c; ++i) { /* x: log2 C rising to the right */
        const int x = p->x0 + (int)((i + 0.5) * p->pw / p->nx);
        log2_str(p->xs[i], o->c_int, s, sizeof s);
        fill(p, x, p->y0 + p->ph, 1, 6, black);
        if (x - png_text_width(s, TEXT) / 2 > last + 8) {
            png_text(p->rgb, p->w, p->h, x - png_text_width(s, TEXT) / 2, p->y0 + p->ph + 10, TEXT, s, black);
            last = x + png_text_width(s, TEXT) / 2;
        }
    }
    every = (int)ceil((double)(th + 6) * p->ny / p->ph);
    for (i = 0; i < p->ny && o->with_g; ++i) { /* y: log2 gamma rising upwards */
        const int y = p->y0 + (int)((i + 0.5) * p->ph / p->ny);
        log2_str(p->ys[i], o->g_int, s, sizeof s);
        fill(p, p->x0 - 6, y, 6, 1, black);
        if ((p->ny - 1 - i) % (every > 0 ? every : 1) == 0)
            png_text(p->rgb, p->w, p->h, p->x0 - 10 - png_text_width(s, TEXT), y - th / 2, TEXT, s, black);
    }
    if (o->with_c)
        png_text(p->rgb, p->w, p->h, p->x0 + p->pw / 2 - png_text_width("log2(C)", TEXT) / 2, p->y0 + p->ph + 14 + th,
                 TEXT, "log2(C)", black);
    if (o->with_g) png_text(p->rgb, p->w, p->h, p->x0 - 40, p->y0 - th - 8, TEXT, "log2(gamma)", black);
}

/* The legend: the colour scale from the worst rate (bottom) to the best, each contour level a black
   line across it with its value, the ends' values. */
static void legend(const plot *p, double lo, double hi, double level0, double step, int regression)
{
    static const unsigned char black[3] = {0, 0, 0};
    const int x = p->x0 + p->pw + 24, bw = 20, th = PNG_GLYPH_H * TEXT;
    unsigned char c[3];
    char s[64];
    double lv;
    int y, k, last = -1000;
    png_text(p->rgb, p->w, p->h, x, p->y0 - th - 8, TEXT, regression ? "MSE" : "rate %", black);
    for (y = 0; y < p->ph; ++y) {
        heat(1.0 - (y + 0.5) / p->ph, c);
        fill(p, x, p->y0 + y, bw, 1, c);
    }
    snprintf(s, sizeof s, "%.4g", regression ? lo : hi); /* the ends' values */
    png_text(p->rgb, p->w, p->h, x + bw + 8, p->y0, TEXT, s, black);
    snprintf(s, sizeof s, "%.4g", regression ? hi : lo);
    png_text(p->rgb, p->w, p->h, x + bw + 8, p->y0 + p->ph - th, TEXT, s, black);
    for (k = 0, lv = level0; hi > lo && k < GRID_LEVELS(hi, level0, step); ++k, lv += step) {
        const double t = (lv - lo) / (hi - lo); /* the level's value, at the height its colour is */
        const int ly = p->y0 + (int)((regression ? t : 1.0 - t) * (p->ph - 1));
        if (lv < lo) continue;
        fill(p, x - 3, ly, bw + 6, 1, black);
        snprintf(s, sizeof s, "%g", lv);
        if (abs(ly - last) > th + 2 && ly - th / 2 > p->y0 + th + 2 && ly + th / 2 < p->y0 + p->ph - th - 2) {
            png_text(p->rgb, p->w, p->h, x + bw + 8, ly - th / 2, TEXT, s, black);
            last = ly;
        }
    }
}

/* The picture at path: columns by log2 C rising to the right, rows by log2 gamma rising upwards (as
   gnuplot draws grid.py's); its size by the grid (each point at least CELL_MIN pixels, the map at
   least PLOT_W x PLOT_H) with the margins around it. */
static void picture(gpusvm_context *ctx, const grid_run *g, const char *path, const char *data)
{
    static const unsigned char white[3] = {255, 255, 255}, black[3] = {0, 0, 0};
    const grid_opts *o = &g->o;
    double *val = (double *)malloc((size_t)g->nc * (size_t)g->ng * sizeof(double)), lo, hi, level0, step;
    double xs[1000], ys[1000];
    unsigned char *png;
    char title[512], s1[64], s2[64], s3[64];
    size_t png_size = 0;
    int bx = 0, by = 0, ci, gi, k;
    plot p;
    p.nx = g->nc, p.ny = g->ng;
    for (k = 0; k < g->nc; ++k) xs[k] = g->cr[g->cr[0] <= g->cr[g->nc - 1] ? k : g->nc - 1 - k];
    for (k = 0; k < g->ng; ++k) ys[k] = g->gr[g->gr[0] >= g->gr[g->ng - 1] ? k : g->ng - 1 - k];
    p.xs = xs, p.ys = ys;
    p.pw = p.nx * CELL_MIN > PLOT_W ? p.nx * CELL_MIN : (PLOT_W + p.nx - 1) / p.nx * p.nx;
    p.ph = p.ny * CELL_MIN > PLOT_H ? p.ny * CELL_MIN : (PLOT_H + p.ny - 1) / p.ny * p.ny;
    data = strrchr(data, '/') ? strrchr(data, '/') + 1 : data;
    if (o->with_c) log2_str(g->best_c, o->c_int, s1, sizeof s1);
    if (o->with_g) log2_str(g->best_g, o->g_int, s2, sizeof s2);
    pyfloat(g->best_rate, s3, sizeof s3);
    snprintf(title, sizeof title, "%.40s  best %s%s%s%s%s %s=%s%s", data, o->with_c ? "log2(C)=" : "", o->with_c ? s1 : "",
             o->with_c && o->with_g ? " " : "", o->with_g ? "log2(gamma)=" : "", o->with_g ? s2 : "",
             g->regression ? "MSE" : "rate", s3, g->regression ? "" : "%");
    p.x0 = MARGIN_L, p.y0 = MARGIN_T, p.w = MARGIN_L + p.pw + MARGIN_R, p.h = MARGIN_T + p.ph + MARGIN_B;
    if (p.w < png_text_width(title, TEXT) + 24) p.w = png_text_width(title, TEXT) + 24;
    p.rgb = (unsigned char *)malloc((size_t)p.w * (size_t)p.h * 3);
    if (!val || !p.rgb) cli_check(GPUSVM_ERROR_OUT_OF_MEMORY, GRID_TOOL);
    fill(&p, 0, 0, p.w, p.h, white);
    for (gi = 0; gi < g->ng; ++gi)
        for (ci = 0; ci < g->nc; ++ci) {
            const double cv = o->with_c ? xs[ci] : 0, gv = o->with_g ? ys[gi] : 0;
            int pc = 0, pg = 0;
            while (o->with_c && g->cs[pc] != cv) ++pc;
            while (o->with_g && g->gs[pg] != gv) ++pg;
            val[(size_t)gi * (size_t)g->nc + (size_t)ci] = g->rate[(size_t)pg * (size_t)g->nc + (size_t)pc];
            if ((!o->with_c || cv == g->best_c) && (!o->with_g || gv == g->best_g)) bx = ci, by = gi;
        }
    for (lo = hi = val[0], k = 1; k < g->nc * g->ng; ++k) {
        if (val[k] < lo) lo = val[k];
        if (val[k] > hi) hi = val[k];
    }
    level0 = g->regression ? lo : floor(hi + 0.5) - 3.0;
    step = g->regression ? (hi - lo) / 8 + 1e-300 : 0.5;
    heat_map(&p, val, lo, hi, level0, step, g->regression, bx, by);
    axes(&p, g);
    legend(&p, lo, hi, level0, step, g->regression);
    png_text(p.rgb, p.w, p.h, 8, 8, TEXT, title, black);
    if (!(png = png_encode(p.rgb, p.w, p.h, &png_size))) cli_check(GPUSVM_ERROR_OUT_OF_MEMORY, GRID_TOOL);
    cli_check(gpusvm_write_file(ctx, path, png, png_size), GRID_TOOL);
    free(png);
    free(val);
    free(p.rgb);
}

int main(int argc, char **argv)
{
    atexit(cli_stdout_check); /* first: the last handler to run */
    static grid_run g;
    char out_default[4096], png_default[4096], s1[64], s2[64], s3[64];
    const char *base, *out;
    const grid_opts *o = &g.o;
    gpusvm_context *ctx;
    gpusvm_dataset *ds = NULL;
    cli_buf outf;

#ifdef GPUSVM_GRID_MPI
    cli_mpi_init(&argc, &argv, 0);
#endif
    cli_tool_ = GRID_TOOL;
    if (argc < 2) {
        if (cli_rank_ == 0) usage();
        cli_exit(1);
    }
    parse(argc, argv, &g.o);
    base = strrchr(o->data, '/');
    base = base ? base + 1 : o->data;
    if (strlen(base) + 5 > sizeof out_default) cli_bad("file name too long", base);
    snprintf(out_default, sizeof out_default, "%s.out", base);
    snprintf(png_default, sizeof png_default, "%s.png", base);
    g.nc = o->with_c ? range_f(o->c[0], o->c[1], o->c[2], g.cr) : 1;
    g.ng = o->with_g ? range_f(o->g[0], o->g[1], o->g[2], g.gr) : 1;
    if (g.nc == 0 || g.ng == 0) cli_bad("an empty range", g.nc ? "-log2g" : "-log2c");
    if (o->with_c) permute(g.cr, g.nc, g.cs);
    if (o->with_g) permute(g.gr, g.ng, g.gs);
    g.regression = o->t.p.svm_type == GPUSVM_EPSILON_SVR || o->t.p.svm_type == GPUSVM_NU_SVR;

    ctx = cli_context();
    cli_check(cli_read_data(ctx, o->data, &ds), GRID_TOOL);
    cli_check_index0(ds, o->data, o->t.p.kernel_type == GPUSVM_KERNEL_PRECOMPUTED);
    cli_check_labels(ds, o->data, o->t.p.svm_type);
    if (!(g.rate = (double *)malloc((size_t)g.nc * (size_t)g.ng * sizeof(double))))
        cli_check(GPUSVM_ERROR_OUT_OF_MEMORY, GRID_TOOL);
    run_grid(ctx, ds, o, g.cs, g.nc, g.gs, g.ng, g.rate);
    if (cli_rank_ != 0) { /* rank 0 reports */
        free(g.rate);
        gpusvm_dataset_free(ds);
        cli_exit(0);
    }
    memset(&outf, 0, sizeof outf);
    report(&g, &outf);
    out = o->out ? o->out : out_default;
    if (*out && !cli_write(ctx, GRID_TOOL, out, &outf)) cli_exit(1);
    if (!o->png || *o->png) picture(ctx, &g, o->png ? o->png : png_default, o->data);
    if (o->with_c) pyfloat(pow(2.0, g.best_c), s1, sizeof s1);
    if (o->with_g) pyfloat(pow(2.0, g.best_g), s2, sizeof s2);
    pyfloat(g.best_rate, s3, sizeof s3);
    printf("%s%s%s %s\n", o->with_c ? s1 : "", o->with_c && o->with_g ? " " : "", o->with_g ? s2 : "", s3);
    free(g.rate);
    free(outf.p);
    gpusvm_dataset_free(ds);
    cli_exit(0);
}
