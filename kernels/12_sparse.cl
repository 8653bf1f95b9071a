/* gpusvm kernels, part 1b: kernel rows of sparse points.
 *
 *   K[p qmax + slot[r]][i] = k(a_r, b_i)
 *
 * as gpusvm_rows_tiled (part 1), for points kept in CSR form: a_ptr/a_col/a_val
 * hold the rows' side (the training points, or the support vectors), and
 * b_ptr/b_col/b_val the columns' side (the training points again, or a block
 * of test points). Device memory is the nonzeros, whatever the feature count.
 *
 * A work-group takes GPUSVM__SPARSE_ROWS rows and GPUSVM__SPARSE_BLOCKS blocks of points. The
 * rows are the heavily reused side (every point meets them; Catanzaro's case
 * study keeps such a vector in fast memory): their nonzeros go into a hash
 * table in local memory, feature -> the GPUSVM__SPARSE_ROWS rows' values (zero where a
 * row lacks the feature), GPUSVM__SPARSE_HASH slots with linear probing, filled by
 * every work-item at once (atomic_cmpxchg on the key) and built once for all
 * the work-group's points. The points stream past it: GPUSVM__SPARSE_LANES work-items
 * per point (CSR-vector: they read a point's nonzeros side by side, so each
 * 32-byte sector is used whole and a long point holds up only its own lanes,
 * not a warp), each loading GPUSVM__SPARSE_AHEAD nonzeros ahead (the loads are the
 * latency; several in flight hide it), looking each feature up and on a hit
 * folding the value into its GPUSVM__SPARSE_ROWS partial sums with one vector read
 * from the table. A miss ends at the first empty slot; the table is at most
 * half full, so a miss costs about two probes. The lanes' partial sums are
 * then added, one row to each lane: by warp exchanges where the device has
 * them (part 0), else through local memory. Memory traffic is the points'
 * nonzeros once per GPUSVM__SPARSE_ROWS rows, not the n x d dense words of part 1.
 * (One slot per nonzero, which holds four times the nonzeros in the same
 * memory, was slower on text, whose rows fit one table; loads ahead, vector
 * reads of the table and a register cap changed nothing: docs/results.md, the code's choices.)
 *
 * Rows with more nonzeros than one table holds (GPUSVM__SPARSE_ENTRIES entries) are taken
 * in passes over the rows' entries in order. A pass ends at the last row start
 * or chunk boundary that fits (gpusvm_sp_pass_end): a row of at most
 * GPUSVM__SPARSE_ENTRIES nonzeros is never split, and a longer one is cut every
 * GPUSVM__SPARSE_ENTRIES entries from its own first, so where a row's sums are rounded
 * does not depend on the rows beside it (a row's values are the same bits in
 * any working set, in any group of rows). A row's pass after its first adds
 * the dot product kept in K by the one before (each work-item reads back only
 * what it wrote), and its last applies the kernel function.
 *
 * Precision: the products and their sums are wide (part 0: a float product
 * is exact in double and in a float pair), and so are the norms, so |x|^2 + |z|^2 - 2 x.z keeps its
 * digits where large feature values cancel (unscaled data: in float, a dot of
 * 10^6 is good to 0.06, a visible error in exp(-gamma d^2) for close points);
 * the kernel value is then rounded to float. Part 1 sums in float in feature
 * order, as the host sums the norms, so its rounding errors largely cancel
 * in d^2; here the lanes sum in another order and would not. (A pass after
 * the first reads the dot product back as float.) Sparse and dense rows agree
 * to rounding, as the C backend's do; each layout is deterministic. With
 * self a point against itself is exact, as in part 1.
 */
#if GPUSVM__SPARSE_LANES != GPUSVM__SPARSE_ROWS || GPUSVM__SPARSE_ROWS != 8
#error "gpusvm_rows_sparse: one row per lane in the sums' reduction and eight rows in a vector read"
#endif
/* the local id, read afresh wherever used (PoCL 3.1; see part 3) */
#define GPUSVM_SP_LID ((int)get_local_id(0))
/* points per block and per work-group */
#define GPUSVM_SP_BLOCK (GPUSVM__SPARSE_L / GPUSVM__SPARSE_LANES)
#define GPUSVM_SP_PTS (GPUSVM_SP_BLOCK * GPUSVM__SPARSE_BLOCKS)
/* Fibonacci hashing: the top GPUSVM__SPARSE_HASH_LOG bits of c times 2^32 / phi */
#define GPUSVM_SP_HASH(c) ((((uint)(c)) * 2654435761u) >> (32 - GPUSVM__SPARSE_HASH_LOG))
/* the point (CSR row) of position r of problem p's working set */
#define GPUSVM_SP_ROW(r) GPUSVM_COL(map, use_map, pt, GPUSVM__PT(idx[p * qmax + row_off + r0 + (r)], split))
/* the point (CSR row) of column i: b_mode 0, the problem's point i; 2, its working set's position i
   (the q x q block of the inner solve beside the rows, with the bits the rows have) */
