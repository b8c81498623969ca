r"""Experiment drivers and plots of the maximum-margin multiclass NN chapter (Kontorovich & Weiss).

Each function runs one experiment of ``notebooks/max_margin_multiclass_nn.md`` and returns a
:class:`pandas.DataFrame` (or a small dataclass), so that notebook cells stay short; the
``plot_*`` functions draw the chapter's figures on a given Axes.

The random sweeps (:func:`cover_crosscheck`, :func:`theorem1_sweep`, :func:`theorem1_k_sweep`,
:func:`k_sweep_srm`) run
through :func:`mlgeom.parallel.pmap`, each task with a child stream spawned here in the order of
the plain loop, so the numbers do not depend on the backend. The timing sweeps
(:func:`timing_sweep`, :func:`index_check`) stay sequential: parallel runs would disturb the
wall times they measure.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
import pandas as pd

from mlgeom._validation import (
    check_in,
    check_indices,
    check_int_vector,
    check_matrix,
    check_positive_int,
    check_real,
    check_vector_in,
)
from mlgeom.book.plotting import COLORS, PAPER_STYLE
from mlgeom.metric_nn import bounds as mb
from mlgeom.metric_nn.index import MetricBallTree
from mlgeom.metric_nn.perturbation import delta_eta, eq16_oracle_deviation
from mlgeom.metric_nn.spaces import METRICS, check_metric_input, pairwise_distances
from mlgeom.metric_nn.srm import SRMNearestNeighbors
from mlgeom.metric_nn.surrogates import surrogate_risks
from mlgeom.metric_nn.tasks import RareClassProblem, SoftmaxProblem, Task
from mlgeom.metric_nn.vertex_cover import (
    ConflictPairs,
    exact_vertex_cover,
    is_vertex_cover,
    matching_cover,
    prune_cover,
)
from mlgeom.parallel import pmap
from mlgeom.random import Seed, as_generator, spawn

__all__ = [
    "TaskResult",
    "compare_on_task",
    "cover_crosscheck",
    "eta_bound_table",
    "eta_srm_splits",
    "exact_q_check",
    "exact_q_instances",
    "figure3_crossovers",
    "figure3_table",
    "index_check",
    "k_dependence_table",
    "k_sweep_srm",
    "k_sweep_seeds",
    "knn_cv",
    "lmargin_runs",
    "oracle_deviation_check",
    "random_subset_1nn",
    "ShrinkScan",
    "limit_threshold",
    "shrink_scan",
    "srm_vs_1nn_splits",
    "plot_figure3",
    "plot_q_curve",
    "theorem1_k_sweep",
    "theorem1_sweep",
    "timing_sweep",
]


# ---------------------------------------------------------------------------------------------
# Figure 3 and the k-dependence of the bounds


def _check_bound_params(**params: Any) -> None:
    """Validate the scalar parameters of the bounds (D, k, delta, c_D, fat_factor) by name."""
    for name, value in params.items():
        if name == "k":
            check_positive_int(value, "k", minimum=2)
        elif name == "delta":
            check_real(value, "delta", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
        else:
            check_real(value, name, low=0.0, low_inclusive=False)


def figure3_table(
    L_values: Sequence[float] = (1, 2, 4, 8),
    m_grid: np.ndarray | None = None,
    *,
    D: float = 5,
    k: int = 10,
    delta: float = 0.01,
    c_D: float = mb.C_D_DEFAULT,
    fat_factor: float = 2.0,
) -> pd.DataFrame:
    """Figure 3's curves: Δ_Rad, Δ_fat and their minimum against m for each L (long format)."""
    check_vector_in(L_values, "L_values", low=0.0)
    _check_bound_params(D=D, k=k, delta=delta, c_D=c_D, fat_factor=fat_factor)
    m = (
        np.logspace(6, 15, 181)
        if m_grid is None
        else check_vector_in(m_grid, "m_grid", low=0.0, low_inclusive=False)
    )
    rows = []
    for L in L_values:
        rad = mb.delta_rad(m, L, delta, k, D, c_D)
        fat = mb.delta_fat(m, L, delta, k, D, fat_factor)
        rows.append(
            pd.DataFrame({"L": L, "m": m, "rad": rad, "fat": fat, "min": np.minimum(rad, fat)})
        )
    return pd.concat(rows, ignore_index=True)


def figure3_crossovers(
    L_values: Sequence[float] = (1, 2, 4, 8),
    *,
    D: float = 5,
    k: int = 10,
    delta: float = 0.01,
    c_D: float = mb.C_D_DEFAULT,
) -> pd.DataFrame:
    """Sample size where Δ_fat takes over from Δ_Rad, per L, as printed and without the factor 2."""
    check_vector_in(L_values, "L_values", low=0.0)
    _check_bound_params(D=D, k=k, delta=delta, c_D=c_D)
    rows = []
    for L in L_values:
        rows.append(
            {
                "L": L,
                "crossover m": mb.crossover(L, delta, k, D, c_D, 2.0),
                "crossover m (factor 1)": mb.crossover(L, delta, k, D, c_D, 1.0),
                "Δ at crossover": float(
                    mb.delta_combined(mb.crossover(L, delta, k, D, c_D, 2.0), L, delta, k, D, c_D)
                ),
            }
        )
    return pd.DataFrame(rows).set_index("L")


def plot_figure3(ax: Any, table: pd.DataFrame, crossovers: pd.DataFrame) -> None:
    """Redraw Figure 3: Δ = min(Δ_Rad, Δ_fat) per L, the two terms dotted, crossovers marked."""
    shades = [COLORS["ours"], COLORS["baseline"], COLORS["accent"], COLORS["negative"]]
    for (L, grp), col in zip(table.groupby("L", sort=True), shades, strict=False):
        ax.semilogx(grp["m"], grp["min"], color=col, label=f"D = 5, L = {L:g}")
        ax.semilogx(grp["m"], grp["rad"], color=col, ls=":", lw=1)
        ax.semilogx(grp["m"], grp["fat"], color=col, ls="--", lw=1)
        mx = crossovers.loc[L, "crossover m"]
        ax.plot([mx], [crossovers.loc[L, "Δ at crossover"]], "o", color=col, ms=5)
    ax.plot([], [], "k:", lw=1, label=r"$\Delta_{\rm Rad}$")
    ax.plot([], [], "k--", lw=1, label=r"$\Delta_{\rm fat}$")
    ax.plot([], [], "ko", ms=5, label="crossover")
    ax.set_ylim(0, 1)
    ax.set_xlim(table["m"].min(), table["m"].max())
    ax.set_xlabel("sample size m")
    ax.set_ylabel(r"$\Delta(m, L, \delta)$")
    ax.legend(loc="upper right", ncol=2)


