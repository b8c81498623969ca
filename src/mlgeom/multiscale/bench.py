"""Speed benchmark of the L^p multiscale chapter (volatile; ``make bench``).

Per-round time of Theorem 8's learner against ``d``, exact projection against the pure LP
(:func:`mlgeom.multiscale.experiments.time_rounds`). Printed, never stored in the notebook.
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from mlgeom.multiscale.adversary import adversarial_run, separating_margins
from mlgeom.multiscale.experiments import time_rounds, unit
from mlgeom.multiscale.minkowski_kernel import warm_up
from mlgeom.multiscale.partition_learners import HyperplaneLearner
from mlgeom.multiscale.sweeps import mixed_margin_stream


def _mixed_seconds(d: int, T: int, seed: int, sampler: str) -> float:
    rng = np.random.default_rng(seed)
    w, Q = mixed_margin_stream(T, d, rng)
    h = HyperplaneLearner(d, seed=rng, sampler=sampler)
    tic = time.perf_counter()
    for q in Q:
        a = h.assess(q)
        h.learn(q, 1 if q @ w >= 0 else 2, a["label"])
    return (time.perf_counter() - tic) / T


def _adversary_seconds(d: int, T: int, seed: int, sampler: str, separating=False) -> float:
    w = unit(np.random.default_rng(seed), d)
    h = HyperplaneLearner(d, seed=np.random.default_rng(seed + 1), sampler=sampler)
    margins = {"margins": separating_margins(T)} if separating else {}
    tic = time.perf_counter()
    adversarial_run(h, w, T, np.random.default_rng(seed + 2), **margins)
    return (time.perf_counter() - tic) / T


def _separating_seconds(d: int, T: int, seed: int, sampler: str) -> float:
    return _adversary_seconds(d, T, seed, sampler, separating=True)


def sampler_cost(
    ds=(2, 3, 5), horizons=(150, 1000), seed: int = 0, repeats: int = 3
) -> pd.DataFrame:
    """Cost per round of Algorithm 1's printed law against the convolution guess (issue 32).

    Theorem 8's learner with ``sampler="printed"`` (exact median in ``d = 2``, state-derived
    hit-and-run pools on ``K_t + z_iB_d`` beyond) and with the default ``"convolution"``
    sampler, on the same seeded mixed stream and against the adaptive adversary (``T`` in
    ``horizons``: the chapter's headline designs) and on the separating design (the shortest
    horizon: its cost grows as ``T^2`` with either sampler, every round at the margin floor
    being a cut). ``ratio`` is printed over convolution of the seconds per
    round (a full round: widths, the guess and, on a mistake, the cut), each the median of
    ``repeats`` runs taken alternately, so that a load change on the machine hits both. The
    first rounds are the dearest for the printed law (every scale's pool is new, 80 steps
    in ``d = 5``); later rounds warm-start pools, so the ratio at the longer horizon is the
    one the chapter's runs (``T`` = 400 to 10,000) pay. The compiled kernels are loaded first
    (:func:`~mlgeom.multiscale.minkowski_kernel.warm_up`), so no round pays numba's start-up.
    Volatile: printed, never stored.
    """
    warm_up()
    rows = []
    cases = [(d, "mixed", T, _mixed_seconds) for d in ds for T in horizons]
    cases += [(d, "adversary", T, _adversary_seconds) for d in ds for T in horizons]
    cases += [(d, "separating", min(horizons), _separating_seconds) for d in ds]
    for d, design, T, f in sorted(cases, key=lambda c: (c[0], c[1], c[2])):
        conv, prin = [], []
        for _ in range(repeats):
            conv.append(f(d, T, seed, "convolution"))
            prin.append(f(d, T, seed, "printed"))
        c, p = float(np.median(conv)), float(np.median(prin))
        rows.append(
            {
                "d": d,
                "design": design,
                "T": T,
                "convolution_ms": 1e3 * c,
                "printed_ms": 1e3 * p,
                "ratio_printed/conv": p / c,
            }
        )
    return pd.DataFrame(rows)


__all__ = ["benchmark", "main", "sampler_cost"]


def benchmark(ds=range(2, 11), n_rounds: int = 200, seed=0) -> pd.DataFrame:
    """Median per-round time of Theorem 8's learner against ``d``, exact projection vs pure LP.

    Both paths time a full round (widths, the sampler's volume-halving guess and, on a mistake,
    the cut with the sampler's refresh), on the same seeded stream; ``ratio`` is LP / projection
    of the medians. Means are printed too: rounds whose sign is already known skip the sampler.
    Volatile: printed by :func:`main`, never stored in the notebook.
    """
    rows = []
    for d in ds:
        cone = time_rounds([d], n_rounds, seed, "cone").iloc[0]
        lp = time_rounds([d], n_rounds, seed, "lp").iloc[0]
        rows.append(
            {
                "d": d,
                "projection_ms": cone["median_ms"],
                "lp_highs_ms": lp["median_ms"],
                "ratio_lp/proj": lp["median_ms"] / cone["median_ms"],
                "projection_mean_ms": cone["mean_ms"],
                "lp_highs_mean_ms": lp["mean_ms"],
            }
        )
    return pd.DataFrame(rows)


def main(argv: list[str] | None = None) -> int:
    """``python -m mlgeom.multiscale.bench [n_rounds] [seed]``: print per-round timings.

    Timings are volatile, so the notebook does not store them (see ``make bench``).
    """
    import sys

    args = sys.argv[1:] if argv is None else argv
    n_rounds = int(args[0]) if args else 200
    seed = int(args[1]) if len(args) > 1 else 0
    df = benchmark(n_rounds=n_rounds, seed=seed)
    print(
        f"Theorem 8 learner (k = 2): median (and mean) ms per round over {n_rounds} rounds "
        "(widths + sampler guess + cut)"
    )
    print(df.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    print(
        "\nAlgorithm 1's printed law against the convolution guess: ms per round, median of "
        "3 alternating runs (same seed and stream)"
    )
    cost = sampler_cost(seed=seed)
    print(cost.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
