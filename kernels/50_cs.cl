/* gpusvm kernels, part 5: Crammer and Singer's joint multiclass SVM, every step of an outer
 * iteration on the device (the host reads back only the status).
 *
 * The dual (Crammer and Singer 2001; GTSVM's eqs. 3-4, seed 003): per point i and class r a
 * coefficient alpha_ir <= U_i [r = y_i] with sum_r alpha_ir = 0, responses
 * c_ir = sum_j alpha_jr k(x_i, x_j) and gradients g_ir = [r = y_i] - c_ir. One outer iteration:
 *
 *   gpusvm_cs_resp    (one work-item per coefficient) c_ir += sum_t dA_tr k(x_t, x_i) over the
 *                     working-set points the last sweeps moved (GTSVM's response update, algorithm
 *                     1: the rows read down their columns); an item per GPUSVM__CS_RESP_CLASSES classes of a
 *                     point, not per point, so that n m / GPUSVM__CS_RESP_CLASSES items fill the device (an
 *                     item per point left letter's 15000 points in 59 work-groups: docs/results.md,
 *                     the code's choices).
 *   gpusvm_cs_update  (one work-item per point) the point's first-order violation
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

/* 64-bit sort key of a point: its gap share (larger first), then its index */
#define GPUSVM_CS_KEY(k, i) (((ulong)(k) << 32) | (ulong)(uint)(i))

#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_CS)
__kernel void gpusvm_cs_resp(GPUSVM__ARGS_CS_RESP(GPUSVM__PARAM, GPUSVM__COMMA))
{
    const int e = get_global_id(0), p = get_group_id(1);
    __global const int *ci_ = cinfo + p * GPUSVM__CI_COUNT;
    const int n = ci_[GPUSVM__CI_N], m = ci_[GPUSVM__CI_M];
    status += p * GPUSVM__ST_COUNT;
    const int nb = (m + GPUSVM__CS_RESP_CLASSES - 1) / GPUSVM__CS_RESP_CLASSES;
    if (!GPUSVM_RUNNING(status) || e >= n * nb) return;
    const int nq = GPUSVM_W_STI(status, GPUSVM__ST_CS_Q), i = e / nb, r0 = (e - i * nb) * GPUSVM__CS_RESP_CLASSES;
    moved += p * q;
    dA += (size_t)p * q * mmax + r0;
    gpusvm_wide acc[GPUSVM__CS_RESP_CLASSES];
    for (int u = 0; u < GPUSVM__CS_RESP_CLASSES; ++u) acc[u] = GPUSVM_W_F(0.0f);
    for (int t = 0; t < nq; ++t) {
        const int s = moved[t];
        if (s < 0) continue;
        const float k = K[(size_t)s * ldk + i];
        for (int u = 0; u < GPUSVM__CS_RESP_CLASSES; ++u)
            if (r0 + u < m) acc[u] = GPUSVM_W_ACC_RAW(acc[u], dA[t * m + u], k);
    }
    c += ci_[GPUSVM__CI_A] + (size_t)i * m + r0;
    for (int u = 0; u < GPUSVM__CS_RESP_CLASSES; ++u)
        if (r0 + u < m) c[u] = GPUSVM_W_ST(GPUSVM_W_ADDF(GPUSVM_W_LD(c[u]), GPUSVM_W_NORM(acc[u])));
}
#endif

