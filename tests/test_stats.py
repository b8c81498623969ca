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


# -- clustered log-log fits -------------------------------------------------------------------
def _slope_interval_before_the_refactor(x, y, groups, level=0.95):
    """slope_interval's arithmetic as it was before loglog_fit_interval shared it (reference)."""
    import numpy as np
    from scipy import stats as sps

    lx, ly = np.log(np.asarray(x, dtype=float)), np.log(np.asarray(y, dtype=float))
    labels, idx = np.unique(np.asarray(groups), return_inverse=True)
    n_groups, n = labels.size, lx.size
    xc = lx - lx.mean()
    sxx = float(xc @ xc)
    slope = float(xc @ (ly - ly.mean()) / sxx)
    intercept = float(ly.mean() - slope * lx.mean())
    resid = ly - (intercept + slope * lx)
    scores = np.bincount(idx, weights=xc * resid, minlength=n_groups)
    factor = n_groups / (n_groups - 1) * (n - 1) / max(n - 2, 1)
    se = float(np.sqrt(factor * float(scores @ scores)) / sxx)
    half = float(sps.t.ppf((1 + level) / 2, n_groups - 1) * se)
    return slope, intercept, se, slope - half, slope + half


def _noisy_runs(seed, n_seeds=5, k=6):
    import numpy as np

    rng = np.random.default_rng(seed)
    x = np.tile(np.geomspace(2, 200, k), n_seeds)
    groups = np.repeat(np.arange(n_seeds), k)
    noise = 0.1 * rng.standard_normal(x.size) + np.repeat(0.2 * rng.standard_normal(n_seeds), k)
    return x, 3.0 * x**-0.6 * np.exp(noise), groups


@pytest.mark.parametrize("seed", range(5))
def test_slope_interval_is_bit_identical_to_its_arithmetic_before_the_refactor(seed):
    from mlgeom.stats import slope_interval

    x, y, groups = _noisy_runs(seed)
    fit, iv = slope_interval(x, y, groups)
    ref = _slope_interval_before_the_refactor(x, y, groups)
    assert (fit.slope, fit.intercept, fit.stderr, iv.low, iv.high) == ref
    assert iv.se == fit.stderr and iv.df == 4 and "clustered by seed" in iv.method


@pytest.mark.parametrize("seed", range(5))
def test_loglog_fit_interval_with_one_column_is_slope_interval(seed):
    import dataclasses

    from mlgeom.stats import loglog_fit_interval, slope_interval

    x, y, groups = _noisy_runs(seed)
    fit, iv = slope_interval(x, y, groups, level=0.9)
    for X in (x, x[:, None]):
        b, iv1 = loglog_fit_interval(X, y, groups, level=0.9)
        assert b.tolist() == [fit.slope]
        assert dataclasses.astuple(iv1) == dataclasses.astuple(iv)


def test_loglog_fit_interval_hand_case_two_variables():
    import numpy as np
    from scipy import stats as sps

    from mlgeom.stats import loglog_fit_interval

    # log X per seed: (0,0), (1,0), (0,1), (1,1); log y = u + 2v (seed A), 3u + 2v (seed B).
    # Pooled: b = (2, 2), a = 0; residuals A (0,-1,0,-1), B (0,1,0,1); centred u, v = ±1/2;
    # scores A (-1, 0), B (1, 0); X'X = 2·I; CR1 factor G/(G-1)·(N-1)/(N-3) = 2·7/5, so
    # var(b_u) = 2.8 · 2 / 4 = 1.4 and var(b_v) = 0.
    u, v = np.array([0.0, 1.0, 0.0, 1.0]), np.array([0.0, 0.0, 1.0, 1.0])
    X = np.exp(np.column_stack([np.tile(u, 2), np.tile(v, 2)]))
    y = np.exp(np.concatenate([u + 2 * v, 3 * u + 2 * v]))
    groups = ["A"] * 4 + ["B"] * 4
    b, iv = loglog_fit_interval(X, y, groups, column=0)
    half = sps.t.ppf(0.975, 1) * np.sqrt(1.4)
    assert b == pytest.approx([2.0, 2.0], rel=1e-13)
    assert (iv.estimate, iv.se, iv.df, iv.n) == (pytest.approx(2.0), pytest.approx(1.4**0.5), 1, 2)
    assert (iv.low, iv.high) == (pytest.approx(2.0 - half), pytest.approx(2.0 + half))
    method = "log-log fit on 2 variables over 8 points of 2 seeds, errors clustered by seed"
    assert iv.method == method + " (t, 1 df)"
    _, iv_v = loglog_fit_interval(X, y, groups, column=1)
    assert iv_v.estimate == pytest.approx(2.0) and iv_v.width == pytest.approx(0.0, abs=1e-12)
    # one variable by hand: log x = (0, 1) per seed, log y = (0, 1) and (0, 3): slope 2, se √1.5
    _, iv1 = loglog_fit_interval(
        np.exp([0.0, 1.0, 0.0, 1.0]), np.exp([0.0, 1.0, 0.0, 3.0]), [0, 0, 1, 1]
    )
    assert (iv1.estimate, iv1.se) == (pytest.approx(2.0), pytest.approx(1.5**0.5))


