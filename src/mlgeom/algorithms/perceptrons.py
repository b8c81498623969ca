r"""The perceptron and its max-margin variant, as in the primer's "Perceptron Algorithm" slides.

Setting of the slides: points :math:`x \in X \subset \mathbb{R}^d` with
:math:`\|x\| \le 1`, labels :math:`\sigma(x) \in \{-1, +1\}`, and halfspaces through the
origin (a bias is obtained by appending a constant coordinate, slide "Force h through
Origin"). Everything here works with the signed points :math:`\sigma(x) x`: a halfspace with
normal :math:`w` classifies every point correctly iff :math:`\langle \sigma(x)x, w\rangle > 0`
for all :math:`x`.

* :func:`perceptron` is the cyclic perceptron of the "Implementation Hints" pseudo-code
  (Rosenblatt 1958); by Novikoff's theorem it makes at most :math:`1/\gamma^2` updates on
  data with margin :math:`\gamma` (section "Geometry of Why Perceptron Works").
* :func:`max_margin_perceptron` is the slides' variant that always adds the *worst* point,
  :math:`x' = \arg\min_x \langle \sigma(x)x, w\rangle`; it is Frank–Wolfe on
  :math:`\mathrm{conv}\{\sigma(x)x\}` and its normalised margin tends to the maximum margin.
* :func:`margin` is the normalised margin :math:`\min_i y_i\langle x_i, w\rangle/\|w\|`.
* :func:`planted_margin_data` draws separable data in the unit ball with a planted margin.

References
----------
.. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", slides "Perceptron
   Algorithm", "Polytope Distance"; sections "Implementation Hints" and "Geometry of Why
   Perceptron Works".
.. [2] F. Rosenblatt, "The perceptron: a probabilistic model for information storage and
   organization in the brain", Psychological Review 65(6), 1958.
.. [3] A. B. J. Novikoff, "On convergence proofs on perceptrons", Symposium on the
   Mathematical Theory of Automata, 1962.
.. [4] K. L. Clarkson, "Coresets, sparse greedy approximation, and the Frank-Wolfe
   algorithm", SODA 2008.
.. [5] B. Gärtner and M. Jaggi, "Coresets for polytope distance", SoCG 2009.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from mlgeom._frozen import freeze_arrays
from mlgeom._validation import check_labels, check_matrix, check_positive_int, check_real
from mlgeom.algorithms.margin_losses import margins as _margins
from mlgeom.random import Seed, as_generator

__all__ = [
    "DEFAULT_MAX_UPDATES",
    "PerceptronResult",
    "MaxMarginPerceptronResult",
    "perceptron",
    "max_margin_perceptron",
    "margin",
    "planted_margin_data",
]

DEFAULT_MAX_UPDATES = 100_000
r"""Cap on the number of updates :math:`T` used by :func:`perceptron` when none is given.

