"""Tests of the permutahedron structure (Appendix C.1, Proposition C.1)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import mlgeom.fenchel_young as FY


def _in_permutahedron(y: np.ndarray, tol: float = 1e-9) -> bool:
    d = y.size
    w = np.arange(d, 0, -1, dtype=float)
    gap = np.cumsum(w) - np.cumsum(np.sort(y)[::-1])
    return bool(gap.min() >= -tol and abs(gap[-1]) <= tol)


@pytest.mark.parametrize("d", [2, 3, 4, 5])
def test_projection_is_certified_by_every_vertex(d):
    # y is the projection of z iff y is in P and <z - y, v - y> <= 0 for every vertex v
    rng = np.random.default_rng(d)
    V = FY.Permutahedron(d).outputs()
    for _ in range(100):
        z = 10 ** rng.uniform(-1, 1.5) * rng.standard_normal(d)
        y = FY.project_permutahedron(z)
        assert _in_permutahedron(y)
        assert np.max((V - y) @ (z - y)) <= 1e-9


def test_projection_hand_cases():
    w = np.array([3.0, 2.0, 1.0])
    np.testing.assert_allclose(FY.project_permutahedron(w), w)
    np.testing.assert_allclose(FY.project_permutahedron(np.zeros(3)), [2.0, 2.0, 2.0])
    # far along a vertex direction the projection is that vertex
    np.testing.assert_allclose(FY.project_permutahedron([0.0, 100.0, -100.0]), [2.0, 3.0, 1.0])
    # shifting z along 1 does not move the projection (P lies in a hyperplane with normal 1)
    z = np.array([0.3, -1.2, 2.0, 0.1])
    np.testing.assert_allclose(FY.project_permutahedron(z + 7.0), FY.project_permutahedron(z))
    # vectorised over leading axes
    Z = np.random.default_rng(0).standard_normal((3, 2, 4))
    out = FY.project_permutahedron(Z)
    np.testing.assert_allclose(out[1, 0], FY.project_permutahedron(Z[1, 0]))


@pytest.mark.parametrize("bad", [[np.nan, 1.0], [], 3.0, "ab"])
def test_projection_bad_inputs(bad):
    with pytest.raises(ValueError, match="z must"):
        FY.project_permutahedron(bad)


@pytest.mark.parametrize("d", [2, 3, 4, 5, 6])
def test_nearest_vertex_matches_brute_force(d):
    assert FY.proposition_c1_gap(d, 60, seed=d) <= 1e-12


def test_nearest_vertex_and_oracle_hand_cases():
    s = FY.Permutahedron(4)
    np.testing.assert_array_equal(s.nearest_extreme_point([0.5, 4.0, 2.0, 3.5]), [1, 4, 2, 3])
    c = np.array([0.2, -1.0, 3.0, 0.0])
    y = s.linear_oracle(c)
    brute = min(s.outputs(), key=lambda v: float(v @ c))
    np.testing.assert_array_equal(y, brute)


@pytest.mark.parametrize("d", [2, 3, 5])
def test_decomposition_reproduces_the_point(d):
    rng = np.random.default_rng(10 + d)
    for _ in range(50):
        y = FY.project_permutahedron(rng.standard_normal(d) * 2)
        w, V = FY.permutahedron_decomposition(y)
        assert np.all(w >= 0) and abs(w.sum() - 1) < 1e-12
        np.testing.assert_allclose(w @ V, y, atol=1e-9)
        s = FY.Permutahedron(d)
        assert np.all(s._is_output(V))
    # a vertex decomposes into itself
    w, V = FY.permutahedron_decomposition([1.0, 3.0, 2.0])
    np.testing.assert_allclose(w, [1.0])
    np.testing.assert_array_equal(V, [[1.0, 3.0, 2.0]])
    # the midpoint of an edge: two vertices, weight 1/2 each
    w, V = FY.permutahedron_decomposition([2.5, 2.5, 1.0])
    assert sorted(map(tuple, V)) == [(2.0, 3.0, 1.0), (3.0, 2.0, 1.0)]
    np.testing.assert_allclose(w, [0.5, 0.5])


@pytest.mark.parametrize("bad", [[3.0, 3.0, 0.0], [1.0, 1.0, 1.0], [np.nan, 2.0, 1.0]])
def test_decomposition_refuses_points_outside(bad):
    with pytest.raises(ValueError, match="y must"):
        FY.permutahedron_decomposition(bad)


def test_decoding_law_is_exact():
    assert FY.decomposition_error(FY.Permutahedron(4), 30, seed=0) <= 1e-9
    with pytest.raises(ValueError, match="Permutahedron"):
        FY.decomposition_error(FY.Multilabel(3), 2, seed=0)


def test_target_loss_and_constants():
    s = FY.Permutahedron(3)
    w = np.array([3.0, 2.0, 1.0])
    assert s.target_loss(w, w) == 0.0
    assert s.target_loss(w[::-1], w) == pytest.approx(1.0)  # the least aligned output, M = 4
    assert s.M == 4.0 and s.nu == pytest.approx(np.sqrt(2))
    # loop reference of L over all pairs of outputs: in [0, 1], affine, |y| / M = 6 gamma_printed
    for d in (3, 4, 5):
        s = FY.Permutahedron(d)
        Y = s.outputs()
        L = np.array([[float(s.target_loss(a, b)) for b in Y] for a in Y])
        assert L.min() >= 0 and L.max() == pytest.approx(1.0)
        assert np.linalg.norm(Y[0]) / s.M == pytest.approx(6 * s.gamma_printed)
        assert s.gamma == pytest.approx(np.sqrt(3 / (d * (d * d - 1))))
    # nu: the smallest distance between two outputs is sqrt 2
    Y = FY.Permutahedron(4).outputs()
    dists = [np.linalg.norm(a - b) for a, b in itertools.combinations(Y, 2)]
    assert min(dists) == pytest.approx(np.sqrt(2))
    assert FY.Permutahedron(4).diameter == pytest.approx(max(dists))


def test_smallest_gamma_is_valid_and_tight_and_printed_is_not():
    for d in (3, 5):
        s = FY.Permutahedron(d)
        r, yp = FY.lipschitz_search(d, s.gamma, 2, max_evals=300, seed=0)
        assert r == pytest.approx(1.0, abs=1e-9)
        # the ratio is constant on the segment from w to the centroid: yp lies on it
        w = np.arange(d, 0, -1.0)
        u, v = w - yp, w - (d + 1) / 2
        assert abs(u @ v) == pytest.approx(np.linalg.norm(u) * np.linalg.norm(v), rel=1e-5)
        r_printed, _ = FY.lipschitz_search(d, s.gamma_printed, 0, max_evals=50, seed=0)
        assert r_printed == pytest.approx(np.sqrt(18 * (d - 1) / (2 * d + 1)))
    # random points of the polytope never exceed the smallest gamma
    s = FY.Permutahedron(4)
    rng = np.random.default_rng(1)
    w = np.arange(4, 0, -1.0)
    for _ in range(200):
        yp = FY.project_permutahedron(rng.standard_normal(4) * 3)
        assert s.target_loss(yp, w) <= s.gamma * np.linalg.norm(w - yp) + 1e-12


def test_loss_and_decoding_integration():
    s = FY.Permutahedron(4, strength=2.0)
    rng = np.random.default_rng(3)
    y = s.random_outputs(rng, 5)
    assert np.all(s._is_output(y))
    theta = rng.standard_normal((5, 4))
    assert np.all(s.loss(theta, y) >= 0)
    # zero loss when theta/s - y is in the normal cone at y (same order, gaps >= 1)
    assert float(s.loss(2.0 * 3 * y[0], y[0])) == pytest.approx(0.0, abs=1e-12)
    # the SparseMAP identity for s = 1: S = 1/2|y - theta|^2 - 1/2|yhat - theta|^2
    s1 = FY.Permutahedron(4)
    th = rng.standard_normal(4) * 2
    yh = s1.predict(th)
    ref = 0.5 * np.sum((y[0] - th) ** 2) - 0.5 * np.sum((yh - th) ** 2)
    assert float(s1.loss(th, y[0])) == pytest.approx(ref)
    dec = FY.randomized_decoding(s1, th)
    for u in (0.0, 0.3, 0.99):
        out = FY.decode(s1, dec, [u, 0.5])
        assert s1._is_output(out)
    assert s.a == pytest.approx(1 - 4 * s.gamma / (2.0 * np.sqrt(2)))


def test_bad_inputs():
    with pytest.raises(ValueError, match="d"):
        FY.Permutahedron(1)
    with pytest.raises(ValueError, match="strength"):
        FY.Permutahedron(3, strength=0.0)
    with pytest.raises(ValueError, match="refusing"):
        FY.Permutahedron(9).outputs()
    with pytest.raises(ValueError, match="Y"):
        FY.Permutahedron(3).target_loss([2.0, 2.0, 2.0], [3.0, 3.0, 1.0])
    with pytest.raises(ValueError, match="gamma"):
        FY.lipschitz_search(3, -1.0)
