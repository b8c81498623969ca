"""Small statistics used to judge claims: power-law slopes and their uncertainty."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["SlopeFit", "loglog_slope"]


@dataclass(frozen=True)
class SlopeFit:
    """Least-squares fit of ``log y = intercept + slope · log x``.

    Attributes
    ----------
    slope : float
        The fitted exponent.
    intercept : float
        The fitted intercept (natural logarithms).
    stderr : float
        Standard error of the slope (``nan`` with only two points).
    """

    slope: float
    intercept: float
    stderr: float

    def predict(self, x: Sequence[float] | np.ndarray) -> np.ndarray:
        """Evaluate the fitted power law ``exp(intercept) · x**slope`` (``x`` finite, > 0)."""
        xa = _positive(x, "x")
        return np.exp(self.intercept) * xa**self.slope


def _as_float(x: object, name: str) -> np.ndarray:
    try:
        return np.asarray(x, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be numeric; got {x!r:.60}") from exc


def _positive(x: object, name: str) -> np.ndarray:
    xa = _as_float(x, name)
    bad = ~np.isfinite(xa) | (xa <= 0)
    if np.any(bad):
        at = tuple(int(i) for i in np.argwhere(bad)[0]) if xa.ndim else ()
        raise ValueError(f"{name} must be finite and > 0; got {xa[at]} at index {at}")
    return xa


def loglog_slope(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray) -> SlopeFit:
    """Fit a power law ``y ≈ c x^slope`` by least squares on log–log axes.

    Parameters
    ----------
    x, y : array_like
        Positive, finite values of equal length >= 2.

    Returns
    -------
    SlopeFit
        Slope, intercept and the slope's standard error.

    Raises
    ------
    ValueError
        If fewer than two points are given or a value is not finite and strictly positive.
    """
    xa, ya = _as_float(x, "x"), _as_float(y, "y")
    if xa.shape != ya.shape or xa.ndim != 1 or xa.size < 2:
        raise ValueError(
            f"x and y must be 1-D of equal length >= 2; got shapes {xa.shape}, {ya.shape}"
        )
    for name, a in (("x", xa), ("y", ya)):
        bad = ~np.isfinite(a) | (a <= 0)
        if np.any(bad):
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(
                f"{name} must be finite and > 0 for a log-log fit; got {a[i]} at index {i}"
            )
    lx, ly = np.log(xa), np.log(ya)
    if np.ptp(lx) == 0:
        raise ValueError(f"x must take at least two distinct values for a slope; got {xa[0]} only")
    slope, intercept = np.polyfit(lx, ly, 1)
    n = xa.size
    if n > 2:
        resid = ly - (intercept + slope * lx)
        s2 = float(resid @ resid) / (n - 2)
        stderr = float(np.sqrt(s2 / float(((lx - lx.mean()) ** 2).sum())))
    else:
        stderr = float("nan")
    return SlopeFit(float(slope), float(intercept), stderr)
