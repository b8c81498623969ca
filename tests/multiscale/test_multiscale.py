"""Tests of the Guruganesh et al. (2021) modules: kernel maps, contextual search, learners."""

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlgeom.algorithms.multiclass_perceptron import MulticlassPerceptron
from mlgeom.multiscale import kernel_maps as km
from mlgeom.multiscale.contextual_search import BallKnowledgeSet, ball_fraction, disk_polygon_area
from mlgeom.multiscale.losses import nn_loss
from mlgeom.multiscale.partition_learners import (
    HyperplaneLearner,
    MulticlassLearner,
    cone_extent,
    lemma32_distribution,
)


def test_even_maps_against_binomial_loop():
    rng = np.random.default_rng(0)
    for p in (2, 4, 6):
        y, z = rng.uniform(-0.5, 0.5, 3), rng.uniform(-0.5, 0.5, 3)
        ref = sum(
            sum(math.comb(p, k) * (yj / p) ** k * (-zj / p) ** (p - k) for k in range(p + 1))
            for yj, zj in zip(y, z, strict=True)
        ) / (p * 3)
        assert km.G_even(y, p) @ km.H_even(z, p) == pytest.approx(ref, rel=1e-10)
    # printed F equals the corrected F at p = 2 only
    assert np.allclose(km.F_even(0.3, 2, printed=True), km.F_even(0.3, 2))
    assert not np.allclose(km.F_even(0.3, 4, printed=True), km.F_even(0.3, 4))


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.floats(-1, 1), min_size=1, max_size=4),
    st.lists(st.floats(-1, 1), min_size=4, max_size=4),
    st.sampled_from([2, 4, 6, 8]),
)
def test_lemma_e1_holds_exactly_with_alternating_signs(y, z, p):
    """Lemma E.1 is the binomial theorem: in rational arithmetic the error is exactly zero,
    where the float identity loses up to ~1e-10 relative when y and z are close (issue 32)."""
    z = z[: len(y)]
    assert km.lemma_e1_error_exact(y, z, p) == 0
    printed = km.lemma_e1_error_exact(y, z, p, printed=True)
    if p == 2:
        assert printed == 0  # the two readings of Definition 20 agree for p = 2
    else:  # the all-minus reading, checked against the float maps where they are accurate
        rhs = km.lemma_e1_rhs(y, z, p)
        inner = km.G_even(y, p) @ km.H_even(z, p, printed=True)
        scale = np.abs(km.G_even(y, p)) @ np.abs(km.H_even(z, p, printed=True))
        # relative error where rhs > 0; at y == z (rhs = 0) the absolute error
        err = float(printed) * rhs if y != z else float(printed)
        assert abs(err - abs(inner - rhs)) <= 1e-12 * scale + 1e-300


def test_lemma_e1_error_exact_refuses_bad_input():
    with pytest.raises(ValueError, match="p"):
        km.lemma_e1_error_exact([0.1], [0.2], 3)
    with pytest.raises(ValueError, match="z"):
        km.lemma_e1_error_exact([0.1, 0.2], [0.2], 4)


def test_T_Q_inner_product_formula():
    x, q = np.array([0.3, -0.2]), np.array([0.1, 0.5])
    assert km.T_map(x) @ km.Q_map(q) == pytest.approx((2 * q @ x - x @ x) / math.sqrt(10))


def test_multiscale_sparse_matches_dense_and_lemma_e2():
    y, z = np.array([0.3, -0.4]), np.array([-0.2137, 0.1234])
    h = km.H_i(z, 1, 3.5)
    assert h.indices.size == km.p_prime(3.5) * 2
    assert km.sparse_dot(y, h, 1, 3.5) == pytest.approx(km.G_i(y, 1, 3.5) @ h.to_dense())
    assert km.lemma_e2_error_exact(y, z, 1, 3.5) <= km.lemma_e2_bound(1, 2, 3.5)
    assert km.lemma_e2_error_exact(y, z, 1, 3.5, printed=True) > km.lemma_e2_bound(1, 2, 3.5)


