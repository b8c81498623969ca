r"""Fast path: Algorithm 2 for multiclass logistic regression, many seeds at once (Section 5).

Theorem 5.1's learner: OGD with :math:`W_1 = 0` on the base-2 logistic loss
:math:`S_t(W) = -\log_2\sigma_{y_t}(Wx_t)`, i.e.
:math:`W_{t+1} = W_t - \frac{\eta}{\ln 2}(\sigma(W_t x_t) - e_{y_t})x_t^\top`, with one of three
decodings of :math:`\theta_t = W_t x_t`
(see :func:`mlgeom.fenchel_young.decoding.multiclass_decoding_law`):

* ``"randomized"`` — Algorithm 1: :math:`k = \arg\max\theta`, :math:`p = \min\{1,
  2(1 - \sigma_k)\}`; play :math:`k` unless ``u0 < p``, then draw from :math:`\sigma` with ``u1``;
* ``"deterministic"`` — play :math:`k`;
* ``"gaptron"`` — explore uniformly (class ``floor(u1 d)``) when ``u0 < min{1, -log2 σ_k}``.

Two implementations with identical semantics and randomness (two uniforms per round, drawn
once per seed):

* :func:`logistic_ogd_batch` — a numba-compiled loop, seeds in parallel (``prange``), weights
  stored transposed so that :math:`\theta = W x` and the rank-one update are vectorised over
  classes and skip the zeros of :math:`x`; :math:`O(d\cdot\mathrm{nnz}(x))` per round, as OGD.
* :func:`logistic_ogd_loop` — the plain per-round numpy loop used as the reference and as the
  speed baseline.

Records per round: played class, realised 0-1 loss, exact :math:`E_t[1\{\hat y_t \ne y_t\}]`,
surrogate loss :math:`S_t(W_t)`, :math:`\|\nabla S_t(W_t)\|_F^2` and the decoding's
probability (:math:`p` or the exploration rate).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np

from mlgeom._validation import (
    check_in,
    check_indices,
    check_matrix,
    check_positive_int,
    check_real,
    check_unit_interval,
)
from mlgeom.fenchel_young._kernels import _batch_kernel
from mlgeom.fenchel_young.decoding import DECODINGS

__all__ = ["BatchRecord", "logistic_ogd_batch", "logistic_ogd_loop", "MODES"]

MODES: dict[str, int] = {"randomized": 0, "deterministic": 1, "gaptron": 2}
_LN2 = math.log(2.0)


@dataclass(frozen=True)
class BatchRecord:
    r"""Per-round records of ``S`` independent runs (arrays of shape ``(S, T)``).

    Attributes
    ----------
    played : numpy.ndarray
        Played class per round (int64).
    target_loss, expected_loss, surrogate_loss, grad_norm_sq, p : numpy.ndarray
        Realised 0-1 loss, its exact conditional expectation :math:`E_t`, the base-2 logistic
        loss :math:`S_t(W_t)`, :math:`\|\nabla S_t(W_t)\|_F^2`, and the decoding probability.
    W : numpy.ndarray
        Final weights per run, ``(S, d, p)``.
    """

    played: np.ndarray
    target_loss: np.ndarray
    expected_loss: np.ndarray
    surrogate_loss: np.ndarray
    grad_norm_sq: np.ndarray
    p: np.ndarray
    W: np.ndarray


def _check(X, labels, d, eta, decoding):
    Xa = check_matrix(X, "X")
    d = check_positive_int(d, "d", minimum=2)
    lab = np.asarray(labels)
    if lab.shape != (Xa.shape[0],) or not np.issubdtype(lab.dtype, np.integer):
        raise ValueError(f"labels must be {Xa.shape[0]} integers; got {lab.dtype} {lab.shape}")
    if np.any((lab < 0) | (lab >= d)):
        raise ValueError(f"labels must lie in [0, {d - 1}]; got range [{lab.min()}, {lab.max()}]")
    eta = check_real(eta, "eta", low=0.0, low_inclusive=False)
    check_in(decoding, "decoding", DECODINGS)
    return Xa, lab.astype(np.int64), d, eta


def logistic_ogd_batch(
    X: Any,
    labels: Any,
    orders: Any,
    uniforms: Any,
    *,
    d: int,
    eta: float,
    decoding: str = "randomized",
    n_threads: int | None = None,
) -> BatchRecord:
    """Run ``S`` independent seeds of Algorithm 2 (multiclass, base-2 logistic) in compiled code.

    Parameters
    ----------
    X : array_like
        Pool of inputs ``(n, p)``.
    labels : array_like
        Pool classes in ``{0, …, d-1}``, ``(n,)``.
    orders : array_like
        Pool index per seed and round, ``(S, T)``.
    uniforms : array_like
        Two uniforms per seed and round, ``(S, T, 2)``.
    d : int
        Number of classes.
    eta : float
        OGD learning rate on the base-2 loss (Theorem 5.1: ``eta_theorem_5_1(C)``).
    decoding : {"randomized", "deterministic", "gaptron"}, default="randomized"
        Decoding of the scores.
    n_threads : int, optional
        numba threads (default: numba's setting); results do not depend on it.

    Returns
    -------
    BatchRecord
        Per-round records of every seed.
    """
    Xa, lab, d, eta = _check(X, labels, d, eta, decoding)
    idx = np.ascontiguousarray(check_indices(orders, "orders", n=Xa.shape[0], ndim=2))
    Uu = np.ascontiguousarray(check_unit_interval(uniforms, "uniforms", shape=idx.shape + (2,)))
    n_seeds, T = idx.shape
    out = [np.empty((n_seeds, T)) for _ in range(5)]
    played = np.empty((n_seeds, T), dtype=np.int64)
    W = np.empty((n_seeds, d, Xa.shape[1]))
    old = numba.get_num_threads()
    if n_threads is not None:
        numba.set_num_threads(check_positive_int(n_threads, "n_threads"))
    try:
        _batch_kernel(
            np.ascontiguousarray(Xa), lab, idx, Uu, d, eta, MODES[decoding], played, *out, W
        )
    finally:
        numba.set_num_threads(old)
    E, L, S, G, P = out
    return BatchRecord(played, L, E, S, G, P, W)


def logistic_ogd_loop(
    X: Any,
    labels: Any,
    order: Any,
    uniforms: Any,
    *,
    d: int,
    eta: float,
    decoding: str = "randomized",
    libm: bool = False,
) -> BatchRecord:
    """Run the same algorithm as a plain per-round numpy loop, one seed (the reference).

    Parameters are those of :func:`logistic_ogd_batch` for a single seed: ``order`` is
    ``(T,)`` and ``uniforms`` ``(T, 2)``; sums run sequentially (``np.cumsum``) in the compiled
    loop's order. With ``libm=True`` the exponentials and logarithms use :mod:`math` (the C
    library, as compiled code does) instead of numpy's SIMD ``exp``/``log``, which differ in
    the last bit on a few percent of inputs; the records are then bitwise identical to
    :func:`logistic_ogd_batch`. Returns a :class:`BatchRecord` with ``S = 1``.
    """
    Xa, lab, d, eta = _check(X, labels, d, eta, decoding)
    order = check_indices(order, "order", n=Xa.shape[0], ndim=1)
    T = order.shape[0]
    Uu = check_unit_interval(uniforms, "uniforms", shape=(T, 2))
    Wt = np.zeros((Xa.shape[1], d))
    rec = np.empty((5, T))
    played = np.empty(T, dtype=np.int64)
    eye = np.eye(d)
    for t in range(T):
        i = order[t]
        x, y = Xa[i], lab[i]
        theta = (Wt * x[:, None]).sum(axis=0)
        k = int(np.argmax(theta))
        m = theta[k]
        e = np.array([math.exp(v) for v in theta - m]) if libm else np.exp(theta - m)
        z = np.cumsum(e)[-1]  # sequential sums (np.cumsum), the compiled loop's order
        prob = e / z
        miss = float(k != y)
        if decoding == "randomized":
            pz = min(1.0, 2.0 * (1.0 - prob[k]))
            Et = (1.0 - pz) * miss + pz * (1.0 - prob[y])
            play = k
            if Uu[t, 0] < pz:
                play = min(int(np.searchsorted(np.cumsum(prob), Uu[t, 1], side="right")), d - 1)
        elif decoding == "deterministic":
            pz, Et, play = 0.0, miss, k
        else:
            pz = min(1.0, -(math.log(prob[k]) if libm else np.log(prob[k])) / _LN2)
            Et = (1.0 - pz) * miss + pz * (1.0 - 1.0 / d)
            play = min(int(Uu[t, 1] * d), d - 1) if Uu[t, 0] < pz else k
        r = prob - eye[y]
        played[t] = play
        rec[:, t] = (
            float(play != y),
            Et,
            ((math.log(z) if libm else np.log(z)) + m - theta[y]) / _LN2,
            np.cumsum(r * r)[-1] * np.cumsum(x * x)[-1] / _LN2**2,
            pz,
        )
        Wt -= np.outer((eta / _LN2) * x, r)
    L, E, S, G, P = (row[None, :] for row in rec)
    return BatchRecord(played[None, :], L, E, S, G, P, Wt.T.copy()[None])
