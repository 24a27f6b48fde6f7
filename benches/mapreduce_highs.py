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

    python3 benches/mapreduce_highs.py --regimes

solves the LP as written for the regimes where the chain form fails (start-ups
outlasting transfers, an idle tail, many reducer groups, a long chain) and sets
each beside `isoperf eval mapreduce` (built with `cargo build --release`):
both optima, their relative difference, and both times.

    python3 benches/mapreduce_highs.py --lists

does the same for heterogeneous mappers in random order (a_map_list drawn
uniformly from 0.5e-5 to 1.5e-5 by the same 64-bit LCG as the native tests),
the shuffles only the general LP solves.
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


# (label, m, r, l, V, S, gamma) for --regimes; every other parameter as the lecture's.
REGIMES = [
    ("a gigabyte on 1000 mappers (start-up bound)", 1000, 100, 100, 1e9, 1.0, GAMMA),
    ("a megabyte on 400 mappers (start-up bound)", 400, 100, 100, 1e6, 1.0, GAMMA),
    ("idle tail: 150 mappers, V = 1e9", 150, 100, 100, 1e9, 1.0, GAMMA),
    ("idle tail: 300 mappers, V = 3e9", 300, 100, 100, 3e9, 1.0, GAMMA),
    ("long chain: 20000 mappers, r = l = 1, V = 1e15", 20000, 1, 1, 1e15, 1.0, GAMMA),
    ("5 reducer groups, start-ups outlast transfers", 600, 50, 10, 1e8, 1.0, GAMMA),
    # The random instances that only the general LP proved before
    # the plateau and the descent (two to seventeen reducer groups, mapping
    # outlasting the start-ups), two the plateau with an idle mapper now
    # proves (parts nearly equal: an optimal face), and one only the
    # general LP proves.
    ("plateau and descent: m = 594, r = 12, l = 8", 594, 12, 8, 1.405e11, 9.037, 4.483e-2),
    # Level steps: a run of the last seven working mappers with equal parts,
    # the slack interval last (m = 862), and one level step (m = 3500).
    ("level run: m = 862, r = 12, l = 8", 862, 12, 8, 1.405e11, 9.037, 3.535e-2),
    ("one level step: m = 3500, r = 100, l = 8", 3500, 100, 8, 1.405e11, 9.037, 4.483e-2),
    ("m = 254, r = 1358, l = 81", 254, 1358, 81, 1.898e4, 2.389, 1.524e-1),
    ("plateau and descent: m = 737, r = 249, l = 211", 737, 249, 211, 2.001e11, 9.231, 1.606e-3),
    ("plateau and descent: m = 1177, r = 115, l = 100", 1177, 115, 100, 2.579e10, 1.061, 1.877e-2),
    ("plateau, idle mapper: m = 1563, r = 76, l = 35", 1563, 76, 35, 6.028e7, 7.219, 2.7334e-3),
    ("plateau, idle mapper: m = 1000, r = 115, l = 24", 1000, 115, 24, 542.0, 7.08, 0.977),
    # A level run between two descents (the general LP's before this
    # shape's run was found by bisection, or before a run's mappers could
    # share any window that holds them), and parts falling from the first
    # mapper with a level run (the general LP's before that too).
    ("plateau, descent, level run of 18, descent: m = 428, r = 59, l = 41", 428, 59, 41, 6.9327e9, 6.7281, 0.2322),
    ("plateau, descent, level run of 7, descent: m = 166, r = 70, l = 61", 166, 70, 61, 7.41996e9, 9.50316, 1.22137e-3),
    ("plateau, descent, level run of 82, descent: m = 522, r = 92, l = 86", 522, 92, 86, 4.23165e8, 1.29291, 7.70028e-2),
    ("plateau, descent, level run of 5 (three groups), descent: m = 2274, r = 23, l = 8", 2274, 23, 8, 8.38943e9, 6.21324, 0.630025),
    ("plateau, descent, level run of 4 (three groups), descent: m = 2951, r = 44, l = 18", 2951, 44, 18, 5.09331e10, 5.6313, 0.601827),
    ("plateau, descent, level run of 3 (three groups), descent: m = 2703, r = 13, l = 6", 2703, 13, 6, 1.95752e10, 6.03172, 0.721544),
    ("falling from the first mapper, level run of 84: m = 109, r = 94, l = 93", 109, 94, 93, 3.55643e8, 3.72034, 0.386189),
    # A level run that starts nine mappers before the idle mapper's windows
    # begin (three groups, 21, 21 and 6): the general LP's until such
    # starts were looked for.
    ("plateau, descent, level run of 11 (three groups, nine back), descent: m = 4162, r = 48, l = 21", 4162, 48, 21, 4.67765e10, 4.28736, 0.500888),
    # One reducer group, parts falling from S/c over thousands of mappers
    # (the chain, and the chain after a plateau of two): banded solves.
    ("falling chain: m = 2399, r = l = 4", 2399, 4, 4, 9.7159e10, 6.8, 0.6552),
    ("plateau of two, falling chain: m = 4988, r = 35, l = 37", 4988, 35, 37, 1.63218e12, 9.66733, 0.968523),
    # The best mapper counts m_best shows where the search now proves them
    # (its T_best is that count's own shuffle): m' = 2048 of m = 3704, and
    # m' = 1871 of m = 84 630.
    ("m_best of m = 3704 (r = 481, l = 463): m' = 2048", 2048, 481, 463, 2.982e11, 1.4251, 0.050474),
    ("m_best of m = 84630 (r = 83, l = 54): m' = 1871", 1871, 83, 54, 1.6725e12, 9.7171, 2.40981e-2),
    # One reducer group: a plateau of 5, then the descent until the parts run
    # out, 45 mappers idle (2.3 million rows: HiGHS takes minutes).
    ("one group, plateau and descent, 45 idle: m = 8053, r = 280, l = 281", 8053, 280, 281, 1.93433e13, 8.29517, 0.33477),
]


