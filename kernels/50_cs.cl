/* gpusvm kernels, part 5: Crammer and Singer's joint multiclass SVM, every step of an outer
 * iteration on the device (the host reads back only the status).
 *
 * The dual (Crammer and Singer 2001; GTSVM's eqs. 3-4, seed 003): per point i and class r a
 * coefficient alpha_ir <= U_i [r = y_i] with sum_r alpha_ir = 0, responses
 * c_ir = sum_j alpha_jr k(x_i, x_j) and gradients g_ir = [r = y_i] - c_ir. One outer iteration:
 *
 *   gpusvm_cs_update  (one work-item per point) c_i += sum_t dA_t k(x_t, x_i) over the working-set
 *                     points the last sweeps moved (GTSVM's response update, algorithm 1: the rows
 *                     read down their columns, coalesced); then the point's first-order violation
 *                     v_i = max_{r: alpha_ir < U_ir} g_ir - min_r g_ir and its share of the duality
 *                     gap, gap_i = U_i max(0, max_{r != y} 1 + c_ir - c_iy) - sum_r alpha_ir g_ir
 *                     (>= 0; zero exactly when the point's block is optimal), the work-group's
 *                     sums of the primal and dual terms, and the work-group's qc points with the
 *                     largest gap_i (a bitonic sort in local memory) as candidates.
 *   gpusvm_cs_select  (one work-group) the relative gap 2 (P - D) / (P + D) and the stop; the
 *                     working set: the q candidates with the largest gap_i (a radix selection,
 *                     part 2's), in ascending index order; the points whose kernel rows are
 *                     not in the row cache go to the rows kernels' list (part 1), whose count
 *                     it writes where they read it (the problem table's Q).
 *   gpusvm_rows*      the missing rows (part 1).
 *   gpusvm_cs_solve   (one work-group) sweeps of exact per-point block solves over the working
 *                     set (Gauss-Seidel; the set's q x q kernel block and its responses in local
 *                     memory, classes across work-items) until the set's largest violation is a
 *                     fraction `ratio` of its first (or eps).
 *
 * Selecting by gap_i rather than by v_i aims at the stopping rule itself: on letter it took
 * a tenth fewer outer iterations. Each block solve is the projection
 * beta = argmin |beta - D|^2, beta_r <= Ub_r, sum beta = 0, D = alpha_i + g_i / k(x_i, x_i):
 * beta_r = min(Ub_r, D_r - theta). Work-item r tries the partition in which the classes ahead
 * of r (larger D - Ub, ties by class) are capped and r and those after it are free; the first
 * consistent partition gives theta. After the first sweep, points whose violation is below half
 * the sweeps' aim are left as they are (half the block solves, as many outer iterations). The
 * plain-C backend runs the same steps in the same order.
 */

/* classes a work-item of gpusvm_cs_update sums at once */
#define GPUSVM_CS_RB 8

/* 64-bit sort key of a point: its gap share (larger first), then its index */
#define GPUSVM_CS_KEY(k, i) (((ulong)(k) << 32) | (ulong)(uint)(i))

