r"""The :math:`\eta`-perturbation of Section 5.1: Lemma 6 and the perturbed bounds.

Section 5.1 of Kontorovich & Weiss [1]_ evaluates the classifier through a :math:`(1+\eta)`
nearest-neighbour oracle (eq. 15) and derives, "in three steps, whose details are deferred to
Appendix D" (missing from our copy):

(i) the margin function :math:`h` of eq. (16) becomes a function :math:`\tilde h` computed with
    the oracle's answers;
(ii) :math:`\|h - \tilde h\|_\infty \le 2\eta` (as printed);
(iii) Lemma 6: for :math:`\varepsilon > 2\eta > 0`,
    :math:`N(\varepsilon, H_{L,2\eta}, \|\cdot\|_\infty) \le N(\varepsilon - 2\eta, H_L,
    \|\cdot\|_\infty)`, where :math:`H_{L,2\eta} = \{T_{[-1,1]}(h') : \|h' - h\|_\infty \le
    2\eta, h \in H_L\}`,

which "readily yields :math:`\eta`-perturbed versions of Theorems 4 and 5", roughly
:math:`L \to L(1 + O(\eta))`. The perturbed theorems are not printed; this module states the
versions we derive and uses them (:func:`delta_eta`).

* :func:`log_covering_lemma6` -- Lemma 6 with Lemma 2 on its right-hand side.
* :func:`delta_eta` -- :math:`\Delta_\eta`: Theorem 5 with Lemma 6 at the scale
  :math:`1/4` of its covering number (the scale at which Lemma 2's :math:`\log(5k/\varepsilon)`
  is Theorem 5's :math:`\log 20k`), i.e. :math:`(16L)^D\log 20k \to (16L/(1-8\eta))^D
  \log(20k/(1-8\eta))` (needs :math:`\eta < 1/8`, Lemma 6's :math:`\varepsilon > 2\eta`); and
  Theorem 4 with :math:`R_n(H_{L,2\eta}) \le R_n(H_L) + 2\eta` (every function of
  :math:`H_{L,2\eta}` is :math:`2\eta`-close to one of :math:`H_L`, and the truncation is
  1-Lipschitz), which adds :math:`4\eta` through the factor 2 of the standard Rademacher bound.
* :func:`eq16_oracle_deviation` -- the largest :math:`|h - \tilde h|` any :math:`(1+\eta)`
  oracle can cause at given points, against the printed :math:`2\eta` of step (ii) and against
  our pointwise bound :math:`\tfrac{\eta}{2} L \max\{d_y, d_{\neg y}\}`.

Why step (ii) needs a qualification
-----------------------------------
With :math:`d_y = d(x, S_1^y)` and :math:`d_{\neg y} = d(x, S_1 \setminus S_1^y)`, eq. (16)
is :math:`h(x, y) = T_{[-1,1]}\big(L(d_{\neg y} - d_y)/2\big)` (case analysis of its min and
max; :func:`mlgeom.metric_nn.srm.margin_function` and the tests check it). An oracle that
returns each distance inflated by a factor in :math:`[1, 1+\eta]` moves the argument by at most
:math:`\eta L \max\{d_y, d_{\neg y}\}/2`, and exactly that much where the truncation is
inactive: :math:`|h - \tilde h|` exceeds :math:`2\eta` wherever
:math:`L \max\{d_y, d_{\neg y}\} > 4`, i.e. away from :math:`S_1` at the scale :math:`1/L`.

References
----------
.. [1] A. Kontorovich and R. Weiss, "Maximum Margin Multiclass Nearest Neighbors", ICML 2014.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mlgeom._validation import check_indices, check_matrix, check_positive_int, check_real
from mlgeom.metric_nn import bounds as B

__all__ = ["delta_eta", "eq16_oracle_deviation", "log_covering_lemma6"]


def _eta(eta: Any) -> float:
    return check_real(eta, "eta", low=0.0)


def log_covering_lemma6(eps: Any, eta: float, L: Any, k: Any, D: float) -> np.ndarray:
    r"""Lemma 6 with Lemma 2: a bound on :math:`\log N(\varepsilon, H_{L,2\eta}, \|\cdot\|_\infty)`.

    :math:`\log N(\varepsilon, H_{L,2\eta}) \le \log N(\varepsilon - 2\eta, H_L) \le
    (16L/(\varepsilon - 2\eta))^D \log(5k/(\varepsilon - 2\eta))` (Lemma 6, then Lemma 2).

    Parameters
    ----------
    eps : float or array_like
        Scale :math:`\varepsilon`, with :math:`\varepsilon > 2\eta` (Lemma 6's condition).
    eta : float
        Oracle approximation :math:`\eta \ge 0` (``0`` gives Lemma 2).
    L : float or array_like
        Lipschitz constant (> 0).
    k : int or array_like
        Number of classes (>= 2).
    D : float
        Doubling dimension (> 0).

    Returns
    -------
    numpy.ndarray
        The bound on the metric entropy.
    """
    eta = _eta(eta)
    eps = B._pos(eps, "eps")
    if np.any(eps <= 2.0 * eta):
        raise ValueError(f"Lemma 6 needs eps > 2 eta = {2 * eta}; got eps = {eps.min()}")
    return B.log_covering_lemma2(eps - 2.0 * eta, L, k, D)


def delta_eta(
    bound: str,
    n: Any,
    L: Any,
    delta: float,
    k: Any,
    D: float,
    eta: float,
    c_D: float = B.C_D_DEFAULT,
    fat_factor: float = 2.0,
) -> np.ndarray:
    r"""Compute the :math:`\eta`-perturbed complexity term :math:`\Delta_\eta` (Section 5.1).

    * ``"rad"``: :math:`\Delta_{\rm Rad}(n, L, \delta) + 4\eta` (Theorem 4 with
      :math:`R_n(H_{L,2\eta}) \le R_n(H_L) + 2\eta`);
    * ``"fat"``: Theorem 5 with :math:`2(16L)^D \log 20k` replaced by
      :math:`2(16L/(1-8\eta))^D\log(20k/(1-8\eta))` (Lemma 6 at the covering scale
      :math:`1/4`); :math:`+\infty` for :math:`\eta \ge 1/8`, where Lemma 6 does not apply;
    * ``"min"``: their minimum (Section 3.2.4).

    ``eta = 0`` gives :func:`mlgeom.metric_nn.bounds.complexity`. Our derivation: the paper
    states only that the perturbed theorems follow (proof in Appendix D, missing from our copy).

    Parameters
    ----------
    bound : {"min", "rad", "fat"}
        Which term.
    n, L, delta, k, D, c_D, fat_factor
        As in :func:`mlgeom.metric_nn.bounds.complexity`.
    eta : float
        Oracle approximation :math:`\eta \ge 0`.

    Returns
    -------
    numpy.ndarray
        :math:`\Delta_\eta`.
    """
    eta = _eta(eta)
    if bound not in B.BOUNDS:
        raise ValueError(f"bound must be one of 'min', 'rad', 'fat'; got {bound!r}")
    rad = B.delta_rad(n, L, delta, k, D, c_D) + 4.0 * eta
    fat0 = B.delta_fat(n, L, delta, k, D, fat_factor)  # validates n, L, k, D, fat_factor
    if eta >= 0.125:
        fat = np.full_like(fat0, np.inf)
    else:
        n_, L_, k_ = B._floats(n, "n"), B._floats(L, "L"), B._floats(k, "k")
        shrink = 1.0 - 8.0 * eta  # scale 1/4 -> 1/4 - 2 eta
        fat = B._fat_term(n_, L_, delta, k_, D, fat_factor, shrink)
    if bound == "rad":
        return rad
    if bound == "fat":
        return fat
    return np.minimum(rad, fat)


def eq16_oracle_deviation(
    dist: Any, y_s1: Any, n_classes: int, L: float, eta: float
) -> tuple[np.ndarray, np.ndarray]:
    r"""Largest :math:`|h(x, y) - \tilde h(x, y)|` over all :math:`(1+\eta)` oracles (eq. 15, 16).

    :math:`h(x, y) = T_{[-1,1]}(L(d_{\neg y} - d_y)/2)` is monotone in each distance, so over
    the oracle answers :math:`d'_y \in [d_y, (1+\eta)d_y]`,
    :math:`d'_{\neg y} \in [d_{\neg y}, (1+\eta)d_{\neg y}]` the extremes are the two corners
    that inflate one distance and not the other.

    Parameters
    ----------
    dist : array_like, shape (m, |S_1|)
        Distances from the query points to :math:`S_1` (divided by the training diameter).
    y_s1 : array_like of int, shape (|S_1|,)
        Class indices of :math:`S_1` in ``0..n_classes-1``.
    n_classes : int
        Number of classes :math:`k` (>= 2).
    L : float
        Lipschitz constant (>= 0).
    eta : float
        Oracle approximation :math:`\eta \ge 0`.

    Returns
    -------
    deviation : numpy.ndarray, shape (m, n_classes)
        The largest :math:`|h - \tilde h|` at each point and class.
    bound : numpy.ndarray, shape (m, n_classes)
        Our pointwise bound :math:`\tfrac{\eta}{2} L \max\{d_y, d_{\neg y}\}` (the printed one
        is :math:`2\eta`); ``inf`` where a class has no point in :math:`S_1`.
    """
    dist = check_matrix(dist, "dist")
    if np.any(dist < 0):
        raise ValueError(f"dist must be >= 0; got {dist.min()}")
    n_classes = check_positive_int(n_classes, "n_classes", minimum=2)
    y_s1 = check_indices(y_s1, "y_s1", n=n_classes, ndim=1)
    if y_s1.shape[0] != dist.shape[1]:
        raise ValueError(
            f"y_s1 must have {dist.shape[1]} labels (columns of dist); got {len(y_s1)}"
        )
    L = check_real(L, "L", low=0.0)
    eta = _eta(eta)
    m = dist.shape[0]
    d_cls = np.full((m, n_classes), np.inf)
    for c in range(n_classes):
        if np.any(y_s1 == c):
            d_cls[:, c] = dist[:, y_s1 == c].min(axis=1)
    d_not = np.empty_like(d_cls)
    for c in range(n_classes):
        d_not[:, c] = np.delete(d_cls, c, axis=1).min(axis=1)

    def h(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore"):
            u = 0.5 * L * (b - a)
        return np.clip(np.nan_to_num(u, nan=0.0), -1.0, 1.0)

    h0 = h(d_cls, d_not)
    lo = h((1.0 + eta) * d_cls, d_not)
    hi = h(d_cls, (1.0 + eta) * d_not)
    deviation = np.maximum(h0 - lo, hi - h0)
    with np.errstate(invalid="ignore"):
        bound = 0.5 * eta * L * np.maximum(d_cls, d_not)
    return deviation, np.where(np.isnan(bound), 0.0, bound)
