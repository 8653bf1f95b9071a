/* Fault injection. Every OpenCL entry point is wrapped (GPUSVM_TEST_HOOKS) so that the N-th
   call fails, and the allocator fails the N-th host allocation; N is swept over every call and
   every allocation of a run that creates a context, trains (whole problem and working sets),
   predicts, and saves and reloads the model, of a run that trains with its points streamed
   through the device (a budget below what they need), and of one that trains a problem split by
   rows across two devices. Each failure must come back as an error code
   (naming the OpenCL call), leave no host allocation and no OpenCL object behind, and leave the
   context usable. Also: no OpenCL library, no platform, no device, a kernel build failure, and a
   model write that fails part-way. Built with AddressSanitizer by make test. */
#define GPUSVM_TEST_HOOKS
#define GPUSVM_IMPLEMENTATION
#include "../../gpusvm.h"
#include "../check.h"
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- injected OpenCL ---------------------------------------------------- */
static gpusvm__cl_api real;
static long cl_calls, cl_fail_at, live_cl;
static int no_platform, no_device, bad_build;
#define FAIL_CODE (-5) /* CL_OUT_OF_RESOURCES */

/* counted atomically: a context over several devices drives each from a thread of its own */
#define BUMP(x) __atomic_add_fetch(&(x), 1L, __ATOMIC_SEQ_CST)
#define DROP(x) __atomic_sub_fetch(&(x), 1L, __ATOMIC_SEQ_CST)
/* The run's calls by number, and (census runs) each call's site: the return address in gpusvm of
   the call through the entry point, so that a sweep tries each site once. */
#define MAX_CALLS 200000
static void *call_site[MAX_CALLS];
static int census_run;
static int inject(void *site)
{
    const long k = BUMP(cl_calls);
    if (census_run && k <= MAX_CALLS) call_site[k - 1] = site;
    return k == cl_fail_at;
}
#define INJECT() inject(__builtin_return_address(0))

