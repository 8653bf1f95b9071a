/* bench/probe.c: what one dependent pair update of the inner solve can cost at least on this GPU,
   from the device's own cycle counter (PTX %clock64; NVIDIA only). Each probe is one work-group
   running R dependent repetitions of one step, timed by its first work-item; the figure is cycles a
   repetition (best of 5 launches):
     barrier     a local-memory write, barrier, a neighbour's word read (work-groups of 32 to 1024)
     arg-max     one dependent arg-max of N values (512, 1024) by W work-items (N/W each in
                 registers): warp butterflies, the warps' partials through local memory and one
                 barrier; by one warp alone (no barrier), with shuffles and with redux.sync
     score       j's second-order score of a position, dependent: -(b*b)/quad in double, in float
                 with a reciprocal, and no division (b_t^2 * a_best against b_best^2 * a_t, kept as
                 a pair); each then a warp's arg-min of it (the scan j's reduction works on)
     L2 load     a dependent load from a 16 MiB permutation (beyond L1, within L2)
     step        LIBSVM's two-variable step with its clipping, in double, dependent
   Prints a markdown table and the floor it implies for one pair update: a work-group's
   (reductions for i and for j, i's row from L2, the score, the step) and a warp's (the same
   without barriers or the L2 load, the block in local memory). */
#define GPUSVM_IMPLEMENTATION
#include "../gpusvm.h"
#include <stdio.h>

#define PROBE_R 4096

