/* gpusvm kernels, part 0: definitions shared by every kernel.
 *
 * The files in kernels/ are concatenated in name order into one OpenCL C 1.2
 * program, after kernels/00_shared.h: the constants, tunables and argument
 * lists the host shares (the host passes GPUSVM__Q, the working-set capacity,
 * and GPUSVM__L, the local size of the single-work-group kernels, as build
 * options).
 *
 * Precision: kernel values are float; dual variables, gradients and every sum
 * that feeds them are double (cl_khr_fp64 is required and checked by the host).
 * Contraction is off so that the plain-C backend reproduces these kernels
 * operation for operation; only gpusvm_rows' dot products use fma(), on
 * purpose (part 1 says why).
 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

/* Warp exchanges where the device has them. The host defines GPUSVM_NV_SHFL
 * for NVIDIA devices, whose 1-D work-groups are cut into warps of 32
 * consecutive work-items: PTX's shfl.sync butterfly exchanges registers
 * within a warp, so a work-group reduction becomes five exchanges per warp and
 * one fold of GPUSVM__L / 32 partials in local memory (one barrier) instead of
 * log2(GPUSVM__L) rounds through local memory with a barrier each. Every
 * work-item of a warp must make the call. Without it the kernels use plain
 * local-memory trees (any OpenCL 1.2 device). */
#ifdef GPUSVM_NV_SHFL
#define GPUSVM_WARP 32
inline int gpusvm_xor_i(int v, int m)
{
    int r;
    asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(m));
    return r;
}
inline double gpusvm_xor_d(double v, int m)
{
    int2 w = as_int2(v);
    w.x = gpusvm_xor_i(w.x, m);
    w.y = gpusvm_xor_i(w.y, m);
    return as_double(w);
}
#endif

/* Warp reductions in one instruction where the device has them: the host defines
 * GPUSVM_NV_REDUX (with GPUSVM_NV_SHFL) for NVIDIA devices of compute capability 8.0 and
 * later, whose PTX redux.sync takes the maximum of a 32-bit word over the warp at once. An
 * arg-max of (double, position) pairs then takes three of them instead of five rounds of
 * three exchanges: the double's order key's high word, its low word among the lanes that hold
 * that high word, the position among the lanes that hold both. */
#ifdef GPUSVM_NV_REDUX
inline uint gpusvm_redux_max(uint v)
{
    uint r;
    asm volatile("redux.sync.max.u32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(v));
    return r;
}
/* Order-preserving map double -> ulong (a < b <=> key(a) < key(b); -0 as +0, as == has them
 * equal) and back (the zero comes back +0). */
inline ulong gpusvm_double_key(double v)
{
    const ulong b = as_ulong(v + 0.0);
    return (b >> 63) ? ~b : (b | 0x8000000000000000UL);
}
inline double gpusvm_key_double(ulong k)
{
    return as_double((k >> 63) ? (k & 0x7FFFFFFFFFFFFFFFUL) : ~k);
}
#endif

/* The kernels' helper functions are always inlined: they take pointers to the caller's
 * registers and local arrays, which must stay registers and plain local arrays. (On an H100,
 * the inner solve's working set as one local struct cost 3%, and the selection's extrema,
 * kept half and final sort as functions cost it 10%; those stay in the kernels.) */
#define GPUSVM_INLINE inline __attribute__((always_inline))

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

/* k(x, z) from <x,z>, |x|^2 and |z|^2. */
inline float gpusvm_kfun(int type, float dot, float nx, float nz,
                         float gamma, float coef0, int degree)
{
    switch (type) {
    case GPUSVM__K_LINEAR:
        return dot;
    case GPUSVM__K_POLY:
        return pown(gamma * dot + coef0, degree);
    case GPUSVM__K_RBF: {
        float d2 = nx + nz - 2.0f * dot;
        return exp(-gamma * fmax(d2, 0.0f));
    }
    default:
        return tanh(gamma * dot + coef0);
    }
}

/* Order-preserving map float -> uint: a < b  <=>  key(a) < key(b). */
inline uint gpusvm_float_key(float v)
{
    uint b = as_uint(v);
    return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}
