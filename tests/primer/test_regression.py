"""Tests for mlgeom.primer.regression: the primer's polynomial cross-validation example."""

from __future__ import annotations

import numpy as np
import pytest

from mlgeom.primer.regression import polynomial_cv, polynomial_fit, polynomial_sse

# Primer, "Example: Simple polynomial example with Cross Validation".
X_TRAIN = [2.0, 3.0, 4.0, 6.0, 7.0, 8.0]
Y_TRAIN = [6.0, 8.2, 9.0, 11.0, 11.5, 12.0]
X_TEST = [1.0, 5.0, 9.0]
Y_TEST = [4.0, 9.5, 11.2]


def test_degree_one_by_hand():
    # x = 0, 1, 2 and y = 1, 2, 4: mean x = 1, mean y = 7/3;
    # sum (x - 1)(y - 7/3) = (-1)(-4/3) + 0 + (1)(5/3) = 3;
    # sum (x - 1)^2 = 2  =>  slope 3/2, intercept 7/3 - 3/2 = 5/6.
    coef = polynomial_fit([0.0, 1.0, 2.0], [1.0, 2.0, 4.0], 1)
    np.testing.assert_allclose(coef, [1.5, 5.0 / 6.0], rtol=1e-12)
    # Residuals 1/6, -1/3, 1/6: SSE = 1/36 + 4/36 + 1/36 = 1/6.
    assert polynomial_sse(coef, [0.0, 1.0, 2.0], [1.0, 2.0, 4.0]) == pytest.approx(1 / 6)


def test_degree_zero_is_the_mean():
    coef = polynomial_fit(X_TRAIN, Y_TRAIN, 0)
    np.testing.assert_allclose(coef, [np.mean(Y_TRAIN)])


@pytest.mark.parametrize("degree", [0, 1, 2, 3, 4])
def test_agrees_with_numpy_polyfit_when_overdetermined(degree):
    np.testing.assert_allclose(
        polynomial_fit(X_TRAIN, Y_TRAIN, degree), np.polyfit(X_TRAIN, Y_TRAIN, degree), rtol=1e-7
    )
    rng = np.random.default_rng(degree)
    x, y = rng.normal(size=40), rng.normal(size=40)
    np.testing.assert_allclose(polynomial_fit(x, y, degree), np.polyfit(x, y, degree), rtol=1e-8)


def test_exact_polynomial_is_recovered():
    x = np.linspace(-2.0, 3.0, 9)
    y = 2 * x**3 - x + 0.5
    np.testing.assert_allclose(polynomial_fit(x, y, 3), [2.0, 0.0, -1.0, 0.5], atol=1e-10)


def test_page_data_interpolation_and_underdetermined():
    # Degree n - 1 = 5 interpolates the six training points.
    coef5 = polynomial_fit(X_TRAIN, Y_TRAIN, 5)
    assert polynomial_sse(coef5, X_TRAIN, Y_TRAIN) < 1e-16
    # Degree 8 (underdetermined): an interpolant too, the minimum-norm one.
    coef8 = polynomial_fit(X_TRAIN, Y_TRAIN, 8)
    assert coef8.shape == (9,)
    assert polynomial_sse(coef8, X_TRAIN, Y_TRAIN) < 1e-12
    V = np.vander(X_TRAIN, 9)
    np.testing.assert_allclose(coef8, np.linalg.pinv(V) @ Y_TRAIN, rtol=1e-6, atol=1e-12)
    # Train SSE can only decrease as the degree grows (nested least-squares problems).
    train = [
        polynomial_sse(polynomial_fit(X_TRAIN, Y_TRAIN, p), X_TRAIN, Y_TRAIN) for p in range(6)
    ]
    assert all(a >= b - 1e-12 for a, b in zip(train, train[1:], strict=False))


def test_polynomial_cv_matches_fit_and_sse():
    degrees = [1, 2, 3, 4, 5, 8]
    scores = polynomial_cv(X_TRAIN, Y_TRAIN, X_TEST, Y_TEST, degrees)
    assert list(scores) == degrees
    for p in degrees:
        coef = polynomial_fit(X_TRAIN, Y_TRAIN, p)
        resid = np.polyval(coef, X_TEST) - np.asarray(Y_TEST)
        assert scores[p] == pytest.approx(float(resid @ resid), rel=1e-12)


def test_page_data_degree_one_by_hand():
    # mean x = 5, sum (x - 5) y = -18 - 16.4 - 9 + 11 + 23 + 36 = 26.6, sum (x - 5)^2 = 28:
    # slope 26.6 / 28 = 19/20, intercept 57.7/6 - 5 * 19/20 = 73/15.
    np.testing.assert_allclose(polynomial_fit(X_TRAIN, Y_TRAIN, 1), [19 / 20, 73 / 15], rtol=1e-12)
    # Test residuals (19x/20 + 73/15 - y) at x = 1, 5, 9: 109/60, 7/60, 133/60.
    expected = (109**2 + 7**2 + 133**2) / 3600  # = 8.2275
    assert polynomial_cv(X_TRAIN, Y_TRAIN, X_TEST, Y_TEST, [1])[1] == pytest.approx(expected)


def test_inputs_unchanged():
    x = np.array(X_TRAIN)
    y = np.array(Y_TRAIN)
    polynomial_cv(x, y, np.array(X_TEST), np.array(Y_TEST), [1, 2])
    np.testing.assert_array_equal(x, X_TRAIN)
    np.testing.assert_array_equal(y, Y_TRAIN)


@pytest.mark.parametrize(
    ("x", "y", "degree"),
    [
        ([1.0, 2.0], [1.0, 2.0], -1),
        ([1.0, 2.0], [1.0, 2.0], 1.5),
        ([1.0, 2.0], [1.0, 2.0], True),
        ([1.0, 2.0], [1.0], 1),
        ([1.0, np.nan], [1.0, 2.0], 1),
        ([1.0, 2.0], [np.inf, 2.0], 1),
        ([], [], 1),
        ([[1.0, 2.0]], [[1.0, 2.0]], 1),
    ],
)
def test_polynomial_fit_bad_inputs(x, y, degree):
    with pytest.raises(ValueError):
        polynomial_fit(x, y, degree)


def test_bad_inputs_name_the_value():
    with pytest.raises(ValueError, match="got -1"):
        polynomial_fit([1.0, 2.0], [1.0, 2.0], -1)
    with pytest.raises(ValueError, match="nan at index 1"):
        polynomial_sse([1.0, 0.0], [1.0, np.nan], [1.0, 2.0])
    with pytest.raises(ValueError, match="length 2"):
        polynomial_sse([1.0], [1.0, 2.0], [1.0])


def test_polynomial_cv_bad_inputs():
    with pytest.raises(ValueError):
        polynomial_cv(X_TRAIN, Y_TRAIN, X_TEST, Y_TEST, [])
    with pytest.raises(ValueError, match=r"degrees\[1\]"):
        polynomial_cv(X_TRAIN, Y_TRAIN, X_TEST, Y_TEST, [1, -2])
    with pytest.raises(ValueError):
        polynomial_cv(X_TRAIN, Y_TRAIN, X_TEST, Y_TEST[:2], [1])
    with pytest.raises(ValueError):
        polynomial_cv(X_TRAIN, Y_TRAIN[:5], X_TEST, Y_TEST, [1])
    with pytest.raises(ValueError):
        polynomial_sse([np.nan], X_TEST, Y_TEST)
