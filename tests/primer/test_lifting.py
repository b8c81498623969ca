"""Tests of mlgeom.primer.lifting (slide "Force h through Origin")."""

import numpy as np
import pytest

from mlgeom import primer as P


def test_lift_appends_one():
    np.testing.assert_array_equal(P.lift([[2.0, 3.0]]), [[2.0, 3.0, 1.0]])


def test_affine_decision_hand_case():
    # w = (1, -1, 0.5): <(1, -1), p> + 0.5
    np.testing.assert_allclose(P.affine_decision([[1.0, 2.0]], [1.0, -1.0, 0.5]), [-0.5])


def test_lifted_perceptron_separates_offset_points():
    # 1-D: classes split at 2.5, not separable by a "halfspace through the origin" of R
    m = P.lifted_perceptron([[2.0], [3.0], [1.5], [4.0]], [-1, 1, -1, 1])
    assert m.result.converged
    np.testing.assert_array_equal(m.predict([[2.0], [3.0], [1.5], [4.0]]), [-1, 1, -1, 1])
    assert np.isclose(np.linalg.norm(m.w), 1.0)
    assert m.offset == m.w[-1]
    np.testing.assert_array_equal(m.normal, m.w[:-1])


def test_lifted_matches_through_origin_classifier():
    X, y, _ = P.offset_margin_data(80, 0.3, 1.0, seed=2)
    m = P.lifted_perceptron(X, y)
    np.testing.assert_array_equal(np.where(P.lift(X) @ m.w >= 0, 1, -1), m.predict(X))
    assert np.all(m.predict(X) == y)


def test_lift_bad_inputs():
    with pytest.raises(ValueError, match="w"):
        P.affine_decision([[1.0, 2.0]], [1.0, 2.0])
    with pytest.raises(ValueError, match="y"):
        P.lifted_perceptron([[1.0]], [0])
