/* gpusvm kernels, part 4: gradient update and decision values.
 *
 *   out[i] += s_i * sum_t coef[t] * K[slot[t]][i]
 *
 * with s_i = y_i in training (G_i += sum_t Q_it dalpha_t, coef = y dalpha) and
 * s_i = 1 in prediction (decision values, coef = the support vectors' y alpha).
 * One work-item per point reads down a column of the row block, so adjacent
 * work-items read adjacent words; the coefficients are staged in local memory
 * (GTSVM, algorithm 1) and zero ones are skipped uniformly. The sum is
 * double, in t order. coef_off and out_off select one of several coefficient
 * vectors and output rows (prediction evaluates every pairwise decision of a
 * multiclass model from one kernel tile).
 *
 * Grid dimension 1 is the problem of a batch (see part 0): problem p updates
 * its own variables from its own rows, with its working-set size (at most m).
 */
__kernel void gpusvm_update(GPUSVM__ARGS_UPDATE(GPUSVM__PARAM, GPUSVM__COMMA))
{
    __local double lc[GPUSVM__L];
    __local int ls[GPUSVM__L];
    const int i = get_global_id(0), lid = get_local_id(0), p = get_group_id(1);
    __global const int *pi = pinfo + p * GPUSVM__PI_COUNT;
    const int v0 = pi[GPUSVM__PI_VAR], n = pi[GPUSVM__PI_NVAR], npts = pi[GPUSVM__PI_SPLIT];
    const int m = min(m_in, pi[GPUSVM__PI_Q]);
    __global double *out = out0 + v0;
    __global const char *y = y0 + v0;
    __global const float *K = K0 + (size_t)p * qmax * ldk;
    __global const int *slot = slot0 + p * qmax;
    __global const double *coef = coef0 + p * qmax;
    /* uniform per work-group */
    if (status[p * GPUSVM__ST_COUNT + GPUSVM__ST_DONE] != GPUSVM__DONE_RUNNING || (int)get_group_id(0) * GPUSVM__L >= n) return;

    double sum = 0.0;
    for (int c0 = 0; c0 < m; c0 += GPUSVM__L) {
        if (c0 + lid < m) {
            lc[lid] = coef[coef_off + c0 + lid];
            ls[lid] = slot[c0 + lid];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        const int cnt = min(GPUSVM__L, m - c0);
        if (i < n) {
            for (int t = 0; t < cnt; ++t) {
                const double c = lc[t];
                if (c != 0.0) sum += c * (double)K[(size_t)ls[t] * ldk + GPUSVM__PT(i, npts)];
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (i < n) out[out_off + i] += (use_y && y[i] < 0) ? -sum : sum;
}
