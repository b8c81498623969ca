r"""The lift that forces a halfspace through the origin (slides "Force h through Origin").

The slides map :math:`p \in \mathbb{R}^d` to :math:`p' = (p_1, \dots, p_d, 1) \in
\mathbb{R}^{d+1}` (step 1) and then look only for halfspaces whose boundary contains the origin
(step 2). A halfspace :math:`\{p' : \langle w, p'\rangle \ge 0\}` of :math:`\mathbb{R}^{d+1}`
through the origin cuts the plane :math:`p'_{d+1} = 1` in the affine halfplane
:math:`\{p : \langle w_{1..d}, p\rangle + w_{d+1} \ge 0\}`, so the perceptron, which only
finds halfspaces through the origin, learns affine classifiers on the lifted points.

References
----------
.. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", slides "Force h through
   Origin" and "Perceptron Algorithm" (assumption (2): :math:`h \in \mathcal{H}_0`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from mlgeom._frozen import freeze_arrays
from mlgeom._validation import check_labels, check_matrix, check_vector
from mlgeom.algorithms import perceptrons

__all__ = ["AffinePerceptron", "affine_decision", "lift", "lifted_perceptron"]


def lift(X: Any) -> np.ndarray:
    r"""Map each point :math:`p` to :math:`p' = (p_1, \dots, p_d, 1)` (slide step 1).

    Parameters
    ----------
    X : array_like of shape (n, d)
        Points, one per row; finite.

    Returns
    -------
    numpy.ndarray of shape (n, d + 1)
        The lifted points (a copy; ``X`` is not modified).
    """
    P = check_matrix(X, "X")
    return np.hstack([P, np.ones((P.shape[0], 1))])


def affine_decision(X: Any, w: Any) -> np.ndarray:
    r"""Evaluate the affine function :math:`\langle w_{1..d}, p\rangle + w_{d+1}` on ``X``.

    This is the halfspace :math:`\langle w, p'\rangle \ge 0` through the origin of
    :math:`\mathbb{R}^{d+1}` read back on the plane :math:`p'_{d+1} = 1` (slide step 2).

    Parameters
    ----------
    X : array_like of shape (n, d)
        Points in :math:`\mathbb{R}^d`.
    w : array_like of shape (d + 1,)
        Normal of a halfspace through the origin of :math:`\mathbb{R}^{d+1}`.

    Returns
    -------
    numpy.ndarray of shape (n,)
        The affine decision values (their sign is the class).
    """
    P = check_matrix(X, "X")
    v = check_vector(w, "w", size=P.shape[1] + 1)
    return P @ v[:-1] + v[-1]


@dataclass(frozen=True, eq=False)
class AffinePerceptron:
    r"""Outcome of :func:`lifted_perceptron`.

    Attributes
    ----------
    w : numpy.ndarray of shape (d + 1,)
        Unit normal of the halfspace through the origin found on the (scaled) lifted points.
    normal, offset : numpy.ndarray of shape (d,), float
        The affine classifier :math:`p \mapsto \operatorname{sign}(\langle a, p\rangle + b)`
        with :math:`a = w_{1..d}` and :math:`b = w_{d+1}`.
    scale : float
        The factor :math:`1/\max_i \|p'_i\|` applied to the lifted points so that they lie in
        the unit ball, as the perceptron's analysis assumes (a positive factor does not change
        any classifier through the origin).
    result : mlgeom.algorithms.perceptrons.PerceptronResult
        The perceptron's run on the scaled lifted points.
    """

    w: np.ndarray
    normal: np.ndarray
    offset: float
    scale: float
    result: perceptrons.PerceptronResult

    def __post_init__(self) -> None:
        freeze_arrays(self)

    def predict(self, X: Any) -> np.ndarray:
        """Labels in ``{-1, +1}`` of the affine classifier (``+1`` on the boundary)."""
        return np.where(affine_decision(X, self.w) >= 0.0, 1, -1)


def lifted_perceptron(X: Any, y: Any, *, max_updates: int | None = None) -> AffinePerceptron:
    r"""Run the perceptron on the lifted points :math:`(p, 1)` and read back its affine classifier.

    The lifted points are scaled by :math:`1/\max_i\|p'_i\|` into the unit ball (slide
    "Perceptron Algorithm", assumption (1)); :func:`mlgeom.algorithms.perceptrons.perceptron`
    then finds a halfspace through the origin of :math:`\mathbb{R}^{d+1}` (assumption (2)),
    which is the affine halfplane :math:`\langle w_{1..d}, p\rangle + w_{d+1} \ge 0` of
    :math:`\mathbb{R}^d`.

    Parameters
    ----------
    X : array_like of shape (n, d)
        Points; finite.
    y : array_like of shape (n,)
        Labels in ``{-1, +1}``.
    max_updates : int, optional
        The perceptron's update cap (see :func:`~mlgeom.algorithms.perceptrons.perceptron`).

    Returns
    -------
    AffinePerceptron
        The unit normal ``w``, its affine reading ``normal``/``offset``, the ``scale`` and the
        perceptron's ``result``.

    Examples
    --------
    >>> m = lifted_perceptron([[2.0], [3.0]], [-1, 1])
    >>> m.predict([[1.0], [4.0]]).tolist()
    [-1, 1]
    """
    P = lift(X)
    labels = check_labels(y, P.shape[0])
    scale = 1.0 / float(np.linalg.norm(P, axis=1).max())  # >= 1/‖(p, 1)‖ > 0
    res = perceptrons.perceptron(P * scale, labels, max_updates=max_updates)
    return AffinePerceptron(
        w=res.w, normal=res.w[:-1].copy(), offset=float(res.w[-1]), scale=scale, result=res
    )
