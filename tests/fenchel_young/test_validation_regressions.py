"""Regression tests of issue 16 for :mod:`mlgeom.fenchel_young`."""

import numpy as np
import pytest

from mlgeom.fenchel_young.logistic_ogd import logistic_ogd_batch, logistic_ogd_loop
from mlgeom.fenchel_young.losses import softmax
from mlgeom.fenchel_young.surrogate_regret import eta_gaptron

X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
LAB = np.array([0, 1, 2])


def test_loop_refuses_negative_order_indices_like_the_batch():
    U = np.full((2, 2), 0.5)
    with pytest.raises(ValueError, match=r"order must be indices in \[0, 2\]; got -1"):
        logistic_ogd_loop(X, LAB, [0, -1], U, d=3, eta=0.1)
    with pytest.raises(ValueError, match=r"orders must be indices in \[0, 2\]; got -1"):
        logistic_ogd_batch(X, LAB, [[0, -1]], U[None], d=3, eta=0.1)


@pytest.mark.parametrize("bad", [7.0, np.nan, -0.1, 1.0])
def test_uniforms_must_lie_in_the_unit_interval(bad):
    U = np.full((2, 2), 0.5)
    U[1, 0] = bad
    with pytest.raises(ValueError, match="uniforms must"):
        logistic_ogd_loop(X, LAB, [0, 1], U, d=3, eta=0.1)
    with pytest.raises(ValueError, match="uniforms must"):
        logistic_ogd_batch(X, LAB, [[0, 1]], U[None], d=3, eta=0.1)


def test_loop_and_batch_still_agree_on_valid_input():
    rng = np.random.default_rng(0)
    order = rng.integers(0, 3, size=20)
    U = rng.random((20, 2))
    a = logistic_ogd_loop(X, LAB, order, U, d=3, eta=0.1, libm=True)
    b = logistic_ogd_batch(X, LAB, order[None], U[None], d=3, eta=0.1)
    np.testing.assert_array_equal(a.played, b.played)


def test_softmax_refuses_inf_nan_and_empty():
    with pytest.raises(ValueError, match=r"theta must not contain NaN or \+inf; got inf"):
        softmax(np.array([np.inf, 1.0]))
    with pytest.raises(ValueError, match="theta must be non-empty"):
        softmax(np.array([]))
    with pytest.raises(ValueError, match="all -inf"):
        softmax(np.array([-np.inf, -np.inf]))
    np.testing.assert_allclose(softmax(np.array([-np.inf, 0.0])), [0.0, 1.0])


def test_eta_gaptron_refuses_d_zero():
    with pytest.raises(ValueError, match="d must be an integer >= 1; got 0"):
        eta_gaptron(0, 1.0)
