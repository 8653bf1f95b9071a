/* gpusvm kernels, part 2: optimality check and working-set selection.
 *
 * With v_i = -y_i G_i, LIBSVM's sets are
 *   I_up  = { y=+1, alpha<C } u { y=-1, alpha>0 }
 *   I_low = { y=+1, alpha>0 } u { y=-1, alpha<C }
 * and the stopping rule is m - M < eps, m = max_{I_up} v, M = min_{I_low} v.
 * The nu formulations (LIBSVM's Solver_NU) have one equality constraint per
 * class, so m and M are taken within each class and the rule is
 * max(m+ - M+, m- - M-) < eps; every pair of variables comes from one class.
 *
 * Both kernels run every problem of a batch in one launch (see part 0):
 * gpusvm_keys on a grid whose second dimension is the problem, gpusvm_select
 * with one work-group per problem.
 *
 * gpusvm_keys (GPUSVM__KEYS_WI variables per work-item, a work-group's reads
 * coalesced) writes a sort key per variable and set (smaller key = more
 * violating; GPUSVM__KEY_NONE = not a candidate, and every variable outside
 * the problem's share of a split: part 0's PI_LO, PI_HI) and one partial m / M per
 * work-group: a reduction in Structure-of-Arrays form (Catanzaro's case study), through warp
 * exchanges where the device has them (part 0).
 *
 * gpusvm_select (one work-group per problem) finishes m - M, decides
 * convergence, and
 * builds the next working set without a sort: it keeps the newest half of the
 * previous set (its kernel rows are still in place), then takes the k most
 * violating new points of I_up and of I_low (with nu, of each class's I_up
 * and I_low) by radix selection on the keys
 * (three passes over the key's digits of 11, 11 and 10 bits, three more over
 * the point index's only when keys tie), so the choice is a total order and
 * the result is deterministic.
 */