def k_dependence_table(
    ks: Sequence[int], *, n: float, L: float, D: float, delta: float, c_D: float = mb.C_D_DEFAULT
) -> pd.DataFrame:
    r"""Tabulate the bounds' growth in k beside :math:`\sqrt k` (Table 1), relative to the first k.

    Columns: Δ_Rad, Δ_fat, Δ and the square of the fat term's entropy part (exactly affine in
    :math:`\log k`), each divided by its value at ``ks[0]``, beside :math:`\sqrt{k/k_0}`.
    """
    check_int_vector(ks, "ks", minimum=2)
    n = check_real(n, "n", low=0.0, low_inclusive=False)
    L = check_real(L, "L", low=0.0)
    _check_bound_params(D=D, delta=delta, c_D=c_D)
    k = np.asarray(ks, dtype=float)
    rad = mb.delta_rad(n, L, delta, k, D, c_D)
    fat = mb.delta_fat(n, L, delta, k, D)
    comb = np.minimum(rad, fat)
    return pd.DataFrame(
        {
            "k": k.astype(int),
            "Δ_Rad / Δ_Rad(k0)": rad / rad[0],
            "Δ_fat / Δ_fat(k0)": fat / fat[0],
            "Δ / Δ(k0)": comb / comb[0],
            "log(5k) / log(5k0)": np.log(5 * k) / np.log(5 * k[0]),
            "sqrt(k / k0)": np.sqrt(k / k[0]),
        }
    ).set_index("k")


# ---------------------------------------------------------------------------------------------
# SRM against 1-NN and k-NN


def _vote(D: np.ndarray, y: np.ndarray, k: int, n_classes: int) -> np.ndarray:
    idx = np.argsort(D, axis=1, kind="stable")[:, :k]
    counts = np.zeros((len(D), n_classes))
    np.add.at(counts, (np.repeat(np.arange(len(D)), k), y[idx].ravel()), 1.0)
    return np.argmax(counts, axis=1)  # ties: smallest label


def knn_cv(
    D_train: np.ndarray,
    y_train: np.ndarray,
    D_test: np.ndarray,
    n_classes: int,
    ks: Sequence[int] = (1, 3, 5, 9, 15, 25),
    n_folds: int = 5,
    seed: Seed = 0,
) -> tuple[int, np.ndarray]:
    """k-NN with k chosen by ``n_folds``-fold cross-validation on the (noisy) training labels.

    Returns the chosen k and the test predictions (majority vote, ties to the smallest label).
    A ``k`` larger than the points available votes over all of them: within a fold (its
    training part), and in the final vote (all ``n`` training points), where it used to fail
    in numpy's broadcasting.
    """
    D_train = check_matrix(D_train, "D_train")
    n = D_train.shape[0]
    if D_train.shape != (n, n):
        raise ValueError(f"D_train must be square (n, n); got shape {D_train.shape}")
    n_classes = check_positive_int(n_classes, "n_classes")
    y_train = check_indices(y_train, "y_train", n=n_classes, ndim=1)
    if len(y_train) != n:
        raise ValueError(
            f"y_train must have one label per row of D_train ({n}); got {len(y_train)}"
        )
    D_test = check_matrix(D_test, "D_test", n_cols=n)
    ks = check_int_vector(ks, "ks", minimum=1)
    n_folds = check_positive_int(n_folds, "n_folds", minimum=2)
    folds = as_generator(seed).permutation(n) % n_folds
    errs = []
    for k in ks:
        wrong = 0
        for f in range(n_folds):
            va, tr = folds == f, folds != f
            pred = _vote(D_train[np.ix_(va, tr)], y_train[tr], min(k, int(tr.sum())), n_classes)
            wrong += int(np.sum(pred != y_train[va]))
        errs.append(wrong / n)
    best = int(ks[int(np.argmin(errs))])
    return best, _vote(D_test, y_train, min(best, n), n_classes)


def _class_ties(model: SRMNearestNeighbors, D_te: np.ndarray) -> np.ndarray:
    """Test points whose two nearest classes in S_1 are at the same distance (ties of eq. 16)."""
    Ds = D_te[:, model.support_]
    d = np.stack(
        [Ds[:, model.y_support_ == c].min(axis=1, initial=np.inf) for c in range(model.n_classes_)],
        axis=1,
    )
    d.sort(axis=1)
    return d[:, 0] == d[:, 1]


@dataclass(frozen=True)
class TaskResult:
    """SRM-NN against 1-NN and k-NN on one task; ``model`` is the fitted SRM classifier."""

    row: dict
    model: SRMNearestNeighbors


def compare_on_task(
    task: Task, *, delta: float = 0.05, ddim: Any = "auto", seed: Seed = 0
) -> TaskResult:
    """Fit SRM-NN (binary search and exhaustive), 1-NN and CV-tuned k-NN; report test errors.

    Also checks, on this task, that the eq. (16) form predicts like the nearest neighbour in
    :math:`S_1`, the smallest margin :math:`h(x, y)` on :math:`S_1`, and what eq. (13) as
    printed (count plus probability) selects.
    """
    n_classes = int(max(task.y_train.max(), task.y_test.max())) + 1
    D_tr = pairwise_distances(task.X_train, metric=task.metric)
    D_te = pairwise_distances(task.X_test, task.X_train, metric=task.metric)
    fit = lambda **kw: SRMNearestNeighbors(  # noqa: E731
        "precomputed", delta=delta, ddim=ddim, **kw
    ).fit(D_tr, task.y_train)
    srm = fit()
    exh = fit(search="exhaustive")
    printed = fit(q_form="printed")
    err = lambda pred: float(np.mean(pred != task.y_test))  # noqa: E731
    one_nn = task.y_train[np.argmin(D_te, axis=1)]
    k_best, knn = knn_cv(D_tr, task.y_train, D_te, n_classes, seed=seed)
    S1 = srm.support_
    h_s1 = srm.decision_function(D_tr[S1])[np.arange(len(S1)), srm.y_support_]
    row = {
        "task": task.name,
        "n": len(task.y_train),
        "noisy labels": float(np.mean(task.y_train != task.y_train_clean)),
        "ddim": srm.ddim_,
        "L̃": srm.L_,
        "|S1|": len(S1),
        "m̃(L̃)": srm.m_tilde_,
        "Δ(L̃)": srm.delta_,
        "Q(L̃)": srm.Q_,
        "SRM-NN": err(srm.predict(D_te)),
        "SRM-NN (exhaustive)": err(exh.predict(D_te)),
        "1-NN": err(one_nn),
        "k-NN": err(knn),
        "k": k_best,
        "eq16 = NN in S1 (no ties)": float(
            np.mean((srm.predict_eq16(D_te) == srm.predict(D_te))[~_class_ties(srm, D_te)])
        ),
        "min margin on S1": float(h_s1.min()),
        "printed-Q |S1|/n": len(printed.support_) / len(task.y_train),
        "printed-Q m̃": printed.m_tilde_,
        "bichromatic pairs at d = 0": int(np.sum(srm.pairs_.d == 0)),
        "printed-Q error": err(printed.predict(D_te)),
    }
    return TaskResult(row, srm)


def random_subset_1nn(D_test: np.ndarray, y_train: np.ndarray, size: int, seed: Seed) -> np.ndarray:
    """Predict by 1-NN on ``size`` training points drawn uniformly at random (SRM's strawman).

    SRM-NN predicts with the nearest neighbour in a subset :math:`S_1`; this baseline keeps a
    subset of the same size chosen without looking at the labels or the margin, so that a gain
    of SRM-NN over 1-NN that this baseline also shows is owed to the size of :math:`S_1`, not to
    its selection.

    Parameters
    ----------
    D_test : numpy.ndarray, shape (m, n)
        Test-to-train distances.
    y_train : numpy.ndarray, shape (n,)
        Training labels.
    size : int
        Number of training points kept, ``1 <= size <= n``.
    seed : int or numpy.random.Generator
        Randomness of the subset.

    Returns
    -------
    numpy.ndarray, shape (m,)
        Predicted labels.
    """
    D_test = check_matrix(D_test, "D_test")
    n = len(y_train)
    if D_test.ndim != 2 or D_test.shape[1] != n:
        raise ValueError(f"D_test must have shape (m, {n}); got {D_test.shape}")
    if isinstance(size, bool) or not isinstance(size, int | np.integer) or not 1 <= size <= n:
        raise ValueError(f"size must be an integer in [1, {n}]; got {size!r}")
    keep = np.sort(as_generator(seed).choice(n, size=int(size), replace=False))
    return np.asarray(y_train)[keep[np.argmin(D_test[:, keep], axis=1)]]


