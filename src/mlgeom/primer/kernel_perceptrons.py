r"""The kernel perceptron of the primer's slides "Kernel Perceptron Algorithm".

The slides replace the perceptron's weight vector :math:`w = \sum_j \alpha_j \sigma(x_j) x_j`
by the function

.. math::

    f = \sum_j \alpha_j \sigma(x_j) K(x_j, \cdot),

a signed (unnormalised) kernel density estimate :math:`\mathrm{KDE}_W` whose multiset
:math:`W` holds :math:`x_j` with multiplicity :math:`\alpha_j`. Two rules choose the point to
add:

* ``"cyclic"``: the perceptron of the primer's "Implementation Hints", run in the RKHS:
  cycle through the points and add every point with :math:`\sigma(x_i) f(x_i) < 0`, until a
  full pass makes no update (Aizerman, Braverman and Rozonoer 1964; Freund and Schapire
  1999);
* ``"most_violated"``: the slide's
  "for :math:`i = 1` to :math:`1/\varepsilon\gamma^2` steps:
  :math:`x' = \arg\min \sigma(x) \mathrm{KDE}_W(x)`;
  :math:`\mathrm{KDE}_W = \mathrm{KDE}_W + \sigma(x') K(x', \cdot)`".

The Gram matrix is computed once and :math:`f` on the training points is kept up to date
with one Gram row per update, so an update costs :math:`O(n)`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from mlgeom._frozen import read_only
from mlgeom._validation import check_in, check_labels, check_matrix, check_positive_int
from mlgeom.algorithms.kernels import (
    _check_kernel_params,
    _evaluate_kde,
    _kernel_block,
    kernel_matrix,
)
from mlgeom.primer.polytope_distance import polytope_distance_qp

__all__ = ["RULES", "KernelPerceptron", "kernel_perceptron", "rkhs_margin"]

RULES: tuple[str, ...] = ("cyclic", "most_violated")
"""Names of the update rules of :func:`kernel_perceptron`."""


def _training_error(f: np.ndarray, y: np.ndarray) -> float:
    """Fraction of points whose predicted sign (``f >= 0`` means +1) differs from ``y``."""
    return float(np.mean(np.where(f >= 0.0, 1.0, -1.0) != y))


@dataclass(frozen=True, eq=False)
class KernelPerceptron:
    r"""A trained kernel perceptron :math:`f = \sum_j \alpha_j y_j K(x_j, \cdot)`.

    Returned by :func:`kernel_perceptron`; the arrays are read-only copies.

    Attributes
    ----------
    X : numpy.ndarray of shape (n, d)
        Training points.
    y : numpy.ndarray of shape (n,)
        Training labels in ``{-1, +1}`` (float).
    alpha : numpy.ndarray of shape (n,)
        Dual coefficients (int): how many times each training point was added to
        :math:`W`, the initial choice :math:`w = \sigma(x_1) K(x_1, \cdot)` included, so
        ``alpha.sum() == n_updates + 1``.
    kernel : str
        Kernel name (see :data:`mlgeom.algorithms.kernels.KERNELS`).
    bandwidth : float
        Bandwidth of the Gaussian and Laplace kernels.
    degree : int
        Degree of the polynomial kernel.
    rule : str
        ``"cyclic"`` or ``"most_violated"``.
    n_updates : int
        Number of updates after the initial choice (the printed algorithm's :math:`t`;
        for ``"most_violated"`` it equals ``n_steps``).
    converged : bool
        For ``"cyclic"``: whether the run stopped because a full pass of :math:`n` checks
        found no point with :math:`y_i f(x_i) < 0` (``False`` when ``max_updates``
        stopped it, even if its last update happened to fix the last violator). For
        ``"most_violated"``, which always runs ``n_steps`` steps: whether no training
        point has :math:`y_i f(x_i) < 0` at the end.
    history : numpy.ndarray of shape (n_updates + 1,)
        Training error (fraction of points with ``predict(x_i) != y_i``) after the initial
        choice (``history[0]``) and after each update.
    """

    X: np.ndarray
    y: np.ndarray
    alpha: np.ndarray
    kernel: str
    bandwidth: float
    degree: int
    rule: str
    n_updates: int
    converged: bool
    history: np.ndarray

    def decision_function(self, Xq: Any) -> np.ndarray:
        r"""Return :math:`f(q) = \sum_j \alpha_j y_j K(x_j, q)` at each query point.

        This is the slides' :math:`\mathrm{KDE}_W` without the factor :math:`1/|W|`, which
        changes neither its sign nor the argmin of the "most_violated" rule.

        Parameters
        ----------
        Xq : array_like of shape (m, d)
            Query points, with the training points' dimension ``d``.

        Returns
        -------
        numpy.ndarray of shape (m,)
            The values :math:`f(q)`.

        Raises
        ------
        ValueError
            If ``Xq`` is not a finite 2-D array with ``d`` columns.
        """
        Q = check_matrix(Xq, "Xq", n_cols=self.X.shape[1])
        support = np.flatnonzero(self.alpha)
        # slide "Kernel Perceptron Algorithm": KDE_W(x) = sum_{w in W} sigma(w) K(w, x)
        coef = self.alpha[support] * self.y[support]
        return _evaluate_kde(self.X[support], Q, coef, self.kernel, self.bandwidth, self.degree)

    def predict(self, Xq: Any) -> np.ndarray:
        r"""Return the predicted labels :math:`\operatorname{sign} f(q) \in \{-1, +1\}`.

        A query with :math:`f(q) = 0` exactly is labelled ``+1``.

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


