/* gpusvm kernels, part 3: the inner solve.
 *
 * One work-group per problem of the batch runs LIBSVM's SMO on that
 * problem's working-set subproblem (so the pairs of one-vs-one and the folds
 * of a cross-validation solve side by side on the device): the
 * maximal-violating i, the second-order j (WSS2, Fan, Chen and Lin 2005), the
 * analytic two-variable step with LIBSVM's clipping, and the gradient update
 * of the working set, all in local memory. Kernel values come from the rows
 * gpusvm_rows left in K, which gpusvm_gather copies into the working set's
 * contiguous q x q block first (row slot[i], column = working-set position),
 * so that every row sweep is coalesced. Reductions are arg-extrema in
 * Structure-of-Arrays form (value array, index array), ties going to the
 * larger position as LIBSVM's ">=" does.
 *
 * A pair update waits on barriers, not on arithmetic, so each reduction is a
 * two-level tree (part 0): every work-item writes its value, GPUSVM_R work-items
 * each fold GPUSVM_L / GPUSVM_R of them into a small array, and every
 * work-item folds that array itself (broadcast reads), so the result lands in
 * registers without a third barrier. The orders are total ((value, position) pairs, max / min), so any
 * tree gives the same answer as LIBSVM's linear scan. The two-variable step
 * is computed by every work-item from the same local words (identical
 * results, no broadcast barrier), and each position's owner writes its own
 * alpha. Five barriers per pair update: two per reduction, one before the
 * gradient sweep writes what the step read.
 *
 * With nu (LIBSVM's Solver_NU) i and the stop test are taken per class and j
 * is paired with the i of its own class.
 *
 * It stops at m - M < max(eps, ratio * outer gap) on the subproblem, or after
 * max_inner pair updates, or when the run's max_iter is reached; a problem
 * whose working set is every variable solves it to eps (ratio 0, at most
 * whole_inner pair updates per launch). It writes the
 * new alphas and, per working-set position, coef = y * (alpha_new - alpha_old)
 * for gpusvm_update.
 *
 * The local id is read with get_local_id() wherever it is used, never kept
 * in a variable across the loop's barriers: PoCL 3.1 loses such a variable.
 */
#define GPUSVM_LID ((int)get_local_id(0))

/* (a, ia) := the larger of (a, ia) and (b, ib) in the order of (value, position). */
#define GPUSVM_ARGMAX(a, ia, b, ib)                                 \
    do {                                                            \
        const int take_ = ((b) > (a)) || ((b) == (a) && (ib) > (ia)); \
        (a) = take_ ? (b) : (a);                                    \
        (ia) = take_ ? (ib) : (ia);                                 \
    } while (0)

/* The working set's q x q block, contiguous: Kq[slot r][position t] = K[slot r][point of ws
 * position t], so that the inner solve reads a row of it with one coalesced sweep instead of q
 * scattered words of an n-wide row (grid: positions, slots, problems). */
__kernel void gpusvm_gather(__global const float *K0, int ldk, __global float *Kq0,
                            __global const int *pinfo, int qmax,
                            __global const int *ws_idx0, __global const double *status)
{
    const int t = get_global_id(0), r = get_global_id(1), p = get_global_id(2);
    __global const int *pi = pinfo + p * GPUSVM_PI_COUNT;
    const int q = pi[GPUSVM_PI_Q];
    if (status[p * GPUSVM_ST_COUNT + GPUSVM_ST_DONE] != 0.0 || t >= q || r >= q) return;
    Kq0[((size_t)p * qmax + r) * qmax + t] =
        K0[((size_t)p * qmax + r) * ldk + GPUSVM_PT(ws_idx0[p * qmax + t], pi[GPUSVM_PI_SPLIT])];
}