Novikoff's bound :math:`t + 1 \le 1/\gamma^2` makes it unreachable on data with margin
:math:`\gamma > 1/\sqrt{100\,001} \approx 0.00316` in the unit ball; on non-separable data
it is what stops the loop.
"""


def _signed_points(X: Any, y: Any) -> np.ndarray:
    r"""Validate ``X`` and ``y`` and return the signed points :math:`\sigma(x_i) x_i` as rows."""
    X = check_matrix(X, "X")
    y = check_labels(y, X.shape[0], "y")
    return y[:, None] * X


@dataclass(frozen=True, eq=False)
class PerceptronResult:
    r"""Outcome of :func:`perceptron`.

    Attributes
    ----------
    w : numpy.ndarray of shape (d,)
        The returned unit normal :math:`w / \|w\|` (``return w <- w/||w||``); all zeros when
        ``zero_weight`` is true (the zero vector cannot be normalised).
    w_raw : numpy.ndarray of shape (d,)
        The unnormalised :math:`w = y_1 x_1 + \sum_{\text{updates}} y_i x_i`.
    n_updates : int
        Number of updates :math:`t` (the initialisation :math:`w = y_1 x_1` is not counted).
    n_checks : int
        Number of steps, i.e. of points examined with the test
        :math:`y_i \langle x_i, w\rangle < 0`.
    converged : bool
        True iff the run stopped after a full cycle of ``n`` checks without an update, so that
        :math:`y_i \langle x_i, w\rangle \ge 0` for every ``i`` and ``w`` is non-zero. False
        when it stopped at :math:`t = T` or because ``w`` became zero.
    zero_weight : bool
        True iff ``w_raw`` is the zero vector (the first point is the origin, or an update
        cancelled ``w``). The strict test never fires again from :math:`w = 0`, so the run stops
        there with ``converged=False``; this can only happen on data that is not strictly
        separable by a halfspace through the origin.
    max_updates : int
        The cap :math:`T` that was used.
    """

    w: np.ndarray
    w_raw: np.ndarray
    n_updates: int
    n_checks: int
    converged: bool
    zero_weight: bool
    max_updates: int

    def __post_init__(self) -> None:
        freeze_arrays(self)


@dataclass(frozen=True, eq=False)
class MaxMarginPerceptronResult:
    r"""Outcome of :func:`max_margin_perceptron`.

    Attributes
    ----------
    w : numpy.ndarray of shape (d,)
        The unit normal :math:`w / \|w\|`; all zeros if ``w_raw`` is zero.
    w_raw : numpy.ndarray of shape (d,)
        The unnormalised sum :math:`w = \sigma(x_1)x_1 + \sum_{k=1}^{n\_steps}\sigma(x'_k)x'_k`.
    n_steps : int
        Number of steps run (always the requested number).
    margin_history : numpy.ndarray of shape (n_steps + 1,)
        Normalised margin :math:`\min_i y_i\langle x_i, w\rangle / \|w\|` of the start
        (entry 0) and after each step; ``nan`` where :math:`w = 0`.
    indices : numpy.ndarray of shape (n_steps,)
        Index of the point :math:`x'` added at each step.
    """

    w: np.ndarray
    w_raw: np.ndarray
    n_steps: int
    margin_history: np.ndarray
    indices: np.ndarray

    def __post_init__(self) -> None:
        freeze_arrays(self)


def perceptron(X: Any, y: Any, *, max_updates: int | None = None) -> PerceptronResult:
    r"""Run the cyclic perceptron of the primer's "Implementation Hints".

    Pseudo-code as printed (indices from 1)::

        Initialize w = y_1 x_1; Set i = 1; t = 0; LAST-UPDATE = 1
        repeat
          if y_i <x_i, w> < 0
            w <- w + y_i x_i
            t = t + 1; LAST-UPDATE = i
            i = i + 1 (mod n)
        until (t = T or LAST-UPDATE = i)
        return w <- w/||w||

    Two readings differ from the printed text, both following its evident intent:

    * **The index advances at every step.** The printed indentation puts
      ``i = i + 1 (mod n)`` inside the ``if``, which would stop after the first correctly
      classified point; the prose says the index "is modularly incremented every step", and
      that is what is implemented.
    * **Stopping rule: a full cycle of** ``n`` **checks without an update.** With the increment
      before the test ``LAST-UPDATE = i``, the printed loop stops when the index comes back to
      the last-updated point *before re-checking it*, i.e. after ``n - 1`` clean checks; that
      point can still be misclassified after its own update. Here the run stops after ``n``
      consecutive clean checks, so a converged ``w`` has :math:`y_i\langle x_i, w\rangle \ge 0`
      for **every** ``i``. (Before the first update the two rules coincide: ``n`` checks.)

    The test is strict (:math:`< 0`, as printed): a point on the boundary is not updated on.
    Each step costs :math:`O(d)` (one inner product, at most one vector addition).

    Parameters
    ----------
    X : array_like of shape (n, d)
        Points, one per row; finite, at least one. The theory assumes :math:`\|x\| \le 1`
        and a halfspace through the origin; neither is enforced.
    y : array_like of shape (n,)
        Labels in ``{-1, +1}``.
    max_updates : int, optional
        The cap :math:`T` on the number of updates :math:`t` (``until t = T``); at least 1.
        Default :data:`DEFAULT_MAX_UPDATES` (100 000), so the loop always terminates: at most
        :math:`T` updates, with fewer than ``n`` clean checks between two of them.

    Returns
    -------
    PerceptronResult
        ``w`` (unit), ``w_raw``, ``n_updates``, ``n_checks``, ``converged``, ``zero_weight``,
        ``max_updates``.

    Raises
    ------
    ValueError
        If ``X`` is not a finite non-empty 2-D array, ``y`` is not a ``{-1, +1}`` vector of the
        same length, or ``max_updates`` is not a positive integer or ``None``.

    Notes
    -----
    **Zero vector.** If :math:`w` becomes :math:`0` (or the first point is the origin), the
    strict test can never fire again and normalisation is impossible. The run then stops at
    once and returns ``zero_weight=True``, ``converged=False``, ``w`` all zeros and ``w_raw``
    zero, instead of raising: on data with margin :math:`\gamma > 0` this cannot happen
    (:math:`\langle w, w^*\rangle \ge \gamma(t + 1) > 0`), so it certifies non-separability.

    **Novikoff's bound.** If :math:`\|x_i\| \le 1` and some unit :math:`w^*` has
    :math:`y_i\langle x_i, w^*\rangle \ge \gamma > 0` for all ``i``, then, counting the
    initialisation as an update, :math:`\langle w, w^*\rangle \ge \gamma (t + 1)` and
    :math:`\|w\|^2 \le t + 1`, hence :math:`t + 1 \le 1/\gamma^2`.

    References
    ----------
    .. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", section
       "Implementation Hints" (Algorithm Perceptron(X, y)) and "Geometry of Why Perceptron
       Works".
    .. [2] F. Rosenblatt, "The perceptron: a probabilistic model for information storage and
       organization in the brain", Psychological Review 65(6), 1958.
    .. [3] A. B. J. Novikoff, "On convergence proofs on perceptrons", Symposium on the
       Mathematical Theory of Automata, 1962.

    Examples
    --------
    >>> res = perceptron([[1.0, 0.2], [-0.5, 1.0], [-1.0, -0.1]], [1, 1, -1])
    >>> res.converged, res.n_updates
    (True, 1)
    """
    Z = _signed_points(X, y)
    n = Z.shape[0]
    T = (
        DEFAULT_MAX_UPDATES
        if max_updates is None
        else check_positive_int(max_updates, "max_updates")
    )

    w = Z[0].copy()  # "Initialize w = y_1 x_1" (the first point, index 0)
    i = 0  # "Set i = 1" (0-based)
    t = 0  # "t = 0"
    clean = 0  # consecutive checks without an update (replaces "LAST-UPDATE = 1")
    n_checks = 0
    converged = False
    zero_weight = not np.any(w)
    while not zero_weight:
        n_checks += 1
        z_i = Z[i]
        if float(z_i @ w) < 0.0:  # "if y_i <x_i, w> < 0"
            w += z_i  # "w <- w + y_i x_i"
            t += 1  # "t = t + 1"
            clean = 0  # "LAST-UPDATE = i"
            if not np.any(w):
                zero_weight = True
            elif t == T:  # "until (t = T ..."
                break
        else:
            clean += 1
            if clean == n:  # "... or LAST-UPDATE = i)", read as: a full clean cycle
                converged = True
                break
        i = (i + 1) % n  # "i = i + 1 (mod n)", at every step (prose)

    norm = float(np.linalg.norm(w))
    w_unit = w / norm if norm > 0.0 else np.zeros_like(w)  # "return w <- w/||w||"
    return PerceptronResult(
        w=w_unit,
        w_raw=w,
        n_updates=t,
        n_checks=n_checks,
        converged=converged,
        zero_weight=zero_weight,
        max_updates=T,
    )


def max_margin_perceptron(X: Any, y: Any, n_steps: int) -> MaxMarginPerceptronResult:
    r"""Run the slides' max-margin perceptron for exactly ``n_steps`` steps.

    Slide "Perceptron Algorithm" (last version)::

        choose w = sigma(x) x
        for i = 1 to 1/(eps gamma^2) steps
            x' = argmin_x <sigma(x) x, w>
            w = w + sigma(x') x'

    The start is the first point. Unlike :func:`perceptron` every step adds a point, the one
    with the smallest margin, even when all points are already correctly classified.

    This is Frank–Wolfe for :math:`\min_{u \in C} \|u\|^2/2` on
    :math:`C = \mathrm{conv}\{\sigma(x)x\}` with the open-loop step size :math:`1/(k+1)` at
    step :math:`k = 1, 2, \dots`: with :math:`u_k = w_k/(k+1)` the update reads
    :math:`u_k = u_{k-1} + (\sigma(x')x' - u_{k-1})/(k+1)`, and :math:`x'` is the linear
    minimisation oracle at the gradient :math:`u_{k-1}`. The normalised margin
    :math:`\min_i \langle \sigma(x_i)x_i, w\rangle/\|w\|` never exceeds the maximum
    margin :math:`\gamma^* = \min_{u\in C}\|u\|` (when positive) and tends to it, with
    :math:`O(1/(\varepsilon\gamma^2))` steps for a :math:`(1-\varepsilon)` approximation in
    the slides' accounting (Clarkson 2008, Gärtner & Jaggi 2009).

    The margins :math:`m_i = \langle \sigma(x_i)x_i, w\rangle` are kept up to date with one
    matrix–vector product per step, :math:`m \mathrel{+}= Z\,\sigma(x')x'` (a column of the
    Gram matrix of the signed points :math:`Z`), so a step costs :math:`O(nd)`.

    Parameters
    ----------
    X : array_like of shape (n, d)
        Points, one per row; finite, at least one (theory: :math:`\|x\| \le 1`).
    y : array_like of shape (n,)
        Labels in ``{-1, +1}``.
    n_steps : int
        Number of steps (at least 1); the slides take :math:`1/(\varepsilon\gamma^2)`.

    Returns
    -------
    MaxMarginPerceptronResult
        ``w`` (unit), ``w_raw``, ``n_steps``, ``margin_history`` (length ``n_steps + 1``),
        ``indices``.

    Raises
    ------
    ValueError
        If ``X``, ``y`` are invalid (see :func:`perceptron`) or ``n_steps`` is not a positive
        integer.

    References
    ----------
    .. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", slides "Perceptron
       Algorithm" and "Polytope Distance".
    .. [2] K. L. Clarkson, "Coresets, sparse greedy approximation, and the Frank-Wolfe
       algorithm", SODA 2008.
    .. [3] B. Gärtner and M. Jaggi, "Coresets for polytope distance", SoCG 2009.
    .. [4] E. G. Gilbert, "An iterative procedure for computing the minimum of a quadratic
       form on a convex set", SIAM J. Control 4(1), 1966.
    """
    Z = _signed_points(X, y)
    n_steps = check_positive_int(n_steps, "n_steps")

    w = Z[0].copy()  # "choose w = sigma(x) x" (the first point)
    m = Z @ w  # margins <sigma(x_i) x_i, w>, computed once
    history = np.empty(n_steps + 1)
    indices = np.empty(n_steps, dtype=np.intp)

    def normalised_margin() -> float:
        norm = float(np.linalg.norm(w))
        return float(m.min()) / norm if norm > 0.0 else float("nan")

    history[0] = normalised_margin()
    for k in range(n_steps):  # "for i = 1 to 1/(eps gamma^2) steps"
        j = int(np.argmin(m))  # "x' = argmin <sigma(x) x, w>"
        z_j = Z[j]
        w += z_j  # "w = w + sigma(x') x'"
        m += Z @ z_j  # Gram column: <sigma(x_i) x_i, sigma(x') x'>
        indices[k] = j
        history[k + 1] = normalised_margin()

    norm = float(np.linalg.norm(w))
    w_unit = w / norm if norm > 0.0 else np.zeros_like(w)
    return MaxMarginPerceptronResult(
        w=w_unit, w_raw=w, n_steps=n_steps, margin_history=history, indices=indices
    )


def margin(X: Any, y: Any, w: Any) -> float:
    r"""Normalised margin :math:`\min_i y_i \langle x_i, w\rangle / \|w\|` of ``w`` on the data.

    Positive iff the halfspace through the origin with normal ``w`` classifies every point
    strictly correctly; then it is the smallest distance of a point to the boundary.

    Parameters
    ----------
    X : array_like of shape (n, d)
        Points, one per row; finite.
    y : array_like of shape (n,)
        Labels in ``{-1, +1}``.
    w : array_like of shape (d,)
        Normal vector; finite and non-zero (need not be unit).

    Returns
    -------
    float
        The normalised margin.

    Raises
    ------
    ValueError
        If an input is invalid or ``w`` is the zero vector.

    References
    ----------
    .. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", section "Geometry
       of Why Perceptron Works" (margin :math:`\gamma` of a classifier).
    """
    z = _margins(X, y, w)
    norm = float(np.linalg.norm(np.asarray(w, dtype=np.float64)))
    if norm == 0.0:
        raise ValueError("w must be non-zero to define a margin; got the zero vector")
    return float(z.min()) / norm


def planted_margin_data(
    n: int, d: int, gamma: float, *, seed: Seed
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""Draw ``n`` labelled points in the unit ball of :math:`\mathbb{R}^d` with margin ``gamma``.

    A unit vector :math:`w^*` is drawn uniformly from the sphere and each point starts
    uniform in the unit ball, :math:`x = a w^* + x_\perp` with :math:`a = \langle w^*, x\rangle`.
    The component along :math:`w^*` is pushed out of the slab :math:`|a| < \gamma` by
    :math:`a \mapsto \operatorname{sign}(a)(\gamma + (1 - \gamma)|a|)` and :math:`x_\perp` is
    shrunk by :math:`\sqrt{(1 - a'^2)/(1 - a^2)} \le 1`, so the point stays in the unit ball
    (no rejection sampling, so any ``gamma`` in (0, 1) is cheap; :math:`\gamma` in the map
    is raised by a rounding slack of :math:`\max(10^{-9}(1 - \gamma), 64\epsilon)`, capped
    at :math:`(1 - \gamma)/2`). Labels are
    :math:`y = \operatorname{sign}\langle w^*, x\rangle`. The result is guaranteed (and
    checked) to satisfy :math:`\|x_i\| \le 1` and :math:`|\langle w^*, x_i\rangle| \ge \gamma`
    as computed in float64, so ``gamma`` is a lower bound on the maximum margin through the
    origin. The points are *not* uniform on the ball minus the slab.

    Parameters
    ----------
    n : int
        Number of points (at least 1).
    d : int
        Dimension (at least 1; for ``d = 1`` the points lie in :math:`[-1, -\gamma]\cup
        [\gamma, 1]`).
    gamma : float
        Planted margin, in the open interval (0, 1).
    seed : int or numpy.random.Generator
        Randomness (see :func:`mlgeom.random.as_generator`); a given int gives the same data.

    Returns
    -------
    X : numpy.ndarray of shape (n, d)
        Points, :math:`\|x_i\| \le 1`.
    y : numpy.ndarray of shape (n,)
        Labels in ``{-1.0, +1.0}``.
    w_star : numpy.ndarray of shape (d,)
        The planted unit normal.

    Raises
    ------
    ValueError
        If ``n`` or ``d`` is not a positive integer or ``gamma`` is not in (0, 1).

    References
    ----------
    .. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", slides "Perceptron
       Algorithm" (assumption :math:`\|x\| \le 1`, margin :math:`\gamma`).
    """
    n = check_positive_int(n, "n")
    d = check_positive_int(d, "d")
    gamma = check_real(gamma, "gamma", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
    rng = as_generator(seed)

    w_star = rng.standard_normal(d)
    w_star /= np.linalg.norm(w_star)
    g = rng.standard_normal((n, d))
    g /= np.linalg.norm(g, axis=1, keepdims=True)
    X = g * rng.random(n)[:, None] ** (1.0 / d)  # uniform in the unit ball

    # A tiny slack absorbs rounding, so that the computed margins are >= gamma.
    eps = float(np.finfo(np.float64).eps)
    target = gamma + min(max(1e-9 * (1.0 - gamma), 64 * eps), 0.5 * (1.0 - gamma))
    a = X @ w_star
    perp = X - a[:, None] * w_star
    a_abs = np.minimum(np.abs(a), 1.0)
    a_new = target + (1.0 - target) * a_abs
    sign = np.where(a < 0.0, -1.0, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        shrink = np.sqrt(np.clip(1.0 - a_new**2, 0.0, None) / (1.0 - a_abs**2))
    shrink = np.where(np.isfinite(shrink), np.minimum(shrink, 1.0), 0.0)
    X = (sign * a_new)[:, None] * w_star + shrink[:, None] * perp
    norms = np.linalg.norm(X, axis=1)
    over = norms > 1.0  # by rounding only
    X[over] /= (norms[over] * (1.0 + 4 * eps))[:, None]
    y = np.where(X @ w_star < 0.0, -1.0, 1.0)

    realised = float(np.min(np.abs(X @ w_star)))
    if realised < gamma or float(np.max(np.linalg.norm(X, axis=1))) > 1.0:  # pragma: no cover
        raise RuntimeError(
            f"planted_margin_data: realised margin {realised!r} < gamma={gamma!r} "
            "or a point outside the unit ball; gamma is too close to 1 for float64"
        )
    return X, y, w_star
