"""Algorithm 2, the compiled multiclass path, streams and comparators (Sakaue et al. 2024, §4–5)."""

import numpy as np
import pandas as pd
import pytest

import mlgeom.fenchel_young as FY
from mlgeom.algorithms.online_gradient import OGD, CoinBettingOGD
from mlgeom.fenchel_young import comparator as cmp
from mlgeom.fenchel_young import experiments as fx
from mlgeom.fenchel_young import logistic_ogd as lo
from mlgeom.fenchel_young import losses as fy
from mlgeom.fenchel_young import streams as ss
from mlgeom.fenchel_young import surrogate_regret as sr

LN2 = np.log(2.0)


def _reference_loop(X, labels, order, U, d, eta, decoding):
    """Algorithm 2 with Theorem 5.1's loss, written from the paper in 20 lines."""
    W = np.zeros((d, X.shape[1]))
    E = []
    for i in order:
        x, y = X[i], labels[i]
        th = W @ x
        sig = np.exp(th - th.max()) / np.exp(th - th.max()).sum()
        k = int(np.argmax(th))
        if decoding == "randomized":
            p = min(1.0, np.abs(np.eye(d)[k] - sig).sum())  # 2Δ*/ν with ν = 2
            E.append((1 - p) * (k != y) + p * (1 - sig[y]))
        elif decoding == "gaptron":
            g = min(1.0, -np.log2(sig[k]))
            E.append((1 - g) * (k != y) + g * (1 - 1 / d))
        else:
            E.append(float(k != y))
        W -= eta / LN2 * np.outer(sig - np.eye(d)[y], x)
    return np.array(E), W


@pytest.fixture(scope="module")
def small():
    st = ss.planted_stream(
        fy.Multiclass(4), 300, n_features=6, norm=5.0, noise=0.1, pool=50, seed=0
    )
    U = np.random.default_rng(1).random((300, 2))
    return st, U


@pytest.mark.parametrize("decoding", ["randomized", "gaptron", "deterministic"])
def test_compiled_path_matches_reference_and_plain_loop(small, decoding):
    st, U = small
    eta = sr.eta_theorem_5_1(1.0)
    fast = lo.logistic_ogd_batch(
        st.X, st.labels, st.order[None], U[None], d=4, eta=eta, decoding=decoding
    )
    E, W = _reference_loop(st.X, st.labels, st.order, U, 4, eta, decoding)
    assert np.allclose(fast.expected_loss[0], E, atol=1e-12)
    assert np.allclose(fast.W[0], W, atol=1e-12)
    loop = lo.logistic_ogd_loop(
        st.X, st.labels, st.order, U, d=4, eta=eta, decoding=decoding, libm=True
    )
    for f in ("played", "target_loss", "expected_loss", "surrogate_loss", "grad_norm_sq", "p"):
        assert np.array_equal(getattr(fast, f)[0], getattr(loop, f)[0]), f


@pytest.mark.parametrize("decoding", ["randomized", "gaptron", "deterministic"])
def test_generic_runner_matches_fast_path(small, decoding):
    st, U = small
    eta = sr.eta_gaptron(4, 1.0) if decoding == "gaptron" else sr.eta_theorem_5_1(1.0)
    fast = lo.logistic_ogd_batch(
        st.X, st.labels, st.order[None], U[None], d=4, eta=eta, decoding=decoding
    )
    rec = sr.run_online(
        fy.Multiclass(4), st, eta=eta, decoding=decoding, loss_scale=1 / LN2, uniforms=U
    )
    assert np.array_equal(np.argmax(rec.played, 1), fast.played[0])
    assert np.allclose(rec.expected_loss, fast.expected_loss[0], atol=1e-12)
    assert np.allclose(rec.surrogate_loss, fast.surrogate_loss[0], atol=1e-12)
    assert np.allclose(rec.grad_norm_sq, fast.grad_norm_sq[0], atol=1e-12)


