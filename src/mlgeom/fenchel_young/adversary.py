r"""An adaptive adversary for the multiclass learner of Section 5 (Theorem 5.1).

In full information, OGD's iterate :math:`W_t` depends only on the past pairs
:math:`(x_s, y_s)_{s<t}`, never on the decoding's random draws. An adversary that sees
:math:`W_t` and :math:`x_t` therefore knows the law :math:`q_t` of the played class
(:func:`~mlgeom.fenchel_young.decoding.multiclass_decoding_law`) and can choose the class

.. math::

    y_t \in \arg\max_{y\in[d]} E_t[1\{\hat y_t \ne y\}] = \arg\min_{y\in[d]} q_{t,y}

that maximises the exact expected target loss :math:`E_t` of the round (first index on ties).
Theorem 5.1's bound holds against such an adversary (its proof bounds each round given the
past), so the adversary is the natural worst case for the empirical constant :math:`c^*`.

The stream now depends on the learner: :func:`adversarial_ogd_batch` runs the learner and the
adversary together, in a numba-compiled per-round loop with the arithmetic of
:func:`~mlgeom.fenchel_young.logistic_ogd.logistic_ogd_batch` (:math:`O(d\cdot p)` per round),
and returns the record with the classes the adversary chose.
"""

from __future__ import annotations

import math
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
from mlgeom.fenchel_young.decoding import DECODINGS
from mlgeom.fenchel_young.logistic_ogd import MODES, BatchRecord

__all__ = ["adversarial_ogd_batch"]


@numba.njit(parallel=True, cache=True)
def _adversary_kernel(X, orders, U, d, eta, mode, played, labels, E, L, S, G, P, Wout):  # noqa: N803
    n_seeds, T = orders.shape
    p_feat = X.shape[1]
    ln2 = math.log(2.0)
    for s in numba.prange(n_seeds):
        Wt = np.zeros((p_feat, d))
        theta = np.empty(d)
        prob = np.empty(d)
        for t in range(T):
            i = orders[s, t]
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
            if mode == 0:
                pz = min(1.0, 2.0 * (1.0 - prob[kstar]))
            elif mode == 1:
                pz = 0.0
            else:
                pz = min(1.0, -np.log(prob[kstar]) / ln2)
            # the adversary: the class with the largest exact E_t (first index on ties)
            lab = -1
            best = -1.0
            for y in range(d):
                miss = 1.0 if kstar != y else 0.0
                if mode == 0:
                    e = (1.0 - pz) * miss + pz * (1.0 - prob[y])
                elif mode == 1:
                    e = miss
                else:
                    e = (1.0 - pz) * miss + pz * (1.0 - 1.0 / d)
                if e > best:
                    best = e
                    lab = y
            labels[s, t] = lab
            E[s, t] = best
            play = kstar
            u0 = U[s, t, 0]
            u1 = U[s, t, 1]
            if mode == 0 and u0 < pz:
                acc = 0.0
                play = d - 1
                for k in range(d):
                    acc += prob[k]
                    if u1 < acc:
                        play = k
                        break
            elif mode == 2 and u0 < pz:
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
            c = eta / ln2
            for j in range(p_feat):
                xj = X[i, j]
                if xj != 0.0:
                    cx = c * xj
                    for k in range(d):
                        Wt[j, k] -= cx * prob[k]
        for k in range(d):
            for j in range(p_feat):
                Wout[s, k, j] = Wt[j, k]


def adversarial_ogd_batch(
    X: Any,
    orders: Any,
    uniforms: Any,
    *,
    d: int,
    eta: float,
    decoding: str = "randomized",
) -> tuple[BatchRecord, np.ndarray]:
    r"""Run Algorithm 2 (multiclass, base-2 logistic OGD) against the adaptive adversary.

    At round :math:`t` the learner's scores :math:`\theta_t = W_t x_t` fix the law of the
    played class; the adversary sets :math:`y_t` to the class with the largest exact
    :math:`E_t[1\{\hat y_t \ne y\}]` (first index on ties), then the decoding draws its play
    from ``uniforms`` and OGD updates on :math:`(x_t, y_t)`, exactly as
    :func:`~mlgeom.fenchel_young.logistic_ogd.logistic_ogd_batch` does with given classes.

    Parameters
    ----------
    X : array_like
        Pool of inputs ``(n, p)``.
    orders : array_like
        Pool index of the input revealed at each seed and round, ``(S, T)``.
    uniforms : array_like
        Two uniforms per seed and round, ``(S, T, 2)``; they drive the decoding only (the
        adversary's choice and ``W_t`` do not depend on them).
    d : int
        Number of classes, at least 2.
    eta : float
        OGD learning rate on the base-2 loss.
    decoding : {"randomized", "deterministic", "gaptron"}, default="randomized"
        Decoding of the scores.

    Returns
    -------
    record : BatchRecord
        Per-round records of every seed (``expected_loss`` is the adversary's maximal
        :math:`E_t`).
    labels : numpy.ndarray
        The classes the adversary chose, ``(S, T)`` int64.
    """
    Xa = check_matrix(X, "X")
    d = check_positive_int(d, "d", minimum=2)
    eta = check_real(eta, "eta", low=0.0, low_inclusive=False)
    check_in(decoding, "decoding", DECODINGS)
    idx = np.ascontiguousarray(check_indices(orders, "orders", n=Xa.shape[0], ndim=2))
    Uu = np.ascontiguousarray(check_unit_interval(uniforms, "uniforms", shape=idx.shape + (2,)))
    n_seeds, T = idx.shape
    out = [np.empty((n_seeds, T)) for _ in range(5)]
    played = np.empty((n_seeds, T), dtype=np.int64)
    labels = np.empty((n_seeds, T), dtype=np.int64)
    W = np.empty((n_seeds, d, Xa.shape[1]))
    _adversary_kernel(
        np.ascontiguousarray(Xa), idx, Uu, d, eta, MODES[decoding], played, labels, *out, W
    )
    E, L, S, G, P = out
    return BatchRecord(played, L, E, S, G, P, W), labels