static gpusvm__cl_int W_clGetPlatformIDs(gpusvm__cl_uint n, gpusvm__cl_platform *p, gpusvm__cl_uint *np)
{
    if (INJECT()) return FAIL_CODE;
    if (no_platform) return -1001;
    return real.clGetPlatformIDs(n, p, np);
}
static gpusvm__cl_int W_clGetPlatformInfo(gpusvm__cl_platform p, gpusvm__cl_uint w, size_t s, void *v, size_t *r)
{
    if (INJECT()) return FAIL_CODE;
    return real.clGetPlatformInfo(p, w, s, v, r);
}
static gpusvm__cl_int W_clGetDeviceIDs(gpusvm__cl_platform p, gpusvm__cl_bitfield t, gpusvm__cl_uint n,
                                       gpusvm__cl_device *d, gpusvm__cl_uint *nd)
{
    if (INJECT()) return FAIL_CODE;
    if (no_device) return -1;
    return real.clGetDeviceIDs(p, t, n, d, nd);
}
static gpusvm__cl_int W_clGetDeviceInfo(gpusvm__cl_device d, gpusvm__cl_uint w, size_t s, void *v, size_t *r)
{
    if (INJECT()) return FAIL_CODE;
    return real.clGetDeviceInfo(d, w, s, v, r);
}
static gpusvm__cl_context W_clCreateContext(const gpusvm__cl_context_properties *p, gpusvm__cl_uint n,
                                            const gpusvm__cl_device *d, gpusvm__cl_ctx_notify f, void *u,
                                            gpusvm__cl_int *e)
{
    gpusvm__cl_context c;
    if (INJECT()) {
        if (e) *e = FAIL_CODE;
        return NULL;
    }
    c = real.clCreateContext(p, n, d, f, u, e);
    if (c) BUMP(live_cl);
    return c;
}
static gpusvm__cl_int W_clReleaseContext(gpusvm__cl_context c)
{
    DROP(live_cl);
    real.clReleaseContext(c);
    return INJECT() ? FAIL_CODE : 0;
}
static gpusvm__cl_int W_clRetainContext(gpusvm__cl_context c)
{
    if (INJECT()) return FAIL_CODE;
    BUMP(live_cl);
    return real.clRetainContext(c);
}
static gpusvm__cl_queue W_clCreateCommandQueue(gpusvm__cl_context c, gpusvm__cl_device d, gpusvm__cl_bitfield p,
                                               gpusvm__cl_int *e)
{
    gpusvm__cl_queue q;
    if (INJECT()) {
        if (e) *e = FAIL_CODE;
        return NULL;
    }
    q = real.clCreateCommandQueue(c, d, p, e);
    if (q) BUMP(live_cl);
    return q;
}
static gpusvm__cl_int W_clReleaseCommandQueue(gpusvm__cl_queue q)
{
    DROP(live_cl);
    real.clReleaseCommandQueue(q);
    return INJECT() ? FAIL_CODE : 0;
}
static gpusvm__cl_mem W_clCreateBuffer(gpusvm__cl_context c, gpusvm__cl_bitfield f, size_t s, void *h,
                                       gpusvm__cl_int *e)
{
    gpusvm__cl_mem m;
    if (INJECT()) {
        if (e) *e = -4; /* CL_MEM_OBJECT_ALLOCATION_FAILURE */
        return NULL;
    }
    m = real.clCreateBuffer(c, f, s, h, e);
    if (m) BUMP(live_cl);
    return m;
}
static gpusvm__cl_int W_clReleaseMemObject(gpusvm__cl_mem m)
{
    DROP(live_cl);
    real.clReleaseMemObject(m);
    return INJECT() ? FAIL_CODE : 0;
}
static gpusvm__cl_int W_clGetMemObjectInfo(gpusvm__cl_mem m, gpusvm__cl_uint w, size_t s, void *v, size_t *r)
{
    if (INJECT()) return FAIL_CODE;
    return real.clGetMemObjectInfo(m, w, s, v, r);
}
static gpusvm__cl_program W_clCreateProgramWithSource(gpusvm__cl_context c, gpusvm__cl_uint n, const char **src,
                                                      const size_t *len, gpusvm__cl_int *e)
{
    gpusvm__cl_program p;
    if (INJECT()) {
        if (e) *e = FAIL_CODE;
        return NULL;
    }
    p = real.clCreateProgramWithSource(c, n, src, len, e);
    if (p) BUMP(live_cl);
    return p;
}
static gpusvm__cl_program W_clCreateProgramWithBinary(gpusvm__cl_context c, gpusvm__cl_uint n,
                                                      const gpusvm__cl_device *d, const size_t *len,
                                                      const unsigned char **bin, gpusvm__cl_int *st, gpusvm__cl_int *e)
{
    gpusvm__cl_program p;
    if (INJECT()) {
        if (e) *e = FAIL_CODE;
        return NULL;
    }
    p = real.clCreateProgramWithBinary(c, n, d, len, bin, st, e);
    if (p) BUMP(live_cl);
    return p;
}
static gpusvm__cl_int W_clGetProgramInfo(gpusvm__cl_program p, gpusvm__cl_uint w, size_t s, void *v, size_t *r)
{
    if (INJECT()) return FAIL_CODE;
    return real.clGetProgramInfo(p, w, s, v, r);
}
static gpusvm__cl_int W_clBuildProgram(gpusvm__cl_program p, gpusvm__cl_uint n, const gpusvm__cl_device *d,
                                       const char *opt, gpusvm__cl_build_notify f, void *u)
{
    char broken[512];
    if (INJECT()) return -11; /* CL_BUILD_PROGRAM_FAILURE */
    if (bad_build) { /* a real compile error: the kernels' local size becomes a syntax error */
        snprintf(broken, sizeof broken, "%s -DGPUSVM__L=(", opt ? opt : "");
        return real.clBuildProgram(p, n, d, broken, f, u);
    }
    return real.clBuildProgram(p, n, d, opt, f, u);
}
static gpusvm__cl_int W_clGetProgramBuildInfo(gpusvm__cl_program p, gpusvm__cl_device d, gpusvm__cl_uint w, size_t s,
                                              void *v, size_t *r)
{
    if (INJECT()) return FAIL_CODE;
    return real.clGetProgramBuildInfo(p, d, w, s, v, r);
}
static gpusvm__cl_int W_clReleaseProgram(gpusvm__cl_program p)
{
    DROP(live_cl);
    real.clReleaseProgram(p);
    return INJECT() ? FAIL_CODE : 0;
}
static gpusvm__cl_int W_clRetainProgram(gpusvm__cl_program p)
{
    if (INJECT()) return FAIL_CODE;
    BUMP(live_cl);
    return real.clRetainProgram(p);
}
static gpusvm__cl_kernel W_clCreateKernel(gpusvm__cl_program p, const char *name, gpusvm__cl_int *e)
{
    gpusvm__cl_kernel k;
    if (INJECT()) {
        if (e) *e = FAIL_CODE;
        return NULL;
    }
    k = real.clCreateKernel(p, name, e);
    if (k) BUMP(live_cl);
    return k;
}
static gpusvm__cl_int W_clReleaseKernel(gpusvm__cl_kernel k)
{
    DROP(live_cl);
    real.clReleaseKernel(k);
    return INJECT() ? FAIL_CODE : 0;
}
static gpusvm__cl_int W_clSetKernelArg(gpusvm__cl_kernel k, gpusvm__cl_uint i, size_t s, const void *v)
{
    if (INJECT()) return FAIL_CODE;
    return real.clSetKernelArg(k, i, s, v);
}
static gpusvm__cl_int W_clGetKernelInfo(gpusvm__cl_kernel k, gpusvm__cl_uint w, size_t s, void *v, size_t *r)
{
    if (INJECT()) return FAIL_CODE;
    return real.clGetKernelInfo(k, w, s, v, r);
}
static gpusvm__cl_int W_clGetKernelWorkGroupInfo(gpusvm__cl_kernel k, gpusvm__cl_device d, gpusvm__cl_uint w,
                                                 size_t s, void *v, size_t *r)
{
    if (INJECT()) return FAIL_CODE;
    return real.clGetKernelWorkGroupInfo(k, d, w, s, v, r);
}
static gpusvm__cl_int W_clEnqueueNDRangeKernel(gpusvm__cl_queue q, gpusvm__cl_kernel k, gpusvm__cl_uint dims,
                                               const size_t *o, const size_t *g, const size_t *l,
                                               gpusvm__cl_uint ne, const gpusvm__cl_event *w, gpusvm__cl_event *ev)
{
    if (INJECT()) return FAIL_CODE;
    return real.clEnqueueNDRangeKernel(q, k, dims, o, g, l, ne, w, ev);
}
static gpusvm__cl_int W_clEnqueueReadBuffer(gpusvm__cl_queue q, gpusvm__cl_mem m, gpusvm__cl_uint b, size_t o,
                                            size_t s, void *p, gpusvm__cl_uint ne, const gpusvm__cl_event *w,
                                            gpusvm__cl_event *ev)
{
    if (INJECT()) return FAIL_CODE;
    return real.clEnqueueReadBuffer(q, m, b, o, s, p, ne, w, ev);
}
static gpusvm__cl_int W_clEnqueueWriteBuffer(gpusvm__cl_queue q, gpusvm__cl_mem m, gpusvm__cl_uint b, size_t o,
                                             size_t s, const void *p, gpusvm__cl_uint ne, const gpusvm__cl_event *w,
                                             gpusvm__cl_event *ev)
{
    if (INJECT()) return FAIL_CODE;
    return real.clEnqueueWriteBuffer(q, m, b, o, s, p, ne, w, ev);
}
static gpusvm__cl_int W_clFinish(gpusvm__cl_queue q)
{
    if (INJECT()) return FAIL_CODE;
    return real.clFinish(q);
}