static const char *probe_src[] = {
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "inline ulong clk(void) { ulong c; asm volatile(\"mov.u64 %0, %%clock64;\" : \"=l\"(c) :: \"memory\"); return c; }\n"
    "inline int xor_i(int v, int m) { int r; asm volatile(\"shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;\" : \"=r\"(r) : \"r\"(v), \"r\"(m)); return r; }\n"
    "inline float xor_f(float v, int m) { return as_float(xor_i(as_int(v), m)); }\n"
    "inline uint redux(uint v) { uint r; asm volatile(\"redux.sync.max.u32 %0, %1, 0xffffffff;\" : \"=r\"(r) : \"r\"(v)); return r; }\n"
    "inline uint fkey(float v) { uint b = as_uint(v); return (b & 0x80000000u) ? ~b : (b | 0x80000000u); }\n"
    "#define WARGMAX(v, t) for (int m_ = 16; m_ > 0; m_ >>= 1) { const float b_ = xor_f(v, m_); const int ib_ = xor_i(t, m_);"
    " const int k_ = b_ > v || (b_ == v && ib_ > t); v = k_ ? b_ : v; t = k_ ? ib_ : t; }\n",
    "__kernel void barrier_rt(__global ulong *out, int reps) {\n"
    "    __local float s[2 * 1024]; const int l = get_local_id(0), L = get_local_size(0); float v = l;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE); const ulong t0 = clk();\n"
    "    for (int r = 0; r < reps; ++r) { s[(r & 1) * 1024 + l] = v; barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        v = s[(r & 1) * 1024 + (l + 1) % L] * 0.5f + 1.0f; }\n"
    "    const ulong t1 = clk(); if (l == 0) out[0] = t1 - t0; if (v == -1.0f) out[1] = 1; }\n",
    "/* per: values a work-item holds; a dependent arg-max over the work-group each repetition */\n",
    "__kernel void argmax_wg(__global ulong *out, int reps, int per) {\n"
    "    __local float pv[2 * 32]; __local int pi[2 * 32];\n"
    "    const int l = get_local_id(0), L = get_local_size(0), nw = L / 32; float x[8]; int win = 0;\n"
    "    for (int c = 0; c < 8; ++c) x[c] = (float)((l * 7919 + c * 104729) % 1000);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE); const ulong t0 = clk();\n"
    "    for (int r = 0; r < reps; ++r) { float v = -INFINITY; int t = -1;\n"
    "        for (int c = 0; c < per; ++c) { const float y = x[c] + (float)win * 1e-30f; if (y > v) { v = y; t = l + c * L; } }\n"
    "        WARGMAX(v, t); if (nw > 1) { if (l % 32 == 0) { pv[(r & 1) * 32 + l / 32] = v; pi[(r & 1) * 32 + l / 32] = t; }\n"
    "            barrier(CLK_LOCAL_MEM_FENCE); v = pv[(r & 1) * 32 + l % nw]; t = pi[(r & 1) * 32 + l % nw]; WARGMAX(v, t); }\n"
    "        win = t; }\n"
    "    const ulong t1 = clk(); if (l == 0) { out[0] = t1 - t0; out[1] = win; } }\n",
    "/* the same by one warp with redux.sync: the float's key, then the index among the lanes that hold it */\n",
    "__kernel void argmax_redux(__global ulong *out, int reps, int per) {\n"
    "    const int l = get_local_id(0); float x[32]; int win = 0;\n"
    "    for (int c = 0; c < 32; ++c) x[c] = (float)((l * 7919 + c * 104729) % 1000);\n"
    "    const ulong t0 = clk();\n"
    "    for (int r = 0; r < reps; ++r) { float v = -INFINITY; int t = -1;\n"
    "        for (int c = 0; c < per; ++c) { const float y = x[c] + (float)win * 1e-30f; if (y > v) { v = y; t = l + c * 32; } }\n"
    "        const uint k = fkey(v), K = redux(k); win = (int)redux(k == K ? (uint)(t + 1) : 0u) - 1; }\n"
    "    const ulong t1 = clk(); if (l == 0) { out[0] = t1 - t0; out[1] = win; } }\n",
    "/* j's score, dependent, then a warp's arg-min of it: mode 0 double division, 1 float reciprocal, 2 no division */\n",
    "__kernel void score(__global ulong *out, int reps, int mode) {\n"
    "    const int l = get_local_id(0); double bd = 0.5 + l * 0.01, qd = 1.5 + l * 0.02; float win = 0.0f;\n"
    "    const ulong t0 = clk();\n"
    "    for (int r = 0; r < reps; ++r) { int t = l; float v;\n"
    "        if (mode == 0) { const double b = bd + (double)win * 1e-30; v = (float)(b * b / qd); WARGMAX(v, t); win = v; }\n"
    "        else if (mode == 1) { const float b = (float)bd + win * 1e-30f; v = b * b * native_recip((float)qd); WARGMAX(v, t); win = v; }\n"
    "        else { float b = (float)bd + win * 1e-30f, b2 = b * b, a = (float)qd;\n"
    "            for (int m_ = 16; m_ > 0; m_ >>= 1) { const float ob = xor_f(b2, m_), oa = xor_f(a, m_); const int ot = xor_i(t, m_);\n"
    "                const int k_ = ob * a > b2 * oa || (ob * a == b2 * oa && ot > t); b2 = k_ ? ob : b2; a = k_ ? oa : a; t = k_ ? ot : t; }\n"
    "            win = b2 / a; } }\n"
    "    const ulong t1 = clk(); if (l == 0) { out[0] = t1 - t0; out[1] = (ulong)win; } }\n",
    "__kernel void l2_chase(__global ulong *out, __global const int *next, int reps) {\n"
    "    int i = 0; const ulong t0 = clk();\n"
    "    for (int r = 0; r < reps; ++r) i = next[i];\n"
    "    const ulong t1 = clk(); out[0] = t1 - t0; out[1] = i; }\n",
    "/* LIBSVM's step (different labels), each repetition's inputs the last one's outputs */\n",
    "__kernel void step(__global ulong *out, int reps) {\n"
    "    double ai = 0.3, aj = 0.2, gi = -1.0, gj = -0.7; const double Ci = 1.0, Cj = 1.0, quad = 1.7;\n"
    "    const ulong t0 = clk();\n"
    "    for (int r = 0; r < reps; ++r) { const double delta = (-gi - gj) / quad, diff = ai - aj;\n"
    "        ai += delta; aj += delta;\n"
    "        if (diff > 0) { if (aj < 0) { aj = 0; ai = diff; } } else { if (ai < 0) { ai = 0; aj = -diff; } }\n"
    "        if (diff > Ci - Cj) { if (ai > Ci) { ai = Ci; aj = Ci - diff; } } else { if (aj > Cj) { aj = Cj; ai = Cj + diff; } }\n"
    "        gi = -1.0 + ai * 1e-3; gj = -0.7 - aj * 1e-3; }\n"
    "    const ulong t1 = clk(); out[0] = t1 - t0; out[1] = (ulong)(ai * 1e6); }\n"};

#define BENCH_NAME "probe"
#include "bench_cl.h"

static gpusvm__ocl *B;
static gpusvm__cl_program P;
static gpusvm__cl_mem Out;