def _split_errors(task: tuple) -> dict[str, Any]:
    """One seed of :func:`srm_vs_1nn_splits`: test errors of SRM-NN and its comparators."""
    make_task, seed, delta = task
    r_task, r_cv, r_sub = spawn(seed, 3)
    t = make_task(r_task)
    n_classes = int(max(t.y_train.max(), t.y_test.max())) + 1
    D_tr = pairwise_distances(t.X_train, metric=t.metric)
    D_te = pairwise_distances(t.X_test, t.X_train, metric=t.metric)
    srm = SRMNearestNeighbors("precomputed", delta=delta).fit(D_tr, t.y_train)
    err = lambda pred: float(np.mean(pred != t.y_test))  # noqa: E731
    k_best, knn = knn_cv(D_tr, t.y_train, D_te, n_classes, seed=r_cv)
    return {
        "task": t.name,
        "|S1|/n": len(srm.support_) / len(t.y_train),
        "L̃ = 0 (limit)": srm.L_ == 0.0,
        "SRM-NN": err(srm.predict(D_te)),
        "1-NN": err(t.y_train[np.argmin(D_te, axis=1)]),
        "random-subset 1-NN": err(random_subset_1nn(D_te, t.y_train, len(srm.support_), r_sub)),
        "CV k-NN": err(knn),
        "k": k_best,
    }


def srm_vs_1nn_splits(
    make_task: Any, seeds: int, seed: Seed, *, delta: float = 0.05
) -> pd.DataFrame:
    """SRM-NN against 1-NN, CV k-NN and random-subset 1-NN over independent random splits.

    Parameters
    ----------
    make_task : callable
        ``make_task(rng) -> Task``: draws one split (and its label noise) from ``rng``.
    seeds : int
        Number of independent splits (child streams of ``seed``).
    seed : int or numpy.random.Generator
        Root of the splits.

    Returns
    -------
    pandas.DataFrame
        One row per split (index ``seed``): test errors of SRM-NN, 1-NN, the random-subset
        baseline (:func:`random_subset_1nn`, same size as :math:`S_1`) and CV-tuned k-NN.
    """
    if not callable(make_task):
        raise ValueError(f"make_task must be a callable rng -> Task; got {make_task!r:.60}")
    seeds = check_positive_int(seeds, "seeds")
    _check_bound_params(delta=delta)
    tasks = [(make_task, r, delta) for r in spawn(seed, int(seeds))]
    rows = pmap(_split_errors, tasks, desc="SRM-NN vs 1-NN: random splits")
    return pd.DataFrame(rows).rename_axis("seed")


# ---------------------------------------------------------------------------------------------
# The SRM as printed: its exact minimiser, and how far the bound would have to shrink


def limit_threshold(model: SRMNearestNeighbors) -> tuple[float, float]:
    r"""Return the largest c at which :math:`\tilde m(L)/n + c\Delta` prefers some L > 0.

    Section 4 minimises :math:`Q(L) = \tilde m(L)/n + \Delta(n, L, \delta)` (eq. 13 read as a
    rate) over every :math:`L > 0`, the limit :math:`L \to 0` (the majority-class rule, index 0
    of the candidates) included. With the bound scaled by :math:`c > 0`, a candidate
    :math:`L` beats the limit iff
    :math:`(\tilde m(0) - \tilde m(L))/n > c\,(\Delta(L) - \Delta(0))`, so the exact
    minimiser is the limit iff :math:`c \ge c^* = \max_L (\tilde m(0) - \tilde m(L)) /
    (n(\Delta(L) - \Delta(0)))`; just below :math:`c^*` it is the :math:`L^*` attaining the
    maximum. :math:`c^* < 1` means the SRM as printed selects the majority-class rule.

    Parameters
    ----------
    model : SRMNearestNeighbors
        A fitted model (its bound, :math:`\delta`, :math:`c_D` and :math:`D` define
        :math:`\Delta`; ``q_form="rate"``).

    Returns
    -------
    factor : float
        :math:`c^*` (``inf`` when some :math:`L > 0` has both fewer conflicts and no larger
        bound than the limit; ``0.0`` when no :math:`L > 0` has fewer conflicts).
    L : float
        :math:`L^*` (scaled distances, diameter 1), ``nan`` when ``factor`` is 0.
    """
    if not isinstance(model, SRMNearestNeighbors) or not hasattr(model, "pairs_"):
        raise ValueError(f"model must be a fitted SRMNearestNeighbors; got {model!r:.60}")
    if model.q_form != "rate":
        raise ValueError(f"model.q_form must be 'rate'; got {model.q_form!r}")
    q = model.q_curve()  # ascending L, index 0 is the limit L -> 0
    gain = (q.m_tilde[0] - q.m_tilde[1:]) / model.n_train_
    cost = q.delta[1:] - q.delta[0]
    useful = gain > 0
    if not np.any(useful):
        return 0.0, float("nan")
    if np.any(useful & (cost <= 0)):
        j = int(np.flatnonzero(useful & (cost <= 0))[0])
        return float("inf"), float(q.L[1 + j])
    ratio = np.where(useful, gain / np.where(cost > 0, cost, 1.0), -np.inf)
    j = int(np.argmax(ratio))
    return float(ratio[j]), float(q.L[1 + j])


@dataclass(frozen=True)
class ShrinkScan:
    r"""Outcome of :func:`shrink_scan`.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per factor :math:`c`: the exact minimiser :math:`\tilde L_c` of
        :math:`\tilde m(L)/n + c\Delta`, ``|S1|/n`` and the test error of the nearest
        neighbour in its :math:`S_1`.
    threshold : float
        :math:`c^*` of :func:`limit_threshold` (the SRM as printed, :math:`c = 1`, selects the
        limit :math:`L \to 0` iff :math:`c^* \le 1`).
    L_threshold : float
        :math:`L^*`, the first :math:`L > 0` chosen below :math:`c^*`.
    error_threshold : float
        Test error of the SRM classifier at :math:`L^*`.
    reference : dict
        Test errors of the majority class (on the noisy training labels), 1-NN and the binary
        search's SRM-NN at :math:`c = 1`.
    """

    table: pd.DataFrame
    threshold: float
    L_threshold: float
    error_threshold: float
    reference: dict


def _support_error(model: SRMNearestNeighbors, rank: int, D_te: np.ndarray, y: Any, y_te: Any):
    cover = model.pairs_.cover_at(int(rank))
    if model.prune_cover:
        cover = prune_cover(model.pairs_.edges_at(int(rank)), cover)
    keep = np.flatnonzero(~cover)
    pred = np.asarray(y)[keep[np.argmin(D_te[:, keep], axis=1)]]
    return len(keep), float(np.mean(pred != np.asarray(y_te)))


