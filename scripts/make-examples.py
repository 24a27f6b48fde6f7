#!/usr/bin/env python3
"""Writes the synthetic example data sets of the scaling model to www/data/.

The Graph500 paper (Medya et al.) reports fitted coefficients but no raw
data, so these files are made up from its numbers and say so in their first
line. Deterministic: the same seed gives the same files.
"""
import math
import random
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "www" / "data"
PROCESSES = [18 * nodes for nodes in range(1, 33)]  # 18 MPI processes per node, 1-32 nodes


def timings(path, c0, c1, c2, sigma, seed, runs=30):
    rng = random.Random(seed)
    lines = [
        f"# SYNTHETIC data, not measurements: time = {c0} + {c1}/p + {c2}/sqrt(p) + N(0, {sigma}^2),",
        f"# from the coefficients the Graph500 paper reports; {runs} runs at each p = 18 x nodes. scripts/make-examples.py",
        "p,time",
    ]
    for p in PROCESSES:
        for _ in range(runs):
            t = c0 + c1 / p + c2 / math.sqrt(p) + rng.gauss(0.0, sigma)
            lines.append(f"{p},{max(t, 0.001):.4f}")
    path.write_text("\n".join(lines) + "\n")


def throttling(path, seed):
    # Demand D(p) = 24% (p/72)^0.26 grows slower than sqrt(p) (DC ~ 0.8);
    # CTI(bw) = 0.1 (D/bw)^3 below full bandwidth; 0.3% timing noise.
    rng = random.Random(seed)
    lines = [
        "# SYNTHETIC data, not measurements: throttling runs with CTI(bw, p) = 0.1 (D(p)/bw)^3,",
        "# D(p) = 24% (p/72)^0.26, 0.3% noise; 4, 9, 16 nodes x 18 processes. scripts/make-examples.py",
        "p,bandwidth,time",
    ]
    for p in (72, 162, 288):
        full = 100.0 / math.sqrt(p)
        demand = 24.0 * (p / 72.0) ** 0.26
        lines.append(f"{p},100,{full:.4f}")
        for bw in range(20, 62, 2):
            t = full * (1.0 + 0.1 * (demand / bw) ** 3) * (1.0 + rng.gauss(0.0, 0.003))
            lines.append(f"{p},{bw},{t:.4f}")
    path.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    timings(OUT / "graph500-scale27-synthetic.csv", 0.5, 57.67, 3.8, 0.2, 27)
    timings(OUT / "graph500-scale28-synthetic.csv", 0.8, 102.1, 10.3, 0.44, 28)
    throttling(OUT / "graph500-throttling-synthetic.csv", 450)
