/* gpusvm kernels, part 0: definitions shared by every kernel.
 *
 * The files in kernels/ are concatenated in name order into one OpenCL C 1.2
 * program, after kernels/00_shared.h: the constants, tunables and argument
 * lists the host shares (the host passes GPUSVM__Q, the working-set capacity,
 * and GPUSVM__L, the local size of the single-work-group kernels, as build
 * options).
 *
 * Each kernel's definition stands between #if defined(GPUSVM_K_ALL) ||
 * defined(GPUSVM_K_<part>) and #endif (GPUSVM__KERNELS names the parts): the
 * host builds each part as a program of its own (GPUSVM_K_<part>), when the
 * work first needs it, so that a GPU's compiler generates code for what runs;
 * or, for a driver that compiles each kernel at its first launch anyway
 * (PoCL), every kernel in one program (GPUSVM_K_ALL), its source read once.
 *
 * Precision: kernel values are float; dual variables, gradients and every sum
 * that feeds them are wide (below): double, or float pairs on a device without
 * cl_khr_fp64. Contraction is off (from the shared header's first line) so
 * that the plain-C backend reproduces these kernels operation for operation
 * (with double); only gpusvm_rows_tiled's dot products use fma(), on purpose
 * (part 1 says why).
 */

/* ---- wide numbers: double, or float pairs where the device has no fp64 ----
 * gpusvm_wide is the type of dual variables, gradients and their sums. With
 * cl_khr_fp64 it is double and the GPUSVM_W_* operations below are plain
 * operators. The host defines GPUSVM_NO_FP64 for devices without it (or when
 * asked: desc.fp64, GPUSVM_FP64=off); gpusvm_wide is then a double-float, the
 * unevaluated sum hi + lo of two floats with hi the float nearest the sum,
 * kept so by every operation (Dekker 1971; Hida, Li and Bailey's QD library):
 * about 48 bits of significand against double's 53, float's exponent range.
 * Comparisons are lexicographic on (hi, lo), which that form makes exact
 * (and false with a NaN, as double's).
 * Buffers and scalar arguments keep IEEE doubles either way (8 bytes: the
 * host reads and writes doubles, fp64 or not); without fp64 they are words
 * (gpusvm_wbits), converted by GPUSVM_W_LD / GPUSVM_W_ST with integer
 * arithmetic, so the host code is the same for both. Scratch the host never
 * reads (Crammer-Singer's steps) is gpusvm_wide as it is. A struct, not a
 * vector type: an operator left on a wide value does not compile. */
#ifdef GPUSVM_NO_FP64
typedef struct {
    float hi, lo;
} gpusvm_wide;
typedef struct {
    uint lo, hi; /* a double's low and high 32 bits (little-endian, as every OpenCL device) */
} gpusvm_wbits;

inline gpusvm_wide gpusvm_w_make(float hi, float lo)
{
    gpusvm_wide r;
    r.hi = hi;
    r.lo = lo;
    return r;
}
/* s + e = a + b exactly, s = fl(a + b); |a| >= |b| or a = 0 */
inline gpusvm_wide gpusvm_w_fast2(float a, float b)
{
    const float s = a + b;
    return gpusvm_w_make(s, b - (s - a));
}
/* s + e = a + b exactly, s = fl(a + b) (Knuth) */
inline gpusvm_wide gpusvm_w_two(float a, float b)
{
    const float s = a + b, bb = s - a;
    return gpusvm_w_make(s, (a - (s - bb)) + (b - bb));
}
inline gpusvm_wide gpusvm_w_add(gpusvm_wide a, gpusvm_wide b)
{
    gpusvm_wide s = gpusvm_w_two(a.hi, b.hi);
    const gpusvm_wide t = gpusvm_w_two(a.lo, b.lo);
    if (!isfinite(s.hi)) return gpusvm_w_make(s.hi, 0.0f); /* infinities stay what double's are */
    s = gpusvm_w_fast2(s.hi, s.lo + t.hi);
    return gpusvm_w_fast2(s.hi, s.lo + t.lo);
}
/* a + b with the low parts added, not summed apart: the error bound relative to |a| + |b| (double's
 * own for a sum of terms), in half gpusvm_w_add's dependent steps; for sums, not for differences
 * whose digits matter (Crammer-Singer's sweeps, docs/results.md, the code's choices) */
