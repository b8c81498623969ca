"""The printed law of Algorithm 1 (issue 32): exact median in d = 2, state-derived pools beyond."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.optimize import brentq

from mlgeom.multiscale import (
    ContextualSearch,
    halfplane_area_2d,
    irredundant_cuts,
    median_2d,
    minkowski_halfplane_area,
    project_ball_cone,
    split_fraction_mc,
    steiner_area,
    sum_boundary_2d,
)
from mlgeom.multiscale.contextual_search import _cone_projection
from mlgeom.multiscale.partition_learners import HyperplaneLearner


def _cuts_around(rng, w, m):
    A = rng.standard_normal((m, len(w)))
    A[(A @ w) > 0] *= -1  # every cut keeps w
    return A


def test_half_disk_by_hand():
    # K = upper half disk; z = 0: the side y >= 0 of the half disk along (1, 0) is a quarter disk
    B = sum_boundary_2d([[0.0, -1.0]], [0.0], 0.0)
    side, total = halfplane_area_2d(B, [1.0, 0.0], 0.0)
    assert total == pytest.approx(math.pi / 2, rel=1e-14)
    assert side == pytest.approx(math.pi / 4, rel=1e-14)
    # median along (0, 1): the circular segment above g holds pi/4, acos(g) - g sqrt(1 - g^2)
    g_ref = brentq(lambda g: math.acos(g) - g * math.sqrt(1 - g * g) - math.pi / 4, 0, 1)
    assert median_2d(B, [0.0, 2.0]) == pytest.approx(2 * g_ref, rel=1e-12)  # units of <v, q>


@pytest.mark.parametrize("seed", range(12))
def test_areas_match_polygons_and_steiner(seed):
    rng = np.random.default_rng(seed)
    w = rng.standard_normal(2)
    m = int(rng.integers(0, 5))
    A = _cuts_around(rng, w, m)
    b = np.zeros(m) if seed % 2 else rng.random(m) * 0.3
    z = 10 ** rng.uniform(-3, -0.5)
    q, g = rng.standard_normal(2), 0.3 * rng.standard_normal()
    B = sum_boundary_2d(A, b, z)
    side, total = halfplane_area_2d(B, q, g)
    side_ref, total_ref = minkowski_halfplane_area(A, b, q, g, z, n_vertices=8192)
    assert total == pytest.approx(steiner_area(A, b, z), rel=1e-12)
    assert side == pytest.approx(side_ref, abs=2e-7 * total_ref)
    g_med = median_2d(B, q)
    assert halfplane_area_2d(B, q, g_med)[0] / total == pytest.approx(0.5, abs=1e-12)


def test_full_disk_and_empty():
    B = sum_boundary_2d(np.zeros((0, 2)), [], 0.25)
    assert halfplane_area_2d(B, [0.0, 1.0], -5.0)[1] == pytest.approx(math.pi * 1.25**2)
    assert median_2d(B, [1.0, 1.0]) == pytest.approx(0.0, abs=1e-12)
    assert sum_boundary_2d([[1.0, 0.0]], [-2.0], 0.1) == []  # the cut leaves nothing


def test_bad_input():
    B = sum_boundary_2d([[0.0, -1.0]], [0.0], 0.1)
    with pytest.raises(ValueError, match="q"):
        median_2d(B, [0.0, 0.0])
    with pytest.raises(ValueError, match="boundary"):
        median_2d([], [1.0, 0.0])
    with pytest.raises(ValueError, match="z"):
        sum_boundary_2d([[0.0, -1.0]], [0.0], -0.1)


@pytest.mark.parametrize("d", [2, 3])
def test_printed_guess_is_a_function_of_state_and_query(d):
    rng = np.random.default_rng(3)
    w = rng.standard_normal(d)
    w /= np.linalg.norm(w)
    h = HyperplaneLearner(d, seed=5, sampler="printed")
    for q in rng.standard_normal((6, d)):  # a few cuts
        y = 1 if q @ w >= 0 else 2
        a = h.assess(q)
        h.learn(q, y, a["label"])
    Q = rng.standard_normal((4, d))
    first = [h.assess(q)["guess"] for q in Q]
    again = [h.assess(q)["guess"] for q in Q[::-1]][::-1]  # other order, other queries between
    assert first == again
    # the same seed and history give the same guesses in a fresh learner
    h2 = HyperplaneLearner(d, seed=5, sampler="printed")
    rng = np.random.default_rng(3)
    rng.standard_normal(d)
    for q in rng.standard_normal((6, d)):
        y = 1 if q @ w >= 0 else 2
        a = h2.assess(q)
        h2.learn(q, y, a["label"])
    assert [h2.assess(q)["guess"] for q in Q] == first


def test_printed_particles_match_other_samplers():
    # the printed law draws its key from a spawned stream: the particles are the default's
    a = ContextualSearch(3, seed=7)
    b = ContextualSearch(3, seed=7, sampler="printed")
    np.testing.assert_array_equal(a.K.particles, b.K.particles)


def test_printed_d2_guess_is_exact_median():
    cs = ContextualSearch(2, seed=1, sampler="printed")
    cs.update([0.0, -1.0])
    cs.update([-1.0, 0.2])
    x = np.array([0.4, 1.0])
    g, w, i = cs.guess(x)
    z = 2.0 ** (-min(i, 1000)) / 16
    side, total = minkowski_halfplane_area(cs.K.A, np.zeros(2), x, g, z, n_vertices=8192)
    assert side / total == pytest.approx(0.5, abs=1e-6)


def test_split_fraction_mc_half_ball():
    # K = lower half ball of B_3, z = 0: by symmetry half of it lies on each side of x_1 = 0
    f, kept = split_fraction_mc([[0.0, 0.0, 1.0]], [1.0, 0.0, 0.0], 0.0, 0.0, 40_000, seed=0)
    assert kept > 10_000
    assert f == pytest.approx(0.5, abs=4 * 0.5 / math.sqrt(kept))
    with pytest.raises(ValueError, match="n"):
        split_fraction_mc([[0.0, 0.0, 1.0]], [1.0, 0.0, 0.0], 0.0, 0.0, 0)


def test_irredundant_cuts_and_pair_projection():
    rng = np.random.default_rng(2)
    w = rng.standard_normal(4)
    A = _cuts_around(rng, w, 12)
    A = np.vstack([A, 2 * A[0]])  # a repeated cut is redundant
    keep = irredundant_cuts(A)
    assert len(keep) < len(A)
    Y = rng.standard_normal((300, 4))
    P_all = project_ball_cone(A, Y)
    np.testing.assert_allclose(project_ball_cone(keep, Y), P_all, atol=1e-12)
    ref = np.array([_cone_projection(A, y) for y in Y])  # loop reference (NNLS)
    n = np.linalg.norm(ref, axis=1)
    ref[n > 1] /= n[n > 1, None]
    np.testing.assert_allclose(P_all, ref, atol=1e-12)
