"""Tests of mlgeom.hierarchical.learners against loop-based references (Sections 4, 8)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from mlgeom.hierarchical.learners import (
    HRLS,
    LEARNERS,
    SHRLS,
    SRLS,
    HPerceptron,
    Perceptron,
    make_learner,
)
from mlgeom.hierarchical.taxonomy import Taxonomy

# Figure 1's forest (0-based): 0 -> {1, 2}, 2 -> {3, 4}; 5 -> {6, 7}, 7 -> {8, 9, 10}
FIG1 = Taxonomy([-1, 0, 0, 2, 2, -1, 5, 5, 7, 7, 7])


def sample_data(G: Taxonomy, n: int, d: int, seed: int, density: float = 1.0):
    """Unit-norm instances and multilabels drawn top-down with P(v_i=1 | parent=1) = 0.5."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    if density < 1.0:
        X *= rng.random((n, d)) < density
        X[np.all(X == 0, axis=1), 0] = 1.0
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    V = np.zeros((n, len(G)), dtype=np.int8)
    for i in G.order:
        p = G.parent[i]
        on = rng.random(n) < 0.5
        V[:, i] = on if p < 0 else on & (V[:, p] == 1)
    return X, V


def top_down(G: Taxonomy, scores: np.ndarray) -> np.ndarray:
    """Eq. (15) applied to one vector of scores."""
    y = np.zeros(len(G), dtype=bool)
    for i in G.order:
        p = G.parent[i]
        y[i] = scores[i] >= 0 and (p < 0 or y[p])
    return y


def reference_rls(G, X, V, *, hierarchical=True, selective=False, margin_time="global"):
    """Primal eq. (1), re-solved with a d×d matrix at every round, one node at a time."""
    N, d = len(G), X.shape[1]
    S = [np.zeros((d, 0)) for _ in range(N)]
    Y = [np.zeros(0) for _ in range(N)]
    node_t = np.zeros(N, dtype=int)
    decisions, preds = [], []
    for t, (x, v) in enumerate(zip(X, V, strict=True), start=1):
        dec = np.array(
            [
                np.linalg.solve(np.eye(d) + S[i] @ S[i].T + np.outer(x, x), S[i] @ Y[i]) @ x
                for i in range(N)
            ]
        )
        decisions.append(dec)
        preds.append(top_down(G, dec) if hierarchical else dec >= 0)
        for i in range(N):
            p = G.parent[i]
            if hierarchical and p >= 0 and v[p] == 0:
                continue
            node_t[i] += 1
            n_i = S[i].shape[1]
            if selective and n_i > 0:
                tt = node_t[i] if margin_time == "node" else t
                if abs(dec[i]) > math.sqrt(5 * math.log(tt) / n_i):
                    continue
            S[i] = np.column_stack([S[i], x])
            Y[i] = np.append(Y[i], 2.0 * v[i] - 1.0)
    return np.array(decisions), np.array(preds), np.array([s.shape[1] for s in S])


def reference_perceptron(G, X, V, *, hierarchical=True):
    """Section 8's H-PERC / PERC, one node at a time."""
    W = np.zeros((len(G), X.shape[1]))
    preds, n_upd = [], np.zeros(len(G), dtype=int)
    for x, v in zip(X, V, strict=True):
        dec = W @ x
        preds.append(top_down(G, dec) if hierarchical else dec >= 0)
        for i in range(len(G)):
            p = G.parent[i]
            if hierarchical and p >= 0 and v[p] == 0:
                continue
            if (dec[i] >= 0) != bool(v[i]):
                W[i] += (2.0 * v[i] - 1.0) * x
                n_upd[i] += 1
    return W, np.array(preds), n_upd


def run_with_decisions(learner, X, V):
    """Online loop through the one-example API, recording decisions before each update."""
    decs, preds = [], []
    for x, v in zip(X, V, strict=True):
        decs.append(learner.decision_one(x))
        preds.append(learner.predict_one(x))
        learner.learn_one(x, v)
    return np.array(decs), np.array(preds)


# ------------------------------------------------------------------------------ H-RLS
def test_hrls_matches_primal_reference():
    X, V = sample_data(FIG1, 40, 6, seed=1)
    dec_ref, pred_ref, n_ref = reference_rls(FIG1, X, V)
    learner = HRLS(FIG1)
    dec, pred = run_with_decisions(learner, X, V)
    np.testing.assert_allclose(dec, dec_ref, rtol=0, atol=1e-10)
    np.testing.assert_array_equal(pred, pred_ref)
    np.testing.assert_array_equal(learner.n_stored, n_ref)
    # the batch path gives the same predictions as the one-example path
    np.testing.assert_array_equal(HRLS(FIG1).run_online(X, V), pred_ref)