inline gpusvm_wide gpusvm_w_addf(gpusvm_wide a, gpusvm_wide b)
{
    const gpusvm_wide s = gpusvm_w_two(a.hi, b.hi);
    return gpusvm_w_fast2(s.hi, s.lo + (a.lo + b.lo));
}
inline gpusvm_wide gpusvm_w_neg(gpusvm_wide a) { return gpusvm_w_make(-a.hi, -a.lo); }
inline gpusvm_wide gpusvm_w_sub(gpusvm_wide a, gpusvm_wide b) { return gpusvm_w_add(a, gpusvm_w_neg(b)); }
/* a * f (f a float: the products of a kernel value) */
inline gpusvm_wide gpusvm_w_mulf(gpusvm_wide a, float f)
{
    const float p = a.hi * f;
    if (!isfinite(p)) return gpusvm_w_make(p, 0.0f);
    return gpusvm_w_fast2(p, fma(a.hi, f, -p) + a.lo * f);
}
inline gpusvm_wide gpusvm_w_mul(gpusvm_wide a, gpusvm_wide b)
{
    const float p = a.hi * b.hi;
    if (!isfinite(p)) return gpusvm_w_make(p, 0.0f);
    return gpusvm_w_fast2(p, fma(a.hi, b.hi, -p) + (a.hi * b.lo + a.lo * b.hi));
}
/* s + a * f for the long sums (the gradient update, decision values): the product's and the
 * sum's rounding errors gathered in lo, as the sums of Ogita, Rump and Oishi (2005) do: an error
 * bound relative to the sum of the terms' magnitudes, as double's own summation has, in half the
 * operations of gpusvm_w_add (docs/results.md, the code's choices) */
inline gpusvm_wide gpusvm_w_acc(gpusvm_wide s, gpusvm_wide a, float f)
{
    const float p = a.hi * f;
    const gpusvm_wide t = gpusvm_w_two(s.hi, p);
    return gpusvm_w_fast2(t.hi, t.lo + (s.lo + (fma(a.hi, f, -p) + a.lo * f)));
}
/* gpusvm_w_acc without its last step: s.hi the running float sum, s.lo every rounding error
 * gathered (Ogita, Rump and Oishi's Sum2), renormalized once after the last term by
 * GPUSVM_W_NORM; for short sums kept in registers (Crammer-Singer's responses: the sum's
 * dependent steps 4 instead of 6) */
inline gpusvm_wide gpusvm_w_acc_raw(gpusvm_wide s, gpusvm_wide a, float f)
{
    const float p = a.hi * f;
    const gpusvm_wide t = gpusvm_w_two(s.hi, p);
    return gpusvm_w_make(t.hi, s.lo + (t.lo + (fma(a.hi, f, -p) + a.lo * f)));
}
/* gpusvm_w_addf without its last step, as gpusvm_w_acc_raw: s.hi the running float sum, s.lo
 * every rounding error and every term's lo gathered; GPUSVM_W_NORM after the last term */
inline gpusvm_wide gpusvm_w_addf_raw(gpusvm_wide s, gpusvm_wide a)
{
    const gpusvm_wide t = gpusvm_w_two(s.hi, a.hi);
    return gpusvm_w_make(t.hi, s.lo + (t.lo + a.lo));
}
inline gpusvm_wide gpusvm_w_div(gpusvm_wide a, gpusvm_wide b)
{
    const float q1 = a.hi / b.hi;
    if (!isfinite(q1) || b.hi == 0.0f) return gpusvm_w_make(q1, 0.0f);
    const gpusvm_wide r = gpusvm_w_sub(a, gpusvm_w_mulf(b, q1)); /* the remainder, nearly exact */
    return gpusvm_w_fast2(q1, r.hi / b.hi);
}
/* the product of two floats, exactly */
inline gpusvm_wide gpusvm_w_prod(float a, float b)
{
    const float p = a * b;
    return gpusvm_w_make(p, fma(a, b, -p));
}
inline int gpusvm_w_lt(gpusvm_wide a, gpusvm_wide b) { return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo); }
inline int gpusvm_w_le(gpusvm_wide a, gpusvm_wide b) { return a.hi < b.hi || (a.hi == b.hi && a.lo <= b.lo); }
inline int gpusvm_w_eq(gpusvm_wide a, gpusvm_wide b) { return a.hi == b.hi && a.lo == b.lo; }
inline gpusvm_wide gpusvm_w_max(gpusvm_wide a, gpusvm_wide b) { return gpusvm_w_lt(a, b) ? b : a; }
inline gpusvm_wide gpusvm_w_min(gpusvm_wide a, gpusvm_wide b) { return gpusvm_w_lt(b, a) ? b : a; }
/* an int, exactly */
inline gpusvm_wide gpusvm_w_int(int i)
{
    const float h = (float)i;
    return gpusvm_w_make(h, (float)(i - (int)h));
}
/* an integral value as an int */
inline int gpusvm_w_toi(gpusvm_wide a) { return (int)((long)a.hi + (long)a.lo); }

