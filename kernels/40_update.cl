/* gpusvm kernels, part 4: gradient update and decision values.
 *
 *   out[i] += s_i * sum_t coef[t] * K[slot[t]][i]
 *
 * with s_i = y_i in training (G_i += sum_t Q_it dalpha_t, coef = y dalpha) and
 * s_i = 1 in prediction (decision values, coef = the support vectors' y alpha).
 * One work-item per point reads down a column of the row block, so adjacent
 * work-items read adjacent words; the coefficients are staged in local memory
 * (GTSVM, algorithm 1) GPUSVM__L at a time, the zero ones dropped and the
 * rest kept in order (a scan of the nonzero flags), so the loop reads only
 * rows that count and has GPUSVM_UPD_U independent loads in flight (a
 * round's update is bound by reading the rows; one load at a time left it
 * waiting on latency, docs/results.md, the code's choices). The sum is wide (part 0), in t order over the nonzero
 * coefficients. coef_off and out_off select one of several coefficient
 * vectors and output rows (prediction evaluates every pairwise decision of a
 * multiclass model from one kernel tile).
 *
 * Grid dimension 1 is the problem of a batch (see part 0): problem p updates
 * its own variables from its own rows, with its working-set size (at most m).
 * var_off, var_end and k_off take a window of them: variables [var_off,
 * var_end), variable i reading word GPUSVM__PT(i) - k_off of each row (the
 * rows of a split problem's share, part 1's b_mode 1); 0, INT_MAX and 0 take
 * them all. (Streamed points keep no rows: gpusvm_rows_update below.)
 */
/* the local id, read afresh wherever used (PoCL 3.1; see part 3) */
#define GPUSVM_UPD_LID ((int)get_local_id(0))

/* The nonzero coefficients of [c0, c0 + GPUSVM__L) of the m, in order, to lc / ls; their count
   (sc: GPUSVM__L ints of scratch, an inclusive scan of the flags). */
