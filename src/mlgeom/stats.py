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
  :func:`local_slopes` shows whether it is one exponent at all. :func:`loglog_fit_interval` is
  the same fit on several regressors (``log y = a + b_1 log x_1 + … + b_m log x_m``). Seeds whose
  data are identical (up to :data:`ROUNDING`) give a zero-width interval, as above.
- :func:`within_fit_interval`: the same clustered least squares on given regressors with one
  intercept per seed (or per stratum inside a seed): the slope of a curve over a window where
  seeds differ in level (a cumulative loss over late horizons), a paired difference of two
  learners' slopes, or several slopes at once.
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
    "loglog_fit_interval",
    "loglog_slope",
    "mean_interval",
    "one_sided_p",
    "paired_interval",
    "slope_interval",
    "within_fit_interval",
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


def _groups(groups: object, n: int) -> tuple[np.ndarray, int]:
    """Cluster index ``0..G-1`` of each of ``n`` points and the number ``G`` of clusters."""
    g = np.asarray(groups)
    if g.shape != (n,):
        raise ValueError(f"groups must hold one seed per point ({n}); got shape {g.shape}")
    labels, idx = np.unique(g, return_inverse=True)
    if labels.size < 2:
        raise ValueError(f"groups must hold at least two distinct seeds; got {labels.tolist()}")
    return idx.reshape(-1), int(labels.size)


def _identical_spread(lx: np.ndarray, ly: np.ndarray, idx: np.ndarray, n_groups: int):
    """Return the spread over seeds if every seed has the same points (to ROUNDING), else None.

    Each seed's points ``(log x, log y)`` are sorted; the seeds are identical when they have as
    many points and each coordinate differs over the seeds by at most ``ROUNDING`` times
    ``max(1, max |coordinate|)``.
    """
    counts = np.bincount(idx, minlength=n_groups)
    if np.any(counts != counts[0]):
        return None
    z = np.column_stack([lx, ly])
    per_seed = []
    for k in range(n_groups):
        zk = z[idx == k]
        per_seed.append(zk[np.lexsort(zk.T[::-1])])
    stacked = np.stack(per_seed)
    spread = float(np.max(np.ptp(stacked, axis=0)))
    if spread <= ROUNDING * max(1.0, float(np.max(np.abs(stacked)))):
        return spread
    return None


def _clustered_loglog(
    lx: np.ndarray, ly: np.ndarray, idx: np.ndarray, n_groups: int
) -> tuple[np.ndarray, float, np.ndarray]:
    """Least squares of ``ly`` on the ``m`` columns of ``lx`` and an intercept, CR1 errors.

    Returns the ``m`` coefficients, the intercept and the coefficients' cluster-robust standard
    errors: residual scores summed within a cluster, small-sample factor
    ``G/(G-1) · (N-1)/(N-m-1)``.
    """
    n, m = lx.shape
    if m == 1:
        # one regressor in closed form: the arithmetic slope_interval has always done
        x = np.ascontiguousarray(lx[:, 0])
        xc = x - x.mean()
        sxx = float(xc @ xc)
        slope = float(xc @ (ly - ly.mean()) / sxx)
        intercept = float(ly.mean() - slope * x.mean())
        resid = ly - (intercept + slope * x)
        scores = np.bincount(idx, weights=xc * resid, minlength=n_groups)
        factor = n_groups / (n_groups - 1) * (n - 1) / max(n - 2, 1)
        se = float(np.sqrt(factor * float(scores @ scores)) / sxx)
        return np.array([slope]), intercept, np.array([se])
    xc = lx - lx.mean(axis=0)
    yc = ly - ly.mean()
    gram = xc.T @ xc
    coef = np.linalg.solve(gram, xc.T @ yc)
    intercept = float(ly.mean() - lx.mean(axis=0) @ coef)
    resid = yc - xc @ coef
    return coef, intercept, _cr1_standard_errors(xc, resid, gram, idx, n_groups)