/* A double's bits as a pair: hi its first 24 significant bits, lo the rest (rounded to 24),
 * then rounded to the nearest form; outside float's range infinity or zero. */
inline gpusvm_wide gpusvm_w_ld(gpusvm_wbits b)
{
    const uint s = b.hi & 0x80000000u, e = (b.hi >> 20) & 0x7FFu;
    const int ex = (int)e - 1023;
    if (e == 0x7FFu) /* infinity, NaN */
        return gpusvm_w_make(as_float(s | 0x7F800000u | (((b.hi & 0xFFFFFu) | b.lo) ? 0x400000u : 0u)), 0.0f);
    if (ex > 127) return gpusvm_w_make(as_float(s | 0x7F800000u), 0.0f);
    if (ex < -126) return gpusvm_w_make(as_float(s), 0.0f);
    const float hi = as_float(s | ((uint)(ex + 127) << 23) | ((b.hi & 0xFFFFFu) << 3) | (b.lo >> 29));
    const float lo = ldexp((float)(b.lo & 0x1FFFFFFFu), ex - 52);
    return gpusvm_w_fast2(hi, s ? -lo : lo);
}
/* A pair as a double's bits, to the nearest double (hi's exponent, hi's significand widened, lo
 * added in units of the double's last place). */
inline gpusvm_wbits gpusvm_w_st(gpusvm_wide a)
{
    const uint hb = as_uint(a.hi), s = hb & 0x80000000u, e = (hb >> 23) & 0xFFu;
    gpusvm_wbits r;
    r.lo = 0u;
    if (e == 0xFFu) { /* infinity, NaN */
        r.hi = s | 0x7FF00000u | ((hb & 0x7FFFFFu) ? 0x80000u : 0u);
        return r;
    }
    if (e == 0u) { /* zero (a float below the normal range counts as zero) */
        r.hi = s;
        return r;
    }
    int ex = (int)e - 127;
    long m = (long)(0x800000u | (hb & 0x7FFFFFu)) << 29; /* 53 bits */
    const long d = (long)rint(ldexp(a.lo, 52 - ex));   /* |d| <= 2^28 */
    m += s ? -d : d;
    if (m >= (1L << 53)) {
        m >>= 1;
        ++ex;
    } else if (m < (1L << 52)) {
        m <<= 1;
        --ex;
    }
    r.hi = s | ((uint)(ex + 1023) << 20) | ((uint)(m >> 32) & 0xFFFFFu);
    r.lo = (uint)m;
    return r;
}
#define GPUSVM_W_LD(b) gpusvm_w_ld(b)
#define GPUSVM_W_ST(a) gpusvm_w_st(a)
#define GPUSVM_W_BITS(b) (((ulong)(b).hi << 32) | (ulong)(b).lo) /* as_ulong of a stored double */
#define GPUSVM_W_F(f) gpusvm_w_make((f), 0.0f)                    /* from a float (or a constant float holds) */
#define GPUSVM_W_I(i) gpusvm_w_int(i)
#define GPUSVM_W_TOF(a) ((a).hi)
#define GPUSVM_W_TOI(a) gpusvm_w_toi(a)
#define GPUSVM_W_ADD(a, b) gpusvm_w_add((a), (b))
#define GPUSVM_W_ADDF(a, b) gpusvm_w_addf((a), (b)) /* a sum's step */
#define GPUSVM_W_SUB(a, b) gpusvm_w_sub((a), (b))
#define GPUSVM_W_MUL(a, b) gpusvm_w_mul((a), (b))
#define GPUSVM_W_MULF(a, f) gpusvm_w_mulf((a), (f))
#define GPUSVM_W_ACC(s, a, f) gpusvm_w_acc((s), (a), (f)) /* s + a * f, f a float: the long sums */
#define GPUSVM_W_ACC_RAW(s, a, f) gpusvm_w_acc_raw((s), (a), (f)) /* the same, renormalized at the end: */
#define GPUSVM_W_NORM(s) gpusvm_w_fast2((s).hi, (s).lo)             /* the sum of GPUSVM_W_ACC_RAW steps */
#define GPUSVM_W_ADDF_RAW(s, a) gpusvm_w_addf_raw((s), (a)) /* a sum's step, renormalized at the end */
#define GPUSVM_W_DIV(a, b) gpusvm_w_div((a), (b))
#define GPUSVM_W_NEG(a) gpusvm_w_neg(a)
#define GPUSVM_W_FMAF(a, b, c) gpusvm_w_add((c), gpusvm_w_prod((a), (b))) /* a * b + c, a and b floats */
#define GPUSVM_W_LT(a, b) gpusvm_w_lt((a), (b))
#define GPUSVM_W_GT(a, b) gpusvm_w_lt((b), (a))
#define GPUSVM_W_LE(a, b) gpusvm_w_le((a), (b))
#define GPUSVM_W_GE(a, b) gpusvm_w_le((b), (a))
#define GPUSVM_W_EQ(a, b) gpusvm_w_eq((a), (b))
#define GPUSVM_W_MAX(a, b) gpusvm_w_max((a), (b))
#define GPUSVM_W_MIN(a, b) gpusvm_w_min((a), (b))
#define GPUSVM_W_TAU gpusvm_w_make(1e-12f, 3.9958026e-21f) /* part 0's tau, 1e-12 as a pair */
/* v stored, but as b0's bits where v is w0 (b0 loaded), else b1's where it is w1: a pair holds 48
 * of a double's 53 bits, so a value the kernel left as it was, or put at a bound it loaded (alpha
 * = C), goes back as the very double the host wrote, which the host tests with == */
