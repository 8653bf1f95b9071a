#!/usr/bin/env python3
"""bench/pvd_sim.py: several devices each solving its own working set, simulated (numpy, one CPU).

    python3 bench/pvd_sim.py [N] [Q]      (default 4000 points, working set 128)

The split by rows today (docs/devices.md): every round one merged working set of Q variables (Q/2
most violating from I_up, Q/2 from I_low, by -y G; here a fresh set every round, where gpusvm keeps
the newer half) and every device runs the whole inner solve.
Against it, two ways of giving each of P devices its own part, each combined by the line search
t = min(1, -g.D / D'QD) along the sum D of the parts' changes (feasible: the parts are disjoint,
each keeps the equality constraint, the box is per variable):

  shares  each device chooses Q/P variables among its own share of the points (P contiguous
          shares) and solves them; where every share is optimal on its own while the global gap
          is not (the most violating pair straddles two shares, which no share can change
          alone), one merged round as today;
  groups  the merged working set, dealt to P groups in violation order (each a mix of I_up and
          I_low), each group solved alone.

The inner solve is LIBSVM's (WSS 2, its pair update), stopped at max(eps, 0.1 x the round's gap)
or 20 pair updates a variable, as gpusvm's; the stop is LIBSVM's (gap < eps = 1e-3). Data: two
overlapping Gaussian clouds as bench/gen_dense.c makes them (32 features, means +-0.25), RBF
gamma 0.05, C = 1. Prints, for each way and P: outer rounds, the dependent inner pair updates
(each round's largest part: the devices solve at once) and all of them, and the objective.
A round's kernel rows cost each device Q/2 rows against its share whatever the way, so rounds
count as rows.
"""
import sys
import time

import numpy as np

N = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
Q = int(sys.argv[2]) if len(sys.argv) > 2 else 128
C, GAMMA, EPS, TAU, RATIO = 1.0, 0.05, 1e-3, 1e-12, 0.1

rng = np.random.default_rng(1)
y = np.where(np.arange(N) % 2 == 0, 1.0, -1.0)
X = rng.standard_normal((N, 32)) + 0.25 * y[:, None]
sq = (X * X).sum(1)
Qm = (y[:, None] * y[None, :]) * np.exp(-GAMMA * np.maximum(sq[:, None] + sq[None, :] - 2 * X @ X.T, 0))


def sets(a, yy):
    up = ((yy > 0) & (a < C)) | ((yy < 0) & (a > 0))
    low = ((yy > 0) & (a > 0)) | ((yy < 0) & (a < C))
    return up, low


def gap(a, G):
    up, low = sets(a, y)
    v = -y * G
    return v[up].max() - v[low].min() if up.any() and low.any() else 0.0


