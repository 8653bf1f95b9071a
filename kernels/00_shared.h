/* gpusvm: the definitions the host and the kernels share, valid as C and as
 * OpenCL C. tools/embed_kernels.c pastes this file into the kernel program
 * (before the .cl files) and into gpusvm.h's implementation (the block marked
 * ">>shared"), so each fact below is written once.
 *
 * Tunables are #ifndef defaults: the host passes its own values to the
 * kernel build as -D options from one table (gpusvm__ocl_options), and the
 * values here are what the host uses itself. */
#ifndef GPUSVM__SHARED_H
#define GPUSVM__SHARED_H

/* Contraction is off in the kernels from their first line (this file's functions included), so
 * that the C backend reproduces them operation for operation (kernels part 0 says more). */
#ifdef __OPENCL_VERSION__
#pragma OPENCL FP_CONTRACT OFF
#endif

/* ---- tunables ---------------------------------------------------------- */
#ifndef GPUSVM__Q
#define GPUSVM__Q 1024 /* working-set capacity: the largest working set (power of two) */
#endif
#ifndef GPUSVM__L
#define GPUSVM__L 256 /* local size of the single-work-group kernels (power of two) */
#endif
#if GPUSVM__L > 256 /* 512 and 1024 built but trained other models (seen on an H100): not supported */
#error "GPUSVM__L is at most 256"
#endif
#ifndef GPUSVM__SMO_L
#define GPUSVM__SMO_L GPUSVM__L /* local size of gpusvm_smo (the host passes its choice: gpusvm__ocl_smo_l) */
#endif
#ifndef GPUSVM__SMO_CPU
#define GPUSVM__SMO_CPU 32 /* gpusvm_smo's local size on a CPU with no sub-groups (local-memory trees) */
#endif
#ifndef GPUSVM__SMO_WIDE
#define GPUSVM__SMO_WIDE 512 /* gpusvm_smo's local size with warp exchanges (at most 1024: 32 warps) */
#endif
/* A batch whose every problem is solved whole with at most GPUSVM__ITEM_NVAR variables runs a
 * problem a work-item (gpusvm_smo_item, kernels part 3), in work-groups of GPUSVM__ITEM_L */
#define GPUSVM__ITEM_NVAR 32
#define GPUSVM__ITEM_L 64
#ifndef GPUSVM__CS_L
#define GPUSVM__CS_L 256 /* local size of gpusvm_cs_solve (power of two) */
#endif
#define GPUSVM__CS_RESP_CLASSES 4 /* classes per work-item of gpusvm_cs_resp */
#define GPUSVM__KEYS_WI 4         /* variables per work-item of gpusvm_keys */
/* gpusvm_rows_tiled: a work-group of TILE_WI x TILE_WI work-items computes a TILE x TILE block
 * (rows of the index set x points), each work-item TILE_ACC x TILE_ACC of it (TILE / TILE_WI),
 * staging FEAT_CHUNK features at a time; every feature count is padded to a multiple of it */
#define GPUSVM__TILE_WI 16
#define GPUSVM__TILE 128
#define GPUSVM__TILE_ACC 8
#define GPUSVM__FEAT_CHUNK 16
#define GPUSVM__FEW 8          /* at most this many rows: gpusvm_rows_few */
#define GPUSVM__FEW_L 256      /* gpusvm_rows_few's work-group: one point per work-item */
#define GPUSVM__FEW_FEAT 256   /* gpusvm_rows_few: features staged per chunk */
#define GPUSVM__FEW_AHEAD 32   /* gpusvm_rows_few: features loaded ahead */
#define GPUSVM__NARROW_D 32    /* gpusvm_rows_narrow: at most this many (padded) features */
#ifndef GPUSVM__NARROW_ROWS
#define GPUSVM__NARROW_ROWS 128 /* gpusvm_rows_narrow: rows per work-group (a power of 2, at least 4) */
#endif
#define GPUSVM__NARROW_L 256   /* gpusvm_rows_narrow's work-group: one point per work-item */
/* gpusvm_rows_narrow's local memory with nr rows a work-group: their features and row data; the
 * host halves GPUSVM__NARROW_ROWS to fit the device */
#define GPUSVM__NAR_LOCAL(nr) ((size_t)(nr) * (4 * GPUSVM__NARROW_D + 12))
#define GPUSVM__PITCH 64 /* point pitch of the column-major copies and of kernel rows: a multiple of this */
#define GPUSVM__COPY_L 64 /* work-group of the copy kernels (gpusvm_gather_ws, gpusvm_scatter, gpusvm_fill) */
#define GPUSVM__SPARSE_L 256     /* gpusvm_rows_sparse's work-group */
#define GPUSVM__SPARSE_LANES 8   /* gpusvm_rows_sparse: work-items per point */
#define GPUSVM__SPARSE_ROWS 8    /* gpusvm_rows_sparse: rows per work-group */
#ifndef GPUSVM__SPARSE_BLOCKS
#define GPUSVM__SPARSE_BLOCKS 16 /* gpusvm_rows_sparse: blocks of SPARSE_L / SPARSE_LANES points per work-group */
#endif
#define GPUSVM__SPARSE_AHEAD 4   /* gpusvm_rows_sparse: nonzeros a work-item loads ahead */
#ifndef GPUSVM__SPARSE_HASH_LOG
#define GPUSVM__SPARSE_HASH_LOG 10 /* gpusvm_rows_sparse: 2^this slots in the rows' hash table in local memory */
#endif
#define GPUSVM__SPARSE_HASH (1 << GPUSVM__SPARSE_HASH_LOG)
#define GPUSVM__SPARSE_ENTRIES (GPUSVM__SPARSE_HASH / 2) /* row entries per pass (the table at most half full) */
#define GPUSVM__SPARSE_SUM_ROWS 2 /* without warp exchanges: rows per step of the lanes' sums */
/* gpusvm_rows_sparse's local memory with 2^sh_log slots: the table's keys and values, and (without
 * warp exchanges) GPUSVM__SPARSE_SUM_ROWS rows of the lanes' sums in double; the host lowers
 * GPUSVM__SPARSE_HASH_LOG to fit the device */
#define GPUSVM__SP_LOCAL(sh_log) \
    ((4 + 4 * GPUSVM__SPARSE_ROWS) * ((size_t)1 << (sh_log)) + GPUSVM__SPARSE_L * GPUSVM__SPARSE_SUM_ROWS * 8)
/* gpusvm_smo's local memory: per working-set position (up to GPUSVM__Q) its published alpha,
 * gradient and bound (wide words of 8 bytes), diagonal and i-row value (floats) and label (a
 * char); per work-item of the reductions without warp exchanges four scores of at most 8 bytes
 * and two indices (with them, at most 52 bytes a warp, 1664 in all, within GPUSVM__SMO_SPARE and
 * the work-items' bytes). The host halves GPUSVM__Q until GPUSVM__SMO_LOCAL fits the device;
 * part 3 checks its arrays against these sizes when it compiles. */
