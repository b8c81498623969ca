r"""The steps of the slides' perceptron proof, evaluated on one perceptron run.

Slides "Geometry of Why Perceptron Works" bound two terms along the run of the cyclic
perceptron (:func:`mlgeom.algorithms.perceptrons.perceptron`): :math:`\langle w, w'\rangle`
grows by at least :math:`\gamma` per update, and the squared norm of the perceptron's
:math:`w` by at most 1, so that

.. math:: \gamma t \le \langle w, w'\rangle \le \langle w, w'/\|w'\|\rangle = \|w\| \le \sqrt t

(printed). :func:`perceptron_proof_steps` measures, on one run, the three places where the
printed text and the argument differ:

* the norm step as the proof needs it, :math:`\|w\|^2 \le t + 1` (the slides write
  :math:`\|w'\|^2 \le t` about the unit max-margin vector :math:`w'`; counting the start
  :math:`w = y_1 x_1` as a point added);
* the printed equality :math:`\langle w, w'/\|w'\|\rangle = \|w\|`, of which Cauchy–Schwarz
  gives only :math:`\le`;
* the printed sentence "if :math:`a_i` is misclassified, then :math:`y_n(w, u_n)` is
  negative", read with its indices as printed: at each update, the share of points
  :math:`n` with :math:`y_n\langle w, u_n\rangle < 0`.

References
----------
.. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", "Geometry of Why
   Perceptron Works" and "Implementation Hints" (Algorithm Perceptron(X, y)).
.. [2] A. B. J. Novikoff, "On convergence proofs on perceptrons", Symposium on the
   Mathematical Theory of Automata, 1962.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from mlgeom._validation import check_labels, check_matrix, check_vector
from mlgeom.algorithms import perceptrons as perceptron

__all__ = ["PerceptronProofSteps", "perceptron_proof_steps"]


@dataclass(frozen=True, eq=False)
class PerceptronProofSteps:
    r"""The proof's quantities on one run of the cyclic perceptron.

    Attributes
    ----------
    n_updates : int
        Updates :math:`t` (the start :math:`w = y_1 x_1` not counted).
    norm_ratio : float
        :math:`\|w\|^2 / (t + 1)` of the unnormalised final :math:`w`; at most 1 when every
        :math:`\|x_i\| \le 1` (each update adds at most 1, the start at most 1).
    cauchy_schwarz_gap : float
        :math:`1 - \langle w, w'/\|w'\|\rangle / \|w\|` of the unnormalised final :math:`w`:
        0 exactly when the printed equality :math:`\langle w, w'/\|w'\|\rangle = \|w\|`
        holds, i.e. when :math:`w` is a positive multiple of :math:`w'`.
    misclassified_share : numpy.ndarray of shape (t,)
        At each update, before it: the share of points :math:`n` with
        :math:`y_n \langle w, x_n\rangle < 0`. The printed sentence, read with its indices,
        says 1.
    """

    n_updates: int
    norm_ratio: float
    cauchy_schwarz_gap: float
    misclassified_share: np.ndarray


def perceptron_proof_steps(X: Any, y: Any, w_prime: Any) -> PerceptronProofSteps:
    r"""Evaluate the slides' proof steps along one run of the cyclic perceptron.

    The run replays :func:`mlgeom.algorithms.perceptrons.perceptron` (same start
    :math:`w = y_1 x_1`, same cyclic index advancing at every step, same strict test
    :math:`y_i\langle x_i, w\rangle < 0`, same stop after ``n`` clean checks or at the default
    cap) and, before each update, records the share of misclassified points, at
    :math:`O(nd)` per update.

    Parameters
    ----------
    X : array_like of shape (n, d)
        Points, one per row (the slides assume :math:`\|x_i\| \le 1`).
    y : array_like of shape (n,)
        Labels in ``{-1, +1}``.
    w_prime : array_like of shape (d,)
        The comparison direction :math:`w'` of the proof (a separator with margin
        :math:`\gamma`, e.g. the planted :math:`w^*`); non-zero, normalised here.

    Returns
    -------
    PerceptronProofSteps
        ``n_updates``, ``norm_ratio`` (:math:`\|w\|^2/(t+1)`), ``cauchy_schwarz_gap``
        (:math:`1 - \langle w, w'/\|w'\|\rangle/\|w\|`) and ``misclassified_share`` (one
        value per update).

    Raises
    ------
    ValueError
        If ``X``, ``y`` or ``w_prime`` are malformed, ``w_prime`` is zero, or the run ends
        with :math:`w = 0` (data not separable through the origin).

    Examples
    --------
    >>> s = perceptron_proof_steps([[1.0, 0.2], [-0.5, 1.0], [-1.0, -0.1]], [1, 1, -1], [0, 1])
    >>> s.n_updates, s.misclassified_share.tolist()
    (1, [0.3333333333333333])
    """
    X = check_matrix(X, "X")
    y = check_labels(y, X.shape[0], "y")
    w_prime = check_vector(w_prime, "w_prime", size=X.shape[1])
    w_norm = float(np.linalg.norm(w_prime))
    if w_norm == 0.0:
        raise ValueError(f"w_prime must be non-zero; got {w_prime.tolist()!r}")
    Z = y[:, None] * X
    n = Z.shape[0]
    w = Z[0].copy()  # "Initialize w = y_1 x_1"
    i, t, clean = 0, 0, 0
    shares: list[float] = []
    while np.any(w) and t < perceptron.DEFAULT_MAX_UPDATES:
        if float(Z[i] @ w) < 0.0:  # "if y_i <x_i, w> < 0": a_i is misclassified
            shares.append(float(np.mean(Z @ w < 0.0)))  # share of n with y_n <w, u_n> < 0
            w += Z[i]
            t += 1
            clean = 0
        else:
            clean += 1
            if clean == n:
                break
        i = (i + 1) % n
    norm = float(np.linalg.norm(w))
    if norm == 0.0:
        raise ValueError("the perceptron's w became 0: X, y are not separable through the origin")
    return PerceptronProofSteps(
        n_updates=t,
        norm_ratio=norm**2 / (t + 1),  # ‖w‖² <= t + 1 (the slides' "‖w'‖² <= t", w meant)
        cauchy_schwarz_gap=1.0 - float(w @ w_prime) / (w_norm * norm),  # printed "= ‖w‖"
        misclassified_share=np.asarray(shares, dtype=float),
    )