static void *W_clEnqueueMapBuffer(gpusvm__cl_queue q, gpusvm__cl_mem m, gpusvm__cl_uint b, gpusvm__cl_bitfield f,
                                  size_t o, size_t s, gpusvm__cl_uint ne, const gpusvm__cl_event *w,
                                  gpusvm__cl_event *ev, gpusvm__cl_int *e)
{
    if (INJECT()) {
        if (e) *e = FAIL_CODE;
        return NULL;
    }
    return real.clEnqueueMapBuffer(q, m, b, f, o, s, ne, w, ev, e);
}
static gpusvm__cl_int W_clEnqueueUnmapMemObject(gpusvm__cl_queue q, gpusvm__cl_mem m, void *p, gpusvm__cl_uint ne,
                                                const gpusvm__cl_event *w, gpusvm__cl_event *ev)
{
    if (INJECT()) return FAIL_CODE;
    return real.clEnqueueUnmapMemObject(q, m, p, ne, w, ev);
}

static gpusvm__cl_int W_clEnqueueMarkerWithWaitList(gpusvm__cl_queue q, gpusvm__cl_uint ne, const gpusvm__cl_event *w,
                                                   gpusvm__cl_event *ev)
{
    if (INJECT()) return FAIL_CODE;
    return real.clEnqueueMarkerWithWaitList(q, ne, w, ev);
}
static gpusvm__cl_int W_clEnqueueBarrierWithWaitList(gpusvm__cl_queue q, gpusvm__cl_uint ne, const gpusvm__cl_event *w,
                                                    gpusvm__cl_event *ev)
{
    if (INJECT()) return FAIL_CODE;
    return real.clEnqueueBarrierWithWaitList(q, ne, w, ev);
}
static gpusvm__cl_int W_clReleaseEvent(gpusvm__cl_event e)
{
    real.clReleaseEvent(e);
    return INJECT() ? FAIL_CODE : 0;
}
static gpusvm__cl_int W_clGetEventInfo(gpusvm__cl_event ev, gpusvm__cl_uint w, size_t sz, void *v, size_t *r)
{
    if (INJECT()) return FAIL_CODE;
    return real.clGetEventInfo(ev, w, sz, v, r);
}
static gpusvm__cl_int W_clFlush(gpusvm__cl_queue q)
{
    if (INJECT()) return FAIL_CODE;
    return real.clFlush(q);
}

static void *W_clGetExtensionFunctionAddressForPlatform(gpusvm__cl_platform p, const char *name)
{
    if (INJECT()) return NULL;
    return real.clGetExtensionFunctionAddressForPlatform(p, name);
}

void gpusvm__test_cl_hook(gpusvm__cl_api *api)
{
    real = *api;
#define WRAP(name) api->name = W_##name;
    GPUSVM__CL_FUNCS(WRAP)
#undef WRAP
}

/* ---- failing allocator, logger ----------------------------------------- */
static long alloc_calls, alloc_fail_at, live_allocs;
/* how the OpenCL backend keeps the points (the sweeps run dense, then sparse) */
static gpusvm_storage storage = GPUSVM_STORAGE_DENSE;

static void *t_alloc(size_t size, void *user)
{
    (void)user;
    if (BUMP(alloc_calls) == alloc_fail_at) return NULL;
    BUMP(live_allocs);
    return malloc(size);
}
static void t_free(void *p, void *user)
{
    (void)user;
    DROP(live_allocs);
    free(p);
}
static char last_log[4096];
static char stream_said[256]; /* the last "streamed through the device" line */
static int rows_said;          /* "of a problem split by rows" lines */
static int lanes_said;         /* "lanes of the device" lines */
static int cache_said;         /* "row cache: ... slots a problem" lines */
static void t_log(void *user, gpusvm_log_level level, const char *msg)
{
    (void)user;
    if (level == GPUSVM_LOG_ERROR) snprintf(last_log, sizeof last_log, "%s", msg);
    lanes_said += strstr(msg, "lanes of the device") != NULL;
    if (strstr(msg, "streamed through the device")) snprintf(stream_said, sizeof stream_said, "%s", msg);
    rows_said += strstr(msg, "of a problem split by rows") != NULL;
    cache_said += strstr(msg, "row cache:") != NULL;
}

/* ---- the workload ------------------------------------------------------- */
enum { N = 80, D = 5, NB = 4000 }; /* NB points to predict: enough work for the device */
static float X[N * D], XB[NB * D];
static double Y[N];
static char data_path[256], model_path[256];
static const char *kernel_cache; /* the workload's kernel cache folder, NULL for none */