#define GPUSVM__SMO_POS_BYTES (3 * 8 + 2 * 4 + 1)
#define GPUSVM__SMO_ITEM_BYTES (4 * 8 + 2 * 4)
#define GPUSVM__SMO_SPARE 1024
/* The inner solve's third level (part 3; the C backend's gpusvm__cpu_set_*): a working set of at
 * least GPUSVM__SET_MIN_Q positions is cut into GPUSVM__SET_GROUPS groups, position t in group
 * GPUSVM__SET_GROUP(t) (32 consecutive positions, the same again 512 on: a warp's positions at a
 * work-group of 512). Each step takes LIBSVM's i and j over the whole set, then a set S of at most
 * GPUSVM__SET_MAX positions: each group's best i (the largest violator over I_up) and best j (the
 * second-order partner of i over I_low). S is solved alone with LIBSVM's pair updates until its
 * gap is below max(eps, its first gap / GPUSVM__SET_DIV) or after GPUSVM__SET_PAIRS x |S| pairs,
 * its first pair being LIBSVM's (i, j); then the set's other gradients take S's changes. Its
 * local memory: S's block of kernel values (a row of GPUSVM__SET_MAX + 1 floats each), its
 * positions and its changes, within the work-items' bytes of GPUSVM__SMO_LOCAL (without warp exchanges
 * it takes the reductions' scratch, which no reduction uses while S is solved). */
#define GPUSVM__SET_GROUPS 16
#define GPUSVM__SET_WIDTH 32
#define GPUSVM__SET_MAX (2 * GPUSVM__SET_GROUPS)
#define GPUSVM__SET_GROUP(t) (((t) % (GPUSVM__SET_GROUPS * GPUSVM__SET_WIDTH)) / GPUSVM__SET_WIDTH)
#define GPUSVM__SET_MIN_Q 128
#define GPUSVM__SET_DIV 10
#define GPUSVM__SET_PAIRS 2
#define GPUSVM__SET_LD (GPUSVM__SET_MAX + 1)
#define GPUSVM__SMO_LOCAL(q) \
    ((size_t)(q) * GPUSVM__SMO_POS_BYTES + (size_t)GPUSVM__L * GPUSVM__SMO_ITEM_BYTES + GPUSVM__SMO_SPARE)
/* The selection's radix passes count digits into GPUSVM__SEL_BINS bins; one selection's scratch
 * (gpusvm_sel_scratch, part 2: the bins and seven words) is GPUSVM__SEL_SCRATCH bytes, in local
 * memory, or one per problem in global memory for the selection over the grid. */
#define GPUSVM__SEL_BINS 2048
#define GPUSVM__SEL_SCRATCH ((GPUSVM__SEL_BINS + 7) * 4)
/* gpusvm_cs_solve's local memory for working-set size q and m classes: the q x q block of kernel
 * values (floats, kws); the set's responses (q x m wide words, cws); and scr, wide words:
 * GPUSVM__CS_SCR_ROWS rows of m (D, D - Ub, Ub, alpha, the step, the candidates' theta, the
 * violation's terms), the set's alpha (q x m), its points' bounds, diagonals and classes (q each);
 * beside them its own list of the set's points (GPUSVM__Q ints). */
#define GPUSVM__CS_SCR_ROWS 7
#define GPUSVM__CS_KWS_BYTES(q) ((size_t)(q) * (size_t)(q) * 4)
#define GPUSVM__CS_CWS_BYTES(q, m) ((size_t)(q) * (size_t)(m) * 8)
#define GPUSVM__CS_SCR_BYTES(q, m) (((size_t)(GPUSVM__CS_SCR_ROWS + (q)) * (size_t)(m) + 3 * (size_t)(q)) * 8)
#define GPUSVM__CS_LOCAL(q, m) \
    (GPUSVM__CS_KWS_BYTES(q) + GPUSVM__CS_CWS_BYTES(q, m) + GPUSVM__CS_SCR_BYTES(q, m) + (size_t)GPUSVM__Q * 4)

/* ---- kernel types: one row each ----------------------------------------
 * X(ID, t, name, uses, ret): GPUSVM__K_<ID> = t, LIBSVM's -t option (the public
 * enum gpusvm_kernel_type's GPUSVM_KERNEL_<ID> minus one); name, its word in
 * a model file; uses, the parameters it reads and whether it needs the
 * points' squared norms (GPUSVM__KU_*); ret, the exported C's last statement
 * of k(x, s) from the dot product or squared distance `sum` (gpusvm__cx_kernel).
 * k() itself is gpusvm__kfun below, one definition for host and kernels. */
#define GPUSVM__KU_GAMMA 1u
#define GPUSVM__KU_COEF0 2u
#define GPUSVM__KU_DEGREE 4u
#define GPUSVM__KU_NORMS 8u
#define GPUSVM__KERNEL_TYPES(X)                                                                         \
    X(LINEAR, 0, "linear", 0u, "    return sum;\n")                                                     \
    X(POLY, 1, "polynomial", GPUSVM__KU_GAMMA | GPUSVM__KU_COEF0 | GPUSVM__KU_DEGREE,                  \
      "    {\n        const $ b = @_GAMMA * sum + @_COEF0;\n        $ r = 1.0~;\n        int i;\n"      \
      "        for (i = 0; i < @_DEGREE; ++i) r *= b;\n        return r;\n    }\n")                     \
    X(RBF, 2, "rbf", GPUSVM__KU_GAMMA | GPUSVM__KU_NORMS, "    return @_EXP(-@_GAMMA * sum);\n")       \
    X(SIGMOID, 3, "sigmoid", GPUSVM__KU_GAMMA | GPUSVM__KU_COEF0, "    return @_TANH(@_GAMMA * sum + @_COEF0);\n") \
    X(PRECOMPUTED, 4, "precomputed", 0u, "")
#define GPUSVM__K_ID(id, t, name, uses, ret) GPUSVM__K_##id = t,
enum { GPUSVM__KERNEL_TYPES(GPUSVM__K_ID) GPUSVM__K_COUNT };

/* k(x, z) in float from <x,z>, |x|^2 and |z|^2: the host's (the C backend, prediction) and the
 * kernels' are this one definition, operation for operation. The power by squaring (pown's
 * accuracy is each device's own, and Intel's CPU runtime 2026.22 cannot link its 32-wide vector
 * form in kernels of sub-groups of 32); an RBF exponent below -104 gives +0 (under half the least
 * subnormal; a C library that sets errno on underflow takes a slow path there: docs/results.md,
 * the code's choices). */
