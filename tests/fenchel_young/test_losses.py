"""Fenchel–Young losses, Sinkhorn/Birkhoff, randomized decoding (Sakaue et al. 2024, §2–3)."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import log_loss

from mlgeom.fenchel_young import birkhoff
from mlgeom.fenchel_young import decoding as rd
from mlgeom.fenchel_young import losses as fy

STRUCTS = [fy.Multiclass(4), fy.Multilabel(5), fy.Ranking(3, mu=0.7), fy.Ordinal(5)]


def _fd_grad(f, x, h=1e-6):
    g = np.zeros_like(x)
    for i in range(x.size):
        e = np.zeros_like(x)
        e[i] = h
        g[i] = (f(x + e) - f(x - e)) / (2 * h)
    return g


def test_logistic_fy_loss_equals_sklearn_log_loss():
    rng = np.random.default_rng(0)
    theta = rng.standard_normal((50, 4)) * 3
    y = rng.integers(4, size=50)
    s = fy.Multiclass(4)
    ours = s.loss(theta, s.encode(y)).mean()
    ref = log_loss(y, fy.softmax(theta), labels=range(4))
    assert ours == pytest.approx(ref, rel=1e-12)


def test_softmax_is_stable_for_huge_scores():
    p = fy.softmax(np.array([1e4, 1e4 - 1.0, -1e4]))
    assert np.all(np.isfinite(p)) and p.sum() == pytest.approx(1.0)
    assert fy.Multiclass(3).loss(np.array([1e4, 0.0, 0.0]), np.array([0.0, 1.0, 0.0])) == (
        pytest.approx(1e4)
    )


def test_sparsemap_hypercube_closed_form():
    # Section 2.3: S = 1/2 |y - θ|² - 1/2 |ŷ - θ|² with ŷ = clip(θ, 0, 1)
    rng = np.random.default_rng(1)
    s = fy.Multilabel(6)
    for _ in range(20):
        theta = rng.standard_normal(6) * 2
        y = rng.integers(2, size=6).astype(float)
        yhat = np.clip(theta, 0, 1)
        ref = 0.5 * np.sum((y - theta) ** 2) - 0.5 * np.sum((yhat - theta) ** 2)
        assert s.loss(theta, y) == pytest.approx(ref, abs=1e-12)
        assert np.array_equal(s.predict(theta), yhat)


def test_ordinal_projection_against_cvxpy():
    cp = pytest.importorskip("cvxpy")
    rng = np.random.default_rng(2)
    s = fy.Ordinal(6)
    for _ in range(5):
        theta = rng.standard_normal(6) * 2
        y = cp.Variable(6)
        cons = [y[:-1] >= y[1:], y[0] <= 1, y[-1] >= 0]
        cp.Problem(cp.Minimize(cp.sum_squares(y - theta)), cons).solve(solver="CLARABEL")
        assert np.allclose(s.predict(theta), y.value, atol=1e-6)


def test_sinkhorn_against_cvxpy_entropic_projection():
    cp = pytest.importorskip("cvxpy")
    rng = np.random.default_rng(3)
    n, mu = 4, 0.8
    theta = rng.standard_normal((n, n))
    P = cp.Variable((n, n), nonneg=True)
    obj = cp.Maximize(cp.sum(cp.multiply(theta, P)) + cp.sum(cp.entr(P)) / mu)
    cp.Problem(obj, [cp.sum(P, axis=0) == 1, cp.sum(P, axis=1) == 1]).solve(solver="SCS", eps=1e-9)
    ours = fy.Ranking(n, mu).predict(theta.ravel()).reshape(n, n)
    assert np.allclose(ours, P.value, atol=1e-6)


def test_sinkhorn_newton_fallback_for_large_scores():
    rng = np.random.default_rng(4)
    L = 80 * rng.standard_normal((5, 5))
    res = birkhoff.sinkhorn_log(L, tol=1e-9, sweeps=20)
    assert res.marginal_error <= 1e-9
    assert np.allclose(res.P.sum(0), 1) and np.allclose(res.P.sum(1), 1)
    # batched input: same as one by one
    Ls = rng.standard_normal((3, 4, 4))
    batch = birkhoff.sinkhorn_log(Ls).P
    for b in range(3):
        assert np.allclose(batch[b], birkhoff.sinkhorn_log(Ls[b]).P, atol=1e-9)


@pytest.mark.parametrize("s", STRUCTS, ids=lambda s: s.name)
def test_gradient_by_finite_differences(s):
    rng = np.random.default_rng(5)
    theta = rng.standard_normal(s.d)
    y = s.outputs()[rng.integers(len(s.outputs()))]
    num = _fd_grad(lambda t: float(s.loss(t, y)), theta)
    assert np.allclose(s.grad(theta, y), num, atol=1e-5)


@pytest.mark.parametrize("s", STRUCTS, ids=lambda s: s.name)
def test_nearest_extreme_point_against_brute_force(s):
    rng = np.random.default_rng(6)
    Y = s.outputs()
    for _ in range(10):
        yp = s.predict(rng.standard_normal(s.d) * 2)
        ours = s.nearest_extreme_point(yp)
        best = np.min(s.norm(Y - yp))
        assert s.norm(ours - yp) == pytest.approx(best, abs=1e-12)


@pytest.mark.parametrize("s", STRUCTS, ids=lambda s: s.name)
def test_decoding_mean_equals_prediction_by_enumeration(s):
    rng = np.random.default_rng(7)
    for _ in range(5):
        mu = s.predict(rng.standard_normal(s.d))
        w, Y = s.tilde_distribution(mu)
        assert w.sum() == pytest.approx(1.0) and np.all(w >= -1e-15)
        assert np.allclose(w @ Y, mu, atol=1e-8)  # E[ỹ] = ŷ_Ω (Algorithm 1, step 5)
        theta = rng.standard_normal(s.d)
        y = Y[0]
        assert rd.expected_target_loss(s, theta, y) == pytest.approx(
            rd.expected_target_loss_enumerated(s, theta, y), abs=1e-8
        )


@pytest.mark.parametrize("s", STRUCTS[:2] + STRUCTS[3:], ids=lambda s: s.name)
def test_sampling_matches_the_law(s):
    rng = np.random.default_rng(8)
    mu = s.predict(rng.standard_normal(s.d))
    draws = np.array([s.sample_tilde(mu, rng.random(s.n_tilde_uniforms)) for _ in range(4000)])
    assert np.allclose(draws.mean(0), mu, atol=0.05)


def test_birkhoff_von_neumann_reconstructs():
    P = fy.Ranking(5, 1.0).predict(np.random.default_rng(9).standard_normal(25)).reshape(5, 5)
    dec = birkhoff.birkhoff_von_neumann(P)
    assert dec.error < 1e-8 and len(dec.weights) <= 17
    with pytest.raises(ValueError, match="square"):
        birkhoff.birkhoff_von_neumann(np.ones((2, 3)))


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(range(4)),
    st.lists(st.floats(-6, 6), min_size=16, max_size=16),
    st.integers(0, 10_000),
)
def test_lemma_31_property(k, vals, yi):
    s = STRUCTS[k]
    theta = np.array(vals[: s.d])
    Y = s.outputs()
    y = Y[yi % len(Y)]
    e = rd.expected_target_loss(s, theta, y)
    assert e <= s.lemma31_constant * float(s.loss(theta, y)) * (1 + 1e-9) + 1e-12


def test_appendix_d_example_by_hand():
    # ε = 1: ŷ = (1/4, 3/4), S = 2 ln 2, p = 1/2, E[L] = 1 - 1/8 (Appendix D)
    s = fy.Multiclass(2)
    theta = np.array([1.0, 1.0 + np.log(3.0)])
    dec = rd.randomized_decoding(s, theta)
    assert np.allclose(dec.y_hat, [0.25, 0.75]) and dec.p == pytest.approx(0.5)
    assert rd.expected_target_loss(s, theta, np.array([1.0, 0.0])) == pytest.approx(7 / 8)
    assert rd.appendix_d_ratio(1.0) == pytest.approx(rd.appendix_d_ratio_closed_form(1.0))


def test_multiclass_law_matches_generic_decoding():
    rng = np.random.default_rng(10)
    s = fy.Multiclass(5)
    for _ in range(20):
        theta = rng.standard_normal(5) * 3
        law = rd.multiclass_decoding_law(theta, "randomized")
        for i in range(5):
            y = np.eye(5)[i]
            assert 1 - law[i] == pytest.approx(rd.expected_target_loss(s, theta, y))
    assert np.allclose(rd.multiclass_decoding_law(np.zeros(4), "gaptron"), 0.25)


def test_smooth_hinge_values():
    assert np.allclose(fy.smooth_hinge([-1.0, 0.0, 0.5, 2.0]), [3.0, 1.0, 0.25, 0.0])


def test_constants_match_section_2_3():
    assert fy.Multilabel(16).a == pytest.approx(0.0) and fy.Multilabel(17).a > 0
    assert fy.Ranking(6, mu=2.0).a == pytest.approx(0.0) and fy.Ranking(6, mu=1.9).a > 0
    assert fy.Multiclass(7).lemma31_constant == 1.0


@pytest.mark.parametrize(
    ("make", "match"),
    [
        (lambda: fy.Multiclass(1), "d must be an integer >= 2"),
        (lambda: fy.Ranking(3, mu=0.0), "mu must be"),
        (lambda: fy.Ranking(3, mu=-1.0), "mu must be"),
        (lambda: fy.Multilabel(3, strength=0.0), "strength must be"),
        (lambda: fy.Multiclass(3).loss([0.0, np.nan, 1.0], [1, 0, 0]), "theta must be finite"),
        (lambda: fy.Multiclass(3).loss([0.0, 1.0, 1.0], [1, 1, 0]), "one-hot"),
        (lambda: fy.Multiclass(3).encode([0, 3]), r"labels must be integers in \[0, 2\]"),
        (lambda: fy.Ranking(3, 1.0).encode([0, 0, 1]), "permutations"),
        (lambda: fy.Ordinal(3).loss([0.0, 0.0, 0.0], [0, 1, 1]), "staircases"),
        (lambda: fy.Multilabel(3).predict([0.0, 1.0]), "length d=3"),
        (lambda: rd.multiclass_decoding_law([0.0, 1.0], "argmax"), "decoding must be one of"),
    ],
)
def test_bad_inputs(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_enumerations_are_complete():
    assert len(fy.Ranking(3, 1.0).outputs()) == 6
    assert len(fy.Ordinal(4).outputs()) == 5
    assert {tuple(r) for r in fy.Multilabel(3).outputs()} == set(
        itertools.product([0.0, 1.0], repeat=3)
    )