# (label, seed, m, r, l, V, S, gamma, speeds) for --lists: per-mapper rates in
# random order, uniform from 0.5 to 1.5 × 10⁻⁵ s/B (speeds 0), or of 2 or 3
# speeds from 1 to 2 × 10⁻⁵ s/B. The first four only the general LP solves
# (the chain's and the shaped methods' certificates fail); the widest
# bisections take it seconds: the third and fourth (1.6 and 6.0 × 10⁸
# operations a factorisation of the compact form) about 7.5 and 5 s
# natively, the third's parts tying in plateaus that its relaxations give up
# on, the fourth through ten relaxations (34 s solved whole). The next two,
# the general LP's before too, are a plateau of the fastest front mappers
# with the slower ones between them below it; the last, the general LP's
# before as well, parts capped at levels rising along the first mappers;
# then, with ten times its load, the chain with mapper 1's part raised to
# mapper 455's (the general LP's before: 0.5 s natively); last, the first
# 1414 mappers of the 2000-list with V = 10¹¹, levels rising over 300
# mappers, one of them ended by no pin below one mapper 306 pins (HiGHS
# 76 s; the page's solve of it alone is still the general LP's, 2.5 s: the
# levels' search finds that shape only from a count close by); and the
# first 1413, whose shape the levels find from the first 1412's only by
# two changes at once.
LISTS = [
    ("S = 0: m = 1452, r = 27, l = 15", 3, 1452, 27, 15, 1.269e10, 0.0, 1.889e-2, 0),
    ("m = 582, r = 210, l = 39", 3, 582, 210, 39, 1.485e9, 0.8543, 0.1347, 0),
    ("m = 1498, r = 313, l = 223", 4, 1498, 313, 223, 1.537e8, 0.1719, 7.511e-2, 0),
    ("m = 3000, r = 400, l = 300", 7, 3000, 400, 300, 1e9, 0.1, 1.0, 0),
    ("two speeds, plateau over slower mappers: m = 500, r = 250, l = 100", 3, 500, 250, 100, 1e10, 1.0, 0.1, 2),
    ("three speeds, plateau over slower mappers: m = 500, r = 250, l = 100", 3, 500, 250, 100, 3e10, 1.0, 0.1, 3),
    ("levels rising along the first mappers: m = 500, r = 250, l = 100", 3, 500, 250, 100, 1e10, 1.0, 0.1, 0),
    ("the chain with mapper 1 tied to mapper 455: m = 500, r = 250, l = 100", 3, 500, 250, 100, 1e11, 1.0, 0.1, 0),
    ("an unknown level below a pinned one: the first 1414 of a 2000-list, r = 250, l = 100", 3, 1414, 250, 100, 1e11, 1.0, 0.1, 0),
    ("a pin's level made the unknown one: the first 1413 of a 2000-list, r = 250, l = 100", 3, 1413, 250, 100, 1e11, 1.0, 0.1, 0),
]