def test_bad_inputs():
    with pytest.raises(ValueError, match="even integer"):
        km.G_even([0.1], 3)
    with pytest.raises(ValueError, match="p must be"):
        km.D_map(0.1, 0.5)
    with pytest.raises(ValueError, match="ball"):
        km.T_map([1.0, 1.0])
    with pytest.raises(ValueError, match="k must be"):
        MulticlassLearner(1, 2)


def test_lp_width_against_vertex_enumeration_d2():
    A, b = np.array([[1.0, 1.0], [-1.0, 0.2]]), np.array([0.0, 0.0])
    K = BallKnowledgeSet(2, ball_tol=1e-9, seed=0)
    for a, bb in zip(A, b, strict=True):
        K.cut(a, bb)
    q = np.array([0.6, -0.8])
    th = np.linspace(0, 2 * np.pi, 200001)
    P = np.c_[np.cos(th), np.sin(th)]
    P = np.vstack([P[np.all(P @ A.T <= 1e-12, axis=1)], [[0.0, 0.0]]])
    lo, hi = K.extent(q)
    assert hi == pytest.approx((P @ q).max(), abs=1e-6)
    assert lo == pytest.approx((P @ q).min(), abs=1e-6)
    assert cone_extent(A, q) == pytest.approx((lo, hi), abs=1e-6)


def test_sampler_area_against_exact():
    A, b = np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([0.0, 0.0])
    area, perim = disk_polygon_area(A, b)
    assert area == pytest.approx(math.pi / 4)
    assert perim == pytest.approx(2 + math.pi / 2)
    f, se = ball_fraction(A, b, 40000, seed=1)
    assert abs(math.pi * f - area) < 4 * math.pi * se


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 6), st.integers(0, 10_000))
def test_lemma32_always_feasible(n, s):
    rng = np.random.default_rng(s)
    B = rng.normal(size=(n, n))
    M = B - B.T + np.abs(rng.normal(size=(n, n)))  # M + Mᵀ >= 0
    v, ok, t = lemma32_distribution(M)
    assert ok and v.min() >= 0 and v.sum() == pytest.approx(1)


def test_no_update_on_correct_rounds_and_determinism():
    rng = np.random.default_rng(3)
    w = rng.normal(size=4)
    runs = []
    for _ in range(2):
        L = HyperplaneLearner(4, seed=7)
        preds = []
        for q in np.random.default_rng(5).normal(size=(100, 4)):
            y = 1 if q @ w >= 0 else 2
            p = L.predict(q)
            n_cuts = len(L.cs.K.b)
            L.learn(q, y, p)
            assert (len(L.cs.K.b) > n_cuts) == (p != y)
            preds.append(p)
        runs.append(preds)
    assert runs[0] == runs[1]


def test_crammer_singer_update_and_loss():
    mp = MulticlassPerceptron(3, 2)
    mp.learn(np.array([1.0, 0.0]), 2)
    assert np.allclose(mp.W, [[-1, 0], [0, 0], [1, 0]])
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    assert nn_loss(np.array([0.5, 0.2]), X, 1) == pytest.approx(0.3)


def test_multiscale_width_against_box_formula_and_cut():
    from mlgeom.multiscale.learner import MultiscaleLearner, ScaleSet

    S = ScaleSet(16, 1, np.random.default_rng(0))
    idx, vals = np.array([3, 7]), np.array([1.0, -2.0])
    assert S.width(idx, vals) == pytest.approx(6.0)  # box: 2·Σ|v|
    S.cut(idx, vals, 0.5)  # x3 − 2 x7 <= 0.5 → max = 0.5, min = −3
    assert S.width(idx, vals) == pytest.approx(3.5)
    assert np.all(S.X[:, :2] @ vals <= 0.5 + 1e-12)
    L = MultiscaleLearner(2, 3.0, n_scales=2, seed=0)
    with pytest.raises(ValueError, match="true_label"):
        L.step(np.array([0.1, 0.1]), 3)
    runs = []
    for _ in range(2):
        L = MultiscaleLearner(2, 3.0, n_scales=2, seed=4)
        runs.append(
            [
                L.step(q, 1 if q[0] > 0 else 2)[0]
                for q in np.random.default_rng(1).uniform(-0.5, 0.5, (15, 2))
            ]
        )
    assert runs[0] == runs[1]
    assert L.centre_slack(np.array([0.3, 0.0]), np.array([-0.3, 0.0])) >= 0