#ifdef __OPENCL_VERSION__
#define GPUSVM__FN inline
#define GPUSVM__EXPF exp
#define GPUSVM__TANHF tanh
#else
#define GPUSVM__FN static
#define GPUSVM__EXPF expf
#define GPUSVM__TANHF tanhf
#endif
GPUSVM__FN float gpusvm__powi(float base, int times)
{
    float r = 1.0f, b = base;
    int t;
    for (t = times; t > 0; t /= 2) {
        if (t % 2 == 1) r *= b;
        b = b * b;
    }
    return r;
}
GPUSVM__FN float gpusvm__kfun(int ktype, float dot, float nx, float nz, float gamma, float coef0, int degree)
{
    switch (ktype) {
    case GPUSVM__K_LINEAR: return dot;
    case GPUSVM__K_POLY: return gpusvm__powi(gamma * dot + coef0, degree);
    case GPUSVM__K_RBF: {
        const float d2 = nx + nz - 2.0f * dot, e = -gamma * (d2 > 0.0f ? d2 : 0.0f);
        return e < -104.0f ? 0.0f : GPUSVM__EXPF(e);
    }
    default: return GPUSVM__TANHF(gamma * dot + coef0);
    }
}

/* ---- the status vector: GPUSVM__ST_COUNT doubles per problem ------------ */
#define GPUSVM__ST_GAP 0   /* m(alpha) - M(alpha) of the last selection */
#define GPUSVM__ST_DONE 1  /* one of GPUSVM__DONE_* */
#define GPUSVM__ST_ITER 2  /* SMO pair updates so far (LIBSVM's #iter) */
#define GPUSVM__ST_OUTER 3 /* outer iterations so far */
#define GPUSVM__ST_MUP 4   /* max of -y*G over I_up */
#define GPUSVM__ST_MLOW 5  /* min of -y*G over I_low */
#define GPUSVM__ST_INNER 6 /* pair updates of the last inner solve */
#define GPUSVM__ST_COUNT 8
/* Crammer-Singer (kernels part 5) keeps GAP (the relative duality gap), DONE, ITER (block steps
 * that moved) and OUTER, and uses the rest for its own: */
#define GPUSVM__ST_CS_P 4     /* the primal objective */
#define GPUSVM__ST_CS_D 5     /* the dual objective */
#define GPUSVM__ST_CS_Q 6     /* points in the current working set */
#define GPUSVM__ST_CS_MOVED 7 /* working-set points whose coefficients the last sweeps changed */

/* ---- Crammer-Singer's problem table: GPUSVM__CI_COUNT ints per problem ---
 * A batch (cross-validation folds) shares the points as the binary batches do (part 0's
 * problem table gives each one's map, rows and row list); per-point arrays (classes, bounds,
 * diagonal, the cache's map) are the problems' concatenated, alpha and c too (n x m each). */
#define GPUSVM__CI_VAR 0 /* its first point in the per-point arrays */
#define GPUSVM__CI_N 1   /* its points */
#define GPUSVM__CI_M 2   /* its classes */
#define GPUSVM__CI_A 3   /* its first coefficient in alpha and c */
#define GPUSVM__CI_COUNT 4

/* GPUSVM__ST_DONE: every kernel skips a problem that is not running */
#define GPUSVM__DONE_RUNNING 0
#define GPUSVM__DONE_CONVERGED 1 /* the gap fell below eps */
#define GPUSVM__DONE_MAX_ITER 2  /* max_iter pair updates reached */
#define GPUSVM__DONE_STALLED 3   /* stopped by the host: no progress */
/* The stopping rule (LIBSVM's, and Crammer-Singer's on its relative gap): converged once the gap
 * is not >= eps (a NaN gap stops too), else out of pair updates once iter >= max_iter, else
 * running. ge(a, b) is a >= b in the caller's arithmetic (GPUSVM__GE: double on the host; the
 * kernels' wide words, double or float pairs). */
#define GPUSVM__STOP_RULE(ge, gap, eps, iter, max_iter)                                              \
    (!ge(gap, eps) ? GPUSVM__DONE_CONVERGED : ge(iter, max_iter) ? GPUSVM__DONE_MAX_ITER : GPUSVM__DONE_RUNNING)
#define GPUSVM__GE(a, b) ((a) >= (b))
#define GPUSVM__MUL(a, b) ((a) * (b))
/* The inner solve's own stop on a problem's working set: its gap below max(eps, ratio x the
 * outer gap) (ratio 0 where the working set is every variable); a third-level set's below
 * max(that, the set's first gap / GPUSVM__SET_DIV). max and mul in the caller's arithmetic
 * (the host's fmax and GPUSVM__MUL on double; the kernels' wide words). */
#define GPUSVM__INNER_EPS(max, mul, eps, ratio, gap) max(eps, mul(ratio, gap))
#define GPUSVM__SET_STOP(max, eps_in, gap0) max(eps_in, (gap0) / GPUSVM__SET_DIV)

/* ---- the problem table of a batch: GPUSVM__PI_COUNT ints per problem -----
 * A batch: binary problems that share one uploaded set of points and are
 * solved together, one work-group (or one slice of the grid) per problem in
 * every launch. Per-variable arrays (alpha, G, y, C, the diagonal, the keys)
 * are the problems' concatenated; problem p's working set sits at p * qmax,
 * its kernel rows in slots p * qmax .., its partials at p * 2 * nparts_max,
 * its status at p * GPUSVM__ST_COUNT. */
#define GPUSVM__PI_VAR 0    /* its first variable in the concatenated arrays */
#define GPUSVM__PI_NVAR 1   /* its variables */
#define GPUSVM__PI_PT 2     /* its first point in the map */
#define GPUSVM__PI_NPTS 3   /* its points: the columns of its kernel rows */
#define GPUSVM__PI_Q 4      /* its working-set size */
#define GPUSVM__PI_WHOLE 5  /* 1: the working set is every variable */
#define GPUSVM__PI_NPARTS 6 /* work-groups of gpusvm_keys over its variables */
#define GPUSVM__PI_SPLIT 7  /* variables from here on are the points again */
#define GPUSVM__PI_LO 8     /* its points [LO, HI) are this device's share: only their variables are */
#define GPUSVM__PI_HI 9     /* candidates (a problem split by rows; else 0 and NPTS) */
#define GPUSVM__PI_GAMMA 10 /* its kernel's gamma, the float's bits (a grid's problems differ in it) */
#define GPUSVM__PI_COUNT 11

/* ---- the sides of a selection (kernels part 2's gpusvm_select) ------------
 * Side s takes, from I_up or I_low (LOW), of one class or any (CLS: +1, -1, 0),
 * the most violating points not yet chosen until UPTO of the fresh ones are:
 * without nu I_up, I_low, I_up again; with nu I_up and I_low of y = +1, then of
 * y = -1, then of either class. (The host's merge of a split problem too.) */