def test_first_round_by_hand():
    # W_1 = 0: uniform softmax, p = min{1, 2(1 - 1/d)} = 1, E_1 = 1 - 1/d, S_1 = log2 d
    X = np.array([[1.0, 0.0]])
    r = lo.logistic_ogd_batch(
        X, np.array([2]), np.zeros((1, 1), int), np.full((1, 1, 2), 0.5), d=4, eta=0.1
    )
    assert r.expected_loss[0, 0] == pytest.approx(0.75)
    assert r.surrogate_loss[0, 0] == pytest.approx(2.0)
    assert r.played[0, 0] == 2  # inverse CDF of the uniform law at u = 0.5
    assert np.allclose(r.W[0][:, 0], -0.1 / LN2 * (np.full(4, 0.25) - np.eye(4)[2]))


def test_batch_is_deterministic_and_thread_independent(small):
    st, U = small
    orders = np.stack([st.order, st.order[::-1]])
    unif = np.stack([U, U[::-1]])
    a = lo.logistic_ogd_batch(st.X, st.labels, orders, unif, d=4, eta=0.2, n_threads=1)
    b = lo.logistic_ogd_batch(st.X, st.labels, orders, unif, d=4, eta=0.2, n_threads=2)
    assert np.array_equal(a.expected_loss, b.expected_loss) and np.array_equal(a.W, b.W)


def test_structured_runner_records_and_determinism():
    s = fy.Multilabel(20)
    st = ss.planted_stream(s, 200, n_features=5, norm=5.0, seed=3)
    eta = sr.eta_theorem_4_2(s, st.C)
    a = sr.run_online(s, st, eta=eta, seed=4)
    b = sr.run_online(s, st, eta=eta, seed=4)
    assert np.array_equal(a.played, b.played) and np.array_equal(a.W, b.W)
    assert np.all(a.expected_loss <= s.lemma31_constant * a.surrogate_loss + 1e-12)
    # Proposition 2.3: |∇S|² <= (2C²κ²/λ) S
    assert np.all(a.grad_norm_sq <= 2 * st.C**2 / s.lam * a.surrogate_loss + 1e-12)
    # W_mean is the average of W_1..W_T
    W, Ws = np.zeros_like(a.W), np.zeros_like(a.W)
    for t in range(st.T):
        Ws += W
        i = st.order[t]
        W = W - eta * np.outer(s.predict(W @ st.X[i]) - st.Y[i], st.X[i])
    assert np.allclose(a.W_mean, Ws / st.T) and np.allclose(a.W, W)


def test_parameter_free_learner_learns():
    st = ss.prototype_stream(3, 600, n_prototypes=4, seed=5)
    rec = sr.run_online(fy.Multiclass(3), st, learner="parameter_free", loss_scale=1 / LN2, seed=6)
    assert rec.expected_loss[-100:].mean() < 0.2 < rec.expected_loss[:20].mean()
    cb = CoinBettingOGD((2, 2), G=1.0)
    cb.update(np.ones((2, 2)))
    assert np.all(np.isfinite(cb.weights))
    o = OGD((2, 2), eta=0.5)
    o.update(np.ones((2, 2)))
    assert np.allclose(o.weights, -0.5)


def test_learning_rates_and_bounds_match_the_paper():
    assert sr.eta_theorem_5_1(2.0) == pytest.approx((1 - LN2) * LN2 / 4)
    assert sr.bound_theorem_5_1(1.0, 1.0) == pytest.approx(1 / (2 * (1 - LN2) * LN2))
    s = fy.Ranking(4, mu=1.0)  # a = 1/2, λ = 1/4, γ = 1/8, ν = 4
    assert sr.eta_theorem_4_2(s, 1.0) == pytest.approx(0.25 * 0.5)
    assert sr.bound_theorem_4_2(s, 1.0, 1.0) == pytest.approx(2 / 8 / (1 / 16 * 4 * 0.25))
    assert sr.bound_theorem_4_6(s, 1.0, 1.0, 10) == pytest.approx(
        sr.bound_theorem_4_2(s, 1, 1) / 10
    )
    # Theorem 4.2 with the multiclass constants reduces to Theorem 5.1's form for a = 1 - ln 2
    assert sr.bound_gaptron(5, 1.0, 2.0) == pytest.approx(5 * 2 / (2 * LN2))
    with pytest.raises(ValueError, match="lambda > 4 gamma / nu"):
        sr.eta_theorem_4_2(fy.Multilabel(9), 1.0)