/* Cycles a repetition of kernel name on one work-group of local work-items, its int arguments
   after the output a and b (b < 0: none; extra: a buffer before them), best of 5. */
static double probe(const char *name, size_t local, int a, int b, gpusvm__cl_mem extra)
{
    gpusvm__cl_int e = 0;
    gpusvm__cl_kernel k = B->cl->clCreateKernel(P, name, &e);
    uint64_t res[2], best = UINT64_MAX;
    int arg = 0, rep;
    if (!k || e) DIE("clCreateKernel(%s) returned %d", name, (int)e);
    CLOK(B->cl->clSetKernelArg(k, (gpusvm__cl_uint)arg++, sizeof Out, &Out));
    if (extra) CLOK(B->cl->clSetKernelArg(k, (gpusvm__cl_uint)arg++, sizeof extra, &extra));
    CLOK(B->cl->clSetKernelArg(k, (gpusvm__cl_uint)arg++, sizeof a, &a));
    if (b >= 0) CLOK(B->cl->clSetKernelArg(k, (gpusvm__cl_uint)arg++, sizeof b, &b));
    for (rep = 0; rep < 5; ++rep) {
        CLOK(B->cl->clEnqueueNDRangeKernel(B->queue, k, 1, NULL, &local, &local, 0, NULL, NULL));
        CLOK(B->cl->clEnqueueReadBuffer(B->queue, Out, GPUSVM__CL_TRUE, 0, sizeof res, res, 0, NULL, NULL));
        if (res[0] < best) best = res[0];
    }
    B->cl->clReleaseKernel(k);
    return (double)best / (double)a;
}