static void make_data(void)
{
    unsigned s = 11u;
    size_t i, j;
    FILE *f = fopen(data_path, "wb");
    for (i = 0; i < N; ++i) {
        Y[i] = (i % 2) ? 1.0 : -1.0;
        if (f) fprintf(f, "%g", Y[i]);
        for (j = 0; j < D; ++j) {
            s = s * 1103515245u + 12345u;
            X[i * D + j] = (float)((s >> 9) % 1000) / 500.0f - 1.0f + (float)Y[i] * 0.3f;
            if (f) fprintf(f, " %lu:%g", (unsigned long)j + 1, X[i * D + j]);
        }
        if (f) fprintf(f, "\n");
    }
    if (f) fclose(f);
}

/* Points streamed through the device (data larger than it): NS points under a budget below what
   they need with 64 kernel rows, a few rounds of working sets of 64, in place of the workload. */
enum { NS = 3000 };
static float XS[NS * D];
static double YS[NS];
static double stream_mb; /* 0: the workload; else the streamed training under this budget */
static const char *devices; /* NULL: the workload; else the streamed training's on these devices */
/* 1: the kernels built part by part, as on GPUs (GPUSVM_PROGRAMS=each, the one variable the
   environment then holds; PoCL builds them all in one program otherwise) */
static int in_parts;

static gpusvm_result streamed_workload(gpusvm_context *ctx, const char **stage)
{
    gpusvm_matrix m;
    gpusvm_params p;
    gpusvm_model *model = NULL;
    gpusvm_result r;
    size_t i;
    for (i = 0; i < NS * D; ++i) XS[i] = X[i % (N * D)] + (float)(i % 7) * 0.01f;
    for (i = 0; i < NS; ++i) YS[i] = Y[i % N];
    memset(&m, 0, sizeof m);
    m.rows = NS;
    m.cols = D;
    m.values = XS;
    memset(&p, 0, sizeof p);
    p.working_set_size = 64;
    p.max_iter = 64; /* a round or two */
    *stage = "train (points streamed)";
    r = gpusvm_train(ctx, &m, YS, &p, &model);
    gpusvm_model_free(model);
    return r;
}

/* 1: a grid search on two lanes of the device (GPUSVM_LANES=2, the one variable the environment
   then holds), in place of the workload: lanes open, train a point each from threads of their own
   (its two folds one batch, working sets of 16: a row cache for each fold) and close. Lanes need
   the default allocator (they allocate from their threads), so this sweep counts OpenCL objects,
   not host allocations. */
static int lanes_run;

static gpusvm_result grid_workload(gpusvm_context *ctx, const char **stage)
{
    const double C[2] = {1.0, 4.0}, G[2] = {0.5, 2.0};
    double rate[4];
    gpusvm_matrix m;
    gpusvm_params p;
    memset(&m, 0, sizeof m);
    m.rows = N;
    m.cols = D;
    m.values = X;
    memset(&p, 0, sizeof p);
    p.working_set_size = 16;
    *stage = "grid search (two lanes)";
    return gpusvm_grid_search(ctx, &m, Y, &p, 2, C, 2, G, 2, rate);
}

/* One run: returns the first failing result (GPUSVM_OK if none); *stage says where. */
static gpusvm_result workload(gpusvm_backend backend, const char *library, gpusvm_context **keep, const char **stage)
{
    gpusvm_context_desc desc;
    gpusvm_context *ctx = NULL;
    gpusvm_matrix m;
    gpusvm_params p;
    gpusvm_model *model = NULL, *loaded = NULL;
    gpusvm_dataset *ds = NULL;
    static double pred[NB];
    gpusvm_matrix mb;
    gpusvm_result r;
    size_t i;
    for (i = 0; i < NB * D; ++i) XB[i] = X[i % (N * D)];
    memset(&desc, 0, sizeof desc);
    desc.backend = backend;
    desc.ignore_environment = 0; /* the sweeps' own environment (sweep_env) */
    desc.opencl_library = library;
    desc.kernel_cache_dir = kernel_cache ? kernel_cache : in_parts ? "" : NULL; /* none */
    desc.storage = storage;
    desc.allocator.alloc = lanes_run ? NULL : t_alloc;
    desc.allocator.free = lanes_run ? NULL : t_free;
    desc.logger.fn = t_log;
    desc.device_memory_mb = stream_mb;
    desc.devices = devices;
    memset(&m, 0, sizeof m);
    m.rows = N;
    m.cols = D;
    m.values = X;
    *stage = "create";
    if ((r = gpusvm_context_create(&desc, &ctx)) != GPUSVM_OK) return r;
    if (stream_mb > 0.0 || devices || lanes_run) {
        r = lanes_run ? grid_workload(ctx, stage) : streamed_workload(ctx, stage);
        goto done;
    }
    *stage = "load data";
    if ((r = gpusvm_dataset_load(ctx, data_path, &ds)) != GPUSVM_OK) goto done;
    *stage = "train (whole problem)";
    if ((r = gpusvm_train(ctx, &ds->x, ds->y, NULL, &model)) != GPUSVM_OK) goto done;
    gpusvm_model_free(model);
    model = NULL;
    *stage = "train (working sets of 32)";
    memset(&p, 0, sizeof p);
    p.working_set_size = 32;
    if ((r = gpusvm_train(ctx, &m, Y, &p, &model)) != GPUSVM_OK) goto done;
    *stage = "predict";
    if ((r = gpusvm_predict(ctx, model, &m, pred, NULL)) != GPUSVM_OK) goto done;
    *stage = "save";
    if ((r = gpusvm_model_save(ctx, model, model_path)) != GPUSVM_OK) goto done;
    *stage = "load model";
    if ((r = gpusvm_model_load(ctx, model_path, &loaded)) != GPUSVM_OK) goto done;
    *stage = "predict with the loaded model";
    if ((r = gpusvm_predict(ctx, loaded, &m, pred, NULL)) != GPUSVM_OK) goto done;
    *stage = "predict a large batch (on the device)";
    mb = m;
    mb.rows = NB;
    mb.values = XB;
    r = gpusvm_predict(ctx, model, &mb, pred, NULL);
done:
    gpusvm_model_free(loaded);
    gpusvm_model_free(model);
    gpusvm_dataset_free(ds);
    *keep = ctx;
    return r;
}