#define GPUSVM_W_ST_EXACT(v, w0, b0, w1, b1) \
    (GPUSVM_W_EQ((v), (w0)) ? (b0) : GPUSVM_W_EQ((v), (w1)) ? (b1) : GPUSVM_W_ST(v))
#else
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double gpusvm_wide;
typedef double gpusvm_wbits;
#define GPUSVM_W_LD(b) (b)
#define GPUSVM_W_ST(a) (a)
#define GPUSVM_W_BITS(b) as_ulong(b)
#define GPUSVM_W_F(f) ((double)(f))
#define GPUSVM_W_I(i) ((double)(i))
#define GPUSVM_W_TOF(a) ((float)(a))
#define GPUSVM_W_TOI(a) ((int)(a))
#define GPUSVM_W_ADD(a, b) ((a) + (b))
#define GPUSVM_W_ADDF(a, b) ((a) + (b))
#define GPUSVM_W_SUB(a, b) ((a) - (b))
#define GPUSVM_W_MUL(a, b) ((a) * (b))
#define GPUSVM_W_MULF(a, f) ((a) * (double)(f))
#define GPUSVM_W_ACC(s, a, f) ((s) + (a) * (double)(f))
#define GPUSVM_W_ACC_RAW(s, a, f) ((s) + (a) * (double)(f))
#define GPUSVM_W_NORM(s) (s)
#define GPUSVM_W_ADDF_RAW(s, a) ((s) + (a))
#define GPUSVM_W_DIV(a, b) ((a) / (b))
#define GPUSVM_W_NEG(a) (-(a))
#define GPUSVM_W_FMAF(a, b, c) fma((double)(a), (double)(b), (c))
#define GPUSVM_W_LT(a, b) ((a) < (b))
#define GPUSVM_W_GT(a, b) ((a) > (b))
#define GPUSVM_W_LE(a, b) ((a) <= (b))
#define GPUSVM_W_GE(a, b) ((a) >= (b))
#define GPUSVM_W_EQ(a, b) ((a) == (b))
#define GPUSVM_W_MAX(a, b) fmax((a), (b))
#define GPUSVM_W_MIN(a, b) fmin((a), (b))
#define GPUSVM_W_TAU GPUSVM__TAU
#define GPUSVM_W_ST_EXACT(v, w0, b0, w1, b1) (v)
#endif
/* a problem's status word (part 0's shared header) as an int, and whether it still runs */
#define GPUSVM_W_STI(st, w) GPUSVM_W_TOI(GPUSVM_W_LD((st)[w]))
#define GPUSVM_RUNNING(st) (GPUSVM_W_STI(st, GPUSVM__ST_DONE) == GPUSVM__DONE_RUNNING)

