r"""Theorem 2's rate against a :math:`\sqrt T` learner (issue 31).

Theorem 2 bounds the cumulative regret of H-RLS by a sum of per-node terms that grow like
:math:`\log T`. A criterion "the regret grows more slowly than :math:`\sqrt T`" is only evidence
for that rate when a learner whose regret *is* of order :math:`\sqrt T` fails it. This module
runs, on the same streams of the Section 5 label model:

* H-RLS (Figure 3, eq. 1; :func:`mlgeom.hierarchical.experiments.hrls_primal`);
* the natural competitor: hierarchical online gradient descent (H-OGD), the same protocol
  (a node is updated only on rounds where it is a root or its parent is labelled 1, eq. 15
  top-down prediction), each node running projected gradient descent on the square loss
  :math:`\tfrac12(\mathbf w^\top\mathbf x_t - y_t)^2` over the unit ball with step
  :math:`\eta_0/\sqrt{n}` (:math:`n` the node's update count), the :math:`O(\sqrt T)`
  learner of Zinkevich (2003);
* the strawman uniform guessing (regret linear in :math:`T`).

Each replicate draws its own unit vectors :math:`\mathbf u_i`, its own instances and its own
labels, so the replicates vary the instance, not only the labels.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numba
import numpy as np
import pandas as pd

from mlgeom._validation import check_in, check_matrix, check_positive_int, check_real, check_vector
from mlgeom.hierarchical.experiments import (
    _hrls_kernel,
    margin_floor_instances,
    orthonormal_model,
    random_model,
    sphere_instances,
)
from mlgeom.hierarchical.taxonomy import Taxonomy, check_taxonomy
from mlgeom.parallel import pmap
from mlgeom.random import Seed, spawn

#: The learners of :func:`rate_runs`, in the order of its output.
__all__ = [
    "RATE_DESIGNS",
    "RATE_LEARNERS",
    "RateRuns",
    "forecast_log_vs_sqrt",
    "hogd_predictions",
    "hrls_predictions",
    "last_decade",
    "rate_runs",
]

RATE_LEARNERS = ("H-RLS", "H-OGD", "uniform guessing")

#: Instance designs of :func:`rate_runs`: Theorem 2's two designs of the chapter.
RATE_DESIGNS = ("sphere", "orthonormal")


@numba.njit(cache=True)
def _hogd_kernel(X, parent_pos, targets, parent, order, eta0):  # pragma: no cover - compiled
    """H-OGD predictions; see :func:`hogd_predictions`."""
    T, d = X.shape
    N = targets.shape[1]
    W = np.zeros((N, d))
    n_upd = np.zeros(N)
    m = np.zeros(N)
    preds = np.zeros((T, N), dtype=np.bool_)
    for t in range(T):
        for i in range(N):
            s = 0.0
            for k in range(d):
                s += W[i, k] * X[t, k]
            m[i] = s
            preds[t, i] = s >= 0.0
        for i in order:  # eq. (15), top-down
            if parent[i] >= 0 and not preds[t, parent[i]]:
                preds[t, i] = False
        for i in range(N):
            if parent_pos[t, i]:
                n_upd[i] += 1.0
                g = eta0 / np.sqrt(n_upd[i]) * (m[i] - targets[t, i])
                nrm = 0.0
                for k in range(d):
                    W[i, k] -= g * X[t, k]
                    nrm += W[i, k] * W[i, k]
                if nrm > 1.0:
                    r = 1.0 / np.sqrt(nrm)
                    for k in range(d):
                        W[i, k] *= r
    return preds


def _protocol_arrays(taxonomy: Taxonomy, X: Any, V: Any) -> tuple:
    check_taxonomy(taxonomy)
    X = check_matrix(X, "X")
    Vb = taxonomy.as_multilabels(V, "V")
    if Vb.shape[0] != X.shape[0]:
        raise ValueError(
            f"X must be (T, d) with T = {Vb.shape[0]} rows (one per row of V); got shape {X.shape}"
        )
    par = np.asarray(taxonomy.parent, dtype=np.int64)
    is_root = par < 0
    parent_pos = np.where(is_root[None, :], True, Vb[:, np.maximum(par, 0)])
    targets = 2.0 * Vb - 1.0
    order = np.asarray(taxonomy.order, dtype=np.int64)
    return np.ascontiguousarray(X, dtype=float), parent_pos, targets, par, order


def hrls_predictions(taxonomy: Taxonomy, X: Any, V: Any) -> np.ndarray:
    r"""Top-down predictions of H-RLS (Figure 3, eq. 1), compiled.

    The same learner as :func:`~mlgeom.hierarchical.experiments.hrls_primal` (the margin
    :math:`\mathbf b_i^\top A_i^{-1}\mathbf x_t / (1 + \mathbf x_t^\top A_i^{-1}\mathbf x_t)`,
    :math:`\pm1` targets, a node stores :math:`\mathbf x_t` when it is a root or its parent is
    labelled 1), in one numba loop and returning the predictions only.

    Parameters
    ----------
    taxonomy : Taxonomy
        The forest (N nodes).
    X : array_like
        ``(T, d)`` dense instances.
    V : array_like
        ``(T, N)`` 0/1 multilabels respecting the taxonomy.

    Returns
    -------
    numpy.ndarray
        ``(T, N)`` bool predictions, each made before its round's update.
    """
    Xc, pp, tg, par, order = _protocol_arrays(taxonomy, X, V)
    return _hrls_kernel(Xc, pp, tg, par, order)[1]


def hogd_predictions(taxonomy: Taxonomy, X: Any, V: Any, eta0: float = 1.0) -> np.ndarray:
    r"""Hierarchical online gradient descent: top-down predictions, one projected OGD per node.

    Round :math:`t`: every node predicts :math:`\mathrm{sign}(\mathbf w_i^\top \mathbf x_t)`
    (``>= 0`` is 1, as H-RLS), the prediction is made top-down (eq. 15: a node is 1 only when
    its parent is); then every node that is a root or whose parent is labelled 1 (the H-RLS
    protocol, Section 4) takes the step

    .. math::

       \mathbf w_i \leftarrow \Pi_{\|\mathbf w\| \le 1}\Big(\mathbf w_i - \frac{\eta_0}{\sqrt{n_i}}
       (\mathbf w_i^\top \mathbf x_t - y_{i,t})\,\mathbf x_t\Big),\qquad y_{i,t} = 2v_{i,t} - 1,

    with :math:`n_i` the node's number of updates so far (this one included) and
    :math:`\Pi` the projection on the unit ball, where the model's :math:`\mathbf u_i` lie.
    With :math:`\|\mathbf x_t\| = 1` the gradients are at most 2 and the ball's diameter is 2,
    so :math:`\eta_0 = 1` is Zinkevich's step :math:`D/(G\sqrt n)`, whose square-loss regret
    is :math:`O(\sqrt n)`.

    Parameters
    ----------
    taxonomy : Taxonomy
        The forest (N nodes).
    X : array_like
        ``(T, d)`` dense instances.
    V : array_like
        ``(T, N)`` 0/1 multilabels respecting the taxonomy.
    eta0 : float, default=1.0
        The step's constant :math:`\eta_0 > 0`.

    Returns
    -------
    numpy.ndarray
        ``(T, N)`` bool top-down predictions made before each round's update.
    """
    eta0 = check_real(eta0, "eta0", low=0.0, low_inclusive=False)
    Xc, pp, tg, par, order = _protocol_arrays(taxonomy, X, V)
    return _hogd_kernel(Xc, pp, tg, par, order, float(eta0))


@dataclass(frozen=True)
class RateRuns:
    r"""Output of :func:`rate_runs`.

    Attributes
    ----------
    regret : pandas.DataFrame
        Long format: ``rep``, ``learner`` (:data:`RATE_LEARNERS`), ``T`` (a checkpoint) and
        ``regret``, the cumulative expected regret against the reference classifier (4), exact
        given each round's past (eq. 5).
    design : str
        The instance design.
    d : int
        The dimension.
    """

    regret: pd.DataFrame
    design: str
    d: int

    def curves(self, learner: str) -> np.ndarray:
        """``(reps, n_checkpoints)`` regret of one learner."""
        learner = check_in(learner, "learner", RATE_LEARNERS)
        sub = self.regret[self.regret["learner"] == learner]
        return sub.pivot(index="rep", columns="T", values="regret").to_numpy()

    @property
    def checkpoints(self) -> np.ndarray:
        """The horizons ``T`` (increasing)."""
        return np.sort(self.regret["T"].unique())


def _rate_rep(args: tuple) -> list[dict[str, Any]]:
    taxonomy, design, d, T, gamma, eta0, cps, g = args
    g_model, g_x, g_v, g_guess = spawn(g, 4)
    if design == "sphere":
        model = random_model(taxonomy, d, seed=g_model)
        X = sphere_instances(model, T, gamma, seed=g_x)
    else:
        model = orthonormal_model(taxonomy, d, seed=g_model)
        X = margin_floor_instances(model, T, gamma, seed=g_x)
    V = model.sample(X, g_v)
    ref = model.reference_predict(X)
    e_ref = model.expected_h_loss(X, ref)
    preds = {
        "H-RLS": hrls_predictions(taxonomy, X, V),
        "H-OGD": hogd_predictions(taxonomy, X, V, eta0),
        "uniform guessing": g_guess.random(ref.shape) < 0.5,
    }
    rows = []
    for name in RATE_LEARNERS:
        cum = np.cumsum(model.expected_h_loss(X, preds[name]) - e_ref)[cps - 1]
        rows += [
            {"learner": name, "T": int(c), "regret": float(r)}
            for c, r in zip(cps, cum, strict=True)
        ]
    return rows


def rate_runs(
    taxonomy: Taxonomy,
    d: int,
    T: int,
    *,
    reps: int,
    seed: Seed,
    design: str = "sphere",
    gamma: float = 0.02,
    eta0: float = 1.0,
    checkpoints: Any = None,
) -> RateRuns:
    r"""Regret of H-RLS, H-OGD and uniform guessing on replicates that each draw a new instance.

    Replicate ``r`` (the ``r``-th child of ``seed``) draws the model's unit vectors, the
    instances and the labels afresh: ``design="sphere"``, random :math:`\mathbf u_i`
    (:func:`~mlgeom.hierarchical.experiments.random_model`) and instances uniform on the
    sphere with every margin at least ``gamma`` (:func:`sphere_instances`);
    ``design="orthonormal"`` (``d >= N``), random orthonormal :math:`\mathbf u_i` and margins
    in :math:`[\gamma, 1/\sqrt N]` (:func:`margin_floor_instances`). The three learners see
    the same stream; the expected H-loss of each prediction is exact given the round
    (:meth:`HierarchicalLabelModel.expected_h_loss`), so the regret curve of each learner is
    the exact cumulative expected regret given its own past (eq. 5).

    Parameters
    ----------
    taxonomy : Taxonomy
        The forest.
    d : int
        Instance dimension.
    T : int
        Horizon.
    reps : int
        Independent replicates.
    seed : int or numpy.random.Generator
        Root of the replicates.
    design : {"sphere", "orthonormal"}, default="sphere"
        Instance design.
    gamma : float, default=0.02
        Margin floor (Theorem 2's :math:`\Delta_i \ge \gamma`).
    eta0 : float, default=1.0
        H-OGD's step constant (:func:`hogd_predictions`).
    checkpoints : array_like of int, optional
        Horizons in ``1 … T``; default 25 log-spaced ones from 10.

    Returns
    -------
    RateRuns
    """
    check_taxonomy(taxonomy)
    d = check_positive_int(d, "d")
    T = check_positive_int(T, "T")
    reps = check_positive_int(reps, "reps")
    design = check_in(design, "design", RATE_DESIGNS)
    gamma = check_real(gamma, "gamma", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
    eta0 = check_real(eta0, "eta0", low=0.0, low_inclusive=False)
    if design == "orthonormal" and d < taxonomy.n_nodes:
        raise ValueError(f"design='orthonormal' needs d >= N = {taxonomy.n_nodes}; got d={d}")
    if checkpoints is None:
        checkpoints = np.round(np.logspace(1, np.log10(T), 25)).astype(int) if T >= 10 else [T]
    cps = np.unique(np.asarray(checkpoints, dtype=np.int64))
    if cps.size == 0 or cps[0] < 1 or cps[-1] > T:
        raise ValueError(f"checkpoints must lie in 1 … {T}; got {cps.tolist()}")
    items = [(taxonomy, design, d, T, gamma, eta0, cps, g) for g in spawn(seed, reps)]
    per_rep = pmap(_rate_rep, items, desc=f"rates, {design}, d = {d}")
    rows = [dict(rep=r, **row) for r, rep_rows in enumerate(per_rep) for row in rep_rows]
    return RateRuns(pd.DataFrame(rows), design, d)


def last_decade(T: Any, T_max: int | None = None) -> np.ndarray:
    """Boolean mask of the checkpoints in the last decade ``[T_max / 10, T_max]``."""
    Ta = check_vector(T, "T")
    if np.any(Ta <= 0):
        raise ValueError(f"T must be a 1-d array of positive horizons; got {Ta.tolist()!r:.80}")
    top = float(Ta.max() if T_max is None else T_max)
    return Ta >= top / 10 - 1e-9


def forecast_log_vs_sqrt(T: Any, R: Any) -> np.ndarray:
    r"""Out-of-sample comparison of :math:`a + b\log T` and :math:`a + b\sqrt T` on each curve.

    Each model is fitted by least squares to a curve's checkpoints before the last decade
    (:math:`T < T_{\max}/10`) and predicts the last decade's; the score is
    :math:`\log_{10}(\mathrm{RMSE}_{\sqrt T} / \mathrm{RMSE}_{\log T})`, positive when the
    :math:`\log T` model forecasts better (Theorem 2's rate), negative when :math:`\sqrt T`
    does.

    Parameters
    ----------
    T : array_like
        ``(n,)`` increasing checkpoints, at least 2 before the last decade and 1 in it.
    R : array_like
        ``(reps, n)`` cumulative regret curves.

    Returns
    -------
    numpy.ndarray
        ``(reps,)`` scores.
    """
    Ta = check_vector(T, "T")
    Ra = check_matrix(np.atleast_2d(R) if np.ndim(R) == 1 else R, "R", n_cols=Ta.size)
    if Ra.shape[1] != Ta.size:
        raise ValueError(f"R must have one column per checkpoint ({Ta.size}); got shape {Ra.shape}")
    test = last_decade(Ta)
    fit = ~test
    if fit.sum() < 2 or test.sum() < 1:
        raise ValueError(
            f"T needs >= 2 checkpoints before the last decade and >= 1 in it; got {Ta.tolist()}"
        )
    out = np.empty(Ra.shape[0])
    for k, r in enumerate(Ra):
        err = {}
        for name, f in (("log", np.log), ("sqrt", np.sqrt)):
            A = np.column_stack([np.ones(fit.sum()), f(Ta[fit])])
            coef, *_ = np.linalg.lstsq(A, r[fit], rcond=None)
            pred = coef[0] + coef[1] * f(Ta[test])
            err[name] = float(np.sqrt(np.mean((pred - r[test]) ** 2)))
        out[k] = np.log10(max(err["sqrt"], 1e-300) / max(err["log"], 1e-300))
    return out
