"""Regression tests of issue 16 for :mod:`mlgeom.stats`."""

import pytest

from mlgeom.stats import loglog_slope


def test_loglog_slope_refuses_constant_x():
    with pytest.raises(ValueError, match="x must take at least two distinct values .*got 2.0"):
        loglog_slope([2.0, 2.0, 2.0], [1.0, 2.0, 3.0])


def test_loglog_slope_matches_scipy_linregress():
    import numpy as np
    from scipy.stats import linregress

    rng = np.random.default_rng(0)
    x = np.geomspace(1, 1000, 12)
    y = 3.0 * x**0.7 * np.exp(0.1 * rng.standard_normal(12))
    ours = loglog_slope(x, y)
    ref = linregress(np.log(x), np.log(y))
    assert ours.slope == pytest.approx(ref.slope, rel=1e-12)
    assert ours.intercept == pytest.approx(ref.intercept, rel=1e-12)
    assert ours.stderr == pytest.approx(ref.stderr, rel=1e-10)


def test_loglog_slope_hand_computed_three_points():
    import numpy as np

    # log x = 0, 1, 2 and log y = 0, 1, 3: Sxx = 2, Sxy = 3, so slope 3/2 and intercept
    # 4/3 - 3/2 = -1/6; residuals 1/6, -1/3, 1/6 give s^2 = (1/6) / (3 - 2) and
    # stderr = sqrt(s^2 / Sxx) = sqrt(1/12).
    fit = loglog_slope(np.exp([0.0, 1.0, 2.0]), np.exp([0.0, 1.0, 3.0]))
    assert fit.slope == pytest.approx(1.5, rel=1e-13)
    assert fit.intercept == pytest.approx(-1 / 6, rel=1e-12)
    assert fit.stderr == pytest.approx(np.sqrt(1 / 12), rel=1e-12)


def test_loglog_slope_stderr_matches_scipy_linregress_on_noisy_fits():
    """Oracle: scipy's linregress gives the same slope and standard error on noisy data.

    We keep the residual formula rather than calling linregress: linregress computes the
    error as sqrt((1 - r^2) ssy / ssx / df), which cancels on near-perfect fits (about 20%
    relative error at log-noise 1e-6), where the residual formula stays exact.
    """
    import numpy as np
    from scipy.stats import linregress

    rng = np.random.default_rng(2)
    for noise in (0.3, 0.2, 0.05):
        x = np.geomspace(2, 500, 9)
        y = 0.5 * x**-1.3 * np.exp(noise * rng.standard_normal(9))
        fit, ref = loglog_slope(x, y), linregress(np.log(x), np.log(y))
        assert fit.slope == pytest.approx(ref.slope, rel=1e-12)
        assert fit.stderr == pytest.approx(ref.stderr, rel=1e-9)


def test_loglog_slope_stderr_is_exact_on_a_near_perfect_fit():
    import numpy as np

    rng = np.random.default_rng(3)
    x = np.geomspace(2, 500, 9)
    y = x**1.5 * np.exp(1e-6 * rng.standard_normal(9))
    fit = loglog_slope(x, y)
    lx, ly = np.log(x), np.log(y)
    resid = ly - (fit.intercept + fit.slope * lx)
    hand = np.sqrt(resid @ resid / (len(x) - 2) / ((lx - lx.mean()) ** 2).sum())
    assert fit.stderr == pytest.approx(hand, rel=1e-6)


def test_loglog_slope_stderr_edge_cases():
    import math

    # two points: no residual degree of freedom, so NaN (scipy's linregress says 0)
    assert math.isnan(loglog_slope([1.0, 2.0], [3.0, 5.0]).stderr)
    # constant y: a perfect horizontal fit, so (numerically) 0 (scipy's linregress says NaN)
    fit = loglog_slope([1.0, 2.0, 4.0], [3.0, 3.0, 3.0])
    assert fit.slope == pytest.approx(0.0, abs=1e-15)
    assert fit.stderr == pytest.approx(0.0, abs=1e-14)