def _check_no_contradiction(X: np.ndarray, y: np.ndarray) -> None:
    """Refuse two copies of one point with opposite labels (no classifier separates them)."""
    _, first, inverse = np.unique(X, axis=0, return_index=True, return_inverse=True)
    inverse = inverse.ravel()
    clash = np.flatnonzero(y != y[first[inverse]])
    if clash.size:
        j = int(clash[0])
        i = int(first[inverse[j]])
        raise ValueError(
            f"X has the same point {X[j].tolist()} at rows {i} and {j} with opposite labels "
            f"y[{i}] = {y[i]:+.0f}, y[{j}] = {y[j]:+.0f}: no classifier fits both"
        )


def kernel_perceptron(
    X: Any,
    y: Any,
    kernel: str = "gaussian",
    *,
    rule: str = "cyclic",
    n_steps: int | None = None,
    max_updates: int | None = None,
    bandwidth: float = 1.0,
    degree: int = 2,
) -> KernelPerceptron:
    r"""Train the kernel perceptron of the slides "Kernel Perceptron Algorithm".

    Both rules start from the slides' "choose :math:`w = \sigma(x)x`" with the first
    point, :math:`f = y_1 K(x_1, \cdot)` (``alpha[0] = 1``), and add one training point
    per update, :math:`f \leftarrow f + y_i K(x_i, \cdot)` (``alpha[i] += 1``).

    * ``rule="cyclic"`` is the perceptron of the primer's "Implementation Hints" in the
      RKHS: check the points in the order :math:`x_1, x_2, \ldots, x_n, x_1, \ldots`
      (starting with :math:`x_1`), update at every point with :math:`y_i f(x_i) < 0`
      (strict, as printed), and stop after :math:`n` consecutive checks without an
      update, or after ``max_updates`` updates.
    * ``rule="most_violated"`` is the slides' loop: for ``n_steps`` steps, add
      :math:`x' = \arg\min_i y_i f(x_i)` (ties go to the lowest index), whether or not
      it is misclassified.

    The Gram matrix is computed once (:math:`n^2` floats of memory) and
    :math:`f(x_1), \ldots, f(x_n)` are updated with one Gram row per update, :math:`O(n)`
    time. The cyclic scan between two updates is done in one vectorised search (the next
    violator in cyclic order), which gives exactly the updates of the point-by-point scan.

    Parameters
    ----------
    X : array_like of shape (n, d)
        Training points.
    y : array_like of shape (n,)
        Labels in ``{-1, +1}`` (the slides' :math:`\sigma`).
    kernel : {"gaussian", "laplace", "polynomial"}, default="gaussian"
        Kernel name, as in :func:`mlgeom.algorithms.kernels.kernel_matrix`.
    rule : {"cyclic", "most_violated"}, default="cyclic"
        Update rule (see above).
    n_steps : int, optional
        Number of steps of ``"most_violated"`` (the slides' :math:`1/\varepsilon\gamma^2`);
        required by that rule (>= 0) and rejected by ``"cyclic"``.
    max_updates : int, optional
        Cap on the number of updates of ``"cyclic"`` (>= 0); the default
        ``max(1000, 100 * n)`` makes the loop finite on non-separable data. Rejected by
        ``"most_violated"``, which always makes ``n_steps`` updates.
    bandwidth : float, default=1.0
        Bandwidth of the Gaussian and Laplace kernels (1.0 gives the slides' kernels).
    degree : int, default=2
        Degree :math:`r` of the polynomial kernel.

    Returns
    -------
    KernelPerceptron
        The trained classifier with its dual coefficients, ``n_updates``, ``converged``
        and the training-error ``history``.

    Raises
    ------
    ValueError
        On an unknown kernel or rule, ``n_steps`` missing for ``"most_violated"``,
        two copies of a point with opposite labels,
        a parameter the rule or kernel does not use, labels other than -1 and +1,
        non-finite points, or mismatched lengths.

    Notes
    -----
    With the strict test :math:`y_i f(x_i) < 0`, a point with :math:`f(x_i) = 0` is never
    updated, while :meth:`KernelPerceptron.predict` maps :math:`f = 0` to +1; so a
    converged run can in principle keep a training error on points of label -1 that sit
    exactly on the boundary. The Gram matrix of the Gaussian and Laplace kernels on
    distinct points is positive definite, so any labelling is linearly separable in the
    RKHS and the cyclic rule converges (Novikoff's bound, in the RKHS).

    References
    ----------
    .. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", slides
       "Kernel Perceptron Algorithm" and "Implementation Hints" (Algorithm Perceptron).
    .. [2] M. A. Aizerman, E. M. Braverman and L. I. Rozonoer, "Theoretical foundations
       of the potential function method in pattern recognition learning", Automation and
       Remote Control 25, 1964.
    .. [3] Y. Freund and R. E. Schapire, "Large margin classification using the
       perceptron algorithm", Machine Learning 37(3), 1999.
    """
    kernel, bandwidth, degree = _check_kernel_params(kernel, bandwidth, degree)
    rule = check_in(rule, "rule", RULES)
    X_arr = check_matrix(X, "X")
    n = X_arr.shape[0]
    y_arr = check_labels(y, n, "y")
    _check_no_contradiction(X_arr, y_arr)
    budget = _update_budget(rule, n, n_steps, max_updates)

    Xk = X_arr if kernel == "polynomial" else X_arr - X_arr.mean(axis=0)
    gram = _kernel_block(Xk, Xk, kernel, bandwidth, degree, same=True)

    alpha, f, n_updates, clean_pass, history = _dual_perceptron(gram, y_arr, rule, budget)
    return KernelPerceptron(
        X=read_only(X_arr, copy=True),
        y=read_only(y_arr, copy=True),
        alpha=read_only(alpha, copy=True),
        kernel=kernel,
        bandwidth=bandwidth,
        degree=degree,
        rule=rule,
        n_updates=n_updates,
        converged=clean_pass if rule == "cyclic" else bool(np.all(y_arr * f >= 0.0)),
        history=read_only(history, copy=True),
    )


