/* gpusvm kernels, part 1c: the row cache of a large problem.
 *
 * A problem with many more variables than its working set keeps C > q kernel
 * rows (the host's choice, from the device's memory): points come back to the
 * working set round after round, and a row still held is not computed again.
 * Before the rows kernels, gpusvm_row_cache (one work-group per problem) gives
 * each of the round's new working-set positions its slot: the one that holds
 * its row already (a hit: nothing to compute), else a victim, taken in ring
 * order from the clock hand among the slots this round does not use (the kept
 * half's and the hits'). The misses, in position order, go to the rows
 * kernels' list (row_idx, row_slot; their count in the rows' copy of the
 * problem table, rinfo's Q), so the rows kernels compute exactly those. A row
 * is the same bits wherever and beside whatever rows it is computed (part 1),
 * so the cache changes no model, only the time.
 *
 * State: cmap, per variable, the slot that holds its row or -1; per problem
 * GPUSVM__RC_HEAD words (the hand, the rows reused and computed, the round),
 * then each slot's owner (a variable or -1), then the round that last used it.
 * The owner and the map always agree. With first, the working set takes the
 * slots the host gave it (every row computed; whatever those slots and points
 * held before is forgotten).
 *
 * Every problem of a batch has its own C slots: problem p's are rows p C ..
 * p C + C - 1 of K. The kernels that read and write K reach a slot as row
 * p qmax + slot (without the cache a problem's rows are its qmax), so the
 * working sets and the rows' list hold slot s as s + p (C - qmax): the
 * offset is this kernel's alone, and problem 0's is 0.
 */
/* Every value that differs between work-items and outlives a barrier lives in local memory
 * (lm, sc, indexed by the local id, read afresh): PoCL 3.1 lost such private values here. */
#define GPUSVM_RC_LID ((int)get_local_id(0))

/* sc := the inclusive prefix sums of x over the work-group, in work-item order (GPUSVM__L each). */
GPUSVM_INLINE void gpusvm_rc_scan(__local const int *x, __local int *sc)
{
    barrier(CLK_LOCAL_MEM_FENCE); /* x written; the last scan's readers done */
    sc[GPUSVM_RC_LID] = x[GPUSVM_RC_LID];
    gpusvm_scan_local(sc);
}

/* slot of the work-item in the victims' window (the ring from the hand, GPUSVM__L at a time) */
#define GPUSVM_RC_WIN(cs) ((int)(((long)lhand + lbase + GPUSVM_RC_LID) % (cs)))

