"""Experiment drivers of the geometry-primer chapter (``notebooks/geometry_primer``).

Each function runs one of the chapter's experiments from the algorithms in the concept
modules and returns plain tables and arrays; the notebook calls them, draws the figures and
records the claims. Every function is deterministic for an ``int`` seed (or advances a
``Generator``), and every repeated run gets its own child stream (:func:`mlgeom.random.spawn`),
so a sweep gives the same numbers however it is split. The sweeps (over margins, ε, kernels,
feature counts and sample sizes, with their repetitions) run through
:func:`mlgeom.parallel.pmap`: the children are spawned here, in the order of the plain loop,
and each task gets its own, so the backend never changes a number.

References
----------
.. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning" (slides and the
   implementation hints of *Mathematical Foundations for Data Analysis*).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from mlgeom.algorithms import kernels, random_features
from mlgeom.algorithms import perceptrons as perceptron
from mlgeom.book.plotting import COLORS
from mlgeom.parallel import pmap
from mlgeom.primer import kernel_perceptrons as kp
from mlgeom.primer import polytope_distance, range_spaces
from mlgeom.random import Seed, as_generator, spawn

__all__ = [
    "GilbertSweep",
    "gilbert_sweep",
    "halfplane_sample_sweep",
    "kde_error_sweep",
    "kernel_perceptron_table",
    "planar_benchmarks",
    "max_margin_perceptron_sweep",
    "mistake_bound_sweep",
    "plot_decision_regions",
    "rff_error_sweep",
]


def mistake_bound_sweep(
    gammas: Sequence[float], n: int, d: int, reps: int, *, seed: Seed
) -> pd.DataFrame:
    r"""Run the perceptron on planted-margin data sets, ``reps`` per margin.

    Slides "Geometry of Why Perceptron Works": at most :math:`1/\gamma^2` updates when
    :math:`\|x\| \le 1` and the margin is :math:`\gamma`.

    Parameters
    ----------
    gammas : sequence of float
        Planted margins, each in (0, 1).
    n, d : int
        Points per data set and dimension.
    reps : int
        Data sets per margin.
    seed : int or numpy.random.Generator
        Root of the random streams (one child per margin, one grandchild per data set).

    Returns
    -------
    pandas.DataFrame
        One row per data set: ``gamma``, ``bound`` (:math:`1/\gamma^2`), ``updates``
        (including the initial :math:`w = y_1x_1`), ``converged``, ``separates``.
    """
    tasks = [
        (gamma, n, d, rep_rng)
        for gamma, rng in zip(gammas, spawn(seed, len(gammas)), strict=True)
        for rep_rng in spawn(rng, reps)
    ]
    return pd.DataFrame(pmap(_mistake_bound_run, tasks, desc="perceptron: margins × data sets"))


def _mistake_bound_run(task: tuple[float, int, int, np.random.Generator]) -> dict[str, Any]:
    gamma, n, d, rng = task
    X, y, _ = perceptron.planted_margin_data(n, d, gamma, seed=rng)
    res = perceptron.perceptron(X, y)
    return {
        "gamma": gamma,
        "bound": 1 / gamma**2,
        "updates": res.n_updates + 1,
        "converged": res.converged,
        "separates": bool(perceptron.margin(X, y, res.w) >= 0),
    }


@dataclass(frozen=True, eq=False)
class GilbertSweep:
    r"""Gilbert's algorithm run for :math:`\lceil 1/(\varepsilon\gamma^2) \rceil` steps.

    Attributes
    ----------
    table : pandas.DataFrame
        Indexed by ``eps``: ``steps``, ``gilbert_distance``, ``certificate`` (slab width),
        ``qp_gamma``, ``lhs`` (:math:`(1-\varepsilon)\|\hat p - \hat q\|`) and ``holds``.
    gamma : float
        The exact polytope distance (QP).
    longest : mlgeom.primer.polytope_distance.GilbertResult
        The run with the most steps (its histories are drawn).
    """

    table: pd.DataFrame
    gamma: float
    longest: Any


def gilbert_sweep(P: Any, Q: Any, eps_grid: Sequence[float]) -> GilbertSweep:
    r"""Check the slides' polytope-distance guarantee at every ``eps`` of the grid.

    Slides "Polytope Distance": after :math:`1/(\varepsilon\gamma^2)` steps,
    :math:`(1-\varepsilon)\|\hat p - \hat q\| \le \gamma`.
    """
    gamma = polytope_distance.polytope_distance_qp(P, Q).distance
    all_steps = [int(np.ceil(1 / (eps * gamma**2))) for eps in eps_grid]
    runs = pmap(_gilbert_run, [(P, Q, steps) for steps in all_steps], desc="Gilbert: ε grid")
    rows, longest, most_steps = [], None, -1
    for eps, steps, g in zip(eps_grid, all_steps, runs, strict=True):
        if steps > most_steps:  # Gilbert is deterministic: keep the longest run, no re-run
            longest, most_steps = g, steps
        lhs = (1 - eps) * g.distance
        rows.append(
            {
                "eps": eps,
                "steps": steps,
                "gilbert_distance": g.distance,
                "certificate": g.lower_bound,
                "qp_gamma": gamma,
                "lhs": lhs,
                "holds": bool(lhs <= gamma),
            }
        )
    return GilbertSweep(pd.DataFrame(rows).set_index("eps"), gamma, longest)


def _gilbert_run(task: tuple[Any, Any, int]) -> Any:
    P, Q, steps = task
    return polytope_distance.gilbert(P, Q, n_iter=steps)


def max_margin_perceptron_sweep(X: Any, y: Any, eps_grid: Sequence[float]) -> pd.DataFrame:
    r"""Margin of the most-violated-point perceptron after :math:`1/(\varepsilon\gamma_0^2)` steps.

    :math:`\gamma_0` is the best margin through the origin: the norm of the minimum-norm
    point of :math:`\mathrm{conv}\{\sigma(x)x\}` (the polytope distance to the origin).

    Returns
    -------
    pandas.DataFrame
        Indexed by ``eps``: ``steps``, ``margin`` reached, ``target``
        (:math:`(1-\varepsilon)\gamma_0`), ``gamma0``, ``holds``.
    """
    X_ = np.asarray(X, dtype=float)
    y_ = np.asarray(y, dtype=float)
    signed = y_[:, None] * X_
    gamma0 = polytope_distance.polytope_distance_qp(signed, np.zeros((1, X_.shape[1]))).distance
    all_steps = [int(np.ceil(1 / (eps * gamma0**2))) for eps in eps_grid]
    reached_all = pmap(
        _max_margin_run, [(X_, y_, steps) for steps in all_steps], desc="max-margin perceptron"
    )
    rows = []
    for eps, steps, reached in zip(eps_grid, all_steps, reached_all, strict=True):
        target = (1 - eps) * gamma0
        rows.append(
            {
                "eps": eps,
                "steps": steps,
                "margin": reached,
                "target": target,
                "gamma0": gamma0,
                "holds": bool(reached >= target),
            }
        )
    return pd.DataFrame(rows).set_index("eps")


def _max_margin_run(task: tuple[np.ndarray, np.ndarray, int]) -> float:
    X, y, steps = task
    mm = perceptron.max_margin_perceptron(X, y, n_steps=steps)
    return perceptron.margin(X, y, mm.w)


def kernel_perceptron_table(
    datasets: Mapping[str, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]],
    kernel_specs: Mapping[str, Mapping[str, Any]],
    max_updates: int,
) -> tuple[pd.DataFrame, dict[tuple[str, str], Any]]:
    r"""Train the cyclic kernel perceptron on every (data set, kernel) pair.

    Besides training and test error, each row carries the RKHS margin :math:`\gamma_0`
    (:func:`mlgeom.primer.kernel_perceptrons.rkhs_margin`) and Novikoff's bound
    :math:`R^2/\gamma_0^2`
    with :math:`R^2 = \max_i K(x_i, x_i)`.

    Parameters
    ----------
    datasets : mapping
        ``name -> (X_train, y_train, X_test, y_test)`` with labels in {-1, +1}.
    kernel_specs : mapping
        ``name -> keyword arguments of kernel_perceptron`` (``kernel``, ``degree``, ...).
    max_updates : int
        Update budget of each run.

    Returns
    -------
    table : pandas.DataFrame
        Indexed by (data, kernel).
    fits : dict
        ``(data, kernel) -> KernelPerceptron`` (for drawing decision regions).
    """
    tasks = [
        (dname, data, kname, dict(spec), max_updates)
        for dname, data in datasets.items()
        for kname, spec in kernel_specs.items()
    ]
    results = pmap(_kernel_perceptron_run, tasks, desc="kernel perceptron: data × kernels")
    fits = {(t[0], t[2]): model for t, (_, model) in zip(tasks, results, strict=True)}
    rows = [row for row, _ in results]
    return pd.DataFrame(rows).set_index(["data", "kernel"]), fits


def _kernel_perceptron_run(task: tuple) -> tuple[dict[str, Any], Any]:
    dname, (Xtr, ytr, Xte, yte), kname, spec, max_updates = task
    model = kp.kernel_perceptron(Xtr, ytr, rule="cyclic", max_updates=max_updates, **spec)
    R2 = float(np.max(np.diag(kernels.kernel_matrix(Xtr, Xtr, **spec))))
    gamma0 = kp.rkhs_margin(Xtr, ytr, **spec)
    row = {
        "data": dname,
        "kernel": kname,
        "updates": model.n_updates + 1,
        "converged": model.converged,
        "train_error": float(np.mean(model.predict(Xtr) != ytr)),
        "test_error": float(np.mean(model.predict(Xte) != yte)),
        "gamma0": gamma0,
        "bound": R2 / gamma0**2,
    }
    return row, model


def plot_decision_regions(ax: Any, model: Any, *, resolution: int = 150, pad: float = 0.3) -> None:
    """Draw the sign of a kernel perceptron's signed KDE, its zero level set and its data."""
    X, y = model.X, model.y
    lo, hi = X.min(0) - pad, X.max(0) + pad
    gx, gy = np.meshgrid(
        np.linspace(lo[0], hi[0], resolution), np.linspace(lo[1], hi[1], resolution)
    )
    f = model.decision_function(np.c_[gx.ravel(), gy.ravel()]).reshape(gx.shape)
    ax.contourf(
        gx,
        gy,
        np.sign(f),
        levels=[-2, 0, 2],
        colors=[COLORS["negative"], COLORS["positive"]],
        alpha=0.2,
    )
    ax.contour(gx, gy, f, levels=[0], colors="k", linewidths=1)
    ax.scatter(*X[y > 0].T, s=6, color=COLORS["positive"])
    ax.scatter(*X[y < 0].T, s=6, color=COLORS["negative"])
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")


