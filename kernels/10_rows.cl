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
 * Data is column-major with a padded pitch (Catanzaro's OpenCL SVM case study, listings 3-7): feature f
 * of point i is X[f * pitch + i], pitch a multiple of 64, so adjacent
 * work-items read adjacent words. Feature count is padded to a multiple of
 * GPUSVM__FEAT_CHUNK with zero rows, so the inner loops need no bounds checks. The
 * problems share one copy of the points: a problem's point k is column
 * GPUSVM_COL(k); one-vs-one pairs map onto two contiguous runs of
 * class-grouped points, so the reads stay coalesced.
 *
 * idx holds variables; GPUSVM__PT maps them to points (epsilon-SVR).
 *
 * With a_pos, A is not the points but the working sets' own vectors, which
 * gpusvm_gather_ws copied out first: problem p's position r, feature f at
 * A[(p dpad + f) pitch_a + r]. Read through idx, row vectors are one word per
 * 32-byte sector (the points are column-major), and every 128-point tile
 * would read them again; gathered once per launch, the tiles read them
 * coalesced. (Prediction passes the support vectors, already contiguous.)
 *
 * With self (training: the rows' points and the columns' points are one
 * set), a point against itself takes its norm as the dot product, so k(x, x)
 * is exactly the diagonal the host computed from that norm (for RBF, 1), as
 * LIBSVM's is; summed in another order the dot could differ from the norm by
 * rounding, which on large feature values is a visible error in k(x, x).
 *
 * A precomputed kernel (ktype 4) has the kernel matrix itself as B, by
 * columns: k(a, b_i) for the point a of row r is feature a of point i,
 * B[a * pitch_b + i], so the row is one coalesced copy.
 *
 * Tiling: a 16x16 work-group computes a 128 (rows of the index set) x 128
 * (points) block; each work-item holds an 8x8 accumulator: rows 4 ly .. 4 ly + 3
 * and 64 + 4 ly .. of the block against points 4 lx .. and 64 + 4 lx .., so
 * that it reads its 8 + 8 staged words as four float4 (a warp's reads of one
 * float4 are 16 consecutive ones, no bank conflict) and each float4 it reads
 * feeds 16 fmas: the loop is bound by the fmas, not by local-memory reads.
 * The working-set vectors and
 * the point vectors are staged in local memory GPUSVM__FEAT_CHUNK features at a time
 * (Catanzaro's case study, listing 7; Cotter, Srebro and Keshet's GTSVM, algorithm 1), so every global read is
 * coalesced and each staged word is reused 128 times; the next chunk is
 * loaded into registers while the current one is computed. The products are
 * fused (fma: one instruction, one rounding), so these rows may differ from
 * the C backend's in the last bits, as exp() already makes them differ; the
 * tests compare rows with a tolerance and everything downstream of the rows
 * exactly.
 */
/* The columns of a launch (b_mode, b_off, b_end):
 *   0: the problem's points i < nb, B holding every point (GPUSVM_COL);
 *   1: a tile of them, points [b_off, b_end), B holding just those, in order
 *      (column i - b_off), each row written from its word 0: the points
 *      streamed through the device (host section, stream);
 *   2: the working set's positions i < its size, B holding their vectors as
 *      gpusvm_gather_ws writes them (problem p's at (p dpad + f) pitch_b + i):
 *      the q x q block of a streamed problem, with the bits its rows have.
 * GPUSVM_BLOCK_COL(i): B's column for i; GPUSVM_BLOCK_POINT(i): the point i stands for
 * (its norm, and the diagonal with self). Uses map, use_map, pt, idx, ws, split. */
#define GPUSVM_BLOCK_LO (b_mode == 1 ? b_off : 0)
#define GPUSVM_BLOCK_HI(nb, q) (b_mode == 1 ? min((nb), b_end) : b_mode == 2 ? (q) : (nb))
#define GPUSVM_BLOCK_COL(i) (b_mode == 0 ? GPUSVM_COL(map, use_map, pt, i) : (i) - GPUSVM_BLOCK_LO)
#define GPUSVM_BLOCK_POINT(i) \
    (b_mode == 2 ? GPUSVM_COL(map, use_map, pt, GPUSVM__PT(idx[ws + (i)], split)) : GPUSVM_COL(map, use_map, pt, i))

/* the block offset of a work-item's row (or point) a of 8: 4 l + a, then 64 + 4 l + a - 4 */
#define GPUSVM_TOFF(l, a) (((a) < 4 ? 0 : 60) + 4 * (l) + (a))

/* The tile's products (gpusvm_rows_tiled, gpusvm_rows_update): acc, a work-item's 8 x 8 of the
 * block, each the fma of the row's and the point's feature in feature order from 0; the
 * next chunk's words are loaded into registers while this one is computed. Uses A, B,
 * pitch_a, pitch_b, col_a, col_b (the column this work-item stages), dpad, and As, Bs in
 * local memory; lx, ly the local id, lr, lf the staged column and first feature. */
#define GPUSVM_TILE_DOTS(acc, lx, ly, lr, lf)                                                                    \
    float acc[GPUSVM__TILE_ACC][GPUSVM__TILE_ACC];                                                              \
    for (int a = 0; a < GPUSVM__TILE_ACC; ++a)                                                            \
        for (int b = 0; b < GPUSVM__TILE_ACC; ++b) acc[a][b] = 0.0f;                                      \
    float na_[GPUSVM__FEAT_CHUNK / 2], nb_[GPUSVM__FEAT_CHUNK / 2];                                                 \
    for (int t = 0; t < GPUSVM__FEAT_CHUNK / 2; ++t) {                                                      \
        na_[t] = A[(size_t)(lf + 2 * t) * pitch_a + col_a];                                         \
        nb_[t] = B[(size_t)(lf + 2 * t) * pitch_b + col_b];                                         \
    }                                                                                               \
    for (int f0 = 0; f0 < dpad; f0 += GPUSVM__FEAT_CHUNK) {                                                 \
        for (int t = 0; t < GPUSVM__FEAT_CHUNK / 2; ++t) {                                                  \
            ((__local float *)As[lf + 2 * t])[lr] = na_[t];                                         \
            ((__local float *)Bs[lf + 2 * t])[lr] = nb_[t];                                         \
        }                                                                                           \
        barrier(CLK_LOCAL_MEM_FENCE);                                                               \
        if (f0 + GPUSVM__FEAT_CHUNK < dpad)                                                                 \
            for (int t = 0; t < GPUSVM__FEAT_CHUNK / 2; ++t) {                                              \
                na_[t] = A[(size_t)(f0 + GPUSVM__FEAT_CHUNK + lf + 2 * t) * pitch_a + col_a];               \
                nb_[t] = B[(size_t)(f0 + GPUSVM__FEAT_CHUNK + lf + 2 * t) * pitch_b + col_b];               \
            }                                                                                       \
        for (int f = 0; f < GPUSVM__FEAT_CHUNK; ++f) {                                                      \
            const float4 a0 = As[f][ly], a1 = As[f][16 + ly], b0 = Bs[f][lx], b1 = Bs[f][16 + lx];  \
            const float av[GPUSVM__TILE_ACC] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};          \
            const float bv[GPUSVM__TILE_ACC] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};          \
            for (int a = 0; a < GPUSVM__TILE_ACC; ++a)                                                    \
                for (int b = 0; b < GPUSVM__TILE_ACC; ++b) acc[a][b] = fma(av[a], bv[b], acc[a][b]);      \
        }                                                                                           \
        barrier(CLK_LOCAL_MEM_FENCE);                                                               \
    }

