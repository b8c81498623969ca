"""Tests of the discrepancy-halving ε-samples and the exact halfplane sweep."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import mlgeom.primer as P


def _brute_deviation(X: np.ndarray, S: np.ndarray) -> float:
    """Loop reference: every line through two points, each of the 4 subsets of {p, q} added."""
    n = len(X)
    w = 1.0 / n - np.bincount(S, minlength=n) / len(S)
    best = 0.0
    for i, j in itertools.permutations(range(n), 2):
        d = X[j] - X[i]
        left = 0.0
        for k in range(n):
            if k in (i, j):
                continue
            v = X[k] - X[i]
            if d[0] * v[1] - d[1] * v[0] > 0:
                left += w[k]
        for a, b in itertools.product((0, 1), repeat=2):
            best = max(best, abs(left + a * w[i] + b * w[j]))
    return best


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_sweep_matches_loop_reference_and_exact_scan(seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(12, 2))
    sweep = P.HalfplaneSweep(X)
    for m in (1, 3, 6, 11):
        S = rng.choice(12, m, replace=False)
        got = sweep.deviation(S)
        assert got == pytest.approx(_brute_deviation(X, S), abs=1e-12)
        assert got == pytest.approx(P.halfplane_discrepancy(X, X[S], exact=True), abs=1e-12)
    # a multiset: repeated indices count with multiplicity
    S = np.array([0, 0, 5])
    assert sweep.deviation(S) == pytest.approx(_brute_deviation(X, S), abs=1e-12)


def _brute_net_gap(X: np.ndarray, S: np.ndarray) -> float:
    """Loop reference: the largest halfplane (line through two points) holding no point of S."""
    n = len(X)
    in_s = np.zeros(n, dtype=bool)
    in_s[S] = True
    best = 0
    for i, j in itertools.permutations(range(n), 2):
        d = X[j] - X[i]
        left = [
            k
            for k in range(n)
            if k not in (i, j) and d[0] * (X[k, 1] - X[i, 1]) - d[1] * (X[k, 0] - X[i, 0]) > 0
        ]
        if in_s[left].any():
            continue
        best = max(best, len(left) + (not in_s[i]) + (not in_s[j]))
    return best / n


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_net_gap_matches_loop_reference_and_exact_scan(seed):
    rng = np.random.default_rng(10 + seed)
    X = rng.normal(size=(13, 2))
    sweep = P.HalfplaneSweep(X)
    for m in (1, 2, 4, 9):
        S = rng.choice(13, m, replace=False)
        got = sweep.net_gap(S)
        assert got == pytest.approx(_brute_net_gap(X, S), abs=1e-12)
        assert got == pytest.approx(P.halfplane_net_gap(X, X[S], exact=True), abs=1e-12)
    assert sweep.net_gap(np.arange(13)) == 0.0  # every halfplane holding a point holds S


def test_net_gap_hand_cases():
    # a convex quadrilateral: a halfplane missing one corner can hold the other three
    sweep = P.HalfplaneSweep([[0, 0], [1, 0], [0, 1], [1, 1.1]])
    assert sweep.net_gap([0]) == pytest.approx(0.75)
    # two opposite corners: a halfplane missing both holds at most one other corner
    assert sweep.net_gap([0, 3]) == pytest.approx(0.25)
    with pytest.raises(ValueError, match="index X"):
        sweep.net_gap([4])


def test_sweep_orders_nearly_collinear_points_exactly():
    # r lies 5e-13 rad off the line pq, below COLLINEAR_TOL of the first version (1e-12) but
    # far above the angles' rounding error (a few 1e-15): the sweep must order it as the loop
    # reference's cross products do, on both sides of the line
    rng = np.random.default_rng(7)
    base = rng.normal(size=(9, 2))
    p, q = base[0], base[1]
    d = q - p
    normal = np.array([-d[1], d[0]]) / np.linalg.norm(d)
    for sign in (1.0, -1.0):
        r = p + 0.4 * d + sign * 5e-13 * 0.4 * np.linalg.norm(d) * normal
        X = np.vstack([base, r])
        sweep = P.HalfplaneSweep(X)
        for S in ([9], [0, 9], [2, 5, 9], [1, 3]):
            S = np.array(S)
            assert sweep.deviation(S) == pytest.approx(_brute_deviation(X, S), abs=1e-12)
            assert sweep.net_gap(S) == pytest.approx(_brute_net_gap(X, S), abs=1e-12)


def test_sweep_hand_cases():
    sweep = P.HalfplaneSweep([[0, 0], [1, 0], [0, 1], [1, 1.1]])
    assert sweep.deviation([0]) == pytest.approx(0.75)  # a halfplane around (0, 0) alone
    assert sweep.deviation([0, 1, 2, 3]) == 0.0
    # S = two opposite corners of a convex quadrilateral: no halfplane holds both of them and
    # neither of the others (the diagonals cross), so the worst range is one point: 1/4 vs 1/2
    assert sweep.deviation([0, 3]) == pytest.approx(0.25)


def test_sweep_refuses_degenerate_sets_and_bad_samples():
    with pytest.raises(ValueError, match="collinear"):
        P.HalfplaneSweep([[0, 0], [1, 1], [2, 2], [0, 1]])
    with pytest.raises(ValueError, match="distinct"):
        P.HalfplaneSweep([[0, 0], [0, 0], [1, 0]])
    sweep = P.HalfplaneSweep([[0, 0], [1, 0], [0, 1]])
    with pytest.raises(ValueError, match="index X"):
        sweep.deviation([3])
    with pytest.raises(ValueError, match="non-empty"):
        sweep.deviation([])
    with pytest.raises(ValueError, match="non-empty"):
        sweep.deviation([0.5])


def test_hilbert_order_is_a_continuous_curve_on_a_grid():
    g = np.array([(x, y) for x in range(8) for y in range(8)], dtype=float)
    order = P.hilbert_order(g, bits=3)
    assert sorted(order.tolist()) == list(range(64))
    steps = np.abs(np.diff(g[order], axis=0)).sum(axis=1)
    assert np.all(steps == 1)  # consecutive cells of a Hilbert curve are neighbours
    assert P.hilbert_order([[2.0, 2.0]]).tolist() == [0]


def test_halving_sample_nested_and_one_of_each_pair():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(64, 2))
    order = P.hilbert_order(X)
    half = P.halving_sample(X, 32, 7)
    pairs = order.reshape(-1, 2)
    assert all(np.isin(p, half).sum() == 1 for p in pairs)
    small = P.halving_sample(X, 8, 7)
    assert set(small) <= set(half)  # the same seed continues the same coins
    assert np.array_equal(P.halving_sample(X, 64, 7), np.arange(64))


def test_halving_sample_bad_inputs():
    X = np.random.default_rng(0).normal(size=(12, 2))
    with pytest.raises(ValueError, match="size \\* 2\\*\\*r"):
        P.halving_sample(X, 5, 0)
    with pytest.raises(ValueError, match="size \\* 2\\*\\*r"):
        P.halving_sample(X, 4, 0)  # 12 / 4 = 3 is not a power of 2
    with pytest.raises(ValueError, match="size"):
        P.halving_sample(X, 0, 0)
    with pytest.raises(ValueError, match="bits"):
        P.hilbert_order(X, bits=31)


def test_halving_sweep_shapes_and_determinism():
    X = np.random.default_rng(4).normal(size=(64, 2))
    a = P.halving_sweep(X, [8, 16], 2, compare_size=16, seed=1)
    b = P.halving_sweep(X, [8, 16], 2, compare_size=16, seed=1)
    assert a.halving.shape == a.random.shape == (2, 2) and a.random2.shape == (2,)
    assert np.array_equal(a.halving, b.halving) and np.array_equal(a.random2, b.random2)
    assert np.all((a.halving > 0) & (a.halving <= 1))
    with pytest.raises(ValueError, match="compare_size"):
        P.halving_sweep(X, [8, 16], 2, compare_size=32, seed=1)
