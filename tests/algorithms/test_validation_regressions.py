"""Regression tests of issue 16 for :mod:`mlgeom.algorithms`."""

import numpy as np
import pytest

from mlgeom.algorithms.online_gradient import OGD, CoinBettingOGD


@pytest.mark.parametrize("cls, kw", [(OGD, {"eta": 0.1}), (CoinBettingOGD, {"G": 1.0})])
def test_update_refuses_a_wrong_shape_or_nan(cls, kw):
    alg = cls((2, 3), **kw)
    with pytest.raises(ValueError, match=r"grad must have shape \(2, 3\); got shape \(3,\)"):
        alg.update(np.ones(3))  # used to broadcast silently
    with pytest.raises(ValueError, match=r"grad must be finite; got nan at index \(0, 1\)"):
        g = np.zeros((2, 3))
        g[0, 1] = np.nan
        alg.update(g)
    assert np.all(alg.weights == 0)
    alg.update(np.ones((2, 3)))
    assert np.all(np.isfinite(alg.weights))


def test_shape_must_be_positive_ints():
    with pytest.raises(ValueError, match=r"shape .*got \(2, 0\)"):
        OGD((2, 0), 0.1)
    with pytest.raises(ValueError, match="shape .*got 3"):
        OGD(3, 0.1)


def test_online_perceptrons_refuse_a_label_outside_their_range():
    from mlgeom.algorithms import MulticlassPerceptron, OnlinePerceptron

    p = OnlinePerceptron(2)
    with pytest.raises(ValueError, match=r"true_label must be an integer in \[1, 2\]; got 3"):
        p.learn([1.0, 0.0], 3)  # used to update as if the label were 2
    m = MulticlassPerceptron(3, 2)
    with pytest.raises(ValueError, match=r"true_label must be an integer >= 0; got -1"):
        m.learn([1.0, 0.0], -1)  # used to update the last prototype (negative indexing)
    with pytest.raises(ValueError, match=r"true_label must be an integer in \[0, 2\]; got 3"):
        m.learn([1.0, 0.0], 3)  # used to raise IndexError from numpy
    assert np.all(p.w == 0) and np.all(m.W == 0)
    assert m.learn([1.0, 0.0], np.int64(2)) is True


def test_complex_input_is_refused_not_cast():
    """perceptron cast complex X to float with only numpy's ComplexWarning (issue 34)."""
    import warnings

    from mlgeom.algorithms import perceptron

    X = np.array([[1.0 + 1.0j, 0.0], [0.0, 1.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no ComplexWarning on the way to the error
        with pytest.raises(ValueError, match="X must be real; got complex values"):
            perceptron(X, [1.0, -1.0])
        with pytest.raises(ValueError, match="y must be real; got complex values"):
            perceptron(X.real, np.array([1.0, -1.0], dtype=complex))
