"""Tests of mlgeom.algorithms.margin_losses: hand values, stability, bounds on 0-1, convexity."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlgeom.algorithms.margin_losses import (
    MARGIN_LOSSES,
    exponential,
    hinge,
    logistic,
    margin_loss,
    margins,
    squared,
    zero_one,
)

Z = np.array([-1.0, 0.0, 1.0, 2.0])
E = math.e
LN2 = math.log(2.0)

# Hand values at z = -1, 0, 1, 2 (definitions on the "Loss Functions" slides).
HAND = {
    "zero_one": [1.0, 1.0, 0.0, 0.0],  # 1 if z <= 0
    "hinge": [2.0, 1.0, 0.0, 0.0],  # max(0, 1 - z)
    "logistic": [math.log(1 + E), LN2, math.log(1 + 1 / E), math.log(1 + E**-2)],
    "logistic_base2": [
        math.log(1 + E) / LN2,
        1.0,
        math.log(1 + 1 / E) / LN2,
        math.log(1 + E**-2) / LN2,
    ],
    "squared": [4.0, 1.0, 0.0, 1.0],  # (1 - z)^2
    "exponential": [E, 1.0, 1 / E, E**-2],  # e^{-z}
}

UPPER_BOUNDS = ["hinge", "logistic_base2", "squared", "exponential"]
CONVEX = ["hinge", "logistic", "logistic_base2", "squared", "exponential"]


@pytest.mark.parametrize("name", sorted(HAND))
def test_hand_values(name):
    np.testing.assert_allclose(margin_loss(name, Z), HAND[name], rtol=1e-15)
    np.testing.assert_allclose(MARGIN_LOSSES[name](Z), HAND[name], rtol=1e-15)


def test_direct_functions_match_registry():
    assert MARGIN_LOSSES["zero_one"] is zero_one and MARGIN_LOSSES["hinge"] is hinge
    assert MARGIN_LOSSES["squared"] is squared and MARGIN_LOSSES["exponential"] is exponential
    np.testing.assert_array_equal(logistic(Z, base2=True), margin_loss("logistic_base2", Z))
    np.testing.assert_array_equal(logistic(Z), margin_loss("logistic", Z))


def test_shapes_scalars_and_inputs_unchanged():
    z = np.array([[-1.0, 0.5], [3.0, 0.0]])
    z0 = z.copy()
    for f in MARGIN_LOSSES.values():
        assert f(z).shape == (2, 2)
        value = f(0.5)
        assert isinstance(value, float) and np.ndim(value) == 0
        assert f([]).shape == (0,)
    np.testing.assert_array_equal(z, z0)


def test_stability_at_large_margins():
    big = np.array([-1000.0, 1000.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any RuntimeWarning (overflow, invalid) fails
        with np.errstate(all="raise"):
            lg = logistic(big)
            lg2 = logistic(big, base2=True)
            ex = exponential(big)
            others = [zero_one(big), hinge(big), squared(big)]
    assert lg[0] == pytest.approx(1000.0, rel=1e-15) and lg[1] == pytest.approx(0.0, abs=1e-300)
    assert lg2[0] == pytest.approx(1000.0 / LN2, rel=1e-15)
    np.testing.assert_array_equal(others[0], [1.0, 0.0])
    np.testing.assert_array_equal(others[1], [1001.0, 0.0])
    np.testing.assert_array_equal(others[2], [1001.0**2, 999.0**2])
    assert all(np.all(np.isfinite(v)) for v in [lg, lg2, *others])
    # e^{1000} is not a float64: +inf by design (documented), never nan
    assert ex[0] == np.inf and ex[1] == 0.0
    # small margins keep their precision: log(1 + e^{-40}) ~ e^{-40}
    assert logistic(40.0) == pytest.approx(math.exp(-40.0), rel=1e-12)


@pytest.mark.parametrize("name", UPPER_BOUNDS)
def test_surrogates_upper_bound_zero_one_on_grid(name):
    z = np.concatenate([np.linspace(-50.0, 50.0, 10_001), [0.0, -1e-300, 1e-300]])
    assert np.all(margin_loss(name, z) >= zero_one(z))


def test_natural_log_logistic_is_not_an_upper_bound():
    # ln(1 + e^0) = ln 2 < 1 = zero_one(0): the reason for base2=True.
    assert logistic(0.0) < zero_one(0.0)
    assert logistic(0.0, base2=True) == 1.0


finite = st.floats(-30.0, 30.0, allow_nan=False, allow_infinity=False)


@settings(max_examples=200, deadline=None)
@given(a=finite, b=finite, name=st.sampled_from(CONVEX))
def test_convexity_midpoint(a, b, name):
    f = MARGIN_LOSSES[name]
    mid, avg = f((a + b) / 2), (f(a) + f(b)) / 2
    assert mid <= avg + 1e-12 * (1.0 + abs(avg))


def test_zero_one_is_not_convex():
    # midpoint of z = -0.5 and z = 0.5 is 0: loss 1 > (1 + 0) / 2
    assert zero_one(0.0) > (zero_one(-0.5) + zero_one(0.5)) / 2


def test_margins():
    X = [[1.0, 2.0], [-1.0, 0.5], [0.0, -3.0]]
    y = [1, -1, 1]
    np.testing.assert_allclose(margins(X, y, [2.0, 1.0]), [4.0, 1.5, -3.0])


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf, [0.0, np.nan], [[1.0], [np.inf]]])
@pytest.mark.parametrize("name", sorted(MARGIN_LOSSES))
def test_non_finite_margins_rejected(name, bad):
    with pytest.raises(ValueError, match="z must be finite; got"):
        margin_loss(name, bad)


def test_bad_inputs():
    with pytest.raises(ValueError, match="name must be one of .*'hinge'.*; got 'huber'"):
        margin_loss("huber", 0.0)
    with pytest.raises(ValueError, match="z must be a real number or a numeric array"):
        hinge("abc")
    with pytest.raises(ValueError, match="w must have length 2; got length 3"):
        margins([[1.0, 2.0]], [1], [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="y must contain only -1 and \\+1; got 0.0"):
        margins([[1.0, 2.0]], [0], [1.0, 2.0])
