"""Tests of mlgeom.hierarchical.svm: per-node training sets, eq. (15), liblinear vs libsvm."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.svm import SVC, LinearSVC

from mlgeom.hierarchical.svm import FlatSVM, HierarchicalSVM
from mlgeom.hierarchical.taxonomy import Taxonomy

# 0 -> {1, 2}, 2 -> {3}; 4 (a second root)
G = Taxonomy([-1, 0, 0, 2, -1])


def planted(n: int, d: int, seed: int, noise: float = 0.0):
    """Unit-norm instances; node i is 1 when its parent is 1 and u_i·x > 0 (flipped w.p. noise)."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    U = rng.standard_normal((len(G), d))
    V = np.zeros((n, len(G)), dtype=np.int8)
    for i in G.order:
        on = (X @ U[i] > 0) ^ (rng.random(n) < noise)
        p = G.parent[i]
        V[:, i] = on if p < 0 else on & (V[:, p] == 1)
    return X, V


def top_down(scores: np.ndarray) -> np.ndarray:
    out = np.zeros(scores.shape, dtype=bool)
    for i in G.order:
        p = G.parent[i]
        out[:, i] = (scores[:, i] >= 0) & (True if p < 0 else out[:, p])
    return out


def test_each_node_is_trained_on_its_parents_positives():
    X, V = planted(120, 6, seed=0, noise=0.1)
    svm = HierarchicalSVM(G).fit(X, V)
    for i in range(len(G)):
        p = G.parent[i]
        rows = np.arange(120) if p < 0 else np.flatnonzero(V[:, p])
        np.testing.assert_array_equal(svm.training_rows(V, i), rows)
        assert svm.n_train_[i] == rows.size
        ref = LinearSVC(C=1.0, loss="hinge", dual=True, max_iter=10_000, random_state=0)
        ref.fit(X[rows], V[rows, i])
        np.testing.assert_array_equal(svm.coef_[i], ref.coef_[0])
        assert svm.intercept_[i] == ref.intercept_[0]
    flat = FlatSVM(G).fit(X, V)
    assert (flat.n_train_ == 120).all()
    assert flat.n_train_[3] > svm.n_train_[3]


def test_prediction_is_top_down_for_hsvm_and_independent_for_flat():
    X, V = planted(150, 5, seed=1, noise=0.05)
    for cls, rule in ((HierarchicalSVM, top_down), (FlatSVM, lambda s: s >= 0)):
        model = cls(G).fit(X[:100], V[:100])
        scores = model.decision_function(X[100:])
        np.testing.assert_array_equal(model.predict(X[100:]), rule(scores))
    assert G.respects(HierarchicalSVM(G).fit(X, V).predict(X)).all()


def test_constant_nodes():
    X, V = planted(60, 4, seed=2)
    V[:, 3] = V[:, 2]  # node 3 is 1 exactly when its parent is: one class in its training set
    V[:, 4] = 0  # a root that is never positive
    svm = HierarchicalSVM(G).fit(X, V)
    assert svm.constant_.tolist() == [False, False, False, True, True]
    assert svm.intercept_[3] == 1.0 and svm.intercept_[4] == -1.0
    assert not svm.coef_[3].any()
    P = svm.predict(X)
    np.testing.assert_array_equal(P[:, 3], P[:, 2])
    assert not P[:, 4].any()
    # a node whose parent is never positive in training has no example: constant 0
    V2 = V.copy()
    V2[:, 2] = V2[:, 3] = 0
    assert HierarchicalSVM(G).fit(X, V2).n_train_[3] == 0
    assert HierarchicalSVM(G).fit(X, V2).intercept_[3] == -1.0


def test_liblinear_agrees_with_libsvm_on_a_small_separable_ish_set():
    # Same hinge objective; liblinear also regularizes the bias (a constant feature equal to
    # intercept_scaling), so the solutions differ a little and move together as it grows.
    X, V = planted(200, 5, seed=3, noise=0.02)
    Xtr, Vtr, Xte = X[:150], V[:150], X[150:]

    def rel_diff(a, b, i):
        wa = np.r_[a.coef_[i], a.intercept_[i]]
        wb = np.r_[b.coef_[i], b.intercept_[i]]
        return np.linalg.norm(wa - wb) / np.linalg.norm(wb)

    for cls in (FlatSVM, HierarchicalSVM):
        svm = cls(G, solver="libsvm", tol=1e-6).fit(Xtr, Vtr)
        lin = cls(G, tol=1e-6, max_iter=100_000).fit(Xtr, Vtr)
        lin10 = cls(G, tol=1e-6, max_iter=100_000, intercept_scaling=10.0).fit(Xtr, Vtr)
        assert lin.converged_.all() and lin10.converged_.all()
        assert (lin.predict(Xte) == svm.predict(Xte)).mean() >= 0.95
        np.testing.assert_array_equal(lin.constant_, svm.constant_)
        for i in np.flatnonzero(~lin.constant_):
            assert rel_diff(lin, svm, i) < 0.1
            assert rel_diff(lin10, svm, i) <= rel_diff(lin, svm, i) + 1e-3
            assert rel_diff(lin10, svm, i) < 0.01
    # the libsvm path is scikit-learn's SVC with a linear kernel, node by node
    svm = FlatSVM(G, solver="libsvm").fit(Xtr, Vtr)
    ref = SVC(kernel="linear", C=1.0, tol=1e-4).fit(Xtr, Vtr[:, 1])
    np.testing.assert_allclose(svm.coef_[1], ref.coef_[0], atol=1e-12)


def test_sparse_dense_and_determinism():
    X, V = planted(100, 8, seed=4, noise=0.1)
    a = HierarchicalSVM(G, random_state=3).fit(X, V)
    b = HierarchicalSVM(G, random_state=3).fit(sp.csr_matrix(X), sp.csr_matrix(V))
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(sp.csr_matrix(X)))


def test_squared_hinge_is_a_different_objective():
    X, V = planted(100, 5, seed=5, noise=0.1)
    hinge = FlatSVM(G).fit(X, V)
    sq = FlatSVM(G, loss="squared_hinge").fit(X, V)
    assert not np.allclose(hinge.coef_, sq.coef_)


def test_bad_inputs():
    X, V = planted(20, 3, seed=6)
    with pytest.raises(ValueError, match="C must be in"):
        HierarchicalSVM(G, C=0.0)
    with pytest.raises(ValueError, match="loss must be one of"):
        FlatSVM(G, loss="log")
    with pytest.raises(ValueError, match="solver must be one of"):
        FlatSVM(G, solver="sgd")
    with pytest.raises(ValueError, match="use loss='hinge'"):
        FlatSVM(G, solver="libsvm", loss="squared_hinge")
    with pytest.raises(TypeError, match="taxonomy must be"):
        FlatSVM([-1, 0])
    with pytest.raises(RuntimeError, match="not fitted"):
        HierarchicalSVM(G).predict(X)
    bad = V.copy()
    bad[0] = [0, 0, 0, 1, 0]
    with pytest.raises(ValueError, match=r"V\[0\] does not respect the taxonomy: node 3"):
        HierarchicalSVM(G).fit(X, bad)
    with pytest.raises(ValueError, match="V has 19 rows but X has 20"):
        FlatSVM(G).fit(X, V[:19])
    with pytest.raises(ValueError, match="must have 3 features"):
        FlatSVM(G).fit(X, V).predict(np.ones((2, 4)))