def test_loglog_fit_interval_matches_the_cr1_sandwich_with_the_intercept_in_the_design():
    """Oracle: the textbook CR1 sandwich on the uncentred design (1, log p, log d), unbalanced."""
    import numpy as np
    from scipy import stats as sps

    from mlgeom.stats import loglog_fit_interval

    rng = np.random.default_rng(4)
    p = rng.choice([2.0, 4.0, 6.0], 40)
    d = rng.choice([2.0, 3.0, 4.0, 5.0], 40)
    groups = rng.integers(0, 6, 40)
    y = 0.3 * p**1.3 * d**0.8 * np.exp(0.2 * rng.standard_normal(40))
    Z = np.column_stack([np.ones(40), np.log(p), np.log(d)])
    coef = np.linalg.lstsq(Z, np.log(y), rcond=None)[0]
    e = np.log(y) - Z @ coef
    bread = np.linalg.inv(Z.T @ Z)
    meat = sum(
        np.outer(Z[groups == g].T @ e[groups == g], Z[groups == g].T @ e[groups == g])
        for g in range(6)
    )
    cov = 6 / 5 * 39 / 37 * bread @ meat @ bread
    for column in (0, 1):
        b, iv = loglog_fit_interval(np.column_stack([p, d]), y, groups, column=column)
        se = np.sqrt(cov[column + 1, column + 1])
        assert b == pytest.approx(coef[1:], rel=1e-10)
        assert iv.se == pytest.approx(se, rel=1e-9)
        assert iv.high - iv.estimate == pytest.approx(sps.t.ppf(0.975, 5) * se, rel=1e-9)


def _exact_power_law_case():
    from hypothesis import strategies as st

    return st.tuples(
        st.lists(st.floats(-3, 3), min_size=2, max_size=2),
        st.floats(0.01, 100),
        st.lists(st.floats(0.5, 2.0), min_size=2, max_size=5),
        st.lists(st.floats(0.1, 50), min_size=3, max_size=3, unique=True),
        st.lists(st.floats(0.1, 50), min_size=2, max_size=2, unique=True),
    )


def test_loglog_fit_interval_exact_power_law_gives_its_exponents_and_no_width():
    import numpy as np
    from hypothesis import given, settings

    from mlgeom.stats import loglog_fit_interval

    @settings(max_examples=60, deadline=None)
    @given(_exact_power_law_case())
    def check(case):
        b_true, c, seed_factors, xs1, xs2 = case
        grid = np.array([(a, b) for a in xs1 for b in xs2])
        if min(np.ptp(np.log(grid[:, 0])), np.ptp(np.log(grid[:, 1]))) < 1e-3:
            return  # two values closer than 0.1%: the exponent is ill-conditioned, not wrong
        X = np.tile(grid, (len(seed_factors), 1))
        groups = np.repeat(np.arange(len(seed_factors)), len(grid))
        y = c * np.repeat(seed_factors, len(grid)) * X[:, 0] ** b_true[0] * X[:, 1] ** b_true[1]
        for column in (0, 1):
            b, iv = loglog_fit_interval(X, y, groups, column=column)
            assert b == pytest.approx(b_true, abs=1e-7)
            # every seed sees the whole grid, so a per-seed factor leaves no score: width ~ 0
            assert iv.width <= 1e-7 and iv.low <= iv.estimate <= iv.high

    check()