GPUSVM_INLINE int gpusvm_upd_stage(__global const gpusvm_wbits *coef, __global const int *slot, int c0, int m,
                                   __local gpusvm_wide *lc, __local int *ls, __local int *sc)
{
    const int t = c0 + GPUSVM_UPD_LID;
    const gpusvm_wide c = t < m ? GPUSVM_W_LD(coef[t]) : GPUSVM_W_F(0.0f);
    const int flag = !GPUSVM_W_EQ(c, GPUSVM_W_F(0.0f));
    barrier(CLK_LOCAL_MEM_FENCE); /* the last chunk's readers are done */
    sc[GPUSVM_UPD_LID] = flag;
    gpusvm_scan_local(sc);
    if (flag) {
        lc[sc[GPUSVM_UPD_LID] - 1] = c;
        ls[sc[GPUSVM_UPD_LID] - 1] = slot[t];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    return sc[GPUSVM__L - 1];
}

#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_UPDATE)
__kernel void gpusvm_update(GPUSVM__ARGS_UPDATE(GPUSVM__PARAM, GPUSVM__COMMA))
{
    __local gpusvm_wide lc[GPUSVM__L];
    __local int ls[GPUSVM__L], sc[GPUSVM__L];
    const int i = var_off + (int)get_global_id(0), p = get_group_id(1);
    __global const int *pi = pinfo + p * GPUSVM__PI_COUNT;
    const int v0 = pi[GPUSVM__PI_VAR], n = min(pi[GPUSVM__PI_NVAR], var_end), npts = pi[GPUSVM__PI_SPLIT];
    const int m = min(m_in, pi[GPUSVM__PI_Q]);
    __global gpusvm_wbits *out = out0 + v0;
    __global const char *y = y0 + v0;
    /* a point past n reads column 0, which every row has */
    __global const float *K = K0 + (size_t)p * qmax * ldk + (i < n ? GPUSVM__PT(i, npts) - k_off : 0);
    /* uniform per work-group */
    if (!GPUSVM_RUNNING(status + p * GPUSVM__ST_COUNT) ||
        var_off + (int)get_group_id(0) * GPUSVM__L >= n)
        return;

    gpusvm_wide sum = GPUSVM_W_F(0.0f);
    for (int c0 = 0; c0 < m; c0 += GPUSVM__L) {
        const int cnt = gpusvm_upd_stage(coef0 + p * qmax + coef_off, slot0 + p * qmax, c0, m, lc, ls, sc);
        GPUSVM_UPD_SUM(sum, lc, ls, cnt, K, ldk);
    }
    if (i < n)
        out[out_off + i] = GPUSVM_W_ST(
            GPUSVM_W_ADD(GPUSVM_W_LD(out[out_off + i]), (use_y && y[i] < 0) ? GPUSVM_W_NEG(sum) : sum));
}
#endif

/* The update of a tile of streamed points with no room for its rows (host section, stream):
 * each work-group takes GPUSVM__TILE of the tile's points and walks the moved variables' rows
 * GPUSVM__TILE at a time, each block computed as part 1's tile computes it (GPUSVM_TILE_DOTS,
 * then the same kernel function: the same bits) and put into local memory a quarter at a
 * time, where each point's work-item adds it to its sum in row order, with the product and
 * the sum gpusvm_update forms: the same bits, so the gradients are the resident path's.
 * Nothing is written but the gradients, so a tile needs 2 dpad words a point of the budget
 * instead of 2 dpad + q: many fewer tiles a round (docs/results.md, the code's choices).
 * Part 1's arguments with b_mode 1 (the tile's points [b_off, b_end)), the moved rows as
 * idx and nrows (K unused), then: out0 (the gradients), y0, coef (the rows' coefficients,
 * in row order, none 0). A point's variables are it and, epsilon-SVR, it + its problem's
 * split. Grid: points / GPUSVM__TILE x GPUSVM__TILE_WI, GPUSVM__TILE_WI, problems; work-groups of
 * GPUSVM__TILE_WI x GPUSVM__TILE_WI. */
#define GPUSVM_RU_QUARTER_ROWS (GPUSVM__TILE / 4) /* rows of a quarter block */
/* the local id and what comes of it, read afresh wherever used (PoCL 3.1; see part 3) */
#define GPUSVM_RU_LID_X ((int)get_local_id(0))
#define GPUSVM_RU_LID_Y ((int)get_local_id(1))
#define GPUSVM_RU_TID (GPUSVM_RU_LID_Y * GPUSVM__TILE_WI + GPUSVM_RU_LID_X)
#define GPUSVM_RU_ROW (GPUSVM_RU_TID % GPUSVM__TILE)
#define GPUSVM_RU_FEAT (GPUSVM_RU_TID / GPUSVM__TILE)

/* Point c's variables (c, and epsilon-SVR's c + split) take sum into their gradients. */
GPUSVM_INLINE void gpusvm_ru_put(__global const int *pi, __global gpusvm_wbits *out0, __global const char *y0, int c,
                                 int hi, int split, gpusvm_wide sum)
{
    const int n = pi[GPUSVM__PI_NVAR], v0 = pi[GPUSVM__PI_VAR];
    if (c >= hi) return;
    for (int v = c; v < n; v += split) {
        out0[v0 + v] = GPUSVM_W_ST(GPUSVM_W_ADD(GPUSVM_W_LD(out0[v0 + v]), y0[v0 + v] < 0 ? GPUSVM_W_NEG(sum) : sum));
        if (split <= 0) break;
    }
}

#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_ROWS_UPD)
__kernel __attribute__((reqd_work_group_size(GPUSVM__TILE_WI, GPUSVM__TILE_WI, 1)))
void gpusvm_rows_update(GPUSVM_ROWS_PARAMS, GPUSVM__ARGS_ROWS_UPD(GPUSVM__PARAM, GPUSVM__COMMA))
{
    __local float4 As[GPUSVM__FEAT_CHUNK][GPUSVM__TILE / 4];
    __local float4 Bs[GPUSVM__FEAT_CHUNK][GPUSVM__TILE / 4];
    __local float Ks[GPUSVM_RU_QUARTER_ROWS][GPUSVM__TILE];
    const int i0 = GPUSVM_BLOCK_LO + (int)get_group_id(0) * GPUSVM__TILE;
    const int p = get_group_id(2);
    __global const int *pi = pinfo + p * GPUSVM__PI_COUNT;
    const float gamma = as_float(pi[GPUSVM__PI_GAMMA]); /* the problem's own (a grid's differ) */
    const int nb = pi[GPUSVM__PI_NPTS], split = pi[GPUSVM__PI_SPLIT], pt = pi[GPUSVM__PI_PT];
    const int nr = min(nrows, pi[GPUSVM__PI_Q] - row_off), hi = GPUSVM_BLOCK_HI(nb, pi[GPUSVM__PI_Q]);
    const int ws = p * qmax;
    /* uniform per work-group */
    if (!GPUSVM_RUNNING(status + p * GPUSVM__ST_COUNT) || nr <= 0 || i0 >= hi) return;
    if (a_pos) A += (size_t)p * dpad * pitch_a;
    const int col_b = GPUSVM_BLOCK_COL(min(i0 + GPUSVM_RU_ROW, hi - 1));
    gpusvm_wide sum = GPUSVM_W_F(0.0f);
    for (int r0 = 0; r0 < nr; r0 += GPUSVM__TILE) {
        const int ra = min(r0 + GPUSVM_RU_ROW, nr - 1);
        const int col_a =
            a_pos ? row_off + ra : GPUSVM_COL(map, use_map, pt, GPUSVM__PT(idx[ws + row_off + ra], split));
        GPUSVM_TILE_DOTS(acc, GPUSVM_RU_LID_X, GPUSVM_RU_LID_Y, GPUSVM_RU_ROW, GPUSVM_RU_FEAT)
        /* quarter k: rows 32 k .. of the block, held by ly in [8 (k % 2), + 8) as their a in [4 (k / 2), + 4)
           (both loops of constant length, so that acc is indexed by constants) */
        for (int k = 0; k < 4; ++k) {
            for (int a = 0; a < GPUSVM__TILE_ACC; ++a) {
                const int r = r0 + GPUSVM_TOFF(GPUSVM_RU_LID_Y, a);
                if (a / 4 != k / 2 || GPUSVM_RU_LID_Y / 8 != k % 2 || r >= nr) continue;
                const int ca = GPUSVM_COL(map, use_map, pt, GPUSVM__PT(idx[ws + row_off + r], split));
                const float na = norm_a[ca];
                for (int b = 0; b < GPUSVM__TILE_ACC; ++b) {
                    const int cb = GPUSVM_BLOCK_POINT(min(i0 + GPUSVM_TOFF(GPUSVM_RU_LID_X, b), hi - 1));
                    Ks[GPUSVM_TOFF(GPUSVM_RU_LID_Y, a) - GPUSVM_RU_QUARTER_ROWS * k][GPUSVM_TOFF(GPUSVM_RU_LID_X, b)] =
                        gpusvm__kfun(ktype, self && ca == cb ? na : acc[a][b], na, norm_b[cb], gamma, coef0, degree);
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            if (GPUSVM_RU_TID < GPUSVM__TILE) {
                const int rq = r0 + GPUSVM_RU_QUARTER_ROWS * k, n = min(GPUSVM_RU_QUARTER_ROWS, nr - rq);
                for (int t = 0; t < n; ++t)
                    sum = GPUSVM_W_ACC(sum, GPUSVM_W_LD(coef[ws + row_off + rq + t]), Ks[t][GPUSVM_RU_TID]);
                /* after the last quarter, here: past the loop PoCL 3.1 ran it for every work-item */
                if (r0 + GPUSVM__TILE >= nr && k == 3)
                    gpusvm_ru_put(pi, out0, y0, i0 + GPUSVM_RU_TID, hi, split, sum);
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
}
#endif