#if defined(GPUSVM_K_ALL) || defined(GPUSVM_K_ROW_CACHE)
__kernel __attribute__((reqd_work_group_size(GPUSVM__L, 1, 1)))
void gpusvm_row_cache(GPUSVM__ARGS_ROW_CACHE(GPUSVM__PARAM, GPUSVM__COMMA))
{
    __local int lpos[GPUSVM__Q]; /* the misses' positions, in order */
    __local int lm[GPUSVM__L], sc[GPUSVM__L];
    __local int lmiss, lfound, lhand, lnext, lbase, lround;
    const int p = get_group_id(0);
    __global const int *pi = pinfo + p * GPUSVM__PI_COUNT;
    const int q = pi[GPUSVM__PI_Q], h = first ? 0 : q / 2;
    __global const int *idx = ws_idx0 + p * qmax;
    __global int *slot = ws_slot0 + p * qmax;
    __global int *ridx = row_idx0 + p * qmax, *rslot = row_slot0 + p * qmax;
    __global int *cmap = cmap0 + pi[GPUSVM__PI_VAR];
    __global int *cs = cstate0 + (size_t)p * (GPUSVM__RC_HEAD + 2 * (size_t)cslots);
    __global int *own = cs + GPUSVM__RC_HEAD, *used = own + cslots;
    const int off = p * (cslots - qmax); /* a slot as the working sets hold it, less the slot */
    /* uniform per work-group */
    if (!GPUSVM_RUNNING(status + p * GPUSVM__ST_COUNT) || pi[GPUSVM__PI_WHOLE]) return;
    if (GPUSVM_RC_LID == 0) {
        lmiss = 0;
        lfound = 0;
        lbase = 0;
        lhand = lnext = first ? q % cslots : cs[GPUSVM__RC_HAND]; /* after the first working set's slots */
        lround = cs[GPUSVM__RC_ROUND] + 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (first) {
        /* the host's slots: their old owners and its points' old slots forgotten (writes of -1 only) */
        for (int t = GPUSVM_RC_LID; t < q; t += GPUSVM__L) {
            const int o = own[slot[t]], s = cmap[idx[t]];
            if (o >= 0) cmap[o] = -1;
            if (s >= 0) own[s] = -1;
        }
        barrier(CLK_GLOBAL_MEM_FENCE);
        for (int t = GPUSVM_RC_LID; t < q; t += GPUSVM__L) { /* the same t as above: its own words */
            const int s = slot[t];
            own[s] = idx[t];
            cmap[idx[t]] = s;
            used[s] = lround;
            ridx[t] = idx[t];
            rslot[t] = slot[t] = s + off;
        }
        if (GPUSVM_RC_LID == 0) lmiss = q;
    } else {
        /* the kept half's slots are in use; a new point whose row is held takes its slot */
        for (int t = GPUSVM_RC_LID; t < h; t += GPUSVM__L) used[slot[t] - off] = lround;
        for (int c0 = h; c0 < q; c0 += GPUSVM__L) {
            lm[GPUSVM_RC_LID] = 0;
            if (c0 + GPUSVM_RC_LID < q) {
                const int s = cmap[idx[c0 + GPUSVM_RC_LID]];
                if (s >= 0) {
                    slot[c0 + GPUSVM_RC_LID] = s + off;
                    used[s] = lround;
                } else {
                    lm[GPUSVM_RC_LID] = 1;
                }
            }
            gpusvm_rc_scan(lm, sc);
            if (lm[GPUSVM_RC_LID]) lpos[lmiss + sc[GPUSVM_RC_LID] - 1] = c0 + GPUSVM_RC_LID;
            barrier(CLK_LOCAL_MEM_FENCE);
            if (GPUSVM_RC_LID == 0) lmiss += sc[GPUSVM__L - 1];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        /* the misses' victims: the free slots from the hand on, in ring order (a window's
           work-items past the slot count stand aside, so a window holds no slot twice) */
        barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        while (lfound < lmiss) { /* uniform */
            lm[GPUSVM_RC_LID] = GPUSVM_RC_LID < cslots && used[GPUSVM_RC_WIN(cslots)] != lround;
            gpusvm_rc_scan(lm, sc);
            if (lm[GPUSVM_RC_LID] && lfound + sc[GPUSVM_RC_LID] - 1 < lmiss) {
                const int k = lfound + sc[GPUSVM_RC_LID] - 1, s = GPUSVM_RC_WIN(cslots), t = lpos[k], v = idx[t];
                const int o = own[s];
                if (o >= 0) cmap[o] = -1; /* its row is overwritten */
                own[s] = v;
                cmap[v] = s;
                used[s] = lround;
                slot[t] = s + off;
                ridx[k] = v;
                rslot[k] = s + off;
                if (k == lmiss - 1) lnext = (s + 1) % cslots; /* the hand for the next round */
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            if (GPUSVM_RC_LID == 0) {
                lfound += sc[GPUSVM__L - 1];
                lbase += GPUSVM__L;
            }
            barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
        }
    }
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (GPUSVM_RC_LID == 0) {
        rinfo[p * GPUSVM__PI_COUNT + GPUSVM__PI_Q] = lmiss;
        cs[GPUSVM__RC_HAND] = lnext;
        cs[GPUSVM__RC_REUSED] += q - h - lmiss;
        cs[GPUSVM__RC_COMPUTED] += lmiss;
        cs[GPUSVM__RC_ROUND] = lround;
    }
}
#endif
