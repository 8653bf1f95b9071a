/* A context split across parts (desc.split), with threads standing in for processes and an
   allgather through shared memory: 2 and 3 parts, 1 and 2 threads each, give the model bytes and
   decision values of one process for C-SVC, nu-SVC, epsilon-SVR, a multi-class model with
   probability estimates and 5-fold cross-validation, and 7 parts of a 6-point problem (one part
   holds no point) give its model too; backend AUTO puts every part on the C backend; bad splits
   are refused and a failing allgather stops the context's creation (the parts agree on their
   backend there) or the training with GPUSVM_ERROR_IO on every part (make test builds this with
   ThreadSanitizer; the split on OpenCL is tests/scripts/mpi.sh's and the kernel tests'). */
#define GPUSVM_IMPLEMENTATION
#include "../../gpusvm.h"
#include "../check.h"
#include <pthread.h>

enum { N = 1200, D = 6, MAXP = 7 };
static float X[N * D];
static double Y[N];

/* The parts' meeting place: each allgather call is two barriers around a copy into buf. */
typedef struct exchange {
    pthread_barrier_t bar;
    unsigned char *buf;
    size_t cap;
    int parts, fail_at; /* fail_at > 0: every part's call number fail_at reports a failure */
} exchange;

typedef struct part {
    exchange *x;
    int rank, calls, threads;
    gpusvm_svm_type type;
    int probability, folds, classes;
    int rows, wss; /* 0: N points, working sets of 64 */
    gpusvm_backend backend, got; /* asked for (DEFAULT: the C backend), and the context's */
    char *out; /* the model's bytes and its decision values (or the fold predictions) */
    size_t len;
    gpusvm_result r;
} part;

static int allgather(void *user, const void *send, void *recv, size_t bytes)
{
    part *p = (part *)user;
    exchange *x = p->x;
    ++p->calls;
    if (x->fail_at && p->calls == x->fail_at) return 1;
    if (bytes * (size_t)x->parts > x->cap) return 1;
    pthread_barrier_wait(&x->bar); /* everyone has read the last call's */
    memcpy(x->buf + (size_t)p->rank * bytes, send, bytes);
    pthread_barrier_wait(&x->bar);
    memcpy(recv, x->buf, bytes * (size_t)x->parts);
    return 0;
}

static void labels(gpusvm_svm_type type, int classes)
{
    size_t i;
    for (i = 0; i < N; ++i) {
        const float *x = X + i * D;
        const float v = x[0] * x[1] + 0.4f * x[2] - 0.2f * x[3];
        if (type == GPUSVM_EPSILON_SVR) Y[i] = (double)(v + 0.1f * x[4]);
        else if (classes > 2) Y[i] = (double)((int)((x[0] + 1.0f) * 1.5f) % 3 + 1);
        else Y[i] = v > 0.05f ? 1.0 : -1.0;
    }
}

/* One part's training (threads' body); also the one-process reference with x == NULL. */
static void *train_part(void *arg)
{
    part *pt = (part *)arg;
    gpusvm_context_desc d;
    gpusvm_context *ctx = NULL;
    gpusvm_params p;
    gpusvm_matrix m;
    gpusvm_model *model = NULL;
    char *bytes = NULL;
    static const size_t out_max = N * 3 * sizeof(double);
    double *dec = (double *)calloc(N * 3, sizeof(double));
    memset(&d, 0, sizeof d);
    d.backend = pt->backend ? pt->backend : GPUSVM_BACKEND_CPU;
    d.ignore_environment = 1;
    d.threads = pt->threads;
    if (pt->x) {
        d.split.parts = pt->x->parts;
        d.split.rank = pt->rank;
        d.split.allgather = allgather;
        d.split.user = pt;
    }
    memset(&p, 0, sizeof p);
    p.svm_type = pt->type;
    p.gamma = 0.5;
    p.C = 2;
    p.probability = pt->probability;
    p.working_set_size = pt->wss ? pt->wss : 64; /* many working sets: the split's every step every round */
    memset(&m, 0, sizeof m);
    m.rows = pt->rows ? (size_t)pt->rows : N;
    m.cols = D;
    m.values = X;
    pt->len = 0;
    pt->out = NULL;
    if ((pt->r = gpusvm_context_create(&d, &ctx)) != GPUSVM_OK || !dec) goto done;
    pt->got = gpusvm_context_backend(ctx);
    if (pt->folds) {
        if ((pt->r = gpusvm_cross_validation(ctx, &m, Y, &p, pt->folds, dec)) == GPUSVM_OK &&
            (pt->out = (char *)malloc(N * sizeof(double))) != NULL) {
            memcpy(pt->out, dec, N * sizeof(double));
            pt->len = N * sizeof(double);
        }
        goto done;
    }
    if ((pt->r = gpusvm_train(ctx, &m, Y, &p, &model)) != GPUSVM_OK) goto done;
    if ((pt->r = gpusvm_model_save_buffer(ctx, model, &bytes, &pt->len)) != GPUSVM_OK) goto done;
    if ((pt->r = gpusvm_predict(ctx, model, &m, NULL, dec)) != GPUSVM_OK) goto done;
    if ((pt->out = (char *)malloc(pt->len + out_max)) != NULL) {
        memcpy(pt->out, bytes, pt->len);
        memcpy(pt->out + pt->len, dec, out_max);
        pt->len += out_max;
    }
done:
    free(dec);
    gpusvm_free(ctx, bytes);
    gpusvm_model_free(model);
    gpusvm_context_destroy(ctx);
    return NULL;
}

