"""Regression tests of issue 16 for :mod:`mlgeom.metric_nn`."""

import numpy as np
import pytest

from mlgeom.metric_nn.spaces import doubling_dimension
from mlgeom.metric_nn.srm import margin_function

DIST = np.array([[0.1, 0.5], [0.3, 0.2]])


def test_margin_function_validates_L_classes_and_labels():
    with pytest.raises(ValueError, match=r"L must be .*got -1"):
        margin_function(DIST, np.array([0, 1]), 2, -1.0)
    with pytest.raises(ValueError, match="n_classes must be an integer >= 1; got 0"):
        margin_function(DIST, np.array([0, 1]), 0, 1.0)
    with pytest.raises(ValueError, match=r"y_s1 must be indices in \[0, 1\]; got 5"):
        margin_function(DIST, np.array([0, 5]), 2, 1.0)
    with pytest.raises(ValueError, match="y_s1 must have one label per column"):
        margin_function(DIST, np.array([0]), 2, 1.0)
    h = margin_function(DIST, np.array([0, 1]), 2, 1.0)
    assert h.shape == (2, 2) and np.all(np.abs(h) <= 1)


def test_doubling_dimension_refuses_a_non_symmetric_matrix():
    D = np.array([[0.0, 1.0], [2.0, 0.0]])
    msg = r"D must be symmetric: D\[0, 1\] = 1.0 but D\[1, 0\] = 2.0"
    with pytest.raises(ValueError, match=msg):
        doubling_dimension(D)
    with pytest.raises(ValueError, match="D must be square"):
        doubling_dimension(np.zeros((2, 3)))