#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_KEYS)
__kernel GPUSVM_SG_ATTR void gpusvm_keys(GPUSVM__ARGS_KEYS(GPUSVM__PARAM, GPUSVM__COMMA))
{
    __local gpusvm_wide s_up[2][GPUSVM__L];
    __local gpusvm_wide s_low[2][GPUSVM__L];
    const int lid = get_local_id(0), p = get_group_id(1);
    __global const int *pi = pinfo + p * GPUSVM__PI_COUNT;
    const int v0 = pi[GPUSVM__PI_VAR], n = pi[GPUSVM__PI_NVAR], nparts = pi[GPUSVM__PI_NPARTS];
    const int npts = pi[GPUSVM__PI_SPLIT], lo = pi[GPUSVM__PI_LO], hi = pi[GPUSVM__PI_HI];
    __global const gpusvm_wbits *G = G0 + v0, *alpha = alpha0 + v0, *Cv = Cv0 + v0;
    __global const char *y = y0 + v0;
    __global uint *key_up = key_up0 + v0, *key_low = key_low0 + v0;
    __global gpusvm_wbits *part_up = part_up0 + (size_t)p * 2 * nparts_max;
    __global gpusvm_wbits *part_low = part_low0 + (size_t)p * 2 * nparts_max;
    /* uniform per work-group */
    if (!GPUSVM_RUNNING(status + p * GPUSVM__ST_COUNT) || (int)get_group_id(0) >= nparts) return;

    /* class 0: every variable (nu: y = +1), class 1: nu's y = -1 */
    gpusvm_wide up[2], low[2]; /* indexed by constants only */
    up[0] = up[1] = GPUSVM_W_F(-INFINITY);
    low[0] = low[1] = GPUSVM_W_F(INFINITY);
    const int base = (int)get_group_id(0) * (GPUSVM__L * GPUSVM__KEYS_WI) + lid;
    for (int u = 0; u < GPUSVM__KEYS_WI; ++u) {
        const int i = base + u * GPUSVM__L;
        if (i < n) {
            const int own = GPUSVM__PT(i, npts) >= lo && GPUSVM__PT(i, npts) < hi; /* else a candidate elsewhere */
            const gpusvm_wide a = GPUSVM_W_LD(alpha[i]), g = GPUSVM_W_LD(G[i]);
            const int pos = y[i] > 0;
            const gpusvm_wide C = GPUSVM_W_LD(Cv[i]); /* the class's C times the sample's weight */
            const gpusvm_wide v = pos ? GPUSVM_W_NEG(g) : g;
            const int in_up = own && (pos ? GPUSVM_W_LT(a, C) : GPUSVM_W_GT(a, GPUSVM_W_F(0.0f)));
            const int in_low = own && (pos ? GPUSVM_W_GT(a, GPUSVM_W_F(0.0f)) : GPUSVM_W_LT(a, C));
            const uint k = gpusvm_float_key(GPUSVM_W_TOF(v));
            const int c1 = nu && !pos;
            key_up[i] = in_up ? ~k : GPUSVM__KEY_NONE;
            key_low[i] = in_low ? k : GPUSVM__KEY_NONE;
            up[0] = (in_up && !c1) ? GPUSVM_W_MAX(up[0], v) : up[0];
            up[1] = (in_up && c1) ? GPUSVM_W_MAX(up[1], v) : up[1];
            low[0] = (in_low && !c1) ? GPUSVM_W_MIN(low[0], v) : low[0];
            low[1] = (in_low && c1) ? GPUSVM_W_MIN(low[1], v) : low[1];
        }
    }
#ifdef GPUSVM_SHFL
    for (int m = GPUSVM_WARP / 2; m > 0; m >>= 1)
        for (int c = 0; c < 2; ++c) {
            up[c] = GPUSVM_W_MAX(up[c], gpusvm_xor_w(up[c], m));
            low[c] = GPUSVM_W_MIN(low[c], gpusvm_xor_w(low[c], m));
        }
    if (lid % GPUSVM_WARP == 0)
        for (int c = 0; c < 2; ++c) {
            s_up[c][lid / GPUSVM_WARP] = up[c];
            s_low[c][lid / GPUSVM_WARP] = low[c];
        }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int nfold = GPUSVM__L / GPUSVM_WARP;
#else
    for (int c = 0; c < 2; ++c) {
        s_up[c][lid] = up[c];
        s_low[c][lid] = low[c];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = GPUSVM__L / 2; s > 1; s >>= 1) {
        if (lid < s) {
            for (int c = 0; c < 2; ++c) {
                s_up[c][lid] = GPUSVM_W_MAX(s_up[c][lid], s_up[c][lid + s]);
                s_low[c][lid] = GPUSVM_W_MIN(s_low[c][lid], s_low[c][lid + s]);
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const int nfold = 2;
#endif
    if (lid < 4) { /* the four partials, one work-item each */
        const int c = lid >> 1, g = get_group_id(0);
        __local gpusvm_wide *sv = (lid & 1) ? s_low[c] : s_up[c];
        gpusvm_wide m = sv[0];
        for (int u = 1; u < nfold; ++u) m = (lid & 1) ? GPUSVM_W_MIN(m, sv[u]) : GPUSVM_W_MAX(m, sv[u]);
        ((lid & 1) ? part_low : part_up)[c * nparts + g] = GPUSVM_W_ST(m);
    }
}
#endif

/* The radix passes: the key's 32 bits as digits of 11, 11 and 10 bits from the top (passes 0-2),
 * then the index's likewise (passes 3-5), each counted into GPUSVM_SEL_BINS bins. (Three passes
 * of 2048 bins rather than four of 256: fewer walks over the keys, and over the grid fewer
 * launches.) */
#define GPUSVM_SEL_BINS GPUSVM__SEL_BINS
#define GPUSVM_SEL_PASSES 6
#define GPUSVM_SEL_SHIFT(pass) ((pass) % 3 == 0 ? 21 : (pass) % 3 == 1 ? 10 : 0)
#define GPUSVM_SEL_DIGIT(pass) ((pass) % 3 == 2 ? 0x3FFu : 0x7FFu)
#define GPUSVM_SEL_WI ((int)get_local_id(0)) /* read afresh after barriers (PoCL 3.1; see part 3) */

/* Scratch of a selection (in local memory, or one per problem in global memory for the grid's).
 * stage: 0 key passes, 1 take key <= found, 3 ties need the index (its passes; over the grid
 * gpusvm_sel_ties), 4 take ties up to an index, 2 take every candidate, 5 none. arrived: the
 * grid's work-groups done with a pass. */
typedef struct {
    uint hist[GPUSVM_SEL_BINS];
    uint prefix, mask, need, found, stage;
    int count;
    uint arrived;
} gpusvm_sel_scratch;
typedef char gpusvm_sel_scratch_check[sizeof(gpusvm_sel_scratch) == GPUSVM__SEL_SCRATCH ? 1 : -1]; /* the host's size */

/* Where the running count of the bins lh reaches need (at least 1): res[0] the bin, res[1] the
 * count before it, res[2] the count of all (res[0] and res[1] unset when all are fewer). Every
 * work-item takes part: each sums GPUSVM_SEL_BINS / GPUSVM__L consecutive bins, a scan over ls
 * (GPUSVM__L words) gives each sum's start, and the work-item whose bins hold the crossing walks
 * them. */
GPUSVM_INLINE void gpusvm_sel_find(__local const uint *lh, __local int *ls, __local uint *res, uint need)
{
    const int per = GPUSVM_SEL_BINS / GPUSVM__L;
    uint sum = 0;
    for (int u = 0; u < per; ++u) sum += lh[GPUSVM_SEL_WI * per + u];
    ls[GPUSVM_SEL_WI] = (int)sum; /* counts of points: below 2^31 */
    gpusvm_scan_local(ls);
    {
        const uint incl = (uint)ls[GPUSVM_SEL_WI];
        uint cum = GPUSVM_SEL_WI > 0 ? (uint)ls[GPUSVM_SEL_WI - 1] : 0u;
        if (GPUSVM_SEL_WI == GPUSVM__L - 1) res[2] = incl;
        if (cum < need && incl >= need) {
            int b = GPUSVM_SEL_WI * per;
            for (; b < GPUSVM_SEL_WI * per + per - 1 && cum + lh[b] < need; ++b) cum += lh[b];
            res[0] = (uint)b;
            res[1] = cum;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* The decision after pass `pass` from its bins lh and gpusvm_sel_find's res, by one work-item:
 * the digit where the count reaches what is still needed. Used by the one-work-group passes
 * (scratch in local memory) and by the grid's last work-group (scratch in global memory). */
#define GPUSVM_SEL_APPLY(sc, lh, res, pass)                                            \
    do {                                                                              \
        if ((pass) == 0 && (res)[2] <= (sc)->need) {                                  \
            (sc)->stage = 2; /* fewer candidates than wanted: all of them */          \
        } else {                                                                      \
            const uint b_ = (res)[0];                                                 \
            (sc)->need -= (res)[1];                                                   \
            (sc)->prefix |= b_ << GPUSVM_SEL_SHIFT(pass);                             \
            (sc)->mask |= GPUSVM_SEL_DIGIT(pass) << GPUSVM_SEL_SHIFT(pass);           \
            if ((pass) == 2) { /* the key threshold; do ties need the index? */       \
                (sc)->found = (sc)->prefix;                                           \
                (sc)->stage = ((lh)[b_] == (sc)->need) ? 1 : 3;                       \
                (sc)->prefix = 0;                                                     \
                (sc)->mask = 0;                                                       \
            }                                                                         \
            if ((pass) == 5) (sc)->stage = 4;                                         \
        }                                                                             \
    } while (0)

/* One side's radix select: the passes over the keys of the candidates (class cls, or any when
 * 0), then over the index of those tied at the threshold when more tie than are needed; sc says
 * afterwards what to take (ls, res: gpusvm_sel_find's scratch; res[3] the next pass). The passes
 * not needed are not run: the loop's count is in local memory, so it is uniform (a barrier under
 * a uniform branch instead went wrong on PoCL 3.1). */
GPUSVM_INLINE void gpusvm_select_passes(__local gpusvm_sel_scratch *sc, __local int *ls, __local uint *res,
                                        __global const uint *keys, __global const char *y, int cls, int n)
{
    if (GPUSVM_SEL_WI == 0) res[3] = sc->stage == 0 ? 0u : (uint)GPUSVM_SEL_PASSES;
    barrier(CLK_LOCAL_MEM_FENCE);
    while (res[3] < (uint)GPUSVM_SEL_PASSES) { /* uniform */
        const int pass = (int)res[3];
        const int on_index = pass >= 3;
        const int shift = GPUSVM_SEL_SHIFT(pass);
        const uint digit = GPUSVM_SEL_DIGIT(pass);
        const uint prefix = sc->prefix, mask = sc->mask, found = sc->found;
        for (int b = GPUSVM_SEL_WI; b < GPUSVM_SEL_BINS; b += GPUSVM__L) sc->hist[b] = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int i = GPUSVM_SEL_WI; i < n; i += GPUSVM__L) {
            const uint key = keys[i];
            if (key == GPUSVM__KEY_NONE || (cls && y[i] != cls)) continue;
            if (!on_index) {
                if ((key & mask) == prefix) atomic_inc(&sc->hist[(key >> shift) & digit]);
            } else if (key == found && (((uint)i) & mask) == prefix) {
                atomic_inc(&sc->hist[(((uint)i) >> shift) & digit]);
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        gpusvm_sel_find(sc->hist, ls, res, sc->need);
        if (GPUSVM_SEL_WI == 0) {
            const int p = (int)res[3];
            GPUSVM_SEL_APPLY(sc, sc->hist, res, p);
            /* on while the stage is the passes' own: key passes (0), then index passes (3) */
            res[3] = (sc->stage == 0 || sc->stage == 3) ? (uint)(p + 1) : (uint)GPUSVM_SEL_PASSES;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* Whether a candidate (key, index i) is taken once the passes are done (stage 2 all, 1 every key
 * up to the threshold, 4 below it and the ties up to an index). */
GPUSVM_INLINE int gpusvm_sel_takes(uint stage, uint found, uint ithr, uint key, int i)
{
    return stage == 2 || key < found || (key == found && (stage == 1 || (uint)i <= ithr));
}

/* A work-item's share of a working set's positions, rounded up (GPUSVM__Q may be below GPUSVM__L). */
#define GPUSVM_Q_PER_L ((GPUSVM__Q + GPUSVM__L - 1) / GPUSVM__L)

/* The got chosen points of list in ascending order into keep: each one's rank is the number of
 * smaller indices (indices are distinct), so no barrier sits inside a loop. A macro, not a
 * function, so that it stays written out in its kernels (see part 0). */
#define GPUSVM_SORT_CHOSEN(list, keep, got, lid)                          \
    for (int c = 0; c < GPUSVM_Q_PER_L; ++c) {                     \
        const int t = c * GPUSVM__L + (lid);                              \
        if (t < (got)) {                                                  \
            const int v = (list)[t];                                      \
            int rank = 0;                                                 \
            for (int u = 0; u < (got); ++u) rank += (list)[u] < v;        \
            (keep)[rank] = v;                                             \
        }                                                                 \
    }

/* One side: up to k more points from keys (class cls, or any when 0) appended to list; both of
 * a chosen point's keys become NONE. */
GPUSVM_INLINE void gpusvm_select_side(__local gpusvm_sel_scratch *sc, __local int *ls, __local uint *res,
                                      __local int *list, __global uint *keys, __global uint *other,
                                      __global const char *y, int cls, int k, int n)
{
    if (get_local_id(0) == 0) {
        sc->prefix = 0;
        sc->mask = 0;
        sc->found = 0;
        sc->need = (uint)max(k, 0);
        sc->stage = (k > 0) ? 0 : 5;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    gpusvm_select_passes(sc, ls, res, keys, y, cls, n);
    const uint stage = sc->stage, found = sc->found, ithr = sc->prefix;
    if (stage != 5) {
        for (int i = get_local_id(0); i < n; i += GPUSVM__L) {
            const uint key = keys[i];
            if (key == GPUSVM__KEY_NONE || (cls && y[i] != cls)) continue;
            if (gpusvm_sel_takes(stage, found, ithr, key, i)) {
                list[atomic_inc((volatile __local int *)&sc->count)] = i;
                keys[i] = GPUSVM__KEY_NONE;
                other[i] = GPUSVM__KEY_NONE;
            }
        }
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
}

/* m and M of each class (0: every variable, or nu's y = +1; 1: nu's y = -1) from a problem's
 * gpusvm_keys partials, by the whole work-group, into r_up[c][0] and r_low[c][0]. */
GPUSVM_INLINE void gpusvm_sel_ends(__global const gpusvm_wbits *part_up, __global const gpusvm_wbits *part_low,
                                   int nparts, __local gpusvm_wide (*r_up)[GPUSVM__L],
                                   __local gpusvm_wide (*r_low)[GPUSVM__L])
{
    for (int c = 0; c < 2; ++c) {
        gpusvm_wide up = GPUSVM_W_F(-INFINITY), low = GPUSVM_W_F(INFINITY);
        for (int g = GPUSVM_SEL_WI; g < nparts; g += GPUSVM__L) {
            up = GPUSVM_W_MAX(up, GPUSVM_W_LD(part_up[c * nparts + g]));
            low = GPUSVM_W_MIN(low, GPUSVM_W_LD(part_low[c * nparts + g]));
        }
        r_up[c][GPUSVM_SEL_WI] = up;
        r_low[c][GPUSVM_SEL_WI] = low;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = GPUSVM__L / 2; s > 0; s >>= 1) {
        if (GPUSVM_SEL_WI < s) {
            for (int c = 0; c < 2; ++c) {
                r_up[c][GPUSVM_SEL_WI] = GPUSVM_W_MAX(r_up[c][GPUSVM_SEL_WI], r_up[c][GPUSVM_SEL_WI + s]);
                r_low[c][GPUSVM_SEL_WI] = GPUSVM_W_MIN(r_low[c][GPUSVM_SEL_WI], r_low[c][GPUSVM_SEL_WI + s]);
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* The round's stop for a problem, by its work-group: m and M from its gpusvm_keys partials, the
 * gap (nu: the worse class's), converged below eps or at max_iter pair updates, into its status
 * (a running problem's round counted). Returns GPUSVM__DONE_*. */
GPUSVM_INLINE int gpusvm_sel_check(__global const gpusvm_wbits *part_up, __global const gpusvm_wbits *part_low,
                                   int nparts, gpusvm_wbits eps, gpusvm_wbits max_iter, __global gpusvm_wbits *status,
                                   int nu, __local gpusvm_wide (*r_up)[GPUSVM__L], __local gpusvm_wide (*r_low)[GPUSVM__L])
{
    gpusvm_sel_ends(part_up, part_low, nparts, r_up, r_low);
    const gpusvm_wide gap0 = GPUSVM_W_SUB(r_up[0][0], r_low[0][0]), gap1 = GPUSVM_W_SUB(r_up[1][0], r_low[1][0]);
    const int worst = (nu && GPUSVM_W_GT(gap1, gap0)) ? 1 : 0;
    const gpusvm_wide gap = worst ? gap1 : gap0;
    const int done = GPUSVM__STOP_RULE(GPUSVM_W_GE, gap, GPUSVM_W_LD(eps), GPUSVM_W_LD(status[GPUSVM__ST_ITER]),
                                       GPUSVM_W_LD(max_iter));
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        status[GPUSVM__ST_GAP] = GPUSVM_W_ST(gap);
        status[GPUSVM__ST_MUP] = GPUSVM_W_ST(r_up[worst][0]);
        status[GPUSVM__ST_MLOW] = GPUSVM_W_ST(r_low[worst][0]);
        status[GPUSVM__ST_DONE] = GPUSVM_W_ST(GPUSVM_W_I(done));
        if (!done) status[GPUSVM__ST_OUTER] = GPUSVM_W_ST(GPUSVM_W_ADD(GPUSVM_W_LD(status[GPUSVM__ST_OUTER]), GPUSVM_W_F(1.0f)));
    }
    return done;
}

/* mode 0: choose a whole working set of q points.
 * mode 1: keep positions q/2..q-1 of the previous set (moved to the front,
 *         with their row slots) and choose q/2 new points into the slots of
 *         the dropped half.
 * A problem whose working set is every variable only gets the optimality
 * check, whatever the mode. q is the problem's working-set size.
 *
 * The new points are the fresh/2 smallest (key, index) pairs of I_up, then
 * the smallest of I_low for the rest, then I_up again for whatever I_low
 * lacked; with nu, a quarter each from I_up and I_low of y = +1, then of
 * y = -1, then I_up and I_low of either class for whatever is still
 * missing. A chosen point gets both keys set to NONE. Each choice is a radix
 * select: three passes over the key (digits of 11, 11 and 10 bits), then,
 * only when more points tie at the threshold than are still needed, three
 * passes over the index of the tied points. Every loop that holds a barrier
 * runs a number of times read from local memory (uniform); passes not needed
 * are not run. */
/* side s of the selection: GPUSVM__SIDE_* (part 0) */

#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_SELECT)
__kernel void gpusvm_select(GPUSVM__ARGS_SELECT(GPUSVM__PARAM, GPUSVM__COMMA))
{
    __local int list[GPUSVM__Q];
    __local int keep[GPUSVM__Q];
    __local gpusvm_wide r_up[2][GPUSVM__L];
    __local gpusvm_wide r_low[2][GPUSVM__L];
    __local gpusvm_sel_scratch sc;
    __local int ls[GPUSVM__L];
    __local uint res[4];
    const int lid = get_local_id(0), p = get_group_id(0);
    __global const int *pi = pinfo + p * GPUSVM__PI_COUNT;
    const int v0 = pi[GPUSVM__PI_VAR], n = pi[GPUSVM__PI_NVAR], nparts = pi[GPUSVM__PI_NPARTS];
    const int q = pi[GPUSVM__PI_Q], mode = pi[GPUSVM__PI_WHOLE] ? 2 : mode_in;
    __global uint *key_up = key_up0 + v0, *key_low = key_low0 + v0;
    __global const char *y = y0 + v0;
    __global const gpusvm_wbits *part_up = part_up0 + (size_t)p * 2 * nparts_max;
    __global const gpusvm_wbits *part_low = part_low0 + (size_t)p * 2 * nparts_max;
    __global int *ws_idx = ws_idx0 + p * qmax, *ws_slot = ws_slot0 + p * qmax;
    __global gpusvm_wbits *status = status0 + p * GPUSVM__ST_COUNT;
    __global gpusvm_sel_scratch *sel0 = (__global gpusvm_sel_scratch *)sel_g;
    if (!GPUSVM_RUNNING(status)) return;

    const int done = gpusvm_sel_check(part_up, part_low, nparts, eps, max_iter, status, nu, r_up, r_low);
    if (lid == 0) sc.count = 0;
    if (done || mode == 2) return;
    if (split) { /* the sides run over the grid (below): their scratch starts empty */
        for (int b = lid; b < GPUSVM_SEL_BINS; b += GPUSVM__L) sel0[p].hist[b] = 0;
        if (lid == 0) {
            sel0[p].count = 0;
            sel0[p].arrived = 0;
        }
    }

    /* mode 1: the newest half moves to the front; the dropped half's slots are reused */
    const int h = (mode == 1) ? q / 2 : 0;
    const int fresh = q - h;
    for (int t = lid; t < h; t += GPUSVM__L) {
        keep[t] = ws_idx[h + t];
        keep[h + t] = ws_slot[h + t];
        list[t] = ws_slot[t];
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    for (int t = lid; t < h; t += GPUSVM__L) {
        ws_idx[t] = keep[t];
        ws_slot[t] = keep[h + t];
        ws_slot[h + t] = list[t];
        key_up[keep[t]] = GPUSVM__KEY_NONE;
        key_low[keep[t]] = GPUSVM__KEY_NONE;
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (split) return;

    /* sides: which keys, from which class (0: any), up to how many chosen in all */
    for (int side = 0; side < GPUSVM__SIDES(nu); ++side) {
        const int low_side = GPUSVM__SIDE_LOW(side, nu), cls = GPUSVM__SIDE_CLS(side, nu);
        gpusvm_select_side(&sc, ls, res, list, low_side ? key_low : key_up, low_side ? key_up : key_low, y, cls,
                           GPUSVM__SIDE_UPTO(side, nu, fresh) - sc.count, n);
    }

    const int got = sc.count;
    GPUSVM_SORT_CHOSEN(list, keep, got, lid);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int c = 0; c < GPUSVM_Q_PER_L; ++c) {
        const int t = c * GPUSVM__L + lid;
        if (t < got) ws_idx[h + t] = keep[t];
    }
}
#endif

/* A batch whose every problem is solved whole (its working set is all its variables: nothing to
 * choose) takes gpusvm_select's stop alone, without the radix select's code (a first run on a
 * GPU compiles the part it uses: docs/results.md, The kernels' compile). */
#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_CHECK)
__kernel void gpusvm_check(GPUSVM__ARGS_SELECT(GPUSVM__PARAM, GPUSVM__COMMA))
{
    __local gpusvm_wide r_up[2][GPUSVM__L];
    __local gpusvm_wide r_low[2][GPUSVM__L];
    const int p = get_group_id(0);
    const int nparts = pinfo[p * GPUSVM__PI_COUNT + GPUSVM__PI_NPARTS];
    __global const gpusvm_wbits *part_up = part_up0 + (size_t)p * 2 * nparts_max;
    __global const gpusvm_wbits *part_low = part_low0 + (size_t)p * 2 * nparts_max;
    __global gpusvm_wbits *status = status0 + p * GPUSVM__ST_COUNT;
    if (!GPUSVM_RUNNING(status)) return;
    gpusvm_sel_check(part_up, part_low, nparts, eps, max_iter, status, nu, r_up, r_low);
    /* a barrier after work-item 0's writes: ending on them, the kernel never returned on PoCL 3.1
     * (its work-group loop ran on, heart_scale's first round) */
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
}
#endif

/* The selection over the grid, for problems too many for one work-group to scan in good time
 * (the host's choice, GPUSVM__SEL_GRID): gpusvm_select with split checks and keeps the half as
 * above and empties the problem's scratch; then each side finds its key threshold in three
 * counting passes (every work-group counts its part of the keys into local bins and adds them to
 * the problem's; the last work-group to arrive takes the bins, emptying them, and decides: the
 * first pass in gpusvm_sel_hist for side 0 and in the previous side's gpusvm_sel_take for the
 * others, the other two in gpusvm_sel_hist); gpusvm_sel_ties finds the index threshold when more
 * points tie at the key threshold than are still needed (in one launch instead of three index
 * passes: counts of ties per work-group, then the last work-group walks them); gpusvm_sel_take
 * takes the points, and the last side's puts them in order. With gpusvm_keys and gpusvm_select,
 * 3 + 4 x sides launches a round (15; with nu 27). The same rules as the one-work-group path, so
 * the same working set.
 * Scratch and list: one gpusvm_sel_scratch and qmax ints per problem. (The ordering keeps no
 * barrier: with barriers, PoCL 3.1 wrote outside the list. Every work-group reaches every
 * barrier, and only the last one's result is used: barriers under a branch uniform over the
 * work-group went wrong on PoCL 3.1.) */
/* the work-item and the problem's scratch, read afresh after a barrier (PoCL 3.1 loses such
 * variables across barriers; see part 3) */
#define GPUSVM_SEL_LID ((int)get_local_id(0))
#define GPUSVM_SEL_SC ((__global gpusvm_sel_scratch *)sel_g + (int)get_group_id(1))
#define GPUSVM_SEL_NPARTS (pinfo[(int)get_group_id(1) * GPUSVM__PI_COUNT + GPUSVM__PI_NPARTS])
/* variable u of this work-group's work-item (the keys' order: gpusvm_keys') */
#define GPUSVM_SEL_VAR(u) ((int)get_group_id(0) * (GPUSVM__L * GPUSVM__KEYS_WI) + (u) * GPUSVM__L + GPUSVM_SEL_LID)
#define GPUSVM_SEL_HEAD                                                                          \
    const int p = get_group_id(1);                                                               \
    __global const int *pi = pinfo + p * GPUSVM__PI_COUNT;                                       \
    __global gpusvm_sel_scratch *sc = (__global gpusvm_sel_scratch *)sel_g + p;                  \
    if (!GPUSVM_RUNNING(status + p * GPUSVM__ST_COUNT) || pi[GPUSVM__PI_WHOLE]) return;
/* side s's keys (1: I_low), class (0: any) and how many it still wants (count taken so far), and
 * the sides: gpusvm_select's (GPUSVM__SIDE_*), or with cands a split problem's lists
 * (GPUSVM__CO_*), each wanting fresh */
#define GPUSVM_SEL_LOW(s) (cands ? GPUSVM__CO_LOW(s) : GPUSVM__SIDE_LOW(s, nu))
#define GPUSVM_SEL_CLS(s) (cands ? GPUSVM__CO_CLS(s, nu) : GPUSVM__SIDE_CLS(s, nu))
#define GPUSVM_SEL_WANT(s, fresh, count) (cands ? (fresh) : GPUSVM__SIDE_UPTO(s, nu, fresh) - (count))
#define GPUSVM_SEL_NSIDES (cands ? GPUSVM__CO_NLISTS(nu) : GPUSVM__SIDES(nu))
/* the side's keys, the other side's, the labels and class filter (gpusvm_sel_hist, _ties, _take) */
#define GPUSVM_SEL_KEYS                                                                          \
    const int v0 = pi[GPUSVM__PI_VAR], n = pi[GPUSVM__PI_NVAR];                                   \
    const int low_side = GPUSVM_SEL_LOW(side), cls = GPUSVM_SEL_CLS(side);                         \
    __global uint *keys = (low_side ? key_low0 : key_up0) + v0;                                  \
    __global uint *other = (low_side ? key_up0 : key_low0) + v0;                                 \
    __global const char *y = y0 + v0;
/* Counting pass `pass` (0-2) over this work-group's candidates in cnt_keys (class cnt_cls, or
 * any when 0; none when !on) whose key has the bits (prefix, mask): local bins lh by the pass's
 * digit, added to the problem's; then last (local) says whether this work-group was the last to
 * add (the arrival count after a device-wide fence, part 0), and the last one's lh holds the
 * problem's bins, read with atomic exchanges that empty them for the next pass. A macro, so that
 * it stays written out in its kernels (see part 0). */
#define GPUSVM_SEL_COUNT(cnt_keys, cnt_cls, on, pass, prefix, mask)                             \
    for (int b_ = GPUSVM_SEL_LID; b_ < GPUSVM_SEL_BINS; b_ += GPUSVM__L) lh[b_] = 0;         \
    barrier(CLK_LOCAL_MEM_FENCE);                                                               \
    for (int u_ = 0; u_ < GPUSVM__KEYS_WI && (on); ++u_) {                                          \
        const int i_ = GPUSVM_SEL_VAR(u_);                                                      \
        if (i_ >= n) continue;                                                                  \
        const uint key_ = (cnt_keys)[i_];                                                       \
        if (key_ == GPUSVM__KEY_NONE || ((cnt_cls) && y[i_] != (cnt_cls))) continue;           \
        if ((key_ & (mask)) == (prefix))                                                        \
            atomic_inc(&lh[(key_ >> GPUSVM_SEL_SHIFT(pass)) & GPUSVM_SEL_DIGIT(pass)]);         \
    }                                                                                           \
    barrier(CLK_LOCAL_MEM_FENCE);                                                               \
    for (int b_ = GPUSVM_SEL_LID; b_ < GPUSVM_SEL_BINS; b_ += GPUSVM__L)                       \
        if (lh[b_]) atomic_add(&GPUSVM_SEL_SC->hist[b_], lh[b_]);                               \
    GPUSVM_FENCE_DEVICE();                                                                      \
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);                                        \
    if (GPUSVM_SEL_LID == 0) last = atomic_inc(&GPUSVM_SEL_SC->arrived) == (uint)GPUSVM_SEL_NPARTS - 1u; \
    barrier(CLK_LOCAL_MEM_FENCE);                                                               \
    if (last && (on))                                                                           \
        for (int b_ = GPUSVM_SEL_LID; b_ < GPUSVM_SEL_BINS; b_ += GPUSVM__L)                   \
            lh[b_] = atomic_xchg(&GPUSVM_SEL_SC->hist[b_], 0u);                                 \
    barrier(CLK_LOCAL_MEM_FENCE);

/* A side's start, decided from its first counting pass by the last work-group (sc: the
 * problem's scratch): k (the count still wanted) <= 0 takes none, else the first digit. */
#define GPUSVM_SEL_START(sc, k, lh, res)                                                        \
    do {                                                                                        \
        (sc)->need = (uint)max((k), 0);                                                         \
        (sc)->prefix = (sc)->mask = (sc)->found = 0;                                            \
        (sc)->stage = (k) > 0 ? 0u : 5u;                                                        \
        if ((k) > 0) GPUSVM_SEL_APPLY(sc, lh, res, 0);                                          \
    } while (0)

/* Key pass `pass` (0-2) of side `side`. Pass 0 starts the side from the count so far (k <= 0:
 * none to take, said by work-group 0); the others go on from the scratch. */
#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_SEL)
__kernel void gpusvm_sel_hist(GPUSVM__ARGS_SEL(GPUSVM__PARAM, GPUSVM__COMMA))
{
    __local uint lh[GPUSVM_SEL_BINS];
    __local int ls[GPUSVM__L];
    __local uint res[4];
    __local int last;
    GPUSVM_SEL_HEAD
    GPUSVM_SEL_KEYS
    const int q = pi[GPUSVM__PI_Q], fresh = q - (mode_in == 1 ? q / 2 : 0);
    const int k = GPUSVM_SEL_WANT(side, fresh, sc->count); /* pass 0: still wanted */
    if (pass == 0 && k <= 0) {
        if (get_group_id(0) == 0 && get_local_id(0) == 0) sc->stage = 5;
        return;
    }
    const uint stage = pass == 0 ? 0u : sc->stage, prefix = pass == 0 ? 0u : sc->prefix;
    const uint mask = pass == 0 ? 0u : sc->mask;
    /* uniform per work-group */
    if (stage != 0 || (int)get_group_id(0) >= pi[GPUSVM__PI_NPARTS]) return;
    GPUSVM_SEL_COUNT(keys, cls, 1, pass, prefix, mask)
    gpusvm_sel_find(lh, ls, res, pass == 0 ? (uint)k : GPUSVM_SEL_SC->need);
    if (last && GPUSVM_SEL_LID == 0) {
        __global gpusvm_sel_scratch *sc1 = GPUSVM_SEL_SC;
        if (pass == 0)
            GPUSVM_SEL_START(sc1, k, lh, res);
        else
            GPUSVM_SEL_APPLY(sc1, lh, res, pass);
        sc1->arrived = 0;
    }
}
#endif

/* More points tie at the key threshold than are still needed (stage 3): the tied points of the
 * need smallest indices are taken, so the index threshold is the need-th tied index. Every
 * work-group counts its ties (ties0, per work-group); the last to arrive finds the work-group
 * where the running count reaches need, walks that one's variables in index order to the tie
 * that reaches it, and sets stage 4 with that index. */
#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_SEL)
__kernel void gpusvm_sel_ties(GPUSVM__ARGS_SEL(GPUSVM__PARAM, GPUSVM__COMMA))
{
    __local int ls[GPUSVM__L];
    __local int at[2];
    __local uint res[1];
    __local int last;
    GPUSVM_SEL_HEAD
    GPUSVM_SEL_KEYS
    const uint found = sc->found;
    const int nparts = pi[GPUSVM__PI_NPARTS];
    __global uint *cnt = ties0 + (size_t)p * 4 * nparts_max;
    /* uniform over the grid, then per work-group */
    if (sc->stage != 3 || (int)get_group_id(0) >= nparts) return;
#define GPUSVM_SEL_TIED(i) \
    ((i) < n && keys[i] == found && found != GPUSVM__KEY_NONE && (!cls || y[i] == cls))
    int c = 0;
    for (int u = 0; u < GPUSVM__KEYS_WI; ++u) c += GPUSVM_SEL_TIED(GPUSVM_SEL_VAR(u));
    ls[GPUSVM_SEL_LID] = c;
    gpusvm_scan_local(ls);
    if (GPUSVM_SEL_LID == GPUSVM__L - 1) cnt[get_group_id(0)] = (uint)ls[GPUSVM__L - 1];
    GPUSVM_FENCE_DEVICE();
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (GPUSVM_SEL_LID == 0) {
        last = atomic_inc(&GPUSVM_SEL_SC->arrived) == (uint)GPUSVM_SEL_NPARTS - 1u;
        at[0] = 0;
        at[1] = 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    /* the work-group where the running count of ties reaches need, and the rank there */
    const uint need = GPUSVM_SEL_SC->need;
    uint before = 0;
    for (int g0 = 0; g0 < nparts; g0 += GPUSVM__L) {
        const int g = g0 + GPUSVM_SEL_LID;
        const uint cg = g < nparts ? ((volatile __global const uint *)cnt)[g] : 0u;
        ls[GPUSVM_SEL_LID] = (int)cg; /* counts of points: below 2^31 */
        gpusvm_scan_local(ls);
        const uint incl = before + (uint)ls[GPUSVM_SEL_LID];
        if (incl - cg < need && incl >= need) {
            at[0] = g;
            at[1] = (int)(need - (incl - cg));
        }
        before += (uint)ls[GPUSVM__L - 1];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    /* that work-group's variables in index order (u, then work-item): the at[1]-th tie */
    int seen = 0;
    for (int u = 0; u < GPUSVM__KEYS_WI; ++u) {
        const int i = at[0] * (GPUSVM__L * GPUSVM__KEYS_WI) + u * GPUSVM__L + GPUSVM_SEL_LID;
        const int t = GPUSVM_SEL_TIED(i);
        ls[GPUSVM_SEL_LID] = t;
        gpusvm_scan_local(ls);
        if (t && seen + ls[GPUSVM_SEL_LID] == at[1]) res[0] = (uint)i;
        seen += ls[GPUSVM__L - 1];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#undef GPUSVM_SEL_TIED
    if (last && GPUSVM_SEL_LID == 0) {
        __global gpusvm_sel_scratch *sc1 = GPUSVM_SEL_SC;
        sc1->prefix = res[0];
        sc1->stage = 4;
        sc1->arrived = 0;
    }
}
#endif

/* Takes side `side`'s points (stage 2 all, 1 every key up to the threshold, 4 below it and the
 * ties up to an index; 5 none), then, in the same launch, counts the next side's first pass over
 * the same variables (what was just taken is no longer a candidate there) and its last
 * work-group decides it, from the count of all taken; after the last side, the last work-group
 * puts the chosen points in ascending order instead: each one's rank is the number of smaller
 * ones in the list (indices are distinct), so that holds no barrier. */
#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_SEL)
__kernel void gpusvm_sel_take(GPUSVM__ARGS_SEL(GPUSVM__PARAM, GPUSVM__COMMA))
{
    __local uint lh[GPUSVM_SEL_BINS];
    __local int ls[GPUSVM__L];
    __local uint res[4];
    __local int last;
    GPUSVM_SEL_HEAD
    GPUSVM_SEL_KEYS
    const uint stage = sc->stage, found = sc->found, ithr = sc->prefix;
    const int next = side + 1, more = next < GPUSVM_SEL_NSIDES;
    const int q = pi[GPUSVM__PI_Q], h = mode_in == 1 ? q / 2 : 0;
    /* uniform per work-group */
    if ((int)get_group_id(0) >= pi[GPUSVM__PI_NPARTS]) return;
    for (int u = 0; u < GPUSVM__KEYS_WI && stage != 5; ++u) {
        const int i = GPUSVM_SEL_VAR(u);
        if (i >= n) continue;
        const uint key = keys[i];
        if (key == GPUSVM__KEY_NONE || (cls && y[i] != cls)) continue;
        if (gpusvm_sel_takes(stage, found, ithr, key, i)) {
            const int at = atomic_inc((volatile __global int *)&sc->count);
            if (cands) { /* a split problem's list: the report, the keys left as they are */
                out[GPUSVM__CO_LIST(qmax, side) + 1 + at] = ((ulong)key << 32) | (ulong)(uint)i;
                out[GPUSVM__CO_LIST(qmax, side) + 1 + qmax + at] = GPUSVM_W_BITS(G0[v0 + i]);
                continue;
            }
            list0[p * qmax + at] = i;
            keys[i] = GPUSVM__KEY_NONE;
            other[i] = GPUSVM__KEY_NONE;
        }
    }
    /* the next side's first pass (each work-item counts the variables it took from) */
    const int low_n = more && GPUSVM_SEL_LOW(next), cls_n = more ? GPUSVM_SEL_CLS(next) : 0;
    __global const uint *keys_n = (low_n ? key_low0 : key_up0) + v0;
    GPUSVM_SEL_COUNT(keys_n, cls_n, more, 0, 0u, 0u)
    const int k = GPUSVM_SEL_WANT(next, q - h, atomic_add((volatile __global int *)&GPUSVM_SEL_SC->count, 0));
    gpusvm_sel_find(lh, ls, res, k > 0 ? (uint)k : 1u);
    if (last && cands && GPUSVM_SEL_LID == 0) { /* the list's length; the next list's from 0 */
        out[GPUSVM__CO_LIST(qmax, side)] = (ulong)atomic_xchg((volatile __global int *)&GPUSVM_SEL_SC->count, 0);
    }
    if (last && more && GPUSVM_SEL_LID == 0) {
        __global gpusvm_sel_scratch *sc1 = GPUSVM_SEL_SC;
        GPUSVM_SEL_START(sc1, k, lh, res);
    }
    if (last && !more && !cands) { /* the order */
        __global const volatile int *list = list0 + (int)get_group_id(1) * qmax;
        const int got = atomic_add((volatile __global int *)&GPUSVM_SEL_SC->count, 0);
        for (int t = GPUSVM_SEL_LID; t < got; t += GPUSVM__L) {
            const int v = list[t];
            int rank = 0;
            for (int u = 0; u < got; ++u) rank += list[u] < v;
            ws_idx0[(int)get_group_id(1) * qmax + h + rank] = v;
        }
    }
    if (last && GPUSVM_SEL_LID == 0) GPUSVM_SEL_SC->arrived = 0;
}
#endif

/* A problem split by rows (part 0's report, GPUSVM__CO_*): one work-group, problem 0 (a split
 * batch holds one). gpusvm_keys ran over this share only; this finishes m and M over the share,
 * copies the status row and the working set with the gradients the share holds, sets the kept
 * half's keys to NONE as gpusvm_select does, and takes each list's q - h smallest (key, index)
 * pairs of the share by the same radix passes over the share's variables only (with epsilon-SVR
 * from its first variable to its last second one), leaving the keys as they are (the host merges the
 * parts' lists side by side as gpusvm_select takes them, so every list is complete on its own).
 * With grid (a problem of GPUSVM__SEL_GRID variables or more) the lists are left to the grid's
 * kernels (gpusvm_sel_* with cands), whose scratch this empties. The host writes the merged
 * round back in one transfer (GPUSVM__SPLIT_ROUND), which gpusvm_ws_put spreads into the status,
 * the working set and the gradients. */
#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_SPLIT)
__kernel void gpusvm_cands(GPUSVM__ARGS_CANDS(GPUSVM__PARAM, GPUSVM__COMMA))
{
    __local gpusvm_wide r_up[2][GPUSVM__L];
    __local gpusvm_wide r_low[2][GPUSVM__L];
    __local gpusvm_sel_scratch sc;
    __local int ls[GPUSVM__L];
    __local uint res[4];
    const int lid = get_local_id(0);
    const int n = pinfo[GPUSVM__PI_NVAR], nparts = pinfo[GPUSVM__PI_NPARTS], q = pinfo[GPUSVM__PI_Q];
    const int npts = pinfo[GPUSVM__PI_SPLIT], lo = pinfo[GPUSVM__PI_LO], hi = pinfo[GPUSVM__PI_HI];
    const int h = mode_in == 1 ? q / 2 : 0, fresh = q - h;
    const int v_lo = lo, span = (n > npts ? npts + hi : hi) - lo; /* the share's variables: [v_lo, v_lo + span) */
    for (int t = lid; t < GPUSVM__ST_COUNT; t += GPUSVM__L) out[t] = GPUSVM_W_BITS(status0[t]);
    if (!GPUSVM_RUNNING(status0)) return;

    gpusvm_sel_ends(part_up0, part_low0, nparts, r_up, r_low);
    if (lid < 2) {
        out[GPUSVM__CO_ENDS + lid] = GPUSVM_W_BITS(GPUSVM_W_ST(r_up[lid][0]));
        out[GPUSVM__CO_ENDS + 2 + lid] = GPUSVM_W_BITS(GPUSVM_W_ST(r_low[lid][0]));
    }
    for (int t = lid; t < q; t += GPUSVM__L) {
        const int v = ws_idx0[t], pt = GPUSVM__PT(v, npts);
        out[GPUSVM__CO_IDX + t] = (ulong)(uint)v;
        out[GPUSVM__CO_SLOT(qmax) + t] = (ulong)(uint)ws_slot0[t];
        out[GPUSVM__CO_G(qmax) + t] = pt >= lo && pt < hi ? GPUSVM_W_BITS(G0[v]) : 0UL; /* else 0.0 */
    }
    for (int t = lid; t < h; t += GPUSVM__L) {
        key_up0[ws_idx0[h + t]] = GPUSVM__KEY_NONE;
        key_low0[ws_idx0[h + t]] = GPUSVM__KEY_NONE;
    }
    if (grid) { /* the lists run over the grid (gpusvm_sel_*): their scratch starts empty */
        __global gpusvm_sel_scratch *sc0 = (__global gpusvm_sel_scratch *)sel_g;
        for (int b = lid; b < GPUSVM_SEL_BINS; b += GPUSVM__L) sc0->hist[b] = 0;
        if (lid == 0) sc0->count = sc0->arrived = 0;
        return;
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);

    for (int l = 0; l < GPUSVM__CO_NLISTS(nu); ++l) {
        __global const uint *keys = (GPUSVM__CO_LOW(l) ? key_low0 : key_up0) + v_lo; /* the passes' index: from v_lo */
        __global const char *y = y0 + v_lo;
        const int cls = GPUSVM__CO_CLS(l, nu), base = GPUSVM__CO_LIST(qmax, l);
        if (GPUSVM_SEL_WI == 0) {
            sc.prefix = sc.mask = sc.found = 0;
            sc.need = (uint)max(fresh, 0);
            sc.stage = fresh > 0 ? 0u : 5u;
            sc.count = 0;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        gpusvm_select_passes(&sc, ls, res, keys, y, cls, span);
        const uint stage = sc.stage, found = sc.found, ithr = sc.prefix;
        for (int i = GPUSVM_SEL_WI; i < span && stage != 5; i += GPUSVM__L) {
            const uint key = keys[i];
            if (key == GPUSVM__KEY_NONE || (cls && y[i] != cls)) continue;
            if (gpusvm_sel_takes(stage, found, ithr, key, i)) {
                const int at = atomic_inc((volatile __local int *)&sc.count);
                out[base + 1 + at] = ((ulong)key << 32) | (ulong)(uint)(v_lo + i);
                out[base + 1 + qmax + at] = GPUSVM_W_BITS(G0[v_lo + i]);
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (GPUSVM_SEL_WI == 0) out[base] = (ulong)sc.count;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
#endif

/* The merged working set's gradients (the host's, from the parts that hold them) into G. */
#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_SPLIT)
__kernel void gpusvm_ws_put(GPUSVM__ARGS_WS_PUT(GPUSVM__PARAM, GPUSVM__COMMA))
{
    const int t = get_global_id(0);
    __global const int *ws = (__global const int *)(merged + GPUSVM__ST_COUNT); /* GPUSVM__SPLIT_ROUND's layout */
    if (t < GPUSVM__ST_COUNT) status0[t] = merged[t];
    if (t < qmax) {
        ws_idx0[t] = ws[t];
        ws_slot0[t] = ws[qmax + t];
    }
    if (GPUSVM_RUNNING(merged) && t < pinfo[GPUSVM__PI_Q]) G0[ws[t]] = merged[GPUSVM__ST_COUNT + qmax + t];
}
#endif
