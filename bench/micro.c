/* bench/micro.c: the solver's primitives against the device's own ceilings, on the OpenCL device
   GPUSVM_DEVICE selects (make bench runs it). Each figure is the best of 5 timed repetitions of
   a batch of launches, waited for with a blocking read; the ceilings are measured here, by the
   same method, with two reference kernels built next to gpusvm's program:
     copy:  a float4 copy kernel (bytes read + bytes written per second)
     fma:   independent fp32 fma chains (2 flops per fma)
   and the primitives are gpusvm's own kernels on its own buffers:
     rows (seed 000's two-row case): 2 kernel rows of an RBF, n = 1M points, d = 128; bytes =
           the points read once + the rows written, against the copy ceiling
     keys (the arg-max / arg-min of the selection): 8M variables; bytes = G, alpha, C and y read,
           both keys written, against the copy ceiling
     tile: the q x n kernel tile of a full working set on mnist-shaped data (n = 60000, d = 784,
           q = 1024); flops = 2 q n d, against the fma ceiling
     host to device: 256 MiB copied from page-locked memory in chunks of 2, 8 and 32 MiB (the
           ceiling of points streamed through the device, data larger than it)
   Prints a markdown table. Only on a GPU (MICRO_QUICK=1 runs it anywhere at 1/16 of the sizes,
   to check that it works). */
#define GPUSVM_IMPLEMENTATION
#include "../gpusvm.h"
#include <stdio.h>

static const char *micro_src =
    "__kernel void copy4(__global const float4 *a, __global float4 *b) {\n"
    "    const size_t i = get_global_id(0); b[i] = a[i]; }\n"
    "__kernel void fma8(__global float *out, float s) {\n"
    "    float a0 = get_global_id(0) * 1e-9f, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3;\n"
    "    float a4 = a0 + 4, a5 = a0 + 5, a6 = a0 + 6, a7 = a0 + 7;\n"
    "    for (int k = 0; k < 1024; ++k) {\n"
    "        a0 = fma(a0, s, 0.5f); a1 = fma(a1, s, 0.5f); a2 = fma(a2, s, 0.5f); a3 = fma(a3, s, 0.5f);\n"
    "        a4 = fma(a4, s, 0.5f); a5 = fma(a5, s, 0.5f); a6 = fma(a6, s, 0.5f); a7 = fma(a7, s, 0.5f); }\n"
    "    out[get_global_id(0)] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7; }\n";

#define BENCH_NAME "micro"
#include "bench_cl.h"

static gpusvm__ocl *B;

/* What one repetition enqueues: a kernel on a grid, or (k NULL) gpusvm's kernel rows through the
   solver's launcher (the gathering of the rows' vectors included) for the first nr rows. */
typedef struct {
    gpusvm__cl_kernel k;
    gpusvm__cl_uint dims;
    const size_t *g, *l;
    int nr;
} launch_t;

/* Seconds per launch: best of 5, each `reps` launches then one blocking read of sync. */
static double best_of(const launch_t *w, int reps, gpusvm__cl_mem sync)
{
    double best = 1e30;
    int t, i;
    float one;
    for (t = 0; t < 6; ++t) { /* the first is a warm-up */
        const double s = gpusvm__now();
        double e;
        for (i = 0; i < reps; ++i) {
            if (w->k)
                CLOK(B->cl->clEnqueueNDRangeKernel(B->queue, w->k, w->dims, NULL, w->g, w->l, 0, NULL, NULL));
            else if (gpusvm__ocl_rows_launch(B, B->batch.sparse, 0, w->nr, 0, B->batch.ldk, 1, 1, 0) != GPUSVM_OK)
                DIE("%s", gpusvm_context_error(B->base.ctx));
        }
        CLOK(B->cl->clEnqueueReadBuffer(B->queue, sync, GPUSVM__CL_TRUE, 0, sizeof one, &one, 0, NULL, NULL));
        e = (gpusvm__now() - s) / reps;
        if (t > 0 && e < best) best = e;
    }
    return best;
}

static double timed(gpusvm__cl_kernel k, gpusvm__cl_uint dims, const size_t *g, const size_t *l, int reps,
                    gpusvm__cl_mem sync)
{
    launch_t w;
    w.k = k;
    w.dims = dims;
    w.g = g;
    w.l = l;
    w.nr = 0;
    return best_of(&w, reps, sync);
}

static double time_rows(int nr, int reps)
{
    launch_t w;
    memset(&w, 0, sizeof w);
    w.nr = nr;
    return best_of(&w, reps, B->batch.mem[GPUSVM__TB_STATUS]);
}