def test_comparator_fits_against_cvxpy():
    cp = pytest.importorskip("cvxpy")
    s = fy.Multiclass(3)
    st = ss.planted_stream(s, 60, n_features=3, norm=4.0, noise=0.2, pool=30, seed=7)
    X, y, w = st.X, st.labels, st.counts()
    U = cp.Variable((3, 3))
    Th = X @ U.T
    loss = cp.sum(
        cp.multiply(w, cp.log_sum_exp(Th, axis=1) - cp.sum(cp.multiply(np.eye(3)[y], Th), axis=1))
    )
    cp.Problem(cp.Minimize(loss + 0.3 * cp.sum_squares(U))).solve(solver="CLARABEL")
    ridge = cmp.fit_ridge(s, st, 0.3)
    assert ridge.total_loss + 0.3 * ridge.norm**2 == pytest.approx(
        loss.value + 0.3 * np.sum(U.value**2), rel=1e-5
    )
    cp.Problem(cp.Minimize(loss), [cp.norm(U, "fro") <= 1.5]).solve(solver="CLARABEL")
    ball = cmp.fit_ball(s, st, 1.5)
    assert ball.norm <= 1.5 + 1e-9 and ball.total_loss == pytest.approx(loss.value, rel=1e-4)
    assert cmp.stream_loss(s, ball.U, st) == pytest.approx(ball.total_loss)


def test_worst_case_constant_is_the_sup_ratio():
    s = fy.Multiclass(3)
    st = ss.prototype_stream(3, 400, n_prototypes=5, seed=8)
    rec = sr.run_online(s, st, eta=sr.eta_theorem_5_1(1.0), loss_scale=1 / LN2, seed=9)
    E = rec.expected_loss.sum()
    c = cmp.worst_case_constant(s, st, E, loss_scale=1 / LN2)
    assert 0 < c < sr.bound_theorem_5_1(1.0, 1.0)
    # no comparator beats c: R_T(U) <= c |U|² for random U (up to the bisection tolerance)
    rng = np.random.default_rng(10)
    for _ in range(20):
        U = rng.standard_normal((3, 5)) * rng.uniform(0.1, 10)
        R = E - cmp.stream_loss(s, U, st, loss_scale=1 / LN2)
        assert R <= c * (1 + 2e-3) * np.sum(U**2) + 1e-9
    assert cmp.worst_case_constant(s, st, 0.0, loss_scale=1 / LN2) == 0.0


def test_worst_case_constant_floor_and_ceiling():
    """0.0 exactly when the inequality holds at ``lo`` (c* in [0, lo]); inf when it fails at hi."""
    s = fy.Multiclass(3)
    st = ss.prototype_stream(3, 200, n_prototypes=4, seed=8)
    lo = 1e-2
    fit = cmp.fit_ridge(s, st, lo, loss_scale=1 / LN2)
    at_lo = fit.total_loss + lo * fit.norm**2  # the largest sum of E_t with c* <= lo
    assert cmp.worst_case_constant(s, st, 0.999 * at_lo, loss_scale=1 / LN2, lo=lo) == 0.0
    c = cmp.worst_case_constant(s, st, 1.001 * at_lo, loss_scale=1 / LN2, lo=lo)
    assert lo < c < 1.1 * lo  # just above the floor: returned, not clipped to 0
    huge = 10.0 * st.T * np.log2(3)
    assert cmp.worst_case_constant(s, st, huge, loss_scale=1 / LN2, hi=1.0) == np.inf


