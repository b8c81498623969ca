r"""Coresets for optimization: Frank–Wolfe and SGD (slide "Coresets for Optimization").

The slide: "Solve for :math:`w^* = \arg\min_w f_X(w)` … gradient descent. Subgradient Descent
:math:`\approx` Frank-Wolfe. Move towards most helpful point. :math:`O(C/\varepsilon^2)` steps
to :math:`\pm\varepsilon` mean for :math:`\|x\| \le 1`. Stochastic gradient descent (SGD). For
large :math:`X`, most common. Randomly chooses :math:`x \in X`, and step towards
:math:`-\nabla f_x(w)`."

* :func:`frank_wolfe_mean` is Frank–Wolfe on :math:`f(w) = \tfrac12\|w - \mu\|^2` over the
  convex hull of :math:`X` (:math:`\mu` the mean of :math:`X`): each step moves towards the
  "most helpful point" :math:`\arg\min_{x \in X}\langle \nabla f(w), x\rangle`, so after
  :math:`t` steps :math:`w_t` is a convex combination of at most :math:`t + 1` points of
  :math:`X` (a coreset) and approximates the mean to :math:`\pm\varepsilon` after
  :math:`O(1/\varepsilon^2)` steps (Clarkson 2008; Jaggi 2013, Theorem 1).
* :func:`projected_sgd` is SGD on the average logistic loss :math:`f_X(w) = \frac1n\sum_i
  \ell(y_i\langle w, x_i\rangle)` (slide "Loss Functions", no prior), with the textbook steps
  that achieve the same :math:`O(C/\varepsilon^2)` rate for convex Lipschitz losses, which the
  slide does not print.

References
----------
.. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", slides "Loss Functions"
   and "Coresets for Optimization" (citing Clarkson 2008 and Gärtner and Jaggi 2009).
.. [2] K. L. Clarkson, "Coresets, sparse greedy approximation, and the Frank-Wolfe algorithm",
   SODA 2008.
.. [3] M. Jaggi, "Revisiting Frank-Wolfe: projection-free sparse convex optimization",
   ICML 2013, Theorem 1.
.. [4] E. Hazan, *Introduction to Online Convex Optimization*, Theorem 3.1 and Section 3.3
   (online-to-batch conversion).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from mlgeom._frozen import freeze_arrays
from mlgeom._validation import (
    check_in,
    check_int_vector,
    check_labels,
    check_matrix,
    check_positive_int,
    check_real,
    check_vector,
)
from mlgeom.algorithms.margin_losses import logistic
from mlgeom.random import Seed, as_generator

__all__ = [
    "FrankWolfeMean",
    "frank_wolfe_mean",
    "logistic_minimum",
    "logistic_objective",
    "projected_sgd",
]

SCHEDULES = ("sqrt", "constant")


@dataclass(frozen=True, eq=False)
class FrankWolfeMean:
    r"""Outcome of :func:`frank_wolfe_mean`.

    Attributes
    ----------
    w : numpy.ndarray of shape (d,)
        The last iterate :math:`w_T = \sum_i \lambda_i x_i`.
    weights : numpy.ndarray of shape (n,)
        The convex weights :math:`\lambda` (non-negative, summing to 1); the coreset is their
        support.
    errors : numpy.ndarray of shape (n_steps + 1,)
        :math:`\|w_t - \mu\|` for :math:`t = 0, \dots, T`.
    support : numpy.ndarray of shape (n_steps + 1,)
        The number of points with non-zero weight after each step (at most :math:`t + 1`).
    """

    w: np.ndarray
    weights: np.ndarray
    errors: np.ndarray
    support: np.ndarray

    def __post_init__(self) -> None:
        freeze_arrays(self)


def frank_wolfe_mean(X: Any, n_steps: int) -> FrankWolfeMean:
    r"""Approximate the mean of ``X`` by a Frank–Wolfe coreset (slide "Coresets for Optimization").

    Minimises :math:`f(w) = \tfrac12\|w - \mu\|^2` over :math:`\operatorname{conv} X`, from
    :math:`w_0 = x_1`. Step :math:`t`: the "most helpful point"
    :math:`s = \arg\min_{x \in X}\langle w_t - \mu, x\rangle` (the linear minimisation
    oracle), and the exact line search
    :math:`\gamma = \min\bigl(1, \langle \mu - w_t, s - w_t\rangle / \|s - w_t\|^2\bigr)`,
    :math:`w_{t+1} = (1 - \gamma) w_t + \gamma s`. With :math:`\|x\| \le 1` the curvature is
    :math:`C_f \le \operatorname{diam}^2 \le 4`, so :math:`f(w_t) \le 2C_f/(t + 2)` (Jaggi
    2013, Theorem 1), i.e. :math:`\|w_t - \mu\| \le 4/\sqrt{t + 2}` for :math:`t \ge 1`: the
    slide's :math:`O(1/\varepsilon^2)` steps to :math:`\pm\varepsilon`. Each step costs
    :math:`O(nd)`. When the duality gap :math:`\langle w_t - \mu, w_t - s\rangle` is not
    positive, :math:`w_t` is optimal and the remaining steps keep it.

    Parameters
    ----------
    X : array_like of shape (n, d)
        Points, finite (the rate assumes :math:`\|x\| \le 1`; not enforced).
    n_steps : int
        Number of steps :math:`T` (at least 1).

    Returns
    -------
    FrankWolfeMean
        The last iterate, its convex weights, and the errors and support sizes per step.

    Examples
    --------
    >>> r = frank_wolfe_mean([[1.0, 0.0], [-1.0, 0.0]], 1)
    >>> r.w.tolist(), r.support.tolist()
    ([0.0, 0.0], [1, 2])
    """
    P = check_matrix(X, "X")
    T = check_positive_int(n_steps, "n_steps")
    mu = P.mean(axis=0)
    lam = np.zeros(P.shape[0])
    lam[0] = 1.0
    w = P[0].copy()
    errors = np.empty(T + 1)
    support = np.empty(T + 1, dtype=np.int64)
    errors[0], support[0] = np.linalg.norm(w - mu), 1
    for t in range(T):
        g = w - mu  # ∇f(w_t)
        j = int(np.argmin(P @ g))  # "move towards most helpful point"
        d = P[j] - w
        gap = -float(g @ d)  # Frank–Wolfe duality gap
        dd = float(d @ d)
        if gap > 0.0 and dd > 0.0:
            gamma = min(1.0, gap / dd)  # exact line search
            w += gamma * d
            lam *= 1.0 - gamma
            lam[j] += gamma
        errors[t + 1] = np.linalg.norm(w - mu)
        support[t + 1] = int(np.count_nonzero(lam))
    return FrankWolfeMean(w=w, weights=lam, errors=errors, support=support)


def logistic_objective(X: Any, y: Any, w: Any) -> float:
    r"""Return the average logistic loss (slide "Loss Functions", natural log, no prior).

    :math:`f_X(w) = \frac1n\sum_i \log(1 + e^{-y_i\langle w, x_i\rangle})`.

    Parameters
    ----------
    X : array_like of shape (n, d)
        Points.
    y : array_like of shape (n,)
        Labels in ``{-1, +1}``.
    w : array_like of shape (d,)
        The linear classifier.

    Returns
    -------
    float
        :math:`f_X(w)`.
    """
    P = check_matrix(X, "X")
    labels = check_labels(y, P.shape[0])
    v = check_vector(w, "w", size=P.shape[1])
    return float(np.mean(logistic(labels * (P @ v))))


def logistic_minimum(
    X: Any, y: Any, radius: float, *, n_iter: int = 5000
) -> tuple[np.ndarray, float]:
    r"""Minimise :math:`f_X` over the ball :math:`\|w\| \le R` by accelerated projected gradient.

    The reference optimum against which :func:`projected_sgd`'s suboptimality is measured:
    FISTA with the step :math:`1/L`, :math:`L = \max_i\|x_i\|^2/4` (the logistic loss has
    :math:`\ell'' \le 1/4`).

    Parameters
    ----------
    X : array_like of shape (n, d)
        Points.
    y : array_like of shape (n,)
        Labels in ``{-1, +1}``.
    radius : float
        :math:`R > 0`.
    n_iter : int, default=5000
        Number of iterations.

    Returns
    -------
    w : numpy.ndarray of shape (d,)
        The minimiser found.
    value : float
        :math:`f_X(w)`, the smallest objective value seen.
    """
    P = check_matrix(X, "X")
    labels = check_labels(y, P.shape[0])
    R = check_real(radius, "radius", low=0.0, low_inclusive=False)
    n_iter = check_positive_int(n_iter, "n_iter")
    Z = labels[:, None] * P
    L = max(float((P * P).sum(axis=1).max()) / 4.0, 1e-12)
    n = P.shape[0]
    w = np.zeros(P.shape[1])
    v, s = w.copy(), 1.0
    for _ in range(n_iter):
        m = Z @ v
        grad = -(Z.T @ (0.5 * (1.0 - np.tanh(0.5 * m)))) / n  # σ(−m) = (1 − tanh(m/2))/2
        w_new = _project(v - grad / L, R)
        s_new = 0.5 * (1.0 + np.sqrt(1.0 + 4.0 * s * s))
        v = w_new + ((s - 1.0) / s_new) * (w_new - w)
        w, s = w_new, s_new
    return w, logistic_objective(P, labels, w)


def _project(w: np.ndarray, R: float) -> np.ndarray:
    norm = float(np.linalg.norm(w))
    return w if norm <= R else w * (R / norm)


def projected_sgd(
    X: Any,
    y: Any,
    checkpoints: Any,
    *,
    radius: float,
    schedule: str = "sqrt",
    average: bool = True,
    seed: Seed,
) -> np.ndarray:
    r"""SGD on the average logistic loss, as the slide states it, with the textbook steps.

    "Randomly chooses :math:`x \in X`, and step towards :math:`-\nabla f_x(w)`": at step
    :math:`t = 1, 2, \dots` draw :math:`i` uniformly, set
    :math:`w \leftarrow \Pi_R(w - \eta_t \nabla \ell(y_i\langle w, x_i\rangle))` with
    :math:`\Pi_R` the projection onto :math:`\|w\| \le R`, from :math:`w_1 = 0`. The slide
    gives neither step size nor averaging; ``schedule="sqrt"`` uses
    :math:`\eta_t = D/(G\sqrt t)` with :math:`D = 2R` and :math:`G = \max_i\|x_i\|` (the
    logistic loss is 1-Lipschitz in the margin), and ``average=True`` returns the uniform
    average :math:`\bar w_T` of :math:`w_1, \dots, w_T`, for which
    :math:`\mathbb{E} f_X(\bar w_T) - \min f_X \le \tfrac32 DG/\sqrt T` (Hazan, Theorem 3.1
    with online-to-batch conversion): the slide's :math:`O(C/\varepsilon^2)` steps.
    ``schedule="constant"`` uses :math:`\eta_t = D/G` (the strawman, with ``average=False``).
    Each step costs :math:`O(d)`.

    Parameters
    ----------
    X : array_like of shape (n, d)
        Points.
    y : array_like of shape (n,)
        Labels in ``{-1, +1}``.
    checkpoints : array_like of int
        Strictly increasing step counts :math:`T \ge 1` at which :math:`f_X` is evaluated.
    radius : float
        :math:`R > 0`.
    schedule : {"sqrt", "constant"}, default="sqrt"
        The step sizes.
    average : bool, default=True
        Evaluate the averaged iterate (else the last one).
    seed : int or numpy.random.Generator
        The stream of indices (the same seed gives the same draws whatever the schedule).

    Returns
    -------
    numpy.ndarray of shape (len(checkpoints),)
        :math:`f_X` of the averaged (or last) iterate at each checkpoint.
    """
    P = check_matrix(X, "X")
    labels = check_labels(y, P.shape[0])
    cps = check_int_vector(checkpoints, "checkpoints", minimum=1)
    if np.any(np.diff(cps) <= 0):
        raise ValueError(f"checkpoints must be strictly increasing; got {cps.tolist()}")
    R = check_real(radius, "radius", low=0.0, low_inclusive=False)
    schedule = check_in(schedule, "schedule", SCHEDULES)
    if not isinstance(average, bool | np.bool_):
        raise ValueError(f"average must be a bool; got {average!r}")
    rng = as_generator(seed)
    T = int(cps[-1])
    idx = rng.integers(P.shape[0], size=T)
    Z = labels[:, None] * P
    G = max(float(np.linalg.norm(P, axis=1).max()), 1e-12)
    D = 2.0 * R
    w = np.zeros(P.shape[1])
    w_bar = np.zeros_like(w)
    out = np.empty(cps.size)
    k = 0
    for t in range(1, T + 1):
        w_bar += (w - w_bar) / t  # average of w_1, ..., w_t
        if t == cps[k]:
            out[k] = logistic_objective(P, labels, w_bar if average else w)
            k += 1
        z = Z[idx[t - 1]]
        m = float(z @ w)
        eta = D / (G * np.sqrt(t)) if schedule == "sqrt" else D / G
        w = _project(w + eta * 0.5 * (1.0 - np.tanh(0.5 * m)) * z, R)  # −∇ℓ = σ(−m) z
    return out