/* The arguments of gpusvm_rows_tiled and gpusvm_rows_few: one list (part 0's shared header). */
#define GPUSVM_ROWS_PARAMS GPUSVM__ARGS_ROWS(GPUSVM__PARAM, GPUSVM__COMMA)

/* Problem p's entry of the problem table, decoded once for every rows kernel (gpusvm_rows_tiled,
   _narrow, _few, _sparse): pi, its row; nb, its points; split and pt, where its points begin
   (GPUSVM__PT, GPUSVM_COL). GPUSVM_ROWS_GAMMA: its gamma, the problem's own (a grid's differ). */
#define GPUSVM_ROWS_PROBLEM(p)                                                                         \
    __global const int *pi = pinfo + (p) * GPUSVM__PI_COUNT;                                           \
    const int nb = pi[GPUSVM__PI_NPTS], split = pi[GPUSVM__PI_SPLIT], pt = pi[GPUSVM__PI_PT]
#define GPUSVM_ROWS_GAMMA as_float(pi[GPUSVM__PI_GAMMA])

#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_ROWS)
__kernel __attribute__((reqd_work_group_size(GPUSVM__TILE_WI, GPUSVM__TILE_WI, 1)))
void gpusvm_rows_tiled(GPUSVM_ROWS_PARAMS)
{
    __local float4 As[GPUSVM__FEAT_CHUNK][GPUSVM__TILE / 4];
    __local float4 Bs[GPUSVM__FEAT_CHUNK][GPUSVM__TILE / 4];
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int tid = ly * GPUSVM__TILE_WI + lx;
    const int i0 = GPUSVM_BLOCK_LO + (int)get_group_id(0) * GPUSVM__TILE;
    const int r0 = get_group_id(1) * GPUSVM__TILE;
    const int p = get_group_id(2);
    GPUSVM_ROWS_PROBLEM(p);
    const float gamma = GPUSVM_ROWS_GAMMA;
    const int nr = min(nrows, pi[GPUSVM__PI_Q] - row_off), hi = GPUSVM_BLOCK_HI(nb, pi[GPUSVM__PI_Q]);
    const int ws = p * qmax;
    /* uniform per work-group: no barrier is skipped by part of the group */
    if (!GPUSVM_RUNNING(status + p * GPUSVM__ST_COUNT)) return;
    if ((skip_whole && pi[GPUSVM__PI_WHOLE]) || r0 >= nr || i0 >= hi) return;
    if (ktype == GPUSVM__K_PRECOMPUTED) {
        for (int a = 0; a < GPUSVM__TILE_ACC; ++a) {
            const int r = r0 + GPUSVM_TOFF(ly, a);
            if (r >= nr) break;
            const int pos = ws + row_off + r;
            const int pa = GPUSVM_COL(map, use_map, pt, GPUSVM__PT(idx[pos], split));
            __global float *out = K + (size_t)(ws + slot[pos]) * ldk;
            for (int b = 0; b < GPUSVM__TILE_ACC; ++b) {
                const int i = i0 + GPUSVM_TOFF(lx, b);
                if (i < hi) out[i - GPUSVM_BLOCK_LO] = B[(size_t)pa * pitch_b + GPUSVM_BLOCK_COL(i)];
            }
        }
        return;
    }

    /* Each work-item loads column (tid % 128) of both tiles: one index lookup each. */
    const int lr = tid % GPUSVM__TILE;
    const int lf = tid / GPUSVM__TILE; /* 0..1: features lf, lf+2, ..., lf+14 */
    const int ra = min(r0 + lr, nr - 1);
    const int col_a = a_pos ? row_off + ra : GPUSVM_COL(map, use_map, pt, GPUSVM__PT(idx[ws + row_off + ra], split));
    if (a_pos) A += (size_t)p * dpad * pitch_a;
    if (b_mode == 2) B += (size_t)p * dpad * pitch_b;
    const int col_b = GPUSVM_BLOCK_COL(min(i0 + lr, hi - 1));

    GPUSVM_TILE_DOTS(acc, lx, ly, lr, lf)

    for (int a = 0; a < GPUSVM__TILE_ACC; ++a) {
        const int r = r0 + GPUSVM_TOFF(ly, a);
        if (r >= nr) continue;
        const int pos = ws + row_off + r;
        const int ca = GPUSVM_COL(map, use_map, pt, GPUSVM__PT(idx[pos], split));
        const float na = norm_a[ca];
        __global float *out = K + (size_t)(ws + slot[pos]) * ldk;
        for (int b = 0; b < GPUSVM__TILE_ACC; ++b) {
            const int i = i0 + GPUSVM_TOFF(lx, b), cb = GPUSVM_BLOCK_POINT(min(i, hi - 1));
            if (i < hi)
                out[i - GPUSVM_BLOCK_LO] = gpusvm__kfun(ktype, self && ca == cb ? na : acc[a][b], na, norm_b[cb], gamma, coef0, degree);
        }
    }
}
#endif