def _cr1_standard_errors(
    xc: np.ndarray, resid: np.ndarray, gram: np.ndarray, idx: np.ndarray, n_groups: int
) -> np.ndarray:
    """Cluster-robust (CR1) standard errors of least-squares coefficients.

    ``xc`` is the (centred or within-demeaned) design of ``N`` points and ``m`` columns,
    ``resid`` the residuals, ``gram = xcᵀxc`` and ``idx`` each point's cluster in
    ``0..n_groups-1``: scores summed within a cluster, the sandwich
    ``gram⁻¹ (ΣSᵀS) gram⁻¹`` and the small-sample factor ``G/(G-1) · (N-1)/(N-m-1)``.
    """
    n, m = xc.shape
    factor = n_groups / (n_groups - 1) * (n - 1) / max(n - m - 1, 1)
    scores = np.column_stack(
        [np.bincount(idx, weights=xc[:, j] * resid, minlength=n_groups) for j in range(m)]
    )
    bread = np.linalg.inv(gram)
    cov = factor * (bread @ (scores.T @ scores) @ bread)
    return np.sqrt(np.clip(np.diag(cov), 0.0, None))


def _clustered_interval(  # noqa: PLR0913
    estimate: float,
    se: float,
    n: int,
    n_groups: int,
    level: float,
    spread: float | None,
    regressors: str,
) -> Interval:
    """Build the t interval on ``G - 1`` df of a clustered fit (zero width: identical seeds)."""
    from scipy import stats as sps

    if spread is not None:
        how = "(no spread)" if spread == 0 else f"up to rounding (spread {spread:.1g})"
        method = f"identical over {n_groups} seeds {how}: log-log fit over {n} points"
        return Interval(estimate, estimate, estimate, n_groups, level, method, 0.0, n_groups - 1)
    half = float(sps.t.ppf((1 + level) / 2, n_groups - 1) * se)
    method = (
        f"log-log fit{regressors} over {n} points of {n_groups} seeds, errors clustered by seed "
        f"(t, {n_groups - 1} df)"
    )
    return Interval(
        estimate, estimate - half, estimate + half, n_groups, level, method, se, n_groups - 1
    )


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
    :func:`loglog_fit_interval` is the same fit on several regressors.

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
        The pooled fit (its ``stderr`` is the clustered one) and the exponent's interval. When
        every seed has the same points up to :data:`ROUNDING` (a deterministic quantity), the
        interval is the slope itself (width 0, ``se`` 0), method ``"identical over G seeds
        ..."``: the claims machinery then judges it as the exact number it is.

    Examples
    --------
    >>> x, y = [1, 10, 100, 1, 10, 100], [1, 10, 100, 2, 20, 200]
    >>> fit, iv = slope_interval(x, y, groups=[0, 0, 0, 1, 1, 1])
    >>> round(fit.slope, 12), iv.width < 1e-9
    (1.0, True)
    """
    _check_level(level)
    xa, ya = _positive(x, "x"), _positive(y, "y")
    g = np.asarray(groups)
    if xa.ndim != 1 or xa.shape != ya.shape or g.shape != xa.shape:
        raise ValueError(
            f"x, y and groups must be 1-D of equal length; got shapes {xa.shape}, {ya.shape}, "
            f"{g.shape}"
        )
    idx, n_groups = _groups(g, xa.size)
    lx, ly = np.log(xa), np.log(ya)
    if np.ptp(lx) == 0:
        raise ValueError(f"x must take at least two distinct values for a slope; got {xa[0]} only")
    coef, intercept, se = _clustered_loglog(lx[:, None], ly, idx, n_groups)
    spread = _identical_spread(lx, ly, idx, n_groups)
    slope, stderr = float(coef[0]), 0.0 if spread is not None else float(se[0])
    iv = _clustered_interval(slope, stderr, xa.size, n_groups, level, spread, "")
    return SlopeFit(slope, intercept, stderr), iv


def _design(xa: np.ndarray, ya: np.ndarray, what: str) -> tuple[np.ndarray, int, int]:
    """Return ``X`` as (points × columns) with its shape, checking ``y`` has one value per row."""
    if xa.ndim == 1:
        xa = xa[:, None]
    if xa.ndim != 2 or xa.shape[1] == 0:
        raise ValueError(
            f"X must be 1-D (one {what}) or 2-D (points × {what}s); got shape {xa.shape}"
        )
    n, m = xa.shape
    if ya.shape != (n,):
        raise ValueError(f"y must hold one value per row of X ({n}); got shape {ya.shape}")
    return xa, n, m


def loglog_fit_interval(
    X: Sequence[Sequence[float]] | np.ndarray,
    y: Sequence[float] | np.ndarray,
    groups: Sequence[object] | np.ndarray,
    column: int = 0,
    level: float = 0.95,
) -> tuple[np.ndarray, Interval]:
    """Fit a power law in several variables over all seeds' points, errors clustered by seed.

    Fits ``log y = a + b_1 log x_1 + … + b_m log x_m`` by least squares over every (seed,
    design point) pair and gives the interval of one exponent ``b_column`` from the
    cluster-robust sandwich (CR1: residual scores summed within a seed, small-sample factor
    ``G/(G-1) · (N-1)/(N-m-1)``) with a t quantile on ``G - 1`` degrees of freedom, as
    :func:`slope_interval` does for one variable (with one column it gives the same numbers).

    Parameters
    ----------
    X : array_like, shape (N, m) or (N,)
        Positive, finite design values, one row per (seed, design point) and one column per
        variable; the columns' logarithms must vary independently.
    y : array_like, shape (N,)
        Positive, finite measurements.
    groups : array_like, shape (N,)
        The seed (or other cluster) of each point; at least two distinct groups.
    column : int, default=0
        Which exponent the interval is of (``0 <= column < m``).
    level : float, default=0.95
        Confidence level.

    Returns
    -------
    (numpy.ndarray, Interval)
        The ``m`` fitted exponents ``b_1 … b_m`` and the interval of ``b_column``. When every
        seed has the same points up to :data:`ROUNDING`, the interval has width 0 and method
        ``"identical over G seeds ..."``.

    Raises
    ------
    ValueError
        If a value is not finite and positive, the shapes disagree, fewer than two seeds are
        given, a column is constant or the columns are collinear, or ``column`` or ``level`` is
        out of range.

    Examples
    --------
    >>> X = [[2, 2], [4, 2], [2, 3], [4, 3]] * 2
    >>> y = [p**1.5 * d**-0.5 * c for c in (1, 2) for p, d in X[:4]]
    >>> b, iv = loglog_fit_interval(X, y, groups=[0] * 4 + [1] * 4, column=1)
    >>> b.round(12).tolist(), round(iv.estimate, 12), iv.width < 1e-9
    ([1.5, -0.5], -0.5, True)
    """
    _check_level(level)
    xa, ya = _positive(X, "X"), _positive(y, "y")
    xa, n, m = _design(xa, ya, "variable")
    ok = isinstance(column, int | np.integer) and not isinstance(column, bool)
    if not ok or not 0 <= column < m:
        raise ValueError(f"column must be an integer in [0, {m}) (a column of X); got {column!r}")
    idx, n_groups = _groups(groups, n)
    lx, ly = np.log(xa), np.log(ya)
    for j in range(m):
        if np.ptp(lx[:, j]) == 0:
            raise ValueError(
                f"X's column {j} must take at least two distinct values; got {xa[0, j]} only"
            )
    lxc = lx - lx.mean(axis=0)
    rank = int(np.linalg.matrix_rank(lxc))
    if rank < m:
        raise ValueError(
            f"X's columns must vary independently on log axes; their rank is {rank} < {m}"
        )
    coef, _, se = _clustered_loglog(lx, ly, idx, n_groups)
    spread = _identical_spread(lx, ly, idx, n_groups)
    estimate = float(coef[column])
    stderr = 0.0 if spread is not None else float(se[column])
    regressors = f" on {m} variables" if m > 1 else ""
    return coef, _clustered_interval(estimate, stderr, n, n_groups, level, spread, regressors)


def within_fit_interval(  # noqa: PLR0913
    X: Sequence[Sequence[float]] | np.ndarray,
    y: Sequence[float] | np.ndarray,
    groups: Sequence[object] | np.ndarray,
    strata: Sequence[object] | np.ndarray | None = None,
    level: float = 0.95,
    what: str = "fit",
) -> tuple[np.ndarray, list[Interval]]:
    """Least squares with one intercept per stratum, errors clustered by seed.

    Fits ``y = a_s + b_1 x_1 + … + b_m x_m`` over every point, with its own intercept ``a_s``
    for each stratum ``s`` (by default each seed: a seed-level offset, such as a seed's total
    loss at the start of a window, does not enter the slopes), by least squares on the
    values demeaned within strata. The coefficients' variances come from the cluster-robust
    sandwich (CR1: residual scores summed within a seed, factor ``G/(G-1) · (N-1)/(N-m-1)``;
    the strata's intercepts are not counted as they are nested in the seeds, Cameron & Miller
    2015, §III.B), with t quantiles on ``G - 1`` degrees of freedom. The intervals thus carry
    both the spread between seeds and how badly the model fits within them.

    Parameters
    ----------
    X : array_like, shape (N, m) or (N,)
        Finite regressors (take logarithms first for a power law), one row per point.
    y : array_like, shape (N,)
        Finite responses.
    groups : array_like, shape (N,)
        The seed (cluster) of each point; at least two distinct seeds.
    strata : array_like, shape (N,), optional
        The intercept each point shares (default: its seed). Each stratum lies inside one seed.
    level : float, default=0.95
        Confidence level of each interval.
    what : str, default="fit"
        What was fitted, in words, for the intervals' ``method`` (e.g. ``"log-log fit"``).

    Returns
    -------
    (numpy.ndarray, list of Interval)
        The ``m`` coefficients and one interval per coefficient. When every residual is at
        most :data:`ROUNDING` times ``max(1, max |y|)`` (the model is exact on every seed), the
        intervals have width 0, method ``"exact ..."``: the claims machinery then asks for the
        number to be judged as a point.

    Raises
    ------
    ValueError
        If a value is not finite, the shapes disagree, fewer than two seeds are given, a
        stratum spans two seeds, a column does not vary within strata or the columns are
        collinear there, or ``level`` is out of range.

    Examples
    --------
    Two seeds on the same power law ``y = c_s T^{0.5}`` at different levels ``c_s``:

    >>> T = np.array([100.0, 1000.0, 10000.0] * 2)
    >>> y = np.r_[1.0, 1.0, 1.0, 3.0, 3.0, 3.0] * T**0.5
    >>> b, (iv,) = within_fit_interval(np.log(T), np.log(y), groups=[0, 0, 0, 1, 1, 1])
    >>> round(float(b[0]), 12), iv.width
    (0.5, 0.0)
    """
    from scipy import stats as sps

    _check_level(level)
    xa, ya = _as_float(X, "X"), _as_float(y, "y")
    xa, n, m = _design(xa, ya, "regressor")
    for name, v in (("X", xa), ("y", ya)):
        if not np.all(np.isfinite(v)):
            bad = tuple(int(i) for i in np.argwhere(~np.isfinite(v))[0])
            raise ValueError(f"{name} must be finite; got {v[bad].item()!r} at index {bad}")
    idx, n_groups = _groups(groups, n)
    if strata is None:
        sidx, n_strata = idx, n_groups
    else:
        st = np.asarray(strata)
        if st.shape != (n,):
            raise ValueError(f"strata must hold one label per point ({n}); got shape {st.shape}")
        _, sidx = np.unique(st, return_inverse=True)
        sidx = sidx.reshape(-1)
        n_strata = int(sidx.max()) + 1
        owner = np.full(n_strata, -1)
        for s_, g_ in zip(sidx, idx, strict=True):
            if owner[s_] not in (-1, g_):
                label = st[sidx == s_][0].item()
                raise ValueError(
                    f"strata must each lie inside one seed; stratum {label!r} spans two"
                )
            owner[s_] = g_

    def demean(v: np.ndarray) -> np.ndarray:
        counts = np.bincount(sidx, minlength=n_strata)
        if v.ndim == 1:
            return v - (np.bincount(sidx, weights=v, minlength=n_strata) / counts)[sidx]
        return np.column_stack([demean(v[:, j]) for j in range(v.shape[1])])

    xw, yw = demean(xa), demean(ya)
    for j in range(m):
        if not np.any(np.abs(xw[:, j]) > 1e-12 * max(1.0, float(np.max(np.abs(xa[:, j]))))):
            raise ValueError(f"X's column {j} does not vary within any stratum: no slope")
    rank = int(np.linalg.matrix_rank(xw))
    if rank < m:
        raise ValueError(f"X's columns must vary independently within strata; rank {rank} < {m}")
    gram = xw.T @ xw
    coef = np.linalg.solve(gram, xw.T @ yw)
    resid = yw - xw @ coef
    exact = bool(np.max(np.abs(resid)) <= ROUNDING * max(1.0, float(np.max(np.abs(ya)))))
    if exact:
        se = np.zeros(m)
    else:
        se = _cr1_standard_errors(xw, resid, gram, idx, n_groups)
    per = "seed" if strata is None else "stratum"
    if exact:
        method = f"exact {what} (no residual) with one intercept per {per} over {n} points"
    else:
        method = (
            f"{what} with one intercept per {per} over {n} points of {n_groups} seeds, errors "
            f"clustered by seed (t, {n_groups - 1} df)"
        )
    q = float(sps.t.ppf((1 + level) / 2, n_groups - 1))
    intervals = [
        Interval(
            float(b),
            float(b - q * e),
            float(b + q * e),
            n_groups,
            level,
            method,
            float(e),
            n_groups - 1,
        )
        for b, e in zip(coef, se, strict=True)
    ]
    return coef, intervals


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