#define GPUSVM__SIDES(nu) ((nu) ? 6 : 3)
#define GPUSVM__SIDE_LOW(s, nu) ((nu) ? ((s) & 1) : ((s) == 1))
#define GPUSVM__SIDE_CLS(s, nu) ((!(nu) || (s) >= 4) ? 0 : ((s) < 2 ? 1 : -1))
#define GPUSVM__SIDE_UPTO(s, nu, fresh) \
    (!(nu) ? ((s) == 0 ? (fresh) / 2 : (fresh)) : ((s) < 4 ? ((s) + 1) * (fresh) / 4 : (fresh)))

/* ---- a split problem's report (kernels part 2's gpusvm_cands) -------------
 * A problem split by rows across devices or processes: each holds the gradient of
 * its share of the points only, so each reports, in 64-bit words, its status row;
 * m and M per class over its share (up 0, up 1, low 0, low 1); the working set's
 * variables, slots and, where its share holds them, gradients (q words each); then
 * GPUSVM__CO_LISTS lists of candidates, each a count and up to q composite keys
 * (key << 32 | variable) with their gradients: I_up and I_low (with nu: of y = +1,
 * then of y = -1), each the q - h smallest of its share, where h is the half kept.
 * The host merges every part's report into the working set one device chooses. */
#define GPUSVM__CO_ENDS GPUSVM__ST_COUNT
#define GPUSVM__CO_IDX (GPUSVM__CO_ENDS + 4)
#define GPUSVM__CO_SLOT(q) (GPUSVM__CO_IDX + (q))
#define GPUSVM__CO_G(q) (GPUSVM__CO_IDX + 2 * (q))
#define GPUSVM__CO_LISTS 4
#define GPUSVM__CO_LIST(q, l) (GPUSVM__CO_IDX + 3 * (q) + (l) * (1 + 2 * (q)))
#define GPUSVM__CO_WORDS(q) GPUSVM__CO_LIST(q, GPUSVM__CO_LISTS)
/* list l of a report: its keys (1: I_low), its class (0: any); how many lists */
#define GPUSVM__CO_NLISTS(nu) ((nu) ? 4 : 2)
#define GPUSVM__CO_LOW(l) ((l) & 1)
#define GPUSVM__CO_CLS(l, nu) ((nu) ? ((l) < 2 ? 1 : -1) : 0)

/* The row cache's state of a problem (kernels part 1c): these words, then each slot's owner,
 * then the round that last used each slot. */
#define GPUSVM__RC_HAND 0     /* the next slot a miss may take */
#define GPUSVM__RC_REUSED 1   /* new working-set rows found held, so far */
#define GPUSVM__RC_COMPUTED 2 /* rows computed, so far */
#define GPUSVM__RC_ROUND 3    /* the last round */
#define GPUSVM__RC_HEAD 4

/* "no candidate" sort key: larger than every real key */
#define GPUSVM__KEY_NONE 0xFFFFFFFFu
/* LIBSVM's tau: the curvature used where the kernel is not positive definite */
#define GPUSVM__TAU 1e-12

/* The point a variable stands for: epsilon-SVR has two variables per point
 * (alpha and alpha*), 0..npts-1 and npts..2*npts-1; every other problem one. */
#ifdef __OPENCL_VERSION__
#define GPUSVM__IDX int
#else
#define GPUSVM__IDX size_t
#endif
#define GPUSVM__PT(v, npts) \
    ((GPUSVM__IDX)(v) >= (GPUSVM__IDX)(npts) ? (GPUSVM__IDX)(v) - (GPUSVM__IDX)(npts) : (GPUSVM__IDX)(v))

/* ---- the kernels and their arguments ------------------------------------
 * GPUSVM__KERNELS: every kernel of the program, the work-group size it needs,
 * its argument list, and its part: the kernels of a part are built together as
 * one program (kernels part 0: GPUSVM_K_<part> guards their definitions), the
 * copies and each step's family, which always run together.
 * GPUSVM__ARGS_*: each kernel's parameters, as
 * X_(kernel, type, name, source) separated by S_(). The kernels declare their
 * parameters from these lists; the host names each argument slot from the
 * same list (GPUSVM__A_ROWS_K, ...), checks each kernel's argument count
 * when it builds the program, and binds each argument from its source
 * (gpusvm.h, >>opencl/bind: one table a kernel, made from its list):
 *   T(id)   the training batch's buffer GPUSVM__TB_<id>
 *   C(id)   Crammer-Singer's buffer GPUSVM__CB_<id>
 *   V(name) a value of the batch (GPUSVM__BV_<name>)
 *   LM(name) local memory of that value's bytes
 *   R(field) the rows' arguments (gpusvm__rows_args: training and prediction fill them)
 *   U(field) the update's arguments (gpusvm__update_args: likewise)
 *   L       set by the step that launches it, not bound */
#define GPUSVM__KERNELS(X)                                                                              \
    X(ROWS, "gpusvm_rows_tiled", GPUSVM__TILE_WI * GPUSVM__TILE_WI, ROWS, ROWS)                                      \
    X(ROWS_FEW, "gpusvm_rows_few", GPUSVM__FEW_L, ROWS, ROWS_FEW)                                          \
    X(ROWS_NARROW, "gpusvm_rows_narrow", GPUSVM__NARROW_L, ROWS, ROWS_NARROW)                                    \
    X(ROWS_SPARSE, "gpusvm_rows_sparse", GPUSVM__SPARSE_L, ROWS_SPARSE, ROWS_SPARSE)                             \
    X(ROW_CACHE, "gpusvm_row_cache", GPUSVM__L, ROW_CACHE, ROW_CACHE)                                      \
    X(GATHER_WS, "gpusvm_gather_ws", GPUSVM__COPY_L, GATHER_WS, COPY)                                      \
    X(SCATTER, "gpusvm_scatter", GPUSVM__COPY_L, SCATTER, COPY)                                            \
    X(FILL, "gpusvm_fill", GPUSVM__COPY_L, FILL, COPY)                                                     \
    X(KEYS, "gpusvm_keys", GPUSVM__L, KEYS, KEYS) X(SELECT, "gpusvm_select", GPUSVM__L, SELECT, SELECT)    \
    X(CHECK, "gpusvm_check", GPUSVM__L, SELECT, CHECK)                                                     \
    X(SEL_HIST, "gpusvm_sel_hist", GPUSVM__L, SEL, SEL) X(SEL_TIES, "gpusvm_sel_ties", GPUSVM__L, SEL, SEL) \
    X(SEL_TAKE, "gpusvm_sel_take", GPUSVM__L, SEL, SEL)                                                    \
    X(GATHER, "gpusvm_gather_block", GPUSVM__L, GATHER, COPY) X(SMO, "gpusvm_smo", GPUSVM__L, SMO, SMO)    \
    X(UPDATE, "gpusvm_update", GPUSVM__L, UPDATE, UPDATE)                                                  \
    X(ITEM, "gpusvm_smo_item", GPUSVM__ITEM_L, ITEM, ITEM)                                                 \
    X(ROWS_UPD, "gpusvm_rows_update", GPUSVM__TILE_WI * GPUSVM__TILE_WI, ROWS_UPD, ROWS_UPD)                         \
    X(CANDS, "gpusvm_cands", GPUSVM__L, CANDS, SPLIT) X(WS_PUT, "gpusvm_ws_put", GPUSVM__L, WS_PUT, SPLIT) \
    X(CS_RESP, "gpusvm_cs_resp", GPUSVM__L, CS_RESP, CS)                                                   \
    X(CS_UPDATE, "gpusvm_cs_update", GPUSVM__L, CS_UPDATE, CS)                                             \
    X(CS_SELECT, "gpusvm_cs_select", GPUSVM__L, CS_SELECT, CS)                                             \
    X(CS_SOLVE, "gpusvm_cs_solve", GPUSVM__CS_L, CS_SOLVE, CS)

