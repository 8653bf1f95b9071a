/* gpusvm kernels, part 3: the inner solve.
 *
 * One work-group per problem of the batch runs LIBSVM's SMO on that
 * problem's working-set subproblem (so the pairs of one-vs-one and the folds
 * of a cross-validation solve side by side on the device): the
 * maximal-violating i, the second-order j (WSS2, Fan, Chen and Lin 2005), the
 * analytic two-variable step with LIBSVM's clipping, and the gradient update
 * of the working set, all in local memory. Kernel values come from the rows
 * gpusvm_rows_tiled left in K, which gpusvm_gather_block copies into the working set's
 * contiguous q x q block first (row and column = working-set position), so
 * that every row sweep is coalesced. Reductions are arg-extrema in
 * Structure-of-Arrays form (value array, index array), ties going to the
 * larger position as LIBSVM's ">=" does; a pair update waits on them, so
 * where the device has warp exchanges (part 0) they run in registers, one
 * barrier each. The orders are total ((value, position) pairs), so every
 * reduction order gives the same answer as LIBSVM's linear scan.
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
 * Two barriers a pair update with warp exchanges (Catanzaro's point: the
 * inner loop is bound by its synchronisations and memory latencies, not its
 * arithmetic); the work-group is GPUSVM__SMO_L wide (the host's choice). Work-item
 * w owns working-set positions w, w + L, ...: their alpha and gradient live
 * in its registers. After i's reduction (barrier 1) it publishes them to
 * local memory; after j's (barrier 2) every work-item computes the same
 * two-variable step from the published values (contraction is off, so the
 * same bits), starts loading j's row at once and updates its own positions.
 * The publication of the next trip comes after the next barrier 1, so no
 * reader of this trip's values can see it early; i's row, read for j's
 * choice, stays in registers for the gradient update, and its value at each
 * position goes to local memory for the step's K_ij.
 *
 * The local id is read with get_local_id() wherever it is used, never kept
 * in a variable across the loop's barriers: PoCL 3.1 loses such a variable.
 */
#define GPUSVM_LID ((int)get_local_id(0))
#define GPUSVM_PER ((GPUSVM__Q + GPUSVM__SMO_L - 1) / GPUSVM__SMO_L) /* working-set positions a work-item owns */
#define GPUSVM_OWN(c) (GPUSVM_LID + (c) * GPUSVM__SMO_L)      /* its c-th */

/* The choices of i and j compare scores: with double the values themselves; with float pairs
 * their floats (a pair's hi, part 0), which choose as well (a tie within a float's precision
 * goes to the larger position) and keep each pair update's chain of dependent operations
 * short (docs/results.md, the code's choices). The
 * step takes the pairs. */
#ifdef GPUSVM_NO_FP64
typedef float gpusvm_score;
#define GPUSVM_SC(v) ((v).hi)
#define GPUSVM_XOR_SC(v, m) gpusvm_xor_f((v), (m))
#else
typedef double gpusvm_score;
#define GPUSVM_SC(v) (v)
#define GPUSVM_XOR_SC(v, m) gpusvm_xor_w((v), (m))
#endif

/* (a, ia) := the larger of (a, ia) and (b, ib) in the order of (value, position). */
#define GPUSVM_ARGMAX(a, ia, b, ib)                                   \
    do {                                                              \
        const gpusvm_score b_ = (b);                                  \
        const int ib_ = (ib);                                         \
        const int take_ = (b_ > (a)) || (b_ == (a) && ib_ > (ia));    \
        (a) = take_ ? b_ : (a);                                       \
        (ia) = take_ ? ib_ : (ia);                                    \
    } while (0)

/* One step of a local-memory tree: (rv, ri)[lid] := the larger of it and (rv, ri)[u] */
#define GPUSVM_TREE_ARGMAX(rv, ri, u)                                 \
    do {                                                              \
        gpusvm_score a_ = (rv)[GPUSVM_LID];                           \
        int ia_ = (ri)[GPUSVM_LID];                                   \
        GPUSVM_ARGMAX(a_, ia_, (rv)[u], (ri)[u]);                     \
        (rv)[GPUSVM_LID] = a_;                                        \
        (ri)[GPUSVM_LID] = ia_;                                       \
    } while (0)

#ifdef GPUSVM_SHFL
#define GPUSVM_NW (GPUSVM__SMO_L / GPUSVM_WARP)
#if GPUSVM_NW > GPUSVM_WARP
#error "gpusvm_smo folds one partial per warp in one warp: GPUSVM__SMO_L is at most 1024"
#endif
#if defined(GPUSVM_NV_REDUX) && defined(GPUSVM_NO_FP64)
/* (v, t) := the warp's arg-max of (v, t), in every lane: two redux.sync (part 0), the float's
   order key and the position among the lanes that hold it */
#define GPUSVM_WARP_ARGMAX(v, t)                                                  \
    do {                                                                          \
        const uint k_ = gpusvm_float_key((v) + 0.0f);                             \
        const uint K_ = gpusvm_redux_max(k_);                                     \
        const uint T_ = gpusvm_redux_max(k_ == K_ ? (uint)((t) + 1) : 0u);       \
        v = gpusvm_key_float(K_);                                                 \
        t = (int)T_ - 1;                                                          \
    } while (0)
/* v := the warp's maximum of v, in every lane: one */
#define GPUSVM_WARP_MAX(v) v = gpusvm_key_float(gpusvm_redux_max(gpusvm_float_key((v) + 0.0f)))
#elif defined(GPUSVM_NV_REDUX)
/* (v, t) := the warp's arg-max of (v, t), in every lane: three redux.sync (part 0) */
#define GPUSVM_WARP_ARGMAX(v, t)                                                  \
    do {                                                                          \
        const ulong k_ = gpusvm_wide_key(v);                                      \
        const uint hi_ = (uint)(k_ >> 32), lo_ = (uint)k_;                        \
        const uint H_ = gpusvm_redux_max(hi_);                                    \
        const uint L_ = gpusvm_redux_max(hi_ == H_ ? lo_ : 0u);                   \
        const uint T_ = gpusvm_redux_max(hi_ == H_ && lo_ == L_ ? (uint)((t) + 1) : 0u); \
        v = gpusvm_key_wide(((ulong)H_ << 32) | L_);                              \
        t = (int)T_ - 1;                                                          \
    } while (0)
/* v := the warp's maximum of v, in every lane: two */
#define GPUSVM_WARP_MAX(v)                                                        \
    do {                                                                          \
        const ulong k_ = gpusvm_wide_key(v);                                      \
        const uint hi_ = (uint)(k_ >> 32);                                        \
        const uint H_ = gpusvm_redux_max(hi_);                                    \
        const uint L_ = gpusvm_redux_max(hi_ == H_ ? (uint)k_ : 0u);              \
        v = gpusvm_key_wide(((ulong)H_ << 32) | L_);                              \
    } while (0)
#else
/* (v, t) := the warp's arg-max of (v, t), in every lane */
#define GPUSVM_WARP_ARGMAX(v, t)                                                  \
    for (int m_ = GPUSVM_WARP / 2; m_ > 0; m_ >>= 1)                              \
        GPUSVM_ARGMAX(v, t, GPUSVM_XOR_SC(v, m_), gpusvm_xor_i(t, m_))
/* v := the warp's maximum of v, in every lane */
#define GPUSVM_WARP_MAX(v)                                                        \
    for (int m_ = GPUSVM_WARP / 2; m_ > 0; m_ >>= 1) v = fmax(v, GPUSVM_XOR_SC(v, m_))
#endif
/* (v, t) := the arg-max of the warps' partials rv[0..NW), ri[0..NW) (after the barrier that
 * follows their writing), in every work-item: lane u reads partial u mod NW, so every NW lanes
 * hold all of them, and a warp arg-max finishes it */
#define GPUSVM_WARPS_ARGMAX(v, t, rv, ri)                                         \
    do {                                                                          \
        const int u_ = GPUSVM_LID % GPUSVM_NW;                                    \
        v = (rv)[u_];                                                             \
        t = (ri)[u_];                                                             \
        GPUSVM_WARP_ARGMAX(v, t);                                                 \
    } while (0)
