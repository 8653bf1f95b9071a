/* gpusvm kernels, part 0: definitions shared by every kernel.
 *
 * The files in kernels/ are concatenated in name order into one OpenCL C 1.2
 * program. The host defines, through build options:
 *   GPUSVM_Q   working-set capacity (power of two, sizes the local arrays)
 *   GPUSVM_L   local size of the single-work-group kernels (power of two)
 *
 * Precision: kernel values are float; dual variables, gradients and every sum
 * that feeds them are double (cl_khr_fp64 is required and checked by the host).
 * Contraction is off so that the plain-C backend reproduces these kernels
 * operation for operation; only gpusvm_rows' dot products use fma(), on
 * purpose (part 1 says why).
 */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

#ifndef GPUSVM_Q
#define GPUSVM_Q 1024
#endif
#ifndef GPUSVM_L
#define GPUSVM_L 256
#endif

/* Warp exchanges where the device has them. The host defines GPUSVM_NV_SHFL
 * for NVIDIA devices, whose 1-D work-groups are cut into warps of 32
 * consecutive work-items: PTX's shfl.sync butterfly exchanges registers
 * within a warp, so a work-group reduction becomes five exchanges per warp and
 * one fold of GPUSVM_L / 32 partials in local memory (one barrier) instead of
 * log2(GPUSVM_L) rounds through local memory with a barrier each. Every
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

/* Variables per work-item of gpusvm_keys (the host mirrors it: GPUSVM__KU). */
#define GPUSVM_KU 4

/* Kernel types, as in LIBSVM's -t option. */
#define GPUSVM_K_LINEAR  0
#define GPUSVM_K_POLY    1
#define GPUSVM_K_RBF     2
#define GPUSVM_K_SIGMOID 3
#define GPUSVM_K_PRECOMPUTED 4

/* Slots of the status vector (double) the host reads a few of per check. */
#define GPUSVM_ST_GAP     0 /* m(alpha) - M(alpha) of the last selection    */
#define GPUSVM_ST_DONE    1 /* 0 running, 1 converged, 2 max_iter reached  */
#define GPUSVM_ST_ITER    2 /* SMO pair updates so far (LIBSVM's #iter)     */
#define GPUSVM_ST_OUTER   3 /* outer iterations so far                      */
#define GPUSVM_ST_MUP     4 /* max of -y*G over I_up                         */
#define GPUSVM_ST_MLOW    5 /* min of -y*G over I_low                        */
#define GPUSVM_ST_INNER   6 /* pair updates of the last inner solve         */
#define GPUSVM_ST_COUNT   8

/* "no candidate" sort key: larger than every real key. */
#define GPUSVM_KEY_NONE 0xFFFFFFFFu

/* LIBSVM's tau: the curvature used where the kernel is not positive definite. */
#define GPUSVM_TAU 1e-12

/* The point a variable stands for: epsilon-SVR has two variables per point
 * (alpha and alpha*), 0..npts-1 and npts..2*npts-1; every other problem one. */
#define GPUSVM_PT(v, npts) ((v) >= (npts) ? (v) - (npts) : (v))

/* A batch: binary problems that share one uploaded set of points and are
 * solved together, one work-group (or one slice of the grid) per problem in
 * every launch (the pairs of one-vs-one, the folds of a cross-validation).
 * Per-variable arrays (alpha, G, y, C, the diagonal, the keys) are the
 * problems' concatenated; problem p's working set sits at p * qmax, its
 * kernel rows in slots p * qmax .., its partials at p * 2 * nparts_max, its
 * status at p * GPUSVM_ST_COUNT. The table gives each problem's place: */
#define GPUSVM_PI_VAR    0 /* its first variable in the concatenated arrays  */
#define GPUSVM_PI_NVAR   1 /* its variables                                  */
#define GPUSVM_PI_PT     2 /* its first point in the map                     */
#define GPUSVM_PI_NPTS   3 /* its points: the columns of its kernel rows      */
#define GPUSVM_PI_Q      4 /* its working-set size                            */
#define GPUSVM_PI_WHOLE  5 /* 1: the working set is every variable          */
#define GPUSVM_PI_NPARTS 6 /* work-groups of gpusvm_keys over its variables  */
#define GPUSVM_PI_SPLIT  7 /* variables from here on are the points again    */
#define GPUSVM_PI_COUNT  8

/* The shared column of point k of a problem: through the map (one-vs-one
 * pairs: two runs of class-grouped points; folds: the rows they keep), or
 * the identity when the batch has no map. */
#define GPUSVM_COL(map, use_map, pt, k) ((use_map) ? (map)[(pt) + (k)] : (pt) + (k))

/* k(x, z) from <x,z>, |x|^2 and |z|^2. */
inline float gpusvm_kfun(int type, float dot, float nx, float nz,
                         float gamma, float coef0, int degree)
{
    switch (type) {
    case GPUSVM_K_LINEAR:
        return dot;
    case GPUSVM_K_POLY:
        return pown(gamma * dot + coef0, degree);
    case GPUSVM_K_RBF: {
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
