"""Speed benchmarks of the maximum-margin multiclass NN chapter (volatile; ``make bench``).

:func:`benchmark` times SRM training against n and the metric ball tree against brute force;
:func:`edit_distance_benchmark` times RapidFuzz's edit distances against the numpy
Wagner-Fischer programme they replaced; :func:`backend_benchmark` times one of the chapter's
sweeps on each :mod:`mlgeom.parallel` backend against the plain loop (it lives here, above the
chapter, so that the sweep layer never imports a chapter). Timings are printed, never stored in
the notebook or checked by the tests.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterable

import pandas as pd

from mlgeom.metric_nn.experiments import index_check, k_sweep_srm, timing_sweep
from mlgeom.metric_nn.tasks import SoftmaxProblem
from mlgeom.parallel import close_dask, n_jobs_default

__all__ = ["backend_benchmark", "benchmark", "edit_distance_benchmark", "main"]


def benchmark(seed: int = 0) -> dict[str, pd.DataFrame]:
    """Wall-clock benchmarks of the chapter (volatile, so not stored in the notebook).

    ``python -m mlgeom.metric_nn.bench`` prints SRM training time against n (up to the
    issue's n = 2,000), the ball tree's query time against brute force on three metrics, and
    :func:`edit_distance_benchmark`.
    """
    from mlgeom.metric_nn.tasks import digits_task, string_task

    out = {"training": timing_sweep([250, 500, 1000, 2000], k=10, D=2, beta=20.0, seed=seed)}
    prob = SoftmaxProblem.random(3, 2, 10.0, seed)
    Xr, _ = prob.sample(6400, seed)
    out["index: [0,1]^2 (chebyshev), n = 6,400"] = index_check(
        Xr, prob.grid(100), "chebyshev", [0.0, 0.1, 0.5, 1.0]
    )
    dig = digits_task(1000, 0.2, seed)
    out["index: digits (l2), n = 1,000"] = index_check(
        dig.X_train, dig.X_test, "euclidean", [0.0, 0.1, 0.5, 1.0]
    )
    st = string_task(1000, 300, seed=seed)
    out["index: strings (edit), n = 1,000"] = index_check(
        st.X_train, st.X_test, "edit", [0.0, 0.5], repeats=1
    )
    out["edit distances: reference vs rapidfuzz, 300 x 300"] = edit_distance_benchmark(seed=seed)
    return out


def edit_distance_benchmark(n: int = 300, repeats: int = 3, seed: int = 0) -> pd.DataFrame:
    """Time :func:`~mlgeom.metric_nn.spaces.edit_distance_matrix` against its reference.

    Both compute the ``n x n`` edit distances between the test and training strings of
    :func:`mlgeom.metric_nn.tasks.string_task` (prototypes of 20 symbols, mutated): the
    reference is the numpy-vectorised Wagner-Fischer programme the package used before
    RapidFuzz (``_edit_distance_matrix_reference``). Best of ``repeats`` runs each; the
    ``speed-up`` column is the reference's time over each row's, and ``identical`` says whether
    the two matrices agree bit for bit. Volatile: printed, never stored.
    """
    from mlgeom.metric_nn.spaces import _edit_distance_matrix_reference, edit_distance_matrix
    from mlgeom.metric_nn.tasks import string_task

    st = string_task(n, n, seed=seed)
    rows, reference = [], None
    for name, fn in (
        ("numpy Wagner-Fischer (reference)", _edit_distance_matrix_reference),
        ("rapidfuzz cdist, workers=1", edit_distance_matrix),
    ):
        best = float("inf")
        for _ in range(repeats):
            t0 = time.perf_counter()
            D = fn(st.X_test, st.X_train)
            best = min(best, time.perf_counter() - t0)
        reference = D if reference is None else reference
        rows.append(
            {"method": name, "seconds": best, "identical": D.tobytes() == reference.tobytes()}
        )
    for row in rows:
        row["speed-up"] = rows[0]["seconds"] / row["seconds"]
    return pd.DataFrame(rows).set_index("method")


def backend_benchmark(backends: Iterable[str] = ("sequential", "joblib", "dask")) -> list[dict]:
    """Time one chapter sweep on each backend against the plain loop (``sequential``).

    The sweep is :func:`mlgeom.metric_nn.experiments.k_sweep_srm` at the book's size (5 values
    of k, 3 samples each: 15 SRM fits). Each backend runs it twice; the second run is timed, so
    that worker and cluster start-up are not counted. Volatile: printed by :func:`main`.
    """

    def sweep():
        return k_sweep_srm([2, 4, 8, 16, 32], n=1000, beta=20.0, D=2, reps=3, seed=0, grid=100)

    rows, reference = [], None
    saved = os.environ.get("MLGEOM_BACKEND")
    try:
        for name in backends:
            os.environ["MLGEOM_BACKEND"] = name
            sweep()  # start-up: workers, imports, the local cluster
            t0 = time.perf_counter()
            table = sweep()
            wall = time.perf_counter() - t0
            reference = table if reference is None else reference
            rows.append({"backend": name, "seconds": wall, "identical": table.equals(reference)})
    finally:
        if saved is None:
            os.environ.pop("MLGEOM_BACKEND", None)
        else:
            os.environ["MLGEOM_BACKEND"] = saved
    for row in rows:
        row["speed-up"] = rows[0]["seconds"] / row["seconds"]
    return rows


def main(argv: list[str] | None = None) -> int:
    """``python -m mlgeom.metric_nn.bench [--backends [BACKEND ...]]``: print the benchmarks.

    Without arguments: :func:`benchmark` (SRM training time, ball tree against brute force,
    edit distances against the reference).
    With ``--backends``: :func:`backend_benchmark`, the sweep's wall time per backend, as ratios
    against the first backend named (default: ``sequential``, the plain loop).
    """
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] != "--backends":
        with pd.option_context("display.width", 160, "display.max_columns", 20):
            for name, table in benchmark().items():
                print(f"\n== {name}\n{table.round(4)}")
        return 0
    rows = backend_benchmark(args[1:] or ("sequential", "joblib", "dask"))
    print(f"k_sweep_srm at book size, {n_jobs_default()} workers, after a warm-up run:")
    for row in rows:
        print(
            f"  {row['backend']:>10s}: {row['seconds']:6.2f} s, speed-up "
            f"{row['speed-up']:.2f}x vs {rows[0]['backend']}, identical: {row['identical']}"
        )
    close_dask()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
