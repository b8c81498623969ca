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

from typing import Any

import numpy as np

from mlgeom._validation import check_not_complex, check_unit_interval
from mlgeom.fenchel_young._kernels import _adversary_kernel
from mlgeom.fenchel_young.logistic_ogd import MODES, BatchRecord, _check

__all__ = ["adversarial_ogd_batch"]


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
    check_not_complex(uniforms, "uniforms")
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