def test_scale_loss_bound_hand_computed():
    from mlgeom.multiscale.learner import scale_loss_bound

    assert scale_loss_bound(1, None, 2, 3.0, 0.3) == 2.0
    # i = 2, w_1 = 0: 2^3 · 2·2·(3δ_1)^3 / 0.15^2 with δ_1 = 1/(100·4·4·2) = 1/3200
    ref = 8 * 4 * (3 / 3200) ** 3 / 0.15**2
    assert scale_loss_bound(2, 0.0, 2, 3.0, 0.3) == pytest.approx(ref)
    assert scale_loss_bound(2, 1e3, 2, 3.0, 0.3) == 2.0  # capped by the diameter


def test_multiscale_multiclass_first_round_by_hand():
    from mlgeom.multiscale.learner import MultiscaleMulticlassLearner

    # k = 2, empty knowledge sets: scale 1 qualifies, L = 2, D = 2 on the pair's wrong side,
    # M = [[0, −1], [1, 0]] (or its transpose), so v is the point mass on the pair's guess.
    L = MultiscaleMulticlassLearner(2, 2, 3.0, 0.3, n_scales=2, seed=0)
    q = np.array([0.2, -0.1])
    Lm, D, M, info = L.round_matrices(q)
    assert info[(0, 1)]["scale"] == 1
    assert np.allclose(Lm, [[0, 2], [2, 0]])
    pred = info[(0, 1)]["label"] - 1
    assert D[1 - pred, pred] == 2.0 and D[pred, 1 - pred] == 0.0
    v, ok, t = lemma32_distribution(M)
    assert ok and v[pred] == pytest.approx(1.0)


def test_multiscale_multiclass_no_update_when_correct_feasible_and_deterministic():
    from mlgeom.multiscale.experiments import separated_centres
    from mlgeom.multiscale.learner import MultiscaleMulticlassLearner

    X = separated_centres(2, 3.0, 0.3, seed=2, k=3)
    Q = np.random.default_rng(6).uniform(-0.6, 0.6, (25, 2))
    runs = []
    for _ in range(2):
        L = MultiscaleMulticlassLearner(3, 2, 3.0, 0.3, n_scales=3, seed=9)
        guesses = []
        for q in Q:
            r = int(np.argmin(np.sum(np.abs(q - X) ** 3, axis=1)))
            cuts = {pr: sum(len(S.b) for S in A.S.values()) for pr, A in L.sub.items()}
            g, t = L.step(q, r)
            after = {pr: sum(len(S.b) for S in A.S.values()) for pr, A in L.sub.items()}
            changed = [pr for pr in cuts if after[pr] != cuts[pr]]
            if g == r:
                assert changed == []
            else:
                assert changed in ([], [(min(g, r), max(g, r))])
            assert t >= -1e-9
            guesses.append(g)
        assert L.n_infeasible == 0 and min(L.min_sym) >= 0
        runs.append(guesses)
    assert runs[0] == runs[1]
    for i, j in L.pairs:
        assert L.sub[(i, j)].centre_slack(X[i], X[j]) >= 0
    with pytest.raises(ValueError, match="true_label"):
        L.step(Q[0], 3)
    with pytest.raises(ValueError, match="k must be"):
        MultiscaleMulticlassLearner(1, 2, 3.0, 0.3)
    with pytest.raises(ValueError, match="Delta"):
        MultiscaleMulticlassLearner(3, 2, 3.0, 0.0)