/* Sub-group ("warp") exchanges where the device has them. The host defines one of
 *   GPUSVM_NV_SHFL   NVIDIA: PTX's shfl.sync butterfly, within a warp of 32 consecutive work-items;
 *   GPUSVM_SG_KHR    cl_khr_subgroup_shuffle's sub_group_shuffle_xor (OpenCL C 2.0 and later);
 *   GPUSVM_SG_INTEL  cl_intel_subgroups' intel_sub_group_shuffle_xor;
 * the kernels that exchange built for one width where cl_intel_required_subgroup_size can fix it
 * (GPUSVM_SG_REQD, GPUSVM_SG_ATTR), else built for the width the host expects and checked once
 * built;
 * with GPUSVM_WARP the sub-group's width (the host's: 32 on NVIDIA, the wavefront on AMD, the
 * width Intel's kernels are built for), the 1-D work-groups cut into sub-groups of consecutive
 * work-items. Then GPUSVM_SHFL is defined, and a work-group reduction becomes log2(GPUSVM_WARP)
 * exchanges per sub-group and one fold of the partials in local memory (one barrier) instead of
 * log2(GPUSVM__L) rounds through local memory with a barrier each. Every work-item of a
 * sub-group must make the call. Without any, the kernels use plain local-memory trees (any
 * OpenCL 1.2 device). */
#if defined(GPUSVM_NV_SHFL) || defined(GPUSVM_SG_KHR) || defined(GPUSVM_SG_INTEL)
#define GPUSVM_SHFL 1
#ifndef GPUSVM_WARP
#define GPUSVM_WARP 32
#endif
#endif
#if defined(GPUSVM_SG_INTEL)
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
#endif
#if defined(GPUSVM_SG_REQD) /* the width fixed (cl_intel_required_subgroup_size), else the host checks it */
#define GPUSVM_SG_ATTR __attribute__((intel_reqd_sub_group_size(GPUSVM_WARP)))
#else
#define GPUSVM_SG_ATTR
#endif
#if defined(GPUSVM_NV_SHFL)
inline int gpusvm_xor_i(int v, int m)
{
    int r;
    asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(m));
    return r;
}
#elif defined(GPUSVM_SG_KHR)
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#pragma OPENCL EXTENSION cl_khr_subgroup_shuffle : enable
inline int gpusvm_xor_i(int v, int m) { return sub_group_shuffle_xor(v, (uint)m); }
#elif defined(GPUSVM_SG_INTEL)
inline int gpusvm_xor_i(int v, int m) { return intel_sub_group_shuffle_xor(v, (uint)m); }
#endif
/* A double through a 32-bit exchange fn(word, a), word by word. */
#define GPUSVM_EXCHANGE_D(name, fn)                 \
    inline double name(double v, int a)             \
    {                                               \
        int2 w = as_int2(v);                        \
        w.x = fn(w.x, a);                           \
        w.y = fn(w.y, a);                           \
        return as_double(w);                        \
    }
#if defined(GPUSVM_NV_SHFL) && !defined(GPUSVM_NO_FP64)
/* v of lane src of the warp, in every lane (all call it) */
inline int gpusvm_lane_i(int v, int src)
{
    int r;
    asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(src));
    return r;
}
GPUSVM_EXCHANGE_D(gpusvm_lane_w, gpusvm_lane_i)
#endif
#ifdef GPUSVM_SHFL
inline float gpusvm_xor_f(float v, int m) { return as_float(gpusvm_xor_i(as_int(v), m)); }
#ifdef GPUSVM_NO_FP64
inline gpusvm_wide gpusvm_xor_w(gpusvm_wide v, int m)
{
    return gpusvm_w_make(gpusvm_xor_f(v.hi, m), gpusvm_xor_f(v.lo, m));
}
#else
GPUSVM_EXCHANGE_D(gpusvm_xor_w, gpusvm_xor_i)
#endif
#endif

/* Warp reductions in one instruction where the device has them: the host defines
 * GPUSVM_NV_REDUX (with GPUSVM_NV_SHFL) for NVIDIA devices of compute capability 8.0 and
 * later, whose PTX redux.sync takes the maximum of a 32-bit word over the warp at once. An
 * arg-max of (wide, position) pairs then takes three of them instead of five rounds of
 * three exchanges: the value's order key's high word, its low word among the lanes that hold
 * that high word, the position among the lanes that hold both. */