static gpusvm__cl_mem buffer(size_t bytes)
{
    gpusvm__cl_int e = 0;
    gpusvm__cl_mem m = B->cl->clCreateBuffer(B->cctx, GPUSVM__CL_MEM_READ_WRITE, bytes, NULL, &e);
    if (!m || e) DIE("clCreateBuffer(%lu) returned %d", (unsigned long)bytes, (int)e);
    if (gpusvm__ocl_fill(B, m, bytes / 4 * 4, 0) != GPUSVM_OK) DIE("zeroing a buffer: %s", gpusvm_context_error(B->base.ctx));
    return m;
}

/* A random dense problem for the rows and keys: n points of d features, labels +-1. */
/* train.begin of p under a plan of working-set size q and nothing else. */
static gpusvm_result micro_begin(gpusvm__ocl *b, const gpusvm__problem *p, int q)
{
    gpusvm__plan plan;
    memset(&plan, 0, sizeof plan);
    plan.q = q;
    return b->base.train->begin(&b->base, p, 1, &plan);
}

static void dense_problem(size_t n, size_t d, gpusvm__problem *p, size_t **rp, int32_t **col, float **val,
                          signed char **y, double **C)
{
    size_t i, j;
    uint64_t s = 12345;
    *rp = (size_t *)malloc((n + 1) * sizeof(size_t));
    *col = (int32_t *)malloc(n * d * sizeof(int32_t));
    *val = (float *)malloc(n * d * sizeof(float));
    *y = (signed char *)malloc(n);
    *C = (double *)malloc(n * sizeof(double));
    if (!*rp || !*col || !*val || !*y || !*C) DIE("out of host memory");
    for (i = 0; i < n; ++i) {
        (*rp)[i] = i * d;
        for (j = 0; j < d; ++j) {
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            (*col)[i * d + j] = (int32_t)j;
            (*val)[i * d + j] = (float)((s >> 40) & 0xFFFF) / 65536.0f;
        }
        (*y)[i] = (i & 1) ? 1 : -1;
        (*C)[i] = 1.0;
    }
    (*rp)[n] = n * d;
    memset(p, 0, sizeof *p);
    p->x.rows = n;
    p->x.cols = d;
    p->x.row_ptr = *rp;
    p->x.col = *col;
    p->x.val = *val;
    p->npts = n;
    p->nvar = n;
    p->y = *y;
    p->C = *C;
    p->ktype = 2;
    p->gamma = 1.0f / (float)d;
}

static void free_dense(size_t *rp, int32_t *col, float *val, signed char *y, double *C)
{
    free(rp);
    free(col);
    free(val);
    free(y);
    free(C);
}

