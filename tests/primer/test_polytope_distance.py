"""Tests of mlgeom.primer.polytope_distance: Gilbert's algorithm against the exact QP."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from mlgeom.primer.polytope_distance import class_polytopes, gilbert, polytope_distance_qp

# The QP is solved to Clarabel's default tolerances (1e-8, relative); certificates are
# compared with this slack, scaled by the distance for distances above 1.
QP_TOL = 1e-7


def slack(distance: float) -> float:
    return QP_TOL * max(1.0, abs(distance))


def separable_sets(seed, n, d, shift=3.0):
    rng = np.random.default_rng(seed)
    P = rng.standard_normal((n, d))
    Q = rng.standard_normal((n + 1, d))
    Q[:, 0] += shift
    return P, Q


def vertex_pair_sets(seed, n, d, gamma=0.7):
    """Random sets whose unique closest pair is a vertex of each: p* = 0, q* = gamma e_0.

    All other points of P have x_0 <= -0.1 and all other points of Q have x_0 >= gamma + 0.1,
    so <x - p*, q* - p*> < 0 on P and <x - q*, q* - p*> > 0 on Q (optimality of the pair).
    """
    rng = np.random.default_rng(seed)
    P = rng.standard_normal((n, d))
    P[:, 0] = -0.1 - np.abs(P[:, 0])
    Q = rng.standard_normal((n, d))
    Q[:, 0] = gamma + 0.1 + np.abs(Q[:, 0])
    P[n // 2] = 0.0
    Q[n // 3, :] = 0.0
    Q[n // 3, 0] = gamma
    return P, Q


def assert_certificates(res, gamma_qp):
    """lower_bound <= gamma <= distance at every iteration; gap >= 0; distance non-increasing."""
    assert np.all(res.lower_bound_history <= gamma_qp + slack(gamma_qp))
    assert np.all(gamma_qp <= res.distance_history + slack(gamma_qp))
    assert np.all(res.gap_history >= -1e-12)
    assert np.all(np.diff(res.distance_history) <= 1e-12)
    assert res.distance_history.shape == (res.n_iter + 1,)
    assert res.distance == res.distance_history[-1]


def assert_consistent(res, P, Q):
    """p and q are the convex combinations alpha @ P and beta @ Q, with a small support."""
    for w, V, x in ((res.alpha, P, res.p), (res.beta, Q, res.q)):
        assert np.all(w >= 0.0) and w.sum() == pytest.approx(1.0, abs=1e-12)
        np.testing.assert_allclose(w @ V, x, atol=1e-10)
        assert np.count_nonzero(w) <= res.n_iter + 1
    assert res.distance == pytest.approx(np.linalg.norm(res.p - res.q), abs=1e-12)


# ---------------------------------------------------------------- hand-computed cases


def test_two_segments_at_distance_two():
    # p = (0,0), q = (2,0), d = (-2,0): <x,d> = 0 on P, -4 on Q, so s_p = P[0], s_q = Q[0],
    # v = d, gap = <d, d - v> = 0 at iteration 0; slab width (0 - (-4)) / 2 = 2.
    P = [[0.0, 0.0], [0.0, 1.0]]
    Q = [[2.0, 0.0], [2.0, 1.0]]
    res = gilbert(P, Q, n_iter=10)
    assert (res.distance, res.lower_bound, res.gap, res.n_iter) == (2.0, 2.0, 0.0, 0)
    assert res.converged and not res.intersecting
    assert polytope_distance_qp(P, Q).distance == pytest.approx(2.0, abs=QP_TOL)


def test_point_and_segment_one_step():
    # P = {(0,0)}, Q = [(1,-1), (1,1)]. d = (-1,1), |d| = sqrt 2; <x,d> on Q: -2, 0, so
    # s_q = (1,1), v = (0,0) - (1,1) = (-1,-1), d - v = (0,2), gap = 2, lambda = 2/4 = 1/2:
    # q = (1,0). Then d = (-1,0), s_q ties -> Q[0], slab (0 - (-1)) / 1 = 1, gap = 1 - 1 = 0.
    res = gilbert([[0.0, 0.0]], [[1.0, -1.0], [1.0, 1.0]], n_iter=10)
    assert res.n_iter == 1 and res.converged
    np.testing.assert_allclose(res.q, [1.0, 0.0])
    np.testing.assert_allclose(res.distance_history, [np.sqrt(2.0), 1.0])
    np.testing.assert_allclose(res.lower_bound_history, [0.0, 1.0])
    np.testing.assert_allclose(res.gap_history, [2.0, 0.0])
    np.testing.assert_allclose(res.beta, [0.5, 0.5])


def test_crossing_segments_intersect():
    # P = [(-1,0),(1,0)], Q = [(0,-1),(0,1)]: d = (-1,1), s_p = (1,0), s_q = (0,1),
    # d - v = (-2,2), gap = 4, lambda = 4/8 = 1/2: p = q = (0,0), the crossing point.
    P = [[-1.0, 0.0], [1.0, 0.0]]
    Q = [[0.0, -1.0], [0.0, 1.0]]
    res = gilbert(P, Q, n_iter=10)
    assert res.intersecting and res.converged and res.n_iter == 1
    assert res.distance == 0.0 and res.lower_bound == 0.0
    np.testing.assert_array_equal(res.p, [0.0, 0.0])
    assert polytope_distance_qp(P, Q).distance == pytest.approx(0.0, abs=1e-6)


def test_overlapping_clouds_distance_goes_to_zero():
    rng = np.random.default_rng(0)
    P, Q = rng.standard_normal((30, 3)), rng.standard_normal((30, 3))
    res = gilbert(P, Q, n_iter=3000)
    assert res.distance < 1e-2  # O(1/sqrt(k)) when gamma = 0
    assert np.all(res.lower_bound_history == 0.0)
    assert polytope_distance_qp(P, Q).distance == pytest.approx(0.0, abs=1e-6)


# ---------------------------------------------------------------- against the QP


@pytest.mark.parametrize(("seed", "d"), [(0, 2), (1, 3), (2, 5), (3, 8)])
def test_gilbert_vs_qp_on_random_separable_sets(seed, d):
    P, Q = separable_sets(seed, 15, d)
    qp = polytope_distance_qp(P, Q)
    res = gilbert(P, Q, n_iter=5000)
    assert_certificates(res, qp.distance)
    assert_consistent(res, P, Q)
    # Plain Frank-Wolfe with line search: f(d_k) - f* <= 2 C / (k + 2) for k >= 1 with
    # f = ||d||^2 / 2 and curvature C <= diam(P - Q)^2 (Jaggi 2013, Theorem 1), and
    # ||d_k|| - gamma = 2 (f(d_k) - f*) / (||d_k|| + gamma) <= (f(d_k) - f*) / gamma.
    diam = max(np.linalg.norm(V[:, None] - V[None], axis=2).max() for V in (P, Q))
    k = np.arange(res.n_iter + 1)
    err = res.distance_history - qp.distance
    bound = 2 * (2 * diam) ** 2 / ((k + 2) * qp.distance)
    assert np.all(err[1:] <= bound[1:] + QP_TOL)
    assert err[-1] <= 1e-2 * qp.distance
    k50, k500 = min(50, res.n_iter), min(500, res.n_iter)
    assert err[-1] <= err[k500] + QP_TOL <= err[k50] + 2 * QP_TOL
    # the final slab certificate brackets the exact value
    assert res.lower_bound <= qp.distance + QP_TOL <= res.distance + 2 * QP_TOL
    # QP weights reproduce its points
    np.testing.assert_allclose(qp.alpha @ P, qp.p, atol=1e-12)
    assert qp.alpha.sum() == pytest.approx(1.0) and qp.beta.min() >= 0.0


@pytest.mark.parametrize(("seed", "d"), [(0, 2), (1, 3), (2, 5), (3, 10)])
def test_gilbert_agrees_with_qp_to_1e6_when_closest_pair_is_two_vertices(seed, d):
    # When the optimum is a vertex of P - Q, the step after the oracle first returns it has
    # lambda = 1: Gilbert's algorithm terminates with gap 0 and the exact distance.
    P, Q = vertex_pair_sets(seed, 12, d)
    qp = polytope_distance_qp(P, Q)
    res = gilbert(P, Q, n_iter=1000)
    assert res.converged and res.n_iter < 1000
    assert res.distance == pytest.approx(0.7, abs=1e-12)
    assert res.distance == pytest.approx(qp.distance, abs=1e-6)
    assert_certificates(res, qp.distance)


def test_tol_stops_early():
    P, Q = separable_sets(1, 15, 3)
    res = gilbert(P, Q, n_iter=5000, tol=1e-2)
    assert res.converged and res.gap <= 1e-2 and res.n_iter < 5000
    assert np.all(res.gap_history[:-1] > 1e-2)


def test_class_polytopes_splits_by_label():
    X = np.arange(10.0).reshape(5, 2)
    P, Q = class_polytopes(X, [1, -1, -1, 1, 1])
    np.testing.assert_array_equal(P, X[[0, 3, 4]])
    np.testing.assert_array_equal(Q, X[[1, 2]])


# ---------------------------------------------------------------- property


coords = st.integers(-4, 4).map(lambda k: k / 2)


@st.composite
def polytope_pairs(draw):
    d = draw(st.integers(1, 4))
    P = draw(arrays(np.float64, (draw(st.integers(1, 6)), d), elements=coords))
    Q = draw(arrays(np.float64, (draw(st.integers(1, 6)), d), elements=coords))
    shift = draw(st.sampled_from([0.0, 0.5, 2.0, 5.0]))
    return P, Q + shift


@settings(max_examples=40, deadline=None)
@given(polytope_pairs())
def test_certificate_brackets_qp_distance(pair):
    P, Q = pair
    qp = polytope_distance_qp(P, Q)
    res = gilbert(P, Q, n_iter=200)
    assert_certificates(res, qp.distance)
    assert_consistent(res, P, Q)


# ---------------------------------------------------------------- bad inputs


@pytest.mark.parametrize(
    ("P", "Q", "kwargs", "match"),
    [
        (np.empty((0, 2)), [[1.0, 1.0]], {}, "P must have at least 1 row"),
        ([[0.0, 0.0]], np.empty((0, 2)), {}, "Q must have at least 1 row"),
        ([[0.0, 0.0]], [[1.0, 1.0, 1.0]], {}, "Q must have 2 column\\(s\\); got shape \\(1, 3\\)"),
        ([[0.0, np.nan]], [[1.0, 1.0]], {}, "P must be finite; got nan"),
        ([0.0, 1.0], [[1.0, 1.0]], {}, "P must be 2-D"),
        ([[0.0, 0.0]], [[1.0, 1.0]], {"n_iter": 0}, "n_iter must be an integer >= 1; got 0"),
        ([[0.0, 0.0]], [[1.0, 1.0]], {"tol": -1.0}, "tol must be in \\[0.0, inf\\]; got -1.0"),
    ],
)
def test_gilbert_bad_inputs(P, Q, kwargs, match):
    with pytest.raises(ValueError, match=match):
        gilbert(P, Q, **{"n_iter": 10, **kwargs})


def test_other_bad_inputs(monkeypatch):
    with pytest.raises(ValueError, match="class -1 is empty"):
        class_polytopes([[0.0], [1.0]], [1, 1])
    with pytest.raises(ValueError, match="class \\+1 is empty"):
        class_polytopes([[0.0], [1.0]], [-1, -1])
    with pytest.raises(ValueError, match="y must contain only -1 and \\+1"):
        class_polytopes([[0.0], [1.0]], [1, 2])
    with pytest.raises(ValueError, match="Q must have 2 column"):
        polytope_distance_qp([[0.0, 0.0]], [[1.0]])

    import cvxpy as cp

    monkeypatch.setattr(cp.Problem, "solve", lambda self, *a, **k: None)  # status stays None
    with pytest.raises(RuntimeError, match="status None"):
        polytope_distance_qp([[0.0, 0.0]], [[1.0, 1.0]])


def test_qp_is_solved_to_optimality_at_the_paper_scale():
    # 5,000 points in R^20: cvxpy's default first-order solver stopped at its iteration limit
    # here, which polytope_distance_qp reports as an error; the interior-point solver does not.
    from mlgeom.algorithms.perceptrons import planted_margin_data
    from mlgeom.primer.polytope_distance import class_polytopes, gilbert, polytope_distance_qp

    X, y, _ = planted_margin_data(5000, 20, 0.05, seed=1)
    P, Q = class_polytopes(X, y)
    qp = polytope_distance_qp(P, Q)
    g = gilbert(P, Q, n_iter=200)
    assert g.lower_bound - QP_TOL <= qp.distance <= g.distance + QP_TOL
