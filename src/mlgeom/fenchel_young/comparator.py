r"""The comparator side of the surrogate regret: :math:`\sum_t S_t(U)` and the best offline U.

The surrogate regret of Algorithm 2 against a fixed :math:`U` is
:math:`R_T(U) = \sum_t E_t[L_t(\hat y_t)] - \sum_t S_t(U)` (Section 1), and the theorems bound it
by :math:`c\,\|U\|_F^2` *for every* :math:`U`. Two convex fits make this measurable:

* :func:`fit_ball` — the best :math:`U` in the Frobenius ball :math:`\|U\|_F \le r`
  (accelerated projected gradient, FISTA);
* :func:`fit_ridge` — :math:`\min_U \sum_t S_t(U) + c\|U\|_F^2` (L-BFGS). A bound
  :math:`R_T(U) \le c\|U\|_F^2` holds for every :math:`U` exactly when
  :math:`\sum_t E_t \le \min_U \{\sum_t S_t(U) + c\|U\|_F^2\}`, so one ridge fit checks a
  theorem against all comparators at once, and :func:`worst_case_constant` finds the smallest
  such :math:`c`, :math:`c^* = \sup_U R_T(U)/\|U\|_F^2`, by bisection.

Sums over rounds are count-weighted sums over the stream's pool.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize

from mlgeom._validation import check_array, check_positive_int, check_real
from mlgeom.fenchel_young.losses import Structure
from mlgeom.fenchel_young.streams import Stream, check_stream

__all__ = ["Fit", "stream_loss", "fit_ridge", "fit_ball", "worst_case_constant"]


@dataclass(frozen=True)
class Fit:
    r"""A comparator: ``U``, its cumulative loss :math:`\sum_t S_t(U)` and :math:`\|U\|_F`."""

    U: np.ndarray
    total_loss: float
    norm: float


def _pool(stream: Stream) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    c = stream.counts()
    keep = c > 0
    return stream.X[keep], stream.Y[keep], c[keep]


def _loss_grad(structure, U, X, Y, w, scale):
    theta = X @ U.T
    losses = structure.loss(theta, Y)
    resid = structure.predict(theta) - Y
    return scale * float(w @ losses), scale * (resid * w[:, None]).T @ X


def stream_loss(structure: Structure, U: np.ndarray, stream: Stream, loss_scale: float = 1.0):
    r""":math:`\sum_{t\le T} s\,S_\Omega(Ux_t; y_t)` over the stream's rounds."""
    check_stream(structure, stream)
    loss_scale = check_real(loss_scale, "loss_scale", low=0.0, low_inclusive=False)
    X, Y, w = _pool(stream)
    Ua = check_array(U, "U", shape=(structure.d, X.shape[1]))
    return loss_scale * float(w @ structure.loss(X @ Ua.T, Y))


def fit_ridge(
    structure: Structure,
    stream: Stream,
    coef: float,
    *,
    loss_scale: float = 1.0,
    U0: np.ndarray | None = None,
    max_iter: int = 5000,
) -> Fit:
    r""":math:`\arg\min_U \sum_t s\,S_t(U) + \text{coef}\,\|U\|_F^2` by L-BFGS.

    Parameters
    ----------
    structure : Structure
        Output space and loss.
    stream : Stream
        Rounds defining :math:`S_t`.
    coef : float
        Ridge coefficient :math:`c > 0`.
    loss_scale : float, default=1.0
        :math:`s` (``1/ln 2`` for Theorem 5.1's loss).
    U0 : numpy.ndarray, optional
        Warm start.
    max_iter : int, default=5000
        L-BFGS iterations.
    """
    check_stream(structure, stream)
    c = check_real(coef, "coef", low=0.0, low_inclusive=False)
    s = check_real(loss_scale, "loss_scale", low=0.0, low_inclusive=False)
    X, Y, w = _pool(stream)
    shape = (structure.d, X.shape[1])

    def fun(u):
        U = u.reshape(shape)
        f, g = _loss_grad(structure, U, X, Y, w, s)
        return f + c * float(u @ u), (g + 2 * c * U).ravel()

    x0 = np.zeros(np.prod(shape)) if U0 is None else check_array(U0, "U0", shape=shape).ravel()
    res = minimize(
        fun,
        x0,
        jac=True,
        method="L-BFGS-B",
        options={"maxiter": check_positive_int(max_iter, "max_iter"), "gtol": 1e-9, "ftol": 1e-13},
    )
    U = res.x.reshape(shape)
    return Fit(U, s * float(w @ structure.loss(X @ U.T, Y)), float(np.linalg.norm(U)))


