"""Tests of mlgeom.hierarchical.label_model: Section 5 model, classifier (4), Theorem 2, eq. (7)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import scipy.sparse as sp

from mlgeom.hierarchical.label_model import (
    BOUND_CONSTANT,
    HierarchicalLabelModel,
    eq7_log_term,
    expected_parent_positives,
    log_det_term,
    subtree_costs,
    theorem2_bound,
)
from mlgeom.hierarchical.losses import h_loss
from mlgeom.hierarchical.taxonomy import Taxonomy

# A small forest: 0 -> {1, 2}, 1 -> {3}, 3 -> {4}; 5 (root) -> {6}
G = Taxonomy([-1, 0, 0, 1, 3, -1, 5])


def _unit_rows(rng, n, d):
    A = rng.standard_normal((n, d))
    return A / np.linalg.norm(A, axis=1, keepdims=True)


def _model(seed=0, d=5):
    rng = np.random.default_rng(seed)
    return HierarchicalLabelModel(G, _unit_rows(rng, G.n_nodes, d))


def _instances(seed, n, d=5):
    rng = np.random.default_rng(seed)
    return _unit_rows(rng, n, d) * rng.uniform(0.3, 1.0, size=(n, 1))


# ---------------------------------------------------------------------- references (loops)
def _joint_loop(model, x):
    """All 2^N multilabels with their probability f_G(v | x), straight from Section 5."""
    p = (1 + model.U @ x) / 2
    out = []
    for bits in itertools.product([0, 1], repeat=G.n_nodes):
        prob = 1.0
        for i, b in enumerate(bits):
            par = G.parent[i]
            if par >= 0 and bits[par] == 0:
                prob *= 1.0 if b == 0 else 0.0  # eq. (2)
            else:
                prob *= p[i] if b else 1 - p[i]  # eq. (3)
        out.append((np.array(bits), prob))
    return out


def test_joint_sums_to_one_and_respects_G():
    model, x = _model(), _instances(1, 1)[0]
    joint = _joint_loop(model, x)
    assert sum(p for _, p in joint) == pytest.approx(1.0, abs=1e-12)
    for v, p in joint:
        if p > 0:
            assert G.respects(v)[0]


def test_marginals_and_expected_h_loss_equal_exhaustive_sums():
    model = _model(2)
    X = _instances(3, 4)
    rng = np.random.default_rng(4)
    Yhat = rng.integers(0, 2, size=(4, G.n_nodes))  # need not respect G
    costs = rng.uniform(0.5, 2.0, G.n_nodes)
    M = model.marginals(X)
    E = model.expected_h_loss(X, Yhat, costs)
    for k, x in enumerate(X):
        joint = _joint_loop(model, x)
        np.testing.assert_allclose(M[k], sum(p * v for v, p in joint), atol=1e-12)
        exp_loss = sum(p * h_loss(Yhat[k], v, G, costs)[0] for v, p in joint)
        assert E[k] == pytest.approx(exp_loss, abs=1e-12)


def test_expected_h_loss_matches_monte_carlo_of_sample():
    model = _model(5)
    x = _instances(6, 1)
    Yhat = model.reference_predict(x)
    n = 40_000
    V = model.sample(np.repeat(x, n, axis=0), seed=7)
    mc = h_loss(np.repeat(Yhat, n, axis=0), V, G)
    exact = model.expected_h_loss(x, Yhat)[0]
    assert abs(mc.mean() - exact) < 4 * mc.std() / np.sqrt(n) + 1e-12
    # marginals against the sampled frequencies
    np.testing.assert_allclose(V.mean(axis=0), model.marginals(x)[0], atol=0.015)


def test_per_node_expected_loss_sums_to_total():
    model, X = _model(8), _instances(9, 6)
    Yhat = model.sample(X, seed=10)
    per = model.expected_h_loss(X, Yhat, per_node=True)
    assert per.shape == (6, G.n_nodes)
    np.testing.assert_allclose(per.sum(axis=1), model.expected_h_loss(X, Yhat))


def test_probabilities_eq3_and_margins():
    model, X = _model(11), _instances(12, 3)
    np.testing.assert_allclose(model.probabilities(X), (1 + X @ model.U.T) / 2)
    P = model.probabilities(X)
    assert np.all((P >= 0) & (P <= 1))


def test_sample_respects_G_is_deterministic_and_accepts_sparse():
    model, X = _model(13), _instances(14, 200)
    V1 = model.sample(X, seed=3)
    V2 = model.sample(sp.csr_matrix(X), seed=3)
    np.testing.assert_array_equal(V1, V2)
    assert V1.dtype == bool and G.respects(V1).all()
    assert not np.array_equal(V1, model.sample(X, seed=4))


def test_reference_classifier_eq4_loop():
    model, X = _model(15), _instances(16, 50)
    Y = model.reference_predict(X)
    for k, x in enumerate(X):
        for i in range(G.n_nodes):
            par = G.parent[i]
            expected = (model.U[i] @ x >= 0) and (par < 0 or Y[k, par])
            assert Y[k, i] == expected
    assert G.respects(Y).all()


def test_reference_is_optimal_per_node_on_a_chain():
    # On a single node the reference classifier is the Bayes classifier of the H-loss.
    G1 = Taxonomy([-1])
    model = HierarchicalLabelModel(G1, [[1.0, 0.0]])
    X = np.array([[0.3, 0.0], [-0.3, 0.0]])
    ref = model.expected_h_loss(X, model.reference_predict(X))
    flip = model.expected_h_loss(X, ~model.reference_predict(X))
    assert np.all(ref < flip)
    np.testing.assert_allclose(ref, [0.35, 0.35])


def test_validation_errors():
    with pytest.raises(ValueError, match="unit vectors.*row 1"):
        HierarchicalLabelModel(Taxonomy([-1, 0]), [[1.0, 0.0], [0.5, 0.5]])
    with pytest.raises(ValueError, match="shape"):
        HierarchicalLabelModel(Taxonomy([-1, 0]), [[1.0, 0.0]])
    with pytest.raises(TypeError, match="Taxonomy"):
        HierarchicalLabelModel([-1, 0], [[1.0], [1.0]])
    model = _model()
    with pytest.raises(ValueError, match="norm <= 1.*row 0"):
        model.probabilities(np.full((1, 5), 1.0))
    with pytest.raises(ValueError, match="5 columns"):
        model.probabilities(np.zeros((1, 4)))
    with pytest.raises(ValueError, match="rows"):
        model.expected_h_loss(_instances(0, 2), np.zeros((3, G.n_nodes)))
    with pytest.raises(ValueError, match="costs"):
        model.expected_h_loss(_instances(0, 2), np.zeros((2, G.n_nodes)), costs=-np.ones(7))


# ---------------------------------------------------------------------- Theorem 2 and eq. (7)
def test_subtree_costs():
    np.testing.assert_array_equal(subtree_costs(G), [5, 3, 1, 2, 1, 2, 1])
    c = np.arange(1.0, 8.0)
    expected = [sum(c[k] for k in G.subtree(i)) for i in range(G.n_nodes)]
    np.testing.assert_allclose(subtree_costs(G, c), expected)


def test_log_det_term_both_forms_and_eigenvalues():
    rng = np.random.default_rng(0)
    for Q in (0, 3, 12):
        S = _unit_rows(rng, Q, 6) if Q else np.zeros((0, 6))
        lam = np.linalg.eigvalsh(S.T @ S) if Q else np.zeros(6)
        assert log_det_term(S) == pytest.approx(np.log1p(np.clip(lam, 0, None)).sum(), abs=1e-10)
    S = _unit_rows(rng, 20, 6)
    # Remark 4: sum log(1 + λ) <= d log(1 + Q/d) since trace = Q
    assert log_det_term(S) <= eq7_log_term(20, 6) + 1e-12


def test_expected_parent_positives_and_eq7():
    model, X = _model(20), _instances(21, 30)
    E = expected_parent_positives(model, X)
    M = model.marginals(X)
    np.testing.assert_allclose(E[:, G.roots], 1.0)
    np.testing.assert_allclose(E[:, 3], M[:, 1])
    b = theorem2_bound(model, X, kind="eq7")
    np.testing.assert_allclose(b.log_term, 5 * np.log1p(E.sum(axis=0) / 5))
    np.testing.assert_allclose(b.min_margin_sq, ((X @ model.U.T) ** 2).min(axis=0))
    np.testing.assert_allclose(
        b.per_node, BOUND_CONSTANT * subtree_costs(G) * b.log_term / b.min_margin_sq
    )
    assert b.total == pytest.approx(b.per_node.sum())


def test_theorem2_estimate_below_eq7_on_average():
    # Jensen + Remark 4: E[sum log(1 + λ)] <= d log(1 + E Q / d)
    model, X = _model(22), _instances(23, 200)
    Vs = [model.sample(X, seed=s) for s in range(10)]
    t2 = theorem2_bound(model, X, V=Vs)
    e7 = theorem2_bound(model, X, kind="eq7")
    assert np.all(t2.log_term <= e7.log_term + 1e-9)
    assert t2.total <= e7.total
    # roots store every instance: the log term is deterministic there
    for r in G.roots:
        assert t2.log_term[r] == pytest.approx(log_det_term(X))


def test_bound_monotone_in_T_and_in_costs():
    model, X = _model(24), _instances(25, 300)
    totals = [theorem2_bound(model, X[:T], kind="eq7").total for T in (10, 50, 100, 300)]
    assert np.all(np.diff(totals) >= 0)  # min margin shrinks, E Q grows
    b1 = theorem2_bound(model, X, kind="eq7")
    b2 = theorem2_bound(model, X, kind="eq7", costs=np.full(G.n_nodes, 2.0))
    assert b2.total == pytest.approx(2 * b1.total)


def test_bound_special_cases():
    # a zero margin on some round makes the bound vacuous (infinite) at that node
    G1 = Taxonomy([-1])
    model = HierarchicalLabelModel(G1, [[1.0, 0.0]])
    b = theorem2_bound(model, [[0.0, 1.0], [1.0, 0.0]], kind="eq7")
    assert np.isinf(b.total)
    # a single root, margin 1 on every round: 16(1 + 1/e) log(1 + T) exactly (d = 1)
    model = HierarchicalLabelModel(G1, [[1.0]])
    X = np.ones((9, 1))
    b = theorem2_bound(model, X, V=[np.ones((9, 1))])
    assert b.total == pytest.approx(BOUND_CONSTANT * np.log(10.0))
    assert theorem2_bound(model, X, kind="eq7").total == pytest.approx(b.total)
    with pytest.raises(ValueError, match="needs V"):
        theorem2_bound(model, X)
    with pytest.raises(ValueError, match="kind"):
        theorem2_bound(model, X, kind="bogus")
    with pytest.raises(ValueError, match="rows for T"):
        theorem2_bound(model, X, V=np.ones((3, 1)))
