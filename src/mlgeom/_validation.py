"""Input validation shared by the public functions of :mod:`mlgeom`.

Every public function validates its inputs here, once, at the boundary, and reports the
offending value in the message, so that a bad call fails with one clear error instead of a
traceback from deep inside numpy.
"""

from __future__ import annotations

from numbers import Integral, Real
from typing import Any

import numpy as np
import scipy.sparse as sp

__all__ = [
    "check_matrix",
    "check_vector",
    "check_labels",
    "check_positive_int",
    "check_real",
    "check_in",
    "check_multilabels",
    "check_array",
    "check_indices",
    "check_last_axis",
    "check_unit_interval",
    "check_int_vector",
    "check_vector_in",
    "check_not_complex",
]


def _describe(x: Any) -> str:
    text = repr(x)
    return text if len(text) <= 60 else text[:57] + "..."


def check_not_complex(x: Any, name: str) -> None:
    """Raise ``ValueError`` if ``x`` holds complex numbers.

    A cast to float would drop the imaginary part with only numpy's warning.
    """
    if np.iscomplexobj(x):
        raise ValueError(f"{name} must be real; got complex values ({_describe(x)})")


def _require(ok: np.ndarray, arr: np.ndarray, name: str, what: str) -> None:
    """Raise ``ValueError`` naming the first entry of ``arr`` where ``ok`` is false."""
    if arr.size and not np.all(ok):
        at = tuple(int(i) for i in np.argwhere(~ok)[0])
        raise ValueError(f"{name} {what}; got {arr[at]} at index {at}")


def check_matrix(
    X: Any,
    name: str = "X",
    *,
    n_cols: int | None = None,
    min_rows: int = 1,
    dtype: type = np.float64,
) -> np.ndarray:
    """Return ``X`` as a finite 2-D float array, or raise ``ValueError``.

    Parameters
    ----------
    X : array_like
        Candidate matrix, one row per point.
    name : str, default="X"
        Name used in error messages.
    n_cols : int, optional
        Required number of columns.
    min_rows : int, default=1
        Required minimum number of rows (``0`` allows an empty matrix).
    dtype : type, default=numpy.float64
        Target dtype.

    Returns
    -------
    numpy.ndarray
        The validated array (a copy only when a conversion was needed).
    """
    check_not_complex(X, name)
    try:
        arr = np.asarray(X, dtype=dtype)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a numeric 2-D array; got {_describe(X)}") from exc
    if arr.ndim != 2:
        raise ValueError(f"{name} must be 2-D (n_points, n_features); got shape {arr.shape}")
    if arr.shape[0] < min_rows:
        raise ValueError(f"{name} must have at least {min_rows} row(s); got shape {arr.shape}")
    if n_cols is not None and arr.shape[1] != n_cols:
        raise ValueError(f"{name} must have {n_cols} column(s); got shape {arr.shape}")
    _require(np.isfinite(arr), arr, name, "must be finite")
    return arr


def check_vector(
    x: Any,
    name: str = "x",
    *,
    size: int | None = None,
    min_size: int = 1,
    dtype: type = np.float64,
) -> np.ndarray:
    """Return ``x`` as a finite 1-D float array, or raise ``ValueError``.

    Parameters
    ----------
    x : array_like
        Candidate vector.
    name : str, default="x"
        Name used in error messages.
    size : int, optional
        Required length.
    min_size : int, default=1
        Required minimum length.
    dtype : type, default=numpy.float64
        Target dtype.

    Returns
    -------
    numpy.ndarray
        The validated vector.
    """
    check_not_complex(x, name)
    try:
        arr = np.asarray(x, dtype=dtype)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a numeric 1-D array; got {_describe(x)}") from exc
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D; got shape {arr.shape}")
    if size is not None and arr.shape[0] != size:
        raise ValueError(f"{name} must have length {size}; got length {arr.shape[0]}")
    if arr.shape[0] < min_size:
        raise ValueError(f"{name} must have at least {min_size} element(s); got {arr.shape[0]}")
    if arr.size and not np.all(np.isfinite(arr)):
        i = int(np.flatnonzero(~np.isfinite(arr))[0])
        raise ValueError(f"{name} must be finite; got {arr[i]} at index {i}")
    return arr