def rff_error_sweep(X: Any, rhos: Sequence[int], reps: int, *, seed: Seed) -> np.ndarray:
    r"""Sup-norm error of random Fourier features over all pairs of ``X``.

    Rahimi & Recht: additive error :math:`\varepsilon` with :math:`\rho = \tilde
    O(1/\varepsilon^2)` features (slides "Sketched Kernel SVM Algorithm").

    Returns
    -------
    numpy.ndarray of shape (len(rhos), reps)
        :math:`\max_{x,p} |\phi(x)^\top\phi(p) - K(x,p)|` for independent feature draws
        (fresh child streams for every :math:`\rho`).
    """
    X_ = np.asarray(X, dtype=float)
    parent = as_generator(seed)
    tasks = [(X_, rho, g) for rho in rhos for g in spawn(parent, reps)]
    errors = pmap(_rff_run, tasks, desc="random features: ρ × draws")
    return np.array(errors, dtype=float).reshape(len(rhos), reps)


def _rff_run(task: tuple[np.ndarray, int, np.random.Generator]) -> float:
    X, rho, g = task
    return random_features.rff_sup_error(
        X, random_features.random_fourier_features(X.shape[1], rho, seed=g)
    )


def kde_error_sweep(
    X: Any, queries: Any, sizes: Sequence[int], reps: int, *, seed: Seed
) -> np.ndarray:
    r""":math:`\|\mathrm{KDE}_X - \mathrm{KDE}_S\|_\infty` on ``queries`` for random samples S.

    Slides "Recent Results": :math:`|S| = O(\nu/\varepsilon^2)` gives error
    :math:`\le \varepsilon` (Gaussian kernel, bandwidth 1). ``KDE_X`` is evaluated once.

    Returns
    -------
    numpy.ndarray of shape (len(sizes), reps)
        The sup error for each sample size and independent sample (without replacement).
    """
    X_ = np.asarray(X, dtype=float)
    full = kernels.kde(X_, queries)
    tasks = [
        (X_, queries, full, m, g)
        for m, rng in zip(sizes, spawn(seed, len(sizes)), strict=True)
        for g in spawn(rng, reps)
    ]
    errors = pmap(_kde_run, tasks, desc="KDE: sample sizes × samples")
    return np.array(errors, dtype=float).reshape(len(sizes), reps)


