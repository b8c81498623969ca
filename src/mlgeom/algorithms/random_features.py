r"""Random Fourier features for the Gaussian kernel (slides "Sketched Kernel SVM Algorithm").

The slides define a map :math:`\phi : X \to \mathbb{R}^\rho` such that
:math:`\langle \phi(x), \phi(p) \rangle \approx K(x, p) = \exp(-\|x - p\|^2)`, "e.g.,
Rahimi+Recht [NeurIPS07] additive :math:`\varepsilon` in
:math:`\rho = \tilde O(1/\varepsilon^2)`". Rahimi and Recht's Algorithm 1 draws
:math:`\omega_1, \ldots, \omega_\rho` from the kernel's spectral density and
:math:`b_1, \ldots, b_\rho \sim U[0, 2\pi)`, and sets

.. math::

    \phi(x) = \sqrt{2/\rho}\, \bigl(\cos(\omega_k^\top x + b_k)\bigr)_{k=1}^{\rho}.

For :math:`K(x, p) = \exp(-\|x - p\|^2 / h^2)` the spectral density is
:math:`N(0, (2/h^2) I_d)`, since :math:`\mathbb{E}\cos(\omega^\top \Delta) =
\exp(-\|\Delta\|^2/h^2)` for that :math:`\omega`, and
:math:`\mathbb{E}[2\cos(\omega^\top x + b)\cos(\omega^\top p + b)] = \mathbb{E}\cos(\omega^\top
(x - p))`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from mlgeom._frozen import read_only
from mlgeom._validation import check_matrix, check_positive_int, check_real, check_vector
from mlgeom.algorithms.kernels import _BLOCK_ENTRIES, _kernel_block
from mlgeom.random import Seed, as_generator

__all__ = ["RandomFourierFeatures", "random_fourier_features", "rff_sup_error"]


@dataclass(frozen=True, eq=False)
class RandomFourierFeatures:
    r"""A random Fourier feature map :math:`\phi(x) = \sqrt{2/\rho}\cos(\omega^\top x + b)`.

    Usually built by :func:`random_fourier_features`; the arrays are stored as read-only
    copies.

    Attributes
    ----------
    omega : numpy.ndarray of shape (d, rho)
        Frequencies, one column per feature.
    b : numpy.ndarray of shape (rho,)
        Phases in :math:`[0, 2\pi)`.
    bandwidth : float
        Bandwidth :math:`h` of the approximated kernel
        :math:`\exp(-\|x - p\|^2 / h^2)`.

    References
    ----------
    .. [1] A. Rahimi and B. Recht, "Random features for large-scale kernel machines",
       NeurIPS 2007, Algorithm 1.
    """

    omega: np.ndarray
    b: np.ndarray
    bandwidth: float

    def __post_init__(self) -> None:
        omega = np.array(check_matrix(self.omega, "omega"), copy=True)
        b = np.array(check_vector(self.b, "b", size=omega.shape[1]), copy=True)
        bandwidth = check_real(self.bandwidth, "bandwidth", low=0.0, low_inclusive=False)
        object.__setattr__(self, "omega", read_only(omega))
        object.__setattr__(self, "b", read_only(b))
        object.__setattr__(self, "bandwidth", bandwidth)

    @property
    def d(self) -> int:
        """Input dimension."""
        return int(self.omega.shape[0])

    @property
    def rho(self) -> int:
        r"""Number of features (the slides' :math:`\rho`)."""
        return int(self.omega.shape[1])

    def transform(self, X: Any) -> np.ndarray:
        r"""Return the features :math:`\phi(x) = \sqrt{2/\rho}\cos(\omega^\top x + b)`.

        Parameters
        ----------
        X : array_like of shape (n, d)
            Points, with the map's input dimension ``d``.

        Returns
        -------
        numpy.ndarray of shape (n, rho)
            One feature vector per row.

        Raises
        ------
        ValueError
            If ``X`` is not a finite 2-D array with ``d`` columns.
        """
        X_arr = check_matrix(X, "X", n_cols=self.d)
        # Rahimi & Recht 2007, Algorithm 1: z(x) = sqrt(2/D) cos(omega' x + b)
        Z = X_arr @ self.omega
        Z += self.b
        np.cos(Z, out=Z)
        Z *= np.sqrt(2.0 / self.rho)
        return Z


def random_fourier_features(
    d: int,
    rho: int,
    *,
    bandwidth: float = 1.0,
    seed: Seed,
) -> RandomFourierFeatures:
    r"""Draw a random Fourier feature map for the Gaussian kernel.

    The slides' "Sketched Kernel SVM Algorithm" maps :math:`K(x, p) = \exp(-\|x - p\|^2)`
    "approximately to :math:`\mathbb{R}^\rho`", with additive error :math:`\varepsilon`
    for :math:`\rho = \tilde O(1/\varepsilon^2)` (Rahimi and Recht 2007). The map
    approximates :math:`K(x, p) = \exp(-\|x - p\|^2/h^2)` with :math:`h` = ``bandwidth``
    (``bandwidth=1`` is the slides' kernel): :math:`\omega_k \sim N(0, (2/h^2) I_d)` and
    :math:`b_k \sim U[0, 2\pi)`, drawn in that order from ``seed``. Then
    :math:`\mathbb{E}\langle\phi(x), \phi(p)\rangle = K(x, p)` exactly, and each of the
    :math:`\rho` terms lies in :math:`[-2/\rho, 2/\rho]`.

    Parameters
    ----------
    d : int
        Input dimension (>= 1).
    rho : int
        Number of features :math:`\rho` (>= 1).
    bandwidth : float, default=1.0
        Bandwidth :math:`h > 0` of the Gaussian kernel.
    seed : int, numpy.random.Generator or None
        Source of randomness (see :func:`mlgeom.random.as_generator`).

    Returns
    -------
    RandomFourierFeatures
        The feature map.

    Raises
    ------
    ValueError
        If ``d`` or ``rho`` is not a positive integer, ``bandwidth <= 0``, or ``seed``
        is invalid.

    References
    ----------
    .. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", slides
       "Sketched Kernel SVM Algorithm".
    .. [2] A. Rahimi and B. Recht, "Random features for large-scale kernel machines",
       NeurIPS 2007, Algorithm 1.
    """
    d = check_positive_int(d, "d")
    rho = check_positive_int(rho, "rho")
    bandwidth = check_real(bandwidth, "bandwidth", low=0.0, low_inclusive=False)
    rng = as_generator(seed)
    # Rahimi & Recht 2007, Algorithm 1: omega ~ p(omega), the Fourier transform of K;
    # for exp(-||x - p||^2 / h^2) it is N(0, (2 / h^2) I)
    omega = rng.normal(0.0, np.sqrt(2.0) / bandwidth, size=(d, rho))
    # Rahimi & Recht 2007, Algorithm 1: b ~ Uniform[0, 2 pi)
    b = rng.uniform(0.0, 2.0 * np.pi, size=rho)
    return RandomFourierFeatures(omega=omega, b=b, bandwidth=bandwidth)


def rff_sup_error(
    X: Any,
    features: RandomFourierFeatures,
    *,
    bandwidth: float | None = None,
) -> float:
    r"""Return :math:`\max_{x, p \in X} |\phi(x)^\top \phi(p) - K(x, p)|`.

    The sup-norm error of the feature map's kernel approximation on :math:`X \times X`
    (diagonal pairs included), the quantity that Rahimi and Recht bound by an additive
    :math:`\varepsilon` for :math:`\rho = \tilde O(1/\varepsilon^2)`. The features of
    :math:`X` are computed once (:math:`n \rho` floats); the :math:`n \times n` comparison
    runs in blocks of rows.

    Parameters
    ----------
    X : array_like of shape (n, d)
        Points.
    features : RandomFourierFeatures
        The feature map :math:`\phi`.
    bandwidth : float, optional
        Bandwidth :math:`h` of the exact kernel :math:`\exp(-\|x - p\|^2/h^2)`. Defaults
        to ``features.bandwidth``; a different value is rejected, since the map
        approximates only the kernel it was drawn for.

    Returns
    -------
    float
        The largest absolute error over all pairs.

    Raises
    ------
    ValueError
        On invalid points, a dimension mismatch, ``features`` of another type, or a
        ``bandwidth`` different from ``features.bandwidth``.

    References
    ----------
    .. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", slides
       "Sketched Kernel SVM Algorithm".
    .. [2] A. Rahimi and B. Recht, "Random features for large-scale kernel machines",
       NeurIPS 2007, Claim 1.
    """
    if not isinstance(features, RandomFourierFeatures):
        raise ValueError(f"features must be a RandomFourierFeatures; got {type(features).__name__}")
    if bandwidth is not None:
        bandwidth = check_real(bandwidth, "bandwidth", low=0.0, low_inclusive=False)
        if bandwidth != features.bandwidth:
            raise ValueError(
                f"bandwidth must equal features.bandwidth={features.bandwidth}, the kernel "
                f"the features approximate; got {bandwidth}"
            )
    X_arr = check_matrix(X, "X", n_cols=features.d)
    Z = features.transform(X_arr)
    Xc = X_arr - X_arr.mean(axis=0)
    n = X_arr.shape[0]
    rows = max(1, _BLOCK_ENTRIES // n)
    err = 0.0
    for r0 in range(0, n, rows):
        sl = slice(r0, r0 + rows)
        exact = _kernel_block(Xc[sl], Xc, "gaussian", features.bandwidth, 2)
        # slide "Sketched Kernel SVM Algorithm": <phi(x), phi(p)> approximates K(x, p)
        approx = Z[sl] @ Z.T
        approx -= exact
        del exact  # free it before the next block is allocated
        err = max(err, float(np.max(np.abs(approx, out=approx))))
    return err