#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_CS)
__kernel void gpusvm_cs_update(GPUSVM__ARGS_CS_UPDATE(GPUSVM__PARAM, GPUSVM__COMMA))
{
    __local ulong skey[GPUSVM__L];
    __local gpusvm_wide red[4][GPUSVM__L];
    const int lid = get_local_id(0), i = get_global_id(0), g = get_group_id(0), p = get_group_id(1);
    __global const int *ci_ = cinfo + p * GPUSVM__CI_COUNT;
    const int v0 = ci_[GPUSVM__CI_VAR], n = ci_[GPUSVM__CI_N], m = ci_[GPUSVM__CI_M];
    status += p * GPUSVM__ST_COUNT;
    /* uniform per work-group */
    if (!GPUSVM_RUNNING(status) || g * GPUSVM__L >= n) return;
    c += ci_[GPUSVM__CI_A];
    alpha += ci_[GPUSVM__CI_A];
    cls += v0;
    U += v0;
    part += ((size_t)p * nparts_max + g) * 4;
    cand_key += ((size_t)p * nparts_max + g) * qc;
    cand_idx += ((size_t)p * nparts_max + g) * qc;
    const gpusvm_wide zero = GPUSVM_W_F(0.0f), one = GPUSVM_W_F(1.0f);
    gpusvm_wide aka = zero, loss = zero, lin = zero, vmax = zero;
    uint key = GPUSVM__KEY_NONE;
    if (i < n) {
        __global const gpusvm_wbits *ci = c + (size_t)i * m;
        __global const gpusvm_wbits *ai = alpha + (size_t)i * m;
        const int y = cls[i];
        const gpusvm_wide cy = GPUSVM_W_LD(ci[y]), Ui = GPUSVM_W_LD(U[i]);
        gpusvm_wide up = GPUSVM_W_F(-INFINITY), low = GPUSVM_W_F(INFINITY), worst = zero, ag = zero;
        for (int r = 0; r < m; ++r) {
            const gpusvm_wide cr = GPUSVM_W_LD(ci[r]), ar = GPUSVM_W_LD(ai[r]);
            const gpusvm_wide gr = GPUSVM_W_SUB(r == y ? one : zero, cr);
            const gpusvm_wide hinge = GPUSVM_W_SUB(GPUSVM_W_ADD(one, cr), cy);
            if (GPUSVM_W_LT(ar, r == y ? Ui : zero) && GPUSVM_W_GT(gr, up)) up = gr;
            if (GPUSVM_W_LT(gr, low)) low = gr;
            if (r != y && GPUSVM_W_GT(hinge, worst)) worst = hinge;
            aka = GPUSVM_W_ADDF_RAW(aka, GPUSVM_W_MUL(ar, cr));
            ag = GPUSVM_W_ADDF_RAW(ag, GPUSVM_W_MUL(ar, gr));
        }
        aka = GPUSVM_W_NORM(aka);
        ag = GPUSVM_W_NORM(ag);
        loss = GPUSVM_W_MUL(Ui, worst);
        lin = GPUSVM_W_LD(ai[y]);
        vmax = GPUSVM_W_SUB(up, low);
        const gpusvm_wide gi = GPUSVM_W_SUB(loss, ag);
        if (GPUSVM_W_GT(gi, zero)) key = ~gpusvm_float_key(GPUSVM_W_TOF(gi));
    }
    red[0][lid] = aka;
    red[1][lid] = loss;
    red[2][lid] = lin;
    red[3][lid] = vmax;
    skey[lid] = GPUSVM_CS_KEY(key, i);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = GPUSVM__L / 2; s > 0; s >>= 1) {
        if (lid < s) {
            red[0][lid] = GPUSVM_W_ADDF(red[0][lid], red[0][lid + s]);
            red[1][lid] = GPUSVM_W_ADDF(red[1][lid], red[1][lid + s]);
            red[2][lid] = GPUSVM_W_ADDF(red[2][lid], red[2][lid + s]);
            red[3][lid] = GPUSVM_W_MAX(red[3][lid], red[3][lid + s]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid < 4) part[lid] = GPUSVM_W_ST(red[lid][0]);
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
#endif

#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_CS)
__kernel void gpusvm_cs_select(GPUSVM__ARGS_CS_SELECT(GPUSVM__PARAM, GPUSVM__COMMA))
{
    __local int list[GPUSVM__Q];
    __local int keep[GPUSVM__Q];
    __local gpusvm_wide red[4][GPUSVM__L];
    __local gpusvm_sel_scratch sc;
    __local int ls[GPUSVM__L];
    __local uint res[4];
    __local int nmiss;
    const int lid = get_local_id(0), p = get_group_id(0);
    __global const int *ci_ = cinfo + p * GPUSVM__CI_COUNT;
    const int v0 = ci_[GPUSVM__CI_VAR], nparts = (ci_[GPUSVM__CI_N] + GPUSVM__L - 1) / GPUSVM__L;
    const int qc = min(q, GPUSVM__L);
    status += p * GPUSVM__ST_COUNT;
    if (!GPUSVM_RUNNING(status)) return;
    part += (size_t)p * nparts_max * 4;
    cand_key += (size_t)p * nparts_max * qc;
    cand_idx += (size_t)p * nparts_max * qc;
    ws += p * q;
    row_idx += p * qmax;
    row_slot += p * qmax;
    have += v0;
    gpusvm_wide s0 = GPUSVM_W_F(0.0f), s1 = s0, s2 = s0;
    for (int p = lid; p < nparts; p += GPUSVM__L) {
        s0 = GPUSVM_W_ADD(s0, GPUSVM_W_LD(part[(size_t)p * 4]));
        s1 = GPUSVM_W_ADD(s1, GPUSVM_W_LD(part[(size_t)p * 4 + 1]));
        s2 = GPUSVM_W_ADD(s2, GPUSVM_W_LD(part[(size_t)p * 4 + 2]));
    }
    red[0][lid] = s0;
    red[1][lid] = s1;
    red[2][lid] = s2;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = GPUSVM__L / 2; s > 0; s >>= 1) {
        if (lid < s)
            for (int u = 0; u < 3; ++u) red[u][lid] = GPUSVM_W_ADD(red[u][lid], red[u][lid + s]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const gpusvm_wide P = GPUSVM_W_ADD(GPUSVM_W_MULF(red[0][0], 0.5f), red[1][0]);
    const gpusvm_wide D = GPUSVM_W_SUB(red[2][0], GPUSVM_W_MULF(red[0][0], 0.5f));
    const gpusvm_wide PD = GPUSVM_W_ADD(P, D);
    const gpusvm_wide gap = GPUSVM_W_GT(PD, GPUSVM_W_F(0.0f)) ? GPUSVM_W_DIV(GPUSVM_W_MULF(GPUSVM_W_SUB(P, D), 2.0f), PD)
                                                              : GPUSVM_W_F(0.0f);
    const int done = GPUSVM__STOP_RULE(GPUSVM_W_GE, gap, GPUSVM_W_LD(eps), GPUSVM_W_LD(status[GPUSVM__ST_ITER]),
                                       GPUSVM_W_LD(max_iter));
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        status[GPUSVM__ST_GAP] = GPUSVM_W_ST(gap);
        status[GPUSVM__ST_CS_P] = GPUSVM_W_ST(P);
        status[GPUSVM__ST_CS_D] = GPUSVM_W_ST(D);
        status[GPUSVM__ST_DONE] = GPUSVM_W_ST(GPUSVM_W_I(done));
        sc.count = 0;
        nmiss = 0;
    }
    if (done) return;
    const int ncand = nparts * qc;
    gpusvm_select_side(&sc, ls, res, list, cand_key, cand_key, (__global const char *)0, 0, q, ncand);
    const int got = sc.count;
    for (int c0 = 0; c0 < GPUSVM_Q_PER_L; ++c0) { /* positions -> points, ascending */
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
        status[GPUSVM__ST_CS_Q] = GPUSVM_W_ST(GPUSVM_W_I(got));
        pinfo[p * GPUSVM__PI_COUNT + GPUSVM__PI_Q] = nmiss;
    }
}
#endif

/* scr (part 0's GPUSVM__CS_SCR_BYTES): m wide words each of D, D - Ub, Ub, alpha, the step, the
 * candidates' theta, and (float pairs) the violation's terms; then the working set's alpha (q x m),
 * and its points' bounds, diagonals (GPUSVM_CS_KII) and classes (q each): the sweeps touch only
 * local memory */
#define GPUSVM_CS_SCR_D(r) scr[(r)]
#define GPUSVM_CS_SCR_DUB(r) scr[m + (r)]
#define GPUSVM_CS_SCR_UB(r) scr[2 * m + (r)]
#define GPUSVM_CS_SCR_ALPHA(r) scr[3 * m + (r)]
#define GPUSVM_CS_SCR_STEP(r) scr[4 * m + (r)]
#define GPUSVM_CS_SCR_THETA(r) scr[5 * m + (r)]
#define GPUSVM_CS_SCR_VTERM(r) scr[6 * m + (r)]
#define GPUSVM_CS_WS_ALPHA(e) scr[GPUSVM__CS_SCR_ROWS * m + (e)]
#define GPUSVM_CS_WS_UB(t) scr[GPUSVM__CS_SCR_ROWS * m + q * m + (t)]
#define GPUSVM_CS_WS_KII(t) scr[GPUSVM__CS_SCR_ROWS * m + q * m + q + (t)]
#define GPUSVM_CS_WS_CLASS(t) scr[GPUSVM__CS_SCR_ROWS * m + q * m + 2 * q + (t)]
typedef char gpusvm_cs_scr_check[sizeof(gpusvm_wide) == 8 ? 1 : -1]; /* the host's word size */

/* Class s against r in the search for theta (r's partition): whether s is ahead of r (larger D -
 * Ub, ties by class), the sum of the capped Ub and the free D into acc, the count k of those ahead
 * and their least D - Ub emin. With double one sum in class order (the C backend's); with float
 * pairs four apart, added at the end: each step is several dependent float operations there, and
 * a quarter of the chain: docs/results.md, the code's choices). */
#define GPUSVM_CS_AHEAD(s, acc)                                                                   \
    do {                                                                                        \
        const gpusvm_wide es_ = GPUSVM_CS_SCR_DUB(s);                                                \
        const int ahead_ = GPUSVM_W_GT(es_, er) || (GPUSVM_W_EQ(es_, er) && (s) < r);           \
        acc = GPUSVM_W_ADDF(acc, ahead_ ? GPUSVM_CS_SCR_UB(s) : GPUSVM_CS_SCR_D(s));                   \
        k += ahead_;                                                                            \
        if (ahead_) emin = GPUSVM_W_MIN(emin, es_);                                             \
    } while (0)
/* A point's violation v, max over free classes of the gradient minus min over all (computed by
 * every work-item alike, from what each class put), and its step's D = alpha + g / k_ii. With
 * float pairs the diagonal's reciprocal is kept, so that the step multiplies (a pair's division is
 * several dependent steps), and the violation is taken in floats, from each class's (g if free,
 * else -inf; g) put beside it: it only decides which points the sweeps skip and when they stop
 * (with the atomic first free class and moved flag below, the responses' sums renormalized once
 * and the cws walk by steps: docs/results.md, the code's choices). */
#ifdef GPUSVM_NO_FP64
#define GPUSVM_CS_PART(j) part##j
#define GPUSVM_CS_SUM GPUSVM_W_ADDF(GPUSVM_W_ADDF(part0, part1), GPUSVM_W_ADDF(part2, part3))
#define GPUSVM_CS_KII(k) GPUSVM_W_DIV(GPUSVM_W_F(1.0f), (k))
#define GPUSVM_CS_OVER_K(g, k) GPUSVM_W_MUL((g), (k))
#define GPUSVM_CS_VIOL_PUT(r, a, ub, g) \
    (GPUSVM_CS_SCR_VTERM(r) = gpusvm_w_make(GPUSVM_W_LT((a), (ub)) ? (g).hi : -INFINITY, (g).hi))
#define GPUSVM_CS_VIOL(v)                                                                       \
    float up_ = -INFINITY, low_ = INFINITY;                                                     \
    for (int r_ = 0; r_ < m; ++r_) {                                                            \
        const gpusvm_wide w_ = GPUSVM_CS_SCR_VTERM(r_);                                                \
        up_ = fmax(up_, w_.hi);                                                                 \
        low_ = fmin(low_, w_.lo);                                                               \
    }                                                                                           \
    const gpusvm_wide v = GPUSVM_W_F(up_ - low_)
#else
#define GPUSVM_CS_PART(j) part0
#define GPUSVM_CS_SUM part0
#define GPUSVM_CS_KII(k) (k)
#define GPUSVM_CS_OVER_K(g, k) ((g) / (k))
#define GPUSVM_CS_VIOL_PUT(r, a, ub, g) ((void)0)
#define GPUSVM_CS_VIOL(v)                                                                       \
    gpusvm_wide up_ = -INFINITY, low_ = INFINITY;                                               \
    for (int r_ = 0; r_ < m; ++r_) {                                                            \
        const gpusvm_wide g_ = GPUSVM_CS_SCR_STEP(r_);                                                \
        if (GPUSVM_CS_SCR_ALPHA(r_) < GPUSVM_CS_SCR_UB(r_) && g_ > up_) up_ = g_;                           \
        if (g_ < low_) low_ = g_;                                                               \
    }                                                                                           \
    const gpusvm_wide v = up_ - low_
#endif

#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_CS)
__kernel void gpusvm_cs_solve(GPUSVM__ARGS_CS_SOLVE(GPUSVM__PARAM, GPUSVM__COMMA))
{
    __local int wsl[GPUSVM__Q];
    __local int ksl, mvl; /* a point's step: the first free class (atomic_min), whether a class moved */
    const int lid = get_local_id(0), p = get_group_id(0);
    __global const int *ci_ = cinfo + p * GPUSVM__CI_COUNT;
    const int pv = ci_[GPUSVM__CI_VAR], m = ci_[GPUSVM__CI_M];
    status += p * GPUSVM__ST_COUNT;
    if (!GPUSVM_RUNNING(status)) return;
    const int nq = GPUSVM_W_STI(status, GPUSVM__ST_CS_Q);
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
        const gpusvm_wide kdi = GPUSVM_W_LD(kd[it]);
        GPUSVM_CS_WS_UB(t) = GPUSVM_W_LD(U[it]);
        GPUSVM_CS_WS_KII(t) = GPUSVM_CS_KII(GPUSVM_W_GT(kdi, GPUSVM_W_F(0.0f)) ? kdi : GPUSVM_W_TAU);
        GPUSVM_CS_WS_CLASS(t) = GPUSVM_W_I(cls[it]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int e = lid; e < nq * nq; e += GPUSVM__CS_L) { /* row of position t at the point of u */
        const int t = e / nq, u = e - t * nq;
        kws[t * q + u] = K[(size_t)GPUSVM_CS_ROW(t) * ldk + wsl[u]];
    }
    for (int e = lid; e < nq * m; e += GPUSVM__CS_L) {
        const int t = e / m;
        const size_t at = (size_t)wsl[t] * m + (e - t * m);
        cws[e] = GPUSVM_W_LD(c[at]);
        GPUSVM_CS_WS_ALPHA(e) = GPUSVM_W_LD(alpha[at]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const gpusvm_wide zero = GPUSVM_W_F(0.0f), ratio_w = GPUSVM_W_LD(ratio), eps_w = GPUSVM_W_LD(eps);
    gpusvm_wide v0 = GPUSVM_W_F(-1.0f), upd = zero, skip = zero;
    /* the cws update's element e = lid + j L is at (u, r) = (e / m, e % m), walked by steps of L */
    const int stp_u = GPUSVM__CS_L / m, stp_r = GPUSVM__CS_L - stp_u * m, u_0 = lid / m, r_0 = lid - u_0 * m;
    for (int sweep = 0; sweep < 100; ++sweep) {
        gpusvm_wide vin = zero;
        for (int t = 0; t < nq; ++t) {
            const int y = GPUSVM_W_TOI(GPUSVM_CS_WS_CLASS(t));
            const gpusvm_wide kii = GPUSVM_CS_WS_KII(t);
            if (lid == 0) {
                ksl = m - 1;
                mvl = 0;
            }
            for (int r = lid; r < m; r += GPUSVM__CS_L) {
                const gpusvm_wide a = GPUSVM_CS_WS_ALPHA(t * m + r);
                const gpusvm_wide gr = GPUSVM_W_SUB(GPUSVM_W_F(r == y ? 1.0f : 0.0f), cws[t * m + r]);
                const gpusvm_wide ub = r == y ? GPUSVM_CS_WS_UB(t) : zero;
                GPUSVM_CS_SCR_ALPHA(r) = a;
                GPUSVM_CS_SCR_UB(r) = ub;
                const gpusvm_wide dr = GPUSVM_W_ADD(a, GPUSVM_CS_OVER_K(gr, kii));
                GPUSVM_CS_SCR_D(r) = dr;
                GPUSVM_CS_SCR_DUB(r) = GPUSVM_W_SUB(dr, ub);
                GPUSVM_CS_SCR_STEP(r) = gr; /* the gradient until the step replaces it */
                GPUSVM_CS_VIOL_PUT(r, a, ub, gr);
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            GPUSVM_CS_VIOL(viol); /* every work-item, the same answer */
            vin = GPUSVM_W_MAX(vin, viol);
            /* uniform: optimal (within tau's 1e-12), or already below the sweeps' aim */
            if (!GPUSVM_W_GT(viol, GPUSVM_W_TAU) || GPUSVM_W_LT(viol, skip)) {
                barrier(CLK_LOCAL_MEM_FENCE);
                continue;
            }
            for (int r = lid; r < m; r += GPUSVM__CS_L) { /* r first free: the classes ahead capped */
                const gpusvm_wide er = GPUSVM_CS_SCR_DUB(r);
                gpusvm_wide part0 = zero, emin = GPUSVM_W_F(INFINITY);
#ifdef GPUSVM_NO_FP64
                gpusvm_wide part1 = zero, part2 = zero, part3 = zero;
#endif
                int k = 0, s = 0;
                for (; s + 4 <= m; s += 4) {
                    GPUSVM_CS_AHEAD(s, part0);
                    GPUSVM_CS_AHEAD(s + 1, GPUSVM_CS_PART(1));
                    GPUSVM_CS_AHEAD(s + 2, GPUSVM_CS_PART(2));
                    GPUSVM_CS_AHEAD(s + 3, GPUSVM_CS_PART(3));
                }
                for (; s < m; ++s) GPUSVM_CS_AHEAD(s, part0);
                const gpusvm_wide th = GPUSVM_W_DIV(GPUSVM_CS_SUM, GPUSVM_W_I(m - k));
                GPUSVM_CS_SCR_THETA(k) = th;
                if ((k == 0 || GPUSVM_W_GE(emin, th)) && GPUSVM_W_LT(er, th)) atomic_min(&ksl, k);
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            const gpusvm_wide theta = GPUSVM_CS_SCR_THETA(ksl); /* the first k that qualifies, else m - 1 */
            for (int r = lid; r < m; r += GPUSVM__CS_L) {
                const gpusvm_wide d = GPUSVM_W_SUB(GPUSVM_CS_SCR_D(r), theta), ub = GPUSVM_CS_SCR_UB(r);
                const gpusvm_wide beta = GPUSVM_W_LT(d, ub) ? d : ub;
                const gpusvm_wide step = GPUSVM_W_SUB(beta, GPUSVM_CS_SCR_ALPHA(r));
                GPUSVM_CS_SCR_STEP(r) = step;
                GPUSVM_CS_WS_ALPHA(t * m + r) = beta;
                if (!GPUSVM_W_EQ(step, zero)) mvl = 1;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            const int mv = mvl;
            upd = GPUSVM_W_ADD(upd, GPUSVM_W_I(mv));
            if (mv)
                for (int e = lid, u = u_0, r = r_0; e < nq * m; e += GPUSVM__CS_L) {
                    cws[e] = GPUSVM_W_ACC(cws[e], GPUSVM_CS_SCR_STEP(r), kws[t * q + u]);
                    u += stp_u;
                    r += stp_r;
                    if (r >= m) {
                        r -= m;
                        ++u;
                    }
                }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (GPUSVM_W_LT(v0, zero)) v0 = vin;
        if (GPUSVM_W_LT(vin, GPUSVM_W_MUL(ratio_w, v0)) || GPUSVM_W_LT(vin, eps_w)) break;
        skip = GPUSVM_W_MUL(GPUSVM_W_MULF(ratio_w, 0.5f), v0); /* later sweeps: only points at least half the aim over it */
    }
    for (int e = lid; e < nq * m; e += GPUSVM__CS_L) { /* the steps, and alpha written back */
        const int t = e / m;
        const size_t at = (size_t)wsl[t] * m + (e - t * m);
        const gpusvm_wbits old = alpha[at];
        const gpusvm_wide a0 = GPUSVM_W_LD(old);
        dA[e] = GPUSVM_W_SUB(GPUSVM_CS_WS_ALPHA(e), a0); /* the kernels' own: wide as it is */
        alpha[at] = GPUSVM_W_ST_EXACT(GPUSVM_CS_WS_ALPHA(e), a0, old, GPUSVM_CS_WS_UB(t), U[wsl[t]]); /* U: y's bound */
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (int t = lid; t < nq; t += GPUSVM__CS_L) {
        int mv = 0;
        for (int r = 0; r < m; ++r) mv |= !GPUSVM_W_EQ(dA[t * m + r], zero);
        moved[t] = mv ? GPUSVM_CS_ROW(t) : -1;
    }
    if (lid == 0) {
        status[GPUSVM__ST_ITER] = GPUSVM_W_ST(GPUSVM_W_ADD(GPUSVM_W_LD(status[GPUSVM__ST_ITER]), upd));
        status[GPUSVM__ST_OUTER] = GPUSVM_W_ST(GPUSVM_W_ADD(GPUSVM_W_LD(status[GPUSVM__ST_OUTER]), GPUSVM_W_F(1.0f)));
    }
}
#endif