def _kde_run(task: tuple) -> float:
    X, queries, full, m, g = task
    sample = X[g.choice(X.shape[0], m, replace=False)]
    return float(np.abs(kernels.kde(sample, queries) - full).max())


def halfplane_sample_sweep(
    X: Any, sizes: Sequence[int], reps: int, n_directions: int, *, seed: Seed
) -> tuple[np.ndarray, np.ndarray]:
    r"""Random samples of ``X`` as ε-samples and ε-nets for halfplanes.

    Slides "VC-dimension and Sample Complexity": ε-samples need :math:`O(\nu/\varepsilon^2)`
    points, ε-nets :math:`O((\nu/\varepsilon)\log(\nu/\varepsilon))`.

    Returns
    -------
    deviation, net_gap : numpy.ndarray of shape (len(sizes), reps)
        :func:`mlgeom.primer.range_spaces.halfplane_discrepancy` and
        :func:`mlgeom.primer.range_spaces.halfplane_net_gap` of each sample.
    """
    X_ = np.asarray(X, dtype=float)
    tasks = [
        (X_, m, g, n_directions)
        for m, rng in zip(sizes, spawn(seed, len(sizes)), strict=True)
        for g in spawn(rng, reps)
    ]
    pairs = np.array(pmap(_halfplane_run, tasks, desc="halfplanes: sample sizes × samples"))
    pairs = pairs.reshape(len(sizes), reps, 2)
    return pairs[..., 0].copy(), pairs[..., 1].copy()