def shrink_scan(task: Task, factors: Sequence[float], *, delta: float = 0.05) -> ShrinkScan:
    r"""Run the exact SRM with the bound scaled by each factor :math:`c`; report its choice.

    Section 4's objective with :math:`c_D = 1` (as Figure 3 is drawn) is
    :math:`Q(L) = \tilde m(L)/n + \Delta(n, L, \delta)`; its exact minimiser over all
    :math:`L > 0` (the limit :math:`L \to 0` included) is the classifier the SRM as printed
    selects; the binary search of eq. (14) only approximates it. Scaling :math:`\Delta` by
    :math:`c < 1` asks how much tighter the bound would have to be for the minimiser to be a
    useful :math:`L`.

    Parameters
    ----------
    task : Task
        The split (labels as class indices; ``y_train`` may be noisy).
    factors : sequence of float
        The factors :math:`c > 0` (1 is the bound as printed).
    delta : float, default=0.05
        Confidence of the bound.

    Returns
    -------
    ShrinkScan
    """
    if not isinstance(task, Task):
        raise ValueError(f"task must be a Task; got {task!r:.60}")
    cs = check_vector_in(factors, "factors", low=0.0, low_inclusive=False)
    _check_bound_params(delta=delta)
    D_tr = pairwise_distances(task.X_train, metric=task.metric)
    D_te = pairwise_distances(task.X_test, task.X_train, metric=task.metric)
    model = SRMNearestNeighbors("precomputed", delta=delta, search="exhaustive").fit(
        D_tr, task.y_train
    )
    binary = SRMNearestNeighbors("precomputed", delta=delta).fit(D_tr, task.y_train)
    q = model.q_curve()
    n = model.n_train_
    rows = []
    for c in cs:
        j = int(np.argmin(q.m_tilde / n + c * q.delta))
        size, err = _support_error(model, q.edges[j], D_te, task.y_train, task.y_test)
        rows.append({"factor": float(c), "L̃": float(q.L[j]), "|S1|/n": size / n, "test error": err})
    c_star, L_star = limit_threshold(model)
    if np.isfinite(L_star):
        j_star = int(np.flatnonzero(q.L == L_star)[0])
        err_star = _support_error(model, q.edges[j_star], D_te, task.y_train, task.y_test)[1]
    else:
        err_star = float("nan")
    labels, counts = np.unique(task.y_train, return_counts=True)
    majority = labels[np.argmax(counts)]
    reference = {
        "majority class": float(np.mean(task.y_test != majority)),
        "1-NN": float(np.mean(task.y_train[np.argmin(D_te, axis=1)] != task.y_test)),
        "SRM-NN (binary search)": float(np.mean(binary.predict(D_te) != task.y_test)),
        "L̃ (binary search)": binary.L_,
    }
    return ShrinkScan(pd.DataFrame(rows), c_star, L_star, err_star, reference)


# ---------------------------------------------------------------------------------------------
# Q(L): the binary search against the exact minimum


def _exact_m_hat(pairs: ConflictPairs, ranks: np.ndarray) -> np.ndarray:
    """Exact minimum vertex cover size at every candidate, by bisection on its monotone steps.

    ``ranks[c]`` is the number of edges of the graph at candidate ``c`` (ascending L, so
    descending ranks; :meth:`ConflictPairs.candidate_ranks`).
    """
    out = np.full(len(ranks), -1, dtype=np.int64)

    def val(c: int) -> int:
        if out[c] < 0:
            out[c] = int(exact_vertex_cover(pairs.edges_at(int(ranks[c])), pairs.n).sum())
        return int(out[c])

    stack = [(0, len(ranks) - 1)]
    while stack:
        lo, hi = stack.pop()
        if val(lo) == val(hi):
            out[lo : hi + 1] = out[lo]
        elif hi - lo > 1:
            mid = (lo + hi) // 2
            stack += [(lo, mid), (mid, hi)]
    return out


def exact_q_check(model: SRMNearestNeighbors) -> tuple[dict, pd.DataFrame]:
    r"""Compare the binary search's :math:`Q(\tilde L)` with the exact minima (small n only).

    Returns a summary (ratios to :math:`\min_L \hat Q` with the exact cover, to
    :math:`\min_L \tilde Q`, the largest :math:`\tilde m/\hat m`) and the curve over all
    candidates, the limit :math:`L \to 0` (``L = 0``) included, so that the minima are over
    all :math:`L > 0`.
    """
    pairs, n = model.pairs_, model.n_train_
    curve = model.q_curve()
    m_hat = _exact_m_hat(pairs, curve.edges)
    q_hat = model._loss(m_hat) + curve.delta
    pos = m_hat > 0
    summary = {
        "n": n,
        "candidates": len(curve.L),
        "probes": len(model.probes_),
        "Q(L̃)": model.Q_,
        "min Q̃": float(curve.Q.min()),
        "min Q̂ (exact cover)": float(q_hat.min()),
        "Q(L̃) / min Q̃": model.Q_ / float(curve.Q.min()),
        "Q(L̃) / min Q̂": model.Q_ / float(q_hat.min()),
        "max m̃/m̂": float(np.max(curve.m_tilde[pos] / m_hat[pos])) if pos.any() else 1.0,
        "argmin Q̂ is L → 0": bool(np.argmin(q_hat) == 0 and curve.L[0] == 0),
    }
    table = pd.DataFrame(
        {
            "L": curve.L,
            "m̃/n": curve.m_tilde / n,
            "m̂/n": m_hat / n,
            "Δ": curve.delta,
            "Q̃": curve.Q,
            "Q̂": q_hat,
        }
    )
    return summary, table


def exact_q_instances(
    count: int, seed: Seed, *, n: int = 12, k: int = 3, ddim: float = 2.0, delta: float = 0.05
) -> pd.DataFrame:
    r"""Eq. (14) over all :math:`L > 0` on random small instances (:func:`exact_q_check` each).

    Each instance is ``n`` uniform points of the unit square with uniform labels in ``k``
    classes (every class present), Euclidean; the exact covers make the minimum of
    :math:`\hat Q` the true minimum over all :math:`L > 0`, the limit :math:`L \to 0`
    included (the unit tests check it against enumeration of all :math:`2^n` subsets).
    """
    count = check_positive_int(count, "count")
    k = check_positive_int(k, "k", minimum=2)
    n = check_positive_int(n, "n", minimum=k)
    ddim = check_real(ddim, "ddim", low=0.0, low_inclusive=False)
    _check_bound_params(delta=delta)
    rows = []
    for i, rng in enumerate(spawn(seed, int(count))):
        X = rng.random((n, 2))
        y = rng.integers(k, size=n)
        y[:k] = np.arange(k)
        model = SRMNearestNeighbors("euclidean", ddim=ddim, delta=delta).fit(X, y)
        rows.append({"instance": i, **exact_q_check(model)[0]})
    return pd.DataFrame(rows).set_index("instance")