def choose(a, G, idx, m):
    """m/2 most violating of idx from I_up, the rest from I_low (not already taken)."""
    up, low = sets(a[idx], y[idx])
    v = -y * G
    u, lo = idx[up], idx[low]
    su = u[np.argsort(-v[u])][: m // 2]
    sl = lo[np.argsort(v[lo])]
    return np.concatenate([su, sl[~np.isin(sl, su)][: m - len(su)]])


def pair(yi, yj, ai, aj, gi, gj, qii, qjj, qij):
    """LIBSVM's two-variable update (svm.cpp, Solver::Solve)."""
    if yi != yj:
        qd = qii + qjj + 2 * qij if qii + qjj + 2 * qij > 0 else TAU
        delta, diff = (-gi - gj) / qd, ai - aj
        ai, aj = ai + delta, aj + delta
        if diff > 0 and aj < 0: aj, ai = 0.0, diff
        elif diff <= 0 and ai < 0: ai, aj = 0.0, -diff
        if diff > 0 and ai > C: ai, aj = C, C - diff
        elif diff <= 0 and aj > C: aj, ai = C, C + diff
    else:
        qd = qii + qjj - 2 * qij if qii + qjj - 2 * qij > 0 else TAU
        delta, s = (gi - gj) / qd, ai + aj
        ai, aj = ai - delta, aj + delta
        if s > C and ai > C: ai, aj = C, s - C
        elif s <= C and aj < 0: aj, ai = 0.0, s
        if s > C and aj > C: aj, ai = C, s - C
        elif s <= C and ai < 0: ai, aj = 0.0, s
    return ai, aj


def inner(ws, a, G, stop):
    """The working set's inner solve (WSS 2); its new alphas and the pair updates it took."""
    aw, gw, yw = a[ws].copy(), G[ws].copy(), y[ws]
    qw = Qm[np.ix_(ws, ws)]
    d = np.diag(qw)
    k = 0
    while k < 20 * len(ws):
        up, low = sets(aw, yw)
        v = -yw * gw
        if not up.any() or not low.any():
            break
        i = int(np.argmax(np.where(up, v, -np.inf)))
        if v[i] - v[low].min() < stop:
            break
        b = v[i] - v
        den = d[i] + d - 2 * yw[i] * yw * qw[i]
        obj = np.where(low & (b > 0), -b * b / np.where(den > 0, den, TAU), np.inf)
        j = int(np.argmin(obj))
        if not np.isfinite(obj[j]):
            break
        ai, aj = pair(yw[i], yw[j], aw[i], aw[j], gw[i], gw[j], d[i], d[j], qw[i, j])
        gw += qw[:, i] * (ai - aw[i]) + qw[:, j] * (aj - aw[j])
        aw[i], aw[j] = ai, aj
        k += 1
    return aw, k


def parts_of(way, P, a, G):
    """The round's disjoint parts (lists of variables)."""
    if way == "groups":
        ws = choose(a, G, np.arange(N), Q)
        su, sl = ws[: Q // 2], ws[Q // 2:]
        return [np.concatenate([su[p::P], sl[p::P]]) for p in range(P)]
    return [choose(a, G, s, Q // P) for s in np.array_split(np.arange(N), P)]


def train(way, P, most=5000):
    a, G = np.zeros(N), -np.ones(N)
    rounds = dep = total = merged = 0
    while rounds < most:
        gp = gap(a, G)
        if gp < EPS:
            break
        stop = max(EPS, RATIO * gp)
        D, worst, ws = np.zeros(N), 0, []
        for part in parts_of(way, P, a, G) if P > 1 else [choose(a, G, np.arange(N), Q)]:
            aw, k = inner(part, a, G, stop)
            D[part] = aw - a[part]
            worst, total, ws = max(worst, k), total + k, ws + [part]
        if way == "shares" and P > 1 and not D.any():  # the gap straddles shares: a merged round
            part = choose(a, G, np.arange(N), Q)
            aw, worst = inner(part, a, G, stop)
            D[part] = aw - a[part]
            total, ws, merged = total + worst, [part], merged + 1
        ws = np.concatenate(ws)
        dw = D[ws]
        den = dw @ (Qm[np.ix_(ws, ws)] @ dw)
        t = min(1.0, -(G[ws] @ dw) / den) if den > 0 and P > 1 else 1.0  # one part: taken whole, as today
        a[ws] += t * dw
        G += t * (Qm[:, ws] @ dw)
        rounds, dep = rounds + 1, dep + worst
    return rounds, dep, total, merged, 0.5 * a @ (Qm @ a) - a.sum()


for way, P in [("merged", 1), ("shares", 2), ("shares", 4), ("groups", 2), ("groups", 4)]:
    t0 = time.time()
    r, dep, total, merged, obj = train(way, P)
    print(f"N={N} Q={Q} {way} P={P}: {r} rounds ({merged} merged), dependent inner updates {dep} "
          f"({dep / r:.1f} a round), all {total}, objective {obj:.6f} ({time.time() - t0:.0f} s)", flush=True)
