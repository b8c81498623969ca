"""The compiled hit-and-run on ``K + zB_d`` (:mod:`mlgeom.multiscale.minkowski_kernel`)."""

from __future__ import annotations

import numpy as np
import pytest

from mlgeom import multiscale as L
from mlgeom.multiscale import minkowski_kernel as mk
from mlgeom.multiscale.contextual_search import _project_ball_cone, irredundant_cuts
from tests.multiscale._knowledge import assert_sides_match_the_exact_law, knowledge_set


def _random_cone(rng, d, m):
    A = rng.standard_normal((m, d))
    u = rng.standard_normal(d)
    return A * np.where(A @ u > 0, -1.0, 1.0)[:, None]


@pytest.mark.parametrize("d", [3, 5, 7])
def test_membership_matches_the_reference_projection(d):
    # the active-set projection decides dist(x, K) <= z as the NNLS reference does
    rng = np.random.default_rng(40 + d)
    for _ in range(30):
        A = irredundant_cuts(_random_cone(rng, d, int(rng.integers(1, 15))))
        z = float(10 ** rng.uniform(-3, -0.5))
        X = rng.standard_normal((200, d)) * rng.uniform(0.02, 1.0)
        P, _ = _project_ball_cone(A, X, 1.0)
        dist = np.linalg.norm(X - P, axis=1)
        inside, n_nnls, ok = mk.sum_membership(X, A, 1.0, z)
        assert ok and 0 <= n_nnls <= len(X)
        clear = np.abs(dist / z - 1) > 1e-9  # rounding may decide the boundary either way
        np.testing.assert_array_equal(inside[clear], (dist <= z)[clear])


def test_membership_without_cuts_is_the_larger_ball():
    X = np.array([[1.05, 0.0, 0.0], [0.0, 1.11, 0.0]])
    inside, n_nnls, ok = mk.sum_membership(X, np.zeros((0, 3)), 1.0, 0.1)
    assert ok and n_nnls == 0 and inside.tolist() == [True, False]


def test_compiled_chain_stays_inside_and_is_deterministic():
    rng = np.random.default_rng(5)
    A = _random_cone(rng, 4, 5)
    K = knowledge_set(A, 200, 1)
    z = 0.02
    Y0 = K.particles + z * L.uniform_ball(200, 4, rng)
    Y1 = K.minkowski_hit_and_run(Y0, z, 9, np.random.default_rng(8), engine="compiled")
    Y2 = K.minkowski_hit_and_run(Y0, z, 9, np.random.default_rng(8), engine="compiled")
    np.testing.assert_array_equal(Y1, Y2)  # a function of the generator's state
    assert not np.allclose(Y1, Y0)
    P, _ = _project_ball_cone(A, Y1, 1.0)
    assert np.all(np.linalg.norm(Y1 - P, axis=1) <= z * (1 + 1e-9))
    assert K.n_sum_steps == 2 * 9 * 200 and K.n_sum_tests >= 9 * 200


def test_compiled_chain_has_the_reference_law_d3():
    # the compiled and NumPy chains from the same starts: both match exact rejection samples
    # of K + zB_3 on random sides (the test of the reference, test_minkowski_sampler)
    rng = np.random.default_rng(3)
    A = _random_cone(rng, 3, 3)
    z = 0.08
    K = knowledge_set(A, 1500, 2)
    Y0 = K.particles + z * L.uniform_ball(1500, 3, rng)
    Y = K.minkowski_hit_and_run(Y0, z, 30, rng, engine="compiled")
    assert_sides_match_the_exact_law(Y, A, z, rng)


def test_failed_projection_falls_back_to_the_reference(monkeypatch):
    # a kernel that reports a failed solve: the call is redone by the NumPy chain
    rng = np.random.default_rng(6)
    A = _random_cone(rng, 3, 3)
    K = knowledge_set(A, 50, 1)
    Y0 = K.particles + 0.05 * L.uniform_ball(50, 3, rng)
    monkeypatch.setattr(
        "mlgeom.multiscale.contextual_search.pool_hit_and_run", lambda *a, **k: (0, 0, False)
    )
    Y = K.minkowski_hit_and_run(Y0, 0.05, 4, np.random.default_rng(1), engine="compiled")
    ref = K.minkowski_hit_and_run(Y0, 0.05, 4, np.random.default_rng(1))
    np.testing.assert_array_equal(Y, ref)


def test_bad_engine():
    K = L.BallKnowledgeSet(3, n_particles=4, seed=0)
    with pytest.raises(ValueError, match="engine"):
        K.minkowski_hit_and_run(K.particles, 0.1, 1, engine="fortran")