/* The same job on `parts` parts of `threads` threads each; every part's output against ref. */
static void run_split(const part *job, int parts, int threads, int fail_at, const part *ref, const char *what)
{
    exchange x;
    part ps[MAXP];
    pthread_t th[MAXP];
    char msg[256];
    int k, same = 1, ok = 1;
    memset(&x, 0, sizeof x);
    x.parts = parts;
    x.fail_at = fail_at;
    x.cap = (size_t)parts * N * 2 * sizeof(double) * 4; /* the largest: every problem's gradient */
    x.buf = (unsigned char *)malloc(x.cap);
    pthread_barrier_init(&x.bar, NULL, (unsigned)parts);
    for (k = 0; k < parts; ++k) {
        ps[k] = *job;
        ps[k].x = &x;
        ps[k].rank = k;
        ps[k].threads = threads;
        ps[k].calls = 0;
        pthread_create(&th[k], NULL, train_part, &ps[k]);
    }
    for (k = 0; k < parts; ++k) pthread_join(th[k], NULL);
    for (k = 0; k < parts; ++k) {
        if (fail_at) {
            ok = ok && ps[k].r == GPUSVM_ERROR_IO;
            continue;
        }
        ok = ok && ps[k].r == GPUSVM_OK && ps[k].calls > 0 && ps[k].got == GPUSVM_BACKEND_CPU;
        same = same && ps[k].out && ps[k].len == ref->len && memcmp(ps[k].out, ref->out, ref->len) == 0;
    }
    snprintf(msg, sizeof msg, "%s, %d parts of %d thread%s: %s", what, parts, threads, threads > 1 ? "s" : "",
             fail_at ? "a failing allgather stops every part with GPUSVM_ERROR_IO"
                     : "every part gives the one-process model bytes and values");
    CHECK(ok && same, msg);
    for (k = 0; k < parts; ++k) free(ps[k].out);
    pthread_barrier_destroy(&x.bar);
    free(x.buf);
}

static void check_job(gpusvm_svm_type type, int classes, int probability, int folds, const char *what)
{
    part job, ref;
    int parts, threads;
    memset(&job, 0, sizeof job);
    job.type = type;
    job.classes = classes;
    job.probability = probability;
    job.folds = folds;
    job.threads = 1;
    labels(type, classes);
    ref = job;
    train_part(&ref);
    CHECK(ref.r == GPUSVM_OK && ref.out != NULL, what);
    for (parts = 2; parts <= 3; ++parts)
        for (threads = 1; threads <= 2; ++threads) run_split(&job, parts, threads, 0, &ref, what);
    free(ref.out);
}

/* More parts than a problem has points: 6 points, working sets of 4, 7 parts (one holds none). */
static void check_tiny(void)
{
    part job, ref;
    memset(&job, 0, sizeof job);
    job.type = GPUSVM_C_SVC;
    job.classes = 2;
    job.threads = 1;
    job.rows = 6;
    job.wss = 4;
    labels(job.type, 2);
    Y[0] = 1.0, Y[1] = -1.0; /* both classes among the six */
    ref = job;
    train_part(&ref);
    CHECK(ref.r == GPUSVM_OK && ref.out != NULL, "six points, one process");
    run_split(&job, MAXP, 1, 0, &ref, "six points");
    free(ref.out);
}

static void check_refusals(void)
{
    gpusvm_context_desc d;
    gpusvm_context *ctx = NULL;
    part job;
    memset(&d, 0, sizeof d);
    d.ignore_environment = 1;
    d.split.parts = 2;
    d.split.rank = 2;
    d.split.allgather = allgather;
    CHECK(gpusvm_context_create(&d, &ctx) == GPUSVM_ERROR_INVALID_ARGUMENT && !ctx, "rank 2 of 2 is refused");
    d.split.rank = 0;
    d.split.allgather = NULL;
    CHECK(gpusvm_context_create(&d, &ctx) == GPUSVM_ERROR_INVALID_ARGUMENT && !ctx, "a split without allgather is refused");
    memset(&job, 0, sizeof job);
    job.type = GPUSVM_C_SVC;
    job.classes = 2;
    labels(job.type, 2);
    run_split(&job, 2, 1, 1, NULL, "C-SVC, the parts' agreement at context creation");
    run_split(&job, 2, 1, 3, NULL, "C-SVC");
}

/* backend AUTO: every part on the C backend (run_split checks each part's), the same model. */
static void check_auto(void)
{
    part job, ref;
    memset(&job, 0, sizeof job);
    job.type = GPUSVM_C_SVC;
    job.classes = 2;
    job.threads = 1;
    labels(job.type, 2);
    ref = job;
    train_part(&ref);
    CHECK(ref.r == GPUSVM_OK && ref.out != NULL, "C-SVC, one process");
    job.backend = GPUSVM_BACKEND_AUTO;
    run_split(&job, 2, 1, 0, &ref, "C-SVC with backend auto (on the C backend)");
    free(ref.out);
}

int main(void)
{
    unsigned s = 11u;
    size_t i;
    for (i = 0; i < N * D; ++i) {
        s = s * 1103515245u + 12345u;
        X[i] = (float)((s >> 9) % 2000) / 1000.0f - 1.0f;
    }
    check_job(GPUSVM_C_SVC, 2, 0, 0, "C-SVC");
    check_job(GPUSVM_NU_SVC, 2, 0, 0, "nu-SVC");
    check_job(GPUSVM_EPSILON_SVR, 0, 0, 0, "epsilon-SVR");
    check_job(GPUSVM_C_SVC, 3, 1, 0, "three classes with probability estimates");
    check_job(GPUSVM_C_SVC, 2, 0, 5, "5-fold cross-validation");
    check_tiny();
    check_refusals();
    check_auto();
    return check_summary();
}
