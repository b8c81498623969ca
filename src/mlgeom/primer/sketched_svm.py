r"""The primer's "Sketched Kernel SVM Algorithm": the perceptron on random Fourier features.

The slides replace the kernel perceptron's function :math:`f = \sum_j \alpha_j \sigma(x_j)
K(x_j, \cdot)` by an explicit vector in :math:`\mathbb R^\rho`::

    Define mapping phi : X -> R^rho
    choose w = sigma(x) phi(x)
    for i = 1 to 1/(eps gamma^2) steps
        x' = argmin sigma(x) <phi(x), w>
        w = w + sigma(x') phi(x')

with, for the Gaussian kernel :math:`K(x, p) = \exp(-\|x - p\|^2)`, the random Fourier features
of Rahimi and Recht (:mod:`mlgeom.algorithms.random_features`): additive error
:math:`\varepsilon` in :math:`\rho = \tilde O(1/\varepsilon^2)`. The perceptron on
:math:`\phi(x)` is the kernel perceptron with the kernel :math:`\langle\phi(x), \phi(p)\rangle`,
so it runs the same loop as :func:`mlgeom.primer.kernel_perceptron` (both rules) on the Gram
matrix :math:`\Phi\Phi^\top` of the features, and returns the explicit
:math:`w = \sum_j \alpha_j \sigma(x_j)\phi(x_j)`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from mlgeom._frozen import read_only
from mlgeom._validation import check_in, check_labels, check_matrix
from mlgeom.algorithms.random_features import RandomFourierFeatures
from mlgeom.primer.kernel_perceptrons import RULES, _dual_perceptron, _update_budget

__all__ = ["SketchedKernelPerceptron", "sketched_kernel_perceptron"]


@dataclass(frozen=True, eq=False)
class SketchedKernelPerceptron:
    r"""A perceptron :math:`w = \sum_j \alpha_j \sigma(x_j)\phi(x_j)` on random features.

    Returned by :func:`sketched_kernel_perceptron`; the arrays are read-only copies.

    Attributes
    ----------
    features : mlgeom.algorithms.RandomFourierFeatures
        The map :math:`\phi : \mathbb R^d \to \mathbb R^\rho`.
    w : numpy.ndarray of shape (rho,)
        The unnormalised weight vector (the slides' :math:`w`).
    alpha : numpy.ndarray of shape (n,)
        How many times each training point was added, the start included
        (``alpha.sum() == n_updates + 1``).
    rule : str
        ``"cyclic"`` or ``"most_violated"``.
    n_updates : int
        Number of updates after the start.
    converged : bool
        As in :class:`mlgeom.primer.KernelPerceptron`: a clean pass (``"cyclic"``), or no
        training point with :math:`\sigma(x)\langle\phi(x), w\rangle < 0` at the end
        (``"most_violated"``).
    history : numpy.ndarray of shape (n_updates + 1,)
        Training error after the start and after each update.
    """

    features: RandomFourierFeatures
    w: np.ndarray
    alpha: np.ndarray
    rule: str
    n_updates: int
    converged: bool
    history: np.ndarray

    def decision_function(self, Xq: Any) -> np.ndarray:
        r"""Return :math:`\langle\phi(q), w\rangle` at each query point.

        Parameters
        ----------
        Xq : array_like of shape (m, d)
            Query points, with the feature map's input dimension ``d``.

        Returns
        -------
        numpy.ndarray of shape (m,)
            The values :math:`\langle\phi(q), w\rangle`.

        Raises
        ------
        ValueError
            If ``Xq`` is not a finite 2-D array with ``d`` columns.
        """
        Q = check_matrix(Xq, "Xq", n_cols=self.features.d)
        return self.features.transform(Q) @ self.w

    def predict(self, Xq: Any) -> np.ndarray:
        r"""Return the labels :math:`\operatorname{sign}\langle\phi(q), w\rangle`, 0 read as +1.

        Parameters
        ----------
        Xq : array_like of shape (m, d)
            Query points.

        Returns
        -------
        numpy.ndarray of shape (m,)
            Labels ``-1.0`` or ``+1.0``.

        Raises
        ------
        ValueError
            If ``Xq`` is not a finite 2-D array with ``d`` columns.
        """
        return np.where(self.decision_function(Xq) >= 0.0, 1.0, -1.0)


def sketched_kernel_perceptron(
    X: Any,
    y: Any,
    features: RandomFourierFeatures,
    *,
    rule: str = "most_violated",
    n_steps: int | None = None,
    max_updates: int | None = None,
) -> SketchedKernelPerceptron:
    r"""Train the slides' sketched kernel SVM: a perceptron on the features :math:`\phi(x)`.

    Slides "Sketched Kernel SVM Algorithm": start from :math:`w = \sigma(x_1)\phi(x_1)` and
    add :math:`\sigma(x')\phi(x')` with :math:`x' = \arg\min_x \sigma(x)\langle\phi(x),
    w\rangle` for ``n_steps`` steps (``rule="most_violated"``, the slides' loop; ties go to
    the lowest index), or cycle through the points updating on every
    :math:`\sigma(x_i)\langle\phi(x_i), w\rangle < 0` until a clean pass
    (``rule="cyclic"``, the "Implementation Hints" perceptron, at most ``max_updates``
    updates). The updates are exactly those of :func:`mlgeom.primer.kernel_perceptron` with
    the kernel :math:`\langle\phi(x), \phi(p)\rangle`: the loop runs in dual form on the Gram
    matrix :math:`\Phi\Phi^\top` (:math:`O(n^2\rho)` once, then :math:`O(n)` per update), and
    :math:`w = \Phi^\top(\alpha\circ\sigma)` is formed at the end.

    Parameters
    ----------
    X : array_like of shape (n, d)
        Training points.
    y : array_like of shape (n,)
        Labels in ``{-1, +1}`` (the slides' :math:`\sigma`).
    features : mlgeom.algorithms.RandomFourierFeatures
        The map :math:`\phi` (:func:`mlgeom.algorithms.random_fourier_features`), with input
        dimension ``d``.
    rule : {"most_violated", "cyclic"}, default="most_violated"
        Update rule (see above).
    n_steps : int, optional
        Steps of ``"most_violated"`` (the slides' :math:`1/\varepsilon\gamma^2`, >= 0);
        required by that rule and rejected by ``"cyclic"``.
    max_updates : int, optional
        Cap on the updates of ``"cyclic"`` (>= 0; default ``max(1000, 100 * n)``); rejected
        by ``"most_violated"``.

    Returns
    -------
    SketchedKernelPerceptron
        The trained classifier with ``w``, ``alpha``, ``n_updates``, ``converged`` and the
        training-error ``history``.

    Raises
    ------
    ValueError
        On ``features`` of another type, points of another dimension, non-finite points,
        labels other than -1 and +1, mismatched lengths, an unknown rule, or a step argument
        the rule does not use (or lacks).

    References
    ----------
    .. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", slides "Sketched
       Kernel SVM Algorithm" and "Kernel Perceptron Algorithm".
    .. [2] A. Rahimi and B. Recht, "Random features for large-scale kernel machines",
       NeurIPS 2007.
    """
    if not isinstance(features, RandomFourierFeatures):
        raise ValueError(
            f"features must be a RandomFourierFeatures; got {type(features).__name__} {features!r}"
        )
    rule = check_in(rule, "rule", RULES)
    X_arr = check_matrix(X, "X", n_cols=features.d)
    n = X_arr.shape[0]
    y_arr = check_labels(y, n, "y")
    budget = _update_budget(rule, n, n_steps, max_updates)
    # slide: "Define mapping phi : X -> R^rho"
    Phi = features.transform(X_arr)
    # <phi(x_i), w> for w = sum_j alpha_j sigma(x_j) phi(x_j) is (Phi Phi^T (alpha * sigma))_i
    gram = Phi @ Phi.T
    alpha, f, n_updates, clean_pass, history = _dual_perceptron(gram, y_arr, rule, budget)
    # slide: w = sigma(x) phi(x) + sum over the steps of sigma(x') phi(x')
    w = Phi.T @ (alpha * y_arr)
    return SketchedKernelPerceptron(
        features=features,
        w=read_only(w, copy=True),
        alpha=read_only(alpha, copy=True),
        rule=rule,
        n_updates=n_updates,
        converged=clean_pass if rule == "cyclic" else bool(np.all(y_arr * f >= 0.0)),
        history=read_only(history, copy=True),
    )
