#!/usr/bin/env python3
"""The iso-map a researcher would write without isoperf: the DLT closed form
vectorised with NumPy over a 256 x 256 grid (m and V on log axes, A = 1,
C = 1e-6, S = 1e2), isoefficiency lines at 0.5, 0.9, 0.99 by contourpy
(matplotlib's contour engine). Prints the median time per map.

    pip install numpy contourpy && python3 benches/isomap_numpy.py

Compare with `cargo bench --bench isomap` (same map, native) and
www/bench.html (same map in wasm).
"""
import statistics
import time

import contourpy
import numpy as np

A, C, S = 1.0, 1e-6, 1e2
N = 256
LEVELS = (0.5, 0.9, 0.99)


def efficiency_map():
    m = np.geomspace(1.0, 1000.0, N)
    v = np.geomspace(1e3, 1e13, N)
    mm, vv = np.meshgrid(m, v)
    u = C / A
    g = np.expm1(mm * np.log1p(u)) / u          # G(m) = ((1+u)^m - 1)/u
    f = (g - mm) / u                            # F(m) = (G(m) - m)/u
    alpha_m = (vv - S / A * f) / g
    t = mm * S + C * vv + A * alpha_m
    e = (S + (C + A) * vv) / (mm * t)
    e[alpha_m <= 0] = np.nan                    # infeasible: a gap
    gen = contourpy.contour_generator(m, v, e)
    return e, [gen.lines(level) for level in LEVELS]


def main():
    efficiency_map()
    runs = []
    for _ in range(50):
        t0 = time.perf_counter()
        efficiency_map()
        runs.append(time.perf_counter() - t0)
    print(f"numpy + contourpy, {N}x{N}, 3 levels: median {statistics.median(runs) * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
