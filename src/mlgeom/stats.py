"""Small statistics used to judge claims: power-law slopes, and 95% intervals over seeds."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["Interval", "SlopeFit", "loglog_slope", "mean_interval", "paired_interval"]


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


@dataclass(frozen=True)
class Interval:
    """A confidence interval of a measurement over independent seeds.

    Attributes
    ----------
    estimate : float
        The point estimate (the mean over seeds).
    low, high : float
        The interval's ends, ``low <= estimate <= high``.
    n : int
        The number of seeds the interval rests on.
    level : float
        The confidence level, e.g. ``0.95``.
    method : str
        How the interval was computed, in words (stored in the claims record).
    """

    estimate: float
    low: float
    high: float
    n: int
    level: float
    method: str

    def __post_init__(self) -> None:
        for name in ("estimate", "low", "high"):
            v = getattr(self, name)
            if not np.isfinite(v):
                raise ValueError(f"interval {name} must be finite; got {v!r}")
        if not self.low <= self.estimate <= self.high:
            raise ValueError(
                f"interval must satisfy low <= estimate <= high; got "
                f"{self.low!r} <= {self.estimate!r} <= {self.high!r}"
            )
        if isinstance(self.n, bool) or not isinstance(self.n, int | np.integer) or self.n < 2:
            raise ValueError(f"an interval needs n >= 2 seeds; got n={self.n!r}")
        if not 0 < self.level < 1:
            raise ValueError(f"level must be in (0, 1); got {self.level!r}")


def _sample(values: object, name: str) -> np.ndarray:
    xa = _as_float(values, name)
    if xa.ndim != 1 or xa.size < 2:
        raise ValueError(
            f"{name} must be a 1-d sequence of >= 2 values (one per seed); got shape {xa.shape}"
        )
    bad = ~np.isfinite(xa)
    if np.any(bad):
        i = int(np.argmax(bad))
        raise ValueError(f"{name} must be finite; got {xa[i]} at index {i}")
    return xa


def _check_level(level: object) -> None:
    ok = isinstance(level, int | float | np.floating) and not isinstance(level, bool)
    if not ok or not 0 < float(level) < 1:  # type: ignore[arg-type]
        raise ValueError(f"level must be a number in (0, 1); got {level!r}")


def mean_interval(values: Sequence[float] | np.ndarray, level: float = 0.95) -> Interval:
    """Student-t interval of the mean of per-seed values.

    Parameters
    ----------
    values : array_like
        One value per independent seed (at least 2).
    level : float, default=0.95
        Confidence level.

    Returns
    -------
    Interval
        ``mean ± t_{(1+level)/2, n-1} · s / √n``; method ``"t interval over n seeds"``.

    Examples
    --------
    >>> iv = mean_interval([1.0, 2.0, 3.0])
    >>> (iv.estimate, round(iv.low, 4), round(iv.high, 4), iv.n)
    (2.0, -0.4841, 4.4841, 3)
    """
    from scipy import stats as sps

    _check_level(level)
    xa = _sample(values, "values")
    n = xa.size
    if np.all(xa == xa[0]):  # no spread: the interval is the value itself, to the last bit
        v = float(xa[0])
        return Interval(v, v, v, n, level, f"t interval over {n} seeds")
    mean = float(xa.mean())
    half = float(sps.t.ppf((1 + level) / 2, n - 1) * xa.std(ddof=1) / np.sqrt(n))
    # the mean of identical values can differ from them in the last bit; keep low <= mean <= high
    return Interval(
        mean, min(mean - half, mean), max(mean + half, mean), n, level, f"t interval over {n} seeds"
    )


def paired_interval(
    a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray, level: float = 0.95
) -> Interval:
    """Student-t interval of the mean paired difference ``a - b`` (same seeds for both arms).

    Parameters
    ----------
    a, b : array_like
        Per-seed values of the two arms, paired by seed (equal length >= 2).
    level : float, default=0.95
        Confidence level.

    Returns
    -------
    Interval
        The interval of ``mean(a - b)``; method ``"paired t interval over n seeds"``.
    """
    _check_level(level)
    xa, xb = _sample(a, "a"), _sample(b, "b")
    if xa.shape != xb.shape:
        raise ValueError(f"a and b must pair seed by seed; got lengths {xa.size} and {xb.size}")
    iv = mean_interval(xa - xb, level)
    return Interval(
        iv.estimate, iv.low, iv.high, iv.n, iv.level, f"paired t interval over {iv.n} seeds"
    )
