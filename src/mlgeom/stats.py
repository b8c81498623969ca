"""Small statistics used to judge claims: power-law slopes and 95% intervals.

Which interval a claim carries says what its replicates are:

- :func:`mean_interval`, :func:`paired_interval`: Student t over **independent** seeds, each of
  which changes the instance. Identical values (up to :data:`ROUNDING`) give a zero-width
  interval that the claims machinery refuses: a quantity that does not vary with the seed is
  *exact* and judged as a point.
- :func:`corrected_paired_interval`: replicates that **share data** (repeated random splits or
  cross-validation folds of one corpus), with the Nadeau–Bengio correction of the variance.
- :func:`slope_interval`: a power-law exponent fitted over all seeds' design points, with errors
  clustered by seed, so that the interval includes how well the power law fits;
  :func:`local_slopes` shows whether it is one exponent at all.
- :func:`holm` and :func:`one_sided_p`: a chapter's family of headline claims judged together.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = [
    "ROUNDING",
    "Interval",
    "SlopeFit",
    "corrected_paired_interval",
    "holm",
    "local_slopes",
    "loglog_slope",
    "mean_interval",
    "one_sided_p",
    "paired_interval",
    "slope_interval",
]

ROUNDING = 1e-12
"""Replicates differing by at most this times ``max(1, max |value|)`` do not differ: the spread
is floating-point rounding (a deterministic sum taken in another order), not sampling. It is
about 4,500 ulps at the scale 1, far below any spread a random instance produces."""


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
        raw = np.asarray(x)
        if np.iscomplexobj(raw):
            raise ValueError(f"{name} must be real; got complex values {raw!r:.60}")
        return raw.astype(float)
    except (TypeError, ValueError) as exc:
        if "must be real" in str(exc):
            raise
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
    se : float, optional
        The standard error behind a t interval (for :func:`one_sided_p`).
    df : int, optional
        Its degrees of freedom.
    """

    estimate: float
    low: float
    high: float
    n: int
    level: float
    method: str
    se: float | None = None
    df: int | None = None

    @property
    def width(self) -> float:
        """``high - low``; zero when every replicate gave the same value."""
        return self.high - self.low

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
        ``mean ± t_{(1+level)/2, n-1} · s / √n``; method ``"t interval over n seeds"``. When
        the values differ by at most :data:`ROUNDING` times ``max(1, max |value|)`` the
        quantity does not depend on the seed and the interval is the mean itself (width 0),
        method ``"identical over n seeds ..."``: floating-point rounding is not a spread.

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
        return Interval(v, v, v, n, level, f"identical over {n} seeds (no spread)", 0.0, n - 1)
    spread = float(np.ptp(xa))
    if spread <= ROUNDING * max(1.0, float(np.max(np.abs(xa)))):
        # a quantity that does not depend on the seed, summed in another order: rounding,
        # not sampling spread, so no t interval (its se would be a few ulps)
        v = float(xa.mean())
        method = f"identical over {n} seeds up to rounding (spread {spread:.1g})"
        return Interval(v, v, v, n, level, method, 0.0, n - 1)
    mean = float(xa.mean())
    se = float(xa.std(ddof=1) / np.sqrt(n))
    half = float(sps.t.ppf((1 + level) / 2, n - 1) * se)
    # the mean of identical values can differ from them in the last bit; keep low <= mean <= high
    return Interval(
        mean,
        min(mean - half, mean),
        max(mean + half, mean),
        n,
        level,
        f"t interval over {n} seeds",
        se,
        n - 1,
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
    method = iv.method if iv.width == 0 else f"paired t interval over {iv.n} seeds"
    return Interval(iv.estimate, iv.low, iv.high, iv.n, iv.level, method, iv.se, iv.df)


def corrected_paired_interval(
    a: Sequence[float] | np.ndarray,
    b: Sequence[float] | np.ndarray,
    test_fraction: float,
    level: float = 0.95,
) -> Interval:
    """Corrected resampled t interval of ``mean(a - b)`` over splits that share data.

    Repeated random splits (or cross-validation folds) of one corpus reuse documents, so their
    differences are positively correlated and the plain t interval is too narrow. Nadeau and
    Bengio (2003, *Inference for the generalization error*) replace the variance ``s²/J`` of the
    mean by ``(1/J + n_test/n_train) s²``.

    Parameters
    ----------
    a, b : array_like
        Per-split values of the two arms, paired by split (equal length ``J >= 2``).
    test_fraction : float
        ``n_test / n_train`` of one split (> 0).
    level : float, default=0.95
        Confidence level.

    Returns
    -------
    Interval
        Method ``"corrected resampled t interval over J splits sharing data (...)"``.

    Examples
    --------
    >>> iv = corrected_paired_interval([1.0, 2.0, 3.0], [0.0, 0.0, 0.0], test_fraction=0.25)
    >>> round(iv.high - iv.low, 4) > round(paired_interval([1.0, 2.0, 3.0], [0, 0, 0]).width, 4)
    True
    """
    from scipy import stats as sps

    _check_level(level)
    ok = isinstance(test_fraction, int | float) and not isinstance(test_fraction, bool)
    if not ok or not np.isfinite(test_fraction) or test_fraction <= 0:
        raise ValueError(f"test_fraction must be a finite number > 0; got {test_fraction!r}")
    xa, xb = _sample(a, "a"), _sample(b, "b")
    if xa.shape != xb.shape:
        raise ValueError(f"a and b must pair split by split; got lengths {xa.size} and {xb.size}")
    d = xa - xb
    j = d.size
    mean = float(d.mean())
    method = (
        f"corrected resampled t interval over {j} splits sharing data "
        f"(Nadeau–Bengio, n_test/n_train = {test_fraction:.3g})"
    )
    if np.all(d == d[0]):
        return Interval(mean, mean, mean, j, level, f"identical over {j} splits (no spread)", 0.0)
    se = float(np.sqrt((1 / j + test_fraction) * d.var(ddof=1)))
    half = float(sps.t.ppf((1 + level) / 2, j - 1) * se)
    return Interval(mean, mean - half, mean + half, j, level, method, se, j - 1)


def slope_interval(
    x: Sequence[float] | np.ndarray,
    y: Sequence[float] | np.ndarray,
    groups: Sequence[object] | np.ndarray,
    level: float = 0.95,
) -> tuple[SlopeFit, Interval]:
    """Fit a power-law exponent over all seeds' design points, errors clustered by seed.

    Fits ``log y = a + b log x`` by least squares over every (seed, design point) pair and
    takes the slope's variance from the cluster-robust sandwich (CR1: residuals summed within a
    seed, small-sample factor ``G/(G-1) · (N-1)/(N-2)``), with a t quantile on ``G - 1`` degrees
    of freedom. The interval thus carries both the spread between seeds and how badly a single
    power law fits the design points (the residuals), unlike the spread of per-seed slopes.

    Parameters
    ----------
    x, y : array_like
        Positive, finite design values and measurements, one per (seed, design point).
    groups : array_like
        The seed (or other cluster) of each point; at least two distinct groups.
    level : float, default=0.95
        Confidence level.

    Returns
    -------
    (SlopeFit, Interval)
        The pooled fit (its ``stderr`` is the clustered one) and the exponent's interval.

    Examples
    --------
    >>> x, y = [1, 10, 100, 1, 10, 100], [1, 10, 100, 2, 20, 200]
    >>> fit, iv = slope_interval(x, y, groups=[0, 0, 0, 1, 1, 1])
    >>> round(fit.slope, 12), iv.width < 1e-9
    (1.0, True)
    """
    from scipy import stats as sps

    _check_level(level)
    xa, ya = _positive(x, "x"), _positive(y, "y")
    g = np.asarray(groups)
    if xa.ndim != 1 or xa.shape != ya.shape or g.shape != xa.shape:
        raise ValueError(
            f"x, y and groups must be 1-D of equal length; got shapes {xa.shape}, {ya.shape}, "
            f"{g.shape}"
        )
    labels, idx = np.unique(g, return_inverse=True)
    n_groups, n = labels.size, xa.size
    if n_groups < 2:
        raise ValueError(f"groups must hold at least two distinct seeds; got {labels.tolist()}")
    lx, ly = np.log(xa), np.log(ya)
    if np.ptp(lx) == 0:
        raise ValueError(f"x must take at least two distinct values for a slope; got {xa[0]} only")
    xc = lx - lx.mean()
    sxx = float(xc @ xc)
    slope = float(xc @ (ly - ly.mean()) / sxx)
    intercept = float(ly.mean() - slope * lx.mean())
    resid = ly - (intercept + slope * lx)
    scores = np.bincount(idx, weights=xc * resid, minlength=n_groups)
    factor = n_groups / (n_groups - 1) * (n - 1) / max(n - 2, 1)
    se = float(np.sqrt(factor * float(scores @ scores)) / sxx)
    half = float(sps.t.ppf((1 + level) / 2, n_groups - 1) * se)
    fit = SlopeFit(slope, intercept, se)
    method = (
        f"log-log fit over {n} points of {n_groups} seeds, errors clustered by seed "
        f"(t, {n_groups - 1} df)"
    )
    return fit, Interval(
        slope, slope - half, slope + half, n_groups, level, method, se, n_groups - 1
    )


def local_slopes(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray) -> np.ndarray:
    """Slopes of ``log y`` against ``log x`` between consecutive design points.

    Points sharing an ``x`` (several seeds) are pooled by their geometric mean first.

    Parameters
    ----------
    x, y : array_like
        Positive, finite values of equal length, at least two distinct ``x``.

    Returns
    -------
    numpy.ndarray
        One slope per consecutive pair of distinct ``x`` (ascending).

    Examples
    --------
    >>> local_slopes([1, 2, 4], [1, 4, 8]).round(12).tolist()
    [2.0, 1.0]
    """
    xa, ya = _positive(x, "x"), _positive(y, "y")
    if xa.ndim != 1 or xa.shape != ya.shape:
        raise ValueError(f"x and y must be 1-D of equal length; got {xa.shape}, {ya.shape}")
    ux, inv = np.unique(xa, return_inverse=True)
    if ux.size < 2:
        raise ValueError(f"x must take at least two distinct values; got {ux.tolist()}")
    ly = np.bincount(inv, weights=np.log(ya)) / np.bincount(inv)
    return np.diff(ly) / np.diff(np.log(ux))


def one_sided_p(interval: Interval, low: float = -np.inf, high: float = np.inf) -> float:
    """p-value of "the mean lies in ``[low, high]``" from a t interval (one-sided tests).

    With one finite end it is the one-sided t test against that end; with two, the larger of
    the two one-sided p-values (TOST). A zero-spread interval gives 0 or 1.

    Parameters
    ----------
    interval : Interval
        With ``se`` and ``df`` (every interval of this module has them).
    low, high : float
        The admissible set's ends.

    Returns
    -------
    float
        In ``[0, 1]``: small when the interval lies well inside the set.
    """
    from scipy import stats as sps

    if not isinstance(interval, Interval):
        raise ValueError(f"interval must be an Interval; got {interval!r}")
    if interval.se is None or interval.df is None:
        raise ValueError(f"interval {interval.method!r} carries no standard error")
    est, se = interval.estimate, interval.se
    ps = []
    for end, sign in ((low, 1.0), (high, -1.0)):
        if not np.isfinite(end):
            continue
        if se == 0:
            ps.append(0.0 if sign * (est - end) > 0 else 1.0)
        else:
            ps.append(float(sps.t.sf(sign * (est - end) / se, interval.df)))
    return max(ps) if ps else 0.0


def holm(pvalues: Sequence[float] | np.ndarray, alpha: float = 0.05) -> np.ndarray:
    """Holm's step-down procedure: which hypotheses are rejected at family-wise level ``alpha``.

    Parameters
    ----------
    pvalues : array_like
        One p-value per hypothesis, in ``[0, 1]``.
    alpha : float, default=0.05
        Family-wise error rate.

    Returns
    -------
    numpy.ndarray of bool
        ``True`` where the hypothesis is rejected (the claim is supported after correction).

    Examples
    --------
    >>> holm([0.01, 0.04, 0.03]).tolist()
    [True, False, False]
    """
    ok = isinstance(alpha, int | float | np.floating) and not isinstance(alpha, bool)
    if not ok or not 0 < float(alpha) < 1:
        raise ValueError(f"alpha must be a number in (0, 1); got {alpha!r}")
    p = _as_float(pvalues, "pvalues")
    if p.ndim != 1 or p.size == 0 or np.any(~np.isfinite(p)) or np.any((p < 0) | (p > 1)):
        raise ValueError(f"pvalues must be a non-empty 1-D sequence in [0, 1]; got {p!r:.80}")
    order = np.argsort(p, kind="stable")
    m = p.size
    rejected = np.zeros(m, dtype=bool)
    for rank, i in enumerate(order):
        if p[i] > alpha / (m - rank):
            break
        rejected[i] = True
    return rejected