/* gpusvm_rows_tiled, gpusvm_rows_few and gpusvm_rows_narrow (kernels part 1) */
#define GPUSVM__ARGS_ROWS(X_, S_)                                                                                   \
    X_(ROWS, __global const float *, A, R(A)) S_() X_(ROWS, int, pitch_a, R(pitch_a)) S_()                          \
    X_(ROWS, __global const int *, idx, R(idx)) S_() X_(ROWS, __global const float *, norm_a, R(norm_a)) S_()       \
    X_(ROWS, __global const float *, B, R(B)) S_() X_(ROWS, int, pitch_b, R(pitch_b)) S_()                          \
    X_(ROWS, __global const float *, norm_b, R(norm_b)) S_() X_(ROWS, __global const int *, pinfo, R(pinfo)) S_()   \
    X_(ROWS, __global const int *, map, R(map)) S_() X_(ROWS, int, use_map, R(use_map)) S_()                        \
    X_(ROWS, int, dpad, R(dpad)) S_() X_(ROWS, __global const int *, slot, R(slot)) S_()                            \
    X_(ROWS, int, row_off, L) S_() X_(ROWS, int, nrows, L) S_() X_(ROWS, int, skip_whole, L) S_()                   \
    X_(ROWS, __global float *, K, R(K)) S_() X_(ROWS, int, ldk, R(ldk)) S_() X_(ROWS, int, qmax, R(qmax)) S_()      \
    X_(ROWS, int, ktype, R(ktype)) S_() X_(ROWS, float, coef0, R(coef0)) S_()                                       \
    X_(ROWS, int, degree, R(degree)) S_() X_(ROWS, __global const gpusvm_wbits *, status, R(status)) S_()           \
    X_(ROWS, int, a_pos, R(a_pos)) S_() X_(ROWS, int, self, R(self)) S_() X_(ROWS, int, b_mode, R(b_mode)) S_()     \
    X_(ROWS, int, b_off, R(b_off)) S_() X_(ROWS, int, b_end, R(b_end))

/* gpusvm_rows_sparse (kernels part 1b): the rows' points and the columns' points in CSR form
 * (a_*, b_*: 32-bit offsets, column indices, values) and their norms in double; b_mode 0 (the
 * problem's points) or 2 (its working set's, by position); the rest as gpusvm_rows_tiled */
#define GPUSVM__ARGS_ROWS_SPARSE(X_, S_)                                                                            \
    X_(ROWS_SPARSE, __global const int *, a_ptr, R(a_ptr)) S_()                                                     \
    X_(ROWS_SPARSE, __global const int *, a_col, R(a_col)) S_()                                                     \
    X_(ROWS_SPARSE, __global const float *, a_val, R(a_val)) S_()                                                   \
    X_(ROWS_SPARSE, __global const int *, idx, R(idx)) S_()                                                         \
    X_(ROWS_SPARSE, __global const gpusvm_wbits *, norm_a, R(norm_a)) S_()                                          \
    X_(ROWS_SPARSE, __global const int *, b_ptr, R(b_ptr)) S_()                                                     \
    X_(ROWS_SPARSE, __global const int *, b_col, R(b_col)) S_()                                                     \
    X_(ROWS_SPARSE, __global const float *, b_val, R(b_val)) S_()                                                   \
    X_(ROWS_SPARSE, __global const gpusvm_wbits *, norm_b, R(norm_b)) S_()                                          \
    X_(ROWS_SPARSE, __global const int *, pinfo, R(pinfo)) S_()                                                     \
    X_(ROWS_SPARSE, __global const int *, map, R(map)) S_() X_(ROWS_SPARSE, int, use_map, R(use_map)) S_()          \
    X_(ROWS_SPARSE, __global const int *, slot, R(slot)) S_() X_(ROWS_SPARSE, int, row_off, L) S_()                 \
    X_(ROWS_SPARSE, int, nrows, L) S_() X_(ROWS_SPARSE, int, skip_whole, L) S_()                                    \
    X_(ROWS_SPARSE, __global float *, K, R(K)) S_() X_(ROWS_SPARSE, int, ldk, R(ldk)) S_()                          \
    X_(ROWS_SPARSE, int, qmax, R(qmax)) S_() X_(ROWS_SPARSE, int, ktype, R(ktype)) S_()                             \
    X_(ROWS_SPARSE, float, coef0, R(coef0)) S_() X_(ROWS_SPARSE, int, degree, R(degree)) S_()                       \
    X_(ROWS_SPARSE, __global const gpusvm_wbits *, status, R(status)) S_()                                          \
    X_(ROWS_SPARSE, int, self, R(self)) S_() X_(ROWS_SPARSE, int, b_mode, R(b_mode))

/* gpusvm_row_cache (kernels part 1c) */
#define GPUSVM__ARGS_ROW_CACHE(X_, S_)                                                                              \
    X_(ROW_CACHE, __global const int *, pinfo, T(PINFO)) S_() X_(ROW_CACHE, __global int *, rinfo, T(RINFO)) S_()   \
    X_(ROW_CACHE, __global const int *, ws_idx0, T(WS_IDX)) S_()                                                    \
    X_(ROW_CACHE, __global int *, ws_slot0, T(WS_SLOT)) S_()                                                        \
    X_(ROW_CACHE, __global int *, row_idx0, T(ROW_IDX)) S_()                                                        \
    X_(ROW_CACHE, __global int *, row_slot0, T(ROW_SLOT)) S_() X_(ROW_CACHE, __global int *, cmap0, T(CMAP)) S_()   \
    X_(ROW_CACHE, __global int *, cstate0, T(CSTATE)) S_() X_(ROW_CACHE, int, cslots, V(cslots)) S_()               \
    X_(ROW_CACHE, int, qmax, V(qmax)) S_() X_(ROW_CACHE, __global const gpusvm_wbits *, status, T(STATUS)) S_()     \
    X_(ROW_CACHE, int, first, L)