def fit_ball(
    structure: Structure,
    stream: Stream,
    radius: float,
    *,
    loss_scale: float = 1.0,
    max_iter: int = 2000,
    tol: float = 1e-10,
) -> Fit:
    r""":math:`\arg\min\{\sum_t s\,S_t(U) : \|U\|_F \le r\}` by FISTA with exact projection.

    The step is :math:`1/L` with :math:`L = s\cdot\text{structure.smoothness}\cdot
    \lambda_{\max}(\sum_t x_tx_t^\top)` (the Lipschitz constant of the gradient).
    """
    check_stream(structure, stream)
    r = check_real(radius, "radius", low=0.0, low_inclusive=False)
    s = check_real(loss_scale, "loss_scale", low=0.0, low_inclusive=False)
    tol = check_real(tol, "tol", low=0.0)
    X, Y, w = _pool(stream)
    Lip = s * structure.smoothness * float(np.linalg.eigvalsh((X * w[:, None]).T @ X)[-1])
    step = 1.0 / max(Lip, 1e-12)

    def proj(U):
        n = np.linalg.norm(U)
        return U if n <= r else U * (r / n)

    U = np.zeros((structure.d, X.shape[1]))
    V, tk, f_old = U.copy(), 1.0, np.inf
    for _ in range(check_positive_int(max_iter, "max_iter")):
        _, g = _loss_grad(structure, V, X, Y, w, s)
        U_new = proj(V - step * g)
        t_new = 0.5 * (1 + np.sqrt(1 + 4 * tk * tk))
        V = U_new + ((tk - 1) / t_new) * (U_new - U)
        U, tk = U_new, t_new
        f = s * float(w @ structure.loss(X @ U.T, Y))
        if abs(f_old - f) <= tol * max(1.0, abs(f)):
            break
        f_old = f
    return Fit(U, s * float(w @ structure.loss(X @ U.T, Y)), float(np.linalg.norm(U)))


def worst_case_constant(
    structure: Structure,
    stream: Stream,
    cumulative_expected: float,
    *,
    loss_scale: float = 1.0,
    lo: float = 1e-4,
    hi: float = 1e4,
    rtol: float = 1e-3,
) -> float:
    r"""Smallest :math:`c` with :math:`\sum_t E_t \le \min_U \sum_t S_t(U) + c\|U\|_F^2`.

    Equals :math:`\sup_U R_T(U)/\|U\|_F^2` (the empirical constant of a bound
    :math:`R_T(U) \le c\|U\|_F^2`). Bisection on :math:`\log c` in ``[lo, hi]``.

    Returns
    -------
    float
        ``0.0`` if the inequality already holds at ``lo``: then :math:`0 \le c^* \le`
        ``lo``, below the bracket's resolution (the value 0 is a floor, not a measurement;
        :math:`c^* \ge 0` always, since :math:`R_T(U)/\|U\|_F^2 \to 0` as
        :math:`\|U\|_F \to \infty`). ``inf`` if it fails at ``hi``. Otherwise the upper end of
        the final bracket, within a factor :math:`e^{\text{rtol}}` above :math:`c^*`.
    """
    E = check_real(cumulative_expected, "cumulative_expected")
    check_stream(structure, stream)
    check_real(loss_scale, "loss_scale", low=0.0, low_inclusive=False)
    lo = check_real(lo, "lo", low=0.0, low_inclusive=False)
    hi = check_real(hi, "hi", low=lo, low_inclusive=False)
    rtol = check_real(rtol, "rtol", low=0.0, low_inclusive=False)

    def slack(c, U0=None):
        fit = fit_ridge(structure, stream, c, loss_scale=loss_scale, U0=U0)
        return fit.total_loss + c * fit.norm**2 - E, fit.U

    s_lo, _ = slack(lo)
    if s_lo >= 0:
        return 0.0
    s_hi, U = slack(hi)
    if s_hi < 0:
        return float("inf")
    a, b = np.log(lo), np.log(hi)
    while b - a > rtol:
        mid = 0.5 * (a + b)
        s_mid, U_mid = slack(float(np.exp(mid)), U)
        if s_mid >= 0:
            b, U = mid, U_mid
        else:
            a = mid
    return float(np.exp(b))