def check_labels(y: Any, n: int, name: str = "y") -> np.ndarray:
    r"""Return binary labels ``y`` in ``{-1, +1}`` as a float array of length ``n``.

    Parameters
    ----------
    y : array_like
        Labels; every entry must be ``-1`` or ``+1`` (the slides' sign function
        :math:`\sigma : X \to \{-1, +1\}`).
    n : int
        Required length (the number of points).
    name : str, default="y"
        Name used in error messages.

    Returns
    -------
    numpy.ndarray
        Labels as float64.
    """
    arr = check_vector(y, name, size=n)
    bad = ~np.isin(arr, (-1.0, 1.0))
    if np.any(bad):
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{name} must contain only -1 and +1; got {arr[i]} at index {i}")
    return arr


def check_positive_int(value: Any, name: str, *, minimum: int = 1) -> int:
    """Return ``value`` as an ``int`` at least ``minimum``, or raise ``ValueError``."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise ValueError(f"{name} must be an integer >= {minimum}; got {_describe(value)}")
    if value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}; got {value}")
    return int(value)


def check_real(
    value: Any,
    name: str,
    *,
    low: float | None = None,
    high: float | None = None,
    low_inclusive: bool = True,
    high_inclusive: bool = True,
) -> float:
    """Return ``value`` as a finite ``float`` inside the given interval, or raise ``ValueError``.

    Parameters
    ----------
    value : float
        Candidate value.
    name : str
        Name used in error messages.
    low, high : float, optional
        Interval ends (``None`` for unbounded).
    low_inclusive, high_inclusive : bool, default=True
        Whether the ends belong to the interval.

    Returns
    -------
    float
        The validated value.
    """
    lo_br = "[" if low_inclusive else "("
    hi_br = "]" if high_inclusive else ")"
    interval = f"{lo_br}{'-inf' if low is None else low}, {'inf' if high is None else high}{hi_br}"
    if isinstance(value, bool) or not isinstance(value, Real) or not np.isfinite(value):
        raise ValueError(
            f"{name} must be a finite real number in {interval}; got {_describe(value)}"
        )
    v = float(value)
    too_low = low is not None and (v < low if low_inclusive else v <= low)
    too_high = high is not None and (v > high if high_inclusive else v >= high)
    if too_low or too_high:
        raise ValueError(f"{name} must be in {interval}; got {v}")
    return v


def check_in(value: Any, name: str, allowed: tuple[str, ...]) -> str:
    """Return ``value`` if it is one of ``allowed``, or raise ``ValueError`` listing them."""
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, allowed))}; got {value!r}")
    return value


def check_multilabels(Y: Any, name: str = "Y", *, n_cols: int | None = None) -> np.ndarray:
    """Return a batch of multilabels as a dense ``(n, N)`` bool array, or raise ``ValueError``.

    Parameters
    ----------
    Y : array_like or scipy sparse matrix
        0/1 entries, one row per example (a 1-D vector is one example).
    name : str, default="Y"
        Name used in error messages.
    n_cols : int, optional
        Required number of columns (nodes).
    """
    arr = Y.toarray() if sp.issparse(Y) else np.asarray(Y)
    if arr.ndim == 1:
        arr = arr[None, :]
    if arr.ndim != 2:
        raise ValueError(f"{name} must be a (n, N) 0/1 matrix; got shape {np.shape(arr)}")
    if n_cols is not None and arr.shape[1] != n_cols:
        raise ValueError(f"{name} must have {n_cols} columns (one per node); got shape {arr.shape}")
    if arr.dtype != bool:
        if not (np.issubdtype(arr.dtype, np.number)):
            raise ValueError(f"{name} must hold 0/1 numbers; got dtype {arr.dtype}")
        bad = (arr != 0) & (arr != 1)
        if np.any(bad):
            r, c = np.argwhere(bad)[0]
            raise ValueError(f"{name}[{r}, {c}] = {arr[r, c].item()!r}; multilabels are 0/1")
        arr = arr.astype(bool)
    return arr


def check_array(x: Any, name: str, *, shape: tuple[int, ...]) -> np.ndarray:
    """Return ``x`` as a finite float array of exactly ``shape``, or raise ``ValueError``.

    Parameters
    ----------
    x : array_like
        Candidate array.
    name : str
        Name used in error messages.
    shape : tuple of int
        Required shape (no broadcasting).

    Returns
    -------
    numpy.ndarray
        The validated float64 array.
    """
    check_not_complex(x, name)
    try:
        arr = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a numeric array; got {_describe(x)}") from exc
    if arr.shape != tuple(shape):
        raise ValueError(f"{name} must have shape {tuple(shape)}; got shape {arr.shape}")
    _require(np.isfinite(arr), arr, name, "must be finite")
    return arr


def check_last_axis(x: Any, name: str) -> np.ndarray:
    """Return ``x`` as a finite float64 array with a non-empty last axis, or raise ``ValueError``.

    For functions that act row by row on ``(..., d)`` arrays (projections, sorting).
    """
    check_not_complex(x, name)
    try:
        arr = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a real array; got {x!r:.60}") from exc
    if arr.ndim == 0 or arr.shape[-1] == 0:
        raise ValueError(f"{name} must have a non-empty last axis; got shape {arr.shape}")
    _require(np.isfinite(arr), arr, name, "must be finite")
    return arr


def check_indices(x: Any, name: str, *, n: int, ndim: int | None = None) -> np.ndarray:
    """Return ``x`` as an ``int64`` array of indices in ``[0, n)``, or raise ``ValueError``.

    Negative indices are refused (numpy would wrap them silently).

    Parameters
    ----------
    x : array_like of int
        Candidate indices.
    name : str
        Name used in error messages.
    n : int
        Exclusive upper bound.
    ndim : int, optional
        Required number of dimensions.
    """
    arr = np.asarray(x)
    if arr.size == 0 and arr.dtype.kind not in "iu":
        arr = arr.astype(np.int64)
    if arr.dtype.kind not in "iu":
        raise ValueError(f"{name} must hold integer indices; got dtype {arr.dtype}")
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-D; got shape {arr.shape}")
    _require((arr >= 0) & (arr < n), arr, name, f"must be indices in [0, {n - 1}]")
    return arr.astype(np.int64, copy=False)


def check_unit_interval(x: Any, name: str, *, shape: tuple[int, ...]) -> np.ndarray:
    """Return ``x`` as a float array of ``shape`` with entries in ``[0, 1)``, or raise."""
    arr = check_array(x, name, shape=shape)
    _require((arr >= 0) & (arr < 1), arr, name, "must lie in [0, 1)")
    return arr


def check_int_vector(
    x: Any,
    name: str,
    *,
    minimum: int = 1,
    maximum: int | None = None,
    min_size: int = 1,
) -> np.ndarray:
    """Return ``x`` as a 1-D ``int64`` array of integers in ``[minimum, maximum]``, or raise.

    Used for grids of sizes, dimensions and feature counts passed as lists; integral floats
    (``100.0``) are accepted, fractions, non-finite values and strings are refused with the
    offending entry named.
    """
    arr = check_vector(x, name, min_size=min_size)
    _require(arr == np.round(arr), arr, name, "must hold integers")
    hi = "" if maximum is None else f" and <= {maximum}"
    ok = arr >= minimum if maximum is None else (arr >= minimum) & (arr <= maximum)
    _require(ok, arr, name, f"must hold integers >= {minimum}{hi}")
    return arr.astype(np.int64)


def check_vector_in(
    x: Any,
    name: str,
    *,
    low: float | None = None,
    high: float | None = None,
    low_inclusive: bool = True,
    high_inclusive: bool = True,
    min_size: int = 1,
) -> np.ndarray:
    """Return ``x`` as a finite 1-D float array with every entry in the interval, or raise."""
    arr = check_vector(x, name, min_size=min_size)
    ok = np.ones(arr.shape, dtype=bool)
    if low is not None:
        ok &= arr >= low if low_inclusive else arr > low
    if high is not None:
        ok &= arr <= high if high_inclusive else arr < high
    lo_br, hi_br = "[" if low_inclusive else "(", "]" if high_inclusive else ")"
    interval = f"{lo_br}{'-inf' if low is None else low}, {'inf' if high is None else high}{hi_br}"
    _require(ok, arr, name, f"must lie in {interval}")
    return arr