__kernel void gpusvm_smo(__global const float *Kq0,
                         __global const int *pinfo, int qmax,
                         __global const int *ws_idx0, __global const int *ws_slot0,
                         __global double *alpha0, __global const double *G0,
                         __global const char *y0, __global const double *Cv0,
                         __global const float *qd0, __global double *coef0,
                         double eps, double ratio_in, int max_inner_in, int whole_inner,
                         double max_iter, __global double *status0, int nu)
{
    __local double la[GPUSVM_Q];
    __local double lg[GPUSVM_Q];
    __local double lC[GPUSVM_Q];
    __local float lqd[GPUSVM_Q];
    __local int lidx[GPUSVM_Q];
    __local int lslot[GPUSVM_Q];
    __local char lyv[GPUSVM_Q];
    __local double rv[GPUSVM_L];  /* first level: one value per work-item */
    __local int ri[GPUSVM_L];
    __local double rv1[GPUSVM_L];
    __local int ri1[GPUSVM_L];
    __local double rg[GPUSVM_L];
    __local double rg2[GPUSVM_L];
    __local double sv[GPUSVM_R], sv1[GPUSVM_R], sg[GPUSVM_R], sg2[GPUSVM_R], sjv[GPUSVM_R];
    __local int si[GPUSVM_R], si1[GPUSVM_R], sj[GPUSVM_R]; /* second level: i's and j's apart */
    const int p = get_group_id(0);
    __global const int *pi = pinfo + p * GPUSVM_PI_COUNT;
    const int v0 = pi[GPUSVM_PI_VAR], m = pi[GPUSVM_PI_Q];
    const int whole = pi[GPUSVM_PI_WHOLE];
    const double ratio = whole ? 0.0 : ratio_in;
    const int max_inner = whole ? whole_inner : max_inner_in;
    __global const float *K = Kq0 + (size_t)p * qmax * qmax; /* its q x q block, by slot, then position */
    __global const int *ws_idx = ws_idx0 + p * qmax, *ws_slot = ws_slot0 + p * qmax;
    __global double *alpha = alpha0 + v0, *coef = coef0 + p * qmax;
    __global const double *G = G0 + v0, *Cv = Cv0 + v0;
    __global const char *y = y0 + v0;
    __global const float *qd = qd0 + v0;
    __global double *status = status0 + p * GPUSVM_ST_COUNT;
    if (status[GPUSVM_ST_DONE] != 0.0) return;

    for (int t = GPUSVM_LID; t < m; t += GPUSVM_L) {
        const int i = ws_idx[t];
        lidx[t] = i; /* K is read at the point, GPUSVM_PT(i) */
        lslot[t] = ws_slot[t];
        la[t] = alpha[i];
        lg[t] = G[i];
        lqd[t] = qd[i];
        lC[t] = Cv[i];
        lyv[t] = y[i];
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    const double eps_in = fmax(eps, ratio * status[GPUSVM_ST_GAP]);
    const double left = max_iter - status[GPUSVM_ST_ITER];
    const int budget = (int)fmin((double)max_inner, fmax(left, 0.0));
    /* One exit, at the loop header, and every barrier reached on every trip: the
     * stop tests only switch the work off (a uniform flag). */
    int it = 0, trip = 0;
    while (trip < budget) {
        /* i: maximal violator in I_up; Gmax2 over I_low for the stop test. With nu,
         * one of each per class (class 0: y = +1, class 1: y = -1), as Solver_NU. */
        double bv0 = -INFINITY, bv1 = -INFINITY, g20 = -INFINITY, g21 = -INFINITY;
        int bi0 = -1, bi1 = -1;
        for (int t = GPUSVM_LID; t < m; t += GPUSVM_L) {
            const int pos = lyv[t] > 0;
            const double a = la[t], C = lC[t];
            const double v = pos ? -lg[t] : lg[t];
            const int in_up = pos ? (a < C) : (a > 0.0);
            const int in_low = pos ? (a > 0.0) : (a < C);
            if (nu && !pos) {
                if (in_up && (v > bv1 || (v == bv1 && t > bi1))) { bv1 = v; bi1 = t; }
                if (in_low) g21 = fmax(g21, -v);
            } else {
                if (in_up && (v > bv0 || (v == bv0 && t > bi0))) { bv0 = v; bi0 = t; }
                if (in_low) g20 = fmax(g20, -v);
            }
        }
        /* one tree for all four: both classes' arg-max and both maxima over I_low */
        rv[GPUSVM_LID] = bv0;
        ri[GPUSVM_LID] = bi0;
        rv1[GPUSVM_LID] = bv1;
        ri1[GPUSVM_LID] = bi1;
        rg[GPUSVM_LID] = g20;
        rg2[GPUSVM_LID] = g21;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (GPUSVM_LID < GPUSVM_R) {
            double a0 = rv[GPUSVM_LID], a1 = rv1[GPUSVM_LID], h0 = rg[GPUSVM_LID], h1 = rg2[GPUSVM_LID];
            int ia0 = ri[GPUSVM_LID], ia1 = ri1[GPUSVM_LID];
            for (int u = GPUSVM_LID + GPUSVM_R; u < GPUSVM_L; u += GPUSVM_R) {
                GPUSVM_ARGMAX(a0, ia0, rv[u], ri[u]);
                GPUSVM_ARGMAX(a1, ia1, rv1[u], ri1[u]);
                h0 = fmax(h0, rg[u]);
                h1 = fmax(h1, rg2[u]);
            }
            sv[GPUSVM_LID] = a0;
            si[GPUSVM_LID] = ia0;
            sv1[GPUSVM_LID] = a1;
            si1[GPUSVM_LID] = ia1;
            sg[GPUSVM_LID] = h0;
            sg2[GPUSVM_LID] = h1;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        double Gmax0 = sv[0], Gmax1 = sv1[0], Gmax20 = sg[0], Gmax21 = sg2[0];
        int i0 = si[0], i1 = si1[0];
        for (int u = 1; u < GPUSVM_R; ++u) {
            GPUSVM_ARGMAX(Gmax0, i0, sv[u], si[u]);
            GPUSVM_ARGMAX(Gmax1, i1, sv1[u], si1[u]);
            Gmax20 = fmax(Gmax20, sg[u]);
            Gmax21 = fmax(Gmax21, sg2[u]);
        }
        if (!nu) {
            Gmax1 = -INFINITY;
            i1 = -1;
        }
        /* no barrier: j's first level writes rv, ri, which were last read before the one above,
         * and its second level has arrays of its own */
        const int go = nu ? !(fmax(Gmax0 + Gmax20, Gmax1 + Gmax21) < eps_in)
                          : (i0 >= 0) && !(Gmax0 + Gmax20 < eps_in);

        /* j: second-order choice over I_low (with nu, against its own class's i) */
        const __global float *Ki0 = K + (size_t)lslot[max(i0, 0)] * qmax;
        const __global float *Ki1 = K + (size_t)lslot[max(i1, 0)] * qmax;
        const double Kii0 = lqd[max(i0, 0)], Kii1 = lqd[max(i1, 0)];
        double bo = -INFINITY; /* the arg-max of -o = b^2 / quad, ties to the larger position */
        int bj = -1;
        if (go) {
            for (int t = GPUSVM_LID; t < m; t += GPUSVM_L) {
                const int pos = lyv[t] > 0;
                const int c1 = nu && !pos;
                const double a = la[t], C = lC[t];
                const int in_low = pos ? (a > 0.0) : (a < C);
                const double v = pos ? -lg[t] : lg[t];
                const double b = (c1 ? Gmax1 : Gmax0) - v;
                if (in_low && b > 0.0) {
                    const __global float *Kc = c1 ? Ki1 : Ki0;
                    double quad = (c1 ? Kii1 : Kii0) + (double)lqd[t] - 2.0 * (double)Kc[t];
                    if (quad <= 0.0) quad = GPUSVM_TAU;
                    const double o = (b * b) / quad;
                    GPUSVM_ARGMAX(bo, bj, o, t);
                }
            }
        }
        rv[GPUSVM_LID] = bo;
        ri[GPUSVM_LID] = bj;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (GPUSVM_LID < GPUSVM_R) {
            double a0 = rv[GPUSVM_LID];
            int ia0 = ri[GPUSVM_LID];
            for (int u = GPUSVM_LID + GPUSVM_R; u < GPUSVM_L; u += GPUSVM_R) GPUSVM_ARGMAX(a0, ia0, rv[u], ri[u]);
            sjv[GPUSVM_LID] = a0;
            sj[GPUSVM_LID] = ia0;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        double jo = sjv[0];
        int j = sj[0];
        for (int u = 1; u < GPUSVM_R; ++u) GPUSVM_ARGMAX(jo, j, sjv[u], sj[u]);
        const int step_ok = go && j >= 0;
        const int use1 = nu && step_ok && lyv[j] < 0;
        const int i = use1 ? i1 : i0;
        const __global float *Ki = use1 ? Ki1 : Ki0;
        const double Kii = use1 ? Kii1 : Kii0;

        /* the two-variable step, exactly as LIBSVM's Solver::Solve, by every work-item */
        double di = 0.0, dj = 0.0, ai = 0.0, aj = 0.0;
        if (step_ok) {
            const int yi = lyv[i], yj = lyv[j];
            const double Ci = lC[i], Cj = lC[j];
            const double Kij = (double)Ki[j];
            const double oi = la[i], oj = la[j];
            ai = oi;
            aj = oj;
            double quad = Kii + (double)lqd[j] - 2.0 * Kij;
            if (quad <= 0.0) quad = GPUSVM_TAU;
            if (yi != yj) {
                const double delta = (-lg[i] - lg[j]) / quad;
                const double diff = ai - aj;
                ai += delta;
                aj += delta;
                if (diff > 0) { if (aj < 0) { aj = 0; ai = diff; } }
                else { if (ai < 0) { ai = 0; aj = -diff; } }
                if (diff > Ci - Cj) { if (ai > Ci) { ai = Ci; aj = Ci - diff; } }
                else { if (aj > Cj) { aj = Cj; ai = Cj + diff; } }
            } else {
                const double delta = (lg[i] - lg[j]) / quad;
                const double sum = ai + aj;
                ai -= delta;
                aj += delta;
                if (sum > Ci) { if (ai > Ci) { ai = Ci; aj = sum - Ci; } }
                else { if (aj < 0) { aj = 0; ai = sum; } }
                if (sum > Cj) { if (aj > Cj) { aj = Cj; ai = sum - Cj; } }
                else { if (ai < 0) { ai = 0; aj = sum; } }
            }
            di = ai - oi;
            dj = aj - oj;
        }
        barrier(CLK_LOCAL_MEM_FENCE); /* everyone has read la[i], la[j], lg[i], lg[j] */
        if (step_ok) {
            const int yi = lyv[i], yj = lyv[j];
            const __global float *Kj = K + (size_t)lslot[j] * qmax;
            for (int t = GPUSVM_LID; t < m; t += GPUSVM_L) {
                const double kit = (double)Ki[t], kjt = (double)Kj[t];
                const double qi = (lyv[t] == yi) ? kit : -kit;
                const double qj = (lyv[t] == yj) ? kjt : -kjt;
                lg[t] += qi * di + qj * dj;
                if (t == i) la[t] = ai;
                if (t == j) la[t] = aj;
            }
        }
        /* no barrier: the next trip's sweeps read only a work-item's own positions until its first
         * barrier, and every cross read (la[i], lg[j], ...) comes after two more */
        it += step_ok;
        trip = step_ok ? trip + 1 : budget;
    }

    for (int t = GPUSVM_LID; t < m; t += GPUSVM_L) {
        const int i = lidx[t];
        const double d = la[t] - alpha[i];
        coef[t] = lyv[t] > 0 ? d : -d;
        alpha[i] = la[t];
    }
    if (GPUSVM_LID == 0) {
        status[GPUSVM_ST_ITER] += (double)it;
        status[GPUSVM_ST_INNER] = (double)it;
    }
}
