"""Section 5.1: Lemma 6, the η-perturbed bounds and the oracle deviation of eq. (16)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from mlgeom import metric_nn as M
from mlgeom.metric_nn.srm import margin_function


def _class_distances(dist, y, k):
    d_y = np.stack([dist[:, y == c].min(axis=1) for c in range(k)], axis=1)
    d_not = np.stack([np.delete(d_y, c, axis=1).min(axis=1) for c in range(k)], axis=1)
    return d_y, d_not


def test_eq16_is_truncated_half_difference():
    # the closed form the module relies on: h = T[-1,1](L (d_not - d_y) / 2)
    rng = np.random.default_rng(0)
    dist, y = rng.random((40, 25)) * 2, rng.integers(0, 4, 25)
    for L in (0.0, 0.7, 3.0, 20.0):
        d_y, d_not = _class_distances(dist, y, 4)
        np.testing.assert_allclose(
            margin_function(dist, y, 4, L), np.clip(L * (d_not - d_y) / 2, -1, 1), atol=1e-12
        )


def test_deviation_hand_case():
    # one class-0 point at distance 10, one class-1 point at 11, L = 1: h(x, 0) = 0.5;
    # eta = 0.1: inflating d_0 to 11 gives 0, inflating d_1 to 12.1 gives T(1.05) = 1
    dist, y = np.array([[10.0, 11.0]]), np.array([0, 1])
    dev, bound = M.eq16_oracle_deviation(dist, y, 2, 1.0, 0.1)
    np.testing.assert_allclose(dev, [[0.5, 0.5]])
    np.testing.assert_allclose(bound, [[0.55, 0.55]])
    assert dev.max() > 2 * 0.1  # the printed 2 eta fails here


def test_deviation_against_grid_of_oracles():
    # loop reference: every oracle answer on a grid of inflation factors, per class
    rng = np.random.default_rng(1)
    dist, y, L, eta = rng.random((6, 9)), rng.integers(0, 3, 9), 4.0, 0.2
    y[:3] = [0, 1, 2]
    dev, bound = M.eq16_oracle_deviation(dist, y, 3, L, eta)
    d_y, d_not = _class_distances(dist, y, 3)
    grid = np.linspace(1.0, 1.0 + eta, 11)
    for i, c in itertools.product(range(6), range(3)):
        h0 = np.clip(L * (d_not[i, c] - d_y[i, c]) / 2, -1, 1)
        worst = max(
            abs(np.clip(L * (sb * d_not[i, c] - sa * d_y[i, c]) / 2, -1, 1) - h0)
            for sa, sb in itertools.product(grid, grid)
        )
        assert dev[i, c] == pytest.approx(worst, abs=1e-12)
        assert dev[i, c] <= bound[i, c] + 1e-12


def test_deviation_zero_without_error():
    rng = np.random.default_rng(2)
    dev, _ = M.eq16_oracle_deviation(rng.random((5, 4)), np.array([0, 1, 0, 1]), 2, 3.0, 0.0)
    assert np.all(dev == 0)


def test_delta_eta_reduces_and_grows():
    kw = dict(n=np.array([1e3, 1e6]), L=2.0, delta=0.05, k=5, D=2.0)
    for b in M.BOUNDS:
        np.testing.assert_allclose(M.delta_eta(b, eta=0.0, **kw), M.complexity(b, **kw))
    np.testing.assert_allclose(M.delta_eta("rad", eta=0.01, **kw), M.delta_rad(**kw) + 0.04)
    # the fat term at eta: Theorem 5 with L / (1 - 8 eta) and 20k / (1 - 8 eta)
    eta, s = 0.05, 0.6
    n, L, k, D, delta = 1e3, 2.0, 5, 2.0, 0.05
    ref = np.sqrt(2 / n * (2 * (16 * L / s) ** D * np.log(20 * k / s) + np.log(2 * L / delta)))
    assert M.delta_eta("fat", n, L, delta, k, D, eta) == pytest.approx(ref + 1 / n)
    assert np.all(M.delta_eta("fat", eta=0.125, **kw) == np.inf)
    vals = [float(M.delta_eta("min", 1e4, 2.0, 0.05, 5, 2.0, e)) for e in (0, 0.01, 0.1)]
    assert vals[0] < vals[1] < vals[2]


def test_lemma6():
    eps = np.array([0.5, 1.0])
    np.testing.assert_allclose(
        M.log_covering_lemma6(eps, 0.0, 2.0, 3, 2.0), M.log_covering_lemma2(eps, 2.0, 3, 2.0)
    )
    np.testing.assert_allclose(
        M.log_covering_lemma6(eps, 0.1, 2.0, 3, 2.0),
        M.log_covering_lemma2(eps - 0.2, 2.0, 3, 2.0),
    )
    with pytest.raises(ValueError, match="eps > 2 eta"):
        M.log_covering_lemma6(0.2, 0.1, 2.0, 3, 2.0)


def test_bad_inputs():
    with pytest.raises(ValueError, match="eta"):
        M.delta_eta("min", 100, 1.0, 0.05, 3, 2.0, -0.1)
    with pytest.raises(ValueError, match="bound"):
        M.delta_eta("max", 100, 1.0, 0.05, 3, 2.0, 0.1)
    with pytest.raises(ValueError, match="y_s1"):
        M.eq16_oracle_deviation(np.ones((2, 3)), np.array([0, 1]), 2, 1.0, 0.1)
    with pytest.raises(ValueError, match="dist"):
        M.eq16_oracle_deviation(-np.ones((2, 2)), np.array([0, 1]), 2, 1.0, 0.1)


def test_srm_uses_perturbed_bound_with_tree():
    rng = np.random.default_rng(3)
    X = rng.random((60, 2))
    y = (X[:, 0] > 0.5).astype(int)
    exact = M.SRMNearestNeighbors(ddim=2.0).fit(X, y)
    approx = M.SRMNearestNeighbors(ddim=2.0, algorithm="tree", eta=0.05).fit(X, y)
    brute_eta = M.SRMNearestNeighbors(ddim=2.0, eta=0.05).fit(X, y)  # no oracle: exact bound
    assert approx.delta_ == pytest.approx(
        float(M.delta_eta("min", 60, approx.L_, 0.05, 2, 2.0, 0.05))
    )
    assert brute_eta.delta_ == exact.delta_
    # Δ_η >= Δ at every L, so the exact minimum of Q can only grow
    ex = dict(ddim=2.0, search="exhaustive")
    q_eta = M.SRMNearestNeighbors(algorithm="tree", eta=0.05, **ex).fit(X, y).Q_
    assert q_eta >= M.SRMNearestNeighbors(**ex).fit(X, y).Q_ - 1e-12


def test_experiments_tiny():
    task = M.digits_task(60, 0.2, 0, n_test=30)
    model = M.SRMNearestNeighbors(task.metric).fit(task.X_train, task.y_train)
    tab = M.oracle_deviation_check(task, model, [0.01, 0.1])
    assert list(tab.index) == [0.01, 0.1]
    assert (tab["max |h - h~| / bound"] <= 1 + 1e-9).all()
    runs = M.eta_srm_splits(lambda r: M.digits_task(60, 0.2, r, n_test=30), 2, 0, eta=0.05)
    assert len(runs) == 2 and {"exact SRM", "η-SRM", "random point of S1"} <= set(runs.columns)
    bt = M.eta_bound_table(1000, 3.0, 0.05, 10, 2.0, [0.0, 0.01])
    assert bt.loc[0.0, "Δ_η − Δ"] == 0.0 and bt.loc[0.01, "Δ_η − Δ"] > 0
