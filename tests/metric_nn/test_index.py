"""Tests for mlgeom.metric_nn.index: the (1 + eta) ball tree of Section 5.1 (eq. 15)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlgeom.metric_nn.index import MetricBallTree
from mlgeom.metric_nn.spaces import encode_strings, pairwise_distances


def brute(Xq, X, metric):
    D = pairwise_distances(Xq, X, metric)
    return D.min(axis=1)


@pytest.mark.parametrize("metric", ["euclidean", "l1", "chebyshev"])
@pytest.mark.parametrize("leaf_size", [1, 4, 16])
def test_exact_queries_match_brute_force(metric, leaf_size):
    rng = np.random.default_rng(0)
    X, Xq = rng.normal(size=(300, 3)), rng.normal(size=(50, 3))
    res = MetricBallTree(X, metric, leaf_size=leaf_size).query(Xq)
    np.testing.assert_allclose(res.distances, brute(Xq, X, metric))
    np.testing.assert_allclose(
        pairwise_distances(Xq, X, metric)[np.arange(50), res.indices], res.distances
    )


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.floats(0.0, 3.0), st.integers(1, 5))
def test_one_plus_eta_guarantee(seed, eta, dim):
    rng = np.random.default_rng(seed)
    X, Xq = rng.random((200, dim)), rng.random((40, dim))
    res = MetricBallTree(X, "euclidean", leaf_size=8).query(Xq, eta=eta)
    d_star = brute(Xq, X, "euclidean")
    assert np.all(res.distances >= d_star - 1e-12)
    assert np.all(res.distances <= (1 + eta) * d_star + 1e-12)  # eq. (15)


def test_strings_duplicates_and_evaluation_count():
    rng = np.random.default_rng(1)
    strings = ["".join(rng.choice(list("AC"), size=rng.integers(3, 8))) for _ in range(80)]
    codes = encode_strings(strings + strings[:10], "AC")  # duplicates
    tree = MetricBallTree(codes, "edit", leaf_size=4)
    res = tree.query(codes[:30])
    np.testing.assert_array_equal(res.distances, np.zeros(30))
    assert res.n_distance_evaluations > 0
    # well-separated clusters: the tree prunes, so it evaluates fewer distances than brute force
    X = np.concatenate([rng.normal(size=(200, 2)) * 0.01 + c for c in ([0, 0], [10, 0], [0, 10])])
    res = MetricBallTree(X).query(X[::7])
    assert res.n_distance_evaluations < 0.5 * len(X[::7]) * len(X)


def test_bad_inputs():
    with pytest.raises(ValueError, match="eta must be in \\[0.0, inf\\]; got -0.1"):
        MetricBallTree(np.eye(3)).query(np.eye(3), eta=-0.1)
    with pytest.raises(ValueError, match="leaf_size must be an integer >= 1"):
        MetricBallTree(np.eye(3), leaf_size=0)
    with pytest.raises(ValueError, match="finite"):
        MetricBallTree(np.array([[np.nan, 0.0]]))