def test_hrls_dual_state_is_the_inverse():
    X, V = sample_data(FIG1, 30, 5, seed=2)
    learner = HRLS(FIG1).partial_fit(X, V)
    for i in range(len(FIG1)):
        rounds, y = learner.stored(i)
        S = X[rounds].T
        alpha, M = learner.dual(i)
        M_ref = np.linalg.inv(np.eye(len(rounds)) + S.T @ S)
        np.testing.assert_allclose(M, M_ref, atol=1e-10)
        np.testing.assert_allclose(alpha, M_ref @ y, atol=1e-10)
        np.testing.assert_array_equal(y, 2.0 * V[rounds, i] - 1.0)


def test_hrls_stores_exactly_the_eligible_rounds():
    X, V = sample_data(FIG1, 25, 4, seed=3)
    learner = HRLS(FIG1).partial_fit(X, V)
    for i in range(len(FIG1)):
        p = FIG1.parent[i]
        expected = np.arange(25) if p < 0 else np.flatnonzero(V[:, p] == 1)
        np.testing.assert_array_equal(learner.stored(i)[0], expected)


def test_fresh_learner_predicts_all_ones():
    # w = 0 gives w·x = 0 >= 0 at every node (Figure 3), so the full forest is predicted
    for name in LEARNERS:
        assert make_learner(name, FIG1).predict_one(np.ones(3)).all()


def test_no_shared_feature_means_zero_margin():
    G = Taxonomy([-1])
    learner = HRLS(G).partial_fit([[1.0, 0.0]], [[0]])
    assert learner.decision_one([1.0, 0.0])[0] < 0
    assert learner.decision_one([0.0, 1.0])[0] == 0.0
    assert learner.predict_one([0.0, 1.0]).tolist() == [True]


# ------------------------------------------------------------------------------ SH-RLS
def test_shrls_margin_rule_hand_case():
    # One root, x = e1 with label 1 every round. With N copies stored, M = (I + 11ᵀ)⁻¹ gives
    # m = N/(N+1), q = 1/(N+1), so |w·x| = N/(N+2) at round t = N+1, against
    # sqrt(5 ln t / N): stored for t <= 19 (18/20 = 0.900 <= 0.904), not at t = 20
    # (19/21 = 0.905 > sqrt(5 ln 20 / 19) = 0.888) nor t = 21 (0.905 > 0.895).
    G = Taxonomy([-1])
    learner = SHRLS(G)
    for t in range(1, 22):
        m_abs = learner.decision_one([1.0, 0.0])[0]
        n = learner.n_stored[0]
        if t > 1:
            assert m_abs == pytest.approx(n / (n + 2), abs=1e-12)
        learner.learn_one([1.0, 0.0], [1])
        assert learner.n_stored[0] == (t if t <= 19 else 19)
    assert learner.stored(0)[0].tolist() == list(range(19))


@pytest.mark.parametrize("margin_time", ["global", "node"])
def test_shrls_matches_reference(margin_time):
    X, V = sample_data(FIG1, 60, 3, seed=4)
    dec_ref, pred_ref, n_ref = reference_rls(FIG1, X, V, selective=True, margin_time=margin_time)
    learner = SHRLS(FIG1, margin_time=margin_time)
    dec, pred = run_with_decisions(learner, X, V)
    np.testing.assert_allclose(dec, dec_ref, atol=1e-10)
    np.testing.assert_array_equal(pred, pred_ref)
    np.testing.assert_array_equal(learner.n_stored, n_ref)
    assert n_ref.sum() < reference_rls(FIG1, X, V)[2].sum()  # the condition did reject some