def plot_q_curve(ax: Any, model: SRMNearestNeighbors, table: pd.DataFrame | None = None) -> None:
    r"""Plot Q(L) and its two terms against L, with the probes and :math:`\tilde L` marked.

    The limit :math:`L \to 0` (``L = 0``) is drawn at half the smallest candidate, marked
    "L → 0", since a log axis has no 0.
    """
    if table is None:
        c = model.q_curve()
        table = pd.DataFrame({"L": c.L, "m̃/n": c.m_tilde / model.n_train_, "Δ": c.delta, "Q̃": c.Q})
    left = float(table["L"][table["L"] > 0].min()) / 2

    def at(L: Any) -> np.ndarray:
        L = np.asarray(L, dtype=float)
        return np.where(L > 0, L, left)

    table = table.assign(L=at(table["L"]))
    ax.semilogx(
        table["L"], table["Q̃"], color=COLORS["ours"], label=r"$Q(L) = \tilde m(L)/n + \Delta$"
    )
    ax.semilogx(
        table["L"], table["m̃/n"], color=COLORS["baseline"], lw=1.2, label=r"$\tilde m(L)/n$"
    )
    if "m̂/n" in table:
        ax.semilogx(
            table["L"],
            table["m̂/n"],
            color=COLORS["neutral"],
            lw=1,
            ls=":",
            label=r"$\hat m(L)/n$ (exact)",
        )
    ax.semilogx(
        table["L"], table["Δ"], **{**PAPER_STYLE, "linewidth": 1.2}, label=r"$\Delta(n, L, \delta)$"
    )
    # the probes are candidates: read their Q off the rank-indexed curve (recomputing 2/L
    # from a probe's value can round one ulp above its pair's distance and keep the pair)
    full = model.q_curve()
    probes = np.sort(np.asarray(model.probes_))
    ax.plot(
        at(probes),
        full.Q[np.searchsorted(full.L, probes)],
        "x",
        color=COLORS["neutral"],
        ms=5,
        label="binary-search probes",
    )
    ax.axvline(
        float(at(model.L_)), color=COLORS["accent"], lw=1.2, label=rf"$\tilde L = {model.L_:.3g}$"
    )
    ax.annotate("L → 0", (left, 0), xytext=(0, 3), textcoords="offset points", fontsize=7)
    best = table["L"].iloc[int(np.argmin(table["Q̃"].to_numpy()))]
    ax.plot(
        [best],
        [table["Q̃"].min()],
        "o",
        color=COLORS["ours"],
        mfc="none",
        ms=8,
        label=r"exhaustive $\arg\min Q$",
    )
    ax.set_xlabel("Lipschitz constant L (distances / training diameter)")
    ax.set_ylabel("objective")
    ax.set_ylim(0, min(3.0, float(table["Q̃"].max()) * 1.05))
    ax.legend(fontsize=8)


def cover_crosscheck(
    sizes: Sequence[int], seed: Seed, n_classes: int = 3, p_edge: float = 0.3
) -> pd.DataFrame:
    """Our matching cover against networkx on random k-partite graphs.

    For each graph: is our matching maximal (``networkx.is_maximal_matching``), is the cover a
    cover, its size against networkx's 2-approximation (``min_weighted_vertex_cover``), the exact
    minimum (MILP) and, for the bipartite case, König's theorem (``hopcroft_karp_matching``).
    """
    check_int_vector(sizes, "sizes", minimum=1)
    n_classes = check_positive_int(n_classes, "n_classes", minimum=2)
    p_edge = check_real(p_edge, "p_edge", low=0.0, high=1.0)
    tasks = [
        (n, rng, n_classes, p_edge) for n, rng in zip(sizes, spawn(seed, len(sizes)), strict=True)
    ]
    per_n = pmap(_cover_rows, tasks, desc="vertex covers: graph sizes")
    return pd.DataFrame([row for rows in per_n for row in rows])


def _cover_rows(task: tuple) -> list[dict[str, Any]]:
    """One size of :func:`cover_crosscheck`: a bipartite and a k-partite graph from ``rng``."""
    import networkx as nx
    from networkx.algorithms import approximation, bipartite

    n, rng, n_classes, p_edge = task
    rows = []
    for k in (2, n_classes):
        y = rng.integers(k, size=n)
        i, j = np.triu_indices(n, 1)
        keep = (y[i] != y[j]) & (rng.random(len(i)) < p_edge)
        E = np.stack([i[keep], j[keep]], axis=1)
        matching, cover = matching_cover(E, n)
        G = nx.Graph()
        G.add_nodes_from(range(n))
        G.add_edges_from(map(tuple, E.tolist()))
        exact = int(exact_vertex_cover(E, n).sum())
        row = {
            "n": n,
            "k": k,
            "edges": len(E),
            "maximal (networkx)": nx.is_maximal_matching(G, set(map(tuple, matching.tolist()))),
            "is cover": is_vertex_cover(E, cover),
            "ours m̃": int(cover.sum()),
            "networkx 2-approx": len(approximation.min_weighted_vertex_cover(G)),
            "exact m̂": exact,
        }
        if k == 2:
            top = {v for v in range(n) if y[v] == 0}
            row["König |max matching|"] = len(bipartite.hopcroft_karp_matching(G, top)) // 2
        rows.append(row)
    return rows


# ---------------------------------------------------------------------------------------------
# Theorem 1 and the k sweep on problems with a known Bayes classifier


def theorem1_sweep(
    problem: SoftmaxProblem,
    ns: Sequence[int],
    reps: int,
    seed: Seed,
    grid: int = 200,
    *,
    return_risks: bool = False,
) -> pd.DataFrame | tuple[pd.DataFrame, dict[int, np.ndarray]]:
    r"""Estimate E[1-NN risk] beside Theorem 1's :math:`2P(g^* \ne Y) + 4L/n^{1/(D+1)}`.

    With ``return_risks`` also return ``{n: risks}``, the risk of each of the ``reps``
    independent training sets (for intervals over samples).
    """
    check_int_vector(ns, "ns", minimum=1)
    reps = check_positive_int(reps, "reps")
    grid = check_positive_int(grid, "grid")
    bayes = problem.bayes_risk(grid)
    G = problem.grid(grid)
    eta_G = problem.eta(G)
    tasks = [
        (int(n), r)
        for n, rng in zip(ns, spawn(seed, len(ns)), strict=True)
        for r in spawn(rng, reps)
    ]
    all_risks = pmap(partial(_one_nn_risk, problem, G, eta_G), tasks, desc="Theorem 1: n × samples")
    rows = []
    for i, n in enumerate(ns):
        risks = all_risks[i * reps : (i + 1) * reps]
        rows.append(
            {
                "n": int(n),
                "E risk (1-NN)": float(np.mean(risks)),
                "std err": float(np.std(risks, ddof=1) / np.sqrt(reps)) if reps > 1 else 0.0,
                "Bayes risk": bayes,
                "Theorem 1 bound": float(mb.theorem1_bound(n, bayes, problem.lipschitz, problem.D)),
            }
        )
    out = pd.DataFrame(rows).set_index("n")
    if return_risks:
        risks_by_n = {
            int(n): np.asarray(all_risks[i * reps : (i + 1) * reps]) for i, n in enumerate(ns)
        }
        return out, risks_by_n
    return out


def _one_nn_risk(
    problem: SoftmaxProblem, G: np.ndarray, eta_G: np.ndarray, task: tuple[int, Any]
) -> float:
    """Risk on the grid ``G`` of the 1-NN rule (ball tree, ℓ∞) on one sample of size ``n``."""
    n, r = task
    X, y = problem.sample(n, r)
    nn = MetricBallTree(X, "chebyshev").query(G).indices
    return float(np.mean(1.0 - eta_G[np.arange(len(G)), y[nn]]))