def _update_budget(rule: str, n: int, n_steps: Any, max_updates: Any) -> int:
    r"""Return the number of updates ``_dual_perceptron`` may make under ``rule``.

    ``rule='most_violated'`` makes exactly ``n_steps`` updates (the slides'
    :math:`1/(\varepsilon\gamma^2)`); ``rule='cyclic'`` stops at a clean pass or after
    ``max_updates`` updates (default ``max(1000, 100 n)``). Raises ``ValueError`` on a step
    argument the rule does not use, or lacks.
    """
    if rule == "most_violated":
        if n_steps is None:
            raise ValueError("rule='most_violated' needs n_steps (the slides' 1/(eps gamma^2))")
        if max_updates is not None:
            raise ValueError(
                "max_updates is used only by rule='cyclic'; rule='most_violated' always makes "
                f"n_steps updates; got max_updates={max_updates!r}"
            )
        return check_positive_int(n_steps, "n_steps", minimum=0)
    if n_steps is not None:
        raise ValueError(
            "n_steps is used only by rule='most_violated'; use max_updates to cap "
            f"rule='cyclic'; got n_steps={n_steps!r}"
        )
    if max_updates is None:
        return max(1000, 100 * n)
    return check_positive_int(max_updates, "max_updates", minimum=0)


def _dual_perceptron(
    gram: np.ndarray, y: np.ndarray, rule: str, budget: int
) -> tuple[np.ndarray, np.ndarray, int, bool, np.ndarray]:
    r"""Run a perceptron rule in dual form on a precomputed Gram matrix.

    The loop of :func:`kernel_perceptron` (and of the sketched kernel SVM of
    :mod:`mlgeom.primer.sketched_svm`, whose Gram matrix is :math:`\Phi\Phi^\top`): start
    from :math:`f = y_1 K(x_1, \cdot)`, then per update add one point, the next violator in
    cyclic order (``"cyclic"``, stopping after a full clean pass) or
    :math:`\arg\min_i y_i f(x_i)` (``"most_violated"``, ties to the lowest index), at most
    ``budget`` updates. Arguments are trusted (validated by the callers).

    Returns
    -------
    alpha : numpy.ndarray of shape (n,)
        Update counts, the start included.
    f : numpy.ndarray of shape (n,)
        :math:`f(x_j) = \sum_i \alpha_i y_i K(x_i, x_j)` at the end.
    n_updates : int
        Updates after the start.
    clean_pass : bool
        Whether a cyclic run stopped on a full pass without an update.
    history : numpy.ndarray of shape (n_updates + 1,)
        Training error after the start and after each update.
    """
    n = y.shape[0]
    alpha = np.zeros(n, dtype=np.int64)
    # slide: "choose w = sigma(x) x" -> f = y_1 K(x_1, .)
    alpha[0] = 1
    f = y[0] * gram[0]  # f[j] = f(x_j) = sum_i alpha_i y_i K(x_i, x_j)
    history = [_training_error(f, y)]
    n_updates = 0
    clean_pass = False  # cyclic: stopped by a full pass without an update
    i = 0  # next point to check (the printed "i = 1")
    while n_updates < budget:
        margins = y * f
        if rule == "cyclic":
            # Implementation Hints: "if y_i <x_i, w> < 0" at the next point in cyclic order
            violators = np.flatnonzero(margins < 0.0)
            if violators.size == 0:
                clean_pass = True  # a full pass of n checks without an update
                break
            k = int(np.searchsorted(violators, i))
            j = int(violators[k]) if k < violators.size else int(violators[0])
            i = (j + 1) % n
        else:
            # slide: x' = argmin sigma(x) KDE_W(x)
            j = int(np.argmin(margins))
        # slide: KDE_W = KDE_W + sigma(x') K(x', .)   (the Gram matrix is symmetric)
        alpha[j] += 1
        f += y[j] * gram[j]
        n_updates += 1
        history.append(_training_error(f, y))
    return alpha, f, n_updates, clean_pass, np.asarray(history)