#define GPUSVM_SP_COL(i) \
    (b_mode == 2 ? GPUSVM_COL(map, use_map, pt, GPUSVM__PT(idx[p * qmax + (i)], split)) : GPUSVM_COL(map, use_map, pt, i))

/* The table := entries [e0, e1) of the rows' concatenated nonzeros (row by row). */
GPUSVM_INLINE void gpusvm_sp_fill(__local int *hkey, __local float *hval, int e0, int e1, __global const int *a_ptr,
                                  __global const int *a_col, __global const float *a_val, __global const int *idx,
                                  __global const int *map, int use_map, int pt, int split, int p, int qmax, int row_off,
                                  int r0)
{
    barrier(CLK_LOCAL_MEM_FENCE); /* the last pass's readers are done */
    for (int s = GPUSVM_SP_LID; s < GPUSVM__SPARSE_HASH; s += GPUSVM__SPARSE_L) hkey[s] = -1;
    for (int s = GPUSVM_SP_LID; s < GPUSVM__SPARSE_HASH * GPUSVM__SPARSE_ROWS; s += GPUSVM__SPARSE_L) hval[s] = 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int e = e0 + GPUSVM_SP_LID; e < e1; e += GPUSVM__SPARSE_L) {
        int r = 0, k = e, ca = GPUSVM_SP_ROW(0), len = a_ptr[ca + 1] - a_ptr[ca];
        while (k >= len) { /* the row that holds entry e */
            k -= len;
            ++r;
            ca = GPUSVM_SP_ROW(r);
            len = a_ptr[ca + 1] - a_ptr[ca];
        }
        const int c = a_col[a_ptr[ca] + k];
        uint s = GPUSVM_SP_HASH(c);
        for (;;) {
            const int old = atomic_cmpxchg(&hkey[s], -1, c);
            if (old == -1 || old == c) break;
            s = (s + 1) & (GPUSVM__SPARSE_HASH - 1);
        }
        hval[s * GPUSVM__SPARSE_ROWS + r] = a_val[a_ptr[ca] + k];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* The end of the pass that starts at entry e0 of the rows' concatenated nonzeros (row r's are
   [beg[r], beg[r + 1])): the largest row start or point GPUSVM__SPARSE_ENTRIES entries into a row past e0 and at
   most GPUSVM__SPARSE_ENTRIES entries after it, or the last entry. */
GPUSVM_INLINE int gpusvm_sp_pass_end(const int *beg, int nr, int e0)
{
    const int lim = min(e0 + GPUSVM__SPARSE_ENTRIES, beg[nr]);
    int e1 = lim == beg[nr] ? lim : e0;
    for (int r = 0; r < nr; ++r) {
        if (beg[r + 1] <= lim) e1 = max(e1, beg[r + 1]);
        else if (beg[r] <= lim) e1 = max(e1, beg[r] + (lim - beg[r]) / GPUSVM__SPARSE_ENTRIES * GPUSVM__SPARSE_ENTRIES);
    }
    return e1;
}

/* k(x, z) from <x,z>, |x|^2 and |z|^2, wide (gpusvm__kfun's cases) */
inline float gpusvm_kfun_w(int type, gpusvm_wide dot, gpusvm_wide nx, gpusvm_wide nz, float gamma, float coef0,
                           int degree)
{
    if (type == GPUSVM__K_RBF)
        return exp(-gamma * GPUSVM_W_TOF(GPUSVM_W_MAX(GPUSVM_W_SUB(GPUSVM_W_ADD(nx, nz), GPUSVM_W_MULF(dot, 2.0f)),
                                                      GPUSVM_W_F(0.0f))));
    return gpusvm__kfun(type, GPUSVM_W_TOF(dot), GPUSVM_W_TOF(nx), GPUSVM_W_TOF(nz), gamma, coef0, degree);
}