/* Many rows of few features (dpad at most GPUSVM__NARROW_D): with one or two
 * feature chunks the tile above is held to one work-group per multiprocessor
 * by its 64 accumulators, and its fixed costs (set-up, the kernel function,
 * the results' writing) are not hidden. Here each work-item keeps one point's
 * features in registers, read once, coalesced (the column-major copy: seed
 * 001's transposed X, one work-item per point), and the work-group's
 * GPUSVM__NARROW_ROWS rows are staged in local memory feature-major, so one vector
 * read gives a feature of four rows (a broadcast: every work-item reads the
 * same word) and feeds four fmas. Each result is written by its own point's
 * work-item: a row's values leave as whole coalesced lines. The accumulation
 * is the tile's (fma of the row's and the point's feature, in feature order,
 * from 0), so both kernels give the same bits. Grid: points x groups of
 * GPUSVM__NARROW_ROWS rows x problems, work-groups of GPUSVM__NARROW_L.
 * The four rows' slots, points and norms come as one vector read each.
 * (Its shape against the tiles and its variants, by bench/micro.c:
 * docs/results.md, the code's choices.)
 */
#define GPUSVM_NAR_LX ((int)get_local_id(0))
#define GPUSVM_NAR_I (GPUSVM_BLOCK_LO + (int)get_global_id(0))