def rkhs_margin(
    X: Any, y: Any, kernel: str = "gaussian", *, bandwidth: float = 1.0, degree: int = 2
) -> float:
    r"""Best margin through the origin in the kernel's feature space, :math:`\gamma_0`.

    The kernel perceptron is the perceptron run on :math:`\phi(x) = K(x, \cdot)`, so its
    mistake bound is Novikoff's in the RKHS: at most :math:`R^2/\gamma_0^2` updates, with
    :math:`R^2 = \max_i K(x_i, x_i)` (``1`` for the Gaussian and Laplace kernels) and
    :math:`\gamma_0 = \min_{u \in \mathrm{conv}\{\sigma(x_i)\phi(x_i)\}} \|u\|` the norm of the
    minimum-norm point of the signed feature hull (slides: "Polytope Distance", with
    :math:`Q = \{0\}`; "Kernel Perceptron Algorithm"). We factor the Gram matrix
    :math:`K = V \Lambda V^\top` and use the explicit features :math:`V\Lambda^{1/2}` (rows),
    whose inner products reproduce :math:`K`, in
    :func:`mlgeom.primer.polytope_distance.polytope_distance_qp`.

    Parameters
    ----------
    X : array_like of shape (n, d)
        Training points.
    y : array_like of shape (n,)
        Labels in ``{-1, +1}``.
    kernel, bandwidth, degree
        As in :func:`mlgeom.algorithms.kernels.kernel_matrix`.

    Returns
    -------
    float
        :math:`\gamma_0` (``0`` up to solver tolerance when the data are not separable through
        the origin in the feature space). Eigenvalues below zero, which round-off produces for
        numerically singular Gram matrices, are clipped, so for such matrices the value is
        accurate only to about the solver's tolerance.

    References
    ----------
    .. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", slides "Polytope
       Distance" and "Kernel Perceptron Algorithm".
    .. [2] Y. Freund and R. E. Schapire, "Large margin classification using the perceptron
       algorithm", Machine Learning 37(3), 1999 (the kernel perceptron's bound).
    """
    X_ = check_matrix(X, "X")
    y_ = check_labels(y, X_.shape[0], "y")
    K = kernel_matrix(X_, X_, kernel, bandwidth=bandwidth, degree=degree)
    lam, V = np.linalg.eigh((K + K.T) / 2)
    features = V * np.sqrt(np.clip(lam, 0.0, None))
    signed = y_[:, None] * features
    return polytope_distance_qp(signed, np.zeros((1, signed.shape[1]))).distance
