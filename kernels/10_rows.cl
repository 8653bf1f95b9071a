/* gpusvm kernels, part 1: kernel rows for an index set, for every problem of
 * a batch at once (grid dimension 2 is the problem).
 *
 *   K[p qmax + slot[r]][i] = k(A[:, col(idx[r])], B[:, col(i)])
 *
 * for positions r of problem p's working set in [row_off, row_off + nrows)
 * (clipped to its working-set size) and its points i < npts. With skip_whole
 * a problem whose working set is every variable (its rows never change) does
 * nothing.
 *
 * Data is column-major with a padded pitch (seed 000, listings 3-7): feature f
 * of point i is X[f * pitch + i], pitch a multiple of 64, so adjacent
 * work-items read adjacent words. Feature count is padded to a multiple of
 * GPUSVM_TK with zero rows, so the inner loops need no bounds checks. The
 * problems share one copy of the points: a problem's point k is column
 * GPUSVM_COL(k); one-vs-one pairs map onto two contiguous runs of
 * class-grouped points, so the reads stay coalesced.
 *
 * idx holds variables; GPUSVM_PT maps them to points (epsilon-SVR).
 *
 * A precomputed kernel (ktype 4) has the kernel matrix itself as B, by
 * columns: k(a, b_i) for the point a of row r is feature a of point i,
 * B[a * pitch_b + i], so the row is one coalesced copy.
 *
 * Tiling: a 16x16 work-group computes a 128 (rows of the index set) x 128
 * (points) block; each work-item holds an 8x8 accumulator, so each pair of
 * words it reads from local memory feeds 4 fmas. The working-set vectors and
 * the point vectors are staged in local memory GPUSVM_TK features at a time
 * (seed 000, listing 7; seed 003, algorithm 1), so every global read is
 * coalesced and each staged word is reused 128 times. The products are
 * fused (fma: one instruction, one rounding), so these rows may differ from
 * the C backend's in the last bits, as exp() already makes them differ; the
 * tests compare rows with a tolerance and everything downstream of the rows
 * exactly.
 */
#define GPUSVM_TM 128
#define GPUSVM_TR 8 /* accumulator rows and columns per work-item: GPUSVM_TM / 16 */
#define GPUSVM_TK 16

__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void gpusvm_rows(__global const float *A, int pitch_a,
                 __global const int *idx, __global const float *norm_a,
                 __global const float *B, int pitch_b,
                 __global const float *norm_b, __global const int *pinfo,
                 __global const int *map, int use_map, int dpad,
                 __global const int *slot, int row_off, int nrows, int skip_whole,
                 __global float *K, int ldk, int qmax,
                 int ktype, float gamma, float coef0, int degree,
                 __global const double *status)
{
    __local float As[GPUSVM_TK][GPUSVM_TM + 1];
    __local float Bs[GPUSVM_TK][GPUSVM_TM];
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int tid = ly * 16 + lx;
    const int i0 = get_group_id(0) * GPUSVM_TM;
    const int r0 = get_group_id(1) * GPUSVM_TM;
    const int p = get_group_id(2);
    __global const int *pi = pinfo + p * GPUSVM_PI_COUNT;
    const int nb = pi[GPUSVM_PI_NPTS], split = pi[GPUSVM_PI_SPLIT], pt = pi[GPUSVM_PI_PT];
    const int nr = min(nrows, pi[GPUSVM_PI_Q] - row_off);
    const int ws = p * qmax;
    /* uniform per work-group: no barrier is skipped by part of the group */
    if (status[p * GPUSVM_ST_COUNT + GPUSVM_ST_DONE] != 0.0) return;
    if ((skip_whole && pi[GPUSVM_PI_WHOLE]) || r0 >= nr || i0 >= nb) return;
    if (ktype == GPUSVM_K_PRECOMPUTED) {
        for (int a = 0; a < GPUSVM_TR; ++a) {
            const int r = r0 + ly + 16 * a;
            if (r >= nr) break;
            const int pos = ws + row_off + r;
            const int pa = GPUSVM_COL(map, use_map, pt, GPUSVM_PT(idx[pos], split));
            __global float *out = K + (size_t)(ws + slot[pos]) * ldk;
            for (int b = 0; b < GPUSVM_TR; ++b) {
                const int i = i0 + lx + 16 * b;
                if (i < nb) out[i] = B[(size_t)pa * pitch_b + GPUSVM_COL(map, use_map, pt, i)];
            }
        }
        return;
    }

    /* Each work-item loads column (tid % 128) of both tiles: one index lookup each. */
    const int lr = tid % GPUSVM_TM;
    const int lf = tid / GPUSVM_TM; /* 0..1: features lf, lf+2, ..., lf+14 */
    const int ra = min(r0 + lr, nr - 1);
    const int col_a = GPUSVM_COL(map, use_map, pt, GPUSVM_PT(idx[ws + row_off + ra], split));
    const int col_b = GPUSVM_COL(map, use_map, pt, min(i0 + lr, nb - 1));

    float acc[GPUSVM_TR][GPUSVM_TR];
    for (int a = 0; a < GPUSVM_TR; ++a)
        for (int b = 0; b < GPUSVM_TR; ++b) acc[a][b] = 0.0f;

    for (int f0 = 0; f0 < dpad; f0 += GPUSVM_TK) {
        for (int t = 0; t < GPUSVM_TK / 2; ++t) {
            const int f = lf + 2 * t;
            As[f][lr] = A[(size_t)(f0 + f) * pitch_a + col_a];
            Bs[f][lr] = B[(size_t)(f0 + f) * pitch_b + col_b];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int f = 0; f < GPUSVM_TK; ++f) {
            float av[GPUSVM_TR], bv[GPUSVM_TR];
            for (int a = 0; a < GPUSVM_TR; ++a) av[a] = As[f][ly + 16 * a];
            for (int b = 0; b < GPUSVM_TR; ++b) bv[b] = Bs[f][lx + 16 * b];
            for (int a = 0; a < GPUSVM_TR; ++a)
                for (int b = 0; b < GPUSVM_TR; ++b) acc[a][b] = fma(av[a], bv[b], acc[a][b]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    for (int a = 0; a < GPUSVM_TR; ++a) {
        const int r = r0 + ly + 16 * a;
        if (r >= nr) break;
        const int pos = ws + row_off + r;
        const float na = norm_a[GPUSVM_COL(map, use_map, pt, GPUSVM_PT(idx[pos], split))];
        __global float *out = K + (size_t)(ws + slot[pos]) * ldk;
        for (int b = 0; b < GPUSVM_TR; ++b) {
            const int i = i0 + lx + 16 * b;
            if (i < nb)
                out[i] = gpusvm_kfun(ktype, acc[a][b], na, norm_b[GPUSVM_COL(map, use_map, pt, i)],
                                     gamma, coef0, degree);
        }
    }
}