/* After a failure: the same context trains again, with nothing injected. */
static int still_usable(gpusvm_context *ctx)
{
    gpusvm_matrix m;
    gpusvm_model *model = NULL;
    int ok;
    memset(&m, 0, sizeof m);
    m.rows = N;
    m.cols = D;
    m.values = X;
    ok = gpusvm_train(ctx, &m, Y, NULL, &model) == GPUSVM_OK && model->total_sv > 0;
    gpusvm_model_free(model);
    return ok;
}

/* What a sweep found, added up over its workers. */
typedef struct {
    long points, failures, not_usable, silent, leaks, unnamed, streamed, split, lanes, cached, clean_ok;
} sweep_stats;

/* The points a sweep tries, from one run with nothing injected: every host allocation (on_cl 0),
   or the first call of each OpenCL call site (on_cl 1; a site's later calls leave by the same
   path, and trying each of them made this test take most of make test's time). */
static long census(gpusvm_backend backend, int on_cl, long *points, long max)
{
    gpusvm_context *ctx = NULL;
    const char *stage = "";
    long n = 0, k, j, calls;
    cl_calls = alloc_calls = 0;
    cl_fail_at = alloc_fail_at = 0;
    census_run = 1;
    workload(backend, NULL, &ctx, &stage);
    census_run = 0;
    gpusvm_context_destroy(ctx);
    live_allocs = live_cl = 0;
    calls = on_cl ? (cl_calls < MAX_CALLS ? cl_calls : MAX_CALLS) : alloc_calls;
    for (k = 1; k <= calls && n < max; ++k) {
        for (j = 0; on_cl && j < k - 1 && call_site[j] != call_site[k - 1]; ++j) {
        }
        if (!on_cl || j == k - 1) points[n++] = k;
    }
    return n;
}

/* One injection point n: the workload with the n-th call (or allocation) failing, then what it
   left. */
static void sweep_point(gpusvm_backend backend, int on_cl, const char *name, long n, sweep_stats *st)
{
    gpusvm_context *ctx = NULL;
    const char *stage = "";
    gpusvm_result r;
    cl_calls = alloc_calls = 0;
    cl_fail_at = on_cl ? n : 0;
    alloc_fail_at = on_cl ? 0 : n;
    last_log[0] = 0;
    r = workload(backend, NULL, &ctx, &stage);
    cl_fail_at = alloc_fail_at = 0;
    ++st->points;
    if (r != GPUSVM_OK) {
        const char *detail = ctx ? gpusvm_context_error(ctx) : last_log;
        ++st->failures;
        if (on_cl && r == GPUSVM_ERROR_OPENCL && !strstr(detail, "cl")) ++st->unnamed;
        if (!detail[0]) ++st->unnamed;
        if (ctx && !still_usable(ctx)) {
            ++st->not_usable;
            fprintf(stderr, "  %s N=%ld: context unusable after failing in %s: %s\n", name, n, stage, detail);
        }
    } else if (!on_cl) {
        ++st->silent; /* a failed host allocation must never be absorbed */
        fprintf(stderr, "  %s N=%ld: allocation failure absorbed silently\n", name, n);
    }
    gpusvm_context_destroy(ctx);
    if (live_allocs != 0 || live_cl != 0) {
        ++st->leaks;
        fprintf(stderr, "  %s N=%ld (%s, %s): %ld host allocations and %ld OpenCL objects left\n", name, n, stage,
                gpusvm_result_string(r), live_allocs, live_cl);
        live_allocs = live_cl = 0;
    }
}

/* Worker w of W: the census, then its share of the points (every W-th), into *st. */
static void sweep_share(gpusvm_backend backend, int on_cl, const char *name, int w, int nw, sweep_stats *st)
{
    static long points[MAX_CALLS];
    const long n = census(backend, on_cl, points, MAX_CALLS);
    long k;
    memset(st, 0, sizeof *st);
    st->clean_ok = n > 0;
    for (k = w; k < n; k += nw) sweep_point(backend, on_cl, name, points[k], st);
    st->streamed = stream_said[0] != 0;
    st->split = rows_said;
    st->lanes = lanes_said;
    st->cached = cache_said;
}

/* The sweep over two worker processes (forked before either touches OpenCL: the parent never
   does), each reporting its counts through a pipe; where fork is missing, in this process. */