/* A 16 MiB cycle through every word, in a scrambled order, for the dependent loads. */
static gpusvm__cl_mem chase_buffer(void)
{
    const int n = 1 << 22;
    int *next = (int *)malloc((size_t)n * sizeof(int)), *perm = (int *)malloc((size_t)n * sizeof(int)), i;
    uint64_t s = 88172645463325252ULL;
    gpusvm__cl_int e = 0;
    gpusvm__cl_mem m;
    if (!next || !perm) DIE("out of memory");
    for (i = 0; i < n; ++i) perm[i] = i;
    for (i = n - 1; i > 0; --i) {
        const int j = (int)((s = s * 6364136223846793005ULL + 1442695040888963407ULL) >> 33) % (i + 1), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (i = 0; i < n; ++i) next[perm[i]] = perm[(i + 1) % n];
    m = B->cl->clCreateBuffer(B->cctx, GPUSVM__CL_MEM_READ_WRITE, (size_t)n * sizeof(int), NULL, &e);
    if (!m || e) DIE("clCreateBuffer returned %d", (int)e);
    CLOK(B->cl->clEnqueueWriteBuffer(B->queue, m, GPUSVM__CL_TRUE, 0, (size_t)n * sizeof(int), next, 0, NULL, NULL));
    free(next);
    free(perm);
    return m;
}

int main(void)
{
    gpusvm_context_desc desc;
    gpusvm_context *ctx;
    gpusvm__cl_int e = 0;
    char vendor[128] = "";
    const size_t ls[6] = {32, 64, 128, 256, 512, 1024};
    double bar[6], wg512, w256_512, w128_512, wg1024, w256_1024, w128_1024, sg512, sg1024, rx512, rx1024, sh32, sc[3], l2, st;
    gpusvm__cl_mem chase;
    int i;
    memset(&desc, 0, sizeof desc);
    desc.backend = GPUSVM_BACKEND_OPENCL;
    desc.device = getenv("GPUSVM_DEVICE");
    if (gpusvm_context_create(&desc, &ctx) != GPUSVM_OK) DIE("no OpenCL device");
    B = (gpusvm__ocl *)ctx->backend;
    B->cl->clGetDeviceInfo(B->dev, GPUSVM__CL_DEVICE_VENDOR, sizeof vendor - 1, vendor, NULL);
    if (!strstr(vendor, "NVIDIA")) {
        printf("Probes: %s is not an NVIDIA GPU (they read PTX's %%clock64); skipped.\n", gpusvm_context_device_name(ctx));
        gpusvm_context_destroy(ctx);
        return 0;
    }
    P = B->cl->clCreateProgramWithSource(B->cctx, (gpusvm__cl_uint)(sizeof probe_src / sizeof probe_src[0]), probe_src, NULL, &e);
    if (!P || e) DIE("clCreateProgramWithSource returned %d", (int)e);
    if (B->cl->clBuildProgram(P, 1, &B->dev, "-cl-std=CL1.2", NULL, NULL) != 0) {
        static char log[65536];
        B->cl->clGetProgramBuildInfo(P, B->dev, GPUSVM__CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
        DIE("the probes do not build:\n%s", log);
    }
    Out = B->cl->clCreateBuffer(B->cctx, GPUSVM__CL_MEM_READ_WRITE, 64, NULL, &e);
    if (!Out || e) DIE("clCreateBuffer returned %d", (int)e);
    chase = chase_buffer();
    for (i = 0; i < 6; ++i) bar[i] = probe("barrier_rt", ls[i], PROBE_R, -1, NULL);
    wg512 = probe("argmax_wg", 512, PROBE_R, 1, NULL);
    w256_512 = probe("argmax_wg", 256, PROBE_R, 2, NULL);
    w128_512 = probe("argmax_wg", 128, PROBE_R, 4, NULL);
    wg1024 = probe("argmax_wg", 1024, PROBE_R, 1, NULL);
    w256_1024 = probe("argmax_wg", 256, PROBE_R, 4, NULL);
    w128_1024 = probe("argmax_wg", 128, PROBE_R, 8, NULL);
    sg512 = probe("argmax_redux", 32, PROBE_R, 16, NULL); /* one warp: 16 and 32 values a lane */
    sg1024 = probe("argmax_redux", 32, PROBE_R, 32, NULL);
    rx512 = probe("argmax_wg", 32, PROBE_R, 8, NULL); /* one warp, shuffles: 8 a lane (256 values) */
    rx1024 = probe("argmax_redux", 32, PROBE_R, 1, NULL); /* one warp, one value a lane: S's arg-max */
    sh32 = probe("argmax_wg", 32, PROBE_R, 1, NULL); /* one warp, shuffles, one value a lane */
    for (i = 0; i < 3; ++i) sc[i] = probe("score", 32, PROBE_R, i, NULL);
    l2 = probe("l2_chase", 1, PROBE_R, -1, chase);
    st = probe("step", 1, PROBE_R, -1, NULL);
    printf("Probes on %s (cycles a dependent repetition, best of 5 launches of %d):\n\n", gpusvm_context_device_name(ctx),
           PROBE_R);
    printf("| probe | cycles |\n|---|---|\n");
    for (i = 0; i < 6; ++i) printf("| barrier with a local round trip, %d work-items | %.0f |\n", (int)ls[i], bar[i]);
    printf("| arg-max of 512 by 512 / 256 / 128 work-items | %.0f / %.0f / %.0f |\n", wg512, w256_512, w128_512);
    printf("| arg-max of 1024 by 1024 / 256 / 128 work-items | %.0f / %.0f / %.0f |\n", wg1024, w256_1024, w128_1024);
    printf("| arg-max by one warp, redux.sync: 512 / 1024 values (16 / 32 a lane) | %.0f / %.0f |\n", sg512, sg1024);
    printf("| arg-max by one warp, shuffles, 256 values (8 a lane) | %.0f |\n", rx512);
    printf("| arg-max by one warp, one value a lane (32): redux.sync / shuffles | %.0f / %.0f |\n", rx1024, sh32);
    printf("| j's score and a warp's arg-min: double division / float reciprocal / no division | %.0f / %.0f / %.0f |\n",
           sc[0], sc[1], sc[2]);
    printf("| dependent load from L2 (16 MiB) | %.0f |\n", l2);
    printf("| LIBSVM's step with clipping, double | %.0f |\n", st);
    printf("\nFloor of one pair update: a work-group of 512 over 512 positions (two arg-maxes, i's row from L2, "
           "the score, the step) %.0f cycles; one warp over a set of 32 in local memory (two arg-maxes of a value a "
           "lane, the score, the step) %.0f cycles.\n",
           2 * wg512 + l2 + (sc[0] - sh32) + st, 2 * rx1024 + (sc[0] - sh32) + st);
    B->cl->clReleaseMemObject(chase);
    B->cl->clReleaseMemObject(Out);
    B->cl->clReleaseProgram(P);
    gpusvm_context_destroy(ctx);
    return 0;
}