@pytest.mark.parametrize("d", [3, 5])
def test_printed_guess_deterministic_with_the_compiled_chain(d):
    rng = np.random.default_rng(11)
    w = rng.standard_normal(d)
    Q = rng.standard_normal((8, d))
    guesses = []
    for _ in range(2):
        h = L.HyperplaneLearner(d, seed=4, sampler="printed")
        g = []
        for q in Q:
            a = h.assess(q)
            g.append(a["guess"])
            h.learn(q, 1 if q @ w >= 0 else 2, a["label"])
        guesses.append(g)
    assert guesses[0] == guesses[1]


def test_compiled_direction_factor_matches_numpy():
    from mlgeom.multiscale.contextual_search import _direction_factor

    rng = np.random.default_rng(12)
    for d in (2, 3, 5):
        Y = rng.standard_normal((50, d)) @ rng.standard_normal((d, d))
        np.testing.assert_allclose(mk._direction_factor(Y), _direction_factor(Y), rtol=1e-10)
    same = np.ones((7, 4))  # coinciding points: no shape, the identity
    np.testing.assert_array_equal(mk._direction_factor(same), np.eye(4))


def test_pool_chain_is_the_blockwise_chain():
    # one compiled call = blocks of sum_hit_and_run with the factor re-estimated in between
    from mlgeom.multiscale.contextual_search import _direction_factor

    rng = np.random.default_rng(13)
    A = irredundant_cuts(_random_cone(rng, 5, 6))
    K = knowledge_set(A, 64, 3)
    z = 0.03
    Y0 = np.ascontiguousarray(K.particles + z * L.uniform_ball(64, 5, rng))
    Y1 = Y0.copy()
    n1 = mk.pool_hit_and_run(Y1, A, 1.0, z, 10, np.random.default_rng(4), rounding_every=4)
    Y2, g, n2 = Y0.copy(), np.random.default_rng(4), np.zeros(2, dtype=int)
    for k in (4, 4, 2):
        nt, nn, ok = mk.sum_hit_and_run(Y2, _direction_factor(Y2), A, 1.0, z, k, g)
        assert ok
        n2 += (nt, nn)
    assert n1[2]
    # the factors agree to rounding, so (barring a draw on the boundary) the chains coincide
    close = np.all(np.abs(Y1 - Y2) < 1e-9, axis=1)
    assert close.mean() > 0.95
    assert abs(n1[0] - n2[0]) <= 0.05 * n2[0]
    single = Y0[:1].copy()  # one point: identity directions, still a valid chain
    assert mk.pool_hit_and_run(single, A, 1.0, z, 3, np.random.default_rng(0))[2]


def test_active_set_multipliers_match_nnls():
    # the factor kept across Lawson-Hanson iterations (rows appended, rebuilt after drops)
    # gives the NNLS multipliers of min ||v - A^T lam||, lam >= 0
    from scipy.optimize import nnls

    rng = np.random.default_rng(21)
    n_drop = 0
    for _ in range(200):
        d = int(rng.integers(3, 8))
        A = _random_cone(rng, d, int(rng.integers(2, 16)))
        v = rng.standard_normal(d)
        m = len(A)
        G, c = A @ A.T, A @ v
        ws = mk._scratch(m, d)
        lam, passive, barred, w, idx, Lc, yb, s, tolw, _ = ws
        tolw[:] = 1e-12 * np.linalg.norm(A, axis=1) * np.linalg.norm(v)
        ok = mk._cone_multipliers(G, c, tolw, 1000, lam, passive, barred, w, idx, Lc, yb, s)
        assert ok
        ref, _ = nnls(A.T, v)
        np.testing.assert_allclose(A.T @ lam, A.T @ ref, atol=1e-9)
        n_drop += int(np.sum(lam > 0) < np.sum(c > 0))
    assert n_drop > 0  # some problems leave violated cuts inactive


def test_printed_schedule(monkeypatch):
    # new pools 16d, refilled pools 12d, warm pools 2d in d = 5; d = 3 keeps 8d, 8d, 2d
    from mlgeom.multiscale.contextual_search import _resample_steps

    assert [L.printed_steps(d) for d in (3, 5)] == [24, 80]
    assert [_resample_steps(d) for d in (3, 5)] == [24, 60]
    assert L.ContextualSearch(5, sampler="printed").resample_steps == 60
    assert L.ContextualSearch(5, sampler="printed", sum_steps=7).resample_steps == 7
    seen = []
    orig = L.BallKnowledgeSet.minkowski_hit_and_run

    def record(self, Y, z, n_steps, *a, **k):
        seen.append(n_steps)
        return orig(self, Y, z, n_steps, *a, **k)

    monkeypatch.setattr(L.BallKnowledgeSet, "minkowski_hit_and_run", record)
    rng = np.random.default_rng(2)
    w = rng.standard_normal(5)
    h = L.HyperplaneLearner(5, seed=3, sampler="printed")
    for q in rng.standard_normal((40, 5)):
        a = h.assess(q)
        h.learn(q, 1 if q @ w >= 0 else 2, a["label"])
    assert set(seen) <= {80, 60, 10} and 80 in seen and len(set(seen)) > 1