#define GPUSVM__ARGS_GATHER_WS(X_, S_)                                                                              \
    X_(GATHER_WS, __global const float *, X, R(B)) S_() X_(GATHER_WS, int, pitch, R(pitch_b)) S_()                  \
    X_(GATHER_WS, __global const int *, idx, R(idx)) S_()                                                           \
    X_(GATHER_WS, __global const int *, pinfo, R(pinfo)) S_()                                                       \
    X_(GATHER_WS, __global const int *, map, R(map)) S_() X_(GATHER_WS, int, use_map, R(use_map)) S_()              \
    X_(GATHER_WS, int, dpad, R(dpad)) S_() X_(GATHER_WS, int, row_off, L) S_() X_(GATHER_WS, int, nrows, L) S_()    \
    X_(GATHER_WS, int, skip_whole, L) S_() X_(GATHER_WS, __global float *, Aw, R(A)) S_()                           \
    X_(GATHER_WS, int, qmax, R(qmax)) S_() X_(GATHER_WS, __global const gpusvm_wbits *, status, R(status))

/* gpusvm_fill (kernels part 1) */
#define GPUSVM__ARGS_FILL(X_, S_)                                                                                   \
    X_(FILL, __global uint *, p, L) S_() X_(FILL, uint, word, L) S_() X_(FILL, ulong, off, L) S_()                  \
    X_(FILL, ulong, n, L)
#define GPUSVM__ARGS_SCATTER(X_, S_)                                                                                \
    X_(SCATTER, __global const ulong *, row_ptr, L) S_() X_(SCATTER, __global const int *, col, L) S_()             \
    X_(SCATTER, __global const float *, val, L) S_() X_(SCATTER, ulong, base, L) S_() X_(SCATTER, int, n, L) S_()   \
    X_(SCATTER, __global float *, X, L) S_() X_(SCATTER, int, pitch, L)

/* kernels part 2 */
#define GPUSVM__ARGS_KEYS(X_, S_)                                                                                   \
    X_(KEYS, __global const gpusvm_wbits *, G0, T(G)) S_()                                                          \
    X_(KEYS, __global const gpusvm_wbits *, alpha0, T(ALPHA)) S_() X_(KEYS, __global const char *, y0, T(Y)) S_()   \
    X_(KEYS, __global const gpusvm_wbits *, Cv0, T(CV)) S_() X_(KEYS, __global const int *, pinfo, T(PINFO)) S_()   \
    X_(KEYS, int, nparts_max, V(nparts_max)) S_() X_(KEYS, __global uint *, key_up0, T(KEY_UP)) S_()                \
    X_(KEYS, __global uint *, key_low0, T(KEY_LOW)) S_()                                                            \
    X_(KEYS, __global gpusvm_wbits *, part_up0, T(PART_UP)) S_()                                                    \
    X_(KEYS, __global gpusvm_wbits *, part_low0, T(PART_LOW)) S_()                                                  \
    X_(KEYS, __global const gpusvm_wbits *, status, T(STATUS)) S_() X_(KEYS, int, nu, V(nu))

#define GPUSVM__ARGS_SELECT(X_, S_)                                                                                 \
    X_(SELECT, __global uint *, key_up0, T(KEY_UP)) S_() X_(SELECT, __global uint *, key_low0, T(KEY_LOW)) S_()     \
    X_(SELECT, __global const int *, pinfo, T(PINFO)) S_() X_(SELECT, int, nparts_max, V(nparts_max)) S_()          \
    X_(SELECT, int, qmax, V(qmax)) S_() X_(SELECT, __global const gpusvm_wbits *, part_up0, T(PART_UP)) S_()        \
    X_(SELECT, __global const gpusvm_wbits *, part_low0, T(PART_LOW)) S_()                                          \
    X_(SELECT, __global int *, ws_idx0, T(WS_IDX)) S_() X_(SELECT, __global int *, ws_slot0, T(WS_SLOT)) S_()       \
    X_(SELECT, int, mode_in, L) S_() X_(SELECT, gpusvm_wbits, eps, L) S_()                                          \
    X_(SELECT, gpusvm_wbits, max_iter, L) S_() X_(SELECT, __global gpusvm_wbits *, status0, T(STATUS)) S_()         \
    X_(SELECT, __global const char *, y0, T(Y)) S_() X_(SELECT, int, nu, V(nu)) S_()                                \
    X_(SELECT, int, split, L) S_() X_(SELECT, __global uint *, sel_g, T(SEL))

/* the selection over the grid (part 2): gpusvm_sel_hist, _ties, _take (ties0: the keys' partials'
 * buffer, free once gpusvm_select has read them, 4 * nparts_max words a problem); cands: a split
 * problem's lists into its report out instead (G0: their gradients) */
#define GPUSVM__ARGS_SEL(X_, S_)                                                                                    \
    X_(SEL, __global uint *, key_up0, T(KEY_UP)) S_() X_(SEL, __global uint *, key_low0, T(KEY_LOW)) S_()           \
    X_(SEL, __global const char *, y0, T(Y)) S_() X_(SEL, __global const int *, pinfo, T(PINFO)) S_()               \
    X_(SEL, int, qmax, V(qmax)) S_() X_(SEL, __global const gpusvm_wbits *, status, T(STATUS)) S_()                 \
    X_(SEL, __global uint *, sel_g, T(SEL)) S_() X_(SEL, __global int *, list0, T(LIST)) S_()                       \
    X_(SEL, __global int *, ws_idx0, T(WS_IDX)) S_() X_(SEL, int, side, V(zero)) S_()                               \
    X_(SEL, int, pass, V(zero)) S_() X_(SEL, int, mode_in, V(zero)) S_() X_(SEL, int, nu, V(nu)) S_()               \
    X_(SEL, __global uint *, ties0, T(PART_UP)) S_() X_(SEL, int, nparts_max, V(nparts_max)) S_()                   \
    X_(SEL, int, cands, V(cands)) S_() X_(SEL, __global ulong *, out, T(CANDS)) S_()                                \
    X_(SEL, __global const gpusvm_wbits *, G0, T(G))

/* a split problem's report and its merged working set's gradients (part 2) */
#define GPUSVM__ARGS_CANDS(X_, S_)                                                                                  \
    X_(CANDS, __global uint *, key_up0, T(KEY_UP)) S_() X_(CANDS, __global uint *, key_low0, T(KEY_LOW)) S_()       \
    X_(CANDS, __global const char *, y0, T(Y)) S_() X_(CANDS, __global const gpusvm_wbits *, G0, T(G)) S_()         \
    X_(CANDS, __global const int *, pinfo, T(PINFO)) S_() X_(CANDS, int, nparts_max, V(nparts_max)) S_()            \
    X_(CANDS, int, qmax, V(qmax)) S_() X_(CANDS, __global const gpusvm_wbits *, part_up0, T(PART_UP)) S_()          \
    X_(CANDS, __global const gpusvm_wbits *, part_low0, T(PART_LOW)) S_()                                           \
    X_(CANDS, __global const int *, ws_idx0, T(WS_IDX)) S_()                                                        \
    X_(CANDS, __global const int *, ws_slot0, T(WS_SLOT)) S_() X_(CANDS, int, mode_in, L) S_()                      \
    X_(CANDS, __global const gpusvm_wbits *, status0, T(STATUS)) S_() X_(CANDS, int, nu, V(nu)) S_()                \
    X_(CANDS, __global ulong *, out, T(CANDS)) S_() X_(CANDS, int, grid, V(grid)) S_()                              \
    X_(CANDS, __global uint *, sel_g, T(SEL))

