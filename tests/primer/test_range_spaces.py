"""Tests for mlgeom.primer.range_spaces: ε-sample deviation and ε-net gap for halfplanes."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlgeom.primer.range_spaces import EXACT_MAX_POINTS, halfplane_discrepancy, halfplane_net_gap


def halfplane_subsets(P):
    """Every subset of the distinct points ``P`` cut out by a (closed or open) halfplane.

    Brute force in exact rational arithmetic: a non-trivial halfplane cut can be moved until
    its boundary passes through two points p, q; the cut is then the points strictly on one
    side plus a prefix or a suffix of the points on the line pq (ordered along it), which
    covers the closed (whole line), open (none of it) and rotated variants.
    """
    P = [(Fraction(float(a)), Fraction(float(b))) for a, b in P]
    m = len(P)
    sets = {frozenset(), frozenset(range(m))}
    for i in range(m):
        for j in range(i + 1, m):
            dx, dy = P[j][0] - P[i][0], P[j][1] - P[i][1]
            for sx, sy in ((-dy, dx), (dy, -dx)):  # the two normals of line pq
                h = [(x - P[i][0]) * sx + (y - P[i][1]) * sy for x, y in P]
                above = frozenset(k for k in range(m) if h[k] > 0)
                on = sorted(
                    (k for k in range(m) if h[k] == 0), key=lambda k: P[k][0] * dx + P[k][1] * dy
                )
                for c in range(len(on) + 1):
                    sets.add(above | frozenset(on[:c]))
                    sets.add(above | frozenset(on[c:]))
    return sets


def brute_force(X, S):
    """Return (ε-sample deviation, ε-net gap) of S w.r.t. X by enumerating halfplane cuts."""
    X, S = np.asarray(X, float), np.asarray(S, float)
    pts = sorted({tuple(p) for p in X} | {tuple(p) for p in S})
    cx = [sum(tuple(x) == p for x in X) for p in pts]
    cs = [sum(tuple(s) == p for s in S) for p in pts]
    disc, gap = Fraction(0), Fraction(0)
    for R in halfplane_subsets(pts):
        fx = Fraction(sum(cx[k] for k in R), len(X))
        fs = Fraction(sum(cs[k] for k in R), len(S))
        disc = max(disc, abs(fx - fs))
        if fs == 0:
            gap = max(gap, fx)
    return float(disc), float(gap)


def random_case(seed, n=8, s=3, integer=False):
    rng = np.random.default_rng(seed)
    X = rng.integers(-2, 3, size=(n, 2)).astype(float) if integer else rng.normal(size=(n, 2))
    S = X[rng.choice(n, size=s, replace=False)]
    return X, S


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("integer", [False, True])
def test_exact_equals_brute_force(seed, integer):
    X, S = random_case(seed, integer=integer)
    disc, gap = brute_force(X, S)
    assert halfplane_discrepancy(X, S, exact=True) == pytest.approx(disc, abs=1e-12)
    assert halfplane_net_gap(X, S, exact=True) == pytest.approx(gap, abs=1e-12)


def test_exact_equals_brute_force_sample_not_subset():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(7, 2))
    S = rng.normal(size=(4, 2)) + 0.5
    disc, gap = brute_force(X, S)
    assert halfplane_discrepancy(X, S, exact=True) == pytest.approx(disc, abs=1e-12)
    assert halfplane_net_gap(X, S, exact=True) == pytest.approx(gap, abs=1e-12)


def test_hand_cases():
    square = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
    # {x + y <= 1/2} holds 1/4 of X and all of S.
    assert halfplane_discrepancy(square, [[0.0, 0.0]], exact=True) == 0.75
    # Any 3 corners of the square can be cut off from the fourth.
    assert halfplane_net_gap(square, [[0.0, 0.0]], exact=True) == 0.75
    line = [[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [3.0, 0.0]]
    assert halfplane_net_gap(line, [[1.0, 0.0]], exact=True) == 0.5  # {x > 1}
    assert halfplane_net_gap(line, [[0.0, 0.0], [3.0, 0.0]], exact=True) == 0.0


def test_ties_enter_together():
    # At angle 0 both points of X project to 0: a threshold cannot separate them.
    X = [[0.0, 0.0], [0.0, 1.0]]
    S = [[0.0, 0.0]]
    assert halfplane_discrepancy(X, S, n_directions=1) == 0.0
    assert halfplane_net_gap(X, S, n_directions=1) == 0.0
    assert halfplane_discrepancy(X, S, exact=True) == 0.5
    assert halfplane_net_gap(X, S, exact=True) == 0.5


def test_grid_is_lower_bound_and_converges():
    for seed in range(5):
        X, S = random_case(100 + seed, n=10, s=4)
        d_exact = halfplane_discrepancy(X, S, exact=True)
        g_exact = halfplane_net_gap(X, S, exact=True)
        d_prev = g_prev = 0.0
        for n_dir in (4, 16, 64, 256, 1024, 4096, 1 << 15):  # nested grids
            d = halfplane_discrepancy(X, S, n_directions=n_dir)
            g = halfplane_net_gap(X, S, n_directions=n_dir)
            assert d_prev <= d <= d_exact + 1e-12
            assert g_prev <= g <= g_exact + 1e-12
            d_prev, g_prev = d, g
        assert d == pytest.approx(d_exact, abs=1e-12)
        assert g == pytest.approx(g_exact, abs=1e-12)


def test_sample_equal_to_ground_set():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 2))
    assert halfplane_discrepancy(X, X) == 0.0
    assert halfplane_discrepancy(X, X, exact=True) == 0.0
    # Every point counted twice is the same distribution.
    assert halfplane_discrepancy(X, np.vstack((X, X[::-1])), exact=True) == 0.0
    # Every halfplane with a point of X contains a point of S = X.
    assert halfplane_net_gap(X, X, exact=True) == 0.0


def test_single_far_point():
    rng = np.random.default_rng(1)
    X = rng.random(size=(25, 2))
    S = [[100.0, 100.0]]
    assert halfplane_net_gap(X, S) == 1.0
    assert halfplane_net_gap(X, S, exact=True) == 1.0
    assert halfplane_discrepancy(X, S) == 1.0
    assert halfplane_discrepancy(X, S, exact=True) == 1.0


def test_inputs_unchanged_and_deterministic():
    X, S = random_case(3)
    X0, S0 = X.copy(), S.copy()
    a = halfplane_discrepancy(X, S, n_directions=77)
    b = halfplane_discrepancy(X, S, n_directions=77)
    assert a == b
    halfplane_net_gap(X, S, exact=True)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(S, S0)


points = st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), min_size=1, max_size=6)


@settings(max_examples=60, deadline=None)
@given(X=points, S=points)
def test_properties_against_brute_force(X, S):
    disc, gap = brute_force(X, S)
    d_exact = halfplane_discrepancy(X, S, exact=True)
    g_exact = halfplane_net_gap(X, S, exact=True)
    assert 0.0 <= d_exact <= 1.0
    assert 0.0 <= g_exact <= 1.0
    assert d_exact == pytest.approx(disc, abs=1e-12)
    assert g_exact == pytest.approx(gap, abs=1e-12)
    d_grid = halfplane_discrepancy(X, S, n_directions=16)
    g_grid = halfplane_net_gap(X, S, n_directions=16)
    assert 0.0 <= d_grid <= d_exact + 1e-12
    assert 0.0 <= g_grid <= g_exact + 1e-12


@pytest.mark.parametrize("func", [halfplane_discrepancy, halfplane_net_gap])
@pytest.mark.parametrize(
    ("X", "S", "kwargs"),
    [
        ([[0.0, 0.0, 0.0]], [[0.0, 0.0]], {}),  # 3-D points
        ([0.0, 1.0], [[0.0, 0.0]], {}),  # 1-D array
        ([[0.0, 0.0]], np.empty((0, 2)), {}),  # empty S
        (np.empty((0, 2)), [[0.0, 0.0]], {}),  # empty X
        ([[0.0, np.nan]], [[0.0, 0.0]], {}),
        ([[0.0, 0.0]], [[np.inf, 0.0]], {}),
        ([[0.0, 0.0]], [[0.0, 0.0]], {"n_directions": 0}),
        ([[0.0, 0.0]], [[0.0, 0.0]], {"n_directions": 2.5}),
        ([[0.0, 0.0]], [[0.0, 0.0]], {"exact": "yes"}),
        (np.zeros((EXACT_MAX_POINTS, 2)), [[0.0, 0.0]], {"exact": True}),
    ],
)
def test_bad_inputs(func, X, S, kwargs):
    with pytest.raises(ValueError):
        func(X, S, **kwargs)


def test_exact_limit_message():
    with pytest.raises(ValueError, match="at most 400 points"):
        halfplane_discrepancy(np.zeros((300, 2)), np.zeros((101, 2)), exact=True)
    # At the limit it is accepted.
    assert halfplane_discrepancy(np.zeros((300, 2)), np.zeros((100, 2)), exact=True) == 0.0


def test_near_duplicate_critical_angles_are_merged_across_the_wrap():
    from mlgeom.primer.range_spaces import _midpoint_angles

    # 1e-12 and pi - 1e-12 are the same direction modulo pi: one cluster, not two.
    mids = _midpoint_angles(np.array([1e-12, 1.0, np.pi - 1e-12]), np.pi)
    np.testing.assert_allclose(mids, [0.5, 1.0 + (np.pi - 1.0) / 2])
    assert _midpoint_angles(np.array([]), np.pi).tolist() == [0.0]