def theorem1_k_sweep(
    ks: Sequence[int],
    *,
    n: int,
    reps: int,
    seed: Seed,
    beta: float = 10.0,
    eps: float = 0.1,
    centers: Any = ((0.25,), (0.75,)),
    grid: int = 2000,
) -> pd.DataFrame:
    r"""Theorem 1 across the number of classes, with :math:`L` and the Bayes risk held fixed.

    For each :math:`k` the problem is a :class:`RareClassProblem`: the softmax problem with the
    given ``centers`` and ``beta`` carries mass :math:`1 - \varepsilon` and :math:`k - k_0` rare
    classes share :math:`\varepsilon`, so :math:`L = (1 - \varepsilon)\beta/2` and the Bayes
    risk do not depend on :math:`k`, nor does Theorem 1's bound
    :math:`2P(g^* \ne Y) + 4L/n^{1/(D+1)}` (eq. 7). ``reps`` independent training sets of size
    ``n`` per :math:`k` (child streams of ``seed``, spawned per :math:`k` in the order of
    ``ks``); the 1-NN risk of each is integrated on a midpoint grid of ``grid ** D`` points.

    Returns
    -------
    pandas.DataFrame
        One row per (k, training set): ``k``, ``seed`` (the training set's index), the 1-NN
        risk, the Bayes risk, Theorem 1's bound, the risk :math:`1 - 1/k` of uniform guessing
        and the risk :math:`1 - \max_y P(Y = y)` of the majority class (by quadrature).
    """
    ks = check_int_vector(ks, "ks", minimum=2)
    n = check_positive_int(n, "n")
    reps = check_positive_int(reps, "reps")
    grid = check_positive_int(grid, "grid")
    base = SoftmaxProblem(check_matrix(centers, "centers"), beta)
    problems = [RareClassProblem(base, int(k), eps) for k in ks]
    tasks = []
    for prob, rng in zip(problems, spawn(seed, len(ks)), strict=True):
        G = prob.grid(grid)
        tasks += [(prob, G, prob.eta(G), n, r) for r in spawn(rng, reps)]
    risks = pmap(_rare_nn_risk, tasks, desc="Theorem 1: k × samples")
    rows = []
    for i, prob in enumerate(problems):
        bayes = prob.bayes_risk(grid)
        bound = float(mb.theorem1_bound(n, bayes, prob.lipschitz, prob.D))
        # the majority class of the family: 1 - max_y P(Y = y), P(Y = y) by the same quadrature
        majority = 1.0 - float(tasks[i * reps][2].mean(axis=0).max())
        for rep, risk in enumerate(risks[i * reps : (i + 1) * reps]):
            rows.append(
                {
                    "k": prob.k,
                    "seed": rep,
                    "1-NN risk": risk,
                    "Bayes risk": bayes,
                    "Theorem 1 bound": bound,
                    "uniform risk": 1.0 - 1.0 / prob.k,
                    "majority risk": majority,
                }
            )
    return pd.DataFrame(rows)


def _rare_nn_risk(task: tuple) -> float:
    """One training set of :func:`theorem1_k_sweep`: the grid risk of 1-NN."""
    prob, G, eta_G, n, r = task
    return _one_nn_risk(prob, G, eta_G, (n, r))


def k_sweep_seeds(
    ks: Sequence[int],
    *,
    n: int,
    beta: float,
    D: int,
    reps: int,
    seed: Seed,
    delta: float = 0.05,
    grid: int = 100,
) -> pd.DataFrame:
    """Per-sample grid risks of SRM-NN, 1-NN and random-subset 1-NN on softmax problems.

    For each k one :class:`SoftmaxProblem` (η is β/2-Lipschitz for every k) and ``reps``
    independent training samples of size ``n``. Returns one row per (k, sample).
    """
    check_int_vector(ks, "ks", minimum=2)
    n = check_positive_int(n, "n", minimum=2)
    beta = check_real(beta, "beta", low=0.0, low_inclusive=False)
    D = check_positive_int(D, "D")
    reps = check_positive_int(reps, "reps")
    grid = check_positive_int(grid, "grid")
    _check_bound_params(delta=delta)
    problems, tasks = [], []
    for k, rng in zip(ks, spawn(seed, len(ks)), strict=True):
        r_prob, *r_reps = spawn(rng, reps + 1)
        prob = SoftmaxProblem.random(int(k), D, beta, r_prob)
        G = prob.grid(grid)
        eta_G = prob.eta(G)
        problems.append((k, prob))
        tasks += [(k, prob, G, eta_G, n, r, delta, D) for r in r_reps]
    risks = pmap(_srm_and_nn_risk, tasks, desc="SRM-NN: k × samples")
    rows = []
    for i, (k, prob) in enumerate(problems):
        bayes = prob.bayes_risk(grid)
        for rep, (srm, nn, sub) in enumerate(risks[i * reps : (i + 1) * reps]):
            rows.append(
                {
                    "k": int(k),
                    "seed": rep,
                    "Bayes risk": bayes,
                    "SRM-NN risk": srm,
                    "1-NN risk": nn,
                    "random-subset 1-NN risk": sub,
                }
            )
    return pd.DataFrame(rows)