def test_streams_are_seeded_and_valid():
    for s in (fy.Multiclass(3), fy.Multilabel(4), fy.Ranking(3, 1.0), fy.Ordinal(4)):
        a = ss.planted_stream(s, 50, n_features=4, norm=3.0, noise=0.3, pool=20, seed=11)
        b = ss.planted_stream(s, 50, n_features=4, norm=3.0, noise=0.3, pool=20, seed=11)
        assert np.array_equal(a.Y, b.Y) and np.array_equal(a.order, b.order)
        s.check_output(a.Y)
        assert a.C == pytest.approx(1.0)
    st, B = ss.lower_bound_instance(3, 5, 20, seed=12)
    assert B**2 == pytest.approx(np.sum(st.U**2))
    assert np.array_equal(st.order[:7], [0, 1, 2, 3, 4, 5, 5])
    dig = ss.digits_stream(2000, seed=13)
    assert dig.T == 2000 and np.allclose(np.linalg.norm(dig.X, axis=1), 1.0)
    seg = ss.digits_segments_stream(10, seed=13)
    assert seg.Y.shape == (1797, 7) and np.array_equal(seg.Y[seg.labels == 8][0], np.ones(7))


def test_experiment_drivers_smoke():
    tab = fx.worst_case_table([2, 3], 300, 4, 2, decodings=("randomized",), seed=14)
    assert set(tab.columns) >= {"d", "c_star", "sum_E"} and (tab.c_star >= 0).all()
    lb = fx.lower_bound_table([2], [4], 40, 1, seed=15)
    assert (lb.regret >= lb.exact_lb - 1e-9).all()
    d = fx.appendix_d_table(np.array([0.1, 0.01]))
    assert np.allclose(d.ratio, d.closed_form)


def test_appendix_d_table_deterministic_columns_match_section_3():
    """The library's deterministic decoding gives Section 3's closed forms on Appendix D's theta:
    ratio 4/((1 + eps) ln 2) (E[L] = 1, S = (1 + eps) ln 2) and gap a = eps/(1 + eps)."""
    eps = np.array([2.0, 0.5, 0.1, 1e-3, 1e-6])
    d = fx.appendix_d_table(eps)
    np.testing.assert_allclose(d.det_ratio, 4.0 / ((1.0 + eps) * LN2), rtol=1e-9)
    np.testing.assert_allclose(d.det_gap, eps / (1.0 + eps), rtol=1e-6, atol=1e-12)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda st: sr.run_online(fy.Multiclass(3), st, eta=-1.0), "eta must be"),
        (lambda st: sr.run_online(fy.Multiclass(3), st), "eta is required"),
        (lambda st: sr.run_online(fy.Multilabel(4), st, eta=1.0), "length d=4"),
        (lambda st: sr.run_online(fy.Multiclass(3), st, eta=1.0, decoding="x"), "decoding must"),
        (
            lambda st: lo.logistic_ogd_batch(
                st.X, st.labels + 5, st.order[None], np.zeros((1, st.T, 2)), d=3, eta=1.0
            ),
            r"\[0, 2\]",
        ),
        (
            lambda st: lo.logistic_ogd_batch(
                st.X, st.labels, st.order[None], np.zeros((1, 2)), d=3, eta=1.0
            ),
            "uniforms must have shape",
        ),
        (
            lambda st: ss.planted_stream(fy.Multiclass(3), 10, n_features=2, norm=0.0),
            "norm must be",
        ),
        (lambda st: ss.prototype_stream(1, 10, n_prototypes=2), "d must be an integer >= 2"),
        (lambda st: cmp.fit_ridge(fy.Multiclass(3), st, 0.0), "coef must be"),
    ],
)
def test_bad_inputs(call, match):
    st = ss.planted_stream(fy.Multiclass(3), 20, n_features=2, norm=1.0, pool=10, seed=0)
    with pytest.raises(ValueError, match=match):
        call(st)


