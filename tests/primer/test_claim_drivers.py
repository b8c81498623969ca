"""The strawmen and per-seed statistics behind the primer's claims (run on the same data)."""

from math import comb

import numpy as np
import pytest

from mlgeom.algorithms import kernels
from mlgeom.algorithms import perceptrons as perceptron
from mlgeom.algorithms.sampling import priority_sample
from mlgeom.primer import experiments as primer
from mlgeom.primer import kernel_perceptrons as kp
from mlgeom.random import spawn


def test_per_seed_slopes_recover_planted_power_laws():
    x = np.array([10.0, 20, 40, 80, 160])
    values = np.stack([3 * x**-0.5, 0.7 * x**-1.0], axis=1)
    np.testing.assert_allclose(primer.per_seed_slopes(x, values), [-0.5, -1.0], atol=1e-12)
    with pytest.raises(ValueError, match=r"shape \(len\(x\), n_seeds\)"):
        primer.per_seed_slopes(x, values[:3])


def test_priority_bias_draws_match_direct_calls_and_the_strawman_is_biased_low():
    w = np.array([1.8, 1.05, 0.62, 0.55, 0.40, 0.28, 0.16, 0.12, 0.09, 0.08])
    ours, naive = primer.priority_bias_draws(w, 4, 400, seed=11)
    g = spawn(11, 400)[3]
    s = priority_sample(w, 4, seed=g)
    assert ours[3] == pytest.approx(s.estimate - w.sum())
    assert naive[3] == pytest.approx(w[s.indices].sum() - w.sum())
    # the uncorrected sum of k < n kept weights always misses the dropped items' weight
    assert np.all(naive < 0) and np.all(naive <= ours + 1e-12)
    assert abs(ours.mean()) < 0.3 < abs(naive.mean())


def test_feature_dimension_is_the_number_of_monomials():
    table = primer.feature_dimension_sweep([1, 2, 3, 5], 2, seed=0)
    assert list(table["rank"]) == [comb(d + 2, 2) for d in (1, 2, 3, 5)]
    assert (table["binomial"] == table["rank"]).all()
    with pytest.raises(ValueError, match="degree"):
        primer.feature_dimension_sweep([2], 0, seed=0)


def test_max_margin_seed_sweep_runs_both_rules_on_the_same_data():
    runs = primer.max_margin_seed_sweep(80, 3, 0.2, [0.5, 0.2], 2, seed=6)
    assert list(runs["seed"]) == [0, 0, 1, 1]
    X, y, _ = perceptron.planted_margin_data(80, 3, 0.2, seed=spawn(6, 2)[1])
    plain = perceptron.margin(X, y, perceptron.perceptron(X, y).w)
    assert runs.loc[2, "plain_margin"] == pytest.approx(plain)
    np.testing.assert_allclose(runs["ratio"], runs["margin"] / runs["target"])
    assert (runs["margin"] <= runs["gamma0"] + 1e-7).all()
    with pytest.raises(ValueError, match="eps"):
        primer.max_margin_seed_sweep(80, 3, 0.2, [1.5], 2, seed=6)


def test_rkhs_normalized_margin_matches_an_explicit_feature_map():
    # linear kernel through the polynomial kernel of degree 1 on points with a constant feature
    rng = np.random.default_rng(2)
    X = rng.normal(size=(12, 2))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    alpha = rng.integers(0, 3, size=12)
    alpha[0] = 1
    K = kernels.kernel_matrix(X, X, "polynomial", degree=1)  # <(1, x), (1, p)>
    Phi = np.c_[np.ones(12), X]
    w = Phi.T @ (alpha * y)
    expected = np.min(y * (Phi @ w)) / np.linalg.norm(w)
    assert primer.rkhs_normalized_margin(alpha, y, K) == pytest.approx(expected)
    with pytest.raises(ValueError, match="all zero"):
        primer.rkhs_normalized_margin(np.zeros(12), y, K)


def test_kernel_table_budget_strawman_and_slides_rule():
    data = primer.planar_benchmarks(40, seed=5)
    table, _ = primer.kernel_perceptron_table(
        {"rings": data["rings"]},
        {"laplace": {"kernel": "laplace"}, "poly1": {"kernel": "polynomial", "degree": 1}},
        max_updates=5000,
    )
    lap = table.loc[("rings", "laplace")]
    assert lap["separable"] and lap["budget"] == int(np.ceil(lap["bound"]))
    assert lap["updates"] <= lap["budget"] and lap["train_error"] == 0.0
    assert lap["mv_complete"] and lap["mv_margin_ratio"] >= 1 - 1e-9  # slides' guarantee
    assert lap["mv_train_error"] == 0.0
    # rings are not linearly separable: no RKHS margin for a degree-1 kernel, budget is the cap
    lin = table.loc[("rings", "poly1")]
    assert not lin["separable"] and np.isnan(lin["bound"]) and lin["budget"] == 5000
    assert lin["updates"] <= 5000 and lin["linear_train_error"] > 0
    # the slides' rule as run here is the package's most_violated rule
    Xtr, ytr, _, _ = data["rings"]
    model = kp.kernel_perceptron(
        Xtr, ytr, "laplace", rule="most_violated", n_steps=int(lap["mv_steps"])
    )
    K = kernels.kernel_matrix(Xtr, Xtr, "laplace")
    gamma0 = kp.rkhs_margin(Xtr, ytr, "laplace")
    ratio = primer.rkhs_normalized_margin(model.alpha, ytr, K) / (0.5 * gamma0)
    assert ratio == pytest.approx(lap["mv_margin_ratio"])