/* acc += the products of this lane's nonzeros of a point, [k, kb1) in steps of GPUSVM__SPARSE_LANES */
GPUSVM_INLINE void gpusvm_sp_scan(gpusvm_wide *acc, int k, int kb1, __global const int *b_col, __global const float *b_val,
                                  __local const int *hkey, __local const float *hval)
{
    for (; k < kb1; k += GPUSVM__SPARSE_LANES * GPUSVM__SPARSE_AHEAD) {
        int c[GPUSVM__SPARSE_AHEAD];
        float v[GPUSVM__SPARSE_AHEAD];
        for (int u = 0; u < GPUSVM__SPARSE_AHEAD; ++u) {
            const int kk = min(k + u * GPUSVM__SPARSE_LANES, kb1 - 1);
            c[u] = b_col[kk];
            v[u] = b_val[kk];
        }
        for (int u = 0; u < GPUSVM__SPARSE_AHEAD && k + u * GPUSVM__SPARSE_LANES < kb1; ++u) {
            uint s = GPUSVM_SP_HASH(c[u]);
            int h;
            while ((h = hkey[s]) != -1 && h != c[u]) s = (s + 1) & (GPUSVM__SPARSE_HASH - 1);
            if (h == c[u]) {
                const float8 w = vload8(s, hval);
                const float wv[GPUSVM__SPARSE_ROWS] = {w.s0, w.s1, w.s2, w.s3, w.s4, w.s5, w.s6, w.s7};
                for (int r = 0; r < GPUSVM__SPARSE_ROWS; ++r) acc[r] = GPUSVM_W_FMAF(v[u], wv[r], acc[r]);
            }
        }
    }
}

#ifdef GPUSVM_SHFL
/* The sum over a point's 8 lanes of acc[lane]: a butterfly that halves the values each step (lane
   bit 2: rows 0-3 or 4-7 kept, then bit 1, then bit 0); lanes are 8 consecutive work-items of a warp. */
GPUSVM_INLINE gpusvm_wide gpusvm_sp_lanes_sum(gpusvm_wide *acc)
{
    const int lane = GPUSVM_SP_LID % GPUSVM__SPARSE_LANES;
    for (int h = 4; h >= 1; h /= 2) {
        const int up = (lane & h) != 0;
        for (int r = 0; r < h; ++r) {
            const gpusvm_wide mine = up ? acc[r + h] : acc[r], other = up ? acc[r] : acc[r + h];
            acc[r] = GPUSVM_W_ADD(mine, gpusvm_xor_w(other, h));
        }
    }
    return acc[0];
}
#else
/* The same sums through local memory, GPUSVM__SPARSE_SUM_ROWS rows at a time (red: GPUSVM__SPARSE_L * GPUSVM__SPARSE_SUM_ROWS
   wide words): lane r of a point takes row r, adding the lanes in order. */