def test_margin_time_matters_below_the_roots():
    # child 1 sees only every other round: its own clock runs at half the global one
    G = Taxonomy([-1, 0])
    X = np.tile([1.0, 0.0], (80, 1))
    V = np.array([[1, 1], [0, 0]] * 40, dtype=np.int8)
    stored = {}
    for mt in ("global", "node"):
        learner = SHRLS(G, margin_time=mt).partial_fit(X, V)
        ref = reference_rls(G, X, V, selective=True, margin_time=mt)[2]
        np.testing.assert_array_equal(learner.n_stored, ref)
        stored[mt] = learner.n_stored[1]
    # on its own clock the child behaves as a lone root fed its 40 rounds
    alone = SHRLS(Taxonomy([-1])).partial_fit(X[:40], np.ones((40, 1), dtype=np.int8))
    assert stored["node"] == alone.n_stored[0]
    assert stored["global"] > stored["node"]


def test_srls_is_flat_shrls():
    X, V = sample_data(FIG1, 50, 4, seed=5)
    dec_ref, pred_ref, n_ref = reference_rls(FIG1, X, V, hierarchical=False, selective=True)
    learner = SRLS(FIG1)
    dec, pred = run_with_decisions(learner, X, V)
    np.testing.assert_allclose(dec, dec_ref, atol=1e-10)
    np.testing.assert_array_equal(pred, pred_ref)
    np.testing.assert_array_equal(learner.n_stored, n_ref)
    assert not FIG1.respects(pred).all()  # flat predictions need not respect G


# ------------------------------------------------------------------------------ Perceptrons
@pytest.mark.parametrize("cls, hierarchical", [(HPerceptron, True), (Perceptron, False)])
def test_perceptrons_match_reference(cls, hierarchical):
    X, V = sample_data(FIG1, 80, 7, seed=6, density=0.5)
    W_ref, pred_ref, n_ref = reference_perceptron(FIG1, X, V, hierarchical=hierarchical)
    learner = cls(FIG1)
    np.testing.assert_array_equal(learner.run_online(X, V), pred_ref)
    np.testing.assert_allclose(learner.weights, W_ref, atol=1e-12)
    np.testing.assert_array_equal(learner.n_stored, n_ref)
    np.testing.assert_allclose(learner.decision_one(X[0]), W_ref @ X[0], atol=1e-12)


def test_hierarchical_perceptron_updates_fewer_nodes_than_flat():
    X, V = sample_data(FIG1, 80, 7, seed=7)
    h = HPerceptron(FIG1).partial_fit(X, V)
    f = Perceptron(FIG1).partial_fit(X, V)
    # roots see the same stream in both, so they make the same updates
    np.testing.assert_array_equal(h.n_stored[FIG1.roots], f.n_stored[FIG1.roots])
    assert h.work["predict"] < f.work["predict"]


# ------------------------------------------------------------------------------ protocol
@pytest.mark.parametrize("name", list(LEARNERS))
def test_predict_is_top_down_or_flat(name):
    X, V = sample_data(FIG1, 40, 5, seed=8)
    learner = make_learner(name, FIG1).partial_fit(X[:30], V[:30])
    P = learner.predict(X[30:])
    for x, p in zip(X[30:], P, strict=True):
        dec = learner.decision_one(x)
        expected = top_down(FIG1, dec) if learner.hierarchical else dec >= 0
        np.testing.assert_array_equal(p, expected)
        np.testing.assert_array_equal(learner.predict_one(x), expected)
    if learner.hierarchical:
        assert FIG1.respects(P).all()


@pytest.mark.parametrize("name", list(LEARNERS))
def test_sparse_and_dense_inputs_agree_bitwise(name):
    X, V = sample_data(FIG1, 50, 9, seed=9, density=0.4)
    a, b = make_learner(name, FIG1), make_learner(name, FIG1)
    Xs = sp.csr_matrix(X)
    np.testing.assert_array_equal(a.run_online(X, V), b.run_online(Xs, sp.csr_matrix(V)))
    np.testing.assert_array_equal(a.n_stored, b.n_stored)
    assert np.array_equal(a.decision_one(X[0]), b.decision_one(Xs[0]))
    assert a.work == b.work


@pytest.mark.parametrize("name", list(LEARNERS))
def test_deterministic_and_partial_fit_equals_run_online(name):
    X, V = sample_data(FIG1, 60, 6, seed=10)
    a, b, c = (make_learner(name, FIG1) for _ in range(3))
    pa = a.run_online(X, V)
    np.testing.assert_array_equal(pa, b.run_online(X, V))
    c.partial_fit(X[:20], V[:20]).partial_fit(X[20:], V[20:])
    np.testing.assert_array_equal(a.n_stored, c.n_stored)
    np.testing.assert_array_equal(a.predict(X), c.predict(X))
    assert a.t_ == c.t_ == 60