/* v := the maximum of the warps' partials r[0..NW), likewise */
#define GPUSVM_WARPS_MAX(v, r)                                                    \
    do {                                                                          \
        v = (r)[GPUSVM_LID % GPUSVM_NW];                                          \
        GPUSVM_WARP_MAX(v);                                                       \
    } while (0)
#endif

/* Work-group arg-max (or arg-min when neg) of (v, t); the result's index in every
   work-item (rv, ri: scratch of GPUSVM__SMO_L / 32 words with warp exchanges, else GPUSVM__SMO_L). */
int gpusvm_argbest(__local gpusvm_score *rv, __local int *ri, gpusvm_score v, int t, int neg)
{
    if (neg) v = -v; /* the arg-min of v is the arg-max of -v, ties alike */
#ifdef GPUSVM_SHFL
    GPUSVM_WARP_ARGMAX(v, t);
    if (GPUSVM_LID % GPUSVM_WARP == 0) {
        rv[GPUSVM_LID / GPUSVM_WARP] = v;
        ri[GPUSVM_LID / GPUSVM_WARP] = t;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    GPUSVM_WARPS_ARGMAX(v, t, rv, ri);
    return t;
#else
    rv[GPUSVM_LID] = v;
    ri[GPUSVM_LID] = t;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = GPUSVM__SMO_L / 2; s > 0; s >>= 1) {
        if (GPUSVM_LID < s) GPUSVM_TREE_ARGMAX(rv, ri, GPUSVM_LID + s);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    return ri[0];
#endif
}

/* The working set's q x q block, contiguous: Kq[position r][position t] = K[slot of r][point of
 * t], so that the inner solve reads a row of it with one coalesced sweep instead of q scattered
 * words of an n-wide row (grid: positions t, positions r, problems). */
#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_COPY)
__kernel void gpusvm_gather_block(GPUSVM__ARGS_GATHER(GPUSVM__PARAM, GPUSVM__COMMA))
{
    const int t = get_global_id(0), r = get_global_id(1), p = get_global_id(2);
    __global const int *pi = pinfo + p * GPUSVM__PI_COUNT;
    const int q = pi[GPUSVM__PI_Q];
    if (!GPUSVM_RUNNING(status + p * GPUSVM__ST_COUNT) || t >= q || r >= q) return;
    Kq0[((size_t)p * qmax + r) * qmax + t] =
        K0[((size_t)p * qmax + ws_slot0[p * qmax + r]) * ldk + GPUSVM__PT(ws_idx0[p * qmax + t], pi[GPUSVM__PI_SPLIT])];
}
#endif

/* This work-item's candidates for i (the maximal violator in I_up, per class) and the maxima
 * of -v over I_low, over its own positions (alpha a, gradient g, bound C, label yv in registers);
 * class 1 only with nu (y = -1), as Solver_NU. */
GPUSVM_INLINE void gpusvm_smo_scan_i(const gpusvm_wide *a, const gpusvm_wide *g, const gpusvm_wide *C, const char *yv,
                                     int m, int nu, gpusvm_score *bv0, int *bi0, gpusvm_score *bv1, int *bi1,
                                     gpusvm_score *g20, gpusvm_score *g21)
{
    for (int c = 0; c < GPUSVM_PER; ++c) {
        const int t = GPUSVM_OWN(c);
        if (t >= m) break;
        const int pos = yv[c] > 0;
        const gpusvm_score v = pos ? -GPUSVM_SC(g[c]) : GPUSVM_SC(g[c]);
        const int in_up = pos ? GPUSVM_W_LT(a[c], C[c]) : GPUSVM_W_GT(a[c], GPUSVM_W_F(0.0f));
        const int in_low = pos ? GPUSVM_W_GT(a[c], GPUSVM_W_F(0.0f)) : GPUSVM_W_LT(a[c], C[c]);
        if (nu && !pos) {
            if (in_up && (v > *bv1 || (v == *bv1 && t > *bi1))) { *bv1 = v; *bi1 = t; }
            if (in_low) *g21 = fmax(*g21, -v);
        } else {
            if (in_up && (v > *bv0 || (v == *bv0 && t > *bi0))) { *bv0 = v; *bi0 = t; }
            if (in_low) *g20 = fmax(*g20, -v);
        }
    }
}

/* One reduction for all four: both classes' arg-max and both maxima over I_low (the barriers,
 * not the arithmetic, are what a pair update waits on); the results in every work-item. The
 * scratch: one word per warp with warp exchanges, else one per work-item. */
GPUSVM_INLINE void gpusvm_smo_reduce_i(__local gpusvm_score *rv, __local int *ri, __local gpusvm_score *rv1,
                                       __local int *ri1, __local gpusvm_score *rg, __local gpusvm_score *rg2, int nu,
                                       gpusvm_score bv0, int bi0, gpusvm_score bv1, int bi1, gpusvm_score g20,
                                       gpusvm_score g21, gpusvm_score *Gmax0, int *i0, gpusvm_score *Gmax1, int *i1,
                                       gpusvm_score *Gmax20, gpusvm_score *Gmax21)
{
#ifdef GPUSVM_SHFL
    GPUSVM_WARP_ARGMAX(bv0, bi0);
    GPUSVM_WARP_MAX(g20);
    if (nu) { /* uniform */
        GPUSVM_WARP_ARGMAX(bv1, bi1);
        GPUSVM_WARP_MAX(g21);
    }
    if (GPUSVM_LID % GPUSVM_WARP == 0) {
        const int w = GPUSVM_LID / GPUSVM_WARP;
        rv[w] = bv0;
        ri[w] = bi0;
        rv1[w] = bv1;
        ri1[w] = bi1;
        rg[w] = g20;
        rg2[w] = g21;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    gpusvm_score G0, G1 = -INFINITY, G20, G21 = -INFINITY;
    int j0, j1 = -1;
    GPUSVM_WARPS_ARGMAX(G0, j0, rv, ri);
    GPUSVM_WARPS_MAX(G20, rg);
    if (nu) { /* uniform */
        GPUSVM_WARPS_ARGMAX(G1, j1, rv1, ri1);
        GPUSVM_WARPS_MAX(G21, rg2);
    }
#else
    rv[GPUSVM_LID] = bv0;
    ri[GPUSVM_LID] = bi0;
    rv1[GPUSVM_LID] = bv1;
    ri1[GPUSVM_LID] = bi1;
    rg[GPUSVM_LID] = g20;
    rg2[GPUSVM_LID] = g21;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = GPUSVM__SMO_L / 2; s > 0; s >>= 1) {
        if (GPUSVM_LID < s) {
            const int u = GPUSVM_LID + s;
            GPUSVM_TREE_ARGMAX(rv, ri, u);
            GPUSVM_TREE_ARGMAX(rv1, ri1, u);
            rg[GPUSVM_LID] = fmax(rg[GPUSVM_LID], rg[u]);
            rg2[GPUSVM_LID] = fmax(rg2[GPUSVM_LID], rg2[u]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const gpusvm_score G0 = rv[0], G1 = rv1[0], G20 = rg[0], G21 = rg2[0];
    const int j0 = ri[0], j1 = ri1[0];
    barrier(CLK_LOCAL_MEM_FENCE); /* everyone has read rv, ri before j's reduction reuses them */
#endif
    *Gmax0 = G0;
    *i0 = j0;
    *Gmax1 = nu ? G1 : -INFINITY;
    *i1 = nu ? j1 : -1;
    *Gmax20 = G20;
    *Gmax21 = G21;
}

/* LIBSVM's second-order score of a partner (the objective's change, negated: the smaller the
 * better) for a violation b > 0 against an i of diagonal Kii, with the partner's diagonal qd and
 * its kernel value with i, ki (the C backend's gpusvm__wss2). */
GPUSVM_INLINE gpusvm_score gpusvm_smo_wss2(gpusvm_score b, gpusvm_wide Kii, float qd, float ki)
{
    const gpusvm_wide qw = /* exact */
        GPUSVM_W_SUB(GPUSVM_W_ADD(Kii, GPUSVM_W_F(qd)), GPUSVM_W_MULF(GPUSVM_W_F(ki), 2.0f));
    gpusvm_score quad = GPUSVM_SC(qw);
    if (quad <= 0.0f) quad = GPUSVM_SC(GPUSVM_W_TAU);
    return -(b * b) / quad;
}

/* Each of this work-item's positions' value of the i row of its class (Ki0 / Ki1; class 1 only
 * with nu) into ki (registers) and lki (local memory): loaded as soon as i is known, the L2 round
 * trip under the publishing and the stop test. */
GPUSVM_INLINE void gpusvm_smo_load_i(const char *yv, __local float *lki, float *ki, int m, int nu,
                                     __global const float *Ki0, __global const float *Ki1)
{
    for (int c = 0; c < GPUSVM_PER; ++c) {
        const int t = GPUSVM_OWN(c);
        if (t >= m) break;
        ki[c] = (nu && yv[c] < 0 ? Ki1 : Ki0)[t];
        lki[t] = ki[c];
    }
}

/* This work-item's candidate for j: the second-order choice over I_low among its own
 * positions, against the i of its own class (ki: its value of that i's row, gpusvm_smo_load_i;
 * Kii0 / Kii1: the i's diagonals); *bj -1 when none. */
GPUSVM_INLINE void gpusvm_smo_scan_j(const gpusvm_wide *a, const gpusvm_wide *g, const gpusvm_wide *C, const char *yv,
                                     __local const float *lqd, const float *ki, int m, int nu, gpusvm_score Gmax0,
                                     gpusvm_score Gmax1, gpusvm_wide Kii0, gpusvm_wide Kii1, gpusvm_score *bo, int *bj)
{
    for (int c = 0; c < GPUSVM_PER; ++c) {
        const int t = GPUSVM_OWN(c);
        if (t >= m) break;
        const int pos = yv[c] > 0;
        const int c1 = nu && !pos;
        const int in_low = pos ? GPUSVM_W_GT(a[c], GPUSVM_W_F(0.0f)) : GPUSVM_W_LT(a[c], C[c]);
        const gpusvm_score v = pos ? -GPUSVM_SC(g[c]) : GPUSVM_SC(g[c]);
        const gpusvm_score b = (c1 ? Gmax1 : Gmax0) - v;
        if (in_low && b > 0.0f) {
            const gpusvm_score o = gpusvm_smo_wss2(b, c1 ? Kii1 : Kii0, lqd[t], ki[c]);
            if (o < *bo || (o == *bo && t > *bj)) { *bo = o; *bj = t; }
        }
    }
}

/* The two-variable step, exactly as LIBSVM's Solver::Solve: from i's and j's alphas, gradients,
 * bounds and labels, j's diagonal, k(i, j) and i's diagonal, the new alphas into *ai_out, *aj_out
 * (every work-item that calls it computes the same bits). */
GPUSVM_INLINE void gpusvm_smo_step(gpusvm_wide ai, gpusvm_wide aj, gpusvm_wide gi, gpusvm_wide gj, gpusvm_wide Ci,
                                   gpusvm_wide Cj, int yi, int yj, float qdj, gpusvm_wide Kij, gpusvm_wide Kii,
                                   gpusvm_wide *ai_out, gpusvm_wide *aj_out)
{
    const gpusvm_wide zero = GPUSVM_W_F(0.0f);
    gpusvm_wide quad = GPUSVM_W_SUB(GPUSVM_W_ADD(Kii, GPUSVM_W_F(qdj)), GPUSVM_W_MULF(Kij, 2.0f));
    if (GPUSVM_W_LE(quad, zero)) quad = GPUSVM_W_TAU;
    if (yi != yj) {
        const gpusvm_wide delta = GPUSVM_W_DIV(GPUSVM_W_SUB(GPUSVM_W_NEG(gi), gj), quad);
        const gpusvm_wide diff = GPUSVM_W_SUB(ai, aj);
        ai = GPUSVM_W_ADD(ai, delta);
        aj = GPUSVM_W_ADD(aj, delta);
        if (GPUSVM_W_GT(diff, zero)) { if (GPUSVM_W_LT(aj, zero)) { aj = zero; ai = diff; } }
        else { if (GPUSVM_W_LT(ai, zero)) { ai = zero; aj = GPUSVM_W_NEG(diff); } }
        if (GPUSVM_W_GT(diff, GPUSVM_W_SUB(Ci, Cj))) { if (GPUSVM_W_GT(ai, Ci)) { ai = Ci; aj = GPUSVM_W_SUB(Ci, diff); } }
        else { if (GPUSVM_W_GT(aj, Cj)) { aj = Cj; ai = GPUSVM_W_ADD(Cj, diff); } }
    } else {
        const gpusvm_wide delta = GPUSVM_W_DIV(GPUSVM_W_SUB(gi, gj), quad);
        const gpusvm_wide sum = GPUSVM_W_ADD(ai, aj);
        ai = GPUSVM_W_SUB(ai, delta);
        aj = GPUSVM_W_ADD(aj, delta);
        if (GPUSVM_W_GT(sum, Ci)) { if (GPUSVM_W_GT(ai, Ci)) { ai = Ci; aj = GPUSVM_W_SUB(sum, Ci); } }
        else { if (GPUSVM_W_LT(aj, zero)) { aj = zero; ai = sum; } }
        if (GPUSVM_W_GT(sum, Cj)) { if (GPUSVM_W_GT(aj, Cj)) { aj = Cj; ai = GPUSVM_W_SUB(sum, Cj); } }
        else { if (GPUSVM_W_LT(ai, zero)) { ai = zero; aj = sum; } }
    }
    *ai_out = ai;
    *aj_out = aj;
}

/* ---- The third level (part 0's GPUSVM__SET_*): a set S of the working set solved alone ----
 *
 * Compiled only into the program of GPUSVM_INNER=sets (the host's -D GPUSVM_SETS): the plain
 * loop's program holds none of it, its registers and local memory its own.
 *
 * Each step of the work-group's loop takes LIBSVM's i and j over the whole working set as the
 * plain loop does; then S: each group's best i and best j against i, where a group is a warp's
 * positions at a work-group of 512 (their partials of the two reductions, so S costs no
 * reduction of its own) or, on other widths, a scan of its 32 positions by one work-item. S's
 * block of kernel values goes to local memory, S is solved with LIBSVM's pair updates by one warp
 * in registers and shuffles (NVIDIA; elsewhere by one work-item), with no work-group barrier
 * between its pairs, and the working set's other gradients take S's changes at once. The first
 * pair on S is the plain loop's (i, j): S holds both, ties go to the later position there too. */

#if defined(GPUSVM_SETS) && !defined(GPUSVM_NO_FP64)
#define GPUSVM_SET_ON 1

/* S's member u: its working-set position (-1: none), from the groups' best i (gi) and best j (gj):
 * members 0..GROUPS-1 the i, the rest the j where they are not their group's i. */
GPUSVM_INLINE int gpusvm_set_member(__local const int *gi, __local const int *gj, int u)
{
    const int g = u % GPUSVM__SET_GROUPS;
    return u < GPUSVM__SET_GROUPS ? gi[g] : (gj[g] != gi[g] ? gj[g] : -1);
}

/* Group g's best i (the largest -yG over I_up, ties to the later position) and best j against i
 * (the smallest second-order score over I_low with a positive violation, likewise) into gi[g],
 * gj[g] (-1: none), from the published values: what the warps' partials hold where a warp is a
 * group. */
GPUSVM_INLINE void gpusvm_set_group(__local const gpusvm_wide *la, __local const gpusvm_wide *lg,
                                    __local const gpusvm_wide *lC, __local const char *lyv, __local const float *lqd,
                                    __local const float *lki, int m, int g, gpusvm_score Gmax, gpusvm_wide Kii,
                                    __local int *gi, __local int *gj)
{
    gpusvm_score bv = -INFINITY, bo = INFINITY;
    int bi = -1, bj = -1;
    for (int t0 = g * GPUSVM__SET_WIDTH; t0 < m; t0 += GPUSVM__SET_GROUPS * GPUSVM__SET_WIDTH)
        for (int t = t0; t < t0 + GPUSVM__SET_WIDTH && t < m; ++t) {
            const int pos = lyv[t] > 0;
            const gpusvm_score v = pos ? -GPUSVM_SC(lg[t]) : GPUSVM_SC(lg[t]);
            const int in_up = pos ? GPUSVM_W_LT(la[t], lC[t]) : GPUSVM_W_GT(la[t], GPUSVM_W_F(0.0f));
            const int in_low = pos ? GPUSVM_W_GT(la[t], GPUSVM_W_F(0.0f)) : GPUSVM_W_LT(la[t], lC[t]);
            const gpusvm_score b = Gmax - v;
            if (in_up && v >= bv) { bv = v; bi = t; }
            if (in_low && b > 0.0f) {
                const gpusvm_score o = gpusvm_smo_wss2(b, Kii, lqd[t], lki[t]);
                if (o <= bo) { bo = o; bj = t; }
            }
        }
    gi[g] = bi;
    gj[g] = bj;
}

/* S's positions into set[0..SET_MAX) and its block ks[u][w] = Kq[S_u][S_w] (0 where either is
 * none), by the whole work-group (a barrier follows). */
GPUSVM_INLINE void gpusvm_set_fill(__global const float *K, int qmax, __local const int *gi, __local const int *gj,
                                   __local int *set, __local float *ks)
{
    for (int e = GPUSVM_LID; e < GPUSVM__SET_MAX * GPUSVM__SET_MAX; e += GPUSVM__SMO_L) {
        const int u = e / GPUSVM__SET_MAX, w = e % GPUSVM__SET_MAX;
        const int su = gpusvm_set_member(gi, gj, u), sw = gpusvm_set_member(gi, gj, w);
        ks[u * GPUSVM__SET_LD + w] = su >= 0 && sw >= 0 ? K[(size_t)su * qmax + sw] : 0.0f;
    }
    for (int u = GPUSVM_LID; u < GPUSVM__SET_MAX; u += GPUSVM__SMO_L) set[u] = gpusvm_set_member(gi, gj, u);
}

/* The working set's positions this work-item owns take S's changes sd (member by member, in
 * member order, the C backend's order): S's own from the solve (la, lg), the others' gradients
 * += d_u q_tu, their kernel values loaded GPUSVM_SET_LOADS at a time (independent loads in flight
 * together, not one L2 round trip a member). */
#define GPUSVM_SET_LOADS 16
GPUSVM_INLINE void gpusvm_set_apply(gpusvm_wide *a, gpusvm_wide *g, const char *yv, int m, __global const float *K,
                                    int qmax, __local const int *set, __local const gpusvm_wide *sd,
                                    __local const gpusvm_wide *la, __local const gpusvm_wide *lg,
                                    __local const char *lyv)
{
    for (int c = 0; c < GPUSVM_PER; ++c) {
        const int t = GPUSVM_OWN(c);
        if (t >= m) break;
        gpusvm_wide gt = g[c];
        int in_s = 0;
        for (int u0 = 0; u0 < GPUSVM__SET_MAX; u0 += GPUSVM_SET_LOADS) {
            float kv[GPUSVM_SET_LOADS]; /* a chunk's kernel values loaded at once, then summed in order */
#pragma unroll
            for (int e = 0; e < GPUSVM_SET_LOADS; ++e) {
                const int s = set[u0 + e];
                kv[e] = s >= 0 && !GPUSVM_W_EQ(sd[u0 + e], GPUSVM_W_F(0.0f)) ? K[(size_t)s * qmax + t] : 0.0f;
            }
#pragma unroll
            for (int e = 0; e < GPUSVM_SET_LOADS; ++e) {
                const int s = set[u0 + e];
                const gpusvm_wide d = sd[u0 + e];
                if (s < 0) continue;
                in_s |= s == t;
                if (GPUSVM_W_EQ(d, GPUSVM_W_F(0.0f))) continue;
                gt = GPUSVM_W_ADD(gt, GPUSVM_W_MULF(d, yv[c] == lyv[s] ? kv[e] : -kv[e]));
            }
        }
        a[c] = la[t];
        g[c] = in_s ? lg[t] : gt;
    }
}

/* S solved by one work-item (devices without the warp solve): pairs until S's gap is below
 * max(eps_s, its first gap / GPUSVM__SET_DIV), at most GPUSVM__SET_PAIRS x |S| and left; the new
 * alphas and gradients into la, lg, the changes into sd. Returns its pair updates. */
GPUSVM_INLINE int gpusvm_set_solve_one(__local gpusvm_wide *la, __local gpusvm_wide *lg, __local const gpusvm_wide *lC,
                                       __local const float *lqd, __local const char *lyv, __local const int *set,
                                       __local const float *ks, __local gpusvm_wide *sd, gpusvm_score eps_s, int left)
{
    gpusvm_wide a[GPUSVM__SET_MAX], g[GPUSVM__SET_MAX];
    int n = 0, k = 0;
    gpusvm_score stop = 0.0f;
    for (int u = 0; u < GPUSVM__SET_MAX; ++u) {
        const int s = set[u];
        a[u] = s >= 0 ? la[s] : GPUSVM_W_F(0.0f);
        g[u] = s >= 0 ? lg[s] : GPUSVM_W_F(0.0f);
        n += s >= 0;
    }
    const int cap = min(GPUSVM__SET_PAIRS * n, left);
    while (k < cap) {
        gpusvm_score Gmax = -INFINITY, G2 = -INFINITY, bo = INFINITY;
        int i = -1, j = -1, ip = -1, jp = -1;
        for (int u = 0; u < GPUSVM__SET_MAX; ++u) {
            const int s = set[u], pos = lyv[max(s, 0)] > 0;
            if (s < 0) continue;
            const gpusvm_score v = pos ? -GPUSVM_SC(g[u]) : GPUSVM_SC(g[u]);
            const int in_up = pos ? GPUSVM_W_LT(a[u], lC[s]) : GPUSVM_W_GT(a[u], GPUSVM_W_F(0.0f));
            const int in_low = pos ? GPUSVM_W_GT(a[u], GPUSVM_W_F(0.0f)) : GPUSVM_W_LT(a[u], lC[s]);
            if (in_up && (v > Gmax || (v == Gmax && s > ip))) { Gmax = v; i = u; ip = s; }
            if (in_low) G2 = fmax(G2, -v);
        }
        if (i < 0) break;
        const gpusvm_score gap = Gmax + G2;
        if (k == 0) stop = GPUSVM__SET_STOP(fmax, eps_s, gap);
        else if (gap < stop) break;
        const gpusvm_wide Kii = GPUSVM_W_F(lqd[ip]);
        for (int u = 0; u < GPUSVM__SET_MAX; ++u) {
            const int s = set[u], pos = lyv[max(s, 0)] > 0;
            if (s < 0) continue;
            const gpusvm_score b = Gmax - (pos ? -GPUSVM_SC(g[u]) : GPUSVM_SC(g[u]));
            const int in_low = pos ? GPUSVM_W_GT(a[u], GPUSVM_W_F(0.0f)) : GPUSVM_W_LT(a[u], lC[s]);
            if (!in_low || !(b > 0.0f)) continue;
            const gpusvm_score o = gpusvm_smo_wss2(b, Kii, lqd[s], ks[i * GPUSVM__SET_LD + u]);
            if (o < bo || (o == bo && s > jp)) { bo = o; j = u; jp = s; }
        }
        if (j < 0) break;
        gpusvm_wide ai, aj;
        const int yi = lyv[ip], yj = lyv[jp];
        gpusvm_smo_step(a[i], a[j], g[i], g[j], lC[ip], lC[jp], yi, yj, lqd[jp], GPUSVM_W_F(ks[i * GPUSVM__SET_LD + j]),
                        Kii, &ai, &aj);
        const gpusvm_wide di = GPUSVM_W_SUB(ai, a[i]), dj = GPUSVM_W_SUB(aj, a[j]);
        for (int u = 0; u < GPUSVM__SET_MAX; ++u) {
            const int y = lyv[max(set[u], 0)];
            const float kiu = ks[i * GPUSVM__SET_LD + u], kju = ks[j * GPUSVM__SET_LD + u];
            g[u] = GPUSVM_W_ADD(g[u], GPUSVM_W_ADD(GPUSVM_W_MULF(di, y == yi ? kiu : -kiu),
                                                   GPUSVM_W_MULF(dj, y == yj ? kju : -kju)));
        }
        a[i] = ai;
        a[j] = aj;
        ++k;
    }
    for (int u = 0; u < GPUSVM__SET_MAX; ++u) {
        const int s = set[u];
        sd[u] = s >= 0 ? GPUSVM_W_SUB(a[u], la[s]) : GPUSVM_W_F(0.0f);
        if (s < 0) continue;
        la[s] = a[u];
        lg[s] = g[u];
    }
    return k;
}

#if defined(GPUSVM_NV_SHFL) && !defined(GPUSVM_NO_FP64) && GPUSVM__SMO_L == GPUSVM__SET_GROUPS * GPUSVM__SET_WIDTH
/* The warps are the groups (their partials are the groups' best i and j) and the first warp
 * solves S, a member a lane: gpusvm_set_solve_one's pairs in registers and shuffles, the arg-max
 * keyed by (position, lane) so that ties go to the later position and the key names the lane. */
#define GPUSVM_SET_WARP 1
GPUSVM_INLINE int gpusvm_set_solve_warp(__local gpusvm_wide *la, __local gpusvm_wide *lg, __local const gpusvm_wide *lC,
                                        __local const float *lqd, __local const char *lyv, __local const int *set,
                                        __local const float *ks, __local gpusvm_wide *sd, gpusvm_score eps_s, int left)
{
    const int u = GPUSVM_LID, s = set[u], ok = s >= 0, key = ok ? s * GPUSVM_WARP + u : -1;
    const int y = ok ? lyv[s] : 1;
    const gpusvm_wide C = ok ? lC[s] : 0.0, zero = 0.0;
    const float qd = ok ? lqd[s] : 0.0f;
    gpusvm_wide a = ok ? la[s] : zero, g = ok ? lg[s] : zero;
    int n = ok, k = 0;
    gpusvm_score stop = 0.0;
    for (int m_ = GPUSVM_WARP / 2; m_ > 0; m_ >>= 1) n += gpusvm_xor_i(n, m_);
    const int cap = min(GPUSVM__SET_PAIRS * n, left);
    while (k < cap) {
        const gpusvm_score v = y > 0 ? -g : g;
        const int in_up = ok && (y > 0 ? a < C : a > zero), in_low = ok && (y > 0 ? a > zero : a < C);
        gpusvm_score Gmax = in_up ? v : -INFINITY, G2 = in_low ? -v : -INFINITY;
        int ti = in_up ? key : -1;
        GPUSVM_WARP_ARGMAX(Gmax, ti);
        GPUSVM_WARP_MAX(G2);
        if (ti < 0) break;
        const gpusvm_score gap = Gmax + G2;
        if (k == 0) stop = GPUSVM__SET_STOP(fmax, eps_s, gap);
        else if (gap < stop) break;
        const int li = ti % GPUSVM_WARP, si = ti / GPUSVM_WARP;
        const gpusvm_wide Kii = (double)lqd[si];
        const float kiu = ks[li * GPUSVM__SET_LD + u];
        const gpusvm_score b = Gmax - v;
        const int cand = in_low && b > 0.0;
        gpusvm_score o = cand ? -gpusvm_smo_wss2(b, Kii, qd, kiu) : -INFINITY;
        int tj = cand ? key : -1;
        GPUSVM_WARP_ARGMAX(o, tj);
        if (tj < 0) break;
        const int lj = tj % GPUSVM_WARP, sj = tj / GPUSVM_WARP;
        const gpusvm_wide ai = gpusvm_lane_w(a, li), gi = gpusvm_lane_w(g, li);
        const gpusvm_wide aj = gpusvm_lane_w(a, lj), gj = gpusvm_lane_w(g, lj);
        const int yi = lyv[si], yj = lyv[sj];
        gpusvm_wide ni, nj;
        gpusvm_smo_step(ai, aj, gi, gj, lC[si], lC[sj], yi, yj, lqd[sj], (double)ks[li * GPUSVM__SET_LD + lj], Kii, &ni,
                        &nj);
        const gpusvm_wide di = ni - ai, dj = nj - aj;
        const float kju = ks[lj * GPUSVM__SET_LD + u];
        g = g + (di * (double)(y == yi ? kiu : -kiu) + dj * (double)(y == yj ? kju : -kju));
        a = u == li ? ni : (u == lj ? nj : a);
        ++k;
    }
    sd[u] = ok ? a - la[max(s, 0)] : zero;
    if (ok) {
        la[s] = a;
        lg[s] = g;
    }
    return k;
}
#endif

/* One step of the third level after the plain loop's (i, j) (Gmax: i's score, Kii: its diagonal):
 * the groups' candidates (gi, gj: the warps' partials where they are the groups), S and its block,
 * S solved, its changes applied to this work-item's positions. Returns S's pair updates (every
 * work-item). */
GPUSVM_INLINE int gpusvm_set_round(gpusvm_wide *a, gpusvm_wide *g, const char *yv, int m, __global const float *K,
                                   int qmax, __local gpusvm_wide *la, __local gpusvm_wide *lg,
                                   __local const gpusvm_wide *lC, __local const float *lqd, __local const char *lyv,
                                   __local const float *lki, __local int *gi, __local int *gj, __local int *set,
                                   __local float *ks, __local gpusvm_wide *sd, __local int *sn, gpusvm_score Gmax,
                                   gpusvm_wide Kii, gpusvm_score eps_s, int left)
{
#ifndef GPUSVM_SET_WARP
    if (GPUSVM_LID < GPUSVM__SET_GROUPS) gpusvm_set_group(la, lg, lC, lyv, lqd, lki, m, GPUSVM_LID, Gmax, Kii, gi, gj);
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
    gpusvm_set_fill(K, qmax, gi, gj, set, ks);
    barrier(CLK_LOCAL_MEM_FENCE);
#ifdef GPUSVM_SET_WARP
    if (GPUSVM_LID < GPUSVM_WARP) {
        const int n = gpusvm_set_solve_warp(la, lg, lC, lqd, lyv, set, ks, sd, eps_s, left);
        if (GPUSVM_LID == 0) sn[0] = n;
    }
#else
    if (GPUSVM_LID == 0) sn[0] = gpusvm_set_solve_one(la, lg, lC, lqd, lyv, set, ks, sd, eps_s, left);
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    gpusvm_set_apply(a, g, yv, m, K, qmax, set, sd, la, lg, lyv);
    return sn[0];
}
#endif

/* gpusvm_smo's local arrays against the sizes the host plans with (part 0's GPUSVM__SMO_LOCAL) */
typedef char gpusvm_smo_pos_check[3 * sizeof(gpusvm_wide) + 2 * sizeof(float) + 1 == GPUSVM__SMO_POS_BYTES ? 1 : -1];
typedef char gpusvm_smo_item_check[4 * sizeof(gpusvm_score) + 2 * sizeof(int) <= GPUSVM__SMO_ITEM_BYTES ? 1 : -1];
#define GPUSVM_SET_KS_WORDS ((GPUSVM__SET_MAX * GPUSVM__SET_LD + 1) / 2) /* S's block in 8-byte words */
#if defined(GPUSVM_SET_ON) && !defined(GPUSVM_SHFL) /* the third level's arrays within rv1, rg and rg2 */
typedef char gpusvm_smo_set_check[GPUSVM__SET_MAX + GPUSVM_SET_KS_WORDS +
                                          (GPUSVM__SET_MAX + 2 * GPUSVM__SET_GROUPS) / 2 <= 3 * GPUSVM__SMO_L ? 1 : -1];
#endif

#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_SMO)
__kernel __attribute__((reqd_work_group_size(GPUSVM__SMO_L, 1, 1))) GPUSVM_SG_ATTR
void gpusvm_smo(GPUSVM__ARGS_SMO(GPUSVM__PARAM, GPUSVM__COMMA))
{
    __local gpusvm_wide la[GPUSVM__Q]; /* published alphas and gradients (see above) */
    __local gpusvm_wide lg[GPUSVM__Q];
    __local gpusvm_wide lC[GPUSVM__Q];
    __local float lqd[GPUSVM__Q];
    __local float lki[GPUSVM__Q]; /* the i row's value at each position */
    __local char lyv[GPUSVM__Q];
#ifdef GPUSVM_SHFL /* the reductions' scratch: one word per warp */
    __local gpusvm_score wv[GPUSVM_NW], wv1[GPUSVM_NW], wg[GPUSVM_NW], wg2[GPUSVM_NW], wjv[GPUSVM_NW];
    __local int wi[GPUSVM_NW], wi1[GPUSVM_NW], wji[GPUSVM_NW]; /* j's scratch apart: no barrier between */
#ifdef GPUSVM_SET_ON
    __local int lset[GPUSVM__SET_MAX], sn[1]; /* the third level's S and its pair updates */
    __local float lks[GPUSVM__SET_MAX * GPUSVM__SET_LD];
    __local gpusvm_wide lsd[GPUSVM__SET_MAX];
#ifdef GPUSVM_SET_WARP /* the groups' candidates: the warps' partials */
    __local int *const sgi = wi, *const sgj = wji;
#else
    __local int sgi[GPUSVM__SET_GROUPS], sgj[GPUSVM__SET_GROUPS];
#endif
#endif
#else /* one word per work-item (j's reduction reuses i's: a barrier closes each trip); the third
       level's arrays over rv1, rg and rg2, which no reduction uses while S is solved */
    __local ulong rscr[4 * GPUSVM__SMO_L];
    __local gpusvm_score *const rv = (__local gpusvm_score *)rscr;
    __local gpusvm_score *const rv1 = (__local gpusvm_score *)(rscr + GPUSVM__SMO_L);
    __local gpusvm_score *const rg = (__local gpusvm_score *)(rscr + 2 * GPUSVM__SMO_L);
    __local gpusvm_score *const rg2 = (__local gpusvm_score *)(rscr + 3 * GPUSVM__SMO_L);
    __local int ri[GPUSVM__SMO_L], ri1[GPUSVM__SMO_L];
#ifdef GPUSVM_SET_ON
    __local int sn[1];
    __local gpusvm_wide *const lsd = (__local gpusvm_wide *)(rscr + GPUSVM__SMO_L);
    __local float *const lks = (__local float *)(rscr + GPUSVM__SMO_L + GPUSVM__SET_MAX);
    __local int *const lset = (__local int *)(rscr + GPUSVM__SMO_L + GPUSVM__SET_MAX + GPUSVM_SET_KS_WORDS);
    __local int *const sgi = lset + GPUSVM__SET_MAX, *const sgj = sgi + GPUSVM__SET_GROUPS;
#endif
#endif
    const int p = get_group_id(0);
    __global const int *pi = pinfo + p * GPUSVM__PI_COUNT;
    const int v0 = pi[GPUSVM__PI_VAR], m = pi[GPUSVM__PI_Q];
    const int whole = pi[GPUSVM__PI_WHOLE];
    const gpusvm_wide ratio = whole ? GPUSVM_W_F(0.0f) : GPUSVM_W_LD(ratio_in);
    const int max_inner = whole ? whole_inner : max_inner_in;
#ifdef GPUSVM_SET_ON /* the third level (see above; float pairs keep LIBSVM's pair sequence) */
    const int use_sets = !nu && !whole && m >= GPUSVM__SET_MIN_Q;
#endif
    __global const float *K = Kq0 + (size_t)p * qmax * qmax; /* its q x q block, by position, then position */
    __global const int *ws_idx = ws_idx0 + p * qmax;
    __global gpusvm_wbits *alpha = alpha0 + v0, *coef = coef0 + p * qmax;
    __global const gpusvm_wbits *G = G0 + v0, *Cv = Cv0 + v0;
    __global const char *y = y0 + v0;
    __global const float *qd = qd0 + v0;
    __global gpusvm_wbits *status = status0 + p * GPUSVM__ST_COUNT;
    gpusvm_wide a[GPUSVM_PER], g[GPUSVM_PER], C[GPUSVM_PER]; /* this work-item's positions */
    float ki[GPUSVM_PER], kj[GPUSVM_PER];
    char yv[GPUSVM_PER];
    if (!GPUSVM_RUNNING(status)) return;

    for (int c = 0; c < GPUSVM_PER; ++c) {
        const int t = GPUSVM_OWN(c);
        a[c] = g[c] = C[c] = GPUSVM_W_F(0.0f);
        yv[c] = 1;
        ki[c] = kj[c] = 0.0f;
        if (t >= m) continue;
        const int i = ws_idx[t]; /* K is read at the point, GPUSVM__PT(i) */
        a[c] = la[t] = GPUSVM_W_LD(alpha[i]);
        g[c] = lg[t] = GPUSVM_W_LD(G[i]);
        C[c] = lC[t] = GPUSVM_W_LD(Cv[i]);
        yv[c] = lyv[t] = y[i];
        lqd[t] = qd[i];
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    const gpusvm_wide eps_in = GPUSVM__INNER_EPS(GPUSVM_W_MAX, GPUSVM_W_MUL, GPUSVM_W_LD(eps), ratio,
                                                 GPUSVM_W_LD(status[GPUSVM__ST_GAP]));
    const gpusvm_wide left = GPUSVM_W_SUB(GPUSVM_W_LD(max_iter), GPUSVM_W_LD(status[GPUSVM__ST_ITER]));
    const int budget = GPUSVM_W_TOI(GPUSVM_W_MIN(GPUSVM_W_I(max_inner), GPUSVM_W_MAX(left, GPUSVM_W_F(0.0f))));
    /* One exit, at the loop header, and every barrier reached on every trip: the
     * stop tests only switch the work off (a uniform flag). */
    int it = 0, trip = 0;
    while (trip < budget) {
        /* i: maximal violator in I_up; Gmax2 over I_low for the stop test. With nu,
         * one of each per class (class 0: y = +1, class 1: y = -1), as Solver_NU. */
        gpusvm_score bv0 = -INFINITY, bv1 = -INFINITY, g20 = -INFINITY, g21 = -INFINITY;
        int bi0 = -1, bi1 = -1;
        gpusvm_smo_scan_i(a, g, C, yv, m, nu, &bv0, &bi0, &bv1, &bi1, &g20, &g21);
        gpusvm_score Gmax0, Gmax1, Gmax20, Gmax21;
        int i0, i1;
#ifdef GPUSVM_SHFL
        gpusvm_smo_reduce_i(wv, wi, wv1, wi1, wg, wg2, nu, bv0, bi0, bv1, bi1, g20, g21, &Gmax0, &i0, &Gmax1, &i1,
                            &Gmax20, &Gmax21);
#else
        gpusvm_smo_reduce_i(rv, ri, rv1, ri1, rg, rg2, nu, bv0, bi0, bv1, bi1, g20, g21, &Gmax0, &i0, &Gmax1, &i1,
                            &Gmax20, &Gmax21);
#endif
        const __global float *Ki0 = K + (size_t)max(i0, 0) * qmax;
        const __global float *Ki1 = K + (size_t)max(i1, 0) * qmax;
        gpusvm_smo_load_i(yv, lki, ki, m, nu, Ki0, Ki1);
        for (int c = 0; c < GPUSVM_PER; ++c) { /* publish (everyone has read the last trip's values) */
            const int t = GPUSVM_OWN(c);
            if (t >= m) break;
            la[t] = a[c];
            lg[t] = g[c];
        }
        const gpusvm_score eps_s = GPUSVM_SC(eps_in);
        const int go = nu ? !(fmax(Gmax0 + Gmax20, Gmax1 + Gmax21) < eps_s) : (i0 >= 0) && !(Gmax0 + Gmax20 < eps_s);

        /* j: second-order choice over I_low (with nu, against its own class's i) */
        const gpusvm_wide Kii0 = GPUSVM_W_F(lqd[max(i0, 0)]), Kii1 = GPUSVM_W_F(lqd[max(i1, 0)]);
        gpusvm_score bo = INFINITY;
        int bj = -1;
        if (go) gpusvm_smo_scan_j(a, g, C, yv, lqd, ki, m, nu, Gmax0, Gmax1, Kii0, Kii1, &bo, &bj);
#ifdef GPUSVM_SHFL
        const int j = gpusvm_argbest(wjv, wji, bo, bj, 1);
#else
        const int j = gpusvm_argbest(rv, ri, bo, bj, 1);
#endif
        const int step_ok = go && j >= 0;
        int made = step_ok;
#ifdef GPUSVM_SET_ON
        if (step_ok && use_sets)
            made = gpusvm_set_round(a, g, yv, m, K, qmax, la, lg, lC, lqd, lyv, lki, sgi, sgj, lset, lks, lsd, sn, Gmax0,
                                    Kii0, eps_s, budget - trip);
        else
#endif
        if (step_ok) {
            const int use1 = nu && lyv[j] < 0;
            const int i = use1 ? i1 : i0;
            const __global float *Ki = use1 ? Ki1 : Ki0;
            const __global float *Kj = K + (size_t)j * qmax;
            for (int c = 0; c < GPUSVM_PER; ++c) { /* j's row on its way while the step is computed */
                const int t = GPUSVM_OWN(c);
                if (t >= m) break;
                kj[c] = Kj[t];
                if (nu) ki[c] = Ki[t]; /* the chosen i's row (a position of the other class read the other) */
            }
            gpusvm_wide ai, aj;
            gpusvm_smo_step(la[i], la[j], lg[i], lg[j], lC[i], lC[j], lyv[i], lyv[j], lqd[j], GPUSVM_W_F(lki[j]),
                            use1 ? Kii1 : Kii0, &ai, &aj);
            const gpusvm_wide di = GPUSVM_W_SUB(ai, la[i]), dj = GPUSVM_W_SUB(aj, la[j]);
            const int yi = lyv[i], yj = lyv[j];
            for (int c = 0; c < GPUSVM_PER; ++c) {
                const int t = GPUSVM_OWN(c);
                if (t >= m) break;
                const float qi = (yv[c] == yi) ? ki[c] : -ki[c];
                const float qj = (yv[c] == yj) ? kj[c] : -kj[c];
                g[c] = GPUSVM_W_ADD(g[c], GPUSVM_W_ADD(GPUSVM_W_MULF(di, qi), GPUSVM_W_MULF(dj, qj)));
                if (t == i) a[c] = ai;
                if (t == j) a[c] = aj;
            }
        }
#ifndef GPUSVM_SHFL
        barrier(CLK_LOCAL_MEM_FENCE); /* all have read j (ri[0]) before i's reduction writes ri */
#endif
        it += made;
        trip = made ? trip + made : budget;
    }

    for (int c = 0; c < GPUSVM_PER; ++c) {
        const int t = GPUSVM_OWN(c);
        if (t >= m) break;
        const int i = ws_idx[t];
        const gpusvm_wbits old = alpha[i];
        const gpusvm_wide a0 = GPUSVM_W_LD(old), d = GPUSVM_W_SUB(a[c], a0);
        coef[t] = GPUSVM_W_ST(yv[c] > 0 ? d : GPUSVM_W_NEG(d));
        alpha[i] = GPUSVM_W_ST_EXACT(a[c], a0, old, C[c], Cv[i]);
    }
    /* every work-item read status[ITER] for its budget before the loop; the local fences of the
     * loop's barriers do not order global memory, this one does */
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (GPUSVM_LID == 0) {
        status[GPUSVM__ST_ITER] = GPUSVM_W_ST(GPUSVM_W_ADD(GPUSVM_W_LD(status[GPUSVM__ST_ITER]), GPUSVM_W_I(it)));
        status[GPUSVM__ST_INNER] = GPUSVM_W_ST(GPUSVM_W_I(it));
    }
}
#endif

/* ---- Small problems, a work-item each ----
 *
 * A batch whose every problem is solved whole with at most GPUSVM__ITEM_NVAR variables (one-vs-one
 * with many small classes, their -b 1 folds; the host's choice, on CPU devices) runs each round as
 * one launch of gpusvm_smo_item, a work-item a problem, instead of about nine launches of a
 * work-group a problem, whose barriers over mostly idle work-items cost far more than a problem of
 * six variables' own arithmetic. The work-item does for its problem what the round's kernels do, in
 * their order and with their arithmetic: gpusvm_check's stop, the rows as gpusvm_rows_few computes
 * them (the fma chain in feature order, the same kernel function), gpusvm_smo's pair updates (i and
 * j by the same total orders, which a linear scan takes as ties to the later position;
 * gpusvm_smo_step; the same gradient sums), its alphas and coefficients, and gpusvm_update's
 * gradients (the nonzero coefficients' sum in position order, GPUSVM_UPD_SUM): the same bits, so the
 * same models. A whole problem's working set is its variables in order (the host writes it so),
 * position t in row slot t; here row r of a problem holds its point r's values, which is the row of
 * every variable of point r.
 */

#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_ITEM) /* its helpers too: no other part compiles them */
/* gpusvm_check's stop over a problem's m variables (one class: the host sends no nu batch) into
 * its status; whether it is done */
GPUSVM_INLINE int gpusvm_item_check(__global const gpusvm_wbits *alpha, __global const gpusvm_wbits *G,
                                    __global const gpusvm_wbits *Cv, __global const char *y, int m, gpusvm_wbits eps,
                                    gpusvm_wbits max_iter, __global gpusvm_wbits *status)
{
    gpusvm_wide up = GPUSVM_W_F(-INFINITY), low = GPUSVM_W_F(INFINITY);
    for (int i = 0; i < m; ++i) {
        const gpusvm_wide a = GPUSVM_W_LD(alpha[i]), g = GPUSVM_W_LD(G[i]), C = GPUSVM_W_LD(Cv[i]);
        const int pos = y[i] > 0;
        const gpusvm_wide v = pos ? GPUSVM_W_NEG(g) : g;
        if (pos ? GPUSVM_W_LT(a, C) : GPUSVM_W_GT(a, GPUSVM_W_F(0.0f))) up = GPUSVM_W_MAX(up, v);
        if (pos ? GPUSVM_W_GT(a, GPUSVM_W_F(0.0f)) : GPUSVM_W_LT(a, C)) low = GPUSVM_W_MIN(low, v);
    }
    const gpusvm_wide gap = GPUSVM_W_SUB(up, low);
    const int done = GPUSVM__STOP_RULE(GPUSVM_W_GE, gap, GPUSVM_W_LD(eps), GPUSVM_W_LD(status[GPUSVM__ST_ITER]),
                                       GPUSVM_W_LD(max_iter));
    status[GPUSVM__ST_GAP] = GPUSVM_W_ST(gap);
    status[GPUSVM__ST_MUP] = GPUSVM_W_ST(up);
    status[GPUSVM__ST_MLOW] = GPUSVM_W_ST(low);
    status[GPUSVM__ST_DONE] = GPUSVM_W_ST(GPUSVM_W_I(done));
    if (!done) status[GPUSVM__ST_OUTER] = GPUSVM_W_ST(GPUSVM_W_ADD(GPUSVM_W_LD(status[GPUSVM__ST_OUTER]), GPUSVM_W_F(1.0f)));
    return done;
}

/* The rows of a problem's npts points (from pt in the map), as gpusvm_rows_few computes them: row r
 * and row c's values of each other are the same bits (the same products in the same order), so
 * each pair is computed once */
GPUSVM_INLINE void gpusvm_item_rows(__global const float *X, int pitch, __global const float *norm,
                                    __global const int *map, int use_map, int pt, int npts, int dpad, int ktype,
                                    float gamma, float coef0, int degree, __global float *K, int ldk)
{
    for (int r = 0; r < npts; ++r)
        for (int c = r; c < npts; ++c) {
            const int ca = GPUSVM_COL(map, use_map, pt, r), cb = GPUSVM_COL(map, use_map, pt, c);
            float k;
            if (ktype == GPUSVM__K_PRECOMPUTED) {
                k = X[(size_t)ca * pitch + cb];
                K[(size_t)r * ldk + c] = k;
                K[(size_t)c * ldk + r] = X[(size_t)cb * pitch + ca];
                continue;
            }
            float acc = 0.0f;
            for (int f = 0; f < dpad; ++f) acc = fma(X[(size_t)f * pitch + ca], X[(size_t)f * pitch + cb], acc);
            k = gpusvm__kfun(ktype, ca == cb ? norm[ca] : acc, norm[ca], norm[cb], gamma, coef0, degree);
            K[(size_t)r * ldk + c] = K[(size_t)c * ldk + r] = k;
        }
}

/* gpusvm_smo's pair updates on a whole problem's m variables (a, g: their alphas and gradients),
 * its rows K (variable t's row and column: its point's, GPUSVM__PT(t, split)), until the gap is below
 * eps_s or after budget of them; returns how many */
GPUSVM_INLINE int gpusvm_item_pairs(gpusvm_wide *a, gpusvm_wide *g, __global const gpusvm_wbits *Cv,
                                    __global const char *y, __global const float *qd, __global const float *K,
                                    int ldk, int m, int split, gpusvm_score eps_s, int budget)
{
    int it = 0;
    while (it < budget) {
        gpusvm_score Gmax = -INFINITY, Gmax2 = -INFINITY, bo = INFINITY;
        int i = -1, j = -1;
        for (int t = 0; t < m; ++t) {
            const int pos = y[t] > 0;
            const gpusvm_wide C = GPUSVM_W_LD(Cv[t]);
            const gpusvm_score v = pos ? -GPUSVM_SC(g[t]) : GPUSVM_SC(g[t]);
            if ((pos ? GPUSVM_W_LT(a[t], C) : GPUSVM_W_GT(a[t], GPUSVM_W_F(0.0f))) && v >= Gmax) {
                Gmax = v;
                i = t;
            }
            if (pos ? GPUSVM_W_GT(a[t], GPUSVM_W_F(0.0f)) : GPUSVM_W_LT(a[t], C)) Gmax2 = fmax(Gmax2, -v);
        }
        if (i < 0 || Gmax + Gmax2 < eps_s) break;
        const gpusvm_wide Kii = GPUSVM_W_F(qd[i]);
        __global const float *Ki = K + (size_t)GPUSVM__PT(i, split) * ldk;
        for (int t = 0; t < m; ++t) {
            const int pos = y[t] > 0;
            const gpusvm_score v = pos ? -GPUSVM_SC(g[t]) : GPUSVM_SC(g[t]), b = Gmax - v;
            if (!(pos ? GPUSVM_W_GT(a[t], GPUSVM_W_F(0.0f)) : GPUSVM_W_LT(a[t], GPUSVM_W_LD(Cv[t]))) || !(b > 0.0f)) continue;
            const gpusvm_score o = gpusvm_smo_wss2(b, Kii, qd[t], Ki[GPUSVM__PT(t, split)]);
            if (o <= bo) {
                bo = o;
                j = t;
            }
        }
        if (j < 0) break;
        gpusvm_wide ai, aj;
        const int yi = y[i], yj = y[j];
        __global const float *Kj = K + (size_t)GPUSVM__PT(j, split) * ldk;
        gpusvm_smo_step(a[i], a[j], g[i], g[j], GPUSVM_W_LD(Cv[i]), GPUSVM_W_LD(Cv[j]), yi, yj, qd[j],
                        GPUSVM_W_F(Ki[GPUSVM__PT(j, split)]), Kii, &ai, &aj);
        const gpusvm_wide di = GPUSVM_W_SUB(ai, a[i]), dj = GPUSVM_W_SUB(aj, a[j]);
        for (int t = 0; t < m; ++t) {
            const float ki = Ki[GPUSVM__PT(t, split)], kj = Kj[GPUSVM__PT(t, split)];
            const float qi = y[t] == yi ? ki : -ki, qj = y[t] == yj ? kj : -kj;
            g[t] = GPUSVM_W_ADD(g[t], GPUSVM_W_ADD(GPUSVM_W_MULF(di, qi), GPUSVM_W_MULF(dj, qj)));
        }
        a[i] = ai;
        a[j] = aj;
        ++it;
    }
    return it;
}

/* gpusvm_update's gradients from the coefficients: each variable's sum over the nonzero ones in
 * position order, times its row's value (its staging, then its loop: GPUSVM_UPD_SUM) */
GPUSVM_INLINE void gpusvm_item_update(__global gpusvm_wbits *G, __global const char *y,
                                      __global const gpusvm_wbits *coef, __global const float *K, int ldk, int m,
                                      int split)
{
    gpusvm_wide lc[GPUSVM__ITEM_NVAR];
    int ls[GPUSVM__ITEM_NVAR], cnt = 0;
    for (int t = 0; t < m; ++t) {
        const gpusvm_wide c = GPUSVM_W_LD(coef[t]);
        if (GPUSVM_W_EQ(c, GPUSVM_W_F(0.0f))) continue;
        lc[cnt] = c;
        ls[cnt++] = GPUSVM__PT(t, split);
    }
    for (int i = 0; i < m; ++i) {
        __global const float *Ki = K + GPUSVM__PT(i, split);
        gpusvm_wide sum = GPUSVM_W_F(0.0f);
        GPUSVM_UPD_SUM(sum, lc, ls, cnt, Ki, ldk);
        G[i] = GPUSVM_W_ST(GPUSVM_W_ADD(GPUSVM_W_LD(G[i]), y[i] < 0 ? GPUSVM_W_NEG(sum) : sum));
    }
}

__kernel __attribute__((reqd_work_group_size(GPUSVM__ITEM_L, 1, 1)))
void gpusvm_smo_item(GPUSVM__ARGS_ITEM(GPUSVM__PARAM, GPUSVM__COMMA))
{
    const int p = get_global_id(0);
    if (p >= nprob) return;
    __global const int *pi = pinfo + p * GPUSVM__PI_COUNT;
    const int v0 = pi[GPUSVM__PI_VAR], m = pi[GPUSVM__PI_NVAR], split = pi[GPUSVM__PI_SPLIT];
    __global gpusvm_wbits *alpha = alpha0 + v0, *G = G0 + v0, *coef = coefs0 + p * qmax;
    __global gpusvm_wbits *status = status0 + p * GPUSVM__ST_COUNT;
    __global const gpusvm_wbits *Cv = Cv0 + v0;
    __global const char *y = y0 + v0;
    __global float *K = K0 + (size_t)p * qmax * ldk;
    gpusvm_wide a[GPUSVM__ITEM_NVAR], g[GPUSVM__ITEM_NVAR];
    if (!GPUSVM_RUNNING(status) || m > GPUSVM__ITEM_NVAR ||
        gpusvm_item_check(alpha, G, Cv, y, m, eps, max_iter, status))
        return;
    if (GPUSVM_W_TOI(GPUSVM_W_LD(status[GPUSVM__ST_OUTER])) == 1) /* the first round's rows, kept */
        gpusvm_item_rows(X, pitch, norm, map, use_map, pi[GPUSVM__PI_PT], pi[GPUSVM__PI_NPTS], dpad, ktype,
                         as_float(pi[GPUSVM__PI_GAMMA]), coef0, degree, K, ldk);
    for (int t = 0; t < m; ++t) {
        a[t] = GPUSVM_W_LD(alpha[t]);
        g[t] = GPUSVM_W_LD(G[t]);
    }
    const gpusvm_wide eps_in = GPUSVM__INNER_EPS(GPUSVM_W_MAX, GPUSVM_W_MUL, GPUSVM_W_LD(eps), GPUSVM_W_F(0.0f),
                                                 GPUSVM_W_LD(status[GPUSVM__ST_GAP]));
    const gpusvm_wide left = GPUSVM_W_SUB(GPUSVM_W_LD(max_iter), GPUSVM_W_LD(status[GPUSVM__ST_ITER]));
    const int budget = GPUSVM_W_TOI(GPUSVM_W_MIN(GPUSVM_W_I(whole_inner), GPUSVM_W_MAX(left, GPUSVM_W_F(0.0f))));
    const int it = gpusvm_item_pairs(a, g, Cv, y, qd0 + v0, K, ldk, m, split, GPUSVM_SC(eps_in), budget);
    for (int t = 0; t < m; ++t) {
        const gpusvm_wbits old = alpha[t];
        const gpusvm_wide a0 = GPUSVM_W_LD(old), d = GPUSVM_W_SUB(a[t], a0);
        coef[t] = GPUSVM_W_ST(y[t] > 0 ? d : GPUSVM_W_NEG(d));
        alpha[t] = GPUSVM_W_ST_EXACT(a[t], a0, old, GPUSVM_W_LD(Cv[t]), Cv[t]);
    }
    status[GPUSVM__ST_ITER] = GPUSVM_W_ST(GPUSVM_W_ADD(GPUSVM_W_LD(status[GPUSVM__ST_ITER]), GPUSVM_W_I(it)));
    status[GPUSVM__ST_INNER] = GPUSVM_W_ST(GPUSVM_W_I(it));
    gpusvm_item_update(G, y, coef, K, ldk, m, split);
}
#endif
