/* Under load: T threads (2, 4, 8), each creating its own context on the backend named on the
   command line (cpu, or opencl: the device GPUSVM_DEVICE names, else the first; GPUSVM_CACHE_DIR
   the kernel cache's folder), and in a loop
   training, predicting, saving to memory and loading back; and T threads predicting at once with a
   predictor each of one shared model. Every result must equal the single-threaded one (the model
   file's bytes, the labels, the decision values), no call may fail, every allocation is freed,
   and the process's resident memory after round 3 stays within RSS_BOUND_MB of round 1 (glibc
   gives each thread an arena of its own, and OpenCL runtimes keep per-thread caches, so resident
   memory grows by a few MB as threads come and go before it settles; past the bound, up to
   EXTRA_ROUNDS more rounds must show it settled: the last of them grown by at most a quarter of
   the bound, where a leak grows every round). make test runs it on the C backend under ThreadSanitizer and on every
   OpenCL implementation present.
   It starts cold: 4 threads create the process's first contexts at once (on PoCL that crashed in
   device discovery before the library serialised it), and their models must be the one a single
   thread trains after them.
   Usage: test_soak cpu|opencl [DATA_FILE [ROUNDS]] */
#define GPUSVM_IMPLEMENTATION
#include "../../gpusvm.h"
#include "../check.h"
#include <pthread.h>

#define RSS_BOUND_MB 16.0
enum { ROWS = 200, TRAININGS = 3, MAX_T = 8, EXTRA_ROUNDS = 3 };

static gpusvm_backend backend;
static const gpusvm_dataset *data;
static gpusvm_matrix x;
static char *ref_text;   /* the single-threaded model file */
static size_t ref_size;
static double ref_pred[ROWS], ref_dec[ROWS];
static volatile long live_allocs; /* the contexts' allocations still held, all threads together */

static void *soak_alloc(size_t size, void *user)
{
    (void)user;
    __atomic_add_fetch(&live_allocs, 1, __ATOMIC_RELAXED);
    return malloc(size);
}
static void soak_free(void *p, void *user)
{
    (void)user;
    __atomic_sub_fetch(&live_allocs, 1, __ATOMIC_RELAXED);
    free(p);
}

static gpusvm_result make_context_on(gpusvm_backend kind, gpusvm_context **ctx)
{
    gpusvm_context_desc d;
    memset(&d, 0, sizeof d);
    d.backend = kind;
    d.device = getenv("GPUSVM_DEVICE");
    d.ignore_environment = 1; /* the device, if any, from the line above */
    if (getenv("GPUSVM_CACHE_DIR") && strcmp(getenv("GPUSVM_CACHE_DIR"), "off") != 0)
        d.kernel_cache_dir = getenv("GPUSVM_CACHE_DIR"); /* for a driver that keeps no programs (Intel's) */
    d.threads = 1;            /* the test's threads are the load */
    d.allocator.alloc = soak_alloc;
    d.allocator.free = soak_free;
    return gpusvm_context_create(&d, ctx);
}

static gpusvm_result make_context(gpusvm_context **ctx) { return make_context_on(backend, ctx); }

/* One unit of work on ctx: train, predict, save, load, predict again; 0 when any result differs
   from the single-threaded one (or a call fails). With ref 1 it records them instead. */
static int work(gpusvm_context *ctx, int ref)
{
    gpusvm_params p;
    gpusvm_model *m = NULL, *back = NULL;
    char *text = NULL;
    size_t size = 0, i;
    double pred[ROWS], dec[ROWS], pred2[ROWS];
    int ok = 1;
    memset(&p, 0, sizeof p);
    p.C = 4;
    p.gamma = 0.1;
    ok = gpusvm_train(ctx, &x, data->y, &p, &m) == GPUSVM_OK && gpusvm_predict(ctx, m, &x, pred, dec) == GPUSVM_OK &&
         gpusvm_model_save_buffer(ctx, m, &text, &size) == GPUSVM_OK &&
         gpusvm_model_load_buffer(ctx, text, size, &back) == GPUSVM_OK &&
         gpusvm_predict(ctx, back, &x, pred2, NULL) == GPUSVM_OK;
    if (ok && ref) {
        ref_text = (char *)malloc(size + 1);
        memcpy(ref_text, text, size + 1);
        ref_size = size;
        memcpy(ref_pred, pred, sizeof pred);
        memcpy(ref_dec, dec, sizeof dec);
    } else if (ok) {
        ok = size == ref_size && memcmp(text, ref_text, size) == 0;
        for (i = 0; ok && i < ROWS; ++i) ok = pred[i] == ref_pred[i] && dec[i] == ref_dec[i] && pred2[i] == pred[i];
    }
    if (!ok) fprintf(stderr, "test_soak: a unit of work differs or failed: %s\n", gpusvm_context_error(ctx));
    gpusvm_free(ctx, text);
    gpusvm_model_free(back);
    gpusvm_model_free(m);
    return ok;
}