def test_inputs_are_not_modified():
    X, V = sample_data(FIG1, 20, 4, seed=11)
    Xs = sp.csr_matrix(X)
    X0, V0, Xs0 = X.copy(), V.copy(), Xs.copy()
    for name in LEARNERS:
        make_learner(name, FIG1).run_online(Xs, V)
        make_learner(name, FIG1).run_online(X, V)
    assert np.array_equal(X, X0) and np.array_equal(V, V0)
    assert (Xs != Xs0).nnz == 0


def test_hierarchical_does_less_work_than_flat_and_counters_add_up():
    X, V = sample_data(FIG1, 60, 5, seed=12)
    h = SHRLS(FIG1).partial_fit(X, V)
    f = SRLS(FIG1).partial_fit(X, V)
    assert h.work["stored"] == h.n_stored.sum() and h.work["examples"] == 60
    assert h.work["predict"] < f.work["predict"]
    # every eligible node is evaluated once per round: Σ (N_i nnz + N_i) with the N_i of that
    # round; recompute it from the reference's stored counts
    g = HRLS(FIG1)
    expected = 0.0
    for x, v in zip(X, V, strict=True):
        n = g.n_stored
        for i in range(len(FIG1)):
            p = FIG1.parent[i]
            if p < 0 or v[p]:
                expected += n[i] * np.count_nonzero(x) + n[i]
        g.learn_one(x, v)
    assert g.work["predict"] == expected
    # H-RLS inserts at every eligible round: Σ_i Σ_{k < n_i} k²
    assert g.work["insert"] == sum(k * k for n_i in g.n_stored for k in range(n_i))


@settings(max_examples=15, deadline=None)
@given(
    parents=st.lists(st.integers(-1, 5), min_size=1, max_size=7),
    seed=st.integers(0, 2**16),
)
def test_hierarchical_predictions_respect_any_forest(parents, seed):
    parents = [p if p < i else -1 for i, p in enumerate(parents)]  # p < i: no cycle
    G = Taxonomy(parents)
    X, V = sample_data(G, 15, 3, seed=seed)
    for name in ("H-RLS", "SH-RLS", "H-PERC"):
        P = make_learner(name, G).run_online(X, V)
        assert G.respects(P).all()


# ------------------------------------------------------------------------------ bad inputs
def test_bad_inputs_raise_clear_errors():
    X, V = sample_data(FIG1, 5, 4, seed=13)
    with pytest.raises(ValueError, match="name must be one of"):
        make_learner("RLS", FIG1)
    with pytest.raises(ValueError, match="does not take parameter.*'eta'"):
        make_learner("H-PERC", FIG1, eta=0.1)
    with pytest.raises(ValueError, match="margin_time must be one of"):
        SHRLS(FIG1, margin_time="local")
    with pytest.raises(TypeError, match="taxonomy must be"):
        HRLS([-1, 0])
    with pytest.raises(ValueError, match="n_features must be an integer >= 1"):
        HPerceptron(FIG1, n_features=0)
    learner = HRLS(FIG1).partial_fit(X, V)
    with pytest.raises(ValueError, match="must have 4 features"):
        learner.predict(np.ones((2, 5)))
    with pytest.raises(ValueError, match="must have 11 columns"):
        HRLS(FIG1).partial_fit(X, V[:, :5])
    with pytest.raises(ValueError, match="V has 4 rows but X has 5"):
        HRLS(FIG1).partial_fit(X, V[:4])
    bad = V.copy()
    bad[0] = 0
    bad[0, 3] = 1  # node 3 without its parent 2
    with pytest.raises(ValueError, match=r"V\[0\] does not respect the taxonomy: node 3"):
        SHRLS(FIG1).run_online(X, bad)
    with pytest.raises(ValueError, match="multilabels are 0/1"):
        HRLS(FIG1).learn_one(X[0], np.r_[2, np.zeros(10)])
    with pytest.raises(ValueError, match="must be finite"):
        Perceptron(FIG1).predict(np.full((1, 4), np.nan))
    with pytest.raises(ValueError, match="x must be one instance"):
        HRLS(FIG1).learn_one(X[:2], V[0])
    with pytest.raises(ValueError, match="1-D .* or 2-D"):
        HRLS(FIG1).predict(np.ones((2, 2, 2)))
    with pytest.raises(IndexError, match="outside"):
        learner.stored(11)