static void sweep(gpusvm_backend backend, int on_cl, const char *name)
{
    enum { NW = 2 };
    sweep_stats st, part;
    char msg[512];
    int fd[NW][2], w, status;
    pid_t pid[NW];
    memset(&st, 0, sizeof st);
    fflush(stdout);
    fflush(stderr);
    for (w = 0; w < NW; ++w) {
        if (pipe(fd[w]) != 0 || (pid[w] = fork()) < 0) {
            CHECK(0, "a worker process for the sweep");
            return;
        }
        if (pid[w] == 0) {
            close(fd[w][0]);
            sweep_share(backend, on_cl, name, w, NW, &part);
            if (write(fd[w][1], &part, sizeof part) != (ssize_t)sizeof part) _exit(1);
            _exit(0);
        }
        close(fd[w][1]);
    }
    for (w = 0; w < NW; ++w) {
        memset(&part, 0, sizeof part);
        if (read(fd[w][0], &part, sizeof part) != (ssize_t)sizeof part) part.clean_ok = 0;
        close(fd[w][0]);
        waitpid(pid[w], &status, 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) part.clean_ok = 0;
        st.points += part.points;
        st.failures += part.failures;
        st.not_usable += part.not_usable;
        st.silent += part.silent;
        st.leaks += part.leaks;
        st.unnamed += part.unnamed;
        st.streamed |= part.streamed;
        st.split += part.split;
        st.lanes += part.lanes;
        st.cached += part.cached;
        st.clean_ok += part.clean_ok;
    }
    stream_said[0] = st.streamed ? 'y' : 0;
    rows_said = (int)st.split;
    lanes_said = (int)st.lanes;
    cache_said = (int)st.cached;
    printf("test_faults: %s: %ld injection points, %ld returned an error, %ld leaks\n", name, st.points, st.failures,
           st.leaks);
    CHECK(st.clean_ok == NW, "the run with nothing injected succeeds (and the workers report)");
    snprintf(msg, sizeof msg, "%s: every injected failure released everything (%ld of %ld points leaked)", name,
             st.leaks, st.points);
    CHECK(st.leaks == 0 && st.points > 20, msg);
    snprintf(msg, sizeof msg, "%s: every failure says what failed (%ld did not)", name, st.unnamed);
    CHECK(st.unnamed == 0, msg);
    snprintf(msg, sizeof msg, "%s: the context stays usable after a failure (%ld were not)", name, st.not_usable);
    CHECK(st.not_usable == 0, msg);
    snprintf(msg, sizeof msg, "%s: no allocation failure is absorbed (%ld were)", name, st.silent);
    CHECK(st.silent == 0, msg);
}

static void selection_faults(void)
{
    gpusvm_context *ctx = NULL;
    const char *stage;
    gpusvm_result r;
    struct {
        const char *name;
        int *flag;
        const char *library;
    } cases[] = {
        {"no OpenCL library", NULL, "libgpusvm-no-such-opencl.so"},
        {"no OpenCL platform", &no_platform, NULL},
        {"no OpenCL device", &no_device, NULL},
        {"a kernel build failure", &bad_build, NULL},
    };
    size_t i;
    char msg[512];
    for (i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        if (cases[i].flag) *cases[i].flag = 1;
        r = workload(GPUSVM_BACKEND_AUTO, cases[i].library, &ctx, &stage);
        snprintf(msg, sizeof msg, "%s: automatic selection falls back to the C backend and completes (%s)",
                 cases[i].name, gpusvm_result_string(r));
        CHECK(r == GPUSVM_OK && ctx && gpusvm_context_backend(ctx) == GPUSVM_BACKEND_CPU, msg);
        gpusvm_context_destroy(ctx);
        ctx = NULL;
        last_log[0] = 0;
        r = workload(GPUSVM_BACKEND_OPENCL, cases[i].library, &ctx, &stage);
        snprintf(msg, sizeof msg, "%s: asking for OpenCL fails at creation with a reason (%s: %.200s)", cases[i].name,
                 gpusvm_result_string(r), last_log);
        CHECK(ctx == NULL && (r == GPUSVM_ERROR_NO_DEVICE || r == GPUSVM_ERROR_BUILD) && last_log[0], msg);
        if (cases[i].flag == &bad_build)
            CHECK(r == GPUSVM_ERROR_BUILD && strstr(last_log, "build log") && strstr(last_log, "GPUSVM__L"),
                  "a build failure reports the device compiler's log and the options used");
        gpusvm_context_destroy(ctx);
        ctx = NULL;
        if (cases[i].flag) *cases[i].flag = 0;
        CHECK(live_allocs == 0 && live_cl == 0, "nothing left behind by a failed selection");
    }
}

/* A model write that fails part-way (file size limit) reports the error and leaves the old
   model file as it was. */