#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_ROWS_NARROW)
__kernel __attribute__((reqd_work_group_size(GPUSVM__NARROW_L, 1, 1)))
void gpusvm_rows_narrow(GPUSVM_ROWS_PARAMS)
{
    __local float4 As[GPUSVM__NARROW_D * GPUSVM__NARROW_ROWS / 4]; /* feature f of row r at f * GPUSVM__NARROW_ROWS + r */
    __local int row_k[GPUSVM__NARROW_ROWS], row_c[GPUSVM__NARROW_ROWS];
    __local float row_n[GPUSVM__NARROW_ROWS];
    const int p = get_group_id(2), r0 = get_group_id(1) * GPUSVM__NARROW_ROWS;
    GPUSVM_ROWS_PROBLEM(p);
    const float gamma = GPUSVM_ROWS_GAMMA;
    const int nr = min(nrows, pi[GPUSVM__PI_Q] - row_off), hi = GPUSVM_BLOCK_HI(nb, pi[GPUSVM__PI_Q]);
    const int ws = p * qmax;
    /* uniform per work-group */
    if (!GPUSVM_RUNNING(status + p * GPUSVM__ST_COUNT)) return;
    if ((skip_whole && pi[GPUSVM__PI_WHOLE]) || r0 >= nr || GPUSVM_BLOCK_LO + (int)get_group_id(0) * GPUSVM__NARROW_L >= hi)
        return;
    const int cnt = min(GPUSVM__NARROW_ROWS, nr - r0);
    if (a_pos) A += (size_t)p * dpad * pitch_a;
    for (int e = GPUSVM_NAR_LX; e < GPUSVM__NARROW_ROWS * dpad; e += GPUSVM__NARROW_L) { /* consecutive rows, one feature */
        const int r = e % GPUSVM__NARROW_ROWS, ra = r0 + min(r, cnt - 1);
        const int col_a =
            a_pos ? row_off + ra : GPUSVM_COL(map, use_map, pt, GPUSVM__PT(idx[ws + row_off + ra], split));
        ((__local float *)As)[e] = A[(size_t)(e / GPUSVM__NARROW_ROWS) * pitch_a + col_a];
    }
    if (GPUSVM_NAR_LX < GPUSVM__NARROW_ROWS) {
        const int ra = r0 + min(GPUSVM_NAR_LX, cnt - 1), pos = ws + row_off + ra;
        const int ca = GPUSVM_COL(map, use_map, pt, GPUSVM__PT(idx[pos], split));
        row_k[GPUSVM_NAR_LX] = ws + slot[pos];
        row_c[GPUSVM_NAR_LX] = ca;
        row_n[GPUSVM_NAR_LX] = norm_a[ca];
    }
    if (b_mode == 2) B += (size_t)p * dpad * pitch_b;
    const int cb = GPUSVM_BLOCK_POINT(min(GPUSVM_NAR_I, hi - 1)), rb = GPUSVM_BLOCK_COL(min(GPUSVM_NAR_I, hi - 1));
    const float nbi = norm_b[cb];
    float x[GPUSVM__NARROW_D];
    for (int f = 0; f < GPUSVM__NARROW_D; ++f) x[f] = f < dpad ? B[(size_t)f * pitch_b + rb] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int r = 0; r < cnt; r += 4) {
        float4 acc = (float4)(0.0f);
        for (int f = 0; f < GPUSVM__NARROW_D; ++f)
            if (f < dpad) acc = fma(As[(f * GPUSVM__NARROW_ROWS + r) / 4], (float4)(x[f]), acc);
        const float av[4] = {acc.x, acc.y, acc.z, acc.w};
        const int4 k4 = vload4(0, row_k + r), c4 = vload4(0, row_c + r);
        const float4 n4 = vload4(0, row_n + r);
        const int kk[4] = {k4.x, k4.y, k4.z, k4.w}, cc[4] = {c4.x, c4.y, c4.z, c4.w};
        const float nn[4] = {n4.x, n4.y, n4.z, n4.w};
        __global float *out = K + (GPUSVM_NAR_I - GPUSVM_BLOCK_LO);
        for (int u = 0; u < 4 && r + u < cnt; ++u) {
            if (GPUSVM_NAR_I < hi)
                out[(size_t)kk[u] * ldk] =
                    gpusvm__kfun(ktype, self && cc[u] == cb ? nn[u] : av[u], nn[u], nbi, gamma, coef0, degree);
        }
    }
}
#endif

