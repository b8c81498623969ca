"""Tests for mlgeom.metric_nn.tasks and mlgeom.metric_nn.experiments (the chapter's drivers)."""

from __future__ import annotations

import numpy as np
import pytest

from mlgeom.metric_nn import experiments as E
from mlgeom.metric_nn.spaces import check_distance_matrix, pairwise_distances
from mlgeom.metric_nn.tasks import SoftmaxProblem, digits_task, flip_labels, string_task


def test_flip_labels_changes_to_a_different_label():
    y = np.arange(1000) % 5
    z = flip_labels(y, 0.3, 5, seed=0)
    changed = z != y
    assert 0.25 < changed.mean() < 0.35
    assert np.all((z >= 0) & (z < 5))
    np.testing.assert_array_equal(flip_labels(y, 0.0, 5, seed=0), y)
    with pytest.raises(ValueError, match="rate must be in"):
        flip_labels(y, 1.5, 5, seed=0)


def test_tasks_are_deterministic():
    a, b = string_task(30, 10, seed=3), string_task(30, 10, seed=3)
    np.testing.assert_array_equal(a.X_train, b.X_train)
    np.testing.assert_array_equal(a.y_train, b.y_train)
    check_distance_matrix(pairwise_distances(a.X_train, metric="edit"))
    d1, d2 = digits_task(100, 0.2, seed=1), digits_task(100, 0.2, seed=1)
    np.testing.assert_array_equal(d1.y_train, d2.y_train)
    assert d1.X_train.shape == (100, 64) and len(d1.y_test) == 1797 - 100


def test_softmax_problem_is_lipschitz_with_the_stated_constant():
    prob = SoftmaxProblem.random(7, 2, beta=12.0, seed=0)
    rng = np.random.default_rng(1)
    A, B = rng.random((2000, 2)), rng.random((2000, 2))
    lhs = np.abs(prob.eta(A) - prob.eta(B)).max(axis=1)
    rhs = prob.lipschitz * np.abs(A - B).max(axis=1)
    assert np.all(lhs <= rhs + 1e-12)
    np.testing.assert_allclose(prob.eta(A).sum(axis=1), 1.0)


def test_bayes_risk_is_the_smallest_risk():
    prob = SoftmaxProblem.random(3, 1, beta=10.0, seed=2)
    bayes = prob.bayes_risk(400)
    X, y = prob.sample(50, seed=3)
    nn = lambda G: y[np.argmin(np.abs(G - X.T), axis=1)]  # noqa: E731
    assert bayes <= prob.risk(nn, 400)
    assert bayes <= prob.risk(lambda G: np.zeros(len(G), int), 400)
    # hand case: one class -> ... two identical centres give risk 1/2 everywhere
    twin = SoftmaxProblem(np.array([[0.5], [0.5]]), 3.0)
    assert twin.bayes_risk(10) == pytest.approx(0.5)


def test_figure3_driver_and_crossovers():
    tab = E.figure3_table(m_grid=np.logspace(6, 15, 10))
    assert len(tab) == 40 and np.all(tab["min"] <= tab["rad"])
    cr = E.figure3_crossovers()
    assert np.all(np.isfinite(cr["crossover m"]))


def test_compare_and_exact_q_check_small():
    task = digits_task(40, 0.2, seed=0, n_test=50)
    res = E.compare_on_task(task, seed=0)
    assert res.row["min margin on S1"] == pytest.approx(1.0)
    assert res.row["eq16 = NN in S1 (no ties)"] == 1.0
    summary, table = E.exact_q_check(res.model)
    assert summary["Q(L̃) / min Q̂"] <= 4.0
    assert summary["max m̃/m̂"] <= 2.0
    assert np.all(table["m̂/n"] <= table["m̃/n"] + 1e-12)


def test_cover_crosscheck_and_sweeps_run():
    cc = E.cover_crosscheck([8, 12], seed=0)
    assert cc["maximal (networkx)"].all() and cc["is cover"].all()
    assert np.all(cc["ours m̃"] <= 2 * cc["exact m̂"])
    prob = SoftmaxProblem.random(3, 1, 10.0, seed=0)
    t1 = E.theorem1_sweep(prob, [20, 40], reps=2, seed=0, grid=50)
    assert np.all(t1["E risk (1-NN)"] >= t1["Bayes risk"] - 1e-12)
    ks = E.k_sweep_srm([2, 3], n=40, beta=10.0, D=1, reps=1, seed=0, grid=30)
    assert list(ks.index) == [2, 3]
    ix = E.index_check(prob.grid(50), prob.grid(7), "chebyshev", [0.0, 0.5], repeats=1)
    assert np.all(ix["worst ratio"] <= ix["1 + eta"] + 1e-12)


