"""Tests of mlgeom.algorithms.perceptrons: a loop-based reference, hand trajectories, theory."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlgeom.algorithms.perceptrons import (
    DEFAULT_MAX_UPDATES,
    margin,
    max_margin_perceptron,
    perceptron,
    planted_margin_data,
)
from mlgeom.primer.polytope_distance import polytope_distance_qp


def reference_perceptron(X, y, max_updates):
    """The Implementation Hints loop with an explicit LAST-UPDATE index, 0-based.

    Stop after a clean check of the point LAST-UPDATE (a full cycle without an update since
    it was updated); the initialisation w = y_0 x_0 counts as an update "before" point 0,
    i.e. LAST-UPDATE starts at n - 1.
    """
    n = len(y)
    w = y[0] * X[0]
    i, t, last_update, checks = 0, 0, n - 1, 0
    while True:
        checks += 1
        if y[i] * np.dot(X[i], w) < 0:
            w = w + y[i] * X[i]
            t, last_update = t + 1, i
            if t == max_updates or not np.any(w):
                return w, t, checks
        elif i == last_update:
            return w, t, checks
        i = (i + 1) % n


def printed_perceptron(X, y):
    """The pseudo-code as printed (index advanced every step): stops at i == LAST-UPDATE."""
    n = len(y)
    w = y[0] * X[0]
    i, last_update = 0, 0
    while True:
        if y[i] * np.dot(X[i], w) < 0:
            w = w + y[i] * X[i]
            last_update = i
        i = (i + 1) % n
        if last_update == i:
            return w


def random_separable(seed, n, d):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1.0, 1.0, size=(n, d)) / np.sqrt(d)
    w = rng.standard_normal(d)
    y = np.where(X @ w >= 0.0, 1.0, -1.0)
    return X, y


# ---------------------------------------------------------------- perceptron


@pytest.mark.parametrize("seed", range(8))
def test_perceptron_matches_loop_reference(seed):
    n, d = [(5, 2), (20, 3), (50, 5), (200, 10)][seed % 4]
    X, y = random_separable(seed, n, d)
    res = perceptron(X, y)
    w, t, checks = reference_perceptron(X, y, DEFAULT_MAX_UPDATES)
    assert res.converged and not res.zero_weight
    assert (res.n_updates, res.n_checks) == (t, checks)
    np.testing.assert_allclose(res.w_raw, w, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(res.w, w / np.linalg.norm(w), rtol=1e-12, atol=1e-14)
    assert np.all(y * (X @ res.w) >= 0.0)


@pytest.mark.parametrize("cap", [1, 2, 5, 17])
def test_perceptron_cap_matches_loop_reference(cap):
    X, y = random_separable(3, 60, 4)
    res = perceptron(X, y, max_updates=cap)
    w, t, checks = reference_perceptron(X, y, cap)
    assert (res.n_updates, res.n_checks) == (t, checks)
    np.testing.assert_allclose(res.w_raw, w, rtol=1e-12, atol=1e-14)
    assert res.max_updates == cap
    if t == cap:
        assert not res.converged


def test_perceptron_hand_trajectory():
    # Signed points z_i = y_i x_i: z0 = (1, 0.2), z1 = (-0.5, 1), z2 = (1, 0.1).
    # w = z0 = (1, 0.2)
    # check 1, i=0: <z0, w> = 1.04 >= 0
    # check 2, i=1: <z1, w> = -0.5 + 0.2 = -0.3 < 0 -> w = (0.5, 1.2), t = 1
    # check 3, i=2: <z2, w> = 0.5 + 0.12 = 0.62
    # check 4, i=0: <z0, w> = 0.5 + 0.24 = 0.74
    # check 5, i=1: <z1, w> = -0.25 + 1.2 = 0.95 -> n = 3 clean checks: stop.
    # ||(0.5, 1.2)|| = 1.3, so w / ||w|| = (5/13, 12/13).
    res = perceptron([[1.0, 0.2], [-0.5, 1.0], [-1.0, -0.1]], [1, 1, -1])
    assert res.converged and res.n_updates == 1 and res.n_checks == 5
    np.testing.assert_allclose(res.w_raw, [0.5, 1.2], rtol=1e-15)
    np.testing.assert_allclose(res.w, [5 / 13, 12 / 13], rtol=1e-15)


def test_perceptron_rechecks_the_last_updated_point():
    # Dyadic numbers, exact arithmetic. z0 = (1, 0.5), z1 = y1 x1 = (-0.5, 0.25).
    # w = (1, 0.5); i=0: 1.25 ok; i=1: -0.375 < 0 -> w = (0.5, 0.75), t = 1;
    # i=0: 0.875 ok; the printed "until LAST-UPDATE = i" stops here, with
    # <z1, w> = -0.25 + 0.1875 = -0.0625 < 0 still. The prose version re-checks i=1:
    # -0.0625 < 0 -> w = (0, 1), t = 2; i=0: 0.5 ok; i=1: 0.25 ok -> 2 clean checks: stop.
    X = np.array([[1.0, 0.5], [0.5, -0.25]])
    y = np.array([1.0, -1.0])
    w_printed = printed_perceptron(X, y)
    np.testing.assert_array_equal(w_printed, [0.5, 0.75])
    assert y[1] * (X[1] @ w_printed) < 0  # the printed stopping rule leaves a mistake
    res = perceptron(X, y)
    assert res.converged and res.n_updates == 2 and res.n_checks == 6
    np.testing.assert_array_equal(res.w_raw, [0.0, 1.0])
    assert np.all(y * (X @ res.w) > 0)


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(1, 40),
    d=st.integers(1, 6),
    gamma=st.floats(0.05, 0.95),
    seed=st.integers(0, 2**32 - 1),
)
def test_novikoff_bound_on_planted_margin_data(n, d, gamma, seed):
    X, y, w_star = planted_margin_data(n, d, gamma, seed=seed)
    assert np.all(np.linalg.norm(X, axis=1) <= 1.0)
    assert np.min(y * (X @ w_star)) >= gamma
    res = perceptron(X, y)
    assert res.converged and not res.zero_weight
    # Novikoff, counting the initial w = y_1 x_1 as an update: t + 1 <= 1 / gamma^2
    assert res.n_updates + 1 <= 1.0 / gamma**2
    assert np.all(y * (X @ res.w_raw) >= 0.0)
    assert np.linalg.norm(res.w) == pytest.approx(1.0)


def test_xor_through_origin_cancels_w():
    # z = y x: (1, 1), (-1, -1), ...: the second check gives w = (1,1) + (-1,-1) = 0.
    X = [[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]]
    res = perceptron(X, [1, 1, -1, -1])
    assert res.zero_weight and not res.converged
    assert (res.n_updates, res.n_checks) == (1, 2)
    np.testing.assert_array_equal(res.w, [0.0, 0.0])


def test_xor_with_bias_hits_the_default_cap():
    # XOR lifted by a constant coordinate ("Force h through Origin"): not separable.
    X = [[0.0, 0.0, 1.0], [1.0, 1.0, 1.0], [0.0, 1.0, 1.0], [1.0, 0.0, 1.0]]
    y = [-1, -1, 1, 1]
    res = perceptron(X, y)
    assert not res.converged and not res.zero_weight
    assert res.n_updates == DEFAULT_MAX_UPDATES == res.max_updates
    capped = perceptron(X, y, max_updates=50)
    assert not capped.converged and capped.n_updates == 50


def test_first_point_at_origin():
    res = perceptron([[0.0, 0.0], [1.0, 0.0]], [1, 1])
    assert res.zero_weight and not res.converged and res.n_checks == 0


def test_perceptron_leaves_inputs_unchanged_and_result_is_frozen():
    X, y = random_separable(0, 30, 3)
    X0, y0 = X.copy(), y.copy()
    res = perceptron(X, y)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.n_updates = 0
    with pytest.raises(ValueError, match="read-only"):
        res.w[0] = 1.0


# ---------------------------------------------------------------- max-margin perceptron


def test_max_margin_perceptron_hand_steps():
    # z0 = (1, 0), z1 = (0, 1). w = z0, margins (1, 0): argmin is z1 -> w = (1, 1),
    # margins (1, 1), tie -> z0 -> w = (2, 1), margins (2, 1) -> z1 -> w = (2, 2).
    res = max_margin_perceptron([[1.0, 0.0], [0.0, -1.0]], [1, -1], 3)
    np.testing.assert_array_equal(res.indices, [1, 0, 1])
    np.testing.assert_array_equal(res.w_raw, [2.0, 2.0])
    s = 1 / np.sqrt(2)
    np.testing.assert_allclose(res.margin_history, [0.0, s, 1 / np.sqrt(5), s], rtol=1e-15)


@pytest.mark.parametrize("seed", range(4))
def test_max_margin_perceptron_approaches_max_margin(seed):
    X, y, _ = planted_margin_data(60, 3, 0.1, seed=seed)
    # The max margin through the origin is the norm of the min-norm point of conv{y_i x_i}.
    Z = y[:, None] * X
    gamma_star = polytope_distance_qp(Z, np.zeros((1, 3))).distance
    res = max_margin_perceptron(X, y, 5000)
    h = res.margin_history
    assert h.shape == (5001,)
    assert np.all(h <= gamma_star + 1e-9)  # no w beats the max margin
    best = np.maximum.accumulate(h)
    errors = gamma_star - best[[10, 100, 1000, 5000]]
    assert np.all(np.diff(errors) <= 0.0)
    assert errors[-1] <= 1e-2 * gamma_star
    # the incrementally maintained margins agree with a fresh computation
    assert h[-1] == pytest.approx(margin(X, y, res.w_raw), rel=1e-10)
    assert h[0] == pytest.approx(margin(X, y, Z[0]), rel=1e-12)


def test_max_margin_perceptron_runs_all_steps_on_nonseparable_data():
    res = max_margin_perceptron([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0]], [1, 1, -1], 25)
    assert res.n_steps == 25 and res.margin_history.shape == (26,)
    assert res.indices.shape == (25,)


# ---------------------------------------------------------------- margin and data


def test_margin_value():
    assert margin([[1.0, 0.0], [0.0, -2.0]], [1, -1], [3.0, 4.0]) == pytest.approx(3 / 5)


def test_planted_margin_data_is_deterministic():
    a = planted_margin_data(50, 4, 0.2, seed=7)
    b = planted_margin_data(50, 4, 0.2, seed=7)
    c = planted_margin_data(50, 4, 0.2, seed=8)
    for u, v in zip(a, b, strict=True):
        np.testing.assert_array_equal(u, v)
    assert not np.array_equal(a[0], c[0])
    g = planted_margin_data(50, 4, 0.2, seed=np.random.default_rng(7))
    np.testing.assert_array_equal(g[0], a[0])


@pytest.mark.parametrize("gamma", [1e-6, 0.5, 0.999999])
def test_planted_margin_data_extremes(gamma):
    X, y, w_star = planted_margin_data(500, 20, gamma, seed=1)
    assert X.shape == (500, 20) and set(np.unique(y)) <= {-1.0, 1.0}
    assert np.linalg.norm(w_star) == pytest.approx(1.0)
    assert np.max(np.linalg.norm(X, axis=1)) <= 1.0
    assert np.min(y * (X @ w_star)) >= gamma


# ---------------------------------------------------------------- bad inputs

GOOD_X = [[1.0, 0.0], [0.0, 1.0]]


@pytest.mark.parametrize(
    ("X", "y", "kwargs", "match"),
    [
        ([1.0, 2.0], [1, -1], {}, "X must be 2-D"),
        ([[1.0, np.nan], [0.0, 1.0]], [1, -1], {}, "X must be finite; got nan"),
        (np.empty((0, 2)), [], {}, "X must have at least 1 row"),
        (GOOD_X, [1, 0], {}, "y must contain only -1 and \\+1; got 0.0"),
        (GOOD_X, [1, -1, 1], {}, "y must have length 2; got length 3"),
        (GOOD_X, [[1, -1]], {}, "y must be 1-D"),
        (GOOD_X, [1, -1], {"max_updates": 0}, "max_updates must be an integer >= 1; got 0"),
        (GOOD_X, [1, -1], {"max_updates": 2.5}, "max_updates must be an integer"),
    ],
)
def test_perceptron_bad_inputs(X, y, kwargs, match):
    with pytest.raises(ValueError, match=match):
        perceptron(X, y, **kwargs)


def test_other_bad_inputs():
    with pytest.raises(ValueError, match="n_steps must be an integer >= 1; got 0"):
        max_margin_perceptron(GOOD_X, [1, -1], 0)
    with pytest.raises(ValueError, match="X must be finite; got inf"):
        max_margin_perceptron([[np.inf, 0.0]], [1], 3)
    with pytest.raises(ValueError, match="w must be non-zero"):
        margin(GOOD_X, [1, -1], [0.0, 0.0])
    with pytest.raises(ValueError, match="w must have length 2; got length 3"):
        margin(GOOD_X, [1, -1], [1.0, 0.0, 0.0])
    for gamma in (0.0, 1.0, -0.1, 1.5, float("nan")):
        with pytest.raises(ValueError, match="gamma must be"):
            planted_margin_data(10, 2, gamma, seed=0)
    with pytest.raises(ValueError, match="n must be an integer >= 1; got 0"):
        planted_margin_data(0, 2, 0.1, seed=0)
    with pytest.raises(ValueError, match="seed must be"):
        planted_margin_data(5, 2, 0.1, seed=-1)