#ifdef GPUSVM_NV_REDUX
inline uint gpusvm_redux_max(uint v)
{
    uint r;
    asm volatile("redux.sync.max.u32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(v));
    return r;
}
/* Order-preserving map wide -> ulong through the double's bits (a < b <=> key(a) < key(b); -0
 * as +0, as == has them equal) and back (the zero comes back +0). */
inline ulong gpusvm_wide_key(gpusvm_wide v)
{
#ifdef GPUSVM_NO_FP64
    ulong b = GPUSVM_W_BITS(gpusvm_w_st(v));
    b = (b << 1) ? b : 0UL;
#else
    const ulong b = as_ulong(v + 0.0);
#endif
    return (b >> 63) ? ~b : (b | 0x8000000000000000UL);
}
inline gpusvm_wide gpusvm_key_wide(ulong k)
{
    const ulong b = (k >> 63) ? (k & 0x7FFFFFFFFFFFFFFFUL) : ~k;
#ifdef GPUSVM_NO_FP64
    gpusvm_wbits w;
    w.lo = (uint)b;
    w.hi = (uint)(b >> 32);
    return gpusvm_w_ld(w);
#else
    return as_double(b);
#endif
}
#endif

/* The kernels' helper functions are always inlined: they take pointers to the caller's
 * registers and local arrays, which must stay registers and plain local arrays. (A local struct
 * for the inner solve's working set, and functions for the selection's extrema, kept half and
 * final sort, were slower (docs/results.md, the code's choices); those stay in the kernels.) */
#ifndef GPUSVM_INLINE /* tests/kernels/oclgrind.sh's simulator builds them as plain inline functions */
#define GPUSVM_INLINE inline __attribute__((always_inline))
#endif

/* sc[0..GPUSVM__L) := its inclusive prefix sums in work-item order (Hillis and Steele), once every
 * work-item has written its own word; every work-item calls it (the row cache, the selection's
 * threshold, the update's nonzero coefficients). */
GPUSVM_INLINE void gpusvm_scan_local(__local int *sc)
{
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int off = 1; off < GPUSVM__L; off *= 2) {
        const int v = (int)get_local_id(0) >= off ? sc[(int)get_local_id(0) - off] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        sc[get_local_id(0)] += v;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* This work-item's global writes and atomics before it are seen by every work-group before
 * those after it (OpenCL 1.2's mem_fence names no scope; on NVIDIA, PTX's device-wide membar.gl).
 * A grid kernel's last work-group to arrive reads what the others wrote (part 2). */
#ifdef GPUSVM_NV_SHFL
#define GPUSVM_FENCE_DEVICE()                     \
    do {                                          \
        mem_fence(CLK_GLOBAL_MEM_FENCE);          \
        asm volatile("membar.gl;" ::: "memory"); \
    } while (0)
#else
#define GPUSVM_FENCE_DEVICE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif

/* The shared column of point k of a problem: through the map (one-vs-one
 * pairs: two runs of class-grouped points; folds: the rows they keep), or
 * the identity when the batch has no map. */
#define GPUSVM_COL(map, use_map, pt, k) ((use_map) ? (map)[(pt) + (k)] : (pt) + (k))

/* A gradient's sum, sum += lc[t] K[ls[t] ldk] for t = 0 .. cnt - 1 in order, GPUSVM_UPD_U rows read
   ahead (a round's update is bound by reading the rows): gpusvm_update's and gpusvm_smo_item's, one
   loop, so that every compiler gives both the same bits (Intel's CPU runtime did not for a plain
   loop beside this one). lc and ls: the nonzero coefficients and their rows, local or private. */
#define GPUSVM_UPD_U 4
#define GPUSVM_UPD_SUM(sum, lc, ls, cnt, K, ldk)                                                     \
    do {                                                                                            \
        int t_ = 0;                                                                                 \
        for (; t_ + GPUSVM_UPD_U <= (cnt); t_ += GPUSVM_UPD_U) {                                    \
            float k_[GPUSVM_UPD_U];                                                                 \
            for (int u_ = 0; u_ < GPUSVM_UPD_U; ++u_) k_[u_] = (K)[(size_t)(ls)[t_ + u_] * (ldk)];   \
            for (int u_ = 0; u_ < GPUSVM_UPD_U; ++u_) (sum) = GPUSVM_W_ACC((sum), (lc)[t_ + u_], k_[u_]); \
        }                                                                                           \
        for (; t_ < (cnt); ++t_) (sum) = GPUSVM_W_ACC((sum), (lc)[t_], (K)[(size_t)(ls)[t_] * (ldk)]); \
    } while (0)

/* Order-preserving map float -> uint: a < b  <=>  key(a) < key(b), and back. */
inline uint gpusvm_float_key(float v)
{
    uint b = as_uint(v);
    return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}
inline float gpusvm_key_float(uint k) { return as_float((k & 0x80000000u) ? (k & 0x7FFFFFFFu) : ~k); }