int main(void)
{
    gpusvm_context *ctx;
    gpusvm_context_desc desc;
    gpusvm__cl_program prog;
    gpusvm__cl_kernel kcopy, kfma;
    gpusvm__cl_int e = 0;
    const char *src = micro_src;
    double copy_bw, fma_rate, t;
    gpusvm__problem p;
    size_t *rp;
    int32_t *col;
    float *val, s = 0.999f;
    signed char *y;
    double *C;

    const size_t div = getenv("MICRO_QUICK") ? 16 : 1;
    gpusvm__cl_bitfield type = 0;
    memset(&desc, 0, sizeof desc);
    desc.backend = GPUSVM_BACKEND_OPENCL;
    desc.device = getenv("GPUSVM_DEVICE");
    if (gpusvm_context_create(&desc, &ctx) != GPUSVM_OK) DIE("no OpenCL device");
    B = (gpusvm__ocl *)ctx->backend;
    B->batch.no_cache = 1; /* the rows of the working set itself (the row cache's lists are the solver's rounds') */
    B->cl->clGetDeviceInfo(B->dev, GPUSVM__CL_DEVICE_TYPE, sizeof type, &type, NULL);
    if (!(type & GPUSVM__CL_DEVICE_TYPE_GPU) && div == 1) {
        printf("Microbenchmarks: %s is not a GPU; skipped (MICRO_QUICK=1 runs them small).\n",
               gpusvm_context_device_name(ctx));
        gpusvm_context_destroy(ctx);
        return 0;
    }
    prog = B->cl->clCreateProgramWithSource(B->cctx, 1, &src, NULL, &e);
    if (!prog || e) DIE("clCreateProgramWithSource returned %d", (int)e);
    CLOK(B->cl->clBuildProgram(prog, 1, &B->dev, "", NULL, NULL));
    kcopy = B->cl->clCreateKernel(prog, "copy4", &e);
    kfma = B->cl->clCreateKernel(prog, "fma8", &e);
    if (!kcopy || !kfma) DIE("clCreateKernel returned %d", (int)e);
    {
        const char *log = gpusvm_context_build_log(ctx), *nl = strchr(log, '\n');
        printf("Device: %s (%.*s). Best of 5 repetitions after a warm-up, each a batch of launches waited for "
               "once.\n\n",
               gpusvm_context_device_name(ctx), nl ? (int)(nl - log) : (int)strlen(log), log);
    }
    printf("| primitive | measured | ceiling (measured here) | ratio | target |\n|---|---|---|---|---|\n");

    { /* ceilings */
        const size_t n4 = ((size_t)64 << 20) / div; /* 64M float4: 1 GiB each way */
        gpusvm__cl_mem a = buffer(n4 * 16), b = buffer(n4 * 16), o;
        size_t g = n4, l = 256, gf = (size_t)B->base.qcap * 1024;
        CLOK(B->cl->clSetKernelArg(kcopy, 0, sizeof a, &a));
        CLOK(B->cl->clSetKernelArg(kcopy, 1, sizeof b, &b));
        t = timed(kcopy, 1, &g, &l, 5, b);
        copy_bw = 2.0 * (double)n4 * 16 / t;
        B->cl->clReleaseMemObject(a);
        B->cl->clReleaseMemObject(b);
        gf = 132 * 2048 * 8 / div; /* enough threads for any current GPU */
        o = buffer(gf * sizeof(float));
        CLOK(B->cl->clSetKernelArg(kfma, 0, sizeof o, &o));
        CLOK(B->cl->clSetKernelArg(kfma, 1, sizeof s, &s));
        t = timed(kfma, 1, &gf, &l, 5, o);
        fma_rate = (double)gf * 1024 * 8 * 2 / t;
        B->cl->clReleaseMemObject(o);
        printf("| copy (ceiling) | %.2f TB/s | | | |\n| fp32 fma (ceiling) | %.1f TFLOP/s | | | |\n", copy_bw / 1e12,
               fma_rate / 1e12);
    }
    { /* rows: 2 rows over 1M points of 128 features */
        const size_t n = ((size_t)1 << 20) / div, d = 128;
        int ids[2] = {17, 9001}, slots[2] = {0, 1};
        double bytes;
        dense_problem(n, d, &p, &rp, &col, &val, &y, &C);
        p.nvar = n;
        if (micro_begin(B, &p, 2) != GPUSVM_OK) DIE("%s", gpusvm_context_error(ctx));
        if (B->base.train->write_ws(&B->base, ids, slots, 2) != GPUSVM_OK) DIE("%s", gpusvm_context_error(ctx));
        t = time_rows(2, 20);
        bytes = (double)n * d * 4 + 2.0 * n * 4 + (double)n * 4;
        printf("| kernel rows: 2 RBF rows, n = %lu, d = 128 | %.2f TB/s (%.3f ms) | %.2f TB/s | %.0f%% | 85%% |\n",
               (unsigned long)n, bytes / t / 1e12, t * 1e3, copy_bw / 1e12, 100.0 * bytes / t / copy_bw);
        B->base.train->end(&B->base);
        free_dense(rp, col, val, y, C);
    }
    { /* rows: a training round's new rows on the dense 1M benchmark (half of q, n = 1M, d = 32) */
        const size_t n = ((size_t)1000000) / div, d = 32;
        const int q = B->base.qcap;
        int *ids = (int *)malloc((size_t)q * 2 * sizeof(int)), *slots = ids + q, k;
        double bytes;
        dense_problem(n, d, &p, &rp, &col, &val, &y, &C);
        for (k = 0; k < q; ++k) {
            ids[k] = (int)((size_t)k * (n / (size_t)q) + 7);
            slots[k] = k;
        }
        if (micro_begin(B, &p, q) != GPUSVM_OK) DIE("%s", gpusvm_context_error(ctx));
        if (B->base.train->write_ws(&B->base, ids, slots, q) != GPUSVM_OK) DIE("%s", gpusvm_context_error(ctx));
        t = time_rows(q / 2, 5);
        bytes = (double)(q / 2) * (double)n * 4;
        printf("| kernel rows: %d RBF rows, n = %lu, d = 32 (a round of the dense 1M benchmark) | %.2f TB/s written "
               "(%.3f ms) | %.2f TB/s | %.0f%% | |\n",
               q / 2, (unsigned long)n, bytes / t / 1e12, t * 1e3, copy_bw / 1e12, 100.0 * bytes / t / copy_bw);
        B->base.train->end(&B->base);
        free_dense(rp, col, val, y, C);
        free(ids);
    }
    { /* keys: the arg-max / arg-min pass over 8M variables */
        const size_t n = ((size_t)8 << 20) / div;
        double bytes;
        dense_problem(n, 1, &p, &rp, &col, &val, &y, &C);
        if (micro_begin(B, &p, 2) != GPUSVM_OK) DIE("%s", gpusvm_context_error(ctx));
        {
            size_t g[2], l[2] = {GPUSVM__L, 1};
            g[0] = B->batch.nparts_max * GPUSVM__L;
            g[1] = 1;
            t = timed(B->kern[GPUSVM__KN_KEYS], 2, g, l, 20, B->batch.mem[GPUSVM__TB_STATUS]);
        }
        bytes = (double)n * (8 + 8 + 8 + 1 + 4 + 4);
        printf("| selection keys + arg-max/arg-min partials, %lu variables | %.2f TB/s (%.3f ms) | %.2f TB/s | %.0f%% | 85%% |\n",
               (unsigned long)n, bytes / t / 1e12, t * 1e3, copy_bw / 1e12, 100.0 * bytes / t / copy_bw);
        B->base.train->end(&B->base);
        free_dense(rp, col, val, y, C);
    }
    { /* the q x n tile on mnist-shaped data */
        const size_t n = 60000 / div, d = 784;
        const int q = B->base.qcap;
        int *ids = (int *)malloc((size_t)q * sizeof(int)), k;
        double flops;
        for (k = 0; k < q; ++k) ids[k] = (int)((size_t)k * (n / (size_t)q));
        dense_problem(n, d, &p, &rp, &col, &val, &y, &C);
        if (micro_begin(B, &p, q) != GPUSVM_OK) DIE("%s", gpusvm_context_error(ctx));
        {
            int *slots = (int *)malloc((size_t)q * sizeof(int));
            for (k = 0; k < q; ++k) slots[k] = k;
            if (B->base.train->write_ws(&B->base, ids, slots, q) != GPUSVM_OK) DIE("%s", gpusvm_context_error(ctx));
            free(slots);
        }
        t = time_rows(q, 3);
        flops = 2.0 * q * (double)n * (double)B->batch.dpad;
        printf("| q x n tile: q = %d, n = %lu, d = 784 (RBF) | %.1f TFLOP/s (%.2f ms) | %.1f TFLOP/s | %.0f%% | 40%% |\n",
               q, (unsigned long)n, flops / t / 1e12, t * 1e3, fma_rate / 1e12, 100.0 * flops / t / fma_rate);
        B->base.train->end(&B->base);
        free_dense(rp, col, val, y, C);
        free(ids);
    }
    { /* host to device: 256 MiB from page-locked memory in chunks, two device buffers in turn (the
         streamed points' tiles, gpusvm__ocl_stream_fetch, without the kernels between) */
        const size_t total = ((size_t)256 << 20) / div, chunks[3] = {(size_t)2 << 20, (size_t)8 << 20, (size_t)32 << 20};
        gpusvm__cl_mem pin = B->cl->clCreateBuffer(B->cctx, GPUSVM__CL_MEM_READ_WRITE | GPUSVM__CL_MEM_ALLOC_HOST_PTR,
                                                    total, NULL, &e);
        void *host;
        int c, rep, i;
        if (!pin || e) DIE("clCreateBuffer(page-locked) returned %d", (int)e);
        host = B->cl->clEnqueueMapBuffer(B->queue, pin, GPUSVM__CL_TRUE, GPUSVM__CL_MAP_READ | GPUSVM__CL_MAP_WRITE, 0,
                                         total, 0, NULL, NULL, &e);
        if (!host || e) DIE("clEnqueueMapBuffer returned %d", (int)e);
        memset(host, 1, total);
        for (c = 0; c < 3; ++c) {
            const size_t ch = chunks[c] / div;
            gpusvm__cl_mem d[2];
            double best = 1e30;
            d[0] = buffer(ch);
            d[1] = buffer(ch);
            for (rep = 0; rep < 6; ++rep) {
                const double s0 = gpusvm__now();
                CLOK(B->cl->clFinish(B->queue));
                for (i = 0; (size_t)i < total / ch; ++i)
                    CLOK(B->cl->clEnqueueWriteBuffer(B->queue, d[i % 2], GPUSVM__CL_FALSE, 0, ch,
                                                     (char *)host + (size_t)i * ch, 0, NULL, NULL));
                CLOK(B->cl->clFinish(B->queue));
                if (rep > 0 && gpusvm__now() - s0 < best) best = gpusvm__now() - s0;
            }
            printf("| host to device, page-locked, %lu MiB in chunks of %g MiB | %.1f GB/s (%.2f ms) | | | |\n",
                   (unsigned long)(total >> 20), (double)ch / (1 << 20), (double)total / best / 1e9, best * 1e3);
            B->cl->clReleaseMemObject(d[0]);
            B->cl->clReleaseMemObject(d[1]);
        }
        CLOK(B->cl->clEnqueueUnmapMemObject(B->queue, pin, host, 0, NULL, NULL));
        CLOK(B->cl->clFinish(B->queue));
        B->cl->clReleaseMemObject(pin);
    }
    B->cl->clReleaseKernel(kcopy);
    B->cl->clReleaseKernel(kfma);
    B->cl->clReleaseProgram(prog);
    gpusvm_context_destroy(ctx);
    return 0;
}
