r"""Kernels and kernel density estimates of the primer's kernel slides.

The slides "Kernel Perceptron Algorithm" list three kernels,

.. math::

    K(x, p) = \exp(-\|x - p\|^2), \qquad
    K(x, p) = \exp(-\|x - p\|), \qquad
    K(x, p) = (1 + \langle x, p \rangle)^r,

and the kernel density estimate :math:`\mathrm{KDE}_W(x) = \frac{1}{|W|}\sum_{w \in W} K(w, x)`.
"Recent Results" states that a random sample :math:`S \sim X` of size
:math:`O(\nu/\varepsilon^2)` has :math:`\|\mathrm{KDE}_X - \mathrm{KDE}_S\|_\infty \le
\varepsilon` (Joshi, Kommaraju, Phillips and Venkatasubramanian 2011); :func:`kde_sup_error`
measures the left-hand side on a finite set of query points.

All evaluations work block by block, so that memory stays bounded (about 16 MB per block)
however many points and queries there are.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.spatial.distance import cdist

from mlgeom._validation import check_in, check_matrix, check_positive_int, check_real, check_vector

__all__ = ["KERNELS", "kernel_matrix", "kde", "kde_sup_error"]

KERNELS: tuple[str, ...] = ("gaussian", "laplace", "polynomial")
"""Names of the kernels of the slides "Kernel Perceptron Algorithm"."""

_DEFAULT_BANDWIDTH = 1.0
_DEFAULT_DEGREE = 2
# Entries of one kernel block (2**21 float64 = 16 MB); the block is transformed in place,
# so a block evaluation needs about this much memory plus O(rows + columns).
_BLOCK_ENTRIES = 2**21


def _check_kernel_params(kernel: Any, bandwidth: Any, degree: Any) -> tuple[str, float, int]:
    """Validate the kernel name and its parameters; reject parameters the kernel does not use."""
    kernel = check_in(kernel, "kernel", KERNELS)
    bandwidth = check_real(bandwidth, "bandwidth", low=0.0, low_inclusive=False)
    degree = check_positive_int(degree, "degree")
    if kernel == "polynomial" and bandwidth != _DEFAULT_BANDWIDTH:
        raise ValueError(
            "bandwidth is not used by the polynomial kernel (1 + <x, p>)^degree; "
            f"leave it at {_DEFAULT_BANDWIDTH}; got {bandwidth}"
        )
    if kernel != "polynomial" and degree != _DEFAULT_DEGREE:
        raise ValueError(
            f"degree is used only by the polynomial kernel; leave it at {_DEFAULT_DEGREE} "
            f"for kernel={kernel!r}; got {degree}"
        )
    return kernel, bandwidth, degree


def _kernel_block(
    A: np.ndarray,
    B: np.ndarray,
    kernel: str,
    bandwidth: float,
    degree: int,
    *,
    same: bool = False,
) -> np.ndarray:
    """Return the kernel block ``K[i, j] = K(A[i], B[j])`` for validated inputs.

    ``same=True`` declares ``A`` and ``B`` to be the same points, so that the diagonal
    distances are exactly zero. For the Gaussian kernel the caller should centre ``A``
    and ``B`` by a common shift first: it reduces the round-off of the expanded squared
    distance.
    """
    if kernel == "polynomial":
        with np.errstate(over="ignore", invalid="ignore"):  # overflow is reported below
            G = A @ B.T
            # slide "Kernel Perceptron Algorithm": K(x, p) = (1 + <x, p>)^r
            G += 1.0
            if degree != 1:
                np.power(G, degree, out=G)
        if not np.all(np.isfinite(G)):
            raise ValueError(
                f"the polynomial kernel (1 + <x, p>)^{degree} overflows float64 on these "
                "points; rescale the data or lower the degree"
            )
        return G
    if kernel == "laplace":
        # The expanded squared distance has an absolute round-off of about 1e-16 ||a||^2,
        # which the square root would blow up to about 1e-8 near the diagonal: take the
        # distances from the coordinate differences instead.
        G = cdist(A, B, "euclidean")
        if same:
            np.fill_diagonal(G, 0.0)
        # slide "Kernel Perceptron Algorithm": K(x, p) = exp(-||x - p||), here /bandwidth
        G *= -1.0 / bandwidth
        np.exp(G, out=G)
        return G
    G = A @ B.T
    # ||a - b||^2 = ||a||^2 + ||b||^2 - 2 <a, b>, clipped at 0 against round-off
    G *= -2.0
    G += np.einsum("ij,ij->i", A, A)[:, None]
    G += np.einsum("ij,ij->i", B, B)[None, :]
    np.maximum(G, 0.0, out=G)
    if same:
        np.fill_diagonal(G, 0.0)
    # slide "Kernel Perceptron Algorithm": K(x, p) = exp(-||x - p||^2), here /bandwidth^2
    G *= -1.0 / bandwidth**2
    np.exp(G, out=G)
    return G


def _evaluate_kde(
    W: np.ndarray,
    X: np.ndarray,
    weights: np.ndarray,
    kernel: str,
    bandwidth: float,
    degree: int,
) -> np.ndarray:
    """Return ``sum_j weights[j] K(W[j], X[i])`` for validated inputs, block by block."""
    if kernel != "polynomial":
        # translation invariance: centring changes no kernel value, only the round-off
        shift = W.mean(axis=0)
        W = W - shift
        X = X - shift
    n_w, n_x = W.shape[0], X.shape[0]
    cols = min(n_w, _BLOCK_ENTRIES)
    rows = max(1, min(n_x, _BLOCK_ENTRIES // cols))
    out = np.zeros(n_x)
    for r0 in range(0, n_x, rows):
        Xc = X[r0 : r0 + rows]
        for c0 in range(0, n_w, cols):
            block = _kernel_block(Xc, W[c0 : c0 + cols], kernel, bandwidth, degree)
            out[r0 : r0 + rows] += block @ weights[c0 : c0 + cols]
            del block  # free it before the next block is allocated
    return out


def kernel_matrix(
    A: Any,
    B: Any,
    kernel: str = "gaussian",
    *,
    bandwidth: float = 1.0,
    degree: int = 2,
) -> np.ndarray:
    r"""Return the kernel matrix ``K[i, j] = K(A[i], B[j])``.

    The kernels of the slide "Kernel Perceptron Algorithm", with a bandwidth :math:`h`:

    * ``"gaussian"``: :math:`K(a, b) = \exp(-\|a - b\|^2 / h^2)`;
    * ``"laplace"``: :math:`K(a, b) = \exp(-\|a - b\| / h)`;
    * ``"polynomial"``: :math:`K(a, b) = (1 + \langle a, b \rangle)^r` with
      :math:`r` = ``degree``.

    ``bandwidth=1`` gives the slides' kernels exactly. For the Gaussian kernel the
    squared distances are computed as :math:`\|a\|^2 + \|b\|^2 - 2\langle a, b\rangle`
    (matrix products) after centring both sets at the mean of ``A``, and clipped at zero
    against round-off; for the Laplace kernel the distances come from the coordinate
    differences (:func:`scipy.spatial.distance.cdist`), because the square root would
    amplify the round-off of the expanded form near zero distance. When ``B is A`` the
    diagonal distances are exactly zero.

    Parameters
    ----------
    A : array_like of shape (n_A, d)
        First set of points, one per row.
    B : array_like of shape (n_B, d)
        Second set of points.
    kernel : {"gaussian", "laplace", "polynomial"}, default="gaussian"
        Kernel name (see :data:`KERNELS`).
    bandwidth : float, default=1.0
        Bandwidth :math:`h > 0` of the Gaussian and Laplace kernels. Not used by the
        polynomial kernel, which therefore rejects any value other than 1.0.
    degree : int, default=2
        Degree :math:`r \ge 1` of the polynomial kernel (the slides' :math:`r`). Not used
        by the other kernels, which therefore reject any value other than 2.

    Returns
    -------
    numpy.ndarray of shape (n_A, n_B)
        The kernel matrix.

    Raises
    ------
    ValueError
        On an unknown kernel name, a non-positive bandwidth, a degree that is not a
        positive integer, a parameter the kernel does not use, non-finite points, a
        dimension mismatch, or a polynomial kernel that overflows.

    References
    ----------
    .. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", slides
       "Kernel Perceptron Algorithm".
    """
    kernel, bandwidth, degree = _check_kernel_params(kernel, bandwidth, degree)
    same = B is A
    A_arr = check_matrix(A, "A")
    B_arr = A_arr if same else check_matrix(B, "B", n_cols=A_arr.shape[1])
    if kernel != "polynomial":
        shift = A_arr.mean(axis=0)
        A_arr = A_arr - shift
        B_arr = A_arr if same else B_arr - shift
    return _kernel_block(A_arr, B_arr, kernel, bandwidth, degree, same=same)


def kde(
    W: Any,
    X: Any,
    kernel: str = "gaussian",
    *,
    bandwidth: float = 1.0,
    degree: int = 2,
    weights: Any = None,
) -> np.ndarray:
    r"""Evaluate the kernel density estimate of ``W`` at the query points ``X``.

    Without weights this is the slides' kernel density estimate

    .. math::

        \mathrm{KDE}_W(x) = \frac{1}{|W|} \sum_{w \in W} K(w, x);

    with ``weights`` it is the weighted sum :math:`\sum_j \mathrm{weights}_j K(w_j, x)`
    (no :math:`1/|W|`), the signed form :math:`\sum_j \alpha_j \sigma(x_j) K(x_j, \cdot)`
    that the kernel perceptron builds. The sum is evaluated in blocks of at most about
    16 MB, so |W| = 20,000 points and |X| = 10,000 queries never form the full matrix.

    Parameters
    ----------
    W : array_like of shape (n_W, d)
        Points of the estimate (the slides' :math:`W`).
    X : array_like of shape (n_X, d)
        Query points.
    kernel : {"gaussian", "laplace", "polynomial"}, default="gaussian"
        Kernel name, as in :func:`kernel_matrix`.
    bandwidth : float, default=1.0
        Bandwidth of the Gaussian and Laplace kernels, as in :func:`kernel_matrix`.
    degree : int, default=2
        Degree of the polynomial kernel, as in :func:`kernel_matrix`.
    weights : array_like of shape (n_W,), optional
        Finite real weights, one per point of ``W``. ``None`` means :math:`1/|W|` each.

    Returns
    -------
    numpy.ndarray of shape (n_X,)
        The estimate at each query point.

    Raises
    ------
    ValueError
        On invalid points, weights or kernel parameters (see :func:`kernel_matrix`).

    References
    ----------
    .. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", slides
       "Kernel Perceptron Algorithm" (kernel density estimate) and "Recent Results".
    """
    kernel, bandwidth, degree = _check_kernel_params(kernel, bandwidth, degree)
    W_arr = check_matrix(W, "W")
    X_arr = check_matrix(X, "X", n_cols=W_arr.shape[1])
    n_w = W_arr.shape[0]
    if weights is None:
        # slide "Kernel Perceptron Algorithm": KDE_W(x) = (1/|W|) sum_{w in W} K(w, x)
        w = np.full(n_w, 1.0 / n_w)
    else:
        w = check_vector(weights, "weights", size=n_w)
    return _evaluate_kde(W_arr, X_arr, w, kernel, bandwidth, degree)


def kde_sup_error(
    X: Any,
    S: Any,
    queries: Any,
    kernel: str = "gaussian",
    *,
    bandwidth: float = 1.0,
    degree: int = 2,
) -> float:
    r"""Return :math:`\max_q |\mathrm{KDE}_X(q) - \mathrm{KDE}_S(q)|` over the queries.

    The slide "Recent Results" states that a random sample :math:`S \sim X` of size
    :math:`O(\nu/\varepsilon^2)` has :math:`\|\mathrm{KDE}_X - \mathrm{KDE}_S\|_\infty \le
    \varepsilon`; this function measures that sup-norm on a finite set of query points,
    which gives a lower bound on the true sup-norm over all of :math:`\mathbb{R}^d`.

    Parameters
    ----------
    X : array_like of shape (n_X, d)
        The full point set.
    S : array_like of shape (n_S, d)
        The sample (an :math:`\varepsilon`-sample candidate).
    queries : array_like of shape (n_q, d)
        Points where the two estimates are compared.
    kernel : {"gaussian", "laplace", "polynomial"}, default="gaussian"
        Kernel name, as in :func:`kernel_matrix`.
    bandwidth : float, default=1.0
        Bandwidth of the Gaussian and Laplace kernels, as in :func:`kernel_matrix`.
    degree : int, default=2
        Degree of the polynomial kernel, as in :func:`kernel_matrix`.

    Returns
    -------
    float
        The largest absolute difference of the two estimates over the queries.

    Raises
    ------
    ValueError
        On invalid points or kernel parameters, or a dimension mismatch.

    References
    ----------
    .. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", slide
       "Recent Results".
    .. [2] S. Joshi, R. V. Kommaraju, J. M. Phillips and S. Venkatasubramanian,
       "Comparing distributions and shapes using the kernel distance", SoCG 2011.
    """
    kernel, bandwidth, degree = _check_kernel_params(kernel, bandwidth, degree)
    X_arr = check_matrix(X, "X")
    d = X_arr.shape[1]
    S_arr = check_matrix(S, "S", n_cols=d)
    Q_arr = check_matrix(queries, "queries", n_cols=d)
    kde_x = _evaluate_kde(
        X_arr, Q_arr, np.full(X_arr.shape[0], 1.0 / X_arr.shape[0]), kernel, bandwidth, degree
    )
    kde_s = _evaluate_kde(
        S_arr, Q_arr, np.full(S_arr.shape[0], 1.0 / S_arr.shape[0]), kernel, bandwidth, degree
    )
    # slide "Recent Results": ||KDE_X - KDE_S||_inf, restricted to the query points
    return float(np.max(np.abs(kde_x - kde_s)))
