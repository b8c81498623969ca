r"""The compiled per-round loops of Algorithm 2 (multiclass logistic OGD, Section 5).

One round of Theorem 5.1's learner is split into small numba helpers shared by the two
kernels: :func:`_batch_kernel` (the learner on given orders, behind
:func:`~mlgeom.fenchel_young.logistic_ogd.logistic_ogd_batch`) and :func:`_adversary_kernel`
(the learner against the pool adversary, behind
:func:`~mlgeom.fenchel_young.adversary.adversarial_ogd_batch`), which also uses the scores,
softmax and decoding law to evaluate every candidate. Weights are stored transposed,
``Wt[j, k] = W[k, j]``, so that :math:`\theta = W x` and the rank-one update run over classes
and skip the zeros of :math:`x`.

The helpers and both kernels live in this one file on purpose: numba's on-disk cache
(``cache=True``) checks only the file defining the cached function, so a kernel in another
file would keep running a stale copy of an edited helper.
"""

from __future__ import annotations

import math

import numba
import numpy as np

__all__: list[str] = []


@numba.njit(cache=True)
def _scores(X, i, Wt, theta):  # noqa: N803
    """Write ``theta = W x_i`` (features in order, over classes); return ``||x_i||^2``."""
    d = theta.shape[0]
    for k in range(d):
        theta[k] = 0.0
    xx = 0.0
    for j in range(X.shape[1]):
        xj = X[i, j]
        if xj != 0.0:
            xx += xj * xj
            for k in range(d):
                theta[k] += Wt[j, k] * xj
    return xx


@numba.njit(cache=True)
def _softmax(theta, prob):
    r"""Write :math:`\sigma(\theta)` (max-shifted) into ``prob``; return ``(arg max, max, z)``.

    The arg max takes the first index on ties; :math:`z = \sum_k e^{\theta_k - \max\theta}`.
    """
    d = theta.shape[0]
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
    return kstar, m, z


@numba.njit(cache=True)
def _decoding_law(mode, prob, kstar, lab, ln2):
    r"""Return the decoding probability and the exact :math:`E_t[1\{\hat y \ne y\}]` for ``lab``.

    ``mode`` 0 is Algorithm 1 (:math:`p = \min\{1, 2\Delta^*/\nu\}`, :math:`\Delta^* =
    2(1 - \sigma_k)`, :math:`\nu = 2`), 1 deterministic, 2 Gaptron-style uniform exploration
    at rate :math:`\min\{1, -\log_2\sigma_k\}`.
    """
    miss_star = 1.0 if kstar != lab else 0.0
    if mode == 0:
        pz = min(1.0, 2.0 * (1.0 - prob[kstar]))
        e = (1.0 - pz) * miss_star + pz * (1.0 - prob[lab])
    elif mode == 1:
        pz = 0.0
        e = miss_star
    else:
        pz = min(1.0, -np.log(prob[kstar]) / ln2)
        e = (1.0 - pz) * miss_star + pz * (1.0 - 1.0 / prob.shape[0])
    return pz, e


@numba.njit(cache=True)
def _play(mode, prob, kstar, pz, u0, u1):
    """Draw the played class from the uniforms ``u0`` (explore?) and ``u1`` (which class)."""
    d = prob.shape[0]
    play = kstar
    if mode == 0:
        if u0 < pz:
            acc = 0.0
            play = d - 1
            for k in range(d):
                acc += prob[k]
                if u1 < acc:
                    play = k
                    break
    elif mode == 2:
        if u0 < pz:
            play = min(int(u1 * d), d - 1)
    return play


@numba.njit(cache=True)
def _learner_round(X, i, lab, u0, u1, mode, eta, ln2, Wt, theta, prob):  # noqa: N803
    r"""One round of OGD on :math:`(x_i, y_i)`: decode, record, then step ``Wt`` in place.

    Returns the played class, :math:`E_t`, the decoding probability, the base-2 surrogate
    :math:`S_t(W_t)` and :math:`\|\nabla S_t(W_t)\|_F^2`. ``prob`` ends as the residual
    :math:`\sigma(\theta) - e_{y}`.
    """
    xx = _scores(X, i, Wt, theta)
    kstar, m, z = _softmax(theta, prob)
    pz, e = _decoding_law(mode, prob, kstar, lab, ln2)
    play = _play(mode, prob, kstar, pz, u0, u1)
    surrogate = (np.log(z) + m - theta[lab]) / ln2
    r2 = 0.0
    for k in range(prob.shape[0]):
        r = prob[k] - (1.0 if k == lab else 0.0)
        r2 += r * r
        prob[k] = r  # reuse as residual
    g = r2 * xx / (ln2 * ln2)
    c = eta / ln2
    for j in range(X.shape[1]):
        xj = X[i, j]
        if xj != 0.0:
            cx = c * xj
            for k in range(prob.shape[0]):
                Wt[j, k] -= cx * prob[k]
    return play, e, pz, surrogate, g


@numba.njit(cache=True)
def _transpose_out(Wt, Wout, s):  # noqa: N803
    for k in range(Wt.shape[1]):
        for j in range(Wt.shape[0]):
            Wout[s, k, j] = Wt[j, k]


@numba.njit(parallel=True, cache=True)
def _batch_kernel(X, labels, orders, U, d, eta, mode, played, E, L, S, G, P, Wout):  # noqa: N803
    n_seeds, T = orders.shape
    p_feat = X.shape[1]
    ln2 = math.log(2.0)
    for s in numba.prange(n_seeds):
        Wt = np.zeros((p_feat, d))  # W transposed: Wt[j, k] = W[k, j]
        theta = np.empty(d)
        prob = np.empty(d)
        for t in range(T):
            i = orders[s, t]
            lab = labels[i]
            play, e, pz, sur, g = _learner_round(
                X, i, lab, U[s, t, 0], U[s, t, 1], mode, eta, ln2, Wt, theta, prob
            )
            played[s, t] = play
            E[s, t] = e
            L[s, t] = 1.0 if play != lab else 0.0
            P[s, t] = pz
            S[s, t] = sur
            G[s, t] = g
        _transpose_out(Wt, Wout, s)


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
                _scores(X, c, Wt, theta)
                kstar, _m, _z = _softmax(theta, prob)
                _pz, e = _decoding_law(mode, prob, kstar, cls[c], ln2)
                if e > best:
                    best = e
                    i = c
            orders[s, t] = i
            lab = cls[i]
            # the learner on the chosen pair: as _batch_kernel
            play, e, pz, sur, g = _learner_round(
                X, i, lab, U[s, t, 0], U[s, t, 1], mode, eta, ln2, Wt, theta, prob
            )
            played[s, t] = play
            E[s, t] = e
            L[s, t] = 1.0 if play != lab else 0.0
            P[s, t] = pz
            S[s, t] = sur
            G[s, t] = g
        _transpose_out(Wt, Wout, s)
