/* The threads' switches: built with GPUSVM_NO_OPENCL (threads linked, not looked up at run time),
   gpusvm__parallel runs its calls on threads of their own and a training gives the same model on
   one thread and on two; built also with GPUSVM_NO_THREADS (THREADS_OFF here), every call runs on
   the calling thread, with the same model. Prints one line, exits 0 when it holds. */
#define GPUSVM_IMPLEMENTATION
#include "gpusvm.h"
#include <stdio.h>

static volatile long seen_other; /* a call ran off the calling thread */
static volatile long calls;
#ifndef GPUSVM_NO_THREADS
static pthread_t caller;
#endif

static void record(void *arg, int t)
{
    (void)arg;
    (void)t;
    gpusvm__take(&calls);
#ifndef GPUSVM_NO_THREADS
    if (!pthread_equal(pthread_self(), caller)) gpusvm__store(&seen_other, 1);
#endif
}

static gpusvm_model *train(int threads)
{
    static float x[400 * 2];
    static double y[400];
    gpusvm_context_desc d;
    gpusvm_context *ctx = NULL;
    gpusvm_matrix m;
    gpusvm_model *model = NULL;
    unsigned seed = 7u;
    int i;
    for (i = 0; i < 400; ++i) {
        seed = seed * 1103515245u + 12345u;
        x[2 * i] = (float)((seed >> 8) % 1000) / 1000.0f;
        seed = seed * 1103515245u + 12345u;
        x[2 * i + 1] = (float)((seed >> 8) % 1000) / 1000.0f;
        y[i] = x[2 * i] * x[2 * i] + x[2 * i + 1] > 0.6f ? 1.0 : -1.0;
    }
    memset(&d, 0, sizeof d);
    d.threads = threads;
    d.ignore_environment = 1;
    memset(&m, 0, sizeof m);
    m.rows = 400;
    m.cols = 2;
    m.values = x;
    if (gpusvm_context_create(&d, &ctx) != GPUSVM_OK) return NULL;
    if (gpusvm_train(ctx, &m, y, NULL, &model) != GPUSVM_OK) model = NULL;
    gpusvm_context_destroy(ctx);
    return model;
}

int main(void)
{
    gpusvm_model *one, *two;
    int same, ok;
#ifndef GPUSVM_NO_THREADS
    caller = pthread_self();
#endif
    gpusvm__parallel(4, record, NULL);
    one = train(1);
    two = train(2);
    same = one && two && one->total_sv == two->total_sv && one->rho[0] == two->rho[0] &&
           memcmp(one->sv_coef, two->sv_coef, one->total_sv * sizeof(double)) == 0;
#ifdef GPUSVM_NO_THREADS
    ok = calls == 4 && !seen_other && !GPUSVM__THREADS && same;
    printf("GPUSVM_NO_THREADS: %ld calls, all on the calling thread; one and two threads' models %s\n", calls,
           same ? "the same" : "differ");
#else
    ok = calls == 4 && seen_other && GPUSVM__THREADS && same;
    printf("GPUSVM_NO_OPENCL: %ld calls, %s; one and two threads' models %s\n", calls,
           seen_other ? "some on threads of their own" : "all on the calling thread", same ? "the same" : "differ");
#endif
    gpusvm_model_free(one);
    gpusvm_model_free(two);
    return ok ? 0 : 1;
}