# -- 95% intervals over seeds -----------------------------------------------------------------
def test_mean_interval_matches_scipy_t():
    import numpy as np
    from scipy import stats as sps

    from mlgeom.stats import mean_interval

    values = [1.0, 2.0, 4.0, 3.5, 2.5]
    iv = mean_interval(values)
    mean, s, n = np.mean(values), np.std(values, ddof=1), len(values)
    half = sps.t.ppf(0.975, n - 1) * s / np.sqrt(n)
    assert iv.estimate == pytest.approx(mean, rel=1e-15)
    assert iv.low == pytest.approx(mean - half, rel=1e-12)
    assert iv.high == pytest.approx(mean + half, rel=1e-12)
    assert (iv.n, iv.level, iv.method) == (5, 0.95, "t interval over 5 seeds")
    low, high = sps.t.interval(0.9, n - 1, loc=mean, scale=sps.sem(values))
    iv90 = mean_interval(np.array(values), level=0.9)
    assert (iv90.low, iv90.high) == (pytest.approx(low, rel=1e-12), pytest.approx(high, rel=1e-12))
    assert iv90.high - iv90.low < iv.high - iv.low


def test_mean_interval_hand_case():
    from mlgeom.stats import mean_interval

    iv = mean_interval([1.0, 2.0, 3.0])  # s = 1, t_{0.975, 2} = 4.302652729749464
    assert iv.estimate == 2.0
    assert iv.low == pytest.approx(2.0 - 4.302652729749464 / 3**0.5, rel=1e-12)
    assert iv.high == pytest.approx(2.0 + 4.302652729749464 / 3**0.5, rel=1e-12)


@pytest.mark.parametrize("value", [0.1, 1 / 3, -7.25, 1e-300, 123456.789])
@pytest.mark.parametrize("n", [2, 3, 10, 17])
def test_identical_values_give_an_interval_holding_the_mean_and_the_value(value, n):
    from mlgeom.stats import mean_interval

    iv = mean_interval([value] * n)
    assert iv.low <= iv.estimate <= iv.high
    assert iv.low <= value <= iv.high
    assert iv.high - iv.low <= 1e-15 * abs(value)
    assert iv.estimate == pytest.approx(value, rel=1e-15, abs=0)


@pytest.mark.parametrize("values", [[0.1] * 3, [1 / 3] * 10, [123456.789] * 10])
def test_identical_values_give_a_zero_width_interval_at_the_value(values):
    from mlgeom.stats import mean_interval

    iv = mean_interval(values)
    assert iv.low == iv.estimate == iv.high == values[0]


def test_rounding_is_not_a_spread():
    """A deterministic quantity summed in another order per seed (issue 29: uniform guessing's
    expected loss, se 5.9e-15, was labelled a t interval) gives a zero-width interval."""
    import numpy as np

    from mlgeom.stats import ROUNDING, mean_interval

    rng = np.random.default_rng(0)
    for centre in (9.92723, 0.0, -3.5e4):
        values = np.full(10, centre) + rng.uniform(-1, 1, 10) * 1e-14 * max(1.0, abs(centre))
        iv = mean_interval(values)
        assert iv.width == 0 and iv.se == 0.0 and "up to rounding" in iv.method
        assert iv.estimate == pytest.approx(values.mean(), abs=0, rel=0)
    # a spread just above the threshold is a spread
    iv = mean_interval([1.0, 1.0 + 3 * ROUNDING])
    assert iv.width > 0 and iv.method == "t interval over 2 seeds"


