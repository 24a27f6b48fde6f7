#!/usr/bin/env python3
"""Writes the synthetic example data sets to www/data/.

The Graph500 paper (Medya et al.) reports fitted coefficients but no raw
data, so these files are made up from its numbers and say so in their first
line. The calibration examples of pmm and broadcast are the models' own
times (from the isoperf binary, built first) at chosen parameters, with
seeded Gaussian noise, and say so too. Deterministic: the same seed gives
the same files.
"""
import json
import math
import random
import subprocess
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


ISOPERF = Path(__file__).resolve().parent.parent / "target" / "release" / "isoperf"


def model_time(model, params):
    """The model's T at params, from the isoperf binary."""
    out = subprocess.check_output([str(ISOPERF), "eval", model] + [f"{k}={v}" for k, v in params.items()])
    return json.loads(out)["T"]


def model_runs(path, model, header, truth, grid, sigma, seed, repeats, unit=1.0, note=""):
    """Runs at each point of `grid` (dicts of inputs), `repeats` each: the
    model's T at `truth` and the inputs, times (1 + N(0, sigma^2))."""
    rng = random.Random(seed)
    given = ", ".join(f"{k} = {v}" for k, v in truth.items())
    lines = [
        f"# SYNTHETIC runs, not measurements: the {model} model's T at {given}{note},",
        f"# times (1 + N(0, {sigma}^2)), {repeats} runs per setting. scripts/make-examples.py",
        header,
    ]
    for point in grid:
        t = model_time(model, {**truth, **point})
        for _ in range(repeats):
            values = ",".join(str(v) for v in point.values())
            lines.append(f"{values},{t * (1.0 + rng.gauss(0.0, sigma)) / unit:.6g}")
    path.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    timings(OUT / "graph500-scale27-synthetic.csv", 0.5, 57.67, 3.8, 0.2, 27)
    timings(OUT / "graph500-scale28-synthetic.csv", 0.8, 102.1, 10.3, 0.44, 28)
    throttling(OUT / "graph500-throttling-synthetic.csv", 450)
    subprocess.check_call(["cargo", "build", "--release", "--quiet", "--bin", "isoperf"])
    model_runs(
        OUT / "pmm-runs-synthetic.csv", "pmm", "N,M,T (s)",
        {"t_flops": 2e-10, "t_comm": 5e-8},
        [{"N": n, "M": m} for n in (1, 4, 16, 36, 64) for m in (4000, 8000, 16000)],
        0.03, 17, 3, note=" (Dryad, the form's implementation)",
    )
    model_runs(
        OUT / "broadcast-pingpong-synthetic.csv", "broadcast", "p,n,T (us)",
        {"alpha": 5e-6, "beta": 1e-10},
        [{"p": 2, "n": 4 ** e} for e in range(0, 14)],
        0.02, 18, 3, unit=1e-6, note=" (Hockney, binomial tree)",
    )
