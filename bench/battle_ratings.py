"""Battle ratings (issue #31): how long a 1,000-round bootstrap of Bradley–Terry takes, against the way Chatbot Arena's
published notebook does it.

    .venv/bin/python bench/battle_ratings.py [--repeats 5] [--rounds 1000] [--battles 10000,100000,1000000]
        [--models 10,40]

Light: no stack, pure CPU. For each size it generates arena-shaped battles (Zipf popularity: a few models fight most;
30% ties, half of them "both bad") and times `server.battles.ratings.bootstrap` end to end (aggregating the Battle
objects into cells, the point fit, `--rounds` resampled fits, intervals, ranks, stability) `--repeats` times: p50
and p99 (with few repeats p99 is the slowest run). The baseline, timed in the same run, is one bootstrap round as
the notebook does it: scikit-learn's LogisticRegression (lbfgs, tol 1e-6) on the battles' design matrix, doubled so
a tie is one win each way; its 1,000 rounds are that times 1,000 (extrapolated, not run). The last column is the
largest difference in log-strength between the baseline and our point fit (same prior), a check that both fit the
same model (lbfgs at tol 1e-6 stops about 1e-4 short of the optimum; with scikit-learn's newton-cholesky solver the
unit tests agree to 1e-13). Generating the battles is not timed.

A run on the development machine (2 shared cores, load average ≈ 6 from other work; default arguments):

    |   battles | models | p50 (s) | p99 (s) | arena 1 round | arena 1,000 (s) | speed-up | Δθ max   |
    |-----------|--------|---------|---------|---------------|-----------------|----------|----------|
    |    10,000 |     10 |    0.10 |    0.12 |         0.140 |             140 |   1,401× |  1.7e-05 |
    |    10,000 |     40 |    1.17 |    1.27 |         0.398 |             398 |     341× |  2.0e-04 |
    |   100,000 |     10 |    0.09 |    0.13 |         0.365 |             365 |   4,143× |  5.8e-05 |
    |   100,000 |     40 |    1.36 |    1.55 |         1.399 |           1,399 |   1,026× |  1.5e-04 |
    | 1,000,000 |     10 |    0.48 |    0.66 |         3.189 |           3,189 |   6,588× |  4.4e-05 |
    | 1,000,000 |     40 |    1.42 |    1.46 |         8.274 |           8,274 |   5,823× |  3.5e-04 |

The time follows the number of models (the n×n fits) more than the number of battles: the battles are aggregated
into at most 4·n(n−1)/2 cells (times distinct weights) once, and every round is a multinomial draw over those cells.
At 1M battles with 10 models, most of the time is turning the Battle objects into cells (`aggregate`: 0.36 s).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from scipy.special import expit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import percentile
from server.battles.ratings import ALPHA, SCALE, Battle, bootstrap, fit

OUTCOMES = ("a", "b", "tie", "both_bad")


def generate(models: int, battles: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(model a, model b, outcome index) arrays: Zipf popularity, ≤ 30% ties, expected score σ(θ_a − θ_b)."""
    rng = np.random.Generator(np.random.PCG64(seed))
    theta = rng.permutation(np.linspace(-2, 2, models))
    popularity = 1 / np.arange(1, models + 1)
    a, b = rng.choice(models, size=(2, 3 * battles), p=popularity / popularity.sum())
    a, b = a[a != b][:battles], b[a != b][:battles]
    p = expit(theta[a] - theta[b])
    tie = np.minimum(0.3, 2 * np.minimum(p, 1 - p))
    u, v = rng.random((2, battles))
    kind = np.where(u < tie, np.where(v < 0.5, 2, 3), np.where(v < (p - tie / 2) / (1 - tie), 0, 1))
    return a, b, kind


def arena_round(models: int, a: np.ndarray, b: np.ndarray, kind: np.ndarray) -> np.ndarray:
    """One round of the notebook's fit: rows doubled, y = a won (a tie: one row a won, one row b won)."""
    from sklearn.linear_model import LogisticRegression

    n = len(a)
    x = np.zeros((2 * n, models))
    rows = np.arange(2 * n)
    x[rows, np.concatenate([a, a])] = 1.0
    x[rows, np.concatenate([b, b])] = -1.0
    y = np.concatenate([kind == 0, (kind == 0) | (kind >= 2)]).astype(np.float64)
    # The doubled data count each vote twice: C = 1 / (2α) is our prior α on the once-counted votes.
    model = LogisticRegression(C=1 / (2 * ALPHA), fit_intercept=False, tol=1e-6, max_iter=1000)
    return np.asarray(model.fit(x, y).coef_[0])


def measure(models: int, size: int, repeats: int, rounds: int) -> str:
    a, b, kind = generate(models, size, seed=size + models)
    names = [f"model-{i:02d}" for i in range(models)]
    battles = [Battle(names[i], names[j], OUTCOMES[k]) for i, j, k in zip(a.tolist(), b.tolist(), kind.tolist())]
    ours = []
    for repeat in range(repeats):
        started = time.perf_counter()
        bootstrap(battles, rounds=rounds, seed=repeat)
        ours.append(time.perf_counter() - started)
    baseline = []
    for _ in range(max(1, min(repeats, 3))):
        started = time.perf_counter()
        theirs = arena_round(models, a, b, kind)
        baseline.append(time.perf_counter() - started)
    point = fit(battles)
    difference = max(abs((point[name] - 1000) / SCALE - theirs[i]) for i, name in enumerate(names) if name in point)
    per_round = percentile(baseline, 50)
    return (
        f"| {size:>9,} | {models:>6} | {percentile(ours, 50):7.2f} | {percentile(ours, 99):7.2f} | "
        f"{per_round:13.3f} | {per_round * 1000:>15,.0f} | {per_round * 1000 / percentile(ours, 50):>7,.0f}× | "
        f"{difference:8.1e} |"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--battles", default="10000,100000,1000000")
    parser.add_argument("--models", default="10,40")
    args = parser.parse_args()
    print(f"bootstrap of {args.rounds} rounds, {args.repeats} runs each; baseline: 1 sklearn round (× 1,000 extrapolated)")
    print("\n|   battles | models | p50 (s) | p99 (s) | arena 1 round | arena 1,000 (s) | speed-up | Δθ max   |")
    print("|-----------|--------|---------|---------|---------------|-----------------|----------|----------|")
    for size in (int(s) for s in args.battles.split(",")):
        for models in (int(m) for m in args.models.split(",")):
            print(measure(models, size, args.repeats, args.rounds), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