def test_paired_interval_is_the_interval_of_the_differences():
    import numpy as np

    from mlgeom.stats import mean_interval, paired_interval

    rng = np.random.default_rng(1)
    a = rng.normal(1.0, 0.3, 12)
    b = a - 0.5 + rng.normal(0, 0.05, 12)
    iv, ref = paired_interval(a, b), mean_interval(a - b)
    assert (iv.estimate, iv.low, iv.high, iv.n) == (ref.estimate, ref.low, ref.high, 12)
    assert iv.method == "paired t interval over 12 seeds" and iv.low > 0
    same = paired_interval([1.0, 2.0, 3.0], [0.5, 1.5, 2.5])  # a constant difference
    assert same.low == same.estimate == same.high == pytest.approx(0.5)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda f: f.mean_interval([1.0]), r"one per seed\); got shape \(1,\)"),
        (lambda f: f.mean_interval([]), r"got shape \(0,\)"),
        (lambda f: f.mean_interval([[1.0, 2.0]]), r"got shape \(1, 2\)"),
        (lambda f: f.mean_interval(3.0), r"got shape \(\)"),
        (lambda f: f.mean_interval([1.0, float("nan"), 2.0]), "finite; got nan at index 1"),
        (lambda f: f.mean_interval([1.0, 2.0, float("inf")]), "finite; got inf at index 2"),
        (lambda f: f.mean_interval(["a", "b"]), "values must be numeric"),
        (
            lambda f: f.mean_interval([1.0, 2.0], level=1.0),
            r"level must be a number in \(0, 1\); got 1.0",
        ),
        (
            lambda f: f.mean_interval([1.0, 2.0], level=0),
            r"level must be a number in \(0, 1\); got 0",
        ),
        (lambda f: f.paired_interval([1.0, 2.0], [1.0, 2.0, 3.0]), "lengths 2 and 3"),
        (lambda f: f.paired_interval([1.0], [1.0]), "a must be a 1-d sequence"),
        (lambda f: f.paired_interval([1.0, 2.0], [1.0, float("nan")]), "b must be finite"),
        (lambda f: f.paired_interval([1.0, 2.0], [1.0, 3.0], level=1.5), "got 1.5"),
    ],
)
def test_interval_functions_name_the_bad_value(call, message):
    import mlgeom.stats as f

    with pytest.raises(ValueError, match=message):
        call(f)


@pytest.mark.parametrize(
    "args, message",
    [
        ((float("nan"), 0.0, 1.0, 3, 0.95, "t"), "estimate must be finite; got nan"),
        ((0.5, float("-inf"), 1.0, 3, 0.95, "t"), "low must be finite; got -inf"),
        ((0.5, 0.0, float("inf"), 3, 0.95, "t"), "high must be finite; got inf"),
        ((1.5, 0.0, 1.0, 3, 0.95, "t"), r"low <= estimate <= high; got 0.0 <= 1.5 <= 1.0"),
        ((0.5, 1.0, 0.0, 3, 0.95, "t"), r"got 1.0 <= 0.5 <= 0.0"),
        ((0.5, 0.0, 1.0, 1, 0.95, "t"), "n >= 2 seeds; got n=1"),
        ((0.5, 0.0, 1.0, True, 0.95, "t"), "n >= 2 seeds; got n=True"),
        ((0.5, 0.0, 1.0, 3.0, 0.95, "t"), "n >= 2 seeds; got n=3.0"),
        ((0.5, 0.0, 1.0, 3, 1.0, "t"), r"level must be in \(0, 1\); got 1.0"),
        ((0.5, 0.0, 1.0, 3, 0.0, "t"), r"level must be in \(0, 1\); got 0.0"),
    ],
)
def test_interval_validates_its_fields(args, message):
    from mlgeom.stats import Interval

    with pytest.raises(ValueError, match=message):
        Interval(*args)


def test_an_interval_is_frozen_and_accepts_numpy_integers():
    import dataclasses

    import numpy as np

    from mlgeom.stats import Interval

    iv = Interval(0.5, 0.0, 1.0, np.int64(3), 0.95, "t")
    with pytest.raises(dataclasses.FrozenInstanceError):
        iv.low = -1.0  # type: ignore[misc]