/* A split problem's merged round as the host writes it, in one transfer, into the WS_G buffer for
 * gpusvm_ws_put to spread: GPUSVM__ST_COUNT status words, the working set's qmax variables and
 * qmax slots (ints: qmax words), their qmax gradients; its bytes. */
#define GPUSVM__SPLIT_ROUND(q) (((size_t)GPUSVM__ST_COUNT + 2 * (size_t)(q)) * 8)
#define GPUSVM__ARGS_WS_PUT(X_, S_)                                                                                 \
    X_(WS_PUT, __global gpusvm_wbits *, G0, T(G)) S_() X_(WS_PUT, __global int *, ws_idx0, T(WS_IDX)) S_()          \
    X_(WS_PUT, __global int *, ws_slot0, T(WS_SLOT)) S_()                                                           \
    X_(WS_PUT, __global const gpusvm_wbits *, merged, T(WS_G)) S_() X_(WS_PUT, int, qmax, V(qmax)) S_()             \
    X_(WS_PUT, __global const int *, pinfo, T(PINFO)) S_()                                                          \
    X_(WS_PUT, __global gpusvm_wbits *, status0, T(STATUS))

/* kernels part 3 */
#define GPUSVM__ARGS_GATHER(X_, S_)                                                                                 \
    X_(GATHER, __global const float *, K0, T(K)) S_() X_(GATHER, int, ldk, V(ldk)) S_()                             \
    X_(GATHER, __global float *, Kq0, T(KQ)) S_() X_(GATHER, __global const int *, pinfo, T(PINFO)) S_()            \
    X_(GATHER, int, qmax, V(qmax)) S_() X_(GATHER, __global const int *, ws_idx0, T(WS_IDX)) S_()                   \
    X_(GATHER, __global const int *, ws_slot0, T(WS_SLOT)) S_()                                                     \
    X_(GATHER, __global const gpusvm_wbits *, status, T(STATUS))

#define GPUSVM__ARGS_SMO(X_, S_)                                                                                    \
    X_(SMO, __global const float *, Kq0, T(KQ)) S_() X_(SMO, __global const int *, pinfo, T(PINFO)) S_()            \
    X_(SMO, int, qmax, V(qmax)) S_() X_(SMO, __global const int *, ws_idx0, T(WS_IDX)) S_()                         \
    X_(SMO, __global gpusvm_wbits *, alpha0, T(ALPHA)) S_() X_(SMO, __global const gpusvm_wbits *, G0, T(G)) S_()   \
    X_(SMO, __global const char *, y0, T(Y)) S_() X_(SMO, __global const gpusvm_wbits *, Cv0, T(CV)) S_()           \
    X_(SMO, __global const float *, qd0, T(QD)) S_() X_(SMO, __global gpusvm_wbits *, coef0, T(COEF)) S_()          \
    X_(SMO, gpusvm_wbits, eps, L) S_() X_(SMO, gpusvm_wbits, ratio_in, L) S_() X_(SMO, int, max_inner_in, L) S_()   \
    X_(SMO, int, whole_inner, V(whole_inner)) S_() X_(SMO, gpusvm_wbits, max_iter, L) S_()                          \
    X_(SMO, __global gpusvm_wbits *, status0, T(STATUS)) S_() X_(SMO, int, nu, V(nu))

/* gpusvm_smo_item (kernels part 3): the batch's points and norms as the rows kernels' columns read
 * them, the rows, the problem table and count, the per-variable state, the round's eps and max_iter */
#define GPUSVM__ARGS_ITEM(X_, S_)                                                                                   \
    X_(ITEM, __global const float *, X, R(B)) S_() X_(ITEM, int, pitch, R(pitch_b)) S_()                            \
    X_(ITEM, __global const float *, norm, R(norm_b)) S_() X_(ITEM, __global const int *, map, R(map)) S_()        \
    X_(ITEM, int, use_map, R(use_map)) S_() X_(ITEM, int, dpad, R(dpad)) S_() X_(ITEM, int, ktype, R(ktype)) S_()   \
    X_(ITEM, float, coef0, R(coef0)) S_() X_(ITEM, int, degree, R(degree)) S_()                                     \
    X_(ITEM, __global float *, K0, T(K)) S_() X_(ITEM, int, ldk, V(ldk)) S_() X_(ITEM, int, qmax, V(qmax)) S_()     \
    X_(ITEM, __global const int *, pinfo, T(PINFO)) S_() X_(ITEM, int, nprob, V(nprob)) S_()                        \
    X_(ITEM, __global gpusvm_wbits *, alpha0, T(ALPHA)) S_() X_(ITEM, __global gpusvm_wbits *, G0, T(G)) S_()       \
    X_(ITEM, __global const char *, y0, T(Y)) S_() X_(ITEM, __global const gpusvm_wbits *, Cv0, T(CV)) S_()         \
    X_(ITEM, __global const float *, qd0, T(QD)) S_() X_(ITEM, __global gpusvm_wbits *, coefs0, T(COEF)) S_()        \
    X_(ITEM, gpusvm_wbits, eps, L) S_() X_(ITEM, gpusvm_wbits, max_iter, L) S_()                                    \
    X_(ITEM, int, whole_inner, V(whole_inner)) S_() X_(ITEM, __global gpusvm_wbits *, status0, T(STATUS))

/* kernels part 4 */
#define GPUSVM__ARGS_UPDATE(X_, S_)                                                                                 \
    X_(UPDATE, __global gpusvm_wbits *, out0, U(out)) S_() X_(UPDATE, __global const char *, y0, U(y)) S_()         \
    X_(UPDATE, int, use_y, U(use_y)) S_() X_(UPDATE, __global const int *, pinfo, U(pinfo)) S_()                    \
    X_(UPDATE, int, qmax, U(qmax)) S_() X_(UPDATE, __global const float *, K0, U(K)) S_()                           \
    X_(UPDATE, int, ldk, U(ldk)) S_() X_(UPDATE, __global const int *, slot0, U(slot)) S_()                         \
    X_(UPDATE, __global const gpusvm_wbits *, coef0, U(coef)) S_() X_(UPDATE, int, m_in, U(m_in)) S_()              \
    X_(UPDATE, __global const gpusvm_wbits *, status, U(status)) S_() X_(UPDATE, int, coef_off, V(zero)) S_()       \
    X_(UPDATE, int, out_off, V(zero)) S_() X_(UPDATE, int, var_off, V(zero)) S_()                                   \
    X_(UPDATE, int, var_end, V(int_max)) S_() X_(UPDATE, int, k_off, V(zero))

