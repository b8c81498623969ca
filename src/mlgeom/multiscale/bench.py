"""Speed benchmark of the L^p multiscale chapter (volatile; ``make bench``).

Per-round time of Theorem 8's learner against ``d``, exact projection against the pure LP
(:func:`mlgeom.multiscale.experiments.time_rounds`). Printed, never stored in the notebook.
"""

from __future__ import annotations

import pandas as pd

from mlgeom.multiscale.experiments import time_rounds

__all__ = ["benchmark", "main"]


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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
