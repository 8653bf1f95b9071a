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
 * waiting on latency: H100, dense 1M x 32, 1892 rounds, 2.16 s before, 1.69 s
 * after). The sum is double, in t order over the nonzero
 * coefficients. coef_off and out_off select one of several coefficient
 * vectors and output rows (prediction evaluates every pairwise decision of a
 * multiclass model from one kernel tile).
 *
 * Grid dimension 1 is the problem of a batch (see part 0): problem p updates
 * its own variables from its own rows, with its working-set size (at most m).
 * var_off, var_end and k_off take a window of them: variables [var_off,
 * var_end), variable i reading word GPUSVM__PT(i) - k_off of each row (the
 * rows of a tile of points streamed through the device, part 1's b_mode 1);
 * 0, INT_MAX and 0 take them all.
 */
#define GPUSVM_UPD_U 4 /* rows read ahead */
/* the local id, read afresh wherever used (PoCL 3.1; see part 3) */
#define GPUSVM_UPD_LID ((int)get_local_id(0))

/* The nonzero coefficients of [c0, c0 + GPUSVM__L) of the m, in order, to lc / ls; their count
   (sc: GPUSVM__L ints of scratch, an inclusive scan of the flags). */
GPUSVM_INLINE int gpusvm_upd_stage(__global const double *coef, __global const int *slot, int c0, int m,
                                   __local double *lc, __local int *ls, __local int *sc)
{
    const int t = c0 + GPUSVM_UPD_LID;
    const double c = t < m ? coef[t] : 0.0;
    const int flag = c != 0.0;
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

__kernel void gpusvm_update(GPUSVM__ARGS_UPDATE(GPUSVM__PARAM, GPUSVM__COMMA))
{
    __local double lc[GPUSVM__L];
    __local int ls[GPUSVM__L], sc[GPUSVM__L];
    const int i = var_off + (int)get_global_id(0), p = get_group_id(1);
    __global const int *pi = pinfo + p * GPUSVM__PI_COUNT;
    const int v0 = pi[GPUSVM__PI_VAR], n = min(pi[GPUSVM__PI_NVAR], var_end), npts = pi[GPUSVM__PI_SPLIT];
    const int m = min(m_in, pi[GPUSVM__PI_Q]);
    __global double *out = out0 + v0;
    __global const char *y = y0 + v0;
    /* a point past n reads column 0, which every row has */
    __global const float *K = K0 + (size_t)p * qmax * ldk + (i < n ? GPUSVM__PT(i, npts) - k_off : 0);
    /* uniform per work-group */
    if (status[p * GPUSVM__ST_COUNT + GPUSVM__ST_DONE] != GPUSVM__DONE_RUNNING ||
        var_off + (int)get_group_id(0) * GPUSVM__L >= n)
        return;

    double sum = 0.0;
    for (int c0 = 0; c0 < m; c0 += GPUSVM__L) {
        const int cnt = gpusvm_upd_stage(coef0 + p * qmax + coef_off, slot0 + p * qmax, c0, m, lc, ls, sc);
        int t = 0;
        for (; t + GPUSVM_UPD_U <= cnt; t += GPUSVM_UPD_U) {
            float k[GPUSVM_UPD_U];
            for (int u = 0; u < GPUSVM_UPD_U; ++u) k[u] = K[(size_t)ls[t + u] * ldk];
            for (int u = 0; u < GPUSVM_UPD_U; ++u) sum += lc[t + u] * (double)k[u];
        }
        for (; t < cnt; ++t) sum += lc[t] * (double)K[(size_t)ls[t] * ldk];
    }
    if (i < n) out[out_off + i] += (use_y && y[i] < 0) ? -sum : sum;
}