static void write_fault(void)
{
    gpusvm_context *ctx = NULL;
    gpusvm_context_desc desc;
    gpusvm_matrix m;
    gpusvm_model *model = NULL;
    char before[65536], after[65536];
    size_t nb = 0, na = 0;
    FILE *f;
    pid_t pid;
    int status = -1;
    memset(&desc, 0, sizeof desc);
    desc.backend = GPUSVM_BACKEND_CPU;
    desc.ignore_environment = 1;
    memset(&m, 0, sizeof m);
    m.rows = N;
    m.cols = D;
    m.values = X;
    CHECK_OK(gpusvm_context_create(&desc, &ctx));
    CHECK_OK(gpusvm_train(ctx, &m, Y, NULL, &model));
    f = fopen(model_path, "wb");
    if (f) {
        fputs("svm_type c_svc\n# an older model that must survive\n", f);
        fclose(f);
    }
    f = fopen(model_path, "rb");
    if (f) {
        nb = fread(before, 1, sizeof before, f);
        fclose(f);
    }
    fflush(NULL);
    pid = fork();
    if (pid == 0) {
        struct rlimit rl;
        gpusvm_result r;
        signal(SIGXFSZ, SIG_IGN);
        rl.rlim_cur = rl.rlim_max = 300; /* bytes: the model is larger */
        setrlimit(RLIMIT_FSIZE, &rl);
        r = gpusvm_model_save(ctx, model, model_path);
        _exit(r == GPUSVM_ERROR_IO && strstr(gpusvm_context_error(ctx), "write failed") ? 0 : 1);
    }
    if (pid > 0) waitpid(pid, &status, 0);
    CHECK(pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
          "a model write cut short by a full disk (file-size limit) returns an IO error");
    f = fopen(model_path, "rb");
    if (f) {
        na = fread(after, 1, sizeof after, f);
        fclose(f);
    }
    CHECK(na == nb && memcmp(before, after, nb) == 0, "the model file that was there is unchanged");
    gpusvm_model_free(model);
    gpusvm_context_destroy(ctx);
}

/* Whether a context on d opens, asked in a child process (the sweeps fork their workers, and the
   parent stays clear of OpenCL's threads). */