def test_adaptive_ogd_hand_case_projection_and_zero_gradient():
    from mlgeom.algorithms.online_gradient import AdaptiveOGD

    alg = AdaptiveOGD((1, 2), B=2.0)
    alg.update(np.zeros((1, 2)))  # no gradient yet: W stays at 0 (no division by zero)
    assert np.array_equal(alg.weights, np.zeros((1, 2)))
    alg.update(np.array([[3.0, 4.0]]))
    # step 2 / sqrt(2 * 25) = 0.283 gives norm 1.41 > B/2 = 1: projected onto the unit ball
    np.testing.assert_allclose(alg.weights, [[-0.6, -0.8]], atol=1e-15)
    alg.update(np.array([[0.0, -1.0]]))  # rate 2 / sqrt(2 * 26)
    w = np.array([[-0.6, -0.8 + 2.0 / np.sqrt(52.0)]])
    np.testing.assert_allclose(alg.weights, w, atol=1e-15)  # inside the ball: no projection
    with pytest.raises(ValueError, match="B"):
        AdaptiveOGD((1, 2), B=0.0)


def test_theorem_e1_bound_hand_value_and_bad_inputs():
    s = FY.Multilabel(20, strength=2.0)
    gamma, a = 1 / np.sqrt(20), 1 - 2 / np.sqrt(20)  # a = 1 - 4 gamma / (lambda nu), lambda = 2
    # 16 gamma C^2 kappa^2 B^2 / (a lambda^2 nu) with C = kappa = nu = 1, B = 3
    assert FY.bound_theorem_e_1(s, 1.0, 3.0) == pytest.approx(16 * gamma * 9 / (a * 4))
    # 2 (1 - a) b B^2 / a with b = 2 C^2 kappa^2 / lambda, as in the proof
    assert FY.bound_theorem_e_1(s, 1.0, 3.0) == pytest.approx(2 * (1 - a) * 1.0 * 9 / a)
    with pytest.raises(ValueError, match="a > 0"):
        FY.bound_theorem_e_1(FY.Multilabel(4), 1.0, 1.0)
    st = FY.planted_stream(s, 5, n_features=3, norm=1.0, pool=5, seed=0)
    with pytest.raises(ValueError, match="B"):
        FY.run_online(s, st, learner="adaptive", seed=0)


def test_theorem_e1_table_matches_a_direct_run():
    s = FY.Multilabel(20, strength=2.0)
    streams = [FY.planted_stream(s, 60, n_features=4, norm=5.0, pool=6, seed=k) for k in (1, 2)]
    tab = FY.theorem_e1_table(s, streams, seed=3, n_jobs=1)
    again = FY.theorem_e1_table(s, streams, seed=3, n_jobs=1)
    pd.testing.assert_frame_equal(tab, again)
    assert np.allclose(tab["slack"], tab["bound"] - tab["sum_E"])
    assert np.allclose(tab["uniform"], 60 * 0.5)  # expected Hamming loss of a uniform guess
    rec = FY.run_online(s, streams[1], learner="adaptive", B=tab["B"].iloc[1], seed=0)
    assert rec.expected_loss.sum() == pytest.approx(tab["sum_E"].iloc[1])  # E_t: no decoding noise
    assert np.all(tab["slack"] >= 0)  # Theorem E.1 on these small streams


def test_structured_check_reuses_a_given_fit():
    """A precomputed Theorem 4.2 ridge fit gives the same table as the one fitted inside, and the
    slack is min bound minus sum E_t by hand; a fit of the wrong shape is refused."""
    s = FY.Multilabel(2, 4.0)
    st = FY.planted_stream(s, 60, n_features=3, norm=2.0, pool=6, seed=1)
    c42 = FY.bound_theorem_4_2(s, st.C, 1.0)
    fit = FY.fit_ridge(s, st, c42)
    inner, _ = FY.structured_check(s, st, 2, seed=5)
    given, recs = FY.structured_check(s, st, 2, seed=5, fit=fit)
    pd.testing.assert_frame_equal(inner, given)
    opt = fit.total_loss + c42 * fit.norm**2
    for k, r in enumerate(recs):
        assert given["slack"][k] == opt - float(r.expected_loss.sum())
    with pytest.raises(ValueError, match="fit"):
        FY.structured_check(s, st, 1, seed=0, fit=cmp.Fit(np.zeros((3, 3)), 0.0, 0.0))
    with pytest.raises(ValueError, match="fit"):
        FY.structured_check(s, st, 1, seed=0, fit=fit.U)