/* gpusvm_rows_update (kernels part 4): gpusvm_rows_tiled's arguments, then these */
#define GPUSVM__ARGS_ROWS_UPD(X_, S_)                                                                               \
    X_(ROWS_UPD, __global gpusvm_wbits *, out0, T(G)) S_() X_(ROWS_UPD, __global const char *, y0, T(Y)) S_()       \
    X_(ROWS_UPD, __global const gpusvm_wbits *, coef, T(S_COEF))

/* kernels part 5 (Crammer-Singer), every problem of a batch in one launch: alpha and c are
 * n x m per problem (point-major), K the rows (with the cache, problem p's point v has row
 * var + v, else working-set position t row p qmax + t: the rows kernels' slot is that minus
 * p qmax), dA and moved the last sweeps' changes (q positions per problem, mmax classes apart) */
#define GPUSVM__ARGS_CS_RESP(X_, S_)                                                                                \
    X_(CS_RESP, __global gpusvm_wbits *, c, C(C)) S_() X_(CS_RESP, __global const float *, K, T(K)) S_()            \
    X_(CS_RESP, int, ldk, V(ldk)) S_() X_(CS_RESP, __global const int *, moved, C(MOVED)) S_()                      \
    X_(CS_RESP, __global const gpusvm_wide *, dA, C(DA)) S_()                                                       \
    X_(CS_RESP, __global const gpusvm_wbits *, status, T(STATUS)) S_()                                              \
    X_(CS_RESP, __global const int *, cinfo, C(CINFO)) S_() X_(CS_RESP, int, q, V(cs_q)) S_()                       \
    X_(CS_RESP, int, mmax, V(cs_m))

#define GPUSVM__ARGS_CS_UPDATE(X_, S_)                                                                              \
    X_(CS_UPDATE, __global const gpusvm_wbits *, c, C(C)) S_()                                                      \
    X_(CS_UPDATE, __global const gpusvm_wbits *, alpha, C(ALPHA)) S_()                                              \
    X_(CS_UPDATE, __global const int *, cls, C(CLS)) S_()                                                           \
    X_(CS_UPDATE, __global const gpusvm_wbits *, U, C(U)) S_()                                                      \
    X_(CS_UPDATE, __global const gpusvm_wbits *, status, T(STATUS)) S_()                                            \
    X_(CS_UPDATE, __global gpusvm_wbits *, part, C(PART)) S_()                                                      \
    X_(CS_UPDATE, __global uint *, cand_key, C(CAND_KEY)) S_()                                                      \
    X_(CS_UPDATE, __global int *, cand_idx, C(CAND_IDX)) S_()                                                       \
    X_(CS_UPDATE, __global const int *, cinfo, C(CINFO)) S_() X_(CS_UPDATE, int, nparts_max, V(cs_parts)) S_()      \
    X_(CS_UPDATE, int, qc, V(cs_qc))

#define GPUSVM__ARGS_CS_SELECT(X_, S_)                                                                              \
    X_(CS_SELECT, __global const gpusvm_wbits *, part, C(PART)) S_()                                                \
    X_(CS_SELECT, int, nparts_max, V(cs_parts)) S_() X_(CS_SELECT, __global uint *, cand_key, C(CAND_KEY)) S_()     \
    X_(CS_SELECT, __global const int *, cand_idx, C(CAND_IDX)) S_()                                                 \
    X_(CS_SELECT, __global gpusvm_wbits *, status, T(STATUS)) S_() X_(CS_SELECT, gpusvm_wbits, eps, L) S_()         \
    X_(CS_SELECT, gpusvm_wbits, max_iter, L) S_() X_(CS_SELECT, int, q, V(cs_q)) S_()                               \
    X_(CS_SELECT, __global int *, ws, C(WS)) S_() X_(CS_SELECT, __global int *, row_idx, T(WS_IDX)) S_()            \
    X_(CS_SELECT, __global int *, row_slot, T(WS_SLOT)) S_() X_(CS_SELECT, __global int *, pinfo, T(PINFO)) S_()    \
    X_(CS_SELECT, __global int *, have, C(HAVE)) S_() X_(CS_SELECT, int, cache, V(cs_cache)) S_()                   \
    X_(CS_SELECT, __global const int *, cinfo, C(CINFO)) S_() X_(CS_SELECT, int, qmax, V(qmax))

#define GPUSVM__ARGS_CS_SOLVE(X_, S_)                                                                               \
    X_(CS_SOLVE, __global const float *, K, T(K)) S_() X_(CS_SOLVE, int, ldk, V(ldk)) S_()                          \
    X_(CS_SOLVE, __global const int *, ws, C(WS)) S_()                                                              \
    X_(CS_SOLVE, __global gpusvm_wbits *, status, T(STATUS)) S_()                                                   \
    X_(CS_SOLVE, __global gpusvm_wbits *, alpha, C(ALPHA)) S_()                                                     \
    X_(CS_SOLVE, __global const gpusvm_wbits *, c, C(C)) S_() X_(CS_SOLVE, __global const int *, cls, C(CLS)) S_()  \
    X_(CS_SOLVE, __global const gpusvm_wbits *, U, C(U)) S_()                                                       \
    X_(CS_SOLVE, __global const gpusvm_wbits *, kd, C(KD)) S_()                                                     \
    X_(CS_SOLVE, __global gpusvm_wide *, dA, C(DA)) S_() X_(CS_SOLVE, __global int *, moved, C(MOVED)) S_()         \
    X_(CS_SOLVE, int, mmax, V(cs_m)) S_() X_(CS_SOLVE, int, q, V(cs_q)) S_()                                        \
    X_(CS_SOLVE, int, cache, V(cs_cache)) S_() X_(CS_SOLVE, gpusvm_wbits, eps, L) S_()                              \
    X_(CS_SOLVE, gpusvm_wbits, ratio, L) S_() X_(CS_SOLVE, __local float *, kws, LM(cs_kws)) S_()                   \
    X_(CS_SOLVE, __local gpusvm_wide *, cws, LM(cs_cws)) S_()                                                       \
    X_(CS_SOLVE, __local gpusvm_wide *, scr, LM(cs_scr)) S_()                                                       \
    X_(CS_SOLVE, __global const int *, cinfo, C(CINFO)) S_() X_(CS_SOLVE, int, qmax, V(qmax))

/* The host names the slots (enum GPUSVM__A_<KERNEL>_<name>, ..., GPUSVM__A_<KERNEL>_N); the
 * kernels declare the parameters. */
#define GPUSVM__COMMA() ,
#ifdef __OPENCL_VERSION__
#define GPUSVM__PARAM(k, type, name, source) type name
#else
#define GPUSVM__SLOT(k, type, name, source) GPUSVM__A_##k##_##name
#endif

#endif /* GPUSVM__SHARED_H */
