"""Regression tests of issue 16 for :mod:`mlgeom.primer`."""

import numpy as np
import pytest

from mlgeom.primer.kernel_perceptrons import kernel_perceptron


def test_contradictory_points_are_refused_instead_of_converging_with_50_percent_error():
    X = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 0.0]])
    y = np.array([1.0, -1.0, -1.0])
    with pytest.raises(ValueError, match=r"same point \[0.0, 0.0\] at rows 0 and 2"):
        kernel_perceptron(X, y)
    # the same point twice with the same label is fine
    m = kernel_perceptron(X, np.array([1.0, -1.0, 1.0]))
    assert m.converged and m.history[-1] == 0.0
