"""Speed benchmarks of the Fenchel–Young chapter (volatile; ``make bench``).

The compiled multiclass learner against the plain per-round loop
(:func:`mlgeom.fenchel_young.experiments.speed_benchmark`) and one Sinkhorn projection.
Timings are printed, never stored in the notebook or checked by the tests.
"""

from __future__ import annotations

import time

from mlgeom.fenchel_young.birkhoff import sinkhorn_log
from mlgeom.fenchel_young.experiments import speed_benchmark
from mlgeom.random import Seed, as_generator

__all__ = ["main", "sinkhorn_milliseconds"]


def sinkhorn_milliseconds(n: int = 10, *, repeats: int = 20, seed: Seed = None) -> float:
    """Measure the mean wall time (ms) of one log-domain Sinkhorn projection on ``n`` items."""
    theta = 3.0 * as_generator(seed).standard_normal((n, n))
    sinkhorn_log(theta)
    t0 = time.perf_counter()
    for _ in range(repeats):
        sinkhorn_log(theta)
    return (time.perf_counter() - t0) / repeats * 1e3


def main(argv: list[str] | None = None) -> int:
    """``python -m mlgeom.fenchel_young.bench``: print the chapter's timings as JSON.

    Timings are volatile, so the notebook does not store them; this command measures the
    compiled multiclass learner against the plain per-round loop (:func:`speed_benchmark`) and
    Sinkhorn on 10 items (:func:`sinkhorn_milliseconds`).
    """
    import json
    import sys

    args = sys.argv[1:] if argv is None else argv
    seed = int(args[0]) if args else 0
    out = speed_benchmark(seed=seed)
    out["sinkhorn_ms_n10"] = sinkhorn_milliseconds(seed=seed)
    print(json.dumps({k: (round(v, 4) if isinstance(v, float) else v) for k, v in out.items()}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