def test_centre_slack_ball_by_hand_and_against_the_point():
    from mlgeom.multiscale import kernel_maps as km
    from mlgeom.multiscale.learner import MultiscaleLearner

    L = MultiscaleLearner(2, 3.0, n_scales=2, seed=0)
    x1, x2 = np.array([0.3, 0.0]), np.array([-0.3, 0.0])
    r1 = 0.1 * (3.0 * km.delta_i(1, 2, 3.0)) ** 3
    # no cuts: only the box, 1 - r_i - max|c_j| (scale 1 has the largest radius)
    box = min(
        (1.0 - max(np.abs(km.G_i(x1, i, 3.0)).max(), np.abs(km.G_i(x2, i, 3.0)).max()))
        - 0.1 * (3.0 * km.delta_i(i, 2, 3.0)) ** 3
        for i in (1, 2)
    )  # fmt: skip
    # p = 3 is an integer: the last entry of each group of D is sign(x)^3 = ±1, so the box
    # part is exactly -r_1 (the largest radius), whatever the centres (Claim 29's base case)
    assert box == -r1
    assert L.centre_slack(x1, x2, ball=True) == pytest.approx(box)
    assert L.centre_slack(x1, x2) == np.inf
    # one hand-made cut a·z <= b at scale 1 on two coordinates: the ball's slack is the point's
    # minus r_1 ||a||_2
    S = L.S[1]
    cols = S._activate(np.array([0, L.N[1] + 5]))
    S.A = np.zeros((1, len(S.col)))
    S.A[0, cols] = [3.0, 4.0]
    S.b = np.array([2.0])
    point = L.centre_slack(x1, x2)
    c = np.concatenate([km.G_i(x1, 1, 3.0), km.G_i(x2, 1, 3.0)])
    assert point == pytest.approx(2.0 - 3.0 * c[0] - 4.0 * c[L.N[1] + 5])
    assert L.centre_slack(x1, x2, ball=True) == pytest.approx(min(point - 5.0 * r1, box))
    with pytest.raises(TypeError, match="ball must be a bool"):
        L.centre_slack(x1, x2, ball=1)


def test_claim29_ball_parts_and_box_slack():
    from mlgeom.multiscale import experiments as E
    from mlgeom.multiscale import kernel_maps as km
    from mlgeom.multiscale.learner import MultiscaleLearner

    x1, x2 = np.array([0.2, -0.1]), np.array([-0.25, 0.05])
    for p, integer in ((3.0, True), (2.5, False)):
        L = MultiscaleLearner(2, p, n_scales=3, seed=0)
        cuts, box = L.claim29_ball_parts(x1, x2)
        assert cuts == np.inf  # no cut yet
        assert L.centre_slack(x1, x2, ball=True) == box
        assert (box < 0) == integer
    # the base case alone, on random centres: -r_i exactly for integer p (also where r_i is
    # far below the spacing of floats near 1), positive for p = 2.5
    tab = E.claim29_box_slack([2.5, 3.0, 5.0], [1, 3], 2, 3, seed=0)
    assert list(zip(tab["p"], tab["scale"], strict=True)) == [
        (2.5, 1), (2.5, 3), (3.0, 1), (3.0, 3), (5.0, 1), (5.0, 3)
    ]  # fmt: skip
    integer = tab["p"] != 2.5
    assert (tab.loc[integer, "max |c_j|"] == 1.0).all()
    assert (tab.loc[integer, "slack"] == -tab.loc[integer, "radius"]).all()
    assert (tab.loc[~integer, "slack"] > 0.1).all()
    r = 0.1 * (5.0 * km.delta_i(3, 2, 5.0)) ** 5
    assert 0 < r < 1e-16 and tab["slack"].iloc[-1] == -r
    # determinism and bad inputs
    pd.testing.assert_frame_equal(tab, E.claim29_box_slack([2.5, 3.0, 5.0], [1, 3], 2, 3, seed=0))
    with pytest.raises(ValueError, match="ps"):
        E.claim29_box_slack([2.0], [1], 2, 3)
    with pytest.raises(ValueError, match="scales"):
        E.claim29_box_slack([3.0], [0], 2, 3)
    with pytest.raises(ValueError, match="non-empty"):
        E.claim29_box_slack([], [1], 2, 3)