typedef struct {
    int ok;
    gpusvm_predictor *pr; /* a predictor thread's own, over the shared model (made by main: a
                             context is used by one thread at a time) */
    char *text;           /* a cold thread's model file */
    size_t size;
} job_t;

/* A thread of the cold start: one of the process's first contexts, one training, its model file. */
static void *cold_thread(void *arg)
{
    job_t *j = (job_t *)arg;
    gpusvm_context *ctx = NULL;
    gpusvm_model *m = NULL;
    gpusvm_params p;
    char *text = NULL;
    memset(&p, 0, sizeof p);
    p.C = 4;
    p.gamma = 0.1;
    j->ok = make_context(&ctx) == GPUSVM_OK && gpusvm_train(ctx, &x, data->y, &p, &m) == GPUSVM_OK &&
            gpusvm_model_save_buffer(ctx, m, &text, &j->size) == GPUSVM_OK && (j->text = (char *)malloc(j->size)) != NULL;
    if (j->ok) memcpy(j->text, text, j->size);
    else fprintf(stderr, "test_soak: a cold thread failed: %s\n", ctx ? gpusvm_context_error(ctx) : "no context");
    gpusvm_free(ctx, text);
    gpusvm_model_free(m);
    gpusvm_context_destroy(ctx);
    return NULL;
}

/* A thread: its own context, TRAININGS units of work, the context destroyed. */
static void *train_thread(void *arg)
{
    job_t *j = (job_t *)arg;
    gpusvm_context *ctx = NULL;
    int k;
    j->ok = make_context(&ctx) == GPUSVM_OK;
    for (k = 0; j->ok && k < TRAININGS; ++k) j->ok = work(ctx, 0);
    gpusvm_context_destroy(ctx);
    return NULL;
}

/* A thread: its own predictor over the shared model, every row, twice. */
static void *predict_thread(void *arg)
{
    job_t *j = (job_t *)arg;
    gpusvm_predictor *pr = j->pr;
    float row[64];
    double label, dv;
    size_t i, k, f;
    j->ok = data->x.cols <= 64 && pr;
    for (k = 0; j->ok && k < 2; ++k)
        for (i = 0; j->ok && i < ROWS; ++i) {
            for (f = 0; f < data->x.cols; ++f) row[f] = 0.0f;
            for (f = data->row_ptr[i]; f < data->row_ptr[i + 1]; ++f) row[data->col_idx[f]] = data->values[f];
            j->ok = gpusvm_predictor_predict(pr, row, data->x.cols, &label, &dv) == GPUSVM_OK && label == ref_pred[i] &&
                    fabs(dv - ref_dec[i]) <= 1e-6 * (1.0 + fabs(ref_dec[i]));
        }
    return NULL;
}

static double rss_mb(void)
{
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) return 0.0;
    if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    fclose(f);
    return (double)resident * 4096.0 / 1048576.0;
}

/* T threads of one kind at once; every one must succeed. */
static int run_threads(int t, void *(*fn)(void *), job_t *jobs);

/* A round's trainings: t threads, each its own context; 1 if every result was the single-threaded one. */
static int round_trains(int t, job_t *jobs)
{
    memset(jobs, 0, sizeof(job_t) * MAX_T);
    return run_threads(t, train_thread, jobs);
}

/* A round's predictions: t threads, a predictor each over one model; 1 if every answer was gpusvm_predict's. */
static int round_predicts(gpusvm_context *ctx, const gpusvm_model *model, int t, job_t *jobs)
{
    int k, ok = 1;
    for (k = 0; k < t; ++k) ok &= gpusvm_predictor_create(ctx, model, &jobs[k].pr) == GPUSVM_OK;
    ok = ok && run_threads(t, predict_thread, jobs);
    for (k = 0; k < t; ++k) gpusvm_predictor_free(jobs[k].pr);
    return ok;
}

static int run_threads(int t, void *(*fn)(void *), job_t *jobs)
{
    pthread_t th[MAX_T];
    int k, ok = 1;
    for (k = 0; k < t; ++k)
        if (pthread_create(&th[k], NULL, fn, &jobs[k]) != 0) return 0;
    for (k = 0; k < t; ++k) pthread_join(th[k], NULL);
    for (k = 0; k < t; ++k) ok &= jobs[k].ok;
    return ok;
}