__kernel void gpusvm_cs_update(GPUSVM__ARGS_CS_UPDATE(GPUSVM__PARAM, GPUSVM__COMMA))
{
    __local ulong skey[GPUSVM__L];
    __local double red[4][GPUSVM__L];
    const int lid = get_local_id(0), i = get_global_id(0), g = get_group_id(0), p = get_group_id(1);
    __global const int *ci_ = cinfo + p * GPUSVM__CI_COUNT;
    const int v0 = ci_[GPUSVM__CI_VAR], n = ci_[GPUSVM__CI_N], m = ci_[GPUSVM__CI_M];
    status += p * GPUSVM__ST_COUNT;
    /* uniform per work-group */
    if (status[GPUSVM__ST_DONE] != GPUSVM__DONE_RUNNING || g * GPUSVM__L >= n) return;
    const int nq = (int)status[GPUSVM__ST_CS_Q];
    c += ci_[GPUSVM__CI_A];
    alpha += ci_[GPUSVM__CI_A];
    cls += v0;
    U += v0;
    moved += p * q;
    dA += (size_t)p * q * mmax;
    part += ((size_t)p * nparts_max + g) * 4;
    cand_key += ((size_t)p * nparts_max + g) * qc;
    cand_idx += ((size_t)p * nparts_max + g) * qc;
    double aka = 0.0, loss = 0.0, lin = 0.0, vmax = 0.0;
    uint key = GPUSVM__KEY_NONE;
    if (i < n) {
        __global double *ci = c + (size_t)i * m;
        __global const double *ai = alpha + (size_t)i * m;
        for (int r0 = 0; r0 < m; r0 += GPUSVM_CS_RB) { /* GPUSVM_CS_RB classes at a time, in registers */
            double acc[GPUSVM_CS_RB];
            for (int u = 0; u < GPUSVM_CS_RB; ++u) acc[u] = 0.0;
            for (int t = 0; t < nq; ++t) {
                const int s = moved[t]; /* uniform */
                if (s < 0) continue;
                const double k = (double)K[(size_t)s * ldk + i];
                for (int u = 0; u < GPUSVM_CS_RB; ++u)
                    if (r0 + u < m) acc[u] += dA[t * m + r0 + u] * k;
            }
            for (int u = 0; u < GPUSVM_CS_RB; ++u)
                if (r0 + u < m) ci[r0 + u] += acc[u];
        }
        const int y = cls[i];
        const double cy = ci[y], Ui = U[i];
        double up = -INFINITY, low = INFINITY, worst = 0.0, ag = 0.0;
        for (int r = 0; r < m; ++r) {
            const double cr = ci[r], ar = ai[r], gr = (r == y ? 1.0 : 0.0) - cr;
            if (ar < (r == y ? Ui : 0.0) && gr > up) up = gr;
            if (gr < low) low = gr;
            if (r != y && 1.0 + cr - cy > worst) worst = 1.0 + cr - cy;
            aka += ar * cr;
            ag += ar * gr;
        }
        loss = Ui * worst;
        lin = ai[y];
        vmax = up - low;
        const double gi = loss - ag;
        if (gi > 0.0) key = ~gpusvm_float_key((float)gi);
    }
    red[0][lid] = aka;
    red[1][lid] = loss;
    red[2][lid] = lin;
    red[3][lid] = vmax;
    skey[lid] = GPUSVM_CS_KEY(key, i);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = GPUSVM__L / 2; s > 0; s >>= 1) {
        if (lid < s) {
            red[0][lid] += red[0][lid + s];
            red[1][lid] += red[1][lid + s];
            red[2][lid] += red[2][lid + s];
            red[3][lid] = fmax(red[3][lid], red[3][lid + s]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid < 4) part[lid] = red[lid][0];
    /* bitonic sort of the group's keys, ascending: its best qc are the first */
    for (int k = 2; k <= GPUSVM__L; k <<= 1)
        for (int j = k >> 1; j > 0; j >>= 1) {
            const int o = lid ^ j;
            if (o > lid) {
                const ulong a = skey[lid], b = skey[o];
                if (((lid & k) == 0) == (a > b)) {
                    skey[lid] = b;
                    skey[o] = a;
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    if (lid < qc) {
        cand_key[lid] = (uint)(skey[lid] >> 32);
        cand_idx[lid] = (int)(uint)skey[lid];
    }
}

__kernel void gpusvm_cs_select(GPUSVM__ARGS_CS_SELECT(GPUSVM__PARAM, GPUSVM__COMMA))
{
    __local int list[GPUSVM__Q];
    __local int keep[GPUSVM__Q];
    __local double red[4][GPUSVM__L];
    __local gpusvm_sel_scratch sc;
    __local int ls[GPUSVM__L];
    __local uint res[4];
    __local int nmiss;
    const int lid = get_local_id(0), p = get_group_id(0);
    __global const int *ci_ = cinfo + p * GPUSVM__CI_COUNT;
    const int v0 = ci_[GPUSVM__CI_VAR], nparts = (ci_[GPUSVM__CI_N] + GPUSVM__L - 1) / GPUSVM__L;
    const int qc = min(q, GPUSVM__L);
    status += p * GPUSVM__ST_COUNT;
    if (status[GPUSVM__ST_DONE] != GPUSVM__DONE_RUNNING) return;
    part += (size_t)p * nparts_max * 4;
    cand_key += (size_t)p * nparts_max * qc;
    cand_idx += (size_t)p * nparts_max * qc;
    ws += p * q;
    row_idx += p * qmax;
    row_slot += p * qmax;
    have += v0;
    double s0 = 0.0, s1 = 0.0, s2 = 0.0;
    for (int p = lid; p < nparts; p += GPUSVM__L) {
        s0 += part[(size_t)p * 4];
        s1 += part[(size_t)p * 4 + 1];
        s2 += part[(size_t)p * 4 + 2];
    }
    red[0][lid] = s0;
    red[1][lid] = s1;
    red[2][lid] = s2;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = GPUSVM__L / 2; s > 0; s >>= 1) {
        if (lid < s)
            for (int u = 0; u < 3; ++u) red[u][lid] += red[u][lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const double P = 0.5 * red[0][0] + red[1][0], D = red[2][0] - 0.5 * red[0][0];
    const double gap = (P + D) > 0.0 ? 2.0 * (P - D) / (P + D) : 0.0;
    const int done = !(gap >= eps) ? GPUSVM__DONE_CONVERGED
                     : (status[GPUSVM__ST_ITER] >= max_iter ? GPUSVM__DONE_MAX_ITER : GPUSVM__DONE_RUNNING);
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        status[GPUSVM__ST_GAP] = gap;
        status[GPUSVM__ST_CS_P] = P;
        status[GPUSVM__ST_CS_D] = D;
        status[GPUSVM__ST_DONE] = (double)done;
        sc.count = 0;
        nmiss = 0;
    }
    if (done) return;
    const int ncand = nparts * qc;
    gpusvm_select_side(&sc, ls, res, list, cand_key, cand_key, (__global const char *)0, 0, q, ncand);
    const int got = sc.count;
    for (int c0 = 0; c0 < GPUSVM__Q / GPUSVM__L; ++c0) { /* positions -> points, ascending */
        const int t = c0 * GPUSVM__L + lid;
        if (t < got) list[t] = cand_idx[list[t]];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    GPUSVM_SORT_CHOSEN(list, keep, got, lid);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int t = lid; t < got; t += GPUSVM__L) {
        const int v = keep[t];
        ws[t] = v;
        if (!cache || !have[v]) { /* its row: computed this round */
            const int k = atomic_inc(&nmiss);
            row_idx[k] = v;
            row_slot[k] = cache ? v0 + v - p * qmax : t;
            if (cache) have[v] = 1;
        }
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        status[GPUSVM__ST_CS_Q] = (double)got;
        pinfo[p * GPUSVM__PI_COUNT + GPUSVM__PI_Q] = nmiss;
    }
}

/* scr: m doubles each of D, D - Ub, Ub, alpha, the step, the candidates' theta and validity;
 * then the working set's alpha (q x m), and its points' bounds, diagonals and classes (q each):
 * the sweeps touch only local memory */
#define GPUSVM_CS_SD(r) scr[(r)]
#define GPUSVM_CS_SE(r) scr[m + (r)]
#define GPUSVM_CS_SU(r) scr[2 * m + (r)]
#define GPUSVM_CS_SA(r) scr[3 * m + (r)]
#define GPUSVM_CS_SL(r) scr[4 * m + (r)]
#define GPUSVM_CS_ST(r) scr[5 * m + (r)]
#define GPUSVM_CS_SV(r) scr[6 * m + (r)]
#define GPUSVM_CS_LA(e) scr[7 * m + (e)]
#define GPUSVM_CS_LU(t) scr[7 * m + q * m + (t)]
#define GPUSVM_CS_LK(t) scr[7 * m + q * m + q + (t)]
#define GPUSVM_CS_LY(t) scr[7 * m + q * m + 2 * q + (t)]

__kernel void gpusvm_cs_solve(GPUSVM__ARGS_CS_SOLVE(GPUSVM__PARAM, GPUSVM__COMMA))
{
    __local int wsl[GPUSVM__Q];
    const int lid = get_local_id(0), p = get_group_id(0);
    __global const int *ci_ = cinfo + p * GPUSVM__CI_COUNT;
    const int pv = ci_[GPUSVM__CI_VAR], m = ci_[GPUSVM__CI_M];
    status += p * GPUSVM__ST_COUNT;
    if (status[GPUSVM__ST_DONE] != GPUSVM__DONE_RUNNING) return;
    const int nq = (int)status[GPUSVM__ST_CS_Q];
    alpha += ci_[GPUSVM__CI_A];
    c += ci_[GPUSVM__CI_A];
    cls += pv;
    U += pv;
    kd += pv;
    ws += p * q;
    dA += (size_t)p * q * mmax;
    moved += p * q;
    /* the row of working-set position t */
#define GPUSVM_CS_ROW(t) (cache ? pv + wsl[t] : p * qmax + (t))
    for (int t = lid; t < nq; t += GPUSVM__CS_L) {
        const int it = ws[t];
        wsl[t] = it;
        GPUSVM_CS_LU(t) = U[it];
        GPUSVM_CS_LK(t) = kd[it] > 0.0 ? kd[it] : GPUSVM__TAU;
        GPUSVM_CS_LY(t) = (double)cls[it];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int e = lid; e < nq * nq; e += GPUSVM__CS_L) { /* row of position t at the point of u */
        const int t = e / nq, u = e - t * nq;
        kws[t * q + u] = K[(size_t)GPUSVM_CS_ROW(t) * ldk + wsl[u]];
    }
    for (int e = lid; e < nq * m; e += GPUSVM__CS_L) {
        const int t = e / m;
        const size_t at = (size_t)wsl[t] * m + (e - t * m);
        cws[e] = c[at];
        GPUSVM_CS_LA(e) = alpha[at];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    double v0 = -1.0, upd = 0.0, skip = 0.0;
    for (int sweep = 0; sweep < 100; ++sweep) {
        double vin = 0.0;
        for (int t = 0; t < nq; ++t) {
            const int y = (int)GPUSVM_CS_LY(t);
            const double kii = GPUSVM_CS_LK(t);
            for (int r = lid; r < m; r += GPUSVM__CS_L) {
                const double a = GPUSVM_CS_LA(t * m + r), gr = (r == y ? 1.0 : 0.0) - cws[t * m + r];
                const double ub = r == y ? GPUSVM_CS_LU(t) : 0.0;
                GPUSVM_CS_SA(r) = a;
                GPUSVM_CS_SU(r) = ub;
                GPUSVM_CS_SD(r) = a + gr / kii;
                GPUSVM_CS_SE(r) = a + gr / kii - ub;
                GPUSVM_CS_SL(r) = gr; /* the gradient until the step replaces it */
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            double up = -INFINITY, low = INFINITY;
            for (int r = 0; r < m; ++r) { /* every work-item, the same answer */
                const double gr = GPUSVM_CS_SL(r);
                if (GPUSVM_CS_SA(r) < GPUSVM_CS_SU(r) && gr > up) up = gr;
                if (gr < low) low = gr;
            }
            const double viol = up - low;
            vin = fmax(vin, viol);
            if (!(viol > 1e-12) || viol < skip) { /* uniform: optimal, or already below the sweeps' aim */
                barrier(CLK_LOCAL_MEM_FENCE);
                continue;
            }
            for (int r = lid; r < m; r += GPUSVM__CS_L) { /* r first free: the classes ahead capped */
                const double er = GPUSVM_CS_SE(r);
                double sum = 0.0, emin = INFINITY;
                int k = 0;
                for (int s = 0; s < m; ++s) {
                    const double es = GPUSVM_CS_SE(s);
                    const int ahead = es > er || (es == er && s < r);
                    sum += ahead ? GPUSVM_CS_SU(s) : GPUSVM_CS_SD(s);
                    k += ahead;
                    if (ahead) emin = fmin(emin, es);
                }
                const double th = sum / (double)(m - k);
                GPUSVM_CS_ST(k) = th;
                GPUSVM_CS_SV(k) = ((k == 0 || emin >= th) && er < th) ? 1.0 : 0.0;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            int ks = m - 1;
            for (int k = m - 1; k >= 0; --k)
                if (GPUSVM_CS_SV(k) != 0.0) ks = k;
            const double theta = GPUSVM_CS_ST(ks);
            for (int r = lid; r < m; r += GPUSVM__CS_L) {
                const double d = GPUSVM_CS_SD(r) - theta, ub = GPUSVM_CS_SU(r);
                const double beta = d < ub ? d : ub;
                GPUSVM_CS_SL(r) = beta - GPUSVM_CS_SA(r);
                GPUSVM_CS_LA(t * m + r) = beta;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            int mv = 0;
            for (int r = 0; r < m; ++r) mv |= GPUSVM_CS_SL(r) != 0.0;
            upd += mv;
            if (mv)
                for (int e = lid; e < nq * m; e += GPUSVM__CS_L) {
                    const int u = e / m;
                    cws[e] += GPUSVM_CS_SL(e - u * m) * (double)kws[t * q + u];
                }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (v0 < 0.0) v0 = vin;
        if (vin < ratio * v0 || vin < eps) break;
        skip = 0.5 * ratio * v0; /* later sweeps: only points at least half the aim over it */
    }
    for (int e = lid; e < nq * m; e += GPUSVM__CS_L) { /* the steps, and alpha written back */
        const int t = e / m;
        const size_t at = (size_t)wsl[t] * m + (e - t * m);
        dA[e] = GPUSVM_CS_LA(e) - alpha[at];
        alpha[at] = GPUSVM_CS_LA(e);
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (int t = lid; t < nq; t += GPUSVM__CS_L) {
        int mv = 0;
        for (int r = 0; r < m; ++r) mv |= dA[t * m + r] != 0.0;
        moved[t] = mv ? GPUSVM_CS_ROW(t) : -1;
    }
    if (lid == 0) {
        status[GPUSVM__ST_ITER] += upd;
        status[GPUSVM__ST_OUTER] += 1.0;
    }
}