/* A few rows (at most GPUSVM__FEW), Catanzaro's listing 7: where the tile
 * above would waste most of its arithmetic (two rows of a 128-row tile), each
 * work-item streams one point's features once, coalesced, and folds each
 * feature into every row's accumulator; the rows' vectors are staged in local
 * memory GPUSVM__FEW_FEAT features at a time and read back as one vector per
 * feature. The accumulation is the tile's (fma, in feature order), so both
 * kernels give the same bits. Same arguments as gpusvm_rows_tiled; grid: points x 1
 * x problems, work-groups of 256. The pass is bound by reading the points. */

/* the local id and the point, read afresh wherever used (PoCL 3.1 loses such variables across
 * barriers; see part 3) */
#define GPUSVM_FEW_LX ((int)get_local_id(0))
#define GPUSVM_FEW_I (GPUSVM_BLOCK_LO + (int)get_global_id(0))

/* FB features of the point loaded ahead, then folded into the NR rows */
#define GPUSVM_FEW_STEP(NR, VLOAD, VTYPE, FB)                                            \
    {                                                                                   \
        float x[FB];                                                                    \
        for (int u = 0; u < FB; ++u) x[u] = B[(size_t)(f0 + f + u) * pitch_b + col_b];  \
        for (int u = 0; u < FB; ++u) {                                                  \
            const VTYPE a = VLOAD(f + u, As);                                           \
            for (int r = 0; r < NR; ++r) acc[r] = fma(((const float *)&a)[r], x[u], acc[r]); \
        }                                                                               \
    }