def test_identical_seeds_give_a_zero_width_fit():
    """Uniform guessing's expected loss is the same on every seed (issue 29): its fitted slope
    is an exact number, not a sampling interval of width a few ulps."""
    import numpy as np

    from mlgeom.stats import ROUNDING, loglog_fit_interval, slope_interval

    x = np.tile([2.0, 4.0, 8.0, 16.0], 10)
    groups = np.repeat(np.arange(10), 4)
    y = 0.5 * x**0.3
    fit, iv = slope_interval(x, y, groups)
    assert iv.width == 0 and iv.se == 0.0 and fit.stderr == 0.0
    assert iv.method == "identical over 10 seeds (no spread): log-log fit over 40 points"
    rng = np.random.default_rng(0)
    wobble = y * (1 + 1e-15 * rng.uniform(-1, 1, y.size))  # a sum in another order per seed
    _, iv = slope_interval(x[::-1], wobble[::-1], groups)  # each seed's points in any order
    assert iv.width == 0 and "identical over 10 seeds up to rounding" in iv.method
    assert iv.estimate == pytest.approx(0.3, rel=1e-12)
    X = np.column_stack([x, np.tile([3.0, 3.0, 5.0, 5.0], 10)])
    b, iv2 = loglog_fit_interval(X, wobble * X[:, 1] ** 2, groups, column=1)
    assert iv2.width == 0 and iv2.estimate == pytest.approx(2.0) and "identical" in iv2.method
    # a spread above ROUNDING is a spread; so is one seed with a point fewer
    _, iv = slope_interval(x, y * (1 + 1e3 * ROUNDING * x * (groups == 3)), groups)
    assert iv.width > 0 and "clustered by seed" in iv.method
    _, iv = slope_interval(x[1:], y[1:], groups[1:])
    assert "clustered by seed" in iv.method


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"X": [[1.0, 2.0]] * 4}, r"X's column 0 must take at least two distinct values; got 1.0"),
        ({"X": [[1.0, 2.0], [2.0, 4.0], [4.0, 8.0], [8.0, 16.0]]}, r"rank is 1 < 2"),
        ({"X": [[[1.0]]] * 4}, r"X must be 1-D .* got shape"),
        (
            {"X": [[1.0, 2.0], [0.0, 3.0], [2.0, 2.0], [4.0, 3.0]]},
            r"X must be finite and > 0; got 0.0",
        ),
        ({"y": [1.0, 2.0, -1.0, 3.0]}, r"y must be finite and > 0; got -1.0 at index \(2,\)"),
        ({"y": [1.0, 2.0, 3.0]}, r"y must hold one value per row of X \(4\); got shape \(3,\)"),
        ({"groups": [0, 0, 1]}, r"groups must hold one seed per point \(4\); got shape \(3,\)"),
        ({"groups": [7, 7, 7, 7]}, r"at least two distinct seeds; got \[7\]"),
        ({"column": 2}, r"column must be an integer in \[0, 2\) \(a column of X\); got 2"),
        ({"column": -1}, r"got -1"),
        ({"column": True}, r"got True"),
        ({"column": 1.0}, r"got 1.0"),
        ({"level": 1.5}, r"level must be a number in \(0, 1\); got 1.5"),
    ],
)
def test_loglog_fit_interval_names_the_bad_value(kwargs, message):
    from mlgeom.stats import loglog_fit_interval

    args = {
        "X": [[2.0, 2.0], [4.0, 2.0], [2.0, 3.0], [4.0, 3.0]],
        "y": [1.0, 2.0, 3.0, 5.0],
        "groups": [0, 0, 1, 1],
    } | kwargs
    with pytest.raises(ValueError, match=message):
        loglog_fit_interval(**args)


# ---------------------------------------------------------------- within_fit_interval (issue 29)
def _panel(seed, n_seeds=6, horizons=(100.0, 300.0, 1000.0, 3000.0)):
    import numpy as np

    rng = np.random.default_rng(seed)
    T = np.tile(np.asarray(horizons), n_seeds)
    groups = np.repeat(np.arange(n_seeds), len(horizons))
    level = rng.uniform(1, 50, n_seeds)[groups]
    y = level * T**0.3 * np.exp(0.1 * rng.standard_normal(T.size))
    return np.log(T), np.log(y), groups