def uniform(seed):
    """The native tests' stream of uniform numbers in [0, 1) (a 64-bit LCG)."""
    while True:
        seed = (seed * 6364136223846793005 + 1442695040888963407) % 2**64
        yield (seed >> 33) / 2**31


def itv(i, j, m, l):
    return ((j + l - 1) // l - 1) * m + i + (j - 1) % l


def solve(m, r=R, l=L, v=V, s=S, gamma=GAMMA, rates=None):
    """t_{N+1} of the LP as written; `rates` the mappers' A_i (all A without)."""
    rates = rates or [A] * m
    l = min(l, m)
    n = itv(m, r, m, l)
    c = gamma * C / r
    # Variables: x_1..x_m (alpha / V), then t_1..t_{N+1}.
    nx, nt = m, n + 1
    tcol = lambda k: nx + k - 1
    # Equalities: t_i - A V x_i = i S; sum x = 1.
    rows, cols, vals = [], [], []
    for i in range(1, m + 1):
        rows += [i - 1, i - 1]
        cols += [tcol(i), i - 1]
        vals += [1.0, -rates[i - 1] * v]
    rows += [m] * m
    cols += list(range(m))
    vals += [1.0] * m
    a_eq = coo_matrix((vals, (rows, cols)), shape=(m + 1, nx + nt)).tocsr()
    b_eq = np.concatenate([np.arange(1, m + 1) * s, [1.0]])
    # Inequalities: t_k - t_{k+1} + c V x_i <= 0 for every send (i, j).
    rows, cols, vals = [], [], []
    row = 0
    for i in range(1, m + 1):
        for j in range(1, r + 1):
            k = itv(i, j, m, l)
            rows += [row, row, row]
            cols += [tcol(k), tcol(k + 1), i - 1]
            vals += [1.0, -1.0, c * v]
            row += 1
    a_ub = coo_matrix((vals, (rows, cols)), shape=(row, nx + nt)).tocsr()
    cost = np.zeros(nx + nt)
    cost[tcol(n + 1)] = 1.0
    bounds = [(0, None)] * nx + [(None, None)] * nt
    # Feasibility tolerances 1e-10 (HiGHS's default 1e-7 is looser than the
    # 1e-9 isoperf proves).
    res = linprog(cost, A_ub=a_ub, b_ub=np.zeros(row), A_eq=a_eq, b_eq=b_eq, bounds=bounds, method="highs",
                  options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10})
    assert res.status == 0, res.message
    return res.fun


def regimes(lists=False):
    import json
    import subprocess
    cases = [(label, m, r, l, v, s, gamma, None) for label, m, r, l, v, s, gamma in REGIMES]
    if lists:
        cases = []
        for label, seed, m, r, l, v, s, gamma, speeds in LISTS:
            draw = uniform(seed)
            rate = (lambda u: 0.5 + u) if speeds == 0 else (lambda u, k=speeds: 1 + (u * k) // 1 / (k - 1))
            cases.append((label, m, r, l, v, s, gamma, [1e-5 * rate(next(draw)) for _ in range(m)]))
    for label, m, r, l, v, s, gamma, a_map in cases:
        t0 = time.perf_counter()
        highs = solve(m, r, l, v, s, gamma, a_map and [a + 1e-2 / 16e6 for a in a_map])
        t_highs = time.perf_counter() - t0
        mappers = [f"m={m}"] if a_map is None else ["mappers=heterogeneous", "a_map_list=" + ",".join(map(repr, a_map))]
        args = ["target/release/isoperf", "eval", "mapreduce", *mappers, f"r={r}", f"l={l}", f"V={v}", f"S={s}", f"gamma={gamma}"]
        t0 = time.perf_counter()
        run = subprocess.run(args, capture_output=True, text=True)
        t_ours = time.perf_counter() - t0
        if run.returncode != 0:
            print(f"{label}: HiGHS {highs:.12g} s in {t_highs:.2f} s; isoperf refuses: {run.stderr.strip()[:120]}")
            continue
        ours = json.loads(run.stdout)["t_shuffle"]
        print(f"{label}: HiGHS {highs:.12g} s in {t_highs:.2f} s; isoperf {ours:.12g} s in {t_ours:.3f} s (process); "
              f"relative difference {abs(ours - highs) / highs:.1e}")


def main():
    if sys.argv[1:] in (["--regimes"], ["--lists"]):
        return regimes(lists=sys.argv[1] == "--lists")
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