/* dpad is a multiple of GPUSVM__FEAT_CHUNK (16): GPUSVM__FEW_AHEAD at a time, then 16 at a time */
#define GPUSVM_FEW_PASS(NR, VLOAD, VTYPE)                                                \
    for (int f0 = 0; f0 < dpad; f0 += GPUSVM__FEW_FEAT) {                                      \
        const int nf = min(GPUSVM__FEW_FEAT, dpad - f0);                                       \
        int f = 0;                                                                      \
        barrier(CLK_LOCAL_MEM_FENCE);                                                   \
        if (GPUSVM_FEW_LX < nf)                                                         \
            for (int r = 0; r < NR; ++r)                                                \
                As[GPUSVM_FEW_LX * NR + r] = A[(size_t)(f0 + GPUSVM_FEW_LX) * pitch_a + \
                                    (a_pos ? roff + min(r, nr - 1) : col_a[r])];     \
        barrier(CLK_LOCAL_MEM_FENCE);                                                   \
        for (; f + GPUSVM__FEW_AHEAD <= nf; f += GPUSVM__FEW_AHEAD) GPUSVM_FEW_STEP(NR, VLOAD, VTYPE, GPUSVM__FEW_AHEAD) \
        for (; f < nf; f += GPUSVM__FEAT_CHUNK) GPUSVM_FEW_STEP(NR, VLOAD, VTYPE, GPUSVM__FEAT_CHUNK)     \
    }

#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_ROWS_FEW)
__kernel __attribute__((reqd_work_group_size(GPUSVM__FEW_L, 1, 1)))
void gpusvm_rows_few(GPUSVM_ROWS_PARAMS)
{
    __local float As[GPUSVM__FEW_FEAT * GPUSVM__FEW];
    const int p = get_group_id(2);
    GPUSVM_ROWS_PROBLEM(p);
    const float gamma = GPUSVM_ROWS_GAMMA;
    /* grid dimension 1: groups of GPUSVM__FEW rows from row_off on */
    const int roff = row_off + (int)get_group_id(1) * GPUSVM__FEW;
    const int nr = min(min(row_off + nrows - roff, pi[GPUSVM__PI_Q] - roff), GPUSVM__FEW);
    const int ws = p * qmax, hi = GPUSVM_BLOCK_HI(nb, pi[GPUSVM__PI_Q]);
    /* uniform per work-group */
    if (!GPUSVM_RUNNING(status + p * GPUSVM__ST_COUNT)) return;
    if ((skip_whole && pi[GPUSVM__PI_WHOLE]) || nr <= 0 || GPUSVM_BLOCK_LO + (int)get_group_id(0) * GPUSVM__FEW_L >= hi)
        return;
    int col_a[GPUSVM__FEW]; /* the rows' points */
    for (int r = 0; r < GPUSVM__FEW; ++r)
        col_a[r] = GPUSVM_COL(map, use_map, pt, GPUSVM__PT(idx[ws + roff + min(r, nr - 1)], split));
    if (a_pos) A += (size_t)p * dpad * pitch_a;
    if (b_mode == 2) B += (size_t)p * dpad * pitch_b;
    /* B's column for this work-item's point, and the point */
    const int col_b = GPUSVM_BLOCK_COL(min(GPUSVM_FEW_I, hi - 1)), pt_b = GPUSVM_BLOCK_POINT(min(GPUSVM_FEW_I, hi - 1));
    if (ktype == GPUSVM__K_PRECOMPUTED) {
        if (GPUSVM_FEW_I < hi)
            for (int r = 0; r < nr; ++r)
                K[(size_t)(ws + slot[ws + roff + r]) * ldk + (GPUSVM_FEW_I - GPUSVM_BLOCK_LO)] =
                    B[(size_t)col_a[r] * pitch_b + col_b];
        return;
    }
    float acc[GPUSVM__FEW];
    for (int r = 0; r < GPUSVM__FEW; ++r) acc[r] = 0.0f;
    if (nr <= 2) {
        GPUSVM_FEW_PASS(2, vload2, float2)
    } else if (nr <= 4) {
        GPUSVM_FEW_PASS(4, vload4, float4)
    } else {
        GPUSVM_FEW_PASS(8, vload8, float8)
    }
    if (GPUSVM_FEW_I < hi) {
        const float nbi = norm_b[pt_b];
        for (int r = 0; r < nr; ++r)
            K[(size_t)(ws + slot[ws + roff + r]) * ldk + (GPUSVM_FEW_I - GPUSVM_BLOCK_LO)] = gpusvm__kfun(
                ktype, self && col_a[r] == pt_b ? norm_a[col_a[r]] : acc[r], norm_a[col_a[r]], nbi, gamma, coef0, degree);
    }
}
#endif