def test_within_fit_interval_matches_the_cr1_sandwich_with_dummies_in_the_design():
    """Oracle: one dummy column per seed in the design (Frisch–Waugh–Lovell gives the same
    slope and, with the nested dummies not counted in the small-sample factor, the same CR1
    standard error), computed by an explicit loop over seeds."""
    import numpy as np
    from scipy import stats as sps

    from mlgeom.stats import within_fit_interval

    lx, ly, groups = _panel(1)
    n, G = lx.size, 6
    Z = np.column_stack([lx] + [(groups == g).astype(float) for g in range(G)])
    coef = np.linalg.lstsq(Z, ly, rcond=None)[0]
    e = ly - Z @ coef
    bread = np.linalg.inv(Z.T @ Z)
    meat = np.zeros((G + 1, G + 1))
    for g in range(G):
        s = Z[groups == g].T @ e[groups == g]
        meat += np.outer(s, s)
    cov = G / (G - 1) * (n - 1) / (n - 2) * bread @ meat @ bread
    b, (iv,) = within_fit_interval(lx, ly, groups, what="log-log fit")
    assert b[0] == pytest.approx(coef[0], rel=1e-10)
    assert iv.se == pytest.approx(np.sqrt(cov[0, 0]), rel=1e-9)
    assert iv.high - iv.estimate == pytest.approx(sps.t.ppf(0.975, G - 1) * iv.se, rel=1e-9)
    assert "clustered by seed" in iv.method and "log-log fit" in iv.method


def test_within_fit_interval_ignores_seed_levels():
    """Adding any constant per seed (its level) changes neither the slope nor its interval."""
    import numpy as np

    from mlgeom.stats import within_fit_interval

    lx, ly, groups = _panel(2)
    shift = np.random.default_rng(3).normal(0, 5, 6)[groups]
    (b1, (i1,)), (b2, (i2,)) = (within_fit_interval(lx, v, groups) for v in (ly, ly + shift))
    assert b1 == pytest.approx(b2, rel=1e-9)
    assert (i1.low, i1.high) == pytest.approx((i2.low, i2.high), rel=1e-9)


def test_within_fit_interval_paired_difference_of_two_learners_slopes():
    """Strata (seed, learner) inside seeds: the interaction column is the slope difference."""
    import numpy as np

    from mlgeom.stats import within_fit_interval

    lx, ly_a, groups = _panel(5)
    ly_b = ly_a - 0.2 * lx + np.random.default_rng(6).normal(0, 0.01, lx.size)
    X = np.column_stack([np.r_[lx, lx], np.r_[lx, 0 * lx]])  # log T, log T · [learner a]
    y = np.r_[ly_a, ly_b]
    g = np.r_[groups, groups]
    strata = np.r_[groups * 2, groups * 2 + 1]
    b, (_, gap) = within_fit_interval(X, y, g, strata=strata)
    assert gap.low < 0.2 < gap.high and gap.estimate == pytest.approx(0.2, abs=0.02)
    assert "one intercept per stratum" in gap.method


def test_within_fit_interval_exact_model_has_zero_width():
    import numpy as np

    from mlgeom.stats import within_fit_interval

    lx = np.log(np.tile([10.0, 100.0, 1000.0], 3))
    g = np.repeat([0, 1, 2], 3)
    b, (iv,) = within_fit_interval(lx, 0.7 * lx + g * 3.0, g)
    assert iv.width == 0 and iv.estimate == pytest.approx(0.7) and iv.method.startswith("exact")


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"y": [1.0, float("nan"), 2.0, 3.0]}, r"y must be finite; got nan at index \(1,\)"),
        ({"y": [1.0, 2.0]}, r"y must hold one value per row of X \(4\); got shape \(2,\)"),
        ({"groups": [0, 0, 0, 0]}, r"at least two distinct seeds"),
        ({"strata": [0, 1, 1, 2]}, r"strata must each lie inside one seed; stratum 1 spans two"),
        ({"strata": [0, 0, 1]}, r"strata must hold one label per point \(4\)"),
        ({"X": [1.0, 1.0, 2.0, 2.0]}, r"X's column 0 does not vary within any stratum"),
        ({"level": 0.0}, r"level must be a number in \(0, 1\); got 0.0"),
    ],
)
def test_within_fit_interval_names_the_bad_value(kwargs, message):
    from mlgeom.stats import within_fit_interval

    args = {"X": [1.0, 2.0, 1.0, 2.0], "y": [1.0, 2.0, 3.0, 5.0], "groups": [0, 0, 1, 1]} | kwargs
    with pytest.raises(ValueError, match=message):
        within_fit_interval(**args)