int main(int argc, char **argv)
{
    static const int counts[3] = {2, 4, 8};
    const char *path = argc > 2 ? argv[2] : "data/heart_scale";
    const int rounds = argc > 3 ? atoi(argv[3]) : 3;
    gpusvm_context *ctx = NULL;
    gpusvm_dataset *ds = NULL;
    gpusvm_model *model = NULL;
    job_t jobs[MAX_T];
    double rss1 = 0.0, rss3 = 0.0;
    char msg[200];
    int c, r, k;
    if (argc < 2 || (strcmp(argv[1], "cpu") && strcmp(argv[1], "opencl"))) {
        fprintf(stderr, "usage: test_soak cpu|opencl [DATA_FILE [ROUNDS]]\n");
        return 2;
    }
    backend = strcmp(argv[1], "cpu") ? GPUSVM_BACKEND_OPENCL : GPUSVM_BACKEND_CPU;
    CHECK_OK(make_context_on(GPUSVM_BACKEND_CPU, &ctx)); /* the data, read without touching OpenCL */
    CHECK_OK(gpusvm_dataset_load(ctx, path, &ds));
    gpusvm_context_destroy(ctx);
    data = ds;
    x = ds->x;
    x.rows = ds->x.rows < ROWS ? ds->x.rows : ROWS;
    memset(jobs, 0, sizeof jobs);
    CHECK(run_threads(4, cold_thread, jobs), "a cold start: 4 threads create the process's first contexts at once");
    if (make_context(&ctx) != GPUSVM_OK) {
        CHECK(0, "a context on the backend asked for");
        return check_summary();
    }
    printf("test_soak: %s, %d rounds\n", gpusvm_context_device_name(ctx), rounds);
    CHECK(x.rows == ROWS && work(ctx, 1), "the single-threaded unit of work");
    for (k = 0, c = 1; k < 4; ++k) {
        c &= jobs[k].text && jobs[k].size == ref_size && memcmp(jobs[k].text, ref_text, ref_size) == 0;
        free(jobs[k].text);
    }
    CHECK(c, "a cold start: each thread's model file is the single-threaded one");
    CHECK_OK(gpusvm_model_load_buffer(ctx, ref_text, ref_size, &model));
    for (c = 0; c < 3; ++c) {
        const int t = counts[c];
        for (r = 1; r <= rounds; ++r) {
            snprintf(msg, sizeof msg, "%d threads, round %d: each its own context, %d trainings, every result the "
                     "single-threaded one", t, r, TRAININGS);
            CHECK(round_trains(t, jobs), msg);
            snprintf(msg, sizeof msg, "%d threads, round %d: a predictor each over one model, gpusvm_predict's answers",
                     t, r);
            CHECK(round_predicts(ctx, model, t, jobs), msg);
            if (r == 1) rss1 = rss_mb();
            if (r == 3) rss3 = rss_mb();
        }
        if (rounds >= 3) {
            double last = rss3, before = rss3;
            int extra = 0, same = 1;
            while (last - rss1 > RSS_BOUND_MB && extra < EXTRA_ROUNDS && (extra == 0 || last - before > RSS_BOUND_MB / 4)) {
                same &= round_trains(t, jobs) && round_predicts(ctx, model, t, jobs);
                before = last;
                last = rss_mb();
                ++extra;
            }
            snprintf(msg, sizeof msg, "%d threads: resident memory after round 3 %.1f MB, round 1 %.1f MB (bound +%.0f MB)",
                     t, rss3, rss1, RSS_BOUND_MB);
            printf("test_soak: %s\n", msg);
            if (extra) {
                snprintf(msg + strlen(msg), sizeof msg - strlen(msg), "; %d more rounds to settle: %.1f MB, the last "
                         "grown by %.1f MB (at most %.0f), every result the single-threaded one", extra, last,
                         last - before, RSS_BOUND_MB / 4);
                printf("test_soak: %s\n", msg);
            }
            CHECK(extra ? same && last - before <= RSS_BOUND_MB / 4 : rss3 - rss1 <= RSS_BOUND_MB, msg);
        }
    }
    gpusvm_model_free(model);
    gpusvm_dataset_free(ds);
    gpusvm_context_destroy(ctx);
    free(ref_text);
    CHECK(live_allocs == 0, "every allocation of every context freed");
    return check_summary();
}