GPUSVM_INLINE gpusvm_wide gpusvm_sp_lanes_sum(gpusvm_wide *acc, __local gpusvm_wide *red)
{
    const int lane = GPUSVM_SP_LID % GPUSVM__SPARSE_LANES, base = GPUSVM_SP_LID / GPUSVM__SPARSE_LANES * GPUSVM__SPARSE_LANES;
    gpusvm_wide dot = GPUSVM_W_F(0.0f);
    for (int part = 0; part < GPUSVM__SPARSE_ROWS / GPUSVM__SPARSE_SUM_ROWS; ++part) {
        for (int r = 0; r < GPUSVM__SPARSE_SUM_ROWS; ++r) red[GPUSVM_SP_LID * GPUSVM__SPARSE_SUM_ROWS + r] = acc[part * GPUSVM__SPARSE_SUM_ROWS + r];
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lane / GPUSVM__SPARSE_SUM_ROWS == part)
            for (int l = 0; l < GPUSVM__SPARSE_LANES; ++l) dot = GPUSVM_W_ADD(dot, red[(base + l) * GPUSVM__SPARSE_SUM_ROWS + lane % GPUSVM__SPARSE_SUM_ROWS]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    return dot;
}
#endif

#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_ROWS_SPARSE)
__kernel __attribute__((reqd_work_group_size(GPUSVM__SPARSE_L, 1, 1))) GPUSVM_SG_ATTR
void gpusvm_rows_sparse(GPUSVM__ARGS_ROWS_SPARSE(GPUSVM__PARAM, GPUSVM__COMMA))
{
    __local int hkey[GPUSVM__SPARSE_HASH];
    __local float hval[GPUSVM__SPARSE_HASH * GPUSVM__SPARSE_ROWS];
#ifndef GPUSVM_SHFL
    __local gpusvm_wide red[GPUSVM__SPARSE_L * GPUSVM__SPARSE_SUM_ROWS];
#endif
    const int p = get_group_id(2), r0 = get_group_id(1) * GPUSVM__SPARSE_ROWS, first = get_group_id(0) * GPUSVM_SP_PTS;
    GPUSVM_ROWS_PROBLEM(p);
    const int hi = b_mode == 2 ? pi[GPUSVM__PI_Q] : nb; /* the block's columns end */
    const int nr = min(min(nrows, pi[GPUSVM__PI_Q] - row_off) - r0, GPUSVM__SPARSE_ROWS);
    /* uniform per work-group: no barrier is skipped by part of the group */
    if (!GPUSVM_RUNNING(status + p * GPUSVM__ST_COUNT)) return;
    if ((skip_whole && pi[GPUSVM__PI_WHOLE]) || nr <= 0 || first >= hi) return;

    int beg[GPUSVM__SPARSE_ROWS + 1]; /* row r's entries in the concatenation: [beg[r], beg[r + 1]) */
    beg[0] = 0;
    for (int r = 0; r < nr; ++r) {
        const int ca = GPUSVM_SP_ROW(r);
        beg[r + 1] = beg[r] + a_ptr[ca + 1] - a_ptr[ca];
    }
    /* the problem's own (a grid's differ); read after the rows' set-up: read at the kernel's start,
       it crashed Intel's CPU compiler (2026.2, in instruction selection) */
    const float gamma = GPUSVM_ROWS_GAMMA;
    for (int e0 = 0, e1 = 0, ps = 0; ps == 0 || e0 < beg[nr]; e0 = e1, ++ps) {
        e1 = gpusvm_sp_pass_end(beg, nr, e0);
        gpusvm_sp_fill(hkey, hval, e0, e1, a_ptr, a_col, a_val, idx, map, use_map, pt, split, p, qmax, row_off, r0);
        for (int blk = 0; blk < GPUSVM__SPARSE_BLOCKS; ++blk) {
            const int i = first + blk * GPUSVM_SP_BLOCK + GPUSVM_SP_LID / GPUSVM__SPARSE_LANES;
            const int cb = i < hi ? GPUSVM_SP_COL(i) : 0; /* the column's point */
            gpusvm_wide acc[GPUSVM__SPARSE_ROWS], dot;
            for (int r = 0; r < GPUSVM__SPARSE_ROWS; ++r) acc[r] = GPUSVM_W_F(0.0f);
            if (i < hi) {
                gpusvm_sp_scan(acc, b_ptr[cb] + GPUSVM_SP_LID % GPUSVM__SPARSE_LANES, b_ptr[cb + 1], b_col, b_val, hkey, hval);
            }
#ifdef GPUSVM_SHFL
            dot = gpusvm_sp_lanes_sum(acc);
#else
            dot = gpusvm_sp_lanes_sum(acc, red);
#endif
            { /* lane r of the point writes row r, in the passes that hold its entries (an empty row: the
                 pass that ends past its start, or the last) */
                const int r = GPUSVM_SP_LID % GPUSVM__SPARSE_LANES;
                const int mine = r < nr && (beg[r] < e1 || (beg[r] == e1 && e1 == beg[nr])) &&
                                 (beg[r + 1] > e0 || beg[r] >= e0);
                if (i < hi && mine) {
                    __global float *out = K + (size_t)(p * qmax + slot[p * qmax + row_off + r0 + r]) * ldk + i;
                    const int ca = GPUSVM_SP_ROW(r);
                    if (beg[r] < e0) dot = GPUSVM_W_ADD(dot, GPUSVM_W_F(*out));
                    if (beg[r + 1] > e1) *out = GPUSVM_W_TOF(dot);
                    else /* self: as part 1 */
                        *out = gpusvm_kfun_w(ktype, self && ca == cb ? GPUSVM_W_LD(norm_a[ca]) : dot,
                                             GPUSVM_W_LD(norm_a[ca]), GPUSVM_W_LD(norm_b[cb]), gamma, coef0, degree);
                }
            }
        }
    }
}
#endif
