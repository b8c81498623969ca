r"""Polynomial regression and model selection by a train/test split.

The primer's "Example: Simple polynomial example with Cross Validation" fits polynomials of
degree :math:`p \in \{1, 2, 3, 4, 5, 8\}` to six training points, giving models
:math:`M_{p,\text{train}}`, and scores each on three held-out test points by

.. math::

    \mathrm{SSE}(x_{\text{test}}, y_{\text{test}}, M_{p,\text{train}})
    = \sum_{i} \big(M_{p,\text{train}}(x_i) - y_i\big)^2,

choosing the degree with the smallest score. This module provides the three pieces: the
least-squares fit, the SSE and the per-degree test scores.

References
----------
.. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", "Example: Simple
   polynomial example with Cross Validation".
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from mlgeom._validation import check_positive_int, check_vector

__all__ = ["polynomial_fit", "polynomial_sse", "polynomial_cv"]


def _check_xy(x: Any, y: Any, x_name: str = "x", y_name: str = "y") -> tuple[np.ndarray, ...]:
    """Return ``x`` and ``y`` as finite 1-D arrays of the same (non-zero) length."""
    x = check_vector(x, x_name)
    y = check_vector(y, y_name, size=x.shape[0])
    return x, y


def polynomial_fit(x: Any, y: Any, degree: int) -> np.ndarray:
    r"""Fit a polynomial of degree ``degree`` to ``(x, y)`` by least squares.

    Solves :math:`\min_c \lVert V c - y \rVert_2` for the Vandermonde matrix
    :math:`V_{ij} = x_i^{\,p-j}` (:math:`p` = ``degree``, :math:`j = 0, \dots, p`) with
    :func:`numpy.linalg.lstsq`. The coefficients are returned highest power first, like
    :func:`numpy.polyfit`, so that ``numpy.polyval(coef, x)`` evaluates the model.

    When ``degree + 1 > len(x)`` (or the distinct ``x`` are fewer than ``degree + 1``) the
    system is underdetermined: infinitely many polynomials interpolate the data, and
    ``lstsq`` returns the one whose coefficient vector has the smallest Euclidean norm. That
    is one choice among many, and a different choice (e.g. :func:`numpy.polyfit`, which
    rescales the columns of :math:`V` first, or a minimum-norm solution in another basis)
    gives a different curve between and beyond the data. The primer's degree-8 fit to six
    points is such a case, and its figure does not say which interpolant it shows.

    Parameters
    ----------
    x : array_like of shape (n,)
        Inputs; finite, ``n >= 1``.
    y : array_like of shape (n,)
        Targets; finite.
    degree : int
        Polynomial degree, ``>= 0``.

    Returns
    -------
    numpy.ndarray of shape (degree + 1,)
        Coefficients, highest power first.

    Raises
    ------
    ValueError
        If ``x`` or ``y`` is not finite, their lengths differ, they are empty, or ``degree``
        is negative or not an integer.

    References
    ----------
    .. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", "Example: Simple
       polynomial example with Cross Validation".

    Examples
    --------
    >>> polynomial_fit([0.0, 1.0, 2.0], [1.0, 3.0, 5.0], 1).round(12).tolist()
    [2.0, 1.0]
    """
    x, y = _check_xy(x, y)
    degree = check_positive_int(degree, "degree", minimum=0)
    # Primer: model M_p(x) = sum_j c_j x^(p-j), least squares on the Vandermonde matrix.
    V = np.vander(x, degree + 1)
    coef, *_ = np.linalg.lstsq(V, y, rcond=None)
    return coef


def polynomial_sse(coef: Any, x: Any, y: Any) -> float:
    r"""Return the sum of squared errors :math:`\sum_i (p(x_i) - y_i)^2`.

    Parameters
    ----------
    coef : array_like of shape (degree + 1,)
        Polynomial coefficients, highest power first (as from :func:`polynomial_fit`).
    x : array_like of shape (n,)
        Inputs; finite.
    y : array_like of shape (n,)
        Targets; finite.

    Returns
    -------
    float
        The SSE.

    Raises
    ------
    ValueError
        If an input is not finite or empty, or the lengths of ``x`` and ``y`` differ.

    References
    ----------
    .. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", "Example: Simple
       polynomial example with Cross Validation".

    Examples
    --------
    >>> polynomial_sse([2.0, 1.0], [0.0, 1.0], [1.0, 4.0])
    1.0
    """
    coef = check_vector(coef, "coef")
    x, y = _check_xy(x, y)
    # Primer: SSE(x, y, M) = sum_i (M(x_i) - y_i)^2.
    r = np.polyval(coef, x) - y
    return float(np.dot(r, r))


def polynomial_cv(
    x_train: Any,
    y_train: Any,
    x_test: Any,
    y_test: Any,
    degrees: Iterable[int],
) -> dict[int, float]:
    r"""Return the test SSE of the least-squares polynomial of each degree fitted on train.

    For each :math:`p` in ``degrees`` fits :math:`M_{p,\text{train}}` with
    :func:`polynomial_fit` on ``(x_train, y_train)`` and scores it with
    :math:`\mathrm{SSE}(x_{\text{test}}, y_{\text{test}}, M_{p,\text{train}})`. Degrees with
    ``degree + 1 > len(x_train)`` use the minimum-norm interpolant (see
    :func:`polynomial_fit`), so their scores depend on that choice.

    Parameters
    ----------
    x_train, y_train : array_like of shape (n,)
        Training data; finite, same length.
    x_test, y_test : array_like of shape (m,)
        Test data; finite, same length.
    degrees : iterable of int
        Degrees to try, each ``>= 0``; non-empty.

    Returns
    -------
    dict of int to float
        Test SSE per degree, in the order given (a repeated degree appears once).

    Raises
    ------
    ValueError
        If the data are invalid (as in :func:`polynomial_fit`), ``degrees`` is empty, or a
        degree is negative or not an integer.

    References
    ----------
    .. [1] J. M. Phillips, "A Primer on the Geometry in Machine Learning", "Example: Simple
       polynomial example with Cross Validation".
    """
    x_train, y_train = _check_xy(x_train, y_train, "x_train", "y_train")
    x_test, y_test = _check_xy(x_test, y_test, "x_test", "y_test")
    degs = [check_positive_int(d, f"degrees[{i}]", minimum=0) for i, d in enumerate(degrees)]
    if not degs:
        raise ValueError("degrees must contain at least one degree; got none")
    # Primer: SSE(x_test, y_test, M_{p, train}) for each degree p.
    return {d: polynomial_sse(polynomial_fit(x_train, y_train, d), x_test, y_test) for d in degs}