def _halfplane_run(task: tuple) -> tuple[float, float]:
    X, m, g, n_directions = task
    S = X[g.choice(X.shape[0], m, replace=False)]
    return (
        float(range_spaces.halfplane_discrepancy(X, S, n_directions=n_directions)),
        float(range_spaces.halfplane_net_gap(X, S, n_directions=n_directions)),
    )


def planar_benchmarks(
    n: int, *, seed: Seed
) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """Two non-separable planar data sets, rings and moons, each split ``n`` train / ``n`` test.

    scikit-learn's ``make_circles`` (noise 0.08, factor 0.5) and ``make_moons`` (noise 0.15),
    seeded from child streams of ``seed``; labels mapped to {-1, +1}.
    """
    from sklearn.datasets import make_circles, make_moons

    rings_rng, moons_rng = spawn(seed, 2)
    raw = {
        "rings": make_circles(
            n_samples=2 * n, noise=0.08, factor=0.5, random_state=int(rings_rng.integers(2**31))
        ),
        "moons": make_moons(
            n_samples=2 * n, noise=0.15, random_state=int(moons_rng.integers(2**31))
        ),
    }
    out = {}
    for name, (X, y) in raw.items():
        y = np.where(y == 1, 1.0, -1.0)
        out[name] = (X[:n], y[:n], X[n:], y[n:])
    return out
