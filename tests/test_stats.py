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
