#!/usr/bin/env python3
"""The alternative a researcher has to isoperf's shuffle solver: the LP (4)-(7)
of the lecture's "DLT in MapReduce" built with NumPy/SciPy sparse matrices and
solved by scipy's HiGHS (linprog, method="highs"), at the reference set
(r = l = 100, V = 1e15, S = 1, C = 1e-6, gamma = 0.1, a_map = 1e-5,
s_map = 1e-2, lu = 16e6). Model building is included in the time, as a
researcher would run it. Loads are in units of V (as isoperf does) so HiGHS
does not drop the shuffle terms. Prints t_{N+1} and the median time per solve.

    pip install numpy scipy && python3 benches/mapreduce_highs.py [m ...]

Compare with `cargo bench --bench mapreduce` (one solve natively) and
www/bench.html ("mapreduce: solve m=1000", in wasm).
"""
import statistics
import sys
import time

import numpy as np
from scipy.optimize import linprog
from scipy.sparse import coo_matrix

R = L = 100
V, S, C, GAMMA = 1e15, 1.0, 1e-6, 0.1
A = 1e-5 + 1e-2 / 16e6
c = GAMMA * C / R


def itv(i, j, m, l):
    return ((j + l - 1) // l - 1) * m + i + (j - 1) % l


def solve(m):
    l = min(L, m)
    n = itv(m, R, m, l)
    # Variables: x_1..x_m (alpha / V), then t_1..t_{N+1}.
    nx, nt = m, n + 1
    tcol = lambda k: nx + k - 1
    # Equalities: t_i - A V x_i = i S; sum x = 1.
    rows, cols, vals = [], [], []
    for i in range(1, m + 1):
        rows += [i - 1, i - 1]
        cols += [tcol(i), i - 1]
        vals += [1.0, -A * V]
    rows += [m] * m
    cols += list(range(m))
    vals += [1.0] * m
    a_eq = coo_matrix((vals, (rows, cols)), shape=(m + 1, nx + nt)).tocsr()
    b_eq = np.concatenate([np.arange(1, m + 1) * S, [1.0]])
    # Inequalities: t_k - t_{k+1} + c V x_i <= 0 for every send (i, j).
    rows, cols, vals = [], [], []
    r = 0
    for i in range(1, m + 1):
        for j in range(1, R + 1):
            k = itv(i, j, m, l)
            rows += [r, r, r]
            cols += [tcol(k), tcol(k + 1), i - 1]
            vals += [1.0, -1.0, c * V]
            r += 1
    a_ub = coo_matrix((vals, (rows, cols)), shape=(r, nx + nt)).tocsr()
    cost = np.zeros(nx + nt)
    cost[tcol(n + 1)] = 1.0
    bounds = [(0, None)] * nx + [(None, None)] * nt
    res = linprog(cost, A_ub=a_ub, b_ub=np.zeros(r), A_eq=a_eq, b_eq=b_eq, bounds=bounds, method="highs")
    assert res.status == 0, res.message
    return res.fun


def main():
    ms = [int(a) for a in sys.argv[1:]] or [100, 1000]
    for m in ms:
        times = []
        for _ in range(3 if m <= 1000 else 1):
            t0 = time.perf_counter()
            t = solve(m)
            times.append(time.perf_counter() - t0)
        print(f"m = {m:5d}, r = l = {R}: t_(N+1) = {t:.10e} s, HiGHS (build + solve) median {statistics.median(times):.3f} s")


if __name__ == "__main__":
    main()