def test_random_subset_1nn_is_1nn_on_a_uniform_subset():
    rng = np.random.default_rng(0)
    D = rng.random((5, 8))
    y = np.arange(8)
    full = E.random_subset_1nn(D, y, 8, seed=1)
    np.testing.assert_array_equal(full, np.argmin(D, axis=1))  # the whole sample: plain 1-NN
    one = E.random_subset_1nn(D, y, 1, seed=1)
    assert len(set(one.tolist())) == 1  # one kept point: a constant rule
    np.testing.assert_array_equal(
        E.random_subset_1nn(D, y, 4, seed=3), E.random_subset_1nn(D, y, 4, seed=3)
    )
    with pytest.raises(ValueError, match=r"size must be an integer in \[1, 8\]; got 0"):
        E.random_subset_1nn(D, y, 0, seed=1)
    with pytest.raises(ValueError, match=r"D_test must have shape \(m, 8\)"):
        E.random_subset_1nn(D[:, :3], y, 2, seed=1)


def test_srm_vs_1nn_splits_and_k_sweep_seeds():
    runs = E.srm_vs_1nn_splits(lambda r: digits_task(60, 0.2, r, n_test=40), 2, seed=0)
    assert len(runs) == 2 and runs["task"].nunique() == 1
    for col in ["SRM-NN", "1-NN", "random-subset 1-NN", "CV k-NN"]:
        assert runs[col].between(0, 1).all()
    again = E.srm_vs_1nn_splits(lambda r: digits_task(60, 0.2, r, n_test=40), 2, seed=0)
    pd_equal = runs.equals(again)
    assert pd_equal
    per = E.k_sweep_seeds([2, 3], n=40, beta=10.0, D=1, reps=2, seed=0, grid=30)
    assert len(per) == 4
    assert (per["1-NN risk"] >= per["Bayes risk"] - 1e-12).all()
    summ = E.k_sweep_srm([2, 3], n=40, beta=10.0, D=1, reps=2, seed=0, per_seed=per)
    np.testing.assert_allclose(summ["SRM-NN risk"], per.groupby("k")["SRM-NN risk"].mean())


# --- the SRM as printed: its exact minimiser and the factor the bound would have to shrink by


def _noisy_plane_task(n: int = 14, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = rng.random((n, 2))
    y = (X[:, 0] > 0.5).astype(int)
    y[:2] = 1 - y[:2]  # two noisy labels
    Xt = rng.random((20, 2))
    return E.Task(X, y, Xt, (Xt[:, 0] > 0.5).astype(int), y, "euclidean", "plane")


def _exhaustive_argmin(model, c):
    """Loop reference: the first candidate minimising m~/n + c Δ (index 0 is L -> 0)."""
    q = model.q_curve()
    best, best_q = 0, np.inf
    for j in range(len(q.L)):
        v = q.m_tilde[j] / model.n_train_ + c * q.delta[j]
        if v < best_q:
            best, best_q = j, v
    return float(q.L[best])


def test_limit_threshold_separates_the_limit_from_the_first_useful_L():
    t = _noisy_plane_task()
    D = pairwise_distances(t.X_train)
    model = E.SRMNearestNeighbors("precomputed", ddim=2.0, search="exhaustive").fit(D, t.y_train)
    c_star, L_star = E.limit_threshold(model)
    assert 0 < c_star < np.inf and L_star > 0
    assert _exhaustive_argmin(model, c_star * (1 + 1e-9)) == 0.0  # at or above c*: the limit
    assert _exhaustive_argmin(model, c_star * (1 - 1e-9)) == L_star  # just below: L*
    # with c = 1 the model's own exhaustive choice is the limit iff c* <= 1
    assert (model.L_ == 0.0) == (c_star <= 1.0)


def test_limit_threshold_refuses_an_unfitted_model():
    with pytest.raises(ValueError, match="fitted SRMNearestNeighbors"):
        E.limit_threshold(E.SRMNearestNeighbors())


def test_shrink_scan_at_factor_one_is_the_exhaustive_srm():
    t = _noisy_plane_task(seed=3)
    s = E.shrink_scan(t, [1.0, 1e-3])
    D = pairwise_distances(t.X_train)
    exh = E.SRMNearestNeighbors("precomputed", search="exhaustive").fit(D, t.y_train)
    assert s.table["L̃"].iloc[0] == exh.L_
    Dte = pairwise_distances(t.X_test, t.X_train)
    assert s.table["test error"].iloc[0] == pytest.approx(np.mean(exh.predict(Dte) != t.y_test))
    # a smaller factor never chooses a smaller L (the bound's share shrinks)
    assert s.table["L̃"].iloc[1] >= s.table["L̃"].iloc[0]
    assert set(s.reference) >= {"majority class", "1-NN", "SRM-NN (binary search)"}
    again = E.shrink_scan(t, [1.0, 1e-3])
    pd_eq = s.table.equals(again.table)
    assert pd_eq and s.threshold == again.threshold
    with pytest.raises(ValueError, match="factors"):
        E.shrink_scan(t, [0.0])
