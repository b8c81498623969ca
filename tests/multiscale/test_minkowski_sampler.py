"""The uniform-law sampler of ``K + zB_d`` (``ContextualSearch(sampler="minkowski")``)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.optimize import minimize

from mlgeom import multiscale as L
from mlgeom.multiscale.contextual_search import (
    _cone_projection,
    _knowledge_polygons,
    _project_ball_cone,
    _uniform_polygon,
)
from mlgeom.multiscale.sweeps import mixed_margin_stream
from tests.multiscale._knowledge import assert_sides_match_the_exact_law, knowledge_set


def _random_cone(rng, d, m):
    """``m`` cuts through the origin that all keep a random direction (non-empty interior)."""
    A = rng.standard_normal((m, d))
    u = rng.standard_normal(d)
    return A * np.where(A @ u > 0, -1.0, 1.0)[:, None]


def _qp_distance(A, y, radius=1.0):
    """``dist(y, rB_d ∩ {Av <= 0})`` by a generic QP solver (SLSQP), the brute-force reference."""
    res = minimize(
        lambda v: 0.5 * np.sum((v - y) ** 2),
        np.zeros(len(y)),
        jac=lambda v: v - y,
        constraints=[
            {"type": "ineq", "fun": lambda v: -A @ v, "jac": lambda v: -A},
            {"type": "ineq", "fun": lambda v: radius**2 - v @ v, "jac": lambda v: -2 * v},
        ],
        method="SLSQP",
        options={"ftol": 1e-14, "maxiter": 500},
    )
    return float(np.linalg.norm(res.x - y))


@pytest.mark.parametrize("d", [2, 3, 4])
def test_projection_is_cone_projection_then_radial_scaling(d):
    # Π_{B ∩ C}(y) = Π_C(y)·min(1, 1/‖Π_C(y)‖), checked against a generic QP solver
    rng = np.random.default_rng(d)
    for _ in range(25):
        A = _random_cone(rng, d, int(rng.integers(1, 6)))
        Y = 1.5 * rng.standard_normal((4, d))
        for radius in (1.0, 0.7):
            P = L.project_ball_cone(A, Y, radius)
            assert np.all(np.linalg.norm(P, axis=1) <= radius * (1 + 1e-12))
            assert np.all(P @ A.T <= 1e-12)
            for y, p in zip(Y, P, strict=True):
                assert np.linalg.norm(y - p) == pytest.approx(_qp_distance(A, y, radius), abs=1e-6)


def test_shortcuts_agree_with_nnls():
    # the exact shortcuts (y ∈ C; one cut's hyperplane) give NNLS's projection
    rng = np.random.default_rng(0)
    for d in (2, 3, 5):
        A = _random_cone(rng, d, 4)
        Y = rng.standard_normal((200, d))
        P, n_nnls = _project_ball_cone(A, Y, 1.0)
        assert n_nnls < len(Y)  # the shortcuts resolved some points
        for y, p in zip(Y, P, strict=True):
            c = _cone_projection(A, y)
            ref = c * min(1.0, 1.0 / max(np.linalg.norm(c), 1e-300))
            np.testing.assert_allclose(p, ref, atol=1e-10)


def test_hand_cases():
    # K = upper half-disk: (2, -1) projects to (1, 0); (0, 2) to (0, 1); (0, -3) to (0, 0)
    P = L.project_ball_cone([[0.0, -1.0]], [[2.0, -1.0], [0.0, 2.0], [0.0, -3.0]])
    np.testing.assert_allclose(P, [[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]], atol=1e-15)
    # no cuts: radial scaling only; a single point keeps its shape
    np.testing.assert_allclose(L.project_ball_cone(np.zeros((0, 2)), [3.0, 4.0]), [0.6, 0.8])


@pytest.mark.parametrize("d", [2, 3])
def test_points_stay_in_the_minkowski_sum(d):
    rng = np.random.default_rng(10 + d)
    A = _random_cone(rng, d, 3)
    K = knowledge_set(A, 300, 1)
    z = 0.03
    Y0 = K.particles + z * L.uniform_ball(300, d, rng)
    Y = K.minkowski_hit_and_run(Y0, z, 10, rng)
    assert not np.allclose(Y, Y0)
    for y in Y[:40]:  # brute-force distance to K
        assert _qp_distance(A, y) <= z + 1e-6
    assert K.n_sum_steps == 10 * 300 and K.n_sum_tests >= K.n_sum_steps


def test_coinciding_points_and_zero_radius():
    # all points at one place of K, z = 0: the chain still moves inside K (uniform directions)
    K = knowledge_set(np.array([[0.0, -1.0]]), 8, 0)
    Y = K.minkowski_hit_and_run(np.tile([0.2, 0.3], (8, 1)), 0.0, 3, np.random.default_rng(1))
    assert K.contains(Y).all() and len(np.unique(Y.round(12), axis=0)) > 1


def _split_z_scores(Y, A, z, rng, n_planes=12):
    """Standardised errors of the fractions of ``Y`` on random sides, against exact areas."""
    out = []
    for _ in range(n_planes):
        q = rng.standard_normal(2)
        q /= np.linalg.norm(q)
        g = float(np.quantile(Y @ q, rng.uniform(0.1, 0.9)))
        side, total = L.minkowski_halfplane_area(A, np.zeros(len(A)), q, g, z)
        f = side / total
        out.append((np.mean(Y @ q >= g) - f) / math.sqrt(f * (1 - f) / len(Y)))
    return np.array(out)


@pytest.mark.parametrize(
    ("angle", "z"), [(0.05, 0.02), (0.6, 0.05), (2.0, 0.1)], ids=["thin", "medium", "wide"]
)
def test_area_fractions_match_exact_areas_d2(angle, z):
    # 2000 independent chains, 30 steps from particle + z·ball noise: the fraction of points on
    # random sides of K + zB_2 matches the exact area fraction within Monte Carlo error; the
    # convolution law (the starting points) does not for the thin and medium wedges
    rng = np.random.default_rng(2024)
    A = np.array([[-math.sin(angle / 2), -math.cos(angle / 2)]])
    A = np.vstack([A, A * [1.0, -1.0]])  # the wedge |φ| <= angle/2 around +x
    K = knowledge_set(A, 2000, 5, warm=0)
    Kpoly, _ = _knowledge_polygons(A, np.zeros(2), z, 1.0, 2048)
    K.particles = _uniform_polygon(Kpoly, 2000, rng)  # exact uniform points of K
    Y0 = K.particles + z * L.uniform_ball(2000, 2, rng)
    Y = K.minkowski_hit_and_run(Y0, z, 30, rng)
    zs = _split_z_scores(Y, A, z, np.random.default_rng(7))
    assert np.abs(zs).max() < 4, zs
    if angle < 1:
        assert np.abs(_split_z_scores(Y0, A, z, np.random.default_rng(7))).max() > 4


def test_d3_against_exact_rejection_samples():
    # d = 3 has no exact volume of K + zB_3 in the package; uniform points of (1 + z)B_3 kept
    # when dist(y, K) <= z are exact uniform points of K + zB_3: compare side fractions
    rng = np.random.default_rng(3)
    A = _random_cone(rng, 3, 3)
    z = 0.08
    K = knowledge_set(A, 1500, 2)
    Y = K.minkowski_hit_and_run(K.particles + z * L.uniform_ball(1500, 3, rng), z, 30, rng)
    assert_sides_match_the_exact_law(Y, A, z, rng)


def _run(d, seed, T, **kw):
    rng = np.random.default_rng(seed)
    w, Q = mixed_margin_stream(T, d, rng)
    h = L.HyperplaneLearner(d, seed=rng, **kw)
    g = []
    for q in Q:
        a = h.assess(q)
        g.append(a["guess"])
        h.learn(q, 1 if q @ w >= 0 else 2, a["label"])
    return np.array(g), h


def test_default_sampler_unchanged():
    # fingerprint of a short d = 2 run, computed before the option existed (2f00ab9) without
    # CPU pins; compared to 9 digits, as the last bits depend on the CPU's numpy kernels (AVX2
    # or AVX-512; a d = 3 run already takes another path on some rounds)
    def close(x):
        return pytest.approx(x, rel=1e-9)

    g2, h2 = _run(2, 9, 150)
    assert h2.n_updates == 3
    assert (float(g2.sum()), h2.cs.phi) == (close(2.1213045063980944), close(2.9282908450021488))
    assert float(h2.cs.K.particles.sum()) == close(-82.19552304845678)
    _, h3 = _run(3, 10, 60, sampler="convolution")
    assert h3.cs.K.n_sum_steps == h3.cs.K.n_sum_tests == 0 and h3.cs._sum_rng is None


def test_default_guess_is_the_convolution_median_to_the_last_bit():
    # the default guess is exactly median(<particle + z_i·noise, x>), as before the option
    cs = L.ContextualSearch(2, seed=3)
    rng = np.random.default_rng(4)
    for _ in range(30):
        x = rng.standard_normal(2)
        lo, hi = L.cone_extent(cs.K.A, x)
        if lo < 0 < hi:
            g, w, i = cs.guess(x, hi - lo)
            z = float(L.z_scale(min(i, 1000), 2))
            assert g == float(np.median((cs.K.particles + z * cs._noise) @ x))
            cs.update(-x if rng.random() < 0.5 else x, 0.0)


def test_minkowski_sampler_is_deterministic_and_counts_its_work():
    g1, h1 = _run(2, 4, 40, sampler="minkowski", sum_steps=3)
    g2, h2 = _run(2, 4, 40, sampler="minkowski", sum_steps=3)
    np.testing.assert_array_equal(g1, g2)
    K = h1.cs.K
    assert K.n_sum_steps == 3 * K.n_particles * h1.cs.n_guesses > 0
    assert K.n_sum_tests >= K.n_sum_steps and 0 <= K.n_nnls <= K.n_sum_tests
    g0, _ = _run(2, 4, 40)  # same stream, other law: other guesses
    assert not np.array_equal(g0, g1)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: L.ContextualSearch(2, sampler="uniform"), "sampler"),
        (lambda: L.ContextualSearch(2, sum_steps=-1), "sum_steps"),
        (lambda: L.ContextualSearch(2, sampler="minkowski").update([1.0, 0.0], 0.5), "b=0.5"),
        (lambda: L.project_ball_cone([[1.0, 0.0, 0.0]], [[1.0, 0.0]]), "A"),
        (lambda: L.project_ball_cone([[1.0, 0.0]], [[1.0, 0.0]], radius=0.0), "radius"),
    ],
)
def test_bad_inputs(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_minkowski_hit_and_run_refuses_offset_cuts_and_bad_points():
    K = L.BallKnowledgeSet(2, n_particles=4, seed=0)
    K.cut([1.0, 0.0], 0.25)
    with pytest.raises(ValueError, match=r"b = \[0.25\]"):
        K.minkowski_hit_and_run(K.particles, 0.1, 1)
    K = L.BallKnowledgeSet(2, n_particles=4, seed=0)
    with pytest.raises(ValueError, match="Y"):
        K.minkowski_hit_and_run(np.zeros((3, 3)), 0.1, 1)
    with pytest.raises(ValueError, match="z"):
        K.minkowski_hit_and_run(K.particles, -0.1, 1)
