r"""Margin losses of the "Loss Functions" slides of the primer.

The slides replace the hard constraint "every point on the correct side" by a penalty,

.. math::

    f_X(w) = \sum_{x \in X} \ell(w, x) + \mathrm{prior}(w), \qquad
    \ell_i = \ell(w, x_i) = \ell(z_i), \qquad z_i = \sigma(x_i) \langle w, x_i \rangle,

so that every loss here is a function of the scalar *margin* :math:`z` alone. When
:math:`\ell` is convex, :math:`w \mapsto \ell(\sigma(x)\langle w, x\rangle)` is convex
(a convex function of a linear map), hence so is :math:`f_X` for a convex prior — the slides'
"if linear or :math:`K` is pd then :math:`f_X` is convex".

All loss functions are vectorised: they accept a scalar or an array of any shape and return
the same shape (a NumPy scalar for a scalar input), and they reject non-finite margins.

References
----------
.. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", slides "Loss
   Functions".
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from mlgeom._validation import check_in, check_labels, check_matrix, check_not_complex, check_vector

__all__ = [
    "zero_one",
    "hinge",
    "logistic",
    "squared",
    "exponential",
    "MARGIN_LOSSES",
    "margin_loss",
    "margins",
]

_LN2 = float(np.log(2.0))


def _check_z(z: Any) -> np.ndarray:
    """Return the margins ``z`` as a finite float array of any shape, or raise ``ValueError``."""
    check_not_complex(z, "z")
    try:
        arr = np.asarray(z, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"z must be a real number or a numeric array; got {z!r:.60}") from exc
    # Finiteness is checked on the flattened view (the index in the message is a flat index).
    check_vector(arr.reshape(-1), "z", min_size=0)
    return arr


def _out(values: np.ndarray) -> np.ndarray | float:
    """Return ``values``, turning a 0-d array into a NumPy scalar (as ufuncs do)."""
    return values[()]


def zero_one(z: Any) -> np.ndarray | float:
    r"""0-1 loss: :math:`\ell(z) = 1` if :math:`z \le 0`, else :math:`0`.

    A point exactly on the decision boundary (:math:`z = 0`) counts as a mistake: its side is
    undecided, and with this choice the zero vector misclassifies every point. (The perceptron
    test of the "Implementation Hints", :math:`y_i \langle x_i, w\rangle < 0`, is strict
    instead; that is a choice of *when to update*, not of how to score.) Every surrogate below
    equals 1 at :math:`z = 0`, so the upper-bound property does not depend on this choice.

    Parameters
    ----------
    z : float or array_like
        Margins :math:`z_i = \sigma(x_i)\langle w, x_i\rangle`; must be finite.

    Returns
    -------
    numpy.ndarray or float
        Losses in ``{0.0, 1.0}``, same shape as ``z``.

    Raises
    ------
    ValueError
        If ``z`` is not numeric or not finite.

    References
    ----------
    .. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", slides "Loss
       Functions".
    """
    arr = _check_z(z)
    return _out((arr <= 0.0).astype(np.float64))


def hinge(z: Any) -> np.ndarray | float:
    r"""Hinge loss :math:`\ell(z) = \max(0, 1 - z)` (convex, an upper bound on the 0-1 loss).

    Parameters
    ----------
    z : float or array_like
        Margins; must be finite.

    Returns
    -------
    numpy.ndarray or float
        Losses, same shape as ``z``.

    Raises
    ------
    ValueError
        If ``z`` is not numeric or not finite.

    References
    ----------
    .. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", slides "Loss
       Functions".
    """
    arr = _check_z(z)
    return _out(np.maximum(0.0, 1.0 - arr))


def logistic(z: Any, *, base2: bool = False) -> np.ndarray | float:
    r"""Logistic loss :math:`\ell(z) = \log(1 + e^{-z})`, computed stably.

    Evaluated as ``numpy.logaddexp(0, -z)``, which neither overflows for very negative ``z``
    (where :math:`\ell(z) \approx -z`) nor loses the small value :math:`\approx e^{-z}` for
    very positive ``z``.

    Parameters
    ----------
    z : float or array_like
        Margins; must be finite.
    base2 : bool, default=False
        If true, return :math:`\log_2(1 + e^{-z}) = \log(1 + e^{-z}) / \ln 2`, which equals 1
        at :math:`z = 0` and is an upper bound on the 0-1 loss (the natural-log version is not:
        it is :math:`\ln 2 < 1` at :math:`z = 0`).

    Returns
    -------
    numpy.ndarray or float
        Losses, same shape as ``z``.

    Raises
    ------
    ValueError
        If ``z`` is not numeric or not finite.

    References
    ----------
    .. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", slides "Loss
       Functions".
    """
    arr = _check_z(z)
    with np.errstate(under="ignore"):  # e^{-z} below the smallest float is harmless
        values = np.logaddexp(0.0, -arr)
    if base2:
        values = values / _LN2
    return _out(values)


def squared(z: Any) -> np.ndarray | float:
    r"""Squared loss :math:`\ell(z) = (1 - z)^2` (convex; it also penalises :math:`z > 1`).

    Parameters
    ----------
    z : float or array_like
        Margins; must be finite.

    Returns
    -------
    numpy.ndarray or float
        Losses, same shape as ``z``.

    Raises
    ------
    ValueError
        If ``z`` is not numeric or not finite.

    References
    ----------
    .. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", slides "Loss
       Functions".
    """
    arr = _check_z(z)
    return _out((1.0 - arr) ** 2)


def exponential(z: Any) -> np.ndarray | float:
    r"""Exponential loss :math:`\ell(z) = e^{-z}` (convex, an upper bound on the 0-1 loss).

    For :math:`z < -\ln(\text{float max}) \approx -709.78` the value is not representable in
    float64 and ``inf`` is returned (without a ``RuntimeWarning``, whatever the caller's
    :func:`numpy.errstate`); it is never ``nan``.

    Parameters
    ----------
    z : float or array_like
        Margins; must be finite.

    Returns
    -------
    numpy.ndarray or float
        Losses, same shape as ``z``.

    Raises
    ------
    ValueError
        If ``z`` is not numeric or not finite.

    References
    ----------
    .. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", slides "Loss
       Functions".
    """
    arr = _check_z(z)
    with np.errstate(over="ignore", under="ignore"):
        return _out(np.exp(-arr))


MARGIN_LOSSES: dict[str, Callable[..., Any]] = {
    "zero_one": zero_one,
    "hinge": hinge,
    "logistic": logistic,
    "logistic_base2": partial(logistic, base2=True),
    "squared": squared,
    "exponential": exponential,
}
"""Registry of the margin losses, by name."""


def margin_loss(name: str, z: Any) -> np.ndarray | float:
    """Evaluate the margin loss called ``name`` at ``z``.

    Parameters
    ----------
    name : str
        One of the keys of :data:`MARGIN_LOSSES`: ``"zero_one"``, ``"hinge"``,
        ``"logistic"``, ``"logistic_base2"``, ``"squared"``, ``"exponential"``.
    z : float or array_like
        Margins; must be finite.

    Returns
    -------
    numpy.ndarray or float
        Losses, same shape as ``z``.

    Raises
    ------
    ValueError
        If ``name`` is unknown (the message lists the known names) or ``z`` is not finite.

    References
    ----------
    .. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", slides "Loss
       Functions".
    """
    check_in(name, "name", tuple(MARGIN_LOSSES))
    return MARGIN_LOSSES[name](z)


def margins(X: Any, y: Any, w: Any) -> np.ndarray:
    r"""Margins :math:`z_i = \sigma(x_i) \langle w, x_i \rangle` of the points under ``w``.

    Parameters
    ----------
    X : array_like of shape (n, d)
        Points, one per row; finite.
    y : array_like of shape (n,)
        Labels :math:`\sigma(x_i) \in \{-1, +1\}`.
    w : array_like of shape (d,)
        Normal vector of a halfspace through the origin (not normalised here).

    Returns
    -------
    numpy.ndarray of shape (n,)
        The margins ``y * (X @ w)``.

    Raises
    ------
    ValueError
        If the shapes disagree, a value is not finite or a label is not in ``{-1, +1}``.

    References
    ----------
    .. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", slides "Loss
       Functions" (:math:`z_i = \sigma(x_i)\langle w, x_i\rangle`).
    """
    X = check_matrix(X, "X")
    y = check_labels(y, X.shape[0], "y")
    w = check_vector(w, "w", size=X.shape[1])
    # slide "Loss Functions": z_i = sigma(x_i) <w, x_i>
    return y * (X @ w)