def k_sweep_srm(
    ks: Sequence[int],
    *,
    n: int,
    beta: float,
    D: int,
    reps: int,
    seed: Seed,
    delta: float = 0.05,
    grid: int = 100,
    per_seed: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Risk of SRM-NN and 1-NN as k grows with the Lipschitz constant of η fixed (β/2).

    Averages :func:`k_sweep_seeds` over samples (pass its result as ``per_seed`` to reuse it).
    """
    if per_seed is None:
        per_seed = k_sweep_seeds(
            ks, n=n, beta=beta, D=D, reps=reps, seed=seed, delta=delta, grid=grid
        )
    g = per_seed.groupby("k", sort=True)
    out = g[["Bayes risk", "SRM-NN risk", "1-NN risk"]].mean()
    out["SRM excess"] = out["SRM-NN risk"] - out["Bayes risk"]
    out["1-NN excess"] = out["1-NN risk"] - out["Bayes risk"]
    return out


def _srm_and_nn_risk(task: tuple) -> tuple[float, float, float]:
    """Grid risks of SRM-NN, 1-NN and random-subset 1-NN (ℓ∞) trained on one sample."""
    k, prob, G, eta_G, n, r, delta, D = task
    r_sample, r_sub = spawn(r, 2)
    X, y = prob.sample(n, r_sample)
    clf = SRMNearestNeighbors("chebyshev", delta=delta, ddim=float(D), classes=np.arange(k))
    present = np.unique(y)
    if len(present) < k:  # a class with no sample: the label set is the classes seen
        clf.set_params(classes=present)
    clf.fit(X, y)
    rows = np.arange(len(G))
    srm = float(np.mean(1.0 - eta_G[rows, clf.predict(G)]))
    DG = pairwise_distances(G, X, "chebyshev")
    nn = y[np.argmin(DG, axis=1)]
    sub = random_subset_1nn(DG, y, len(clf.support_), r_sub)
    return (
        srm,
        float(np.mean(1.0 - eta_G[rows, nn])),
        float(np.mean(1.0 - eta_G[rows, sub])),
    )


# ---------------------------------------------------------------------------------------------
# Theorem 4 with the margin surrogate L_margin (eq. 5)


def _lmargin_run(task: tuple) -> dict[str, Any]:
    """One training set of :func:`lmargin_runs`."""
    prob, G, eta_G, n, r, delta = task
    X, y = prob.sample(n, r)
    classes = np.unique(y)
    clf = SRMNearestNeighbors("chebyshev", delta=delta, ddim=float(prob.D), bound="rad")
    clf.fit(X, y)
    risks = surrogate_risks(clf.decision_function(X), np.searchsorted(classes, y))
    d_rad = float(mb.delta_rad(n, clf.L_, delta, prob.k, prob.D))  # Theorem 4, c_D = 1
    risk = float(np.mean(1.0 - eta_G[np.arange(len(G)), clf.predict(G)]))
    return {
        "L̃": clf.L_,
        "|S1|/n": len(clf.support_) / n,
        "risk": risk,
        "train error": risks["error"],
        "Ê[L_margin]": risks["margin"],
        "Ê[L_cutoff]": risks["cutoff"],
        "m̃/n": clf.m_tilde_ / n,
        "Δ_Rad": d_rad,
        "bound (margin)": risks["margin"] + d_rad,
        "bound (cutoff)": risks["cutoff"] + d_rad,
    }


def lmargin_runs(
    problem: SoftmaxProblem,
    n: int,
    reps: int,
    seed: Seed,
    *,
    delta: float = 0.05,
    grid: int = 2000,
) -> pd.DataFrame:
    r"""Theorem 4 with :math:`\mathcal L_{\rm margin}` for SRM-NN, one row per training set.

    Each of ``reps`` independent training sets of size ``n`` is drawn from ``problem``; SRM-NN
    (Section 4, ℓ∞ metric, :math:`D` = the problem's dimension, :math:`\Delta = \Delta_{\rm
    Rad}` with :math:`c_D = 1`) is fitted, and its margin function :math:`h` of eq. (16) is
    evaluated on the training sample. Theorem 4 states, with probability :math:`1 - \delta`,
    :math:`P(g_f(X) \ne Y) \le \hat{\mathbb E}[\mathcal L(h_f)] + \Delta_{\rm Rad}(n, L,
    \delta)` for :math:`\mathcal L` "any of the loss functions defined in Section 2", so for the
    margin (ramp) loss :math:`\mathcal L_{\rm margin}(u) = T_{[0,1]}(1 - u)` of eq. (5) too.

    Parameters
    ----------
    problem : SoftmaxProblem
        The distribution (its risk is computed exactly by quadrature on ``grid`` points per axis).
    n : int
        Training-set size (>= 2).
    reps : int
        Number of independent training sets (child streams of ``seed``).
    seed : int or numpy.random.Generator
        Root of the training sets.
    delta : float, default=0.05
        Confidence of the bound, in (0, 1).
    grid : int, default=2000
        Quadrature points per axis for the risk.

    Returns
    -------
    pandas.DataFrame
        One row per training set: :math:`\tilde L`, :math:`|S_1|/n`, the risk, the training
        error :math:`\hat{\mathbb E}[1\{h < 0\}]`, :math:`\hat{\mathbb E}[\mathcal L_{\rm
        margin}]`, :math:`\hat{\mathbb E}[\mathcal L_{\rm cutoff}]`, :math:`\tilde m/n`,
        :math:`\Delta_{\rm Rad}` and both bounds.
    """
    if not isinstance(problem, SoftmaxProblem):
        raise ValueError(f"problem must be a SoftmaxProblem; got {type(problem).__name__}")
    n = check_positive_int(n, "n", minimum=2)
    reps = check_positive_int(reps, "reps")
    grid = check_positive_int(grid, "grid")
    _check_bound_params(delta=delta)
    G = problem.grid(grid)
    eta_G = problem.eta(G)
    tasks = [(problem, G, eta_G, n, r, delta) for r in spawn(seed, reps)]
    rows = pmap(_lmargin_run, tasks, desc="Theorem 4 with L_margin: training sets")
    return pd.DataFrame(rows).rename_axis("seed")


# ---------------------------------------------------------------------------------------------
# Speed: training time against n, the index against brute force


def timing_sweep(ns: Sequence[int], *, k: int, D: int, beta: float, seed: Seed) -> pd.DataFrame:
    """Wall time of SRM training (Euclidean, ``ddim=D``) and of brute-force prediction against n."""
    check_int_vector(ns, "ns", minimum=2)
    prob = SoftmaxProblem.random(k, D, beta, seed)
    rows = []
    for n, rng in zip(ns, spawn(seed, len(ns)), strict=True):
        X, y = prob.sample(int(n), rng)
        t0 = time.perf_counter()
        clf = SRMNearestNeighbors("euclidean", ddim=float(D)).fit(X, y)
        t1 = time.perf_counter()
        clf.predict(prob.grid(40))
        t2 = time.perf_counter()
        rows.append(
            {
                "n": int(n),
                "fit seconds": t1 - t0,
                "predict seconds (1,600 queries)": t2 - t1,
                "candidates": clf.n_candidates_,
                "probes": len(clf.probes_),
            }
        )
    return pd.DataFrame(rows).set_index("n")


def index_check(
    X_ref: Any, X_query: Any, metric: str, etas: Sequence[float], repeats: int = 3
) -> pd.DataFrame:
    r"""Compare the ball tree with brute force: eq. (15)'s ratio, distance evaluations, time.

    ``worst ratio`` is :math:`\max_x d(x, \tilde x)/d(x, x^*)` over the queries (queries at
    distance 0 count as ratio 1 when the tree also returns distance 0); times are the best of
    ``repeats`` runs.
    """
    check_in(metric, "metric", METRICS)
    X_ref = check_metric_input(X_ref, metric, "X_ref")
    X_query = check_metric_input(X_query, metric, "X_query")
    if metric != "edit" and X_query.shape[1] != X_ref.shape[1]:
        raise ValueError(
            f"X_query and X_ref must have the same number of columns; got shapes "
            f"{X_query.shape} and {X_ref.shape}"
        )
    check_vector_in(etas, "etas", low=0.0)
    repeats = check_positive_int(repeats, "repeats")
    t0 = time.perf_counter()
    tree = MetricBallTree(X_ref, metric)
    build = time.perf_counter() - t0
    brute_times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        Dq = pairwise_distances(X_query, X_ref, metric)
        j = np.argmin(Dq, axis=1)
        brute_times.append(time.perf_counter() - t0)
    d_star = Dq[np.arange(len(j)), j]
    rows = []
    for eta in etas:
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            res = tree.query(X_query, eta=eta)
            times.append(time.perf_counter() - t0)
        ratio = np.where(
            d_star > 0,
            res.distances / np.where(d_star > 0, d_star, 1.0),
            np.where(res.distances == 0, 1.0, np.inf),
        )
        rows.append(
            {
                "eta": eta,
                "worst ratio": float(ratio.max()),
                "1 + eta": 1.0 + eta,
                "exact answers": float(np.mean(res.distances == d_star)),
                "distance evals / brute": res.n_distance_evaluations / Dq.size,
                "query seconds": min(times),
                "brute seconds": min(brute_times),
                "build seconds": build,
            }
        )
    return pd.DataFrame(rows).set_index("eta")


# ---------------------------------------------------------------------------------------------
# Section 5.1: the eta-perturbation


def oracle_deviation_check(
    task: Task, model: SRMNearestNeighbors, etas: Sequence[float]
) -> pd.DataFrame:
    r"""Measure Section 5.1 step (ii) at a fitted model: the worst :math:`|h - \tilde h|`.

    For each :math:`\eta`, the largest deviation any :math:`(1+\eta)` oracle can cause
    (:func:`mlgeom.metric_nn.perturbation.eq16_oracle_deviation`) over the test points and
    classes, against the printed :math:`2\eta` and against our pointwise bound
    :math:`\tfrac{\eta}{2} L \max\{d_y, d_{\neg y}\}`.

    Parameters
    ----------
    task : Task
        The task whose test points are the queries.
    model : SRMNearestNeighbors
        A model fitted on ``task``'s training sample (any ``metric``, ``"precomputed"``
        included: distances are recomputed with ``task.metric``).
    etas : sequence of float
        Values :math:`\eta > 0`.

    Returns
    -------
    pandas.DataFrame
        Index ``eta``: ``max |h - h~| / 2η`` (printed bound), ``max |h - h~| / bound`` (ours),
        ``share above 2η`` (fraction of (point, class) pairs where the printed bound fails),
        ``L̃`` and ``median L d(x, S1)``.
    """
    if not isinstance(task, Task):
        raise ValueError(f"task must be a Task; got {type(task).__name__}")
    if not isinstance(model, SRMNearestNeighbors) or not hasattr(model, "L_"):
        raise ValueError("model must be a fitted SRMNearestNeighbors")
    etas = check_vector_in(etas, "etas", low=0.0, low_inclusive=False)
    X_s1 = np.asarray(task.X_train)[model.support_]
    dist = pairwise_distances(task.X_test, X_s1, metric=task.metric) / model.scale_
    rows = []
    for eta in etas:
        dev, bound = eq16_oracle_deviation(dist, model.y_support_, model.n_classes_, model.L_, eta)
        ours = np.where(
            bound > 0, dev / np.where(bound > 0, bound, 1.0), np.where(dev > 0, np.inf, 0.0)
        )
        rows.append(
            {
                "eta": float(eta),
                "max |h - h~| / 2η": float(dev.max() / (2 * eta)),
                "max |h - h~| / bound": float(ours.max()),
                "share above 2η": float(np.mean(dev > 2 * eta * (1 + 1e-12))),
                "L̃": model.L_,
                "median L d(x, S1)": float(np.median(model.L_ * dist.min(axis=1))),
            }
        )
    return pd.DataFrame(rows).set_index("eta")


def _eta_split(task: tuple) -> dict[str, Any]:
    """One seed of :func:`eta_srm_splits`."""
    make_task, seed, eta, delta = task
    r_task, r_rand = spawn(seed, 2)
    t = make_task(r_task)
    err = lambda pred: float(np.mean(pred != t.y_test))  # noqa: E731
    exact = SRMNearestNeighbors(t.metric, delta=delta).fit(t.X_train, t.y_train)
    approx = SRMNearestNeighbors(t.metric, delta=delta, algorithm="tree", eta=eta).fit(
        t.X_train, t.y_train
    )
    # the index alone: the exact model's S_1 queried through the (1 + eta) tree
    via_tree = MetricBallTree(exact.X_support_, t.metric).query(t.X_test, eta=eta).indices
    j = as_generator(r_rand).integers(len(approx.support_), size=len(t.y_test))
    random_pred = approx.classes_[approx.y_support_[j]]
    L0, Le = exact.L_, approx.L_
    ratio = 1.0 if L0 == Le else (Le / L0 if L0 > 0 else np.inf)
    return {
        "task": t.name,
        "exact SRM": err(exact.predict(t.X_test)),
        "η-SRM": err(approx.predict(t.X_test)),
        "exact SRM, (1+η) index": err(exact.classes_[exact.y_support_[via_tree]]),
        "random point of S1": err(random_pred),
        "L̃ exact": L0,
        "L̃ η": Le,
        "L̃ η / L̃ exact": ratio,
        "|S1| exact": len(exact.support_),
        "|S1| η": len(approx.support_),
        "Δ(L̃) exact": exact.delta_,
        "Δ_η(L̃_η)": approx.delta_,
    }


def eta_srm_splits(
    make_task: Any, seeds: int, seed: Seed, *, eta: float = 0.05, delta: float = 0.05
) -> pd.DataFrame:
    r"""Exact SRM against the :math:`\eta`-approximate SRM of Section 5.1 over random splits.

    The exact model minimises :math:`\tilde m/n + \Delta` and predicts by brute-force nearest
    neighbour in :math:`S_1`; the :math:`\eta` model minimises :math:`\tilde m/n + \Delta_\eta`
    (:func:`mlgeom.metric_nn.perturbation.delta_eta`) and predicts through the :math:`(1+\eta)`
    ball tree (eq. 15). The strawman predicts with a uniformly random point of the
    :math:`\eta` model's :math:`S_1`. The column ``exact SRM, (1+η) index`` separates the two
    changes: the exact model's :math:`S_1`, queried through the :math:`(1+\eta)` tree.

    Parameters
    ----------
    make_task : callable
        ``make_task(rng) -> Task`` (points, not distances: the tree needs them).
    seeds : int
        Number of independent splits.
    seed : int or numpy.random.Generator
        Root of the splits.
    eta : float, default=0.05
        Oracle approximation :math:`\eta \ge 0`.
    delta : float, default=0.05
        Confidence of the bound.

    Returns
    -------
    pandas.DataFrame
        One row per split: test errors, chosen :math:`\tilde L`, :math:`|S_1|` and bound terms.
    """
    if not callable(make_task):
        raise ValueError(f"make_task must be a callable rng -> Task; got {make_task!r:.60}")
    seeds = check_positive_int(seeds, "seeds")
    eta = check_real(eta, "eta", low=0.0)
    _check_bound_params(delta=delta)
    tasks = [(make_task, r, eta, delta) for r in spawn(seed, int(seeds))]
    rows = pmap(_eta_split, tasks, desc="η-SRM vs exact SRM: random splits")
    return pd.DataFrame(rows).rename_axis("seed")


def eta_bound_table(
    n: int, L: float, delta: float, k: int, D: float, etas: Sequence[float]
) -> pd.DataFrame:
    r"""Tabulate the :math:`\eta`-perturbed bound against :math:`\eta` (Section 5.1, Lemma 6).

    Returns
    -------
    pandas.DataFrame
        Index ``eta``: :math:`\Delta_{\rm Rad,\eta}`, :math:`\Delta_{\rm fat,\eta}`,
        :math:`\Delta_\eta`, and :math:`\Delta_\eta - \Delta` (``eta = 0``: the unperturbed
        bound).
    """
    n = check_positive_int(n, "n")
    k = check_positive_int(k, "k", minimum=2)
    etas = check_vector_in(etas, "etas", low=0.0)
    base = float(mb.complexity("min", n, L, delta, k, D))
    rows = []
    for eta in etas:
        row = {"eta": float(eta)}
        for b in ("rad", "fat", "min"):
            row[f"Δ_η ({b})"] = float(delta_eta(b, n, L, delta, k, D, float(eta)))
        row["Δ_η − Δ"] = row["Δ_η (min)"] - base
        rows.append(row)
    return pd.DataFrame(rows).set_index("eta")