static int opencl_present(const gpusvm_context_desc *d)
{
    int status = -1;
    pid_t pid;
    fflush(stdout);
    if ((pid = fork()) == 0) {
        gpusvm_context *probe = NULL;
        _exit(gpusvm_context_create(d, &probe) == GPUSVM_OK ? 0 : 1);
    }
    return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* Unsets every GPUSVM_* variable; 0 on failure. */
extern char **environ;
static int unset_gpusvm_env(void)
{
    char name[256];
    size_t i = 0;
    while (environ[i]) {
        const char *eq = strchr(environ[i], '=');
        const size_t n = eq ? (size_t)(eq - environ[i]) : strlen(environ[i]);
        if (strncmp(environ[i], "GPUSVM_", 7) != 0 || n >= sizeof name) {
            ++i;
            continue;
        }
        memcpy(name, environ[i], n);
        name[n] = 0;
        if (unsetenv(name) != 0) return 0; /* the list shrinks: the same index again */
    }
    return 1;
}

/* The sweeps' environment: no GPUSVM_* variable but GPUSVM_OVERLAP=always (the inner solve beside
   the rows, its second queue, blocks and events, on problems too small to pay for it) and name=value
   (name NULL: none); 0 on failure. */
static int sweep_env(const char *name, const char *value)
{
    return unset_gpusvm_env() && setenv("GPUSVM_OVERLAP", "always", 1) == 0 && (!name || setenv(name, value, 1) == 0);
}

/* Every host allocation of the four loaders (a model from a file and from bytes, data from a file
   and from bytes), failed in turn: each failure is reported as out of memory (the category, not a
   syntax error of the text), nothing leaks, and the next try loads. The texts are models of two
   and three classes with several support vectors each (their arrays grow) and this run's data. */
static void loader_sweep(void)
{
    static const char model3[] =
        "svm_type c_svc\nkernel_type rbf\ngamma 0.5\nnr_class 3\ntotal_sv 6\nrho 0.1 0.2 0.3\nlabel 1 2 3\n"
        "nr_sv 2 2 2\nSV\n1 0.5 1:0.1 2:0.2 3:0.3\n1 0.5 1:0.4 3:0.6 9:1\n-1 0.5 2:0.7\n-1 -1 1:0.8 2:0.9 4:1\n"
        "-0.5 -1 5:1 6:1 7:1\n-0.5 1 1:1\n";
    const gpusvm_allocator failing = {t_alloc, t_free, NULL};
    gpusvm_context_desc d;
    gpusvm_context *ctx = NULL;
    char *text = NULL;
    size_t size = 0;
    long n, base;
    int which, bad = 0, steps = 0;
    memset(&d, 0, sizeof d);
    d.backend = GPUSVM_BACKEND_CPU; /* the loaders are the host's: one backend is enough */
    d.allocator = failing;
    d.ignore_environment = 1;
    CHECK_OK(gpusvm_context_create(&d, &ctx));
    {
        FILE *f = fopen(data_path, "rb");
        if (f && fseek(f, 0, SEEK_END) == 0 && (size = (size_t)ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
            (text = (char *)malloc(size)) && fread(text, 1, size, f) == size) {
        } else {
            CHECK(0, "the sweep's data file reads back");
        }
        if (f) fclose(f);
    }
    for (which = 0; which < 4 && text; ++which) {
        for (n = 1;; ++n) {
            gpusvm_model *m = NULL;
            gpusvm_dataset *ds = NULL;
            gpusvm_result r;
            const long live = live_allocs;
            base = alloc_calls;
            alloc_fail_at = base + n;
            if (which == 0) r = gpusvm_model_load(ctx, model_path, &m);
            else if (which == 1) r = gpusvm_model_load_buffer(ctx, model3, sizeof model3 - 1, &m);
            else if (which == 2) r = gpusvm_dataset_load(ctx, data_path, &ds);
            else r = gpusvm_dataset_parse(ctx, text, size, "bytes", &ds);
            alloc_fail_at = 0;
            gpusvm_model_free(m);
            gpusvm_dataset_free(ds);
            if (r == GPUSVM_OK) break;
            ++steps;
            if (!IS_ERROR(ctx, r, GPUSVM_ERR_OUT_OF_MEMORY) || live_allocs != live) {
                if (!bad++)
                    fprintf(stderr, "  loader %d, allocation %ld: %s (%s)\n", which, n, gpusvm_context_error(ctx),
                            live_allocs != live ? "leaked" : "not out of memory");
            }
        }
    }
    printf("test_faults: the loaders, %d failed allocations: out of memory each\n", steps);
    CHECK(steps > 20 && bad == 0, "every failed allocation of the four loaders is said as out of memory, none leaks");
    free(text);
    gpusvm_context_destroy(ctx);
}

int main(void)
{
    gpusvm_context_desc d;
    setvbuf(stdout, NULL, _IOLBF, 0); /* each sweep's line as it ends */
    if (!sweep_env(NULL, NULL)) {
        CHECK(0, "an environment holding GPUSVM_OVERLAP=always alone");
        return check_summary();
    }
    snprintf(data_path, sizeof data_path, "build/test_faults.tmp/faults.data");
    snprintf(model_path, sizeof model_path, "build/test_faults.tmp/faults.model");
    make_data();
    sweep(GPUSVM_BACKEND_CPU, 0, "host allocations, C backend");
    loader_sweep();
    memset(&d, 0, sizeof d);
    d.backend = GPUSVM_BACKEND_OPENCL;
    d.ignore_environment = 1;
    if (!opencl_present(&d)) {
        CHECK(0, "an OpenCL device for the OpenCL fault sweeps");
        return check_summary();
    }
    sweep(GPUSVM_BACKEND_OPENCL, 0, "host allocations, OpenCL");
    sweep(GPUSVM_BACKEND_OPENCL, 1, "OpenCL calls");
    /* again with a kernel cache: the first run compiles and writes it, every later one loads it (a
       failure while loading falls back to the compiler; one while writing leaves no file) */
    kernel_cache = "build/test_faults.tmp/kernel-cache";
    CHECK(system("rm -rf build/test_faults.tmp/kernel-cache") == 0, "the kernel cache folder starts empty");
    sweep(GPUSVM_BACKEND_OPENCL, 0, "host allocations, OpenCL, kernel cache");
    sweep(GPUSVM_BACKEND_OPENCL, 1, "OpenCL calls, kernel cache");
    storage = GPUSVM_STORAGE_SPARSE; /* the sparse kernels' buffers, uploads and launches */
    sweep(GPUSVM_BACKEND_OPENCL, 0, "host allocations, OpenCL, sparse points");
    sweep(GPUSVM_BACKEND_OPENCL, 1, "OpenCL calls, sparse points");
    storage = GPUSVM_STORAGE_DENSE;
    /* the streamed path: its page-locked tiles, second queue, events and per-tile launches */
    stream_mb = 0.6;
    stream_said[0] = 0;
    sweep(GPUSVM_BACKEND_OPENCL, 1, "OpenCL calls, points streamed");
    CHECK(stream_said[0] != 0, "the streamed sweep's training streamed its points");
    sweep(GPUSVM_BACKEND_OPENCL, 0, "host allocations, OpenCL, points streamed");
    stream_mb = 0.0;
    /* one problem split by rows across two devices (one opened twice; the second opened by the
       training, GPUSVM_SPREAD=always spreading a problem this small): the reports, their merge and
       the rows kept in their slots, on both */
    if (sweep_env("GPUSVM_SPREAD", "always")) {
        devices = "0,0";
        rows_said = 0;
        sweep(GPUSVM_BACKEND_OPENCL, 1, "OpenCL calls, one problem split across two devices");
        CHECK(rows_said > 0, "the split sweep's training split its problem by rows");
        sweep(GPUSVM_BACKEND_OPENCL, 0, "host allocations, OpenCL, one problem split across two devices");
        devices = NULL;
        unsetenv("GPUSVM_SPREAD");
    } else {
        CHECK(0, "an environment holding GPUSVM_OVERLAP=always and GPUSVM_SPREAD=always alone");
    }
    kernel_cache = NULL;
    /* the kernels built part by part (GPUSVM_PROGRAMS=each): the builds a training and a
       prediction make at their first launches */
    if (sweep_env("GPUSVM_PROGRAMS", "each")) {
        in_parts = 1;
        sweep(GPUSVM_BACKEND_OPENCL, 1, "OpenCL calls, kernels built part by part");
        in_parts = 0;
    } else {
        CHECK(0, "an environment holding GPUSVM_OVERLAP=always and GPUSVM_PROGRAMS=each alone");
    }
    if (sweep_env("GPUSVM_LANES", "2")) {
        lanes_run = 1;
        lanes_said = cache_said = 0;
        sweep(GPUSVM_BACKEND_OPENCL, 1, "OpenCL calls, a grid search on two lanes of the device");
        CHECK(lanes_said > 0, "the lanes sweep's grid search ran on lanes");
        CHECK(cache_said > 0, "the lanes sweep's folds kept a row cache each (a batch of two)");
        lanes_run = 0;
        unsetenv("GPUSVM_LANES");
    } else {
        CHECK(0, "an environment holding GPUSVM_OVERLAP=always and GPUSVM_LANES=2 alone");
    }
    selection_faults();
    write_fault();
    return check_summary();
}