/* The working sets' vectors for gpusvm_rows_tiled's a_pos: positions [row_off,
 * row_off + nrows) of every problem (clipped to its working set; none for a
 * whole problem with skip_whole, as gpusvm_rows_tiled), each feature of each
 * position one work-item: Aw[(p dpad + f) qmax + r] = X[f pitch + point].
 * Grid: positions x features x problems. */
#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_COPY)
__kernel void gpusvm_gather_ws(GPUSVM__ARGS_GATHER_WS(GPUSVM__PARAM, GPUSVM__COMMA))
{
    const int r = row_off + (int)get_global_id(0), f = get_global_id(1), p = get_global_id(2);
    __global const int *pi = pinfo + p * GPUSVM__PI_COUNT;
    const int nr = min(nrows, pi[GPUSVM__PI_Q] - row_off);
    if (!GPUSVM_RUNNING(status + p * GPUSVM__ST_COUNT) || (skip_whole && pi[GPUSVM__PI_WHOLE]) ||
        (int)get_global_id(0) >= nr)
        return;
    Aw[((size_t)p * dpad + f) * qmax + r] =
        X[(size_t)f * pitch + GPUSVM_COL(map, use_map, pi[GPUSVM__PI_PT], GPUSVM__PT(idx[p * qmax + r], pi[GPUSVM__PI_SPLIT]))];
}
#endif

/* Words [off, off + n) of p set to word: every fill of a device buffer (zeros, the -1s of empty
 * slots, the tests' poison), one work-item a word. A kernel rather than clEnqueueFillBuffer, so
 * that a memory checker sees the words written (oclgrind 21.10 takes filled memory for
 * uninitialised). */
#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_COPY)
__kernel void gpusvm_fill(GPUSVM__ARGS_FILL(GPUSVM__PARAM, GPUSVM__COMMA))
{
    const size_t i = get_global_id(0);
    if (i < n) p[off + i] = word;
}
#endif

/* The points, dense and column-major (X[f pitch + i], zeroed first), from
 * the CSR arrays as they were given (entries from base on): one work-item per
 * point, so a feature's words of adjacent points are written side by side.
 * The host uploads the nonzeros instead of a dense copy it would first have
 * to build. */
#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_COPY)
__kernel void gpusvm_scatter(GPUSVM__ARGS_SCATTER(GPUSVM__PARAM, GPUSVM__COMMA))
{
    const int i = get_global_id(0);
    if (i >= n) return;
    for (ulong k = row_ptr[i] - base; k < row_ptr[i + 1] - base; ++k)
        X[(size_t)col[k] * pitch + i] = val[k];
}
#endif
