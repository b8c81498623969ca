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

from mlgeom._validation import (
    check_in,
    check_int_vector,
    check_labels,
    check_matrix,
    check_positive_int,
    check_real,
    check_vector,
    check_vector_in,
)
from mlgeom.algorithms import kernels, random_features
from mlgeom.algorithms import perceptrons as perceptron
from mlgeom.book.plotting import COLORS
from mlgeom.parallel import pmap
from mlgeom.primer import (
    discrepancy,
    perceptron_proof,
    polytope_distance,
    range_spaces,
    sketched_svm,
)
from mlgeom.primer import kernel_perceptrons as kp
from mlgeom.random import Seed, as_generator, spawn

__all__ = [
    "GAMMA0_TOL",
    "CoresetSweep",
    "GilbertSweep",
    "MOST_VIOLATED_EPS",
    "feature_dimension_sweep",
    "frank_wolfe_sweep",
    "gilbert_sweep",
    "HalvingSweep",
    "halfplane_sample_sweep",
    "halving_sweep",
    "kde_error_sweep",
    "kernel_perceptron_table",
    "lift_runs",
    "max_margin_perceptron_sweep",
    "max_margin_seed_sweep",
    "mistake_bound_sweep",
    "novikoff_alignment",
    "novikoff_alignment_sweep",
    "offset_margin_data",
    "perceptron_proof_sweep",
    "per_seed_slopes",
    "planar_benchmarks",
    "plot_decision_regions",
    "priority_bias_draws",
    "priority_k_compare",
    "rff_error_sweep",
    "rkhs_normalized_margin",
    "sgd_sweep",
    "sketched_perceptron_sweep",
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
    tasks = _planted_margin_tasks(gammas, n, d, reps, seed)
    return pd.DataFrame(pmap(_mistake_bound_run, tasks, desc="perceptron: margins × data sets"))


def _planted_margin_tasks(
    gammas: Sequence[float], n: int, d: int, reps: int, seed: Seed
) -> list[tuple[float, int, int, np.random.Generator]]:
    """Validate a planted-margin sweep and give one task per data set.

    One child stream of ``seed`` per margin, one grandchild per data set (the layout the
    mistake-bound and alignment sweeps share, so that each keeps its numbers).
    """
    gammas = [
        float(g)
        for g in check_vector_in(
            gammas, "gammas", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False
        )
    ]
    n = check_positive_int(n, "n")
    d = check_positive_int(d, "d")
    reps = check_positive_int(reps, "reps")
    return [
        (gamma, n, d, rep_rng)
        for gamma, rng in zip(gammas, spawn(seed, len(gammas)), strict=True)
        for rep_rng in spawn(rng, reps)
    ]


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


def novikoff_alignment(X: Any, y: Any, w_star: Any, gamma: float) -> float:
    r"""Ratio :math:`\langle w, w^*\rangle / (\gamma (t + 1))` of the perceptron's final ``w``.

    Novikoff's first step (slides "Geometry of Why Perceptron Works", in the form the proof
    needs rather than the printed :math:`\gamma^2 t`): every added point :math:`y_i x_i` has
    :math:`\langle y_i x_i, w^*\rangle \ge \gamma`, so after the start :math:`w = y_1 x_1`
    and :math:`t` updates the unnormalised :math:`w` has
    :math:`\langle w, w^*\rangle \ge \gamma (t + 1)`; the ratio is at least 1 whenever
    ``w_star`` separates ``X`` with margin ``gamma``.

    Parameters
    ----------
    X : array_like of shape (n, d)
        Points, one per row.
    y : array_like of shape (n,)
        Labels in ``{-1, +1}``.
    w_star : array_like of shape (d,)
        The unit normal that separates ``X`` with margin ``gamma``.
    gamma : float
        The margin of ``w_star``, in (0, 1).

    Returns
    -------
    float
        :math:`\langle w_{\text{raw}}, w^*\rangle / (\gamma (t + 1))` for the cyclic
        perceptron (:func:`mlgeom.algorithms.perceptrons.perceptron`) run on ``X, y``.

    Examples
    --------
    >>> novikoff_alignment([[0.5, 0.8], [0.6, -0.8]], [1, 1], [1.0, 0.0], 0.5)
    1.1
    """
    X = check_matrix(X, "X")
    w_star = check_vector(w_star, "w_star", size=X.shape[1])
    gamma = check_real(gamma, "gamma", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
    res = perceptron.perceptron(X, y)
    return float(res.w_raw @ w_star) / (gamma * (res.n_updates + 1))


def novikoff_alignment_sweep(
    gammas: Sequence[float], n: int, d: int, reps: int, *, seed: Seed
) -> pd.DataFrame:
    r"""Novikoff's alignment ratio on planted-margin data sets, ``reps`` per margin.

    Each data set is drawn by :func:`mlgeom.algorithms.perceptrons.planted_margin_data` from
    its own stream (one child of ``seed`` per margin, one grandchild per data set, as in
    :func:`mistake_bound_sweep`) and measured by :func:`novikoff_alignment`.

    Parameters
    ----------
    gammas : sequence of float
        Planted margins, each in (0, 1).
    n, d : int
        Points per data set and dimension.
    reps : int
        Data sets per margin.
    seed : int or numpy.random.Generator
        Root of the random streams.

    Returns
    -------
    pandas.DataFrame
        One row per data set: ``gamma`` and ``ratio``
        (:math:`\langle w, w^*\rangle / (\gamma (t + 1))`).
    """
    tasks = _planted_margin_tasks(gammas, n, d, reps, seed)
    return pd.DataFrame(pmap(_alignment_run, tasks, desc="perceptron: alignment ⟨w, w*⟩"))


def _alignment_run(task: tuple[float, int, int, np.random.Generator]) -> dict[str, Any]:
    gamma, n, d, rng = task
    X, y, w_star = perceptron.planted_margin_data(n, d, gamma, seed=rng)
    return {"gamma": gamma, "ratio": novikoff_alignment(X, y, w_star, gamma)}


def perceptron_proof_sweep(
    gammas: Sequence[float], n: int, d: int, reps: int, *, seed: Seed
) -> pd.DataFrame:
    r"""Evaluate the slides' perceptron-proof steps on planted-margin data, ``reps`` per margin.

    Slides "Geometry of Why Perceptron Works": each data set is drawn by
    :func:`mlgeom.algorithms.perceptrons.planted_margin_data` from its own stream (one child
    of ``seed`` per margin, one grandchild per data set, as in :func:`mistake_bound_sweep`) and
    measured by :func:`mlgeom.primer.perceptron_proof.perceptron_proof_steps` with the planted
    unit separator as :math:`w'`.

    Parameters
    ----------
    gammas : sequence of float
        Planted margins, each in (0, 1).
    n, d : int
        Points per data set and dimension.
    reps : int
        Data sets per margin.
    seed : int or numpy.random.Generator
        Root of the random streams.

    Returns
    -------
    pandas.DataFrame
        One row per data set: ``gamma``, ``updates`` (:math:`t`), ``norm_ratio``
        (:math:`\|w\|^2/(t+1)`), ``cauchy_schwarz_gap``
        (:math:`1 - \langle w, w'\rangle/\|w\|`) and ``max_misclassified_share`` (the
        largest share of misclassified points at an update; NaN without updates).
    """
    tasks = _planted_margin_tasks(gammas, n, d, reps, seed)
    return pd.DataFrame(pmap(_proof_steps_run, tasks, desc="perceptron: proof steps"))


def _proof_steps_run(task: tuple[float, int, int, np.random.Generator]) -> dict[str, Any]:
    gamma, n, d, rng = task
    X, y, w_star = perceptron.planted_margin_data(n, d, gamma, seed=rng)
    steps = perceptron_proof.perceptron_proof_steps(X, y, w_star)
    share = steps.misclassified_share
    return {
        "gamma": gamma,
        "updates": steps.n_updates,
        "norm_ratio": steps.norm_ratio,
        "cauchy_schwarz_gap": steps.cauchy_schwarz_gap,
        "max_misclassified_share": float(share.max()) if share.size else float("nan"),
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
    eps_grid = _check_eps_grid(eps_grid)
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


def _check_eps_grid(eps_grid: Any) -> list[float]:
    """Return the grid of ε as a list of floats, each in (0, 1), or raise naming ``eps_grid``."""
    arr = check_vector_in(
        eps_grid, "eps_grid", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False
    )
    return [float(e) for e in arr]


def _gilbert_run(task: tuple[Any, Any, int]) -> Any:
    P, Q, steps = task
    return polytope_distance.gilbert(P, Q, n_iter=steps)


def max_margin_seed_sweep(
    n: int, d: int, gamma: float, eps_grid: Sequence[float], n_seeds: int, *, seed: Seed
) -> pd.DataFrame:
    r"""Most-violated-point perceptron against the plain perceptron on ``n_seeds`` data sets.

    Slide "Perceptron Algorithm" (argmin variant): after :math:`1/(\varepsilon\gamma_0^2)`
    steps the margin is at least :math:`(1-\varepsilon)\gamma_0`. Each data set is drawn by
    :func:`mlgeom.algorithms.perceptrons.planted_margin_data` (planted margin ``gamma``) from its
    own child stream; :math:`\gamma_0` is the exact best margin through the origin (QP). The
    strawman is the plain cyclic perceptron (LAST-UPDATE rule) on the same data set, whose
    margin is compared with the same target :math:`(1-\varepsilon)\gamma_0`.

    Parameters
    ----------
    n, d : int
        Points per data set and dimension.
    gamma : float
        Planted margin, in (0, 1).
    eps_grid : sequence of float
        The :math:`\varepsilon` values, each in (0, 1).
    n_seeds : int
        Number of independent data sets (>= 1).
    seed : int or numpy.random.Generator
        Root of the data streams (one child per data set).

    Returns
    -------
    pandas.DataFrame
        One row per (data set, :math:`\varepsilon`): ``seed`` (index of the data set), ``eps``,
        ``steps``, ``gamma0``, ``target``, ``margin`` (most-violated rule), ``plain_margin``
        (plain perceptron), ``ratio`` and ``plain_ratio`` (margin / target).
    """
    n = check_positive_int(n, "n")
    d = check_positive_int(d, "d")
    gamma = check_real(gamma, "gamma", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
    eps = _check_eps_grid(eps_grid)
    n_seeds = check_positive_int(n_seeds, "n_seeds")
    tasks = [(n, d, gamma, eps, g) for g in spawn(seed, n_seeds)]
    frames = pmap(_max_margin_seed_run, tasks, desc="max-margin perceptron: data sets")
    out = []
    for i, frame in enumerate(frames):
        frame.insert(0, "seed", i)
        out.append(frame)
    return pd.concat(out, ignore_index=True)


def _max_margin_seed_run(task: tuple) -> pd.DataFrame:
    n, d, gamma, eps_grid, g = task
    X, y, _ = perceptron.planted_margin_data(n, d, gamma, seed=g)
    table = max_margin_perceptron_sweep(X, y, eps_grid, n_jobs=1)
    plain = perceptron.margin(X, y, perceptron.perceptron(X, y).w)
    table = table.reset_index()
    table["plain_margin"] = plain
    table["ratio"] = table["margin"] / table["target"]
    table["plain_ratio"] = plain / table["target"]
    return table.drop(columns="holds")


def max_margin_perceptron_sweep(
    X: Any, y: Any, eps_grid: Sequence[float], *, n_jobs: int | None = None
) -> pd.DataFrame:
    r"""Margin of the most-violated-point perceptron after :math:`1/(\varepsilon\gamma_0^2)` steps.

    :math:`\gamma_0` is the best margin through the origin: the norm of the minimum-norm
    point of :math:`\mathrm{conv}\{\sigma(x)x\}` (the polytope distance to the origin).

    Returns
    -------
    pandas.DataFrame
        Indexed by ``eps``: ``steps``, ``margin`` reached, ``target``
        (:math:`(1-\varepsilon)\gamma_0`), ``gamma0``, ``holds``.
    """
    X_ = check_matrix(X, "X")
    y_ = check_labels(y, X_.shape[0], "y")
    eps_grid = _check_eps_grid(eps_grid)
    if n_jobs is not None:
        n_jobs = check_positive_int(n_jobs, "n_jobs")
    signed = y_[:, None] * X_
    gamma0 = polytope_distance.polytope_distance_qp(signed, np.zeros((1, X_.shape[1]))).distance
    all_steps = [int(np.ceil(1 / (eps * gamma0**2))) for eps in eps_grid]
    reached_all = pmap(
        _max_margin_run,
        [(X_, y_, steps) for steps in all_steps],
        n_jobs=n_jobs,
        desc="max-margin perceptron",
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


#: RKHS margins below this are reported as "not separable": the QP solver's tolerance, below
#: which :math:`\gamma_0` is round-off and :math:`R^2/\gamma_0^2` would print noise.
GAMMA0_TOL = 1e-6

#: The :math:`\varepsilon` of the slides' most-violated kernel perceptron in
#: :func:`kernel_perceptron_table`: :math:`R^2/(\varepsilon\gamma_0^2)` steps guarantee an RKHS
#: margin of at least :math:`(1-\varepsilon)\gamma_0 > 0`, hence zero training error.
MOST_VIOLATED_EPS = 0.5


def rkhs_normalized_margin(alpha: Any, y: Any, K: Any) -> float:
    r"""RKHS margin :math:`\min_j y_j f(x_j) / \|f\|_{\mathcal H}` of a kernel perceptron.

    For :math:`f = \sum_i \alpha_i y_i K(x_i, \cdot)`, :math:`f(x_j) = (K a)_j` and
    :math:`\|f\|^2 = a^\top K a` with :math:`a = \alpha \circ y` (the reproducing property).

    Parameters
    ----------
    alpha : array_like of shape (n,)
        Update counts (dual coefficients), not all zero.
    y : array_like of shape (n,)
        Labels in {-1, +1}.
    K : array_like of shape (n, n)
        The Gram matrix of the training points.

    Returns
    -------
    float
        The normalised margin; positive iff ``f`` classifies every point strictly correctly.
    """
    alpha_ = check_vector(alpha, "alpha")
    y_ = check_labels(y, alpha_.size, "y")
    a = alpha_ * y_
    K_ = check_matrix(K, "K")
    if K_.shape != (a.size, a.size):
        raise ValueError(f"K must have shape ({a.size}, {a.size}); got {K_.shape}")
    norm2 = float(a @ K_ @ a)
    if not norm2 > 0:
        raise ValueError(f"f has RKHS norm² {norm2!r}; alpha must not be all zero")
    return float(np.min(y_ * (K_ @ a)) / np.sqrt(norm2))


def kernel_perceptron_table(
    datasets: Mapping[str, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]],
    kernel_specs: Mapping[str, Mapping[str, Any]],
    max_updates: int,
) -> tuple[pd.DataFrame, dict[tuple[str, str], Any]]:
    r"""Train the cyclic kernel perceptron on every (data set, kernel) pair.

    Each run gets the update budget Novikoff's theorem guarantees in the RKHS,
    :math:`\lceil R^2/\gamma_0^2 \rceil` with :math:`R^2 = \max_i K(x_i, x_i)` and
    :math:`\gamma_0` the RKHS margin (:func:`mlgeom.primer.kernel_perceptrons.rkhs_margin`),
    capped at ``max_updates``; where :math:`\gamma_0 <` :data:`GAMMA0_TOL` (not separable up to
    the solver's tolerance) the budget is ``max_updates`` and ``bound`` is NaN. The strawman,
    the linear perceptron (no kernel) with the same budget on the same data, is run beside it
    (``linear_train_error``).

    Parameters
    ----------
    datasets : mapping
        ``name -> (X_train, y_train, X_test, y_test)`` with labels in {-1, +1}.
    kernel_specs : mapping
        ``name -> keyword arguments of kernel_perceptron`` (``kernel``, ``degree``, ...).
    max_updates : int
        Cap on the update budget of each run.

    Returns
    -------
    table : pandas.DataFrame
        Indexed by (data, kernel): ``updates`` (including the start), ``budget``,
        ``converged``, ``train_error``, ``test_error``, ``gamma0``, ``separable``
        (:math:`\gamma_0 \ge` :data:`GAMMA0_TOL`), ``bound`` (:math:`R^2/\gamma_0^2`, NaN when
        not separable), ``linear_train_error``, and the slides' most-violated rule run for
        :math:`\min(\lceil R^2/(\varepsilon\gamma_0^2)\rceil, \text{max\_updates})` steps
        (0 where the data are not separable in the RKHS)
        with :math:`\varepsilon` = :data:`MOST_VIOLATED_EPS`: ``mv_steps``, ``mv_complete``
        (the guaranteed number of steps fit in the cap), ``mv_train_error``,
        ``mv_margin_ratio`` (its RKHS margin over :math:`(1-\varepsilon)\gamma_0`) and
        ``cyclic_margin_ratio`` (the same ratio for the cyclic run).
    fits : dict
        ``(data, kernel) -> KernelPerceptron`` (for drawing decision regions).
    """
    max_updates = check_positive_int(max_updates, "max_updates")
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
    R2 = float(np.max(np.diag(kernels.kernel_matrix(Xtr, Xtr, **spec))))
    gamma0 = kp.rkhs_margin(Xtr, ytr, **spec)
    separable = bool(gamma0 >= GAMMA0_TOL)
    bound = R2 / gamma0**2 if separable else float("nan")
    # Novikoff in the RKHS: at most R^2/gamma0^2 updates, counting the start w = y_1 K(x_1, .)
    budget = int(min(np.ceil(bound), max_updates)) if separable else int(max_updates)
    model = kp.kernel_perceptron(Xtr, ytr, rule="cyclic", max_updates=budget - 1, **spec)
    linear = perceptron.perceptron(Xtr, ytr, max_updates=budget - 1)
    # slides "Kernel Perceptron Algorithm": argmin sigma(x) KDE_W(x) for R^2/(eps gamma0^2) steps
    K = kernels.kernel_matrix(Xtr, Xtr, **spec)
    mv_needed = R2 / (MOST_VIOLATED_EPS * gamma0**2) if separable else float("inf")
    # not separable in the RKHS: no step count is guaranteed, so the rule is not run
    mv_steps = int(min(np.ceil(mv_needed), max_updates)) if separable else 0
    slides = kp.kernel_perceptron(Xtr, ytr, rule="most_violated", n_steps=mv_steps, **spec)
    target = (1 - MOST_VIOLATED_EPS) * gamma0
    row = {
        "data": dname,
        "kernel": kname,
        "updates": model.n_updates + 1,
        "budget": budget,
        "converged": model.converged,
        "train_error": float(np.mean(model.predict(Xtr) != ytr)),
        "test_error": float(np.mean(model.predict(Xte) != yte)),
        "gamma0": gamma0,
        "separable": separable,
        "bound": bound,
        "linear_train_error": float(np.mean(np.where(Xtr @ linear.w >= 0, 1.0, -1.0) != ytr)),
        "mv_steps": mv_steps,
        "mv_complete": bool(separable and mv_steps >= mv_needed),
        "mv_train_error": float(np.mean(slides.predict(Xtr) != ytr)),
        "mv_margin_ratio": rkhs_normalized_margin(slides.alpha, ytr, K) / target
        if separable
        else float("nan"),
        "cyclic_margin_ratio": rkhs_normalized_margin(model.alpha, ytr, K) / target
        if separable
        else float("nan"),
    }
    return row, model


def plot_decision_regions(ax: Any, model: Any, *, resolution: int = 150, pad: float = 0.3) -> None:
    """Draw the sign of a kernel perceptron's signed KDE, its zero level set and its data."""
    resolution = check_positive_int(resolution, "resolution", minimum=2)
    pad = check_real(pad, "pad", low=0.0)
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
    X_ = check_matrix(X, "X")
    rhos = [int(r) for r in check_int_vector(rhos, "rhos")]
    reps = check_positive_int(reps, "reps")
    parent = as_generator(seed)
    tasks = [(X_, rho, g) for rho in rhos for g in spawn(parent, reps)]
    errors = pmap(_rff_run, tasks, desc="random features: ρ × draws")
    return np.array(errors, dtype=float).reshape(len(rhos), reps)


def _rff_run(task: tuple[np.ndarray, int, np.random.Generator]) -> float:
    X, rho, g = task
    return random_features.rff_sup_error(
        X, random_features.random_fourier_features(X.shape[1], rho, seed=g)
    )


def sketched_perceptron_sweep(
    datasets: Mapping[str, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]],
    rhos: Sequence[int],
    n_draws: int,
    n_steps: Mapping[str, int],
    *,
    seed: Seed,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    r"""Run the slides' sketched kernel SVM beside the exact kernel perceptron, over :math:`\rho`.

    Slides "Sketched Kernel SVM Algorithm": the most-violated-point perceptron run on
    :math:`\rho` random Fourier features of the Gaussian kernel :math:`\exp(-\|x - p\|^2)`
    (:func:`mlgeom.primer.sketched_svm.sketched_kernel_perceptron`) approximates the kernel
    perceptron (:func:`mlgeom.primer.kernel_perceptron`, ``rule="most_violated"``) as
    :math:`\rho` grows (Rahimi and Recht: additive kernel error :math:`\varepsilon` in
    :math:`\rho = \tilde O(1/\varepsilon^2)`). Both run the same number of steps on each data
    set; so does the strawman, the linear perceptron with the same rule
    (:func:`mlgeom.algorithms.perceptrons.max_margin_perceptron` on the raw points).

    Parameters
    ----------
    datasets : mapping
        ``name -> (X_train, y_train, X_test, y_test)`` with labels in {-1, +1}.
    rhos : sequence of int
        Numbers of features :math:`\rho` (each >= 1).
    n_draws : int
        Independent feature maps per :math:`\rho` (>= 1); one map serves every data set.
    n_steps : mapping
        ``name -> steps`` (>= 1) for every data set, e.g. the slides'
        :math:`\lceil R^2/(\varepsilon\gamma_0^2)\rceil` capped.
    seed : int or numpy.random.Generator
        Root of the feature draws (one child per :math:`\rho`, one grandchild per draw).

    Returns
    -------
    runs : pandas.DataFrame
        One row per (:math:`\rho`, draw, data set): ``rho``, ``draw``, ``data``,
        ``train_error``, ``test_error`` of the sketched perceptron and ``gap``, the larger of
        its training and test errors' distances to the exact kernel perceptron's.
    reference : pandas.DataFrame
        Indexed by data set: ``steps``, ``exact_train_error``, ``exact_test_error``,
        ``linear_train_error``, ``linear_test_error`` and ``linear_gap`` (the same gap for
        the linear perceptron).
    """
    if not isinstance(datasets, Mapping) or not datasets:
        raise ValueError(f"datasets must be a non-empty mapping; got {datasets!r}")
    if not isinstance(n_steps, Mapping) or set(n_steps) != set(datasets):
        raise ValueError(
            f"n_steps must map every data set {sorted(datasets)} to a step count; got {n_steps!r}"
        )
    steps = {name: check_positive_int(n_steps[name], f"n_steps[{name!r}]") for name in datasets}
    data = {}
    for name, (Xtr, ytr, Xte, yte) in datasets.items():
        Xtr_ = check_matrix(Xtr, f"X_train of {name!r}")
        Xte_ = check_matrix(Xte, f"X_test of {name!r}", n_cols=Xtr_.shape[1])
        data[name] = (
            Xtr_,
            check_labels(ytr, Xtr_.shape[0], f"y_train of {name!r}"),
            Xte_,
            check_labels(yte, Xte_.shape[0], f"y_test of {name!r}"),
        )
    dims = {X.shape[1] for X, _, _, _ in data.values()}
    if len(dims) != 1:
        raise ValueError(f"the data sets must share one dimension; got {sorted(dims)}")
    rhos = [int(r) for r in check_int_vector(rhos, "rhos")]
    n_draws = check_positive_int(n_draws, "n_draws")
    d = dims.pop()
    ref_rows = pmap(
        _exact_sketch_reference,
        [(name, data[name], steps[name]) for name in data],
        desc="sketched SVM: exact and linear references",
    )
    reference = pd.DataFrame(ref_rows).set_index("data")
    tasks = [
        (rho, draw, g, data, steps, d)
        for rho, rng in zip(rhos, spawn(seed, len(rhos)), strict=True)
        for draw, g in enumerate(spawn(rng, n_draws))
    ]
    rows = [
        row for chunk in pmap(_sketch_run, tasks, desc="sketched SVM: ρ × draws") for row in chunk
    ]
    runs = pd.DataFrame(rows)
    exact_tr = runs["data"].map(reference["exact_train_error"])
    exact_te = runs["data"].map(reference["exact_test_error"])
    runs["gap"] = np.maximum(
        (runs["train_error"] - exact_tr).abs(), (runs["test_error"] - exact_te).abs()
    )
    return runs, reference


def _error(pred: np.ndarray, y: np.ndarray) -> float:
    return float(np.mean(pred != y))


def _exact_sketch_reference(task: tuple) -> dict[str, Any]:
    name, (Xtr, ytr, Xte, yte), steps = task
    # slides "Kernel Perceptron Algorithm": x' = argmin sigma(x) KDE_W(x), the exact kernel
    exact = kp.kernel_perceptron(Xtr, ytr, "gaussian", rule="most_violated", n_steps=steps)
    # the strawman: the same rule on the raw points (slides "Perceptron Algorithm")
    w = perceptron.max_margin_perceptron(Xtr, ytr, n_steps=steps).w
    row = {
        "data": name,
        "steps": steps,
        "exact_train_error": _error(exact.predict(Xtr), ytr),
        "exact_test_error": _error(exact.predict(Xte), yte),
        "linear_train_error": _error(np.where(Xtr @ w >= 0, 1.0, -1.0), ytr),
        "linear_test_error": _error(np.where(Xte @ w >= 0, 1.0, -1.0), yte),
    }
    row["linear_gap"] = max(
        abs(row["linear_train_error"] - row["exact_train_error"]),
        abs(row["linear_test_error"] - row["exact_test_error"]),
    )
    return row


def _sketch_run(task: tuple) -> list[dict[str, Any]]:
    rho, draw, g, data, steps, d = task
    # slides "Sketched Kernel SVM Algorithm": phi : X -> R^rho (Rahimi and Recht)
    phi = random_features.random_fourier_features(d, rho, seed=g)
    out = []
    for name, (Xtr, ytr, Xte, yte) in data.items():
        model = sketched_svm.sketched_kernel_perceptron(Xtr, ytr, phi, n_steps=steps[name])
        out.append(
            {
                "rho": rho,
                "draw": draw,
                "data": name,
                "train_error": _error(model.predict(Xtr), ytr),
                "test_error": _error(model.predict(Xte), yte),
            }
        )
    return out


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
    X_ = check_matrix(X, "X")
    queries = check_matrix(queries, "queries", n_cols=X_.shape[1])
    sizes = [int(m) for m in check_int_vector(sizes, "sizes", maximum=X_.shape[0])]
    reps = check_positive_int(reps, "reps")
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
    X: Any,
    sizes: Sequence[int],
    reps: int,
    n_directions: int | None = None,
    *,
    seed: Seed,
    exact: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    r"""Random samples of ``X`` as ε-samples and ε-nets for halfplanes.

    Slides "VC-dimension and Sample Complexity": ε-samples need :math:`O(\nu/\varepsilon^2)`
    points, ε-nets :math:`O((\nu/\varepsilon)\log(\nu/\varepsilon))`. Each sample is drawn
    without replacement from its own child stream of ``seed``, so the samples do not depend on
    ``exact`` or ``n_directions``: only how the maximum over halfplanes is taken does.

    Parameters
    ----------
    X : array_like of shape (n, 2)
        The ground set (with ``exact=True``: distinct points, no three collinear).
    sizes : sequence of int
        Sample sizes, each at most ``n``.
    reps : int
        Samples per size.
    n_directions : int or None, default=None
        With ``exact=False`` (required there): the grid of directions of
        :func:`mlgeom.primer.range_spaces.halfplane_discrepancy` and
        :func:`mlgeom.primer.range_spaces.halfplane_net_gap`, whose maxima are lower bounds
        on the suprema over all halfplanes. With ``exact=True`` there is no grid, and it
        must be left ``None``.
    seed : int or numpy.random.Generator
        Root of the samples' streams.
    exact : bool, default=False
        Take both maxima over all halfplanes with
        :class:`mlgeom.primer.discrepancy.HalfplaneSweep` (:math:`O(n^2 \log n)` set-up per
        worker, :math:`O(n^2)` per sample and quantity).

    Returns
    -------
    deviation, net_gap : numpy.ndarray of shape (len(sizes), reps)
        The ε-sample deviation and the ε-net gap of each sample.
    """
    X_ = check_matrix(X, "X", n_cols=2)
    sizes = [int(m) for m in check_int_vector(sizes, "sizes", maximum=X_.shape[0])]
    reps = check_positive_int(reps, "reps")
    if not isinstance(exact, bool | np.bool_):
        raise ValueError(f"exact must be a bool; got {exact!r}")
    if exact and n_directions is not None:
        raise ValueError(
            f"n_directions is the grid of exact=False and must be None with exact=True; "
            f"got {n_directions!r}"
        )
    if not exact:
        if n_directions is None:
            raise ValueError("n_directions is required with exact=False (the grid of directions)")
        n_directions = check_positive_int(n_directions, "n_directions")
    draws = [
        (m, g)
        for m, rng in zip(sizes, spawn(seed, len(sizes)), strict=True)
        for g in spawn(rng, reps)
    ]
    if exact:
        # One sweep per chunk: the set-up is shared by the chunk's samples, and the chunks
        # (not the n^2 set-up) are what is sent to the workers.
        chunks = [draws[k::_EXACT_CHUNKS] for k in range(_EXACT_CHUNKS)]
        parts = pmap(
            _halfplane_exact_chunk,
            [(X_, c) for c in chunks],
            desc="halfplanes (exact): chunks of samples",
        )
        pairs = np.empty((len(draws), 2))
        for k, part in enumerate(parts):
            pairs[k::_EXACT_CHUNKS] = part
    else:
        tasks = [(X_, m, g, n_directions) for m, g in draws]
        pairs = np.array(pmap(_halfplane_run, tasks, desc="halfplanes: sample sizes × samples"))
    pairs = pairs.reshape(len(sizes), reps, 2)
    return pairs[..., 0].copy(), pairs[..., 1].copy()


# Number of chunks the exact halfplane sweep splits its samples into (one set-up each).
_EXACT_CHUNKS = 2


def _halfplane_run(task: tuple) -> tuple[float, float]:
    X, m, g, n_directions = task
    S = X[g.choice(X.shape[0], m, replace=False)]
    return (
        float(range_spaces.halfplane_discrepancy(X, S, n_directions=n_directions)),
        float(range_spaces.halfplane_net_gap(X, S, n_directions=n_directions)),
    )


def _halfplane_exact_chunk(task: tuple) -> np.ndarray:
    X, draws = task
    sweep = discrepancy.HalfplaneSweep(X)
    out = np.empty((len(draws), 2))
    for k, (m, g) in enumerate(draws):
        idx = g.choice(X.shape[0], m, replace=False)
        out[k] = sweep.deviation(idx), sweep.net_gap(idx)
    return out


@dataclass(frozen=True)
class HalvingSweep:
    r"""Exact halfplane deviations of halving and random ε-samples (:func:`halving_sweep`).

    Attributes
    ----------
    sizes : numpy.ndarray
        The sample sizes.
    halving, random : numpy.ndarray of shape (len(sizes), reps)
        Deviation of the discrepancy-halving sample and of a uniform random sample of the same
        size.
    compare_size : int
        The size at which a second, independent random sample is drawn.
    random2 : numpy.ndarray of shape (reps,)
        Deviation of that second random sample (the strawman of the comparison).
    """

    sizes: np.ndarray
    halving: np.ndarray
    random: np.ndarray
    compare_size: int
    random2: np.ndarray


def halving_sweep(
    X: Any, sizes: Sequence[int], reps: int, *, compare_size: int, seed: Seed
) -> HalvingSweep:
    r"""Discrepancy-halving ε-samples of ``X`` against random samples, deviations exact.

    Slide "VC-dimension and Sample Complexity": ε-samples of size
    :math:`O(1/\varepsilon^{2-2/(\nu+1)})` exist, against :math:`O(\nu/\varepsilon^2)` for
    random samples. For each of ``reps`` child streams of ``seed``: one halving run
    (:func:`mlgeom.primer.discrepancy.halving_sample`, nested over the sizes), a uniform
    sample without replacement at each size, and a second independent one at
    ``compare_size``; every deviation is computed exactly over all halfplanes by
    :class:`mlgeom.primer.discrepancy.HalfplaneSweep`.

    Parameters
    ----------
    X : array_like of shape (n, 2)
        Distinct points, no three collinear; ``n`` = each size times a power of 2.
    sizes : sequence of int
        Sample sizes (each >= 1 and dividing ``n`` by a power of 2).
    reps : int
        Number of independent seeds.
    compare_size : int
        One of ``sizes``.
    seed : int or numpy.random.Generator
        Root of the seeds.

    Returns
    -------
    HalvingSweep
    """
    sweep = discrepancy.HalfplaneSweep(X)
    n = sweep.n
    sizes_ = [int(m) for m in check_int_vector(sizes, "sizes", minimum=1, maximum=n)]
    reps = check_positive_int(reps, "reps")
    if compare_size not in sizes_:
        raise ValueError(f"compare_size must be one of sizes {sizes_}; got {compare_size!r}")
    out = np.empty((2, len(sizes_), reps))
    random2 = np.empty(reps)
    for r, g in enumerate(spawn(seed, reps)):
        g_halve, g_rand, g_rand2 = spawn(g, 3)
        state = g_halve.bit_generator.state
        for i, m in enumerate(sizes_):
            g_halve.bit_generator.state = state  # the same coins: nested halving samples
            out[0, i, r] = sweep.deviation(discrepancy.halving_sample(sweep.X, m, g_halve))
            out[1, i, r] = sweep.deviation(g_rand.choice(n, m, replace=False))
        random2[r] = sweep.deviation(g_rand2.choice(n, int(compare_size), replace=False))
    return HalvingSweep(np.asarray(sizes_), out[0], out[1], int(compare_size), random2)


def planar_benchmarks(
    n: int, *, seed: Seed
) -> dict[str, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """Two non-separable planar data sets, rings and moons, each split ``n`` train / ``n`` test.

    scikit-learn's ``make_circles`` (noise 0.08, factor 0.5) and ``make_moons`` (noise 0.15),
    seeded from child streams of ``seed``; labels mapped to {-1, +1}.
    """
    from sklearn.datasets import make_circles, make_moons

    n = check_positive_int(n, "n")
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


def per_seed_slopes(x: Sequence[float], values: Any) -> np.ndarray:
    r"""Log–log slope of each column of ``values`` against ``x`` (one fit per seed).

    A rate claim ("error :math:`\sim m^{-1/2}`") is judged on the interval of these slopes
    over independent seeds (:func:`mlgeom.stats.mean_interval`), not on one fit to the means.

    Parameters
    ----------
    x : sequence of float
        The sizes (positive), one per row of ``values``.
    values : array_like of shape (len(x), n_seeds)
        Positive measurements; column ``j`` is one independent sequence of runs.

    Returns
    -------
    numpy.ndarray of shape (n_seeds,)
        The least-squares slope of :math:`\log` values against :math:`\log x`, per column.
    """
    from mlgeom.stats import loglog_slope

    xs = check_vector_in(x, "x", low=0.0, low_inclusive=False)
    v = check_matrix(values, "values")
    if v.ndim != 2 or v.shape[0] != xs.size:
        raise ValueError(
            f"values must have shape (len(x), n_seeds) = ({xs.size}, ...); got {v.shape}"
        )
    return np.array([loglog_slope(xs, v[:, j]).slope for j in range(v.shape[1])])


def priority_bias_draws(
    weights: Any, k: int, n_draws: int, *, seed: Seed
) -> tuple[np.ndarray, np.ndarray]:
    r"""Errors :math:`W' - W` of priority sampling and of its uncorrected strawman.

    Priority sampling (Duffield, Lund and Thorup) keeps the :math:`k` largest priorities
    :math:`w_i/u_i` and gives each kept item :math:`\max(w_i, \tau)`; the strawman keeps the
    same items with their raw weights :math:`w_i` (no :math:`\tau` correction), on the same
    draws.

    Returns
    -------
    priority, naive : numpy.ndarray of shape (n_draws,)
        :math:`W' - W` for each independent draw (own child stream), for both estimators.
    """
    from mlgeom.algorithms.sampling import _check_weights, priority_sample

    w = _check_weights(weights)
    k = check_positive_int(k, "k")
    n_draws = check_positive_int(n_draws, "n_draws")
    total = float(w.sum())
    ours, naive = np.empty(n_draws), np.empty(n_draws)
    for i, g in enumerate(spawn(seed, n_draws)):
        s = priority_sample(w, k, seed=g)
        ours[i] = s.estimate - total
        naive[i] = float(w[s.indices].sum()) - total
    return ours, naive


def feature_dimension_sweep(
    dims: Sequence[int], degree: int, *, seed: Seed, oversample: float = 1.5
) -> pd.DataFrame:
    r"""Dimension of the polynomial kernel's feature space, measured as a Gram-matrix rank.

    The kernel :math:`(1 + \langle x, p\rangle)^r` on :math:`\mathbb R^d` is the inner product
    of an explicit map onto all monomials of degree :math:`\le r`, with
    :math:`\binom{d + r}{r}` coordinates (slides "Kernels" print :math:`\mathbb R^{O(rd)}`).
    The rank of the Gram matrix of more than that many random points equals the dimension of
    the map's span; we compute it numerically (``numpy.linalg.matrix_rank``).

    Parameters
    ----------
    dims : sequence of int
        Input dimensions :math:`d` (each >= 1).
    degree : int
        The degree :math:`r` (>= 1).
    seed : int or numpy.random.Generator
        Root of the random points (one child stream per :math:`d`).
    oversample : float, default=1.5
        Points drawn per expected feature (> 1).

    Returns
    -------
    pandas.DataFrame
        Indexed by ``d``: ``points``, ``rank``, ``binomial`` (:math:`\binom{d+r}{r}`) and
        ``r*d``.
    """
    from math import comb

    dims = [int(d) for d in check_int_vector(dims, "dims")]
    degree = check_positive_int(degree, "degree")
    oversample = check_real(oversample, "oversample", low=1.0, low_inclusive=False)
    rows = []
    for d, g in zip(dims, spawn(seed, len(dims)), strict=True):
        expected = comb(int(d) + degree, degree)
        m = int(np.ceil(oversample * expected)) + 5
        Z = g.normal(size=(m, int(d))) / np.sqrt(d)
        K = kernels.kernel_matrix(Z, Z, "polynomial", degree=degree)
        rows.append(
            {
                "d": int(d),
                "points": m,
                "rank": int(np.linalg.matrix_rank(K)),
                "binomial": expected,
                "r*d": degree * int(d),
            }
        )
    return pd.DataFrame(rows).set_index("d")


def _uniform_ball(rng: np.random.Generator, n: int, d: int) -> np.ndarray:
    """``n`` points uniform in the unit ball of R^d."""
    g = rng.standard_normal((n, d))
    g /= np.linalg.norm(g, axis=1, keepdims=True)
    return g * rng.random(n)[:, None] ** (1.0 / d)


def offset_margin_data(
    n: int, gamma: float, offset: float, *, seed: Seed
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Planar data separable by a line that misses the origin (slide "Force h through Origin").

    :func:`mlgeom.algorithms.perceptrons.planted_margin_data` in the plane (margin
    :math:`\gamma` about a line through the origin with unit normal :math:`w^*`), shrunk by
    :math:`1/2` and moved by ``offset`` along :math:`w^*`: the points fill a disc of radius
    :math:`1/2` centred at :math:`\text{offset}\cdot w^*`, split by the line
    :math:`\langle w^*, x\rangle = \text{offset}` with margin :math:`\gamma/2`.

    Parameters
    ----------
    n : int
        Number of points (at least 2).
    gamma : float
        Planted margin of the unshifted data, in (0, 1).
    offset : float
        Distance of the separating line from the origin (> 0).
    seed : int or numpy.random.Generator
        Random stream.

    Returns
    -------
    X : numpy.ndarray of shape (n, 2)
    y : numpy.ndarray of shape (n,)
    w_star : numpy.ndarray of shape (2,)
        The unit normal of the separating line.
    """
    n = check_positive_int(n, "n", minimum=2)
    offset = check_real(offset, "offset", low=0.0, low_inclusive=False)
    X, y, w_star = perceptron.planted_margin_data(n, 2, gamma, seed=seed)
    return 0.5 * X + offset * w_star, y, w_star


def lift_runs(
    n: int,
    gamma: float,
    offset: float,
    n_sets: int,
    *,
    max_updates: int,
    grid: int = 41,
    seed: Seed,
) -> pd.DataFrame:
    r"""Run the perceptron with and without the lift :math:`p \mapsto (p, 1)`, per data set.

    On each of ``n_sets`` independent :func:`offset_margin_data` sets: the perceptron on the
    lifted points (:func:`mlgeom.primer.lifting.lifted_perceptron`) and on the raw points
    (a halfspace through the origin of the plane), both with the update cap ``max_updates``;
    and the agreement, on the data and on a ``grid`` × ``grid`` grid over its bounding box,
    between the lifted halfspace :math:`\operatorname{sign}\langle w, (p, 1)\rangle` and its
    affine reading :math:`\operatorname{sign}(\langle w_{1..2}, p\rangle + w_3)`.

    Returns
    -------
    pandas.DataFrame
        One row per set: ``lifted_error``, ``plain_error`` (training errors), ``agreement``
        (share of data and grid points), ``lifted_converged``, ``lifted_updates``.
    """
    from mlgeom.primer import lifting

    n_sets = check_positive_int(n_sets, "n_sets")
    max_updates = check_positive_int(max_updates, "max_updates")
    grid = check_positive_int(grid, "grid", minimum=2)
    rows = []
    for g in spawn(seed, n_sets):
        X, y, _ = offset_margin_data(n, gamma, offset, seed=g)
        m = lifting.lifted_perceptron(X, y, max_updates=max_updates)
        plain = perceptron.perceptron(X, y, max_updates=max_updates)
        lo, hi = X.min(axis=0), X.max(axis=0)
        gx, gy = np.meshgrid(np.linspace(lo[0], hi[0], grid), np.linspace(lo[1], hi[1], grid))
        Q = np.vstack([X, np.column_stack([gx.ravel(), gy.ravel()])])
        through_origin = np.where(lifting.lift(Q) @ m.w >= 0.0, 1, -1)
        rows.append(
            {
                "lifted_error": _error(m.predict(X), y),
                "plain_error": _error(np.where(X @ plain.w >= 0.0, 1, -1), y),
                "agreement": float(np.mean(through_origin == m.predict(Q))),
                "lifted_converged": m.result.converged,
                "lifted_updates": m.result.n_updates,
            }
        )
    return pd.DataFrame(rows)


@dataclass(frozen=True, eq=False)
class CoresetSweep:
    r"""Outcome of :func:`frank_wolfe_sweep`.

    Attributes
    ----------
    steps : numpy.ndarray of shape (k,)
        The step counts :math:`t`.
    fw, random : numpy.ndarray of shape (k, n_seeds)
        :math:`\|w_t - \mu\|` of Frank–Wolfe, and of the mean of :math:`t + 1` uniform draws.
    support : numpy.ndarray of shape (k, n_seeds)
        The Frank–Wolfe coreset sizes.
    bound_ratio : numpy.ndarray of shape (n_seeds,)
        :math:`\max_{1 \le t \le T}\|w_t - \mu\|\sqrt{t + 2}/4` per seed (Jaggi's bound).
    """

    steps: np.ndarray
    fw: np.ndarray
    random: np.ndarray
    support: np.ndarray
    bound_ratio: np.ndarray


def frank_wolfe_sweep(
    n: int,
    d: int,
    steps: Sequence[int],
    n_seeds: int,
    *,
    points: str = "ball",
    seed: Seed,
) -> CoresetSweep:
    r"""Frank–Wolfe coresets for the mean against random subsets of the same size.

    For each seed: ``n`` points uniform in the unit ball of :math:`\mathbb{R}^d`
    (``points="ball"``: the mean lies deep inside the hull and Frank–Wolfe soon converges
    linearly), ``n`` independent uniform unit vectors (``points="sphere"``, :math:`n \le d`:
    a random simplex whose shape, not only its position, changes with the seed; near the
    worst case of the :math:`t^{-1/2}` rate when :math:`n \approx d`), or ``n`` orthonormal
    vectors (``points="simplex"``, :math:`n \le d`: a regular
    simplex under a random orthogonal map, the reflection :math:`I - 2vv^\top` for a random
    unit :math:`v`, whose centroid no fewer than :math:`n` vertices represent
    exactly; any :math:`k` vertices stay at distance at least :math:`\sqrt{1/k - 1/n}` from it,
    the worst case of the :math:`t^{-1/2}` rate), one run of
    :func:`mlgeom.primer.coresets.frank_wolfe_mean` up to ``max(steps)``, and, at each
    :math:`t` in ``steps``, the mean of :math:`t + 1` points drawn uniformly with replacement
    (the strawman coreset of the same size; slide "Coresets for Optimization").

    Returns
    -------
    CoresetSweep
    """
    from mlgeom.primer import coresets

    n = check_positive_int(n, "n", minimum=2)
    d = check_positive_int(d, "d")
    ts = check_int_vector(steps, "steps")
    n_seeds = check_positive_int(n_seeds, "n_seeds")
    points = check_in(points, "points", ("ball", "simplex", "sphere"))
    if points in ("simplex", "sphere") and n > d:
        raise ValueError(f"points={points!r} needs n <= d; got n = {n}, d = {d}")
    T = int(ts.max())
    fw = np.empty((ts.size, n_seeds))
    rnd = np.empty_like(fw)
    sup = np.empty_like(fw)
    ratio = np.empty(n_seeds)
    for j, g in enumerate(spawn(seed, n_seeds)):
        if points == "simplex":  # n rows of a random Householder reflection I − 2vvᵀ
            v = g.standard_normal(d)
            v /= np.linalg.norm(v)
            X = np.eye(n, d) - 2.0 * np.outer(v[:n], v)
        elif points == "sphere":  # n independent uniform unit vectors
            X = g.standard_normal((n, d))
            X /= np.linalg.norm(X, axis=1, keepdims=True)
        else:
            X = _uniform_ball(g, n, d)
        mu = X.mean(axis=0)
        r = coresets.frank_wolfe_mean(X, T)
        fw[:, j], sup[:, j] = r.errors[ts], r.support[ts]
        t_all = np.arange(1, T + 1)
        ratio[j] = float(np.max(r.errors[1:] * np.sqrt(t_all + 2.0) / 4.0))
        for i, t in enumerate(ts):
            rnd[i, j] = np.linalg.norm(X[g.integers(n, size=t + 1)].mean(axis=0) - mu)
    return CoresetSweep(steps=ts, fw=fw, random=rnd, support=sup, bound_ratio=ratio)


def sgd_sweep(
    n: int,
    d: int,
    checkpoints: Sequence[int],
    n_seeds: int,
    *,
    radius: float,
    noise: float,
    seed: Seed,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Suboptimality of SGD (averaged, :math:`\eta_t = D/(G\sqrt t)`), its strawman and competitor.

    For each seed: ``n`` points uniform in the unit ball of :math:`\mathbb{R}^d`, labels
    :math:`\operatorname{sign}\langle w_0, x\rangle` for a random :math:`w_0` of norm 3, each
    flipped with probability ``noise``; the optimum of :math:`f_X` over
    :math:`\|w\| \le R` by :func:`mlgeom.primer.coresets.logistic_minimum`; then
    :func:`mlgeom.primer.coresets.projected_sgd` with the textbook steps and averaging, and
    with the constant step :math:`D/G` and the last iterate, on the same draws.

    Returns
    -------
    sgd, strawman, last : numpy.ndarray of shape (len(checkpoints), n_seeds)
        :math:`f_X(w) - \min_{\|w\| \le R} f_X` at each checkpoint (floored at
        :math:`10^{-15}`) for averaged SGD with :math:`\eta_t = D/(G\sqrt t)`, for the
        constant step :math:`D/G` and its last iterate (the strawman, which does not converge),
        and for the decaying step :math:`D/(G\sqrt t)` and its last iterate (the natural
        competitor: SGD as usually run, without averaging; its rate is
        :math:`O(\log T/\sqrt T)`, Shamir and Zhang 2013), all on the same draws.
    """
    from mlgeom.primer import coresets

    n = check_positive_int(n, "n", minimum=2)
    d = check_positive_int(d, "d")
    cps = check_int_vector(checkpoints, "checkpoints")
    n_seeds = check_positive_int(n_seeds, "n_seeds")
    noise = check_real(noise, "noise", low=0.0, high=0.5)
    sgd = np.empty((cps.size, n_seeds))
    straw = np.empty_like(sgd)
    last = np.empty_like(sgd)
    for j, g in enumerate(spawn(seed, n_seeds)):
        X = _uniform_ball(g, n, d)
        w0 = g.standard_normal(d)
        w0 *= 3.0 / np.linalg.norm(w0)
        y = np.where(X @ w0 >= 0.0, 1.0, -1.0)
        y[g.random(n) < noise] *= -1.0
        _, f_star = coresets.logistic_minimum(X, y, radius)
        (g_sgd,) = spawn(g, 1)
        state = g_sgd.bit_generator.state
        a = coresets.projected_sgd(X, y, cps, radius=radius, seed=g_sgd)
        g_sgd.bit_generator.state = state  # the same draws for the strawman
        b = coresets.projected_sgd(
            X, y, cps, radius=radius, schedule="constant", average=False, seed=g_sgd
        )
        g_sgd.bit_generator.state = state  # and for the competitor
        c = coresets.projected_sgd(X, y, cps, radius=radius, average=False, seed=g_sgd)
        sgd[:, j] = np.maximum(a - f_star, 1e-15)
        straw[:, j] = np.maximum(b - f_star, 1e-15)
        last[:, j] = np.maximum(c - f_star, 1e-15)
    return sgd, straw, last


def priority_k_compare(
    weights: Any, k: int, n_draws: int, *, seed: Seed
) -> tuple[np.ndarray, np.ndarray]:
    r"""Priority-sampling estimates :math:`W'` at ``k`` and ``k + 1`` on the same priorities.

    The page's remark ("if :math:`k = 5` elements are retained instead of :math:`k = 4` …
    the new weights for several … decrease"): one draw of :math:`u_i` per run, so both
    estimates use the same priorities :math:`w_i/u_i`.

    Returns
    -------
    w_k, w_k1 : numpy.ndarray of shape (n_draws,)
        :math:`W'` with ``k`` and with ``k + 1`` kept items.
    """
    from mlgeom.algorithms.sampling import _check_weights

    w = _check_weights(weights, min_size=2)
    k = check_positive_int(k, "k")
    if k + 1 >= w.size:
        raise ValueError(f"k + 1 must be below the number of weights ({w.size}); got k = {k}")
    n_draws = check_positive_int(n_draws, "n_draws")
    out = np.empty((2, n_draws))
    for i, g in enumerate(spawn(seed, n_draws)):
        rho = w / (1.0 - g.random(w.size))  # u ~ unif(0, 1]
        order = np.argsort(-rho, kind="stable")
        for row, kk in enumerate((k, k + 1)):
            tau = rho[order[kk]]  # the (kk+1)-th largest priority
            out[row, i] = np.maximum(w[order[:kk]], tau).sum()
    return out[0], out[1]
