r"""An adaptive adversary that keeps a fixed comparator (Section 5, Theorem 5.1, Remark 4.4).

Theorem 5.1 bounds :math:`\mathcal R_T(U) = \sum_t E_t[1\{\hat y_t \ne y_t\}] - \sum_t S_t(U)`
by :math:`c\|U\|_F^2` for every :math:`U`, also against an adaptive adversary (Remark 4.4: the
proof bounds each round given the past). An adversary that picks :math:`y_t` freely can make
every round unpredictable, but then every comparator pays too and :math:`c^*` tests nothing.
This adversary is held to a **fixed candidate pool** :math:`\{(x_i, y_i)\}_{i\le n}` whose
labels are fixed in advance (for instance by a planted :math:`U` or by the classes of a
prototype stream), so the same comparators stay accurate on whatever it chooses.

In full information, OGD's iterate :math:`W_t` depends only on the past pairs, never on the
decoding's random draws, so the adversary knows the law :math:`q_t(x)` of the played class
for every candidate input (:func:`~mlgeom.fenchel_young.decoding.multiclass_decoding_law`)
and reveals the candidate with the largest exact expected mistake

.. math::

    i_t \in \arg\max_{i\le n} E_t[1\{\hat y_t \ne y_i\} \mid x_t = x_i]
    = \arg\max_{i\le n} \bigl(1 - q_t(x_i)_{y_i}\bigr)

(first index on ties). :func:`adversarial_ogd_batch` runs the learner and the adversary
together in a numba-compiled per-round loop with the arithmetic of
:func:`~mlgeom.fenchel_young.logistic_ogd.logistic_ogd_batch`; each round costs
:math:`O(n\cdot d\cdot p)` (the scores of every candidate), and the learner's own step
:math:`O(d\cdot p)` as in OGD.
"""

from __future__ import annotations

import math
from typing import Any

import numba
import numpy as np

from mlgeom._validation import check_unit_interval
from mlgeom.fenchel_young.logistic_ogd import MODES, BatchRecord, _check

__all__ = ["adversarial_ogd_batch"]


@numba.njit(parallel=True, cache=True)
def _adversary_kernel(X, cls, U, d, eta, mode, orders, played, E, L, S, G, P, Wout):  # noqa: N803
    n_seeds, T = U.shape[0], U.shape[1]
    n_cand, p_feat = X.shape
    ln2 = math.log(2.0)
    for s in numba.prange(n_seeds):
        Wt = np.zeros((p_feat, d))  # W transposed: Wt[j, k] = W[k, j]
        theta = np.empty(d)
        prob = np.empty(d)
        for t in range(T):
            # the adversary: exact E_t of every candidate given W_t (first index on ties)
            best = -1.0
            i = 0
            for c in range(n_cand):
                lab = cls[c]
                for k in range(d):
                    theta[k] = 0.0
                for j in range(p_feat):
                    xj = X[c, j]
                    if xj != 0.0:
                        for k in range(d):
                            theta[k] += Wt[j, k] * xj
                kstar = 0
                m = theta[0]
                for k in range(1, d):
                    if theta[k] > m:
                        m = theta[k]
                        kstar = k
                z = 0.0
                for k in range(d):
                    z += np.exp(theta[k] - m)
                miss = 1.0 if kstar != lab else 0.0
                if mode == 0:
                    pz = min(1.0, 2.0 * (1.0 - 1.0 / z))
                    e = (1.0 - pz) * miss + pz * (1.0 - np.exp(theta[lab] - m) / z)
                elif mode == 1:
                    e = miss
                else:
                    pz = min(1.0, -np.log(1.0 / z) / ln2)
                    e = (1.0 - pz) * miss + pz * (1.0 - 1.0 / d)
                if e > best:
                    best = e
                    i = c
            orders[s, t] = i
            lab = cls[i]
            # the learner on the chosen pair: as logistic_ogd_batch
            for k in range(d):
                theta[k] = 0.0
            xx = 0.0
            for j in range(p_feat):
                xj = X[i, j]
                if xj != 0.0:
                    xx += xj * xj
                    for k in range(d):
                        theta[k] += Wt[j, k] * xj
            kstar = 0
            m = theta[0]
            for k in range(1, d):
                if theta[k] > m:
                    m = theta[k]
                    kstar = k
            z = 0.0
            for k in range(d):
                prob[k] = np.exp(theta[k] - m)
                z += prob[k]
            for k in range(d):
                prob[k] /= z
            miss_star = 1.0 if kstar != lab else 0.0
            u0 = U[s, t, 0]
            u1 = U[s, t, 1]
            play = kstar
            if mode == 0:
                pz = min(1.0, 2.0 * (1.0 - prob[kstar]))
                E[s, t] = (1.0 - pz) * miss_star + pz * (1.0 - prob[lab])
                if u0 < pz:
                    acc = 0.0
                    play = d - 1
                    for k in range(d):
                        acc += prob[k]
                        if u1 < acc:
                            play = k
                            break
            elif mode == 1:
                pz = 0.0
                E[s, t] = miss_star
            else:
                pz = min(1.0, -np.log(prob[kstar]) / ln2)
                E[s, t] = (1.0 - pz) * miss_star + pz * (1.0 - 1.0 / d)
                if u0 < pz:
                    play = min(int(u1 * d), d - 1)
            played[s, t] = play
            L[s, t] = 1.0 if play != lab else 0.0
            P[s, t] = pz
            S[s, t] = (np.log(z) + m - theta[lab]) / ln2
            r2 = 0.0
            for k in range(d):
                r = prob[k] - (1.0 if k == lab else 0.0)
                r2 += r * r
                prob[k] = r
            G[s, t] = r2 * xx / (ln2 * ln2)
            cst = eta / ln2
            for j in range(p_feat):
                xj = X[i, j]
                if xj != 0.0:
                    cx = cst * xj
                    for k in range(d):
                        Wt[j, k] -= cx * prob[k]
        for k in range(d):
            for j in range(p_feat):
                Wout[s, k, j] = Wt[j, k]


def adversarial_ogd_batch(
    X: Any,
    labels: Any,
    uniforms: Any,
    *,
    d: int,
    eta: float,
    decoding: str = "randomized",
) -> tuple[BatchRecord, np.ndarray]:
    r"""Run Algorithm 2 (multiclass, base-2 logistic OGD) against the pool adversary.

    At round :math:`t` the adversary computes, for every candidate :math:`(x_i, y_i)`, the
    exact :math:`E_t[1\{\hat y_t \ne y_i\}]` of the decoding of :math:`\theta = W_t x_i`
    (:func:`~mlgeom.fenchel_young.decoding.multiclass_decoding_law`) and reveals the first
    maximiser; the decoding then draws its play from ``uniforms`` and OGD updates on the
    revealed pair, exactly as
    :func:`~mlgeom.fenchel_young.logistic_ogd.logistic_ogd_batch` does on a given order.
    Since :math:`W_t` does not depend on the draws, the order is the same for every seed.

    Parameters
    ----------
    X : array_like
        Candidate inputs ``(n, p)``.
    labels : array_like
        Their classes in ``{0, …, d-1}``, ``(n,)``, fixed in advance (by a comparator).
    uniforms : array_like
        Two uniforms in [0, 1) per seed and round, ``(S, T, 2)``; they drive the decoding only.
    d : int
        Number of classes, at least 2.
    eta : float
        OGD learning rate on the base-2 loss.
    decoding : {"randomized", "deterministic", "gaptron"}, default="randomized"
        Decoding of the scores.

    Returns
    -------
    record : BatchRecord
        Per-round records of every seed (``expected_loss`` is the revealed candidate's
        :math:`E_t`, the largest over the pool).
    orders : numpy.ndarray
        The candidate revealed at each seed and round, ``(S, T)`` int64.

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> rec, order = adversarial_ogd_batch(X, [0, 1], np.full((1, 4, 2), 0.5), d=2, eta=0.3)
    >>> order.tolist()  # first index on the initial tie, then the other candidate
    [[0, 1, 0, 1]]
    """
    Xa, lab, d, eta = _check(X, labels, d, eta, decoding)
    try:
        arr = np.asarray(uniforms, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"uniforms must be a numeric array; got {uniforms!r:.60}") from exc
    if arr.ndim != 3 or arr.shape[2] != 2 or arr.shape[0] < 1 or arr.shape[1] < 1:
        raise ValueError(f"uniforms must have shape (S, T, 2) with S, T >= 1; got {arr.shape}")
    Uu = np.ascontiguousarray(check_unit_interval(arr, "uniforms", shape=arr.shape))
    n_seeds, T = Uu.shape[:2]
    out = [np.empty((n_seeds, T)) for _ in range(5)]
    orders = np.empty((n_seeds, T), dtype=np.int64)
    played = np.empty((n_seeds, T), dtype=np.int64)
    W = np.empty((n_seeds, d, Xa.shape[1]))
    _adversary_kernel(
        np.ascontiguousarray(Xa), lab, Uu, d, eta, MODES[decoding], orders, played, *out, W
    )
    E, L, S, G, P = out
    return BatchRecord(played, L, E, S, G, P, W), orders
